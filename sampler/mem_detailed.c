/*
 * mem_detailed.c - the "detailed" memory system: per-SM L1s (l1.c), a
 * request and a reply crossbar (noc.c), L2 slices (l2.c) and DRAM channels
 * (dram.c), each in its own clock domain, behind the sim_mem interface.
 *
 * Time.  The L1s run in the core clock inside access()/pop().  The
 * crossbars tick in the interconnect clock, the slices in the L2 clock and
 * the channels in the DRAM command clock (clock.h: exact integer ratios).
 * cycle(now) processes every pending tick of the three domains up to the
 * start of core cycle `now`, merged in time order (ties: DRAM, then L2,
 * then interconnect, so data handed on at one instant is taken at that same
 * instant downstream).  Each domain keeps the earliest tick at which any of
 * its components has work; components that have nothing to do are not
 * visited, and ticks in which no component has work are skipped entirely.
 * next_event() turns those ticks (and the L1s' completion queues) into the
 * next core cycle worth simulating.
 *
 * Latency of a load, by construction (no fudge terms):
 *   L1 hit : l1d.latency_cycles (+ data-port cycles for wide accesses)
 *   L2 hit : L1 pipeline + request crossbar (1 flit + noc.latency_cycles)
 *            + L2 pipeline (l2.latency_cycles) + reply crossbar (data flits
 *            + noc.latency_cycles)
 *   DRAM   : as L2 hit + controller: [tRP +] [tRCD +] tCL + tBL x bursts
 *            + dram.latency_cycles (+ queueing), in DRAM cycles
 * with clock-domain crossings rounded up to the next tick of the receiver.
 *
 * Sampled mode (options.active_sms = A < sm_count): only SMs 0..A-1 are
 * simulated, and only they have L1s (allocated when an SM is first
 * simulated: set_sampling can raise A between kernels; the crossbar ports
 * of every SM exist); with background the memory system also carries the traffic of
 * the other sm_count - A SMs.  Active SM a stands for itself and the W SM
 * ports a + A, a + 2A, ... < sm_count.  Every request it sends past its L1
 * (miss, write, atomic) is mirrored:
 *   background = 2 (exact): by each of the W ports, one copy each;
 *   background = 1 (weighted, the default): by M = min(W, MEM_BG_MIRRORS)
 *     mirrors, mirror j standing for w_j of the W SMs (sum w_j = W).  Its
 *     copy is one packet of weight w_j: it holds crossbar ports on the slice
 *     side, the L2 slice's port and the DRAM data bus w_j times as long (and
 *     its ACT the activate window w_j x tRRD); see noc.h, l2.h, dram.h.  A
 *     weighted miss that brings a new line into a slice also installs
 *     w_j - 1 clean "ghost" lines there (l2.c), so the background takes the
 *     L2 capacity of the SMs it stands for.  The background's simulation
 *     cost is thus O(A x M) packets, not O(sm_count).
 * Atomics, and accesses to lines options.shared_line() says other SMs use
 * too, are mirrored on the same line: atomics on shared counters and
 * histograms cost their serialisation on the owning slice, and shared data
 * hits in L2 as it does when every SM reads it.  Otherwise
 * mirror j of a line L is ((L + j) mod 2^MEM_SHADOW_BIT) + j * 2^MEM_SHADOW_BIT:
 * the same sector mask and kind, with a tag in an address region no real
 * data uses (it never hits or evicts as a real line would), but living
 * where line L + j lives (mem_line_home: its slice, channel, bank and row).
 * Its L2 set is that of line L + j under a linear set index; under a
 * hashed one (l2.set_index = "xor") the tag bits above MEM_SHADOW_BIT fold
 * in, so the mirrors' copies of a line spread over the slice's sets as the
 * other SMs' data does (with k-means' feature-major rows, 512 KB apart and
 * one set under the linear index, the copies had thrashed the sample's set:
 * background L2 hit rate 0.007 on V100 against the full run's 0.868).
 * On a GPU the SMs next to the sampled one run the neighbouring CTAs, whose
 * data lies next to the sample's (CTA-contiguous indexing), so their
 * streams share DRAM rows; mirrors placed in unrelated rows made streams
 * conflict instead (vectoradd on RTX 2060: row-buffer hit rate 0.76-0.83 in
 * the sample against 0.95 on the full GPU; 0.89-0.94 next to it).  The
 * mirror competes for crossbar ports, L2 capacity and bandwidth, MSHRs, DRAM
 * queue slots, bank time and the data bus like the traffic of other SMs
 * running the same code.  In an L2 warmed between kernels (preload), a
 * mirror's access is served by the warmed real line at its home, if that
 * is still there (l2.c, warm_proxy): the other SMs' data is warm too.  Requests that hit in the active SM's L1 are assumed to
 * hit in the mirrors' L1s too.  Shadow replies are dropped at their port.
 * A mirror whose port queue is full keeps its copies in a backlog of the
 * same size (as a real SM's LSU would hold them) and feeds them in as the
 * port drains, so the active SM is not throttled by the slowest of its
 * mirrors; only when a backlog is full does the active SM get RETRY (the
 * back-pressure of the background on the simulated SMs).  The mirroring is
 * a pure function of the active SMs' requests, so it is deterministic.
 * Known bias: mirrors replay the active SM's requests in the same cycles,
 * so the background is more synchronised than independent SMs; weights make
 * it burstier still.  Measured on the suite's vectoradd (v100; 16 CTAs per
 * active SM = 2 waves; cycles x A / CTAs): the full run needs 404.8 per CTA
 * for its first two waves (387.5 over the whole kernel); sampled with
 * M = 4: A = 1 421.5 (+4%), A = 2 384.0, A = 4 370.4, A = 8 380.2,
 * A = 16 388.6 (-4% to -9%); with exact mirrors A = 1 gives 470.9 (+16%),
 * with M = 2 500.9, with M = 8 385.8.
 * Shadow traffic is excluded from the activity counters and hit/latency
 * statistics (they describe the simulated SMs); DRAM bandwidth utilisation
 * (dram_busy_cycles) is physical and includes it.  tests/sampler/mem/test_bw.c checks that the
 * latency and bandwidth seen by 1, 8 and 20 active SMs under a streaming
 * load match a full-mode run within 5% (weighted and exact).
 */
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "clock.h"
#include "dram.h"
#include "l1.h"
#include "l2.h"
#include "mem.h"
#include "noc.h"

