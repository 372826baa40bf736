/*
 * model.c - assembles the interval model for one kernel (see model.h for
 * the method): occupancy -> memory traffic, hit rates, latencies and the
 * GPU-wide bounds (traffic.c) -> start-up -> representative-warp intervals
 * -> per-generation SM time with throughput bounds (generation.c) -> kernel
 * time with the bounds and DRAM queueing, to a fixed point -> kresult
 * (cycles, CPI stack, activity counters; report.c).
 */
#include <math.h>
#include <string.h>

#include "model_int.h"
#include "occupancy.h"

#define MODEL_FIXPOINT_ITERS 8
/* The fixed point re-replays the representative warps only when the load or
 * atomic latency moved by more than this fraction since their last replay:
 * a warp's stalls scale with the latency, so the cycles move by less than
 * that, and a sample's scenario (little DRAM queueing) otherwise replays
 * every iteration for hundredths of a cycle. */
#define MODEL_REPLAY_REL_TOL 1e-3

void model_params_default(model_params *p)
{
    p->latency_scale = 1.0;
    p->sm_scale = 1.0;
    p->early_extra = 0;
    p->cta_spread = -1; /* < 0: not measured (model.c: LRR's tail only where a memory bound holds) */
    p->sampled_runs = 0;
    p->overlap = 6.0;
    p->dram_efficiency = 0; /* 0: from the DRAM timing and row locality (mm_dram_efficiency) */
    p->row_hit = -1;        /* < 0: estimated from coalescing */
    p->row_hit_w = -1;      /* < 0: as row_hit */
    p->l1_hit = -1;
    p->l1_filter = -1;
    p->l2_hit = -1;
    p->load_latency = -1;
}

/* The cache interleaving a policy produces: GTO's greedy runs; LRR and the
 * round-robin active set of two-level interleave instruction by instruction. */
static int interleave_of(model_policy pol) { return pol == MODEL_GTO ? PROF_IL_GTO : PROF_IL_LRR; }

/* The kernel's totals for the scenario's CTAs (scaled by their count, or by
 * the mean size of a cluster mix). */
static void scenario_totals(const prof_kernel *pk, const model_scenario *sc, double ctas, mm_totals *t)
{
    memset(t, 0, sizeof *t);
    double f = pk->nctas ? ctas / pk->nctas : 0;
    /* With a cluster mix, scale instruction volume by the mix's mean CTA size. */
    if (sc && sc->cluster_ctas && pk->nclusters) {
        double mix = 0, base = 0;
        for (uint32_t c = 0; c < pk->nclusters; c++) {
            mix += sc->cluster_ctas[c] * pk->clusters[c].mean[PROF_SIG_WARP_INSTS];
            base += pk->clusters[c].weight * pk->clusters[c].mean[PROF_SIG_WARP_INSTS];
        }
        if (base > 0)
            f = mix / base;
    }
    t->warps = ctas * pk->warps_per_cta;
    t->insts = pk->warp_insts * f;
    t->lanes = pk->thread_insts * f;
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        t->op_warps[i] = pk->op_warps[i] * f;
        t->op_lanes[i] = pk->op_lanes[i] * f;
        t->op_lines[i] = pk->op_lines[i] * f;
        t->op_sectors[i] = pk->op_sectors[i] * f;
    }
    t->shared_bank = pk->shared_bank_cycles * f;
    t->reg_reads = pk->reg_reads * f;
    t->reg_writes = pk->reg_writes * f;
}

/* Misses an SM's L1 can have in flight: its MSHR entries, and for an L1
 * that allocates on miss, the lines it can hold pending before one set has
 * all its ways pending -- the next miss to that set then blocks the
 * in-order LSU.  That is the expected number of lines, placed uniformly
 * over S sets of W ways, until some set would get W + 1 (balls into bins:
 * P(no set over W after m lines) ~ P(Poisson(m/S) <= W)^S, summed over m).
 * The simulator on GTX 480's vectoradd: 8 KB as 16 sets x 4 ways runs 31%
 * slower than as 8 x 8 or as 16 KB in 32 x 4 (30.9 lines here against
 * 42.4 and 50.7), and 64 x 1 four times slower (11.2). */
