/*
 * estimate.h - the hybrid estimator: the interval model (model/) calibrated
 * by spatially sampled detailed simulation (sampler/).
 *
 * Modes, per kernel of a profile:
 *   model  - the interval model alone (microseconds per kernel);
 *   hybrid - simulate a sample of CTAs in detail on a few SMs, with the
 *            memory system loaded as if every SM ran, then fit the model to
 *            the sample and extrapolate to the whole kernel (calib/hybrid.c);
 *            a kernel small enough that the profile kept all its CTAs is
 *            simulated in full instead;
 *   full   - the detailed simulator on every CTA (from a profile only when
 *            it kept every CTA of every kernel; otherwise from the workload
 *            or trace itself, est_full_source()).
 * This module connects model/ and sampler/, which never include each other:
 * a sampled run yields a kresult + sim_detail, and the fit yields a
 * model_params plus a scale factor (est_calibration).
 */
#ifndef CALIB_ESTIMATE_H
#define CALIB_ESTIMATE_H

#include "gpu_config.h"
#include "kresult.h"
#include "model.h"
#include "profile.h"
#include "wstream.h"

typedef enum { EST_MODEL = 0, EST_HYBRID, EST_FULL } est_mode;
extern const char *const est_mode_names[3];
int est_mode_by_name(const char *name);

/* Default temporal-sampling budget, warp instructions per sampled SM
 * (est_options.sample_insts). */
#define EST_SAMPLE_INSTS 32768
#define EST_SAMPLE_INSTS_STR "32768"

/* Default start phases of a hybrid sample's alone run (est_options.sample_phases), and
 * the core cycles between two starts (calib/hybrid.c average_phases; 3 and 7 measured alike). */
#define EST_SAMPLE_PHASES 1
#define EST_SAMPLE_PHASES_STR "1"
#define EST_PHASE_STEP 3
#define EST_PHASE_STEP_STR "3"

typedef struct est_options {
    est_mode mode;
    const char *scheduler;  /* NULL = the config's */
    uint32_t sample_sms;    /* SMs simulated in hybrid mode (default 1) */
    uint32_t sample_rounds; /* resident-CTA generations simulated per SM, at most (0, the
                             * default: 2, or 4 for kernels of 8 generations or more per SM) */
    uint64_t sample_insts;  /* temporal sampling: a sample of more warp instructions than this per
                             * sampled SM runs with its CTAs' loops trimmed, at two lengths, and
                             * is extrapolated to the whole; the background run gets half of it
                             * (calib/trim.h; 0: run samples whole; default EST_SAMPLE_INSTS) */
    uint32_t sample_phases; /* hybrid: the sample runs alone this many times, each start a few
                             * cycles later against the memory clocks, and the runs' totals are
                             * averaged (calib/hybrid.c; 0 or 1: one run; default EST_SAMPLE_PHASES) */
    int background;         /* hybrid: 1 (default) also runs the sample with the other SMs' traffic
                             * replayed (sampler/mem.h) to measure L2 and DRAM rates under load,
                             * when those rates can move the estimate by 2% or more (calib/hybrid.c),
                             * as a few weighted mirrors per sampled SM; 2 the same with one
                             * mirror per other SM (exact, slow); 0 takes them from the model */
    struct est_cache *cache; /* optional (NULL: none): what the estimates of one profile share
                              * across design points (est_cache_new); results do not depend on it */
} est_options;

void est_options_default(est_options *o);

/* Data that every estimate of one profile needs whatever the design point
 * (the sampled kernels' shared lines per line size, calib/est_cache.c),
 * made on first need and kept.  A sweep or a benchmark passes one cache,
 * made for its profile, in the options of all its estimates; they may run
 * in several threads.  A cache made for another profile is ignored. */
typedef struct est_cache est_cache;
est_cache *est_cache_new(const profile *p, ge_err *e);
void est_cache_free(est_cache *c);

/* What a sampled run fixed for one kernel; reusable at nearby design points
 * (see est_calibration_reusable). */
typedef struct est_calibration {
    int valid;
    model_params params;   /* measured rates and fitted scales (model.h) */
    double sample_cycles;
    double sample_ctas;
    double error;          /* relative error estimate of the extrapolation */
    double error_row;      /* its row-hit term (0 when no background run measured the rate) */
    double error_burst;    /* its launch-burst term (hybrid.c burst_term) */
    double error_placement; /* its last-wave placement term (hybrid.c placement_term) */
    double error_warm;     /* its cold/warm term (hybrid.c, warm_share; 0 for one run) */
    double error_phase;    /* its timing-mode term: half the spread of the start phases' sample
                            * cycles over their mean (0 for one phase) */
    /* the design point it was measured at, for the reuse rule */
    uint32_t ctas_per_sm;
    double model_l1_hit, model_l1_filter, model_l2_hit, model_latency; /* the uncalibrated model there */
    double model_l1_inflight; /* its L1 lines in flight (model_detail.l1_inflight) ... */
    int model_inflight_binds; /* ... and whether they bound its generation (t_mshr the largest term) */
    uint32_t l1_sets, l1_ways, l1_line; /* the L1 data cache's geometry there */
    char l1_set_index[GCFG_NAME_MAX], l2_set_index[GCFG_NAME_MAX]; /* and the caches' set index functions */
    char scheduler[64];
    uint64_t sm_signature; /* hash of the SM-core parameters */
} est_calibration;

typedef struct est_kernel {
    kresult r;
    est_calibration cal;   /* hybrid only */
    double wall_s;         /* time spent on this kernel */
    int simulated_full;    /* hybrid: 1 if the kernel was small and simulated in full */
    int reused;            /* hybrid: 1 if a calibration from another design point was reused */
} est_kernel;

/* Estimate every kernel of p.  *out gets p->nkernels entries (malloc'd).
 * cals (optional, p->nkernels entries) supplies calibrations to reuse in
 * hybrid mode where the reuse rule allows, and receives the ones used. */
int est_profile(const gpu_config *cfg, const profile *p, const est_options *o, est_calibration *cals,
                est_kernel **out, ge_err *e);

/* Full detailed simulation of a stream (mode full without a complete profile). */
int est_full_source(const gpu_config *cfg, ws_source *src, const est_options *o, est_kernel **out, size_t *n,
                    ge_err *e);

/* The reuse rule: may calibration c, measured at another design point, be
 * used for kernel k at design cfg without re-sampling?  (docs/hybrid.md) */
int est_calibration_reusable(const est_calibration *c, const gpu_config *cfg, const char *scheduler,
                             const profile *p, uint32_t k);

/* Is kernel k of p another launch of kernel j with the same work: same name,
 * grid, block, registers and shared memory, and warp instructions and
 * memory lines per CTA within EST_LAUNCH_WORK_DELTA?  Then a calibration of
 * j may serve k where est_calibration_reusable allows (docs/hybrid.md). */
int est_same_launch(const profile *p, uint32_t j, uint32_t k);

/* Hash of the SM-core parameters a calibration depends on. */
uint64_t est_sm_signature(const gpu_config *cfg);

#endif
