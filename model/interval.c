/*
 * interval.c - single-warp replay and the multi-warp interval formula.
 *
 * Replay: a warp's profiled instruction record is issued in order, one per
 * cycle at best; an instruction waits until every producer it depends on
 * (profile dep[] distances) has its result, using the design's latencies.
 * Whenever it has to wait, an interval ends: "i issues, then s stall cycles",
 * and the stall is charged to memory if the producer that released it is a
 * load, else to an ALU dependency.  This is the interval profile of GPUMech
 * (Huang et al., MICRO 2014, section 4), computed per design because the
 * latencies change with it.
 *
 * Multi-warp: N warps in one scheduler issue in turn.  In an interval each
 * issues i instructions (N*i cycles of issue), and a warp's stall of s
 * cycles is hidden by the others' issue; the interval costs
 * max(N*i, i + s).  Summed over intervals this is exact for N = 1 and tends
 * to the issue bound N*I for large N, the two limits GPUMech's round-robin
 * model interpolates.
 * The SM's W warps share its memory pipelines (the LSU: one line lookup per
 * cycle; shared memory: one bank cycle per cycle, a pipe of its own as in
 * the simulator), so an interval can never take less than W*m cycles, m =
 * the larger of the interval's two sums per warp.  The policies differ in
 * how the warps line up:
 *   LRR        keeps warps in lockstep, so all W warps send the interval's
 *              memory requests together; the last warp's data comes back
 *              (W-1)*m cycles after the first: max(N*i, W*m, i + s + (W-1)*m)
 *              for a stall on a memory-pipeline result.  This burst effect
 *              is GPUMech's reason for modelling RR and GTO separately
 *              (Huang et al., section 5).
 *   GTO        runs one warp until it stalls, which staggers the warps by an
 *              issue run; requests are spread and max(N*i, W*m, i + s) holds.
 *   two-level  only an active set of A warps per scheduler issues
 *              (MODEL_TWO_LEVEL_ACTIVE); a warp waiting on memory is swapped
 *              out, so memory stalls are hidden by all N warps with bursts
 *              only among the active ones, but short dependency stalls only
 *              by the A active warps: N/A rounds of max(A*i, i + s).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

model_policy model_policy_of(const char *s)
{
    if (s && strcmp(s, "gto") == 0)
        return MODEL_GTO;
    if (s && strcmp(s, "two_level") == 0)
        return MODEL_TWO_LEVEL;
    return MODEL_LRR;
}

void model_warp_time_free(model_warp_time *t)
{
    free(t->issue);
    free(t->stall);
    free(t->lsu);
    free(t->lsu_wait);
    free(t->mem);
    memset(t, 0, sizeof *t);
}

static int is_load(const isa_op_info *inf)
{
    return (inf->flags & (ISA_F_LOAD | ISA_F_ATOMIC)) != 0;
}

static double inst_latency(const prof_inst *pi, const model_lat *lat)
{
    const isa_op_info *inf = &isa_ops[pi->op];
    switch (inf->space) {
    case ISA_SPACE_GLOBAL:
    case ISA_SPACE_LOCAL:
    case ISA_SPACE_TEX:
        if (inf->flags & ISA_F_ATOMIC)
            return lat->atomic + (pi->lines > 1 ? pi->lines - 1 : 0);
        if (inf->flags & ISA_F_LOAD)
            return lat->load + (pi->lines > 1 ? pi->lines - 1 : 0);
        return lat->alu[ISA_LAT_MEM];
    case ISA_SPACE_SHARED:
        return lat->shared + (pi->conflict > 1 ? (pi->conflict - 1) * lat->shared_ii : 0);
    case ISA_SPACE_CONST:
        return lat->constant;
    default:
        return lat->alu[inf->lat];
    }
}

/* Cycles the SM's memory pipeline is busy with one instruction: one L1
 * lookup per line (or one per shared-memory bank cycle), or the SM's NoC
 * port moving the sectors that go below the L1 (missed loads, stores,
 * atomics), whichever is longer. */
