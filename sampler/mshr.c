/*
 * mshr.c - MSHR table (see mshr.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mshr.h"

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
    m->e = ge_calloc(entries, sizeof *m->e, e);
    m->targets = ge_malloc((size_t)entries * merge * (target_size ? target_size : 1), e);
    if (!m->e || !m->targets || lineidx_init(&m->index, entries, e)) {
        mshr_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < entries; i++)
        m->e[i].next_free = i + 1 < entries ? (int32_t)(i + 1) : -1;
    m->free_head = 0;
    return 0;
}

void mshr_free(mshr *m)
{
    free(m->e);
    free(m->targets);
    lineidx_free(&m->index);
    m->e = NULL;
    m->targets = NULL;
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
    if (mergeable)
        lineidx_put(&m->index, line, i);
    return i;
}

void mshr_release(mshr *m, int i)
{
    mshr_entry *en = &m->e[i];
    if (en->mergeable)
        lineidx_del(&m->index, en->line);
    en->used = 0;
    en->next_free = m->free_head;
    m->free_head = i;
    m->used--;
}
