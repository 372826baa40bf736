/*
 * l2.c - an L2 slice (see l2.h).
 *
 * Like l1.c, every step plans first (hit or miss, which DRAM requests and
 * replies it needs, and whether the MSHR, the DRAM queue and the reply queue
 * have room) and commits only when everything fits, so a stalled request is
 * simply looked at again on a later tick.
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "l1.h"
#include "l2.h"

typedef struct l2_target {
    uint32_t sectors, l1mshr;
    uint16_t sm, weight;
    uint8_t kind, cache, flags;
} l2_target;

static inline uint32_t popc(uint32_t m) { return mem_popc(m); }

/* Outcome of one step: done, or what it waits for. */
enum { ST_DONE = 1, ST_LOCAL = 0, ST_DRAM = -1, ST_REPLY = -2 };

int l2_init(l2_slice *s, uint32_t id, const gpu_config *cfg, const addrmap *am, ge_err *e)
{
    memset(s, 0, sizeof *s);
    const gcfg_cache *cc = &cfg->l2.cache;
    s->id = id;
    s->channel = addrmap_channel_of_slice(am, id);
    s->banks = cc->banks ? cc->banks : 1;
    s->wpolicy = strcmp(cc->write_policy, "write_back") == 0      ? WP_WRITE_BACK
                 : strcmp(cc->write_policy, "write_through") == 0 ? WP_WRITE_THROUGH
                                                                   : WP_WRITE_EVICT;
    s->alloc_on_fill = strcmp(cc->allocate, "on_fill") == 0;
    s->write_allocate = strcmp(cc->write_allocate, "write_allocate") == 0;
    if (cache_init(&s->c, cc, cfg->l2.slices, e))
        return ge_err_prefix(e, "l2");
    if (mshr_init(&s->m, cc->mshr_entries, cc->mshr_merge, sizeof(l2_target), e)) {
        cache_free(&s->c);
        return ge_err_prefix(e, "l2");
    }
    /* Bound: each entry has at most one DRAM read per sector outstanding. */
    uint32_t cap = 1;
    while (cap < cc->mshr_entries * s->c.nsect)
        cap <<= 1;
    s->fq = ge_malloc(cap * sizeof *s->fq, e);
    /* the background's ghost lines (ghost_fill): 16 bytes per line slot */
    s->ghost_of = s->fq ? ge_calloc((size_t)s->c.sets * s->c.ways, sizeof *s->ghost_of, e) : NULL;
    s->warm = s->ghost_of ? ge_calloc((size_t)s->c.sets * s->c.ways, sizeof *s->warm, e) : NULL;
    if (!s->warm) {
        l2_free(s);
        return -1;
    }
    s->fmask = cap - 1;
    s->wake = UINT64_MAX;
    return 0;
}

void l2_free(l2_slice *s)
{
    cache_free(&s->c);
    mshr_free(&s->m);
    free(s->fq);
    free(s->ghost_of);
    free(s->warm);
    s->fq = NULL;
    s->ghost_of = NULL;
    s->warm = NULL;
}

void l2_dram_done(l2_slice *s, uint32_t mshr, uint32_t sectors, uint64_t ready)
{
    l2_fill *f = &s->fq[(s->fhead + s->fn++) & s->fmask];
    f->ready = ready;
    f->mshr = mshr;
    f->sectors = sectors;
    if (ready < s->wake)
        s->wake = ready;
}

/* Weight of a dirty victim's write-back: a background line carries the
 * weight of the mirror that wrote it (its index is in the line's shadow
 * bits, see mem_detailed.c). */
static inline uint32_t wb_weight(uint64_t line, const l2_env *env)
{
    uint64_t k = line >> MEM_SHADOW_BIT;
    return k && k <= env->nshadow ? env->shadow_weight[k] : 1;
}

static inline uint32_t reply_flits(const l2_env *env, uint32_t sectors)
{
    return mem_flits(MEM_PKT_HEADER_BYTES + popc(sectors) * env->sector_bytes, env->flit_bytes);
}

static void send_reply(l2_slice *s, const l2_env *env, uint64_t line, const l2_target *t, uint64_t now)
{
    mem_pkt r;
    memset(&r, 0, sizeof r);
    r.line = line;
    r.sectors = t->sectors;
    r.mshr = t->l1mshr;
    r.sm = t->sm;
    r.slice = (uint16_t)s->id;
    r.kind = t->kind;
    r.cache = t->cache;
    r.flags = t->flags;
    r.flits = (uint8_t)reply_flits(env, t->sectors);
    r.weight = t->weight;
    r.ready = clk_convert(now, env->f_l2, env->f_icnt);
    noc_push(env->rep, s->id, &r);
    if (r.ready < *env->icnt_next)
        *env->icnt_next = r.ready;
}

