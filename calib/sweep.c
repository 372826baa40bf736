/*
 * sweep.c - run a design-space sweep (see sweep.h).
 */
#include "sweep.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "power.h"
#include "progress.h"

size_t sweep_count(const sweep_spec *s)
{
    size_t n = (size_t)(s->nconfigs ? s->nconfigs : 0) * (s->nschedulers ? s->nschedulers : 1);
    for (uint32_t v = 0; v < s->nvary; v++)
        n *= s->vary[v].nvalues;
    return n;
}

/* Point i in row-major order: config, scheduler, then the varied keys. */
static void decode(const sweep_spec *s, size_t i, sweep_point *pt)
{
    memset(pt, 0, sizeof *pt);
    for (int v = (int)s->nvary - 1; v >= 0; v--) {
        pt->value[v] = (uint32_t)(i % s->vary[v].nvalues);
        i /= s->vary[v].nvalues;
    }
    uint32_t ns = s->nschedulers ? s->nschedulers : 1;
    pt->scheduler = (uint32_t)(i % ns);
    pt->config = (uint32_t)(i / ns);
}

typedef struct {
    const sweep_spec *s;
    const profile *p;
    est_cache *cache; /* the profile's, shared by every point (NULL if it could not be made) */
    sweep_point *pts;
    size_t npts, per_group, ngroups, next_group, done;
    pthread_mutex_t lock;
    progress pr;
} sweep_job;

static int point_config(const sweep_spec *s, const sweep_point *pt, gpu_config *cfg, ge_err *e)
{
    if (gcfg_load_named(s->configs[pt->config], cfg, e))
        return -1;
    for (uint32_t v = 0; v < s->nvary; v++)
        if (gcfg_apply(cfg, s->vary[v].key, s->vary[v].values[pt->value[v]], e))
            return -1;
    return gcfg_validate(cfg, e);
}

static void run_point(sweep_job *j, sweep_point *pt, est_calibration *cals)
{
    const sweep_spec *s = j->s;
    ge_err e;
    gpu_config cfg;
    double t0 = ge_now();
    if (point_config(s, pt, &cfg, &e)) {
        snprintf(pt->error, sizeof pt->error, "%s", e.msg);
        return;
    }
    snprintf(pt->config_name, sizeof pt->config_name, "%s", s->configs[pt->config]);
    const char *sched = s->nschedulers ? s->schedulers[pt->scheduler] : NULL;
    snprintf(pt->scheduler_name, sizeof pt->scheduler_name, "%s", sched ? sched : cfg.sm.scheduler);
    est_options eo;
    est_options_default(&eo);
    eo.mode = s->mode;
    eo.scheduler = sched;
    eo.cache = j->cache;
    if (s->sample_sms)
        eo.sample_sms = s->sample_sms;
    if (s->sample_rounds)
        eo.sample_rounds = s->sample_rounds;
    if (s->sample_phases)
        eo.sample_phases = s->sample_phases;
    if (s->sample_insts)
        eo.sample_insts = s->sample_insts > 0 ? (uint64_t)s->sample_insts : 0;
    est_kernel *res;
    if (est_profile(&cfg, j->p, &eo, cals, &res, &e)) {
        snprintf(pt->error, sizeof pt->error, "%s", e.msg);
        return;
    }
    pwr_model *pm = pwr_create(&cfg, &e);
    if (!pm) {
        snprintf(pt->error, sizeof pt->error, "%s", e.msg);
        free(res);
        return;
    }
    pwr_result sum;
    memset(&sum, 0, sizeof sum);
    double werr = 0;
    for (uint32_t k = 0; k < j->p->nkernels; k++) {
        pwr_result pr;
        if (pwr_kernel(pm, &res[k].r, &pr, &e)) {
            snprintf(pt->error, sizeof pt->error, "%s", e.msg);
            break;
        }
        pwr_accumulate(&sum, &pr);
        pt->cycles += res[k].r.cycles;
        werr += res[k].r.error_estimate * res[k].r.cycles;
        pt->full += res[k].simulated_full;
        pt->reused += res[k].reused;
        pt->sampled += s->mode == EST_HYBRID && !res[k].simulated_full && !res[k].reused;
    }
    pwr_free(pm);
    free(res);
    pt->seconds = sum.seconds;
    pt->power_w = sum.total_w;
    pt->energy_j = sum.energy_j;
    pt->edp = sum.edp;
    pt->ed2p = sum.ed2p;
    pt->error_estimate = pt->cycles > 0 ? werr / pt->cycles : 0;
    pt->wall_s = ge_now() - t0;
}

