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
#include "estimate.h"
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

/* Loads only: each warp reads 8 lines, `stride` lines apart from the last
 * (1: consecutive lines; 1024: every line in set 0 of any power-of-two L1
 * of up to 1024 sets). */
static void loads_kernel(synth_source *s, uint64_t stride)
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
            synth_add(s, c, w, ISA_OP_EXIT, 0xffffffffu);
        }
}

/* Clause 4 of the reuse rule: halving GTX 480's L1 ways (16 KB -> 8 KB)
 * leaves a streaming kernel's hit rates at 0, so clauses 1-3 allow the
 * reuse; where every line falls in one set the lines in flight are bound by
 * that set's ways (4, then 2), a crowding the calibration's sample met and
 * the model does not carry: re-sample.  Consecutive lines spread over the
 * sets and are not crowded, but at 8 KB (32 x 2) random placement holds
 * 19.8 lines in flight where 16 KB holds 50.7, and that bound sets the
 * model's generation: re-sample too.  From 32 KB to 64 KB the 64 MSHRs
 * bound both: reuse. */
static void test_reuse_crowding(void **st)
{
    (void)st;
    gpu_config cfg, half;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &cfg, &e), 0);
    half = cfg;
    half.l1d.ways = cfg.l1d.ways / 2;
    half.l1d.size_bytes = half.l1d.sets * half.l1d.ways * half.l1d.line_bytes;
    assert_int_equal(gcfg_validate(&half, &e), 0);
    const uint64_t strides[2] = {1024, 1};
    for (int i = 0; i < 2; i++) {
        synth_source s;
        loads_kernel(&s, strides[i]);
        profile p;
        calib_profile_of(&s, 1, &p);
        assert_false(p.k[0].sample_is_all);
        est_calibration cal;
        calibrated(&cfg, &p, &cal);
        assert_true(cal.valid);
        const char *sched = cfg.sm.scheduler;
        kresult kr;
        model_detail d;
        assert_int_equal(model_kernel(&half, sched, &p, 0, NULL, NULL, &kr, &d, &e), 0);
        printf("stride %u lines: lines in flight bound by set crowding %.2f at 16 KB, %.2f at 8 KB; "
               "hit rates %.3f -> %.3f\n",
               (unsigned)strides[i], cal.model_l1_crowded, d.l1_crowded, cal.model_l1_hit, d.l1_hit);
        assert_true(fabs(d.l1_hit - cal.model_l1_hit) < 0.01 && fabs(d.l2_hit - cal.model_l2_hit) < 0.01);
        assert_true(est_calibration_reusable(&cal, &cfg, sched, &p, 0)); /* the same design */
        if (strides[i] > 1) {
            assert_true(fabs(cal.model_l1_crowded - 4) < 0.5 && fabs(d.l1_crowded - 2) < 0.5);
            assert_false(est_calibration_reusable(&cal, &half, sched, &p, 0));
        } else {
            assert_true(cal.model_l1_crowded == 0 && d.l1_crowded == 0);
            printf("  lines in flight %.1f at 16 KB (bound binds: %d), %.1f at 8 KB (%d)\n", cal.model_l1_inflight,
                   cal.model_inflight_binds, d.l1_inflight, (int)(d.t_mshr > fmax(d.t_interval, fmax(d.t_units, d.t_lsu))));
            assert_true(fabs(cal.model_l1_inflight - 50.7) < 0.1 && fabs(d.l1_inflight - 19.8) < 0.1);
            assert_true(d.t_mshr > fmax(d.t_interval, fmax(d.t_units, d.t_lsu)));
            assert_false(est_calibration_reusable(&cal, &half, sched, &p, 0));
            gpu_config big = cfg, bigger = cfg;
            big.l1d.ways = cfg.l1d.ways * 2;
            bigger.l1d.ways = cfg.l1d.ways * 4;
            big.l1d.size_bytes = big.l1d.sets * big.l1d.ways * big.l1d.line_bytes;
            bigger.l1d.size_bytes = bigger.l1d.sets * bigger.l1d.ways * bigger.l1d.line_bytes;
            assert_int_equal(gcfg_validate(&big, &e), 0);
            assert_int_equal(gcfg_validate(&bigger, &e), 0);
            calibrated(&big, &p, &cal);
            assert_int_equal(model_kernel(&bigger, sched, &p, 0, NULL, NULL, &kr, &d, &e), 0);
            printf("  lines in flight %.1f at 32 KB, %.1f at 64 KB\n", cal.model_l1_inflight, d.l1_inflight);
            assert_true(cal.model_l1_inflight == cfg.l1d.mshr_entries && d.l1_inflight == cfg.l1d.mshr_entries);
            assert_true(est_calibration_reusable(&cal, &bigger, sched, &p, 0));
        }
        prof_free(&p);
        synth_free(&s);
    }
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
