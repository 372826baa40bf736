/*
 * mem.h - the memory system as the SM cores see it (the contract between
 * the SM pipeline and the memory hierarchy of the detailed simulator).
 *
 * Everything below the load/store unit's coalescer sits behind this
 * interface: per-SM L1 data (and constant/texture) caches with MSHRs, the
 * interconnect, L2 slices and the DRAM controllers.  Shared memory is not
 * here (it is SM-local and handled by the LSU).
 *
 * The SM hands over one line-sized access at a time (after coalescing,
 * common/coalesce.h).  Every load-type access (load, atomic) completes later
 * through sim_mem_pop(); the SM keeps its own map from token to the waiting
 * warp/registers.  Stores complete for the warp at once (they retire when
 * accepted) but still consume bandwidth and energy downstream.
 *
 * Time: `now` is the core-clock cycle.  The memory system converts to its own
 * clock domains (interconnect, L2, DRAM) internally.  sim_mem_next_event()
 * lets the simulator skip cycles in which nothing can happen.
 *
 * Implementations (a struct of function pointers, chosen by name):
 *   "detailed" - caches, MSHRs, crossbar, L2, DRAM timing (mem_detailed.c)
 *   "perfect"  - every access hits with the L1 latency (for tests and
 *                compute-bound studies)
 */
#ifndef SIM_MEM_H
#define SIM_MEM_H

#include <stdint.h>

#include "activity.h"
#include "err.h"
#include "gpu_config.h"
#include "isa.h"

typedef enum { SIM_MEM_LOAD = 0, SIM_MEM_STORE, SIM_MEM_ATOMIC } sim_mem_kind;

typedef struct sim_mem_access {
    uint64_t line;     /* line address = byte address / l1d.line_bytes (< 2^50) */
    uint32_t sectors;  /* sector mask within the line, in l1d.sector_bytes units */
    uint8_t kind;      /* sim_mem_kind */
    uint8_t space;     /* isa_space: GLOBAL, LOCAL, CONST, TEX */
    uint8_t bypass_l1; /* 1: do not allocate/lookup in L1 (e.g. .cg, atomics) */
    uint32_t token;    /* opaque to the memory system; returned on completion */
} sim_mem_access;

typedef enum {
    SIM_MEM_ACCEPTED = 0, /* taken; loads/atomics will complete via sim_mem_pop */
    SIM_MEM_RETRY = 1     /* no resources (MSHR / miss queue full): retry later */
} sim_mem_status;

/* Statistics beyond the activity counters. */
typedef struct sim_mem_stats {
    double l1_load_sectors, l1_load_hits;
    double l2_load_sectors, l2_load_hits;
    double dram_row_hits, dram_row_accesses;
    double dram_row_hits_w, dram_row_accesses_w; /* of them, the writes' (write-backs) */
    double dram_busy_cycles, dram_cycles; /* data-bus busy vs elapsed, summed over channels */
    double load_latency_sum, load_count;   /* data-cache loads: core cycles from access to completion */
} sim_mem_stats;

typedef struct sim_mem sim_mem;
typedef struct sim_mem_options sim_mem_options;

