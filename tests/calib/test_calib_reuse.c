/*
 * test_calib_reuse.c - the reuse rule (calib/reuse_rule.c, docs/hybrid.md): when a
 * kernel's calibration from another design point, or from an earlier launch
 * doing the same work, may stand in for a new sample.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calib_fixture.h"
#include "config_registry.h"
#include "estimate_int.h"
#include "synth.h"

/* Kernel 0's hybrid estimate on cfg, its calibration in *cal (no reuse). */
static est_kernel calibrated(const gpu_config *cfg, const profile *p, est_calibration *cal)
{
    est_options o;
    est_options_default(&o);
    memset(cal, 0, sizeof *cal);
    est_kernel *r, k0;
    ge_err e;
    assert_int_equal(est_profile(cfg, p, &o, cal, &r, &e), 0);
    k0 = r[0];
    free(r);
    return k0;
}

static void test_reuse_rule(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 2560, 255);
    profile p;
    calib_profile_of(&s, 1, &p); /* keep_all_bytes = 1: only samples */
    assert_false(p.k[0].sample_is_all);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    est_calibration cal;
    est_kernel k0 = calibrated(&cfg, &p, &cal);
    assert_true(cal.valid && !k0.reused && k0.r.sampled_ctas > 0);
    const char *sched = cfg.sm.scheduler;
    /* the same design: reusable */
    assert_true(est_calibration_reusable(&cal, &cfg, sched, &p, 0));
    /* DRAM and L2 are extrapolated by the model: reusable */
    gpu_config c2 = cfg;
    c2.dram.channels = 16;
    c2.l2.slices = 32;
    assert_int_equal(gcfg_validate(&c2, &e), 0);
    assert_true(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    /* another scheduler: re-sample */
    assert_false(est_calibration_reusable(&cal, &cfg, strcmp(sched, "lrr") ? "lrr" : "gto", &p, 0));
    /* another SM core (register file banks): re-sample */
    c2 = cfg;
    c2.sm.rf_banks = 16;
    assert_false(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    /* another L2 set index function (the model cannot see it): re-sample */
    c2 = cfg;
    strcpy(c2.l2.cache.set_index, strcmp(cfg.l2.cache.set_index, "xor") ? "xor" : "linear");
    assert_false(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    c2 = cfg;
    strcpy(c2.l1d.set_index, strcmp(cfg.l1d.set_index, "xor") ? "xor" : "linear");
    assert_false(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    /* another occupancy: re-sample */
    c2 = cfg;
    c2.sm.max_ctas = 2;
    assert_false(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    /* an L1 small enough to lose the reuse moves the hit rate by more than 5 points: re-sample */
    c2 = cfg;
    c2.l1d.ways = 4;
    c2.l1d.size_bytes = c2.l1d.sets * c2.l1d.ways * c2.l1d.line_bytes;
    assert_int_equal(gcfg_validate(&c2, &e), 0);
    assert_false(est_calibration_reusable(&cal, &c2, sched, &p, 0));
    /* a reused calibration is reported as such and needs no simulation */
    c2 = cfg;
    c2.dram.channels = 16;
    c2.l2.slices = 32;
    est_options o;
    est_options_default(&o);
    est_kernel *r;
    assert_int_equal(est_profile(&c2, &p, &o, &cal, &r, &e), 0);
    assert_true(r[0].reused);
    free(r);
    prof_free(&p);
    synth_free(&s);
}

/* Each warp reads 8 lines, `stride` lines apart from the last (1:
 * consecutive lines; 1024: every line in set 0 of any power-of-two L1 of up
 * to 1024 sets), then runs `alu` independent FMAs. */
static void loads_kernel(synth_source *s, uint64_t stride, int alu)
{
    synth_init(s, "loads", 480, 256, 16);
    for (uint32_t c = 0; c < 480; c++)
        for (uint32_t w = 0; w < 8; w++) {
            for (int i = 0; i < 8; i++) {
                uint64_t line = ((uint64_t)(c * 8 + w) * 8 + (uint64_t)i) * stride;
                ws_inst *ld = synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, 0xffffffffu, 0x1000000 + line * 128, 4, 4);
                ld->ndst = 1;
                ld->dst[0] = (uint8_t)(1 + i);
            }
            for (int i = 0; i < alu; i++)
                synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
            synth_add(s, c, w, ISA_OP_EXIT, 0xffffffffu);
        }
}

static gpu_config gtx480_l1_ways(uint32_t ways)
{
    gpu_config c;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &c, &e), 0);
    c.l1d.ways = ways;
    c.l1d.size_bytes = c.l1d.sets * c.l1d.ways * c.l1d.line_bytes;
    assert_int_equal(gcfg_validate(&c, &e), 0);
    return c;
}

/* May kernel `stride`/`alu`'s calibration on GTX 480 with an L1 of `ways_a`
 * ways (32 sets) serve one of `ways_b`?  Prints the lines in flight and
 * whether they set the model's pace at either point. */
static int reusable_across_l1(uint64_t stride, int alu, uint32_t ways_a, uint32_t ways_b)
{
    gpu_config a = gtx480_l1_ways(ways_a), b = gtx480_l1_ways(ways_b);
    synth_source s;
    loads_kernel(&s, stride, alu);
    profile p;
    calib_profile_of(&s, 1, &p);
    assert_false(p.k[0].sample_is_all);
    est_calibration cal;
    calibrated(&a, &p, &cal);
    assert_true(cal.valid);
    const char *sched = a.sm.scheduler;
    kresult kr;
    model_detail d;
    ge_err e;
    assert_int_equal(model_kernel(&b, sched, &p, 0, NULL, NULL, &kr, &d, &e), 0);
    int binds_b = est_inflight_binds(&d);
    /* clauses 1-3 hold: a streaming kernel's hit rates stay at 0 */
    assert_true(fabs(d.l1_hit - cal.model_l1_hit) < 0.01 && fabs(d.l2_hit - cal.model_l2_hit) < 0.01);
    assert_true(est_calibration_reusable(&cal, &a, sched, &p, 0)); /* the same design */
    int ok = est_calibration_reusable(&cal, &b, sched, &p, 0);
    printf("stride %u, %d FMAs, %u -> %u ways: lines in flight %.1f -> %.1f, they set the pace %d -> %d: %s\n",
           (unsigned)stride, alu, ways_a, ways_b, cal.model_l1_inflight, d.l1_inflight, cal.model_inflight_binds,
           binds_b, ok ? "reuse" : "re-sample");
    prof_free(&p);
    synth_free(&s);
    return ok;
}

/* Clause 4 of the reuse rule: where the L1's lines in flight set the
 * model's pace at either point, an L1 of another geometry must hold as
 * many.  Halving GTX 480's L1 (16 KB, 4 ways -> 8 KB, 2 ways) leaves a
 * streaming kernel's hit rates at 0, so clauses 1-3 allow the reuse:
 *  - every line in one set: the set's ways bound the lines in flight (4,
 *    then 2), a crowding the sample met and the model does not carry;
 *  - consecutive lines: random placement holds 50.7, then 19.8;
 * both re-sample.  With 2,000 FMAs per warp consecutive lines set the pace
 * at neither size: reuse; lines in one set still do at 8 KB (2 in flight):
 * re-sample, but not at 16 or 32 KB (4 and 8): reuse, crowded or not.  From
 * 32 KB to 64 KB the 64 MSHRs bound both: reuse. */
static void test_reuse_crowding(void **st)
{
    (void)st;
    assert_false(reusable_across_l1(1024, 0, 4, 2));
    assert_false(reusable_across_l1(1, 0, 4, 2));
    assert_true(reusable_across_l1(1, 2000, 4, 2));
    assert_false(reusable_across_l1(1024, 2000, 4, 2));
    assert_true(reusable_across_l1(1024, 2000, 4, 8));
    assert_true(reusable_across_l1(1, 0, 8, 16));
}

/* Three launches of one kernel doing the same work: the first is sampled;
 * the second finds the first's lines in V100's L2 (its modelled L2 hit rate
 * moves by far more than 5 points), so it is sampled again; the third reuses
 * the second's calibration.  A launch with 10% more work per CTA is not
 * "the same launch". */
static void test_launch_reuse(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 2560, 255);
    s.launches = 3;
    profile p;
    calib_profile_of(&s, 1, &p);
    assert_int_equal(p.nkernels, 3);
    assert_true(est_same_launch(&p, 0, 1) && est_same_launch(&p, 1, 2));
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *r;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
    assert_true(!r[0].reused && r[0].r.sampled_ctas > 0);
    assert_true(!r[1].reused && r[1].r.sampled_ctas > 0);
    assert_true(r[2].reused && r[2].r.sampled_ctas == 0);
    assert_true(fabs(r[2].r.cycles - r[1].r.cycles) <= 0.02 * r[1].r.cycles);
    free(r);
    p.k[2].warp_insts *= 1.1;
    assert_false(est_same_launch(&p, 1, 2));
    prof_free(&p);
    synth_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_rule),
        cmocka_unit_test(test_reuse_crowding),
        cmocka_unit_test(test_launch_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
