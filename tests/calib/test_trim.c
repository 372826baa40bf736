/*
 * test_trim.c - temporal sampling inside CTAs (calib/trim.c): the hot loop
 * is found and cut to the iterations asked for, with the prologue, the last
 * iteration and the epilogue kept and every kept load's addresses intact; a
 * CTA whose warps would drop different numbers of barriers is kept whole;
 * and the hybrid's two-level extrapolation of a trimmed sample agrees with
 * simulating the sample whole on a uniform loop, and on loops whose L1 hit
 * rate or DRAM row-hit rate falls as they run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config_registry.h"
#include "estimate.h"
#include "estimate_int.h"
#include "profiler.h"
#include "synth.h"
#include "trim.h"

#define PC_LOOP 0x100

/* Warp w of CTA c: two prologue instructions, `iters` iterations of
 * {load, fma, (barrier if bar), branch back}, a store and the exit. */
static void warp_loop(synth_source *s, uint32_t c, uint32_t w, uint32_t iters, int bar)
{
    synth_add(s, c, w, ISA_OP_INT_ALU, ~0u)->pc = 0x00;
    synth_add(s, c, w, ISA_OP_INT_ALU, ~0u)->pc = 0x10;
    for (uint32_t i = 0; i < iters; i++) {
        uint64_t pc = PC_LOOP;
        ws_inst *ld = synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, ~0u,
                                    0x1000000 + ((uint64_t)i * 64 + c * 4 + w) * 128, 4, 4);
        ld->pc = pc;
        ld->ndst = 1;
        ld->dst[0] = 1;
        ws_inst *f = synth_add(s, c, w, ISA_OP_FP32_FMA, ~0u);
        f->pc = pc += 16;
        f->nsrc = 1;
        f->src[0] = 1;
        if (bar)
            synth_add(s, c, w, ISA_OP_BARRIER, ~0u)->pc = pc += 16;
        synth_add(s, c, w, ISA_OP_BRANCH, ~0u)->pc = pc + 16;
    }
    synth_add_mem(s, c, w, ISA_OP_ST_GLOBAL, ~0u, 0x9000000 + (uint64_t)c * 256 + w * 128, 4, 4)->pc = 0x400;
    synth_add(s, c, w, ISA_OP_EXIT, ~0u)->pc = 0x410;
}

static void test_cut(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "loop", 1, 64, 32);
    warp_loop(&s, 0, 0, 10, 0);
    warp_loop(&s, 0, 1, 10, 0);
    const ws_cta *c = &s.ctas[0];
    ge_err e;
    est_loops *l = est_loops_find(&c, 1, &e);
    assert_non_null(l);
    /* keep 4 of 10 iterations: 6 x 3 instructions dropped per warp */
    assert_true(est_loops_dropped(l, 4) == 36);
    assert_true(est_loops_dropped(l, 10) == 0);
    ws_cta t;
    ws_cta_init(&t);
    assert_int_equal(est_loops_trim(l, 0, 4, &t, &e), 0);
    assert_int_equal(t.nwarps, 2);
    assert_int_equal(t.ninst, c->ninst - 36);
    for (uint32_t w = 0; w < 2; w++) {
        const ws_inst *a = ws_warp_inst(c, w), *b = ws_warp_inst(&t, w);
        assert_int_equal(t.warps[w].ninst, 2 + 4 * 3 + 2);
        /* prologue and the first three iterations as they were, then the
         * tenth iteration, the store and the exit */
        for (uint32_t i = 0; i < t.warps[w].ninst; i++) {
            const ws_inst *o = i < 2 + 3 * 3 ? &a[i] : &a[i + 18];
            assert_true(b[i].pc == o->pc && b[i].op == o->op);
            const uint64_t *ao = ws_inst_addr(c, o), *at = ws_inst_addr(&t, &b[i]);
            assert_true((ao == NULL) == (at == NULL));
            if (ao)
                assert_memory_equal(ao, at, WS_WARP_SIZE * sizeof *ao);
        }
    }
    ws_cta_free(&t);
    est_loops_free(l);
    synth_free(&s);
}

