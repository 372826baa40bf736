/*
 * cli_extra.h - put two sets of extra report columns side by side (e.g. a
 * command's own columns and the power columns of cli_power.h).
 */
#ifndef GPUEST_CLI_EXTRA_H
#define GPUEST_CLI_EXTRA_H

#include "cli_report.h"

#define CLI_EXTRA_MAX_COLS 32

typedef struct cli_extra_pair {
    const cli_report_extra *a, *b;
    const char *cols[CLI_EXTRA_MAX_COLS];
    cli_report_extra extra; /* pass &pair.extra to the report */
} cli_extra_pair;

/* a and/or b may be NULL.  Fails (-1) if there are more than CLI_EXTRA_MAX_COLS columns. */
int cli_extra_pair_init(cli_extra_pair *p, const cli_report_extra *a, const cli_report_extra *b);

#endif
