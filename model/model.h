/*
 * model.h - the interval model: a profiled kernel on a GPU design -> cycles,
 * CPI stack and activity counters, in microseconds.
 *
 * The model follows the interval-analysis line of GPUMech (Huang et al.,
 * MICRO 2014) and its successors (MDM, Wang et al. MICRO 2020; GCoM, Lee et
 * al. ISCA 2022):
 *   1. occupancy (common/occupancy.h) gives the warps each scheduler holds;
 *   2. the profile's reuse histograms give L1/L2 hit rates for the design's
 *      cache sizes and associativity (model/reuse.h), and the design's
 *      latencies give the average load latency;
 *   3. each representative warp is replayed alone with those latencies,
 *      giving its issue runs and the stalls between them (intervals);
 *   4. N warps per scheduler hide each other's stalls: an interval of i
 *      issues and s stall cycles takes max(N*i, i+s) cycles when N warps
 *      share the scheduler, refined per policy (model/interval.c);
 *      functional-unit, LSU, shared-memory and MSHR throughput bound the
 *      same time from below;
 *   5. CTAs run in generations of the resident count per SM (a last partial
 *      generation is the tail), and GPU-wide DRAM, L2 and NoC bandwidth bound
 *      the kernel; the bounds combine by a smooth maximum and DRAM queueing
 *      delay (M/D/1) feeds back into the load latency.
 * The free parameters below are what calibration (calib/) fits to a sampled
 * detailed simulation; their defaults are the uncalibrated model.
 */
#ifndef MODEL_MODEL_H
#define MODEL_MODEL_H

#include "gpu_config.h"
#include "kresult.h"
#include "profile.h"

typedef struct model_params {
    double latency_scale;   /* multiplies the modelled load latency */
    double sm_scale;        /* multiplies the SM-side time of every CTA generation */
    double early_extra;     /* cycles an SM's early CTA generations take beyond the later ones' pace:
                             * the first starts in lock step, so its CTAs' loads do not overlap each
                             * other's work, and the next inherit some of that; added once to the
                             * SM's time (measured by a sample, calib/early.c; 0 = none) */
    double cta_spread;      /* cycles between the first and the last end of an SM's first CTA generation,
                             * as a sample measured it (calib/early.c); < 0 = not measured.  Shorter than
                             * the SMs' start-up stagger, the SMs finish that generation one after the
                             * other, and a second wave runs on the first SMs to finish, as many CTAs on
                             * each as its slots free before the others' (model.c, first_sm_take; not for
                             * kernels of more waves or whose atomics share lines); otherwise the last
                             * CTAs spread over all SMs */
    int sampled_runs;       /* 1: sm_scale was fitted to a sample run in detail (calib/hybrid.c), whose
                             * cycles carry the L1 set crowding its real addresses met: the profile's
                             * set-placement bound is not added (model.c, docs/model.md item 6) */
    double overlap;         /* exponent p of the smooth max (sum T_i^p)^(1/p) */
    double dram_efficiency; /* sustainable fraction of peak DRAM bandwidth; 0 = from timing and row_hit */
    double row_hit;         /* DRAM row-buffer hit rate per burst, of reads (and of writes unless
                             * row_hit_w is given); < 0 = estimated from coalescing */
    double row_hit_w;       /* that of the writes (L2 write-backs), when row_hit is given; < 0 = row_hit */
    /* Measured values that replace the model's own when >= 0 (from a sample). */
    double l1_hit;          /* load sectors served by the L1 without waiting for a fill */
    double l1_filter;       /* load sectors that do not go below the L1 (hits and in-flight merges) */
    double l2_hit;          /* among load sectors that reach the L2 */
    double load_latency;    /* average global load latency, core cycles (queueing included) */
} model_params;

void model_params_default(model_params *p);

/* Which part of the kernel runs, and where (for matching a sampled run). */
typedef struct model_scenario {
    uint32_t active_sms;       /* SMs that run CTAs (0 = all) */
    double ctas;               /* CTAs executed (0 = the kernel's) */
    const double *cluster_ctas;/* CTAs per profile cluster (NULL = kernel's mix) */
    int background;            /* 1: the other SMs load the memory system like the active ones */
    int neighbour_runs;        /* 1: each active SM runs consecutive CTAs (a hybrid sample), whose lines
                                  spread evenly over its L1's sets: misses in flight are bounded by the
                                  MSHRs only, not by the set crowding of a GPU's CTA dealing (model.c) */
} model_scenario;

/* Intermediate quantities, for calibration, reports and tests. */
typedef struct model_detail {
    uint32_t ctas_per_sm, warps_per_sched;
    double l1_hit, l1_filter, l2_hit, load_latency, dram_util;
    double t_sm, t_dram, t_l2, t_noc;    /* the bounds, core cycles */
    double t_cta;                        /* the kernel's mean CTA alone on an SM */
    double t_tail;                       /* its heaviest CTA class alone (a floor of t_sm) */
    double t_gens;                       /* the CTA generations' time, before that floor */
    double t_last;                       /* of them, the last, partial generation's (0 if all are full) */
    double startup;                      /* cold I-cache at launch: code lines x their fetch latency */
    double burst, t_burst;               /* the first generation's prologue loads: share of the memory
                                          * traffic, and the time the bounds take to serve them */
    double burst_extra;                  /* cycles the launch's burst adds to the estimate (0 if none) */
    double t_issue, t_interval, t_units, t_lsu, t_mshr;  /* per generation */
    double generations;
    double l1_inflight;                  /* the L1's lines in flight per SM that bound t_mshr (MSHRs, random
                                          * or set placement: docs/model.md item 6) */
} model_detail;