enum { DOM_DRAM = 0, DOM_L2, DOM_ICNT, DOM_N };

#define SHADOW_LOW ((1ull << MEM_SHADOW_BIT) - 1)

/* Weighted background (options.background = 1): mirrors per active SM.
 * Simulation cost of the background is proportional to this, not to the
 * number of inactive SMs. */
#ifndef MEM_BG_MIRRORS
#define MEM_BG_MIRRORS 4
#endif
#define MEM_BG_MAX_MIRRORS 1024 /* sm_count bound for background = 2 (schema: gpu.sm_count <= 1024) */

/* Mirror k (>= 1) of a line: same low bits shifted by k (so the linear slice
 * map moves it to another slice too), tagged with k above MEM_SHADOW_BIT. */
static inline uint64_t shadow_line(uint64_t line, uint32_t k)
{
    return ((line + k) & SHADOW_LOW) | ((uint64_t)k << MEM_SHADOW_BIT);
}

typedef struct md {
    sim_mem base;
    uint32_t nsm, active;     /* SMs (crossbar ports); SMs simulated */
    uint32_t nl1;             /* SMs 0..nl1-1 have their L1s (>= active; the rest are zero) */
    uint32_t *mirror;         /* [nsm]: mirror ports of SM a at mirror[first[a]..+nmirror[a]) */
    uint16_t *mweight;        /* [nsm]: SMs each mirror stands for */
    uint32_t *mfirst, *nmirror;
    uint16_t shadow_weight[MEM_BG_MAX_MIRRORS + 2]; /* by mirror index k (for write-backs) */
    uint32_t in_ratio;        /* access masks: l1d sectors -> L2 sectors */
    int (*shared_line)(void *ctx, uint64_t line); /* sim_mem_options */
    void *shared_ctx;
    pktq *backlog;            /* [nsm]: shadow requests waiting for their port's queue */
    uint64_t f_core, f[DOM_N];
    uint64_t next[DOM_N];     /* earliest tick with work (lower bound) */
    uint64_t floor[DOM_N];    /* first tick not yet processed */
    uint64_t deliver_next;    /* earliest reply arrival at an SM port */
    uint64_t done_min;        /* lower bound of the SMs' earliest completion (exact after a scan) */
    uint64_t *rep_busy;       /* bitmap: SM ports with replies in flight or arrived */
    uint64_t *l2_busy;        /* bitmap: slices with a finite wake */
    uint64_t last_now;
    uint64_t dram_tick0;      /* DRAM tick at the last statistics reset */
    l1_unit *l1;              /* [nsm], set up for the first nl1 */
    uint64_t *ready_at;       /* [nsm]: l1_next_ready of each SM's L1 (sim_mem.ready_at) */
    uint64_t *poked;          /* [(nsm + 63) / 64]: SMs whose L1 refusal key changed (sim_mem.poked) */
    noc req, rep;
    l2_slice *l2;
    dram_chan *chan;
    dram_timing timing;
    addrmap am;
    l2_env env;
    uint32_t nslices, nchan;
    gpu_config cfg;           /* for the L1s of SMs simulated later (set_sampling) */
} md;

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- callbacks from the components ---- */

/* SM s's completion heap changed. */
static inline void note_ready(md *m, uint32_t s) { m->ready_at[s] = l1_next_ready(&m->l1[s]); }

