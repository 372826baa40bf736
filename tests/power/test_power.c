/*
 * test_power.c - properties of the power model on synthetic activity.
 *
 * Activity here is synthetic on purpose (the band test, test_power_bands.c,
 * uses the simulator): these tests check the model's structure, not its
 * calibration.
 *   - every shipped config builds a model with finite, non-negative event
 *     energies and positive static, idle-SM and idle power;
 *   - doubling one counter raises exactly the components that counter
 *     feeds (checked against a hand-written list, not against the model's
 *     own event table) and leaves every other component bit-identical;
 *   - lower voltage at the same frequency lowers power (dynamic by V^2,
 *     leakage by V), and a lower DVFS point costs less energy per cycle;
 *   - energy = average power x time; windows add up to the kernel;
 *   - calibration factors scale their component only; lane-dependent
 *     static power; determinism; errors are one line and -1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "power.h"

static const char *const shipped[] = {"gtx480", "v100", "rtx2060", "a100", "h100"};
#define NSHIPPED (sizeof shipped / sizeof *shipped)

static void load(const char *name, gpu_config *cfg)
{
    ge_err e = {{0}};
    if (gcfg_load_named(name, cfg, &e))
        fail_msg("%s: %s", name, e.msg);
}

static pwr_model *create(const gpu_config *cfg)
{
    ge_err e = {{0}};
    pwr_model *m = pwr_create(cfg, &e);
    if (!m)
        fail_msg("pwr_create(%s): %s", cfg->name, e.msg);
    return m;
}

static pwr_model *create_named(const char *name, gpu_config *cfg)
{
    load(name, cfg);
    return create(cfg);
}

/* Every counter positive, loosely shaped like a busy kernel on cfg. */
static void busy_activity(const gpu_config *cfg, double cycles, act_counters *a)
{
    act_clear(a);
    double sms = cfg->gpu.sm_count, wi = sms * cycles * 1.5;
    for (int i = 0; i < ACT_COUNT; i++)
        a->c[i] = wi * (0.01 + 0.003 * i);
    a->c[ACT_CYCLES] = cycles;
    a->c[ACT_ACTIVE_SM_CYCLES] = 0.75 * sms * cycles;
    a->c[ACT_WARP_INSTS] = wi;
    a->c[ACT_THREAD_INSTS] = wi * 24;
    for (int k = 0; k < ISA_OP_COUNT; k++) {
        a->op_warps[k] = wi / ISA_OP_COUNT * (1 + k % 3);
        a->op_lanes[k] = a->op_warps[k] * 24;
    }
}

static void eval(const pwr_model *m, const act_counters *a, double cycles, int dvfs, pwr_result *r)
{
    ge_err e = {{0}};
    if (pwr_eval(m, a, cycles, dvfs, r, &e))
        fail_msg("pwr_eval: %s", e.msg);
}

static void test_shipped_configs_build(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSHIPPED; i++) {
        gpu_config cfg;
        pwr_model *m = create_named(shipped[i], &cfg);
        size_t n;
        const pwr_event *ev = pwr_events(m, &n);
        assert_true(n > 60);
        for (size_t k = 0; k < n; k++)
            if (!(ev[k].energy_j >= 0 && isfinite(ev[k].energy_j) && ev[k].energy_j < 1e-6))
                fail_msg("%s: event %s energy %g J", shipped[i], ev[k].name, ev[k].energy_j);
        /* Events that must exist and cost something on every shipped GPU. */
        const char *must[] = {"regfile.read", "fp32_fma", "l1d.read_hit", "l2.read_hit", "dram.read",
                              "noc.flit", "scheduler.issue", "idle_sm.cycle", "dram.activate"};
        for (size_t q = 0; q < sizeof must / sizeof *must; q++) {
            int found = 0;
            for (size_t k = 0; k < n; k++)
                if (!strcmp(ev[k].name, must[q])) {
                    found = 1;
                    if (!(ev[k].energy_j > 0))
                        fail_msg("%s: %s has no energy", shipped[i], must[q]);
                }
            if (!found)
                fail_msg("%s: no event %s", shipped[i], must[q]);
        }
        assert_true(pwr_static_w(m) > 0);
        assert_true(pwr_idle_sm_w(m) > 0);
        /* A GPU doing nothing still draws power, below its TDP. */
        act_counters a;
        act_clear(&a);
        pwr_result r;
        eval(m, &a, 1e5, PWR_NOMINAL, &r);
        assert_true(r.total_w > 0);
        assert_true(r.total_w < cfg.power.tdp_w);
        assert_true(r.comp_w[PWR_IDLE_SM] > 0);
        assert_true(r.dynamic_w == 0);
        pwr_free(m);
    }
}

