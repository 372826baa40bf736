#include "coalesce.h"

static int log2u(uint32_t v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

static int add_sector(co_line *out, int n, uint64_t line, uint32_t sector)
{
    /* n is small (usually 1-4): a linear scan from the newest line is fastest. */
    for (int i = n - 1; i >= 0; i--)
        if (out[i].line == line) {
            out[i].sectors |= 1u << sector;
            return n;
        }
    if (n == CO_MAX_LINES)
        return n;
    out[n].line = line;
    out[n].sectors = 1u << sector;
    return n + 1;
}

int co_coalesce(uint32_t mask, const uint64_t *addr, uint32_t size, uint32_t line_bytes, uint32_t sector_bytes,
                co_line out[CO_MAX_LINES])
{
    int lsh = log2u(line_bytes), ssh = log2u(sector_bytes);
    uint32_t smask = (line_bytes >> ssh) - 1;
    if (size == 0)
        size = 1;
    int n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = addr[lane];
        uint64_t last = a + size - 1;
        if (last < a)
            last = UINT64_MAX; /* wrap: clamp */
        for (uint64_t s = a >> ssh; s <= (last >> ssh); s++) {
            n = add_sector(out, n, s >> (lsh - ssh), (uint32_t)(s & smask));
            if (s == UINT64_MAX >> ssh)
                break;
        }
    }
    return n;
}
