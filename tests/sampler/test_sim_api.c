/*
 * test_sim_api.c - the simulator's interface: configs and options refused
 * before anything runs (with the key or option named), bad streams refused
 * with a message, full vs sampled mode, switching modes between kernels,
 * and whole streams.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth.h"

static sim_options opts(const char *mem)
{
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = mem;
    return o;
}

static void refused(const gpu_config *cfg, const sim_options *o, const char *needle)
{
    ge_err e;
    e.msg[0] = 0;
    sim_gpu *g = sim_create(cfg, o, &e);
    if (g) {
        sim_destroy(g);
        fail_msg("accepted; expected an error naming '%s'", needle);
    }
    if (!strstr(e.msg, needle))
        fail_msg("error '%s' does not name '%s'", e.msg, needle);
}

static void test_refused_configs(void **st)
{
    (void)st;
    gpu_config base, c;
    synth_config("test_volta.cfg", &base);
    sim_options o = opts("perfect");
    c = base;
    c.sm.rf_banks = 6; /* not a multiple of 4 schedulers */
    refused(&c, &o, "sm.rf_banks");
    c = base;
    c.l1d.sets = 3; /* sets x ways x line != size */
    refused(&c, &o, "l1d.size_bytes");
    c = base;
    c.sm.max_threads = 4096; /* more than max_warps x 32 */
    refused(&c, &o, "sm.max_threads");
    c = base;
    c.sm.max_warps = 512; /* 128 per scheduler: beyond the simulator's 64 */
    c.sm.max_threads = 2048;
    refused(&c, &o, "sm.max_warps");
    c = base;
    c.l1i.size_bytes = c.l1i.sets = c.l1i.ways = 0;
    refused(&c, &o, "l1i");
    c = base;
    c.units[ISA_UNIT_FP32] = 0;
    refused(&c, &o, "units.fp32");
    /* a config with its key set out of range through gcfg_set is refused there */
    ge_err e;
    assert_int_equal(gcfg_set(&c, "sm.issue_width", "9", &e), -1);
    assert_non_null(strstr(e.msg, "sm.issue_width"));
}

static void test_refused_options(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    sim_options o = opts("perfect");
    o.scheduler = "fifo";
    refused(&cfg, &o, "scheduler");
    o = opts("perfect");
    o.active_sms = 5; /* 4 SMs */
    refused(&cfg, &o, "active_sms");
    o = opts("perfect");
    o.interval_cycles = 100;
    refused(&cfg, &o, "interval");
    o = opts("hbm-magic");
    refused(&cfg, &o, "hbm-magic");
}

typedef struct prog {
    int kind;
} prog;

