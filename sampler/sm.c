/*
 * sm.c - the issue stage of an SM, its per-cycle step and its CPI stack.
 *
 * Each cycle every scheduler looks at its resident warps.  A warp is
 * eligible when the head of its instruction buffer has been decoded, the
 * scoreboard shows no pending source or destination, and it is not held at
 * a barrier or fence.  The policy (sched.h) picks among the eligible; the
 * pick issues if its functional unit, an operand collector and, for memory
 * instructions, the LSU or shared-memory pipeline are free - otherwise the
 * scheduler tries the next pick.  Up to sm.issue_width instructions issue
 * per scheduler per cycle (dual issue when 2).
 *
 * Every scheduler-cycle is charged to one CPI-stack category
 * (common/kresult.h): issued if it issued, else the most advanced reason
 * any of its warps is waiting for, in the order memory > dependency >
 * structural > sync > idle.
 *
 * Speed: a warp that cannot issue caches why and until when (wake,
 * wait_cat), so it costs one compare per cycle until then; a pending load
 * or a barrier sets wake to "never" and the completion or release wakes the
 * warp.  When nothing issued, the step returns the earliest cycle anything
 * can change (a wake, a unit or collector freeing, a fetch or I-cache
 * fill) and the SM sleeps until then; the cycles in between get the same
 * CPI category as the last step, since nothing changes during them.
 */
#include "sm.h"

/* CPI-stack priority: the most advanced reason wins (kresult.h). */
static const uint8_t stall_rank[KR_STALL_COUNT] = {
    [KR_ISSUED] = 6, [KR_MEMORY] = 5, [KR_DEPENDENCY] = 4, [KR_STRUCTURAL] = 3, [KR_SYNC] = 2, [KR_IDLE] = 1,
};

static inline int worse(int a, int b) { return stall_rank[a] >= stall_rank[b] ? a : b; }

void sim_sm_account(sim_gpu *g, sim_sm *sm, uint64_t until)
{
    for (uint32_t s = 0; s < g->nsched; s++) {
        sim_sched_unit *su = &sm->sched[s];
        if (su->acct < until) {
            g->ks.stall[su->last_cat] += (double)(until - su->acct);
            if (su->last_lsu)
                g->ks.lsu_busy += (double)(until - su->acct);
            su->acct = until;
        }
    }
}

/* -1 if warp slot w (local index l of scheduler su) can issue its head
 * instruction now (then it joins the ready set: readiness cannot regress
 * until it issues, so it is not looked at again until then), else the CPI
 * category it waits in, with su->wake[l] saying until when. */
static int warp_status(sim_sched_unit *su, uint32_t l, sim_warp *w, uint64_t now)
{
    uint64_t bit = 1ull << l;
    su->longw &= ~bit;
    if (w->state == SIM_W_BAR || (w->state == SIM_W_FENCE && (w->loads || w->lsu))) {
        su->wake[l] = SIM_NEVER;
        su->longw |= bit;
        return su->cat[l] = KR_SYNC;
    }
    if (w->state == SIM_W_FENCE)
        w->state = SIM_W_RUN;
    if (w->ib_n == 0) {
        su->wake[l] = SIM_NEVER; /* fetch sets it when an instruction arrives */
        return su->cat[l] = KR_IDLE;
    }
    const sim_ib *b = &w->ib[w->ib_head];
    if (b->ready > now) {
        su->wake[l] = b->ready;
        return su->cat[l] = KR_IDLE;
    }
    uint64_t ready;
    int mem;
    if (sim_sb_check(w, b, now, &ready, &mem)) {
        su->wake[l] = ready;
        if (ready == SIM_NEVER)
            su->longw |= bit;
        return su->cat[l] = mem ? KR_MEMORY : KR_DEPENDENCY;
    }
    su->ready |= bit;
    su->umask[b->unit] |= bit;
    su->units |= 1u << b->unit;
    su->rmask[b->res] |= bit;
    return -1;
}

