/*
 * cacti_ref.h - the CACTI 7 reference set (tests/data/cacti7) and the
 * agreement statistics (MAPE, worst ratio) shared by the accuracy test and
 * bench/bench_cacti.c.
 */
#ifndef GPUEST_CACTI_REF_H
#define GPUEST_CACTI_REF_H

#include <stddef.h>
#include <stdio.h>

#include "cacti.h"

enum { REF_ACCESS, REF_CYCLE, REF_READ, REF_WRITE, REF_LEAK, REF_AREA, REF_NMETRIC };

extern const char *const cacti_ref_metric_name[REF_NMETRIC];

typedef struct {
    char name[128];
    cacti_spec spec;
    double ref[REF_NMETRIC];
} cacti_ref_row;

typedef struct {
    size_t n;
    double mape[REF_NMETRIC];      /* percent */
    double max_ratio[REF_NMETRIC]; /* max(model/ref, ref/model) */
    char worst[REF_NMETRIC][128];
} cacti_ref_stats;

/* Load reference.csv; with cfg_dir non-NULL each spec is read from
 * cfg_dir/<name>.cfg (and checked against the CSV columns), otherwise it is
 * built from the CSV columns.  Returns 0 or -1 with a message in err. */
int cacti_ref_load(const char *csv, const char *cfg_dir, cacti_ref_row **rows, size_t *n, char *err,
                   size_t errlen);

/* Solve every row (optionally only rows with (index % mod) == rem when mod > 0)
 * and compute the statistics; per-row lines go to detail if non-NULL.
 * Returns 0 or -1 (a solve failed; message in err). */
int cacti_ref_eval(const cacti_ref_row *rows, size_t n, int mod, int rem, cacti_ref_stats *st,
                   FILE *detail, char *err, size_t errlen);

void cacti_ref_print(const cacti_ref_stats *st, FILE *f);

#endif
