/*
 * test_interval.c - the interval model's warp-level pieces against
 * hand-computed cases: M/D/1 queueing, the single-warp replay, and the
 * multi-warp formula per scheduling policy (model/interval.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

/* ---- queueing ---- */

static void test_md1(void **st)
{
    (void)st;
    assert_true(model_md1_wait(0) == 0);
    assert_true(fabs(model_md1_wait(0.5) - 0.5) < 1e-12);  /* 0.5 / (2 * 0.5) */
    assert_true(fabs(model_md1_wait(0.8) - 2.0) < 1e-12);  /* 0.8 / (2 * 0.2) */
    assert_true(model_md1_wait(0.9) > model_md1_wait(0.8));
}

/* ---- single-warp replay ---- */

/* Latencies of 4 cycles for every ALU class, the rest 0. */
static void alu4_lat(model_lat *lat)
{
    memset(lat, 0, sizeof *lat);
    for (int i = 0; i < ISA_LAT_COUNT; i++)
        lat->alu[i] = 4;
}

static void test_replay(void **st)
{
    (void)st;
    prof_inst in[4];
    memset(in, 0, sizeof in);
    in[0].op = ISA_OP_LD_GLOBAL;
    in[0].lines = 1;
    in[1].op = ISA_OP_FP32_FMA;
    in[1].dep[0] = 1; /* uses the load */
    in[2].op = ISA_OP_INT_ALU;
    in[3].op = ISA_OP_INT_ALU;
    in[3].dep[0] = 1; /* uses inst 2 */
    prof_warp w = {1, 4, in};
    model_lat lat;
    alu4_lat(&lat);
    lat.load = 100;
    model_warp_time t;
    assert_int_equal(model_replay(&w, &lat, &t, NULL), 0);
    /* issue 0 at 0 (done 100); 1 waits to 100 (99 memory stall); 2 at 101
     * (done 105); 3 waits to 105 (3 dependency stall) -> 106 cycles. */
    assert_true(t.cycles == 106);
    assert_true(t.stall_mem == 99 && t.stall_dep == 3);
    assert_int_equal(t.nint, 3);
    assert_true(t.issue[0] == 1 && t.stall[0] == 99 && t.mem[0] == 1);
    assert_true(t.issue[1] == 2 && t.stall[1] == 3 && t.mem[1] == 0);
    assert_true(t.issue[2] == 1 && t.stall[2] == 0);
    model_warp_time_free(&t);
}

/* The SM's memory pipeline: global line lookups and shared-memory bank
 * cycles use separate resources, as in the simulator (sampler/ldst.c:
 * SIM_RES_LSU and SIM_RES_SHARED), so an interval's pipeline cycles per
 * warp are the larger of the two sums: a 3-line load and a 2-way
 * conflicted shared store hold it 3 cycles, not 5. */
static void test_replay_pipes(void **st)
{
    (void)st;
    prof_inst in[3];
    memset(in, 0, sizeof in);
    in[0].op = ISA_OP_LD_GLOBAL;
    in[0].lines = 3;
    in[1].op = ISA_OP_ST_SHARED;
    in[1].conflict = 2;
    in[2].op = ISA_OP_FP32_FMA;
    in[2].dep[0] = 2; /* uses the load */
    prof_warp w = {1, 3, in};
    model_lat lat;
    alu4_lat(&lat);
    lat.load = 100;
    lat.shared = 20;
    lat.shared_ii = 1;
    model_warp_time t;
    assert_int_equal(model_replay(&w, &lat, &t, NULL), 0);
    assert_int_equal(t.nint, 2);
    assert_true(t.issue[0] == 2 && t.lsu[0] == 3);
    assert_true(t.issue[1] == 1 && t.lsu[1] == 0);
    model_warp_time_free(&t);
}

/* A load waits for its slowest line, and an instruction for the slowest
 * line of all the loads it waits on: each line an L1 hit (20 cycles) with
 * probability 0.5, else a miss of (100 - 0.5 x 20) / 0.5 = 180 cycles, so
 * the mean is 100 and the slowest of two lines takes 0.25 x 20 + 0.75 x
 * 180 = 140.  (a) One 2-line load at cycle 0 (one cycle per extra line):
 * its use waits until 1 + 140.  (b) Two 1-line loads at cycles 0 and 1,
 * used together: until 1 + 140, where each alone takes the mean, 100. */
static void test_replay_slowest_line(void **st)
{
    (void)st;
    model_lat lat;
    alu4_lat(&lat);
    model_load_mix mix = {100, 0.5, 20};
    for (int c = 0; c < 2; c++) {
        prof_inst in[3];
        memset(in, 0, sizeof in);
        uint32_t n = c == 0 ? 2 : 3;
        in[0].op = ISA_OP_LD_GLOBAL;
        in[0].lines = c == 0 ? 2 : 1;
        if (c == 1) {
            in[1].op = ISA_OP_LD_GLOBAL;
            in[1].lines = 1;
        }
        in[n - 1].op = ISA_OP_FP32_FMA;
        in[n - 1].dep[0] = 1;
        if (c == 1)
            in[n - 1].dep[1] = 2;
        prof_warp w = {1, n, in};
        model_replay_plan plan;
        model_warp_time t;
        assert_int_equal(model_replay_plan_init(&plan, &w, &lat, NULL), 0);
        assert_int_equal(model_replay_run(&plan, &mix, 0, &t, NULL), 0);
        assert_float_equal(t.cycles, 142, 1e-9);
        assert_true(t.stall_mem > 0 && t.stall_dep == 0);
        model_warp_time_free(&t);
        /* every line at the mean when nothing hits */
        model_load_mix flat = {100, 0, 20};
        assert_int_equal(model_replay_run(&plan, &flat, 0, &t, NULL), 0);
        assert_float_equal(t.cycles, 102, 1e-9);
        model_warp_time_free(&t);
        model_replay_plan_free(&plan);
    }
}

