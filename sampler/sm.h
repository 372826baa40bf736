/*
 * sm.h - internal to the sampler: the state of the GPU and of one SM, and
 * the stages of the SM pipeline, each in its own file:
 *
 *   fetch.c       I-cache, fetch and decode into the per-warp instruction buffer
 *   scoreboard.c  per-warp pending-register table
 *   sm.c          the issue stage: readiness, policy pick, issue, CPI stack
 *   opcoll.c      operand collectors and register-file bank conflicts
 *   units.c       functional-unit pools (latency / initiation interval per class)
 *   ldst.c        LSU: coalescer, shared memory banks, hand-off to sim_mem
 *   cta_sched.c   CTA placement under the occupancy limits, barriers, retirement
 *   stats.c       kresult / sim_detail / power-trace windows
 *   gpu.c         the top loop: clocking and skipping to the next event
 *
 * Time is the core clock's cycle number `now`, one clock for the lifetime
 * of a sim_gpu.  A resource is free when its *_free cycle is <= now.  A
 * warp caches the reason and the cycle until which its next instruction
 * cannot issue (wake/wait_cat), so a stalled warp costs one compare per
 * cycle and an SM whose warps all wait can sleep until the earliest wake.
 */
#ifndef SIM_SM_H
#define SIM_SM_H

#include <stdint.h>

#include "cache.h"
#include "coalesce.h"
#include "kresult.h"
#include "mem.h"
#include "occupancy.h"
#include "sched.h"
#include "sim.h"
#include "simt.h"

#define SIM_NEVER UINT64_MAX
#define SIM_MAX_SCHEDULERS 16
/* Scoreboard entries per warp: pending register writes a warp may have in
 * flight.  GPGPU-Sim's scoreboard is unbounded; 64 is far above what the
 * kernels we run reach (a full table stalls the warp as structural). */
#define SIM_SB_ENTRIES 64
/* Coalesced line accesses the LSU hands to the memory system per cycle:
 * one tag lookup per cycle in the L1, as in GPGPU-Sim's LD/ST unit
 * (Bakhoda et al., ISPASS 2009, Section 3.1). */
#define SIM_LSU_LINES_PER_CYCLE 1

enum { SIM_W_FREE = 0, SIM_W_RUN, SIM_W_BAR, SIM_W_FENCE, SIM_W_DONE };

/* Decoded op kind: one row per isa_op, built from the config at creation. */
typedef struct sim_dec {
    uint8_t unit, space, flags;
    uint32_t latency, ii;
} sim_dec;

/* A fetched and decoded instruction waiting in a warp's buffer.  It holds
 * a copy of the instruction, so issue never goes back to the CTA's (large,
 * long evicted) instruction array. */
typedef struct sim_ib {
    ws_inst in;
    uint64_t ready;   /* cycle from which it can issue (fetch + decode done) */
    uint64_t regbits; /* bit (reg & 63) of every source and destination */
    uint32_t mask;    /* active lanes (from the divergence mechanism) */
    uint8_t unit;     /* decoded: isa_unit */
    uint8_t res;      /* decoded: SIM_RES_* memory pipeline it needs */
} sim_ib;

/* The memory pipeline a memory instruction needs besides its LD/ST unit. */
enum { SIM_RES_NONE = 0, SIM_RES_LSU, SIM_RES_SHARED };

/* A register some in-flight instruction will write. */
typedef struct sim_sb_ent {
    uint64_t ready; /* readable from this cycle; SIM_NEVER: waits on a memory completion */
    uint32_t tag;   /* load record of a pending memory result, else UINT32_MAX */
    uint16_t reg;
    uint8_t mem;    /* result of a memory instruction (stall counts as memory) */
} sim_sb_ent;

/* One warp slot.  The fields the issue stage reads come first (one cache
 * line); the scoreboard table lives in a separate array (sb) so the warps
 * of an SM stay compact. */
typedef struct sim_warp {
    uint8_t state;       /* SIM_W_* */
    uint8_t ib_head, ib_n;
    uint8_t fetch_done;  /* the divergence mechanism has nothing left */
    uint32_t nsb;        /* scoreboard entries in use */
    uint64_t sb_bits;    /* bit (reg & 63) of every pending register */
    sim_ib *ib;          /* ring of sm.ibuffer_entries */
    sim_sb_ent *sb;      /* SIM_SB_ENTRIES pending register writes */
    uint32_t loads;      /* outstanding load records */
    uint32_t lsu;        /* instructions of this warp still in the LSU */
    uint32_t cta;        /* CTA slot */
    uint32_t wid;        /* warp index within its CTA */
    const ws_inst *nx;   /* next instruction to fetch (taken from simt), NULL if none */
    uint32_t nx_mask;
    void *simt;          /* divergence-mechanism state */
    uint64_t age;        /* launch order (GTO, two-level) */
    uint64_t fetch_line; /* l1i line it waits for (UINT64_MAX: for a free MSHR) */
    uint32_t ic_slot;    /* I-cache slot (set * ways + way) of its last hit: checked first */
} sim_warp;

