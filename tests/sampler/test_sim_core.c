/*
 * test_sim_core.c - timing of the SM pipeline on hand-built streams.
 *
 * Expected cycle counts are derived in the comments from the latencies of
 * tests/sampler/data/test_volta.cfg (FP32 and INT: latency 4, ii 2; L1 hit
 * 28; shared 19; 2 register banks per scheduler with 2 ports; 2-entry
 * instruction buffers filled 4 instructions per SM per cycle; l1i hit
 * latency 1).  Tests use the perfect memory, where an l1i miss is filled
 * after the L1 latency (28).  Warps' code is a loop body in one I-cache
 * line (synth.h), so the first fetch of a kernel misses once (ICOLD = 28
 * cycles) and then hits; its first instruction issues at cycle ICOLD + 1.  A CTA retires when its warps
 * have issued their last instruction and their last results are written;
 * the kernel ends the cycle after.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth.h"

#define ICOLD 28

/* ---- generators ---- */

typedef struct chain {
    int n;             /* instructions per warp before EXIT */
    isa_op op;
    int dependent;     /* 1: each depends on the previous one */
    int s1, s2;        /* the two other sources */
    int alternate;     /* 1: alternate INT_ALU and FP32_FMA */
} chain;

static int gen_chain(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)index;
    const chain *p = ctx;
    uint32_t warps = 1;
    for (uint32_t w = 0; w < warps; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        for (int i = 0; i < p->n; i++) {
            isa_op op = p->alternate ? (i % 2 ? ISA_OP_FP32_FMA : ISA_OP_INT_ALU) : p->op;
            if (p->dependent)
                synth_op(c, op, 1, 1, p->s1, p->s2, FULL);
            else
                synth_op(c, op, 10 + i % 40, 2, p->s1, p->s2, FULL);
        }
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

static void run_ok(const gpu_config *cfg, const sim_options *o, synth_kernel *k, kresult *r)
{
    ge_err e;
    if (synth_run(cfg, o, k, r, &e))
        fail_msg("%s", e.msg);
}

static sim_options perfect(void)
{
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = "perfect";
    return o;
}

static void check_cpi_sum(const gpu_config *cfg, const kresult *r, uint32_t sms)
{
    double want = r->cycles * cfg->sm.schedulers * sms;
    assert_true(sim_stall_total(r) == want);
}

/* Dependent FFMAs: issue at 1, 5, ..., X = 1 + 4(N-1) (after ICOLD); EXIT
 * at X + 1; the last result lands at X + 4, the CTA retires then and the
 * kernel ends at X + 5 = 4N + 2. */
static void test_dependent_chain(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    chain p = {100, ISA_OP_FP32_FMA, 1, 2, 3, 0};
    synth_kernel k;
    synth_kernel_init(&k, "chain", 1, 32, 16, 0, gen_chain, &p);
    kresult r;
    sim_options o = perfect();
    run_ok(&cfg, &o, &k, &r);
    assert_int_equal((int)r.cycles, ICOLD + 4 * 100 + 2);
    assert_int_equal((int)r.act.c[ACT_ICACHE_MISSES], 1);
    assert_int_equal((int)r.warp_insts, 101);
    assert_int_equal((int)r.thread_insts, 101 * 32);
    assert_int_equal((int)r.act.op_warps[ISA_OP_FP32_FMA], 100);
    check_cpi_sum(&cfg, &r, cfg.gpu.sm_count);
    /* the one busy scheduler issued 101 times and waited on FFMA results the rest */
    assert_int_equal((int)r.stall[KR_ISSUED], 101);
    assert_int_equal((int)r.stall[KR_DEPENDENCY], 99 * 3);
    assert_int_equal((int)r.stall[KR_IDLE], (int)r.cycles * 16 - 101 - 99 * 3);
}

/* Independent FFMAs from one warp: the scheduler's FP32 unit accepts one
 * every ii = 2 cycles: issues at 1, 3, ..., X = 2N-1; the last result at
 * X + 4: 2N + 4 cycles. */
static void test_independent_unit_bound(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    chain p = {64, ISA_OP_FP32_FMA, 0, 3, 4, 0};
    synth_kernel k;
    synth_kernel_init(&k, "indep", 1, 32, 64, 0, gen_chain, &p);
    kresult r;
    sim_options o = perfect();
    run_ok(&cfg, &o, &k, &r);
    assert_int_equal((int)r.cycles, ICOLD + 2 * 64 + 4);
    assert_int_equal((int)r.stall[KR_STRUCTURAL], 63); /* the FP32 unit busy between issues */
    check_cpi_sum(&cfg, &r, cfg.gpu.sm_count);
}

/* Alternating INT and FP32 instructions (two sources, one per bank) use
 * two units: one per cycle (issues 1..N, last result at N + 4: N + 5
 * cycles).  With issue_width 2 and ii 1 both issue in the same cycle. */
static void test_dual_issue(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    synth_set(&cfg, "latency.int.ii", "1");
    synth_set(&cfg, "latency.fp32.ii", "1");
    chain p = {200, ISA_OP_INT_ALU, 0, 3, -1, 1};
    synth_kernel k;
    synth_kernel_init(&k, "alt", 1, 32, 64, 0, gen_chain, &p);
    kresult single, dual;
    sim_options o = perfect();
    run_ok(&cfg, &o, &k, &single);
    assert_int_equal((int)single.cycles, ICOLD + 200 + 5);
    synth_set(&cfg, "sm.issue_width", "2");
    run_ok(&cfg, &o, &k, &dual);
    assert_true(dual.warp_insts == single.warp_insts);
    /* IPC after the cold I-cache miss */
    assert_true(dual.warp_insts / (dual.cycles - ICOLD) > 1.8 * single.warp_insts / (single.cycles - ICOLD));
    check_cpi_sum(&cfg, &dual, cfg.gpu.sm_count);
    /* dual issue needs the two units: on one unit kind it cannot help */
    chain q = {200, ISA_OP_FP32_FMA, 0, 3, 4, 0};
    synth_kernel k2;
    synth_kernel_init(&k2, "fp", 1, 32, 64, 0, gen_chain, &q);
    kresult a, b;
    run_ok(&cfg, &o, &k2, &b);
    synth_set(&cfg, "sm.issue_width", "1");
    run_ok(&cfg, &o, &k2, &a);
    assert_true(a.cycles == b.cycles);
}

/* A dependent FFMA chain whose three sources sit in one register bank
 * (r1, r3, r5: odd registers, warp slot 0, 2 banks) needs 3 reads from a
 * 2-port bank: one extra cycle per instruction.  Issues at 1 + 5(k-1); the
 * last, X = 5N - 4, dispatches at X + 1, its result lands at X + 5: 5N + 2
 * cycles, and N conflict cycles. */
static void test_rf_bank_conflicts(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    chain spread = {100, ISA_OP_FP32_FMA, 1, 2, 3, 0};
    chain same = {100, ISA_OP_FP32_FMA, 1, 3, 5, 0};
    synth_kernel k1, k2;
    synth_kernel_init(&k1, "spread", 1, 32, 16, 0, gen_chain, &spread);
    synth_kernel_init(&k2, "same", 1, 32, 16, 0, gen_chain, &same);
    kresult a, b;
    sim_options o = perfect();
    run_ok(&cfg, &o, &k1, &a);
    run_ok(&cfg, &o, &k2, &b);
    assert_int_equal((int)a.act.c[ACT_RF_BANK_CONFLICTS], 0);
    assert_int_equal((int)b.act.c[ACT_RF_BANK_CONFLICTS], 100);
    assert_int_equal((int)b.cycles, ICOLD + 5 * 100 + 2);
    assert_true(b.cycles > a.cycles);
    /* with one port per bank, even the spread sources conflict (r1, r3) */
    synth_set(&cfg, "sm.rf_bank_ports", "1");
    run_ok(&cfg, &o, &k1, &a);
    assert_int_equal((int)a.act.c[ACT_RF_BANK_CONFLICTS], 100);
}

/* Straight-line code: every 128-byte line (8 instructions) misses once per
 * SM, and each miss stalls the warp for a fill (ICOLD under perfect memory):
 * an independent INT stream of 200 instructions plus EXIT touches 26 lines. */
static void test_icache(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    chain p = {200, ISA_OP_INT_ALU, 0, 3, -1, 0};
    synth_kernel k;
    synth_kernel_init(&k, "straight", 2, 32, 64, 0, gen_chain, &p);
    kresult r;
    sim_options o = perfect();
    synth_pc_period = 1000;
    run_ok(&cfg, &o, &k, &r);
    synth_pc_period = 8;
    assert_int_equal((int)r.act.c[ACT_ICACHE_MISSES], 2 * 26); /* two CTAs on two SMs */
    assert_true(r.act.c[ACT_ICACHE_HITS] > 0);
    assert_true(r.cycles > 26 * ICOLD);
    assert_true(r.stall[KR_IDLE] > 26 * (ICOLD - 1));
    /* a two-line loop: 2 misses per SM, unless the I-cache holds one line,
     * where every line change misses (200/8 + 1 = 26 per SM) and costs time */
    kresult big, small;
    synth_pc_period = 16;
    run_ok(&cfg, &o, &k, &big);
    ge_err e;
    if (gcfg_set(&cfg, "l1i.size_bytes", "128", &e) || gcfg_set(&cfg, "l1i.sets", "1", &e) ||
        gcfg_set(&cfg, "l1i.ways", "1", &e) || gcfg_validate(&cfg, &e))
        fail_msg("%s", e.msg);
    run_ok(&cfg, &o, &k, &small);
    synth_pc_period = 8;
    assert_int_equal((int)big.act.c[ACT_ICACHE_MISSES], 2 * 2);
    assert_int_equal((int)small.act.c[ACT_ICACHE_MISSES], 2 * 26);
    assert_true(small.cycles > big.cycles + 20 * ICOLD);
}

/* ---- memory ---- */

typedef struct memprog {
    int n;
    int kind;       /* 0: dependent global loads (pointer chase); 1: shared loads, stride words; 2: the
                     * same as shared atomics */
    uint32_t stride;
} memprog;

static int gen_mem(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)index;
    const memprog *p = ctx;
    if (ws_cta_begin_warp(c, e))
        return -1;
    for (int i = 0; i < p->n; i++) {
        if (p->kind == 0)
            synth_mem(c, ISA_OP_LD_GLOBAL, 1, 1, 0x10000 + 4096ull * i, 0, 8, 1);
        else
            synth_mem(c, p->kind == 1 ? ISA_OP_LD_SHARED : ISA_OP_ATOM_SHARED, 10 + i % 40, 2, 0,
                      4 * (int64_t)p->stride, 4, FULL);
    }
    synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    return 0;
}

