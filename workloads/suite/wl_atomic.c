/*
 * wl_atomic.c - driver for the atomic contention microbenchmark
 * (cuda/atomic.cu).
 *
 * Size = k, the number of distinct 32-bit counters (consecutive words) the
 * whole grid adds to: 1 = every atomic on one address, 32 = one 128-byte
 * line, larger k spreads over lines and L2 slices.  ATOM_CTAS CTAs of 256
 * threads, ATOM_ITERS atomics per thread; thread t's i-th atomic goes to
 * counter (t + i) mod k, so a warp's 32 lanes hit min(k, 32) addresses.
 * Reading the result: atomics per cycle = CTAs * 256 * ATOM_ITERS / cycles
 * as a function of k.  The final counts are checked exactly.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define ATOM_BLOCK 256
#define ATOM_CTAS 32
#define ATOM_ITERS 16

extern const wl_desc wl_atomic_contention;

static int atomic_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *cnt, *ref;
    gpurt_ptr dcnt;
    if (wl_begin(&c, dev, p, e, &wl_atomic_contention, 1, 1u << 20))
        goto out;
    uint32_t k = c.size, iters = ATOM_ITERS, n = ATOM_CTAS * ATOM_BLOCK;
    if (!(cnt = wl_host(&c, k, sizeof *cnt)) || !(ref = wl_host(&c, k, sizeof *ref)) ||
        !(dcnt = wl_alloc(&c, (size_t)k * sizeof *cnt)))
        goto out;
    void *args[] = {&dcnt, &k, &iters};
    if (wl_launch(&c, "atomic_contention", gpurt_dim(ATOM_CTAS, 1, 1), gpurt_dim(ATOM_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, cnt, dcnt, (size_t)k * sizeof *cnt))
        goto out;
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t i = 0; i < ATOM_ITERS; i++)
            ref[(t + i) % k]++;
    rc = wl_check_u32(&c, "counters", cnt, ref, k);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_atomic_contention = {
    "atomic_contention", "global atomicAdd by every thread onto k counters (k = 1: one hot address)", "micro",
    suite_ptx_atomic, "atomic.ptx", suite_res_atomic, 32, 1, "number of distinct counters k", atomic_run};
