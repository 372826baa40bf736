/*
 * cmd_simulate.c - `gpuest simulate`: run a trace or a suite workload
 * through the detailed cycle-level simulator (sampler/sim.h) and report
 * every kernel (cli_report.h).
 *
 * The config is a shipped name or a file (gcfg_load_named); each --set
 * key=value overrides one key (gcfg_apply) and the result is validated
 * again, so a bad override is refused, naming the key, before anything runs.
 * Every kernel's power and energy come from its activity counters
 * (power/power.h, through cli_power.h).  With --power-trace the power of
 * every --interval cycles is written as CSV in watts per component; with
 * --activity-trace the raw activity counters of every window (for
 * `gpuest power --activity` or your own model).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "activity.h"
#include "cli_power.h"
#include "cli_report.h"
#include "cli_source.h"
#include "config_registry.h"
#include "progress.h"
#include "sim.h"

#define SIM_MAX_SETS 256

static void usage(FILE *f)
{
    char scheds[128], names[256];
    sim_scheduler_names(scheds, sizeof scheds);
    gcfg_embedded_names(names, sizeof names);
    fprintf(f,
            "usage: gpuest simulate --config C (--trace T | --workload W [--size N] [--seed S])\n"
            "                       [--scheduler P] [--mem detailed|perfect] [--set key=value ...]\n"
            "                       [--json | --csv] [--power-trace FILE | --activity-trace FILE] [--interval N]\n"
            "\n"
            "Cycle-level simulation of every CTA of every kernel (the detailed reference).\n"
            "Prints per kernel and in total: cycles, warp instructions, IPC, the CPI stack\n"
            "(fractions of scheduler-cycles), L1/L2 load hit rates, DRAM row-buffer hit rate,\n"
            "DRAM bandwidth utilisation, average global-load latency and occupancy.\n"
            "\n"
            "  --config C         shipped config name (%s) or a config file\n"
            "  --trace T          Accel-Sim trace: kernelslist.g, its directory, or a kernel-N.traceg[.xz]\n"
            "  --workload W       suite workload name (see `gpuest stats` / docs)\n"
            "  --size N           workload problem size (0 = its default)\n"
            "  --seed S           workload input seed (default 1)\n"
            "  --scheduler P      warp scheduler: %s (default: the config's sm.scheduler)\n"
            "  --mem M            memory model: detailed (default) or perfect (every access hits in L1)\n"
            "  --set key=value    override a config key (repeatable); the config is re-validated\n"
            "  --json             JSON on stdout: {config, workload, kernels: [...], total}\n"
            "  --csv              CSV on stdout: one row per kernel plus total, with all activity counters\n"
            "  --power-trace FILE write the power of every window of --interval cycles as CSV\n"
            "                     (start_cycle, time_s, cycles, total_w, energy_j, ..., <component>_w)\n"
            "  --activity-trace FILE  write the activity counters of every window instead\n"
            "  --interval N       window length in core cycles for the traces (required with them)\n"
            "  -h, --help         show this help\n"
            "\n"
            "The model, its parameters and its limits: docs/simulator.md.\n",
            names, scheds);
}

/* Trace writer: one CSV row per window, in watts (power model) or raw activity. */
typedef struct ptrace {
    FILE *f;
    int header;
    pwr_model *power; /* NULL: activity counters */
    ge_err err;
} ptrace;

static int ptrace_window(void *ctx, const ws_kernel *k, uint64_t start, uint64_t cycles, const act_counters *w)
{
    ptrace *p = ctx;
    (void)cycles;
    if (p->power) {
        if (!p->header) {
            pwr_trace_header(p->f);
            p->header = 1;
        }
        if (pwr_trace_row(p->power, start, w, PWR_NOMINAL, p->f, &p->err))
            return -1;
        return ferror(p->f) ? -1 : 0;
    }
    if (!p->header) {
        fputs("kernel,kernel_id,start_cycle,window_cycles,", p->f);
        act_csv_header(p->f);
        p->header = 1;
    }
    fputc('"', p->f);
    for (const char *c = k->name; *c; c++) {
        if (*c == '"')
            fputc('"', p->f);
        fputc(*c, p->f);
    }
    fprintf(p->f, "\",%u,%llu,%llu,", k->id, (unsigned long long)start, (unsigned long long)cycles);
    act_csv_row(w, p->f);
    return ferror(p->f) ? -1 : 0;
}

