/*
 * sched.h - the warp-scheduler policy interface.
 *
 * Each SM has sm.schedulers warp schedulers; warp slot s belongs to
 * scheduler s % schedulers (as in GPGPU-Sim and Volta's sub-cores), so a
 * scheduler sees at most SIM_SCHED_MAX_WARPS warps, named by their local
 * index 0..63.  The core loop computes, every cycle, which of them could
 * issue (instruction fetched, operands ready, not at a barrier) and asks
 * the policy for the best one; if that warp then finds its unit busy, the
 * core removes it from the mask and asks again.  So a policy is only an
 * order over the eligible warps plus whatever history it keeps; it never
 * looks at instructions, and the core never knows which policy runs.
 *
 * Adding a policy: one file with a const sim_sched_ops and one line in
 * sched_registry.c.
 */
#ifndef SIM_SCHED_H
#define SIM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SIM_SCHED_MAX_WARPS 64 /* local warp indices fit one uint64_t mask */

/* What the core tells the policy about its warps this cycle. */
typedef struct sim_sched_view {
    uint64_t resident;  /* warps present */
    uint64_t longw;     /* warps waiting on a long-latency event: global/local load, barrier, fence */
    const uint64_t *age; /* launch order of each local warp (smaller = older) */
} sim_sched_view;

typedef struct sim_sched_ops {
    const char *name;
    size_t state_bytes; /* policy state per scheduler, zeroed before init */
    void (*init)(void *st);
    /* Best warp in `eligible` (non-empty). */
    int (*pick)(void *st, uint64_t eligible, const sim_sched_view *v);
    /* Warp w issued an instruction at this cycle. */
    void (*issued)(void *st, int w);
    /* Warp w left (its CTA retired) or arrived (a new CTA); may be NULL. */
    void (*warp_added)(void *st, int w);
    void (*warp_removed)(void *st, int w);
} sim_sched_ops;

/* The policy registered under name, or NULL. */
const sim_sched_ops *sim_sched_find(const char *name);

/* Lowest set bit of m at or after position `from` (cyclically); m != 0. */
static inline int sim_bit_from(uint64_t m, int from)
{
    uint64_t hi = from >= 64 ? 0 : m & (~0ull << from);
    return __builtin_ctzll(hi ? hi : m);
}

#endif
