/*
 * simt_pdom.c - "pdom": replay the warp stream's active masks.
 *
 * Both front-ends deliver each warp's dynamic instruction sequence with the
 * active mask that immediate-post-dominator reconvergence gives (the PTX
 * emulator runs a PDOM stack, Fung et al., MICRO 2007; Accel-Sim traces
 * record what the hardware did).  So this mechanism is a cursor over the
 * warp's instructions: no stack is rebuilt, and a diverged region costs
 * exactly the issue slots of the instructions the front-end recorded for
 * each path.  It keeps 12 bytes per warp.
 */
#include "simt.h"

typedef struct pdom_warp {
    const ws_inst *next, *end;
} pdom_warp;

static void pdom_start(void *st, const ws_cta *cta, uint32_t warp)
{
    pdom_warp *w = st;
    w->next = ws_warp_inst(cta, warp);
    w->end = w->next + cta->warps[warp].ninst;
}

static int pdom_next(void *st, const ws_inst **in, uint32_t *mask)
{
    pdom_warp *w = st;
    if (w->next == w->end)
        return 0;
    *in = w->next;
    *mask = w->next->mask;
    w->next++;
    return 1;
}

static uint32_t pdom_remaining(const void *st)
{
    const pdom_warp *w = st;
    return (uint32_t)(w->end - w->next);
}

const sim_simt_ops sim_simt_pdom = {"pdom", sizeof(pdom_warp), pdom_start, pdom_next, pdom_remaining};
