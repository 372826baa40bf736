/*
 * generation.c - the time of one generation of resident CTAs on an SM: the
 * representative warps' multi-warp interval time (interval.c), the
 * functional units, the LSU and the SM's crossbar port, and the L1's
 * misses in flight, with the CPI stack's share of each stall.  model.c
 * sums generations into the kernel's SM time; docs/model.md, steps 5-6.
 */
#include <math.h>
#include <string.h>

#include "model_int.h"

void mm_generation(const gpu_config *cfg, const prof_kernel *pk, model_policy pol, const model_warp_time *wt,
                   const double *wweight, uint32_t nw, const mm_totals *t, double cpsm, double load_lat,
                   double l1_miss_lines_per_warp, double port_per_warp, double inflight, double scale, mm_gen *g)
{
    memset(g, 0, sizeof *g);
    double sched = cfg->sm.schedulers;
    double n = cpsm * pk->warps_per_cta / sched; /* warps per scheduler */
    double wsum = 0;
    for (uint32_t r = 0; r < nw; r++)
        wsum += wweight[r];
    for (uint32_t r = 0; r < nw; r++) {
        double ms, ds;
        double c = model_multiwarp(&wt[r], n, n * sched, pol, &ms, &ds);
        double w = wsum > 0 ? wweight[r] / wsum : 1.0 / nw;
        /* Cycles in which the scheduler neither issues nor waits out an
         * unhidden stall: the SM's work (the memory pipeline, the other
         * warps' issues) holds it.  The simulator books a cycle by the most
         * advanced reason among the scheduler's warps (sampler/sm.c: memory,
         * then dependency, then structural), and meanwhile some warp waits
         * on a stall of its path: the cycles go to the path's memory stalls
         * if it has any, else to its dependency stalls, else to the
         * pipeline (structural). */
        double held = c - n * wt[r].insts - ms - ds;
        if (held > 0) {
            if (wt[r].stall_mem > 0)
                ms += held;
            else if (wt[r].stall_dep > 0)
                ds += held;
            else
                g->pipe_stall += w * held;
        }
        g->t_int += w * c;
        g->mem_stall += w * ms;
        g->dep_stall += w * ds;
    }
    /* functional-unit throughput per scheduler: warps per scheduler x per-warp ops x ii / units */
    double warps_total = t->warps > 0 ? t->warps : 1;
    double unit_busy[ISA_UNIT_COUNT] = {0};
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *inf = &isa_ops[op];
        if (inf->unit == ISA_UNIT_LDST)
            continue;
        unit_busy[inf->unit] += t->op_warps[op] / warps_total * cfg->lat[inf->lat].ii;
    }
    for (int u = 0; u < ISA_UNIT_COUNT; u++) {
        if (u == ISA_UNIT_LDST || unit_busy[u] == 0)
            continue;
        double units_per_sched = cfg->units[u] / sched;
        if (units_per_sched <= 0)
            units_per_sched = 1.0 / sched;
        double b = n * unit_busy[u] / units_per_sched;
        if (b > g->t_units)
            g->t_units = b;
    }
    /* LSU / L1 port: line lookups, and shared-memory bank cycles on their own
     * pipe (the simulator's SIM_RES_SHARED), per SM */
    double lines_per_warp = mm_sum_ops(t->op_lines, MM_SP(GLOBAL) | MM_SP(LOCAL) | MM_SP(CONST) | MM_SP(TEX),
                                    ISA_F_LOAD | ISA_F_STORE | ISA_F_ATOMIC) / warps_total;
    double bank_per_warp = t->shared_bank / warps_total;
    double mem_insts_per_warp = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++)
        if (isa_ops[op].unit == ISA_UNIT_LDST)
            mem_insts_per_warp += t->op_warps[op] / warps_total;
    double warps_sm = cpsm * pk->warps_per_cta;
    g->t_lsu = warps_sm * fmax(lines_per_warp / MM_LSU_LINES_PER_CYCLE, bank_per_warp);
    if (warps_sm * port_per_warp > g->t_lsu)
        g->t_lsu = warps_sm * port_per_warp;
    double ldst_ii = cfg->lat[ISA_LAT_MEM].ii * sched / (cfg->units[ISA_UNIT_LDST] ? cfg->units[ISA_UNIT_LDST] : 1);
    if (warps_sm * mem_insts_per_warp * ldst_ii / sched > g->t_lsu)
        g->t_lsu = warps_sm * mem_insts_per_warp * ldst_ii / sched;
    /* misses in flight per SM: at most `inflight` (l1_inflight) */
    g->t_mshr = warps_sm * l1_miss_lines_per_warp * load_lat / inflight;
    g->t = scale * fmax(g->t_int, fmax(g->t_units, g->t_lsu));
    if (g->t_mshr > g->t)
        g->t = g->t_mshr;
}
