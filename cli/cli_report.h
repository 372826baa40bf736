/*
 * cli_report.h - printing per-kernel results (kresult) for people and
 * machines: an aligned table, JSON, or CSV.  Shared by `gpuest simulate`
 * and `gpuest estimate`, so both print the same fields the same way.
 *
 * A report is a list of kresults plus a total.  Commands that know more per
 * kernel (power, an error estimate) add columns through the `extra` hook
 * instead of copying this file.
 */
#ifndef GPUEST_CLI_REPORT_H
#define GPUEST_CLI_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "json.h"
#include "kresult.h"

/* Extra per-kernel fields.  `i` is the kernel's index, or n for the total. */
typedef struct cli_report_extra {
    int ncols;
    const char *const *cols;  /* column names (table/CSV) = JSON keys */
    /* the value of column c for kernel i (NaN prints as "-" / null) */
    double (*value)(void *ctx, size_t i, int c);
    /* optional: more keys (nested objects too) written inside kernel i's
     * JSON object after the standard ones; NULL = none */
    void (*json)(void *ctx, size_t i, json_w *j);
    void *ctx;
} cli_report_extra;

typedef struct cli_report {
    const char *config;   /* config name or path */
    const char *workload; /* trace path or workload name */
    const kresult *k;
    size_t n;
    const cli_report_extra *extra; /* may be NULL */
} cli_report;

/* The whole run as one kresult: counts and CPI stack summed; rates
 * weighted by what they are rates of (L1/L2 hit rates by read sectors,
 * row-hit rate by DRAM accesses, latency by global loads, bandwidth
 * utilisation and occupancy by cycles). */
void cli_report_total(const kresult *k, size_t n, kresult *total);

int cli_report_table(const cli_report *r, FILE *f, ge_err *e);
int cli_report_csv(const cli_report *r, FILE *f, ge_err *e);
/* {"config", "workload", "kernels": [...], "total": {...}} */
void cli_report_json(const cli_report *r, FILE *f);

#endif
