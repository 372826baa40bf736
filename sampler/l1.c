/*
 * l1.c - one SM's L1-side caches and completion queue (see l1.h).
 *
 * Each access is handled in two steps: plan (decide hit/miss, which packets
 * are needed, and whether every resource -- data port, MSHR entry or merge
 * slot, a replaceable way, queue room, completion slot -- is available)
 * and commit.  A refused access therefore changes nothing, so the SM can
 * simply retry it later.
 *
 * Completions go into a binary min-heap keyed on (ready cycle, sequence
 * number): hits of caches with different latencies and fills from L2 come
 * out in time order, ties in acceptance order.  Its capacity bounds the
 * loads an SM may have accepted and not yet popped.
 *
 * Known simplifications: a load that merges into an MSHR entry completes
 * when the whole entry completes (not when its own sectors arrive); a
 * write-back L1 drops dirty data at the kernel boundary and, with
 * allocate on_fill, does not allocate over a dirty victim.
 */
#include <stdlib.h>
#include <string.h>

#include "l1.h"

typedef struct l1_target {
    uint64_t issue;
    uint32_t token;
} l1_target;

static int parse_wpolicy(const char *s)
{
    if (strcmp(s, "write_back") == 0)
        return WP_WRITE_BACK;
    if (strcmp(s, "write_through") == 0)
        return WP_WRITE_THROUGH;
    return WP_WRITE_EVICT; /* write_evict, read_only */
}

static int cache_setup(l1_cache *lc, const gcfg_cache *cc, const gcfg_cache *l2, uint32_t absent_mshrs, ge_err *e)
{
    memset(lc, 0, sizeof *lc);
    lc->present = cc->size_bytes > 0;
    lc->gran = cc->sector_bytes > l2->sector_bytes ? cc->sector_bytes / l2->sector_bytes : 1;
    gcfg_cache g = *cc; /* tracked in L2 lines and sectors */
    g.line_bytes = l2->line_bytes;
    g.sector_bytes = l2->sector_bytes;
    lc->latency = cc->latency_cycles;
    lc->banks = cc->banks ? cc->banks : 1;
    lc->wpolicy = parse_wpolicy(cc->write_policy);
    lc->alloc_on_fill = strcmp(cc->allocate, "on_fill") == 0;
    lc->write_allocate = strcmp(cc->write_allocate, "write_allocate") == 0;
    if (lc->present && cache_init(&lc->c, &g, 1, e))
        return -1;
    if (lc->present && !lc->alloc_on_fill &&
        !(lc->slot_mshr = ge_malloc((size_t)g.sets * g.ways * sizeof *lc->slot_mshr, e)))
        return -1;
    uint32_t entries = lc->present && cc->mshr_entries ? cc->mshr_entries : absent_mshrs;
    return mshr_init(&lc->m, entries, lc->present ? cc->mshr_merge : 1, sizeof(l1_target), e);
}

int l1_init(l1_unit *u, const gpu_config *cfg, ge_err *e)
{
    memset(u, 0, sizeof *u);
    /* An absent cache still tracks its bypassing loads: allow as many as the
     * SM's injection buffer can hold. */
    uint32_t absent = cfg->noc.buffer_flits;
    const gcfg_cache *l2 = &cfg->l2.cache;
    if (cache_setup(&u->cache[L1_DATA], &cfg->l1d, l2, absent, e) ||
        cache_setup(&u->cache[L1_CONST], &cfg->l1c, l2, 1, e) || cache_setup(&u->cache[L1_TEX], &cfg->l1t, l2, 1, e)) {
        l1_free(u);
        return ge_err_prefix(e, "L1");
    }
    u->route_const = u->cache[L1_CONST].present ? L1_CONST : L1_DATA;
    u->route_tex = u->cache[L1_TEX].present ? L1_TEX : L1_DATA;
    u->sector_bytes = cfg->l2.cache.sector_bytes;
    u->flit_bytes = cfg->noc.flit_bytes;
    uint64_t cap = 0;
    for (int i = 0; i < L1_NCACHES; i++) {
        const l1_cache *lc = &u->cache[i];
        cap += (uint64_t)lc->m.nentries * lc->m.merge + (uint64_t)(lc->latency + 1) * lc->banks;
    }
    u->hcap = (uint32_t)(cap < (1u << 24) ? cap : (1u << 24));
    u->heap = ge_malloc(u->hcap * sizeof *u->heap, e);
    if (!u->heap) {
        l1_free(u);
        return -1;
    }
    return 0;
}

