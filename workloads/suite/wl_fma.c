/*
 * wl_fma.c - driver for the FP32 FMA throughput microbenchmark
 * (cuda/fma.cu).
 *
 * Size = number of 256-thread CTAs; each thread runs FMA_ITERS loop
 * iterations of 8 chains x 4 unrolled FMAs = 2048 FMAs per thread, enough
 * that the prologue and epilogue (about 30 instructions per thread) and the
 * loop overhead stay under ~4% of the instructions: a microbenchmark must
 * measure the FMA pipes, not its own bookkeeping.  The
 * default, 320 CTAs (2560 warps), gives every SM of the largest config
 * (H100, 132 SMs) more than 16 warps, enough to hide the FMA latency with
 * 8 independent chains per warp.  Reading the result: thread FMAs =
 * CTAs * 256 * 2048; FMAs per cycle per SM = that / (cycles * SMs), to
 * compare with the config's FP32 lanes per SM (2 flops per FMA).
 *
 * Every chain x <- fma(x, a, b) is computed on the CPU with fmaf (the
 * kernel's fma.rn.f32 is the same correctly rounded operation) and summed
 * in the kernel's order, so the check is exact.  The chains depend only on
 * threadIdx.x, so the reference is computed once per thread index.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define FMA_BLOCK 256
#define FMA_ITERS 64
#define FMA_CHAINS 8
#define FMA_UNROLL 4

extern const wl_desc wl_fma_throughput;

static int fma_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *out;
    double *ref;
    gpurt_ptr dout;
    if (wl_begin(&c, dev, p, e, &wl_fma_throughput, 1, 1u << 16))
        goto out;
    uint32_t ctas = c.size, n = ctas * FMA_BLOCK, iters = FMA_ITERS;
    if (!(out = wl_host(&c, n, sizeof *out)) || !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    /* a, b from the seed: a in [0.9, 0.999), b in [0.001, 1): converging chains. */
    wl_rng r;
    wl_rng_seed(&r, c.seed, 17);
    float a = wl_rng_float(&r, 0.9f, 0.999f), b = wl_rng_float(&r, 0.001f, 1.0f);
    wl_note_input(&c, &a, sizeof a);
    wl_note_input(&c, &b, sizeof b);
    if (!(dout = wl_alloc(&c, (size_t)n * sizeof *out)))
        goto out;
    void *args[] = {&dout, &iters, &a, &b};
    if (wl_launch(&c, "fma_throughput", gpurt_dim(ctas, 1, 1), gpurt_dim(FMA_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, out, dout, (size_t)n * sizeof *out))
        goto out;
    for (uint32_t t = 0; t < FMA_BLOCK; t++) {
        float sum = 0.0f;
        for (uint32_t k = 0; k < FMA_CHAINS; k++) {
            float x = (float)(t + k);
            for (uint32_t i = 0; i < FMA_ITERS * FMA_UNROLL; i++)
                x = fmaf(x, a, b);
            sum += x;
        }
        for (uint32_t blk = 0; blk < ctas; blk++)
            ref[(size_t)blk * FMA_BLOCK + t] = sum;
    }
    rc = wl_check_f32(&c, "out", out, ref, NULL, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_fma_throughput = {
    "fma_throughput", "FP32 FMA throughput: 8 independent FMA chains per thread, many warps", "micro",
    suite_ptx_fma, "fma.ptx", suite_res_fma, 2, 320, "number of 256-thread CTAs (2048 FMAs per thread)", fma_run};
