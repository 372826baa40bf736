/*
 * test_hier.c - the assembled "detailed" memory system through sim_mem:
 * load latencies of every shipped config (L1 hit, L2 hit, DRAM) composed
 * from the structure, write-through/write-back behaviour and dirty
 * evictions, MSHR merging and RETRY when full, bypassing loads, atomics at
 * L2, constant cache, kernel boundary, config errors and determinism.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "addrmap.h"
#include "cache.h"
#include "clock.h"
#include "config_registry.h"
#include "memdrv.h"
#include "mempkt.h"

static void load_cfg(const char *name, gpu_config *c)
{
    ge_err e;
    if (gcfg_load_named(name, c, &e))
        fail_msg("%s", e.msg);
}

static sim_mem *make(const gpu_config *c, const sim_mem_options *o)
{
    ge_err e;
    sim_mem *m = sim_mem_create("detailed", c, o, &e);
    if (!m)
        fail_msg("%s", e.msg);
    return m;
}

static act_counters counters(sim_mem *m, sim_mem_stats *s)
{
    act_counters a;
    sim_mem_stats tmp;
    act_clear(&a);
    memset(&tmp, 0, sizeof tmp);
    m->ops->collect(m, &a, s ? s : &tmp);
    return a;
}

static drv_op ld(uint64_t line, uint32_t sectors)
{
    drv_op o = {line, sectors, SIM_MEM_LOAD, 0, 0};
    return o;
}

/* ---- latency composition ----
 * The expected latencies are computed from the config the way the design
 * (mem_detailed.c) defines them: each clock crossing rounds up to the
 * receiver's next tick. */
typedef struct clocks {
    uint64_t c, i, l2, d;
} clocks;

static clocks clk(const gpu_config *g)
{
    clocks k = {(uint64_t)(g->gpu.core_clock_mhz * 1000 + .5), (uint64_t)(g->gpu.icnt_clock_mhz * 1000 + .5),
                (uint64_t)(g->gpu.l2_clock_mhz * 1000 + .5), (uint64_t)(g->gpu.dram_clock_mhz * 1000 + .5)};
    return k;
}

/* Core cycle at which the data of a 1-sector L2 hit issued at core cycle 0
 * is back, and (via *l2_tick) the L2 tick at which the tag decision is made. */
static uint64_t expect_l2(const gpu_config *g, uint64_t *l2_tick)
{
    clocks k = clk(g);
    uint64_t send = g->l1d.latency_cycles;
    uint64_t ti = clk_convert(send, k.c, k.i);
    uint32_t req_flits = mem_flits(MEM_PKT_HEADER_BYTES, g->noc.flit_bytes);
    uint32_t rate = g->noc.port_flits_per_cycle;
    uint64_t arrive = (ti * rate + req_flits - 1) / rate + g->noc.latency_cycles;
    uint64_t tl2 = clk_convert(arrive, k.i, k.l2) + clk_convert(g->l2.cache.latency_cycles, k.c, k.l2);
    *l2_tick = tl2;
    return tl2;
}

/* Bytes an L1 miss of one sector fetches: the L1's own sector. */
static uint32_t fetch_bytes(const gpu_config *g)
{
    return g->l1d.sector_bytes > g->l2.cache.sector_bytes ? g->l1d.sector_bytes : g->l2.cache.sector_bytes;
}

static uint64_t reply_core(const gpu_config *g, uint64_t tl2)
{
    clocks k = clk(g);
    uint32_t rep_flits = mem_flits(MEM_PKT_HEADER_BYTES + fetch_bytes(g), g->noc.flit_bytes);
    uint32_t rate = g->noc.port_flits_per_cycle;
    uint64_t ti = clk_convert(tl2, k.l2, k.i);
    uint64_t arrive = (ti * rate + rep_flits - 1) / rate + g->noc.latency_cycles;
    return clk_convert(arrive, k.i, k.c);
}

