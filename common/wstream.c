#include "wstream.h"

#include <stdlib.h>
#include <string.h>

int ws_open_cta(ws_source *s, uint64_t index, ws_cta *c, ge_err *e)
{
    if (!s->ops->open_cta)
        return ge_errf(e, "%s source cannot open a CTA on its own", s->ops->name);
    return s->ops->open_cta(s, index, c, e);
}

void ws_close(ws_source *s)
{
    if (s && s->ops->close)
        s->ops->close(s);
}

uint64_t ws_kernel_nctas(const ws_kernel *k)
{
    return (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
}

uint32_t ws_kernel_threads_per_cta(const ws_kernel *k)
{
    return k->block[0] * k->block[1] * k->block[2];
}

uint32_t ws_kernel_warps_per_cta(const ws_kernel *k)
{
    return (ws_kernel_threads_per_cta(k) + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
}

void ws_cta_init(ws_cta *c)
{
    memset(c, 0, sizeof *c);
}

void ws_cta_free(ws_cta *c)
{
    free(c->warps);
    free(c->inst);
    free(c->addr);
    ws_cta_init(c);
}

void ws_cta_reset(ws_cta *c)
{
    c->nwarps = 0;
    c->ninst = 0;
    c->naddr = 0;
}

int ws_cta_begin_warp(ws_cta *c, ge_err *e)
{
    if (ge_reserve((void **)&c->warps, &c->warps_cap, c->nwarps + 1, sizeof *c->warps, e))
        return -1;
    c->warps[c->nwarps].first = (uint32_t)c->ninst;
    c->warps[c->nwarps].ninst = 0;
    c->nwarps++;
    return 0;
}

ws_inst *ws_cta_push(ws_cta *c, ge_err *e)
{
    if (c->nwarps == 0) {
        ge_errf(e, "instruction outside a warp");
        return NULL;
    }
    if (c->ninst >= UINT32_MAX - 1) {
        ge_errf(e, "CTA has too many instructions");
        return NULL;
    }
    if (ge_reserve((void **)&c->inst, &c->inst_cap, c->ninst + 1, sizeof *c->inst, e))
        return NULL;
    ws_inst *in = &c->inst[c->ninst++];
    memset(in, 0, sizeof *in);
    in->addr = WS_NO_ADDR;
    c->warps[c->nwarps - 1].ninst++;
    return in;
}

uint64_t *ws_cta_push_addr(ws_cta *c, ws_inst *in, ge_err *e)
{
    if (c->naddr + WS_WARP_SIZE >= UINT32_MAX) {
        ge_errf(e, "CTA has too many memory instructions");
        return NULL;
    }
    /* in may point into c->inst, which this does not move. */
    if (ge_reserve((void **)&c->addr, &c->addr_cap, c->naddr + WS_WARP_SIZE, sizeof *c->addr, e))
        return NULL;
    in->addr = (uint32_t)c->naddr;
    uint64_t *a = c->addr + c->naddr;
    memset(a, 0, WS_WARP_SIZE * sizeof *a);
    c->naddr += WS_WARP_SIZE;
    return a;
}

int ws_cta_copy(ws_cta *dst, const ws_cta *src, ge_err *e)
{
    ws_cta_reset(dst);
    if (ge_reserve((void **)&dst->warps, &dst->warps_cap, src->nwarps, sizeof *dst->warps, e) ||
        ge_reserve((void **)&dst->inst, &dst->inst_cap, src->ninst, sizeof *dst->inst, e) ||
        ge_reserve((void **)&dst->addr, &dst->addr_cap, src->naddr, sizeof *dst->addr, e))
        return -1;
    memcpy(dst->id, src->id, sizeof dst->id);
    dst->index = src->index;
    dst->nwarps = src->nwarps;
    dst->ninst = src->ninst;
    dst->naddr = src->naddr;
    if (src->nwarps)
        memcpy(dst->warps, src->warps, src->nwarps * sizeof *src->warps);
    if (src->ninst)
        memcpy(dst->inst, src->inst, src->ninst * sizeof *src->inst);
    if (src->naddr)
        memcpy(dst->addr, src->addr, src->naddr * sizeof *src->addr);
    return 0;
}
