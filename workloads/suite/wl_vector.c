/*
 * wl_vector.c - drivers for vectoradd and saxpy (cuda/vector.cu).
 *
 * Size = number of elements.  Inputs are uniform in [-1, 1).  Both kernels
 * do one IEEE single-precision operation per element (add.rn.f32, and for
 * SAXPY nvcc's contraction to fma.rn.f32), so the CPU reference computes
 * the same correctly rounded operation (float addition, fmaf) and the check
 * is exact: any difference is an emulator error, not rounding.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define VEC_BLOCK 256

extern const wl_desc wl_vectoradd, wl_saxpy;

static int vectoradd_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *a, *b, *out;
    double *ref;
    gpurt_ptr da, db, dc;
    if (wl_begin(&c, dev, p, e, &wl_vectoradd, 1, 1u << 26))
        goto out;
    uint32_t n = c.size;
    if (!(a = wl_host(&c, n, sizeof *a)) || !(b = wl_host(&c, n, sizeof *b)) || !(out = wl_host(&c, n, sizeof *out)) ||
        !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 1);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = wl_rng_float(&r, -1.0f, 1.0f);
        b[i] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    if (!(da = wl_upload(&c, a, n * sizeof *a)) || !(db = wl_upload(&c, b, n * sizeof *b)) ||
        !(dc = wl_alloc(&c, n * sizeof *out)))
        goto out;
    void *args[] = {&da, &db, &dc, &n};
    if (wl_launch(&c, "vectoradd", gpurt_dim(wl_div_up(n, VEC_BLOCK), 1, 1), gpurt_dim(VEC_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, out, dc, n * sizeof *out))
        goto out;
    for (uint32_t i = 0; i < n; i++)
        ref[i] = (float)(a[i] + b[i]);
    rc = wl_check_f32(&c, "c", out, ref, NULL, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

static int saxpy_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *x, *y, *out;
    double *ref;
    gpurt_ptr dx, dy;
    if (wl_begin(&c, dev, p, e, &wl_saxpy, 1, 1u << 26))
        goto out;
    uint32_t n = c.size;
    if (!(x = wl_host(&c, n, sizeof *x)) || !(y = wl_host(&c, n, sizeof *y)) || !(out = wl_host(&c, n, sizeof *out)) ||
        !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 2);
    float alpha = wl_rng_float(&r, 0.5f, 2.0f);
    wl_note_input(&c, &alpha, sizeof alpha);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = wl_rng_float(&r, -1.0f, 1.0f);
        y[i] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    if (!(dx = wl_upload(&c, x, n * sizeof *x)) || !(dy = wl_upload(&c, y, n * sizeof *y)))
        goto out;
    void *args[] = {&n, &alpha, &dx, &dy};
    if (wl_launch(&c, "saxpy", gpurt_dim(wl_div_up(n, VEC_BLOCK), 1, 1), gpurt_dim(VEC_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, out, dy, n * sizeof *out))
        goto out;
    for (uint32_t i = 0; i < n; i++)
        ref[i] = fmaf(alpha, x[i], y[i]);
    rc = wl_check_f32(&c, "y", out, ref, NULL, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_vectoradd = {
    "vectoradd", "c = a + b on float vectors, one thread per element", "app",
    suite_ptx_vector, "vector.ptx", suite_res_vector, 8192, 1u << 20, "number of elements",
    vectoradd_run};

const wl_desc wl_saxpy = {
    "saxpy", "y = alpha * x + y on float vectors (BLAS-1 SAXPY)", "app",
    suite_ptx_vector, "vector.ptx", suite_res_vector, 8192, 1u << 20, "number of elements",
    saxpy_run};
