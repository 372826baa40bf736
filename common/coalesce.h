/*
 * coalesce.h - per-lane addresses of one warp memory instruction -> the
 * cache lines and sectors it touches.
 *
 * This is the memory-access coalescing of Volta and later (and the sector
 * view of Fermi's 128-byte transactions): the lanes' byte ranges
 * [addr, addr+size) are merged into distinct lines, each with a bit mask of
 * the sectors touched.  Output lines are in first-touch lane order, which is
 * the order a coalescer issues them.  Stats, the profiler and the simulator
 * all call this one function.
 */
#ifndef GE_COALESCE_H
#define GE_COALESCE_H

#include <stdint.h>

#define CO_MAX_LINES 64 /* 32 lanes x at most 2 lines each */

typedef struct co_line {
    uint64_t line;    /* line address (byte address / line_bytes) */
    uint32_t sectors; /* bit i: sector i of the line is touched */
} co_line;

/* line_bytes and sector_bytes must be powers of two, sector <= line, and
 * line/sector <= 32.  Returns the number of lines written to out. */
int co_coalesce(uint32_t mask, const uint64_t *addr, uint32_t size, uint32_t line_bytes, uint32_t sector_bytes,
                co_line out[CO_MAX_LINES]);

/* Total sectors touched by a coalesced access. */
static inline uint32_t co_sectors(const co_line *l, int n)
{
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        s += (uint32_t)__builtin_popcount(l[i].sectors);
    return s;
}

#endif
