/*
 * hybrid.c - one kernel in hybrid mode: sample, simulate, fit, extrapolate.
 *
 * 1. Sample.  From the profile's sample CTAs (runs of consecutive CTAs
 *    spread over the grid, every CTA cluster represented,
 *    model/prof_select.c) give each of `sample_sms` SMs what a real SM
 *    runs, capped at `sample_rounds` generations at the design's
 *    occupancy (by default 2, or 4 for kernels of 8 or more), taking whole
 *    runs so that neighbours run together.
 * 2. Simulate the sample, on simulators whose L2 was first warmed with
 *    what the earlier kernels left there (est_warm_l2).  Alone, which
 *    measures the SM side: the L1 hit and filter rates, the unloaded load
 *    latency (its ratio to the model's gives `latency_scale`) and the
 *    cycles, averaged over `sample_phases` starts a few cycles apart
 *    (average_phases); for a kernel of more CTAs than the GPU holds at
 *    once, also on an L2 holding the lines many SMs share, as the later
 *    generations find it, the two runs weighed by the CTAs they stand for
 *    (warm_share).
 *    Then, if they can move the estimate (bg_matters), with the
 *    memory system in background mode (the other SMs' traffic replayed
 *    around it, sampler/mem.h), which measures the L2 hit rate and the DRAM
 *    row-buffer hit rate under the load of a full GPU.
 * 3. Fit.  With those rates fixed, `sm_scale` -- a factor on the SM-side
 *    time of every CTA generation -- is found (calib/root.h) so that the
 *    model reproduces the alone run's cycles: it absorbs what the interval
 *    model misses about scheduling, dependencies and the memory pipeline.
 *    What the sample's early generations took beyond its later pace is
 *    added once per SM instead (early.c), so that sm_scale is the pace.
 *    The L1 rates then move to the GPU's CTA dealing (dealing.c).
 * 4. Extrapolate.  The model with the fitted parameters evaluates the whole
 *    kernel: all CTAs on all SMs, waves and tail, and the contention of all
 *    SMs for NoC, L2 and DRAM (bandwidth bounds, DRAM queueing), which the
 *    alone run did not see.  This is the calibration a sweep may reuse at
 *    nearby design points (calib/reuse_rule.c).
 *
 * Why not one run with background traffic and a single ratio?  We measured
 * both (docs/hybrid.md): the replayed background is burstier than real
 * independent SMs, so kernels with bursty or uncoalesced traffic came out
 * 15-50% slow, whereas the model's analytic contention with the sample's
 * rates was closer on most kernels.
 *
 * Temporal sampling: a sample larger than est_options.sample_insts per
 * sampled SM runs with its CTAs' loops trimmed (trim.h), at two lengths,
 * and every total it measures is extrapolated to the whole sample
 * (measure(); docs/hybrid.md).  The extrapolation assumes the loops'
 * later iterations behave as the kept ones do; where the L1 hit rate of
 * the longer trim's added iterations falls below the shorter trim's rate
 * (the loops thrash the L1 more as they run), the budget doubles until it
 * does not, up to 4 times --sample-insts, or the sample runs whole.  The background run, which only
 * supplies rates and costs most (it carries every SM's traffic), gets half
 * the final budget -- or the whole sample, where the DRAM row-hit rate it
 * measures can move the estimate much (bg_runs_whole: a grid-stride loop's
 * CTAs drift apart and stop sharing rows, which a trimmed run never sees).
 *
 * Error estimate (a documented heuristic, checked by bench/bench_estimate):
 * the sampling error of a stratified mean of CTA sizes, sqrt(sum_c (w_c/W)^2
 * cv_c^2 / n_c), combined in quadrature with an extrapolation term that
 * grows with how much the model had to be corrected, 0.1 |ln sm_scale|,
 * for a trimmed sample 0.05 x the share of its cycles the trims extrapolated,
 * for a sample weighed from a cold and a warm run the smaller weight times
 * the two runs' difference in cycles over the weighed cycles,
 * for a sample run at several start phases half the range of their cycles
 * over the mean (average_phases), when the background run measured the
 * DRAM row-hit rate, the relative change of the kernel's modelled cycles
 * with that rate 0.3 lower
 * (row_sensitivity), when the model's heaviest-CTA floor sets the
 * estimate, the share of the cycles it adds (tail_term), and half the
 * difference the last wave's placement makes (placement_term).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"
#include "occupancy.h"
#include "root.h"
#include "sim.h"
#include "trim.h"

#define EST_ERR_MODEL_WEIGHT 0.1
#define EST_BG_SENSITIVITY 0.02 /* bg_matters */
#define EST_LONG_GENERATIONS 8 /* generations per SM from which the sample runs 4 rounds, not 2 */
#define EST_ERR_TRIM_WEIGHT 0.05 /* error per unit of the sample's cycles extrapolated by trimming */
#define EST_ERR_ROW_DROP 0.3     /* how far the background run's DRAM row-hit rate may be too high */
#define EST_ERR_PLACEMENT_WEIGHT 0.5 /* placement_term: the tail lies between the two placements */
#define EST_TRIM_MIN_KEEP 4     /* iterations the longer trim keeps at least */
#define EST_TRIM_MIN_DROP 0.3   /* trim only when the longer trim drops this share of the sample */
#define EST_TRIM_L1_DRIFT 0.03  /* how far the trims' later L1 hit rate may fall below the earlier */
#define EST_TRIM_MAX_GROWTH 4   /* ... before the budget grows, at most to this many times --sample-insts */
#define EST_ROW_MIN_WRITES 32   /* background_row_hits: write bursts that make the writes' own rate */
#define EST_BG_WHOLE_ROW 0.1    /* bg_runs_whole: the row-hit sensitivity above which the background is not trimmed */

