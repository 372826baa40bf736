/*
 * cache.h - a generic sectored, set-associative tag array with a pluggable
 * replacement policy.  No timing and no data: the L1s, the L2 slices and the
 * SM's instruction cache put their own ports, MSHRs and latencies around it.
 *
 * State per line (a "slot"): the line address as tag, and three sector
 * masks: valid (data present), dirty (written, not yet in the next level),
 * pending (requested from the next level, fill outstanding).  A slot with
 * pending sectors is never chosen as a victim, so a line allocated on a miss
 * stays until its fill arrives (GPGPU-Sim's "reserved" lines).  Sectoring
 * follows Volta and later: 128-byte lines of four 32-byte sectors, each
 * fetched on its own (Jia et al., "Dissecting the NVIDIA Volta GPU
 * Architecture via Microbenchmarking", 2018).
 *
 * Layout: tags in one array, each slot's masks and order links together in
 * another (cache_slot), both indexed by slot = set * ways + way; an empty
 * slot holds CACHE_NO_TAG.  A slot's masks and links are one host cache line
 * (with separate arrays of each, a miss's fill, install and the replacement
 * walk touched up to five: V100 spmv_csr, simulated host-cache misses -12%
 * at 512 KB, cachegrind).  A lookup in
 * a cache of more than CACHE_SCAN_WAYS ways goes through a line -> slot
 * index (lineidx.h), so it costs the same for 64 ways as for 256; one with
 * fewer ways compares the set's tags, which sit in a few consecutive host
 * cache lines (cheaper than the index's random probes and its upkeep on
 * every allocation, in an L2 of megabytes).
 *
 * Set index: q mod sets, q = line / set_div.  set_div is 1 for a private
 * cache; an L2 slice passes the slice count so that the lines of one slice
 * spread over all its sets.  With set_index = "xor" the higher bits of q,
 * taken in chunks as wide as the set index, are XORed into it first (added,
 * for a set count that is not a power of two): an aligned run of `sets`
 * consecutive q still fills every set once (power of two), but lines a
 * power-of-two stride apart (a matrix column, the features of a
 * feature-major array) no longer crowd one set.  Real GPUs' L2s hash their
 * set index, and Accel-Sim's V100 config models it (IPOLY, after Rau, ISCA
 * 1991: "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P"); the XOR fold is our
 * simpler stand-in with the same purpose.
 *
 * Replacement: a cache_repl (name + three hooks), found by name in one table
 * (cache.c).  Victim choice always prefers an empty slot (lowest way), then
 * asks the policy among slots without pending sectors.  Policies: cache_lru.c,
 * cache_fifo.c.  Adding one is a new file plus one line in that table.  The
 * cache keeps, per set, an ordered list of its ways that policies may use
 * (cache_order_front / cache_order_victim): LRU moves a way to the front on
 * every use, FIFO only on allocation, and both take the victim from the back,
 * so neither scans the ways.
 */
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stdint.h>

#include "addrmap.h"
#include "err.h"
#include "gpu_config.h"
#include "lineidx.h"

#define CACHE_NO_TAG UINT64_MAX
#define CACHE_SCAN_WAYS 32 /* up to this many ways: lookups compare the set's tags */

typedef struct cache cache;

/* A slot's sector masks and its links in the set's way order (way numbers,
 * see above), together: an access reads or writes several of them, and the
 * replacement walk follows the links while it tests `pending`, so one host
 * cache line serves all (the tags stay apart, for the set scans). */
typedef struct cache_slot {
    uint32_t valid, dirty, pending;
    uint16_t prev, next;
} cache_slot;

typedef struct cache_repl {
    const char *name;
    void (*hit)(cache *c, uint32_t slot);    /* a hit on slot */
    void (*insert)(cache *c, uint32_t slot); /* slot newly allocated */
    /* Victim among the ways of `set` that have no pending sectors (all are
     * non-empty); -1 if every way is pending. */
    int (*victim)(const cache *c, uint32_t set);
} cache_repl;