static void *worker(void *arg)
{
    sweep_job *j = arg;
    est_calibration *cals = calloc(j->p->nkernels ? j->p->nkernels : 1, sizeof *cals);
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t g = j->next_group++;
        pthread_mutex_unlock(&j->lock);
        if (g >= j->ngroups)
            break;
        if (cals)
            memset(cals, 0, j->p->nkernels * sizeof *cals);
        for (size_t i = g * j->per_group; i < (g + 1) * j->per_group && i < j->npts; i++) {
            run_point(j, &j->pts[i], cals);
            pthread_mutex_lock(&j->lock);
            progress_update(&j->pr, ++j->done);
            pthread_mutex_unlock(&j->lock);
        }
    }
    free(cals);
    return NULL;
}

int sweep_run(const sweep_spec *s, const profile *p, sweep_point **out, ge_err *e)
{
    *out = NULL;
    size_t n = sweep_count(s);
    if (n == 0)
        return ge_errf(e, "the sweep has no design points");
    if (n > 1000000)
        return ge_errf(e, "the sweep has %zu design points (limit 1000000)", n);
    sweep_point *pts = calloc(n, sizeof *pts);
    if (!pts)
        return ge_errf(e, "out of memory");
    for (size_t i = 0; i < n; i++)
        decode(s, i, &pts[i]);
    sweep_job j;
    memset(&j, 0, sizeof j);
    j.s = s;
    j.p = p;
    ge_err ce;
    j.cache = est_cache_new(p, &ce); /* without it, each point makes what it needs */
    j.pts = pts;
    j.npts = n;
    j.per_group = n / ((size_t)(s->nconfigs ? s->nconfigs : 1) * (s->nschedulers ? s->nschedulers : 1));
    if (j.per_group == 0)
        j.per_group = 1;
    j.ngroups = (n + j.per_group - 1) / j.per_group;
    pthread_mutex_init(&j.lock, NULL);
    progress_begin(&j.pr, "sweep", n);
    uint32_t nt = s->threads ? s->threads : 1;
    if (nt > j.ngroups)
        nt = (uint32_t)j.ngroups;
    pthread_t *th = calloc(nt, sizeof *th);
    uint32_t started = 0;
    for (uint32_t t = 1; th && t < nt; t++)
        if (pthread_create(&th[t], NULL, worker, &j) == 0)
            started++;
        else
            break;
    worker(&j);
    for (uint32_t t = 1; t <= started; t++)
        pthread_join(th[t], NULL);
    free(th);
    progress_done(&j.pr);
    pthread_mutex_destroy(&j.lock);
    est_cache_free(j.cache);
    sweep_pareto(pts, n);
    *out = pts;
    return 0;
}

void sweep_pareto(sweep_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pts[i].pareto = !pts[i].error[0];
        for (size_t k = 0; k < n && pts[i].pareto; k++) {
            if (k == i || pts[k].error[0])
                continue;
            int no_worse = pts[k].seconds <= pts[i].seconds && pts[k].energy_j <= pts[i].energy_j;
            int better = pts[k].seconds < pts[i].seconds || pts[k].energy_j < pts[i].energy_j;
            if (no_worse && better)
                pts[i].pareto = 0;
        }
    }
}
