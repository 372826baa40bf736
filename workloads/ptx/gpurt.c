/*
 * gpurt.c - the host runtime: device memory, copies, launches, streams and
 * the warp-stream sink (API in gpurt.h).
 *
 * A device owns one parsed PTX module and one sparse address space
 * (ptx_mem) holding the module's variables and the driver's allocations.
 * A launch checks its configuration the way the CUDA runtime does (block
 * at most 1024 threads, grid y/z at most 65535, every .param supplied),
 * lays out the parameter buffer from the PTX declaration, then runs the
 * CTAs in linear order (x fastest), each to completion, handing each to
 * the sink when one is attached.  The CTA state is kept between launches
 * of the same kernel and block shape, because drivers often launch one
 * kernel many times (frontier loops).  Errors are sticky, as in CUDA: the
 * first message is kept and every later call fails at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpurt.h"
#include "progress.h"
#include "ptx.h"

typedef struct kres {
    char *name;
    uint32_t regs, smem;
} kres;

struct gpurt {
    ptx_module *mod;
    ptx_mem mem;
    ge_err err;
    int failed;
    gpurt_stats st;
    gpurt_sink sink;
    int has_sink;
    kres *res;
    size_t nres, rcap;
    uint32_t nstreams;
    uint64_t inst_limit;
    ws_cta cta;
    /* launch state kept between launches */
    ptx_launch L;
    ptx_cta *cs;
    uint32_t cs_kernel, cs_block[3], cs_dyn;
    void (*progress)(void *ctx, const gpurt_stats *st);
    void *progress_ctx;
};

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(gpurt *d)
{
    d->failed = 1;
    return -1;
}

int gpurt_fail(gpurt *d, const char *fmt, ...)
{
    if (d->failed)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err.msg, sizeof d->err.msg, fmt, ap);
    va_end(ap);
    return fail(d);
}

gpurt *gpurt_create(const char *ptx_text, const char *ptx_name, ge_err *e)
{
    if (!ptx_text) {
        ge_errf(e, "%s: no PTX text", ptx_name ? ptx_name : "ptx");
        return NULL;
    }
    gpurt *d = calloc(1, sizeof *d);
    if (!d) {
        ge_errf(e, "out of memory");
        return NULL;
    }
    ptx_mem_init(&d->mem);
    ws_cta_init(&d->cta);
    d->nstreams = 1;
    if (ptx_module_parse(ptx_text, strlen(ptx_text), ptx_name, &d->mod, e) ||
        ptx_mem_load_module(&d->mem, d->mod, e)) {
        gpurt_destroy(d);
        return NULL;
    }
    return d;
}

void gpurt_destroy(gpurt *d)
{
    if (!d)
        return;
    ptx_cta_free(d->cs);
    ptx_launch_release(&d->L);
    for (size_t i = 0; i < d->nres; i++)
        free(d->res[i].name);
    free(d->res);
    ws_cta_free(&d->cta);
    ptx_mem_free_all(&d->mem);
    ptx_module_free(d->mod);
    free(d);
}

const char *gpurt_error(const gpurt *d)
{
    return d && d->failed ? d->err.msg : NULL;
}

int gpurt_set_resources(gpurt *d, const char *text)
{
    if (d->failed)
        return -1;
    if (!text)
        return 0;
    const char *p = text;
    int line = 0;
    while (*p) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char buf[1024];
        if (len >= sizeof buf)
            return gpurt_fail(d, "ptxas resources line %d too long", line);
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (eol ? 1 : 0);
        char name[1000];
        unsigned regs, smem;
        char extra;
        int n = sscanf(buf, " %999s %u %u %c", name, &regs, &smem, &extra);
        if (n <= 0)
            continue; /* blank line */
        if (n != 3)
            return gpurt_fail(d, "ptxas resources line %d: expected 'KERNEL REGS SMEM'", line);
        if (ge_reserve((void **)&d->res, &d->rcap, d->nres + 1, sizeof *d->res, &d->err) ||
            !(d->res[d->nres].name = strdup(name)))
            return fail(d);
        d->res[d->nres].regs = regs;
        d->res[d->nres].smem = smem;
        d->nres++;
    }
    return 0;
}

void gpurt_set_sink(gpurt *d, const gpurt_sink *s)
{
    if (s) {
        d->sink = *s;
        d->has_sink = 1;
    } else {
        d->has_sink = 0;
    }
}

