/*
 * cmd_workloads.c - `gpuest workloads`: list the workload suite.
 *
 * One row per workload of suite_all(), in suite order: name, kind (app or
 * micro), the tiny size used by unit tests, the default (realistic) size
 * used by `run` and the benchmarks, what the size parameter means, and the
 * one-line description.  Table for people, --json or --csv for scripts.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "suite.h"
#include "table.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest workloads [--json | --csv]\n"
            "\n"
            "List the built-in workload suite (CUDA kernels with host drivers, run by the\n"
            "PTX emulator): name, kind (app or micro), tiny size (unit tests), default size\n"
            "(realistic; used by run, trace, stats and the benchmarks), what the size\n"
            "means, and a one-line description.\n"
            "\n"
            "  --json      JSON array on stdout\n"
            "  --csv       CSV on stdout\n"
            "  -h, --help  show this help\n"
            "\n"
            "Run one with: gpuest run NAME [--size N] [--seed S]\n");
}

int cmd_workloads(int argc, char **argv)
{
    int json = 0, csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--csv")) {
            csv = 1;
        } else {
            fprintf(stderr, "gpuest workloads: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (json && csv) {
        fprintf(stderr, "gpuest workloads: --json and --csv are exclusive\n");
        return 2;
    }
    const wl_desc *const *all = suite_all();
    if (json) {
        json_w j;
        json_init(&j, stdout);
        json_arr_begin(&j);
        for (const wl_desc *const *w = all; *w; w++) {
            json_obj_begin(&j);
            json_kstr(&j, "name", (*w)->name);
            json_kstr(&j, "kind", (*w)->kind);
            json_kuint(&j, "tiny_size", (*w)->tiny_size);
            json_kuint(&j, "default_size", (*w)->default_size);
            json_kstr(&j, "size_means", (*w)->size_help);
            json_kstr(&j, "description", (*w)->description);
            json_obj_end(&j);
        }
        json_arr_end(&j);
        json_end(&j);
        return 0;
    }
    static const char *const cols[] = {"name", "kind", "tiny", "default", "size means", "description"};
    table t;
    ge_err e = {{0}};
    if (table_init(&t, 6, cols, &e)) {
        fprintf(stderr, "gpuest workloads: %s\n", e.msg);
        return 1;
    }
    for (const wl_desc *const *w = all; *w; w++) {
        if (table_add_row(&t, &e)) {
            table_free(&t);
            fprintf(stderr, "gpuest workloads: %s\n", e.msg);
            return 1;
        }
        table_set(&t, 0, (*w)->name);
        table_set(&t, 1, (*w)->kind);
        table_setf(&t, 2, "%u", (*w)->tiny_size);
        table_setf(&t, 3, "%u", (*w)->default_size);
        table_set(&t, 4, (*w)->size_help);
        table_set(&t, 5, (*w)->description);
    }
    if (csv)
        table_print_csv(&t, stdout);
    else
        table_print(&t, stdout);
    table_free(&t);
    return 0;
}
