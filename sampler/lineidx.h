/*
 * lineidx.h - an index from line address to a small integer (a cache slot
 * or an MSHR entry), so a lookup costs one or two probes instead of a
 * compare per way (GPU L1s have 64 to 256 ways).
 *
 * Open addressing with linear probing in a power-of-two table kept at most
 * half full, Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4: multiply by
 * 2^64 / golden ratio and keep the top bits), and backward-shift deletion
 * (Knuth's Algorithm R), so removals leave no tombstones and probe sequences
 * stay short forever.  Each slot holds key and value together (16 bytes),
 * so a probe costs one cache line: lookups are memory-latency bound in a
 * GPU-sized hierarchy (megabytes of tag state).  Sized once; nothing is
 * allocated per access.
 */
#ifndef SIM_LINEIDX_H
#define SIM_LINEIDX_H

#include <stdint.h>

#include "err.h"

typedef struct lineidx_slot {
    uint64_t key;
    int32_t val;    /* -1: empty */
    int32_t unused;
} lineidx_slot;

typedef struct lineidx {
    lineidx_slot *s;
    uint32_t mask;
    int shift;      /* 64 - log2(capacity) */
} lineidx;

/* Room for max_entries keys at once. */
int lineidx_init(lineidx *x, uint32_t max_entries, ge_err *e);
void lineidx_free(lineidx *x);
void lineidx_clear(lineidx *x);

static inline uint32_t lineidx_home(const lineidx *x, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> x->shift);
}

/* Value stored for key, or -1. */
static inline int32_t lineidx_get(const lineidx *x, uint64_t key)
{
    for (uint32_t h = lineidx_home(x, key);; h = (h + 1) & x->mask) {
        const lineidx_slot *e = &x->s[h];
        if (e->val < 0)
            return -1;
        if (e->key == key)
            return e->val;
    }
}

/* Start loading the slot where a lookup of key begins (a hint: the index is
 * megabytes in a GPU-sized hierarchy, and a lookup is bound by that load). */
/* Host-cache hints (the *_prefetch helpers) must be inlined early: GCC
 * deems a function whose only effect is __builtin_prefetch free of side
 * effects and deletes its calls before inlining (seen with GCC 12: the L2
 * tag prefetch compiled to nothing), so the hints are always_inline. */
#define GE_HINT static inline __attribute__((always_inline))

GE_HINT void lineidx_prefetch(const lineidx *x, uint64_t key)
{
    __builtin_prefetch(&x->s[lineidx_home(x, key)]);
}

/* Add key (must be absent) with value v >= 0. */
void lineidx_put(lineidx *x, uint64_t key, int32_t v);
/* Remove key (must be present). */
void lineidx_del(lineidx *x, uint64_t key);

#endif
