/*
 * sim.h - the detailed, cycle-level GPU simulator (the "sampler").
 *
 * A whole GPU driven by the warp stream (common/wstream.h): every SM has
 * instruction fetch with an I-cache, a per-warp instruction buffer and
 * scoreboard, N warp schedulers with a pluggable policy, an operand
 * collector with register-file bank conflicts, functional units timed by
 * latency class, an LSU (coalescer, shared memory with bank conflicts) and
 * barriers; behind the LSU sits the memory system of sampler/mem.h.  Every
 * structure is sized and timed from the gpu_config.  docs/simulator.md
 * describes the model, its simplifications and how it is validated.
 *
 * Two modes:
 *   full    - all CTAs of each kernel on all SMs (sim_run_source, or
 *             sim_kernel with a feed that yields every CTA);
 *   sampled - the caller's feed yields a chosen subset of CTAs, which run on
 *             only `active_sms` SMs while the memory system represents the
 *             traffic of the others (`background`, see mem.h).  The hybrid
 *             estimator extrapolates from the sample's kresult + sim_detail.
 *
 * Results are deterministic: the same config, options and stream give
 * bit-identical kresults.  A sim_gpu is single-threaded; run design points
 * in parallel with one sim_gpu each.
 */
#ifndef SIM_H
#define SIM_H

#include <stddef.h>
#include <stdint.h>

#include "activity.h"
#include "err.h"
#include "gpu_config.h"
#include "kresult.h"
#include "wstream.h"

typedef struct sim_gpu sim_gpu;

typedef struct sim_options {
    const char *mem_model;  /* "detailed" (default when NULL) or "perfect" */
    const char *scheduler;  /* NULL = the config's sm.scheduler */
    uint32_t active_sms;    /* sampled mode: simulate only SMs [0, active_sms) (0 = all = full mode) */
    int background;         /* sampled mode: the memory system represents the other SMs' traffic
                             * (1: weighted mirrors, 2: one mirror per other SM; see mem.h) */
    /* Sampled mode, optional: 1 if `line` (l1d-line address) holds data other
     * SMs touch too, so background traffic shares it (mem.h). */
    int (*shared_line)(void *ctx, uint64_t line);
    void *shared_ctx;
    uint64_t interval_cycles; /* > 0: call on_interval with the activity of every window */
    /* Called at the end of each window of interval_cycles core cycles (the
     * last window of a kernel may be shorter); `window` holds the activity
     * of that window only (act counter CYCLES = its length).  Non-zero
     * return aborts the simulation with "interval callback failed". */
    int (*on_interval)(void *ctx, const ws_kernel *k, uint64_t start_cycle, uint64_t cycles,
                       const act_counters *window);
    void *ctx;
    /* Testing aid: 1 = tick every cycle instead of skipping to the next
     * event.  Results must be identical either way (a test checks it). */
    int no_skip;
    /* 1: count each CTA's L1 load sectors and hits (sim_cta_stat); costs two
     * calls per line offered, so it is off unless asked for.  Needs a memory
     * model that keeps them per SM (the detailed one). */
    int cta_l1_stats;
} sim_options;

/* Source of the CTAs of one kernel, pulled in order as SM slots free.
 * next(): 1 = *cta filled (the simulator owns *cta and passes the same
 * buffers back later), 0 = no CTA left, -1 = error (e filled).
 * Or, when borrow is set (next is then not called): 1 = *cta points to the
 * next CTA, which the simulator reads where it is -- it must stay valid and
 * unchanged until sim_kernel returns (CTAs already in memory, such as a
 * profile's, then cost no copy); 0 and -1 as for next. */
typedef struct sim_cta_feed {
    int (*next)(void *ctx, ws_cta *cta, ge_err *e);
    void *ctx;
    int (*borrow)(void *ctx, const ws_cta **cta, ge_err *e);
} sim_cta_feed;

/* Per-CTA record of the last kernel. */
typedef struct sim_cta_stat {
    uint64_t index;      /* ws_cta.index */
    uint32_t sm;         /* SM it ran on */
    uint64_t start, end; /* kernel-relative cycles: launch, and retirement of its last warp */
    double warp_insts, thread_insts;
    /* Data-cache load sectors its warps offered to the L1, and L1 hits
     * among them; kept only with sim_options.cta_l1_stats (else 0). */
    double l1_load_sectors, l1_load_hits;
} sim_cta_stat;

/* What the hybrid estimator needs beyond the kresult, for calibration.
 * All figures cover the last simulated kernel only. */