/* Warps that would drop different numbers of barriers: the CTA stays whole. */
static void test_barriers_keep_whole(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "bars", 2, 64, 32);
    warp_loop(&s, 0, 0, 10, 1);
    warp_loop(&s, 0, 1, 6, 1);
    warp_loop(&s, 1, 0, 10, 1); /* same count: cut */
    warp_loop(&s, 1, 1, 10, 1);
    const ws_cta *c[2] = {&s.ctas[0], &s.ctas[1]};
    ge_err e;
    est_loops *l = est_loops_find(c, 2, &e);
    assert_non_null(l);
    assert_true(est_loops_dropped(l, 4) == 2 * 6 * 4);
    ws_cta t;
    ws_cta_init(&t);
    assert_int_equal(est_loops_trim(l, 0, 4, &t, &e), 0);
    assert_int_equal(t.ninst, c[0]->ninst);
    assert_int_equal(est_loops_trim(l, 1, 4, &t, &e), 0);
    assert_int_equal(t.ninst, c[1]->ninst - 48);
    ws_cta_free(&t);
    est_loops_free(l);
    synth_free(&s);
}

/* Profile s's kernel (sampled, not kept whole) into *p and estimate it on
 * GTX 480 in hybrid mode with its sample run whole (*whole) and trimmed to
 * a budget of 600 warp instructions (*trim). */