/* The components each counter must feed (and only these). */
typedef struct {
    int src; /* 0 act, 1 lanes, 2 warps */
    int idx;
    pwr_component comps[3];
    int ncomp;
} feed;

static const feed feeds[] = {
    {0, ACT_IBUFFER_WRITES, {PWR_IBUFFER}, 1},
    {0, ACT_IBUFFER_READS, {PWR_IBUFFER}, 1},
    {0, ACT_ICACHE_HITS, {PWR_ICACHE}, 1},
    {0, ACT_ICACHE_MISSES, {PWR_ICACHE}, 1},
    {0, ACT_SCHED_ISSUES, {PWR_SCHED}, 1},
    {0, ACT_RF_READS, {PWR_REGFILE}, 1},
    {0, ACT_RF_WRITES, {PWR_REGFILE}, 1},
    {0, ACT_L1_READ_HITS, {PWR_L1D}, 1},
    {0, ACT_L1_READ_MISSES, {PWR_L1D}, 1},
    {0, ACT_L1_WRITE_HITS, {PWR_L1D}, 1},
    {0, ACT_SHARED_READS, {PWR_SHARED}, 1},
    {0, ACT_SHARED_WRITES, {PWR_SHARED}, 1},
    {0, ACT_CONST_HITS, {PWR_CONST}, 1},
    {0, ACT_L2_READ_HITS, {PWR_L2}, 1},
    {0, ACT_L2_READ_MISSES, {PWR_L2}, 1},
    {0, ACT_L2_WRITE_HITS, {PWR_L2}, 1},
    {0, ACT_L2_WRITE_MISSES, {PWR_L2}, 1},
    {0, ACT_NOC_FLITS, {PWR_NOC}, 1},
    {0, ACT_MC_REQUESTS, {PWR_MC}, 1},
    {0, ACT_DRAM_READS, {PWR_DRAM}, 1},
    {0, ACT_DRAM_WRITES, {PWR_DRAM}, 1},
    {0, ACT_DRAM_ACTIVATES, {PWR_DRAM}, 1},
    {0, ACT_DRAM_PRECHARGES, {PWR_DRAM}, 1},
    /* more active SM-cycles: more pipeline clocking, fewer idle SM-cycles */
    {0, ACT_ACTIVE_SM_CYCLES, {PWR_PIPELINE, PWR_IDLE_SM}, 2},
    {0, ACT_WARP_INSTS, {0}, 0},
    {0, ACT_THREAD_INSTS, {0}, 0},
    {0, ACT_RF_BANK_CONFLICTS, {0}, 0},
    {0, ACT_PIPE_BUSY, {0}, 0},
    {1, ISA_OP_FP32_FMA, {PWR_FP32_FMA, PWR_PIPELINE}, 2},
    {1, ISA_OP_FP32_ADD, {PWR_FP32_ADD, PWR_PIPELINE}, 2},
    {1, ISA_OP_INT_MUL, {PWR_INT_MUL, PWR_PIPELINE}, 2},
    {1, ISA_OP_SFU_SIN, {PWR_SFU_SIN, PWR_PIPELINE}, 2},
    {1, ISA_OP_FP64_FMA, {PWR_FP64, PWR_PIPELINE}, 2},
    {1, ISA_OP_LD_GLOBAL, {PWR_PIPELINE}, 1},
    {2, ISA_OP_TENSOR, {PWR_TENSOR}, 1},
    {2, ISA_OP_FP32_FMA, {0}, 0},
};

