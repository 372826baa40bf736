/*
 * activity.h - the activity counters that connect performance to power.
 *
 * The detailed simulator (sampler/), the interval model (model/) and
 * measured hardware counters all produce an act_counters; the power model
 * (power/) reads nothing else.  This file is the one documented list.
 *
 * Conventions:
 *   - Counts are totals over the whole GPU for one kernel (or a time window
 *     of a power trace).  They are doubles because the model produces
 *     expected values.
 *   - Cache counters count sector accesses (32 B unless the cache is
 *     unsectored, then lines); DRAM counters count bursts.
 *   - op_lanes[k] counts thread-level operations of isa_op k (active lanes),
 *     op_warps[k] counts warp instructions of kind k.
 */
#ifndef GE_ACTIVITY_H
#define GE_ACTIVITY_H

#include <stdio.h>

#include "isa.h"

#define ACT_COUNTERS(X)                                                                      \
    X(CYCLES, "cycles", "elapsed core cycles")                                               \
    X(ACTIVE_SM_CYCLES, "active_sm_cycles", "sum over SMs of cycles with a resident warp")    \
    X(WARP_INSTS, "warp_insts", "warp instructions issued")                                  \
    X(THREAD_INSTS, "thread_insts", "thread instructions (active lanes of issued insts)")     \
    X(IBUFFER_WRITES, "ibuffer_writes", "instruction-buffer fills (decoded instructions)")   \
    X(IBUFFER_READS, "ibuffer_reads", "instruction-buffer reads (issue attempts granted)")   \
    X(ICACHE_HITS, "icache_hits", "instruction-cache hits")                                  \
    X(ICACHE_MISSES, "icache_misses", "instruction-cache misses")                            \
    X(SCHED_ISSUES, "sched_issues", "scheduler issue slots used")                            \
    X(RF_READS, "rf_reads", "register-file reads, warp-wide operands (32 x 4 B)")            \
    X(RF_WRITES, "rf_writes", "register-file writes, warp-wide operands")                    \
    X(RF_BANK_CONFLICTS, "rf_bank_conflicts", "operand-collector bank-conflict cycles")      \
    X(L1_READ_HITS, "l1_read_hits", "L1D read sector hits")                                  \
    X(L1_READ_MISSES, "l1_read_misses", "L1D read sector misses")                            \
    X(L1_WRITE_HITS, "l1_write_hits", "L1D write sector hits")                               \
    X(L1_WRITE_MISSES, "l1_write_misses", "L1D write sector misses")                         \
    X(SHARED_READS, "shared_reads", "shared-memory read accesses (bank cycles)")             \
    X(SHARED_WRITES, "shared_writes", "shared-memory write accesses (bank cycles)")          \
    X(CONST_HITS, "const_hits", "constant-cache hits")                                       \
    X(CONST_MISSES, "const_misses", "constant-cache misses")                                 \
    X(TEX_HITS, "tex_hits", "texture-cache hits")                                            \
    X(TEX_MISSES, "tex_misses", "texture-cache misses")                                      \
    X(L2_READ_HITS, "l2_read_hits", "L2 read sector hits")                                   \
    X(L2_READ_MISSES, "l2_read_misses", "L2 read sector misses")                             \
    X(L2_WRITE_HITS, "l2_write_hits", "L2 write sector hits")                                \
    X(L2_WRITE_MISSES, "l2_write_misses", "L2 write sector misses")                          \
    X(NOC_FLITS, "noc_flits", "interconnect flits (both directions)")                        \
    X(MC_REQUESTS, "mc_requests", "memory-controller requests")                              \
    X(DRAM_READS, "dram_reads", "DRAM read bursts")                                          \
    X(DRAM_WRITES, "dram_writes", "DRAM write bursts")                                       \
    X(DRAM_ACTIVATES, "dram_activates", "DRAM row activates")                                \
    X(DRAM_PRECHARGES, "dram_precharges", "DRAM precharges")                                 \
    X(PIPE_BUSY, "pipe_busy", "sum over SMs and cycles of busy execution-unit slots")

typedef enum {
#define X(id, name, desc) ACT_##id,
    ACT_COUNTERS(X)
#undef X
    ACT_COUNT
} act_id;

typedef struct act_counters {
    double c[ACT_COUNT];
    double op_lanes[ISA_OP_COUNT];
    double op_warps[ISA_OP_COUNT];
} act_counters;

extern const char *const act_names[ACT_COUNT];
extern const char *const act_desc[ACT_COUNT];

void act_clear(act_counters *a);
void act_add(act_counters *dst, const act_counters *src);
void act_scale(act_counters *a, double f);
/* CSV header / row (counters then op_lanes.<kind>). */
void act_csv_header(FILE *f);
void act_csv_row(const act_counters *a, FILE *f);

#endif