static void whole_and_trimmed_on(const char *config, synth_source *s, profile *p, est_kernel **whole, est_kernel **trim)
{
    prof_options po;
    prof_options_default(&po);
    po.max_sample = 16;
    po.keep_all_bytes = 0; /* sample, do not keep the kernel whole */
    ge_err e;
    assert_int_equal(prof_build(&s->base, &po, "trim", 0, 1, p, &e), 0);
    gpu_config cfg;
    assert_int_equal(gcfg_load_named(config, &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    o.sample_insts = 0;
    assert_int_equal(est_profile(&cfg, p, &o, NULL, whole, &e), 0);
    o.sample_insts = 600;
    assert_int_equal(est_profile(&cfg, p, &o, NULL, trim, &e), 0);
}

static void whole_and_trimmed(synth_source *s, profile *p, est_kernel **whole, est_kernel **trim)
{
    whole_and_trimmed_on("gtx480", s, p, whole, trim);
}

/* The extrapolation of two trimmed runs (est_extrapolate) keeps every hit
 * count within its accesses, the DRAM reads' and writes' each: a longer run
 * whose write row hits did not grow while its write accesses did, and whose
 * read hits grew faster than its reads, once came out with a read row-hit
 * rate above 1 -- summed, the reads' excess hid behind the writes' misses
 * -- and negative activations that the power model refused (sgemm_naive at
 * 400 x 400 on GTX 480 under GTO with an 8 KB L1 and --sample-rounds 8). */
static void test_extrapolate_rates(void **st)
{
    (void)st;
    double a[T_N] = {0}, t[T_N] = {0};
    a[T_ROWS_R] = 3000, a[T_ROW_HITS_R] = 2900, a[T_ROWS_W] = 300, a[T_ROW_HITS_W] = 200;
    t[T_ROWS_R] = 3300, t[T_ROW_HITS_R] = 3250, t[T_ROWS_W] = 400, t[T_ROW_HITS_W] = 200;
    a[T_CYCLES] = 1000, t[T_CYCLES] = 1500;
    est_extrapolate(a, t, 10);
    assert_true(fabs(t[T_CYCLES] - 6500) < 1e-9);  /* 1500 + 10 x 500 */
    assert_true(fabs(t[T_ROWS_R] - 6300) < 1e-9);  /* 3300 + 10 x 300 */
    assert_true(fabs(t[T_ROW_HITS_R] - 6300) < 1e-9); /* 6750, held to the reads */
    assert_true(fabs(t[T_ROWS_W] - 1400) < 1e-9);
    assert_true(fabs(t[T_ROW_HITS_W] - 200) < 1e-9); /* did not grow: not extrapolated */
    for (int i = 0; i < T_N; i++)
        assert_true(isfinite(t[i]) && t[i] >= 0);
}

/* A uniform loop kernel: the hybrid with a small instruction budget trims
 * the sample, and its extrapolated sample cycles and estimate agree with
 * simulating the sample whole, with a larger error estimate. */
static void test_hybrid_trimmed(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "uniform_loop", 30, 64, 32);
    for (uint32_t c = 0; c < 30; c++)
        for (uint32_t w = 0; w < 2; w++)
            warp_loop(&s, c, w, 200, 0);
    /* the sample: 2 CTAs of 2 warps of 604 instructions, 2416 */
    profile p;
    est_kernel *whole, *trim;
    whole_and_trimmed(&s, &p, &whole, &trim);
    double cw = whole[0].cal.sample_cycles, ct = trim[0].cal.sample_cycles;
    if (fabs(ct - cw) > 0.05 * cw || fabs(trim[0].r.cycles - whole[0].r.cycles) > 0.05 * whole[0].r.cycles)
        fail_msg("trimmed sample %.0f cycles (estimate %.0f) against %.0f whole (%.0f)", ct, trim[0].r.cycles, cw,
                 whole[0].r.cycles);
    if (!(trim[0].r.error_estimate > whole[0].r.error_estimate))
        fail_msg("error estimate %g trimmed, %g whole; cycles %.0f / %.0f", trim[0].r.error_estimate, whole[0].r.error_estimate, ct, cw);
    free(whole);
    free(trim);
    prof_free(&p);
    synth_free(&s);
}

/* A loop whose L1 hit rate falls as it runs: iteration i of a warp loads
 * line i^2 / 200 of its own array, so the first iterations re-read a few
 * lines and the last ones each read a new line.  Trimmed runs see only the
 * start; the hybrid must notice the falling rate between its two trims and
 * run more of the loop (hybrid.c, EST_TRIM_L1_DRIFT), so that its sample
 * agrees with the whole one (with the budget kept, it is 45% short and
 * hits 0.66 in the L1 against 0.25). */
static void test_hybrid_trim_falling_l1(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "falling_l1", 30, 64, 32);
    for (uint32_t c = 0; c < 30; c++)
        for (uint32_t w = 0; w < 2; w++) {
            synth_add(&s, c, w, ISA_OP_INT_ALU, ~0u)->pc = 0x00;
            for (uint32_t i = 0; i < 200; i++) {
                uint64_t line = (uint64_t)i * i / 200;
                ws_inst *ld = synth_add_mem(&s, c, w, ISA_OP_LD_GLOBAL, ~0u,
                                            0x1000000 + ((uint64_t)(c * 2 + w) * 256 + line) * 128, 4, 4);
                ld->pc = PC_LOOP;
                ld->ndst = 1;
                ld->dst[0] = 1;
                ws_inst *f = synth_add(&s, c, w, ISA_OP_FP32_FMA, ~0u);
                f->pc = PC_LOOP + 16;
                f->nsrc = 1;
                f->src[0] = 1;
                synth_add(&s, c, w, ISA_OP_BRANCH, ~0u)->pc = PC_LOOP + 32;
            }
            synth_add(&s, c, w, ISA_OP_EXIT, ~0u)->pc = 0x410;
        }
    profile p;
    est_kernel *whole, *trim;
    whole_and_trimmed(&s, &p, &whole, &trim);
    double cw = whole[0].cal.sample_cycles, ct = trim[0].cal.sample_cycles;
    printf("falling L1 rate: sample %.0f cycles with a budget of 600, %.0f whole; L1 hit rate %.3f / %.3f\n", ct, cw,
           trim[0].cal.params.l1_hit, whole[0].cal.params.l1_hit);
    if (fabs(ct - cw) > 0.05 * cw || fabs(trim[0].cal.params.l1_hit - whole[0].cal.params.l1_hit) > 0.05)
        fail_msg("trimmed sample %.0f cycles (L1 %.3f) against %.0f whole (%.3f)", ct, trim[0].cal.params.l1_hit, cw,
                 whole[0].cal.params.l1_hit);
    free(whole);
    free(trim);
    prof_free(&p);
    synth_free(&s);
}

