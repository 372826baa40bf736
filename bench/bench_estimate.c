/*
 * bench_estimate.c - accuracy and speed of the estimator's three modes.
 *
 * For every suite workload at its realistic size, on three configs (GTX 480,
 * V100, RTX 2060 by default), with the LRR and GTO schedulers and three L1
 * sizes (the config's, half and double, by associativity), it estimates every
 * kernel in model, hybrid and full mode and reports:
 *   - per kernel and design point: cycles of each mode and the hybrid's own
 *     error estimate (CSV, --csv FILE);
 *   - per workload: MAPE and maximum error of model and hybrid against full
 *     over kernels x design points, and the Spearman rank correlation of the
 *     workload's total cycles across its design points (the summary also gives
 *     the hybrid's with cycles rounded to four significant digits, so that
 *     near-ties rank as ties);
 *   - how well the hybrid's error estimate brackets its measured error;
 *   - how far the model's and the hybrid's CPI stacks are from the full
 *     runs' (the share of cycles booked to another category);
 *   - CPU time of each mode per design point, and the speedups.
 * One-time costs (front-end run and profiling) are reported separately.
 * Full mode simulates a profile that kept every CTA, so the front-end is not
 * re-run per point; hybrid and model use the normal (sampled) profile.
 * Times are thread CPU seconds, so they do not depend on what else runs.
 *
 * With --reuse the hybrid runs as `gpuest sweep --mode hybrid` would: the
 * points of one config and scheduler form a group that runs in order (L1
 * half, config's, double) on one thread, and a kernel's calibration from an
 * earlier point of the group is reused where the reuse rule allows
 * (docs/hybrid.md); errors and times are then those of the sweep.
 *
 *   bench_estimate [--workloads a,b] [--configs x,y] [--threads N] [--csv FILE]
 *                  [--size NAME=N[,NAME=N...]]   (sizes other than the defaults)
 *                  [--reuse]                     (hybrid reuses calibrations as a sweep does)
 *                  [--background 0|1|2] [--sample-sms N] [--sample-rounds N] [--sample-insts N]
 *                  [--sample-phases N]           (hybrid-mode options)
 */
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "startup_env.h"
#include "config_registry.h"
#include "estimate.h"
#include "profiler.h"
#include "suite.h"
#include "suite_source.h"

#define NSCHED 2
#define NL1 3
static const char *const scheds[NSCHED] = {"lrr", "gto"};
static const double l1_factor[NL1] = {0.5, 1.0, 2.0};
static int background = 1, sample_sms = 1, sample_rounds = 0, sample_insts = -1; /* 0, -1: the estimator's default */
static int sample_phases;     /* 0: the estimator's default */
static const char *size_list; /* --size: "name=N,name=N" */
static int reuse;             /* --reuse: the hybrid's points run as sweep groups */

/* The size for workload w: its entry in --size, else its default. */
static uint32_t size_for(const wl_desc *w)
{
    size_t n = strlen(w->name);
    for (const char *p = size_list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, w->name, n) && p[n] == '=')
            return (uint32_t)strtoul(p + n + 1, NULL, 10);
    return w->default_size;
}

/* --size must be a list of NAME=N with suite workload names and N > 0. */
static int sizes_valid(const char *list)
{
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        const char *eq = strchr(p, '=');
        const wl_desc *const *w = suite_all();
        while (eq && *w && (strlen((*w)->name) != (size_t)(eq - p) || strncmp(p, (*w)->name, eq - p)))
            w++;
        char *end;
        if (!eq || !*w || strtoul(eq + 1, &end, 10) == 0 || (*end && *end != ','))
            return 0;
    }
    return 1;
}

/* v rounded to `digits` significant digits.  Spearman's rank correlation
 * orders exact values, so two design points whose estimates differ by a few
 * cycles in hundreds of thousands (the streams' LRR and GTO points, whose
 * DRAM bound is the same) rank by chance; rounded, they tie and take their
 * mean rank (GSL averages tied ranks). */