/* Pointer chase under perfect memory: each load waits for the previous one
 * (28 cycles): issues at 1 + 28(k-1).  The CTA retires when its last load
 * is back (28 cycles after it issued): 28N + 2 cycles. */
static void test_pointer_chase_perfect(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    memprog p = {50, 0, 0};
    synth_kernel k;
    synth_kernel_init(&k, "pchase", 1, 32, 16, 0, gen_mem, &p);
    kresult r;
    sim_options o = perfect();
    run_ok(&cfg, &o, &k, &r);
    assert_int_equal((int)r.cycles, ICOLD + 28 * 50 + 2);
    assert_true(r.avg_mem_latency == 28.0);
    assert_true(r.l1_hit_rate == 1.0);
    assert_int_equal((int)r.stall[KR_MEMORY], 49 * 27);
    check_cpi_sum(&cfg, &r, cfg.gpu.sm_count);
}

/* One warp running program p under perfect memory: its result and the
 * simulator's detail (shared_conflict_cycles). */
static void run_memprog(const gpu_config *cfg, memprog p, kresult *r, sim_detail *d)
{
    sim_options o = perfect();
    synth_kernel k;
    synth_kernel_init(&k, "shm", 1, 32, 64, 0, gen_mem, &p);
    sim_gpu *g = sim_create(cfg, &o, NULL);
    assert_non_null(g);
    sim_cta_feed f = synth_feed(&k);
    ge_err e;
    if (sim_kernel(g, &k.k, &f, r, &e))
        fail_msg("%s", e.msg);
    *d = *sim_last_detail(g);
    sim_destroy(g);
}