static void count_issue(sim_gpu *g, sim_sm *sm, sim_warp *w, const ws_inst *in, uint32_t mask, const sim_dec *d)
{
    act_counters *a = &g->act;
    double lanes = (double)ws_popc(mask);
    a->c[ACT_WARP_INSTS]++;
    a->c[ACT_THREAD_INSTS] += lanes;
    a->c[ACT_IBUFFER_READS]++;
    a->c[ACT_SCHED_ISSUES]++;
    int distinct = 0;
    for (int i = 0; i < in->nsrc; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= in->src[j] == in->src[i];
        distinct += !dup;
    }
    a->c[ACT_RF_READS] += distinct; /* what the operand collector reads */
    a->c[ACT_RF_WRITES] += in->ndst;
    a->c[ACT_PIPE_BUSY] += d->ii;
    a->op_warps[in->op]++;
    a->op_lanes[in->op] += lanes;
    g->ks.unit_busy[d->unit] += d->ii;
    sim_cta_stat *st = &g->cta_stat[sm->cta[w->cta].stat];
    st->warp_insts++;
    st->thread_insts += lanes;
}

/* Try to issue the head instruction of warp slot w on scheduler s: 0 if
 * issued, -1 if a structural hazard blocks it (*retry: when to look again). */
static int try_issue(sim_gpu *g, sim_sm *sm, uint32_t s, uint32_t w, uint64_t now, uint64_t *retry)
{
    sim_warp *wp = &sm->warp[w];
    sim_sched_unit *su = &sm->sched[s];
    sim_ib *b = &wp->ib[wp->ib_head];
    const ws_inst *in = &b->in; /* stays valid: fetch refills the slot only after the issue stage */
    const sim_dec *d = &g->dec[in->op];
    if (!sim_sb_room(wp, in, now)) {
        *retry = now + 1;
        return -1;
    }
    int u = sim_pool_find(&sm->units[d->unit], s, now, retry);
    if (u < 0)
        return -1;
    int c = sim_pool_find(&sm->coll, s, now, retry);
    if (c < 0)
        return -1;
    if (b->res != SIM_RES_NONE && sim_ldst_can_issue(sm, b->res, now, retry))
        return -1;

    uint32_t extra = sim_opcoll_read(g, su, w, in, now);
    g->ks.rf_conflicts += extra;
    g->act.c[ACT_RF_BANK_CONFLICTS] += extra;
    uint64_t dispatch = now + extra;
    sm->coll.free_at[c] = dispatch + 1;
    sm->units[d->unit].free_at[u] = dispatch + d->ii;

    uint32_t mask = b->mask;
    uint8_t res = b->res;
    wp->ib_head = (uint8_t)((wp->ib_head + 1) % g->ib_cap);
    wp->ib_n--;
    su->wake[w / g->nsched] = 0;
    sim_sched_dirty(su);
    if (!wp->fetch_done)
        sim_fetch_want(sm, w);
    count_issue(g, sm, wp, in, mask, d);

    if (d->space != ISA_SPACE_NONE)
        sim_ldst_issue(g, sm, w, in, mask, now, dispatch);
    if (res != SIM_RES_NONE)
        sm->arb = s + 1 == g->nsched ? 0 : s + 1;
    else if (in->ndst) {
        sim_sb_reserve(wp, in, dispatch + d->latency, UINT32_MAX, 0);
        sim_cta_result(sm, wp->cta, dispatch + d->latency);
    }
    if (d->flags & ISA_F_FENCE)
        wp->state = SIM_W_FENCE;
    if (wp->ib_n == 0 && !wp->nx && g->simt->remaining(wp->simt) == 0)
        sim_cta_warp_done(g, sm, w, now); /* its last instruction */
    else if (d->flags & ISA_F_BARRIER)
        sim_cta_barrier(g, sm, w, now);
    return 0;
}

/* Ready warps whose unit and memory pipeline are free now; *structural is
 * set if some ready warp waits for a busy one (sm->retry_at: when one
 * frees). */
