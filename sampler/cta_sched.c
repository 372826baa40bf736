/*
 * cta_sched.c - placing CTAs on SMs, barriers, and retiring warps and CTAs.
 *
 * How many CTAs of a kernel an SM holds at once is CUDA's occupancy rule
 * (common/occupancy.h: the minimum over CTA slots, warps, threads,
 * registers and shared memory), the same function the analytical model
 * uses.  All CTAs of a kernel need the same resources, so the limit is one
 * number per kernel.  Placement is breadth-first and deterministic: at
 * every cycle where slots are free, SMs in index order each take one CTA
 * per round until none can take more - at kernel start this spreads CTAs
 * 0,1,2,... over SMs 0,1,2,... like the hardware's and GPGPU-Sim's
 * round-robin block issue.  In sampled mode only the first `active_sms` SMs
 * exist for placement; the feed decides which CTAs come.
 *
 * A warp takes the lowest free warp slot; slot s belongs to scheduler
 * s % schedulers.  Barriers (bar.sync): a warp that issues one waits until
 * every warp of its CTA that has not retired has arrived (retired warps do
 * not count, as in CUDA where exited threads no longer participate).  A warp
 * retires when its last instruction issues; the CTA retires - freeing its
 * slot, warps, registers and shared memory - when all its warps have
 * retired and none of its loads or LSU work is still in flight.
 */
#include <stdlib.h>
#include <string.h>

#include "sm.h"

int sim_cta_init(sim_gpu *g, sim_sm *sm, ge_err *e)
{
    sm->ncta_slots = g->cfg.sm.max_ctas;
    sm->cta = ge_calloc(sm->ncta_slots, sizeof *sm->cta, e);
    if (!sm->cta)
        return -1;
    for (uint32_t i = 0; i < sm->ncta_slots; i++) {
        ws_cta_init(&sm->cta[i].cta);
        sm->cta[i].warp_slot = ge_calloc(g->cfg.sm.max_warps, sizeof(uint32_t), e);
        if (!sm->cta[i].warp_slot)
            return -1;
    }
    return 0;
}

void sim_cta_free_all(sim_sm *sm)
{
    if (!sm->cta)
        return;
    for (uint32_t i = 0; i < sm->ncta_slots; i++) {
        ws_cta_free(&sm->cta[i].cta);
        free(sm->cta[i].warp_slot);
    }
    free(sm->cta);
}

/* Reject what the SM cannot run before any of it runs. */
static int cta_check(sim_gpu *g, const ws_cta *c, ge_err *e)
{
    if (c->nwarps > g->occ.warps_per_cta)
        return ge_errf(e, "kernel %s: CTA %llu has %u warps, more than the %u of its block", g->k->name,
                       (unsigned long long)c->index, c->nwarps, g->occ.warps_per_cta);
    for (size_t i = 0; i < c->ninst; i++) {
        const ws_inst *in = &c->inst[i];
        if (in->op >= ISA_OP_COUNT)
            return ge_errf(e, "kernel %s: CTA %llu: invalid op kind %u", g->k->name, (unsigned long long)c->index,
                           in->op);
        uint8_t u = g->dec[in->op].unit;
        if (g->cfg.units[u] == 0)
            return ge_errf(e, "kernel %s uses %s instructions but units.%s = 0 in the config", g->k->name,
                           isa_ops[in->op].name, isa_unit_names[u]);
        if (in->addr != WS_NO_ADDR && (size_t)in->addr + WS_WARP_SIZE > c->naddr)
            return ge_errf(e, "kernel %s: CTA %llu: address index out of range", g->k->name,
                           (unsigned long long)c->index);
        if (in->ndst > WS_MAX_DST || in->nsrc > WS_MAX_SRC)
            return ge_errf(e, "kernel %s: CTA %llu: too many registers", g->k->name, (unsigned long long)c->index);
    }
    for (uint32_t w = 0; w < c->nwarps; w++)
        if ((uint64_t)c->warps[w].first + c->warps[w].ninst > c->ninst)
            return ge_errf(e, "kernel %s: CTA %llu: warp %u out of range", g->k->name,
                           (unsigned long long)c->index, w);
    return 0;
}

static uint32_t free_warp_slot(const sim_gpu *g, const sim_sm *sm, uint32_t from)
{
    for (uint32_t s = from; s < g->cfg.sm.max_warps; s++)
        if (sm->warp[s].state == SIM_W_FREE)
            return s;
    return UINT32_MAX;
}

