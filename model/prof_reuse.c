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
 *     interpolates c in log scale.  The first SM's stream also gives the
 *     lines in flight its L1's set placement allows (prof_inflight.c; one
 *     table for both interleavings).
 *   - L2 (shared, kept across kernels): all CTAs, W resident GPU-wide, warps
 *     interleaved instruction by instruction; one stream over the whole
 *     workload so later kernels see the data earlier kernels left.  Measured
 *     for W in 64, 512, 4096.  The log may be hash-sampled (SHARDS), in
 *     which case distances and counts are scaled back.
 */
#include <stdlib.h>
#include <string.h>

#include "prof_int.h"
#include "runsort.h"

#define MAX_WARPS_PER_SM 64 /* the largest resident-warp limit of any shipped GPU */

/* An access's place in an SM's interleaving: generation (c CTAs that run
 * together), instruction (LRR) or chunk (GTO), CTA slot and warp, and for
 * GTO the instruction within the chunk; ties (a gather's lines share an
 * instruction) keep log order. */
typedef struct {
    uint64_t k1, k2, k3;
} skey;

static int skey_less(const void *ctx, uint32_t a, uint32_t b)
{
    const skey *x = (const skey *)ctx + a, *y = (const skey *)ctx + b;
    if (x->k1 != y->k1)
        return x->k1 < y->k1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2;
    return x->k3 < y->k3;
}

/* Scratch of the L1 histograms, sized for a kernel's whole L1 log. */
typedef struct {
    uint32_t *list; /* log records of one SM */
    skey *keys;   /* of list[i] */
    uint32_t *ord, *tmp, *runs;
    rd_access *acc;
    rd_ws ws;
    infl_ws infl;
} l1_scratch;

/* Add the stream of one SM (its log records `list[0..n)`, in log order) to
 * the L1 histogram h for nsm SMs, c CTAs per SM, interleaving il. */
static int l1_hist(pbuild *b, l1_scratch *x, size_t n, uint32_t nsm, uint32_t c, int il, prof_l1hist *h,
                   ge_err *e)
{
    for (size_t t = 0; t < n; t++) {
        const pb_l1rec *r = &b->l1[x->list[t]];
        uint64_t j = r->cta / nsm, g = j / c, slot = j % c;
        skey *k = &x->keys[t];
        k->k1 = (g << 32) | (il == PROF_IL_LRR ? r->seq : r->chunk);
        k->k2 = (slot << 16) | r->warp;
        k->k3 = il == PROF_IL_LRR ? 0 : r->seq;
        x->ord[t] = (uint32_t)t;
    }
    runsort_u32(x->ord, x->tmp, x->runs, n, skey_less, x->keys);
    for (size_t t = 0; t < n; t++) {
        const pb_l1rec *r = &b->l1[x->list[x->ord[t]]];
        x->acc[t].line = r->line;
        x->acc[t].sectors = r->sectors;
    }
    return rd_measure_ws(&x->ws, x->acc, NULL, n, &h->load, 1.0, e);
}

/* L1 histograms of kernel k (records [lo, hi) of the L1 log), in pk->l1 by
 * SM count, then CTAs per SM, then interleaving; each histogram sums the
 * streams of the first l1_sms SMs. */
static int kernel_l1(pbuild *b, uint32_t k, size_t lo, size_t hi, l1_scratch *x, ge_err *e)
{
    prof_kernel *pk = &b->p->k[k];
    uint32_t wpc = pk->warps_per_cta ? pk->warps_per_cta : 1;
    uint32_t nc = 0;
    for (uint32_t c = 1; c <= 32 && c * wpc <= MAX_WARPS_PER_SM; c *= 2)
        nc++;
    uint32_t n = nc * b->o->n_nsms * PROF_IL_COUNT;
    pk->l1 = calloc(n ? n : 1, sizeof *pk->l1);
    if (!pk->l1)
        return ge_errf(e, "out of memory");
    for (uint32_t si = 0; si < b->o->n_nsms; si++)
        for (uint32_t ci = 0; ci < nc; ci++)
            for (int il = 0; il < PROF_IL_COUNT; il++) {
                prof_l1hist *h = &pk->l1[pk->nl1++];
                h->nsm = b->o->nsms[si];
                h->ctas_per_sm = 1u << ci;
                h->interleave = (uint32_t)il;
            }
    for (uint32_t si = 0; si < b->o->n_nsms; si++) {
        uint32_t nsm = b->o->nsms[si];
        for (uint32_t s = 0; s < b->o->l1_sms && s < nsm; s++) {
            size_t m = 0;
            for (size_t i = lo; i < hi; i++)
                if (b->l1[i].cta % nsm == s && b->l1[i].cta / nsm < b->o->l1_ctas_per_sm)
                    x->list[m++] = (uint32_t)i;
            if (m == 0)
                continue;
            if (s == 0 && infl_prepare(&x->infl, b->l1, x->list, m, nsm, e))
                return -1;
            for (uint32_t ci = 0; ci < nc; ci++) {
                prof_l1hist *h = &pk->l1[(si * nc + ci) * PROF_IL_COUNT];
                for (int il = 0; il < PROF_IL_COUNT; il++)
                    if (l1_hist(b, x, m, nsm, 1u << ci, il, &h[il], e))
                        return -1;
                /* the set placement, one table for both interleavings */
                if (s == 0 && prof_inflight(&x->infl, 1u << ci, h[0].inflight, e))
                    return -1;
                for (int il = 1; il < PROF_IL_COUNT && s == 0; il++)
                    memcpy(h[il].inflight, h[0].inflight, sizeof h->inflight);
            }
        }
    }
    return 0;
}

static int all_l1(pbuild *b, ge_err *e)
{
    size_t n = b->nl1 ? b->nl1 : 1;
    if (n > UINT32_MAX - 1)
        return ge_errf(e, "L1 log too long for the reuse histograms");
    l1_scratch x = {malloc(n * sizeof *x.list), malloc(n * sizeof *x.keys), malloc(n * sizeof *x.ord),
                    malloc(n * sizeof *x.tmp), malloc((n + 1) * sizeof *x.runs), malloc(n * sizeof *x.acc), {0},
                    {0}};
    int rc = 0;
    if (!x.list || !x.keys || !x.ord || !x.tmp || !x.runs || !x.acc)
        rc = ge_errf(e, "out of memory (L1 reuse)");
    size_t lo = 0;
    for (uint32_t k = 0; k < b->p->nkernels && rc == 0; k++) {
        size_t hi = lo;
        while (hi < b->nl1 && b->l1[hi].kernel == k)
            hi++;
        rc = kernel_l1(b, k, lo, hi, &x, e);
        lo = hi;
    }
    free(x.list);
    free(x.keys);
    free(x.ord);
    free(x.tmp);
    free(x.runs);
    free(x.acc);
    rd_ws_free(&x.ws);
    infl_ws_free(&x.infl);
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
    rd_ws ws = {0};
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
        rc = rd_measure_ws(&ws, acc, bucket, n, tmp, scale, e);
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
    rd_ws_free(&ws);
    return rc;
}

int pb_reuse(pbuild *b, ge_err *e)
{
    if (all_l1(b, e))
        return -1;
    return all_l2(b, e);
}
