/*
 * wl_stream.c - drivers for the streaming bandwidth microbenchmarks
 * stream_copy and stream_triad (cuda/stream.cu).
 *
 * Size = number of floats per array (a multiple of 4: the kernels move
 * float4).  The default, 8M floats = 32 MB per array, exceeds every L2 in
 * configs/ once two or three arrays stream, so the kernels measure DRAM
 * bandwidth.  Grid: up to 1024 CTAs of 256 threads, grid-stride loops.
 * Reading the result: bytes moved / kernel time, with bytes = 8 n (copy)
 * or 12 n (triad), the STREAM convention (write-allocate traffic not
 * counted).  Copy is checked exactly; triad too, since the kernel's
 * b + s * c is contracted to one fma.rn.f32, which fmaf reproduces.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define ST_BLOCK 256
#define ST_MAX_GRID 1024

extern const wl_desc wl_stream_copy, wl_stream_triad;

static int stream_run(const wl_desc *w, int triad, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *a, *b, *out;
    double *ref;
    gpurt_ptr da, db, dc;
    if (wl_begin(&c, dev, p, e, w, 4, 1u << 28))
        goto out;
    uint32_t n = c.size;
    if (n % 4) {
        rc = ge_errf(e, "%s: size %u is not a multiple of 4", w->name, n);
        goto out;
    }
    uint32_t n4 = n / 4;
    size_t bytes = (size_t)n * sizeof(float);
    if (!(a = wl_host(&c, n, sizeof *a)) || !(b = wl_host(&c, n, sizeof *b)) || !(out = wl_host(&c, n, sizeof *out)) ||
        !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 16);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = wl_rng_float(&r, -1.0f, 1.0f);
        b[i] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    uint32_t grid = wl_div_up(n4, ST_BLOCK);
    if (grid > ST_MAX_GRID)
        grid = ST_MAX_GRID;
    if (!(da = wl_upload(&c, a, bytes)) || !(db = wl_upload(&c, b, bytes)) || !(dc = wl_alloc(&c, bytes)))
        goto out;
    float s = 3.0f;
    if (triad) {
        void *args[] = {&dc, &da, &db, &s, &n4}; /* c = a + s * b */
        if (wl_launch(&c, "stream_triad", gpurt_dim(grid, 1, 1), gpurt_dim(ST_BLOCK, 1, 1), 0, args))
            goto out;
        for (uint32_t i = 0; i < n; i++)
            ref[i] = fmaf(s, b[i], a[i]);
    } else {
        void *args[] = {&da, &dc, &n4};
        if (wl_launch(&c, "stream_copy", gpurt_dim(grid, 1, 1), gpurt_dim(ST_BLOCK, 1, 1), 0, args))
            goto out;
        for (uint32_t i = 0; i < n; i++)
            ref[i] = a[i];
    }
    if (wl_download(&c, out, dc, bytes))
        goto out;
    rc = wl_check_f32(&c, "out", out, ref, NULL, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

static int copy_run(gpurt *dev, const wl_params *p, ge_err *e) { return stream_run(&wl_stream_copy, 0, dev, p, e); }
static int triad_run(gpurt *dev, const wl_params *p, ge_err *e) { return stream_run(&wl_stream_triad, 1, dev, p, e); }

const wl_desc wl_stream_copy = {
    "stream_copy", "STREAM copy c = a with float4 accesses: DRAM bandwidth (8 bytes per float)", "micro",
    suite_ptx_stream, "stream.ptx", suite_res_stream, 16384, 1u << 23, "floats per array (multiple of 4)", copy_run};

const wl_desc wl_stream_triad = {
    "stream_triad", "STREAM triad a = b + s * c with float4 accesses: DRAM bandwidth (12 bytes per float)", "micro",
    suite_ptx_stream, "stream.ptx", suite_res_stream, 16384, 1u << 23, "floats per array (multiple of 4)",
    triad_run};
