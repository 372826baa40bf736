/*
 * cache_fifo.c - first-in first-out replacement.
 *
 * The stamp records only the allocation order; hits do not change it, so
 * the victim is the oldest-allocated way not waiting for a fill.  FIFO is
 * not a stack algorithm (Belady's anomaly: a larger FIFO cache can miss
 * more), which is why the inclusion property test runs with LRU only.
 */
#include "cache.h"

static void fifo_hit(cache *c, uint32_t slot)
{
    (void)c;
    (void)slot;
}

static void fifo_insert(cache *c, uint32_t slot) { c->stamp[slot] = ++c->clock; }

static int fifo_victim(const cache *c, uint32_t set)
{
    uint32_t base = set * c->ways;
    int best = -1;
    uint64_t bs = UINT64_MAX;
    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t s = base + w;
        if (!c->pending[s] && c->stamp[s] < bs)
            bs = c->stamp[s], best = (int)s;
    }
    return best;
}

const cache_repl cache_repl_fifo = {"fifo", fifo_hit, fifo_insert, fifo_victim};