static int gen(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    const prog *p = ctx;
    if (p->kind == 3)
        return ge_errf(e, "feed broke at CTA %llu", (unsigned long long)index);
    int warps = p->kind == 1 ? 3 : 2; /* kind 1: more warps than a 64-thread block has */
    for (int w = 0; w < warps; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        for (int i = 0; i < 12 + (int)(index % 5); i++) {
            synth_mem(c, ISA_OP_LD_GLOBAL, 2, 1, 0x200000 + index * 4096 + (uint64_t)w * 1024 + (uint64_t)i * 32, 4,
                      4, FULL);
            synth_op(c, p->kind == 2 ? ISA_OP_TENSOR : ISA_OP_FP32_FMA, 3, 2, 3, -1, FULL);
        }
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

static void test_refused_streams(void **st)
{
    (void)st;
    gpu_config fermi;
    synth_config("test_fermi.cfg", &fermi);
    sim_options o = opts("perfect");
    kresult r;
    ge_err e;
    synth_kernel k;
    prog p = {1};
    synth_kernel_init(&k, "toomany", 4, 64, 16, 0, gen, &p);
    assert_int_equal(synth_run(&fermi, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "warps"));
    p.kind = 2; /* the GTX 480 has no tensor units */
    assert_int_equal(synth_run(&fermi, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "units.tensor"));
    p.kind = 3;
    assert_int_equal(synth_run(&fermi, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "feed broke"));
}

/* Full mode and sampled mode on every SM simulate the same thing. */
static void test_sampled_all_sms_equals_full(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    prog p = {0};
    const char *mems[2] = {"perfect", "detailed"};
    for (int m = 0; m < 2; m++) {
        synth_kernel k;
        synth_kernel_init(&k, "k", 90, 64, 32, 0, gen, &p);
        kresult full, sampled;
        ge_err e;
        sim_options o = opts(mems[m]);
        if (synth_run(&cfg, &o, &k, &full, &e))
            fail_msg("%s", e.msg);
        o.active_sms = cfg.gpu.sm_count;
        o.background = 1;
        if (synth_run(&cfg, &o, &k, &sampled, &e))
            fail_msg("%s", e.msg);
        if (memcmp(&full, &sampled, sizeof full))
            fail_msg("%s: full %.0f cycles, sampled on all SMs %.0f", mems[m], full.cycles, sampled.cycles);
    }
}

/* Sampled mode: the chosen CTAs run on the chosen SMs. */
static void test_sampled_subset(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    prog p = {0};
    static const uint64_t pick[] = {3, 40, 41, 77, 89};
    const char *mems[2] = {"perfect", "detailed"};
    for (int m = 0; m < 2; m++) {
        synth_kernel k;
        synth_kernel_init(&k, "k", 90, 64, 32, 0, gen, &p);
        k.pick = pick;
        k.npick = 5;
        sim_options o = opts(mems[m]);
        o.active_sms = 1;
        o.background = 1;
        ge_err e;
        sim_gpu *g = sim_create(&cfg, &o, &e);
        if (!g)
            fail_msg("%s", e.msg);
        sim_cta_feed f = synth_feed(&k);
        kresult r;
        if (sim_kernel(g, &k.k, &f, &r, &e))
            fail_msg("%s", e.msg);
        const sim_detail *d = sim_last_detail(g);
        assert_int_equal(d->sms, 1);
        assert_int_equal(d->ncta, 5);
        assert_int_equal((int)r.ctas, 5);
        double insts = 0;
        for (size_t i = 0; i < d->ncta; i++) {
            assert_int_equal(d->cta[i].index, pick[i]);
            assert_int_equal(d->cta[i].sm, 0);
            assert_true(d->cta[i].end > d->cta[i].start);
            insts += d->cta[i].warp_insts;
        }
        assert_true(insts == r.warp_insts);
        assert_true(sim_stall_total(&r) == r.cycles * cfg.sm.schedulers * 1);
        /* switching to full mode between kernels */
        assert_int_equal(sim_set_sampling(g, 0, 0, &e), 0);
        k.pick = NULL;
        f = synth_feed(&k);
        if (sim_kernel(g, &k.k, &f, &r, &e))
            fail_msg("%s", e.msg);
        assert_int_equal(sim_last_detail(g)->sms, cfg.gpu.sm_count);
        assert_int_equal((int)r.ctas, 90);
        assert_int_equal(sim_set_sampling(g, 99, 1, &e), -1);
        assert_non_null(strstr(e.msg, "active_sms"));
        sim_destroy(g);
    }
}

/* CTAs kept in memory and lent to the simulator (sim_cta_feed.borrow) run
 * exactly as the same CTAs copied into its slots, and stay unchanged. */
typedef struct {
    const ws_cta *all;
    size_t n, next;
} lend_list;

static int lend_next(void *ctx, const ws_cta **c, ge_err *e)
{
    (void)e;
    lend_list *l = ctx;
    if (l->next >= l->n)
        return 0;
    *c = &l->all[l->next++];
    return 1;
}

static uint64_t cta_sum(const ws_cta *c, size_t n)
{
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < c[i].ninst; j++)
            h = h * 31 + c[i].inst[j].mask + c[i].inst[j].op + c[i].inst[j].addr;
        for (size_t j = 0; j < c[i].naddr; j++)
            h = h * 31 + c[i].addr[j];
    }
    return h;
}

