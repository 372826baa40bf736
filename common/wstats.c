/*
 * wstats.c - per-kernel stream statistics (see wstats.h for definitions).
 *
 * One pass, CTA by CTA, nothing kept per instruction: counters per kernel,
 * coalescing through co_coalesce (the same function the profiler and the
 * simulator use, so "sectors per request" means the same everywhere), and
 * two u64sets of line addresses (the kernel's and the whole run's) for the
 * distinct-line counts.  The line and sector sizes are those of NVIDIA's L1
 * and L2 since Volta: 128-byte lines of four 32-byte sectors (Jia et al.,
 * "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
 * 2018; NVIDIA Volta tuning guide).  Memory use grows with the number of
 * distinct lines touched (16 bytes per line per set at 50% load), which is
 * the footprint of the kernel / 128 — bounded and small next to the data
 * the kernel itself touched.
 */
#include "wstats.h"

#include <stdlib.h>
#include <string.h>

#include "coalesce.h"

void wstats_init(wstats *s)
{
    memset(s, 0, sizeof *s);
    u64set_init(&s->klines);
    u64set_init(&s->alllines);
}

void wstats_free(wstats *s)
{
    for (size_t i = 0; i < s->nkernels; i++)
        free(s->kernels[i].name);
    free(s->kernels);
    free(s->total.name);
    u64set_free(&s->klines);
    u64set_free(&s->alllines);
    memset(s, 0, sizeof *s);
}

static void add_into(wstats_kernel *t, const wstats_kernel *k)
{
    t->ctas += k->ctas;
    t->warp_insts += k->warp_insts;
    t->thread_insts += k->thread_insts;
    for (int i = 0; i < ISA_OP_COUNT; i++)
        t->op[i] += k->op[i];
    t->mem_requests += k->mem_requests;
    t->mem_sectors += k->mem_sectors;
    t->mem_lines += k->mem_lines;
    t->shared_requests += k->shared_requests;
}

void wstats_end_kernel(wstats *s)
{
    if (!s->open)
        return;
    wstats_kernel *k = &s->kernels[s->nkernels - 1];
    k->lines_touched = s->klines.count;
    add_into(&s->total, k);
    s->total.lines_touched = s->alllines.count;
    u64set_clear(&s->klines);
    s->open = 0;
}

int wstats_begin_kernel(wstats *s, const ws_kernel *k, ge_err *e)
{
    wstats_end_kernel(s);
    if (!s->total.name) {
        s->total.name = malloc(sizeof "total");
        if (!s->total.name)
            return ge_errf(e, "out of memory");
        memcpy(s->total.name, "total", sizeof "total");
    }
    if (ge_reserve((void **)&s->kernels, &s->cap, s->nkernels + 1, sizeof *s->kernels, e))
        return -1;
    wstats_kernel *w = &s->kernels[s->nkernels];
    memset(w, 0, sizeof *w);
    const char *name = k->name ? k->name : "";
    size_t n = strlen(name) + 1;
    if (!(w->name = malloc(n)))
        return ge_errf(e, "out of memory");
    memcpy(w->name, name, n);
    w->id = k->id;
    memcpy(w->grid, k->grid, sizeof w->grid);
    memcpy(w->block, k->block, sizeof w->block);
    s->nkernels++;
    s->open = 1;
    return 0;
}

int wstats_add_cta(wstats *s, const ws_cta *c, ge_err *e)
{
    if (!s->open)
        return ge_errf(e, "wstats: a CTA outside a kernel");
    wstats_kernel *k = &s->kernels[s->nkernels - 1];
    co_line lines[CO_MAX_LINES];
    k->ctas++;
    k->warp_insts += c->ninst;
    for (size_t i = 0; i < c->ninst; i++) {
        const ws_inst *in = &c->inst[i];
        int active = ws_popc(in->mask);
        k->thread_insts += (uint64_t)active;
        if (in->op >= ISA_OP_COUNT)
            return ge_errf(e, "wstats: op kind %u out of range", in->op);
        k->op[in->op]++;
        isa_space sp = isa_ops[in->op].space;
        if (active == 0 || in->addr == WS_NO_ADDR)
            continue;
        if (sp == ISA_SPACE_SHARED) {
            k->shared_requests++;
        } else if (sp == ISA_SPACE_GLOBAL || sp == ISA_SPACE_LOCAL) {
            int n = co_coalesce(in->mask, ws_inst_addr(c, in), in->size, WSTATS_LINE_BYTES, WSTATS_SECTOR_BYTES,
                                lines);
            k->mem_requests++;
            k->mem_lines += (uint64_t)n;
            k->mem_sectors += co_sectors(lines, n);
            for (int l = 0; l < n; l++)
                if (u64set_add(&s->klines, lines[l].line, e) < 0 || u64set_add(&s->alllines, lines[l].line, e) < 0)
                    return -1;
        }
    }
    return 0;
}

int wstats_run(wstats *s, ws_source *src, progress *p, ge_err *e)
{
    ws_event ev;
    ws_cta cta;
    ws_cta_init(&cta);
    int r;
    while ((r = ws_next_event(src, &ev, e)) == 1) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        if (wstats_begin_kernel(s, &ev.kernel, e)) {
            r = -1;
            break;
        }
        if (p)
            progress_begin(p, s->kernels[s->nkernels - 1].name, ws_kernel_nctas(&ev.kernel));
        uint64_t done = 0;
        while ((r = ws_next_cta(src, &cta, e)) == 1) {
            if (wstats_add_cta(s, &cta, e)) {
                r = -1;
                break;
            }
            if (p)
                progress_update(p, ++done);
        }
        if (p)
            progress_done(p);
        if (r < 0)
            break;
    }
    wstats_end_kernel(s);
    ws_cta_free(&cta);
    return r < 0 ? -1 : 0;
}

double wstats_simd_efficiency(const wstats_kernel *k)
{
    return k->warp_insts ? (double)k->thread_insts / (32.0 * (double)k->warp_insts) : 0.0;
}

double wstats_sectors_per_request(const wstats_kernel *k)
{
    return k->mem_requests ? (double)k->mem_sectors / (double)k->mem_requests : 0.0;
}

double wstats_lines_per_request(const wstats_kernel *k)
{
    return k->mem_requests ? (double)k->mem_lines / (double)k->mem_requests : 0.0;
}
