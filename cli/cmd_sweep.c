/*
 * cmd_sweep.c - `gpuest sweep`: many design points for one profiled
 * workload, with power, energy and the energy-delay Pareto front.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_source.h"
#include "json.h"
#include "profiler.h"
#include "sweep.h"
#include "table.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest sweep (--profile FILE | --trace PATH | --workload NAME) [options]\n"
            "\n"
            "Estimates every design point of a sweep: each base config x each scheduler x\n"
            "each value of every --vary key.  Prints cycles, time, power, energy, EDP and\n"
            "whether the point is on the energy-delay Pareto front.  In hybrid mode a\n"
            "kernel's calibration is reused across points (and across launches of a kernel\n"
            "doing the same work) where the rule in docs/hybrid.md allows, and re-sampled\n"
            "where it does not (columns sampled/reused).\n"
            "\n"
            "options:\n"
            "  --profile FILE      profile from gpuest profile (fastest: no front-end run)\n"
            "  --trace PATH        Accel-Sim trace, profiled first\n"
            "  --workload NAME     suite workload, profiled first (--size N, --seed S)\n"
            "  --config LIST       base configs, comma-separated (default v100)\n"
            "  --scheduler LIST    schedulers, comma-separated: lrr,gto,two_level (default: each config's)\n"
            "  --vary KEY=V1,V2..  a config key and its values (repeatable, up to 8 keys); a cache's\n"
            "                      size_bytes adjusts its ways, its ways or sets adjust its size\n"
            "  --mode M            model or hybrid (default model)\n"
            "  --threads N         worker threads (default 1); results do not depend on it\n"
            "  --sample-sms N      SMs simulated per sample in hybrid mode (default 1)\n"
            "  --sample-rounds N   hybrid: CTA generations simulated per sampled SM, at most\n"
            "                      (1..64; default 2, or 4 for kernels of 8 generations or more per SM)\n"
            "  --sample-insts N    hybrid: trim the loops of a sample larger than N warp instructions\n"
            "                      per sampled SM (N/2 for the background run; not trimmed where its DRAM\n"
            "                      row-hit rate moves the estimate by 10%% or more) and extrapolate; up to\n"
            "                      4N while the sample's L1 hit rate falls as its loops run\n"
            "                      (0 = never; default " EST_SAMPLE_INSTS_STR ")\n"
            "  --sample-phases N   hybrid: run each sample alone N times, each start " EST_PHASE_STEP_STR " cycles later\n"
            "                      against the memory clocks, and average (1..16; default " EST_SAMPLE_PHASES_STR ")\n"
            "  -o, --output FILE   also write the points as CSV to FILE\n"
            "  --csv               CSV on stdout instead of the table\n"
            "  --json              JSON on stdout\n"
            "  -h, --help          this help\n");
}

static int split_list(char *s, const char **out, uint32_t max, uint32_t *n)
{
    *n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (*n == max)
            return -1;
        out[(*n)++] = tok;
    }
    return *n ? 0 : -1;
}

static int parse_vary(const char *arg, sweep_vary *v)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof v->key)
        return -1;
    memset(v, 0, sizeof *v);
    memcpy(v->key, arg, (size_t)(eq - arg));
    const char *p = eq + 1;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == 0 || len >= sizeof v->values[0] || v->nvalues == SWEEP_MAX_VALUES)
            return -1;
        memcpy(v->values[v->nvalues], p, len);
        v->values[v->nvalues++][len] = 0;
        p += len + (c ? 1 : 0);
    }
    return v->nvalues ? 0 : -1;
}

static void fill_row(table *t, const sweep_spec *s, const sweep_point *pt)
{
    int c = 0;
    table_set(t, c++, pt->config_name[0] ? pt->config_name : s->configs[pt->config]);
    table_set(t, c++, pt->scheduler_name);
    for (uint32_t v = 0; v < s->nvary; v++)
        table_set(t, c++, s->vary[v].values[pt->value[v]]);
    if (pt->error[0]) {
        table_set(t, c + 10, pt->error); /* the figures stay empty */
        return;
    }
    table_setf(t, c++, "%.0f", pt->cycles);
    table_setf(t, c++, "%.6g", pt->seconds);
    table_setf(t, c++, "%.2f", pt->power_w);
    table_setf(t, c++, "%.6g", pt->energy_j);
    table_setf(t, c++, "%.6g", pt->edp);
    table_setf(t, c++, "%.3f", pt->error_estimate);
    table_setf(t, c++, "%u", pt->sampled);
    table_setf(t, c++, "%u", pt->reused);
    table_set(t, c++, pt->pareto ? "yes" : "");
    table_setf(t, c++, "%.1f", pt->wall_s * 1e3);
}

