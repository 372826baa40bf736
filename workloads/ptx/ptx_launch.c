/*
 * ptx_launch.c - a kernel launch's configuration and parameter buffer.
 *
 * The checks are the CUDA runtime's launch rules (CUDA C Programming Guide,
 * "Compute Capabilities" table: at most 1024 threads per block, block z at
 * most 64, grid x below 2^31 and grid y/z at most 65535; dynamic shared
 * memory at most 227 KB, the largest opt-in size of current GPUs) plus the
 * kernel's own .maxntid/.reqntid.  Kernel parameters are copied into one
 * buffer at the offsets their declarations give (ptx_parse.c aligns each to
 * its .align or natural size, as the PTX ABI does), which is what ld.param
 * and the parameter window read.  Dynamic shared memory starts after the
 * kernel's static shared memory, aligned to the largest alignment of the
 * module's extern .shared arrays.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

#define MAX_DYN_SHARED (227u * 1024u)

int ptx_launch_init(ptx_launch *L, const ptx_module *m, uint32_t k, ptx_mem *mem, const uint32_t grid[3],
                    const uint32_t block[3], uint32_t dyn, void **args, ge_err *e)
{
    const ptx_func *f = &m->funcs[k];
    const char *kn = ptx_str(m, f->name);
    if (!f->is_kernel)
        return ge_errf(e, "launch of %s: not a kernel", kn);
    if (f->is_extern || !f->ninst)
        return ge_errf(e, "launch of %s: the kernel is declared but not defined in this module", kn);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2])
        return ge_errf(e, "launch of %s: grid and block dimensions must be at least 1", kn);
    if (threads > 1024)
        return ge_errf(e, "launch of %s: %llu threads per block (at most 1024)", kn, (unsigned long long)threads);
    if (block[2] > 64 || grid[1] > 65535 || grid[2] > 65535 || grid[0] > 0x7fffffffu)
        return ge_errf(e, "launch of %s: grid or block dimension out of range", kn);
    if (f->reqntid[0] && threads > (uint64_t)f->reqntid[0] * (f->reqntid[1] ? f->reqntid[1] : 1) *
                                       (f->reqntid[2] ? f->reqntid[2] : 1))
        return ge_errf(e, "launch of %s: %llu threads per block exceeds the kernel's .maxntid/.reqntid", kn,
                       (unsigned long long)threads);
    const ptx_layout *lay = &m->layouts[k];
    uint64_t al = m->dyn_shared_align;
    uint64_t dyn_base = (lay->shared_size + al - 1) / al * al;
    if (dyn > MAX_DYN_SHARED || dyn_base + dyn > PTX_WIN_SIZE)
        return ge_errf(e, "launch of %s: %u bytes of dynamic shared memory is too much (at most %u)", kn, dyn,
                       MAX_DYN_SHARED);
    if (f->nparams && !args)
        return ge_errf(e, "launch of %s: no arguments for %u parameters", kn, f->nparams);
    for (uint32_t i = 0; i < f->nparams; i++)
        if (!args[i])
            return ge_errf(e, "launch of %s: argument %u is NULL", kn, i);
    uint8_t *p = realloc(L->params, f->param_size + 1);
    if (!p)
        return ge_errf(e, "out of memory");
    memset(p, 0, f->param_size + 1);
    uint64_t limit = L->inst_limit;
    uint32_t id = L->launch_id;
    memset(L, 0, sizeof *L);
    L->params = p;
    L->inst_limit = limit;
    L->launch_id = id;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_param *pa = &m->params[f->param_first + i];
        memcpy(p + pa->offset, args[i], pa->size);
    }
    L->mod = m;
    L->kernel = k;
    L->lay = lay;
    L->mem = mem;
    memcpy(L->grid, grid, sizeof L->grid);
    memcpy(L->block, block, sizeof L->block);
    L->dyn_shared = dyn;
    L->dyn_base = (uint32_t)dyn_base;
    L->shared_size = (uint32_t)(dyn_base + dyn);
    L->threads = (uint32_t)threads;
    L->warps = (uint32_t)((threads + 31) / 32);
    return 0;
}

void ptx_launch_release(ptx_launch *L)
{
    free(L->params);
    L->params = NULL;
}
