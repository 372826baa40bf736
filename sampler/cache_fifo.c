/*
 * cache_fifo.c - first-in first-out replacement.
 *
 * Only allocation moves a way to the front of its set's order (cache.h);
 * hits do not, so the victim -- the way nearest the back that is not
 * waiting for a fill -- is the oldest allocation.  FIFO is not a stack
 * algorithm (Belady's anomaly: a larger FIFO cache can miss more), which is
 * why the inclusion property test runs with LRU only.
 */
#include "cache.h"

static void fifo_hit(cache *c, uint32_t slot)
{
    (void)c;
    (void)slot;
}

static void fifo_insert(cache *c, uint32_t slot) { cache_order_front(c, slot); }

static int fifo_victim(const cache *c, uint32_t set) { return cache_order_victim(c, set); }

const cache_repl cache_repl_fifo = {"fifo", fifo_hit, fifo_insert, fifo_victim};