void l1_free(l1_unit *u)
{
    for (int i = 0; i < L1_NCACHES; i++) {
        if (u->cache[i].present)
            cache_free(&u->cache[i].c);
        mshr_free(&u->cache[i].m);
        free(u->cache[i].slot_mshr);
        u->cache[i].slot_mshr = NULL;
    }
    free(u->heap);
    u->heap = NULL;
}

/* ---- completion heap ---- */

static inline int done_less(const l1_done *a, const l1_done *b)
{
    return a->ready < b->ready || (a->ready == b->ready && a->seq < b->seq);
}

/* `timed`: a data-cache load (not an atomic, nor a constant or texture
 * load), whose latency goes into lat_sum -- the latency the analytical
 * model's global-load latency stands for (calib/hybrid.c compares them). */
static void heap_push(l1_unit *u, uint64_t ready, uint64_t issue, uint32_t token, int timed)
{
    uint32_t i = u->hn++;
    l1_done d = {ready, u->seq++, issue, token};
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!done_less(&d, &u->heap[p]))
            break;
        u->heap[i] = u->heap[p];
        i = p;
    }
    u->heap[i] = d;
    if (timed) {
        u->st.lat_sum += (double)(ready - issue);
        u->st.lat_count++;
    }
}

int l1_pop(l1_unit *u, uint64_t now, uint32_t *token)
{
    if (!u->hn || u->heap[0].ready > now)
        return 0;
    *token = u->heap[0].token;
    l1_done last = u->heap[--u->hn];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= u->hn)
            break;
        if (c + 1 < u->hn && done_less(&u->heap[c + 1], &u->heap[c]))
            c++;
        if (!done_less(&u->heap[c], &last))
            break;
        u->heap[i] = u->heap[c];
        i = c;
    }
    if (u->hn)
        u->heap[i] = last;
    u->tokens--;
    if (!u->refused.room) /* a completion slot freed: a state refusal may be lifted */
        u->kver++;
    return 1;
}

/* ---- access ---- */

static inline uint32_t popc(uint32_t m) { return mem_popc(m); }

static inline uint32_t write_flits(const l1_unit *u, uint32_t sectors)
{
    return mem_flits(MEM_PKT_HEADER_BYTES + popc(sectors) * u->sector_bytes, u->flit_bytes);
}

static void make_pkt(const l1_unit *u, mem_pkt *p, uint64_t line, uint32_t sectors, int kind, int cache, int mshr,
                     int flags)
{
    memset(p, 0, sizeof *p);
    p->weight = 1;
    p->line = line;
    p->sectors = sectors;
    p->kind = (uint8_t)kind;
    p->cache = (uint8_t)cache;
    p->mshr = mshr < 0 ? UINT32_MAX : (uint32_t)mshr;
    p->flags = (uint8_t)flags;
    p->flits = (uint8_t)(kind == PKT_READ ? mem_flits(MEM_PKT_HEADER_BYTES, u->flit_bytes) : write_flits(u, sectors));
}

/* Data-port slot for k sectors at cycle now, or UINT64_MAX if the port
 * cannot start this cycle. */
static inline uint64_t port_start(const l1_cache *lc, uint64_t now)
{
    uint64_t s = now * lc->banks;
    if (lc->port_free > s)
        s = lc->port_free;
    return s < (now + 1) * lc->banks ? s : UINT64_MAX;
}

static sim_mem_status access_bypass(l1_unit *u, const sim_mem_access *a, uint64_t now, uint32_t room_pkts,
                                    uint32_t room_flits, mem_pkt *out, int *nout, uint64_t *send_at)
{
    l1_cache *lc = &u->cache[L1_DATA];
    int kind = a->kind == SIM_MEM_ATOMIC ? PKT_ATOMIC : PKT_READ;
    mem_pkt p;
    make_pkt(u, &p, a->line, a->sectors, kind, L1_DATA, -1, PKT_F_NOFILL);
    if (mshr_full(&lc->m) || u->tokens >= u->hcap)
        return SIM_MEM_RETRY;
    if (room_pkts < 1 || room_flits < p.flits)
        return u->why = L1_REFUSED_ROOM, SIM_MEM_RETRY;
    int mi = mshr_alloc(&lc->m, a->line, 0);
    lc->m.e[mi].pending = a->sectors;
    lc->m.e[mi].flags = PKT_F_NOFILL;
    l1_target *t = mshr_add_target(&lc->m, mi);
    t->issue = now;
    t->token = a->token;
    u->tokens++;
    p.mshr = (uint32_t)mi;
    out[0] = p;
    *nout = 1;
    *send_at = now + lc->latency;
    return SIM_MEM_ACCEPTED;
}