static double *feed_ptr(act_counters *a, const feed *f)
{
    return f->src == 0 ? &a->c[f->idx] : f->src == 1 ? &a->op_lanes[f->idx] : &a->op_warps[f->idx];
}

static void test_doubling_one_counter(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < NSHIPPED; ci++) {
        gpu_config cfg;
        pwr_model *m = create_named(shipped[ci], &cfg);
        act_counters base;
        busy_activity(&cfg, 2e5, &base);
        pwr_result r0;
        eval(m, &base, 0, PWR_NOMINAL, &r0);
        for (size_t fi = 0; fi < sizeof feeds / sizeof *feeds; fi++) {
            const feed *f = &feeds[fi];
            if (f->src == 2 && f->idx == ISA_OP_TENSOR && !(cfg.units[ISA_UNIT_TENSOR] > 0))
                continue; /* no tensor cores: tensor ops cost nothing (checked below) */
            act_counters a = base;
            *feed_ptr(&a, f) *= 2;
            pwr_result r;
            eval(m, &a, 0, PWR_NOMINAL, &r);
            for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
                int fed = 0;
                for (int k = 0; k < f->ncomp; k++)
                    fed |= f->comps[k] == (pwr_component)c;
                if (!fed && r.comp_w[c] != r0.comp_w[c])
                    fail_msg("%s: doubling feed %zu changed %s (%g -> %g W)", shipped[ci], fi,
                             pwr_component_names[c], r0.comp_w[c], r.comp_w[c]);
                if (fed && c == PWR_IDLE_SM && !(r.comp_w[c] < r0.comp_w[c]))
                    fail_msg("%s: more active SM-cycles did not lower idle-SM power", shipped[ci]);
                if (fed && c != PWR_IDLE_SM && !(r.comp_w[c] > r0.comp_w[c]))
                    fail_msg("%s: doubling feed %zu did not raise %s", shipped[ci], fi,
                             pwr_component_names[c]);
            }
        }
        pwr_free(m);
    }
}

/* A config copy with two DVFS points at the same frequency, 0.8 and 1.0 V. */
static void test_lower_voltage_lowers_power(void **state)
{
    (void)state;
    gpu_config cfg;
    load("v100", &cfg);
    double f = cfg.gpu.core_clock_mhz;
    cfg.power.ndvfs = 2;
    cfg.power.dvfs[0] = (gcfg_dvfs){f, 0.8 * cfg.power.vdd_v};
    cfg.power.dvfs[1] = (gcfg_dvfs){f, cfg.power.vdd_v};
    pwr_model *m = create(&cfg);
    act_counters a;
    busy_activity(&cfg, 1e5, &a);
    pwr_result lo, hi, nom;
    eval(m, &a, 0, 0, &lo);
    eval(m, &a, 0, 1, &hi);
    eval(m, &a, 0, PWR_NOMINAL, &nom);
    assert_true(lo.total_w < hi.total_w);
    assert_true(fabs(hi.total_w - nom.total_w) <= 1e-12 * nom.total_w);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
        double expect;
        if (c == PWR_CONSTANT || c == PWR_DRAM)
            expect = 1.0; /* board and DRAM rails do not follow core DVFS */
        else if (c == PWR_STATIC)
            expect = 0.8;
        else
            expect = 0.64;
        if (hi.comp_w[c] > 0 && fabs(lo.comp_w[c] / hi.comp_w[c] - expect) > 1e-12)
            fail_msg("%s: ratio %g, expected %g", pwr_component_names[c], lo.comp_w[c] / hi.comp_w[c],
                     expect);
    }
    pwr_free(m);

    /* A shipped config with two real points: the lower one spends less
     * energy on the same cycles of work. */
    gpu_config c2;
    m = create_named("rtx2060", &c2);
    assert_true(c2.power.ndvfs >= 2);
    busy_activity(&c2, 1e5, &a);
    eval(m, &a, 0, 0, &lo);
    eval(m, &a, 0, (int)c2.power.ndvfs - 1, &hi);
    assert_true(lo.freq_mhz < hi.freq_mhz && lo.vdd_v < hi.vdd_v);
    assert_true(lo.total_w < hi.total_w);
    assert_true(lo.dynamic_w * lo.seconds < hi.dynamic_w * hi.seconds);
    assert_true(lo.seconds > hi.seconds);
    pwr_free(m);
}

