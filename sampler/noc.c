/*
 * noc.c - crossbar with per-port bandwidth, latency and credits (see noc.h).
 *
 * The busy-source bitmap lets a tick visit only sources that have packets,
 * in round-robin order, at the cost of a count-trailing-zeros per source.
 * The wake tick is the earliest tick at which any queued packet could move
 * (its ready tick, or when its ports free up); a source blocked on
 * destination credits is re-examined every tick, since credits come back
 * when another component pops.
 */
#include <stdlib.h>
#include <string.h>

#include "noc.h"

/* serve(): the head waits for destination credits (returned by noc_pop). */
#define NOC_WAIT_CREDITS (UINT64_MAX - 1)

int noc_init(noc *n, uint32_t nsrc, uint32_t ndst, int to_slices, uint32_t rate, uint32_t latency,
             uint32_t src_flits, uint32_t src_pkts, uint32_t dst_flits, ge_err *e)
{
    memset(n, 0, sizeof *n);
    if (!nsrc || !ndst || !rate || !src_flits || !dst_flits)
        return ge_errf(e, "noc: needs ports, a rate and buffers");
    n->nsrc = nsrc;
    n->ndst = ndst;
    n->to_slices = to_slices;
    n->rate = rate;
    n->latency = latency;
    n->src_flits_max = src_flits;
    n->src_pkts_max = src_pkts && src_pkts < src_flits ? src_pkts : src_flits;
    n->dst_flits_max = dst_flits;
    n->nwords = (nsrc + 63) / 64;
    n->src = ge_calloc(nsrc, sizeof *n->src, e);
    n->src_flits = ge_calloc(nsrc, sizeof *n->src_flits, e);
    n->in_free = ge_calloc(nsrc, sizeof *n->in_free, e);
    n->out_free = ge_calloc(ndst, sizeof *n->out_free, e);
    n->dst = ge_calloc(ndst, sizeof *n->dst, e);
    n->credits = ge_calloc(ndst, sizeof *n->credits, e);
    n->busy = ge_calloc(n->nwords, sizeof *n->busy, e);
    n->src_wake = ge_calloc(nsrc, sizeof *n->src_wake, e);
    if (!n->src || !n->src_flits || !n->in_free || !n->out_free || !n->dst || !n->credits || !n->busy ||
        !n->src_wake)
        goto fail;
    for (uint32_t s = 0; s < nsrc; s++)
        if (pktq_init(&n->src[s], n->src_pkts_max, e))
            goto fail;
    for (uint32_t d = 0; d < ndst; d++) {
        if (pktq_init(&n->dst[d], dst_flits, e)) /* every packet holds >= 1 flit of credit */
            goto fail;
        n->credits[d] = dst_flits;
    }
    n->wake = UINT64_MAX;
    return 0;
fail:
    noc_free(n);
    return -1;
}

void noc_free(noc *n)
{
    if (n->src)
        for (uint32_t s = 0; s < n->nsrc; s++)
            pktq_free(&n->src[s]);
    if (n->dst)
        for (uint32_t d = 0; d < n->ndst; d++)
            pktq_free(&n->dst[d]);
    free(n->src);
    free(n->src_flits);
    free(n->in_free);
    free(n->out_free);
    free(n->dst);
    free(n->credits);
    free(n->busy);
    free(n->src_wake);
    memset(n, 0, sizeof *n);
}

void noc_push(noc *n, uint32_t s, const mem_pkt *p)
{
    pktq_push(&n->src[s], p);
    n->src_flits[s] += p->flits;
    n->busy[s >> 6] |= 1ull << (s & 63);
    if (p->ready < n->src_wake[s] || n->src[s].n == 1)
        n->src_wake[s] = p->ready;
    if (p->ready < n->wake)
        n->wake = p->ready;
}

void noc_pop(noc *n, uint32_t d)
{
    n->credits[d] += pktq_head(&n->dst[d])->flits;
    pktq_pop(&n->dst[d]);
    n->credit_epoch++;
}

