/*
 * prof_inflight.c - how many misses an SM keeps in flight when its L1's
 * sets crowd.
 *
 * An L1 that allocates a way when it sends a miss (GTX 480's) can hold
 * only `ways` misses of one set in flight; the next miss to that set
 * waits, and with it the in-order LSU.  How many lines an SM keeps in
 * flight then depends on where its lines fall and on when its warps send
 * them: a stencil whose rows are 4 KB apart (hotspot at 1024 x 1024
 * floats) puts all the rows of a CTA's tile in one set of a 32-set L1.
 * So the profiler runs each L1 histogram's first SM stream (prof_reuse.c)
 * through a small timed model of that SM's LSU and L1, for every
 * power-of-two set count and way count (profile.h, PROF_INFL_NSETS):
 *
 *   - the SM's CTAs arrive in order, c at a time; a CTA's slot takes the
 *     next CTA when the CTA's last warp has its data;
 *   - a warp sends its loads in order, one instruction at a time; after a
 *     load-wait chunk (the loads a warp sends before it needs one of their
 *     values, profiler.c) it waits for the chunk's data;
 *   - the LSU takes the warp whose instruction has been ready the longest
 *     (the oldest on a tie), whatever the warp scheduler: the simulator
 *     keeps as many lines in flight under GTO as under LRR (hotspot at 1024
 *     on GTX 480, 8 / 16 / 32 KB: 3.18 / 6.64 / 15.46 against 3.06 / 6.56 /
 *     15.19), and this order gives 2.44 / 5.88 / 15.2, where round robin
 *     gives about the same and oldest first 4.4 / 9.2 / 23.5 (it spreads a
 *     CTA's warps over loads that touch different sets);
 *   - the LSU offers one line per cycle to an L1 of S sets x W ways (LRU,
 *     lines indexed modulo S as in sampler/cache.h): a hit or a line in
 *     flight costs its cycle, a miss takes a way that has no fill pending
 *     and its fill comes INFL_LATENCY cycles later; when every way of the
 *     set is pending, the LSU waits for the set's first fill;
 *   - compute between loads is not modelled (it is the interval model's).
 *
 * From the first CTA's end to the last one's start (from the start for a
 * stream of fewer than two generations, or whose first CTA outlasts
 * INFL_MAXACC accesses; a run measures INFL_GENS generations at most),
 * Little's law gives the lines in flight: new lines x INFL_LATENCY /
 * cycles.  Where the LSU never waited for a way the entry is 0 (not
 * measured: the placement does not bind, and the model keeps random
 * placement's count), and so is every larger cache's, unrun.  The answer
 * hardly depends on INFL_LATENCY where the crowding binds: hotspot at 1024
 * on GTX 480 gives 2.44 / 5.82 / 14.6 lines at 8 / 16 / 32 KB with 100
 * cycles, 2.44 / 5.88 / 15.2 with 256 and 2.44 / 5.88 / 15.4 with 400.
 *
 * It replaces a time-free count (profile format 8): the new lines sent from
 * a point of the profile's interleaved stream until one set would
 * overflow.  In that stream every warp of a CTA sends a load before the
 * next CTA's warps send theirs, and the count stopped at the ways of the
 * CTA's set (4.2 at 16 KB above); in the simulator the warps drift apart.
 */
#include <stdlib.h>
#include <string.h>

#include "prof_int.h"

#define INFL_LATENCY 256    /* cycles from a miss to its fill */
#define INFL_MAXACC 16384   /* line accesses one run simulates at most */
#define INFL_GENS 8         /* generations of c CTAs one run measures at most */
#define INFL_PROBE 4096     /* line accesses a run without a wait for a way simulates at most */
#define INFL_MAXWARPS 64    /* warps resident at once, at most (c x warps per CTA) */
#define MARK_INST 1         /* last line of an instruction */
#define MARK_CHUNK 2        /* last line of a load-wait chunk */

static void free_stream(infl_ws *w)
{
    free(w->line);
    free(w->mark);
    free(w->wstart);
    free(w->cwarp);
    w->line = NULL, w->mark = NULL, w->wstart = w->cwarp = NULL;
    w->nwarps = w->ncta = 0;
}

void infl_ws_free(infl_ws *w)
{
    free_stream(w);
    free(w->tag);
    free(w->ret);
    free(w->stamp);
    memset(w, 0, sizeof *w);
}

typedef struct {
    uint32_t j, warp, seq, idx;
} irec;