typedef struct sim_mem_ops {
    const char *name;
    /* Offer one access from SM `sm` at cycle `now`. */
    sim_mem_status (*access)(sim_mem *m, int sm, const sim_mem_access *a, uint64_t now);
    /* Pop one completed load/atomic of SM `sm` whose data is ready at or
     * before `now`: 1 and *token set, or 0 if none. */
    int (*pop)(sim_mem *m, int sm, uint64_t now, uint32_t *token);
    /* Advance the memory system through core cycle `now` (called once per
     * simulated cycle, with increasing now; cycles may be skipped when
     * next_event says nothing happens in between). */
    void (*cycle)(sim_mem *m, uint64_t now);
    /* Earliest core cycle > now at which the memory system has work
     * (a completion becomes ready or a queue can move); UINT64_MAX if idle. */
    uint64_t (*next_event)(const sim_mem *m, uint64_t now);
    /* Add activity counters and statistics since creation (or last reset). */
    void (*collect)(const sim_mem *m, act_counters *a, sim_mem_stats *s);
    /* Clear statistics (start of a kernel's measurement). */
    void (*reset_stats)(sim_mem *m);
    /* Kernel boundary: invalidate the L1s (as GPUs do between kernels); L2
     * keeps its contents. */
    void (*kernel_boundary)(sim_mem *m);
    void (*destroy)(sim_mem *m);
    /* Between kernels: change which SMs are simulated (sampled mode, see
     * sim_mem_options); L2 and DRAM state are kept.  -1 (e set) if the
     * state of newly simulated SMs cannot be allocated.  NULL: unsupported. */
    int (*set_sampling)(sim_mem *m, const sim_mem_options *o, ge_err *e);
    /* Between kernels: put lines (l1d-line addresses, 128 bytes) that earlier
     * kernels left in the L2 into it, clean, with `sectors` (32-byte sectors)
     * valid, oldest first;
     * returns how many were installed.  NULL: the model has no L2 state. */
    size_t (*preload)(sim_mem *m, const uint64_t *lines, const uint8_t *sectors, size_t n);
    /* Right after `access` refused SM `sm`: a nonzero key that stays the
     * same for as long as offering that access again would be refused with
     * no effect at all, or 0 if no such promise can be made.  The LSU
     * retries a refused line every cycle; with the key it skips the calls
     * while nothing its answer depends on has changed.  NULL: never. */
    uint64_t (*refusal_key)(const sim_mem *m, int sm);
    /* SM `sm` will offer access `a` within a few cycles: start loading the
     * host memory its lookup will read.  A hint only: it must not change
     * any state the simulation sees.  NULL: none. */
    void (*hint)(const sim_mem *m, int sm, const sim_mem_access *a);
    /* Between kernels: empty the L2 (dirty lines are forgotten, not written
     * back), so that the next kernel starts from a cold L2.  NULL: the model
     * has no L2 state. */
    void (*l2_flush)(sim_mem *m);
    /* The data-cache load sectors SM `sm` has offered to its L1 so far, and
     * those that hit (the l1_load_* statistics of that SM alone, since
     * creation or the last reset_stats).  NULL: not kept per SM. */
    void (*l1_load_counts)(const sim_mem *m, int sm, double *sectors, double *hits);
} sim_mem_ops;

struct sim_mem {
    const sim_mem_ops *ops;
    /* Optional (may be NULL): ready_at[sm] is the earliest core cycle at
     * which a pop for SM sm can return a completion; pop returns 0 before
     * it.  Lets the clock loop skip the call for SMs with nothing ready. */
    const uint64_t *ready_at;
    /* Optional (may be NULL): bit sm of poked[] is set whenever something
     * inside the memory system (a fill for SM sm, room in its outgoing
     * queue) changes SM sm's refusal key (refusal_key); that happens only
     * within cycle(), and the clock loop takes the bits after it and visits
     * those SMs.  With it, an SM whose LSU holds a refusal that nothing has
     * lifted sleeps until poked instead of offering again every cycle. */
    uint64_t *poked;
};

/* Word w of poked (SMs 64w..64w+63), cleared: the caller visits them. */
static inline uint64_t sim_mem_take_pokes(sim_mem *m, uint32_t w)
{
    if (!m->poked || !m->poked[w])
        return 0;
    uint64_t p = m->poked[w];
    m->poked[w] = 0;
    return p;
}

/* Can a pop for SM sm return a completion at cycle now (ready_at says)? */
static inline int sim_mem_pop_due(const sim_mem *m, int sm, uint64_t now)
{
    return !m->ready_at || m->ready_at[sm] <= now;
}

/* Options for sampled simulation: only `active_sms` SMs run, but the
 * memory system represents the traffic of all sm_count SMs (how is
 * documented in the implementation). */
struct sim_mem_options {
    uint32_t active_sms;     /* 0 = all */
    int background;          /* 0: none; 1: the other SMs' traffic, as a few weighted
                              * mirrors per active SM (cheap); 2: one mirror per
                              * other SM (exact, slow) -- see mem_detailed.c */
    /* Optional (may be NULL): 1 if `line` (l1d-line address) holds data the
     * other SMs access too (e.g. touched by more than one CTA of the
     * sample).  Background copies of accesses to such lines, and of every
     * atomic, go to the same line instead of a private shifted one, so they
     * share its L2 line, slice and serialisation. */
    int (*shared_line)(void *ctx, uint64_t line);
    void *shared_ctx;
};

/* Create by name ("detailed", "perfect"); o may be NULL (all SMs).  The
 * table of names is in mem_registry.c. */
sim_mem *sim_mem_create(const char *name, const gpu_config *cfg, const sim_mem_options *o, ge_err *e);

/* The implementations' constructors (registered in mem_registry.c). */
sim_mem *sim_mem_detailed_create(const gpu_config *cfg, const sim_mem_options *o, ge_err *e);
sim_mem *sim_mem_perfect_create(const gpu_config *cfg, const sim_mem_options *o, ge_err *e);

#endif