static sim_mem_status access_load(l1_unit *u, int ci, const sim_mem_access *a, uint64_t now, uint32_t room_pkts,
                                  uint32_t room_flits, mem_pkt *out, int *nout, uint64_t *send_at)
{
    l1_cache *lc = &u->cache[ci];
    cache *c = &lc->c;
    uint64_t ps = port_start(lc, now);
    if (ps == UINT64_MAX)
        return u->why = L1_REFUSED_PORT, SIM_MEM_RETRY;
    if (u->tokens >= u->hcap)
        return SIM_MEM_RETRY;
    uint32_t req = a->sectors & c->full;
    int slot = cache_find(c, a->line);
    uint32_t valid = slot >= 0 ? c->m[slot].valid : 0;
    uint32_t miss = req & ~valid;
    uint32_t n_req = popc(mem_mask_contract(req, lc->gran)), n_miss = popc(mem_mask_contract(miss, lc->gran));
    uint64_t pend_end = ps + n_req;
    /* data ready (hit) or miss sent: the pipeline after the last port cycle */
    uint64_t ready = lc->latency + (pend_end - 1) / lc->banks;
    if (!miss) {
        lc->port_free = pend_end;
        cache_touch(c, (uint32_t)slot);
        heap_push(u, ready, now, a->token, ci == L1_DATA);
        u->tokens++;
        u->st.rd_hit[ci] += n_req;
        if (ci == L1_DATA)
            u->st.load_sectors += n_req, u->st.load_hits += n_req;
        *nout = 0;
        return SIM_MEM_ACCEPTED;
    }
    /* Plan the miss. */
    int mi = !lc->slot_mshr ? mshr_find(&lc->m, a->line) : slot >= 0 && c->m[slot].pending ? lc->slot_mshr[slot] : -1;
    uint32_t fetch;
    int victim = -1;
    if (mi >= 0) {
        if (!mshr_can_merge(&lc->m, mi))
            return SIM_MEM_RETRY;
        fetch = mem_mask_expand(mem_mask_contract(miss, lc->gran), lc->gran) & ~valid & ~lc->m.e[mi].pending;
    } else {
        if (mshr_full(&lc->m))
            return SIM_MEM_RETRY;
        fetch = mem_mask_expand(mem_mask_contract(miss, lc->gran), lc->gran) & ~valid;
        if (fetch && (room_pkts < 1 || room_flits < mem_flits(MEM_PKT_HEADER_BYTES, u->flit_bytes)))
            return u->why = L1_REFUSED_ROOM, SIM_MEM_RETRY; /* cheap answer before the victim search */
        if (slot < 0 && !lc->alloc_on_fill) {
            victim = cache_victim(c, a->line);
            if (victim < 0)
                return SIM_MEM_RETRY; /* every way waits for a fill */
        }
    }
    mem_pkt wb;
    int need_wb = victim >= 0 && c->tag[victim] != CACHE_NO_TAG && c->m[victim].dirty;
    uint32_t pk = (fetch != 0) + need_wb, fl = 0;
    if (fetch)
        fl += mem_flits(MEM_PKT_HEADER_BYTES, u->flit_bytes);
    if (need_wb) {
        make_pkt(u, &wb, c->tag[victim], c->m[victim].dirty, PKT_WRITE, ci, -1, 0);
        fl += wb.flits;
    }
    if (pk > room_pkts || fl > room_flits)
        return u->why = L1_REFUSED_ROOM, SIM_MEM_RETRY;
    /* Commit. */
    lc->port_free = pend_end;
    *nout = 0;
    if (need_wb)
        out[(*nout)++] = wb;
    if (victim >= 0) {
        cache_install(c, (uint32_t)victim, a->line, NULL);
        slot = victim;
    } else if (slot >= 0) {
        cache_touch(c, (uint32_t)slot);
    }
    if (mi < 0)
        mi = mshr_alloc(&lc->m, a->line, !lc->slot_mshr);
    l1_target *t = mshr_add_target(&lc->m, mi);
    t->issue = now;
    t->token = a->token;
    u->tokens++;
    if (fetch) {
        lc->m.e[mi].pending |= fetch;
        if (slot >= 0) {
            cache_set_pending(c, (uint32_t)slot, c->m[slot].pending | fetch);
            lc->m.e[mi].aux = (uint32_t)slot + 1; /* pending lines never move */
            if (lc->slot_mshr)
                lc->slot_mshr[slot] = mi;
        }
        make_pkt(u, &out[(*nout)++], a->line, fetch, PKT_READ, ci, mi, 0);
    }
    u->st.rd_hit[ci] += n_req - n_miss;
    u->st.rd_miss[ci] += n_miss;
    if (ci == L1_DATA)
        u->st.load_sectors += n_req, u->st.load_hits += n_req - n_miss;
    *send_at = ready;
    return SIM_MEM_ACCEPTED;
}

