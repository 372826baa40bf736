/*
 * cmd_estimate.c - `gpuest estimate`: cycles, CPI stack, activity, power and
 * energy of a workload on a GPU design, by the interval model, the hybrid
 * estimator or full detailed simulation (calib/estimate.h).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_extra.h"
#include "cli_power.h"
#include "cli_report.h"
#include "cli_source.h"
#include "config_registry.h"
#include "estimate.h"
#include "profiler.h"
#include "progress.h"

#define DEFAULT_CONFIG "v100"
#define DEFAULT_WORKLOAD "sgemm_tiled"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest estimate [--config C] [--trace PATH | --workload NAME | --profile FILE]\n"
            "                       [--mode model|hybrid|full] [options]\n"
            "\n"
            "Estimates every kernel of a workload on a GPU design: cycles, IPC, CPI stack,\n"
            "hit rates, activity, power and energy.  Without a source it estimates the\n"
            "built-in default (" DEFAULT_WORKLOAD " on " DEFAULT_CONFIG ").\n"
            "\n"
            "modes:\n"
            "  model    the interval model alone, from the profile (microseconds per kernel)\n"
            "  hybrid   the model calibrated by detailed simulation of a sample of CTAs (default);\n"
            "           a later launch of a kernel doing the same work reuses its calibration\n"
            "           where the rule in docs/hybrid.md allows (column reused_calibrations)\n"
            "  full     detailed simulation of every CTA (the reference)\n"
            "\n"
            "options:\n"
            "  --config C         shipped config name (gtx480, v100, rtx2060, a100, h100) or a file\n"
            "  --trace PATH       Accel-Sim trace (kernelslist.g, its directory, or a .traceg[.xz])\n"
            "  --workload NAME    suite workload (gpuest workloads lists them)\n"
            "  --size N           workload size parameter (default: the workload's realistic size)\n"
            "  --seed S           workload input seed (default 1)\n"
            "  --profile FILE     a profile written by gpuest profile (no front-end run needed)\n"
            "  --mode M           model, hybrid or full (default hybrid)\n"
            "  --scheduler S      warp scheduler: lrr, gto or two_level (default: the config's)\n"
            "  --set KEY=VALUE    override a config key (repeatable), e.g. --set l1d.size_bytes=65536\n"
            "                     (a cache's size_bytes adjusts its ways; ways or sets adjust its size)\n"
            "  --sample-sms N     SMs simulated in detail in hybrid mode (default 1)\n"
            "  --sample-rounds N  hybrid mode: CTA generations simulated per sampled SM, at most\n"
            "                     (1..64; default 2, or 4 for kernels of 8 generations or more per SM)\n"
            "  --sample-insts N   hybrid mode: trim the loops of a sample larger than N warp instructions\n"
            "                     per sampled SM (N/2 for the background run; not trimmed where its DRAM\n"
            "                     row-hit rate moves the estimate by 10%% or more) and extrapolate; up to\n"
            "                     4N while the sample's L1 hit rate falls as its loops run\n"
            "                     (temporal sampling; 0 = never; default " EST_SAMPLE_INSTS_STR ")\n"
            "  --sample-phases N  hybrid mode: run the sample alone N times, each start " EST_PHASE_STEP_STR " cycles later\n"
            "                     against the memory clocks, and average (1..16; default " EST_SAMPLE_PHASES_STR ")\n"
            "  --json             JSON output\n"
            "  --csv              CSV output (one row per kernel and a total row)\n"
            "  -h, --help         this help\n");
}

typedef struct {
    const char *config, *spec, *profile_path, *scheduler;
    uint32_t size;
    uint64_t seed;
    int json, csv;
    est_options eo;
    const char *sets[64];
    int nsets;
} est_args;

static int parse(int argc, char **argv, est_args *a)
{
    static const struct option opts[] = {{"config", required_argument, 0, 'c'},
                                         {"trace", required_argument, 0, 't'},
                                         {"workload", required_argument, 0, 'w'},
                                         {"size", required_argument, 0, 'n'},
                                         {"seed", required_argument, 0, 's'},
                                         {"profile", required_argument, 0, 'p'},
                                         {"mode", required_argument, 0, 'm'},
                                         {"scheduler", required_argument, 0, 'S'},
                                         {"set", required_argument, 0, 'k'},
                                         {"sample-sms", required_argument, 0, 'A'},
                                         {"sample-insts", required_argument, 0, 'I'},
                                         {"sample-rounds", required_argument, 0, 'R'},
                                         {"sample-phases", required_argument, 0, 'P'},
                                         {"json", no_argument, 0, 'j'},
                                         {"csv", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->config = DEFAULT_CONFIG;
    a->seed = 1;
    est_options_default(&a->eo);
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        uint64_t v;
        switch (c) {
        case 'c': a->config = optarg; break;
        case 't':
        case 'w': a->spec = optarg; break;
        case 'p': a->profile_path = optarg; break;
        case 'S': a->scheduler = optarg; break;
        case 'j': a->json = 1; break;
        case 'v': a->csv = 1; break;
        case 'n':
            if (cli_parse_u64(optarg, UINT32_MAX, &v))
                return fprintf(stderr, "gpuest estimate: --size needs a number\n"), -1;
            a->size = (uint32_t)v;
            break;
        case 's':
            if (cli_parse_u64(optarg, UINT64_MAX, &a->seed))
                return fprintf(stderr, "gpuest estimate: --seed needs a number\n"), -1;
            break;
        case 'A':
            if (cli_parse_u64(optarg, 1024, &v) || v == 0)
                return fprintf(stderr, "gpuest estimate: --sample-sms needs a number in 1..1024\n"), -1;
            a->eo.sample_sms = (uint32_t)v;
            break;
        case 'R':
            if (cli_parse_u64(optarg, 64, &v) || v == 0)
                return fprintf(stderr, "gpuest estimate: --sample-rounds needs a number in 1..64\n"), -1;
            a->eo.sample_rounds = (uint32_t)v;
            break;
        case 'P':
            if (cli_parse_u64(optarg, 16, &v) || v == 0)
                return fprintf(stderr, "gpuest estimate: --sample-phases needs a number in 1..16\n"), -1;
            a->eo.sample_phases = (uint32_t)v;
            break;
        case 'I':
            if (cli_parse_u64(optarg, UINT32_MAX, &a->eo.sample_insts))
                return fprintf(stderr, "gpuest estimate: --sample-insts needs a number\n"), -1;
            break;
        case 'm': {
            int m = est_mode_by_name(optarg);
            if (m < 0)
                return fprintf(stderr, "gpuest estimate: unknown mode '%s' (model, hybrid, full)\n", optarg), -1;
            a->eo.mode = (est_mode)m;
            break;
        }
        case 'k':
            if (a->nsets == 64)
                return fprintf(stderr, "gpuest estimate: too many --set options\n"), -1;
            a->sets[a->nsets++] = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    if (optind != argc || (a->spec && a->profile_path)) {
        usage(stderr);
        return -1;
    }
    if (!a->spec && !a->profile_path)
        a->spec = DEFAULT_WORKLOAD;
    a->eo.scheduler = a->scheduler;
    return 0;
}

static int load_config(const est_args *a, gpu_config *cfg, ge_err *e)
{
    if (gcfg_load_named(a->config, cfg, e))
        return -1;
    for (int i = 0; i < a->nsets; i++) {
        char key[128];
        const char *eq = strchr(a->sets[i], '=');
        if (!eq || eq == a->sets[i] || (size_t)(eq - a->sets[i]) >= sizeof key)
            return ge_errf(e, "--set %s: expected KEY=VALUE", a->sets[i]);
        memcpy(key, a->sets[i], (size_t)(eq - a->sets[i]));
        key[eq - a->sets[i]] = 0;
        if (gcfg_apply(cfg, key, eq + 1, e))
            return ge_err_prefix(e, "--set");
    }
    return a->nsets ? gcfg_validate(cfg, e) : 0;
}

/* The estimate's own columns: how the figure was obtained. */
typedef struct {
    const est_kernel *k;
    size_t n;
    est_mode mode;
} est_cols;

