/*
 * prof_inflight.c - where an SM's misses in flight fall in its L1's sets.
 *
 * An L1 that allocates a way when it sends a miss (GTX 480's) can hold
 * only `ways` misses of one set in flight; the next miss to that set
 * waits, and with it the in-order LSU.  How many lines an SM can have in
 * flight before that happens depends on where its lines fall: a stencil
 * whose rows are 2 KB apart (hotspot at 512 x 512 floats) puts all 16
 * rows of a CTA's tile in one set of a 16-set L1, where random placement
 * would spread them.  So the profiler measures it on each SM stream of the
 * L1 histograms (prof_reuse.c), for every power-of-two set count and way
 * count (profile.h, PROF_INFL_NSETS):
 *
 *   from each of NSTART points of the stream, walk on, and count the new
 *   lines the SM would send until one would need a way of a set whose
 *   ways are all taken by lines sent during the walk.  A line touched
 *   during the walk is in flight or cached; a line touched shortly before
 *   the walk (within sets x ways accesses, the cache's size in lines) is
 *   taken as a hit.  Lines are indexed modulo the set count, as the
 *   simulator's L1 does (sampler/cache.h).
 *
 * The mean of the counts is the placement's answer to the model's
 * balls-into-bins estimate (model.c, l1_inflight).  A walk that reaches
 * the end of the stream without a full set measures the stream's length,
 * not the placement: it is left out of the mean, and when that leaves
 * fewer than half the walks the entry is 0, not measured (a short stream
 * -- bfs's small levels on 80 SMs -- says nothing about crowding).
 */
#include <stdlib.h>
#include <string.h>

#include "prof_int.h"

#define NSTART 16
#define MAXWALK (64 * PROF_INFL_CAP) /* accesses one walk reads at most */
#define NO_PREV UINT32_MAX

void infl_ws_free(infl_ws *w)
{
    free(w->keys);
    free(w->vals);
    free(w->stamp);
    free(w->prev);
    memset(w, 0, sizeof *w);
}

/* w->prev[t]: the last access before t to the same line (NO_PREV: none). */
static int previous_touches(infl_ws *w, const rd_access *acc, size_t n, ge_err *e)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    if (cap > w->cap) {
        free(w->keys);
        free(w->vals);
        free(w->stamp);
        w->keys = malloc(cap * sizeof *w->keys);
        w->vals = malloc(cap * sizeof *w->vals);
        w->stamp = calloc(cap, sizeof *w->stamp);
        w->cap = w->keys && w->vals && w->stamp ? cap : 0;
        w->gen = 0;
    }
    if (n > w->nprev) {
        free(w->prev);
        w->prev = malloc(n * sizeof *w->prev);
        w->nprev = w->prev ? n : 0;
    }
    if (!w->cap || !w->prev)
        return ge_errf(e, "out of memory (L1 set placement)");
    if (++w->gen == 0) { /* stamps wrapped: clear them */
        memset(w->stamp, 0, w->cap * sizeof *w->stamp);
        w->gen = 1;
    }
    size_t mask = w->cap - 1;
    for (size_t t = 0; t < n; t++) {
        uint64_t line = acc[t].line;
        size_t i = ge_hash64(line) & mask;
        while (w->stamp[i] == w->gen && w->keys[i] != line)
            i = (i + 1) & mask;
        w->prev[t] = w->stamp[i] == w->gen ? w->vals[i] : NO_PREV;
        w->stamp[i] = w->gen;
        w->keys[i] = line;
        w->vals[i] = (uint32_t)t;
    }
    return 0;
}

/* New lines sent from `start` before a set of S x W would overflow;
 * *ended: the stream ended first. */
static uint32_t walk(const infl_ws *w, const rd_access *acc, size_t n, size_t start, uint32_t sets, uint32_t ways,
                     uint16_t *cnt, int *ended)
{
    uint32_t m = 0;
    uint64_t recent = (uint64_t)sets * ways;
    size_t end = n - start > MAXWALK ? start + MAXWALK : n;
    *ended = end == n;
    memset(cnt, 0, sets * sizeof *cnt);
    for (size_t t = start; t < end; t++) {
        uint32_t p = w->prev[t];
        if (p != NO_PREV && (p >= start || t - p <= recent))
            continue;
        uint32_t s = (uint32_t)(acc[t].line & (sets - 1));
        if (cnt[s] == ways) {
            *ended = 0;
            break;
        }
        cnt[s]++;
        if (++m == PROF_INFL_CAP) {
            *ended = 0;
            break;
        }
    }
    return m;
}

int prof_inflight(infl_ws *w, const rd_access *acc, size_t n,
                  uint16_t out[PROF_INFL_NSETS][PROF_INFL_NWAYS], ge_err *e)
{
    memset(out, 0, sizeof(uint16_t) * PROF_INFL_NSETS * PROF_INFL_NWAYS);
    if (n == 0 || n >= NO_PREV)
        return 0;
    if (previous_touches(w, acc, n, e))
        return -1;
    uint16_t cnt[1u << (PROF_INFL_NSETS - 1)];
    for (int i = 0; i < PROF_INFL_NSETS; i++)
        for (int j = 0; j < PROF_INFL_NWAYS; j++) {
            double done = 0;
            int ndone = 0;
            for (size_t k = 0; k < NSTART; k++) {
                int ended;
                uint32_t m = walk(w, acc, n, k * n / NSTART, 1u << i, 1u << j, cnt, &ended);
                if (!ended)
                    done += m, ndone++;
            }
            if (2 * ndone < NSTART)
                continue; /* (0: not measured) */
            double v = done / ndone * PROF_INFL_UNIT + 0.5;
            out[i][j] = (uint16_t)(v < 1 ? 1 : v > PROF_INFL_CAP * PROF_INFL_UNIT ? PROF_INFL_CAP * PROF_INFL_UNIT : v);
        }
    return 0;
}
