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
 * I-cache: the memory side's generic set-associative tag array (cache.h)
 * with the l1i geometry and replacement policy; one lookup per warp and
 * line per cycle.  A hit makes the instructions issuable after
 * l1i.latency_cycles (at least the next cycle).  A miss takes one of
 * l1i.mshr_entries fill slots (misses to a line already being filled
 * merge; with no MSHR key the cache blocks on one miss); the fill is read
 * through the memory system like any L1-bypassing load (space NONE, as
 * agreed in mem.h's contract notes), so instruction traffic meets data
 * traffic in L2 and DRAM.  Code sits at SIM_CODE_BASE + pc, with pc scaled
 * to the config's instruction size (sm.h, pc_num/pc_den).  The warps
 * that missed sleep until their line arrives, then look it up again (a
 * hit).  The I-cache is flushed between kernels, since different kernels'
 * traces reuse the same pcs.
 */
#include <stdlib.h>
#include <string.h>

#include "sm.h"

int sim_icache_init(sim_gpu *g, sim_icache *ic, ge_err *e)
{
    const gpu_config *c = &g->cfg;
    ic->nmshr = c->l1i.mshr_entries ? c->l1i.mshr_entries : 1;
    ic->parts = c->l1i.line_bytes > c->l1d.line_bytes ? c->l1i.line_bytes / c->l1d.line_bytes : 1;
    if (cache_init(&ic->tags, &c->l1i, 1, e))
        return ge_err_prefix(e, "l1i");
    ic->mshr = ge_calloc(ic->nmshr, sizeof *ic->mshr, e);
    return ic->mshr ? 0 : -1;
}

void sim_icache_free(sim_icache *ic)
{
    cache_free(&ic->tags);
    free(ic->mshr);
}

void sim_icache_flush(sim_icache *ic) { cache_invalidate_all(&ic->tags); }

/* Offer the unsent parts of fill m; stops at the first refusal. */
static void ifill_send(sim_gpu *g, sim_sm *sm, uint32_t m, uint64_t now)
{
    sim_icache *ic = &sm->ic;
    sim_ifill *f = &ic->mshr[m];
    uint32_t l1i = g->cfg.l1i.line_bytes, l1d = g->cfg.l1d.line_bytes, sec = g->cfg.l1d.sector_bytes;
    while (f->sent < ic->parts) {
        uint64_t byte = SIM_CODE_BASE + f->line * l1i + (uint64_t)f->sent * l1d;
        uint32_t sectors;
        if (l1i >= l1d) {
            sectors = (l1d / sec >= 32) ? UINT32_MAX : (1u << (l1d / sec)) - 1;
        } else { /* a part of an l1d line */
            uint32_t first = (uint32_t)(byte % l1d) / sec, n = (l1i + sec - 1) / sec;
            sectors = (n >= 32 ? UINT32_MAX : (1u << n) - 1) << first;
        }
        sim_mem_access a = {byte / l1d, sectors, SIM_MEM_LOAD, ISA_SPACE_NONE, 1, SIM_TOKEN_IFETCH | m};
        if (g->mem->ops->access(g->mem, (int)sm->id, &a, now) != SIM_MEM_ACCEPTED)
            return;
        f->sent++;
        sm->loads_out++; /* so the top loop polls this SM for the completion */
    }
    ic->unsent--;
}

/* Look line up at now: 1 hit; 0 miss (the warp then waits for the fill of
 * the line, or for a free MSHR when *line_wait is UINT64_MAX). */
static int icache_lookup(sim_gpu *g, sim_sm *sm, sim_warp *wp, uint64_t line, uint64_t now, uint64_t *line_wait)
{
    sim_icache *ic = &sm->ic;
    cache *c = &ic->tags;
    int slot = c->tag[wp->ic_slot] == line ? (int)wp->ic_slot : cache_find(c, line); /* the warp's last line first */
    if (slot >= 0 && c->m[slot].valid) {
        cache_touch(c, (uint32_t)slot);
        wp->ic_slot = (uint32_t)slot;
        g->act.c[ACT_ICACHE_HITS]++;
        return 1;
    }
    g->act.c[ACT_ICACHE_MISSES]++;
    int free_slot = -1;
    for (uint32_t i = 0; i < ic->nmshr; i++) {
        if (ic->mshr[i].used && ic->mshr[i].line == line) {
            *line_wait = line; /* merge */
            return 0;
        }
        if (!ic->mshr[i].used && free_slot < 0)
            free_slot = (int)i;
    }
    if (free_slot < 0) {
        *line_wait = UINT64_MAX;
        return 0;
    }
    sim_ifill *f = &ic->mshr[free_slot];
    f->used = 1;
    f->line = line;
    f->sent = 0;
    f->left = ic->parts;
    ic->unsent++;
    ifill_send(g, sm, (uint32_t)free_slot, now);
    *line_wait = line;
    return 0;
}

int sim_fetch_fill(sim_gpu *g, sim_sm *sm, uint32_t token, uint64_t now)
{
    (void)g, (void)now;
    sim_icache *ic = &sm->ic;
    sim_ifill *f = &ic->mshr[token & ~SIM_TOKEN_IFETCH];
    sm->loads_out--;
    if (--f->left)
        return 0;
    /* install (l1i.allocate = on fill) and wake the warps waiting for it or for an MSHR */
    uint64_t line = f->line;
    cache *c = &ic->tags;
    int slot = cache_find(c, line);
    if (slot < 0 && (slot = cache_victim(c, line)) >= 0)
        cache_install(c, (uint32_t)slot, line, NULL);
    if (slot >= 0)
        c->m[slot].valid = c->full;
    f->used = 0;
    for (uint32_t i = 0; i < sm->fetch_words; i++)
        for (uint64_t bits = sm->fetch_wait[i]; bits; bits &= bits - 1) {
            uint32_t w = i * 64 + (uint32_t)__builtin_ctzll(bits);
            if (sm->warp[w].fetch_line == line || sm->warp[w].fetch_line == UINT64_MAX)
                sm->fetch_wait[i] &= ~(1ull << (w & 63));
        }
    sm->busy = 1;
    return 1;
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
    int head = wp->ib_n == 0; /* the first instruction delivered becomes the head */
    uint64_t line_bytes = g->cfg.l1i.line_bytes;
    uint64_t cur_line = SIM_NEVER;
    uint32_t hit_lat = g->cfg.l1i.latency_cycles ? g->cfg.l1i.latency_cycles : 1;
    while (got < budget && wp->ib_n < g->ib_cap) {
        if (!wp->nx && !g->simt->next(wp->simt, &wp->nx, &wp->nx_mask)) {
            wp->fetch_done = 1;
            break;
        }
        uint64_t line = wp->nx->pc * g->pc_num / g->pc_den / line_bytes;
        if (line != cur_line) {
            if (!icache_lookup(g, sm, wp, line, now, &wp->fetch_line)) {
                sm->fetch_wait[w >> 6] |= 1ull << (w & 63); /* sim_fetch_fill wakes it */
                break;
            }
            cur_line = line;
        }
        /* the warp's next instructions are read soon: start loading them */
        __builtin_prefetch((const char *)wp->nx + 4 * sizeof(ws_inst));
        sim_ib *b = &wp->ib[(wp->ib_head + wp->ib_n) % g->ib_cap];
        b->in = *wp->nx;
        if (wp->nx->addr != WS_NO_ADDR) { /* the LSU reads the lanes' addresses at issue */
            const uint64_t *a = sm->cta[wp->cta].src->addr + wp->nx->addr;
            for (int k = 0; k < WS_WARP_SIZE; k += 8)
                __builtin_prefetch(a + k);
        }
        b->mask = wp->nx_mask;
        b->ready = now + hit_lat;
        b->regbits = regbits(wp->nx);
        b->unit = g->dec[wp->nx->op].unit;
        b->res = (uint8_t)sim_ldst_res(g, wp->nx, wp->nx_mask);
        if (wp->ib_n == 0)
            sim_warp_wait(sm, w, b->ready, KR_IDLE); /* the new head becomes issuable then */
        wp->ib_n++;
        wp->nx = NULL;
        got++;
        g->act.c[ACT_IBUFFER_WRITES]++;
    }
    if (wp->fetch_done || wp->ib_n == g->ib_cap)
        sim_fetch_drop(sm, w);
    /* The new head becomes issuable then (sim_warp_wait above: the SM's
     * scan preceded this fetch).  Instructions behind a head are looked at
     * when the head issues, in that step. */
    if (got && head && now + hit_lat < sm->fetch_next)
        sm->fetch_next = now + hit_lat;
    return got;
}

void sim_fetch(sim_gpu *g, sim_sm *sm, uint64_t now)
{
    sm->fetch_next = SIM_NEVER;
    sim_icache *ic = &sm->ic;
    for (uint32_t m = 0; m < ic->nmshr && ic->unsent; m++)
        if (ic->mshr[m].used && ic->mshr[m].sent < ic->parts)
            ifill_send(g, sm, m, now);
    uint32_t budget = g->cfg.sm.fetch_width;
    uint32_t nw = sm->fetch_words;
    uint32_t start = sm->fetch_ptr;
    /* visit the wanted slots cyclically from start */
    for (uint32_t k = 0; k <= nw && budget; k++) {
        uint32_t wi = (start / 64 + k) % nw;
        uint64_t bits = sm->fetch_need[wi] & ~sm->fetch_wait[wi];
        if (k == 0)
            bits &= ~0ull << (start % 64);
        else if (k == nw)
            bits &= (start % 64) ? ~(~0ull << (start % 64)) : 0;
        for (; bits && budget; bits &= bits - 1) {
            uint32_t w = wi * 64 + (uint32_t)__builtin_ctzll(bits);
            uint32_t got = fetch_warp(g, sm, w, budget, now);
            budget -= got;
            if (got)
                sm->fetch_ptr = w + 1 == nw * 64 ? 0 : w + 1;
        }
    }
    if (ic->unsent)
        sm->fetch_next = now + 1; /* the memory refused a fill: offer it again */
    if (!budget) /* demand may remain */
        for (uint32_t i = 0; i < nw; i++)
            if (sm->fetch_need[i])
                sm->fetch_next = now + 1;
}