static double lsu_cycles(const prof_inst *pi, const model_lat *lat)
{
    const isa_op_info *inf = &isa_ops[pi->op];
    if (inf->space == ISA_SPACE_SHARED)
        return pi->conflict ? pi->conflict : 1;
    if (inf->space == ISA_SPACE_NONE)
        return 0;
    double lookups = pi->lines ? pi->lines : 1;
    double below = inf->flags & ISA_F_LOAD ? lat->l1_miss : 1.0;
    if (inf->space == ISA_SPACE_CONST)
        below = 0;
    double port = pi->sectors * below * lat->noc_per_sector;
    return port > lookups ? port : lookups;
}

/* Per-instruction flags of a replay plan. */
enum {
    REPLAY_F_MEM = 1,  /* a global/local/texture load or atomic: a wait on it is a memory stall */
    REPLAY_F_PIPE = 2, /* uses the memory pipeline */
    REPLAY_F_SHARED = 4, /* its pipeline cycles are shared-memory bank cycles */
};

void model_replay_plan_free(model_replay_plan *p)
{
    free(p->step);
    free(p->done);
    free(p->iss);
    memset(p, 0, sizeof *p);
}

int model_replay_plan_init(model_replay_plan *p, const prof_warp *w, const model_lat *lat, ge_err *e)
{
    memset(p, 0, sizeof *p);
    uint32_t n = w->ninst ? w->ninst : 1;
    p->w = w;
    p->step = malloc(n * sizeof *p->step);
    p->done = malloc(n * sizeof *p->done);
    p->iss = malloc(n * sizeof *p->iss);
    if (!p->step || !p->done || !p->iss) {
        model_replay_plan_free(p);
        return ge_errf(e, "out of memory (warp replay)");
    }
    /* inst_latency with the load and atomic latencies left out (their
     * part is the same sum, so run's results are model_replay's exactly) */
    model_lat zero = *lat;
    zero.load = zero.atomic = 0;
    for (uint32_t j = 0; j < w->ninst; j++) {
        const prof_inst *pi = &w->inst[j];
        const isa_op_info *inf = &isa_ops[pi->op];
        model_replay_step *st = &p->step[j];
        memset(st, 0, sizeof *st);
        int global = inf->space == ISA_SPACE_GLOBAL || inf->space == ISA_SPACE_LOCAL || inf->space == ISA_SPACE_TEX;
        if (global && (inf->flags & ISA_F_ATOMIC))
            st->lat = 2;
        else if (global && (inf->flags & ISA_F_LOAD))
            st->lat = 1;
        st->lines = pi->lines > 1 ? pi->lines : 1;
        if (st->lat)
            st->fixed = pi->lines > 1 ? pi->lines - 1 : 0;
        else
            st->fixed = inst_latency(pi, &zero);
        if (is_load(inf) && inf->space != ISA_SPACE_SHARED && inf->space != ISA_SPACE_CONST)
            st->flags |= REPLAY_F_MEM;
        if (inf->space != ISA_SPACE_NONE)
            st->flags |= REPLAY_F_PIPE;
        if (inf->space == ISA_SPACE_SHARED)
            st->flags |= REPLAY_F_SHARED;
        st->lsu = lsu_cycles(pi, lat);
        /* the producers inside the warp, in the profile's order */
        int nd = 0;
        for (int k = 0; k < PROF_MAX_DEPS; k++)
            if (pi->dep[k] && pi->dep[k] <= j)
                st->dep[nd++] = pi->dep[k];
    }
    return 0;
}

/* The expected latency of the slowest of n lines, each an L1 hit with
 * probability h (latency hit_lat) or a miss (latency miss). */
static double slowest(double n, double h, double hit_lat, double miss)
{
    double all_hit = h > 0 ? pow(h, n) : 0;
    return all_hit * hit_lat + (1 - all_hit) * miss;
}