static void test_energy_is_power_times_time(void **state)
{
    (void)state;
    gpu_config cfg;
    pwr_model *m = create_named("a100", &cfg);
    act_counters a, b, sum;
    busy_activity(&cfg, 3e4, &a);
    busy_activity(&cfg, 7e4, &b);
    b.c[ACT_DRAM_READS] *= 5; /* make the windows differ */
    b.op_lanes[ISA_OP_FP32_FMA] = 0;
    sum = a;
    act_add(&sum, &b);
    pwr_result ra, rb, rs, acc;
    eval(m, &a, 0, PWR_NOMINAL, &ra);
    eval(m, &b, 0, PWR_NOMINAL, &rb);
    eval(m, &sum, 0, PWR_NOMINAL, &rs);
    double comp_e = 0;
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        comp_e += rs.comp_w[c] * rs.seconds;
    assert_true(fabs(rs.energy_j - rs.total_w * rs.seconds) <= 1e-12 * rs.energy_j);
    assert_true(fabs(comp_e - rs.energy_j) <= 1e-9 * rs.energy_j);
    assert_true(fabs(rs.seconds - 1e5 / (cfg.gpu.core_clock_mhz * 1e6)) <= 1e-15);
    assert_true(fabs(rs.edp - rs.energy_j * rs.seconds) <= 1e-12 * rs.edp);
    assert_true(fabs(rs.ed2p - rs.edp * rs.seconds) <= 1e-12 * rs.ed2p);
    /* Two windows add up to the whole, and pwr_accumulate agrees. */
    assert_true(fabs(ra.energy_j + rb.energy_j - rs.energy_j) <= 1e-9 * rs.energy_j);
    memset(&acc, 0, sizeof acc);
    pwr_accumulate(&acc, &ra);
    pwr_accumulate(&acc, &rb);
    assert_true(fabs(acc.energy_j - rs.energy_j) <= 1e-9 * rs.energy_j);
    assert_true(fabs(acc.total_w - rs.total_w) <= 1e-9 * rs.total_w);
    assert_true(fabs(acc.edp - rs.edp) <= 1e-9 * rs.edp);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        assert_true(fabs(acc.comp_w[c] - rs.comp_w[c]) <= 1e-9 * (rs.comp_w[c] + 1e-30));
    pwr_free(m);
}

static void test_calibration_factor(void **state)
{
    (void)state;
    gpu_config cfg;
    load("gtx480", &cfg);
    pwr_model *m0 = create(&cfg);
    cfg.power.scale[PWR_L2] = 2.0;
    cfg.power.scale[PWR_STATIC] = 0.5;
    cfg.power.constant_w = 17.0;
    pwr_model *m1 = create(&cfg);
    act_counters a;
    busy_activity(&cfg, 1e5, &a);
    pwr_result r0, r1;
    eval(m0, &a, 0, PWR_NOMINAL, &r0);
    eval(m1, &a, 0, PWR_NOMINAL, &r1);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
        double expect = c == PWR_L2 ? 2.0 * r0.comp_w[c] : c == PWR_STATIC ? 0.5 * r0.comp_w[c] : r0.comp_w[c];
        if (c == PWR_CONSTANT)
            expect = 17.0;
        if (fabs(r1.comp_w[c] - expect) > 1e-12 * (expect + 1e-30))
            fail_msg("%s: %g W, expected %g", pwr_component_names[c], r1.comp_w[c], expect);
    }
    pwr_free(m0);
    pwr_free(m1);
}

