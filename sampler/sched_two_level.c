/*
 * sched_two_level.c - two-level warp scheduling.
 *
 * Warps are split into a small active set, scheduled round-robin, and a
 * pending set (Gebhart et al., ISCA 2011; Narasiman et al., MICRO 2011).
 * A warp that starts waiting on a long-latency event - a global/local load
 * or a barrier/fence - is demoted to the pending set, and the pending warp
 * that has waited longest (FIFO by demotion or arrival order) and is not
 * itself waiting on such an event is promoted.  This staggers the warps so
 * their long-latency phases do not all line up.
 *
 * The active-set size is SIM_TWO_LEVEL_ACTIVE = 8 warps per scheduler, the
 * fetch-group size Narasiman et al. evaluate (Section 5).  The GPU config
 * has no key for it yet.  Work-conserving variant: when no active warp is
 * ready but a pending one is, the first pending warp in FIFO order issues
 * (and is promoted), so a barrier whose last arrivals are pending cannot
 * deadlock the scheduler.
 */
#include "sched.h"

#define SIM_TWO_LEVEL_ACTIVE 8

typedef struct two_level_state {
    uint64_t active;
    int last;                            /* round-robin pointer in the active set */
    uint64_t stamp[SIM_SCHED_MAX_WARPS]; /* FIFO order of the pending set */
    uint64_t clock;
} two_level_state;

static void tl_init(void *st) { ((two_level_state *)st)->last = SIM_SCHED_MAX_WARPS - 1; }

/* Pending warp in m that has waited longest, or -1. */
static int tl_first_pending(const two_level_state *s, uint64_t m)
{
    int best = -1;
    for (; m; m &= m - 1) {
        int w = __builtin_ctzll(m);
        if (best < 0 || s->stamp[w] < s->stamp[best])
            best = w;
    }
    return best;
}

static int tl_pick(void *st, uint64_t eligible, const sim_sched_view *v)
{
    two_level_state *s = st;
    uint64_t waiting = v->longw;
    s->active &= v->resident;
    for (uint64_t m = s->active & waiting; m; m &= m - 1) { /* demote */
        int w = __builtin_ctzll(m);
        s->active &= ~(1ull << w);
        s->stamp[w] = ++s->clock;
    }
    while (__builtin_popcountll(s->active) < SIM_TWO_LEVEL_ACTIVE) { /* promote */
        int w = tl_first_pending(s, v->resident & ~s->active & ~waiting);
        if (w < 0)
            break;
        s->active |= 1ull << w;
    }
    uint64_t a = eligible & s->active;
    if (a)
        return sim_bit_from(a, s->last + 1);
    return tl_first_pending(s, eligible);
}

static void tl_issued(void *st, int w)
{
    two_level_state *s = st;
    if (!(s->active >> w & 1)) {
        /* work-conserving issue from the pending set: promote it in place of
         * the active warp that has waited longest for a slot */
        if (__builtin_popcountll(s->active) >= SIM_TWO_LEVEL_ACTIVE) {
            int out = sim_bit_from(s->active, s->last + 1);
            s->active &= ~(1ull << out);
            s->stamp[out] = ++s->clock;
        }
        s->active |= 1ull << w;
    }
    s->last = w;
}

static void tl_added(void *st, int w)
{
    two_level_state *s = st;
    s->stamp[w] = ++s->clock;
}

static void tl_removed(void *st, int w)
{
    two_level_state *s = st;
    s->active &= ~(1ull << w);
}

const sim_sched_ops sim_sched_two_level = {"two_level", sizeof(two_level_state), tl_init, tl_pick,
                                           tl_issued, tl_added, tl_removed};