typedef struct sim_cta_slot {
    ws_cta cta;           /* buffers a copying feed fills (reused across CTAs) */
    const ws_cta *src;    /* the CTA it runs: &cta, or one the feed lends (sim_cta_feed.borrow) */
    uint32_t used;
    uint32_t nwarps, live; /* warps, and warps not yet retired */
    uint32_t bar_waiting;  /* warps waiting at the current barrier */
    uint32_t outstanding;  /* load records + LSU instructions in flight */
    uint64_t drain;        /* cycle its last fixed-latency result is written */
    uint32_t retire_wait;  /* done but draining: retires at `drain` */
    uint32_t stat;         /* index of its sim_cta_stat */
    uint32_t *warp_slot;   /* warp slot of each of its warps (sm.max_warps entries) */
} sim_cta_slot;

/* A load or atomic waiting for its lines (token = index in sim_sm.rec). */
typedef struct sim_load {
    uint64_t issue;
    uint32_t warp;  /* warp slot */
    uint32_t left;  /* lines not yet back */
    uint32_t next_free;
    uint8_t space;  /* isa_space (latency statistics cover global and local) */
} sim_load;

/* The LSU's one in-flight global/local/const/tex instruction. */
typedef struct sim_lsu {
    int n, next;       /* lines, next to offer */
    uint32_t token;    /* load record, or UINT32_MAX for stores */
    uint32_t warp;
    uint8_t kind, space, bypass;
    uint64_t start;    /* first cycle it may offer (after operand read) */
    uint64_t offer_cycle; /* cycle the offers count refers to */
    uint32_t offers;      /* accesses offered in offer_cycle */
    uint64_t held;        /* the memory's refusal key for line[next], or 0 (mem.h) */
    uint64_t held_at;     /* cycle of the last refused offer */
    co_line line[CO_MAX_LINES]; /* last: the top loop reads the fields above */
} sim_lsu;

/* A pool of identical resources (units of one kind, operand collectors),
 * each free from its cycle on: per scheduler when there are at least as
 * many as schedulers, else one pool the schedulers share. */
typedef struct sim_pool {
    uint32_t first[SIM_MAX_SCHEDULERS], count[SIM_MAX_SCHEDULERS];
    uint64_t *free_at;
} sim_pool;

/* A warp scheduler.  The per-warp state it reads every cycle is kept here,
 * in small arrays indexed by local warp, rather than in sim_warp: a scan of
 * 16 waiting warps then touches two cache lines instead of 16 structs. */
typedef struct sim_sched_unit {
    void *pol;               /* policy state */
    uint64_t resident;       /* local warps present */
    uint64_t ready;          /* warps whose head instruction can issue once its unit is free */
    /* What every SM step reads of every scheduler (sim_sm_account, the
     * idle check in sm.c) sits here, in the struct's first host cache line. */
    uint64_t acct;           /* CPI stack charged up to (not incl.) this cycle */
    /* The waiting warps' scan result (sm.c, sched_step): the worst category
     * and the soonest wake, valid while now < scan_until.  Any change to
     * resident, ready, wake[] or cat[] sets scan_until to 0 (sim_sched_dirty). */
    uint64_t scan_until;
    uint8_t scan_cat;
    uint8_t last_cat;        /* category of the last processed cycle */
    uint8_t last_lsu;        /* ... and it was structural with a ready warp waiting for the LSU */
    uint64_t umask[ISA_UNIT_COUNT]; /* ready warps by the unit their head instruction needs */
    uint32_t units;          /* bit u set if umask[u] may be non-empty (cleared lazily by sm.c, issuable) */
    uint64_t rmask[3];       /* ready warps by SIM_RES_* of their head instruction */
    uint64_t longw;          /* local warps waiting on a load, barrier or fence */
    uint64_t wake[SIM_SCHED_MAX_WARPS]; /* head instruction cannot issue before this cycle */
    uint8_t cat[SIM_SCHED_MAX_WARPS];   /* kr_stall charged while wake > now */
    uint64_t age[SIM_SCHED_MAX_WARPS];
    uint64_t *bank_free;     /* per register-file bank: next free read slot (cycle * ports + port) */
} sim_sched_unit;

