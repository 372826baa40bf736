/*
 * fetch.c - instruction fetch, the I-cache, decode and the instruction buffers.
 *
 * Every cycle the fetch stage of an SM delivers up to sm.fetch_width
 * instructions into the per-warp instruction buffers (sm.ibuffer_entries
 * each), serving the warps that have room in round-robin order, as many
 * instructions per warp as fit.  The divergence mechanism (simt.h) says
 * which instruction comes next; because the stream is the warp's dynamic
 * path, taken branches cost no redirect (not modelled).  Decode is a table
 * lookup (sim_dec) plus the register summary the scoreboard uses, done
 * once per instruction here.
 *
 * I-cache: set-associative, LRU, sized by the l1i keys; one lookup per warp
 * and line per cycle.  A hit makes the instructions issuable after
 * l1i.latency_cycles (at least the next cycle).  A miss takes one of
 * l1i.mshr_entries fill slots (misses to a line already being filled
 * merge; with no MSHR the cache blocks on one miss) and the warp retries
 * when the line arrives.  Fills come from L2 at l2.latency_cycles without
 * entering the memory system: kernels' code is small and shared by every
 * warp, so instruction traffic is negligible next to data (a documented
 * simplification).  The I-cache is flushed between kernels, since
 * different kernels' traces reuse the same pcs.
 */
#include <stdlib.h>
#include <string.h>

#include "sm.h"

int sim_icache_init(sim_gpu *g, sim_icache *ic, ge_err *e)
{
    const gcfg_cache *c = &g->cfg.l1i;
    ic->sets = c->sets;
    ic->ways = c->ways;
    ic->nmshr = c->mshr_entries ? c->mshr_entries : 1;
    ic->tag = ge_calloc((size_t)ic->sets * ic->ways, sizeof *ic->tag, e);
    ic->stamp = ge_calloc((size_t)ic->sets * ic->ways, sizeof *ic->stamp, e);
    ic->mshr_line = ge_calloc(ic->nmshr, sizeof *ic->mshr_line, e);
    ic->mshr_ready = ge_calloc(ic->nmshr, sizeof *ic->mshr_ready, e);
    if (!ic->tag || !ic->stamp || !ic->mshr_line || !ic->mshr_ready)
        return -1;
    sim_icache_flush(ic);
    return 0;
}

void sim_icache_free(sim_icache *ic)
{
    free(ic->tag);
    free(ic->stamp);
    free(ic->mshr_line);
    free(ic->mshr_ready);
}

void sim_icache_flush(sim_icache *ic)
{
    memset(ic->tag, 0, (size_t)ic->sets * ic->ways * sizeof *ic->tag);
    for (uint32_t i = 0; i < ic->nmshr; i++)
        ic->mshr_ready[i] = SIM_NEVER; /* free */
}

/* Look line up at now: 1 hit; 0 miss with the fill pending until *ready;
 * -1 miss and no MSHR free until *ready. */
static int icache_lookup(sim_gpu *g, sim_icache *ic, uint64_t line, uint64_t now, uint64_t *ready)
{
    uint64_t *tag = ic->tag + (line % ic->sets) * ic->ways;
    uint64_t *stamp = ic->stamp + (line % ic->sets) * ic->ways;
    for (uint32_t i = 0; i < ic->ways; i++)
        if (tag[i] == line + 1) {
            stamp[i] = ++ic->clock;
            g->act.c[ACT_ICACHE_HITS]++;
            return 1;
        }
    g->act.c[ACT_ICACHE_MISSES]++;
    uint64_t soonest = SIM_NEVER;
    int free_slot = -1;
    for (uint32_t i = 0; i < ic->nmshr; i++) {
        if (ic->mshr_ready[i] != SIM_NEVER && ic->mshr_line[i] == line) {
            *ready = ic->mshr_ready[i];
            return 0;
        }
        if (ic->mshr_ready[i] == SIM_NEVER)
            free_slot = (int)i;
        else if (ic->mshr_ready[i] < soonest)
            soonest = ic->mshr_ready[i];
    }
    if (free_slot < 0) {
        *ready = soonest;
        return -1;
    }
    ic->mshr_line[free_slot] = line;
    ic->mshr_ready[free_slot] = *ready = now + g->cfg.l2.cache.latency_cycles;
    return 0;
}