static sim_mem_status access_store(l1_unit *u, const sim_mem_access *a, uint64_t now, uint32_t room_pkts,
                                   uint32_t room_flits, mem_pkt *out, int *nout, uint64_t *send_at)
{
    l1_cache *lc = &u->cache[L1_DATA];
    mem_pkt wr;
    make_pkt(u, &wr, a->line, a->sectors, PKT_WRITE, L1_DATA, -1, 0);
    *send_at = now + lc->latency;
    *nout = 0;
    if (!lc->present) {
        if (room_pkts < 1 || room_flits < wr.flits)
            return u->why = L1_REFUSED_ROOM, SIM_MEM_RETRY;
        out[(*nout)++] = wr;
        return SIM_MEM_ACCEPTED;
    }
    cache *c = &lc->c;
    uint64_t ps = port_start(lc, now);
    if (ps == UINT64_MAX)
        return u->why = L1_REFUSED_PORT, SIM_MEM_RETRY;
    uint32_t req = a->sectors & c->full;
    int slot = cache_find(c, a->line);
    uint32_t hit = slot >= 0 ? req & c->m[slot].valid : 0;
    /* Plan: forward the write?  allocate?  write back a victim? */
    int forward = lc->wpolicy != WP_WRITE_BACK, victim = -1, need_wb = 0;
    if (slot < 0 && lc->write_allocate && lc->wpolicy != WP_WRITE_EVICT) {
        victim = cache_victim(c, a->line);
        if (victim >= 0 && lc->wpolicy == WP_WRITE_BACK)
            need_wb = c->tag[victim] != CACHE_NO_TAG && c->m[victim].dirty;
    }
    if (lc->wpolicy == WP_WRITE_BACK && slot < 0 && victim < 0)
        forward = 1; /* no allocation possible: write around */
    mem_pkt wb;
    uint32_t pk = (uint32_t)forward + (uint32_t)need_wb, fl = forward ? wr.flits : 0;
    if (need_wb) {
        make_pkt(u, &wb, c->tag[victim], c->m[victim].dirty, PKT_WRITE, L1_DATA, -1, 0);
        fl += wb.flits;
    }
    if (pk > room_pkts || fl > room_flits)
        return u->why = L1_REFUSED_ROOM, SIM_MEM_RETRY;
    /* Commit. */
    uint32_t n_req = popc(mem_mask_contract(req, lc->gran)), n_hit = popc(mem_mask_contract(hit, lc->gran));
    lc->port_free = ps + n_req;
    if (need_wb)
        out[(*nout)++] = wb;
    if (victim >= 0) {
        cache_install(c, (uint32_t)victim, a->line, NULL);
        slot = victim;
    }
    if (slot >= 0) {
        if (lc->wpolicy == WP_WRITE_EVICT) {
            c->m[slot].valid &= ~req;
            if (!c->m[slot].valid && !c->m[slot].pending)
                cache_drop(c, (uint32_t)slot);
        } else {
            c->m[slot].valid |= req;
            if (lc->wpolicy == WP_WRITE_BACK && !forward)
                c->m[slot].dirty |= req;
            cache_touch(c, (uint32_t)slot);
        }
    }
    if (forward)
        out[(*nout)++] = wr;
    u->st.wr_hit += n_hit;
    u->st.wr_miss += n_req - n_hit;
    return SIM_MEM_ACCEPTED;
}

