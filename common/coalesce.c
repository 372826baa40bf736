#include <string.h>

#include "coalesce.h"

/* Where each line is in out: a table of out indices (-1 empty) with linear
 * probing, at most half full.  A scan of out would cost O(lines) per lane:
 * a gather that touches a line per lane (sparse codes) is quadratic, and
 * such scans were the largest cost of coalescing in the simulator. */
#define CO_HASH_BITS 7
#define CO_HASH (1 << CO_HASH_BITS) /* >= 2 x CO_MAX_LINES */

/* Merge the sector bits of line into out[0..n).  A line beyond
 * CO_MAX_LINES is dropped. */
static inline int merge(co_line *out, int n, int8_t *where, uint64_t line, uint32_t sectors)
{
    uint32_t h = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> (64 - CO_HASH_BITS)); /* Fibonacci hashing */
    for (; where[h] >= 0; h = (h + 1) & (CO_HASH - 1))
        if (out[where[h]].line == line) {
            out[where[h]].sectors |= sectors;
            return n;
        }
    if (n == CO_MAX_LINES)
        return n;
    where[h] = (int8_t)n;
    out[n].line = line;
    out[n].sectors = sectors;
    return n + 1;
}

/* Do the active lanes, in lane order, touch consecutive ranges (lane k of
 * the mask at addr0 + k * size) or all the same one?  Then their union is
 * the one range [*lo, *hi]: unit-stride and uniform (broadcast) accesses,
 * the common cases, which the general loop below pays for lane by lane.  A
 * gather fails at its second or third lane. */
static int contiguous(uint32_t mask, const uint64_t *addr, uint32_t size, uint64_t *lo, uint64_t *hi)
{
    uint64_t a0 = addr[__builtin_ctz(mask)], next = a0;
    uint32_t rest = mask & (mask - 1);
    uint64_t step = rest && addr[__builtin_ctz(rest)] == a0 ? 0 : size;
    for (uint32_t m = rest; m; m &= m - 1) {
        next += step;
        if (addr[__builtin_ctz(m)] != next)
            return 0;
    }
    uint64_t end = (step ? next : a0) + size; /* one past the last byte */
    if (end <= a0) /* wrapped: the general loop clamps */
        return 0;
    *lo = a0;
    *hi = end - 1;
    return 1;
}

/* The lines and sectors of the byte range [lo, hi], in address order
 * (= first-touch order of a contiguous access). */
static int range_lines(uint64_t lo, uint64_t hi, int ssh, int per, co_line *out)
{
    uint32_t last_sector = (1u << per) - 1;
    uint64_t s_lo = lo >> ssh, s_hi = hi >> ssh;
    int n = 0;
    for (uint64_t line = s_lo >> per; line <= s_hi >> per && n < CO_MAX_LINES; line++) {
        uint32_t first = line == s_lo >> per ? (uint32_t)(s_lo & last_sector) : 0;
        uint32_t last = line == s_hi >> per ? (uint32_t)(s_hi & last_sector) : last_sector;
        out[n].line = line;
        out[n++].sectors = (uint32_t)(((2ull << last) - 1) & ~((1ull << first) - 1));
    }
    return n;
}

int co_coalesce(uint32_t mask, const uint64_t *addr, uint32_t size, uint32_t line_bytes, uint32_t sector_bytes,
                co_line out[CO_MAX_LINES])
{
    int ssh = __builtin_ctz(sector_bytes), per = __builtin_ctz(line_bytes) - ssh; /* powers of two */
    uint32_t smask = (1u << per) - 1;
    if (size == 0)
        size = 1;
    uint64_t lo, hi;
    if (mask && contiguous(mask, addr, size, &lo, &hi))
        return range_lines(lo, hi, ssh, per, out);
    int n = 0;
    int8_t where[CO_HASH];
    memset(where, -1, sizeof where);
    /* Neighbouring lanes usually touch the same line: their sector bits
     * gather in (cur, bits) and are merged into out when the line changes,
     * which keeps the first-touch order of the lines. */
    uint64_t cur = 0;
    uint32_t bits = 0;
    uint64_t prev = 0; /* the last sector visited (valid when bits != 0) */
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        uint64_t last = a + size - 1;
        if (last < a)
            last = UINT64_MAX; /* wrap: clamp */
        uint64_t s = a >> ssh, s_end = last >> ssh;
        if (bits && s == prev && s_end == prev)
            continue; /* within the sector just visited (coalesced lanes): nothing new */
        prev = s_end;
        for (;; s++) {
            uint64_t line = s >> per;
            if (bits && line != cur) {
                n = merge(out, n, where, cur, bits);
                bits = 0;
            }
            cur = line;
            bits |= 1u << (s & smask);
            if (s == s_end)
                break;
        }
    }
    return bits ? merge(out, n, where, cur, bits) : n;
}