/* Install the fills that have arrived by now (LRU victim). */
static void icache_fills(sim_icache *ic, uint64_t now)
{
    for (uint32_t m = 0; m < ic->nmshr; m++) {
        if (ic->mshr_ready[m] > now)
            continue;
        uint64_t line = ic->mshr_line[m];
        uint64_t *tag = ic->tag + (line % ic->sets) * ic->ways;
        uint64_t *stamp = ic->stamp + (line % ic->sets) * ic->ways;
        uint32_t v = 0;
        for (uint32_t i = 0; i < ic->ways; i++) {
            if (tag[i] == 0) {
                v = i;
                break;
            }
            if (stamp[i] < stamp[v])
                v = i;
        }
        tag[v] = line + 1;
        stamp[v] = ++ic->clock;
        ic->mshr_ready[m] = SIM_NEVER;
    }
}

static uint64_t regbits(const ws_inst *in)
{
    uint64_t b = 0;
    for (int i = 0; i < in->nsrc; i++)
        b |= 1ull << (in->src[i] & 63);
    for (int i = 0; i < in->ndst; i++)
        b |= 1ull << (in->dst[i] & 63);
    return b;
}

/* Fetch for warp slot w; returns instructions delivered (<= budget). */
static uint32_t fetch_warp(sim_gpu *g, sim_sm *sm, uint32_t w, uint32_t budget, uint64_t now)
{
    sim_warp *wp = &sm->warp[w];
    uint32_t got = 0;
    uint64_t line_bytes = g->cfg.l1i.line_bytes;
    uint64_t cur_line = SIM_NEVER;
    uint32_t hit_lat = g->cfg.l1i.latency_cycles ? g->cfg.l1i.latency_cycles : 1;
    while (got < budget && wp->ib_n < g->ib_cap) {
        if (!wp->nx && !g->simt->next(wp->simt, &wp->nx, &wp->nx_mask)) {
            wp->fetch_done = 1;
            break;
        }
        uint64_t line = wp->nx->pc / line_bytes;
        if (line != cur_line) {
            uint64_t ready;
            if (icache_lookup(g, &sm->ic, line, now, &ready) <= 0) {
                wp->fetch_free = ready;
                if (ready < sm->fetch_next)
                    sm->fetch_next = ready;
                break;
            }
            cur_line = line;
        }
        sim_ib *b = &wp->ib[(wp->ib_head + wp->ib_n) % g->ib_cap];
        b->in = wp->nx;
        b->mask = wp->nx_mask;
        b->ready = now + hit_lat;
        b->regbits = regbits(wp->nx);
        if (wp->ib_n == 0) {
            wp->wake = b->ready; /* the new head becomes issuable then */
            wp->wait_cat = KR_IDLE;
        }
        wp->ib_n++;
        wp->nx = NULL;
        got++;
        g->act.c[ACT_IBUFFER_WRITES]++;
    }
    if (wp->fetch_done || wp->ib_n == g->ib_cap)
        sim_fetch_drop(sm, w);
    if (got && now + hit_lat < sm->fetch_next)
        sm->fetch_next = now + hit_lat; /* the new instructions become issuable */
    return got;
}

void sim_fetch(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    icache_fills(&sm->ic, now);
    sm->fetch_next = SIM_NEVER;
    uint32_t budget = g->cfg.sm.fetch_width;
    uint32_t nw = sm->fetch_words;
    uint32_t start = sm->fetch_ptr;
    /* visit the wanted slots cyclically from start */
    for (uint32_t k = 0; k <= nw && budget; k++) {
        uint32_t wi = (start / 64 + k) % nw;
        uint64_t bits = sm->fetch_need[wi];
        if (k == 0)
            bits &= ~0ull << (start % 64);
        else if (k == nw)
            bits &= (start % 64) ? ~(~0ull << (start % 64)) : 0;
        for (; bits && budget; bits &= bits - 1) {
            uint32_t w = wi * 64 + (uint32_t)__builtin_ctzll(bits);
            sim_warp *wp = &sm->warp[w];
            if (wp->fetch_free > now) {
                if (wp->fetch_free < sm->fetch_next)
                    sm->fetch_next = wp->fetch_free;
                continue;
            }
            uint32_t got = fetch_warp(g, sm, w, budget, now);
            budget -= got;
            if (got)
                sm->fetch_ptr = w + 1 == nw * 64 ? 0 : w + 1;
        }
    }
    if (!budget) /* demand may remain */
        for (uint32_t i = 0; i < nw; i++)
            if (sm->fetch_need[i])
                sm->fetch_next = now + 1;
}