/* Feed that reports progress over a kernel's CTAs. */
typedef struct prog_feed {
    ws_source *src;
    progress *p;
    uint64_t done;
} prog_feed;

static int prog_next(void *ctx, ws_cta *cta, ge_err *e)
{
    prog_feed *pf = ctx;
    int rc = ws_next_cta(pf->src, cta, e);
    if (rc > 0)
        progress_update(pf->p, ++pf->done);
    return rc;
}

static int run(sim_gpu *g, ws_source *src, kresult **res, size_t *n, ge_err *e)
{
    size_t cap = 0;
    ws_event ev;
    int rc;
    *res = NULL;
    *n = 0;
    while ((rc = ws_next_event(src, &ev, e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        if (ge_reserve((void **)res, &cap, *n + 1, sizeof **res, e))
            return -1;
        char label[96];
        snprintf(label, sizeof label, "simulate %.60s (CTAs)", ev.kernel.name);
        progress p;
        progress_begin(&p, label, ws_kernel_nctas(&ev.kernel));
        prog_feed pf = {src, &p, 0};
        sim_cta_feed feed = {prog_next, &pf, NULL};
        int krc = sim_kernel(g, &ev.kernel, &feed, &(*res)[*n], e);
        progress_done(&p);
        if (krc)
            return -1;
        (*n)++;
    }
    return rc < 0 ? -1 : 0;
}

int cmd_simulate(int argc, char **argv)
{
    const char *config = NULL, *trace = NULL, *workload = NULL, *sched = NULL, *mem = "detailed";
    const char *ptrace_path = NULL;
    int trace_watts = 0;
    const char *sets[SIM_MAX_SETS];
    int nsets = 0, json = 0, csv = 0;
    uint64_t size = 0, seed = 1, interval = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if (has && !strcmp(a, "--config")) {
            config = argv[++i];
        } else if (has && !strcmp(a, "--trace")) {
            trace = argv[++i];
        } else if (has && !strcmp(a, "--workload")) {
            workload = argv[++i];
        } else if (has && !strcmp(a, "--scheduler")) {
            sched = argv[++i];
        } else if (has && !strcmp(a, "--mem")) {
            mem = argv[++i];
        } else if (has && !strcmp(a, "--power-trace")) {
            ptrace_path = argv[++i];
            trace_watts = 1;
        } else if (has && !strcmp(a, "--activity-trace")) {
            ptrace_path = argv[++i];
            trace_watts = 0;
        } else if (has && !strcmp(a, "--set")) {
            if (nsets == SIM_MAX_SETS) {
                fprintf(stderr, "gpuest simulate: too many --set options (at most %d)\n", SIM_MAX_SETS);
                return 2;
            }
            sets[nsets++] = argv[++i];
        } else if (has && !strcmp(a, "--size")) {
            if (cli_parse_u64(argv[++i], UINT32_MAX, &size)) {
                fprintf(stderr, "gpuest simulate: --size: '%s' is not a non-negative integer\n", argv[i]);
                return 2;
            }
        } else if (has && !strcmp(a, "--seed")) {
            if (cli_parse_u64(argv[++i], UINT64_MAX, &seed)) {
                fprintf(stderr, "gpuest simulate: --seed: '%s' is not a non-negative integer\n", argv[i]);
                return 2;
            }
        } else if (has && !strcmp(a, "--interval")) {
            if (cli_parse_u64(argv[++i], UINT64_MAX, &interval) || interval == 0) {
                fprintf(stderr, "gpuest simulate: --interval: '%s' is not a positive integer\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "gpuest simulate: %s '%s' (try --help)\n",
                    a[0] == '-' && !has ? "missing value for" : "unknown argument", a);
            return 2;
        }
    }
    if (!config || (!trace == !workload)) {
        fprintf(stderr, "gpuest simulate: need --config and exactly one of --trace or --workload (try --help)\n");
        return 2;
    }
    if (json && csv) {
        fprintf(stderr, "gpuest simulate: --json and --csv are exclusive\n");
        return 2;
    }
    if (!ptrace_path != !interval) {
        fprintf(stderr, "gpuest simulate: --power-trace (or --activity-trace) and --interval go together\n");
        return 2;
    }

    ge_err e;
    gpu_config cfg;
    if (gcfg_load_named(config, &cfg, &e)) {
        fprintf(stderr, "gpuest simulate: %s\n", e.msg);
        return 1;
    }
    for (int i = 0; i < nsets; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof key) {
            fprintf(stderr, "gpuest simulate: --set '%s': expected key=value\n", sets[i]);
            return 2;
        }
        memcpy(key, sets[i], (size_t)(eq - sets[i]));
        key[eq - sets[i]] = 0;
        if (gcfg_apply(&cfg, key, eq + 1, &e)) {
            fprintf(stderr, "gpuest simulate: --set: %s\n", e.msg);
            return 1;
        }
    }
    if (nsets && gcfg_validate(&cfg, &e)) {
        fprintf(stderr, "gpuest simulate: config after --set: %s\n", e.msg);
        return 1;
    }

    ptrace pt;
    memset(&pt, 0, sizeof pt);
    cli_power pw;
    memset(&pw, 0, sizeof pw);
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = mem;
    o.scheduler = sched;
    if (ptrace_path) {
        if (trace_watts && !(pt.power = pwr_create(&cfg, &e))) {
            fprintf(stderr, "gpuest simulate: %s\n", e.msg);
            return 1;
        }
        if (!(pt.f = fopen(ptrace_path, "w"))) {
            pwr_free(pt.power);
            fprintf(stderr, "gpuest simulate: %s: cannot create: %s\n", ptrace_path, strerror(errno));
            return 1;
        }
        o.interval_cycles = interval;
        o.on_interval = ptrace_window;
        o.ctx = &pt;
    }
    int rc = 1;
    ws_source *src = NULL;
    kresult *res = NULL;
    size_t n = 0;
    sim_gpu *g = sim_create(&cfg, &o, &e);
    if (!g)
        goto fail;
    if (cli_open_source(trace ? trace : workload, (uint32_t)size, seed, &src, &e))
        goto fail;
    if (run(g, src, &res, &n, &e)) {
        if (pt.err.msg[0])
            e = pt.err;
        goto fail;
    }
    if (cli_power_init(&pw, &cfg, res, n, &e))
        goto fail;
    cli_report r = {config, trace ? trace : workload, res, n, &pw.extra};
    if (json)
        cli_report_json(&r, stdout);
    else if (csv ? cli_report_csv(&r, stdout, &e) : cli_report_table(&r, stdout, &e))
        goto fail;
    if (!json && !csv) {
        printf("\npower and energy (all kernels):\n");
        if (pwr_print(&pw.total, stdout, &e))
            goto fail;
    }
    if (pt.f && fclose(pt.f)) {
        pt.f = NULL;
        ge_errf(&e, "%s: write error", ptrace_path);
        goto fail;
    }
    pt.f = NULL;
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "gpuest simulate: %s\n", e.msg);
done:
    if (pt.f)
        fclose(pt.f);
    free(res);
    ws_close(src);
    sim_destroy(g);
    cli_power_free(&pw);
    pwr_free(pt.power);
    return rc;
}
