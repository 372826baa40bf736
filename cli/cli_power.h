/*
 * cli_power.h - power columns for a report: evaluates the power model for
 * every kernel of a report and exposes power_w, energy_j, edp, ed2p as
 * extra columns (and the per-component breakdown in JSON) through
 * cli_report_extra, so `simulate` and `estimate` print power identically.
 */
#ifndef GPUEST_CLI_POWER_H
#define GPUEST_CLI_POWER_H

#include "cli_report.h"
#include "gpu_config.h"
#include "power.h"

typedef struct cli_power {
    pwr_model *model;
    pwr_result *k;   /* per kernel */
    pwr_result total;
    size_t n;
    cli_report_extra extra;
} cli_power;

int cli_power_init(cli_power *cp, const gpu_config *cfg, const kresult *k, size_t n, ge_err *e);
void cli_power_free(cli_power *cp);

#endif
