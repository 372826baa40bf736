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

#endif
