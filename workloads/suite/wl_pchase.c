/*
 * wl_pchase.c - drivers for the pointer-chase latency microbenchmarks
 * pchase_l1, pchase_l2 and pchase_dram (cuda/pchase.cu).
 *
 * Size = footprint in KB.  The footprint is cut into slots of PC_STRIDE =
 * 128 bytes (one L1 line, four 32-byte sectors); the first 8 bytes of each
 * slot hold the device address of the next slot (so the kernel chases
 * pointers with no index arithmetic), and the slots are linked into one
 * random cycle (Sattolo's algorithm), so consecutive steps land in
 * unrelated lines and sets, and neither a stride prefetcher nor DRAM row
 * locality helps.  Because it is a single cycle, every other slot is
 * visited exactly once between two visits of a slot; the footprint is
 * contiguous, so it spreads evenly over the sets of a cache.  Hence, with
 * LRU, a footprint within a cache's capacity hits on every step after the
 * first lap, and a larger one misses on every step (random or pseudo-LRU
 * replacement would let a few hits through).  The three names differ only in their default footprint
 * and in how they warm up, chosen for the configs in configs/ (L1 16-256
 * KB, L2 0.75-50 MB):
 *   pchase_l1    8 KB    fits every L1.  Launch 1 walks one lap; launch 2
 *                        walks one more lap in-kernel (L1 may be
 *                        invalidated between kernels) then PC_STEPS timed
 *                        steps, all L1 hits.
 *   pchase_l2    512 KB  larger than every L1, smaller than every L2.
 *                        Launch 1 walks one lap (fills the L2); launch 2
 *                        times PC_STEPS steps, L1 misses that hit in L2.
 *   pchase_dram  64 MB   larger than every L2.  A single launch times
 *                        PC_DRAM_STEPS steps that never revisit a slot:
 *                        every step misses to DRAM.
 * One thread does everything (a 1-thread CTA).  Reading the result: the
 * measured kernel is the last launch; its cycles / (warm + steps) is the
 * average load-to-use latency of the level (the in-kernel warm lap of
 * pchase_l1 is 64 steps against 16383, a 0.4% share; its L2 latency biases
 * the average by about 2%).  On hardware, out[1] holds the clock64 cycles
 * of the timed steps alone.  The check follows the chain on the CPU and
 * compares the final pointer (exact).
 */
#include "suite_embed.h"
#include "wl_util.h"

#define PC_STRIDE 128
/* Odd step counts: a multiple of the lap length (slots, a power of two for
 * power-of-two footprints) would always end back at the start slot, and the
 * final index would then check nothing about the chain. */
#define PC_STEPS 16383
#define PC_DRAM_STEPS 8191

extern const wl_desc wl_pchase_l1, wl_pchase_l2, wl_pchase_dram;

enum { PC_L1, PC_L2, PC_DRAM };

static int pchase_run(const wl_desc *w, int level, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint64_t *next, out[2];
    uint32_t *order;
    gpurt_ptr dnext, dout;
    if (wl_begin(&c, dev, p, e, w, 1, 1u << 20))
        goto out;
    size_t bytes = (size_t)c.size * 1024, words = bytes / 8, per = PC_STRIDE / 8;
    uint32_t slots = (uint32_t)(bytes / PC_STRIDE);
    if (slots < 2) {
        rc = ge_errf(e, "%s: footprint %u KB holds fewer than 2 slots of %d bytes", w->name, c.size, PC_STRIDE);
        goto out;
    }
    if (!(next = wl_host(&c, words, sizeof *next)) || !(order = wl_host(&c, slots, sizeof *order)))
        goto out;
    /* Sattolo: order[] becomes a uniformly random permutation with a single
     * cycle; slot i links to slot order[i]. */
    wl_rng r;
    wl_rng_seed(&r, c.seed, 15);
    for (uint32_t i = 0; i < slots; i++)
        order[i] = i;
    for (uint32_t i = slots - 1; i > 0; i--) {
        uint32_t j = wl_rng_below(&r, i);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* The links are device addresses, known once the array is allocated. */
    if (!(dnext = wl_alloc(&c, bytes)) || !(dout = wl_alloc(&c, sizeof out)))
        goto out;
    for (uint32_t i = 0; i < slots; i++)
        next[(size_t)i * per] = dnext + (uint64_t)order[i] * PC_STRIDE;
    if (wl_h2d(&c, dnext, next, bytes))
        goto out;
    uint32_t zero = 0, warm, steps;
    gpurt_dim3 one = gpurt_dim(1, 1, 1);
    if (level == PC_DRAM) {
        warm = 0;
        steps = slots < PC_DRAM_STEPS ? slots : PC_DRAM_STEPS;
    } else {
        void *args[] = {&dnext, &zero, &slots, &dout};
        if (wl_launch(&c, "pchase", one, one, 0, args) || wl_download(&c, out, dout, sizeof out))
            goto out;
        if (out[0] != dnext) { /* one full lap of a single cycle returns to the start */
            rc = wl_verify_fail(&c, "warm-up lap: expected to end at 0x%llx, got 0x%llx", (unsigned long long)dnext,
                                (unsigned long long)out[0]);
            goto out;
        }
        warm = level == PC_L1 ? slots : 0;
        steps = PC_STEPS;
    }
    void *args[] = {&dnext, &warm, &steps, &dout};
    if (wl_launch(&c, "pchase", one, one, 0, args) || wl_download(&c, out, dout, sizeof out))
        goto out;
    uint32_t slot = 0;
    for (uint64_t s = 0; s < (uint64_t)warm + steps; s++)
        slot = order[slot];
    uint64_t expect = dnext + (uint64_t)slot * PC_STRIDE, got = out[0];
    if (wl_fault_now(&c))
        got ^= 8u;
    rc = got == expect ? 0
                       : wl_verify_fail(&c, "final pointer: expected 0x%llx (slot %u), got 0x%llx",
                                        (unsigned long long)expect, slot, (unsigned long long)got);
out:
    return wl_end(&c, rc);
}

static int l1_run(gpurt *dev, const wl_params *p, ge_err *e) { return pchase_run(&wl_pchase_l1, PC_L1, dev, p, e); }
static int l2_run(gpurt *dev, const wl_params *p, ge_err *e) { return pchase_run(&wl_pchase_l2, PC_L2, dev, p, e); }
static int dram_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return pchase_run(&wl_pchase_dram, PC_DRAM, dev, p, e);
}

const wl_desc wl_pchase_l1 = {
    "pchase_l1", "pointer chase, 1 thread, footprint in L1: cycles per step = L1 hit latency", "micro",
    suite_ptx_pchase, "pchase.ptx", suite_res_pchase, 4, 8, "footprint in KB (128-byte slots, one random cycle)",
    l1_run};

const wl_desc wl_pchase_l2 = {
    "pchase_l2", "pointer chase, 1 thread, footprint between L1 and L2: cycles per step = L2 hit latency", "micro",
    suite_ptx_pchase, "pchase.ptx", suite_res_pchase, 32, 512, "footprint in KB (128-byte slots, one random cycle)",
    l2_run};

const wl_desc wl_pchase_dram = {
    "pchase_dram", "pointer chase, 1 thread, no slot revisited: cycles per step = DRAM latency", "micro",
    suite_ptx_pchase, "pchase.ptx", suite_res_pchase, 1024, 65536,
    "footprint in KB (128-byte slots, one random cycle)", dram_run};