static void test_latency_configs(void **st)
{
    (void)st;
    for (size_t ci = 0; ci < gcfg_embedded_count; ci++) {
        gpu_config g;
        load_cfg(gcfg_embedded_configs[ci].name, &g);
        sim_mem *m = make(&g, NULL);
        uint64_t now = 0;
        drv_op a = ld(1000, 0x1);
        uint64_t dram = drv_one(m, 0, &a, &now);
        uint64_t l1 = drv_one(m, 0, &a, &now);
        now += 10;
        uint64_t t0 = now;
        uint64_t l2 = drv_one(m, 1, &a, &now);
        (void)t0;
        /* expected values */
        uint64_t tl2;
        uint64_t e_l2 = reply_core(&g, expect_l2(&g, &tl2));
        clocks k = clk(&g);
        uint32_t burst = g.dram.bus_bits / 8 * g.dram.burst_length;
        uint32_t bursts = (fetch_bytes(&g) + burst - 1) / burst;
        uint32_t tbl = (g.dram.burst_length + g.dram.data_rate - 1) / g.dram.data_rate;
        uint64_t td = clk_convert(tl2, k.l2, k.d);
        uint32_t gap = g.dram.tCCDL > tbl ? g.dram.tCCDL : tbl;
        uint64_t done = td + g.dram.tRCD + (bursts - 1) * gap + g.dram.tCL + tbl +
                        g.dram.latency_cycles;
        uint64_t e_dram = reply_core(&g, clk_convert(done, k.d, k.l2));
        printf("%-8s L1 hit %3llu (ref %g)  L2 hit %3llu (structure %llu, ref %g)  DRAM %3llu (structure %llu, "
               "ref %g) core cycles\n",
               gcfg_embedded_configs[ci].name, (unsigned long long)l1, g.ref.l1_hit_latency_cycles,
               (unsigned long long)l2, (unsigned long long)e_l2, g.ref.l2_hit_latency_cycles,
               (unsigned long long)dram, (unsigned long long)e_dram, g.ref.dram_latency_cycles);
        assert_int_equal(l1, g.l1d.latency_cycles);
        /* An L2 hit is exactly the sum of its parts when issued alone. */
        assert_int_equal(l2, e_l2);
        /* DRAM: the same, give or take one tick per clock crossing where two
         * domains tick at the same instant. */
        assert_true(dram >= e_dram && dram <= e_dram + 3);
        sim_mem_stats s;
        memset(&s, 0, sizeof s);
        act_counters c = counters(m, &s);
        assert_int_equal(c.c[ACT_L1_READ_HITS], 1);
        assert_int_equal(c.c[ACT_L1_READ_MISSES], 2);
        uint32_t l2s = fetch_bytes(&g) / g.l2.cache.sector_bytes; /* L2 sectors per L1 fetch */
        assert_int_equal(c.c[ACT_L2_READ_HITS], l2s);
        assert_int_equal(c.c[ACT_L2_READ_MISSES], l2s);
        assert_int_equal(c.c[ACT_DRAM_READS], bursts);
        assert_int_equal(c.c[ACT_DRAM_ACTIVATES], 1);
        assert_int_equal(s.load_count, 3);
        assert_true(s.load_latency_sum == (double)(dram + l1 + l2));
        m->ops->destroy(m);
    }
}

/* Two lines that share the L2 slice and set of `line` (found by search). */
static int same_l2_set(const gpu_config *g, uint64_t line, uint64_t *out, int n)
{
    addrmap am;
    addrmap_init(&am, g);
    cache c; /* the slice's set index, as the simulator's L2 computes it */
    assert_int_equal(cache_init(&c, &g->l2.cache, g->l2.slices, NULL), 0);
    uint32_t s0 = addrmap_slice(&am, line), set0 = cache_set_of(&c, line);
    int k = 0;
    for (uint64_t l = line + 1; k < n && l < line + 100000000ull; l++)
        if (addrmap_slice(&am, l) == s0 && cache_set_of(&c, l) == set0)
            out[k++] = l;
    cache_free(&c);
    return k;
}

