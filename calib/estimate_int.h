/*
 * estimate_int.h - shared state of one estimate run (calib/ internal).
 */
#ifndef CALIB_ESTIMATE_INT_H
#define CALIB_ESTIMATE_INT_H

#include "estimate.h"
#include "sim.h"

typedef struct est_ctx {
    const gpu_config *cfg;
    const profile *p;
    const est_options *o;
    sim_gpu *full;      /* all SMs: for kernels the profile kept whole */
    sim_gpu *sampled;   /* sample_sms SMs, alone (the SM-side fit) */
    sim_gpu *loaded;    /* sample_sms SMs with background traffic (memory-side rates) */
    uint32_t sampled_sms;
} est_ctx;

/* The sampled simulator with (loaded = 1) or without background traffic. */
sim_gpu *est_sampled_sim(est_ctx *x, uint32_t sms, int loaded, ge_err *e);
sim_gpu *est_full_sim(est_ctx *x, ge_err *e);
int est_sim_ctas(sim_gpu *g, const profile *p, uint32_t k, const ws_cta *const *ctas, size_t n, kresult *r,
                 ge_err *e);
int est_hybrid_kernel(est_ctx *x, uint32_t k, const est_calibration *reuse, est_kernel *out, ge_err *e);

#endif