static void dram_send(l2_slice *s, const l2_env *env, uint64_t line, uint32_t sectors, int write, uint32_t tag,
                      uint32_t weight, uint64_t now)
{
    dram_addr d;
    addrmap_dram(env->am, mem_line_home(line), &d);
    uint64_t at = clk_convert_after(now, env->f_l2, env->f_dram); /* DRAM ticks first at an instant */
    dram_push(&env->chan[s->channel], line, d.bank, d.row, sectors, env->sector_bytes, write,
              mem_line_is_shadow(line), (uint16_t)s->id, tag, weight, at);
    if (at < *env->dram_next)
        *env->dram_next = at;
}

/* Port slot for a request at tick now, or UINT64_MAX if busy this tick. */
static inline uint64_t port_start(const l2_slice *s, uint64_t now)
{
    uint64_t p = now * s->banks;
    if (s->port_free > p)
        p = s->port_free;
    return p < (now + 1) * s->banks ? p : UINT64_MAX;
}

/* Warm data of the other SMs.  Between kernels the L2 is warmed with what
 * the earlier kernels left in it (l2_preload): on a GPU, every SM's data.  A
 * background mirror's own line (mem_detailed.c) is never among it, so on its
 * own it would miss where the other SMs hit, fetch from DRAM, and its ghosts
 * would push the warmed lines out (hotspot's later time steps at 512 x 512
 * on RTX 2060: the sample's L2 hit rate 0.47 against 0.99 on the full GPU).
 * A mirror's line lives where the real line L + k next to the sample's
 * lives (its home).  When l2_preload put that line here and it still holds
 * the sectors asked for, the mirror is served by it, as a hit: the other
 * SMs' data is warm where the data next to the sample's is.  Nothing is
 * installed (the warmed lines already stand for the other SMs' data in the
 * L2's capacity) and a write marks nothing dirty (the write-backs of the
 * warm lines the other SMs write are not modelled).  The slot serving p,
 * or -1. */
static int warm_proxy(const l2_slice *s, const mem_pkt *p, uint32_t req)
{
    if (!mem_line_is_shadow(p->line))
        return -1;
    uint64_t home = mem_line_home(p->line);
    int slot = cache_find(&s->c, home);
    return slot >= 0 && s->warm[slot] == home + 1 && !(req & ~s->c.m[slot].valid) ? slot : -1;
}

/* Put `line` into `slot` (not warm: see warm_proxy). */
static void install(l2_slice *s, uint32_t slot, uint64_t line, cache_evict *ev)
{
    cache_install(&s->c, slot, line, ev);
    s->warm[slot] = 0;
}

/* Complete a fill, or say what it waits for (reply room or DRAM room for a
 * write-back). */
static int do_fill(l2_slice *s, const l2_env *env, const l2_fill *f, uint64_t now)
{
    mshr_entry *en = &s->m.e[f->mshr];
    cache *c = &s->c;
    uint32_t left = en->pending & ~f->sectors;
    /* aux = reserved slot + 1 (allocate on miss; pending lines never move) */
    int slot = en->aux ? (int)en->aux - 1 : cache_find(c, en->line), victim = -1, need_wb = 0;
    if (slot < 0) {
        victim = cache_victim(c, en->line);
        need_wb = victim >= 0 && c->tag[victim] != CACHE_NO_TAG && c->m[victim].dirty;
        if (need_wb && !dram_can_accept(&env->chan[s->channel], 1))
            return ST_DRAM;
    }
    if (!left) {
        uint32_t flits = 0, n = 0;
        for (uint32_t k = 0; k < en->ntargets; k++) {
            const l2_target *t = mshr_target(&s->m, (int)f->mshr, k);
            if (t->kind != PKT_WRITE)
                flits += reply_flits(env, t->sectors), n++;
        }
        if (n && !noc_room(env->rep, s->id, n, flits))
            return ST_REPLY;
    }
    if (victim >= 0) {
        cache_evict ev;
        install(s, (uint32_t)victim, en->line, &ev);
        if (need_wb)
            dram_send(s, env, ev.line, ev.dirty, 1, 0, wb_weight(ev.line, env), now);
        cache_set_pending(c, (uint32_t)victim, left); /* still to come: protect the line */
        slot = victim;
    }
    if (slot >= 0) {
        c->m[slot].valid |= f->sectors;
        cache_set_pending(c, (uint32_t)slot, c->m[slot].pending & ~f->sectors);
        en->aux = (uint32_t)slot + 1;
    }
    en->pending = left;
    if (left)
        return ST_DONE;
    for (uint32_t k = 0; k < en->ntargets; k++) {
        const l2_target *t = mshr_target(&s->m, (int)f->mshr, k);
        if (t->kind == PKT_ATOMIC) {
            if (slot >= 0)
                c->m[slot].dirty |= t->sectors;
            if (!(t->flags & PKT_F_SHADOW))
                s->st.wr_hit += popc(t->sectors);
        }
        send_reply(s, env, en->line, t, now);
    }
    mshr_release(&s->m, (int)f->mshr);
    return ST_DONE;
}