typedef struct {
    const ws_cta *const *ctas;
    size_t n, next;
} cta_list;

/* The profile's CTAs stay put while a kernel runs: the simulator reads them
 * where they are. */
static int list_borrow(void *ctx, const ws_cta **cta, ge_err *e)
{
    (void)e;
    cta_list *l = ctx;
    if (l->next >= l->n)
        return 0;
    *cta = l->ctas[l->next++];
    return 1;
}

int est_sim_ctas(sim_gpu *g, const profile *p, uint32_t k, const ws_cta *const *ctas, size_t n, kresult *r,
                 ge_err *e)
{
    ws_kernel wk;
    prof_kernel_ws(p, &p->k[k], &wk);
    cta_list l = {ctas, n, 0};
    sim_cta_feed feed = {NULL, &l, list_borrow};
    return sim_kernel(g, &wk, &feed, r, e);
}

typedef struct {
    double age;
    uint32_t i;
} aged;

/* oldest first; among equals, the later in the profile's list first */
static int cmp_older(const void *a, const void *b)
{
    const aged *x = a, *y = b;
    if (x->age != y->age)
        return x->age > y->age ? -1 : 1;
    return x->i > y->i ? -1 : x->i < y->i;
}

void est_warm_l2(est_ctx *x, sim_gpu *g, uint32_t k, const ws_cta *const *ctas, size_t n)
{
    const prof_kernel *pk = &x->p->k[k];
    if (g == x->ran_prev || k == 0)
        return;
    double cap = (double)x->cfg->l2.cache.size_bytes * x->cfg->l2.slices / 128.0;
    /* ages at the concurrency of the kernel that left the lines */
    double conc = model_resident_ctas(x->cfg, x->p, k - 1);
    /* The lines an LRU L2 of cap lines still holds, put in oldest first, so
     * that the youngest end up most recently used.  (Warming is best effort,
     * like sim_l2_preload_code's: no memory, no warming.) */
    aged *held = pk->ninherit ? malloc(pk->ninherit * sizeof *held) : NULL;
    uint32_t nheld = 0;
    for (uint32_t i = 0; held && i < pk->ninherit; i++) {
        double a = prof_age_at(&pk->inherit_age[(size_t)i * PROF_NCONC], conc);
        if (a < cap)
            held[nheld++] = (aged){a, i};
    }
    if (nheld > 1)
        qsort(held, nheld, sizeof *held, cmp_older);
    for (uint32_t h = 0; h < nheld; h++)
        sim_l2_preload(g, &pk->inherit_line[held[h].i], &pk->inherit_sectors[held[h].i], 1);
    free(held);
    /* The code last: the lines earlier kernels executed (or code at the same
     * addresses, sm.h), which they fetched into the L2, are still there if
     * no more than the L2's lines of data came after their last fetch.  The
     * rest of the code -- all of it at a kernel function's first launch --
     * is in DRAM. */
    uint64_t *code = pk->ncode_warm ? malloc(pk->ncode_warm * sizeof *code) : NULL;
    uint32_t ncode = code ? prof_code_held(pk, cap, conc, code) : 0;
    if (ncode) {
        ws_kernel wk;
        prof_kernel_ws(x->p, pk, &wk);
        sim_l2_preload_code(g, &wk, ctas, n, code, ncode);
    }
    free(code);
}

/* Choose the sample CTAs to run: whole runs of consecutive CTAs (as they
 * run side by side on a GPU), evenly spaced over the profile's sample, until
 * `want`; per_cluster gets how many of each cluster were taken. */
static size_t choose(const prof_kernel *pk, size_t want, const ws_cta **pick, double *per_cluster)
{
    for (uint32_t c = 0; c < pk->nclusters; c++)
        per_cluster[c] = 0;
    uint32_t n = pk->nsample;
    if (n == 0 || want == 0)
        return 0;
    /* run starts: a CTA whose index does not follow its predecessor's */
    uint32_t *start = malloc((n + 1) * sizeof *start);
    if (!start)
        return 0;
    uint32_t nr = 0;
    for (uint32_t i = 0; i < n; i++)
        if (i == 0 || pk->sample_index[i] != pk->sample_index[i - 1] + 1)
            start[nr++] = i;
    start[nr] = n;
    size_t got = 0;
    if (want >= n) {
        for (uint32_t i = 0; i < n; i++)
            pick[got++] = &pk->sample[i];
    } else {
        /* the runs' average length decides how many runs make `want` */
        uint32_t take = (uint32_t)((want * nr + n - 1) / n);
        if (take < 1)
            take = 1;
        if (take > nr)
            take = nr;
        for (uint32_t r = 0; r < take && got < want; r++) {
            uint32_t ri = (uint32_t)((uint64_t)r * nr / take);
            for (uint32_t i = start[ri]; i < start[ri + 1] && got < want; i++)
                pick[got++] = &pk->sample[i];
        }
    }
    free(start);
    for (size_t i = 0; i < got; i++) {
        uint32_t j = (uint32_t)(pick[i] - pk->sample);
        if (pk->sample_cluster[j] < pk->nclusters)
            per_cluster[pk->sample_cluster[j]] += 1;
    }
    return got;
}

/* The SM-side scale that makes the model reproduce the sample's cycles:
 * the root of log(cycles / target) in log(scale) (calib/root.h; the model
 * is nondecreasing in the scale and close to proportional to it, so the
 * slope is about 1). */
