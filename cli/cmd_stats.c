/*
 * cmd_stats.c - `gpuest stats`: per-kernel statistics of a trace or a
 * workload, as tables (default), JSON (--json) or CSV (--csv).
 *
 * The numbers come from common/wstats.c (definitions in wstats.h and
 * docs/traces.md); this file only parses options and formats.  The table
 * output is two tables: the per-kernel metrics (plus a total row when there
 * are several kernels) and the op-kind mix per kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_source.h"
#include "json.h"
#include "table.h"
#include "wstats.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest stats TRACE_OR_WORKLOAD [--json | --csv] [--size N] [--seed S]\n"
            "\n"
            "Per-kernel statistics of a warp stream: grid, block, CTAs, warp and thread\n"
            "instructions, SIMD efficiency (active lanes / 32), the op-kind mix, global and\n"
            "local memory requests with their 32-byte sectors and 128-byte lines per request\n"
            "(coalescing), and the distinct 128-byte lines touched.  Shared-memory accesses\n"
            "are counted separately (shared_requests).  A total row follows when there are\n"
            "several kernels.\n"
            "\n"
            "  TRACE_OR_WORKLOAD  an Accel-Sim trace: kernelslist.g, a directory holding it,\n"
            "                     or one kernel-N.traceg[.xz]; otherwise a workload name\n"
            "  --json             JSON on stdout: {\"source\", \"kernels\": [...], \"total\"}\n"
            "  --csv              CSV on stdout, one row per kernel plus total, the op mix\n"
            "                     as op_<kind> columns\n"
            "  --size N           workload problem size (0 = the workload's default)\n"
            "  --seed S           workload input seed (default 1)\n"
            "  -h, --help         show this help\n"
            "\n"
            "Definitions of every number: docs/traces.md.\n");
}

static void json_kernel(json_w *j, const wstats_kernel *k, int is_total)
{
    json_obj_begin(j);
    json_kstr(j, "name", k->name);
    if (!is_total) {
        json_kuint(j, "id", k->id);
        json_key(j, "grid");
        json_arr_begin(j);
        for (int i = 0; i < 3; i++)
            json_uint(j, k->grid[i]);
        json_arr_end(j);
        json_key(j, "block");
        json_arr_begin(j);
        for (int i = 0; i < 3; i++)
            json_uint(j, k->block[i]);
        json_arr_end(j);
    }
    json_kuint(j, "ctas", k->ctas);
    json_kuint(j, "warp_instructions", k->warp_insts);
    json_kuint(j, "thread_instructions", k->thread_insts);
    json_knum(j, "simd_efficiency", wstats_simd_efficiency(k));
    json_key(j, "op_mix");
    json_obj_begin(j);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        json_kuint(j, isa_ops[i].name, k->op[i]);
    json_obj_end(j);
    json_kuint(j, "mem_requests", k->mem_requests);
    json_knum(j, "sectors_per_request", wstats_sectors_per_request(k));
    json_knum(j, "lines_per_request", wstats_lines_per_request(k));
    json_kuint(j, "lines_touched", k->lines_touched);
    json_kuint(j, "shared_requests", k->shared_requests);
    json_obj_end(j);
}

static void print_json(const char *spec, const wstats *s)
{
    json_w j;
    json_init(&j, stdout);
    json_obj_begin(&j);
    json_kstr(&j, "source", spec);
    json_key(&j, "kernels");
    json_arr_begin(&j);
    for (size_t i = 0; i < s->nkernels; i++)
        json_kernel(&j, &s->kernels[i], 0);
    json_arr_end(&j);
    json_key(&j, "total");
    json_kernel(&j, &s->total, 1);
    json_obj_end(&j);
    json_end(&j);
}

static const char *const csv_fixed[] = {
    "id", "name", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "ctas", "warp_instructions",
    "thread_instructions", "simd_efficiency", "mem_requests", "sectors_per_request", "lines_per_request",
    "lines_touched", "shared_requests",
};
#define CSV_NFIXED ((int)(sizeof csv_fixed / sizeof *csv_fixed))

static void csv_row(table *t, const wstats_kernel *k, int is_total)
{
    int c = 0;
    if (is_total) {
        table_set(t, c++, "");
        table_set(t, c++, "total");
        for (int i = 0; i < 6; i++)
            table_set(t, c++, "");
    } else {
        table_setf(t, c++, "%u", k->id);
        table_set(t, c++, k->name);
        for (int i = 0; i < 3; i++)
            table_setf(t, c++, "%u", k->grid[i]);
        for (int i = 0; i < 3; i++)
            table_setf(t, c++, "%u", k->block[i]);
    }
    table_setf(t, c++, "%llu", (unsigned long long)k->ctas);
    table_setf(t, c++, "%llu", (unsigned long long)k->warp_insts);
    table_setf(t, c++, "%llu", (unsigned long long)k->thread_insts);
    table_setf(t, c++, "%.6f", wstats_simd_efficiency(k));
    table_setf(t, c++, "%llu", (unsigned long long)k->mem_requests);
    table_setf(t, c++, "%.6f", wstats_sectors_per_request(k));
    table_setf(t, c++, "%.6f", wstats_lines_per_request(k));
    table_setf(t, c++, "%llu", (unsigned long long)k->lines_touched);
    table_setf(t, c++, "%llu", (unsigned long long)k->shared_requests);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        table_setf(t, c++, "%llu", (unsigned long long)k->op[i]);
}

static int print_csv(const wstats *s, ge_err *e)
{
    const char *cols[CSV_NFIXED + ISA_OP_COUNT];
    char names[ISA_OP_COUNT][48];
    for (int i = 0; i < CSV_NFIXED; i++)
        cols[i] = csv_fixed[i];
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        snprintf(names[i], sizeof names[i], "op_%s", isa_ops[i].name);
        cols[CSV_NFIXED + i] = names[i];
    }
    table t;
    if (table_init(&t, CSV_NFIXED + ISA_OP_COUNT, cols, e))
        return -1;
    for (size_t i = 0; i <= s->nkernels; i++) {
        if (table_add_row(&t, e)) {
            table_free(&t);
            return -1;
        }
        if (i < s->nkernels)
            csv_row(&t, &s->kernels[i], 0);
        else
            csv_row(&t, &s->total, 1);
    }
    table_print_csv(&t, stdout);
    table_free(&t);
    return 0;
}

/* Kernel names (mangled templates) can be very long; the table shows 48
 * characters, JSON and CSV the whole name. */
