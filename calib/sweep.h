/*
 * sweep.h - design-space sweeps: one profiled workload, many design points,
 * each estimated (model or hybrid) with power, and the energy-delay Pareto
 * front.
 *
 * Points are the cartesian product of base configs x schedulers x the
 * values of each varied key.  Points that share a base config and scheduler
 * form a group; a group runs in order on one thread so that hybrid mode can
 * reuse a kernel's calibration from an earlier point of the group wherever
 * the reuse rule allows (est_calibration_reusable), and re-sample otherwise.
 * Groups run in parallel on `threads` threads.  Results do not depend on the
 * thread count (each group's order is fixed and groups share nothing).
 */
#ifndef CALIB_SWEEP_H
#define CALIB_SWEEP_H

#include "estimate.h"
#include "gpu_config.h"
#include "profile.h"

#define SWEEP_MAX_VARY 8
#define SWEEP_MAX_VALUES 64

typedef struct sweep_vary {
    char key[96];
    uint32_t nvalues;
    char values[SWEEP_MAX_VALUES][48];
} sweep_vary;

typedef struct sweep_spec {
    uint32_t nconfigs;
    const char *configs[16];     /* shipped names or paths */
    uint32_t nschedulers;
    const char *schedulers[4];   /* NULL entry = the config's own */
    uint32_t nvary;
    sweep_vary vary[SWEEP_MAX_VARY];
    est_mode mode;
    uint32_t threads;
    uint32_t sample_sms;
    uint32_t sample_rounds;      /* hybrid: est_options.sample_rounds; 0 = its default */
    uint32_t sample_phases;      /* hybrid: est_options.sample_phases; 0 = its default */
    int64_t sample_insts;        /* hybrid: est_options.sample_insts; 0 = its default, < 0 = never trim */
} sweep_spec;

typedef struct sweep_point {
    uint32_t config, scheduler;          /* indices into the spec */
    uint32_t value[SWEEP_MAX_VARY];      /* index of each varied key's value */
    char config_name[128];
    char scheduler_name[64];
    double cycles, seconds, power_w, energy_j, edp, ed2p;
    double error_estimate;               /* cycle-weighted, hybrid only */
    uint32_t sampled, reused, full;      /* kernels sampled / reusing a calibration / simulated whole */
    double wall_s;
    int pareto;                          /* on the energy-delay front */
    char error[GE_ERR_MAX];               /* non-empty if this point failed */
} sweep_point;

/* Number of points of a spec. */
size_t sweep_count(const sweep_spec *s);
/* Run every point; *out gets sweep_count() points (malloc'd).  A point whose
 * config does not validate gets its error text and no figures; the sweep
 * goes on.  Returns -1 only for errors that stop everything. */
int sweep_run(const sweep_spec *s, const profile *p, sweep_point **out, ge_err *e);
/* Mark the points no other point beats on both seconds and energy. */
void sweep_pareto(sweep_point *pts, size_t n);

#endif