static void warp_start(sim_gpu *g, sim_sm *sm, uint32_t ci, uint32_t wid, uint32_t slot)
{
    sim_warp *w = &sm->warp[slot];
    w->state = SIM_W_RUN;
    w->ib_head = w->ib_n = 0;
    w->nx = NULL;
    w->fetch_done = 0;
    sm->fetch_wait[slot >> 6] &= ~(1ull << (slot & 63));
    w->nsb = 0;
    w->sb_bits = 0;
    w->loads = w->lsu = 0;
    w->cta = ci;
    w->wid = wid;
    w->age = g->age_clock++;
    g->simt->warp_start(w->simt, sm->cta[ci].src, wid);
    uint32_t s = slot % g->nsched, local = slot / g->nsched;
    sim_sched_unit *su = &sm->sched[s];
    su->resident |= 1ull << local;
    su->longw &= ~(1ull << local);
    su->ready &= ~(1ull << local);
    su->wake[local] = 0;
    su->cat[local] = KR_IDLE;
    su->age[local] = w->age;
    sim_sched_dirty(su);
    if (g->sched->warp_added)
        g->sched->warp_added(su->pol, (int)local);
    sim_fetch_want(sm, slot);
}

/* Place one CTA from the feed on sm: 1 placed, 0 feed exhausted, -1 error. */
static int place(sim_gpu *g, sim_sm *sm, sim_cta_feed *feed, uint64_t now, ge_err *e)
{
    uint32_t ci = 0;
    while (sm->cta[ci].used)
        ci++;
    sim_cta_slot *cs = &sm->cta[ci];
    int rc = feed->borrow ? feed->borrow(feed->ctx, &cs->src, e) : feed->next(feed->ctx, &cs->cta, e);
    if (rc <= 0)
        return rc;
    if (!feed->borrow)
        cs->src = &cs->cta;
    if (cta_check(g, cs->src, e))
        return -1;
    if (ge_reserve((void **)&g->cta_stat, &g->cta_stat_cap, g->ncta_stat + 1, sizeof *g->cta_stat, e))
        return -1;
    sim_cta_stat *st = &g->cta_stat[g->ncta_stat];
    memset(st, 0, sizeof *st);
    st->index = cs->src->index;
    st->sm = sm->id;
    st->start = now - g->kstart;
    cs->stat = (uint32_t)g->ncta_stat++;
    cs->used = 1;
    cs->nwarps = cs->live = cs->src->nwarps;
    cs->bar_waiting = 0;
    cs->outstanding = 0;
    cs->drain = 0;
    cs->retire_wait = 0;
    if (sm->ctas++ == 0) {
        sim_stats_active(g, now);
        g->nactive++;
        g->occupied[sm->id >> 6] |= 1ull << (sm->id & 63);
    }
    g->resident_ctas++;
    uint32_t slot = 0;
    for (uint32_t w = 0; w < cs->nwarps; w++) {
        slot = free_warp_slot(g, sm, slot);
        cs->warp_slot[w] = slot;
        warp_start(g, sm, ci, w, slot);
    }
    /* warps with no instructions retire at once */
    for (uint32_t w = 0; w < cs->nwarps; w++) {
        sim_warp *wp = &sm->warp[cs->warp_slot[w]];
        if (g->simt->remaining(wp->simt) == 0 && wp->state == SIM_W_RUN)
            sim_cta_warp_done(g, sm, cs->warp_slot[w], now);
    }
    if (cs->used && cs->nwarps == 0)
        sim_cta_outstanding_done(g, sm, ci, now); /* empty CTA: nothing to wait for */
    sm->wake = now;
    g->sm_due[sm->id] = now;
    return 1;
}

int sim_cta_fill(sim_gpu *g, sim_cta_feed *feed, uint64_t now, int *exhausted, ge_err *e)
{
    int placed = 0;
    while (!*exhausted) {
        int round = 0;
        for (uint32_t s = 0; s < g->nsms && !*exhausted; s++) {
            sim_sm *sm = &g->sm[s];
            if (sm->ctas >= g->occ.ctas_per_sm)
                continue;
            int rc = place(g, sm, feed, now, e);
            if (rc < 0)
                return -1;
            if (rc == 0)
                *exhausted = 1;
            round += rc;
        }
        if (!round)
            break;
        placed += round;
    }
    return placed;
}