/* A repeat of the kept refusal (a change of room changes kver: l1_room_grew, accepts). */
static int same_refusal(const l1_unit *u, const sim_mem_access *a)
{
    return u->refused.valid && u->refused.kver == u->kver && u->refused.line == a->line &&
           u->refused.sectors == a->sectors && u->refused.kind == (int)a->kind && u->refused.space == a->space &&
           u->refused.bypass_l1 == a->bypass_l1;
}

sim_mem_status l1_access(l1_unit *u, const sim_mem_access *a, uint64_t now, uint32_t room_pkts,
                         uint32_t room_flits, mem_pkt out[2], int *nout, uint64_t *send_at)
{
    *nout = 0;
    if (same_refusal(u, a))
        return u->held = 1, SIM_MEM_RETRY;
    u->held = 0;
    sim_mem_status st;
    u->why = L1_REFUSED_STATE;
    int ci = a->space == ISA_SPACE_CONST ? u->route_const : a->space == ISA_SPACE_TEX ? u->route_tex : L1_DATA;
    if (a->kind == SIM_MEM_STORE)
        st = access_store(u, a, now, room_pkts, room_flits, out, nout, send_at);
    else if (a->kind == SIM_MEM_ATOMIC || a->bypass_l1 || !u->cache[ci].present)
        st = access_bypass(u, a, now, room_pkts, room_flits, out, nout, send_at);
    else
        st = access_load(u, ci, a, now, room_pkts, room_flits, out, nout, send_at);
    if (st == SIM_MEM_ACCEPTED) {
        u->kver++;
        u->refused.valid = 0;
        u->refused.room = 0;
    } else if (u->why != L1_REFUSED_PORT) {
        u->kver++; /* a holder of an older refusal's key offers again */
        u->refused.valid = 1;
        u->refused.kver = u->kver;
        u->refused.line = a->line;
        u->refused.sectors = a->sectors;
        u->refused.kind = (int)a->kind;
        u->refused.space = a->space;
        u->refused.bypass_l1 = a->bypass_l1;
        u->refused.room = u->why == L1_REFUSED_ROOM;
        u->held = 1;
    }
    return st;
}

void l1_fill(l1_unit *u, const mem_pkt *p, uint64_t now)
{
    if (!u->refused.room || u->refused.line == p->line || u->refused.kind == SIM_MEM_STORE)
        u->kver++; /* see l1_unit.kver */
    l1_cache *lc = &u->cache[p->cache];
    mshr_entry *en = &lc->m.e[p->mshr];
    en->pending &= ~p->sectors;
    if (!(en->flags & PKT_F_NOFILL) && lc->present) {
        cache *c = &lc->c;
        int slot = en->aux ? (int)en->aux - 1 : cache_find(c, p->line);
        if (slot < 0) { /* allocate on fill; never over a dirty victim */
            int v = cache_victim(c, p->line);
            if (v >= 0 && !(c->tag[v] != CACHE_NO_TAG && c->m[v].dirty)) {
                cache_install(c, (uint32_t)v, p->line, NULL);
                cache_set_pending(c, (uint32_t)v, en->pending); /* still to come: protect the line */
                slot = v;
            }
        }
        if (slot >= 0) {
            c->m[slot].valid |= p->sectors;
            cache_set_pending(c, (uint32_t)slot, c->m[slot].pending & ~p->sectors);
            en->aux = (uint32_t)slot + 1;
        }
    }
    if (en->pending)
        return;
    for (uint32_t k = 0; k < en->ntargets; k++) {
        const l1_target *t = mshr_target(&lc->m, (int)p->mshr, k);
        heap_push(u, now, t->issue, t->token, p->cache == L1_DATA && p->kind != PKT_ATOMIC);
    }
    mshr_release(&lc->m, (int)p->mshr);
}

void l1_invalidate(l1_unit *u)
{
    u->kver++;
    for (int i = 0; i < L1_NCACHES; i++)
        if (u->cache[i].present)
            cache_invalidate_all(&u->cache[i].c);
}

uint32_t l1_mshr_used(const l1_unit *u)
{
    uint32_t n = 0;
    for (int i = 0; i < L1_NCACHES; i++)
        n += u->cache[i].m.used;
    return n;
}
