/*
 * runsort.h - a stable sort of uint32 indices for streams that are mostly
 * sorted already.
 *
 * The profiler's access logs are written warp by warp, so the orders it
 * needs (the GPU's interleaving of warps at some concurrency, an SM's
 * LRR or GTO interleaving) put together a few hundred or thousand runs
 * that are each in order already (one warp's accesses, by instruction).
 * A natural merge sort finds those runs and merges neighbouring ones,
 * pass by pass: O(n log runs) comparisons instead of O(n log n).  Ties
 * keep their input order.
 */
#ifndef MODEL_RUNSORT_H
#define MODEL_RUNSORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* less(ctx, a, b): element a sorts before element b.  Inlined where the
 * caller passes a constant function. */
typedef int (*runsort_less)(const void *ctx, uint32_t a, uint32_t b);

/* Sort v[0..n) by less, stably; tmp has n entries, runs n + 1. */
static inline void runsort_u32(uint32_t *v, uint32_t *tmp, uint32_t *runs, size_t n, runsort_less less,
                               const void *ctx)
{
    if (n < 2)
        return;
    size_t r = 0;
    runs[r++] = 0;
    for (size_t i = 1; i < n; i++)
        if (less(ctx, v[i], v[i - 1]))
            runs[r++] = (uint32_t)i;
    runs[r] = (uint32_t)n;
    uint32_t *src = v, *dst = tmp;
    while (r > 1) {
        size_t nr = 0; /* runs[nr] is written behind the reads of runs[q..q+2] */
        for (size_t q = 0; q < r; q += 2) {
            size_t a = runs[q], m = runs[q + 1], z = q + 2 <= r ? runs[q + 2] : m, i = a, j = m, o = a;
            runs[nr++] = (uint32_t)a;
            while (i < m && j < z)
                dst[o++] = less(ctx, src[j], src[i]) ? src[j++] : src[i++];
            while (i < m)
                dst[o++] = src[i++];
            while (j < z)
                dst[o++] = src[j++];
        }
        runs[nr] = (uint32_t)n;
        r = nr;
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
}

#endif
