/*
 * test_sim_props.c - properties of the whole simulator with the detailed
 * memory system.
 *
 *  - A larger L1 never misses more under LRU on the same access stream.
 *    Each SM runs one warp of dependent loads (each address waits for the
 *    previous load), so the L1 sees one fixed sequence whatever the timing.
 *    LRU's inclusion property then says: more ways with the same sets, or
 *    twice the sets with the same ways (each new set sees a subsequence of
 *    an old set's lines), can only turn misses into hits.
 *  - More DRAM bandwidth (a faster DRAM clock, a wider bus) never slows a
 *    memory-bound kernel.
 *  - Results are identical across runs, and identical whether idle cycles
 *    are skipped or ticked one by one (the memory system's next_event must
 *    be exact for that), for every scheduler.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth.h"

static sim_options detailed(void)
{
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = "detailed";
    return o;
}

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* One warp of N dependent loads (r1 <- [r1]) over a footprint of `lines`
 * 128-byte lines, random with reuse; every lane reads the same line. */
typedef struct chase {
    int n;
    uint32_t lines;
} chase;

static int gen_chase(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    const chase *p = ctx;
    uint64_t s = 12345 + index * 777;
    if (ws_cta_begin_warp(c, e))
        return -1;
    for (int i = 0; i < p->n; i++) {
        uint64_t line = rng(&s) % p->lines;
        /* a skewed stream: half the loads go to the first eighth of the lines */
        if (rng(&s) & 1)
            line %= p->lines / 8;
        synth_mem(c, ISA_OP_LD_GLOBAL, 1, 1, 0x4000000 + index * 0x1000000 + line * 128, 4, 4, FULL);
    }
    synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    return 0;
}

static double l1_misses(gpu_config *cfg, const char *size, const char *sets, const char *ways, synth_kernel *k)
{
    ge_err e;
    if (gcfg_set(cfg, "l1d.size_bytes", size, &e) || gcfg_set(cfg, "l1d.sets", sets, &e) ||
        gcfg_set(cfg, "l1d.ways", ways, &e) || gcfg_validate(cfg, &e))
        fail_msg("%s", e.msg);
    sim_options o = detailed();
    sim_gpu *g = sim_create(cfg, &o, &e);
    if (!g)
        fail_msg("%s", e.msg);
    sim_cta_feed f = synth_feed(k);
    kresult r;
    if (sim_kernel(g, &k->k, &f, &r, &e))
        fail_msg("%s", e.msg);
    const sim_detail *d = sim_last_detail(g);
    double misses = d->l1_load_sectors - d->l1_load_hits;
    assert_true(d->l1_load_sectors == 4.0 * 400 * 4); /* 4 SMs x 400 loads x 4 sectors */
    sim_destroy(g);
    return misses;
}

static void test_larger_l1_never_misses_more(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    chase p = {400, 512}; /* 64 KB footprint */
    synth_kernel k;
    synth_kernel_init(&k, "chase", 4, 32, 16, 0, gen_chase, &p);
    /* sets x ways x 128 B */
    struct { const char *size, *sets, *ways; } geo[] = {
        {"8192", "4", "16"},  {"16384", "4", "32"},  {"32768", "4", "64"},  {"65536", "4", "128"}, /* more ways */
        {"16384", "8", "16"}, {"32768", "16", "16"}, {"65536", "32", "16"},                       /* more sets */
    };
    double m[7];
    for (int i = 0; i < 7; i++) {
        gpu_config c = cfg;
        m[i] = l1_misses(&c, geo[i].size, geo[i].sets, geo[i].ways, &k);
    }
    for (int i = 1; i < 4; i++)
        if (m[i] > m[i - 1])
            fail_msg("%s B (4 sets x %s ways) misses %.0f > %.0f of the smaller L1", geo[i].size, geo[i].ways, m[i],
                     m[i - 1]);
    if (m[4] > m[0] || m[5] > m[4] || m[6] > m[5])
        fail_msg("more sets missed more: %.0f %.0f %.0f %.0f", m[0], m[4], m[5], m[6]);
    assert_true(m[3] < m[0]); /* and the property is not vacuous */
}

