/*
 * sched_lrr.c - loose round-robin warp scheduling.
 *
 * Priority rotates: the warp after the one that issued last goes first, so
 * every ready warp gets a turn ("loose" because a warp that is not ready is
 * simply skipped).  This is GPGPU-Sim's baseline LRR policy (Bakhoda et al.,
 * ISPASS 2009).  It spreads progress evenly, which keeps many warps at the
 * same code point and tends to bunch their long-latency loads together.
 */
#include "sched.h"

typedef struct lrr_state {
    int last;
} lrr_state;

static void lrr_init(void *st) { ((lrr_state *)st)->last = SIM_SCHED_MAX_WARPS - 1; }

static int lrr_pick(void *st, uint64_t eligible, const sim_sched_view *v)
{
    (void)v;
    return sim_bit_from(eligible, ((lrr_state *)st)->last + 1);
}

static void lrr_issued(void *st, int w) { ((lrr_state *)st)->last = w; }

const sim_sched_ops sim_sched_lrr = {"lrr", sizeof(lrr_state), lrr_init, lrr_pick, lrr_issued, NULL, NULL};
