#include "occupancy.h"

const char *const occ_limiter_names[5] = {"cta_slots", "warps", "threads", "registers", "shared_memory"};

/* Shared memory the system reserves per CTA on sm_80 and later, bytes. */
#define OCC_RESERVED_SMEM_SM80 1024u

static uint32_t ceil_to(uint32_t v, uint32_t unit) { return unit ? (v + unit - 1) / unit * unit : v; }
static uint32_t min_u(uint32_t a, uint32_t b) { return a < b ? a : b; }

int occ_compute(const gpu_config *cfg, const ws_kernel *k, occupancy *o, ge_err *e)
{
    uint32_t threads = ws_kernel_threads_per_cta(k);
    if (threads == 0)
        return ge_errf(e, "kernel %s: empty CTA", k->name);
    uint32_t wpc = ws_kernel_warps_per_cta(k);
    o->warps_per_cta = wpc;

    o->limit[OCC_CTAS] = cfg->sm.max_ctas;
    o->limit[OCC_WARPS] = cfg->sm.max_warps / wpc;
    o->limit[OCC_THREADS] = cfg->sm.max_threads / (wpc * 32);

    uint32_t regs = k->nregs ? k->nregs : 1;
    if (regs > cfg->sm.max_regs_per_thread)
        return ge_errf(e, "kernel %s: %u registers per thread exceed the limit %u", k->name, regs,
                       cfg->sm.max_regs_per_thread);
    uint32_t regs_per_warp = ceil_to(regs * 32, cfg->sm.reg_alloc_unit);
    o->regs_per_cta = regs_per_warp * wpc;
    o->limit[OCC_REGISTERS] = (cfg->sm.registers / regs_per_warp) / wpc;

    uint32_t smem = k->shmem_static + k->shmem_dynamic;
    if (smem > cfg->sm.shared_per_cta_bytes)
        return ge_errf(e, "kernel %s: %u bytes of shared memory per CTA exceed the limit %u", k->name, smem,
                       cfg->sm.shared_per_cta_bytes);
    uint32_t reserved = cfg->gpu.compute_capability >= 80 ? OCC_RESERVED_SMEM_SM80 : 0;
    o->smem_per_cta = smem ? ceil_to(smem + reserved, cfg->sm.shared_alloc_unit) : ceil_to(reserved, cfg->sm.shared_alloc_unit);
    o->limit[OCC_SHARED] = o->smem_per_cta ? cfg->sm.shared_bytes / o->smem_per_cta : cfg->sm.max_ctas;

    o->ctas_per_sm = cfg->sm.max_ctas;
    o->limiter = OCC_CTAS;
    for (int i = 1; i < 5; i++)
        if (o->limit[i] < o->ctas_per_sm) {
            o->ctas_per_sm = o->limit[i];
            o->limiter = (occ_limiter)i;
        }
    o->ctas_per_sm = min_u(o->ctas_per_sm, o->limit[OCC_CTAS]);
    if (o->ctas_per_sm == 0)
        return ge_errf(e, "kernel %s: one CTA (%u threads, %u regs/thread, %u B shared) does not fit on an SM (%s)",
                       k->name, threads, regs, smem, occ_limiter_names[o->limiter]);
    o->warp_occupancy = (double)(o->ctas_per_sm * wpc) / cfg->sm.max_warps;
    return 0;
}