static double l1_inflight(const gpu_config *cfg)
{
    double mshr = cfg->l1d.mshr_entries ? cfg->l1d.mshr_entries : 1;
    const gcfg_cache *l1 = &cfg->l1d;
    if (!l1->size_bytes || !l1->sets || !l1->ways || strcmp(l1->allocate, "on_miss") != 0)
        return mshr;
    /* the last geometry's answer (a sweep's threads each keep their own) */
    static _Thread_local uint32_t memo_sets, memo_ways, memo_mshr;
    static _Thread_local double memo;
    if (memo_sets == l1->sets && memo_ways == l1->ways && memo_mshr == l1->mshr_entries)
        return memo;
    double S = l1->sets, sum = 0;
    for (uint32_t m = 0; m <= l1->sets * l1->ways && sum < mshr; m++) {
        double lam = m / S, term = 1, cdf = 0;
        for (uint32_t j = 0; j <= l1->ways; j++) {
            cdf += term;
            term *= lam / (j + 1);
        }
        sum += exp(S * (log(cdf) - lam));
    }
    memo_sets = l1->sets, memo_ways = l1->ways, memo_mshr = l1->mshr_entries;
    memo = sum < mshr ? (sum > 1 ? sum : 1) : mshr;
    return memo;
}

/* The p-norm overlap of an SM time with a share of the memory bounds. */
static double overlap(double pw, double t_sm, double share, double t_dram, double t_l2, double t_noc)
{
    return pow(pow(t_sm, pw) + pow(share * t_dram, pw) + pow(share * t_l2, pw) + pow(share * t_noc, pw), 1.0 / pw);
}

/* An SM time in two phases, each overlapping its own share of the memory
 * bounds: the full waves (t_first, a share f of the kernel's CTAs) and the
 * last generation after them (t_last, the rest). */
static double two_phases(double pw, double t_first, double f, double t_last, const mm_traffic *m)
{
    return overlap(pw, t_first, f, m->t_dram, m->t_l2, m->t_noc) + overlap(pw, t_last, 1 - f, m->t_dram, m->t_l2, m->t_noc);
}

/* The first generation's CTAs start together and issue their prologue
 * loads (a share `burst` of the memory traffic) at once: when serving them
 * takes longer than a load's latency (t_burst > lat), the SMs wait that
 * long instead of overlapping it with their work (the latency is already
 * in t_sm); the rest of the memory traffic overlaps the rest of the SM
 * time.  The cycles this adds to `total` (0 if none). */
static double launch_burst(double pw, double startup, double t_burst, double burst, double lat, double t_sm,
                           double total, double t_dram, double t_l2, double t_noc)
{
    if (!(t_burst > lat && t_sm > lat))
        return 0;
    double b = startup + t_burst + overlap(pw, t_sm - lat, 1 - burst, t_dram, t_l2, t_noc);
    return fmax(0, b - total);
}

double model_resident_ctas(const gpu_config *cfg, const profile *p, uint32_t k)
{
    ws_kernel wk;
    prof_kernel_ws(p, &p->k[k], &wk);
    occupancy occ;
    if (occ_compute(cfg, &wk, &occ, NULL))
        return 0;
    return (double)occ.ctas_per_sm * cfg->gpu.sm_count;
}

double model_l1_dealing_shift(const gpu_config *cfg, const char *scheduler, const profile *p, uint32_t k,
                              double ctas_per_sm)
{
    return mm_l1_dealing_shift(&p->k[k], cfg, ctas_per_sm, interleave_of(model_policy_of(scheduler)));
}

/* The cycles before the first instruction issues on the last SM: the cold
 * I-cache's misses, and *code_reply, how far apart the SMs start. */