struct cache {
    uint32_t sets, ways, nsect; /* nsect: sectors per line */
    uint32_t sector_bytes, line_bytes;
    uint32_t full;              /* mask of all sectors */
    uint32_t set_div;
    int div_shift, set_shift;   /* >= 0: power-of-two fast paths */
    uint32_t fold_bits;         /* set_index "xor": chunk width (bits of the set index); 0 = linear */
    const cache_repl *repl;
    uint64_t *tag;              /* [sets*ways] */
    cache_slot *m;              /* [sets*ways] masks and order links */
    uint16_t *front, *back;     /* [sets] first and last way of the order */
    uint32_t *used;             /* [sets] non-empty ways (skip the empty-way search when full) */
    uint32_t *npend;            /* [sets] ways with pending sectors (a set all pending has no victim) */
    uint32_t nonempty;          /* their sum (an empty cache has nothing to invalidate) */
    int indexed;                /* ways > CACHE_SCAN_WAYS: lookups use idx */
    lineidx idx;                /* line -> slot of every non-empty slot (when indexed) */
};

/* What an allocation pushed out. */
typedef struct cache_evict {
    uint64_t line;
    uint32_t valid, dirty; /* masks of the evicted line (0, 0 if the slot was empty) */
} cache_evict;

/* Move slot to the front of its set's order. */
void cache_order_front(cache *c, uint32_t slot);
/* The slot nearest the back of set's order without pending sectors, or -1. */
int cache_order_victim(const cache *c, uint32_t set);

/* Look up the policy by name; NULL if unknown. */
const cache_repl *cache_repl_find(const char *name);

/* Build from a config cache block (sets, ways, line/sector bytes,
 * replacement).  set_div as described above (>= 1). */
int cache_init(cache *c, const gcfg_cache *cfg, uint32_t set_div, ge_err *e);
void cache_free(cache *c);

static inline uint32_t cache_set_of(const cache *c, uint64_t line)
{
    uint64_t q = c->div_shift >= 0 ? line >> c->div_shift : line / c->set_div;
    if (c->fold_bits) /* fold_bits = log2 sets when sets is a power of two */
        return c->set_shift >= 0 ? addrmap_fold(q, c->fold_bits)
                                 : (uint32_t)((q % c->sets + addrmap_fold(q >> c->fold_bits, c->fold_bits)) % c->sets);
    return (uint32_t)(c->set_shift >= 0 ? q & (c->sets - 1) : q % c->sets);
}

/* Slot holding `line`, or -1.  No state change. */
static inline int cache_find(const cache *c, uint64_t line)
{
    if (c->indexed)
        return lineidx_get(&c->idx, line);
    uint32_t base = cache_set_of(c, line) * c->ways;
    for (uint32_t w = 0; w < c->ways; w++)
        if (c->tag[base + w] == line)
            return (int)(base + w);
    return -1;
}

/* Start loading what a lookup of `line` reads first (a host-cache hint). */
GE_HINT void cache_prefetch(const cache *c, uint64_t line)
{
    if (c->indexed)
        lineidx_prefetch(&c->idx, line);
    else
        __builtin_prefetch(&c->tag[cache_set_of(c, line) * c->ways]);
}

/* Set slot's pending mask.  Every change of `pending` goes through here,
 * which keeps the set's count of pending ways. */
static inline void cache_set_pending(cache *c, uint32_t slot, uint32_t mask)
{
    if (!c->m[slot].pending != !mask)
        c->npend[slot / c->ways] += mask ? 1u : (uint32_t)-1;
    c->m[slot].pending = mask;
}

/* Record a hit on slot (replacement update). */
static inline void cache_touch(cache *c, uint32_t slot) { c->repl->hit(c, slot); }

/* Slot to (re)allocate for `line`: an empty way, else the policy's victim;
 * -1 if every way of the set has pending sectors. */
int cache_victim(cache *c, uint64_t line);

/* Put `line` into slot (from cache_victim), reporting what was there in *ev
 * (may be NULL).  The new line starts with no valid/dirty/pending sectors. */
void cache_install(cache *c, uint32_t slot, uint64_t line, cache_evict *ev);

/* Drop a line (e.g. write-evict); pending sectors must be 0. */
void cache_drop(cache *c, uint32_t slot);

/* Invalidate every line (kernel boundary of an L1).  Lines with pending
 * sectors keep their tag and pending mask (their fills are still coming)
 * but lose valid and dirty sectors.  Dirty data is discarded, so call this
 * only on write-through/read-only caches or after writing dirty lines back. */
void cache_invalidate_all(cache *c);

/* Number of valid lines (tests, statistics). */
uint32_t cache_count_valid(const cache *c);

#endif