/* An I-cache fill in flight: fetched from the memory system in `parts`
 * l1d-line accesses, offered one per cycle while the memory refuses. */
typedef struct sim_ifill {
    uint64_t line;      /* l1i line number */
    uint32_t sent, left; /* parts offered / not yet back */
    uint8_t used;
} sim_ifill;

typedef struct sim_icache {
    cache tags;          /* the generic tag array (cache.h), l1i geometry and policy */
    sim_ifill *mshr;
    uint32_t nmshr;
    uint32_t parts;      /* memory accesses per l1i line */
    uint32_t unsent;     /* fills with parts still to offer */
} sim_icache;

/* Token of an I-cache fill part (load records use the low tokens). */
#define SIM_TOKEN_IFETCH 0x80000000u
/* Instruction addresses live at SIM_CODE_BASE + pc, a range no data uses
 * (user allocations of current GPUs sit far below 2^56), so code and data
 * never alias in the shared L2. */
#define SIM_CODE_BASE (1ull << 56)

typedef struct sim_sm {
    /* What the top loop (gpu.c) reads of every SM every cycle, together. */
    uint64_t wake;           /* next cycle this SM must be stepped */
    uint32_t ctas;           /* resident CTAs */
    uint32_t loads_out;      /* outstanding load records on this SM */
    sim_lsu lsu;
    uint32_t id;
    uint32_t nsched;
    uint32_t arb;            /* scheduler that goes first (round-robin over LSU/shared use) */
    sim_warp *warp;          /* max_warps slots */
    uint8_t *simt_state;
    sim_ib *ib_store;
    sim_sb_ent *sb_store;
    sim_cta_slot *cta;       /* ctas_max slots */
    uint32_t ncta_slots;     /* CTA slots */
    uint64_t fetch_need[16]; /* warps that may fetch (bit per warp slot) */
    uint64_t fetch_wait[16]; /* ... of those, warps waiting for an I-cache fill (fetch skips them) */
    uint32_t fetch_ptr, fetch_words;
    uint64_t fetch_next;     /* earliest cycle fetch has work again (after a stage) */
    sim_icache ic;
    sim_sched_unit sched[SIM_MAX_SCHEDULERS];
    sim_pool units[ISA_UNIT_COUNT];
    sim_pool coll;
    uint64_t shared_free;
    sim_load *rec;
    uint32_t nrec, rec_free;
    uint32_t draining;       /* CTAs waiting for their last results to retire */
    uint64_t retry_at;       /* earliest cycle a structural stall of this cycle clears */
    int busy;                /* something happened this cycle: step again next cycle */
} sim_sm;

/* Statistics gathered by the SM stages for one kernel (beyond act). */
typedef struct sim_kstats {
    double stall[KR_STALL_COUNT];
    double unit_busy[ISA_UNIT_COUNT];
    double gload_lat, gloads, sload_lat, sloads, shared_conflicts;
    double lsu_retry, lsu_busy, rf_conflicts;
    double active_sm_cycles, warp_cycles;
} sim_kstats;

struct sim_gpu {
    gpu_config cfg;
    sim_options opt;
    sim_mem *mem;
    const sim_sched_ops *sched;
    const sim_simt_ops *simt;
    sim_dec dec[ISA_OP_COUNT];
    uint32_t nsms;           /* simulated SMs */
    uint32_t sm_ready;       /* SMs 0..sm_ready-1 have their state (>= nsms) */
    uint32_t nsched, wpsched; /* schedulers per SM, warps per scheduler */
    uint32_t ib_cap, rf_banks_per_sched;
    sim_sm *sm;
    uint64_t now;
    uint64_t age_clock;
    /* current kernel */
    const ws_kernel *k;
    /* Code address of an instruction = pc * pc_num / pc_den
     * (gcfg_code_scale: the stream's instruction size to the config's). */
    uint32_t pc_num, pc_den;
    uint64_t kstart;
    occupancy occ;
    uint32_t nactive;        /* SMs with a resident CTA */
    uint64_t *occupied;      /* bitmap of those SMs: the top loop visits only them, in SM order */
    uint64_t *sm_due;        /* per SM, the first cycle its step or LSU has work (min of wake and
                              * sim_ldst_next at its last visit; a placed CTA makes it now): the top
                              * loop passes an SM whose due time is later and whose memory replies
                              * are not due without touching its state (gpu.c) */
    uint64_t resident_ctas;  /* CTAs resident on all SMs */
    int slot_freed;          /* a CTA retired: try to place more */
    uint64_t last_retire;    /* cycle after the latest CTA retirement */
    uint64_t active_since;   /* active_sm_cycles integrated up to this cycle */
    act_counters act;        /* SM-side activity of the kernel so far */
    sim_kstats ks;
    sim_cta_stat *cta_stat;
    size_t ncta_stat, cta_stat_cap;
    sim_detail detail;
    /* power-trace windows */
    uint64_t win_start;
    act_counters win_prev;   /* totals at the start of the window */
};

