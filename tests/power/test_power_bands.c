/*
 * test_power_bands.c - plausibility bands on simulated suite kernels, for
 * every shipped config.
 *
 * Activity comes from the detailed simulator running suite workloads in
 * full, so this checks the power model and the activity it is fed
 * together.  The bands are loose on purpose: they catch units mistakes
 * (pJ vs nJ, per-lane vs per-warp, W vs mW), not calibration.
 *   - idle (no activity) draws more than 0 W and less than TDP;
 *   - fma_throughput (compute bound) and stream_triad (DRAM bound) draw
 *     between 40% and 110% of the config's TDP, sustained: the best
 *     2000-cycle stretch of the power trace.  At test sizes a kernel spends
 *     much of its time in launch ramp (cold I-cache, first loads) and
 *     drain; a TDP is about what a long-running kernel draws in steady
 *     state.  The whole-kernel average is printed next to it;
 *   - the DRAM share of stream_triad is larger than that of fma_throughput;
 *   - pricing the simulator's per-window activity (--power-trace windows)
 *     gives the same energy as pricing the whole kernels.
 * Sizes: fma_throughput gets 2 CTAs of 8 warps per SM; stream_triad 256 K
 * floats per array, 256 CTAs with one float4 per thread (first touch of
 * every line misses in L2, so the kernel streams from DRAM whatever the L2
 * size).  Larger sizes are closer to steady state but slow the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config_registry.h"
#include "pwr_suite_run.h"

/* argv[1]: the shipped config to check (ctest runs one process per config,
 * so a failure names its GPU); without an argument, all of them. */
static const char *const all[] = {"gtx480", "v100", "rtx2060", "a100", "h100"};
static const char *const *shipped = all;
static size_t nshipped = sizeof all / sizeof *all;

#define BAND_LO 0.40
#define BAND_HI 1.10
#define STREAM_FLOATS (256u * 256u * 4u)
#define WINDOW_CYCLES 500

static void run(const gpu_config *cfg, const pwr_model *m, const char *wl, uint32_t size, uint64_t interval,
                psr_result *r)
{
    ge_err e = {{0}};
    if (psr_run(cfg, m, wl, size, interval, r, &e))
        fail_msg("%s on %s: %s", wl, cfg->name, e.msg);
}

static void test_bands(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < nshipped; i++) {
        gpu_config cfg;
        ge_err e = {{0}};
        if (gcfg_load_named(shipped[i], &cfg, &e))
            fail_msg("%s", e.msg);
        pwr_model *m = pwr_create(&cfg, &e);
        if (!m)
            fail_msg("%s", e.msg);
        double tdp = cfg.power.tdp_w;

        act_counters idle;
        act_clear(&idle);
        pwr_result ri;
        assert_int_equal(pwr_eval(m, &idle, 1e5, PWR_NOMINAL, &ri, &e), 0);

        psr_result fma, st;
        run(&cfg, m, "fma_throughput", 2 * cfg.gpu.sm_count, WINDOW_CYCLES, &fma);
        run(&cfg, m, "stream_triad", STREAM_FLOATS, WINDOW_CYCLES, &st);
        double fdram = fma.power.comp_w[PWR_DRAM] / fma.power.total_w;
        double sdram = st.power.comp_w[PWR_DRAM] / st.power.total_w;
        printf("%-8s idle %5.1f W | fma sustained %6.1f W = %5.1f%% TDP (avg %5.1f%%, %.0f cyc) | stream "
               "sustained %6.1f W = %5.1f%% TDP (avg %5.1f%%, %.0f cyc) | DRAM share fma %.1f%% stream "
               "%.1f%%\n",
               shipped[i], ri.total_w, fma.sustained_w, 100 * fma.sustained_w / tdp,
               100 * fma.power.total_w / tdp, fma.cycles, st.sustained_w, 100 * st.sustained_w / tdp,
               100 * st.power.total_w / tdp, st.cycles, 100 * fdram, 100 * sdram);
        fflush(stdout);
        if (!(ri.total_w > 0 && ri.total_w < tdp)) {
            print_error("%s: idle power %g W outside (0, TDP)\n", shipped[i], ri.total_w);
            failures++;
        }
        const psr_result *k[] = {&fma, &st};
        const char *kn[] = {"fma_throughput", "stream_triad"};
        for (int j = 0; j < 2; j++) {
            double f = k[j]->sustained_w / tdp;
            if (!(f >= BAND_LO && f <= BAND_HI)) {
                print_error("%s: %s at %.1f%% of TDP, outside [%.0f%%, %.0f%%]\n", shipped[i], kn[j], 100 * f,
                            100 * BAND_LO, 100 * BAND_HI);
                failures++;
            }
        }
        if (!(sdram > fdram)) {
            print_error("%s: DRAM share of stream (%.3f) not above fma's (%.3f)\n", shipped[i], sdram, fdram);
            failures++;
        }
        pwr_free(m);
    }
    if (failures)
        fail_msg("%d band violation(s)", failures);
}

/* Windows of the power trace add up to the kernels (same activity counts,
 * cut differently). */
static void test_windows_add_up(void **state)
{
    (void)state;
    gpu_config cfg;
    ge_err e = {{0}};
    if (gcfg_load_named("v100", &cfg, &e))
        fail_msg("%s", e.msg);
    pwr_model *m = pwr_create(&cfg, &e);
    if (!m)
        fail_msg("%s", e.msg);
    psr_result r;
    run(&cfg, m, "stream_triad", STREAM_FLOATS, WINDOW_CYCLES, &r);
    assert_true(r.window_cycles > 0);
    assert_true(fabs(r.window_cycles - r.cycles) <= 0.5);
    if (!(fabs(r.window_energy_j - r.power.energy_j) <= 1e-9 * r.power.energy_j))
        fail_msg("windows %.12g J vs kernels %.12g J", r.window_energy_j, r.power.energy_j);
    pwr_free(m);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        shipped = (const char *const *)&argv[1];
        nshipped = 1;
    }
    const struct CMUnitTest bands[] = {cmocka_unit_test(test_bands)};
    const struct CMUnitTest both[] = {cmocka_unit_test(test_windows_add_up), cmocka_unit_test(test_bands)};
    /* the window check needs one config only */
    if (argc > 1 && strcmp(argv[1], "v100"))
        return cmocka_run_group_tests(bands, NULL, NULL) ? 1 : 0;
    return cmocka_run_group_tests(both, NULL, NULL) ? 1 : 0;
}
