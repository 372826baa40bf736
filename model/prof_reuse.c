/*
 * prof_reuse.c - the profiler's reuse histograms, computed from the access
 * logs at the end of the workload.
 *
 * Which accesses share a cache, and in which order, depends on the design:
 *   - L1 (per SM, flushed at kernel boundaries): CTA i runs on SM i mod NSM
 *     (the round-robin order a GPU's CTA scheduler starts with), c CTAs are
 *     resident at once, and the warps of resident CTAs interleave either
 *     instruction by instruction (LRR) or load-wait chunk by chunk (GTO: a
 *     warp keeps issuing until it needs a loaded value).  We measure the
 *     streams of the first l1_sms SMs for every profiled NSM, every c in
 *     1, 2, 4, ..., 32 that fits, and both interleavings; the model
 *     interpolates c in log scale.
 *   - L2 (shared, kept across kernels): all CTAs, W resident GPU-wide, warps
 *     interleaved instruction by instruction; one stream over the whole
 *     workload so later kernels see the data earlier kernels left.  Measured
 *     for W in 64, 512, 4096.  The log may be hash-sampled (SHARDS), in
 *     which case distances and counts are scaled back.
 */
#include <stdlib.h>
#include <string.h>

#include "prof_int.h"

#define MAX_WARPS_PER_SM 64 /* the largest resident-warp limit of any shipped GPU */

typedef struct {
    uint64_t k1, k2, k3;
    size_t idx;
} skey;

static int cmp_skey(const void *a, const void *b)
{
    const skey *x = a, *y = b;
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2 ? -1 : 1;
    if (x->k3 != y->k3)
        return x->k3 < y->k3 ? -1 : 1;
    /* ties (a gather's lines share an instruction) in log order, whatever
     * the C library's qsort: the result does not depend on its stability */
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* L1 histogram for one kernel (records [lo, hi) of the L1 log). */
static int l1_hist(pbuild *b, size_t lo, size_t hi, uint32_t nsm, uint32_t c, int il, rd_hist *h, skey *keys,
                   rd_access *acc, ge_err *e)
{
    for (uint32_t s = 0; s < b->o->l1_sms && s < nsm; s++) {
        size_t n = 0;
        for (size_t i = lo; i < hi; i++) {
            const pb_l1rec *r = &b->l1[i];
            if (r->cta % nsm != s)
                continue;
            uint64_t j = r->cta / nsm;
            if (j >= b->o->l1_ctas_per_sm)
                continue;
            uint64_t g = j / c, slot = j % c;
            skey *k = &keys[n++];
            k->idx = i;
            if (il == PROF_IL_LRR) {
                k->k1 = (g << 32) | r->seq;
                k->k2 = (slot << 16) | r->warp;
                k->k3 = 0;
            } else {
                k->k1 = (g << 32) | r->chunk;
                k->k2 = (slot << 16) | r->warp;
                k->k3 = r->seq;
            }
        }
        if (n == 0)
            continue;
        qsort(keys, n, sizeof *keys, cmp_skey);
        for (size_t i = 0; i < n; i++) {
            acc[i].line = b->l1[keys[i].idx].line;
            acc[i].sectors = b->l1[keys[i].idx].sectors;
        }
        if (rd_measure(acc, n, h, e))
            return -1;
    }
    return 0;
}

static int all_l1(pbuild *b, ge_err *e)
{
    profile *p = b->p;
    skey *keys = malloc((b->nl1 ? b->nl1 : 1) * sizeof *keys);
    rd_access *acc = malloc((b->nl1 ? b->nl1 : 1) * sizeof *acc);
    if (!keys || !acc) {
        free(keys);
        free(acc);
        return ge_errf(e, "out of memory (L1 reuse)");
    }
    int rc = 0;
    size_t lo = 0;
    for (uint32_t k = 0; k < p->nkernels && rc == 0; k++) {
        size_t hi = lo;
        while (hi < b->nl1 && b->l1[hi].kernel == k)
            hi++;
        prof_kernel *pk = &p->k[k];
        uint32_t wpc = pk->warps_per_cta ? pk->warps_per_cta : 1;
        uint32_t n = 0;
        for (uint32_t c = 1; c <= 32 && c * wpc <= MAX_WARPS_PER_SM; c *= 2)
            n++;
        n *= b->o->n_nsms * PROF_IL_COUNT;
        pk->l1 = calloc(n ? n : 1, sizeof *pk->l1);
        if (!pk->l1) {
            rc = ge_errf(e, "out of memory");
            break;
        }
        for (uint32_t si = 0; si < b->o->n_nsms && rc == 0; si++)
            for (uint32_t c = 1; c <= 32 && c * wpc <= MAX_WARPS_PER_SM && rc == 0; c *= 2)
                for (int il = 0; il < PROF_IL_COUNT && rc == 0; il++) {
                    prof_l1hist *h = &pk->l1[pk->nl1++];
                    h->nsm = b->o->nsms[si];
                    h->ctas_per_sm = c;
                    h->interleave = (uint32_t)il;
                    rc = l1_hist(b, lo, hi, h->nsm, c, il, &h->load, keys, acc, e);
                }
        lo = hi;
    }
    free(keys);
    free(acc);
    return rc;
}

static int all_l2(pbuild *b, ge_err *e)
{
    profile *p = b->p;
    size_t n = b->nl2;
    p->nl2 = PROF_NCONC;
    p->l2 = calloc((size_t)p->nkernels * PROF_NCONC + 1, sizeof *p->l2);
    rd_access *acc = malloc((n ? n : 1) * sizeof *acc);
    uint32_t *bucket = malloc((n ? n : 1) * sizeof *bucket);
    rd_hist *tmp = calloc(2 * (size_t)p->nkernels + 1, sizeof *tmp);
    int rc = 0;
    if (!p->l2 || !acc || !bucket || !tmp) {
        rc = ge_errf(e, "out of memory (L2 reuse)");
        goto out;
    }
    double scale = (double)(1ULL << b->l2_shift);
    for (size_t j = 0; j < PROF_NCONC && rc == 0; j++) {
        uint64_t w = prof_concurrency[j];
        if (!b->gpu_ord[j]) { /* the order before (pb_gpu_orders): the same histograms */
            for (uint32_t k = 0; k < p->nkernels; k++) {
                prof_l2hist *h = prof_l2(p, k, (uint32_t)j);
                *h = *prof_l2(p, k, (uint32_t)j - 1);
                h->concurrency = (uint32_t)w;
            }
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            const pb_l2rec *r = &b->l2[b->gpu_ord[j][i]];
            acc[i].line = r->line;
            acc[i].sectors = r->sectors;
            bucket[i] = 2u * r->kernel + r->store;
        }
        memset(tmp, 0, (2 * (size_t)p->nkernels + 1) * sizeof *tmp);
        rc = rd_measure_multi(acc, bucket, n, tmp, scale, e);
        for (uint32_t k = 0; k < p->nkernels; k++) {
            prof_l2hist *h = prof_l2(p, k, (uint32_t)j);
            h->concurrency = (uint32_t)w;
            h->load = tmp[2 * k];
            h->store = tmp[2 * k + 1];
        }
    }
out:
    free(acc);
    free(bucket);
    free(tmp);
    return rc;
}

int pb_reuse(pbuild *b, ge_err *e)
{
    if (all_l1(b, e))
        return -1;
    return all_l2(b, e);
}
