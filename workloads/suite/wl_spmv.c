/*
 * wl_spmv.c - driver for the CSR scalar SpMV (cuda/spmv.cu).
 *
 * Size = number of rows of a square sparse matrix.  Row i has 1 + rand(31)
 * non-zeros (16 on average, so lanes of a warp run 1..31 iterations), half
 * of them within a band of +-64 around the diagonal and half anywhere (a
 * FEM-like band plus irregular coupling).  Values and x are uniform in
 * [-1, 1).  256-thread CTAs, one thread per row.
 *
 * Tolerance: row i is a float dot product of len_i terms, so (as for
 * SGEMM) |error| <= len_i * u * sum_j |a_ij x_j|; the check allows twice
 * that per row.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define SPMV_BLOCK 256
#define SPMV_MAX_ROW 32
#define SPMV_BAND 64

extern const wl_desc wl_spmv_csr;

static int spmv_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *row_ptr, *cols;
    float *vals, *x, *y;
    double *ref, *tol;
    gpurt_ptr drow, dcols, dvals, dx, dy;
    if (wl_begin(&c, dev, p, e, &wl_spmv_csr, 1, 1u << 24))
        goto out;
    uint32_t n = c.size;
    if (!(row_ptr = wl_host(&c, (size_t)n + 1, sizeof *row_ptr)) ||
        !(cols = wl_host(&c, (size_t)n * SPMV_MAX_ROW, sizeof *cols)) ||
        !(vals = wl_host(&c, (size_t)n * SPMV_MAX_ROW, sizeof *vals)) || !(x = wl_host(&c, n, sizeof *x)) ||
        !(y = wl_host(&c, n, sizeof *y)) || !(ref = wl_host(&c, n, sizeof *ref)) ||
        !(tol = wl_host(&c, n, sizeof *tol)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 9);
    uint32_t nnz = 0;
    for (uint32_t i = 0; i < n; i++) {
        row_ptr[i] = nnz;
        uint32_t len = 1 + wl_rng_below(&r, SPMV_MAX_ROW - 1);
        for (uint32_t k = 0; k < len; k++) {
            uint32_t j;
            if (wl_rng_below(&r, 2)) {
                int64_t t = (int64_t)i + (int64_t)wl_rng_below(&r, 2 * SPMV_BAND + 1) - SPMV_BAND;
                j = (uint32_t)(t < 0 ? 0 : t >= n ? n - 1 : t);
            } else {
                j = wl_rng_below(&r, n);
            }
            cols[nnz] = j;
            vals[nnz++] = wl_rng_float(&r, -1.0f, 1.0f);
        }
    }
    row_ptr[n] = nnz;
    for (uint32_t i = 0; i < n; i++)
        x[i] = wl_rng_float(&r, -1.0f, 1.0f);
    if (!(drow = wl_upload(&c, row_ptr, ((size_t)n + 1) * sizeof *row_ptr)) ||
        !(dcols = wl_upload(&c, cols, (size_t)nnz * sizeof *cols)) ||
        !(dvals = wl_upload(&c, vals, (size_t)nnz * sizeof *vals)) || !(dx = wl_upload(&c, x, (size_t)n * sizeof *x)) ||
        !(dy = wl_alloc(&c, (size_t)n * sizeof *y)))
        goto out;
    void *args[] = {&n, &drow, &dcols, &dvals, &dx, &dy};
    if (wl_launch(&c, "spmv_csr", gpurt_dim(wl_div_up(n, SPMV_BLOCK), 1, 1), gpurt_dim(SPMV_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, y, dy, (size_t)n * sizeof *y))
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        double s = 0.0, a = 0.0;
        for (uint32_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
            double t = (double)vals[k] * x[cols[k]];
            s += t;
            a += fabs(t);
        }
        ref[i] = s;
        tol[i] = 2.0 * (row_ptr[i + 1] - row_ptr[i]) * ldexp(1.0, -24) * a;
    }
    rc = wl_check_f32(&c, "y", y, ref, tol, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_spmv_csr = {
    "spmv_csr", "sparse matrix-vector product, CSR, one thread per row", "app",
    suite_ptx_spmv, "spmv.ptx", suite_res_spmv, 2048, 1u << 17, "number of matrix rows (16 non-zeros per row on average)",
    spmv_run};
