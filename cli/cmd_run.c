/*
 * cmd_run.c - `gpuest run`: run a suite workload functionally and verify it.
 *
 * The workload's driver makes its inputs from the seed, launches its
 * kernels on a fresh emulated device, downloads the results and compares
 * them with its CPU reference.  Reported: what ran (size, seed, launches,
 * CTAs, warp and thread instructions, SIMD efficiency), the wall time of the
 * whole run, the time spent emulating (inside launches) and the emulation
 * rate in thread instructions per second, then "verified: OK" (exit 0) or
 * the failure (exit 1).  Progress goes to stderr on a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "gpurt.h"
#include "json.h"
#include "progress.h"
#include "suite.h"
#include "table.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest run WORKLOAD [--size N | --tiny] [--seed S] [--json]\n"
            "\n"
            "Run a workload of the suite on the PTX emulator and verify its results\n"
            "against the CPU reference.  Prints the size and seed, kernels launched,\n"
            "CTAs, warp and thread instructions, SIMD efficiency, wall time of the whole\n"
            "run, emulation time and rate (thread instructions per second), and\n"
            "'verified: OK' (exit 0) or the failure (exit 1).\n"
            "\n"
            "  WORKLOAD    a name from 'gpuest workloads'\n"
            "  --size N    problem size (meaning per workload; 0 = default size)\n"
            "  --tiny      use the workload's tiny size (what the unit tests run)\n"
            "  --seed S    input seed (default 1); same seed, same inputs and results\n"
            "  --json      one JSON object on stdout instead of the table\n"
            "  -h, --help  show this help\n");
}

static void on_progress(void *ctx, const gpurt_stats *st)
{
    progress_update(ctx, st->thread_insts);
}

int cmd_run(int argc, char **argv)
{
    const char *name = NULL;
    uint64_t size = 0, seed = 1;
    int json = 0, tiny = 0, have_size = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--tiny")) {
            tiny = 1;
        } else if (!strcmp(a, "--size") || !strcmp(a, "--seed")) {
            uint64_t v;
            if (i + 1 >= argc || cli_parse_u64(argv[i + 1], !strcmp(a, "--size") ? UINT32_MAX : UINT64_MAX, &v)) {
                fprintf(stderr, "gpuest run: %s needs a non-negative integer%s\n", a,
                        !strcmp(a, "--size") ? " below 2^32" : "");
                return 2;
            }
            if (!strcmp(a, "--size"))
                size = v, have_size = 1;
            else
                seed = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "gpuest run: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "gpuest run: one workload at a time ('%s' and '%s')\n", name, a);
            return 2;
        }
    }
    if (!name) {
        usage(stderr);
        return 2;
    }
    if (tiny && have_size) {
        fprintf(stderr, "gpuest run: --tiny and --size are exclusive\n");
        return 2;
    }
    const wl_desc *w = suite_find(name);
    if (!w) {
        fprintf(stderr, "gpuest run: unknown workload '%s' (see gpuest workloads)\n", name);
        return 2;
    }
    wl_params p = {(uint32_t)(tiny ? w->tiny_size : size ? size : w->default_size), seed};
    ge_err e = {{0}};
    gpurt *dev = gpurt_create(w->ptx, w->ptx_name, &e);
    if (!dev) {
        fprintf(stderr, "gpuest run: %s\n", e.msg);
        return 1;
    }
    if (gpurt_set_resources(dev, w->ptx_resources)) {
        fprintf(stderr, "gpuest run: %s: %s\n", w->name, gpurt_error(dev));
        gpurt_destroy(dev);
        return 1;
    }
    progress pr;
    progress_begin(&pr, "emulating (thread instructions)", 0);
    gpurt_set_progress(dev, on_progress, &pr);
    double t0 = ge_now();
    int rc = w->run(dev, &p, &e);
    double wall = ge_now() - t0;
    progress_done(&pr);
    gpurt_stats st;
    gpurt_get_stats(dev, &st);
    gpurt_destroy(dev);
    if (rc && !e.msg[0])
        ge_errf(&e, "%s failed", w->name);
    double eff = st.warp_insts ? (double)st.thread_insts / (32.0 * (double)st.warp_insts) : 0;
    double rate = st.launch_seconds > 0 ? (double)st.thread_insts / st.launch_seconds : 0;
    if (json) {
        json_w j;
        json_init(&j, stdout);
        json_obj_begin(&j);
        json_kstr(&j, "workload", w->name);
        json_kuint(&j, "size", p.size);
        json_kuint(&j, "seed", p.seed);
        json_kuint(&j, "launches", st.launches);
        json_kuint(&j, "ctas", st.ctas);
        json_kuint(&j, "warp_instructions", st.warp_insts);
        json_kuint(&j, "thread_instructions", st.thread_insts);
        json_knum(&j, "simd_efficiency", eff);
        json_knum(&j, "wall_seconds", wall);
        json_knum(&j, "emulation_seconds", st.launch_seconds);
        json_knum(&j, "thread_instructions_per_second", rate);
        json_key(&j, "verified");
        json_bool(&j, rc == 0);
        if (rc)
            json_kstr(&j, "error", e.msg);
        json_obj_end(&j);
        json_end(&j);
    } else {
        static const char *const cols[] = {"quantity", "value"};
        table t;
        ge_err te = {{0}};
        if (table_init(&t, 2, cols, &te)) {
            fprintf(stderr, "gpuest run: %s\n", te.msg);
            return 1;
        }
        char v[11][160];
        const char *keys[11] = {"workload", "size", "seed", "kernels launched", "CTAs", "warp instructions",
                                "thread instructions", "SIMD efficiency", "wall time (s)", "emulation time (s)",
                                "emulation rate (M thread inst/s)"};
        snprintf(v[0], sizeof v[0], "%s", w->name);
        snprintf(v[1], sizeof v[1], "%u (%s)", p.size, w->size_help);
        snprintf(v[2], sizeof v[2], "%llu", (unsigned long long)p.seed);
        snprintf(v[3], sizeof v[3], "%llu", (unsigned long long)st.launches);
        snprintf(v[4], sizeof v[4], "%llu", (unsigned long long)st.ctas);
        snprintf(v[5], sizeof v[5], "%llu", (unsigned long long)st.warp_insts);
        snprintf(v[6], sizeof v[6], "%llu", (unsigned long long)st.thread_insts);
        snprintf(v[7], sizeof v[7], "%.4f", eff);
        snprintf(v[8], sizeof v[8], "%.3f", wall);
        snprintf(v[9], sizeof v[9], "%.3f", st.launch_seconds);
        snprintf(v[10], sizeof v[10], "%.1f", rate / 1e6);
        for (int i = 0; i < 11; i++) {
            if (table_add_row(&t, &te)) {
                table_free(&t);
                fprintf(stderr, "gpuest run: %s\n", te.msg);
                return 1;
            }
            table_set(&t, 0, keys[i]);
            table_set(&t, 1, v[i]);
        }
        table_print(&t, stdout);
        table_free(&t);
        if (rc == 0)
            printf("verified: OK\n");
        else
            printf("verified: FAILED: %s\n", e.msg);
    }
    if (rc) {
        fprintf(stderr, "gpuest run: %s\n", e.msg);
        return 1;
    }
    return 0;
}
