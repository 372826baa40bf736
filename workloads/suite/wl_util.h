/*
 * wl_util.h - what every suite driver shares: a seeded PRNG, a run context
 * that owns host and device buffers and turns gpurt failures into ge_err
 * lines, result checks with tolerances, and test hooks.
 *
 * A driver does: wl_begin(), make inputs with wl_rng, wl_upload() them,
 * wl_launch() kernels, wl_download() results, compute the CPU reference,
 * wl_check_*() and return wl_end(ctx, rc).  Every helper returns 0 / a
 * non-zero pointer on success and -1 / NULL / 0 with ctx->e filled on
 * failure, so a driver writes `if (...) goto out;` after each step and
 * wl_end() frees whatever was allocated.
 *
 * Test hooks (wl_hooks) are per calling thread: the tests set them, call a
 * workload's run() directly in the same thread, and read the digests.
 * Nothing else sets them, so production runs never see them.
 */
#ifndef GE_WL_UTIL_H
#define GE_WL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "gpurt.h"
#include "suite.h"

/* ---- PRNG: splitmix64 (Steele, Lea & Flood, OOPSLA 2014) ---- */
typedef struct wl_rng {
    uint64_t s;
} wl_rng;

/* A stream for (seed, stream id): different ids give independent streams. */
void wl_rng_seed(wl_rng *r, uint64_t seed, uint64_t stream);
uint64_t wl_rng_next(wl_rng *r);
uint32_t wl_rng_below(wl_rng *r, uint32_t n); /* uniform in [0, n), n > 0 */
float wl_rng_float(wl_rng *r, float lo, float hi); /* uniform in [lo, hi) */

/* ---- test hooks ---- */
typedef struct wl_hooks {
    uint32_t fault;      /* != 0: the first result check corrupts one element first */
    uint64_t in_digest;  /* out: FNV-1a of all bytes uploaded */
    uint64_t out_digest; /* out: FNV-1a of all bytes downloaded */
} wl_hooks;
/* Install hooks for runs in the calling thread (NULL removes them). */
void wl_set_hooks(wl_hooks *h);

/* ---- run context ---- */
#define WL_MAX_BUFS 24

typedef struct wl_ctx {
    gpurt *dev;
    const wl_params *p;
    ge_err *e;
    const char *name;  /* workload name, for messages */
    uint32_t size;     /* p->size or the default */
    uint64_t seed;
    gpurt_ptr dbuf[WL_MAX_BUFS];
    int ndbuf;
    void *hbuf[WL_MAX_BUFS];
    int nhbuf;
    wl_hooks *hooks;
    int fault_done;
} wl_ctx;

/* Start a run of workload w: size 0 in p means w->default_size; a size
 * outside [min_size, max_size] is an error (returns -1). */
int wl_begin(wl_ctx *c, gpurt *dev, const wl_params *p, ge_err *e, const wl_desc *w, uint32_t min_size,
             uint32_t max_size);
/* Free everything; returns rc, or -1 if freeing device memory failed. */
int wl_end(wl_ctx *c, int rc);

/* Zeroed host array of n elements of `size` bytes, owned by the context. */
void *wl_host(wl_ctx *c, size_t n, size_t size);
/* Device buffer (owned by the context), zero-filled; 0 on failure. */
gpurt_ptr wl_alloc(wl_ctx *c, size_t bytes);
/* Device buffer initialised from host memory; 0 on failure. */
gpurt_ptr wl_upload(wl_ctx *c, const void *src, size_t bytes);
int wl_h2d(wl_ctx *c, gpurt_ptr dst, const void *src, size_t bytes);
/* Count a scalar kernel argument made from the seed as an input (for the
 * input digest; uploads are counted automatically). */
void wl_note_input(wl_ctx *c, const void *value, size_t bytes);
int wl_download(wl_ctx *c, void *dst, gpurt_ptr src, size_t bytes);
int wl_launch(wl_ctx *c, const char *kernel, gpurt_dim3 grid, gpurt_dim3 block, uint32_t dyn_shmem, void **args);
/* Device error (gpurt_error) into c->e; returns -1. */
int wl_dev_fail(wl_ctx *c, const char *what);

/* Ceiling division. */
static inline uint32_t wl_div_up(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

/* ---- result checks: "verification failed: WHAT[i]: expected X, got Y" ---- */
/* |got - ref| <= atol + rtol * |ref| + tol[i] for every element (tol may be
 * NULL: no per-element term; NaN always fails). */
int wl_check_f32(wl_ctx *c, const char *what, float *got, const double *ref, const double *tol, size_t n,
                 double rtol, double atol);
int wl_check_u32(wl_ctx *c, const char *what, uint32_t *got, const uint32_t *ref, size_t n);
int wl_check_i32(wl_ctx *c, const char *what, int32_t *got, const int32_t *ref, size_t n);
/* For drivers with their own check: 1 (once) if the fault hook asks to
 * corrupt a result now. */
int wl_fault_now(wl_ctx *c);
/* "verification failed: ..." into c->e; returns -1. */
int wl_verify_fail(wl_ctx *c, const char *fmt, ...) GE_PRINTF(2, 3);

#endif