void gpurt_set_inst_limit(gpurt *d, uint64_t n) { d->inst_limit = n; }

void gpurt_set_progress(gpurt *d, void (*fn)(void *ctx, const gpurt_stats *st), void *ctx)
{
    d->progress = fn;
    d->progress_ctx = ctx;
}

uint32_t gpurt_stream_create(gpurt *d) { return d->nstreams++; }

int gpurt_sync(gpurt *d) { return d->failed ? -1 : 0; }

void gpurt_get_stats(const gpurt *d, gpurt_stats *s) { *s = d->st; }

gpurt_ptr gpurt_malloc(gpurt *d, size_t bytes)
{
    if (d->failed)
        return 0;
    gpurt_ptr p = ptx_mem_alloc(&d->mem, bytes, 0, &d->err);
    if (!p)
        fail(d);
    return p;
}

int gpurt_free(gpurt *d, gpurt_ptr p)
{
    if (d->failed)
        return -1;
    if (p == 0)
        return 0; /* like cudaFree(NULL) */
    return ptx_mem_release(&d->mem, p, &d->err) ? fail(d) : 0;
}

static uint8_t *host_range(gpurt *d, gpurt_ptr p, size_t bytes, const char *what)
{
    ptx_alloc *a = ptx_mem_find(&d->mem, p, bytes);
    if (!a) {
        gpurt_fail(d, "%s of %zu bytes at 0x%llx is outside any device allocation", what, bytes,
                   (unsigned long long)p);
        return NULL;
    }
    return a->data + (p - a->base);
}

static int memcpy_event(gpurt *d, ws_event_kind kind, gpurt_ptr p, size_t bytes)
{
    if (!d->has_sink || !d->sink.event)
        return 0;
    ws_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.addr = p;
    ev.bytes = bytes;
    return d->sink.event(d->sink.ctx, &ev, &d->err) ? fail(d) : 0;
}

int gpurt_memcpy_h2d(gpurt *d, gpurt_ptr dst, const void *src, size_t bytes)
{
    if (d->failed)
        return -1;
    if (!bytes)
        return 0;
    uint8_t *h = host_range(d, dst, bytes, "memcpy to device");
    if (!h)
        return -1;
    memcpy(h, src, bytes);
    return memcpy_event(d, WS_EV_MEMCPY_H2D, dst, bytes);
}

int gpurt_memcpy_d2h(gpurt *d, void *dst, gpurt_ptr src, size_t bytes)
{
    if (d->failed)
        return -1;
    if (!bytes)
        return 0;
    uint8_t *h = host_range(d, src, bytes, "memcpy from device");
    if (!h)
        return -1;
    memcpy(dst, h, bytes);
    return memcpy_event(d, WS_EV_MEMCPY_D2H, src, bytes);
}

int gpurt_memset(gpurt *d, gpurt_ptr dst, int value, size_t bytes)
{
    if (d->failed)
        return -1;
    if (!bytes)
        return 0;
    uint8_t *h = host_range(d, dst, bytes, "memset");
    if (!h)
        return -1;
    memset(h, value, bytes);
    return 0;
}

gpurt_ptr gpurt_symbol(gpurt *d, const char *name)
{
    if (d->failed)
        return 0;
    int v = ptx_module_var(d->mod, name);
    if (v < 0 || (d->mod->vars[v].space != PTX_SP_GLOBAL && d->mod->vars[v].space != PTX_SP_CONST)) {
        gpurt_fail(d, "%s: no .global or .const variable '%s'", d->mod->name, name);
        return 0;
    }
    return d->mod->vars[v].addr;
}

static const kres *find_res(const gpurt *d, const char *name)
{
    for (size_t i = 0; i < d->nres; i++)
        if (!strcmp(d->res[i].name, name))
            return &d->res[i];
    return NULL;
}

int gpurt_launch(gpurt *d, const char *name, gpurt_dim3 grid, gpurt_dim3 block, uint32_t dyn_shmem, void **args)
{
    return gpurt_launch_stream(d, 0, name, grid, block, dyn_shmem, args);
}

/* Prepare d->L and the CTA state for a launch; the CTA state is kept
 * while the kernel, block shape and dynamic shared size stay the same. */
