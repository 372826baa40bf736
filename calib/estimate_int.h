/*
 * estimate_int.h - shared state of one estimate run (calib/ internal).
 */
#ifndef CALIB_ESTIMATE_INT_H
#define CALIB_ESTIMATE_INT_H

#include "estimate.h"
#include "sim.h"
#include "u64set.h"

typedef struct est_ctx {
    const gpu_config *cfg;
    const profile *p;
    const est_options *o;
    sim_gpu *full;      /* all SMs: for kernels the profile kept whole */
    sim_gpu *sampled;   /* sample_sms SMs, alone (the SM-side fit) */
    sim_gpu *loaded;    /* sample_sms SMs with background traffic (memory-side rates) */
    uint32_t sampled_sms;
    sim_gpu *ran_prev;  /* the simulator that ran the previous kernel whole (NULL: sampled) */
    const u64set *shared; /* lines of the sampled kernel that many SMs touch (shared_lines.c) */
    u64set own_shared;    /* where they are made without a cache (o->cache) */
} est_ctx;

/* The sampled simulator with (loaded = 1) or without background traffic. */
sim_gpu *est_sampled_sim(est_ctx *x, uint32_t sms, int loaded, ge_err *e);
sim_gpu *est_full_sim(est_ctx *x, ge_err *e);
int est_sim_ctas(sim_gpu *g, const profile *p, uint32_t k, const ws_cta *const *ctas, size_t n, kresult *r,
                 ge_err *e);
/* Hybrid mode: before kernel k (> 0) runs `ctas` on g, put into g's L2 what
 * earlier kernels left there -- the profile's inherited lines that an LRU L2
 * of the design's capacity still holds, and the code lines of those CTAs --
 * unless g ran the previous kernel whole (then its L2 is already right). */
void est_warm_l2(est_ctx *x, sim_gpu *g, uint32_t k, const ws_cta *const *ctas, size_t n);
/* Into `shared`: the global lines (l1d lines) of kernel pk that CTAs of two
 * or more of the profile's sample runs touch (shared_lines.c); the
 * background run's sim_options.shared_line asks x->shared (estimate.c). */
int est_shared_lines(const gpu_config *cfg, const prof_kernel *pk, u64set *shared, ge_err *e);
/* x->shared for kernel k: from the options' cache when it is the profile's,
 * else made into x->own_shared.  NULL on error. */
const u64set *est_kernel_shared_lines(est_ctx *x, uint32_t k, ge_err *e);
/* The cache's entry for kernel k at cfg's line size, made on first need (est_cache.c). */
const u64set *est_cache_shared_lines(est_cache *c, const gpu_config *cfg, uint32_t k, ge_err *e);
int est_cache_for(const est_cache *c, const profile *p);
size_t est_cache_size(const est_cache *c); /* entries made so far */
/* Do the L1's lines in flight bound the model's generation (t_mshr its
 * largest term)?  The reuse rule's clause 4 (calib/reuse_rule.c). */
int est_inflight_binds(const model_detail *d);
int est_hybrid_kernel(est_ctx *x, uint32_t k, const est_calibration *reuse, est_kernel *out, ge_err *e);
/* A sample's L1 hit rate and filter shifted by the model's difference
 * between the GPU's dealing and the sample's (<= 0) plus the tail
 * weighting's (est_tail_weighted: either sign), and the hits
 * they lose added to the L2 hit rate, of which `below` sectors per load
 * sector reached the L2 in the sample (dealing.c). */
void est_dealing_shift(model_params *mp, double shift, double below);
/* The L1 load sectors and hits of a sample run's CTAs (d->cta, kept with
 * sim_options.cta_l1_stats), each weighed by the share of a kernel of nctas
 * CTAs on sm_count SMs that its position on its SM stands for (dealing.c). */
void est_tail_weighted(const sim_detail *d, uint64_t nctas, uint32_t sm_count, double *sectors, double *hits);
/* How much longer a sample run of `cycles` took than its SMs' later pace
 * accounts for (early.c).  Each SM's CTAs, in launch order, form
 * generations of d->ctas_per_sm; its pace is the cycles between the mean
 * ends of its middle and its last generation per warp instruction of the
 * generations after the middle one, and the run's cycles less all its warp
 * instructions at that pace is its extra.  The mean over the SMs that ran 4
 * generations or more; 0 if none did. */
double est_early_extra(const sim_detail *d, double cycles);
/* The cycles between the first and the last end of a CTA of the first
 * generation (those placed at the launch), averaged over the sampled SMs
 * that ran two or more of them; -1 if none did (model_params.cta_spread). */
double est_first_spread(const sim_detail *d);

/* What a hybrid sample run measured (hybrid.c): totals that grow with the
 * instructions run, so that two trimmed runs extrapolate to the whole
 * sample, and (the last, T_EARLY) the early generations' extra time, which
 * does not grow so, and (T_SPREAD) how far apart the first generation's
 * CTAs end (early.c).  DRAM row hits and accesses are the reads' and the
 * writes' apart (_R, _W), so that each pair extrapolates on its own. */
enum { T_CYCLES, T_L1_SECTORS, T_L1_HITS, T_L2_SECTORS, T_L2_HITS, T_ROW_HITS_R, T_ROWS_R, T_ROW_HITS_W, T_ROWS_W,
       T_LAT_SUM, T_LAT_LINES, T_L1W_SECTORS, T_L1W_HITS, T_EARLY, T_SPREAD, T_N };
#define T_TOTALS T_EARLY

/* Totals t of the longer of two trimmed runs (a: the shorter) extended to
 * the whole sample: each total that grew by g grows by f g more (trim.c),
 * and no hit count then exceeds its accesses. */
void est_extrapolate(const double *a, double *t, double f);

#endif