static void test_write_through_and_dirty_eviction(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    assert_string_equal(g.l1d.write_policy, "write_through");
    assert_string_equal(g.l2.cache.write_policy, "write_back");
    sim_mem *m = make(&g, NULL);
    uint64_t now = 0;
    drv_op st1 = {5000, 0x1, SIM_MEM_STORE, 0, 0};
    drv_one(m, 0, &st1, &now);
    drv_drain(m, now, now + 2000);
    now += 2000;
    act_counters c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L1_WRITE_MISSES], 1);
    assert_int_equal(c.c[ACT_L2_WRITE_MISSES], 1); /* allocated dirty, no fetch */
    assert_int_equal(c.c[ACT_DRAM_READS], 0);
    assert_int_equal(c.c[ACT_DRAM_WRITES], 0);
    /* Another SM reads it: an L2 hit. */
    drv_op l = ld(5000, 0x1);
    drv_one(m, 1, &l, &now);
    c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L2_READ_HITS], 1);
    assert_int_equal(c.c[ACT_DRAM_READS], 0);
    /* Push it out of its L2 set: one DRAM write of its dirty sector. */
    uint64_t conf[64];
    int n = same_l2_set(&g, 5000, conf, (int)g.l2.cache.ways);
    assert_int_equal(n, (int)g.l2.cache.ways);
    for (int i = 0; i < n; i++) {
        drv_op x = ld(conf[i], 0x1);
        drv_one(m, 2, &x, &now);
    }
    drv_drain(m, now, now + 5000);
    now += 5000;
    c = counters(m, NULL);
    assert_int_equal(c.c[ACT_DRAM_WRITES], 1);
    assert_int_equal(c.c[ACT_DRAM_READS], n);
    /* Reading it again goes to DRAM. */
    drv_one(m, 3, &l, &now);
    c = counters(m, NULL);
    assert_int_equal(c.c[ACT_DRAM_READS], n + 1);
    /* Same-SM load after a write-through store to a present line: L1 hit. */
    drv_op st2 = {5000, 0x2, SIM_MEM_STORE, 0, 0};
    drv_one(m, 3, &st2, &now);
    drv_op l2 = ld(5000, 0x3);
    now++;
    assert_int_equal(drv_one(m, 3, &l2, &now), g.l1d.latency_cycles);
    m->ops->destroy(m);
}

static void test_write_back_l1(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    strcpy(g.l1d.write_policy, "write_back");
    strcpy(g.l1d.write_allocate, "write_allocate");
    sim_mem *m = make(&g, NULL);
    uint64_t now = 0;
    drv_op s = {64, 0xf, SIM_MEM_STORE, 0, 0};
    drv_one(m, 0, &s, &now);
    drv_drain(m, now, now + 1000);
    now += 1000;
    act_counters c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L1_WRITE_MISSES], 4);
    assert_int_equal(c.c[ACT_NOC_FLITS], 0); /* stays in L1 */
    drv_op l = ld(64, 0xf);
    assert_int_equal(drv_one(m, 0, &l, &now), g.l1d.latency_cycles);
    /* Evict it: loads to the same L1 set (line % sets). */
    for (uint32_t i = 1; i <= g.l1d.ways; i++) {
        drv_op x = ld(64 + (uint64_t)i * g.l1d.sets, 0x1);
        drv_one(m, 0, &x, &now);
    }
    drv_drain(m, now, now + 2000);
    c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L2_WRITE_MISSES] + c.c[ACT_L2_WRITE_HITS], 4); /* the dirty line's 4 sectors */
    m->ops->destroy(m);
}

