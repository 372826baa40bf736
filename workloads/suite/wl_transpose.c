/*
 * wl_transpose.c - drivers for transpose_naive and transpose_tiled
 * (cuda/transpose.cu).
 *
 * Size = n, an n x n float matrix of distinct values (moves only, so the
 * check is exact).  Naive: 16 x 16 CTAs, one element per thread.  Tiled:
 * 32 x 8 CTAs, each moving a 32 x 32 tile.  n need not be a multiple of
 * the tile (the kernels guard the edges; the tiny size exercises that).
 */
#include <string.h>

#include "suite_embed.h"
#include "wl_util.h"

extern const wl_desc wl_transpose_naive, wl_transpose_tiled;

static int transpose_run(const wl_desc *w, int tiled, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *in, *out, *ref;
    gpurt_ptr din, dout;
    if (wl_begin(&c, dev, p, e, w, 1, 16384))
        goto out;
    uint32_t n = c.size;
    size_t nn = (size_t)n * n;
    if (!(in = wl_host(&c, nn, sizeof *in)) || !(out = wl_host(&c, nn, sizeof *out)) ||
        !(ref = wl_host(&c, nn, sizeof *ref)))
        goto out;
    /* Floats are only moved, so compare their bit patterns as integers.
     * Finite values: a NaN's payload is not something to test here. */
    wl_rng r;
    wl_rng_seed(&r, c.seed, 4);
    for (size_t i = 0; i < nn; i++) {
        float f = wl_rng_float(&r, -1000.0f, 1000.0f);
        memcpy(&in[i], &f, sizeof f);
    }
    if (!(din = wl_upload(&c, in, nn * sizeof *in)) || !(dout = wl_alloc(&c, nn * sizeof *out)))
        goto out;
    void *args[] = {&n, &din, &dout};
    if (tiled) {
        if (wl_launch(&c, "transpose_tiled", gpurt_dim(wl_div_up(n, 32), wl_div_up(n, 32), 1), gpurt_dim(32, 8, 1), 0,
                      args))
            goto out;
    } else if (wl_launch(&c, "transpose_naive", gpurt_dim(wl_div_up(n, 16), wl_div_up(n, 16), 1),
                         gpurt_dim(16, 16, 1), 0, args)) {
        goto out;
    }
    if (wl_download(&c, out, dout, nn * sizeof *out))
        goto out;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++)
            ref[(size_t)x * n + y] = in[(size_t)y * n + x];
    rc = wl_check_u32(&c, "out", out, ref, nn);
out:
    return wl_end(&c, rc);
}

static int naive_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return transpose_run(&wl_transpose_naive, 0, dev, p, e);
}

static int tiled_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return transpose_run(&wl_transpose_tiled, 1, dev, p, e);
}

const wl_desc wl_transpose_naive = {
    "transpose_naive", "matrix transpose, one thread per element (uncoalesced stores)", "app",
    suite_ptx_transpose, "transpose.ptx", suite_res_transpose, 72, 1024, "matrix dimension n (n x n floats)",
    naive_run};

const wl_desc wl_transpose_tiled = {
    "transpose_tiled", "matrix transpose through 32x33 shared-memory tiles (coalesced)", "app",
    suite_ptx_transpose, "transpose.ptx", suite_res_transpose, 72, 1024, "matrix dimension n (n x n floats)",
    tiled_run};