static void test_lane_static(void **state)
{
    (void)state;
    gpu_config cfg;
    load("v100", &cfg);
    pwr_model *off = create(&cfg);
    cfg.power.lane_static = 1;
    pwr_model *on = create(&cfg);
    act_counters full, half;
    busy_activity(&cfg, 1e5, &full);
    full.c[ACT_THREAD_INSTS] = full.c[ACT_WARP_INSTS] * 32;
    half = full;
    half.c[ACT_THREAD_INSTS] = full.c[ACT_WARP_INSTS] * 16;
    pwr_result rf, rh, r0;
    eval(on, &full, 0, PWR_NOMINAL, &rf);
    eval(on, &half, 0, PWR_NOMINAL, &rh);
    eval(off, &half, 0, PWR_NOMINAL, &r0);
    /* all lanes active = the lane-independent model */
    assert_true(fabs(rf.comp_w[PWR_STATIC] - r0.comp_w[PWR_STATIC]) <= 1e-12 * r0.comp_w[PWR_STATIC]);
    assert_true(rh.comp_w[PWR_STATIC] < rf.comp_w[PWR_STATIC]);
    /* the difference is half the lane leakage */
    size_t n;
    const pwr_leak *lk = pwr_leaks(on, &n);
    double lane_w = 0;
    for (size_t i = 0; i < n; i++)
        lane_w += lk[i].lane ? lk[i].watts : 0;
    assert_true(lane_w > 0);
    assert_true(fabs(rf.comp_w[PWR_STATIC] - rh.comp_w[PWR_STATIC] - 0.5 * lane_w) <= 1e-9 * lane_w);
    pwr_free(on);
    pwr_free(off);
}

static void test_same_counts_same_power(void **state)
{
    (void)state;
    gpu_config cfg;
    pwr_model *m = create_named("h100", &cfg);
    pwr_model *m2 = create(&cfg); /* second build: memoised cacti, same numbers */
    kresult k1, k2;
    memset(&k1, 0, sizeof k1);
    busy_activity(&cfg, 5e4, &k1.act);
    k1.cycles = 5e4;
    /* A kresult from "another source": everything but the activity differs. */
    k2 = k1;
    snprintf(k2.name, sizeof k2.name, "other");
    k2.l1_hit_rate = 0.3;
    k2.occupancy = 0.9;
    k2.stall[KR_MEMORY] = 12345;
    k2.error_estimate = 0.05;
    pwr_result r1, r2, r3;
    ge_err e = {{0}};
    assert_int_equal(pwr_kernel(m, &k1, &r1, &e), 0);
    assert_int_equal(pwr_kernel(m2, &k2, &r2, &e), 0);
    eval(m, &k1.act, k1.cycles, PWR_NOMINAL, &r3);
    assert_memory_equal(&r1, &r2, sizeof r1);
    assert_memory_equal(&r1, &r3, sizeof r1);
    pwr_free(m);
    pwr_free(m2);
}

