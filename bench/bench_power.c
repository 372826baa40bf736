/*
 * bench_power.c - speed of the power model, and its V100 breakdown over the
 * workload suite next to AccelWattch's published Volta breakdown.
 *
 *   bench_power [--quick] [--full] [--config NAME]
 *
 * 1. pwr_create time for every shipped config, cold (cacti memo cleared)
 *    and warm (memoised), and the static/idle figures it yields.
 * 2. pwr_eval time from a built model (target: under 50 us per call).
 * 3. Suite breakdown (built with the simulator, PTX front-end and suite):
 *    every suite workload is simulated on the config (V100 by default) at
 *    its tiny size (--full: default size), priced per kernel, and the
 *    per-workload component shares are averaged (each workload weighs the
 *    same, as AccelWattch averages its validation kernels).  Printed next
 *    to AccelWattch's Volta average as quoted in gpuest issue 7: constant
 *    ~20%, static ~17%, register file ~18%, DRAM+MC ~8% (Kandiah et al.,
 *    "AccelWattch: A Power Modeling Framework for Modern GPUs", MICRO 2021,
 *    average power breakdown on the GV100).  docs/power.md discusses the
 *    differences; nothing is tuned to match.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "cacti.h"
#include "config_registry.h"
#include "power.h"
#include "pwr_suite_run.h"
#include "suite.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *const shipped[] = {"gtx480", "v100", "rtx2060", "a100", "h100"};

static int load(const char *name, gpu_config *cfg)
{
    ge_err e = {{0}};
    if (gcfg_load_named(name, cfg, &e)) {
        fprintf(stderr, "bench_power: %s\n", e.msg);
        return -1;
    }
    return 0;
}

static int bench_create(void)
{
    printf("pwr_create (cacti solves of every array; cold = memo cleared)\n");
    printf("%-8s %10s %10s %10s %10s %10s\n", "config", "cold ms", "warm us", "static W", "idle W", "TDP W");
    for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
        gpu_config cfg;
        ge_err e = {{0}};
        if (load(shipped[i], &cfg))
            return -1;
        cacti_memo_clear();
        double t0 = now_s();
        pwr_model *m = pwr_create(&cfg, &e);
        double t1 = now_s();
        if (!m) {
            fprintf(stderr, "bench_power: %s\n", e.msg);
            return -1;
        }
        pwr_free(m);
        const int reps = 20;
        double t2 = now_s();
        for (int r = 0; r < reps; r++) {
            m = pwr_create(&cfg, &e);
            if (r + 1 < reps)
                pwr_free(m);
        }
        double t3 = now_s();
        act_counters a;
        act_clear(&a);
        pwr_result idle;
        pwr_eval(m, &a, 1e6, PWR_NOMINAL, &idle, &e);
        printf("%-8s %10.1f %10.1f %10.2f %10.2f %10.0f\n", shipped[i], (t1 - t0) * 1e3,
               (t3 - t2) / reps * 1e6, pwr_static_w(m), idle.total_w, cfg.power.tdp_w);
        pwr_free(m);
    }
    return 0;
}

static int bench_eval(int quick)
{
    gpu_config cfg;
    ge_err e = {{0}};
    if (load("v100", &cfg))
        return -1;
    pwr_model *m = pwr_create(&cfg, &e);
    if (!m)
        return -1;
    act_counters a;
    act_clear(&a);
    double cyc = 1e6, wi = cfg.gpu.sm_count * cyc;
    for (int i = 0; i < ACT_COUNT; i++)
        a.c[i] = wi * 0.05;
    a.c[ACT_CYCLES] = cyc;
    for (int k = 0; k < ISA_OP_COUNT; k++)
        a.op_lanes[k] = a.op_warps[k] = wi * 0.01;
    const long n = quick ? 20000 : 200000;
    double sink = 0, t0 = now_s();
    for (long i = 0; i < n; i++) {
        pwr_result r;
        a.c[ACT_L2_READ_HITS] = (double)i; /* defeat hoisting */
        pwr_eval(m, &a, 0, PWR_NOMINAL, &r, &e);
        sink += r.total_w;
    }
    double t1 = now_s();
    double us = (t1 - t0) / n * 1e6;
    printf("\npwr_eval: %.3f us per evaluation (%ld calls, memoised model; target < 50 us) %s\n", us, n,
           us < 50 ? "OK" : "SLOW");
    if (sink < 0)
        printf("%g\n", sink);
    pwr_free(m);
    return 0;
}