typedef struct sim_detail {
    uint32_t sms;                 /* SMs simulated */
    uint32_t ctas_per_sm;         /* occupancy limit (common/occupancy.h) */
    const char *limiter;          /* which occupancy rule set it */
    double avg_resident_warps;    /* per simulated SM, time-averaged over the kernel */
    double issue_rate;            /* warp insts per active SM-cycle (SM with a resident CTA) */
    double unit_busy[ISA_UNIT_COUNT]; /* busy unit-cycles / (units x simulated SM-cycles), 0..1 */
    double global_load_latency;   /* SM view: load issue -> last line back, avg over global/local loads */
    double global_loads;          /* warp-level global/local loads (and atomics) completed */
    double shared_load_latency;   /* shared loads: issue -> data, incl. bank-conflict cycles */
    double shared_loads;
    double shared_conflict_cycles;  /* extra bank cycles beyond one per shared access */
    double lsu_retry_cycles;      /* cycles the LSU's access was refused by memory (MSHR/queue full) */
    double lsu_busy_stalls;       /* scheduler-cycles charged structural because the LSU was busy */
    double rf_conflict_cycles;    /* operand-read cycles lost to register-file bank conflicts */
    double mem_load_latency;      /* memory system's view of global/local loads (data cache; not atomics,
                                     constant or texture): access -> completion, avg over lines */
    double mem_load_lines;        /* the lines that average is over */
    double l1_load_sectors, l1_load_hits, l2_load_sectors, l2_load_hits;
    double dram_row_hits, dram_row_accesses;
    double dram_row_hits_w, dram_row_accesses_w; /* of them, the writes' (L2 write-backs) */
    size_t ncta;
    const sim_cta_stat *cta;      /* ncta records in launch order; valid until the next sim_kernel */
} sim_detail;

/* Create a simulator for a validated config.  Refuses a bad config or
 * option (before any simulation) with the config key or option named. */
sim_gpu *sim_create(const gpu_config *cfg, const sim_options *o, ge_err *e);
void sim_destroy(sim_gpu *g);

/* Simulate one kernel whose CTAs come from `feed`; fills *r.  The GPU's
 * clock, L2 and DRAM state carry over between kernels; L1s are invalidated. */
int sim_kernel(sim_gpu *g, const ws_kernel *k, sim_cta_feed *feed, kresult *r, ge_err *e);

/* Switch between full and sampled mode between kernels (the L2 and DRAM
 * state carries over): the next kernels run on SMs [0, active_sms) (0 =
 * all) and the memory system represents the others' traffic when
 * `background`.  SMs simulated for the first time get their state here.
 * Fails if active_sms exceeds gpu.sm_count, the memory model cannot change
 * its sampling, or that state cannot be allocated. */
int sim_set_sampling(sim_gpu *g, uint32_t active_sms, int background, ge_err *e);

/* Between kernels: warm the L2 with lines (128-byte line addresses) that
 * earlier kernels, not simulated here, would have left in it, oldest first,
 * each with its 32-byte sector mask (bit i: sector i).  See l2_preload for
 * what is never displaced.  Returns the lines now present; 0 if the memory
 * model keeps no L2 or the config's L1 line is not 128 bytes (the profile's
 * line unit). */
size_t sim_l2_preload(sim_gpu *g, const uint64_t *lines, const uint8_t *sectors, size_t n);

/* Between kernels: empty the L2 (dirty lines are forgotten, not written
 * back), as a newly created simulator's; then sim_l2_preload can warm it. */
void sim_l2_flush(sim_gpu *g);

/* Between kernels: let `cycles` core cycles pass with no kernel running, so
 * that the next kernel starts that much later against the L2, crossbar and
 * DRAM clocks and the DRAM refresh schedule (calib/hybrid.c runs a sample
 * at more than one such phase). */
void sim_idle(sim_gpu *g, uint64_t cycles);

/* Between kernels: put kernel k's code lines, as the given CTAs execute it,
 * into the L2, as a GPU that ran an earlier launch of the same code would
 * have it (sm.h, SIM_CODE_BASE).  With pc_lines (npc ascending 128-byte
 * lines of pcs), only the code in those lines.  Returns the lines now
 * present. */
size_t sim_l2_preload_code(sim_gpu *g, const ws_kernel *k, const ws_cta *const *ctas, size_t n,
                           const uint64_t *pc_lines, size_t npc);

/* Full mode over every kernel of a stream: *res gets one kresult per kernel
 * (malloc'd; the caller frees), *n their number.  Memcpy events are skipped
 * (the host side is not timed). */
int sim_run_source(sim_gpu *g, ws_source *src, kresult **res, size_t *n, ge_err *e);

/* Detail of the last sim_kernel (never NULL; zeroed before the first). */
const sim_detail *sim_last_detail(const sim_gpu *g);

/* Names of the registered warp-scheduler and divergence policies as
 * "a|b|c" into buf (for help texts and messages). */
void sim_scheduler_names(char *buf, size_t cap);
void sim_divergence_names(char *buf, size_t cap);

/* Sum of the CPI-stack categories of r (= cycles x schedulers x SMs). */
double sim_stall_total(const kresult *r);

#endif
