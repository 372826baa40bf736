/*
 * cache_lru.c - least-recently-used replacement.
 *
 * Every use (allocation or hit) moves the way to the front of its set's
 * order (cache.h); the victim is the way nearest the back that is not
 * waiting for a fill.  O(1) per hit, no scan of the ways.  LRU is a stack
 * algorithm (Mattson et al., "Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 1970): with the same sets, more ways
 * never miss more, and with bit-selection indexing more sets never miss
 * more either -- tests/sampler/mem/test_cache.c checks that property.
 */
#include "cache.h"

static void lru_use(cache *c, uint32_t slot) { cache_order_front(c, slot); }

static int lru_victim(const cache *c, uint32_t set) { return cache_order_victim(c, set); }

const cache_repl cache_repl_lru = {"lru", lru_use, lru_use, lru_victim};
