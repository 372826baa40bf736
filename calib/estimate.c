/*
 * estimate.c - estimate a profiled workload in one of the three modes
 * (see estimate.h), kernel by kernel, keeping one detailed simulator per
 * shape so that the L2 and DRAM state carry across kernels as on a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"
#include "progress.h"

const char *const est_mode_names[3] = {"model", "hybrid", "full"};

int est_mode_by_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, est_mode_names[i]) == 0)
            return i;
    return -1;
}

void est_options_default(est_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = EST_HYBRID;
    o->sample_sms = 1;
    o->sample_insts = EST_SAMPLE_INSTS;
    o->sample_phases = EST_SAMPLE_PHASES;
    o->background = 1;
}

/* The background run's sim_options.shared_line: the lines x->shared holds
 * now (the kernel being sampled). */
static int ctx_shared_line(void *ctx, uint64_t line)
{
    const est_ctx *x = ctx;
    return x->shared && u64set_has(x->shared, line);
}

const u64set *est_kernel_shared_lines(est_ctx *x, uint32_t k, ge_err *e)
{
    if (est_cache_for(x->o->cache, x->p))
        return x->shared = est_cache_shared_lines(x->o->cache, x->cfg, k, e);
    x->shared = NULL;
    if (est_shared_lines(x->cfg, &x->p->k[k], &x->own_shared, e))
        return NULL;
    return x->shared = &x->own_shared;
}

static sim_gpu *make_sim(est_ctx *x, uint32_t sms, int background, ge_err *e)
{
    sim_options so;
    memset(&so, 0, sizeof so);
    so.scheduler = x->o->scheduler;
    so.active_sms = sms;
    so.background = background;
    so.cta_l1_stats = sms > 0 && !background; /* the alone run's L1 rates per CTA (dealing.c, est_tail_weighted) */
    if (background) {
        so.shared_line = ctx_shared_line;
        so.shared_ctx = x;
    }
    return sim_create(x->cfg, &so, e);
}

sim_gpu *est_sampled_sim(est_ctx *x, uint32_t sms, int loaded, ge_err *e)
{
    if (x->sampled_sms != sms) {
        if (x->sampled)
            sim_destroy(x->sampled);
        if (x->loaded)
            sim_destroy(x->loaded);
        x->sampled = x->loaded = NULL;
        x->sampled_sms = sms;
    }
    sim_gpu **g = loaded ? &x->loaded : &x->sampled;
    if (!*g)
        *g = make_sim(x, sms, loaded ? (x->o->background == 2 ? 2 : 1) : 0, e);
    return *g;
}

sim_gpu *est_full_sim(est_ctx *x, ge_err *e)
{
    if (!x->full)
        x->full = make_sim(x, 0, 0, e);
    return x->full;
}

static int full_kernel(est_ctx *x, uint32_t k, est_kernel *out, ge_err *e)
{
    const prof_kernel *pk = &x->p->k[k];
    sim_gpu *g = est_full_sim(x, e);
    if (!g)
        return -1;
    const ws_cta **all = malloc((pk->nsample ? pk->nsample : 1) * sizeof *all);
    if (!all)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < pk->nsample; i++)
        all[i] = &pk->sample[i];
    if (x->o->mode == EST_HYBRID)
        est_warm_l2(x, g, k, all, pk->nsample);
    int rc = est_sim_ctas(g, x->p, k, all, pk->nsample, &out->r, e);
    x->ran_prev = g;
    free(all);
    out->simulated_full = 1;
    out->r.sampled_ctas = pk->nsample;
    return rc;
}

int est_profile(const gpu_config *cfg, const profile *p, const est_options *o, est_calibration *cals,
                est_kernel **out, ge_err *e)
{
    *out = NULL;
    if (o->mode != EST_MODEL && !p->has_ctas)
        return ge_errf(e, "%s mode simulates the profile's sample CTAs, which were not read", est_mode_names[o->mode]);
    if (o->mode == EST_FULL)
        for (uint32_t k = 0; k < p->nkernels; k++)
            if (!p->k[k].sample_is_all)
                return ge_errf(e, "full mode needs the workload or trace: the profile keeps only a sample of "
                                  "kernel %s",
                               p->k[k].name);
    est_kernel *res = calloc(p->nkernels ? p->nkernels : 1, sizeof *res);
    if (!res)
        return ge_errf(e, "out of memory");
    est_ctx x = {.cfg = cfg, .p = p, .o = o};
    const char *sched = o->scheduler ? o->scheduler : cfg->sm.scheduler;
    progress pr;
    progress_begin(&pr, est_mode_names[o->mode], p->nkernels);
    int rc = 0;
    for (uint32_t k = 0; k < p->nkernels && rc == 0; k++) {
        double t0 = ge_now();
        est_kernel *r = &res[k];
        if (o->mode == EST_MODEL) {
            rc = model_kernel(cfg, sched, p, k, NULL, NULL, &r->r, NULL, e);
        } else if (o->mode == EST_FULL || p->k[k].sample_is_all) {
            rc = full_kernel(&x, k, r, e);
        } else {
            const est_calibration *reuse = NULL;
            if (cals && est_calibration_reusable(&cals[k], cfg, sched, p, k))
                reuse = &cals[k];
            /* or the last sampled launch of the same kernel doing the same work */
            for (uint32_t j = k; !reuse && j-- > 0;)
                if (res[j].cal.valid && !res[j].reused && est_same_launch(p, j, k)) {
                    if (est_calibration_reusable(&res[j].cal, cfg, sched, p, k))
                        reuse = &res[j].cal;
                    break;
                }
            rc = est_hybrid_kernel(&x, k, reuse, r, e);
            x.ran_prev = NULL;
            if (rc == 0 && cals)
                cals[k] = r->cal;
        }
        r->wall_s = ge_now() - t0;
        progress_update(&pr, k + 1);
    }
    progress_done(&pr);
    if (x.full)
        sim_destroy(x.full);
    if (x.sampled)
        sim_destroy(x.sampled);
    if (x.loaded)
        sim_destroy(x.loaded);
    u64set_free(&x.own_shared);
    if (rc) {
        free(res);
        return -1;
    }
    *out = res;
    return 0;
}

int est_full_source(const gpu_config *cfg, ws_source *src, const est_options *o, est_kernel **out, size_t *n,
                    ge_err *e)
{
    *out = NULL;
    *n = 0;
    est_ctx x = {.cfg = cfg, .o = o};
    sim_gpu *g = est_full_sim(&x, e);
    if (!g)
        return -1;
    kresult *kr;
    size_t nk;
    double t0 = ge_now();
    int rc = sim_run_source(g, src, &kr, &nk, e);
    sim_destroy(g);
    if (rc)
        return -1;
    est_kernel *res = calloc(nk ? nk : 1, sizeof *res);
    if (!res) {
        free(kr);
        return ge_errf(e, "out of memory");
    }
    double wall = ge_now() - t0;
    for (size_t i = 0; i < nk; i++) {
        res[i].r = kr[i];
        res[i].r.sampled_ctas = kr[i].ctas; /* all simulated in detail, as from a profile */
        res[i].simulated_full = 1;
        res[i].wall_s = nk ? wall / nk : 0;
    }
    free(kr);
    *out = res;
    *n = nk;
    return 0;
}