static double round_sig(double v, int digits)
{
    if (!(v > 0))
        return v;
    double scale = pow(10, digits - 1 - floor(log10(v)));
    return round(v * scale) / scale;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    gpu_config cfg;
    const char *cfg_name;
    int sched;
    uint32_t l1_bytes;
    /* per kernel cycles of each mode */
    double *model, *hybrid, *full;
    double *est;       /* per kernel: the hybrid's error estimate */
    double *share;     /* per kernel: model's and hybrid's CPI-stack shares, [k][2][KR_STALL_COUNT] */
    double *cpi;       /* per kernel: CPI-stack distance to full of model and hybrid, [k][2] */
    double t_model, t_hybrid, t_full;
    double err_est_hybrid; /* cycle-weighted error estimate */
    unsigned char *reused; /* per kernel: the hybrid reused a calibration (of an earlier launch or point) */
    char error[GE_ERR_MAX];
} point;

/* A kernel's CPI stack as shares of its scheduler-cycles. */
static void stall_shares(const kresult *r, double *out)
{
    double tot = 0;
    for (int i = 0; i < KR_STALL_COUNT; i++)
        tot += r->stall[i];
    for (int i = 0; i < KR_STALL_COUNT; i++)
        out[i] = tot > 0 ? r->stall[i] / tot : 0;
}

/* How far two CPI stacks are apart: half the sum of the shares' absolute
 * differences (the share of cycles booked to another category; 0 the same
 * stack, 1 no category in common). */
static double stack_distance(const double *a, const double *b)
{
    double d = 0;
    for (int i = 0; i < KR_STALL_COUNT; i++)
        d += fabs(a[i] - b[i]);
    return d / 2;
}

typedef struct {
    const profile *p, *pall;
    est_cache *cache; /* p's, shared by its points as gpuest sweep shares it */
    point *pts;
    size_t npts, next;      /* next: the next group */
    size_t *group;          /* [ngroups + 1]: first point of each group, then npts */
    size_t ngroups;
    pthread_mutex_t lock;
} job;

static int set_l1(gpu_config *c, double f)
{
    uint32_t ways = (uint32_t)llround(c->l1d.ways * f);
    if (ways < 1)
        return -1;
    c->l1d.ways = ways;
    c->l1d.size_bytes = c->l1d.sets * ways * c->l1d.line_bytes;
    ge_err e;
    return gcfg_validate(c, &e);
}

/* cals (p->nkernels entries, or NULL): the group's calibrations (--reuse). */
static void run_point(const profile *p, const profile *pall, est_cache *cache, est_calibration *cals, point *pt)
{
    ge_err e;
    est_options o;
    est_options_default(&o);
    o.scheduler = scheds[pt->sched];
    o.background = background;
    o.cache = cache;
    o.sample_sms = (uint32_t)sample_sms;
    if (sample_rounds)
        o.sample_rounds = (uint32_t)sample_rounds;
    if (sample_insts >= 0)
        o.sample_insts = (uint64_t)sample_insts;
    if (sample_phases)
        o.sample_phases = (uint32_t)sample_phases;
    est_kernel *r;
    double t0 = cpu_now();
    o.mode = EST_MODEL;
    if (est_profile(&pt->cfg, p, &o, NULL, &r, &e))
        goto fail;
    pt->t_model = cpu_now() - t0;
    for (uint32_t k = 0; k < p->nkernels; k++) {
        pt->model[k] = r[k].r.cycles;
        stall_shares(&r[k].r, pt->share + (size_t)k * 2 * KR_STALL_COUNT);
    }
    free(r);
    t0 = cpu_now();
    o.mode = EST_HYBRID;
    if (est_profile(&pt->cfg, p, &o, cals, &r, &e))
        goto fail;
    pt->t_hybrid = cpu_now() - t0;
    double w = 0, tot = 0;
    for (uint32_t k = 0; k < p->nkernels; k++) {
        pt->reused[k] = r[k].reused != 0;
        pt->hybrid[k] = r[k].r.cycles;
        pt->est[k] = r[k].r.error_estimate;
        stall_shares(&r[k].r, pt->share + ((size_t)k * 2 + 1) * KR_STALL_COUNT);
        w += r[k].r.error_estimate * r[k].r.cycles;
        tot += r[k].r.cycles;
    }
    pt->err_est_hybrid = tot > 0 ? w / tot : 0;
    free(r);
    t0 = cpu_now();
    o.mode = EST_FULL;
    if (est_profile(&pt->cfg, pall, &o, NULL, &r, &e))
        goto fail;
    pt->t_full = cpu_now() - t0;
    for (uint32_t k = 0; k < p->nkernels; k++) {
        pt->full[k] = r[k].r.cycles;
        double f[KR_STALL_COUNT];
        stall_shares(&r[k].r, f);
        for (int m = 0; m < 2; m++)
            pt->cpi[2 * k + m] = stack_distance(pt->share + ((size_t)k * 2 + m) * KR_STALL_COUNT, f);
    }
    free(r);
    return;
fail:
    snprintf(pt->error, sizeof pt->error, "%s", e.msg);
}