/* SM s's L1 refusal key changed from this side (a fill, queue room). */
static inline void poke(md *m, uint32_t s) { m->poked[s >> 6] |= 1ull << (s & 63); }

static inline void wake_slice(md *m, uint32_t i, uint64_t t)
{
    l2_wake(&m->l2[i], t);
    m->l2_busy[i >> 6] |= 1ull << (i & 63);
    if (t < m->next[DOM_L2])
        m->next[DOM_L2] = t;
}

static void req_arrive(void *ctx, uint32_t slice, const mem_pkt *p)
{
    md *m = ctx;
    if (m->req.dst[slice].n == 1) /* it is the head: the slice looks it up next */
        l2_prefetch(&m->l2[slice], p->line);
    wake_slice(m, slice, clk_convert(p->ready, m->f[DOM_ICNT], m->f[DOM_L2]) + m->env.latency);
}

static void rep_arrive(void *ctx, uint32_t sm, const mem_pkt *p)
{
    md *m = ctx;
    uint64_t tick = p->ready;
    l1_prefetch_fill(&m->l1[sm], p);
    m->rep_busy[sm >> 6] |= 1ull << (sm & 63);
    if (tick < m->deliver_next)
        m->deliver_next = tick;
}

static void dram_done(void *ctx, const dram_req *r, uint64_t ready)
{
    md *m = ctx;
    uint64_t t = clk_convert(ready, m->f[DOM_DRAM], m->f[DOM_L2]);
    l2_dram_done(&m->l2[r->src], r->tag, r->sectors, t);
    wake_slice(m, r->src, t);
}

/* A channel's queue has room again: wake its slices that wait for it. */
static void dram_room(void *ctx, uint32_t chan, uint64_t tick)
{
    md *m = ctx;
    uint64_t t = clk_convert(tick, m->f[DOM_DRAM], m->f[DOM_L2]);
    uint32_t spc = m->am.slices_per_chan;
    for (uint32_t i = chan * spc; i < (chan + 1) * spc; i++)
        if (m->l2[i].blocked & L2_BLK_DRAM)
            wake_slice(m, i, t);
}

/* A packet left SM port s's queue: move shadow copies waiting in its
 * backlog into the room. */
static void req_depart(void *ctx, uint32_t s, uint64_t tick)
{
    md *m = ctx;
    (void)tick;
    if (s < m->nl1) {
        uint64_t k = m->l1[s].kver;
        l1_room_grew(&m->l1[s]);
        if (m->l1[s].kver != k)
            poke(m, s);
    }
    pktq *bl = &m->backlog[s];
    const mem_pkt *p;
    while ((p = pktq_head(bl)) && noc_room(&m->req, s, 1, p->flits)) {
        noc_push(&m->req, s, p);
        pktq_pop(bl);
    }
}

/* A slice's reply queue has room again. */
static void rep_depart(void *ctx, uint32_t slice, uint64_t tick)
{
    md *m = ctx;
    if (m->l2[slice].blocked & L2_BLK_REPLY)
        wake_slice(m, slice, clk_convert(tick, m->f[DOM_ICNT], m->f[DOM_L2]));
}

/* ---- domain ticks ---- */

static void icnt_tick(md *m, uint64_t t)
{
    /* Replies that reached their SM port: fill the L1 (shadow: drop). */
    if (m->deliver_next <= t) {
        uint64_t next = UINT64_MAX;
        uint64_t core = clk_to_core(t, m->f[DOM_ICNT], m->f_core);
        for (uint32_t w = 0; w < (m->nsm + 63) / 64; w++)
            for (uint64_t bits = m->rep_busy[w]; bits; bits &= bits - 1) {
                uint32_t s = w * 64 + (uint32_t)__builtin_ctzll(bits);
                const mem_pkt *p;
                int filled = 0;
                uint64_t k = s < m->nl1 ? m->l1[s].kver : 0;
                while ((p = noc_peek(&m->rep, s, t))) {
                    if (!(p->flags & PKT_F_SHADOW))
                        l1_fill(&m->l1[s], p, core), filled = 1;
                    noc_pop(&m->rep, s);
                }
                if (filled) {
                    note_ready(m, s);
                    if (m->l1[s].kver != k)
                        poke(m, s);
                }
                if (filled && core < m->done_min)
                    m->done_min = core;
                p = noc_front(&m->rep, s);
                if (!p)
                    m->rep_busy[w] &= ~(1ull << (s & 63));
                else if (p->ready < next)
                    next = p->ready;
            }
        m->deliver_next = next;
    }
    noc_tick(&m->req, t);
    noc_tick(&m->rep, t);
    uint64_t n = m->req.wake < m->rep.wake ? m->req.wake : m->rep.wake;
    m->next[DOM_ICNT] = n < m->deliver_next ? n : m->deliver_next;
}