static const char *const est_col_names[] = {"sampled_ctas",  "reused_calibrations", "error_estimate",
                                            "error_row_hit", "error_phase",         "estimate_ms"};

static double est_value(void *ctx, size_t i, int c)
{
    const est_cols *x = ctx;
    double sampled = 0, reused = 0, err = 0, err_row = 0, err_phase = 0, ms = 0, cyc = 0;
    for (size_t k = (i < x->n ? i : 0); k < (i < x->n ? i + 1 : x->n); k++) {
        sampled += (double)x->k[k].r.sampled_ctas;
        reused += x->k[k].reused;
        err += x->k[k].r.error_estimate * x->k[k].r.cycles; /* cycle-weighted for the total */
        err_row += x->k[k].cal.error_row * x->k[k].r.cycles;
        err_phase += x->k[k].cal.error_phase * x->k[k].r.cycles;
        cyc += x->k[k].r.cycles;
        ms += x->k[k].wall_s * 1e3;
    }
    switch (c) {
    case 0: return sampled;
    case 1: return reused;
    case 2: return cyc > 0 ? err / cyc : 0;
    case 3: return cyc > 0 ? err_row / cyc : 0;
    case 4: return cyc > 0 ? err_phase / cyc : 0;
    case 5: return ms;
    default: return NAN;
    }
}

