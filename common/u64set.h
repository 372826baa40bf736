/*
 * u64set.h - a set of 64-bit keys (open addressing, linear probing).
 *
 * Used to count distinct lines, pages and the like.  Keys are stored +1 so
 * that 0 can mark an empty slot; the key UINT64_MAX is therefore not
 * representable (no byte/line address reaches it).  Grows at 50% load.
 */
#ifndef GE_U64SET_H
#define GE_U64SET_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct u64set {
    uint64_t *slots;
    size_t cap, count;
} u64set;

void u64set_init(u64set *s);
void u64set_free(u64set *s);
void u64set_clear(u64set *s);
/* 1 if newly inserted, 0 if already present, -1 on allocation failure. */
int u64set_add(u64set *s, uint64_t key, ge_err *e);
int u64set_has(const u64set *s, uint64_t key);
/* Ascending order of uint64_t keys, for qsort and bsearch. */
int u64_cmp(const void *a, const void *b);
/* Visiting every key: for (size_t i = 0; i < s->cap; i++) if (u64set_at(s, i, &k)) ...
 * 1 and *key if slot i holds a key, 0 if it is empty. */
static inline int u64set_at(const u64set *s, size_t i, uint64_t *key)
{
    if (!s->slots[i])
        return 0;
    *key = s->slots[i] - 1;
    return 1;
}

static inline uint64_t ge_hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