/* ---- decode / units (units.c) ---- */
int sim_units_init(sim_gpu *g, sim_sm *sm, ge_err *e);
void sim_units_free(sim_sm *sm);
void sim_decode_table(sim_gpu *g);
/* Index of a free resource of pool p for scheduler s at now, or -1 (then
 * *retry gets the earliest cycle one frees). */
static inline int sim_pool_find(const sim_pool *p, uint32_t s, uint64_t now, uint64_t *retry)
{
    uint64_t soonest = SIM_NEVER;
    for (uint32_t i = p->first[s], end = p->first[s] + p->count[s]; i < end; i++) {
        if (p->free_at[i] <= now)
            return (int)i;
        if (p->free_at[i] < soonest)
            soonest = p->free_at[i];
    }
    *retry = soonest;
    return -1;
}
int sim_pool_init(sim_pool *p, uint32_t n, uint32_t nsched, ge_err *e);

/* ---- operand collector (opcoll.c) ---- */
/* Read the instruction's source registers through the scheduler's banks
 * starting at now; returns the extra cycles lost to bank conflicts. */
uint32_t sim_opcoll_read(sim_gpu *g, sim_sched_unit *su, uint32_t warp_slot, const ws_inst *in, uint64_t now);

/* ---- scoreboard (scoreboard.c) ---- */
/* Hazard check of a buffered instruction; 0 = can issue.  Otherwise 1 and
 * *ready = the cycle it can (SIM_NEVER for a pending load), *mem = 1 if a
 * memory result is involved.  Drops entries that have become ready. */
int sim_sb_check(sim_warp *w, const sim_ib *b, uint64_t now, uint64_t *ready, int *mem);
/* Reserve the destinations of in: ready at `ready` (SIM_NEVER + tag for loads). */
void sim_sb_reserve(sim_warp *w, const ws_inst *in, uint64_t ready, uint32_t tag, int mem);
/* The load `tag` completed at now: its registers become readable. */
void sim_sb_release(sim_warp *w, uint32_t tag, uint64_t now);
/* 1 if the table has room for in's destinations (drops ready entries first). */
int sim_sb_room(sim_warp *w, const ws_inst *in, uint64_t now);

/* ---- fetch (fetch.c) ---- */
int sim_icache_init(sim_gpu *g, sim_icache *ic, ge_err *e);
void sim_icache_free(sim_icache *ic);
void sim_icache_flush(sim_icache *ic);
void sim_fetch(sim_gpu *g, sim_sm *sm, uint64_t now);
/* A part of I-cache fill `token` came back from the memory system; 1 if it
 * was the last part (the line is installed and its warps may fetch). */
int sim_fetch_fill(sim_gpu *g, sim_sm *sm, uint32_t token, uint64_t now);
static inline void sim_fetch_want(sim_sm *sm, uint32_t slot) { sm->fetch_need[slot >> 6] |= 1ull << (slot & 63); }
static inline void sim_fetch_drop(sim_sm *sm, uint32_t slot) { sm->fetch_need[slot >> 6] &= ~(1ull << (slot & 63)); }

/* ---- LSU (ldst.c) ---- */
/* The memory pipeline (SIM_RES_*) instruction in, run with `mask`, needs. */
int sim_ldst_res(const sim_gpu *g, const ws_inst *in, uint32_t mask);
/* Is the pipeline `res` free now?  0 = yes; else -1 and *retry = when to look again. */
int sim_ldst_can_issue(sim_sm *sm, int res, uint64_t now, uint64_t *retry);
/* Issue a memory instruction of warp slot w, operands read at `dispatch`. */
void sim_ldst_issue(sim_gpu *g, sim_sm *sm, uint32_t w, const ws_inst *in, uint32_t mask, uint64_t now,
                    uint64_t dispatch);
