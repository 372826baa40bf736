/*
 * prof_select.c - end of a kernel in the profiler: pick representative warps
 * and CTA clusters, and the sample CTAs that spatially sampled simulation
 * will run.
 *
 * CTA clusters come from k-means on the CTAs' signatures (cl_choose: one
 * cluster for a uniform kernel, up to cta_clusters for an irregular one).
 * Sample CTAs are whole runs of consecutive candidates (profiler.c keeps
 * candidates in runs, as neighbouring CTAs run together on a GPU), taken
 * evenly spaced over the grid; a cluster that none of those runs covers
 * gets its nearest candidates added, so every cluster with a candidate is
 * represented (stratification).  The clusters' CTA counts weight the
 * estimate.  A cluster with no candidate lends its weight
 * to the nearest cluster that has one (its CTAs are then represented by
 * their nearest neighbours).  When the whole kernel was small enough to keep
 * (keep_all_bytes), every CTA is the sample and hybrid mode simulates the
 * kernel in full.
 *
 * Representative warps: k-means on eight behaviour features of the warps in
 * the reservoir; each cluster is represented by its medoid warp's
 * instruction record, weighted by the cluster's share of all warps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "prof_int.h"
#include "u64set.h"

#define PB_CLUSTER_FRAC 0.10 /* unexplained variance accepted when choosing k */

static int rep_warps(pbuild *b, ge_err *e)
{
    prof_kernel *pk = b->pk;
    if (b->nres == 0)
        return 0;
    cl_result r;
    if (cl_choose(b->res_feat, b->nres, PB_WARP_FEATURES, b->o->warp_clusters, PB_CLUSTER_FRAC, b->o->seed, &r, e))
        return -1;
    pk->warps = calloc(r.k, sizeof *pk->warps);
    if (!pk->warps) {
        cl_free(&r);
        return ge_errf(e, "out of memory");
    }
    double total_warps = (double)b->warps_seen;
    for (uint32_t c = 0; c < r.k; c++) {
        if (r.size[c] == 0)
            continue;
        pb_warp *w = &b->res[r.medoid[c]];
        prof_warp *pw = &pk->warps[pk->nwarps++];
        pw->weight = total_warps * r.size[c] / b->nres;
        pw->ninst = w->ninst;
        pw->inst = w->inst; /* ownership moves to the profile */
        w->inst = NULL;
        w->ninst = 0;
    }
    cl_free(&r);
    return 0;
}

/* Find the signature row of a CTA index (signatures arrive in stream order,
 * which is CTA order for every front-end, but do not rely on it). */
static size_t sig_row(const pbuild *b, uint64_t index)
{
    if (index < b->nsig && b->sig_index[index] == index)
        return (size_t)index;
    for (size_t i = 0; i < b->nsig; i++)
        if (b->sig_index[i] == index)
            return i;
    return 0;
}