static void *worker(void *arg)
{
    job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t g = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (g >= j->ngroups)
            return NULL;
        est_calibration *cals = reuse ? calloc(j->p->nkernels ? j->p->nkernels : 1, sizeof *cals) : NULL;
        if (reuse && !cals) {
            fprintf(stderr, "bench_estimate: out of memory\n");
            exit(1);
        }
        for (size_t i = j->group[g]; i < j->group[g + 1]; i++)
            run_point(j->p, j->pall, j->cache, cals, &j->pts[i]);
        free(cals);
    }
}

static int build_profile(const wl_desc *w, size_t keep_all, profile *p, double *secs, ge_err *e)
{
    ws_source *src;
    wl_params wp = {size_for(w), 1};
    double t0 = cpu_now();
    if (suite_source_open(w, &wp, &src, e))
        return -1;
    prof_options po;
    prof_options_default(&po);
    if (keep_all)
        po.keep_all_bytes = keep_all;
    int rc = prof_build(src, &po, w->name, wp.size, 1, p, e);
    ws_close(src);
    *secs = cpu_now() - t0;
    return rc;
}

typedef struct {
    double sum_model, sum_hybrid, n, max_model, max_hybrid;
} errs;

/* How well the hybrid's error estimate brackets its measured error, over
 * the kernels it estimated from a sample (those it simulated whole report
 * 0 and are left out, although after a sampled kernel they are not exact
 * either: docs/hybrid.md, step 1): the share whose error is within the
 * estimate and within twice it, and the means of both. */
typedef struct {
    double n, within1, within2, sum_est, sum_err;
} est_check;

static void add_est(est_check *c, double hybrid, double full, double est)
{
    if (full <= 0 || est <= 0)
        return;
    double eh = fabs(hybrid - full) / full;
    c->n += 1;
    c->within1 += eh <= est;
    c->within2 += eh <= 2 * est;
    c->sum_est += est;
    c->sum_err += eh;
}

static void add_err(errs *s, double model, double hybrid, double full)
{
    if (full <= 0)
        return;
    double em = fabs(model - full) / full, eh = fabs(hybrid - full) / full;
    s->sum_model += em;
    s->sum_hybrid += eh;
    s->n += 1;
    if (em > s->max_model)
        s->max_model = em;
    if (eh > s->max_hybrid)
        s->max_hybrid = eh;
}

static int in_list(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return 1;
    return 0;
}

/* A whole number in lo..hi, or 0 (then *out is untouched). */
static int int_arg(const char *s, long lo, long hi, int *out)
{
    long long v;
    if (!bench_num(s, lo, hi, &v))
        return 0;
    *out = (int)v;
    return 1;
}