static void l2_domain_tick(md *m, uint64_t t)
{
    uint64_t n = UINT64_MAX;
    for (uint32_t w = 0; w < (m->nslices + 63) / 64; w++)
        for (uint64_t bits = m->l2_busy[w]; bits; bits &= bits - 1) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
            l2_slice *s = &m->l2[i];
            if (s->wake <= t)
                l2_tick(s, &m->env, t);
            if (s->wake == UINT64_MAX)
                m->l2_busy[w] &= ~(1ull << (i & 63));
            else if (s->wake < n)
                n = s->wake;
        }
    m->next[DOM_L2] = n;
}

static void dram_domain_tick(md *m, uint64_t t)
{
    uint64_t n = UINT64_MAX;
    for (uint32_t i = 0; i < m->nchan; i++) {
        dram_chan *c = &m->chan[i];
        if (c->wake <= t)
            dram_tick(c, t);
        if (c->wake < n)
            n = c->wake;
    }
    m->next[DOM_DRAM] = n;
}

/* Process every pending tick with time <= core cycle now, in time order. */
static void run_until(md *m, uint64_t now)
{
    uint64_t lim[DOM_N];
    for (int d = 0; d < DOM_N; d++)
        lim[d] = clk_ticks_through(now, m->f_core, m->f[d]);
    for (;;) {
        int best = -1;
        uint64_t bt = 0;
        for (int d = 0; d < DOM_N; d++) {
            uint64_t t = m->next[d] < m->floor[d] ? m->floor[d] : m->next[d];
            if (t > lim[d])
                continue;
            if (best < 0 || clk_before(t, m->f[d], bt, m->f[best]))
                best = d, bt = t;
        }
        if (best < 0)
            break;
        m->floor[best] = bt + 1;
        if (best == DOM_DRAM)
            dram_domain_tick(m, bt);
        else if (best == DOM_L2)
            l2_domain_tick(m, bt);
        else
            icnt_tick(m, bt);
    }
    for (int d = 0; d < DOM_N; d++)
        if (m->floor[d] < lim[d] + 1)
            m->floor[d] = lim[d] + 1;
}

/* ---- sim_mem ops ---- */

static sim_mem_status md_access(sim_mem *sm, int smi, const sim_mem_access *a, uint64_t now)
{
    md *m = (md *)sm;
    uint32_t s = (uint32_t)smi;
    const uint32_t *mir = m->mirror + m->mfirst[s];
    const uint16_t *mw = m->mweight + m->mfirst[s];
    uint32_t rp = m->req.src_pkts_max - m->req.src[s].n, rf = m->req.src_flits_max - m->req.src_flits[s];
    /* Each mirror holds its copies in its own backlog while its port is
     * full (like a real SM's LSU), so mirrors do not stall the active SM
     * unless they fall far behind. */
    for (uint32_t k = 0; k < m->nmirror[s]; k++)
        if (pktq_room(&m->backlog[mir[k]]) < 2)
            return SIM_MEM_RETRY;
    mem_pkt out[2];
    int nout = 0;
    uint64_t send_at = now;
    sim_mem_access in = *a;
    in.sectors = mem_mask_expand(a->sectors, m->in_ratio);
    sim_mem_status st = l1_access(&m->l1[s], &in, now, rp, rf, out, &nout, &send_at);
    if (st != SIM_MEM_ACCEPTED)
        return st;
    note_ready(m, s);
    uint64_t r0 = m->ready_at[s];
    if (r0 < m->done_min)
        m->done_min = r0;
    if (!nout)
        return st;
    uint64_t ready = clk_convert(send_at, m->f_core, m->f[DOM_ICNT]);
    for (int i = 0; i < nout; i++) {
        mem_pkt p = out[i];
        /* Atomics and lines the caller says are shared: the other SMs use
         * the same line (hot-spot contention, shared L2 hits). */
        int same_line = p.kind == PKT_ATOMIC ||
                        (m->nmirror[s] && m->shared_line && m->shared_line(m->shared_ctx, p.line));
        p.sm = (uint16_t)s;
        p.slice = (uint16_t)addrmap_slice(&m->am, p.line);
        p.ready = ready;
        noc_push(&m->req, s, &p);
        for (uint32_t k = 0; k < m->nmirror[s]; k++) {
            mem_pkt q = out[i];
            if (!same_line)
                q.line = shadow_line(q.line, k + 1);
            q.sm = (uint16_t)mir[k];
            q.slice = (uint16_t)addrmap_slice(&m->am, mem_line_home(q.line));
            q.flags |= PKT_F_SHADOW;
            q.weight = mw[k];
            q.ready = ready;
            pktq *bl = &m->backlog[q.sm];
            if (!bl->n && noc_room(&m->req, q.sm, 1, q.flits))
                noc_push(&m->req, q.sm, &q);
            else
                pktq_push(bl, &q);
        }
    }
    if (ready < m->next[DOM_ICNT])
        m->next[DOM_ICNT] = ready;
    return st;
}

