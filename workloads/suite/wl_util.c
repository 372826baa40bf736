/*
 * wl_util.c - shared helpers of the suite drivers (see wl_util.h).
 *
 * The run context keeps a short fixed array of host and device buffers
 * instead of a general allocator: drivers use a handful each, and freeing
 * everything in wl_end() means no driver has per-buffer cleanup code.
 *
 * Checks compare against references computed in double (floats) or exactly
 * (integers) and report the first mismatch with its index.  Each driver
 * chooses its tolerance next to the check and says why.
 *
 * The digests use FNV-1a (Fowler, Noll, Vo), which is enough to tell runs
 * apart in the determinism tests; it is not a cryptographic hash.
 */
#include "wl_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG ---- */

void wl_rng_seed(wl_rng *r, uint64_t seed, uint64_t stream)
{
    r->s = seed ^ (stream * 0xD1B54A32D192ED03ull);
    (void)wl_rng_next(r);
}

uint64_t wl_rng_next(wl_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t wl_rng_below(wl_rng *r, uint32_t n)
{
    /* Multiply-shift (Lemire 2019) without the rejection step: the bias is
     * below n / 2^32, irrelevant for making test inputs. */
    return (uint32_t)(((wl_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

float wl_rng_float(wl_rng *r, float lo, float hi)
{
    float u = (float)(wl_rng_next(r) >> 40) * (1.0f / 16777216.0f); /* 24 bits: exact in [0,1) */
    return lo + (hi - lo) * u;
}

/* ---- hooks ---- */

static _Thread_local wl_hooks *tls_hooks;

void wl_set_hooks(wl_hooks *h) { tls_hooks = h; }

static void digest(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t x = *h;
    for (size_t i = 0; i < n; i++) {
        x ^= b[i];
        x *= 0x100000001B3ull;
    }
    *h = x;
}

/* ---- context ---- */

int wl_begin(wl_ctx *c, gpurt *dev, const wl_params *p, ge_err *e, const wl_desc *w, uint32_t min_size,
             uint32_t max_size)
{
    memset(c, 0, sizeof *c);
    c->dev = dev;
    c->p = p;
    c->e = e;
    c->name = w->name;
    c->size = p->size ? p->size : w->default_size;
    c->seed = p->seed;
    c->hooks = tls_hooks;
    if (c->hooks) {
        c->hooks->in_digest = c->hooks->out_digest = 0xCBF29CE484222325ull;
    }
    if (c->size < min_size || c->size > max_size)
        return ge_errf(e, "%s: size %u out of range [%u, %u] (size is the %s)", c->name, c->size, min_size,
                      max_size, w->size_help);
    return 0;
}

int wl_end(wl_ctx *c, int rc)
{
    for (int i = c->ndbuf - 1; i >= 0; i--) {
        if (gpurt_free(c->dev, c->dbuf[i]) != 0 && rc == 0)
            rc = wl_dev_fail(c, "free");
    }
    for (int i = 0; i < c->nhbuf; i++)
        free(c->hbuf[i]);
    c->ndbuf = c->nhbuf = 0;
    return rc;
}

int wl_dev_fail(wl_ctx *c, const char *what)
{
    const char *msg = gpurt_error(c->dev);
    return ge_errf(c->e, "%s: %s: %s", c->name, what, msg ? msg : "device error");
}

void *wl_host(wl_ctx *c, size_t n, size_t size)
{
    if (c->nhbuf == WL_MAX_BUFS) {
        ge_errf(c->e, "%s: too many host buffers", c->name);
        return NULL;
    }
    void *p = ge_calloc(n ? n : 1, size, c->e);
    if (p)
        c->hbuf[c->nhbuf++] = p;
    return p;
}

gpurt_ptr wl_alloc(wl_ctx *c, size_t bytes)
{
    if (c->ndbuf == WL_MAX_BUFS) {
        ge_errf(c->e, "%s: too many device buffers", c->name);
        return 0;
    }
    gpurt_ptr d = gpurt_malloc(c->dev, bytes);
    if (d == 0) {
        wl_dev_fail(c, "malloc");
        return 0;
    }
    c->dbuf[c->ndbuf++] = d;
    if (gpurt_memset(c->dev, d, 0, bytes) != 0) {
        wl_dev_fail(c, "memset");
        return 0;
    }
    return d;
}

int wl_h2d(wl_ctx *c, gpurt_ptr dst, const void *src, size_t bytes)
{
    if (gpurt_memcpy_h2d(c->dev, dst, src, bytes) != 0)
        return wl_dev_fail(c, "copy to device");
    if (c->hooks)
        digest(&c->hooks->in_digest, src, bytes);
    return 0;
}

void wl_note_input(wl_ctx *c, const void *value, size_t bytes)
{
    if (c->hooks)
        digest(&c->hooks->in_digest, value, bytes);
}

gpurt_ptr wl_upload(wl_ctx *c, const void *src, size_t bytes)
{
    gpurt_ptr d = wl_alloc(c, bytes);
    if (d == 0 || wl_h2d(c, d, src, bytes) != 0)
        return 0;
    return d;
}

int wl_download(wl_ctx *c, void *dst, gpurt_ptr src, size_t bytes)
{
    if (gpurt_memcpy_d2h(c->dev, dst, src, bytes) != 0)
        return wl_dev_fail(c, "copy to host");
    if (c->hooks)
        digest(&c->hooks->out_digest, dst, bytes);
    return 0;
}

int wl_launch(wl_ctx *c, const char *kernel, gpurt_dim3 grid, gpurt_dim3 block, uint32_t dyn_shmem, void **args)
{
    if (gpurt_launch(c->dev, kernel, grid, block, dyn_shmem, args) != 0)
        return wl_dev_fail(c, kernel);
    return 0;
}

/* ---- checks ---- */

int wl_fault_now(wl_ctx *c)
{
    if (!c->hooks || !c->hooks->fault || c->fault_done)
        return 0;
    c->fault_done = 1;
    return 1;
}

int wl_verify_fail(wl_ctx *c, const char *fmt, ...)
{
    char buf[GE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ge_errf(c->e, "%s: verification failed: %s", c->name, buf);
}

/* The element the fault hook corrupts: spread over the array by the hook's value. */
static size_t fault_index(const wl_ctx *c, size_t n) { return (size_t)(c->hooks->fault - 1) % n; }

int wl_check_f32(wl_ctx *c, const char *what, float *got, const double *ref, const double *tol, size_t n,
                 double rtol, double atol)
{
    if (n && wl_fault_now(c)) {
        size_t i = fault_index(c, n);
        got[i] = got[i] + 1.0f + fabsf(got[i]); /* off by at least 1 and 100% */
    }
    for (size_t i = 0; i < n; i++) {
        double g = got[i], r = ref[i];
        if (!(fabs(g - r) <= atol + rtol * fabs(r) + (tol ? tol[i] : 0.0)))
            return wl_verify_fail(c, "%s[%zu]: expected %.9g, got %.9g (tolerance %g)", what, i, r, g,
                                  atol + rtol * fabs(r) + (tol ? tol[i] : 0.0));
    }
    return 0;
}

int wl_check_u32(wl_ctx *c, const char *what, uint32_t *got, const uint32_t *ref, size_t n)
{
    if (n && wl_fault_now(c))
        got[fault_index(c, n)] ^= 1u;
    for (size_t i = 0; i < n; i++) {
        if (got[i] != ref[i])
            return wl_verify_fail(c, "%s[%zu]: expected %u, got %u", what, i, ref[i], got[i]);
    }
    return 0;
}

int wl_check_i32(wl_ctx *c, const char *what, int32_t *got, const int32_t *ref, size_t n)
{
    if (n && wl_fault_now(c))
        got[fault_index(c, n)] ^= 1;
    for (size_t i = 0; i < n; i++) {
        if (got[i] != ref[i])
            return wl_verify_fail(c, "%s[%zu]: expected %d, got %d", what, i, (int)ref[i], (int)got[i]);
    }
    return 0;
}