static double startup_cycles(const gpu_config *cfg, const profile *p, uint32_t k, const mm_setup *s,
                             const mm_traffic *m, double *code_reply)
{
    /* Start-up: the I-caches are cold at every kernel launch and fetch has
     * no prefetcher, so each executed code line costs a miss on the critical
     * path; the first kernel finds its code in DRAM, later ones in the L2
     * (the simulator keeps code lines in L2 across kernels).  The profile
     * counts 128-byte lines of the stream's pcs; the I-cache holds this
     * GPU's instruction size in its own line size (gcfg_code_scale), so a
     * Fermi-class GPU (8-byte instructions) fetches half the lines of a
     * PTX stream (16 bytes per instruction). */
    uint32_t code_num, code_den;
    gcfg_code_scale(cfg, s->pk->binary_version, &code_num, &code_den);
    double l1i_line = cfg->l1i.line_bytes ? cfg->l1i.line_bytes : 128;
    /* (code starts at a line boundary, so a partly used last line counts) */
    double code_lines = ceil(s->pk->code_lines * 128.0 * code_num / code_den / l1i_line - 1e-9);
    /* Code an earlier kernel of the stream executed is in the L2 (the
     * simulator keeps code lines there across launches) unless the data
     * accessed since its last fetch pushed it out (its age at the previous
     * kernel's concurrency, prof_inherit.c); a kernel's own new code comes
     * from DRAM (the first launch of each kernel function). */
    double l2_lines = (double)cfg->l2.cache.size_bytes * cfg->l2.slices / 128.0;
    double held = k > 0 ? prof_code_held(s->pk, l2_lines, model_resident_ctas(cfg, p, k - 1), NULL) : 0;
    double warm = s->pk->code_lines > 0 ? fmin(1, held / s->pk->code_lines) : 0;
    double startup = code_lines * (warm * m->path.l2 + (1 - warm) * m->path.dram);
    /* At launch every active SM misses on the kernel's first code line in
     * the same cycle, and the one slice that holds it answers them in turn:
     * a reply takes its port mm_pkt_flits(line) flits and its data port the
     * line's sectors over l2.banks, so the last SM starts (active - 1)
     * replies after the first.  The SMs then stay that far apart, and each
     * later line finds its slice free (the simulator on V100: the 80 SMs
     * receive every code line of scan_add 4 cycles apart, 316 cycles from
     * the first to the last). */
    double F = cfg->noc.flit_bytes, l2_banks = cfg->l2.cache.banks ? cfg->l2.cache.banks : 1;
    *code_reply = fmax(mm_pkt_flits(l1i_line / 32.0, F) / cfg->noc.port_flits_per_cycle * cfg->gpu.core_clock_mhz /
                           cfg->gpu.icnt_clock_mhz,
                       l1i_line / 32.0 / l2_banks * cfg->gpu.core_clock_mhz / cfg->gpu.l2_clock_mhz);
    return startup + (s->active - 1) * *code_reply;
}