/* Shared loads with a stride of s words: degree gcd(s, 32) bank cycles each. */
static void test_shared_bank_conflicts(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    double cyc[6];
    uint32_t strides[6] = {1, 2, 4, 8, 16, 32};
    for (int i = 0; i < 6; i++) {
        kresult r;
        sim_detail d;
        run_memprog(&cfg, (memprog){64, 1, strides[i]}, &r, &d);
        assert_true(d.shared_conflict_cycles == 64.0 * (strides[i] - 1));
        assert_true(r.act.c[ACT_SHARED_READS] == 64.0 * strides[i]);
        cyc[i] = r.cycles;
    }
    /* the LSU issues one memory instruction per 4 cycles (latency.mem.ii), so
     * up to 4-way conflicts are hidden (only the last access's s - 1 extra
     * cycles show); beyond that each access takes s cycles */
    assert_true(cyc[1] == cyc[0] + 1 && cyc[2] == cyc[0] + 3);
    for (int i = 3; i < 6; i++)
        if (!(cyc[i] > ICOLD + 64.0 * strides[i] && cyc[i] < ICOLD + 64.0 * strides[i] + 60))
            fail_msg("stride %u: %.0f cycles", strides[i], cyc[i]);
}

/* Lanes that read one shared word share it (a broadcast: one bank cycle);
 * atomics on one word serialise (32 cycles); on 32 consecutive words
 * neither conflicts. */