static int md_pop(sim_mem *sm, int smi, uint64_t now, uint32_t *token)
{
    md *m = (md *)sm;
    if (!l1_pop(&m->l1[smi], now, token))
        return 0;
    note_ready(m, (uint32_t)smi);
    return 1;
}

static void md_cycle(sim_mem *sm, uint64_t now)
{
    md *m = (md *)sm;
    run_until(m, now);
    m->last_now = now;
}

static uint64_t md_next_event(const sim_mem *sm, uint64_t now)
{
    md *m = (md *)sm; /* done_min is a cache */
    if (m->done_min <= now) { /* stale after pops: rescan */
        uint64_t d = UINT64_MAX;
        for (uint32_t s = 0; s < m->nl1; s++) {
            uint64_t r = l1_next_ready(&m->l1[s]);
            if (r < d)
                d = r;
        }
        m->done_min = d;
    }
    uint64_t best = m->done_min;
    for (int d = 0; d < DOM_N; d++) {
        if (m->next[d] == UINT64_MAX)
            continue;
        uint64_t t = m->next[d] < m->floor[d] ? m->floor[d] : m->next[d];
        uint64_t c = clk_to_core(t, m->f[d], m->f_core);
        if (c < best)
            best = c;
    }
    return best <= now ? now + 1 : best;
}

static void md_collect(const sim_mem *sm, act_counters *a, sim_mem_stats *s)
{
    const md *m = (const md *)sm;
    act_counters ta;
    sim_mem_stats ts;
    if (!a)
        a = &ta;
    if (!s)
        s = &ts;
    double *c = a->c;
    for (uint32_t i = 0; i < m->nl1; i++) {
        const l1_stats *st = &m->l1[i].st;
        c[ACT_L1_READ_HITS] += st->rd_hit[L1_DATA];
        c[ACT_L1_READ_MISSES] += st->rd_miss[L1_DATA];
        c[ACT_L1_WRITE_HITS] += st->wr_hit;
        c[ACT_L1_WRITE_MISSES] += st->wr_miss;
        c[ACT_CONST_HITS] += st->rd_hit[L1_CONST];
        c[ACT_CONST_MISSES] += st->rd_miss[L1_CONST];
        c[ACT_TEX_HITS] += st->rd_hit[L1_TEX];
        c[ACT_TEX_MISSES] += st->rd_miss[L1_TEX];
        s->l1_load_sectors += st->load_sectors;
        s->l1_load_hits += st->load_hits;
        s->load_latency_sum += st->lat_sum;
        s->load_count += st->lat_count;
    }
    for (uint32_t i = 0; i < m->nslices; i++) {
        const l2_stats *st = &m->l2[i].st;
        c[ACT_L2_READ_HITS] += st->rd_hit;
        c[ACT_L2_READ_MISSES] += st->rd_miss;
        c[ACT_L2_WRITE_HITS] += st->wr_hit;
        c[ACT_L2_WRITE_MISSES] += st->wr_miss;
        s->l2_load_sectors += st->rd_hit + st->rd_miss;
        s->l2_load_hits += st->rd_hit;
    }
    c[ACT_NOC_FLITS] += m->req.flits + m->rep.flits;
    for (uint32_t i = 0; i < m->nchan; i++) {
        const dram_stats *st = &m->chan[i].st;
        c[ACT_MC_REQUESTS] += st->mc_requests;
        c[ACT_DRAM_READS] += st->reads;
        c[ACT_DRAM_WRITES] += st->writes;
        c[ACT_DRAM_ACTIVATES] += st->activates;
        c[ACT_DRAM_PRECHARGES] += st->precharges;
        s->dram_row_hits += st->row_hits;
        s->dram_row_accesses += st->row_accesses;
        s->dram_row_hits_w += st->row_hits_w;
        s->dram_row_accesses_w += st->writes;
        s->dram_busy_cycles += st->busy;
    }
    uint64_t dt = clk_ticks_through(m->last_now, m->f_core, m->f[DOM_DRAM]);
    s->dram_cycles += (double)(dt > m->dram_tick0 ? dt - m->dram_tick0 : 0) * m->nchan;
}

static void md_reset_stats(sim_mem *sm)
{
    md *m = (md *)sm;
    for (uint32_t i = 0; i < m->nl1; i++)
        memset(&m->l1[i].st, 0, sizeof m->l1[i].st);
    for (uint32_t i = 0; i < m->nslices; i++)
        memset(&m->l2[i].st, 0, sizeof m->l2[i].st);
    for (uint32_t i = 0; i < m->nchan; i++)
        memset(&m->chan[i].st, 0, sizeof m->chan[i].st);
    m->req.flits = m->rep.flits = 0;
    m->dram_tick0 = clk_ticks_through(m->last_now, m->f_core, m->f[DOM_DRAM]);
}

static void md_kernel_boundary(sim_mem *sm)
{
    md *m = (md *)sm;
    for (uint32_t i = 0; i < m->nl1; i++)
        l1_invalidate(&m->l1[i]);
}

