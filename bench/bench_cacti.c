/*
 * bench_cacti.c - accuracy and speed of cacti/.
 *
 * Accuracy: every configuration of the CACTI 7 reference set
 * (tests/data/cacti7: reference.csv + the cache.cfg each row was run with)
 * is read through the cache.cfg reader (or, without a cfg/ directory, built
 * from the CSV columns) and solved; the per-metric mean
 * absolute percentage error (MAPE) and worst ratio max(model/ref, ref/model)
 * are printed.  Speed: a cold solve (memo and technology caches cleared
 * before each call) over all configurations, and a memoised solve (the same
 * spec repeatedly).
 *
 * Options: HELP below (`bench_cacti --help`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench_help.h"
#include "cacti.h"
#include "cacti_ref.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: insensitive to other jobs sharing the machine */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#ifndef CACTI_DATA_DIR
#define CACTI_DATA_DIR "tests/data/cacti7"
#endif

static const char HELP[] =
    "usage: bench_cacti [options]\n"
    "\n"
    "Accuracy and speed of cacti/: every configuration of the CACTI 7 reference set solved, the per-metric\n"
    "MAPE and worst ratio against CACTI printed, and the time of a cold and of a memoised solve.\n"
    "\n"
    "  --data DIR   reference directory (default: the source tree's tests/data/cacti7)\n"
    "  --detail     one line per configuration: model/CACTI ratio of each metric\n"
    "  --split K    also print the MAPE of the K folds (rows i % K == f)\n"
    "  --reps N     memoised calls to time (default 2000000)\n"
    "  -h, --help   this text\n";

int main(int argc, char **argv)
{
    const char *dir = CACTI_DATA_DIR;
    int detail = 0;
    long long split = 0, reps = 2000000;
    for (int i = 1; i < argc; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (!strcmp(argv[i], "--data") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--detail"))
            detail = 1;
        else if (!strcmp(argv[i], "--split") && i + 1 < argc && bench_num(argv[i + 1], 0, 1000, &split))
            i++;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc && bench_num(argv[i + 1], 1, LLONG_MAX, &reps))
            i++;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    char csv[1024], cfg[1024], err[512];
    snprintf(csv, sizeof csv, "%s/reference.csv", dir);
    snprintf(cfg, sizeof cfg, "%s/cfg", dir);
    cacti_ref_row *rows;
    size_t n;
    struct stat sb;
    int have_cfg = stat(cfg, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (!have_cfg)
        fprintf(stderr, "bench_cacti: no %s directory: specs built from the CSV columns\n", cfg);
    if (cacti_ref_load(csv, have_cfg ? cfg : NULL, &rows, &n, err, sizeof err)) {
        fprintf(stderr, "bench_cacti: %s\n", err);
        return 1;
    }

    /* cold solves: memo and technology caches cleared before every call */
    double tot = 0, worst = 0, wall = 0;
    double *times = malloc(n * sizeof *times);
    const char *worst_name = "";
    for (size_t i = 0; i < n && times; i++) {
        cacti_memo_clear();
        cacti_result r;
        double w0 = now_s(), t0 = cpu_s();
        if (cacti_solve(&rows[i].spec, &r) != CACTI_OK) {
            fprintf(stderr, "bench_cacti: %s: %s\n", rows[i].name, cacti_last_error());
            free(rows);
            free(times);
            return 1;
        }
        double dt = cpu_s() - t0;
        wall += now_s() - w0;
        times[i] = dt;
        tot += dt;
        if (dt > worst) {
            worst = dt;
            worst_name = rows[i].name;
        }
    }
    /* median and 95th percentile */
    double med = 0, p95 = 0;
    if (times) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && times[j - 1] > times[j]; j--) {
                double x = times[j];
                times[j] = times[j - 1];
                times[j - 1] = x;
            }
        med = times[n / 2];
        p95 = times[(size_t)(0.95 * (n - 1))];
    }

    cacti_ref_stats st;
    printf("CACTI 7 agreement (%s/reference.csv)\n", dir == (const char *)CACTI_DATA_DIR ? "tests/data/cacti7" : dir);
    if (cacti_ref_eval(rows, n, 0, 0, &st, detail ? stdout : NULL, err, sizeof err)) {
        fprintf(stderr, "bench_cacti: %s\n", err);
        free(rows);
        return 1;
    }
    cacti_ref_print(&st, stdout);
    for (int f = 0; f < split; f++) {
        cacti_ref_stats fs;
        cacti_ref_eval(rows, n, split, f, &fs, NULL, err, sizeof err);
        printf("fold %d/%lld:", f, split);
        for (int m = 0; m < REF_NMETRIC; m++)
            printf(" %s %.1f%%", cacti_ref_metric_name[m], fs.mape[m]);
        printf("\n");
    }

    /* memoised solves: all configurations are in the memo, cycle through them */
    cacti_result r;
    for (size_t i = 0; i < n; i++)
        cacti_solve(&rows[i].spec, &r);
    double t0 = cpu_s();
    double sink = 0;
    for (long i = 0; i < reps; i++) {
        cacti_solve(&rows[(size_t)i % n].spec, &r);
        sink += r.access_time_ns;
    }
    double memo = (cpu_s() - t0) / (double)reps;
    printf("\nspeed (CPU time per call, %zu configurations):\n", n);
    printf("  cold solve      mean %.3f ms, median %.3f ms, 95th pct %.3f ms, max %.3f ms (%s)\n", tot / n * 1e3,
           med * 1e3, p95 * 1e3, worst * 1e3, worst_name);
    printf("  cold solve      mean wall-clock %.3f ms\n", wall / n * 1e3);
    printf("  memoised solve  %.3f us (%lld calls)%s\n", memo * 1e6, reps, sink < 0 ? "!" : "");
    free(times);
    free(rows);
    return 0;
}