typedef struct {
    const gpu_config *cfg;
    const char *sched;
    const profile *p;
    uint32_t k;
    model_params *mp;
    const model_scenario *sc;
    double target;
    ge_err *e;
} scale_fit;

static int scale_gap(double x, void *ctx, double *fx)
{
    scale_fit *f = ctx;
    kresult r;
    f->mp->sm_scale = exp(x);
    if (model_kernel(f->cfg, f->sched, f->p, f->k, f->mp, f->sc, &r, NULL, f->e))
        return -1;
    *fx = r.cycles > 0 ? log(r.cycles / f->target) : -50; /* (no work: far below any target) */
    return 0;
}

static int fit_sm_scale(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k, model_params *mp,
                        const model_scenario *sc, double target, ge_err *e)
{
    root_opts o = {.x0 = 0, .slope = 1, .lo = log(0.125), .hi = log(8.0), .ftol = 1e-6, .xtol = 1e-4};
    if (!(target > 0)) { /* nothing to match: the smallest scale */
        mp->sm_scale = exp(o.lo);
        return 0;
    }
    scale_fit f = {cfg, sched, p, k, mp, sc, target, e};
    double x;
    if (root_nondecreasing(scale_gap, &f, &o, &x, NULL, e))
        return -1;
    mp->sm_scale = exp(x);
    return 0;
}

static double stratified_cv(const prof_kernel *pk, const double *per_cluster)
{
    double W = 0, v = 0;
    for (uint32_t c = 0; c < pk->nclusters; c++)
        W += pk->clusters[c].weight;
    for (uint32_t c = 0; c < pk->nclusters && W > 0; c++) {
        if (per_cluster[c] <= 0)
            continue;
        double f = pk->clusters[c].weight / W;
        v += f * f * pk->clusters[c].cv_insts * pk->clusters[c].cv_insts / per_cluster[c];
    }
    return sqrt(v);
}

/* Temporal sampling (trim.h): the sample at two trim levels, or off. */
typedef struct {
    int on;
    double dropped[2];   /* warp instructions each level drops */
    ws_cta *cta[2];      /* n trimmed copies per level */
    const ws_cta **ptr[2];
} trimmed;

static void trimmed_free(trimmed *t, size_t n)
{
    for (int l = 0; l < 2; l++) {
        for (size_t i = 0; t->cta[l] && i < n; i++)
            ws_cta_free(&t->cta[l][i]);
        free(t->cta[l]);
        free(t->ptr[l]);
    }
    memset(t, 0, sizeof *t);
}

/* When the sample holds more than `budget` warp instructions, trim it to
 * about that (level 1, keep k2 iterations) and to half as many iterations
 * (level 0, k1 = k2 / 2), unless that drops too little to pay for the
 * extra run.  *loops: the sample's loops, found on first need and shared
 * by the caller's calls (it frees them). */
static int trim_sample(const ws_cta **pick, size_t n, double budget, est_loops **loops, trimmed *t, ge_err *e)
{
    memset(t, 0, sizeof *t);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += (double)pick[i]->ninst;
    if (budget <= 0 || total <= budget)
        return 0;
    if (!*loops && !(*loops = est_loops_find(pick, n, e)))
        return -1;
    const est_loops *l = *loops;
    /* the largest keep whose trimmed sample fits the budget (at least 4) */
    uint32_t lo = EST_TRIM_MIN_KEEP, hi = 1u << 24;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (total - est_loops_dropped(l, mid) <= budget)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t keep[2] = {lo / 2, lo};
    t->dropped[0] = est_loops_dropped(l, keep[0]);
    t->dropped[1] = est_loops_dropped(l, keep[1]);
    int rc = 0;
    if (t->dropped[1] >= EST_TRIM_MIN_DROP * total && t->dropped[0] > t->dropped[1]) {
        t->on = 1;
        for (int v = 0; v < 2 && !rc; v++) {
            t->cta[v] = calloc(n, sizeof *t->cta[v]);
            t->ptr[v] = malloc(n * sizeof *t->ptr[v]);
            if (!t->cta[v] || !t->ptr[v]) {
                rc = ge_errf(e, "out of memory (trimming the sample)");
                break;
            }
            for (size_t i = 0; i < n && !rc; i++) {
                ws_cta_init(&t->cta[v][i]);
                rc = est_loops_trim(l, i, keep[v], &t->cta[v][i], e);
                t->ptr[v][i] = &t->cta[v][i];
            }
        }
    }
    if (rc)
        trimmed_free(t, n);
    return rc;
}

/* The share of kernel k's CTAs that run after the GPU's first generation:
 * they find in the L2 the lines that many SMs' CTAs touch (shared_lines.c),
 * which the other SMs have fetched by then and a lone sample SM never
 * fetches (sgemm_naive: every CTA of a grid column reads the same columns
 * of B).  The first generation finds them cold, and its lock-step CTAs
 * wait on each other's misses.  docs/hybrid.md, step 4. */
static double warm_share(const est_ctx *x, uint32_t k)
{
    double all = (double)x->p->k[k].nctas, first = model_resident_ctas(x->cfg, x->p, k);
    return all > first ? 1 - first / all : 0;
}

/* Put a kernel's shared lines sh into g's L2, at most as many as it holds. */
static void warm_shared(const est_ctx *x, sim_gpu *g, const u64set *sh)
{
    size_t cap = (size_t)x->cfg->l2.cache.size_bytes * x->cfg->l2.slices / 128;
    const uint8_t all = 0xf;
    uint64_t line;
    for (size_t i = 0, put = 0; i < sh->cap && put < cap; i++)
        if (u64set_at(sh, i, &line))
            put += sim_l2_preload(g, &line, &all, 1);
}

