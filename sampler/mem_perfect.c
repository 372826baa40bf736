/*
 * mem_perfect.c - the "perfect" memory system: every access hits in the
 * first-level cache of its space and completes after that cache's hit
 * latency (l1d for global/local and atomics, l1c for constants, l1t for
 * textures, falling back to l1d when there is no texture cache).  There
 * are no misses, no MSHR limits and no bandwidth limits, so a kernel's
 * time under it is the SM pipeline's alone: the reference for
 * compute-bound studies and for tests of the core.
 *
 * Completions are FIFO per SM and latency (now increases and the latency
 * of a class is fixed), so each SM keeps one ring per latency class and
 * pop takes the earliest head.  Activity: every sector counts as an L1
 * hit (reads for loads, writes for stores, both for atomics), constant and
 * texture accesses as hits of their caches; nothing reaches L2 or DRAM.
 * Instruction fills (space NONE) take the L1 latency and count nowhere
 * here (the SM counts its I-cache).
 */
#include <stdlib.h>
#include <string.h>

#include "mem.h"

enum { PQ_L1D = 0, PQ_CONST, PQ_TEX, PQ_COUNT };

typedef struct pq_ent {
    uint64_t ready;
    uint32_t token;
} pq_ent;

typedef struct pq_ring {
    pq_ent *e;
    size_t cap, head, n; /* cap is a power of two */
} pq_ring;

typedef struct perfect_mem {
    sim_mem base;
    uint32_t nsm;
    uint32_t lat[PQ_COUNT];
    pq_ring *q; /* nsm * PQ_COUNT */
    uint64_t outstanding;
    act_counters act;
    sim_mem_stats st;
} perfect_mem;

static int ring_push(pq_ring *r, uint64_t ready, uint32_t token)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        pq_ent *e = malloc(cap * sizeof *e);
        if (!e)
            return -1;
        for (size_t i = 0; i < r->n; i++)
            e[i] = r->e[(r->head + i) & (r->cap - 1)];
        free(r->e);
        r->e = e;
        r->cap = cap;
        r->head = 0;
    }
    r->e[(r->head + r->n) & (r->cap - 1)] = (pq_ent){ready, token};
    r->n++;
    return 0;
}

static int space_queue(uint8_t space)
{
    return space == ISA_SPACE_CONST ? PQ_CONST : space == ISA_SPACE_TEX ? PQ_TEX : PQ_L1D;
}

static sim_mem_status pm_access(sim_mem *m, int sm, const sim_mem_access *a, uint64_t now)
{
    perfect_mem *p = (perfect_mem *)m;
    int q = space_queue(a->space);
    double sectors = __builtin_popcount(a->sectors);
    if (a->kind != SIM_MEM_STORE) {
        if (ring_push(&p->q[(size_t)sm * PQ_COUNT + q], now + p->lat[q], a->token))
            return SIM_MEM_RETRY; /* out of memory: the LSU retries */
        p->outstanding++;
    }
    if (a->space == ISA_SPACE_NONE) {
        /* instruction fetch (an I-cache fill): counted by the SM's I-cache */
    } else if (q == PQ_CONST) {
        p->act.c[ACT_CONST_HITS]++;
    } else if (q == PQ_TEX) {
        p->act.c[ACT_TEX_HITS]++;
    } else {
        if (a->kind != SIM_MEM_STORE)
            p->act.c[ACT_L1_READ_HITS] += sectors;
        if (a->kind != SIM_MEM_LOAD)
            p->act.c[ACT_L1_WRITE_HITS] += sectors;
        if (a->kind == SIM_MEM_LOAD) {
            p->st.l1_load_sectors += sectors;
            p->st.l1_load_hits += sectors;
        }
    }
    if (a->kind != SIM_MEM_STORE && a->space != ISA_SPACE_NONE) {
        p->st.load_latency_sum += p->lat[q];
        p->st.load_count++;
    }
    return SIM_MEM_ACCEPTED;
}

