/*
 * cache.c - the generic sectored tag array (see cache.h) and the one table
 * of replacement policies.
 *
 * Design notes:
 *  - Everything is allocated once at creation.  Lookups go through the
 *    line -> slot index; a linear compare over the set's ways was the
 *    largest single cost of the memory system with 64-way L1s (measured with
 *    callgrind on bench/bench_mem.c).
 *  - The empty-way-first rule lives here, not in the policies, so that every
 *    policy fills a cold set in way order and policies stay a few lines.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

extern const cache_repl cache_repl_lru;
extern const cache_repl cache_repl_fifo;

/* The replacement policies, by config name (l1d.replacement etc.). */
static const cache_repl *const repl_table[] = {
    &cache_repl_lru,
    &cache_repl_fifo,
};

const cache_repl *cache_repl_find(const char *name)
{
    for (size_t i = 0; i < sizeof repl_table / sizeof *repl_table; i++)
        if (strcmp(repl_table[i]->name, name) == 0)
            return repl_table[i];
    return NULL;
}

static int log2_exact(uint64_t v)
{
    if (!v || (v & (v - 1)))
        return -1;
    int s = 0;
    while ((1ull << s) < v)
        s++;
    return s;
}

int cache_init(cache *c, const gcfg_cache *cfg, uint32_t set_div, ge_err *e)
{
    memset(c, 0, sizeof *c);
    if (!cfg->sets || !cfg->ways || !cfg->line_bytes || !cfg->sector_bytes || cfg->sector_bytes > cfg->line_bytes ||
        cfg->line_bytes / cfg->sector_bytes > 32 || cfg->ways > UINT16_MAX || !set_div)
        return ge_errf(e, "cache: bad geometry (sets %u, ways %u, line %u, sector %u)", cfg->sets, cfg->ways,
                       cfg->line_bytes, cfg->sector_bytes);
    c->repl = cache_repl_find(cfg->replacement[0] ? cfg->replacement : "lru");
    if (!c->repl)
        return ge_errf(e, "cache: unknown replacement policy '%s'", cfg->replacement);
    c->sets = cfg->sets;
    c->ways = cfg->ways;
    c->line_bytes = cfg->line_bytes;
    c->sector_bytes = cfg->sector_bytes;
    c->nsect = cfg->line_bytes / cfg->sector_bytes;
    c->full = c->nsect == 32 ? UINT32_MAX : (1u << c->nsect) - 1;
    c->set_div = set_div;
    c->div_shift = log2_exact(set_div);
    c->set_shift = log2_exact(cfg->sets);
    if (!strcmp(cfg->set_index, "xor") && cfg->sets > 1)
        while ((1u << c->fold_bits) < cfg->sets)
            c->fold_bits++;
    else if (cfg->set_index[0] && strcmp(cfg->set_index, "linear"))
        return ge_errf(e, "cache: unknown set index '%s'", cfg->set_index);
    size_t n = (size_t)c->sets * c->ways;
    c->indexed = c->ways > CACHE_SCAN_WAYS;
    c->tag = ge_malloc(n * sizeof *c->tag, e);
    c->m = ge_calloc(n, sizeof *c->m, e);
    c->front = ge_malloc(c->sets * sizeof *c->front, e);
    c->back = ge_malloc(c->sets * sizeof *c->back, e);
    c->used = ge_calloc(c->sets, sizeof *c->used, e);
    c->npend = ge_calloc(c->sets, sizeof *c->npend, e);
    /* The index is sized for twice the lines, so it is at most a quarter
     * full rather than half: a full cache keeps it at that bound, and the
     * shorter probe runs make every miss's lookup, delete and insert cheaper
     * (1% of the simulator's instructions on V100 spmv_csr). */
    if (!c->tag || !c->m || !c->front || !c->back || !c->used || !c->npend || (c->indexed && lineidx_init(&c->idx, 2 * (uint32_t)n, e))) {
        cache_free(c);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        c->tag[i] = CACHE_NO_TAG;
    for (uint32_t st = 0; st < c->sets; st++) { /* order: way 0 first */
        size_t b = (size_t)st * c->ways;
        for (uint32_t w = 0; w < c->ways; w++) {
            c->m[b + w].prev = (uint16_t)(w ? w - 1 : 0);
            c->m[b + w].next = (uint16_t)(w + 1 < c->ways ? w + 1 : w);
        }
        c->front[st] = 0;
        c->back[st] = (uint16_t)(c->ways - 1);
    }
    return 0;
}

void cache_free(cache *c)
{
    free(c->tag);
    free(c->m);
    free(c->front);
    free(c->back);
    free(c->used);
    free(c->npend);
    lineidx_free(&c->idx);
    c->m = NULL;
    c->front = c->back = NULL;
    c->used = NULL;
    c->npend = NULL;
    c->tag = NULL;
}

/* The order is a doubly linked list of way numbers per set; an end points
 * at itself. */
void cache_order_front(cache *c, uint32_t slot)
{
    uint32_t set = slot / c->ways, base = set * c->ways, w = slot - base;
    if (c->front[set] == w)
        return;
    uint16_t p = c->m[slot].prev, n = c->m[slot].next;
    if (c->back[set] == w) { /* unlink the back */
        c->back[set] = p;
        c->m[base + p].next = p;
    } else {
        c->m[base + p].next = n;
        c->m[base + n].prev = p;
    }
    uint16_t f = c->front[set];
    c->m[base + f].prev = (uint16_t)w;
    c->m[slot].next = f;
    c->m[slot].prev = (uint16_t)w;
    c->front[set] = (uint16_t)w;
}

int cache_order_victim(const cache *c, uint32_t set)
{
    uint32_t base = set * c->ways;
    if (c->npend[set] == c->ways) /* a miss retried until a fill comes would walk them all */
        return -1;
    for (uint32_t w = c->back[set], k = 0; k < c->ways; k++) {
        if (!c->m[base + w].pending)
            return (int)(base + w);
        if (w == c->front[set])
            break;
        w = c->m[base + w].prev;
    }
    return -1;
}

int cache_victim(cache *c, uint64_t line)
{
    uint32_t set = cache_set_of(c, line);
    uint32_t base = set * c->ways;
    if (c->used[set] < c->ways)
        for (uint32_t w = 0; w < c->ways; w++)
            if (c->tag[base + w] == CACHE_NO_TAG)
                return (int)(base + w);
    return c->repl->victim(c, set);
}

void cache_install(cache *c, uint32_t slot, uint64_t line, cache_evict *ev)
{
    if (ev) {
        ev->line = c->tag[slot];
        ev->valid = c->tag[slot] == CACHE_NO_TAG ? 0 : c->m[slot].valid;
        ev->dirty = c->tag[slot] == CACHE_NO_TAG ? 0 : c->m[slot].dirty;
    }
    if (c->tag[slot] == CACHE_NO_TAG) {
        c->used[slot / c->ways]++;
        c->nonempty++;
    } else if (c->indexed)
        lineidx_del(&c->idx, c->tag[slot]);
    if (c->indexed)
        lineidx_put(&c->idx, line, (int32_t)slot);
    c->tag[slot] = line;
    c->m[slot].valid = c->m[slot].dirty = 0;
    cache_set_pending(c, slot, 0);
    c->repl->insert(c, slot);
}

void cache_drop(cache *c, uint32_t slot)
{
    if (c->tag[slot] != CACHE_NO_TAG) {
        c->used[slot / c->ways]--;
        c->nonempty--;
        if (c->indexed)
            lineidx_del(&c->idx, c->tag[slot]);
    }
    c->tag[slot] = CACHE_NO_TAG;
    c->m[slot].valid = c->m[slot].dirty = 0;
    cache_set_pending(c, slot, 0);
}

void cache_invalidate_all(cache *c)
{
    if (!c->nonempty) /* every slot empty, with clear masks */
        return;
    size_t n = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < n; i++) {
        c->m[i].valid = c->m[i].dirty = 0;
        if (!c->m[i].pending && c->tag[i] != CACHE_NO_TAG) {
            if (c->indexed)
                lineidx_del(&c->idx, c->tag[i]);
            c->tag[i] = CACHE_NO_TAG;
            c->used[i / c->ways]--;
            c->nonempty--;
        }
    }
}

uint32_t cache_count_valid(const cache *c)
{
    uint32_t k = 0;
    size_t n = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < n; i++)
        k += c->tag[i] != CACHE_NO_TAG && c->m[i].valid != 0;
    return k;
}
