/*
 * bench_suite.c - run the workload suite at benchmark sizes.
 *
 *   bench_suite [--tiny] [--csv] [--size N] [--seed S] [NAME...]
 *
 * For every workload (or the NAMEs given): create a device, run the driver
 * at its default size (or the tiny one, or N), and report launches, CTAs,
 * warp and thread instructions, SIMD efficiency, wall time of the whole run
 * (input generation + emulation + CPU reference) and emulated thread
 * instructions per second.  Every run must verify against its CPU
 * reference; the exit status is 1 if any fails.  Single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "gpurt.h"
#include "suite.h"
#include "table.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int selected(const char *name, int argc, char **argv, int first)
{
    if (first >= argc)
        return 1;
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

static const char HELP[] =
    "usage: bench_suite [options] [NAME...]\n"
    "\n"
    "Runs every suite workload (or the NAMEs) and reports launches, CTAs, warp and thread instructions, SIMD\n"
    "efficiency, wall time and emulated thread instructions per second; every run must verify against its\n"
    "CPU reference (exit status 1 if any fails). Single-threaded.\n"
    "\n"
    "  --tiny       the workloads' tiny sizes\n"
    "  --size N     this size for every workload (0 = its default)\n"
    "  --seed S     input seed (default 1)\n"
    "  --csv        CSV instead of the table\n"
    "  -h, --help   this text\n";

int main(int argc, char **argv)
{
    int tiny = 0, csv = 0, i = 1;
    long long size = 0, seed = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (strcmp(argv[i], "--tiny") == 0)
            tiny = 1;
        else if (strcmp(argv[i], "--csv") == 0)
            csv = 1;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && bench_num(argv[i + 1], 0, UINT32_MAX, &size))
            i++;
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc && bench_num(argv[i + 1], 0, LLONG_MAX, &seed))
            i++;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    for (int k = i; k < argc; k++) {
        if (!suite_find(argv[k])) {
            fprintf(stderr, "bench_suite: unknown workload '%s'\n", argv[k]);
            return 2;
        }
    }
    static const char *const cols[] = {"workload", "kind", "size", "launches", "ctas", "warp_insts", "thread_insts",
                                       "simd_eff", "seconds", "Mthread_insts/s", "result"};
    table t;
    ge_err e = {{0}};
    if (table_init(&t, 11, cols, &e) != 0) {
        fprintf(stderr, "bench_suite: %s\n", e.msg);
        return 1;
    }
    int failures = 0;
    double total_s = 0.0;
    uint64_t total_ti = 0;
    for (const wl_desc *const *w = suite_all(); *w; w++) {
        if (!selected((*w)->name, argc, argv, i))
            continue;
        wl_params p = {size ? size : tiny ? (*w)->tiny_size : (*w)->default_size, seed};
        double t0 = now();
        gpurt_stats st = {0};
        int rc = -1;
        gpurt *dev = gpurt_create((*w)->ptx, (*w)->ptx_name, &e);
        if (dev && gpurt_set_resources(dev, (*w)->ptx_resources) != 0) {
            snprintf(e.msg, sizeof e.msg, "%s", gpurt_error(dev));
        } else if (dev) {
            rc = (*w)->run(dev, &p, &e);
            gpurt_get_stats(dev, &st);
        }
        gpurt_destroy(dev);
        double dt = now() - t0;
        total_s += dt;
        total_ti += st.thread_insts;
        if (rc != 0) {
            failures++;
            fprintf(stderr, "bench_suite: %s\n", e.msg);
        }
        if (table_add_row(&t, &e) != 0)
            break;
        int c = 0;
        table_set(&t, c++, (*w)->name);
        table_set(&t, c++, (*w)->kind);
        table_setf(&t, c++, "%u", p.size);
        table_setf(&t, c++, "%llu", (unsigned long long)st.launches);
        table_setf(&t, c++, "%llu", (unsigned long long)st.ctas);
        table_setf(&t, c++, "%llu", (unsigned long long)st.warp_insts);
        table_setf(&t, c++, "%llu", (unsigned long long)st.thread_insts);
        table_setf(&t, c++, "%.3f", st.warp_insts ? (double)st.thread_insts / (32.0 * (double)st.warp_insts) : 0.0);
        table_setf(&t, c++, "%.3f", dt);
        table_setf(&t, c++, "%.1f", dt > 0 ? (double)st.thread_insts / dt / 1e6 : 0.0);
        table_set(&t, c++, rc == 0 ? "verified" : "FAILED");
    }
    if (csv)
        table_print_csv(&t, stdout);
    else
        table_print(&t, stdout);
    table_free(&t);
    printf("total: %.1f M thread instructions in %.2f s (%.1f M/s), %d failed\n", (double)total_ti / 1e6, total_s,
           total_s > 0 ? (double)total_ti / total_s / 1e6 : 0.0, failures);
    return failures ? 1 : 0;
}
