/*
 * mshr.c - MSHR table (see mshr.h).
 *
 * The line index is a power-of-two open-addressing table at most half
 * full (capacity >= 2 x entries), so a probe sequence is short.  Removal
 * uses backward-shift deletion (Knuth, TAOCP vol. 3, 6.4 Algorithm R), which
 * keeps every probe sequence unbroken without tombstones.
 */
#include <stdlib.h>
#include <string.h>

#include "mshr.h"

static inline uint32_t mshr_hash(const mshr *m, uint64_t line)
{
    /* Fibonacci hashing (Knuth): multiply by 2^64 / golden ratio. */
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 32) & m->imask;
}

int mshr_init(mshr *m, uint32_t entries, uint32_t merge, size_t target_size, ge_err *e)
{
    memset(m, 0, sizeof *m);
    if (!entries)
        return ge_errf(e, "mshr: needs at least one entry");
    if (!merge)
        merge = 1;
    m->nentries = entries;
    m->merge = merge;
    m->tsize = (uint32_t)target_size;
    uint32_t cap = 4;
    while (cap < 2 * entries)
        cap <<= 1;
    m->imask = cap - 1;
    m->e = ge_calloc(entries, sizeof *m->e, e);
    m->targets = ge_calloc((size_t)entries * merge, target_size ? target_size : 1, e);
    m->index = ge_malloc(cap * sizeof *m->index, e);
    if (!m->e || !m->targets || !m->index) {
        mshr_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < cap; i++)
        m->index[i] = -1;
    for (uint32_t i = 0; i < entries; i++)
        m->e[i].next_free = i + 1 < entries ? (int32_t)(i + 1) : -1;
    m->free_head = 0;
    return 0;
}

void mshr_free(mshr *m)
{
    free(m->e);
    free(m->targets);
    free(m->index);
    m->e = NULL;
    m->targets = NULL;
    m->index = NULL;
}

int mshr_find(const mshr *m, uint64_t line)
{
    for (uint32_t h = mshr_hash(m, line);; h = (h + 1) & m->imask) {
        int32_t i = m->index[h];
        if (i < 0)
            return -1;
        if (m->e[i].line == line)
            return i;
    }
}

int mshr_alloc(mshr *m, uint64_t line, int mergeable)
{
    if (m->free_head < 0)
        return -1;
    int i = m->free_head;
    mshr_entry *en = &m->e[i];
    m->free_head = en->next_free;
    en->line = line;
    en->pending = 0;
    en->aux = 0;
    en->ntargets = 0;
    en->used = 1;
    en->flags = 0;
    en->mergeable = (uint8_t)(mergeable != 0);
    m->used++;
    if (mergeable) {
        uint32_t h = mshr_hash(m, line);
        while (m->index[h] >= 0)
            h = (h + 1) & m->imask;
        m->index[h] = i;
    }
    return i;
}

static void index_remove(mshr *m, int i)
{
    uint32_t h = mshr_hash(m, m->e[i].line);
    while (m->index[h] != i)
        h = (h + 1) & m->imask;
    /* Backward shift: move later members of the cluster into the hole when
     * their home position does not lie cyclically in (hole, j]. */
    uint32_t hole = h;
    for (uint32_t j = (hole + 1) & m->imask; m->index[j] >= 0; j = (j + 1) & m->imask) {
        uint32_t home = mshr_hash(m, m->e[m->index[j]].line);
        int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!in_range) {
            m->index[hole] = m->index[j];
            hole = j;
        }
    }
    m->index[hole] = -1;
}

void mshr_release(mshr *m, int i)
{
    mshr_entry *en = &m->e[i];
    if (en->mergeable)
        index_remove(m, i);
    en->used = 0;
    en->next_free = m->free_head;
    m->free_head = i;
    m->used--;
}
