/*
 * cache_lru.c - least-recently-used replacement.
 *
 * Each slot's stamp is the value of a per-cache counter at its last use
 * (allocation or hit); the victim is the smallest stamp among the ways that
 * are not waiting for a fill.  With a 64-bit counter the stamps never wrap.
 * LRU is a stack algorithm (Mattson et al., "Evaluation techniques for
 * storage hierarchies", IBM Systems Journal 1970): with the same sets, more
 * ways never miss more, and with bit-selection indexing more sets never miss
 * more either -- tests/sampler/mem/test_cache.c checks that property.
 */
#include "cache.h"

static void lru_touch(cache *c, uint32_t slot) { c->stamp[slot] = ++c->clock; }

static int lru_victim(const cache *c, uint32_t set)
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

const cache_repl cache_repl_lru = {"lru", lru_touch, lru_touch, lru_victim};