/* A weighted background miss stands for `n` + 1 SMs' misses but brings one
 * line into the slice, while the other SMs' lines would take capacity too:
 * put n ghost lines (tags no access ever looks up, clean) into the slice,
 * so that the sampled SMs' lines compete for the L2 capacity as on the full
 * GPU.  A ghost never displaces a dirty or pending line (no traffic is
 * invented).  The other SMs' lines are their own data, spread over the
 * slice's sets: the ghosts go to the sets in turn (the n-th ghost of the
 * slice to set n mod sets), which spreads them as evenly as the footprints
 * of SMs that run the same code side by side.  Each ghost has a tag of its
 * own, above every line address (L2_GHOST_BIT).  When the mirror uses its
 * line again, the other SMs would use theirs: the ghosts are touched too
 * (ghost_touch), or they would age while the sample's lines stay young.
 * (Tested with 80 SMs reading their own 32-128 KB repeatedly:
 * tests/sampler/mem/test_hier.c.)  Only a mirror's own (shadow) lines bring
 * ghosts: a mirrored access to a line that the other SMs share
 * (mem_detailed.c) stands for one line. */
#define L2_GHOST_BIT 62
static inline uint64_t ghost_tag(const cache *c, uint64_t number)
{
    return (1ull << L2_GHOST_BIT) | (number * c->set_div);
}

static inline int ghost_line(const mem_pkt *p) { return p->weight > 1 && mem_line_is_shadow(p->line); }

static void ghost_fill(l2_slice *s, int line_slot, uint32_t n)
{
    cache *c = &s->c;
    if (line_slot >= 0)
        s->ghost_of[line_slot] = (l2_ghosts){c->tag[line_slot], s->ghosts + 1};
    for (uint32_t g = 0; g < n; g++) {
        uint64_t ghost = ghost_tag(c, s->ghosts++);
        int slot = cache_victim(c, ghost);
        if (slot < 0 || (c->tag[slot] != CACHE_NO_TAG && c->m[slot].dirty))
            continue;
        install(s, (uint32_t)slot, ghost, NULL);
        c->m[slot].valid = c->full;
    }
}

static void ghost_touch(l2_slice *s, int line_slot, uint32_t n)
{
    cache *c = &s->c;
    if (line_slot < 0 || !s->ghost_of[line_slot].first || s->ghost_of[line_slot].line != c->tag[line_slot])
        return;
    for (uint64_t g = 0, first = s->ghost_of[line_slot].first - 1; g < n; g++) {
        int slot = cache_find(c, ghost_tag(c, first + g));
        if (slot >= 0)
            cache_touch(c, (uint32_t)slot);
    }
}