/* Memory completion `token` (a line of a load, or of an I-cache fill) at
 * now; 1 if it completed the load or fill (a warp or the fetch may go on),
 * 0 if more lines of it are still out (nothing the SM's step looks at
 * changed). */
int sim_ldst_complete(sim_gpu *g, sim_sm *sm, uint32_t token, uint64_t now);
/* Offer the LSU's next line(s) (once per cycle); 1 if its instruction
 * finished, i.e. the LSU became free. */
int sim_ldst_offer(sim_gpu *g, sim_sm *sm, uint64_t now);
/* Next cycle the LSU has a line to offer (SIM_NEVER: idle). */
static inline uint64_t sim_ldst_next(const sim_sm *sm, uint64_t now)
{
    if (sm->lsu.next >= sm->lsu.n)
        return SIM_NEVER;
    return sm->lsu.start > now ? sm->lsu.start : now + 1;
}
/* Per cycle: collect completions, then offer the LSU's next line(s). */
void sim_ldst_cycle(sim_gpu *g, sim_sm *sm, uint64_t now);
int sim_ldst_init(sim_sm *sm, ge_err *e);

/* ---- CTAs (cta_sched.c) ---- */
int sim_cta_init(sim_gpu *g, sim_sm *sm, ge_err *e);
void sim_cta_free_all(sim_sm *sm);
/* Place CTAs from feed on SMs with a free slot at cycle now; returns the
 * number placed or -1.  *exhausted is set when the feed has no more. */
int sim_cta_fill(sim_gpu *g, sim_cta_feed *feed, uint64_t now, int *exhausted, ge_err *e);
/* Warp slot w retired its last instruction at now. */
void sim_cta_warp_done(sim_gpu *g, sim_sm *sm, uint32_t w, uint64_t now);
/* Warp slot w arrived at a barrier. */
void sim_cta_barrier(sim_gpu *g, sim_sm *sm, uint32_t w, uint64_t now);
/* A load/LSU instruction of the CTA finished; retires the CTA if all done. */
void sim_cta_outstanding_done(sim_gpu *g, sim_sm *sm, uint32_t cta, uint64_t now);
/* A fixed-latency result of the CTA lands at `ready`. */
static inline void sim_cta_result(sim_sm *sm, uint32_t cta, uint64_t ready)
{
    if (ready > sm->cta[cta].drain)
        sm->cta[cta].drain = ready;
}
/* Retire the CTAs whose last results have landed by now; returns the
 * earliest cycle another one will (SIM_NEVER if none waits). */
uint64_t sim_cta_drained(sim_gpu *g, sim_sm *sm, uint64_t now);

/* ---- the SM (sm.c) ---- */
/* Step the SM through cycle now; returns the next cycle it must be stepped
 * (SIM_NEVER: only a memory completion, the LSU freeing or a new CTA can
 * wake it; the LSU's own offers run without a full step, see gpu.c). */
uint64_t sim_sm_cycle(sim_gpu *g, sim_sm *sm, uint64_t now);
/* Charge the CPI stack of every scheduler up to (not including) `until`. */
void sim_sm_account(sim_gpu *g, sim_sm *sm, uint64_t until);
/* The scheduler's set of waiting warps or one's wait changed: its cached
 * scan (sim_sched_unit.scan_until) is stale. */
static inline void sim_sched_dirty(sim_sched_unit *su) { su->scan_until = 0; }
/* A warp's wait may be over (completion, barrier release): re-check it. */
static inline void sim_warp_wake(sim_sm *sm, uint32_t w)
{
    sim_sched_unit *su = &sm->sched[w % sm->nsched];
    su->wake[w / sm->nsched] = 0;
    sim_sched_dirty(su);
    sm->busy = 1;
}
/* Warp slot w's head instruction cannot issue before t, for reason cat. */
static inline void sim_warp_wait(sim_sm *sm, uint32_t w, uint64_t t, int cat)
{
    sim_sched_unit *su = &sm->sched[w % sm->nsched];
    su->wake[w / sm->nsched] = t;
    su->cat[w / sm->nsched] = (uint8_t)cat;
    sim_sched_dirty(su);
}

/* ---- statistics (stats.c) ---- */
void sim_stats_kernel_begin(sim_gpu *g);
/* Integrate the active-SM count up to now (call before it changes). */
void sim_stats_active(sim_gpu *g, uint64_t now);
/* Emit the power-trace windows that end at or before now; -1 on callback failure. */
int sim_stats_windows(sim_gpu *g, uint64_t now, int final, ge_err *e);
void sim_stats_kernel_end(sim_gpu *g, uint64_t end, kresult *r);

#endif
