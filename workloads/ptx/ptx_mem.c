/*
 * ptx_mem.c - the sparse device address space.
 *
 * Device memory is a table of allocations sorted by base address; each has
 * its own host buffer.  Addresses are handed out upward from
 * PTX_GLOBAL_BASE, 256-byte aligned (cudaMalloc aligns at least that much),
 * with a 256-byte unmapped gap after every allocation so an access just
 * past the end of one array is caught instead of landing in its neighbour.
 * Addresses are never reused after a free, so a dangling pointer is caught
 * too, and the layout depends only on the order of calls (deterministic).
 * A lookup is a binary search, with a one-entry cache in front because
 * consecutive lanes almost always hit the same allocation.  The module's
 * .global/.const variables are placed first, at the addresses the parser
 * assigned.  The sum of live allocations is capped (limit_bytes, 16 GiB by
 * default) so a runaway driver fails with a message, not the host.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

#define GAP 256
#define ALIGN 256
#define DEFAULT_LIMIT (16ull << 30)

void ptx_mem_init(ptx_mem *m)
{
    memset(m, 0, sizeof *m);
    m->next = PTX_GLOBAL_BASE;
    m->limit_bytes = DEFAULT_LIMIT;
}

void ptx_mem_free_all(ptx_mem *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->a[i].data);
    free(m->a);
    uint64_t limit = m->limit_bytes;
    ptx_mem_init(m);
    m->limit_bytes = limit;
}

static int insert_at(ptx_mem *m, uint64_t base, uint64_t size, uint32_t flags, ge_err *e)
{
    if (size > m->limit_bytes || m->live_bytes + size > m->limit_bytes)
        return ge_errf(e, "device memory limit of %llu bytes exceeded (allocating %llu bytes)",
                       (unsigned long long)m->limit_bytes, (unsigned long long)size);
    if (m->n && m->a[m->n - 1].base >= base)
        return ge_errf(e, "device allocation out of order");
    if (ge_reserve((void **)&m->a, &m->cap, m->n + 1, sizeof *m->a, e))
        return -1;
    uint8_t *data = calloc(1, size ? (size_t)size : 1);
    if (!data)
        return ge_errf(e, "out of host memory allocating %llu bytes of device memory", (unsigned long long)size);
    ptx_alloc *a = &m->a[m->n++];
    a->base = base;
    a->size = size;
    a->data = data;
    a->flags = flags;
    m->live_bytes += size;
    uint64_t end = base + (size ? size : 1) + GAP;
    if (end > m->next)
        m->next = end;
    return 0;
}

uint64_t ptx_mem_alloc(ptx_mem *m, uint64_t size, uint32_t flags, ge_err *e)
{
    uint64_t base = (m->next + ALIGN - 1) / ALIGN * ALIGN;
    if (size > PTX_GLOBAL_END - base) {
        ge_errf(e, "device address space exhausted (allocating %llu bytes)", (unsigned long long)size);
        return 0;
    }
    if (insert_at(m, base, size, flags, e))
        return 0;
    return base;
}

int ptx_mem_release(ptx_mem *m, uint64_t addr, ge_err *e)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->a[mid].base < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= m->n || m->a[lo].base != addr)
        return ge_errf(e, "free of 0x%llx, which is not the start of an allocation", (unsigned long long)addr);
    m->live_bytes -= m->a[lo].size;
    free(m->a[lo].data);
    memmove(&m->a[lo], &m->a[lo + 1], (m->n - lo - 1) * sizeof *m->a);
    m->n--;
    m->last = 0;
    return 0;
}

ptx_alloc *ptx_mem_find(ptx_mem *m, uint64_t addr, uint64_t size)
{
    if (m->last < m->n) {
        ptx_alloc *a = &m->a[m->last];
        if (addr >= a->base && addr - a->base <= a->size && size <= a->size - (addr - a->base))
            return a;
    }
    /* last allocation with base <= addr */
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->a[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    ptx_alloc *a = &m->a[lo - 1];
    if (addr - a->base > a->size || size > a->size - (addr - a->base))
        return NULL;
    m->last = lo - 1;
    return a;
}

int ptx_mem_load_module(ptx_mem *m, const ptx_module *mod, ge_err *e)
{
    for (uint32_t i = 0; i < mod->nvars; i++) {
        const ptx_var *v = &mod->vars[i];
        if (v->space != PTX_SP_GLOBAL && v->space != PTX_SP_CONST)
            continue;
        if (insert_at(m, v->addr, v->size, v->space == PTX_SP_CONST ? PTX_MEM_READONLY : 0, e))
            return -1;
        if (v->init != UINT32_MAX && v->size)
            memcpy(m->a[m->n - 1].data, mod->data + v->init, (size_t)v->size);
    }
    if (mod->global_end > m->next)
        m->next = mod->global_end;
    return 0;
}