static void test_errors(void **state)
{
    (void)state;
    gpu_config cfg;
    pwr_model *m = create_named("v100", &cfg);
    act_counters a;
    busy_activity(&cfg, 1e4, &a);
    pwr_result r;
    ge_err e = {{0}};
    a.c[ACT_CYCLES] = 0;
    assert_int_equal(pwr_eval(m, &a, 0, PWR_NOMINAL, &r, &e), -1);
    assert_non_null(strstr(e.msg, "cycles"));
    assert_null(strchr(e.msg, '\n'));
    a.c[ACT_CYCLES] = 1e4;
    assert_int_equal(pwr_eval(m, &a, 0, 99, &r, &e), -1);
    assert_non_null(strstr(e.msg, "DVFS"));
    a.c[ACT_L2_READ_HITS] = -1;
    assert_int_equal(pwr_eval(m, &a, 0, PWR_NOMINAL, &r, &e), -1);
    assert_non_null(strstr(e.msg, "l2_read_hits"));
    a.c[ACT_L2_READ_HITS] = NAN;
    assert_int_equal(pwr_eval(m, &a, 0, PWR_NOMINAL, &r, &e), -1);
    pwr_free(m);
    /* an unknown memory type is refused at create */
    strcpy(cfg.dram.type, "DDR9");
    assert_null(pwr_create(&cfg, &e));
    assert_non_null(strstr(e.msg, "DDR9"));
}

static void test_reports(void **state)
{
    (void)state;
    gpu_config cfg;
    pwr_model *m = create_named("rtx2060", &cfg);
    act_counters a;
    busy_activity(&cfg, 1e4, &a);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    json_w j;
    pwr_result r;
    eval(m, &a, 0, PWR_NOMINAL, &r);
    json_init(&j, f);
    json_obj_begin(&j);
    pwr_json(&j, &r);
    json_obj_end(&j);
    json_end(&j);
    fclose(f);
    const char *keys[] = {"\"power_w\"", "\"energy_j\"", "\"edp\"", "\"ed2p\"", "\"power_breakdown_w\"",
                          "\"regfile\"", "\"dram\"", "\"constant\""};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strstr(buf, keys[i]))
            fail_msg("JSON lacks %s: %s", keys[i], buf);
    free(buf);

    /* trace: header and row have the same number of columns */
    f = open_memstream(&buf, &len);
    pwr_trace_header(f);
    ge_err e = {{0}};
    assert_int_equal(pwr_trace_row(m, 12345, &a, PWR_NOMINAL, f, &e), 0);
    fclose(f);
    char *nl = strchr(buf, '\n');
    assert_non_null(nl);
    int hc = 0, rc = 0;
    for (char *p = buf; p < nl; p++)
        hc += *p == ',';
    for (char *p = nl + 1; *p; p++)
        rc += *p == ',';
    assert_int_equal(hc, rc);
    assert_int_equal(strncmp(nl + 1, "12345,", 6), 0);
    free(buf);

    /* the description names every event's source */
    f = open_memstream(&buf, &len);
    assert_int_equal(pwr_describe(m, f, &e), 0);
    fclose(f);
    size_t n;
    const pwr_event *ev = pwr_events(m, &n);
    for (size_t i = 0; i < n; i++) {
        assert_true(ev[i].source[0] != '\0');
        assert_non_null(strstr(buf, ev[i].name));
    }
    free(buf);
    pwr_free(m);
}

/* Memoised cacti: the same config gives bit-identical models. */
static void test_deterministic(void **state)
{
    (void)state;
    gpu_config cfg;
    pwr_model *a = create_named("gtx480", &cfg), *b = create(&cfg);
    size_t na, nb;
    const pwr_event *ea = pwr_events(a, &na), *eb = pwr_events(b, &nb);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        assert_memory_equal(&ea[i].energy_j, &eb[i].energy_j, sizeof(double));
    assert_memory_equal(&(double){pwr_static_w(a)}, &(double){pwr_static_w(b)}, sizeof(double));
    pwr_free(a);
    pwr_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_configs_build),
        cmocka_unit_test(test_doubling_one_counter),
        cmocka_unit_test(test_lower_voltage_lowers_power),
        cmocka_unit_test(test_energy_is_power_times_time),
        cmocka_unit_test(test_calibration_factor),
        cmocka_unit_test(test_lane_static),
        cmocka_unit_test(test_same_counts_same_power),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