static int print_points(const sweep_spec *s, const sweep_point *pts, size_t n, FILE *f, int csv)
{
    const char *cols[48];
    int nc = 0;
    cols[nc++] = "config";
    cols[nc++] = "scheduler";
    for (uint32_t v = 0; v < s->nvary; v++)
        cols[nc++] = s->vary[v].key;
    const char *rest[] = {"cycles", "seconds", "power_w", "energy_j", "edp", "error_est", "sampled",
                          "reused", "pareto", "time_ms", "error"};
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++)
        cols[nc++] = rest[i];
    table t;
    ge_err e;
    if (table_init(&t, nc, cols, &e))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (table_add_row(&t, &e))
            break;
        fill_row(&t, s, &pts[i]);
    }
    if (csv)
        table_print_csv(&t, f);
    else
        table_print(&t, f);
    table_free(&t);
    return 0;
}

static void print_json(const sweep_spec *s, const sweep_point *pts, size_t n)
{
    json_w j;
    json_init(&j, stdout);
    json_obj_begin(&j);
    json_kstr(&j, "mode", est_mode_names[s->mode]);
    json_key(&j, "points");
    json_arr_begin(&j);
    for (size_t i = 0; i < n; i++) {
        const sweep_point *pt = &pts[i];
        json_obj_begin(&j);
        json_kstr(&j, "config", s->configs[pt->config]);
        json_kstr(&j, "scheduler", pt->scheduler_name);
        for (uint32_t v = 0; v < s->nvary; v++)
            json_kstr(&j, s->vary[v].key, s->vary[v].values[pt->value[v]]);
        if (pt->error[0]) {
            json_kstr(&j, "error", pt->error);
        } else {
            json_knum(&j, "cycles", pt->cycles);
            json_knum(&j, "seconds", pt->seconds);
            json_knum(&j, "power_w", pt->power_w);
            json_knum(&j, "energy_j", pt->energy_j);
            json_knum(&j, "edp", pt->edp);
            json_knum(&j, "ed2p", pt->ed2p);
            json_knum(&j, "error_estimate", pt->error_estimate);
            json_kuint(&j, "sampled_kernels", pt->sampled);
            json_kuint(&j, "reused_calibrations", pt->reused);
            json_key(&j, "pareto");
            json_bool(&j, pt->pareto);
        }
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    json_end(&j);
}

int cmd_sweep(int argc, char **argv)
{
    static const struct option opts[] = {{"profile", required_argument, 0, 'p'},
                                         {"trace", required_argument, 0, 't'},
                                         {"workload", required_argument, 0, 'w'},
                                         {"size", required_argument, 0, 'n'},
                                         {"seed", required_argument, 0, 's'},
                                         {"config", required_argument, 0, 'c'},
                                         {"scheduler", required_argument, 0, 'S'},
                                         {"vary", required_argument, 0, 'v'},
                                         {"mode", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 'T'},
                                         {"sample-sms", required_argument, 0, 'A'},
                                         {"sample-insts", required_argument, 0, 'I'},
                                         {"sample-rounds", required_argument, 0, 'R'},
                                         {"sample-phases", required_argument, 0, 'P'},
                                         {"output", required_argument, 0, 'o'},
                                         {"csv", no_argument, 0, 'C'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    sweep_spec s;
    memset(&s, 0, sizeof s);
    s.mode = EST_MODEL;
    s.threads = 1;
    const char *prof_path = NULL, *spec = NULL, *outp = NULL;
    char cfgbuf[1024] = "v100", schedbuf[256] = "";
    uint32_t size = 0;
    uint64_t seed = 1;
    int csv = 0, json = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        uint64_t v;
        switch (c) {
        case 'p': prof_path = optarg; break;
        case 't':
        case 'w': spec = optarg; break;
        case 'n':
            if (cli_parse_u64(optarg, UINT32_MAX, &v))
                return fprintf(stderr, "gpuest sweep: --size needs a number\n"), 2;
            size = (uint32_t)v;
            break;
        case 's':
            if (cli_parse_u64(optarg, UINT64_MAX, &seed))
                return fprintf(stderr, "gpuest sweep: --seed needs a number\n"), 2;
            break;
        case 'c': snprintf(cfgbuf, sizeof cfgbuf, "%s", optarg); break;
        case 'S': snprintf(schedbuf, sizeof schedbuf, "%s", optarg); break;
        case 'v':
            if (s.nvary == SWEEP_MAX_VARY || parse_vary(optarg, &s.vary[s.nvary]))
                return fprintf(stderr, "gpuest sweep: --vary needs KEY=V1,V2,... (at most %d keys, %d values)\n",
                               SWEEP_MAX_VARY, SWEEP_MAX_VALUES),
                       2;
            s.nvary++;
            break;
        case 'm': {
            int m = est_mode_by_name(optarg);
            if (m != EST_MODEL && m != EST_HYBRID)
                return fprintf(stderr, "gpuest sweep: --mode must be model or hybrid\n"), 2;
            s.mode = (est_mode)m;
            break;
        }
        case 'T':
            if (cli_parse_u64(optarg, 256, &v) || v == 0)
                return fprintf(stderr, "gpuest sweep: --threads needs 1..256\n"), 2;
            s.threads = (uint32_t)v;
            break;
        case 'A':
            if (cli_parse_u64(optarg, 1024, &v) || v == 0)
                return fprintf(stderr, "gpuest sweep: --sample-sms needs a number in 1..1024\n"), 2;
            s.sample_sms = (uint32_t)v;
            break;
        case 'R':
            if (cli_parse_u64(optarg, 64, &v) || v == 0)
                return fprintf(stderr, "gpuest sweep: --sample-rounds needs a number in 1..64\n"), 2;
            s.sample_rounds = (uint32_t)v;
            break;
        case 'P':
            if (cli_parse_u64(optarg, 16, &v) || v == 0)
                return fprintf(stderr, "gpuest sweep: --sample-phases needs a number in 1..16\n"), 2;
            s.sample_phases = (uint32_t)v;
            break;
        case 'I':
            if (cli_parse_u64(optarg, UINT32_MAX, &v))
                return fprintf(stderr, "gpuest sweep: --sample-insts needs a number\n"), 2;
            s.sample_insts = v ? (int64_t)v : -1;
            break;
        case 'o': outp = optarg; break;
        case 'C': csv = 1; break;
        case 'j': json = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc || (!prof_path == !spec)) {
        usage(stderr);
        return 2;
    }
    if (split_list(cfgbuf, s.configs, 16, &s.nconfigs))
        return fprintf(stderr, "gpuest sweep: --config needs 1 to 16 names\n"), 2;
    if (schedbuf[0] && split_list(schedbuf, s.schedulers, 4, &s.nschedulers))
        return fprintf(stderr, "gpuest sweep: --scheduler needs 1 to 4 names\n"), 2;
    for (uint32_t i = 0; i < s.nschedulers; i++)
        if (strcmp(s.schedulers[i], "lrr") && strcmp(s.schedulers[i], "gto") && strcmp(s.schedulers[i], "two_level"))
            return fprintf(stderr, "gpuest sweep: unknown scheduler '%s' (lrr, gto, two_level)\n", s.schedulers[i]), 2;

    ge_err e;
    profile p;
    if (prof_path) {
        if (prof_load_opts(&p, prof_path, s.mode != EST_MODEL, &e)) /* the model needs no warp streams */
            return fprintf(stderr, "gpuest sweep: %s\n", e.msg), 1;
    } else {
        ws_source *src;
        if (cli_open_source(spec, size, seed, &src, &e))
            return fprintf(stderr, "gpuest sweep: %s\n", e.msg), 1;
        prof_options po;
        prof_options_default(&po);
        int rc = prof_build(src, &po, spec, size, seed, &p, &e);
        ws_close(src);
        if (rc)
            return fprintf(stderr, "gpuest sweep: %s\n", e.msg), 1;
    }
    sweep_point *pts;
    if (sweep_run(&s, &p, &pts, &e)) {
        prof_free(&p);
        return fprintf(stderr, "gpuest sweep: %s\n", e.msg), 1;
    }
    size_t n = sweep_count(&s);
    int failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += pts[i].error[0] != 0;
    if (json)
        print_json(&s, pts, n);
    else
        print_points(&s, pts, n, stdout, csv);
    if (outp) {
        FILE *f = fopen(outp, "w");
        if (!f) {
            fprintf(stderr, "gpuest sweep: %s: cannot create\n", outp);
            failed = (int)n;
        } else {
            print_points(&s, pts, n, f, 1);
            fclose(f);
        }
    }
    free(pts);
    prof_free(&p);
    if (failed) {
        fprintf(stderr, "gpuest sweep: %d of %zu design points failed (see the error column)\n", failed, n);
        return 1;
    }
    return 0;
}
