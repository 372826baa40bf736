#include "u64set.h"

#include <stdlib.h>
#include <string.h>

void u64set_init(u64set *s) { memset(s, 0, sizeof *s); }

void u64set_free(u64set *s)
{
    free(s->slots);
    u64set_init(s);
}

void u64set_clear(u64set *s)
{
    if (s->slots)
        memset(s->slots, 0, s->cap * sizeof *s->slots);
    s->count = 0;
}

static int grow(u64set *s, ge_err *e)
{
    size_t ncap = s->cap ? s->cap * 2 : 1024;
    uint64_t *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return ge_errf(e, "out of memory (set of %zu keys)", ncap);
    for (size_t i = 0; i < s->cap; i++) {
        uint64_t k = s->slots[i];
        if (!k)
            continue;
        size_t h = ge_hash64(k) & (ncap - 1);
        while (ns[h])
            h = (h + 1) & (ncap - 1);
        ns[h] = k;
    }
    free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return 0;
}

int u64set_add(u64set *s, uint64_t key, ge_err *e)
{
    if ((s->count + 1) * 2 > s->cap && grow(s, e))
        return -1;
    uint64_t k = key + 1;
    size_t h = ge_hash64(k) & (s->cap - 1);
    while (s->slots[h]) {
        if (s->slots[h] == k)
            return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->slots[h] = k;
    s->count++;
    return 1;
}

int u64set_has(const u64set *s, uint64_t key)
{
    if (!s->cap)
        return 0;
    uint64_t k = key + 1;
    size_t h = ge_hash64(k) & (s->cap - 1);
    while (s->slots[h]) {
        if (s->slots[h] == k)
            return 1;
        h = (h + 1) & (s->cap - 1);
    }
    return 0;
}

int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