static void short_name(char *dst, size_t cap, const char *name)
{
    size_t n = strlen(name);
    if (n < cap) {
        memcpy(dst, name, n + 1);
        return;
    }
    memcpy(dst, name, cap - 4);
    memcpy(dst + cap - 4, "...", 4);
}

static void metrics_row(table *t, const wstats_kernel *k, int is_total)
{
    char nm[49];
    int c = 0;
    if (is_total) {
        table_set(t, c++, "");
        table_set(t, c++, "total");
        table_set(t, c++, "");
        table_set(t, c++, "");
    } else {
        short_name(nm, sizeof nm, k->name);
        table_setf(t, c++, "%u", k->id);
        table_set(t, c++, nm);
        table_setf(t, c++, "(%u,%u,%u)", k->grid[0], k->grid[1], k->grid[2]);
        table_setf(t, c++, "(%u,%u,%u)", k->block[0], k->block[1], k->block[2]);
    }
    table_setf(t, c++, "%llu", (unsigned long long)k->ctas);
    table_setf(t, c++, "%llu", (unsigned long long)k->warp_insts);
    table_setf(t, c++, "%llu", (unsigned long long)k->thread_insts);
    table_setf(t, c++, "%.3f", wstats_simd_efficiency(k));
    table_setf(t, c++, "%llu", (unsigned long long)k->mem_requests);
    table_setf(t, c++, "%.2f", wstats_sectors_per_request(k));
    table_setf(t, c++, "%.2f", wstats_lines_per_request(k));
    table_setf(t, c++, "%llu", (unsigned long long)k->lines_touched);
    table_setf(t, c++, "%llu", (unsigned long long)k->shared_requests);
}

