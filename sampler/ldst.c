/*
 * ldst.c - the load/store unit: coalescing, shared memory, and the hand-off
 * of line accesses to the memory system.
 *
 * Global, local, constant and texture instructions: the lanes' addresses
 * are coalesced into lines and sectors (common/coalesce.h, with the L1's
 * line and sector size) and the SM's LSU offers them to sim_mem one per
 * cycle (SIM_LSU_LINES_PER_CYCLE), holding one instruction at a time: a
 * second memory instruction cannot issue while the LSU still has lines of
 * the first (structural stall), and a refused access (RETRY: MSHRs or miss
 * queue full) is offered again the next cycle (without calling the memory
 * system while its refusal key, mem.h, says the answer cannot change).
 * This is GPGPU-Sim's LD/ST unit model (Bakhoda et al., ISPASS 2009).  A
 * load's destination registers become readable when its last line is back
 * (sim_mem_pop); a store retires when its last line is accepted (mem.h).
 * Atomics behave like loads and bypass the L1.  Constant loads go to the
 * memory system's constant cache (space CONST).
 *
 * Shared memory: sm.shared_banks banks of 4-byte words.  An access needs as
 * many bank cycles as the largest number of distinct words any bank must
 * deliver (lanes reading the same word share it - broadcast); atomics
 * serialise on equal words too.  The shared-memory pipeline is busy for
 * that many cycles and the data arrive sm.shared_latency_cycles after the
 * access starts plus the extra cycles, so an N-way conflict costs N times
 * the throughput of a conflict-free access (the expectation the
 * bank-conflict microbenchmark checks).
 *
 * A memory instruction without addresses (a front-end that did not record
 * them) or with no active lane moves no data: it completes after the
 * config's latency.mem.latency.
 */
#include <string.h>

#include "sm.h"

int sim_ldst_init(sim_sm *sm, ge_err *e)
{
    (void)e;
    sm->lsu.n = sm->lsu.next = 0;
    sm->lsu.offer_cycle = SIM_NEVER;
    sm->rec_free = UINT32_MAX;
    for (uint32_t i = sm->nrec; i-- > 0;) {
        sm->rec[i].next_free = sm->rec_free;
        sm->rec_free = i;
    }
    sm->loads_out = 0;
    return 0;
}

/* Bank cycles of a shared access: the most words any one bank must deliver. */
static uint32_t shared_degree(const sim_gpu *g, uint32_t mask, const uint64_t *addr, uint32_t size, int atomic)
{
    uint32_t per_lane = size >= 4 ? (size + 3) / 4 : 1;
    if (per_lane > 4)
        per_lane = 4;
    /* the distinct words (lanes reading one word share it: a broadcast;
     * atomics serialise on it instead), at most 128 in a 256-slot table */
    uint32_t seen[256], banks = g->cfg.sm.shared_banks, count[256], degree = 0;
    uint64_t used[4] = {0, 0, 0, 0};
    memset(count, 0, banks * sizeof *count);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t w0 = addr[__builtin_ctz(m)] / 4;
        for (uint32_t k = 0; k < per_lane; k++) {
            uint32_t v = (uint32_t)(w0 + k);
            if (!atomic) {
                uint32_t h = (v * 2654435761u) >> 24;
                while (used[h >> 6] >> (h & 63) & 1 && seen[h] != v)
                    h = (h + 1) & 255;
                if (used[h >> 6] >> (h & 63) & 1)
                    continue;
                used[h >> 6] |= 1ull << (h & 63);
                seen[h] = v;
            }
            uint32_t c = ++count[v % banks];
            if (c > degree)
                degree = c;
        }
    }
    return degree ? degree : 1;
}

static int is_shared(const sim_dec *d) { return d->space == ISA_SPACE_SHARED; }

int sim_ldst_res(const sim_gpu *g, const ws_inst *in, uint32_t mask)
{
    const sim_dec *d = &g->dec[in->op];
    if (d->space == ISA_SPACE_NONE || in->addr == WS_NO_ADDR || !mask)
        return SIM_RES_NONE;
    return is_shared(d) ? SIM_RES_SHARED : SIM_RES_LSU;
}

