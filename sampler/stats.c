/*
 * stats.c - turning the simulator's counters into a kresult, a sim_detail
 * and power-trace windows.
 *
 * The SM stages count into g->act (activity.h) and g->ks as they go; the
 * memory system keeps its own counters and hands them over with collect().
 * A kernel's activity is the sum of both plus two time integrals kept
 * here: cycles, and active SM-cycles (SMs holding a CTA), integrated
 * exactly at every change of the number of active SMs.
 *
 * Power-trace windows: before simulating cycle `now` the top loop emits
 * every window [start, start + interval) that ends at or before now.
 * Activity is attributed to the cycle it happens in, and no cycle between
 * the last simulated one and now had any (that is why it was skipped), so
 * a window's activity is the difference of the running totals at its two
 * ends.  The windows of a kernel add up to its kresult.act.
 */
#include <stdio.h>
#include <string.h>

#include "sm.h"

void sim_stats_kernel_begin(sim_gpu *g)
{
    act_clear(&g->act);
    memset(&g->ks, 0, sizeof g->ks);
    g->ncta_stat = 0;
    g->nactive = 0;
    g->active_since = g->kstart;
    g->win_start = g->kstart;
    act_clear(&g->win_prev);
    g->mem->ops->reset_stats(g->mem);
}

void sim_stats_active(sim_gpu *g, uint64_t now)
{
    if (now <= g->active_since)
        return;
    g->act.c[ACT_ACTIVE_SM_CYCLES] += (double)g->nactive * (double)(now - g->active_since);
    g->active_since = now;
}

/* Running totals at cycle t (SM side + memory side). */
static void totals(sim_gpu *g, uint64_t t, act_counters *a)
{
    sim_stats_active(g, t);
    *a = g->act;
    sim_mem_stats ms;
    memset(&ms, 0, sizeof ms);
    g->mem->ops->collect(g->mem, a, &ms);
    a->c[ACT_CYCLES] = (double)(t - g->kstart);
}

int sim_stats_windows(sim_gpu *g, uint64_t now, int final, ge_err *e)
{
    uint64_t iv = g->opt.interval_cycles;
    if (!iv || !g->opt.on_interval)
        return 0;
    while (g->win_start + iv <= now || (final && g->win_start < now)) {
        uint64_t end = g->win_start + iv <= now ? g->win_start + iv : now;
        act_counters cur, win;
        totals(g, end, &cur);
        win = cur;
        act_counters neg = g->win_prev;
        act_scale(&neg, -1.0);
        act_add(&win, &neg);
        if (g->opt.on_interval(g->opt.ctx, g->k, g->win_start - g->kstart, end - g->win_start, &win))
            return ge_errf(e, "kernel %s: interval callback failed at cycle %llu", g->k->name,
                           (unsigned long long)(g->win_start - g->kstart));
        g->win_prev = cur;
        g->win_start = end;
    }
    return 0;
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

void sim_stats_kernel_end(sim_gpu *g, uint64_t end, kresult *r)
{
    const ws_kernel *k = g->k;
    double cycles = (double)(end - g->kstart);
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", k->name ? k->name : "");
    memcpy(r->grid, k->grid, sizeof r->grid);
    memcpy(r->block, k->block, sizeof r->block);
    r->ctas = g->ncta_stat;
    r->cycles = cycles;
    totals(g, end, &r->act);
    r->warp_insts = r->act.c[ACT_WARP_INSTS];
    r->thread_insts = r->act.c[ACT_THREAD_INSTS];
    memcpy(r->stall, g->ks.stall, sizeof r->stall);

    sim_mem_stats ms;
    act_counters scratch;
    memset(&ms, 0, sizeof ms);
    act_clear(&scratch);
    g->mem->ops->collect(g->mem, &scratch, &ms);
    r->l1_hit_rate = ratio(ms.l1_load_hits, ms.l1_load_sectors);
    r->l2_hit_rate = ratio(ms.l2_load_hits, ms.l2_load_sectors);
    r->dram_row_hit_rate = ratio(ms.dram_row_hits, ms.dram_row_accesses);
    r->dram_bw_util = ratio(ms.dram_busy_cycles, ms.dram_cycles);
    r->avg_mem_latency = ratio(g->ks.gload_lat, g->ks.gloads);
    double sm_cycles = cycles * g->nsms;
    r->occupancy = ratio(g->ks.warp_cycles, sm_cycles * g->cfg.sm.max_warps);

    sim_detail *d = &g->detail;
    memset(d, 0, sizeof *d);
    d->sms = g->nsms;
    d->ctas_per_sm = g->occ.ctas_per_sm;
    d->limiter = occ_limiter_names[g->occ.limiter];
    d->avg_resident_warps = ratio(g->ks.warp_cycles, sm_cycles);
    d->issue_rate = ratio(r->warp_insts, r->act.c[ACT_ACTIVE_SM_CYCLES]);
    for (int u = 0; u < ISA_UNIT_COUNT; u++)
        d->unit_busy[u] = ratio(g->ks.unit_busy[u], sm_cycles * g->cfg.units[u]);
    d->global_load_latency = r->avg_mem_latency;
    d->global_loads = g->ks.gloads;
    d->shared_load_latency = ratio(g->ks.sload_lat, g->ks.sloads);
    d->shared_loads = g->ks.sloads;
    d->shared_conflict_cycles = g->ks.shared_conflicts;
    d->lsu_retry_cycles = g->ks.lsu_retry;
    d->lsu_busy_stalls = g->ks.lsu_busy;
    d->rf_conflict_cycles = g->ks.rf_conflicts;
    d->mem_load_latency = ratio(ms.load_latency_sum, ms.load_count);
    d->mem_load_lines = ms.load_count;
    d->l1_load_sectors = ms.l1_load_sectors;
    d->l1_load_hits = ms.l1_load_hits;
    d->l2_load_sectors = ms.l2_load_sectors;
    d->l2_load_hits = ms.l2_load_hits;
    d->dram_row_hits = ms.dram_row_hits;
    d->dram_row_accesses = ms.dram_row_accesses;
    d->dram_row_hits_w = ms.dram_row_hits_w;
    d->dram_row_accesses_w = ms.dram_row_accesses_w;
    d->ncta = g->ncta_stat;
    d->cta = g->cta_stat;
}

double sim_stall_total(const kresult *r)
{
    double t = 0;
    for (int i = 0; i < KR_STALL_COUNT; i++)
        t += r->stall[i];
    return t;
}
