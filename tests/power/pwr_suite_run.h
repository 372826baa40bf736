/*
 * pwr_suite_run.h - a suite workload, simulated in full and priced by the
 * power model (test and benchmark helper; see pwr_suite_run.c).
 */
#ifndef PWR_SUITE_RUN_H
#define PWR_SUITE_RUN_H

#include <stdint.h>
#include <stdlib.h>

#include "power.h"

typedef struct psr_result {
    pwr_result power;       /* all kernels, time-weighted */
    act_counters act;       /* summed activity */
    double cycles, thread_insts;
    size_t kernels;
    double window_energy_j; /* sum over interval windows (0 without interval) */
    double window_cycles;
    double sustained_w;     /* best mean power over PSR_SUSTAIN_CYCLES of windows (0 without) */
} psr_result;

/* Length of the stretch that defines sustained power, core cycles. */
#define PSR_SUSTAIN_CYCLES 2000

/* size 0 = the workload's default size.  interval > 0 also prices every
 * window of that many cycles. */
int psr_run(const gpu_config *cfg, const pwr_model *m, const char *workload, uint32_t size,
            uint64_t interval, psr_result *out, ge_err *e);

#endif