int sim_ldst_can_issue(sim_sm *sm, int res, uint64_t now, uint64_t *retry)
{
    if (res == SIM_RES_SHARED) {
        if (sm->shared_free <= now)
            return 0;
        *retry = sm->shared_free;
        return -1;
    }
    if (res != SIM_RES_LSU || (sm->lsu.next >= sm->lsu.n && sm->rec_free != UINT32_MAX))
        return 0;
    *retry = SIM_NEVER; /* the LSU freeing (or a load record returning) wakes the SM */
    return -1;
}

static uint32_t rec_alloc(sim_sm *sm, uint32_t w, uint32_t lines, uint8_t space, uint64_t now)
{
    uint32_t t = sm->rec_free;
    sim_load *r = &sm->rec[t];
    sm->rec_free = r->next_free;
    r->issue = now;
    r->warp = w;
    r->left = lines;
    r->space = space;
    sm->loads_out++;
    return t;
}

static int lsu_offer_one(sim_gpu *g, sim_sm *sm, uint64_t now);

/* Lines hinted to the memory system ahead of their offer (mem.h hint). */
#define LSU_HINT_AHEAD 8

static void lsu_hint(sim_gpu *g, sim_sm *sm, int i)
{
    const sim_lsu *l = &sm->lsu;
    if (i >= l->n || !g->mem->ops->hint)
        return;
    sim_mem_access a = {l->line[i].line, l->line[i].sectors, l->kind, l->space, l->bypass, l->token};
    g->mem->ops->hint(g->mem, (int)sm->id, &a);
}

/* Offer the LSU's next lines to the memory system, at most
 * SIM_LSU_LINES_PER_CYCLE per cycle; stops at the first refusal.  Returns
 * 1 if the LSU's instruction finished (the LSU is free again). */
int sim_ldst_offer(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    sim_lsu *l = &sm->lsu;
    if (l->offer_cycle != now) {
        l->offer_cycle = now;
        l->offers = 0;
    }
    int busy = l->next < l->n;
    while (l->next < l->n && l->start <= now && l->offers < SIM_LSU_LINES_PER_CYCLE && !lsu_offer_one(g, sm, now))
        ;
    return busy && l->next >= l->n;
}

/* Offer one line; 0 if accepted, -1 if refused. */
static int lsu_offer_one(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    sim_lsu *l = &sm->lsu;
    l->offers++;
    const sim_mem_ops *ops = g->mem->ops;
    /* While a held refusal stands the clock loop does not visit the SM for
     * the LSU (gpu.c); each cycle it slept through counts as the refused
     * offer it would have made. */
    if (l->held && now > l->held_at + 1)
        g->ks.lsu_retry += (double)(now - l->held_at - 1);
    if (l->held && ops->refusal_key(g->mem, (int)sm->id) == l->held) { /* refused again, for certain */
        g->ks.lsu_retry++;
        l->held_at = now;
        return -1;
    }
    sim_mem_access a = {l->line[l->next].line, l->line[l->next].sectors, l->kind, l->space, l->bypass, l->token};
    double sec0 = 0, hit0 = 0;
    int count = g->opt.cta_l1_stats && ops->l1_load_counts;
    if (count)
        ops->l1_load_counts(g->mem, (int)sm->id, &sec0, &hit0);
    if (ops->access(g->mem, (int)sm->id, &a, now) != SIM_MEM_ACCEPTED) {
        g->ks.lsu_retry++;
        l->held = ops->refusal_key ? ops->refusal_key(g->mem, (int)sm->id) : 0;
        l->held_at = now;
        return -1;
    }
    l->held = 0;
    if (count) {
        double sec, hit;
        ops->l1_load_counts(g->mem, (int)sm->id, &sec, &hit);
        sim_cta_stat *st = &g->cta_stat[sm->cta[sm->warp[l->warp].cta].stat];
        st->l1_load_sectors += sec - sec0;
        st->l1_load_hits += hit - hit0;
    }
    lsu_hint(g, sm, l->next + LSU_HINT_AHEAD);
    if (++l->next < l->n)
        return 0;
    sim_warp *wp = &sm->warp[l->warp];
    wp->lsu--;
    if (wp->state == SIM_W_FENCE)
        sim_warp_wake(sm, l->warp);
    sim_cta_outstanding_done(g, sm, wp->cta, now);
    return 0;
}

