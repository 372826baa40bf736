/*
 * occupancy.h - how many CTAs of a kernel fit on one SM at once.
 *
 * CUDA's occupancy rules (CUDA C Programming Guide, "Occupancy Calculator"
 * section, and the CUDA_Occupancy_Calculator spreadsheet): the resident CTAs
 * per SM are the minimum over five limits --
 *   CTA slots:  sm.max_ctas
 *   warps:      floor(sm.max_warps / warps_per_cta)
 *   threads:    floor(sm.max_threads / (warps_per_cta * 32))
 *   registers:  regs per warp = ceil(regs_per_thread * 32 / reg_alloc_unit)
 *               * reg_alloc_unit; warps that fit = floor(registers /
 *               regs_per_warp); CTAs = floor(that / warps_per_cta)
 *   shared mem: per CTA = ceil((static + dynamic + reserved) /
 *               shared_alloc_unit) * shared_alloc_unit; CTAs =
 *               floor(sm.shared_bytes / that)
 * where `reserved` is the 1 KB per CTA that sm_80 and later keep for the
 * system (CUDA C Programming Guide, compute capability 8.x/9.x tables).
 * Both the simulator's CTA scheduler and the interval model use this, so
 * they agree by construction.
 */
#ifndef GE_OCCUPANCY_H
#define GE_OCCUPANCY_H

#include <stdint.h>

#include "err.h"
#include "gpu_config.h"
#include "wstream.h"

typedef enum { OCC_CTAS = 0, OCC_WARPS, OCC_THREADS, OCC_REGISTERS, OCC_SHARED } occ_limiter;

typedef struct occupancy {
    uint32_t ctas_per_sm;
    uint32_t warps_per_cta;
    occ_limiter limiter;
    uint32_t limit[5];           /* CTAs allowed by each rule, indexed by occ_limiter */
    uint32_t regs_per_cta;       /* allocated registers */
    uint32_t smem_per_cta;       /* allocated shared bytes */
    double warp_occupancy;       /* resident warps / max_warps */
} occupancy;

extern const char *const occ_limiter_names[5];

/* Fails (with a message) if a single CTA cannot fit at all. */
int occ_compute(const gpu_config *cfg, const ws_kernel *k, occupancy *o, ge_err *e);

#endif