static uint64_t issuable(sim_sm *sm, sim_sched_unit *su, uint32_t s, uint64_t now, int *structural, int *lsu)
{
    uint64_t elig = 0;
    for (uint32_t um = su->units; um; um &= um - 1) {
        int u = __builtin_ctz(um);
        if (!su->umask[u]) {
            su->units &= ~(1u << u);
            continue;
        }
        uint64_t retry = SIM_NEVER;
        if (sim_pool_find(&sm->units[u], s, now, &retry) >= 0) {
            elig |= su->umask[u];
        } else {
            *structural = 1;
            if (retry < sm->retry_at)
                sm->retry_at = retry;
        }
    }
    for (int r = SIM_RES_LSU; r <= SIM_RES_SHARED; r++) {
        uint64_t retry = SIM_NEVER;
        if ((elig & su->rmask[r]) && sim_ldst_can_issue(sm, r, now, &retry)) {
            elig &= ~su->rmask[r];
            *structural = 1;
            if (r == SIM_RES_LSU)
                *lsu = 1;
            if (retry < sm->retry_at)
                sm->retry_at = retry;
        }
    }
    return elig;
}

/* The worst CPI category among scheduler su's waiting warps and the
 * soonest cycle one may become issuable; warps whose wait is over are
 * re-checked (and may join the ready set).  The result stays valid until a
 * wait ends or the waiting set changes, so it is cached (scan_until). */
static inline __attribute__((always_inline)) int scan_waiting(sim_gpu *g, sim_sm *sm, uint32_t s, uint64_t now,
                                                        uint64_t *soonest_out)
{
    sim_sched_unit *su = &sm->sched[s];
    if (now < su->scan_until) {
        *soonest_out = su->scan_until;
        return su->scan_cat;
    }
    uint64_t soonest = SIM_NEVER;
    int cat = KR_IDLE;
    for (uint64_t m = su->resident & ~su->ready; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        if (su->wake[l] > now) { /* still waiting, for a known reason */
            cat = worse(cat, su->cat[l]);
            if (su->wake[l] < soonest)
                soonest = su->wake[l];
            continue;
        }
        int c = warp_status(su, l, &sm->warp[l * g->nsched + s], now);
        if (c >= 0) {
            cat = worse(cat, c);
            if (su->wake[l] < soonest)
                soonest = su->wake[l];
        }
    }
    su->scan_until = soonest;
    su->scan_cat = (uint8_t)cat;
    *soonest_out = soonest;
    return cat;
}

static void sched_step(sim_gpu *g, sim_sm *sm, uint32_t s, uint64_t now, uint64_t *wake)
{
    sim_sched_unit *su = &sm->sched[s];
    uint64_t soonest;
    int structural = 0, lsu = 0;
    int cat = scan_waiting(g, sm, s, now, &soonest);
    if (soonest < *wake)
        *wake = soonest;
    uint32_t issued = 0;
    uint64_t elig = su->ready ? issuable(sm, su, s, now, &structural, &lsu) : 0;
    if (elig) {
        sim_sched_view v = {su->resident, su->longw, su->age};
        while (elig && issued < g->cfg.sm.issue_width) {
            int local = g->sched->pick(su->pol, elig, &v);
            uint64_t bit = 1ull << local;
            uint32_t w = (uint32_t)local * g->nsched + s;
            sim_warp *wp = &sm->warp[w];
            uint8_t unit = wp->ib[wp->ib_head].unit, res = wp->ib[wp->ib_head].res;
            uint64_t retry = SIM_NEVER;
            elig &= ~bit;
            if (try_issue(g, sm, s, w, now, &retry) == 0) {
                issued++;
                g->sched->issued(su->pol, local);
                su->ready &= ~bit;
                su->umask[unit] &= ~bit;
                su->rmask[res] &= ~bit;
                sim_sched_dirty(su);
                if (wp->state != SIM_W_DONE && warp_status(su, (uint32_t)local, wp, now) < 0) {
                    uint64_t r2; /* its next instruction may go in the same cycle (dual issue) */
                    const sim_ib *nb = &wp->ib[wp->ib_head];
                    if (sim_pool_find(&sm->units[nb->unit], s, now, &r2) >= 0 &&
                        sim_ldst_can_issue(sm, nb->res, now, &r2) == 0)
                        elig |= bit;
                }
                v.resident = su->resident;
                v.longw = su->longw;
            } else { /* structural hazard (collector, LSU, scoreboard room) */
                structural = 1;
                if (retry < sm->retry_at)
                    sm->retry_at = retry;
            }
        }
    }
    if (structural)
        cat = worse(cat, KR_STRUCTURAL);
    if (issued) {
        cat = KR_ISSUED;
        sm->busy = 1;
    }
    g->ks.stall[cat]++;
    su->last_cat = (uint8_t)cat;
    su->last_lsu = cat == KR_STRUCTURAL && lsu; /* a ready warp waits for the LSU */
    g->ks.lsu_busy += su->last_lsu;
    su->acct = now + 1;
}

