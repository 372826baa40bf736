/*
 * wl_reduction.c - driver for the tree reduction (cuda/reduction.cu).
 *
 * Size = number of floats, uniform in [0, 1).  Pass 1: G CTAs of 256
 * threads (G <= 256, each thread at least two elements) write G partial
 * sums; pass 2: one CTA reduces the G partials.  Both passes use
 * blockDim.x floats of dynamic shared memory.
 *
 * Tolerance: every input is positive, so the relative error of the float
 * sum is bounded by (number of additions on the longest path) * u
 * (u = 2^-24; Higham 2002, 4.2): each thread adds `seq` elements
 * sequentially, then log2(256) tree levels, then the second pass adds
 * ceil(G/256) + log2(256) more levels.  The check uses twice that bound.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define RED_BLOCK 256
#define RED_MAX_GRID 256

extern const wl_desc wl_reduction;

static int reduction_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *in, got;
    gpurt_ptr din, dpart, dsum;
    if (wl_begin(&c, dev, p, e, &wl_reduction, 1, 1u << 28))
        goto out;
    uint32_t n = c.size;
    if (!(in = wl_host(&c, n, sizeof *in)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 5);
    double ref = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        in[i] = wl_rng_float(&r, 0.0f, 1.0f);
        ref += in[i];
    }
    uint32_t grid = wl_div_up(n, 2 * RED_BLOCK);
    if (grid > RED_MAX_GRID)
        grid = RED_MAX_GRID;
    if (!(din = wl_upload(&c, in, (size_t)n * sizeof *in)) || !(dpart = wl_alloc(&c, grid * sizeof(float))) ||
        !(dsum = wl_alloc(&c, sizeof(float))))
        goto out;
    uint32_t shmem = RED_BLOCK * sizeof(float);
    void *args1[] = {&din, &dpart, &n};
    void *args2[] = {&dpart, &dsum, &grid};
    if (wl_launch(&c, "reduce_sum", gpurt_dim(grid, 1, 1), gpurt_dim(RED_BLOCK, 1, 1), shmem, args1) ||
        wl_launch(&c, "reduce_sum", gpurt_dim(1, 1, 1), gpurt_dim(RED_BLOCK, 1, 1), shmem, args2) ||
        wl_download(&c, &got, dsum, sizeof got))
        goto out;
    double seq = ceil((double)n / (2.0 * RED_BLOCK * grid)) * 2.0;
    double depth = seq + 8.0 + ceil(grid / (2.0 * RED_BLOCK)) * 2.0 + 8.0;
    rc = wl_check_f32(&c, "sum", &got, &ref, NULL, 1, 2.0 * depth * ldexp(1.0, -24), 0.0);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_reduction = {
    "reduction", "sum of a float array: shared-memory tree per CTA, then a second pass", "app",
    suite_ptx_reduction, "reduction.ptx", suite_res_reduction, 20000, 1u << 22, "number of elements",
    reduction_run};