int model_replay_run(model_replay_plan *p, const model_load_mix *load, double atomic_lat, model_warp_time *t,
                     ge_err *e)
{
    memset(t, 0, sizeof *t);
    uint32_t n = p->w->ninst;
    t->issue = malloc((n + 1) * sizeof *t->issue);
    t->stall = malloc((n + 1) * sizeof *t->stall);
    t->mem = malloc(n + 1);
    t->lsu = malloc((n + 1) * sizeof *t->lsu);
    t->lsu_wait = malloc(n + 1);
    if (!t->issue || !t->stall || !t->mem || !t->lsu || !t->lsu_wait) {
        model_warp_time_free(t);
        return ge_errf(e, "out of memory (warp replay)");
    }
    double *done = p->done, *iss = p->iss;
    const model_replay_step *step = p->step;
    double h = load->hit > 0 && load->hit < 1 ? load->hit : 0;
    double miss = h > 0 ? (load->mean - h * load->hit_lat) / (1 - h) : load->mean;
    if (miss < load->hit_lat) /* (a mean below the hit latency: no spread to model) */
        h = 0, miss = load->mean;
    double prev = -1, run = 0, lsu = 0, bank = 0; /* the interval's line lookups; shared bank cycles */
    for (uint32_t j = 0; j < n; j++) {
        const model_replay_step *st = &step[j];
        double ready = prev + 1;
        int by_mem = 0, by_pipe = 0;
        /* the loads it waits on, together: the slowest of all their lines */
        double lines = 0, sent = 0;
        for (int k = 0; k < PROF_MAX_DEPS && st->dep[k]; k++) {
            uint32_t q = j - st->dep[k];
            if (step[q].lat == 1 && done[q] > ready) {
                lines += step[q].lines;
                sent = fmax(sent, iss[q] + step[q].fixed);
            }
        }
        if (lines > 0) {
            double r = sent + slowest(lines, h, load->hit_lat, miss);
            if (r > ready)
                ready = r, by_mem = by_pipe = 1;
        }
        for (int k = 0; k < PROF_MAX_DEPS && st->dep[k]; k++) {
            uint32_t q = j - st->dep[k];
            if (done[q] > ready) {
                ready = done[q];
                by_mem = (step[q].flags & REPLAY_F_MEM) != 0;
                by_pipe = (step[q].flags & REPLAY_F_PIPE) != 0;
            } else if (done[q] == ready) {
                by_mem |= (step[q].flags & REPLAY_F_MEM) != 0;
                by_pipe |= (step[q].flags & REPLAY_F_PIPE) != 0;
            }
        }
        double s = ready - (prev + 1);
        if (s > 0) {
            t->issue[t->nint] = run;
            t->stall[t->nint] = s;
            t->mem[t->nint] = (uint8_t)by_mem;
            t->lsu_wait[t->nint] = (uint8_t)(by_mem | by_pipe);
            t->lsu[t->nint] = fmax(lsu, bank);
            t->nint++;
            if (by_mem)
                t->stall_mem += s;
            else
                t->stall_dep += s;
            run = 0;
            lsu = bank = 0;
        }
        run += 1;
        if (st->flags & REPLAY_F_SHARED)
            bank += st->lsu;
        else
            lsu += st->lsu;
        iss[j] = ready;
        done[j] = ready + st->fixed +
                  (st->lat == 1 ? slowest(st->lines, h, load->hit_lat, miss) : st->lat == 2 ? atomic_lat : 0);
        prev = ready;
    }
    t->issue[t->nint] = run;
    t->stall[t->nint] = 0;
    t->mem[t->nint] = 0;
    t->lsu_wait[t->nint] = 0;
    t->lsu[t->nint] = fmax(lsu, bank);
    t->nint++;
    t->insts = n;
    t->cycles = prev + 1;
    return 0;
}