/* Read or atomic: ST_DONE or what it waits for. */
static int do_read(l2_slice *s, const l2_env *env, const mem_pkt *p, uint64_t ps, uint64_t now)
{
    cache *c = &s->c;
    uint32_t req = p->sectors & c->full;
    int slot = cache_find(c, p->line), proxy;
    uint32_t hit = slot >= 0 ? req & c->m[slot].valid : 0, miss = req & ~hit;
    int atomic = p->kind == PKT_ATOMIC, real = !(p->flags & PKT_F_SHADOW);
    uint64_t pend = ps + (uint64_t)(atomic ? popc(req) * s->banks : popc(req)) * p->weight;
    l2_target t = {req, p->mshr, p->sm, p->weight, p->kind, p->cache, p->flags};
    if (miss && (proxy = warm_proxy(s, p, req)) >= 0)
        slot = proxy, miss = 0; /* a hit on the warm line next to the sample's (a mirror's: no stats) */
    if (!miss) {
        if (!noc_room(env->rep, s->id, 1, reply_flits(env, req)))
            return ST_REPLY;
        s->port_free = pend;
        cache_touch(c, (uint32_t)slot);
        if (ghost_line(p))
            ghost_touch(s, slot, p->weight - 1u);
        if (atomic) {
            c->m[slot].dirty |= req;
            if (real)
                s->st.wr_hit += popc(req);
        }
        if (real)
            s->st.rd_hit += popc(req);
        send_reply(s, env, p->line, &t, now);
        return ST_DONE;
    }
    int mi = mshr_find(&s->m, p->line), victim = -1, need_wb = 0;
    uint32_t fetch;
    if (mi < 0 && !dram_can_accept(&env->chan[s->channel], 1))
        return ST_DRAM; /* cheap early answer for the common saturated case */
    if (mi >= 0) {
        if (!mshr_can_merge(&s->m, mi))
            return ST_LOCAL;
        fetch = miss & ~s->m.e[mi].pending;
    } else {
        if (mshr_full(&s->m))
            return ST_LOCAL;
        fetch = miss;
        if (slot < 0 && !s->alloc_on_fill) {
            victim = cache_victim(c, p->line);
            if (victim < 0)
                return ST_LOCAL;
            need_wb = c->tag[victim] != CACHE_NO_TAG && c->m[victim].dirty;
        }
    }
    if (!dram_can_accept(&env->chan[s->channel], (fetch != 0) + (uint32_t)need_wb))
        return ST_DRAM;
    int new_line = slot < 0 && mi < 0; /* the line is not in the slice, nor on its way */
    s->port_free = pend;
    if (victim >= 0) {
        cache_evict ev;
        install(s, (uint32_t)victim, p->line, &ev);
        if (need_wb)
            dram_send(s, env, ev.line, ev.dirty, 1, 0, wb_weight(ev.line, env), now);
        slot = victim;
    } else if (slot >= 0) {
        cache_touch(c, (uint32_t)slot);
    }
    if (mi < 0)
        mi = mshr_alloc(&s->m, p->line, 1);
    *(l2_target *)mshr_add_target(&s->m, mi) = t;
    if (fetch) {
        s->m.e[mi].pending |= fetch;
        if (slot >= 0) {
            cache_set_pending(c, (uint32_t)slot, c->m[slot].pending | fetch);
            s->m.e[mi].aux = (uint32_t)slot + 1;
        }
        dram_send(s, env, p->line, fetch, 0, (uint32_t)mi, p->weight, now);
    }
    if (ghost_line(p)) { /* after the line's slot is marked pending */
        if (new_line)
            ghost_fill(s, slot, p->weight - 1u);
        else
            ghost_touch(s, slot, p->weight - 1u);
    }
    if (real)
        s->st.rd_hit += popc(hit), s->st.rd_miss += popc(miss);
    return ST_DONE;
}

/* Write from an L1: ST_DONE or ST_DRAM. */
static int do_write(l2_slice *s, const l2_env *env, const mem_pkt *p, uint64_t ps)
{
    cache *c = &s->c;
    uint32_t req = p->sectors & c->full;
    int slot = cache_find(c, p->line), victim = -1, need_wb = 0, proxy;
    uint32_t hit = slot >= 0 ? req & c->m[slot].valid : 0;
    int forward = s->wpolicy != WP_WRITE_BACK;
    if (slot < 0 && !forward && (proxy = warm_proxy(s, p, req)) >= 0) {
        s->port_free = ps + (uint64_t)popc(req) * p->weight;
        cache_touch(c, (uint32_t)proxy);
        return ST_DONE;
    }
    if (slot < 0 && s->write_allocate && s->wpolicy != WP_WRITE_EVICT) {
        victim = cache_victim(c, p->line);
        if (victim >= 0)
            need_wb = c->tag[victim] != CACHE_NO_TAG && c->m[victim].dirty;
        else if (s->wpolicy == WP_WRITE_BACK)
            forward = 1; /* cannot allocate: write around */
    } else if (slot < 0 && s->wpolicy == WP_WRITE_BACK) {
        forward = 1; /* no write-allocate: write around */
    }
    uint32_t ndram = (uint32_t)forward + (uint32_t)need_wb;
    if (ndram && !dram_can_accept(&env->chan[s->channel], ndram))
        return ST_DRAM;
    uint64_t now = ps / s->banks;
    s->port_free = ps + (uint64_t)popc(req) * p->weight;
    if (victim >= 0) {
        cache_evict ev;
        install(s, (uint32_t)victim, p->line, &ev);
        if (need_wb)
            dram_send(s, env, ev.line, ev.dirty, 1, 0, wb_weight(ev.line, env), now);
        slot = victim;
    }
    if (slot >= 0) {
        if (s->wpolicy == WP_WRITE_EVICT) {
            c->m[slot].valid &= ~req;
            if (!c->m[slot].valid && !c->m[slot].pending)
                cache_drop(c, (uint32_t)slot);
        } else {
            c->m[slot].valid |= req;
            if (!forward)
                c->m[slot].dirty |= req;
            cache_touch(c, (uint32_t)slot);
        }
    }
    if (forward)
        dram_send(s, env, p->line, req, 1, 0, p->weight, now);
    if (ghost_line(p)) { /* after the line is written */
        if (victim >= 0)
            ghost_fill(s, slot, p->weight - 1u);
        else
            ghost_touch(s, slot, p->weight - 1u);
    }
    if (!(p->flags & PKT_F_SHADOW))
        s->st.wr_hit += popc(hit), s->st.wr_miss += popc(req & ~hit);
    return ST_DONE;
}