static int take_sample(pbuild *b, const cl_result *r, ge_err *e)
{
    prof_kernel *pk = b->pk;
    uint32_t k = r->k;
    /* candidates per cluster */
    uint32_t *cl_of = malloc((b->ncand ? b->ncand : 1) * sizeof *cl_of);
    uint32_t *have = calloc(k, sizeof *have), *quota = calloc(k, sizeof *quota);
    uint8_t *pick = calloc(b->ncand ? b->ncand : 1, 1);
    if (!cl_of || !have || !quota || !pick) {
        free(cl_of), free(have), free(quota), free(pick);
        return ge_errf(e, "out of memory (sampling)");
    }
    for (uint32_t i = 0; i < b->ncand; i++) {
        cl_of[i] = r->assign[sig_row(b, b->cand_index[i])];
        have[cl_of[i]]++;
    }
    uint32_t want = b->keeping_all ? b->ncand : b->o->max_sample;
    if (b->keeping_all || want >= b->ncand) {
        memset(pick, 1, b->ncand);
    } else {
        /* candidates are in CTA order within runs; take evenly spaced runs */
        uint32_t run = b->o->run ? b->o->run : 1;
        uint32_t nruns = (b->ncand + run - 1) / run, take = (want + run - 1) / run;
        if (take > nruns)
            take = nruns;
        for (uint32_t r = 0; r < take; r++) {
            uint32_t ri = (uint32_t)((uint64_t)r * nruns / take);
            for (uint32_t i = ri * run; i < (ri + 1) * run && i < b->ncand; i++)
                pick[i] = 1;
        }
        /* every cluster with a candidate gets at least one */
        for (uint32_t i = 0; i < b->ncand; i++)
            if (pick[i])
                quota[cl_of[i]]++;
        for (uint32_t c = 0; c < k; c++) {
            if (quota[c] || !have[c])
                continue;
            for (uint32_t i = 0; i < b->ncand; i++)
                if (cl_of[i] == c) {
                    pick[i] = 1;
                    break;
                }
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->ncand; i++)
        n += pick[i];
    pk->sample = calloc(n ? n : 1, sizeof *pk->sample);
    pk->sample_index = calloc(n ? n : 1, sizeof *pk->sample_index);
    pk->sample_cluster = calloc(n ? n : 1, sizeof *pk->sample_cluster);
    if (!pk->sample || !pk->sample_index || !pk->sample_cluster) {
        free(cl_of), free(have), free(quota), free(pick);
        return ge_errf(e, "out of memory (sample)");
    }
    /* in CTA-index order */
    uint64_t *order = malloc((n ? n : 1) * 2 * sizeof *order);
    uint32_t m = 0;
    for (uint32_t i = 0; i < b->ncand && order; i++)
        if (pick[i]) {
            order[2 * m] = b->cand_index[i];
            order[2 * m + 1] = i;
            m++;
        }
    if (order)
        qsort(order, m, 2 * sizeof *order, u64_cmp);
    for (uint32_t j = 0; j < m; j++) {
        uint32_t i = (uint32_t)order[2 * j + 1];
        pk->sample[j] = b->cand[i]; /* move */
        ws_cta_init(&b->cand[i]);
        pk->sample_index[j] = b->cand_index[i];
        pk->sample_cluster[j] = cl_of[i];
        pk->clusters[cl_of[i]].nsample++;
    }
    pk->nsample = m;
    pk->sample_is_all = b->keeping_all && m == pk->nctas;
    free(order);
    free(cl_of), free(have), free(quota), free(pick);
    return 0;
}

int pb_finish_kernel(pbuild *b, ge_err *e)
{
    prof_kernel *pk = b->pk;
    uint64_t warps = pk->nctas * pk->warps_per_cta;
    pk->barriers_per_warp = warps ? pk->barriers_per_warp / warps : 0;
    pk->footprint_lines = (double)b->lines.count;
    pk->store_footprint_lines = (double)b->store_lines.count;
    pk->store_footprint_sectors = (double)b->store_sectors.count;
    pk->load_footprint_lines = (double)b->load_lines.count;
    pk->load_footprint_sectors = (double)b->load_sectors.count;
    pk->atomic_footprint_lines = (double)b->atomic_lines.count;
    pk->code_lines = (double)b->code.count;
    if (pk->ncode_warm > 1)
        qsort(pk->code_warm, pk->ncode_warm, sizeof *pk->code_warm, u64_cmp);
    if (rep_warps(b, e))
        return -1;
    if (b->nsig == 0)
        return 0;
    cl_result r;
    if (cl_choose(b->sig, b->nsig, PROF_SIG_COUNT, b->o->cta_clusters, PB_CLUSTER_FRAC, b->o->seed, &r, e))
        return -1;
    pk->clusters = calloc(r.k, sizeof *pk->clusters);
    if (!pk->clusters) {
        cl_free(&r);
        return ge_errf(e, "out of memory");
    }
    pk->nclusters = r.k;
    for (uint32_t c = 0; c < r.k; c++)
        pk->clusters[c].weight = r.size[c];
    /* per-cluster means and spread of the instruction count */
    double *sq = calloc(r.k, sizeof *sq);
    for (size_t i = 0; i < b->nsig; i++) {
        prof_cluster *cl = &pk->clusters[r.assign[i]];
        for (int f = 0; f < PROF_SIG_COUNT; f++)
            cl->mean[f] += b->sig[i * PROF_SIG_COUNT + f];
        if (sq)
            sq[r.assign[i]] += b->sig[i * PROF_SIG_COUNT + PROF_SIG_WARP_INSTS] *
                               b->sig[i * PROF_SIG_COUNT + PROF_SIG_WARP_INSTS];
    }
    for (uint32_t c = 0; c < r.k; c++) {
        prof_cluster *cl = &pk->clusters[c];
        if (cl->weight <= 0)
            continue;
        for (int f = 0; f < PROF_SIG_COUNT; f++)
            cl->mean[f] /= cl->weight;
        double m = cl->mean[PROF_SIG_WARP_INSTS];
        double var = sq ? sq[c] / cl->weight - m * m : 0;
        cl->cv_insts = m > 0 && var > 0 ? sqrt(var) / m : 0;
    }
    free(sq);
    int rc = take_sample(b, &r, e);
    /* clusters without a sample lend their weight to the nearest cluster with one */
    for (uint32_t c = 0; rc == 0 && c < r.k; c++) {
        if (pk->clusters[c].nsample || pk->clusters[c].weight == 0)
            continue;
        double best = INFINITY;
        uint32_t to = c;
        for (uint32_t d = 0; d < r.k; d++) {
            if (!pk->clusters[d].nsample)
                continue;
            double dist = 0;
            for (int f = 0; f < PROF_SIG_COUNT; f++) {
                double t = r.centre[c * PROF_SIG_COUNT + f] - r.centre[d * PROF_SIG_COUNT + f];
                dist += t * t;
            }
            if (dist < best) {
                best = dist;
                to = d;
            }
        }
        if (to != c) {
            pk->clusters[to].weight += pk->clusters[c].weight;
            pk->clusters[c].weight = 0;
        }
    }
    cl_free(&r);
    return rc;
}