int model_kernel(const gpu_config *cfg, const char *scheduler, const profile *p, uint32_t k,
                 const model_params *mp, const model_scenario *sc, kresult *out, model_detail *d, ge_err *e)
{
    if (k >= p->nkernels)
        return ge_errf(e, "kernel %u out of range", k);
    model_params defp;
    if (!mp) {
        model_params_default(&defp);
        mp = &defp;
    }
    if (!scheduler)
        scheduler = cfg->sm.scheduler;

    /* 1. the scenario's CTAs on its SMs */
    mm_setup s;
    memset(&s, 0, sizeof s);
    s.pk = &p->k[k];
    s.pol = model_policy_of(scheduler);
    s.il = interleave_of(s.pol);
    s.runs = sc && sc->neighbour_runs;
    ws_kernel wk;
    prof_kernel_ws(p, s.pk, &wk);
    if (occ_compute(cfg, &wk, &s.occ, e))
        return -1;
    s.ctas = sc && sc->ctas > 0 ? sc->ctas : (double)s.pk->nctas;
    s.sms = cfg->gpu.sm_count;
    s.active = sc && sc->active_sms ? sc->active_sms : s.sms;
    if (s.active > s.ctas)
        s.active = ceil(s.ctas);
    if (s.active < 1)
        s.active = 1;
    s.share = (sc && sc->background && sc->active_sms) ? (double)sc->active_sms / s.sms : 1.0;
    s.per_sm = ceil(s.ctas / s.active - 1e-9);
    s.c = s.occ.ctas_per_sm < s.per_sm ? s.occ.ctas_per_sm : s.per_sm;
    if (s.c < 1)
        s.c = 1;
    scenario_totals(s.pk, sc, s.ctas, &s.t);

    /* 2. the memory traffic, its latencies and bounds (traffic.c) */
    mm_traffic m;
    mm_traffic_of(cfg, p, k, mp, &s, &m);
    mp = &m.mp;

    /* 3. the cold I-cache's start-up */
    double code_reply;
    double startup = startup_cycles(cfg, p, k, &s, &m, &code_reply);
    double stagger = (s.active - 1) * code_reply; /* from the first SM's start to the last's */

    /* 4. the generations and the kernel: replay the representative warps,
     * iterating latency <-> DRAM queueing to a fixed point */
    model_warp_time wt[64];
    double ww[64];
    uint32_t nw = s.pk->nwarps < 64 ? s.pk->nwarps : 64;
    double total = 0, t_sm = 0, lat = 0, rho = 0, gens = 0, t_tail = 0, t_cta = 0, t_gens = 0;
    double heavy = mm_heaviest_ratio(s.pk, sc);
    /* the first generation's prologue loads, as a share of the memory
     * traffic: the resident CTAs' share of the kernel's, of that the loads
     * before a first use, and the loads' share of the L2 traffic */
    double burst = mm_prologue_share(s.pk) * fmin(1, (double)s.occ.ctas_per_sm * s.active / fmax(1, s.ctas)) *
                   (m.l2_sec > 0 ? m.l1_miss_sec / m.l2_sec : 0),
           t_burst = 0, burst_extra = 0;
    mm_gen gfull = {0}, gpart = {0};
    for (uint32_t r = 0; r < nw; r++)
        ww[r] = s.pk->warps[r].weight;
    double lines_per_inst = s.t.insts > 0 ? m.load_lines / s.t.insts : 0;
    double lsu_rate = cfg->sm.schedulers * lines_per_inst; /* line lookups per SM cycle, refined below */
    if (lsu_rate > MM_LSU_LINES_PER_CYCLE)
        lsu_rate = MM_LSU_LINES_PER_CYCLE;
    double h1lat = m.h1, recent = 0;
    /* The replays' latencies; the fixed point changes only load and atomic. */
    model_lat ml;
    memset(&ml, 0, sizeof ml);
    for (int i = 0; i < ISA_LAT_COUNT; i++) {
        ml.alu[i] = cfg->lat[i].latency;
        ml.ii[i] = cfg->lat[i].ii;
    }
    ml.shared = cfg->sm.shared_latency_cycles;
    ml.shared_ii = 1;
    ml.constant = cfg->l1c.latency_cycles ? cfg->l1c.latency_cycles : cfg->l1d.latency_cycles;
    ml.noc_per_sector = m.noc_per_sector;
    ml.l1_miss = 1 - m.h1;
    model_replay_plan plan[64];
    for (uint32_t r = 0; r < nw; r++)
        if (model_replay_plan_init(&plan[r], &s.pk->warps[r], &ml, e)) {
            for (uint32_t x = 0; x < r; x++)
                model_replay_plan_free(&plan[x]);
            return -1;
        }
    double full = 0, rem = 0, tail_sms = 0; /* the busiest SM's generations (see mm_lockstep_tail) */
    double lock_full, lock_rem, lock_sms;
    mm_lockstep_tail(s.ctas, s.c, s.active, &lock_full, &lock_rem, &lock_sms);
    /* The first generation's end places the second wave only (a later
     * wave starts without the cold I-cache that keeps the first's warps in
     * step, and its ends are not measured).  A sample SM alone meets no
     * other SM in the L2, so where the kernel's atomics update the same
     * lines more than once, the GPU's CTAs end in the order the L2 serves
     * them, which its spread does not measure (histogram_shared on GTX 480
     * under LRR: 33 cycles in the sample, 347 per SM in the full run, its
     * SMs 167 apart; the tail spread over the SMs). */
    double atom_kernel = s.ctas > 0 ? m.atom_lines * s.pk->nctas / s.ctas : 0;
    int lockstep = mp->cta_spread >= 0 && mp->cta_spread < stagger && lock_full == 1 &&
                   !(atom_kernel > s.pk->atomic_footprint_lines);
    if (s.pol != MODEL_LRR && !lockstep)
        lock_sms = 0;
    double last = s.ctas - lock_full * s.c * s.active;
    double lock_take = lock_sms > 0 && lockstep ? mm_first_sm_take(last, s.c, s.active, mp->cta_spread, code_reply) : lock_rem;
    double load_prev = 0, atomic_prev = 0, hit_prev = 0; /* what wt[] was replayed with (when replayed) */
    int replayed = 0, rc = 0;
    /* Lines in flight (l1_inflight).  A sample's run of consecutive CTAs
     * spreads its lines over the L1's sets: its MSHRs bound it.  On the
     * GPU, where the profile's set placement of the SM's stream allows
     * fewer lines than random placement -- rows a power of two apart that
     * share a set -- the placement bounds it, unless the parameters were
     * fitted to a sample (sampled_runs), whose cycles carry the crowding
     * its real addresses met. */
    double inflight = sc && sc->neighbour_runs && cfg->l1d.mshr_entries ? cfg->l1d.mshr_entries : l1_inflight(cfg);
    if (!(sc && sc->neighbour_runs) && !mp->sampled_runs && strcmp(cfg->l1d.allocate, "on_miss") == 0) {
        double placed = mm_l1_placement(s.pk, cfg, s.c, s.il);
        if (placed > 0 && placed < inflight)
            inflight = placed;
    }
    for (int it = 0; it < MODEL_FIXPOINT_ITERS; it++) {
        double q = model_md1_wait(rho) * m.path.burst_core;
        double miss_lat = m.h2 * m.path.l2 + (1 - m.h2) * (m.path.dram + q);
        if (mp->l1_hit >= 0) {
            h1lat = mp->l1_hit;
        } else {
            mm_l1_hit(s.pk, cfg, s.runs, s.c, s.il, miss_lat * lsu_rate, &recent);
            h1lat = m.h1 - recent > 0 ? m.h1 - recent : 0;
        }
        if (mp->load_latency >= 0)
            lat = mp->load_latency;
        else
            lat = mp->latency_scale * (h1lat * m.path.l1 + (1 - h1lat) * miss_lat);
        double atomic = mp->latency_scale * (m.h2 * m.path.l2 + (1 - m.h2) * (m.path.dram + q));
        /* a load waits for its slowest line, each an L1 hit or not */
        model_load_mix mix = {lat, h1lat, mp->latency_scale * m.path.l1};
        /* Once the latencies (and the L1 hit rate that spreads a load's
         * lines) settle, the last iteration's replays stand. */
        if (!replayed || fabs(lat - load_prev) > MODEL_REPLAY_REL_TOL * load_prev ||
            fabs(atomic - atomic_prev) > MODEL_REPLAY_REL_TOL * atomic_prev ||
            fabs(h1lat - hit_prev) > MODEL_REPLAY_REL_TOL) {
            for (uint32_t r = 0; replayed && r < nw; r++)
                model_warp_time_free(&wt[r]);
            replayed = 0;
            for (uint32_t r = 0; r < nw && !rc; r++)
                if ((rc = model_replay_run(&plan[r], &mix, atomic, &wt[r], e)))
                    for (uint32_t x = 0; x < r; x++)
                        model_warp_time_free(&wt[x]);
            if (rc)
                break;
            load_prev = lat, atomic_prev = atomic, hit_prev = h1lat;
            replayed = 1;
        }
        full = floor(s.per_sm / s.c + 1e-9);
        rem = s.per_sm - full * s.c;
        tail_sms = 0;
        mm_generation(cfg, s.pk, s.pol, wt, ww, nw, &s.t, s.c, lat, m.miss_lines_per_warp, m.port_per_warp, inflight, mp->sm_scale, &gfull);
        if (rem > 0.5)
            mm_generation(cfg, s.pk, s.pol, wt, ww, nw, &s.t, rem, lat, m.miss_lines_per_warp, m.port_per_warp, inflight, mp->sm_scale, &gpart);
        else
            memset(&gpart, 0, sizeof gpart);
        /* Tail: an SM (and the kernel) lasts at least as long as its
         * heaviest CTA alone: the mean CTA's time alone (g1) times `heavy`
         * (bfs's irregular levels, where one CTA does several times the mean
         * work).  A generation's time grows with its CTAs, so g1 <= gfull
         * and the floor cannot bind unless heavy * gfull exceeds the
         * generations' time; only then (or for the detail) is g1 needed. */
        t_gens = full * gfull.t + gpart.t + mp->early_extra;
        if (d || heavy * gfull.t > t_gens) {
            mm_gen g1;
            mm_generation(cfg, s.pk, s.pol, wt, ww, nw, &s.t, 1, lat, m.miss_lines_per_warp, m.port_per_warp, inflight, mp->sm_scale, &g1);
            t_cta = g1.t;
            t_tail = g1.t * heavy;
        }
        t_sm = fmax(t_gens, t_tail);
        if (gfull.t > 0) /* lines the SM looks up per cycle in steady state */
            lsu_rate = fmin(MM_LSU_LINES_PER_CYCLE, s.c * s.pk->warps_per_cta * (s.t.warps > 0 ? m.load_lines / s.t.warps : 0) / gfull.t);
        double pw = mp->overlap;
        /* The start-up precedes any memory traffic, so it adds to the
         * overlapped part.  A last, partial generation runs after the full
         * waves, with only the kernel's last CTAs left on the GPU (reduction
         * at 4 M elements on RTX 2060: 16 of 256 CTAs, 24% of the full run's
         * cycles with DRAM 18% busy): then each phase overlaps its own share
         * of the memory work, as the lock-step tail below does. */
        double f = s.ctas > 0 ? fmin(1, full * s.c * s.active / s.ctas) : 1;
        if (gpart.t > 0 && f < 1 && t_tail <= t_gens)
            total = startup + two_phases(pw, full * gfull.t + mp->early_extra, f, gpart.t, &m);
        else
            total = startup + overlap(pw, t_sm, 1, m.t_dram, m.t_l2, m.t_noc);
        /* the launch's burst of prologue loads (launch_burst) */
        t_burst = burst * fmax(m.t_dram, fmax(m.t_l2, m.t_noc));
        burst_extra = launch_burst(pw, startup, t_burst, burst, lat, t_sm, total, m.t_dram, m.t_l2, m.t_noc);
        total += burst_extra;
        int mem_bound = fmax(m.t_dram, fmax(m.t_l2, m.t_noc)) > t_sm;
        if (lock_sms > 0 && t_tail <= t_gens && (lockstep || mem_bound)) {
            /* the lock-step tail on few SMs after the full waves: each
             * phase overlaps its own share of the memory work */
            full = lock_full, rem = lock_rem, tail_sms = lock_sms;
            if (!(s.pol == MODEL_LRR && mem_bound)) /* the spread's placement (mm_first_sm_take) */
                rem = lock_take, tail_sms = fmin(s.active, ceil(last / lock_take - 1e-9));
            if (rem == s.c) /* the usual case: the tail SMs run full */
                gpart = gfull;
            else
                mm_generation(cfg, s.pk, s.pol, wt, ww, nw, &s.t, rem, lat, m.miss_lines_per_warp, m.port_per_warp, inflight, mp->sm_scale, &gpart);
            f = full * s.c * s.active / s.ctas;
            t_sm = full * gfull.t + gpart.t + mp->early_extra;
            total = startup + two_phases(pw, full * gfull.t + mp->early_extra, f, gpart.t, &m);
            /* (for a memory-bound kernel the phase split replaces the
             * launch's burst; an SM-bound one still starts with it) */
            burst_extra = mem_bound ? 0 : launch_burst(pw, startup, t_burst, burst, lat, t_sm, total, m.t_dram, m.t_l2, m.t_noc);
            total += burst_extra;
        }
        gens = full + (rem > 0.5 ? rem / s.c : 0);
        double nrho = total > startup ? m.t_dram * m.dram_eff / (total - startup) : 0;
        if (it > 1 && fabs(nrho - rho) < 1e-4)
            break;
        rho = 0.5 * (rho + nrho);
    }
    for (uint32_t r = 0; r < nw; r++) {
        if (replayed)
            model_warp_time_free(&wt[r]);
        model_replay_plan_free(&plan[r]);
    }
    if (rc)
        return -1;
    if (nw == 0) /* no representative warps (empty kernel) */
        total = m.t_dram > m.t_l2 ? m.t_dram : m.t_l2;

    /* 5. the result (report.c) */
    mm_solved v = {.total = total, .startup = startup, .lat = lat, .h1lat = h1lat, .t_sm = t_sm, .t_cta = t_cta,
                   .t_tail = t_tail, .t_gens = t_gens, .gens = gens, .full = full, .tail_sms = tail_sms,
                   .gfull = gfull, .gpart = gpart, .burst = burst, .t_burst = t_burst, .burst_extra = burst_extra,
                   .inflight = inflight};
    mm_report(cfg, &s, &m, &v, out, d);
    return 0;
}
