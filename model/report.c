/*
 * report.c - a solved kernel as the model reports it: the kresult's cycles
 * and rates, the CPI stack over every scheduler of every SM, the activity
 * counters the power model reads (the simulator's list, common/activity.h)
 * and, for calibration and tests, the model_detail.  The last step of
 * model_kernel (model.c); docs/model.md, step 8.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_int.h"

void mm_report(const gpu_config *cfg, const mm_setup *s, const mm_traffic *m, const mm_solved *v, kresult *out,
               model_detail *d)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", s->pk->name);
    memcpy(out->grid, s->pk->grid, sizeof out->grid);
    memcpy(out->block, s->pk->block, sizeof out->block);
    out->ctas = (uint64_t)llround(s->ctas);
    out->cycles = v->total;
    out->warp_insts = s->t.insts;
    out->thread_insts = s->t.lanes;
    out->l1_hit_rate = v->h1lat;
    out->l2_hit_rate = m->h2;
    out->avg_mem_latency = v->lat;
    out->occupancy = s->occ.warp_occupancy;
    double dram_peak = m->path.dram_bw * v->total * s->share;
    out->dram_bw_util = dram_peak > 0 ? m->dram_bytes / dram_peak : 0;
    out->dram_row_hit_rate = m->row_hit;

    /* CPI stack over all schedulers of all SMs */
    double sched = cfg->sm.schedulers;
    double all = v->total * sched * s->sms;
    /* SMs running the last generation (all, unless an LRR tail), and the
     * cycles SMs are busy, summed over SMs (the start-up's fall to idle:
     * nothing is fetched yet) */
    double last_sms = v->tail_sms > 0 ? v->tail_sms : s->active;
    double sm_cycles = v->tail_sms > 0 ? v->full * v->gfull.t * s->active + v->gpart.t * last_sms : v->t_sm * s->active;
    double active_cycles = sm_cycles * sched;
    double busy = active_cycles - s->t.insts;
    if (busy < 0)
        busy = 0;
    double ms = m->mp.sm_scale * (v->gfull.mem_stall * v->full * s->active + v->gpart.mem_stall * last_sms) * sched;
    double ds = m->mp.sm_scale * (v->gfull.dep_stall * v->full * s->active + v->gpart.dep_stall * last_sms) * sched;
    double st = m->mp.sm_scale * (v->gfull.pipe_stall * v->full * s->active + v->gpart.pipe_stall * last_sms);
    if (v->gfull.t > m->mp.sm_scale * v->gfull.t_int)
        st += (v->gfull.t - m->mp.sm_scale * v->gfull.t_int) * v->full * s->active;
    if (v->gpart.t > m->mp.sm_scale * v->gpart.t_int)
        st += (v->gpart.t - m->mp.sm_scale * v->gpart.t_int) * last_sms;
    st *= sched;
    double parts = ms + ds + st;
    double scale = parts > busy && parts > 0 ? busy / parts : 1;
    out->stall[KR_ISSUED] = s->t.insts;
    out->stall[KR_MEMORY] = ms * scale + (v->total - v->startup > v->t_sm ? (v->total - v->startup - v->t_sm) * sched * s->active : 0);
    out->stall[KR_DEPENDENCY] = ds * scale;
    out->stall[KR_STRUCTURAL] = st * scale;
    double used = out->stall[KR_ISSUED] + out->stall[KR_MEMORY] + out->stall[KR_DEPENDENCY] + out->stall[KR_STRUCTURAL];
    out->stall[KR_IDLE] = all > used ? all - used : 0;

    /* activity counters */
    act_counters *a = &out->act;
    a->c[ACT_CYCLES] = v->total;
    a->c[ACT_ACTIVE_SM_CYCLES] = sm_cycles + v->startup * s->active;
    a->c[ACT_WARP_INSTS] = s->t.insts;
    a->c[ACT_THREAD_INSTS] = s->t.lanes;
    a->c[ACT_IBUFFER_WRITES] = s->t.insts;
    a->c[ACT_IBUFFER_READS] = s->t.insts;
    a->c[ACT_ICACHE_HITS] = s->t.insts;
    a->c[ACT_SCHED_ISSUES] = s->t.insts;
    a->c[ACT_RF_READS] = s->t.reg_reads;
    a->c[ACT_RF_WRITES] = s->t.reg_writes;
    a->c[ACT_L1_READ_HITS] = m->load_sec * v->h1lat; /* in-flight merges count as misses, as in the simulator */
    a->c[ACT_L1_READ_MISSES] = m->load_sec * (1 - v->h1lat);
    a->c[ACT_L1_WRITE_MISSES] = m->store_sec;
    a->c[ACT_SHARED_READS] = 0;
    a->c[ACT_SHARED_WRITES] = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        if (isa_ops[op].space != ISA_SPACE_SHARED || s->t.op_warps[op] == 0)
            continue;
        double share_bank = s->pk->op_warps[op] > 0 && s->t.shared_bank > 0
                                ? s->t.shared_bank * s->t.op_warps[op] /
                                      (s->t.op_warps[ISA_OP_LD_SHARED] + s->t.op_warps[ISA_OP_ST_SHARED] +
                                       s->t.op_warps[ISA_OP_ATOM_SHARED])
                                : s->t.op_warps[op];
        /* an atomic reads and writes its words, as the simulator counts it */
        if (isa_ops[op].flags & (ISA_F_STORE | ISA_F_ATOMIC))
            a->c[ACT_SHARED_WRITES] += share_bank;
        if (!(isa_ops[op].flags & ISA_F_STORE))
            a->c[ACT_SHARED_READS] += share_bank;
    }
    a->c[ACT_CONST_HITS] = mm_sum_ops(s->t.op_lines, MM_SP(CONST), ISA_F_LOAD);
    a->c[ACT_TEX_HITS] = mm_sum_ops(s->t.op_sectors, MM_SP(TEX), ISA_F_LOAD);
    a->c[ACT_L2_READ_HITS] = m->l1_miss_sec * m->h2;
    a->c[ACT_L2_READ_MISSES] = m->l1_miss_sec * (1 - m->h2);
    a->c[ACT_L2_WRITE_HITS] = (m->store_mv + m->atom_mv) * m->H2s;
    a->c[ACT_L2_WRITE_MISSES] = (m->store_mv + m->atom_mv) * (1 - m->H2s);
    a->c[ACT_NOC_FLITS] = m->noc_flits;
    a->c[ACT_MC_REQUESTS] = m->dram_read_sec + m->dram_write_sec;
    a->c[ACT_DRAM_READS] = m->acc_r * m->bursts_r;
    a->c[ACT_DRAM_WRITES] = m->acc_w * m->bursts_w;
    a->c[ACT_DRAM_ACTIVATES] = (m->acc_r * m->bursts_r + m->acc_w * m->bursts_w) * (1 - m->row_hit);
    a->c[ACT_DRAM_PRECHARGES] = a->c[ACT_DRAM_ACTIVATES];
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        a->op_lanes[op] = s->t.op_lanes[op];
        a->op_warps[op] = s->t.op_warps[op];
        a->c[ACT_PIPE_BUSY] += s->t.op_warps[op] * cfg->lat[isa_ops[op].lat].ii;
    }

    if (d) {
        memset(d, 0, sizeof *d);
        d->ctas_per_sm = (uint32_t)s->c;
        d->warps_per_sched = (uint32_t)ceil(s->c * s->pk->warps_per_cta / sched);
        d->l1_hit = v->h1lat;
        d->l1_filter = m->h1;
        d->l2_hit = m->h2;
        d->load_latency = v->lat;
        d->dram_util = out->dram_bw_util;
        d->t_sm = v->t_sm;
        d->t_cta = v->t_cta;
        d->t_tail = v->t_tail;
        d->burst = v->burst;
        d->t_burst = v->t_burst;
        d->burst_extra = v->burst_extra;
        d->t_gens = v->t_gens;
        d->t_last = v->gpart.t;
        d->startup = v->startup;
        d->t_dram = m->t_dram;
        d->t_l2 = m->t_l2;
        d->t_noc = m->t_noc;
        d->t_interval = v->gfull.t_int;
        d->t_units = v->gfull.t_units;
        d->t_lsu = v->gfull.t_lsu;
        d->t_mshr = v->gfull.t_mshr;
        d->generations = v->gens;
        d->l1_inflight = v->inflight;
    }
}