static const char HELP[] =
    "usage: bench_estimate [options]\n"
    "\n"
    "Accuracy and speed of gpuest estimate's three modes: every suite workload on three configs x LRR and GTO x\n"
    "three L1 sizes (the config's, half and double), each kernel estimated in model, hybrid and full mode.\n"
    "Prints per workload MAPE, maximum error and Spearman rank correlation of model and hybrid against full,\n"
    "the hybrid's error estimate, how far the model's and the hybrid's CPI stacks are from the full runs',\n"
    "CPU time per design point and the speedups (README, docs/hybrid.md).\n"
    "\n"
    "  --workloads a,b      suite workloads to run (default: all)\n"
    "  --configs x,y        shipped configs (default gtx480,v100,rtx2060; at most 8)\n"
    "  --threads N          worker threads over design points (1..64, default 1); times are thread CPU time\n"
    "  --csv FILE           one row per kernel and design point: model, hybrid and full cycles, error estimate\n"
    "  --size NAME=N,...    workload sizes other than the defaults (gpuest workloads lists what N means)\n"
    "  --reuse              the hybrid runs as a sweep: each config and scheduler's L1 sizes in order,\n"
    "                       reusing calibrations where the rule in docs/hybrid.md allows\n"
    "  --background 0|1|2   hybrid: the sample's run with the other SMs' traffic replayed: 0 never (rates from\n"
    "                       the model), 1 a few weighted mirrors where the rates matter (default), 2 one mirror\n"
    "                       per other SM (exact, slow)\n"
    "  --sample-sms N       hybrid: SMs simulated in detail (default 1)\n"
    "  --sample-rounds N    hybrid: CTA generations per sampled SM, at most (1..64; default 2, or 4 for long kernels)\n"
    "  --sample-insts N     hybrid: trim samples above N warp instructions per SM (0 = never; default 32768)\n"
    "  --sample-phases N    hybrid: start phases the sample runs alone at, averaged (1..16; default 1)\n"
    "  -h, --help           this text\n";