static void test_borrowed_ctas(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    prog p = {0};
    synth_kernel k;
    synth_kernel_init(&k, "k", 90, 64, 32, 0, gen, &p);
    ge_err e;
    ws_cta all[90];
    sim_cta_feed f = synth_feed(&k);
    for (size_t i = 0; i < 90; i++) {
        ws_cta_init(&all[i]);
        assert_int_equal(f.next(f.ctx, &all[i], &e), 1);
    }
    uint64_t before = cta_sum(all, 90);
    sim_options o = opts("detailed");
    kresult r[2];
    uint64_t ends[2][90];
    for (int b = 0; b < 2; b++) {
        sim_gpu *g = sim_create(&cfg, &o, &e);
        if (!g)
            fail_msg("%s", e.msg);
        lend_list l = {all, 90, 0};
        f = b ? (sim_cta_feed){NULL, &l, lend_next} : synth_feed(&k);
        if (sim_kernel(g, &k.k, &f, &r[b], &e))
            fail_msg("%s", e.msg);
        const sim_detail *d = sim_last_detail(g);
        assert_int_equal(d->ncta, 90);
        for (size_t i = 0; i < 90; i++)
            ends[b][d->cta[i].index] = d->cta[i].end;
        sim_destroy(g);
    }
    assert_true(r[1].cycles == r[0].cycles);
    assert_true(r[1].warp_insts == r[0].warp_insts);
    for (int c = 0; c < KR_STALL_COUNT; c++)
        assert_true(r[1].stall[c] == r[0].stall[c]);
    assert_memory_equal(ends[0], ends[1], sizeof ends[0]);
    assert_true(cta_sum(all, 90) == before);
    for (size_t i = 0; i < 90; i++)
        ws_cta_free(&all[i]);
}

/* Per-CTA L1 counts (sim_options.cta_l1_stats): they add up to the
 * kernel's, change nothing else, and are 0 when not asked for. */
static void test_cta_l1_stats(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    prog p = {0};
    synth_kernel k;
    synth_kernel_init(&k, "k", 40, 64, 32, 0, gen, &p);
    ge_err e;
    kresult r[2];
    for (int on = 0; on < 2; on++) {
        sim_options o = opts("detailed");
        o.cta_l1_stats = on;
        sim_gpu *g = sim_create(&cfg, &o, &e);
        if (!g)
            fail_msg("%s", e.msg);
        sim_cta_feed f = synth_feed(&k);
        if (sim_kernel(g, &k.k, &f, &r[on], &e))
            fail_msg("%s", e.msg);
        const sim_detail *d = sim_last_detail(g);
        assert_int_equal(d->ncta, 40);
        double s = 0, h = 0, smin = HUGE_VAL;
        for (size_t i = 0; i < d->ncta; i++) {
            s += d->cta[i].l1_load_sectors, h += d->cta[i].l1_load_hits;
            smin = fmin(smin, d->cta[i].l1_load_sectors);
        }
        if (on) {
            assert_true(s == d->l1_load_sectors && h == d->l1_load_hits);
            assert_true(smin > 0 && h > 0 && h < s); /* every CTA loads; some hit, some miss */
        } else {
            assert_true(s == 0 && h == 0 && d->l1_load_sectors > 0);
        }
        sim_destroy(g);
    }
    assert_true(r[1].cycles == r[0].cycles);
    for (int c = 0; c < KR_STALL_COUNT; c++)
        assert_true(r[1].stall[c] == r[0].stall[c]);
}