/* Memory-bound: every warp streams its own lines (two loads, a store). */
static int gen_stream(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)ctx;
    for (int w = 0; w < 8; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        for (int i = 0; i < 16; i++) {
            uint64_t off = ((uint64_t)i * 4096 + index * 8 + (uint64_t)w) * 128;
            synth_mem(c, ISA_OP_LD_GLOBAL, 2, 1, 0x10000000 + off, 4, 4, FULL);
            synth_mem(c, ISA_OP_LD_GLOBAL, 3, 1, 0x30000000 + off, 4, 4, FULL);
            synth_op(c, ISA_OP_FP32_ADD, 4, 2, 3, -1, FULL);
            synth_mem(c, ISA_OP_ST_GLOBAL, -1, 4, 0x50000000 + off, 4, 4, FULL);
        }
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

static double stream_cycles(const gpu_config *cfg, double *util)
{
    synth_kernel k;
    synth_kernel_init(&k, "stream", 64, 256, 32, 0, gen_stream, NULL);
    sim_options o = detailed();
    kresult r;
    ge_err e;
    if (synth_run(cfg, &o, &k, &r, &e))
        fail_msg("%s", e.msg);
    if (util)
        *util = r.dram_bw_util;
    return r.cycles;
}

static void test_more_dram_bandwidth_never_slower(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    double util;
    double base = stream_cycles(&cfg, &util);
    assert_true(util > 0.3); /* it is memory-bound */
    const char *clocks[] = {"877", "1100", "1400", "1800"};
    double prev = 0;
    for (int i = 0; i < 4; i++) {
        gpu_config c = cfg;
        synth_set(&c, "gpu.dram_clock_mhz", clocks[i]);
        double t = stream_cycles(&c, NULL);
        if (i && t > prev)
            fail_msg("DRAM at %s MHz: %.0f cycles, slower than %.0f at %s MHz", clocks[i], t, prev, clocks[i - 1]);
        prev = t;
    }
    assert_true(prev < base); /* not vacuous: bandwidth matters here */
    gpu_config wide = cfg;
    synth_set(&wide, "dram.bus_bits", "256");
    assert_true(stream_cycles(&wide, NULL) <= base);
}

/* A kernel with loads, stores, atomics, shared memory and barriers. */
static int gen_mixed(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)ctx;
    for (int w = 0; w < 4; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        int n = 16 + (int)((index * 13 + (uint64_t)w * 5) % 11);
        for (int i = 0; i < n; i++) {
            uint64_t base = 0x1000000 + ((index * 4 + (uint64_t)w) % 23) * 4096 + (uint64_t)i * 128;
            switch ((i + w) % 7) {
            case 0: synth_mem(c, ISA_OP_LD_GLOBAL, 4 + i % 3, 1, base, 4, 4, FULL); break;
            case 1: synth_op(c, ISA_OP_FP32_FMA, 8, 4 + i % 3, 8, 2, FULL); break;
            case 2: synth_mem(c, ISA_OP_ST_SHARED, -1, 8, (uint64_t)w * 128, 4, 4, FULL); break;
            case 3: synth_mem(c, ISA_OP_ATOM_GLOBAL, 5, 1, 0x9000000 + (index % 3) * 4, 0, 4, 0xff); break;
            case 4: synth_mem(c, ISA_OP_LD_GLOBAL, 9, 1, base + 64, 36, 4, FULL); break;
            case 5: synth_mem(c, ISA_OP_ST_GLOBAL, -1, 8, base + 0x80000, 4, 4, FULL); break;
            default: synth_op(c, ISA_OP_SFU_EXP, 10, 9, -1, -1, FULL); break;
            }
        }
        synth_op(c, ISA_OP_BARRIER, -1, -1, -1, -1, FULL);
        synth_mem(c, ISA_OP_LD_SHARED, 6, 1, 0, 4, 4, FULL);
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

static int run_detail(const gpu_config *cfg, const sim_options *o, synth_kernel *k, kresult *r, sim_detail *d)
{
    ge_err e;
    sim_gpu *g = sim_create(cfg, o, &e);
    if (!g)
        return -1;
    sim_cta_feed f = synth_feed(k);
    int rc = sim_kernel(g, &k->k, &f, r, &e);
    *d = *sim_last_detail(g);
    sim_destroy(g);
    return rc;
}

static void test_deterministic_and_skip_exact(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    const char *scheds[] = {"lrr", "gto", "two_level"};
    for (int s = 0; s < 3; s++) {
        synth_kernel k;
        synth_kernel_init(&k, "mixed", 120, 128, 64, 4096, gen_mixed, NULL);
        sim_options o = detailed();
        o.scheduler = scheds[s];
        kresult a, b, c;
        sim_detail da, dc;
        ge_err e;
        if (run_detail(&cfg, &o, &k, &a, &da) || synth_run(&cfg, &o, &k, &b, &e))
            fail_msg("run failed");
        assert_memory_equal(&a, &b, sizeof a);
        o.no_skip = 1;
        if (run_detail(&cfg, &o, &k, &c, &dc))
            fail_msg("run failed");
        if (memcmp(&a, &c, sizeof a))
            fail_msg("%s: skipping gives %.0f cycles, ticking %.0f", scheds[s], a.cycles, c.cycles);
        /* the detail too (all but the CTA records' address) */
        da.cta = dc.cta = NULL;
        if (memcmp(&da, &dc, sizeof da))
            fail_msg("%s: sim_detail differs between skipping and ticking (lsu busy %.0f vs %.0f, retries %.0f vs "
                     "%.0f)",
                     scheds[s], da.lsu_busy_stalls, dc.lsu_busy_stalls, da.lsu_retry_cycles, dc.lsu_retry_cycles);
        assert_true(da.lsu_retry_cycles > 0); /* held refusals, slept through when skipping (gpu.c) */
        assert_true(sim_stall_total(&a) == a.cycles * cfg.sm.schedulers * cfg.gpu.sm_count);
        assert_true(a.l2_hit_rate > 0 && a.act.c[ACT_DRAM_READS] > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_larger_l1_never_misses_more),
        cmocka_unit_test(test_more_dram_bandwidth_never_slower),
        cmocka_unit_test(test_deterministic_and_skip_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