/* ---- multi-warp hiding per policy ---- */

static void test_policies(void **st)
{
    (void)st;
    /* interval 0: 4 issues, then a 100-cycle wait on a load whose warp
     * needs 2 LSU cycles; interval 1: 4 issues and the end */
    double issue[] = {4, 4}, stall[] = {100, 0}, lsu[] = {2, 0};
    uint8_t mem[] = {1, 0}, wait[] = {1, 0};
    model_warp_time t = {8, 104, 100, 0, 2, issue, stall, lsu, mem, wait};
    double ms;
    /* N = 8 warps, all 8 on the SM: LRR pays the lock-step burst:
     * max(8*4, 8*2, 4 + 100 + 7*2) + max(32, 0, 4) */
    assert_true(model_multiwarp(&t, 8, 8, MODEL_LRR, &ms, NULL) == 118 + 32);
    assert_true(ms == 118 - 32);
    /* GTO staggers warps: max(32, 16, 104) + 32 */
    assert_true(model_multiwarp(&t, 8, 8, MODEL_GTO, &ms, NULL) == 104 + 32);
    assert_true(ms == 104 - 32);
    /* N = 16: LRR max(64, 104 + 15*2) + 64; GTO 104 + 64; two-level bursts
     * among its 8 active warps: max(64, 104 + 7*2) + 64 */
    assert_true(model_multiwarp(&t, 16, 16, MODEL_LRR, NULL, NULL) == 134 + 64);
    assert_true(model_multiwarp(&t, 16, 16, MODEL_GTO, NULL, NULL) == 104 + 64);
    assert_true(model_multiwarp(&t, 16, 16, MODEL_TWO_LEVEL, NULL, NULL) == 118 + 64);
    /* the SM's memory pipeline: 64 warps on the SM need 64*2 LSU cycles in
     * interval 0 even though each scheduler holds only 16: max(64, 128, 104) + 64 */
    assert_true(model_multiwarp(&t, 16, 64, MODEL_GTO, NULL, NULL) == 128 + 64);
    /* with enough warps every policy is issue bound: N * I */
    assert_true(model_multiwarp(&t, 64, 64, MODEL_GTO, NULL, NULL) == 64 * 8);
    /* a short dependency stall: LRR hides it with all 16 warps, two-level
     * only with its 8 active ones -> two rounds of max(8*2, 2 + 30) */
    double i2[] = {2}, s2[] = {30}, l2[] = {0};
    uint8_t m2[] = {0}, w2[] = {0};
    model_warp_time d = {2, 32, 0, 30, 1, i2, s2, l2, m2, w2};
    double ds;
    assert_true(model_multiwarp(&d, 16, 16, MODEL_LRR, NULL, &ds) == 32);
    assert_true(model_multiwarp(&d, 16, 16, MODEL_TWO_LEVEL, NULL, &ds) == 64);
    assert_true(ds == 32);
    /* one warp: exactly the single-warp time under every policy */
    for (int p = 0; p < 3; p++)
        assert_true(model_multiwarp(&t, 1, 1, (model_policy)p, NULL, NULL) == 108);
}

/* After the first interval the warps drift apart: a warp's stall overlaps
 * the other warps' work in later intervals too, so the rest costs the larger
 * of the summed work and the summed path, not the sum of each interval's
 * larger one. */
static void test_drift(void **st)
{
    (void)st;
    /* intervals: 4 issues + 100 (load), 4 issues + 100 (load), 40 issues */
    double issue[] = {4, 4, 40}, stall[] = {100, 100, 0}, lsu[] = {0, 0, 0};
    uint8_t mem[] = {1, 1, 0}, wait[] = {1, 1, 0};
    model_warp_time t = {48, 248, 200, 0, 3, issue, stall, lsu, mem, wait};
    double ms, ds;
    /* N = 8 under GTO: the first interval in step, max(8*4, 104) = 104; the
     * rest max(8*4 + 8*40, 104 + 40) = 352 (the second load's wait is hidden
     * by the other warps' 40-issue stretch); per interval it would be
     * 104 + 104 + 320 = 528.  Unhidden: 104 - 32 in the first interval. */
    assert_true(model_multiwarp(&t, 8, 8, MODEL_GTO, &ms, &ds) == 104 + 352);
    assert_true(ms == 72 && ds == 0);
    /* N = 2: the rest is one warp's path, max(2*4 + 2*40, 104 + 40) = 144,
     * of which 144 - 88 = 56 is unhidden, all of it memory (the path's
     * excess over its issues is the load's 100 cycles). */
    assert_true(model_multiwarp(&t, 2, 2, MODEL_GTO, &ms, &ds) == 104 + 144);
    assert_true(ms == (104 - 8) + 56 && ds == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_md1),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_replay_pipes),
        cmocka_unit_test(test_replay_slowest_line),
        cmocka_unit_test(test_policies),
        cmocka_unit_test(test_drift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