static void test_shared_broadcast_and_atomics(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    const struct {
        int kind;
        uint32_t stride;
        double conflicts; /* per instruction */
    } cases[] = {{1, 0, 0}, {2, 0, 31}, {2, 1, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kresult r;
        sim_detail d;
        run_memprog(&cfg, (memprog){64, cases[i].kind, cases[i].stride}, &r, &d);
        if (d.shared_conflict_cycles != 64.0 * cases[i].conflicts)
            fail_msg("case %zu: %.0f conflict cycles, expected %.0f", i, d.shared_conflict_cycles,
                     64.0 * cases[i].conflicts);
    }
}

/* ---- barriers ---- */

typedef struct barprog {
    int warps;
    int pre[8], post[8]; /* dependent FFMAs before / after the barrier, per warp */
} barprog;

static int gen_bar(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    const barprog *p = ctx;
    for (int w = 0; w < p->warps; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        int pre = (p->pre[w] + (int)index * 7) % 60, post = p->post[w];
        for (int i = 0; i < pre; i++)
            synth_op(c, ISA_OP_FP32_FMA, 1, 1, 2, -1, FULL);
        synth_op(c, ISA_OP_BARRIER, -1, -1, -1, -1, FULL);
        for (int i = 0; i < post; i++)
            synth_op(c, ISA_OP_FP32_FMA, 1, 1, 2, -1, FULL);
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

/* No warp may pass a barrier before all have arrived: a CTA lasts at least
 * 4 x (longest chain before + chain after) cycles, whichever warp has them. */
static void test_barrier(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    barprog p = {4, {50, 0, 13, 29}, {0, 40, 0, 7}};
    synth_kernel k;
    synth_kernel_init(&k, "bar", 24, 128, 16, 0, gen_bar, &p);
    const char *scheds[] = {"lrr", "gto", "two_level"};
    for (int s = 0; s < 3; s++) {
        sim_options o = perfect();
        o.scheduler = scheds[s];
        sim_gpu *g = sim_create(&cfg, &o, NULL);
        assert_non_null(g);
        sim_cta_feed f = synth_feed(&k);
        kresult r;
        ge_err e;
        if (sim_kernel(g, &k.k, &f, &r, &e))
            fail_msg("%s", e.msg);
        const sim_detail *d = sim_last_detail(g);
        assert_int_equal((int)d->ncta, 24);
        for (size_t i = 0; i < d->ncta; i++) {
            int maxpre = 0;
            for (int w = 0; w < 4; w++) {
                int pre = (p.pre[w] + (int)d->cta[i].index * 7) % 60;
                maxpre = pre > maxpre ? pre : maxpre;
            }
            uint64_t len = d->cta[i].end - d->cta[i].start;
            assert_true(len >= 4u * (uint64_t)(maxpre + 40) - 4);
        }
        check_cpi_sum(&cfg, &r, cfg.gpu.sm_count);
        assert_true(r.stall[KR_SYNC] > 0);
        sim_destroy(g);
    }
}

/* ---- whole-run properties ---- */

/* A mixed kernel: loads, shared accesses, barriers, FP and INT, and more
 * CTAs than fit at once, so CTAs are placed as others retire. */
static int gen_mixed(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)ctx;
    for (int w = 0; w < 4; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        int n = 20 + (int)((index * 13 + (uint64_t)w * 5) % 17);
        for (int i = 0; i < n; i++) {
            uint64_t base = 0x100000 + index * 65536 + (uint64_t)w * 4096 + (uint64_t)i * 128;
            switch ((i + w) % 6) {
            case 0: synth_mem(c, ISA_OP_LD_GLOBAL, 4 + i % 3, 1, base, 4, 4, FULL); break;
            case 1: synth_op(c, ISA_OP_FP32_FMA, 8, 4 + i % 3, 8, 2, FULL); break;
            case 2: synth_mem(c, ISA_OP_ST_SHARED, -1, 8, (uint64_t)w * 128, 4, 4, FULL); break;
            case 3: synth_op(c, ISA_OP_INT_ALU, 1, 1, 3, -1, 0x0000ffff); break;
            case 4: synth_mem(c, ISA_OP_LD_SHARED, 9, 1, 0, 8 * (int64_t)(w + 1), 4, FULL); break;
            default: synth_op(c, ISA_OP_SFU_EXP, 10, 9, -1, -1, FULL); break;
            }
        }
        synth_op(c, ISA_OP_BARRIER, -1, -1, -1, -1, FULL);
        synth_mem(c, ISA_OP_ST_GLOBAL, -1, 8, 0x900000 + index * 512 + (uint64_t)w * 128, 4, 4, FULL);
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

static void run_mixed(const gpu_config *cfg, const sim_options *o, kresult *r)
{
    synth_kernel k;
    synth_kernel_init(&k, "mixed", 300, 128, 96, 8192, gen_mixed, NULL);
    run_ok(cfg, o, &k, r);
}

/* Same input, same result, bit for bit; and skipping idle cycles changes nothing. */
static void test_deterministic_and_skip_exact(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    const char *scheds[] = {"lrr", "gto", "two_level"};
    for (int s = 0; s < 3; s++) {
        sim_options o = perfect();
        o.scheduler = scheds[s];
        kresult a, b, c;
        run_mixed(&cfg, &o, &a);
        run_mixed(&cfg, &o, &b);
        assert_memory_equal(&a, &b, sizeof a);
        o.no_skip = 1;
        run_mixed(&cfg, &o, &c);
        if (memcmp(&a, &c, sizeof a))
            fail_msg("%s: skip %.0f cycles, no-skip %.0f cycles", scheds[s], a.cycles, c.cycles);
        check_cpi_sum(&cfg, &a, cfg.gpu.sm_count);
        assert_true(a.warp_insts > 0 && a.stall[KR_ISSUED] == a.warp_insts);
        assert_true(a.occupancy > 0 && a.occupancy <= 1);
    }
}

typedef struct win_acc {
    act_counters sum;
    uint64_t n, next_start, cycles;
} win_acc;

static int on_win(void *ctx, const ws_kernel *k, uint64_t start, uint64_t cycles, const act_counters *w)
{
    (void)k;
    win_acc *a = ctx;
    if (start != a->next_start)
        return -1;
    a->next_start = start + cycles;
    a->cycles += cycles;
    act_add(&a->sum, w);
    a->n++;
    return 0;
}

/* Power-trace windows tile the kernel and add up to its activity. */
static void test_interval_windows(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    win_acc acc;
    memset(&acc, 0, sizeof acc);
    sim_options o = perfect();
    o.interval_cycles = 100;
    o.on_interval = on_win;
    o.ctx = &acc;
    kresult r;
    run_mixed(&cfg, &o, &r);
    assert_true(acc.cycles == (uint64_t)r.cycles);
    assert_true(acc.n == ((uint64_t)r.cycles + 99) / 100);
    for (int i = 0; i < ACT_COUNT; i++)
        if (acc.sum.c[i] != r.act.c[i])
            fail_msg("%s: windows %.0f, kernel %.0f", act_names[i], acc.sum.c[i], r.act.c[i]);
    assert_true(r.act.c[ACT_ACTIVE_SM_CYCLES] > 0 && r.act.c[ACT_ACTIVE_SM_CYCLES] <= r.cycles * 4);
    /* a failing callback stops the run with a message */
    acc.next_start = 12345;
    ge_err e;
    synth_kernel k;
    synth_kernel_init(&k, "mixed", 300, 128, 96, 8192, gen_mixed, NULL);
    assert_int_equal(synth_run(&cfg, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "interval callback"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_chain),
        cmocka_unit_test(test_independent_unit_bound),
        cmocka_unit_test(test_dual_issue),
        cmocka_unit_test(test_rf_bank_conflicts),
        cmocka_unit_test(test_icache),
        cmocka_unit_test(test_pointer_chase_perfect),
        cmocka_unit_test(test_shared_bank_conflicts),
        cmocka_unit_test(test_shared_broadcast_and_atomics),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_deterministic_and_skip_exact),
        cmocka_unit_test(test_interval_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