static void mix_rows(table *t, const wstats_kernel *k, const char *label, ge_err *e)
{
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        if (!k->op[i] || table_add_row(t, e))
            continue;
        table_set(t, 0, label);
        table_set(t, 1, isa_ops[i].name);
        table_setf(t, 2, "%llu", (unsigned long long)k->op[i]);
        table_setf(t, 3, "%.1f%%", 100.0 * (double)k->op[i] / (double)k->warp_insts);
    }
}

static int print_tables(const wstats *s, ge_err *e)
{
    static const char *const mcols[] = {"id",       "kernel",      "grid",   "block", "ctas",
                                        "warp_inst", "thread_inst", "simd_eff", "mem_req", "sect/req",
                                        "lines/req", "lines",       "shared_req"};
    static const char *const xcols[] = {"kernel", "op", "warp_inst", "share"};
    table m, x;
    if (table_init(&m, (int)(sizeof mcols / sizeof *mcols), mcols, e))
        return -1;
    if (table_init(&x, 4, xcols, e)) {
        table_free(&m);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < s->nkernels && rc == 0; i++) {
        char id[16];
        snprintf(id, sizeof id, "%u", s->kernels[i].id);
        if ((rc = table_add_row(&m, e)) == 0)
            metrics_row(&m, &s->kernels[i], 0);
        mix_rows(&x, &s->kernels[i], id, e);
    }
    if (rc == 0 && s->nkernels > 1) {
        if ((rc = table_add_row(&m, e)) == 0)
            metrics_row(&m, &s->total, 1);
        mix_rows(&x, &s->total, "total", e);
    }
    if (rc == 0) {
        table_print(&m, stdout);
        printf("\nop mix (warp instructions per kind)\n");
        table_print(&x, stdout);
    }
    table_free(&m);
    table_free(&x);
    return rc;
}

int cmd_stats(int argc, char **argv)
{
    const char *spec = NULL;
    int json = 0, csv = 0;
    uint64_t size = 0, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if (!strcmp(a, "--size") || !strcmp(a, "--seed")) {
            uint64_t *dst = a[3] == 'i' ? &size : &seed;
            if (i + 1 >= argc || cli_parse_u64(argv[i + 1], a[3] == 'i' ? UINT32_MAX : UINT64_MAX, dst)) {
                fprintf(stderr, "gpuest stats: %s needs a non-negative integer (try --help)\n", a);
                return 2;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gpuest stats: unknown option '%s' (try --help)\n", a);
            return 2;
        } else if (spec) {
            fprintf(stderr, "gpuest stats: more than one trace or workload given (try --help)\n");
            return 2;
        } else {
            spec = a;
        }
    }
    if (!spec) {
        usage(stderr);
        return 2;
    }
    if (json && csv) {
        fprintf(stderr, "gpuest stats: --json and --csv are exclusive\n");
        return 2;
    }
    ge_err e = {{0}};
    ws_source *src;
    if (cli_open_source(spec, (uint32_t)size, seed, &src, &e)) {
        fprintf(stderr, "gpuest stats: %s\n", e.msg);
        return 1;
    }
    wstats s;
    wstats_init(&s);
    progress p;
    int rc = wstats_run(&s, src, &p, &e);
    ws_close(src);
    if (rc == 0) {
        if (json)
            print_json(spec, &s);
        else if (csv)
            rc = print_csv(&s, &e);
        else
            rc = print_tables(&s, &e);
    }
    wstats_free(&s);
    if (rc) {
        fprintf(stderr, "gpuest stats: %s\n", e.msg);
        return 1;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
