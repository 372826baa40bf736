/*
 * trim.c - temporal sampling inside CTAs: shorter copies of sample CTAs
 * whose hot loop runs fewer iterations (see trim.h).
 *
 * A warp's hot loop is found in its stream, not in the code: every time the
 * pc goes back (pc[i+1] <= pc[i]) the warp jumps to a loop head, and the
 * head the CTA's warps jump to most often is its hot loop.  Each jump there
 * starts an iteration, so a warp that jumps m times runs m + 1 iterations
 * (the first entered from the prologue).  Keeping k of them, the copy keeps
 * the first k - 1 iterations, drops the ones after up to the last, and
 * keeps the last (which leaves the loop) and everything after it: the
 * prologue, the loop's start-up and the epilogue -- a final reduction,
 * atomics to global memory -- all run as they would.  A CTA is copied whole
 * when one warp's dropped part would hold a different number of barriers
 * than another's (the copy would deadlock or desynchronise its warps).
 */
#include <stdlib.h>
#include <string.h>

#include "estimate_int.h"
#include "trim.h"
#include "u64set.h"

typedef struct {
    uint32_t njump;  /* jumps to the hot loop's head */
    size_t first;    /* its entries in pos[] and bars[] */
} warp_loop;

struct est_loops {
    const ws_cta *const *ctas;
    size_t n;
    size_t *wfirst;  /* per CTA: its first warp_loop */
    warp_loop *w;
    uint32_t *pos;   /* per jump: index of the instruction it jumps to */
    uint32_t *bars;  /* per jump: barriers the warp executed before pos */
};

static int is_back(const ws_inst *w, uint32_t i) { return w[i + 1].pc <= w[i].pc; }

/* The pc the CTA's backward jumps go to most often (UINT64_MAX: none);
 * t has room for c->ninst entries. */
static uint64_t hot_head(const ws_cta *c, uint64_t *t)
{
    size_t n = 0;
    for (uint32_t w = 0; w < c->nwarps; w++) {
        const ws_inst *in = ws_warp_inst(c, w);
        for (uint32_t i = 0; i + 1 < c->warps[w].ninst; i++)
            if (is_back(in, i))
                t[n++] = in[i + 1].pc;
    }
    qsort(t, n, sizeof *t, u64_cmp);
    uint64_t best = UINT64_MAX;
    size_t best_n = 0;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && t[j] == t[i]; j++)
            ;
        if (j - i > best_n)
            best_n = j - i, best = t[i];
    }
    return best;
}

est_loops *est_loops_find(const ws_cta *const *ctas, size_t n, ge_err *e)
{
    est_loops *l = calloc(1, sizeof *l);
    size_t nw = 0, ni = 0, maxi = 1;
    for (size_t i = 0; i < n; i++) {
        nw += ctas[i]->nwarps;
        ni += ctas[i]->ninst;
        if (ctas[i]->ninst > maxi)
            maxi = ctas[i]->ninst;
    }
    uint64_t *t = malloc(maxi * sizeof *t);
    if (l) {
        l->ctas = ctas;
        l->n = n;
        l->wfirst = malloc((n + 1) * sizeof *l->wfirst);
        l->w = malloc((nw ? nw : 1) * sizeof *l->w);
        l->pos = malloc((ni ? ni : 1) * sizeof *l->pos);
        l->bars = malloc((ni ? ni : 1) * sizeof *l->bars);
    }
    if (!l || !t || !l->wfirst || !l->w || !l->pos || !l->bars) {
        free(t);
        est_loops_free(l);
        ge_errf(e, "out of memory (finding loops)");
        return NULL;
    }
    size_t wi = 0, pi = 0;
    for (size_t i = 0; i < n; i++) {
        const ws_cta *c = ctas[i];
        uint64_t head = hot_head(c, t);
        l->wfirst[i] = wi;
        for (uint32_t w = 0; w < c->nwarps; w++, wi++) {
            const ws_inst *in = ws_warp_inst(c, w);
            warp_loop *wl = &l->w[wi];
            wl->first = pi;
            wl->njump = 0;
            uint32_t bars = 0;
            for (uint32_t k = 0; k + 1 < c->warps[w].ninst && head != UINT64_MAX; k++) {
                bars += (isa_ops[in[k].op].flags & ISA_F_BARRIER) != 0;
                if (is_back(in, k) && in[k + 1].pc == head) {
                    l->pos[pi] = k + 1;
                    l->bars[pi++] = bars;
                    wl->njump++;
                }
            }
        }
    }
    l->wfirst[n] = wi;
    free(t);
    return l;
}

