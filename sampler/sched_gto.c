/*
 * sched_gto.c - greedy-then-oldest warp scheduling.
 *
 * Keep issuing from the same warp while it can issue; when it cannot, take
 * the oldest ready warp (earliest launched) and stay greedy on that one.
 * Rogers et al. (MICRO 2012, "Cache-conscious wavefront scheduling") showed
 * GTO keeps fewer warps' working sets live in L1 than round-robin; it is
 * GPGPU-Sim's default for Fermi-and-later configs.  Finding the oldest is a
 * scan over the eligible mask (at most 64 warps, usually about 16), done
 * only on cycles when the greedy warp cannot issue.
 */
#include "sched.h"

typedef struct gto_state {
    int greedy; /* -1: none */
} gto_state;

static void gto_init(void *st) { ((gto_state *)st)->greedy = -1; }

static int gto_pick(void *st, uint64_t eligible, const sim_sched_view *v)
{
    gto_state *s = st;
    if (s->greedy >= 0 && (eligible >> s->greedy & 1))
        return s->greedy;
    int best = __builtin_ctzll(eligible);
    for (uint64_t m = eligible & (eligible - 1); m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (v->age[w] < v->age[best])
            best = w;
    }
    return best;
}

static void gto_issued(void *st, int w) { ((gto_state *)st)->greedy = w; }

static void gto_removed(void *st, int w)
{
    gto_state *s = st;
    if (s->greedy == w)
        s->greedy = -1;
}

const sim_sched_ops sim_sched_gto = {"gto", sizeof(gto_state), gto_init, gto_pick, gto_issued, NULL, gto_removed};