static int pm_pop(sim_mem *m, int sm, uint64_t now, uint32_t *token)
{
    perfect_mem *p = (perfect_mem *)m;
    pq_ring *rs = &p->q[(size_t)sm * PQ_COUNT];
    int best = -1;
    for (int q = 0; q < PQ_COUNT; q++)
        if (rs[q].n && rs[q].e[rs[q].head].ready <= now &&
            (best < 0 || rs[q].e[rs[q].head].ready < rs[best].e[rs[best].head].ready))
            best = q;
    if (best < 0)
        return 0;
    pq_ring *r = &rs[best];
    *token = r->e[r->head].token;
    r->head = (r->head + 1) & (r->cap - 1);
    r->n--;
    p->outstanding--;
    return 1;
}

static void pm_cycle(sim_mem *m, uint64_t now)
{
    (void)m;
    (void)now;
}

static uint64_t pm_next_event(const sim_mem *m, uint64_t now)
{
    const perfect_mem *p = (const perfect_mem *)m;
    uint64_t t = UINT64_MAX;
    if (!p->outstanding)
        return t;
    for (size_t i = 0; i < (size_t)p->nsm * PQ_COUNT; i++)
        if (p->q[i].n) {
            uint64_t r = p->q[i].e[p->q[i].head].ready;
            if (r < t)
                t = r;
        }
    return t > now ? t : now + 1;
}

static void pm_collect(const sim_mem *m, act_counters *a, sim_mem_stats *s)
{
    const perfect_mem *p = (const perfect_mem *)m;
    if (a)
        act_add(a, &p->act);
    if (s) {
        s->l1_load_sectors += p->st.l1_load_sectors;
        s->l1_load_hits += p->st.l1_load_hits;
        s->load_latency_sum += p->st.load_latency_sum;
        s->load_count += p->st.load_count;
    }
}

static void pm_reset_stats(sim_mem *m)
{
    perfect_mem *p = (perfect_mem *)m;
    act_clear(&p->act);
    memset(&p->st, 0, sizeof p->st);
}

static void pm_kernel_boundary(sim_mem *m) { (void)m; }

static void pm_destroy(sim_mem *m)
{
    perfect_mem *p = (perfect_mem *)m;
    if (!p)
        return;
    for (size_t i = 0; i < (size_t)p->nsm * PQ_COUNT; i++)
        free(p->q[i].e);
    free(p->q);
    free(p);
}

/* Every access hits, so which SMs run changes nothing here. */
static int pm_set_sampling(sim_mem *m, const sim_mem_options *o, ge_err *e)
{
    (void)m;
    (void)o;
    (void)e;
    return 0;
}

static const sim_mem_ops perfect_ops = {"perfect",     pm_access,      pm_pop,
                                        pm_cycle,      pm_next_event,  pm_collect,
                                        pm_reset_stats, pm_kernel_boundary, pm_destroy,
                                        pm_set_sampling, NULL /* no L2 to warm */,
                                        NULL /* never refuses for long */, NULL, NULL /* no L2 */,
                                        NULL /* no L1 */};

sim_mem *sim_mem_perfect_create(const gpu_config *cfg, const sim_mem_options *o, ge_err *e)
{
    (void)o;
    perfect_mem *p = ge_calloc(1, sizeof *p, e);
    if (!p)
        return NULL;
    p->base.ops = &perfect_ops;
    p->nsm = cfg->gpu.sm_count;
    p->lat[PQ_L1D] = cfg->l1d.latency_cycles;
    p->lat[PQ_CONST] = cfg->l1c.size_bytes ? cfg->l1c.latency_cycles : cfg->l1d.latency_cycles;
    p->lat[PQ_TEX] = cfg->l1t.size_bytes ? cfg->l1t.latency_cycles : cfg->l1d.latency_cycles;
    for (int q = 0; q < PQ_COUNT; q++)
        if (p->lat[q] == 0)
            p->lat[q] = 1; /* a completion is never in the same cycle */
    p->q = ge_calloc((size_t)p->nsm * PQ_COUNT, sizeof *p->q, e);
    if (!p->q) {
        free(p);
        return NULL;
    }
    return &p->base;
}
