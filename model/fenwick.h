/*
 * fenwick.h - a Fenwick (binary indexed) tree of counts over positions
 * 1..n, in an array t of n + 1 entries (t[0] unused): add at a position and
 * sum a prefix, each in O(log n) (Fenwick, "A new data structure for
 * cumulative frequency tables", Software: Practice and Experience 24(3),
 * 1994).  The stack-distance passes (reuse.c, prof_inherit.c) count with
 * it the distinct lines touched after a position.
 */
#ifndef MODEL_FENWICK_H
#define MODEL_FENWICK_H

#include <stddef.h>
#include <stdint.h>

static inline void fenwick_add(int32_t *t, size_t n, size_t i, int32_t v)
{
    for (; i <= n; i += i & (~i + 1))
        t[i] += v;
}

/* Positions 1..i. */
static inline int64_t fenwick_sum(const int32_t *t, size_t i)
{
    int64_t s = 0;
    for (; i > 0; i -= i & (~i + 1))
        s += t[i];
    return s;
}

#endif