static void est_json(void *ctx, size_t i, json_w *j)
{
    const est_cols *x = ctx;
    (void)i;
    json_kstr(j, "mode", est_mode_names[x->mode]);
}

static int report(const gpu_config *cfg, const est_args *a, const est_kernel *k, size_t n, ge_err *e)
{
    kresult *kr = calloc(n ? n : 1, sizeof *kr);
    if (!kr)
        return ge_errf(e, "out of memory");
    for (size_t i = 0; i < n; i++)
        kr[i] = k[i].r;
    cli_power pw;
    if (cli_power_init(&pw, cfg, kr, n, e)) {
        free(kr);
        return -1;
    }
    est_cols ec = {k, n, a->eo.mode};
    cli_report_extra own = {sizeof est_col_names / sizeof *est_col_names, est_col_names, est_value, est_json, &ec};
    cli_extra_pair pair;
    cli_extra_pair_init(&pair, &own, &pw.extra);
    cli_report r = {a->config, a->profile_path ? a->profile_path : a->spec, kr, n, &pair.extra};
    int rc = 0;
    if (a->json) {
        cli_report_json(&r, stdout);
    } else if (a->csv) {
        rc = cli_report_csv(&r, stdout, e);
    } else {
        printf("mode %s, scheduler %s\n", est_mode_names[a->eo.mode], a->scheduler ? a->scheduler : cfg->sm.scheduler);
        rc = cli_report_table(&r, stdout, e);
        if (rc == 0) {
            printf("\npower and energy (all kernels):\n");
            rc = pwr_print(&pw.total, stdout, e);
        }
    }
    cli_power_free(&pw);
    free(kr);
    return rc;
}

int cmd_estimate(int argc, char **argv)
{
    est_args a;
    if (parse(argc, argv, &a))
        return 2;
    ge_err e;
    gpu_config cfg;
    if (load_config(&a, &cfg, &e)) {
        fprintf(stderr, "gpuest estimate: %s\n", e.msg);
        return 1;
    }
    est_kernel *res = NULL;
    size_t n = 0;
    int rc = 0;
    if (a.profile_path) {
        profile p;
        if (prof_load_opts(&p, a.profile_path, a.eo.mode != EST_MODEL, &e)) { /* the model needs no warp streams */
            fprintf(stderr, "gpuest estimate: %s\n", e.msg);
            return 1;
        }
        rc = est_profile(&cfg, &p, &a.eo, NULL, &res, &e);
        n = p.nkernels;
        prof_free(&p);
    } else {
        ws_source *src;
        if (cli_open_source(a.spec, a.size, a.seed, &src, &e)) {
            fprintf(stderr, "gpuest estimate: %s\n", e.msg);
            return 1;
        }
        if (a.eo.mode == EST_FULL) {
            rc = est_full_source(&cfg, src, &a.eo, &res, &n, &e);
        } else {
            prof_options po;
            prof_options_default(&po);
            profile p;
            rc = prof_build(src, &po, a.spec, a.size, a.seed, &p, &e);
            if (rc == 0) {
                rc = est_profile(&cfg, &p, &a.eo, NULL, &res, &e);
                n = p.nkernels;
                prof_free(&p);
            }
        }
        ws_close(src);
    }
    if (rc) {
        fprintf(stderr, "gpuest estimate: %s\n", e.msg);
        return 1;
    }
    rc = report(&cfg, &a, res, n, &e);
    free(res);
    if (rc) {
        fprintf(stderr, "gpuest estimate: %s\n", e.msg);
        return 1;
    }
    return 0;
}
