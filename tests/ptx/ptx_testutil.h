/*
 * ptx_testutil.h - helpers shared by the PTX front-end tests: read a PTX
 * file (paths relative to the repository root, where ctest runs), create a
 * device from PTX text or a file, and capture a device's warp stream.
 */
#ifndef GE_PTX_TESTUTIL_H
#define GE_PTX_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gpurt.h"
#include "wstream.h"

/* Whole file as a NUL-terminated string (fails the test if unreadable). */
char *tu_read(const char *path);
/* Device from PTX text; fails the test with the message if it does not parse. */
gpurt *tu_device(const char *ptx, const char *name);
gpurt *tu_device_file(const char *path);

/* A captured stream: every event and a deep copy of every CTA. */
typedef struct tu_capture {
    ws_event *ev;
    size_t nev, evcap;
    ws_cta *cta;        /* CTAs of all kernels, in order */
    size_t ncta, ctacap;
    uint32_t *cta_kernel; /* index into ev of each CTA's kernel event */
} tu_capture;

void tu_capture_attach(gpurt *d, tu_capture *c);
void tu_capture_free(tu_capture *c);

/* Run PTX text with one kernel `k(.param .u64 in, .param .u64 out)` over
 * n threads (blocks of `block`), in[] of n*in_words u64, out[] of n*out_words
 * u64; returns 0 or -1 with the device error copied to err. */
int tu_run_io(const char *ptx, const char *kernel, uint32_t n, uint32_t block, const uint64_t *in,
              size_t in_words, uint64_t *out, size_t out_words, char *err, size_t errcap);

/* The per-thread operation harness.  Each thread t loads a = in[3t],
 * b = in[3t+1], c = in[3t+2] into %ra %rb %rc (b64), with views %wa.. (b32,
 * low half), %ha.. (b16), %fa.. (f32 from the low 32 bits), %da.. (f64), and
 * runs `body`, which must leave the result in %out (b64; 0 when unset);
 * scratch registers %q0-7 (b64), %w0-7 (b32), %h0-7 (b16), %f0-7 (f32),
 * %d0-7 (f64), %p0-7 (pred).  tu_op() returns the results of n threads. */
typedef uint64_t (*tu_ref)(uint64_t a, uint64_t b, uint64_t c);
void tu_op(const char *body, const uint64_t (*in)[3], int n, uint64_t *out);
/* Run body over the inputs and compare every result with ref(a, b, c). */
void tu_op_check(const char *body, const uint64_t (*in)[3], int n, tu_ref ref);
/* Same with a list of scalar inputs: all (a, b, c) combinations are not
 * needed; thread t gets vals[t % nv], vals[(t / nv) % nv], vals[(t / nv / nv) % nv]. */
void tu_op_check_grid(const char *body, const uint64_t *vals, int nv, int nargs, tu_ref ref);

/* f32/f64 bits helpers */
uint64_t tu_f32(float f);
float tu_as_f32(uint64_t v);
uint64_t tu_f64(double d);
double tu_as_f64(uint64_t v);

#endif