static int setup_launch(gpurt *d, int k, gpurt_dim3 grid, gpurt_dim3 block, uint32_t dyn, void **args)
{
    uint32_t g3[3] = {grid.x, grid.y, grid.z}, b3[3] = {block.x, block.y, block.z};
    d->L.inst_limit = d->inst_limit;
    d->L.launch_id = (uint32_t)d->st.launches;
    if (ptx_launch_init(&d->L, d->mod, (uint32_t)k, &d->mem, g3, b3, dyn, args, &d->err))
        return fail(d);
    int reuse = d->cs && d->cs_kernel == (uint32_t)k && d->cs_block[0] == block.x && d->cs_block[1] == block.y &&
                d->cs_block[2] == block.z && d->cs_dyn == dyn;
    if (!reuse) {
        ptx_cta_free(d->cs);
        d->cs = ptx_cta_new(&d->L, &d->err);
        if (!d->cs)
            return fail(d);
        d->cs_kernel = (uint32_t)k;
        d->cs_block[0] = block.x, d->cs_block[1] = block.y, d->cs_block[2] = block.z;
        d->cs_dyn = dyn;
    }
    return 0;
}

static int launch(gpurt *d, uint32_t stream, const char *name, gpurt_dim3 grid, gpurt_dim3 block,
                  uint32_t dyn_shmem, void **args);

int gpurt_launch_stream(gpurt *d, uint32_t stream, const char *name, gpurt_dim3 grid, gpurt_dim3 block,
                        uint32_t dyn_shmem, void **args)
{
    if (d->failed)
        return -1;
    double t0 = ge_now(), c0 = thread_cpu();
    int rc = launch(d, stream, name, grid, block, dyn_shmem, args);
    d->st.launch_seconds += ge_now() - t0;
    d->st.launch_cpu_seconds += thread_cpu() - c0;
    return rc;
}

static int launch(gpurt *d, uint32_t stream, const char *name, gpurt_dim3 grid, gpurt_dim3 block,
                  uint32_t dyn_shmem, void **args)
{
    int k = ptx_module_kernel(d->mod, name);
    if (k < 0)
        return gpurt_fail(d, "%s: no kernel named '%s'", d->mod->name, name);
    if (stream >= d->nstreams)
        return gpurt_fail(d, "launch of %s: stream %u was not created", name, stream);
    if (setup_launch(d, k, grid, block, dyn_shmem, args))
        return -1;
    const ptx_module *m = d->mod;
    ptx_launch *L = &d->L;
    d->st.launches++;
    if (d->has_sink && d->sink.event) {
        const kres *r = find_res(d, name);
        ws_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = WS_EV_KERNEL;
        ws_kernel *kk = &ev.kernel;
        kk->name = ptx_str(m, m->funcs[k].name);
        kk->id = (uint32_t)d->st.launches;
        memcpy(kk->grid, L->grid, sizeof kk->grid);
        memcpy(kk->block, L->block, sizeof kk->block);
        kk->nregs = r ? r->regs : ptx_kernel_reg_estimate(m, (uint32_t)k);
        kk->shmem_static = r ? r->smem : L->lay->shared_decl;
        kk->shmem_dynamic = L->dyn_shared;
        kk->binary_version = m->target;
        kk->stream = stream;
        kk->shmem_base = PTX_WIN_SHARED;
        kk->local_base = PTX_LOCAL_TRACE;
        kk->opcodes = m->mnems;
        kk->nopcodes = m->nmnems;
        if (d->sink.event(d->sink.ctx, &ev, &d->err))
            return fail(d);
    }
    uint64_t n = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    int stream_out = d->has_sink && d->sink.cta;
    for (uint64_t i = 0; i < n; i++) {
        if (ptx_cta_begin(d->cs, i, &d->err) || ptx_cta_run(d->cs, stream_out ? &d->cta : NULL, &d->err))
            return fail(d);
        ptx_cta_stats cs;
        ptx_cta_get_stats(d->cs, &cs);
        d->st.ctas++;
        d->st.warp_insts += cs.warp_insts;
        d->st.thread_insts += cs.thread_insts;
        if (d->progress)
            d->progress(d->progress_ctx, &d->st);
        if (stream_out) {
            if (d->sink.cta(d->sink.ctx, &d->cta, &d->err))
                return fail(d);
            ws_cta_reset(&d->cta);
        }
    }
    return 0;
}
