/*
 * kresult.h - the result of one kernel, however it was obtained.
 *
 * The detailed simulator (sampler/), the interval model and the hybrid
 * estimator (model/, calib/) all fill a kresult; the CLI prints it (table,
 * JSON, CSV) and the power model reads its activity counters.  Keeping one
 * struct is what makes "the same activity counts give the same power"
 * true by construction.
 *
 * CPI stack: every scheduler-cycle of the kernel is given to exactly one
 * category (so the categories sum to cycles x schedulers x SMs):
 *   issued      - the scheduler issued an instruction;
 *   dependency  - best warp waits on a register written by a non-memory op;
 *   memory      - best warp waits on a load (or the memory pipeline result);
 *   structural  - best warp is ready but its unit / LSU / MSHR / port is busy;
 *   sync        - best warp waits at a barrier or fence;
 *   idle        - no warp is resident, or none has a fetched instruction.
 * "Best warp" is the warp the policy would have picked, i.e. the stall is
 * charged to the most advanced reason in the order memory > dependency >
 * structural > sync > idle.
 */
#ifndef GE_KRESULT_H
#define GE_KRESULT_H

#include <stdint.h>

#include "activity.h"

#define KR_STALLS(X)                                          \
    X(ISSUED, "issued", "an instruction was issued")          \
    X(DEPENDENCY, "dependency", "waiting on an ALU result")   \
    X(MEMORY, "memory", "waiting on a memory result")         \
    X(STRUCTURAL, "structural", "unit, LSU or MSHR busy")     \
    X(SYNC, "sync", "barrier or fence")                       \
    X(IDLE, "idle", "no warp, or no instruction fetched")

typedef enum {
#define X(id, name, desc) KR_##id,
    KR_STALLS(X)
#undef X
    KR_STALL_COUNT
} kr_stall;

extern const char *const kr_stall_names[KR_STALL_COUNT];

typedef struct kresult {
    char name[256];
    uint32_t grid[3], block[3];
    uint64_t ctas;
    double cycles;          /* core cycles */
    double warp_insts, thread_insts;
    double stall[KR_STALL_COUNT]; /* scheduler-cycles per category (see above) */
    double l1_hit_rate, l2_hit_rate;     /* sector hit rates of loads, 0..1 */
    double dram_row_hit_rate;            /* 0..1 */
    double dram_bw_util;                 /* achieved / peak DRAM bandwidth, 0..1 */
    double avg_mem_latency;              /* cycles, global loads issue -> data */
    double occupancy;                    /* resident warps / max warps, averaged */
    act_counters act;
    /* Estimates only: */
    double error_estimate;  /* relative (0.03 = 3%), 0 if exact/unknown */
    uint64_t sampled_ctas;
} kresult;

static inline double kr_ipc(const kresult *r) { return r->cycles > 0 ? r->warp_insts / r->cycles : 0; }

#endif