/* A scheduler without warps whose last step found it idle (and no stale
 * scan pending) would find it idle again and change nothing: its step is
 * skipped, and sim_sm_account charges the cycles to KR_IDLE. */
static int sched_idle(const sim_sched_unit *su)
{
    return !su->resident && su->last_cat == KR_IDLE && !su->last_lsu && su->scan_until == SIM_NEVER;
}

/* After a step that issued (or filled the I-cache), the SM used to be
 * stepped again at the next cycle, `next`, to look at the warps that step
 * changed.  That look is taken here instead: the waiting warps of every
 * scheduler are scanned as of `next` (what that step's scan would do
 * first).  If no warp is then ready, that step would issue nothing, and
 * nor would any cycle before the soonest wake: each scheduler's category
 * from `next` on is its scan's, and *wake gets the soonest wake.  1 if so;
 * 0 if some warp is ready (the SM steps at `next`). */
static int next_cycle_waits(sim_gpu *g, sim_sm *sm, uint64_t next, uint64_t *wake)
{
    uint8_t cat[SIM_MAX_SCHEDULERS];
    for (uint32_t s = 0; s < g->nsched; s++) /* a scan only adds ready warps */
        if (sm->sched[s].ready)
            return 0;
    for (uint32_t s = 0; s < g->nsched; s++) {
        sim_sched_unit *su = &sm->sched[s];
        if (sched_idle(su)) {
            cat[s] = KR_IDLE;
            continue;
        }
        uint64_t soonest;
        cat[s] = (uint8_t)scan_waiting(g, sm, s, next, &soonest);
        if (su->ready)
            return 0;
        if (soonest < *wake)
            *wake = soonest;
    }
    for (uint32_t s = 0; s < g->nsched; s++) {
        sm->sched[s].last_cat = cat[s];
        sm->sched[s].last_lsu = 0;
    }
    return 1;
}

uint64_t sim_sm_cycle(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    sim_sm_account(g, sm, now);
    sm->busy = 0;
    sm->retry_at = SIM_NEVER;
    sim_ldst_cycle(g, sm, now);
    uint64_t wake = sm->draining ? sim_cta_drained(g, sm, now) : SIM_NEVER;
    /* The schedulers share the SM's LSU and shared-memory pipeline: the one
     * after the last to use them goes first (round-robin arbitration among
     * the sub-cores), so none is starved. */
    for (uint32_t i = 0, s = sm->arb; i < g->nsched; i++, s = s + 1 == g->nsched ? 0 : s + 1)
        if (!sched_idle(&sm->sched[s]))
            sched_step(g, sm, s, now, &wake);
    sim_fetch(g, sm, now);
    if (sm->ctas == 0) { /* nothing resident: idle until a CTA arrives */
        for (uint32_t s = 0; s < g->nsched; s++) {
            sm->sched[s].last_cat = KR_IDLE;
            sm->sched[s].last_lsu = 0;
        }
        return SIM_NEVER;
    }
    if (sm->busy && (sm->draining || !next_cycle_waits(g, sm, now + 1, &wake)))
        return now + 1;
    if (sm->retry_at < wake)
        wake = sm->retry_at;
    if (sm->fetch_next < wake)
        wake = sm->fetch_next;
    return wake > now ? wake : now + 1;
}
