/*
 * units.c - decoding op kinds and the pools of functional units.
 *
 * Decode: every isa_op maps, by the table in common/isa.h, to a unit kind
 * and a latency class; the config gives each class a latency (issue to
 * result) and an initiation interval (cycles one unit is busy per warp
 * instruction).  The simulator builds that table once (sim_dec), so the hot
 * path never looks at the config.
 *
 * Units: units.<kind> counts, per SM, pipelines that each accept one warp
 * instruction every `ii` cycles.  V100 has 16 FP32 lanes per sub-core, so a
 * warp instruction occupies one for 2 cycles: units.fp32 = 4, ii = 2 (NVIDIA
 * Tesla V100 whitepaper, 2017).  Following the sub-core organisation of
 * Volta and later (and GPGPU-Sim's sub_core_model), a kind with at least as
 * many units as schedulers is split evenly among them; a kind with fewer
 * (Fermi's 4 SFU lanes shared by 2 schedulers, say) is one pool that every
 * scheduler draws from.  The config validator ensures the split is even.
 * Operand collectors use the same pool type.
 */
#include <stdlib.h>

#include "sm.h"

void sim_decode_table(sim_gpu *g)
{
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *oi = &isa_ops[op];
        sim_dec *d = &g->dec[op];
        d->unit = (uint8_t)oi->unit;
        d->space = (uint8_t)oi->space;
        d->flags = (uint8_t)oi->flags;
        d->latency = g->cfg.lat[oi->lat].latency;
        d->ii = g->cfg.lat[oi->lat].ii;
    }
}

int sim_pool_init(sim_pool *p, uint32_t n, uint32_t nsched, ge_err *e)
{
    p->free_at = ge_calloc(n ? n : 1, sizeof *p->free_at, e);
    if (!p->free_at)
        return -1;
    for (uint32_t s = 0; s < nsched; s++) {
        if (n >= nsched) {
            p->count[s] = n / nsched;
            p->first[s] = s * p->count[s];
        } else {
            p->count[s] = n;
            p->first[s] = 0;
        }
    }
    return 0;
}

int sim_units_init(sim_gpu *g, sim_sm *sm, ge_err *e)
{
    for (int u = 0; u < ISA_UNIT_COUNT; u++)
        if (sim_pool_init(&sm->units[u], g->cfg.units[u], g->nsched, e))
            return -1;
    return sim_pool_init(&sm->coll, g->cfg.sm.operand_collectors, g->nsched, e);
}

void sim_units_free(sim_sm *sm)
{
    for (int u = 0; u < ISA_UNIT_COUNT; u++)
        free(sm->units[u].free_at);
    free(sm->coll.free_at);
}