/* Run the sample, `delay` core cycles after the simulator's last kernel
 * ended (sim_idle); with `warm` (the kernel's shared lines), on an L2 that
 * holds them besides what earlier kernels left. */
static int run_sample(est_ctx *x, sim_gpu *g, uint32_t k, const ws_cta **ctas, size_t n, const u64set *warm,
                      uint64_t delay, double *t, ge_err *e)
{
    kresult r;
    if (warm)
        sim_l2_flush(g);
    est_warm_l2(x, g, k, ctas, n);
    if (warm)
        warm_shared(x, g, warm);
    sim_idle(g, delay);
    if (est_sim_ctas(g, x->p, k, ctas, n, &r, e))
        return -1;
    const sim_detail *d = sim_last_detail(g);
    t[T_CYCLES] = r.cycles;
    t[T_L1_SECTORS] = d->l1_load_sectors;
    t[T_L1_HITS] = d->l1_load_hits;
    t[T_L2_SECTORS] = d->l2_load_sectors;
    t[T_L2_HITS] = d->l2_load_hits;
    t[T_ROW_HITS_R] = d->dram_row_hits - d->dram_row_hits_w;
    t[T_ROWS_R] = d->dram_row_accesses - d->dram_row_accesses_w;
    t[T_ROW_HITS_W] = d->dram_row_hits_w;
    t[T_ROWS_W] = d->dram_row_accesses_w;
    t[T_LAT_SUM] = d->mem_load_latency * d->mem_load_lines;
    t[T_LAT_LINES] = d->mem_load_lines;
    est_tail_weighted(d, x->p->k[k].nctas, x->cfg->gpu.sm_count, &t[T_L1W_SECTORS], &t[T_L1W_HITS]);
    t[T_EARLY] = est_early_extra(d, r.cycles);
    t[T_SPREAD] = est_first_spread(d);
    return 0;
}

/* Simulate the sample on g into t[T_N], each run `delay` cycles late
 * (run_sample).  Trimmed, at both levels, each from an L2 holding only
 * what earlier kernels left (not the other level's data): every total
 * grows about linearly in the instructions kept, so the difference between
 * the levels gives what the instructions the longer level drops add --
 * phase by phase, the epilogue's share of the traffic shrinking as it does
 * in the whole sample.  *share (optional) gets the
 * fraction of the cycles so extrapolated (0 untrimmed), *fall (optional)
 * how far the L1 hit rate of the load sectors the longer level adds lies
 * below the shorter level's rate (0 untrimmed).  A start-up's cold misses
 * make the shorter level's rate the lower; a later rate that falls means
 * the loops thrash the L1 more as they run, which the extrapolation does
 * not carry on. */
static int measure(est_ctx *x, sim_gpu *g, uint32_t k, const trimmed *tr, const ws_cta **pick, size_t n,
                   const u64set *warm, uint64_t delay, double *t, double *share, double *fall, ge_err *e)
{
    if (share)
        *share = 0;
    if (fall)
        *fall = 0;
    if (!tr->on)
        return run_sample(x, g, k, pick, n, warm, delay, t, e);
    double a[T_N];
    sim_l2_flush(g);
    if (run_sample(x, g, k, tr->ptr[0], n, warm, delay, a, e))
        return -1;
    sim_l2_flush(g);
    if (run_sample(x, g, k, tr->ptr[1], n, warm, delay, t, e))
        return -1;
    double f = tr->dropped[1] / (tr->dropped[0] - tr->dropped[1]), c2 = t[T_CYCLES];
    if (fall && a[T_L1_SECTORS] > 0 && t[T_L1_SECTORS] > a[T_L1_SECTORS])
        *fall = a[T_L1_HITS] / a[T_L1_SECTORS] -
                (t[T_L1_HITS] - a[T_L1_HITS]) / (t[T_L1_SECTORS] - a[T_L1_SECTORS]);
    est_extrapolate(a, t, f);
    if (t[T_SPREAD] > 0 && c2 > 0) /* trimmed CTAs end sooner; their spread is taken to grow with them */
        t[T_SPREAD] *= t[T_CYCLES] / c2;
    if (share && t[T_CYCLES] > 0)
        *share = (t[T_CYCLES] - c2) / t[T_CYCLES];
    return 0;
}

/* Start phases (docs/hybrid.md step 2): a lone SM's CTAs, started in lock
 * step, can settle into one of two timing modes, and where the start falls
 * against the L2, crossbar and DRAM clocks and the refresh schedule picks
 * the mode -- one DRAM tick can switch it (sgemm_naive at 160 x 160 on
 * RTX 2060 under LRR: the estimate 119,797 cycles with the sample started
 * as the simulator stands, 83,120 with it started 2 cycles later; the full
 * GPU 83,219).  A GPU's SMs start at many phases and average the modes.
 * So the sample's alone run st, made at no delay, runs again with its
 * starts EST_PHASE_STEP, 2 EST_PHASE_STEP, ... cycles later, `phases` runs
 * in all, and st becomes their mean; *spread gets half the range of their
 * cycles over the mean (an error term), *share the mean share of the
 * cycles that trimming extrapolated. */