static void block(l2_slice *s, const l2_env *env, int st)
{
    if (st == ST_DRAM) {
        s->blocked |= L2_BLK_DRAM;
        env->chan[s->channel].room_waiting = 1;
    } else if (st == ST_REPLY) {
        s->blocked |= L2_BLK_REPLY;
    }
}

/* A mask of 32-byte sectors of a 128-byte line -> the cache's sectors. */
static uint32_t sectors32_to(const cache *c, uint32_t m32)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < 4; i++)
        if (m32 & (1u << i)) {
            uint32_t lo = i * 32 / c->sector_bytes, hi = ((i + 1) * 32 - 1) / c->sector_bytes;
            for (uint32_t j = lo; j <= hi && j < c->nsect; j++)
                m |= 1u << j;
        }
    return m;
}

int l2_preload(l2_slice *s, uint64_t line, uint32_t sectors32)
{
    cache *c = &s->c;
    uint32_t sectors = sectors32_to(c, sectors32);
    int slot = cache_find(c, line);
    if (slot < 0) {
        slot = cache_victim(c, line);
        if (slot < 0 || (c->tag[slot] != CACHE_NO_TAG && c->m[slot].dirty))
            return 0;
        cache_install(c, (uint32_t)slot, line, NULL);
    } else {
        cache_touch(c, (uint32_t)slot);
    }
    c->m[slot].valid |= sectors & ~c->m[slot].pending;
    s->warm[slot] = line + 1;
    return 1;
}

void l2_invalidate(l2_slice *s)
{
    cache_invalidate_all(&s->c);
    memset(s->warm, 0, (size_t)s->c.sets * s->c.ways * sizeof *s->warm);
}

void l2_tick(l2_slice *s, const l2_env *env, uint64_t now)
{
    if (now < s->wake)
        return;
    s->blocked = 0;
    uint64_t wake = UINT64_MAX;
    /* 1. one fill from DRAM */
    if (s->fn) {
        const l2_fill *f = &s->fq[s->fhead];
        int st = ST_LOCAL;
        if (f->ready <= now) {
            st = do_fill(s, env, f, now);
            if (st == ST_DONE) {
                s->fhead = (s->fhead + 1) & s->fmask;
                s->fn--;
            } else {
                block(s, env, st);
            }
        }
        if (s->fn && (st == ST_DONE || st == ST_LOCAL)) {
            uint64_t r = s->fq[s->fhead].ready;
            wake = r > now ? r : now + 1;
        }
    }
    /* 2. one request from the crossbar, after the pipeline delay */
    const mem_pkt *p = noc_front(env->req, s->id);
    if (p) {
        uint64_t ready = clk_convert(p->ready, env->f_icnt, env->f_l2) + env->latency;
        uint64_t t = ready;
        if (ready <= now) {
            uint64_t ps = port_start(s, now);
            if (ps == UINT64_MAX) {
                t = s->port_free / s->banks;
            } else {
                int st = p->kind == PKT_WRITE ? do_write(s, env, p, ps) : do_read(s, env, p, ps, now);
                if (st == ST_DONE) {
                    noc_pop(env->req, s->id);
                    p = noc_front(env->req, s->id);
                    if (p) {
                        l2_prefetch(s, p->line);
                        uint64_t r = clk_convert(p->ready, env->f_icnt, env->f_l2) + env->latency;
                        t = r > now ? r : now + 1;
                    } else {
                        t = UINT64_MAX;
                    }
                } else {
                    /* Wait for what is missing: own fills (ST_LOCAL) or a
                     * callback (DRAM room, reply room). */
                    block(s, env, st);
                    t = UINT64_MAX;
                }
            }
        }
        if (t < wake)
            wake = t;
    }
    s->wake = wake;
}