static void test_mshr_merge_full_bypass(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    g.l1d.mshr_entries = 4;
    g.l1d.mshr_merge = 2;
    sim_mem *m = make(&g, NULL);
    sim_mem_access a = {100, 0x1, SIM_MEM_LOAD, ISA_SPACE_GLOBAL, 0, 1};
    m->ops->cycle(m, 0);
    assert_int_equal(m->ops->access(m, 0, &a, 0), SIM_MEM_ACCEPTED);
    a.token = 2;
    assert_int_equal(m->ops->access(m, 0, &a, 1), SIM_MEM_ACCEPTED); /* merged */
    a.token = 3;
    assert_int_equal(m->ops->access(m, 0, &a, 2), SIM_MEM_RETRY); /* merge list full */
    for (uint64_t i = 1; i <= 3; i++) {
        sim_mem_access b = {100 + i * 7, 0x1, SIM_MEM_LOAD, ISA_SPACE_GLOBAL, 0, (uint32_t)(10 + i)};
        assert_int_equal(m->ops->access(m, 0, &b, 2 + i), SIM_MEM_ACCEPTED);
    }
    sim_mem_access c = {999, 0x1, SIM_MEM_LOAD, ISA_SPACE_GLOBAL, 0, 20};
    assert_int_equal(m->ops->access(m, 0, &c, 6), SIM_MEM_RETRY); /* MSHR full */
    /* Same-cycle port: 4 banks = 4 sectors per cycle. */
    sim_mem_access h = {100, 0xf, SIM_MEM_LOAD, ISA_SPACE_GLOBAL, 0, 30};
    assert_int_equal(m->ops->access(m, 1, &h, 6), SIM_MEM_ACCEPTED);
    h.line = 300;
    h.token = 31;
    assert_int_equal(m->ops->access(m, 1, &h, 6), SIM_MEM_RETRY); /* port used this cycle */
    /* Completions: both merged loads together. */
    uint64_t now = 6, t1 = 0, t2 = 0;
    uint32_t tok;
    int got = 0;
    while (got < 5 && now < 100000) {
        now = m->ops->next_event(m, now);
        m->ops->cycle(m, now);
        while (m->ops->pop(m, 0, now, &tok)) {
            got++;
            if (tok == 1)
                t1 = now;
            if (tok == 2)
                t2 = now;
        }
    }
    assert_int_equal(got, 5);
    assert_true(t1 > 0 && t1 == t2);
    act_counters k = counters(m, NULL);
    assert_int_equal(k.c[ACT_L2_READ_MISSES] + k.c[ACT_L2_READ_HITS], 4 + 4); /* merged: one L2 read; SM1: 4 */
    /* Bypassing load: no L1 activity, completes. */
    double l1 = k.c[ACT_L1_READ_HITS] + k.c[ACT_L1_READ_MISSES];
    drv_op by = {4242, 0x1, SIM_MEM_LOAD, 0, 1};
    assert_true(drv_one(m, 2, &by, &now) > g.l1d.latency_cycles);
    k = counters(m, NULL);
    assert_int_equal(k.c[ACT_L1_READ_HITS] + k.c[ACT_L1_READ_MISSES], l1);
    drv_one(m, 2, &by, &now); /* not cached: misses in L1 again, but L2 hits */
    k = counters(m, NULL);
    assert_int_equal(k.c[ACT_L2_READ_HITS], 1);
    m->ops->destroy(m);
}

static void test_atomics(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    sim_mem *m = make(&g, NULL);
    enum { N = 8 };
    m->ops->cycle(m, 0);
    for (int s = 0; s < N; s++) {
        sim_mem_access a = {777, 0x1, SIM_MEM_ATOMIC, ISA_SPACE_GLOBAL, 0, (uint32_t)s};
        assert_int_equal(m->ops->access(m, s, &a, 0), SIM_MEM_ACCEPTED);
    }
    uint64_t done[N], now = 0;
    int got = 0;
    while (got < N) {
        now = m->ops->next_event(m, now);
        m->ops->cycle(m, now);
        for (int s = 0; s < N; s++) {
            uint32_t tok;
            while (m->ops->pop(m, s, now, &tok))
                done[tok] = now, got++;
        }
    }
    /* One DRAM fetch; the atomics that find the line in flight merge into
     * the MSHR entry (misses), the rest hit; each is performed once. */
    act_counters c = counters(m, NULL);
    assert_int_equal(c.c[ACT_DRAM_READS], 1);
    assert_int_equal(c.c[ACT_L2_READ_MISSES] + c.c[ACT_L2_READ_HITS], N);
    assert_true(c.c[ACT_L2_READ_MISSES] >= 1);
    assert_int_equal(c.c[ACT_L2_WRITE_HITS], N);
    assert_int_equal(c.c[ACT_L1_READ_MISSES] + c.c[ACT_L1_READ_HITS], 0);
    for (int s = 0; s < N; s++)
        assert_true(done[s] > 0);
    m->ops->destroy(m);
}

static void test_atomics_serialised(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    g.l2.cache.mshr_merge = 64;
    sim_mem *m = make(&g, NULL);
    uint64_t now = 0;
    drv_op warm = {777, 0x1, SIM_MEM_LOAD, 0, 0};
    drv_one(m, 0, &warm, &now); /* line now in L2 */
    enum { N = 16 };
    now += 10;
    m->ops->cycle(m, now);
    for (int s = 0; s < N; s++) {
        sim_mem_access a = {777, 0x1, SIM_MEM_ATOMIC, ISA_SPACE_GLOBAL, 0, (uint32_t)s};
        assert_int_equal(m->ops->access(m, s, &a, now), SIM_MEM_ACCEPTED);
    }
    uint64_t done[N];
    int got = 0;
    while (got < N) {
        now = m->ops->next_event(m, now);
        m->ops->cycle(m, now);
        for (int s = 0; s < N; s++) {
            uint32_t tok;
            while (m->ops->pop(m, s, now, &tok))
                done[tok] = now, got++;
        }
    }
    /* All hit in L2; one access per L2 tick: N distinct completion cycles. */
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            assert_true(done[i] != done[j]);
    act_counters c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L2_READ_HITS], N);
    assert_int_equal(c.c[ACT_L2_WRITE_HITS], N);
    m->ops->destroy(m);
}

