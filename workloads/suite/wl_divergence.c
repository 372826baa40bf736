/*
 * wl_divergence.c - drivers for the SIMD-efficiency microbenchmarks
 * divergence_ifelse and divergence_loop (cuda/divergence.cu).
 *
 * Both run DIV_CTAS CTAs of 256 threads (256 warps).
 * divergence_ifelse: size = distinct paths per warp, a power of two 1..32;
 *   the kernel's `depth` is log2(size).  Lane l takes path l mod size; the
 *   leaf reached by path p is the bit-reversal of p over 5 bits (level L
 *   of the tree tests bit L, and the leaf number is built most significant
 *   level first).
 * divergence_loop: size = step, 1..64; lane l runs 1 + l * step loop trips.
 * Inputs are uniform in [0.5, 1.5).  Leaves and loop bodies are chains of
 * fmaf / float multiplies, each a single correctly rounded IEEE operation,
 * so the CPU replays them exactly and the check is exact.
 * tests/suite/test_divergence.c derives the SIMD efficiency of both by
 * hand and compares it with the emulator's counts.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define DIV_BLOCK 256
#define DIV_CTAS 32
#define DIV_LEAF_OPS 16
#define DIV_TREE_DEPTH 5

extern const wl_desc wl_divergence_ifelse, wl_divergence_loop;

static float leaf(uint32_t id, float x)
{
    for (int j = 0; j < DIV_LEAF_OPS; j++)
        x = (id >> (j % DIV_TREE_DEPTH)) & 1 ? fmaf(x, 0.999f, 0.001f) : x * 1.001f;
    return x;
}

static uint32_t reverse5(uint32_t p)
{
    uint32_t r = 0;
    for (int b = 0; b < DIV_TREE_DEPTH; b++)
        r |= ((p >> b) & 1u) << (DIV_TREE_DEPTH - 1 - b);
    return r;
}

static int divergence_run(const wl_desc *w, int loop, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *in, *out;
    double *ref;
    gpurt_ptr din, dout;
    if (wl_begin(&c, dev, p, e, w, 1, loop ? 64 : 32))
        goto out;
    uint32_t param = c.size, n = DIV_CTAS * DIV_BLOCK;
    if (!loop) {
        if (param & (param - 1)) {
            rc = ge_errf(e, "%s: size %u is not a power of two", w->name, param);
            goto out;
        }
        uint32_t depth = 0;
        while ((1u << depth) < param)
            depth++;
        param = depth;
    }
    if (!(in = wl_host(&c, n, sizeof *in)) || !(out = wl_host(&c, n, sizeof *out)) ||
        !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, loop ? 19 : 18);
    for (uint32_t i = 0; i < n; i++)
        in[i] = wl_rng_float(&r, 0.5f, 1.5f);
    if (!(din = wl_upload(&c, in, (size_t)n * sizeof *in)) || !(dout = wl_alloc(&c, (size_t)n * sizeof *out)))
        goto out;
    void *args[] = {&din, &dout, &param};
    if (wl_launch(&c, loop ? "divergence_loop" : "divergence_ifelse", gpurt_dim(DIV_CTAS, 1, 1),
                  gpurt_dim(DIV_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, out, dout, (size_t)n * sizeof *out))
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lane = (i % DIV_BLOCK) & 31u;
        float x = in[i];
        if (loop) {
            for (uint32_t t = 0; t < 1 + lane * param; t++)
                x = fmaf(x, 0.999f, 0.001f);
        } else {
            x = leaf(reverse5(lane & ((1u << param) - 1u)), x);
        }
        ref[i] = x;
    }
    rc = wl_check_f32(&c, "out", out, ref, NULL, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

static int ifelse_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return divergence_run(&wl_divergence_ifelse, 0, dev, p, e);
}

static int loop_run(gpurt *dev, const wl_params *p, ge_err *e) { return divergence_run(&wl_divergence_loop, 1, dev, p, e); }

const wl_desc wl_divergence_ifelse = {
    "divergence_ifelse", "nested if/else tree: lanes of a warp split over 2^d paths (SIMD efficiency ~ 1/2^d)",
    "micro", suite_ptx_divergence, "divergence.ptx", suite_res_divergence, 4, 8,
    "distinct paths per warp (1, 2, 4, 8, 16 or 32)", ifelse_run};

const wl_desc wl_divergence_loop = {
    "divergence_loop", "loop-trip divergence: lane l runs 1 + l*step trips (SIMD efficiency ~ mean/max trips)",
    "micro", suite_ptx_divergence, "divergence.ptx", suite_res_divergence, 1, 4, "trip-count step per lane (1..64)",
    loop_run};