/* AccelWattch's Volta average shares, % (see the top of this file). */
static double accelwattch_pct(pwr_component c, int *group)
{
    *group = 0;
    switch (c) {
    case PWR_CONSTANT:
        return 20.0;
    case PWR_STATIC:
        return 17.0;
    case PWR_REGFILE:
        return 18.0;
    case PWR_DRAM:
    case PWR_MC:
        *group = 1; /* published as DRAM+MC together */
        return 8.0;
    default:
        return -1;
    }
}

static int bench_suite(const char *config, int full)
{
    gpu_config cfg;
    ge_err e = {{0}};
    if (load(config, &cfg))
        return -1;
    pwr_model *m = pwr_create(&cfg, &e);
    if (!m)
        return -1;
    double share[PWR_COMPONENT_COUNT] = {0}, tdp_pct_sum = 0;
    int nw = 0;
    printf("\nsuite on %s (%s sizes): per-workload power, full simulation\n", config, full ? "default" : "tiny");
    printf("%-22s %8s %10s %8s %8s %8s %8s %8s\n", "workload", "kernels", "cycles", "W", "%TDP", "RF %",
           "DRAM %", "wall s");
    double t0 = now_s();
    for (const wl_desc *const *w = suite_all(); *w; w++) {
        psr_result r;
        uint32_t size = full ? (*w)->default_size : (*w)->tiny_size;
        double tw = now_s();
        if (psr_run(&cfg, m, (*w)->name, size, 0, &r, &e)) {
            printf("%-22s failed: %s\n", (*w)->name, e.msg);
            fflush(stdout);
            continue;
        }
        const pwr_result *p = &r.power;
        for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
            share[c] += p->comp_w[c] / p->total_w;
        tdp_pct_sum += p->total_w / cfg.power.tdp_w;
        nw++;
        printf("%-22s %8zu %10.0f %8.1f %8.1f %8.1f %8.1f %8.1f\n", (*w)->name, r.kernels, r.cycles,
               p->total_w, 100 * p->total_w / cfg.power.tdp_w, 100 * p->comp_w[PWR_REGFILE] / p->total_w,
               100 * p->comp_w[PWR_DRAM] / p->total_w, now_s() - tw);
        fflush(stdout);
    }
    printf("(%d workloads in %.1f s)\n", nw, now_s() - t0);
    if (nw == 0) {
        pwr_free(m);
        return -1;
    }
    printf("\naverage component share across the suite on %s vs AccelWattch Volta average\n", config);
    printf("%-12s %10s %12s\n", "component", "gpuest %", "AccelWattch %");
    double dram_mc = 0;
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
        int group;
        double aw = accelwattch_pct((pwr_component)c, &group);
        double pct = 100 * share[c] / nw;
        if (group) {
            dram_mc += pct;
            printf("%-12s %10.1f %12s\n", pwr_component_names[c], pct, "(DRAM+MC)");
            continue;
        }
        if (aw >= 0)
            printf("%-12s %10.1f %12.0f\n", pwr_component_names[c], pct, aw);
        else
            printf("%-12s %10.1f %12s\n", pwr_component_names[c], pct, "-");
    }
    printf("%-12s %10.1f %12.0f\n", "DRAM+MC", dram_mc, 8.0);
    printf("mean power %.1f%% of TDP\n", 100 * tdp_pct_sum / nw);
    pwr_free(m);
    return 0;
}

static const char HELP[] =
    "usage: bench_power [options]\n"
    "\n"
    "Speed of the power model (model build, cold and memoised, and one evaluation) and its per-component\n"
    "breakdown over the workload suite next to AccelWattch's published Volta average (docs/power.md).\n"
    "\n"
    "  --config NAME  config of the suite breakdown (default v100)\n"
    "  --quick        fewer timed evaluations (a smoke run)\n"
    "  --full         the suite at its default sizes (default: tiny sizes)\n"
    "  -h, --help     this text\n";

int main(int argc, char **argv)
{
    int quick = 0, full = 0;
    const char *config = "v100";
    for (int i = 1; i < argc; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--full"))
            full = 1;
        else if (!strcmp(argv[i], "--config") && i + 1 < argc)
            config = argv[++i];
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    if (bench_create() || bench_eval(quick))
        return 1;
    if (bench_suite(config, full))
        return 1;
    return 0;
}