int main(int argc, char **argv)
{
    ge_startup_reexec(argv); /* as gpuest does (common/startup_env.h) */
    const char *wl_list = NULL, *csv_path = NULL;
    char cfg_list[256] = "gtx480,v100,rtx2060";
    int threads = 1;
    for (int i = 1; i < argc; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (!strcmp(argv[i], "--workloads") && i + 1 < argc)
            wl_list = argv[++i];
        else if (!strcmp(argv[i], "--configs") && i + 1 < argc)
            snprintf(cfg_list, sizeof cfg_list, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc && int_arg(argv[i + 1], 1, 64, &threads))
            i++;
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv_path = argv[++i];
        else if (!strcmp(argv[i], "--background") && i + 1 < argc && int_arg(argv[i + 1], 0, 2, &background))
            i++;
        else if (!strcmp(argv[i], "--sample-sms") && i + 1 < argc && int_arg(argv[i + 1], 1, 1024, &sample_sms))
            i++;
        else if (!strcmp(argv[i], "--sample-rounds") && i + 1 < argc && int_arg(argv[i + 1], 1, 64, &sample_rounds))
            i++;
        else if (!strcmp(argv[i], "--sample-phases") && i + 1 < argc && int_arg(argv[i + 1], 1, 16, &sample_phases))
            i++;
        else if (!strcmp(argv[i], "--sample-insts") && i + 1 < argc &&
                 int_arg(argv[i + 1], 0, 1000000000, &sample_insts))
            i++;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && sizes_valid(argv[i + 1]))
            size_list = argv[++i];
        else if (!strcmp(argv[i], "--reuse"))
            reuse = 1;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    const char *cfgs[8];
    int ncfg = 0;
    for (char *t = strtok(cfg_list, ","); t && ncfg < 8; t = strtok(NULL, ","))
        cfgs[ncfg++] = t;
    /* every name must exist, before any work starts */
    for (int c = 0; c < ncfg; c++) {
        gpu_config probe;
        ge_err e;
        if (gcfg_load_named(cfgs[c], &probe, &e)) {
            fprintf(stderr, "bench_estimate: --configs: %s\n", e.msg);
            return 2;
        }
    }
    if (!ncfg) {
        fprintf(stderr, "bench_estimate: --configs: no config named\n");
        return 2;
    }
    for (const char *q = wl_list; q && *q; q = strchr(q, ',') ? strchr(q, ',') + 1 : "") {
        size_t len = strcspn(q, ",");
        const wl_desc *const *w = suite_all();
        while (*w && (strlen((*w)->name) != len || strncmp(q, (*w)->name, len)))
            w++;
        if (!*w) {
            fprintf(stderr, "bench_estimate: --workloads: unknown workload '%.*s'\n", (int)len, q);
            return 2;
        }
    }
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv_path && !csv) {
        fprintf(stderr, "bench_estimate: cannot write %s\n", csv_path);
        return 1;
    }
    if (csv)
        fprintf(csv, "workload,kernel,config,scheduler,l1_bytes,model_cycles,hybrid_cycles,full_cycles,hybrid_error_estimate,"
                     "hybrid_reused\n");

    printf("bench_estimate: model / hybrid / full on %d configs x %d schedulers x %d L1 sizes per workload\n",
           ncfg, NSCHED, NL1);
    printf("%-20s %8s %7s %5s %8s %8s %8s %8s %8s %8s %8s %9s %9s %9s %8s %8s\n", "workload", "size", "kernels", "pts",
           "model%", "max%", "hyb%", "max%", "rho_m", "rho_h", "err_est%", "full_s/pt", "hyb_s/pt", "mod_ms/pt",
           "x_hyb", "x_model");
    errs all = {0};
    est_check ec = {0};
    double T_full = 0, T_hyb = 0, T_model = 0, T_prof = 0, rho_m_min = 1, rho_h_min = 1, rho_m_sum = 0,
           rho_h_sum = 0, npts_all = 0, nrho = 0, est_sum = 0, prof_k = 0;
    double wl_model = 0, wl_hyb = 0, nwl = 0; /* per-workload MAPEs, averaged with equal weight */
    double cpi_m = 0, cpi_h = 0, ncpi = 0;    /* CPI-stack distances to full, summed over kernel x point */
    double rho_h4_sum = 0, nrho4 = 0, reused_all = 0;
    for (const wl_desc *const *wp = suite_all(); *wp; wp++) {
        const wl_desc *w = *wp;
        if (!in_list(wl_list, w->name))
            continue;
        ge_err e;
        profile p, pall;
        double tp, tpa;
        if (build_profile(w, 0, &p, &tp, &e) || build_profile(w, (size_t)4 << 30, &pall, &tpa, &e)) {
            printf("%-20s error: %s\n", w->name, e.msg);
            continue;
        }
        T_prof += tp;
        prof_k += p.nkernels;
        size_t np = (size_t)ncfg * NSCHED * NL1;
        point *pts = calloc(np, sizeof *pts);
        size_t n = 0;
        for (int c = 0; c < ncfg; c++)
            for (int s = 0; s < NSCHED; s++)
                for (int l = 0; l < NL1; l++) {
                    point *pt = &pts[n];
                    if (gcfg_load_named(cfgs[c], &pt->cfg, &e) || set_l1(&pt->cfg, l1_factor[l]))
                        continue;
                    pt->cfg_name = cfgs[c];
                    pt->sched = s;
                    pt->l1_bytes = pt->cfg.l1d.size_bytes;
                    pt->model = calloc(p.nkernels, sizeof(double));
                    pt->hybrid = calloc(p.nkernels, sizeof(double));
                    pt->est = calloc(p.nkernels, sizeof(double));
                    pt->full = calloc(p.nkernels, sizeof(double));
                    pt->reused = calloc(p.nkernels, 1);
                    pt->share = calloc((size_t)p.nkernels * 2 * KR_STALL_COUNT, sizeof(double));
                    pt->cpi = calloc((size_t)p.nkernels * 2, sizeof(double));
                    if (!pt->model || !pt->hybrid || !pt->est || !pt->full || !pt->reused || !pt->share || !pt->cpi) {
                        fprintf(stderr, "bench_estimate: out of memory\n");
                        return 1;
                    }
                    n++;
                }
        /* groups: one point each, or (--reuse) the points of one config and scheduler */
        size_t *group = malloc((n + 1) * sizeof *group), ng = 0;
        if (!group) {
            fprintf(stderr, "bench_estimate: out of memory\n");
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            if (!reuse || i == 0 || pts[i].cfg_name != pts[i - 1].cfg_name || pts[i].sched != pts[i - 1].sched)
                group[ng++] = i;
        group[ng] = n;
        job j = {&p, &pall, est_cache_new(&p, &e), pts, n, 0, group, ng, PTHREAD_MUTEX_INITIALIZER};
        pthread_t th[64];
        int nt = threads > 64 ? 64 : threads;
        for (int t = 1; t < nt; t++)
            pthread_create(&th[t], NULL, worker, &j);
        worker(&j);
        for (int t = 1; t < nt; t++)
            pthread_join(th[t], NULL);
        est_cache_free(j.cache);
        free(group);
        errs we = {0};
        double tm[256], th_[256], tf[256], tf_sum = 0, th_sum = 0, tmo_sum = 0, est = 0;
        size_t ok = 0;
        for (size_t i = 0; i < n; i++) {
            point *pt = &pts[i];
            if (pt->error[0]) {
                printf("%-20s %s/%s/L1=%u: %s\n", w->name, pt->cfg_name, scheds[pt->sched], pt->l1_bytes, pt->error);
                continue;
            }
            double sm = 0, sh = 0, sf = 0;
            for (uint32_t k = 0; k < p.nkernels; k++) {
                add_err(&we, pt->model[k], pt->hybrid[k], pt->full[k]);
                add_est(&ec, pt->hybrid[k], pt->full[k], pt->est[k]);
                cpi_m += pt->cpi[2 * k];
                cpi_h += pt->cpi[2 * k + 1];
                ncpi++;
                sm += pt->model[k];
                sh += pt->hybrid[k];
                sf += pt->full[k];
                reused_all += pt->reused[k];
                if (csv)
                    fprintf(csv, "%s,%s,%s,%s,%u,%.1f,%.1f,%.1f,%.4f,%d\n", w->name, p.k[k].name, pt->cfg_name,
                            scheds[pt->sched], pt->l1_bytes, pt->model[k], pt->hybrid[k], pt->full[k], pt->est[k],
                            pt->reused[k]);
            }
            if (ok < 256) {
                tm[ok] = sm;
                th_[ok] = sh;
                tf[ok] = sf;
            }
            ok++;
            tf_sum += pt->t_full;
            th_sum += pt->t_hybrid;
            tmo_sum += pt->t_model;
            est += pt->err_est_hybrid;
        }
        double work[512], rm = NAN, rh = NAN;
        if (ok >= 3 && ok <= 256) {
            rm = gsl_stats_spearman(tm, 1, tf, 1, ok, work);
            rh = gsl_stats_spearman(th_, 1, tf, 1, ok, work);
            /* the same with near-ties ranked as ties (see round_sig) */
            double th4[256], tf4[256];
            for (size_t i = 0; i < ok; i++)
                th4[i] = round_sig(th_[i], 4), tf4[i] = round_sig(tf[i], 4);
            double rh4 = gsl_stats_spearman(th4, 1, tf4, 1, ok, work);
            if (isfinite(rh4)) {
                rho_h4_sum += rh4;
                nrho4++;
            }
            if (isfinite(rm)) {
                rho_m_sum += rm;
                rho_h_sum += rh;
                nrho++;
                if (rm < rho_m_min)
                    rho_m_min = rm;
                if (rh < rho_h_min)
                    rho_h_min = rh;
            }
        }
        printf("%-20s %8u %7u %5zu %8.2f %8.2f %8.2f %8.2f %8.3f %8.3f %8.2f %9.3f %9.3f %9.3f %8.1f %8.0f\n",
               w->name, size_for(w), p.nkernels, ok, we.n ? 100 * we.sum_model / we.n : NAN, 100 * we.max_model,
               we.n ? 100 * we.sum_hybrid / we.n : NAN, 100 * we.max_hybrid, rm, rh, ok ? 100 * est / ok : NAN,
               ok ? tf_sum / ok : NAN, ok ? th_sum / ok : NAN, ok ? 1e3 * tmo_sum / ok : NAN,
               th_sum > 0 ? tf_sum / th_sum : NAN, tmo_sum > 0 ? tf_sum / tmo_sum : NAN);
        fflush(stdout);
        if (csv)
            fflush(csv);
        if (we.n > 0) {
            wl_model += we.sum_model / we.n;
            wl_hyb += we.sum_hybrid / we.n;
            nwl++;
        }
        all.sum_model += we.sum_model;
        all.sum_hybrid += we.sum_hybrid;
        all.n += we.n;
        if (we.max_model > all.max_model)
            all.max_model = we.max_model;
        if (we.max_hybrid > all.max_hybrid)
            all.max_hybrid = we.max_hybrid;
        T_full += tf_sum;
        T_hyb += th_sum;
        T_model += tmo_sum;
        npts_all += (double)ok;
        est_sum += est;
        for (size_t i = 0; i < n; i++) {
            free(pts[i].model);
            free(pts[i].hybrid);
            free(pts[i].est);
            free(pts[i].full);
            free(pts[i].reused);
            free(pts[i].share);
            free(pts[i].cpi);
        }
        free(pts);
        prof_free(&p);
        prof_free(&pall);
    }
    printf("\nall: %.0f kernel x design-point pairs, %.0f design points\n", all.n, npts_all);
    printf("  model : MAPE %.2f%%  max %.2f%%  Spearman mean %.3f min %.3f\n", all.n ? 100 * all.sum_model / all.n : NAN,
           100 * all.max_model, nrho ? rho_m_sum / nrho : NAN, rho_m_min);
    printf("  hybrid: MAPE %.2f%%  max %.2f%%  Spearman mean %.4f min %.3f  (mean error estimate %.2f%%)\n",
           all.n ? 100 * all.sum_hybrid / all.n : NAN, 100 * all.max_hybrid, nrho ? rho_h_sum / nrho : NAN, rho_h_min,
           npts_all ? 100 * est_sum / npts_all : NAN);
    printf("  hybrid: Spearman mean %.4f with cycles rounded to 4 significant digits (near-ties rank as ties)\n",
           nrho4 ? rho_h4_sum / nrho4 : NAN);
    printf("  hybrid error estimate, over the %.0f sampled kernel x design-point pairs: mean %.2f%% against a mean "
           "error of %.2f%%; the error is within the estimate for %.0f%% of them, within twice it for %.0f%%\n",
           ec.n, ec.n ? 100 * ec.sum_est / ec.n : NAN, ec.n ? 100 * ec.sum_err / ec.n : NAN,
           ec.n ? 100 * ec.within1 / ec.n : NAN, ec.n ? 100 * ec.within2 / ec.n : NAN);
    printf("  per workload (each workload weighs the same, whatever its kernel count): MAPE model %.2f%%, "
           "hybrid %.2f%%\n",
           nwl ? 100 * wl_model / nwl : NAN, nwl ? 100 * wl_hyb / nwl : NAN);
    printf("  CPI stack against full (mean share of scheduler-cycles booked to another category): model %.3f, "
           "hybrid %.3f\n",
           ncpi ? cpi_m / ncpi : NAN, ncpi ? cpi_h / ncpi : NAN);
    printf("  CPU time per design point: full %.3f s, hybrid %.4f s, model %.3f ms\n", npts_all ? T_full / npts_all : NAN,
           npts_all ? T_hyb / npts_all : NAN, npts_all ? 1e3 * T_model / npts_all : NAN);
    printf("  speedup vs full: hybrid %.1fx, model %.0fx (profile once per workload: %.2f s total, not included)\n",
           T_hyb > 0 ? T_full / T_hyb : NAN, T_model > 0 ? T_full / T_model : NAN, T_prof);
    printf("  hybrid%s: %.0f of the %.0f kernel x design-point estimates reused a calibration (of an earlier "
           "launch%s)\n",
           reuse ? " as a sweep (--reuse)" : "", reused_all, all.n, reuse ? " or design point" : "");
    printf("  model estimate from a saved profile: %.3f ms per design point (%.0f kernels)\n",
           npts_all ? 1e3 * T_model / npts_all : NAN, prof_k);
    if (csv)
        fclose(csv);
    return 0;
}