void est_loops_free(est_loops *l)
{
    if (!l)
        return;
    free(l->wfirst);
    free(l->w);
    free(l->pos);
    free(l->bars);
    free(l);
}

/* Warp wl's cut [*lo, *hi) for `keep` iterations (empty if it runs no more);
 * returns the barriers in it. */
static uint32_t warp_cut(const est_loops *l, const warp_loop *wl, uint32_t keep, uint32_t *lo, uint32_t *hi)
{
    *lo = *hi = 0;
    if (keep < 2 || wl->njump + 1 <= keep)
        return 0;
    const uint32_t *p = l->pos + wl->first, *b = l->bars + wl->first;
    *lo = p[keep - 2];         /* the start of iteration keep */
    *hi = p[wl->njump - 1];    /* the start of the last */
    return b[wl->njump - 1] - b[keep - 2];
}

/* CTA i's cut per warp (cut[2w], cut[2w + 1]; NULL: not wanted); the
 * instructions dropped, 0 if the CTA is copied whole. */
static size_t plan(const est_loops *l, size_t i, uint32_t keep, uint32_t *cut)
{
    size_t dropped = 0;
    uint32_t bars0 = 0;
    for (size_t w = l->wfirst[i]; w < l->wfirst[i + 1]; w++) {
        uint32_t lo, hi, b = warp_cut(l, &l->w[w], keep, &lo, &hi);
        if (w == l->wfirst[i])
            bars0 = b;
        if (b != bars0)
            return 0;
        if (cut) {
            cut[2 * (w - l->wfirst[i])] = lo;
            cut[2 * (w - l->wfirst[i]) + 1] = hi;
        }
        dropped += hi - lo;
    }
    return dropped;
}

double est_loops_dropped(const est_loops *l, uint32_t keep)
{
    double d = 0;
    for (size_t i = 0; i < l->n; i++)
        d += (double)plan(l, i, keep, NULL);
    return d;
}

/* Append instruction `in` of `src` (with its lane addresses) to dst's last warp. */
static int push_copy(ws_cta *dst, const ws_cta *src, const ws_inst *in, ge_err *e)
{
    ws_inst *o = ws_cta_push(dst, e);
    if (!o)
        return -1;
    *o = *in;
    o->addr = WS_NO_ADDR;
    const uint64_t *a = ws_inst_addr(src, in);
    if (a) {
        uint64_t *oa = ws_cta_push_addr(dst, o, e);
        if (!oa)
            return -1;
        memcpy(oa, a, WS_WARP_SIZE * sizeof *oa);
    }
    return 0;
}

int est_loops_trim(const est_loops *l, size_t i, uint32_t keep, ws_cta *dst, ge_err *e)
{
    const ws_cta *src = l->ctas[i];
    uint32_t *cut = malloc(2 * (src->nwarps ? src->nwarps : 1) * sizeof *cut);
    if (!cut)
        return ge_errf(e, "out of memory (trimming a CTA)");
    if (plan(l, i, keep, cut) == 0) {
        free(cut);
        return ws_cta_copy(dst, src, e);
    }
    int rc = 0;
    ws_cta_reset(dst);
    memcpy(dst->id, src->id, sizeof dst->id);
    dst->index = src->index;
    for (uint32_t w = 0; w < src->nwarps && !rc; w++) {
        rc = ws_cta_begin_warp(dst, e);
        const ws_inst *in = ws_warp_inst(src, w);
        for (uint32_t k = 0; k < src->warps[w].ninst && !rc; k++)
            if (k < cut[2 * w] || k >= cut[2 * w + 1])
                rc = push_copy(dst, src, &in[k], e);
    }
    free(cut);
    return rc;
}

void est_extrapolate(const double *a, double *t, double f)
{
    for (int i = 0; i < T_TOTALS; i++)
        if (t[i] > a[i]) /* more instructions never take less */
            t[i] += (t[i] - a[i]) * f;
    /* nor do they hit more often than they access */
    static const int hits[5][2] = {{T_L1_HITS, T_L1_SECTORS},
                                   {T_L1W_HITS, T_L1W_SECTORS},
                                   {T_L2_HITS, T_L2_SECTORS},
                                   {T_ROW_HITS_R, T_ROWS_R},
                                   {T_ROW_HITS_W, T_ROWS_W}};
    for (int i = 0; i < 5; i++)
        if (t[hits[i][0]] > t[hits[i][1]])
            t[hits[i][0]] = t[hits[i][1]];
}