/* Mirror lists for `active` simulated SMs.  background 0: none; 2: one
 * mirror per inactive SM (exact); 1: the inactive SMs an active SM stands
 * for are grouped into at most MEM_BG_MIRRORS weighted mirrors. */
static void set_mirrors(md *m, uint32_t active, int background)
{
    m->active = active;
    uint32_t k = 0;
    memset(m->shadow_weight, 0, sizeof m->shadow_weight);
    for (uint32_t a = 0; a < m->nsm; a++) {
        m->mfirst[a] = k;
        m->nmirror[a] = 0;
        if (!background || a >= active)
            continue;
        uint32_t W = (m->nsm - 1 - a) / active; /* ports a+active, a+2*active, ... */
        uint32_t M = background == 2 || W < MEM_BG_MIRRORS ? W : MEM_BG_MIRRORS;
        for (uint32_t j = 0, v = a + active; j < M; j++) {
            uint32_t w = W / M + (j < W % M);
            m->mirror[k] = v;
            m->mweight[k++] = (uint16_t)w;
            m->nmirror[a]++;
            v += w * active; /* the group's first port */
            if (j + 1 <= MEM_BG_MAX_MIRRORS && w > m->shadow_weight[j + 1])
                m->shadow_weight[j + 1] = (uint16_t)w;
        }
    }
    m->env.shadow_weight = m->shadow_weight;
    m->env.nshadow = MEM_BG_MAX_MIRRORS;
}

/* Give SMs nl1..n-1 their L1s (a sampled memory system sets up only the
 * simulated SMs': 80 SMs' L1s, MSHRs and completion heaps were most of the
 * time a hybrid estimate spent creating its one-SM simulators). */
static int l1s_ready(md *m, uint32_t n, const gpu_config *cfg, ge_err *e)
{
    for (; m->nl1 < n; m->nl1++)
        if (l1_init(&m->l1[m->nl1], cfg, e))
            return -1; /* l1_init freed what it had allocated */
    return 0;
}

static int md_set_sampling(sim_mem *sm, const sim_mem_options *o, ge_err *e)
{
    md *m = (md *)sm;
    uint32_t active = o && o->active_sms && o->active_sms < m->nsm ? o->active_sms : m->nsm;
    if (l1s_ready(m, active, &m->cfg, e))
        return -1;
    m->shared_line = o ? o->shared_line : NULL;
    m->shared_ctx = o ? o->shared_ctx : NULL;
    set_mirrors(m, active, o ? o->background : 0);
    return 0;
}

static void md_destroy(sim_mem *sm)
{
    md *m = (md *)sm;
    if (!m)
        return;
    if (m->l1)
        for (uint32_t i = 0; i < m->nl1; i++)
            l1_free(&m->l1[i]);
    if (m->l2)
        for (uint32_t i = 0; i < m->nslices; i++)
            l2_free(&m->l2[i]);
    if (m->chan)
        for (uint32_t i = 0; i < m->nchan; i++)
            dram_free(&m->chan[i]);
    if (m->backlog)
        for (uint32_t i = 0; i < m->nsm; i++)
            pktq_free(&m->backlog[i]);
    free(m->backlog);
    free(m->rep_busy);
    free(m->l2_busy);
    free(m->mirror);
    free(m->mfirst);
    free(m->nmirror);
    free(m->mweight);
    free(m->l1);
    free(m->ready_at);
    free(m->poked);
    free(m->l2);
    free(m->chan);
    noc_free(&m->req);
    noc_free(&m->rep);
    free(m);
}

static size_t md_preload(sim_mem *sm, const uint64_t *lines, const uint8_t *sectors, size_t n)
{
    md *m = (md *)sm;
    size_t got = 0;
    for (size_t i = 0; i < n; i++)
        got += (size_t)l2_preload(&m->l2[addrmap_slice(&m->am, lines[i])], lines[i], sectors[i]);
    return got;
}

static void md_l2_flush(sim_mem *sm)
{
    md *m = (md *)sm;
    for (uint32_t i = 0; i < m->nslices; i++)
        l2_invalidate(&m->l2[i]);
}

static void md_hint(const sim_mem *sm, int smi, const sim_mem_access *a)
{
    const md *m = (const md *)sm;
    if (a->kind == SIM_MEM_LOAD && (a->space == ISA_SPACE_GLOBAL || a->space == ISA_SPACE_LOCAL))
        l1_prefetch_load(&m->l1[smi], a->line);
}

static void md_l1_load_counts(const sim_mem *sm, int smi, double *sectors, double *hits)
{
    const md *m = (const md *)sm;
    const l1_stats *s = &m->l1[smi].st;
    *sectors = (uint32_t)smi < m->nl1 ? s->load_sectors : 0;
    *hits = (uint32_t)smi < m->nl1 ? s->load_hits : 0;
}

