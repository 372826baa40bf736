/*
 * synth.c - see synth.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth.h"

void synth_kernel_init(synth_kernel *s, const char *name, uint32_t grid, uint32_t block, uint32_t nregs,
                       uint32_t smem, synth_gen gen, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->k.name = name;
    s->k.id = 1;
    s->k.grid[0] = grid;
    s->k.grid[1] = s->k.grid[2] = 1;
    s->k.block[0] = block;
    s->k.block[1] = s->k.block[2] = 1;
    s->k.nregs = nregs;
    s->k.shmem_static = smem;
    s->k.binary_version = 70;
    s->gen = gen;
    s->ctx = ctx;
}

static int feed_next(void *ctx, ws_cta *c, ge_err *e)
{
    synth_kernel *s = ctx;
    uint64_t n = s->pick ? s->npick : ws_kernel_nctas(&s->k);
    if (s->next >= n)
        return 0;
    uint64_t index = s->pick ? s->pick[s->next] : s->next;
    s->next++;
    ws_cta_reset(c);
    c->index = index;
    c->id[0] = (uint32_t)index;
    if (s->gen(s->ctx, index, c, e))
        return -1;
    return 1;
}

sim_cta_feed synth_feed(synth_kernel *s)
{
    s->next = 0;
    return (sim_cta_feed){feed_next, s, NULL};
}

typedef struct synth_src {
    ws_source base;
    synth_kernel *ks;
    size_t n, cur;
} synth_src;

static int src_event(ws_source *src, ws_event *ev, ge_err *e)
{
    (void)e;
    synth_src *s = (synth_src *)src;
    if (s->cur >= s->n)
        return 0;
    memset(ev, 0, sizeof *ev);
    ev->kind = WS_EV_KERNEL;
    ev->kernel = s->ks[s->cur].k;
    ev->kernel.id = (uint32_t)s->cur + 1;
    s->ks[s->cur].next = 0;
    s->cur++;
    return 1;
}

static int src_cta(ws_source *src, ws_cta *c, ge_err *e)
{
    synth_src *s = (synth_src *)src;
    return s->cur ? feed_next(&s->ks[s->cur - 1], c, e) : 0;
}

static void src_close(ws_source *src) { free(src); }

static const ws_source_ops synth_ops = {"synth", src_event, src_cta, NULL, src_close};

ws_source *synth_source(synth_kernel *ks, size_t n)
{
    synth_src *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->base.ops = &synth_ops;
    s->ks = ks;
    s->n = n;
    return &s->base;
}

uint32_t synth_pc_period = 8;

ws_inst *synth_op(ws_cta *c, isa_op op, int dst, int s0, int s1, int s2, uint32_t mask)
{
    ge_err e;
    uint32_t pos = c->warps[c->nwarps - 1].ninst;
    ws_inst *in = ws_cta_push(c, &e);
    assert_non_null(in);
    in->pc = 16ull * (pos % synth_pc_period);
    in->op = (uint8_t)op;
    in->mask = mask;
    if (dst >= 0)
        in->dst[in->ndst++] = (uint16_t)dst;
    int srcs[3] = {s0, s1, s2};
    for (int i = 0; i < 3; i++)
        if (srcs[i] >= 0)
            in->src[in->nsrc++] = (uint16_t)srcs[i];
    return in;
}

ws_inst *synth_mem(ws_cta *c, isa_op op, int dst, int src, uint64_t base, int64_t stride, uint32_t size,
                   uint32_t mask)
{
    ge_err e;
    ws_inst *in = synth_op(c, op, dst, src, -1, -1, mask);
    in->size = (uint8_t)size;
    uint64_t *a = ws_cta_push_addr(c, in, &e);
    assert_non_null(a);
    for (int l = 0; l < WS_WARP_SIZE; l++)
        if (mask >> l & 1)
            a[l] = base + (uint64_t)((int64_t)l * stride);
    return in;
}

void synth_config(const char *name, gpu_config *cfg)
{
    char path[512];
    ge_err e;
    snprintf(path, sizeof path, "tests/sampler/data/%s", name);
    if (gcfg_load(path, cfg, &e))
        fail_msg("%s", e.msg);
}

void synth_set(gpu_config *cfg, const char *key, const char *value)
{
    ge_err e;
    if (gcfg_set(cfg, key, value, &e) || gcfg_validate(cfg, &e))
        fail_msg("%s=%s: %s", key, value, e.msg);
}

int synth_run(const gpu_config *cfg, const sim_options *o, synth_kernel *s, kresult *r, ge_err *e)
{
    sim_gpu *g = sim_create(cfg, o, e);
    if (!g)
        return -1;
    sim_cta_feed f = synth_feed(s);
    int rc = sim_kernel(g, &s->k, &f, r, e);
    sim_destroy(g);
    return rc;
}