static int irec_cmp(const void *a, const void *b)
{
    const irec *x = a, *y = b;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    if (x->warp != y->warp)
        return x->warp < y->warp ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int infl_prepare(infl_ws *w, const pb_l1rec *l1, const uint32_t *list, size_t n, uint32_t nsm, ge_err *e)
{
    free_stream(w);
    if (n == 0)
        return 0;
    if (n >= UINT32_MAX)
        return ge_errf(e, "L1 log too long for the set placement");
    irec *r = malloc(n * sizeof *r);
    w->line = malloc(n * sizeof *w->line);
    w->mark = malloc(n);
    w->wstart = malloc((n + 1) * sizeof *w->wstart);
    w->cwarp = malloc((n + 1) * sizeof *w->cwarp);
    if (!r || !w->line || !w->mark || !w->wstart || !w->cwarp) {
        free(r);
        free_stream(w);
        return ge_errf(e, "out of memory (L1 set placement)");
    }
    for (size_t t = 0; t < n; t++) {
        const pb_l1rec *p = &l1[list[t]];
        r[t] = (irec){p->cta / nsm, p->warp, p->seq, list[t]};
    }
    qsort(r, n, sizeof *r, irec_cmp);
    for (size_t t = 0; t < n; t++) {
        const pb_l1rec *p = &l1[r[t].idx];
        w->line[t] = p->line;
        int last_warp = t + 1 == n || r[t + 1].j != r[t].j || r[t + 1].warp != r[t].warp;
        if (t == 0 || r[t - 1].j != r[t].j || r[t - 1].warp != r[t].warp) {
            if (t == 0 || r[t - 1].j != r[t].j)
                w->cwarp[w->ncta++] = w->nwarps;
            w->wstart[w->nwarps++] = (uint32_t)t;
        }
        int chunk_end = last_warp || l1[r[t + 1].idx].chunk != p->chunk;
        w->mark[t] = (uint8_t)((chunk_end || r[t + 1].seq != r[t].seq ? MARK_INST : 0) | (chunk_end ? MARK_CHUNK : 0));
    }
    w->wstart[w->nwarps] = (uint32_t)n;
    w->cwarp[w->ncta] = w->nwarps;
    free(r);
    return 0;
}

typedef struct {
    uint32_t pos, end, slot, age;
    uint64_t ready, cret; /* next instruction's earliest cycle; the chunk's last data */
} iwarp;

typedef struct {
    uint32_t left;  /* warps still sending */
    uint64_t done;  /* the data of its finished warps, the latest */
} islot;

typedef struct {
    infl_ws *w;
    uint32_t sets, ways;
    iwarp warp[INFL_MAXWARPS];
    islot slot[INFL_MAXWARPS];
    uint32_t heap[INFL_MAXWARPS];
    uint32_t nw, nheap, next_cta;
    uint64_t now, stall, newl, acc, stamp;
} isim;

/* The warps with an instruction to send, a min-heap on (ready, age): its
 * top is the warp whose instruction has been ready the longest, the oldest
 * on a tie, or the next to become ready. */
static int before(const isim *m, uint32_t a, uint32_t b)
{
    const iwarp *x = &m->warp[a], *y = &m->warp[b];
    return x->ready < y->ready || (x->ready == y->ready && x->age < y->age);
}

static void heap_push(isim *m, uint32_t q)
{
    uint32_t i = m->nheap++;
    while (i > 0 && before(m, q, m->heap[(i - 1) / 2])) {
        m->heap[i] = m->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->heap[i] = q;
}

static uint32_t heap_pop(isim *m)
{
    uint32_t top = m->heap[0], q = m->heap[--m->nheap], i = 0;
    for (;;) {
        uint32_t k = 2 * i + 1;
        if (k >= m->nheap)
            break;
        if (k + 1 < m->nheap && before(m, m->heap[k + 1], m->heap[k]))
            k++;
        if (!before(m, m->heap[k], q))
            break;
        m->heap[i] = m->heap[k];
        i = k;
    }
    m->heap[i] = q;
    return top;
}

/* Start CTA next_cta in slot s at cycle t; 0 when the slots hold too many warps. */
static int start_cta(isim *m, uint32_t s, uint64_t t)
{
    infl_ws *w = m->w;
    uint32_t k = m->next_cta++, nw = w->cwarp[k + 1] - w->cwarp[k];
    m->slot[s] = (islot){nw, t};
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t wi = w->cwarp[k] + i, at = m->nw;
        for (uint32_t q = 0; q < m->nw; q++) /* a finished warp's place */
            if (m->warp[q].pos == m->warp[q].end) {
                at = q;
                break;
            }
        if (at == INFL_MAXWARPS)
            return 0;
        if (at == m->nw)
            m->nw++;
        m->warp[at] = (iwarp){w->wstart[wi], w->wstart[wi + 1], s, k * INFL_MAXWARPS + i, t, 0};
        heap_push(m, at);
    }
    return 1;
}

/* One line through the L1; returns the cycle its data are there. */
static uint64_t access_line(isim *m, uint64_t line)
{
    infl_ws *w = m->w;
    uint32_t set = (uint32_t)(line & (m->sets - 1)), base = set * m->ways;
    if (w->sgen[set] != w->gen) { /* the set's first touch in this run: empty */
        w->sgen[set] = w->gen;
        memset(w->tag + base, 0, m->ways * sizeof *w->tag);
        memset(w->ret + base, 0, m->ways * sizeof *w->ret);
        memset(w->stamp + base, 0, m->ways * sizeof *w->stamp);
    }
    m->stamp++;
    for (uint32_t i = base; i < base + m->ways; i++)
        if (w->tag[i] == line + 1) {
            w->stamp[i] = m->stamp;
            return w->ret[i] > m->now ? w->ret[i] : m->now;
        }
    for (;;) {
        uint32_t v = UINT32_MAX;
        uint64_t first = UINT64_MAX;
        for (uint32_t i = base; i < base + m->ways; i++) {
            if (w->ret[i] <= m->now) {
                if (v == UINT32_MAX || w->stamp[i] < w->stamp[v])
                    v = i;
            } else if (w->ret[i] < first)
                first = w->ret[i];
        }
        if (v != UINT32_MAX) {
            w->tag[v] = line + 1;
            w->ret[v] = m->now + INFL_LATENCY;
            w->stamp[v] = m->stamp;
            m->newl++;
            return w->ret[v];
        }
        m->stall += first - m->now; /* every way pending: the LSU waits */
        m->now = first;
    }
}

/* Lines in flight at S x W with c CTAs per SM (see the top); -1 when the
 * LSU never waited for a way, 0 when nothing was measured. */
static double run(infl_ws *w, uint32_t sets, uint32_t ways, uint32_t c)
{
    isim m;
    memset(&m, 0, sizeof m);
    m.w = w, m.sets = sets, m.ways = ways;
    if (++w->gen == 0) { /* the sets' run stamps wrapped */
        memset(w->sgen, 0, sizeof w->sgen);
        w->gen = 1;
    }
    for (uint32_t s = 0; s < c && m.next_cta < w->ncta; s++)
        if (!start_cta(&m, s, 0))
            return 0;
    uint32_t last = w->ncta < (INFL_GENS + 1) * c ? w->ncta : (INFL_GENS + 1) * c;
    int steady = last >= 2 * c; /* else the window is the whole run */
    uint64_t t0 = 0, newl0 = 0, end = 0;
    int restarted = 0;
    for (;;) {
        if (m.nheap == 0)
            break; /* every CTA finished */
        uint32_t q = heap_pop(&m);
        iwarp *x = &m.warp[q];
        if (x->ready > m.now)
            m.now = x->ready;
        uint8_t mk;
        do {
            uint64_t r = access_line(&m, w->line[x->pos]);
            if (r > x->cret)
                x->cret = r;
            m.now++, m.acc++;
            mk = w->mark[x->pos++];
        } while (!(mk & MARK_INST));
        x->ready = m.now;
        if (mk & MARK_CHUNK) {
            x->ready = x->cret > m.now ? x->cret : m.now;
            x->cret = 0;
        }
        if (x->pos != x->end)
            heap_push(&m, q);
        else { /* the warp is done once its data are back */
            islot *s = &m.slot[x->slot];
            if (x->ready > s->done)
                s->done = x->ready;
            if (--s->left == 0 && m.next_cta < w->ncta) {
                if (steady && !restarted) { /* the window opens */
                    restarted = 1;
                    t0 = m.now, newl0 = m.newl;
                }
                if (!start_cta(&m, x->slot, s->done > m.now ? s->done : m.now))
                    return 0;
                if (steady && m.next_cta == last) {
                    end = m.now;
                    break; /* the last CTA started */
                }
            }
        }
        if (m.acc >= INFL_PROBE && m.stall == 0)
            return -1; /* no set filled: the placement does not bind */
        if (m.acc >= INFL_MAXACC) {
            end = m.now;
            break;
        }
    }
    if (!end)
        end = m.now;
    if (m.stall == 0)
        return -1;
    if (end <= t0 || m.newl == newl0)
        return 0;
    return (double)(m.newl - newl0) * INFL_LATENCY / (double)(end - t0);
}

int prof_inflight(infl_ws *w, uint32_t c, uint16_t out[PROF_INFL_NSETS][PROF_INFL_NWAYS], ge_err *e)
{
    memset(out, 0, sizeof(uint16_t) * PROF_INFL_NSETS * PROF_INFL_NWAYS);
    if (w->ncta == 0 || c == 0)
        return 0;
    size_t most = (size_t)1 << (PROF_INFL_NSETS - 1 + PROF_INFL_NWAYS - 1);
    if (!w->tag) {
        w->tag = malloc(most * sizeof *w->tag);
        w->ret = malloc(most * sizeof *w->ret);
        w->stamp = malloc(most * sizeof *w->stamp);
        if (!w->tag || !w->ret || !w->stamp)
            return ge_errf(e, "out of memory (L1 set placement)");
    }
    /* A cache with more sets or more ways than one whose LSU never waited
     * for a way does not wait either: those entries stay 0 unrun. */
    int free_from = PROF_INFL_NWAYS;
    for (int i = 0; i < PROF_INFL_NSETS; i++)
        for (int j = 0; j < free_from; j++) {
            double v = run(w, 1u << i, 1u << j, c);
            if (v < 0) {
                free_from = j;
                break;
            }
            v = v * PROF_INFL_UNIT + 0.5;
            if (v >= 1) /* (else 0: not measured) */
                out[i][j] = (uint16_t)(v > PROF_INFL_CAP * PROF_INFL_UNIT ? PROF_INFL_CAP * PROF_INFL_UNIT : v);
        }
    return 0;
}