static void cta_retire(sim_gpu *g, sim_sm *sm, uint32_t ci, uint64_t now);

/* All warps retired and nothing in flight: retire now, or when drained. */
static void cta_done(sim_gpu *g, sim_sm *sm, uint32_t ci, uint64_t now)
{
    sim_cta_slot *cs = &sm->cta[ci];
    if (cs->drain <= now) {
        cta_retire(g, sm, ci, now);
    } else if (!cs->retire_wait) {
        cs->retire_wait = 1;
        sm->draining++;
    }
}

uint64_t sim_cta_drained(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    uint64_t next = SIM_NEVER;
    for (uint32_t ci = 0; ci < sm->ncta_slots && sm->draining; ci++) {
        sim_cta_slot *cs = &sm->cta[ci];
        if (!cs->used || !cs->retire_wait)
            continue;
        if (cs->drain <= now) {
            cs->retire_wait = 0;
            sm->draining--;
            cta_retire(g, sm, ci, now);
        } else if (cs->drain < next) {
            next = cs->drain;
        }
    }
    return next;
}

static void cta_retire(sim_gpu *g, sim_sm *sm, uint32_t ci, uint64_t now)
{
    sim_cta_slot *cs = &sm->cta[ci];
    sim_cta_stat *st = &g->cta_stat[cs->stat];
    st->end = now - g->kstart;
    g->ks.warp_cycles += (double)cs->nwarps * (double)(now + 1 - (st->start + g->kstart));
    for (uint32_t w = 0; w < cs->nwarps; w++)
        sm->warp[cs->warp_slot[w]].state = SIM_W_FREE;
    cs->used = 0;
    g->resident_ctas--;
    g->slot_freed = 1;
    if (now + 1 > g->last_retire)
        g->last_retire = now + 1;
    if (--sm->ctas == 0) {
        sim_stats_active(g, now + 1);
        g->nactive--;
        g->occupied[sm->id >> 6] &= ~(1ull << (sm->id & 63));
    }
}

void sim_cta_outstanding_done(sim_gpu *g, sim_sm *sm, uint32_t ci, uint64_t now)
{
    sim_cta_slot *cs = &sm->cta[ci];
    if (cs->outstanding)
        cs->outstanding--;
    if (cs->used && cs->live == 0 && cs->outstanding == 0)
        cta_done(g, sm, ci, now);
}

static void barrier_release(sim_sm *sm, sim_cta_slot *cs)
{
    for (uint32_t w = 0; w < cs->nwarps; w++) {
        uint32_t s = cs->warp_slot[w];
        if (sm->warp[s].state == SIM_W_BAR) {
            sm->warp[s].state = SIM_W_RUN;
            sim_warp_wake(sm, s);
        }
    }
    cs->bar_waiting = 0;
}

void sim_cta_barrier(sim_gpu *g, sim_sm *sm, uint32_t w, uint64_t now)
{
    (void)g;
    (void)now;
    sim_warp *wp = &sm->warp[w];
    sim_cta_slot *cs = &sm->cta[wp->cta];
    wp->state = SIM_W_BAR;
    if (++cs->bar_waiting >= cs->live)
        barrier_release(sm, cs);
}

void sim_cta_warp_done(sim_gpu *g, sim_sm *sm, uint32_t w, uint64_t now)
{
    sim_warp *wp = &sm->warp[w];
    sim_cta_slot *cs = &sm->cta[wp->cta];
    wp->state = SIM_W_DONE;
    uint32_t s = w % g->nsched, local = w / g->nsched;
    sim_sched_unit *su = &sm->sched[s];
    su->resident &= ~(1ull << local);
    su->ready &= ~(1ull << local);
    sim_sched_dirty(su);
    for (int u = 0; u < ISA_UNIT_COUNT; u++)
        su->umask[u] &= ~(1ull << local);
    for (int r = 0; r < 3; r++)
        su->rmask[r] &= ~(1ull << local);
    if (g->sched->warp_removed)
        g->sched->warp_removed(sm->sched[s].pol, (int)local);
    sim_fetch_drop(sm, w);
    cs->live--;
    if (cs->bar_waiting && cs->bar_waiting >= cs->live)
        barrier_release(sm, cs);
    if (cs->live == 0 && cs->outstanding == 0)
        cta_done(g, sm, wp->cta, now);
}