/* Try to send source s's packets at tick now; returns the tick from which
 * it is worth looking at this source again (UINT64_MAX when empty). */
static uint64_t serve(noc *n, uint32_t s, uint64_t now)
{
    pktq *q = &n->src[s];
    uint64_t tick_end = (now + 1) * n->rate; /* first slot after this tick */
    for (;;) {
        mem_pkt *p = pktq_head(q);
        if (!p) {
            n->busy[s >> 6] &= ~(1ull << (s & 63));
            return UINT64_MAX;
        }
        if (p->ready > now)
            return p->ready;
        uint32_t d = n->to_slices ? p->slice : p->sm;
        uint64_t start = now * n->rate;
        if (n->in_free[s] > start)
            start = n->in_free[s];
        if (n->out_free[d] > start)
            start = n->out_free[d];
        if (start >= tick_end)
            return start / n->rate;
        if (n->credits[d] < p->flits)
            return NOC_WAIT_CREDITS;
        /* A weighted (background) packet stands for `weight` packets on the
         * L2-slice side of the crossbar: it holds that port weight times as
         * long; its SM-side port, one SM's, only for its own flits. */
        uint64_t end = start + p->flits, wend = start + (uint64_t)p->flits * p->weight;
        n->in_free[s] = n->to_slices ? end : wend;
        n->out_free[d] = n->to_slices ? wend : end;
        n->credits[d] -= p->flits;
        n->src_flits[s] -= p->flits;
        if (!(p->flags & PKT_F_SHADOW))
            n->flits += p->flits;
        mem_pkt *out = pktq_push_slot(&n->dst[d]);
        *out = *p;
        out->ready = (end - 1) / n->rate + n->latency;
        pktq_pop(q);
        if (n->on_arrive)
            n->on_arrive(n->ctx, d, out);
        if (n->on_depart)
            n->on_depart(n->ctx, s, now);
        /* Its input port is taken for the rest of the tick: the next packet
         * cannot go before the port frees (looking then is early enough). */
        if (n->in_free[s] >= tick_end && q->n)
            return n->in_free[s] / n->rate;
    }
}

void noc_tick(noc *n, uint64_t now)
{
    if (now < n->wake)
        return;
    uint64_t wake = UINT64_MAX;
    /* Round robin by tick number, so arbitration does not depend on which
     * idle ticks were skipped. */
    uint32_t start = (uint32_t)(now % n->nsrc);
    /* Visit busy sources start, start+1, ..., wrapping around. */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass == 0 ? start : 0, hi = pass == 0 ? n->nsrc : start;
        for (uint32_t w = lo >> 6; w < n->nwords && (w << 6) < hi; w++) {
            uint64_t bits = n->busy[w];
            if ((w << 6) < lo)
                bits &= ~0ull << (lo & 63);
            while (bits) {
                uint32_t s = (w << 6) + (uint32_t)__builtin_ctzll(bits);
                bits &= bits - 1;
                if (s >= hi)
                    break;
                /* A source blocked on its ports sleeps until they free; one
                 * blocked on credits is looked at again once some were
                 * returned (any destination: cheap and safe). */
                if (n->src_wake[s] > now && !(n->src_wake[s] == NOC_WAIT_CREDITS && n->credit_seen != n->credit_epoch)) {
                    uint64_t t = n->src_wake[s] == NOC_WAIT_CREDITS ? now + 1 : n->src_wake[s];
                    if (t < wake)
                        wake = t;
                    continue;
                }
                uint64_t t = serve(n, s, now);
                n->src_wake[s] = t;
                if (t == NOC_WAIT_CREDITS)
                    t = now + 1;
                if (t < wake)
                    wake = t;
            }
        }
    }
    n->credit_seen = n->credit_epoch;
    n->wake = wake > now ? wake : now + 1;
}
