/*
 * wl_sgemm.c - drivers for sgemm_naive and sgemm_tiled (cuda/sgemm.cu).
 *
 * Size = n, the matrices are n x n, row-major, entries uniform in [-1, 1).
 * Both kernels use 16 x 16 CTAs over the n x n output.
 *
 * Tolerance: the kernels accumulate n products in float (in different
 * orders, with FMA contraction); the CPU reference is exact to double
 * precision.  The standard bound for a length-n float dot product is
 * |error| <= n * u * sum_k |a_ik b_kj| (u = 2^-24; Higham, "Accuracy and
 * Stability of Numerical Algorithms", 3.1), so each element is checked
 * against 2 n u sum_k |a_ik b_kj| (a factor 2 for the final rounding and
 * slack).  A wrong index or a lost term gives errors of order 1, far above
 * this bound (about 1e-3 for n = 256).
 */
#include <math.h>
#include <string.h>

#include "suite_embed.h"
#include "wl_util.h"

#define SG_TILE 16

extern const wl_desc wl_sgemm_naive, wl_sgemm_tiled;

static int sgemm_run(const wl_desc *w, const char *kernel, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *a, *b, *out;
    double *ref, *tol;
    gpurt_ptr da, db, dc;
    if (wl_begin(&c, dev, p, e, w, 1, 4096))
        goto out;
    uint32_t n = c.size;
    size_t nn = (size_t)n * n;
    if (!(a = wl_host(&c, nn, sizeof *a)) || !(b = wl_host(&c, nn, sizeof *b)) ||
        !(out = wl_host(&c, nn, sizeof *out)) || !(ref = wl_host(&c, nn, sizeof *ref)) ||
        !(tol = wl_host(&c, nn, sizeof *tol)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 3);
    for (size_t i = 0; i < nn; i++) {
        a[i] = wl_rng_float(&r, -1.0f, 1.0f);
        b[i] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    if (!(da = wl_upload(&c, a, nn * sizeof *a)) || !(db = wl_upload(&c, b, nn * sizeof *b)) ||
        !(dc = wl_alloc(&c, nn * sizeof *out)))
        goto out;
    void *args[] = {&n, &da, &db, &dc};
    gpurt_dim3 grid = gpurt_dim(wl_div_up(n, SG_TILE), wl_div_up(n, SG_TILE), 1);
    if (wl_launch(&c, kernel, grid, gpurt_dim(SG_TILE, SG_TILE, 1), 0, args) ||
        wl_download(&c, out, dc, nn * sizeof *out))
        goto out;
    /* i-k-j order: streams rows of b, so the reference is cache friendly. */
    for (uint32_t i = 0; i < n; i++) {
        double *ri = ref + (size_t)i * n, *ti = tol + (size_t)i * n;
        for (uint32_t k = 0; k < n; k++) {
            double aik = a[(size_t)i * n + k];
            const float *bk = b + (size_t)k * n;
            for (uint32_t j = 0; j < n; j++) {
                ri[j] += aik * bk[j];
                ti[j] += fabs(aik * bk[j]);
            }
        }
    }
    double scale = 2.0 * n * ldexp(1.0, -24);
    for (size_t i = 0; i < nn; i++)
        tol[i] *= scale;
    rc = wl_check_f32(&c, "C", out, ref, tol, nn, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

static int naive_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return sgemm_run(&wl_sgemm_naive, "sgemm_naive", dev, p, e);
}

static int tiled_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return sgemm_run(&wl_sgemm_tiled, "sgemm_tiled", dev, p, e);
}

const wl_desc wl_sgemm_naive = {
    "sgemm_naive", "C = A * B, one thread per element, operands from global memory", "app",
    suite_ptx_sgemm, "sgemm.ptx", suite_res_sgemm, 32, 160, "matrix dimension n (n x n matrices)",
    naive_run};

const wl_desc wl_sgemm_tiled = {
    "sgemm_tiled", "C = A * B with 16x16 shared-memory tiles and barriers", "app",
    suite_ptx_sgemm, "sgemm.ptx", suite_res_sgemm, 32, 160, "matrix dimension n (n x n matrices)",
    tiled_run};
