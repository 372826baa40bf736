/*
 * wstats.h - per-kernel statistics of a warp stream (what `gpuest stats`
 * prints).  Any ws_source can be measured, so the SASS-trace and PTX
 * front-ends report identical numbers for identical streams.
 *
 * Definitions (per kernel, and for the total over all kernels):
 *   warp_insts        warp instructions in the stream, whatever their mask;
 *   thread_insts      sum over warp instructions of the active lanes;
 *   simd_efficiency   thread_insts / (32 * warp_insts);
 *   op[kind]          warp instructions per isa_op kind;
 *   mem_requests      warp instructions of a global or local kind (loads,
 *                     stores, atomics) that carry addresses and have at
 *                     least one active lane.  Shared, constant and texture
 *                     accesses are not requests here; shared ones are
 *                     counted in shared_requests;
 *   mem_sectors, mem_lines   32-byte sectors and 128-byte lines those
 *                     requests touch after coalescing (common/coalesce.h,
 *                     each lane reading `size` bytes), summed over requests;
 *   lines_touched     distinct 128-byte lines touched by the requests (for
 *                     the total: distinct over all kernels).
 */
#ifndef GE_WSTATS_H
#define GE_WSTATS_H

#include <stdint.h>

#include "err.h"
#include "isa.h"
#include "progress.h"
#include "u64set.h"
#include "wstream.h"

#define WSTATS_LINE_BYTES 128
#define WSTATS_SECTOR_BYTES 32

typedef struct wstats_kernel {
    char *name;      /* owned copy; "total" for the total */
    uint32_t id;
    uint32_t grid[3], block[3];
    uint64_t ctas;
    uint64_t warp_insts, thread_insts;
    uint64_t op[ISA_OP_COUNT];
    uint64_t mem_requests, mem_sectors, mem_lines;
    uint64_t shared_requests;
    uint64_t lines_touched;
} wstats_kernel;

typedef struct wstats {
    wstats_kernel *kernels;
    size_t nkernels, cap;
    wstats_kernel total; /* grid, block and id are 0 */
    u64set klines, alllines;
    int open;            /* a kernel is being measured */
} wstats;

void wstats_init(wstats *s);
void wstats_free(wstats *s);

/* Start measuring kernel k (ends the previous one). */
int wstats_begin_kernel(wstats *s, const ws_kernel *k, ge_err *e);
/* Add one CTA of the current kernel. */
int wstats_add_cta(wstats *s, const ws_cta *c, ge_err *e);
/* Finish the current kernel (if any); totals are complete afterwards. */
void wstats_end_kernel(wstats *s);

/* Measure a whole stream.  p (may be NULL) shows CTAs done per kernel. */
int wstats_run(wstats *s, ws_source *src, progress *p, ge_err *e);

/* Ratios; 0 when the denominator is 0. */
double wstats_simd_efficiency(const wstats_kernel *k);
double wstats_sectors_per_request(const wstats_kernel *k);
double wstats_lines_per_request(const wstats_kernel *k);

#endif