static int average_phases(est_ctx *x, sim_gpu *g, uint32_t k, const trimmed *tr, const ws_cta **pick, size_t n,
                          uint32_t phases, double *st, double *share, double *spread, ge_err *e)
{
    double sum[T_N], lo = st[T_CYCLES], hi = st[T_CYCLES], sh = *share;
    memcpy(sum, st, sizeof sum);
    for (uint32_t i = 1; i < phases; i++) {
        double t[T_N], s;
        sim_l2_flush(g); /* not the last run's lines (run_sample warms it again) */
        if (measure(x, g, k, tr, pick, n, NULL, (uint64_t)i * EST_PHASE_STEP, t, &s, NULL, e))
            return -1;
        for (int j = 0; j < T_N; j++)
            sum[j] += t[j];
        sh += s;
        lo = fmin(lo, t[T_CYCLES]);
        hi = fmax(hi, t[T_CYCLES]);
    }
    for (int j = 0; j < T_N; j++)
        st[j] = sum[j] / phases;
    *share = sh / phases;
    *spread = st[T_CYCLES] > 0 ? (hi - lo) / (2 * st[T_CYCLES]) : 0;
    return 0;
}

/* Fit the SM-side parameters of mp to the sample's alone run st: the load
 * latency it measured, the early generations' extra time less the model's
 * cold-I-cache start-up (which is part of it), then its cycles (the model
 * of the sample's scenario sc must give them). */
static int calibrate(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k, model_params *mp,
                     const model_scenario *sc, const double *st, ge_err *e)
{
    kresult r;
    model_detail md;
    mp->latency_scale = mp->sm_scale = 1;
    mp->early_extra = 0;
    if (model_kernel(cfg, sched, p, k, mp, sc, &r, &md, e))
        return -1;
    if (st[T_LAT_LINES] > 0 && md.load_latency > 0)
        mp->latency_scale = st[T_LAT_SUM] / st[T_LAT_LINES] / md.load_latency;
    mp->early_extra = fmax(0, st[T_EARLY] - md.startup);
    return fit_sm_scale(cfg, sched, p, k, mp, sc, st[T_CYCLES], e);
}

/* Whether the background run can move the estimate: it only measures the
 * L2 and DRAM row-buffer hit rates under load.  The calibration is made
 * with each corner of their range ({0, 1} x {0, 1}) and the model's own
 * rates; when the whole kernel's cycles differ by less than
 * EST_BG_SENSITIVITY between them, the kernel does not depend on what the
 * run would measure (compute-bound kernels, hot atomics bound by one L2
 * slice), and it is not made: it is half or more of a sampled kernel's
 * simulation time.  The far corners go first, and the cases stop as soon
 * as the cycles differ by that much (the answer cannot change then: each
 * fit is 5-6 model evaluations, a large part of a hybrid estimate's time
 * on kernels with costly models).  When the run is
 * not needed, *own gets the fit with the model's own rates, the one the
 * caller would make next. */
static int bg_matters(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k,
                      const model_params *base, const model_scenario *sc, const double *st, int *matters,
                      model_params *own, ge_err *e)
{
    static const int order[5] = {0, 3, 1, 2, 4}; /* bit 0: L2 hit, bit 1: row hit; 4: the model's own */
    double lo = HUGE_VAL, hi = 0;
    *matters = 0;
    for (int i = 0; i < 5 && !*matters; i++) {
        int c = order[i];
        model_params mp = *base;
        if (c < 4) {
            mp.l2_hit = c & 1;
            mp.row_hit = c >> 1;
        }
        kresult r;
        if (calibrate(cfg, sched, p, k, &mp, sc, st, e) || model_kernel(cfg, sched, p, k, &mp, NULL, &r, NULL, e))
            return -1;
        lo = fmin(lo, r.cycles);
        hi = fmax(hi, r.cycles);
        *matters = !(lo > 0 && hi / lo - 1 < EST_BG_SENSITIVITY);
        if (c == 4)
            *own = mp;
    }
    return 0;
}

/* The DRAM row-buffer hit rates of the background run: the reads' and,
 * from EST_ROW_MIN_WRITES write bursts on, the writes' apart.  A sample's
 * stores mostly stay in the L2 while it runs, so its few write-backs would
 * weigh far less in a rate over all bursts than the kernel's do on the GPU,
 * where they can be half the DRAM traffic and open rows far more often
 * (transpose_tiled at 2048 x 2048 on RTX 2060: reads 0.80 and writes 0.51
 * in the full run, 0.66 together; the background's 2,086 read and 128 write
 * bursts, 0.81 and 0.53, made 0.84 together).  The model weighs each rate by
 * its own read and write bursts. */
static void background_row_hits(const double *bt, model_params *mp)
{
    mp->row_hit = bt[T_ROWS_R] > 0 ? bt[T_ROW_HITS_R] / bt[T_ROWS_R] : bt[T_ROW_HITS_W] / bt[T_ROWS_W];
    mp->row_hit_w = bt[T_ROWS_W] >= EST_ROW_MIN_WRITES ? bt[T_ROW_HITS_W] / bt[T_ROWS_W] : -1;
}

/* Whether the background run must see the sample's loops whole rather than
 * trimmed: when a row-hit rate EST_ERR_ROW_DROP below the model's own moves
 * the kernel's modelled cycles (fitted to the alone run, with the model's
 * own rates) by EST_BG_WHOLE_ROW or more.  Over a long grid-stride loop the
 * CTAs drift out of the step they launched in, neighbouring CTAs stop
 * sharing DRAM rows, and the rate falls as the loop runs; a trimmed run
 * sees only its lock-step start, and the linear extrapolation of its totals
 * keeps that rate (reduction at 16 M elements on RTX 2060: 0.815 trimmed,
 * 0.678 whole, the full GPU 0.691; docs/hybrid.md step 2, "Trimmed"). */