/* A loop whose DRAM row-hit rate falls as it runs: in its first half every
 * warp of every CTA streams the next of a run of consecutive lines, so the
 * GPU's loads share DRAM rows; in the second each load reads a line of its
 * own far from any other.  On RTX 2060 (60 CTAs of 16 warps, each
 * iteration four independent loads) the kernel's time follows the rate, so
 * the hybrid must run the background whole rather than trimmed (hybrid.c,
 * bg_runs_whole): the trimmed run's extrapolation keeps the first
 * iterations' rate.  Without the rule the trimmed background measures 0.94
 * against 0.64 whole, and the estimate is 20% short. */
static uint64_t far_line(uint32_t c, uint32_t w, uint32_t i)
{
    uint64_t x = ((uint64_t)c * 1000003u + w * 7919u + i) * 0x9E3779B97F4A7C15ull;
    return (x >> 40) * 61; /* 2^24 x 61 lines: 128 GB of scattered rows */
}

static void test_hybrid_trim_falling_rows(void **st)
{
    (void)st;
    synth_source s;
    const uint32_t nc = 60, nw = 16, iters = 80;
    synth_init(&s, "falling_rows", nc, nw * 32, 32);
    for (uint32_t c = 0; c < nc; c++)
        for (uint32_t w = 0; w < nw; w++) {
            synth_add(&s, c, w, ISA_OP_INT_ALU, ~0u)->pc = 0x00;
            for (uint32_t i = 0; i < iters; i++) {
                /* four independent loads, then an FMA that waits for them */
                for (uint32_t j = 0; j < 4; j++) {
                    uint32_t x = i * 4 + j;
                    uint64_t line = i < iters / 2 ? ((uint64_t)x * nc + c) * nw + w : far_line(c, w, x);
                    ws_inst *ld = synth_add_mem(&s, c, w, ISA_OP_LD_GLOBAL, ~0u, 0x1000000 + line * 128, 4, 4);
                    ld->pc = PC_LOOP + j * 16;
                    ld->ndst = 1;
                    ld->dst[0] = (uint8_t)(1 + j);
                }
                ws_inst *f = synth_add(&s, c, w, ISA_OP_FP32_FMA, ~0u);
                f->pc = PC_LOOP + 64;
                f->nsrc = 3;
                f->src[0] = 1, f->src[1] = 2, f->src[2] = 4;
                synth_add(&s, c, w, ISA_OP_BRANCH, ~0u)->pc = PC_LOOP + 80;
            }
            synth_add(&s, c, w, ISA_OP_EXIT, ~0u)->pc = 0x410;
        }
    profile p;
    est_kernel *whole, *trim;
    whole_and_trimmed_on("rtx2060", &s, &p, &whole, &trim);
    double rw = whole[0].cal.params.row_hit, rt = trim[0].cal.params.row_hit;
    printf("falling row-hit rate: background %.3f trimmed, %.3f whole; estimate %.0f / %.0f cycles\n", rt, rw,
           trim[0].r.cycles, whole[0].r.cycles);
    if (!(rw >= 0 && fabs(rt - rw) < 0.02) || fabs(trim[0].r.cycles - whole[0].r.cycles) > 0.05 * whole[0].r.cycles)
        fail_msg("row-hit rate %.3f trimmed against %.3f whole; cycles %.0f / %.0f", rt, rw, trim[0].r.cycles,
                 whole[0].r.cycles);
    free(whole);
    free(trim);
    prof_free(&p);
    synth_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_barriers_keep_whole),
        cmocka_unit_test(test_hybrid_trimmed),
        cmocka_unit_test(test_hybrid_trim_falling_l1),
        cmocka_unit_test(test_hybrid_trim_falling_rows),
        cmocka_unit_test(test_extrapolate_rates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