/* Atomics on one hot line: in sampled mode the background's copies go to
 * the same line, so the slice serialises all SMs' atomics as in a full run. */
typedef struct hot {
    uint64_t n;
} hot;

static int gen_hot(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op)
{
    (void)sm, (void)warp;
    if (i >= ((hot *)ctx)->n)
        return 0;
    memset(op, 0, sizeof *op);
    op->line = 4242;
    op->sectors = 0x1;
    op->kind = SIM_MEM_ATOMIC;
    return 1;
}

static uint64_t hot_cycles(const gpu_config *g, uint32_t nsm, const sim_mem_options *o)
{
    sim_mem *m = make(g, o);
    hot h = {16};
    drv_cfg c = {nsm, 2, 2, 1, gen_hot, &h, 0, 0, 0};
    drv_result r;
    ge_err e;
    if (drv_run(m, &c, &r, &e))
        fail_msg("%s", e.msg);
    m->ops->destroy(m);
    return r.cycles;
}

static void test_sampled_atomics_hotspot(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    uint64_t full = hot_cycles(&g, g.gpu.sm_count, NULL);
    sim_mem_options ob = {.active_sms = 1, .background = 1}, on = {.active_sms = 1, .background = 0};
    uint64_t samp = hot_cycles(&g, 1, &ob), alone = hot_cycles(&g, 1, &on);
    printf("hot-line atomics: full %llu cycles, 1 SM + background %llu, 1 SM alone %llu\n",
           (unsigned long long)full, (unsigned long long)samp, (unsigned long long)alone);
    assert_true(samp > 0.85 * full && samp < 1.15 * full);
    assert_true(alone < 0.7 * full); /* latency-bound alone; the full run is serialised */
}

static void test_const_and_boundary(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    sim_mem *m = make(&g, NULL);
    uint64_t now = 0;
    drv_op k = {12, 0x1, SIM_MEM_LOAD, ISA_SPACE_CONST, 0};
    drv_one(m, 0, &k, &now);
    assert_int_equal(drv_one(m, 0, &k, &now), g.l1c.latency_cycles);
    act_counters c = counters(m, NULL);
    assert_int_equal(c.c[ACT_CONST_MISSES], 1);
    assert_int_equal(c.c[ACT_CONST_HITS], 1);
    assert_int_equal(c.c[ACT_L1_READ_MISSES], 0);
    /* Kernel boundary: L1 cold, L2 keeps the line. */
    drv_op l = ld(34, 0x1);
    drv_one(m, 0, &l, &now);
    assert_int_equal(drv_one(m, 0, &l, &now), g.l1d.latency_cycles);
    m->ops->kernel_boundary(m);
    uint64_t lat = drv_one(m, 0, &l, &now);
    uint64_t tl2;
    assert_int_equal(lat, reply_core(&g, expect_l2(&g, &tl2)));
    /* Partial sectors: only the missing one is fetched. */
    m->ops->reset_stats(m);
    drv_op p = ld(34, 0x3);
    drv_one(m, 0, &p, &now);
    c = counters(m, NULL);
    assert_int_equal(c.c[ACT_L1_READ_HITS], 1);
    assert_int_equal(c.c[ACT_L1_READ_MISSES], 1);
    assert_int_equal(c.c[ACT_L2_READ_MISSES] + c.c[ACT_L2_READ_HITS], 1);
    m->ops->destroy(m);
}

static void test_config_errors(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    ge_err e;
    strcpy(g.dram.scheduler, "random");
    assert_null(sim_mem_create("detailed", &g, NULL, &e));
    assert_non_null(strstr(e.msg, "dram.scheduler"));
    load_cfg("v100", &g);
    strcpy(g.l1d.replacement, "plru");
    assert_null(sim_mem_create("detailed", &g, NULL, &e));
    assert_non_null(strstr(e.msg, "l1d.replacement"));
    load_cfg("v100", &g);
    g.dram.write_high = 8;
    g.dram.write_low = 8; /* low must be below high */
    assert_null(sim_mem_create("detailed", &g, NULL, &e));
    assert_non_null(strstr(e.msg, "dram.write_drain_high"));
    load_cfg("v100", &g);
    g.l2.slices = 48; /* not a multiple of 32 channels */
    assert_null(sim_mem_create("detailed", &g, NULL, &e));
    assert_non_null(strstr(e.msg, "l2.slices"));
    load_cfg("v100", &g);
    sim_mem_options o = {.active_sms = 200, .background = 1};
    assert_null(sim_mem_create("detailed", &g, &o, &e));
    assert_non_null(strstr(e.msg, "active_sms"));
    assert_null(sim_mem_create("ideal", &g, NULL, &e));
    assert_non_null(strstr(e.msg, "ideal"));
}