static int bg_runs_whole(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k,
                         const model_params *base, const model_scenario *sc, const double *st, int *whole, ge_err *e)
{
    model_params mp = *base;
    kresult r, lo;
    *whole = 0;
    if (calibrate(cfg, sched, p, k, &mp, sc, st, e) || model_kernel(cfg, sched, p, k, &mp, NULL, &r, NULL, e))
        return -1;
    if (!(r.cycles > 0) || r.dram_row_hit_rate <= 0)
        return 0;
    mp.row_hit = fmax(0, r.dram_row_hit_rate - EST_ERR_ROW_DROP);
    if (model_kernel(cfg, sched, p, k, &mp, NULL, &lo, NULL, e))
        return -1;
    *whole = fabs(lo.cycles - r.cycles) / r.cycles >= EST_BG_WHOLE_ROW;
    return 0;
}

/* The error term of a row-hit rate measured by the background run: the
 * relative change of the kernel's modelled cycles (`cycles` with mp) when
 * that rate is EST_ERR_ROW_DROP lower.  The mirrors replay the sample's
 * requests next to its own lines, so they open the rows the sample reads
 * next, and the rate they give is higher than the full GPU's wherever the
 * other SMs' data lies elsewhere (docs/hybrid.md, "Row-buffer locality of
 * the background"); a kernel whose time follows the rate is at risk by as
 * much as the rate moves it. */
static int row_sensitivity(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k,
                           const model_params *mp, double cycles, double *term, ge_err *e)
{
    model_params lo = *mp;
    lo.row_hit = fmax(0, mp->row_hit - EST_ERR_ROW_DROP);
    if (lo.row_hit_w >= 0)
        lo.row_hit_w = fmax(0, mp->row_hit_w - EST_ERR_ROW_DROP);
    kresult r;
    if (model_kernel(cfg, sched, p, k, &lo, NULL, &r, NULL, e))
        return -1;
    *term = cycles > 0 ? fabs(r.cycles - cycles) / cycles : 0;
    return 0;
}

/* The error term of where the last wave runs (model.h cta_spread): the
 * sample measures its own SM's first-generation spread, not how far apart
 * the GPU's SMs end, and the full runs place some tails between the even
 * and the lock-step placement (k-means at 32 K on RTX 2060 under LRR: 6-7
 * CTAs on the busiest SM, where even gives 5 and lock-step 8).  The term
 * is half the relative difference of the cycles under the two placements;
 * 0 where the model's conditions leave one (more waves, shared atomics,
 * LRR's memory-bound tail, or a kernel of one wave). */
static int placement_term(const gpu_config *cfg, const char *sched, const profile *p, uint32_t k,
                          const model_params *mp, double cycles, double *term, ge_err *e)
{
    *term = 0;
    if (mp->cta_spread < 0 || !(cycles > 0))
        return 0;
    model_params lock = *mp, even = *mp;
    lock.cta_spread = 0;
    even.cta_spread = HUGE_VAL;
    kresult rl, re;
    if (model_kernel(cfg, sched, p, k, &lock, NULL, &rl, NULL, e) ||
        model_kernel(cfg, sched, p, k, &even, NULL, &re, NULL, e))
        return -1;
    *term = EST_ERR_PLACEMENT_WEIGHT * fabs(rl.cycles - re.cycles) / cycles;
    return 0;
}

/* The error term of the heaviest-CTA floor (model.h t_tail): when the
 * floor sets the SM's time, the estimate rests on the model's proxy for
 * that CTA's time alone (its largest work ratio to the mean CTA times the
 * mean CTA's time), which the sample does not check -- on bfs's irregular
 * levels it is 50% high on V100 and about right on GTX 480 for the same
 * CTA (docs/hybrid.md, "Where the error is").  The term is the share of
 * the cycles the floor adds over the CTA generations' own time. */
static double tail_term(const model_detail *d, double cycles)
{
    if (!(cycles > 0) || d->t_tail <= d->t_gens)
        return 0;
    return fmin(1, (d->t_tail - d->t_gens) / cycles);
}

/* The error term of the launch's prologue burst (model.h burst_extra):
 * a sample on one SM issues no GPU-wide burst, so the cycles the model adds
 * for it are not checked by the simulation (blackscholes on V100: 9% of
 * the estimate, which is still 13% low); the term is their share. */
static double burst_term(const model_detail *d, double cycles)
{
    return cycles > 0 ? fmin(1, d->burst_extra / cycles) : 0;
}