/* Estimate kernel k of profile p on cfg with the given scheduler policy name
 * ("lrr", "gto", "two_level"; NULL = the config's). */
int model_kernel(const gpu_config *cfg, const char *scheduler, const profile *p, uint32_t k,
                 const model_params *mp, const model_scenario *sc, kresult *out, model_detail *d, ge_err *e);

/* The CTAs of kernel k that are resident GPU-wide on cfg at once (its
 * occupancy x the SMs); 0 if a CTA does not fit an SM.  The concurrency at
 * which the ages of what kernel k leaves in the L2 are read
 * (prof_age_at). */
double model_resident_ctas(const gpu_config *cfg, const profile *p, uint32_t k);

/* How much lower (<= 0) the L1 sector hit rate of kernel k's loads is
 * with its CTAs dealt to cfg's SMs as a GPU deals them (CTA i on SM i mod
 * SMs) than with each SM running consecutive CTAs, as a hybrid sample does;
 * ctas_per_sm resident on each.  From the profile's L1 histograms for cfg's
 * SM count and for one SM, both read as a fully associative cache of the
 * L1's capacity: the dealing changes which lines the CTAs of an SM share (a
 * stencil's halo, a matrix row), and set placement is left to what the
 * sample measured.  0 when the profile has no one-SM histograms (written
 * before 2026-11-28). */
double model_l1_dealing_shift(const gpu_config *cfg, const char *scheduler, const profile *p, uint32_t k,
                              double ctas_per_sm);

/* ---- pieces, exposed for tests ---- */

/* Per-instruction latency classes resolved for one design. */
typedef struct model_lat {
    double alu[ISA_LAT_COUNT];   /* latency per latency class */
    double ii[ISA_LAT_COUNT];    /* initiation interval per class (one unit) */
    double load;                 /* average global/local load latency */
    double shared, constant, atomic;
    double shared_ii;            /* cycles per bank cycle of a shared access */
    double noc_per_sector;       /* SM port cycles to move one 32 B sector over the NoC */
    double l1_miss;              /* share of load sectors that miss the L1 */
} model_lat;

/* A representative warp's single-warp replay. */
typedef struct model_warp_time {
    double insts;        /* instructions */
    double cycles;       /* alone on a scheduler */
    double stall_mem, stall_dep;
    /* The interval decomposition, summarised for the multi-warp formula at a
     * given N (model_multiwarp evaluates it from these). */
    uint32_t nint;
    double *issue;       /* i_j */
    double *stall;       /* s_j */
    double *lsu;         /* LSU cycles (lines + shared bank cycles) the interval's issues need */
    uint8_t *mem;        /* 1 if stall j waits on a global/local load */
    uint8_t *lsu_wait;   /* 1 if stall j waits on any memory-pipeline result (global, shared, const) */
} model_warp_time;

/* Scheduling policies the multi-warp formula distinguishes. */
typedef enum { MODEL_LRR = 0, MODEL_GTO, MODEL_TWO_LEVEL } model_policy;
/* Active-set size of two-level scheduling, warps per scheduler (Narasiman et
 * al., MICRO 2011, section 5; the detailed simulator uses the same). */
#define MODEL_TWO_LEVEL_ACTIVE 8
model_policy model_policy_of(const char *scheduler);

int model_replay(const prof_warp *w, const model_lat *lat, model_warp_time *t, ge_err *e);

/* The same replay in two steps, for callers that replay one warp under
 * several load latencies (the model's fixed point): the plan holds each
 * instruction's latency and LSU cycles for everything in lat but `load`
 * and `atomic`; run then gives exactly what model_replay would with those
 * two latencies. */
typedef struct model_replay_step {
    double fixed;                /* latency without the load/atomic part */
    double lsu;                  /* LSU cycles */
    uint16_t dep[PROF_MAX_DEPS]; /* the profile's producer distances inside the warp, in order, 0 after the last */
    uint8_t lat;                 /* which latency it adds: 0 none, 1 load, 2 atomic */
    uint8_t flags;               /* REPLAY_F_* (interval.c) */
    uint8_t lines;               /* a load's lines (at least 1) */
} model_replay_step;
typedef struct model_replay_plan {
    const prof_warp *w;
    model_replay_step *step;
    double *done;    /* scratch: each instruction's result time */
    double *iss;     /* scratch: each instruction's issue time */
} model_replay_plan;
int model_replay_plan_init(model_replay_plan *p, const prof_warp *w, const model_lat *lat, ge_err *e);
void model_replay_plan_free(model_replay_plan *p);
/* A load's line hits the L1 with probability `hit` and then takes hit_lat
 * cycles, else the miss latency that makes the mean load_lat; an
 * instruction that waits on loads waits for the slowest of their lines
 * still out (interval.c).  hit = 0: every line takes load_lat. */
typedef struct model_load_mix {
    double mean, hit, hit_lat;
} model_load_mix;
int model_replay_run(model_replay_plan *p, const model_load_mix *load, double atomic_lat, model_warp_time *t,
                     ge_err *e);
void model_warp_time_free(model_warp_time *t);
/* Cycles for N warps like t sharing one scheduler under a policy, with
 * sm_warps warps on the whole SM sharing its memory pipeline: the first
 * interval in lock step, max(work, path), and the rest with the warps
 * drifted apart, max(sum of work, sum of path) (docs/model.md, step 5);
 * *mem_stall / *dep_stall get the unhidden stall cycles of the result. */
double model_multiwarp(const model_warp_time *t, double n, double sm_warps, model_policy pol, double *mem_stall,
                       double *dep_stall);

/* M/D/1 mean waiting time in units of the service time at utilisation rho. */
double model_md1_wait(double rho);

#endif