/* A mixed random workload: loads, stores, atomics over 16 SMs. */
typedef struct mix {
    uint64_t seed;
    uint64_t n;
} mix;

static int gen_mix(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op)
{
    mix *x = ctx;
    if (i >= x->n)
        return 0;
    uint64_t h = (x->seed ^ (sm * 1000003ull + warp * 7919ull + i * 104729ull)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    op->line = (h >> 8) % 20000;
    op->sectors = (uint32_t)((h >> 40) & 0xf) | 1u;
    uint32_t k = (uint32_t)(h % 10);
    op->kind = k < 6 ? SIM_MEM_LOAD : k < 9 ? SIM_MEM_STORE : SIM_MEM_ATOMIC;
    op->space = ISA_SPACE_GLOBAL;
    op->bypass = 0;
    return 1;
}

static void run_mix(act_counters *a, sim_mem_stats *s, drv_result *r, int no_skip)
{
    gpu_config g;
    load_cfg("v100", &g);
    sim_mem *m = make(&g, NULL);
    mix x = {12345, 300};
    drv_cfg c = {16, 8, 2, 1, gen_mix, &x, 0, 0, no_skip};
    ge_err e;
    if (drv_run(m, &c, r, &e))
        fail_msg("%s", e.msg);
    act_clear(a);
    memset(s, 0, sizeof *s);
    m->ops->collect(m, a, s);
    m->ops->destroy(m);
}

static void test_determinism(void **st)
{
    (void)st;
    act_counters a1, a2;
    sim_mem_stats s1, s2;
    drv_result r1, r2;
    run_mix(&a1, &s1, &r1, 0);
    run_mix(&a2, &s2, &r2, 0);
    assert_true(r1.loads > 1000);
    assert_int_equal(r1.cycles, r2.cycles);
    assert_memory_equal(&a1, &a2, sizeof a1);
    assert_memory_equal(&s1, &s2, sizeof s1);
    /* Skipping idle cycles (next_event) changes nothing: same as ticking
     * every cycle. */
    act_counters a3;
    sim_mem_stats s3;
    drv_result r3;
    run_mix(&a3, &s3, &r3, 1);
    assert_int_equal(r1.cycles, r3.cycles);
    assert_true(r1.lat_sum == r3.lat_sum);
    assert_memory_equal(&a1, &a3, sizeof a1);
    assert_memory_equal(&s1, &s3, sizeof s1);
    assert_true(a1.c[ACT_DRAM_READS] > 0 && a1.c[ACT_L2_WRITE_HITS] > 0 && a1.c[ACT_L1_READ_HITS] > 0);
}

/* ---- L2 capacity in sampled mode ----
 * Every SM reads its own footprint four times.  On the full V100, 80 SMs of
 * 128 KB (10 MB) do not fit in the 6 MB L2, so the later passes miss, while
 * one SM alone hits on them; 80 SMs of 32 or 64 KB (2.5 or 5 MB) fit, and
 * hit.  The
 * weighted background (4 mirrors standing for 79 SMs) must take the capacity
 * that the other SMs' lines take (l2.c, ghost lines), no more and no less,
 * so that the sample sees the full GPU's hit rate, not the lone SM's. */
#define FOOT_PASSES 4

static int gen_foot(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op)
{
    const uint32_t *a = ctx; /* warps, lines */
    uint64_t k = i * a[0] + warp; /* the warps interleave over the footprint */
    if (k >= FOOT_PASSES * (uint64_t)a[1])
        return 0;
    memset(op, 0, sizeof *op);
    op->line = (uint64_t)sm * a[1] + k % a[1]; /* the SMs' footprints side by side */
    op->sectors = 0xf;
    op->kind = SIM_MEM_LOAD;
    op->bypass = 1;
    return 1;
}

static double foot_l2_hit(const gpu_config *g, uint32_t nsm, uint32_t lines, const sim_mem_options *o)
{
    sim_mem *m = make(g, o);
    uint32_t a[2] = {8, lines};
    drv_cfg c = {nsm, a[0], 4, 1, gen_foot, a, 0, 0, 0};
    drv_result r;
    ge_err e;
    if (drv_run(m, &c, &r, &e))
        fail_msg("%s", e.msg);
    act_counters ac = counters(m, NULL);
    m->ops->destroy(m);
    double h = ac.c[ACT_L2_READ_HITS], mi = ac.c[ACT_L2_READ_MISSES];
    return h + mi > 0 ? h / (h + mi) : 0;
}

static void test_sampled_l2_capacity(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    sim_mem_options ob = {.active_sms = 1, .background = 1}, on = {.active_sms = 1, .background = 0};
    for (uint32_t lines = 256; lines <= 1024; lines *= 2) {
        double full = foot_l2_hit(&g, g.gpu.sm_count, lines, NULL);
        double samp = foot_l2_hit(&g, 1, lines, &ob), alone = foot_l2_hit(&g, 1, lines, &on);
        print_message("%u KB per SM: L2 hit rate full %.3f, 1 SM + background %.3f, 1 SM alone %.3f\n",
                      lines * 128 / 1024, full, samp, alone);
        assert_true(alone > 0.7);
        assert_true(fabs(samp - full) < 0.1);
        assert_true(lines < 1024 ? full > 0.7 : full < 0.2);
    }
}

/* Background mirrors in a warm L2 (l2.c warm_proxy).  SM 0 of a V100 is
 * simulated, the other 79 SMs are replayed as weighted mirrors; its load
 * of a preloaded line L hits.  The mirrors' copies live where L + k lives:
 * they hit when L + k was preloaded too (the other SMs' data is warm), and
 * fetch from DRAM when L + k is absent, or present only because the sample
 * itself fetched it.  Returns the DRAM data-bus cycles the load caused
 * (shadow traffic included). */
static double mirrored_load_dram(int warm_neighbours, int fetched_neighbours)
{
    gpu_config g;
    load_cfg("v100", &g);
    sim_mem_options o = {.active_sms = 1, .background = 1};
    sim_mem *m = make(&g, &o);
    uint64_t lines[8], now = 0;
    uint8_t sectors[8];
    for (int i = 0; i < 8; i++)
        lines[i] = 40000 + (uint64_t)i, sectors[i] = 0xf;
    assert_int_equal(m->ops->preload(m, lines, sectors, warm_neighbours ? 8 : 1), warm_neighbours ? 8 : 1);
    for (int i = 1; fetched_neighbours && i < 8; i++) {
        drv_op a = ld(lines[i], 0xf);
        drv_one(m, 0, &a, &now);
    }
    drv_drain(m, now, now + 5000);
    now += 5000;
    sim_mem_stats s0, s1;
    memset(&s0, 0, sizeof s0);
    memset(&s1, 0, sizeof s1);
    counters(m, &s0);
    drv_op a = ld(lines[0], 0xf);
    drv_one(m, 0, &a, &now);
    drv_drain(m, now, now + 5000);
    act_counters c = counters(m, &s1);
    assert_int_equal(c.c[ACT_L2_READ_HITS], 4); /* the sample's own load hits the preloaded line */
    m->ops->destroy(m);
    return s1.dram_busy_cycles - s0.dram_busy_cycles;
}

static void test_background_warm_l2(void **st)
{
    (void)st;
    double warm = mirrored_load_dram(1, 0), cold = mirrored_load_dram(0, 0), fetched = mirrored_load_dram(0, 1);
    printf("DRAM bus cycles of one mirrored load: neighbours warm %.0f, absent %.0f, fetched by the sample %.0f\n",
           warm, cold, fetched);
    assert_true(warm == 0);
    assert_true(cold > 0);
    assert_true(fetched == cold);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_configs),
        cmocka_unit_test(test_write_through_and_dirty_eviction),
        cmocka_unit_test(test_write_back_l1),
        cmocka_unit_test(test_mshr_merge_full_bypass),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_atomics_serialised),
        cmocka_unit_test(test_sampled_atomics_hotspot),
        cmocka_unit_test(test_sampled_l2_capacity),
        cmocka_unit_test(test_const_and_boundary),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_background_warm_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