int model_replay(const prof_warp *w, const model_lat *lat, model_warp_time *t, ge_err *e)
{
    model_replay_plan p;
    if (model_replay_plan_init(&p, w, lat, e))
        return -1;
    model_load_mix mix = {lat->load, 0, 0};
    int rc = model_replay_run(&p, &mix, lat->atomic, t, e);
    model_replay_plan_free(&p);
    return rc;
}

/* One interval's two costs for n warps per scheduler (sm_warps on the SM):
 * the SM's work in it -- every warp's issues, or the memory pipeline's
 * cycles, whichever is longer -- and one warp's own path through it, its
 * issues and its stall.  LRR's warps reach a stall on the memory pipeline in
 * lock step, so the other warps' pipeline work of the interval comes first
 * (the burst, (sm_warps - 1) x lsu); two-level bursts only among its
 * active set and hides a dependency stall only with that set. */
static void interval_costs(const model_warp_time *t, uint32_t j, double n, double sm_warps, model_policy pol,
                           double *busy, double *alone)
{
    double a = n < MODEL_TWO_LEVEL_ACTIVE ? n : MODEL_TWO_LEVEL_ACTIVE;
    double a_sm = sm_warps * a / n; /* active warps on the SM under two-level */
    double i = t->issue[j];
    *busy = n * i;
    if (sm_warps * t->lsu[j] > *busy)
        *busy = sm_warps * t->lsu[j];
    *alone = i + t->stall[j];
    if (t->lsu_wait[j] && pol == MODEL_LRR)
        *alone += (sm_warps - 1) * t->lsu[j];
    else if (t->lsu_wait[j] && pol == MODEL_TWO_LEVEL)
        *alone += (a_sm - 1) * t->lsu[j];
    if (!t->mem[j] && pol == MODEL_TWO_LEVEL)
        *alone *= n / a;
}

double model_multiwarp(const model_warp_time *t, double n, double sm_warps, model_policy pol, double *mem_stall,
                       double *dep_stall)
{
    double cyc = 0, ms = 0, ds = 0;
    if (n < 1)
        n = 1;
    if (sm_warps < n)
        sm_warps = n;
    /* The first interval: the warps start it together, so its stall is
     * hidden only by the other warps' work in the same interval. */
    uint32_t j = 0;
    if (t->nint > 0) {
        double busy, alone;
        interval_costs(t, 0, n, sm_warps, pol, &busy, &alone);
        if (alone > busy) {
            cyc = alone;
            if (t->mem[0])
                ms = alone - busy;
            else
                ds = alone - busy;
        } else {
            cyc = busy;
        }
        j = 1;
    }
    /* After it the warps drift apart (their loads meet different latencies,
     * CTAs start at different times), and a warp's stall overlaps the other
     * warps' work in any interval, not only in its own: the rest costs the
     * larger of the SM's work summed over the intervals and one warp's path
     * summed over them.  What the path adds over the work is unhidden
     * stall, shared between memory and dependency stalls as the path's own
     * excess over its issues is. */
    double work = 0, path = 0, over_mem = 0, over_dep = 0;
    for (; j < t->nint; j++) {
        double busy, alone;
        interval_costs(t, j, n, sm_warps, pol, &busy, &alone);
        work += busy;
        path += alone;
        if (t->mem[j])
            over_mem += alone - t->issue[j];
        else
            over_dep += alone - t->issue[j];
    }
    if (path > work) {
        cyc += path;
        double over = over_mem + over_dep;
        double m = over > 0 ? (path - work) * over_mem / over : 0;
        ms += m;
        ds += path - work - m;
    } else {
        cyc += work;
    }
    if (mem_stall)
        *mem_stall = ms;
    if (dep_stall)
        *dep_stall = ds;
    return cyc;
}

double model_md1_wait(double rho)
{
    /* Pollaczek-Khinchine for deterministic service: Wq = rho / (2 (1 - rho)) service times. */
    if (rho <= 0)
        return 0;
    if (rho >= 0.98)
        rho = 0.98;
    return rho / (2.0 * (1.0 - rho));
}
