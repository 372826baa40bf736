/*
 * simt.h - the divergence (SIMT reconvergence) mechanism interface.
 *
 * The fetch stage asks the mechanism for a warp's next instruction and the
 * lanes it runs with.  The warp stream already carries, per warp
 * instruction, the active mask that its front-end produced: the hardware's
 * own reconvergence for Accel-Sim traces, and the immediate-post-dominator
 * (PDOM) reconvergence stack of the PTX emulator (Fung et al., MICRO 2007)
 * for execution-driven workloads.  "pdom" replays those masks in stream
 * order.
 *
 * Other mechanisms (serialised paths, dynamic warp formation) need more
 * than one warp's stream - DWF regroups threads of several warps at the
 * same pc - so the interface hands the mechanism the whole CTA at warp
 * start and keeps per-warp state opaque; such a mechanism reads the CTA's
 * per-lane information and decides what each fetch returns.  The core
 * never knows which mechanism runs.  Adding one: one file with a const
 * sim_simt_ops and one line in simt_registry.c.
 */
#ifndef SIM_SIMT_H
#define SIM_SIMT_H

#include <stddef.h>
#include <stdint.h>

#include "wstream.h"

typedef struct sim_simt_ops {
    const char *name;
    size_t warp_state_bytes; /* opaque state per warp slot */
    /* Warp `warp` of `cta` becomes resident (cta stays valid until the CTA retires). */
    void (*warp_start)(void *st, const ws_cta *cta, uint32_t warp);
    /* Next instruction of the warp and its active lanes: 1, or 0 when the
     * warp has nothing left to fetch. */
    int (*next)(void *st, const ws_inst **in, uint32_t *mask);
    /* Instructions the warp still has to fetch (for statistics/tests). */
    uint32_t (*remaining)(const void *st);
} sim_simt_ops;

/* The mechanism registered under name, or NULL. */
const sim_simt_ops *sim_simt_find(const char *name);

#endif