/* The L1's memo decides a repeat, unless mirrors' backlogs (which the L1
 * does not see) can refuse it too. */
static uint64_t md_refusal_key(const sim_mem *sm, int smi)
{
    const md *m = (const md *)sm;
    return m->nmirror[smi] ? 0 : l1_refusal_key(&m->l1[smi]);
}

static const sim_mem_ops md_ops = {
    "detailed",      md_access,       md_pop,     md_cycle,      md_next_event, md_collect, md_reset_stats,
    md_kernel_boundary, md_destroy,   md_set_sampling, md_preload, md_refusal_key, md_hint, md_l2_flush,
    md_l1_load_counts,
};

/* Config checks specific to this model, each naming its key. */
static int check_config(const gpu_config *cfg, ge_err *e)
{
    static const struct {
        const char *key;
        size_t off;
    } caches[] = {{"l1d", offsetof(gpu_config, l1d)},
                  {"l1c", offsetof(gpu_config, l1c)},
                  {"l1t", offsetof(gpu_config, l1t)},
                  {"l2", offsetof(gpu_config, l2.cache)}};
    for (size_t i = 0; i < sizeof caches / sizeof *caches; i++) {
        const gcfg_cache *c = (const gcfg_cache *)((const char *)cfg + caches[i].off);
        if (c->size_bytes && !cache_repl_find(c->replacement[0] ? c->replacement : "lru"))
            return ge_errf(e, "%s.replacement: unknown policy '%s'", caches[i].key, c->replacement);
    }
    if (!cfg->l2.cache.mshr_entries)
        return ge_errf(e, "l2.mshr_entries: must be > 0");
    if (cfg->l2.slices > UINT16_MAX || cfg->gpu.sm_count > UINT16_MAX)
        return ge_errf(e, "l2.slices: at most %u slices and SMs", UINT16_MAX);
    if (!dram_sched_find(cfg->dram.scheduler))
        return ge_errf(e, "dram.scheduler: unknown scheduler '%s'", cfg->dram.scheduler);
    if (cfg->dram.write_high && (cfg->dram.write_high > cfg->dram.queue_entries ||
                                 cfg->dram.write_low >= cfg->dram.write_high))
        return ge_errf(e, "dram.write_drain_high: %u must be <= dram.queue_entries %u and > write_drain_low %u",
                       cfg->dram.write_high, cfg->dram.queue_entries, cfg->dram.write_low);
    if (cfg->l1d.size_bytes && cfg->l1d.sector_bytes < cfg->l2.cache.sector_bytes)
        return ge_errf(e, "l1d.sector_bytes: %u is smaller than l2.sector_bytes %u", cfg->l1d.sector_bytes,
                       cfg->l2.cache.sector_bytes);
    if (cfg->l1d.size_bytes && cfg->l1d.line_bytes != cfg->l2.cache.line_bytes)
        return ge_errf(e, "l1d.line_bytes: %u differs from l2.line_bytes %u", cfg->l1d.line_bytes,
                       cfg->l2.cache.line_bytes);
    uint32_t max_flits = mem_flits(MEM_PKT_HEADER_BYTES + cfg->l2.cache.line_bytes, cfg->noc.flit_bytes);
    if (max_flits > 255)
        return ge_errf(e, "noc.flit_bytes: %u B flits make a line packet longer than 255 flits", cfg->noc.flit_bytes);
    if (cfg->noc.buffer_flits < max_flits)
        return ge_errf(e, "noc.buffer_flits: %u cannot hold one line packet (%u flits)", cfg->noc.buffer_flits,
                       max_flits);
    return 0;
}