/* A stream of kernels: one result each, in order; the clock carries on. */
static void test_run_source(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    prog p = {0};
    synth_kernel ks[3];
    synth_kernel_init(&ks[0], "first", 10, 64, 32, 0, gen, &p);
    synth_kernel_init(&ks[1], "second", 30, 64, 32, 0, gen, &p);
    synth_kernel_init(&ks[2], "third", 5, 64, 32, 0, gen, &p);
    ws_source *src = synth_source(ks, 3);
    sim_options o = opts("detailed");
    ge_err e;
    sim_gpu *g = sim_create(&cfg, &o, &e);
    assert_non_null(g);
    kresult *res;
    size_t n;
    if (sim_run_source(g, src, &res, &n, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(n, 3);
    assert_string_equal(res[0].name, "first");
    assert_string_equal(res[2].name, "third");
    assert_int_equal((int)res[1].ctas, 30);
    for (size_t i = 0; i < n; i++)
        assert_true(res[i].cycles > 0 && sim_stall_total(&res[i]) == res[i].cycles * 4 * 4);
    free(res);
    ws_close(src);
    sim_destroy(g);
}

/* One warp loads one line (all four sectors) at 0x10000. */
static int gen_one_line(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    (void)ctx, (void)index, (void)e;
    ws_cta_begin_warp(c, NULL);
    synth_mem(c, ISA_OP_LD_GLOBAL, 1, -1, 0x10000, 4, 4, 0xffffffffu);
    synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, 0xffffffffu);
    return 0;
}

/* L2 load hit rate of the one-line kernel on a fresh simulator after
 * preloading sectors `data` of its line (0: nothing) and, if `code`, its
 * code line (code 2: only if pc line 0 is in the filter, code 3: with a
 * filter of pc line 1 only, where the kernel has no code). */
static double preload_hit(const gpu_config *cfg, uint8_t data, int code, size_t *present)
{
    static const uint64_t pc_line0[1] = {0}, pc_line1[1] = {1};
    synth_kernel k;
    synth_kernel_init(&k, "one_line", 1, 32, 32, 0, gen_one_line, NULL);
    sim_options o = opts("detailed");
    ge_err e;
    sim_gpu *g = sim_create(cfg, &o, &e);
    if (!g)
        fail_msg("%s", e.msg);
    uint64_t line = 0x10000 / 128;
    *present = data ? sim_l2_preload(g, &line, &data, 1) : 0;
    if (code) {
        ws_cta c;
        ws_cta_init(&c);
        gen_one_line(NULL, 0, &c, &e);
        const ws_cta *cp = &c;
        *present += sim_l2_preload_code(g, &k.k, &cp, 1, code == 2 ? pc_line0 : code == 3 ? pc_line1 : NULL,
                                        code >= 2 ? 1 : 0);
        ws_cta_free(&c);
    }
    sim_cta_feed f = synth_feed(&k);
    kresult r;
    if (sim_kernel(g, &k.k, &f, &r, &e))
        fail_msg("%s", e.msg);
    sim_destroy(g);
    return r.l2_hit_rate;
}

/* Warming the L2 between kernels (the hybrid's stand-in for the kernels it
 * did not simulate): the loads hit exactly the preloaded sectors, and the
 * instruction fetch hits once the code line is preloaded too. */
static void test_l2_preload(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    size_t n;
    assert_true(preload_hit(&cfg, 0, 0, &n) == 0); /* cold: code and data miss */
    assert_true(preload_hit(&cfg, 0xf, 1, &n) == 1);
    assert_int_equal(n, 2);
    /* half the data sectors: the fetch (4 sectors) and 2 of 4 data sectors hit */
    assert_true(preload_hit(&cfg, 0x3, 1, &n) == 0.75);
    /* the data line alone: 4 of 8 sectors */
    assert_true(preload_hit(&cfg, 0xf, 0, &n) == 0.5);
    assert_int_equal(n, 1);
    /* code restricted to the pc lines earlier kernels ran: the kernel's
     * (pcs 0 and 16, line 0) in the list, or not */
    assert_true(preload_hit(&cfg, 0xf, 2, &n) == 1);
    assert_int_equal(n, 2);
    assert_true(preload_hit(&cfg, 0xf, 3, &n) == 0.5);
    assert_int_equal(n, 1);
}

/* Flushing the L2 between kernels: a kernel that hit everything in the L2
 * its predecessor left misses everything again, as on a fresh simulator. */
static void test_l2_flush(void **st)
{
    (void)st;
    gpu_config cfg;
    synth_config("test_volta.cfg", &cfg);
    synth_kernel k;
    synth_kernel_init(&k, "one_line", 1, 32, 32, 0, gen_one_line, NULL);
    sim_options o = opts("detailed");
    ge_err e;
    sim_gpu *g = sim_create(&cfg, &o, &e);
    assert_non_null(g);
    double hit[3];
    for (int i = 0; i < 3; i++) {
        if (i == 2)
            sim_l2_flush(g);
        sim_cta_feed f = synth_feed(&k);
        kresult r;
        if (sim_kernel(g, &k.k, &f, &r, &e))
            fail_msg("%s", e.msg);
        hit[i] = r.l2_hit_rate;
    }
    sim_destroy(g);
    assert_true(hit[0] == 0 && hit[1] == 1 && hit[2] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_configs),
        cmocka_unit_test(test_refused_options),
        cmocka_unit_test(test_refused_streams),
        cmocka_unit_test(test_sampled_all_sms_equals_full),
        cmocka_unit_test(test_sampled_subset),
        cmocka_unit_test(test_borrowed_ctas),
        cmocka_unit_test(test_cta_l1_stats),
        cmocka_unit_test(test_run_source),
        cmocka_unit_test(test_l2_preload),
        cmocka_unit_test(test_l2_flush),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