/* Sample kernel k, simulate the sample and fit a calibration to it. */
static int sample_and_fit(est_ctx *x, uint32_t k, const char *sched, est_calibration *cal, uint64_t *nsampled,
                          ge_err *e)
{
    const gpu_config *cfg = x->cfg;
    const profile *p = x->p;
    const prof_kernel *pk = &p->k[k];
    ws_kernel wk;
    prof_kernel_ws(p, pk, &wk);
    occupancy occ;
    if (occ_compute(cfg, &wk, &occ, e))
        return -1;
    uint32_t sms = x->o->sample_sms ? x->o->sample_sms : 1;
    if (sms > cfg->gpu.sm_count)
        sms = cfg->gpu.sm_count;
    /* Each sampled SM gets what a real SM would run, capped at `rounds`
     * generations: a kernel of less than `rounds` waves is then sampled at
     * its true per-SM load, a larger one at full occupancy.  By default 2
     * rounds, and 4 for a kernel of EST_LONG_GENERATIONS or more: an SM's
     * first generation starts its CTAs in lockstep, so their loads and
     * their arithmetic do not overlap as they do once the CTAs drift apart
     * (hotspot at 512 x 512 on RTX 2060: 6901 cycles for the first of 4
     * CTAs, about 1900 for each later one).  sm_scale spreads what the
     * sample measured over every generation, so the first generation must
     * not weigh much more in the sample than in the kernel. */
    uint64_t per_sm = (pk->nctas + cfg->gpu.sm_count - 1) / cfg->gpu.sm_count;
    uint64_t rounds = x->o->sample_rounds;
    if (!rounds)
        rounds = per_sm >= (uint64_t)EST_LONG_GENERATIONS * occ.ctas_per_sm ? 4 : 2;
    uint64_t cap = (uint64_t)occ.ctas_per_sm * rounds;
    size_t want = (size_t)sms * (per_sm < cap ? per_sm : cap);
    const ws_cta **pick = malloc((pk->nsample ? pk->nsample : 1) * sizeof *pick);
    double *per_cluster = calloc(pk->nclusters ? pk->nclusters : 1, sizeof *per_cluster);
    trimmed tr = {0}, trb = {0};
    est_loops *loops = NULL;
    size_t n = 0;
    int rc = -1;
    if (!pick || !per_cluster) {
        ge_errf(e, "out of memory (sample)");
        goto out;
    }
    n = choose(pk, want, pick, per_cluster);
    if (n == 0) {
        ge_errf(e, "kernel %s: the profile holds no sample CTAs", pk->name);
        goto out;
    }
    double budget = (double)x->o->sample_insts * sms;
    kresult mr;
    model_params_default(&cal->params);
    cal->params.sampled_runs = 1;
    /* The sample alone: it calibrates the SM side -- L1 behaviour, the
     * unloaded latency path and the SM's scheduling -- and the model adds
     * the contention of the other SMs.  Trimmed, while its L1 hit rate
     * falls as its loops run (measure's `fall`: GTO warps drifting apart
     * over an 8 KB L1), the budget doubles, up to EST_TRIM_MAX_GROWTH
     * times the option's or the whole sample. */
    sim_gpu *g = est_sampled_sim(x, sms, 0, e);
    if (!g)
        goto out;
    double st[T_N], share, fall;
    for (;;) {
        if (trim_sample(pick, n, budget, &loops, &tr, e) || measure(x, g, k, &tr, pick, n, NULL, 0, st, &share, &fall, e))
            goto out;
        if (!tr.on || fall <= EST_TRIM_L1_DRIFT || budget >= EST_TRIM_MAX_GROWTH * (double)x->o->sample_insts * sms)
            break;
        trimmed_free(&tr, n);
        budget *= 2;
        sim_l2_flush(g); /* not the lines of the attempt just dropped (run_sample warms it again) */
    }
    /* The same sample started at other phases (average_phases).  (Not
     * after a kernel this simulator ran whole, whose L2 the runs' flushes
     * would lose, as for the warm run below.) */
    double phase = 0;
    if (x->o->sample_phases > 1 && g != x->ran_prev &&
        average_phases(x, g, k, &tr, pick, n, x->o->sample_phases, st, &share, &phase, e))
        goto out;
    /* The kernel's CTAs after the first generation meet a warm L2: the
     * sample's totals are those of a cold and a warm run, weighed by the
     * CTAs each stands for.  (Not after a kernel this simulator ran whole,
     * whose L2 the warm run's flush would lose.) */
    double w = g == x->ran_prev ? 0 : warm_share(x, k);
    const u64set *sh = w > 0 ? est_kernel_shared_lines(x, k, e) : NULL;
    if (w > 0 && !sh)
        goto out;
    double warm = 0; /* error term: the weighing is an interpolation between the two runs */
    if (sh && sh->count) {
        double sw[T_N], share_w, cold = st[T_CYCLES];
        if (measure(x, g, k, &tr, pick, n, sh, 0, sw, &share_w, NULL, e))
            goto out;
        for (int i = 0; i < T_N; i++)
            st[i] = (1 - w) * st[i] + w * sw[i];
        share = (1 - w) * share + w * share_w;
        if (st[T_CYCLES] > 0)
            warm = fmin(w, 1 - w) * fabs(sw[T_CYCLES] - cold) / st[T_CYCLES];
    }
    if (st[T_L1_SECTORS] > 0) {
        cal->params.l1_hit = st[T_L1_HITS] / st[T_L1_SECTORS];
        double below = st[T_L2_SECTORS] / st[T_L1_SECTORS];
        cal->params.l1_filter = below < 1 ? 1 - below : 0;
    }
    cal->params.cta_spread = st[T_SPREAD];
    model_scenario sc = {sms, (double)n, per_cluster, 0, 1};
    int matters = 0, fitted = 0;
    if (x->o->background) {
        model_params own;
        if (bg_matters(cfg, sched, p, k, &cal->params, &sc, st, &matters, &own, e))
            goto out;
        if (!matters) /* the fit below, made already */
            cal->params = own, fitted = 1;
    }
    if (matters) {
        /* The sample with the other SMs' traffic replayed around it: the
         * memory system is loaded as on the full GPU, so its L2 and DRAM
         * rates hold for the whole kernel. */
        sim_gpu *gl = est_sampled_sim(x, sms, 1, e);
        int whole = 0;
        if (!gl || (!sh && !est_kernel_shared_lines(x, k, e)) ||
            (tr.on && bg_runs_whole(cfg, sched, p, k, &cal->params, &sc, st, &whole, e)) ||
            trim_sample(pick, n, whole ? 0 : budget / 2, &loops, &trb, e))
            goto out;
        double bt[T_N];
        if (measure(x, gl, k, &trb, pick, n, NULL, 0, bt, NULL, NULL, e))
            goto out;
        if (bt[T_L2_SECTORS] > 0)
            cal->params.l2_hit = bt[T_L2_HITS] / bt[T_L2_SECTORS];
        if (bt[T_ROWS_R] + bt[T_ROWS_W] > 0)
            background_row_hits(bt, &cal->params);
    }
    if (!fitted && calibrate(cfg, sched, p, k, &cal->params, &sc, st, e))
        goto out;
    /* the sample's L1 rates on the GPU's dealing (dealing.c), each CTA
     * weighed by the kernel's CTAs it stands for (est_tail_weighted) */
    double resident = (double)(per_sm < occ.ctas_per_sm ? per_sm : occ.ctas_per_sm);
    double tail = 0;
    if (st[T_L1_SECTORS] > 0 && st[T_L1W_SECTORS] > 0)
        tail = st[T_L1W_HITS] / st[T_L1W_SECTORS] - st[T_L1_HITS] / st[T_L1_SECTORS];
    est_dealing_shift(&cal->params, model_l1_dealing_shift(cfg, sched, p, k, resident) + tail,
                      st[T_L1_SECTORS] > 0 ? st[T_L2_SECTORS] / st[T_L1_SECTORS] : 0);
    cal->sample_cycles = st[T_CYCLES];
    cal->sample_ctas = (double)n;
    double samp = stratified_cv(pk, per_cluster);
    double mod = EST_ERR_MODEL_WEIGHT * fabs(log(cal->params.sm_scale > 0 ? cal->params.sm_scale : 1));
    double trim = EST_ERR_TRIM_WEIGHT * share;
    /* est_hybrid_kernel adds the row-hit and floor terms */
    cal->error = sqrt(samp * samp + mod * mod + trim * trim + warm * warm + phase * phase);
    cal->error_warm = warm;
    cal->error_phase = phase;
    cal->ctas_per_sm = occ.ctas_per_sm;
    /* the uncalibrated model here, for the reuse rule */
    model_params base;
    model_params_default(&base);
    model_detail md;
    if (model_kernel(cfg, sched, p, k, &base, NULL, &mr, &md, e))
        goto out;
    cal->model_l1_hit = md.l1_hit;
    cal->model_l1_filter = md.l1_filter;
    cal->model_l2_hit = md.l2_hit;
    cal->model_latency = md.load_latency;
    cal->model_l1_inflight = md.l1_inflight;
    cal->model_inflight_binds = est_inflight_binds(&md);
    cal->l1_sets = cfg->l1d.sets;
    cal->l1_ways = cfg->l1d.ways;
    cal->l1_line = cfg->l1d.line_bytes;
    snprintf(cal->l1_set_index, sizeof cal->l1_set_index, "%s", cfg->l1d.set_index);
    snprintf(cal->l2_set_index, sizeof cal->l2_set_index, "%s", cfg->l2.cache.set_index);
    snprintf(cal->scheduler, sizeof cal->scheduler, "%s", sched);
    cal->sm_signature = est_sm_signature(cfg);
    cal->valid = 1;
    *nsampled = n;
    rc = 0;
out:
    trimmed_free(&tr, n);
    trimmed_free(&trb, n);
    est_loops_free(loops);
    free(pick);
    free(per_cluster);
    return rc;
}