sim_mem *sim_mem_detailed_create(const gpu_config *cfg, const sim_mem_options *o, ge_err *e)
{
    if (gcfg_validate(cfg, e) || check_config(cfg, e))
        return NULL;
    uint32_t nsm = cfg->gpu.sm_count;
    uint32_t active = o && o->active_sms ? o->active_sms : nsm;
    if (active > nsm) {
        ge_errf(e, "active_sms %u exceeds gpu.sm_count %u", active, nsm);
        return NULL;
    }
    md *m = ge_calloc(1, sizeof *m, e);
    if (!m)
        return NULL;
    m->base.ops = &md_ops;
    m->nsm = nsm;
    m->active = active;
    m->nslices = cfg->l2.slices;
    m->nchan = cfg->dram.channels;
    /* Clocks as integer kHz, reduced by their gcd. */
    uint64_t fk[4] = {(uint64_t)(cfg->gpu.core_clock_mhz * 1000 + 0.5), (uint64_t)(cfg->gpu.dram_clock_mhz * 1000 + 0.5),
                      (uint64_t)(cfg->gpu.l2_clock_mhz * 1000 + 0.5), (uint64_t)(cfg->gpu.icnt_clock_mhz * 1000 + 0.5)};
    uint64_t g = fk[0];
    for (int i = 1; i < 4; i++)
        g = gcd64(g, fk[i]);
    m->f_core = fk[0] / g;
    m->f[DOM_DRAM] = fk[1] / g;
    m->f[DOM_L2] = fk[2] / g;
    m->f[DOM_ICNT] = fk[3] / g;
    for (int d = 0; d < DOM_N; d++)
        m->next[d] = UINT64_MAX;
    m->deliver_next = UINT64_MAX;
    m->done_min = UINT64_MAX;
    addrmap_init(&m->am, cfg);
    if (dram_timing_build(&m->timing, cfg, e))
        goto fail;
    m->mirror = ge_calloc(nsm, sizeof *m->mirror, e);
    m->mfirst = ge_calloc(nsm, sizeof *m->mfirst, e);
    m->nmirror = ge_calloc(nsm, sizeof *m->nmirror, e);
    m->mweight = ge_calloc(nsm, sizeof *m->mweight, e);
    m->l1 = ge_calloc(nsm, sizeof *m->l1, e);
    m->ready_at = ge_calloc(nsm, sizeof *m->ready_at, e);
    m->poked = ge_calloc((nsm + 63) / 64, sizeof *m->poked, e);
    m->l2 = ge_calloc(m->nslices, sizeof *m->l2, e);
    m->chan = ge_calloc(m->nchan, sizeof *m->chan, e);
    m->backlog = ge_calloc(nsm, sizeof *m->backlog, e);
    m->rep_busy = ge_calloc((nsm + 63) / 64, sizeof *m->rep_busy, e);
    m->l2_busy = ge_calloc((cfg->l2.slices + 63) / 64, sizeof *m->l2_busy, e);
    if (!m->mirror || !m->mfirst || !m->nmirror || !m->mweight || !m->l1 || !m->ready_at || !m->poked || !m->l2 ||
        !m->chan || !m->backlog || !m->rep_busy || !m->l2_busy)
        goto fail;
    for (uint32_t a = 0; a < nsm; a++)
        m->ready_at[a] = UINT64_MAX;
    m->base.ready_at = m->ready_at;
    m->base.poked = m->poked;
    m->in_ratio = cfg->l1d.size_bytes && cfg->l1d.sector_bytes > cfg->l2.cache.sector_bytes
                      ? cfg->l1d.sector_bytes / cfg->l2.cache.sector_bytes
                      : 1;
    m->cfg = *cfg;
    if (l1s_ready(m, active, cfg, e))
        goto fail;
    uint32_t mq = cfg->l1d.miss_queue_entries;
    if (noc_init(&m->req, nsm, m->nslices, 1, cfg->noc.port_flits_per_cycle, cfg->noc.latency_cycles,
                 cfg->noc.buffer_flits, mq, cfg->noc.buffer_flits, e) ||
        noc_init(&m->rep, m->nslices, nsm, 0, cfg->noc.port_flits_per_cycle, cfg->noc.latency_cycles,
                 cfg->noc.buffer_flits, 0, cfg->noc.buffer_flits, e))
        goto fail;
    m->req.on_arrive = req_arrive;
    m->req.on_depart = req_depart;
    m->req.ctx = m;
    for (uint32_t i = 0; i < nsm; i++)
        if (pktq_init(&m->backlog[i], m->req.src_pkts_max, e))
            goto fail;
    m->rep.on_arrive = rep_arrive;
    m->rep.on_depart = rep_depart;
    m->rep.ctx = m;
    for (uint32_t i = 0; i < m->nchan; i++) {
        if (dram_init(&m->chan[i], &m->timing, cfg, dram_done, m, e))
            goto fail;
        m->chan[i].id = i;
        m->chan[i].on_room = dram_room;
        m->chan[i].room_ctx = m;
    }
    for (uint32_t i = 0; i < m->nslices; i++)
        if (l2_init(&m->l2[i], i, cfg, &m->am, e))
            goto fail;
    m->env = (l2_env){&m->req,
                      &m->rep,
                      m->chan,
                      &m->am,
                      m->f[DOM_ICNT],
                      m->f[DOM_L2],
                      m->f[DOM_DRAM],
                      (uint32_t)clk_convert(cfg->l2.cache.latency_cycles, m->f_core, m->f[DOM_L2]),
                      cfg->l2.cache.sector_bytes,
                      cfg->noc.flit_bytes,
                      &m->next[DOM_ICNT],
                      &m->next[DOM_DRAM],
                      m->shadow_weight,
                      MEM_BG_MAX_MIRRORS};
    set_mirrors(m, active, o ? o->background : 0);
    m->shared_line = o ? o->shared_line : NULL;
    m->shared_ctx = o ? o->shared_ctx : NULL;
    for (uint32_t i = 0; i < m->nchan; i++)
        if (m->chan[i].wake < m->next[DOM_DRAM])
            m->next[DOM_DRAM] = m->chan[i].wake;
    return &m->base;
fail:
    md_destroy(&m->base);
    return NULL;
}