void sim_ldst_issue(sim_gpu *g, sim_sm *sm, uint32_t w, const ws_inst *in, uint32_t mask, uint64_t now,
                    uint64_t dispatch)
{
    const sim_dec *d = &g->dec[in->op];
    sim_warp *wp = &sm->warp[w];
    sim_cta_slot *cs = &sm->cta[wp->cta];
    const uint64_t *addr = ws_inst_addr(cs->src, in);
    int load = (d->flags & (ISA_F_LOAD | ISA_F_ATOMIC)) != 0;
    int atomic = (d->flags & ISA_F_ATOMIC) != 0;
    uint32_t size = in->size ? in->size : 4;
    if (!addr || !mask) {
        if (load && in->ndst) {
            sim_sb_reserve(wp, in, dispatch + d->latency, UINT32_MAX, 1);
            sim_cta_result(sm, wp->cta, dispatch + d->latency);
        }
        return;
    }
    if (is_shared(d)) {
        uint32_t deg = shared_degree(g, mask, addr, size, atomic);
        uint64_t start = dispatch > sm->shared_free ? dispatch : sm->shared_free;
        sm->shared_free = start + deg;
        g->ks.shared_conflicts += deg - 1;
        if (d->flags & (ISA_F_STORE | ISA_F_ATOMIC))
            g->act.c[ACT_SHARED_WRITES] += deg;
        if (load) {
            g->act.c[ACT_SHARED_READS] += deg;
            uint64_t ready = start + g->cfg.sm.shared_latency_cycles + deg - 1;
            sim_sb_reserve(wp, in, ready, UINT32_MAX, 1);
            sim_cta_result(sm, wp->cta, ready);
            g->ks.sload_lat += (double)(ready - now);
            g->ks.sloads++;
        }
        return;
    }
    sim_lsu *l = &sm->lsu;
    l->n = co_coalesce(mask, addr, size, g->cfg.l1d.line_bytes, g->cfg.l1d.sector_bytes, l->line);
    l->next = 0;
    l->held = 0;
    l->warp = w;
    l->start = dispatch;
    l->space = d->space;
    l->bypass = (uint8_t)atomic;
    l->kind = atomic ? SIM_MEM_ATOMIC : load ? SIM_MEM_LOAD : SIM_MEM_STORE;
    l->token = UINT32_MAX;
    if (load) {
        l->token = rec_alloc(sm, w, (uint32_t)l->n, d->space, now);
        sim_sb_reserve(wp, in, SIM_NEVER, l->token, 1);
        wp->loads++;
        cs->outstanding++;
    }
    for (int i = 0; i < LSU_HINT_AHEAD; i++)
        lsu_hint(g, sm, i);
    wp->lsu++;
    cs->outstanding++;
    sim_ldst_offer(g, sm, now);
}

int sim_ldst_complete(sim_gpu *g, sim_sm *sm, uint32_t token, uint64_t now)
{
    if (token & SIM_TOKEN_IFETCH)
        return sim_fetch_fill(g, sm, token, now);
    sim_load *r = &sm->rec[token];
    if (--r->left)
        return 0;
    uint32_t w = r->warp;
    sim_warp *wp = &sm->warp[w];
    sim_sb_release(wp, token, now);
    wp->loads--;
    sim_warp_wake(sm, w);
    if (r->space == ISA_SPACE_GLOBAL || r->space == ISA_SPACE_LOCAL) {
        g->ks.gload_lat += (double)(now - r->issue);
        g->ks.gloads++;
    }
    r->next_free = sm->rec_free;
    sm->rec_free = token;
    sm->loads_out--;
    sim_cta_outstanding_done(g, sm, wp->cta, now);
    return 1;
}

void sim_ldst_cycle(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    uint32_t token;
    while (sm->loads_out && sim_mem_pop_due(g->mem, (int)sm->id, now) && g->mem->ops->pop(g->mem, (int)sm->id, now, &token))
        sim_ldst_complete(g, sm, token, now);
    sim_ldst_offer(g, sm, now);
}