int est_hybrid_kernel(est_ctx *x, uint32_t k, const est_calibration *reuse, est_kernel *out, ge_err *e)
{
    const gpu_config *cfg = x->cfg;
    const profile *p = x->p;
    const char *sched = x->o->scheduler ? x->o->scheduler : cfg->sm.scheduler;
    est_calibration cal;
    memset(&cal, 0, sizeof cal);
    uint64_t nsampled = 0;

    if (reuse && reuse->valid) {
        cal = *reuse;
        /* carry the measured rates over, shifted by the model's own change */
        model_detail d;
        kresult tmp;
        model_params base;
        model_params_default(&base);
        if (model_kernel(cfg, sched, p, k, &base, NULL, &tmp, &d, e))
            return -1;
        if (cal.params.l1_hit >= 0)
            cal.params.l1_hit = fmin(1, fmax(0, cal.params.l1_hit + d.l1_hit - reuse->model_l1_hit));
        if (cal.params.l1_filter >= 0)
            cal.params.l1_filter = fmin(1, fmax(0, cal.params.l1_filter + d.l1_filter - reuse->model_l1_filter));
        if (cal.params.l2_hit >= 0)
            cal.params.l2_hit = fmin(1, fmax(0, cal.params.l2_hit + d.l2_hit - reuse->model_l2_hit));
        if (cal.params.load_latency >= 0)
            cal.params.load_latency = fmax(1, cal.params.load_latency + d.load_latency - reuse->model_latency);
    } else if (sample_and_fit(x, k, sched, &cal, &nsampled, e)) {
        return -1;
    }
    model_detail d;
    if (model_kernel(cfg, sched, p, k, &cal.params, NULL, &out->r, &d, e))
        return -1;
    if (!(reuse && reuse->valid)) { /* a fresh calibration's last terms (a reused one carries them) */
        double row = 0, place = 0, tail = tail_term(&d, out->r.cycles), burst = burst_term(&d, out->r.cycles);
        /* a row-hit rate the background run measured */
        if (cal.params.row_hit >= 0 && row_sensitivity(cfg, sched, p, k, &cal.params, out->r.cycles, &row, e))
            return -1;
        if (placement_term(cfg, sched, p, k, &cal.params, out->r.cycles, &place, e))
            return -1;
        cal.error = sqrt(cal.error * cal.error + row * row + tail * tail + burst * burst + place * place);
        cal.error_row = row;
        cal.error_burst = burst;
        cal.error_placement = place;
    }
    out->r.sampled_ctas = nsampled;
    out->r.error_estimate = cal.error;
    out->cal = cal;
    out->reused = reuse && reuse->valid;
    return 0;
}
