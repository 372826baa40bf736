/*
 * memdrv.c - synthetic SM side for memory-hierarchy tests (see memdrv.h).
 */
#include <stdlib.h>
#include <string.h>

#include "memdrv.h"

typedef struct warp_st {
    uint64_t i;
    uint32_t out;
    int done, have, queued;
    drv_op op;
} warp_st;

/* Per SM: a FIFO of warps that may issue (have a free load slot). */
typedef struct ready_q {
    uint32_t *w;
    uint32_t head, n, cap;
} ready_q;

static void rq_push(ready_q *q, uint32_t w) { q->w[(q->head + q->n++) % q->cap] = w; }
static uint32_t rq_pop(ready_q *q)
{
    uint32_t w = q->w[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return w;
}

int drv_run(sim_mem *m, const drv_cfg *c, drv_result *r, ge_err *e)
{
    memset(r, 0, sizeof *r);
    r->lat_min = 1e300;
    uint32_t nw = c->nsm * c->warps, depth = c->depth ? c->depth : 1;
    uint32_t ipc = c->issue_per_cycle ? c->issue_per_cycle : 1;
    uint64_t maxc = c->max_cycles ? c->max_cycles : 1000000000ull;
    warp_st *w = calloc(nw, sizeof *w);
    uint64_t *issue = calloc((size_t)nw * depth, sizeof *issue);
    uint32_t *tok_warp = calloc((size_t)nw * depth, sizeof *tok_warp);
    uint32_t *free_tok = calloc((size_t)nw * depth, sizeof *free_tok);
    ready_q *rq = calloc(c->nsm, sizeof *rq);
    uint32_t *qbuf = calloc(nw, sizeof *qbuf);
    if (!w || !issue || !tok_warp || !free_tok || !rq || !qbuf) {
        free(w), free(issue), free(tok_warp), free(free_tok), free(rq), free(qbuf);
        return ge_errf(e, "memdrv: out of memory");
    }
    uint32_t nfree = nw * depth;
    for (uint32_t i = 0; i < nfree; i++)
        free_tok[i] = nfree - 1 - i;
    for (uint32_t s = 0; s < c->nsm; s++) {
        rq[s].w = qbuf + (size_t)s * c->warps;
        rq[s].cap = c->warps;
        for (uint32_t k = 0; k < c->warps; k++) {
            rq_push(&rq[s], s * c->warps + k);
            w[s * c->warps + k].queued = 1;
        }
    }
    uint64_t now = c->start, outstanding = 0;
    uint32_t live = nw, nready = nw;
    while (live || outstanding) {
        if (now - c->start > maxc) {
            r->timed_out = 1;
            break;
        }
        m->ops->cycle(m, now);
        for (uint32_t s = 0; s < c->nsm; s++) {
            uint32_t tok;
            while (m->ops->pop(m, (int)s, now, &tok)) {
                uint32_t wi = tok_warp[tok];
                warp_st *ws = &w[wi];
                double lat = (double)(now - issue[tok]);
                r->lat_sum += lat;
                if (lat < r->lat_min)
                    r->lat_min = lat;
                if (lat > r->lat_max)
                    r->lat_max = lat;
                r->loads++;
                ws->out--;
                outstanding--;
                free_tok[nfree++] = tok;
                r->end = now + 1;
                if (!ws->queued && !ws->done) {
                    rq_push(&rq[s], wi);
                    ws->queued = 1;
                    nready++;
                }
            }
        }
        int retry = 0;
        for (uint32_t s = 0; s < c->nsm && nready; s++) {
            ready_q *q = &rq[s];
            for (uint32_t issued = 0; issued < ipc && q->n;) {
                uint32_t wi = q->w[q->head];
                warp_st *ws = &w[wi];
                if (!ws->have) {
                    if (!c->gen(c->ctx, s, wi % c->warps, ws->i, &ws->op)) {
                        ws->done = 1;
                        live--;
                        rq_pop(q);
                        ws->queued = 0;
                        nready--;
                        continue;
                    }
                    ws->have = 1;
                }
                sim_mem_access a = {ws->op.line, ws->op.sectors, ws->op.kind, ws->op.space ? ws->op.space : ISA_SPACE_GLOBAL,
                                    ws->op.bypass, 0};
                int is_load = ws->op.kind != SIM_MEM_STORE;
                if (is_load)
                    a.token = free_tok[nfree - 1];
                if (m->ops->access(m, (int)s, &a, now) == SIM_MEM_RETRY) {
                    r->retries++;
                    retry = 1;
                    break;
                }
                issued++;
                ws->have = 0;
                ws->i++;
                uint32_t ns = (uint32_t)__builtin_popcount(ws->op.sectors);
                if (is_load) {
                    nfree--;
                    issue[a.token] = now;
                    tok_warp[a.token] = wi;
                    ws->out++;
                    outstanding++;
                    r->load_sectors += ns;
                } else {
                    r->stores++;
                    r->store_sectors += ns;
                    if (now + 1 > r->end)
                        r->end = now + 1;
                }
                rq_pop(q);
                if (ws->out < depth) {
                    rq_push(q, wi); /* round robin: to the back */
                } else {
                    ws->queued = 0;
                    nready--;
                }
            }
        }
        now = retry || nready || c->no_skip ? now + 1 : m->ops->next_event(m, now);
        if (now == UINT64_MAX)
            break;
    }
    r->cycles = r->end > c->start ? r->end - c->start : 0;
    free(w), free(issue), free(tok_warp), free(free_tok), free(rq), free(qbuf);
    if (r->timed_out)
        return ge_errf(e, "memdrv: no progress within %llu cycles", (unsigned long long)maxc);
    return 0;
}

uint64_t drv_one(sim_mem *m, int sm, const drv_op *op, uint64_t *now)
{
    sim_mem_access a = {op->line, op->sectors, op->kind, op->space ? op->space : ISA_SPACE_GLOBAL, op->bypass, 777};
    m->ops->cycle(m, *now);
    while (m->ops->access(m, sm, &a, *now) == SIM_MEM_RETRY)
        m->ops->cycle(m, ++*now);
    if (op->kind == SIM_MEM_STORE)
        return 0;
    uint64_t t0 = *now;
    uint32_t tok;
    for (;;) {
        if (m->ops->pop(m, sm, *now, &tok))
            return *now - t0;
        *now = m->ops->next_event(m, *now);
        if (*now == UINT64_MAX)
            return UINT64_MAX;
        m->ops->cycle(m, *now);
    }
}

void drv_drain(sim_mem *m, uint64_t now, uint64_t until)
{
    while (now < until) {
        now = m->ops->next_event(m, now);
        if (now > until)
            now = until;
        m->ops->cycle(m, now);
    }
}
