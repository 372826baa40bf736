/*
 * mshr.h - a table of miss status holding registers (Kroft, "Lockup-free
 * instruction fetch/prefetch cache organization", ISCA 1981).
 *
 * One entry tracks one line with outstanding requests to the next level:
 * which sectors are still pending, and the list of requests ("targets")
 * waiting for it.  A new miss to a line that already has a mergeable entry
 * adds a target instead of a new request (up to `merge` targets per entry,
 * as in GPGPU-Sim's MSHR with max_merged); when the table or an entry's
 * target list is full the requester must retry (back-pressure).
 *
 * Entries may be created non-mergeable (bypassing loads, atomics): they are
 * not entered in the line index and complete on their own.
 *
 * Targets are opaque fixed-size records (target_size bytes), so the L1
 * (token + issue cycle) and the L2 (reply routing) share this code.
 *
 * Storage is allocated once: entries and targets in flat arrays, a free list
 * of entries, and a line -> entry index (lineidx.h).  Nothing is allocated
 * per miss.
 */
#ifndef SIM_MSHR_H
#define SIM_MSHR_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "lineidx.h"

typedef struct mshr_entry {
    uint64_t line;
    uint32_t pending;  /* sectors requested and not yet returned */
    uint32_t aux;      /* user data (e.g. the reserved cache slot + 1) */
    uint16_t ntargets;
    uint8_t used, mergeable;
    uint8_t flags;     /* user flags */
    int32_t next_free;
} mshr_entry;

typedef struct mshr {
    uint32_t nentries, merge, tsize;
    uint32_t used;
    int32_t free_head;
    mshr_entry *e;
    unsigned char *targets; /* [nentries * merge * tsize] */
    lineidx index;          /* line -> mergeable entry */
} mshr;

/* entries >= 1; merge = max targets per entry (0 is taken as 1). */
int mshr_init(mshr *m, uint32_t entries, uint32_t merge, size_t target_size, ge_err *e);
void mshr_free(mshr *m);

static inline int mshr_full(const mshr *m) { return m->used == m->nentries; }

/* Mergeable entry for line, or -1. */
static inline int mshr_find(const mshr *m, uint64_t line) { return lineidx_get(&m->index, line); }

/* New entry (pending 0, no targets); -1 if the table is full.  Only
 * mergeable entries enter the line index; a cache that names its mergeable
 * entries itself (l1.c, slot_mshr) creates them with mergeable = 0 too. */
int mshr_alloc(mshr *m, uint64_t line, int mergeable);

/* Room for one more target in entry i? */
static inline int mshr_can_merge(const mshr *m, int i) { return m->e[i].ntargets < m->merge; }

/* Append a target to entry i and return its storage (tsize bytes); the
 * caller checked mshr_can_merge. */
static inline void *mshr_add_target(mshr *m, int i)
{
    return m->targets + ((size_t)i * m->merge + m->e[i].ntargets++) * m->tsize;
}

/* Target k of entry i. */
static inline void *mshr_target(const mshr *m, int i, uint32_t k)
{
    return m->targets + ((size_t)i * m->merge + k) * m->tsize;
}

/* Release entry i (drops it from the line index). */
void mshr_release(mshr *m, int i);

#endif
