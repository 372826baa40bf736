/*
 * model.c - assembles the interval model for one kernel (see model.h for
 * the method): occupancy -> hit rates and latencies -> representative-warp
 * intervals -> per-generation SM time with throughput bounds -> kernel time
 * with GPU-wide bandwidth bounds and DRAM queueing -> kresult (cycles, CPI
 * stack, activity counters).
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
#define LSU_LINES_PER_CYCLE 1.0 /* one L1 tag lookup (one line) per SM per cycle, as the simulator */

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
    p->l1_hit = -1;
    p->l1_filter = -1;
    p->l2_hit = -1;
    p->load_latency = -1;
}

/* The cache interleaving a policy produces: GTO's greedy runs; LRR and the
 * round-robin active set of two-level interleave instruction by instruction. */
static int interleave_of(model_policy pol) { return pol == MODEL_GTO ? PROF_IL_GTO : PROF_IL_LRR; }

/* Kernel totals for the scenario (scaled by CTAs, optionally per cluster). */
typedef struct {
    double warps, insts, lanes;
    double op_warps[ISA_OP_COUNT], op_lanes[ISA_OP_COUNT], op_lines[ISA_OP_COUNT], op_sectors[ISA_OP_COUNT];
    double shared_bank, reg_reads, reg_writes;
} totals;

static void scenario_totals(const prof_kernel *pk, const model_scenario *sc, double ctas, totals *t)
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

static double sum_ops(const double *v, unsigned mask_space, unsigned flags)
{
    double s = 0;
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        const isa_op_info *inf = &isa_ops[i];
        if ((mask_space & (1u << inf->space)) && (inf->flags & flags))
            s += v[i];
    }
    return s;
}
#define SP(x) (1u << ISA_SPACE_##x)
#define PKT_HEADER_BYTES 8.0 /* a memory packet's header, as the simulator's (sampler/mempkt.h) */


/* Flits of one packet carrying `spp` 32 B sectors (an average: interpolated
 * between the neighbouring whole sector counts). */
static double pkt_flits(double spp, double flit_bytes)
{
    double lo = floor(spp), f = spp - lo;
    double a = ceil((PKT_HEADER_BYTES + 32.0 * lo) / flit_bytes);
    double b = ceil((PKT_HEADER_BYTES + 32.0 * (lo + 1)) / flit_bytes);
    return (1 - f) * a + f * b;
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

/* Time of one generation of `cpsm` resident CTAs on one SM: the SM side
 * (issue and dependencies, functional units, the LSU), times the
 * calibration's `scale`, or the misses-in-flight bound, whichever is
 * longer.  The latter is a memory-side bound -- lines x loaded latency /
 * lines in flight -- so the SM-side factor does not rescale it: a sample
 * whose CTAs do not crowd the L1's sets, fitted with the bound scaled,
 * took the bound away from the whole kernel, whose CTAs do (GTX 480 8 KB
 * L1, vectoradd: the full GPU 38% slower than at 16 KB, the hybrid 0%). */
typedef struct {
    double t, t_int, t_units, t_lsu, t_mshr, mem_stall, dep_stall, pipe_stall;
} gen_time;

static void generation(const gpu_config *cfg, const prof_kernel *pk, model_policy pol, const model_warp_time *wt,
                       const double *wweight, uint32_t nw, const totals *t, double cpsm, double load_lat,
                       double l1_miss_lines_per_warp, double port_per_warp, double inflight, double scale,
                       gen_time *g)
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
    /* LSU / L1 port: line lookups and shared-memory bank cycles per SM */
    double lines_per_warp = sum_ops(t->op_lines, SP(GLOBAL) | SP(LOCAL) | SP(CONST) | SP(TEX),
                                    ISA_F_LOAD | ISA_F_STORE | ISA_F_ATOMIC) / warps_total;
    double bank_per_warp = t->shared_bank / warps_total;
    double mem_insts_per_warp = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++)
        if (isa_ops[op].unit == ISA_UNIT_LDST)
            mem_insts_per_warp += t->op_warps[op] / warps_total;
    double warps_sm = cpsm * pk->warps_per_cta;
    g->t_lsu = warps_sm * (lines_per_warp + bank_per_warp) / LSU_LINES_PER_CYCLE;
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

/* The p-norm overlap of an SM time with a share of the memory bounds. */
static double overlap(double pw, double t_sm, double share, double t_dram, double t_l2, double t_noc)
{
    return pow(pow(t_sm, pw) + pow(share * t_dram, pw) + pow(share * t_l2, pw) + pow(share * t_noc, pw), 1.0 / pw);
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

int model_kernel(const gpu_config *cfg, const char *scheduler, const profile *p, uint32_t k,
                 const model_params *mp, const model_scenario *sc, kresult *out, model_detail *d, ge_err *e)
{
    if (k >= p->nkernels)
        return ge_errf(e, "kernel %u out of range", k);
    const prof_kernel *pk = &p->k[k];
    model_params defp;
    if (!mp) {
        model_params_default(&defp);
        mp = &defp;
    }
    if (!scheduler)
        scheduler = cfg->sm.scheduler;
    model_policy pol = model_policy_of(scheduler);
    int il = interleave_of(pol);

    ws_kernel wk;
    prof_kernel_ws(p, pk, &wk);
    occupancy occ;
    if (occ_compute(cfg, &wk, &occ, e))
        return -1;

    double ctas = sc && sc->ctas > 0 ? sc->ctas : (double)pk->nctas;
    uint32_t sms = cfg->gpu.sm_count;
    double active = sc && sc->active_sms ? sc->active_sms : sms;
    if (active > ctas)
        active = ceil(ctas);
    if (active < 1)
        active = 1;
    double share = (sc && sc->background && sc->active_sms) ? (double)sc->active_sms / sms : 1.0;
    double per_sm = ceil(ctas / active - 1e-9);
    double c = occ.ctas_per_sm < per_sm ? occ.ctas_per_sm : per_sm;
    if (c < 1)
        c = 1;

    totals t;
    scenario_totals(pk, sc, ctas, &t);

    /* hit rates: h1 filters traffic, h1lat (computed with the latency
     * below) excludes the reuses that find their line still in flight */
    double sched_n = cfg->sm.schedulers;
    double recent = 0;
    int runs = sc && sc->neighbour_runs;
    double h1m = mm_l1_hit(pk, cfg, runs, c, il, 0, &recent);
    double h1 = mp->l1_filter >= 0 ? mp->l1_filter : h1m;
    double load_sec = sum_ops(t.op_sectors, SP(GLOBAL) | SP(LOCAL), ISA_F_LOAD);
    double store_sec = sum_ops(t.op_sectors, SP(GLOBAL) | SP(LOCAL), ISA_F_STORE);
    double atom_sec = sum_ops(t.op_sectors, SP(GLOBAL), ISA_F_ATOMIC);
    double load_lines = sum_ops(t.op_lines, SP(GLOBAL) | SP(LOCAL), ISA_F_LOAD);
    /* sectors moved below the L1 (mm_l1_gran); L1 activity stays in the
     * accesses' own sectors */
    double gran = mm_l1_gran(cfg);
    double load_mv = fmax(load_sec, load_lines * gran);
    double store_lines = sum_ops(t.op_lines, SP(GLOBAL) | SP(LOCAL), ISA_F_STORE);
    double atom_lines = sum_ops(t.op_lines, SP(GLOBAL), ISA_F_ATOMIC);
    double store_mv = fmax(store_sec, store_lines * gran);
    double atom_mv = fmax(atom_sec, atom_lines * gran);
    double H2, H2s;
    mm_l2_hits(p, k, cfg, (double)occ.ctas_per_sm * sms, &H2, &H2s);
    double h2 = mp->l2_hit >= 0 ? mp->l2_hit : (h1 < 1 ? (H2 - h1) / (1 - h1) : 1);
    if (h2 < 0)
        h2 = 0;
    if (h2 > 1)
        h2 = 1;

    /* Row-buffer locality: measured in hybrid mode; otherwise a line fetched
     * whole (4 sectors) is taken to be part of a stream that opens a row once
     * per row_bytes / 128 lines, and a lone sector to open its own row.
     * Reads reach DRAM as the loads coalesced them; write-backs as the L2
     * merged them, i.e. the written sectors of each written line. */
    model_params mpl = *mp;
    double rh_stream = 1.0 - 128.0 / cfg->dram.row_bytes;
    double ld_lines = sum_ops(t.op_lines, SP(GLOBAL) | SP(LOCAL), ISA_F_LOAD | ISA_F_ATOMIC);
    double spl_r = ld_lines > 0 ? (load_mv + atom_mv) / ld_lines : 4;
    /* A row stays open for the other sectors of a line that neighbouring
     * warps read soon after (a 16-wide tile reads half lines), so the
     * reads' row locality follows the sectors the kernel loads per loaded
     * line over its whole run, when that is the higher figure. */
    double spl_rows = pk->load_footprint_lines > 0 ? pk->load_footprint_sectors / pk->load_footprint_lines : 0;
    double spl_rr = fmin(4, fmax(spl_r, spl_rows));
    double spl_w = pk->store_footprint_lines > 0 ? pk->store_footprint_sectors / pk->store_footprint_lines : 4;
    /* Those estimates are per access; the DRAM model's rate is per burst, as
     * the simulator counts it, and an access's later bursts hit the row its
     * first one opened. */
    double bursts_r = mm_dram_bursts(cfg, fmax(1, spl_r)), bursts_w = mm_dram_bursts(cfg, fmax(1, spl_w));
    double rh_r = 1 - (1 - rh_stream * (spl_rr - 1) / 3.0) / bursts_r;
    double rh_w = 1 - (1 - rh_stream * (spl_w - 1) / 3.0) / bursts_w;
    if (mp->row_hit >= 0)
        rh_r = rh_w = mp->row_hit;
    mp = &mpl;

    /* memory volumes */
    double l1_miss_sec = load_mv * (1 - h1);
    double dram_read_sec = l1_miss_sec * (1 - h2) + atom_mv * (1 - H2s);
    /* Written lines stay dirty in the write-back L2 and reach DRAM only when
     * evicted: a kernel whose footprint fits the L2 writes nothing back
     * before it ends. */
    double l2_bytes = (double)cfg->l2.cache.size_bytes * cfg->l2.slices;
    double foot_bytes = pk->footprint_lines * 128.0;
    double spill = foot_bytes > l2_bytes ? 1 - l2_bytes / foot_bytes : 0;
    double dram_write_sec = pk->store_footprint_sectors * (ctas / (pk->nctas ? pk->nctas : 1)) * spill;
    double dram_bytes = (dram_read_sec + dram_write_sec) * 32.0;
    mm_dram_mix mix = {dram_read_sec, spl_r, rh_r, dram_write_sec, spl_w, rh_w};
    double dram_eff = mp->dram_efficiency > 0 ? mp->dram_efficiency : mm_dram_efficiency(cfg, &mix);
    /* accesses of spl sectors, each of whole bursts */
    double acc_r = dram_read_sec / fmax(1, spl_r), acc_w = dram_write_sec / fmax(1, spl_w);
    if (mp->row_hit < 0 && dram_read_sec + dram_write_sec > 0)
        mpl.row_hit = (acc_r * bursts_r * rh_r + acc_w * bursts_w * rh_w) / (acc_r * bursts_r + acc_w * bursts_w);
    else if (mp->row_hit < 0)
        mpl.row_hit = rh_r;
    mm_path path;
    mm_latencies(cfg, mp, bursts_r, &path);
    double l2_sec = l1_miss_sec + store_mv + atom_mv;
    double miss_lines = load_lines * (1 - h1);
    double miss_lines_per_warp = t.warps > 0 ? miss_lines / t.warps : 0;
    /* the SM's NoC port: cycles to move one sector, and per warp in total */
    double noc_per_sector = 32.0 / ((double)cfg->noc.flit_bytes * cfg->noc.port_flits_per_cycle) *
                            cfg->gpu.core_clock_mhz / cfg->gpu.icnt_clock_mhz;
    double port_per_warp = t.warps > 0 ? (l1_miss_sec + store_mv + atom_mv) * noc_per_sector / t.warps : 0;
    /* Crossbar flits per direction, packet by packet as the simulator
     * sends them: requests are the L1 misses' read requests (a header) and
     * the stores and atomics (header and data); replies carry the misses'
     * and the atomics' data.  Each direction has its own network. */
    double F = cfg->noc.flit_bytes;
    double atom_flits = atom_lines > 0 ? atom_lines * pkt_flits(atom_mv / atom_lines, F) : 0;
    double req_flits = miss_lines * pkt_flits(0, F) + atom_flits +
                       (store_lines > 0 ? store_lines * pkt_flits(store_mv / store_lines, F) : 0);
    double rep_flits = (miss_lines > 0 ? miss_lines * pkt_flits(l1_miss_sec / miss_lines, F) : 0) + atom_flits;
    double noc_flits = req_flits + rep_flits;

    double t_dram = dram_bytes / (path.dram_bw * dram_eff * share);
    double t_l2 = l2_sec * 32.0 / (path.l2_bw * share);
    double t_noc = fmax(req_flits, rep_flits) * F / (path.noc_bw * share);
    /* Partition camping: the slices (and their crossbar ports) that the
     * CTAs running together crowd set the pace, not the average slice.
     * (The atomic bound below finds its busiest slice itself.) */
    double camp = mm_camping(cfg, pk, fmin(ctas, (double)occ.ctas_per_sm * active));
    t_l2 *= camp;
    t_noc *= camp;
    /* Global atomics are performed at the L2 slice that owns their line,
     * each sector holding the slice's port for a whole cycle (other accesses
     * move l2.banks sectors per cycle): a kernel that hammers few lines is
     * bound by the busiest slice, which also serves its share of the rest. */
    double l2_banks = cfg->l2.cache.banks ? cfg->l2.cache.banks : 1;
    double atom_busiest = mm_atomic_busiest_slice(cfg, pk, atom_mv, ctas / (pk->nctas ? (double)pk->nctas : 1));
    if (atom_busiest > 0) {
        double busiest = atom_busiest + (l1_miss_sec + store_mv) / (cfg->l2.slices * l2_banks);
        double t_atom = busiest / share * cfg->gpu.core_clock_mhz / cfg->gpu.l2_clock_mhz;
        if (t_atom > t_l2)
            t_l2 = t_atom;
    }

    /* Start-up: the I-caches are cold at every kernel launch and fetch has
     * no prefetcher, so each executed code line costs a miss on the critical
     * path; the first kernel finds its code in DRAM, later ones in the L2
     * (the simulator keeps code lines in L2 across kernels).  The profile
     * counts 128-byte lines of the stream's pcs; the I-cache holds this
     * GPU's instruction size in its own line size (gcfg_code_scale), so a
     * Fermi-class GPU (8-byte instructions) fetches half the lines of a
     * PTX stream (16 bytes per instruction). */
    uint32_t code_num, code_den;
    gcfg_code_scale(cfg, pk->binary_version, &code_num, &code_den);
    double l1i_line = cfg->l1i.line_bytes ? cfg->l1i.line_bytes : 128;
    /* (code starts at a line boundary, so a partly used last line counts) */
    double code_lines = ceil(pk->code_lines * 128.0 * code_num / code_den / l1i_line - 1e-9);
    /* Code an earlier kernel of the stream executed is in the L2 (the
     * simulator keeps code lines there across launches) unless the data
     * accessed since its last fetch pushed it out (its age at the previous
     * kernel's concurrency, prof_inherit.c); a kernel's own new code comes
     * from DRAM (the first launch of each kernel function). */
    double l2_lines = (double)cfg->l2.cache.size_bytes * cfg->l2.slices / 128.0;
    double held = k > 0 ? prof_code_held(pk, l2_lines, model_resident_ctas(cfg, p, k - 1), NULL) : 0;
    double warm = pk->code_lines > 0 ? fmin(1, held / pk->code_lines) : 0;
    double startup = code_lines * (warm * path.l2 + (1 - warm) * path.dram);
    /* At launch every active SM misses on the kernel's first code line in
     * the same cycle, and the one slice that holds it answers them in turn:
     * a reply takes its port pkt_flits(line) flits and its data port the
     * line's sectors over l2.banks, so the last SM starts (active - 1)
     * replies after the first.  The SMs then stay that far apart, and each
     * later line finds its slice free (the simulator on V100: the 80 SMs
     * receive every code line of scan_add 4 cycles apart, 316 cycles from
     * the first to the last). */
    double code_reply = fmax(pkt_flits(l1i_line / 32.0, F) / cfg->noc.port_flits_per_cycle * cfg->gpu.core_clock_mhz /
                                 cfg->gpu.icnt_clock_mhz,
                             l1i_line / 32.0 / l2_banks * cfg->gpu.core_clock_mhz / cfg->gpu.l2_clock_mhz);
    double stagger = (active - 1) * code_reply;
    startup += stagger;

    /* replay representative warps; iterate latency <-> DRAM queueing */
    model_warp_time wt[64];
    double ww[64];
    uint32_t nw = pk->nwarps < 64 ? pk->nwarps : 64;
    double total = 0, t_sm = 0, lat = 0, rho = 0, gens = 0, t_tail = 0, t_cta = 0, t_gens = 0;
    double heavy = mm_heaviest_ratio(pk, sc);
    /* the first generation's prologue loads, as a share of the memory
     * traffic: the resident CTAs' share of the kernel's, of that the loads
     * before a first use, and the loads' share of the L2 traffic */
    double burst = mm_prologue_share(pk) * fmin(1, (double)occ.ctas_per_sm * active / fmax(1, ctas)) *
                   (l2_sec > 0 ? l1_miss_sec / l2_sec : 0),
           t_burst = 0, burst_extra = 0;
    gen_time gfull = {0}, gpart = {0};
    for (uint32_t r = 0; r < nw; r++)
        ww[r] = pk->warps[r].weight;
    double load_insts = sum_ops(t.op_warps, SP(GLOBAL) | SP(LOCAL), ISA_F_LOAD);
    double lines_per_inst = t.insts > 0 ? load_lines / t.insts : 0;
    double lsu_rate = sched_n * lines_per_inst; /* line lookups per SM cycle, refined below */
    if (lsu_rate > LSU_LINES_PER_CYCLE)
        lsu_rate = LSU_LINES_PER_CYCLE;
    (void)load_insts;
    double h1lat = h1;
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
    ml.noc_per_sector = noc_per_sector;
    ml.l1_miss = 1 - h1;
    model_replay_plan plan[64];
    for (uint32_t r = 0; r < nw; r++)
        if (model_replay_plan_init(&plan[r], &pk->warps[r], &ml, e)) {
            for (uint32_t x = 0; x < r; x++)
                model_replay_plan_free(&plan[x]);
            return -1;
        }
    double full = 0, rem = 0, tail_sms = 0; /* the busiest SM's generations (see mm_lockstep_tail) */
    double lock_full, lock_rem, lock_sms;
    mm_lockstep_tail(ctas, c, active, &lock_full, &lock_rem, &lock_sms);
    /* The first generation's end places the second wave only (a later
     * wave starts without the cold I-cache that keeps the first's warps in
     * step, and its ends are not measured).  A sample SM alone meets no
     * other SM in the L2, so where the kernel's atomics update the same
     * lines more than once, the GPU's CTAs end in the order the L2 serves
     * them, which its spread does not measure (histogram_shared on GTX 480
     * under LRR: 33 cycles in the sample, 347 per SM in the full run, its
     * SMs 167 apart; the tail spread over the SMs). */
    double atom_kernel = ctas > 0 ? atom_lines * pk->nctas / ctas : 0;
    int lockstep = mp->cta_spread >= 0 && mp->cta_spread < stagger && lock_full == 1 &&
                   !(atom_kernel > pk->atomic_footprint_lines);
    if (pol != MODEL_LRR && !lockstep)
        lock_sms = 0;
    double last = ctas - lock_full * c * active;
    double lock_take = lock_sms > 0 && lockstep ? mm_first_sm_take(last, c, active, mp->cta_spread, code_reply) : lock_rem;
    double load_prev = 0, atomic_prev = 0; /* the latencies wt[] was replayed with (when replayed) */
    int replayed = 0, rc = 0;
    /* Lines in flight (l1_inflight).  A sample's run of consecutive CTAs
     * spreads its lines over the L1's sets: its MSHRs bound it.  On the
     * GPU, where the profile's set placement of the SM's stream allows
     * fewer lines than random placement -- rows a power of two apart that
     * share a set -- the placement bounds it, unless the parameters were
     * fitted to a sample (sampled_runs), whose cycles carry the crowding
     * its real addresses met. */
    double inflight = sc && sc->neighbour_runs && cfg->l1d.mshr_entries ? cfg->l1d.mshr_entries : l1_inflight(cfg);
    double crowded = 0;
    if (!(sc && sc->neighbour_runs) && !mp->sampled_runs && strcmp(cfg->l1d.allocate, "on_miss") == 0) {
        double placed = mm_l1_placement(pk, cfg, c, il);
        if (placed > 0 && placed < inflight)
            inflight = crowded = placed;
    }
    for (int it = 0; it < MODEL_FIXPOINT_ITERS; it++) {
        double q = model_md1_wait(rho) * path.burst_core;
        double miss_lat = h2 * path.l2 + (1 - h2) * (path.dram + q);
        if (mp->l1_hit >= 0) {
            h1lat = mp->l1_hit;
        } else {
            mm_l1_hit(pk, cfg, runs, c, il, miss_lat * lsu_rate, &recent);
            h1lat = h1 - recent > 0 ? h1 - recent : 0;
        }
        if (mp->load_latency >= 0)
            lat = mp->load_latency;
        else
            lat = mp->latency_scale * (h1lat * path.l1 + (1 - h1lat) * miss_lat);
        double atomic = mp->latency_scale * (h2 * path.l2 + (1 - h2) * (path.dram + q));
        /* Once the latencies settle, the last iteration's replays stand. */
        if (!replayed || fabs(lat - load_prev) > MODEL_REPLAY_REL_TOL * load_prev ||
            fabs(atomic - atomic_prev) > MODEL_REPLAY_REL_TOL * atomic_prev) {
            for (uint32_t r = 0; replayed && r < nw; r++)
                model_warp_time_free(&wt[r]);
            replayed = 0;
            for (uint32_t r = 0; r < nw && !rc; r++)
                if ((rc = model_replay_run(&plan[r], lat, atomic, &wt[r], e)))
                    for (uint32_t x = 0; x < r; x++)
                        model_warp_time_free(&wt[x]);
            if (rc)
                break;
            load_prev = lat, atomic_prev = atomic;
            replayed = 1;
        }
        full = floor(per_sm / c + 1e-9);
        rem = per_sm - full * c;
        tail_sms = 0;
        generation(cfg, pk, pol, wt, ww, nw, &t, c, lat, miss_lines_per_warp, port_per_warp, inflight, mp->sm_scale, &gfull);
        if (rem > 0.5)
            generation(cfg, pk, pol, wt, ww, nw, &t, rem, lat, miss_lines_per_warp, port_per_warp, inflight, mp->sm_scale, &gpart);
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
            gen_time g1;
            generation(cfg, pk, pol, wt, ww, nw, &t, 1, lat, miss_lines_per_warp, port_per_warp, inflight, mp->sm_scale, &g1);
            t_cta = g1.t;
            t_tail = g1.t * heavy;
        }
        t_sm = fmax(t_gens, t_tail);
        if (gfull.t > 0) /* lines the SM looks up per cycle in steady state */
            lsu_rate = fmin(LSU_LINES_PER_CYCLE, c * pk->warps_per_cta * (t.warps > 0 ? load_lines / t.warps : 0) / gfull.t);
        double pw = mp->overlap;
        /* the start-up precedes any memory traffic, so it adds to the overlapped part */
        total = startup + overlap(pw, t_sm, 1, t_dram, t_l2, t_noc);
        /* the launch's burst of prologue loads (launch_burst) */
        t_burst = burst * fmax(t_dram, fmax(t_l2, t_noc));
        burst_extra = launch_burst(pw, startup, t_burst, burst, lat, t_sm, total, t_dram, t_l2, t_noc);
        total += burst_extra;
        int mem_bound = fmax(t_dram, fmax(t_l2, t_noc)) > t_sm;
        if (lock_sms > 0 && t_tail <= t_gens && (lockstep || mem_bound)) {
            /* the lock-step tail on few SMs after the full waves: each
             * phase overlaps its own share of the memory work */
            full = lock_full, rem = lock_rem, tail_sms = lock_sms;
            if (!(pol == MODEL_LRR && mem_bound)) /* the spread's placement (mm_first_sm_take) */
                rem = lock_take, tail_sms = fmin(active, ceil(last / lock_take - 1e-9));
            if (rem == c) /* the usual case: the tail SMs run full */
                gpart = gfull;
            else
                generation(cfg, pk, pol, wt, ww, nw, &t, rem, lat, miss_lines_per_warp, port_per_warp, inflight, mp->sm_scale, &gpart);
            double f = full * c * active / ctas;
            t_sm = full * gfull.t + gpart.t + mp->early_extra;
            total = startup + overlap(pw, full * gfull.t + mp->early_extra, f, t_dram, t_l2, t_noc) +
                    overlap(pw, gpart.t, 1 - f, t_dram, t_l2, t_noc);
            /* (for a memory-bound kernel the phase split replaces the
             * launch's burst; an SM-bound one still starts with it) */
            burst_extra = mem_bound ? 0 : launch_burst(pw, startup, t_burst, burst, lat, t_sm, total, t_dram, t_l2, t_noc);
            total += burst_extra;
        }
        gens = full + (rem > 0.5 ? rem / c : 0);
        double nrho = total > startup ? t_dram * dram_eff / (total - startup) : 0;
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
        total = t_dram > t_l2 ? t_dram : t_l2;

    /* ---- result ---- */
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", pk->name);
    memcpy(out->grid, pk->grid, sizeof out->grid);
    memcpy(out->block, pk->block, sizeof out->block);
    out->ctas = (uint64_t)llround(ctas);
    out->cycles = total;
    out->warp_insts = t.insts;
    out->thread_insts = t.lanes;
    out->l1_hit_rate = h1lat;
    out->l2_hit_rate = h2;
    out->avg_mem_latency = lat;
    out->occupancy = occ.warp_occupancy;
    double dram_peak = path.dram_bw * total * share;
    out->dram_bw_util = dram_peak > 0 ? dram_bytes / dram_peak : 0;
    out->dram_row_hit_rate = mp->row_hit;

    /* CPI stack over all schedulers of all SMs */
    double sched = cfg->sm.schedulers;
    double all = total * sched * sms;
    /* SMs running the last generation (all, unless an LRR tail), and the
     * cycles SMs are busy, summed over SMs (the start-up's fall to idle:
     * nothing is fetched yet) */
    double last_sms = tail_sms > 0 ? tail_sms : active;
    double sm_cycles = tail_sms > 0 ? full * gfull.t * active + gpart.t * last_sms : t_sm * active;
    double active_cycles = sm_cycles * sched;
    double busy = active_cycles - t.insts;
    if (busy < 0)
        busy = 0;
    double ms = mp->sm_scale * (gfull.mem_stall * full * active + gpart.mem_stall * last_sms) * sched;
    double ds = mp->sm_scale * (gfull.dep_stall * full * active + gpart.dep_stall * last_sms) * sched;
    double st = mp->sm_scale * (gfull.pipe_stall * full * active + gpart.pipe_stall * last_sms);
    if (gfull.t > mp->sm_scale * gfull.t_int)
        st += (gfull.t - mp->sm_scale * gfull.t_int) * full * active;
    if (gpart.t > mp->sm_scale * gpart.t_int)
        st += (gpart.t - mp->sm_scale * gpart.t_int) * last_sms;
    st *= sched;
    double parts = ms + ds + st;
    double scale = parts > busy && parts > 0 ? busy / parts : 1;
    out->stall[KR_ISSUED] = t.insts;
    out->stall[KR_MEMORY] = ms * scale + (total - startup > t_sm ? (total - startup - t_sm) * sched * active : 0);
    out->stall[KR_DEPENDENCY] = ds * scale;
    out->stall[KR_STRUCTURAL] = st * scale;
    double used = out->stall[KR_ISSUED] + out->stall[KR_MEMORY] + out->stall[KR_DEPENDENCY] + out->stall[KR_STRUCTURAL];
    out->stall[KR_IDLE] = all > used ? all - used : 0;

    /* activity counters */
    act_counters *a = &out->act;
    a->c[ACT_CYCLES] = total;
    a->c[ACT_ACTIVE_SM_CYCLES] = sm_cycles + startup * active;
    a->c[ACT_WARP_INSTS] = t.insts;
    a->c[ACT_THREAD_INSTS] = t.lanes;
    a->c[ACT_IBUFFER_WRITES] = t.insts;
    a->c[ACT_IBUFFER_READS] = t.insts;
    a->c[ACT_ICACHE_HITS] = t.insts;
    a->c[ACT_SCHED_ISSUES] = t.insts;
    a->c[ACT_RF_READS] = t.reg_reads;
    a->c[ACT_RF_WRITES] = t.reg_writes;
    a->c[ACT_L1_READ_HITS] = load_sec * h1lat; /* in-flight merges count as misses, as in the simulator */
    a->c[ACT_L1_READ_MISSES] = load_sec * (1 - h1lat);
    a->c[ACT_L1_WRITE_MISSES] = store_sec;
    a->c[ACT_SHARED_READS] = 0;
    a->c[ACT_SHARED_WRITES] = 0;
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        if (isa_ops[op].space != ISA_SPACE_SHARED || t.op_warps[op] == 0)
            continue;
        double share_bank = pk->op_warps[op] > 0 && t.shared_bank > 0
                                ? t.shared_bank * t.op_warps[op] /
                                      (t.op_warps[ISA_OP_LD_SHARED] + t.op_warps[ISA_OP_ST_SHARED] +
                                       t.op_warps[ISA_OP_ATOM_SHARED])
                                : t.op_warps[op];
        /* an atomic reads and writes its words, as the simulator counts it */
        if (isa_ops[op].flags & (ISA_F_STORE | ISA_F_ATOMIC))
            a->c[ACT_SHARED_WRITES] += share_bank;
        if (!(isa_ops[op].flags & ISA_F_STORE))
            a->c[ACT_SHARED_READS] += share_bank;
    }
    a->c[ACT_CONST_HITS] = sum_ops(t.op_lines, SP(CONST), ISA_F_LOAD);
    a->c[ACT_TEX_HITS] = sum_ops(t.op_sectors, SP(TEX), ISA_F_LOAD);
    a->c[ACT_L2_READ_HITS] = l1_miss_sec * h2;
    a->c[ACT_L2_READ_MISSES] = l1_miss_sec * (1 - h2);
    a->c[ACT_L2_WRITE_HITS] = (store_mv + atom_mv) * H2s;
    a->c[ACT_L2_WRITE_MISSES] = (store_mv + atom_mv) * (1 - H2s);
    a->c[ACT_NOC_FLITS] = noc_flits;
    a->c[ACT_MC_REQUESTS] = dram_read_sec + dram_write_sec;
    a->c[ACT_DRAM_READS] = acc_r * bursts_r;
    a->c[ACT_DRAM_WRITES] = acc_w * bursts_w;
    a->c[ACT_DRAM_ACTIVATES] = (acc_r * bursts_r + acc_w * bursts_w) * (1 - mp->row_hit);
    a->c[ACT_DRAM_PRECHARGES] = a->c[ACT_DRAM_ACTIVATES];
    for (int op = 0; op < ISA_OP_COUNT; op++) {
        a->op_lanes[op] = t.op_lanes[op];
        a->op_warps[op] = t.op_warps[op];
        a->c[ACT_PIPE_BUSY] += t.op_warps[op] * cfg->lat[isa_ops[op].lat].ii;
    }

    if (d) {
        memset(d, 0, sizeof *d);
        d->ctas_per_sm = (uint32_t)c;
        d->warps_per_sched = (uint32_t)ceil(c * pk->warps_per_cta / sched);
        d->l1_hit = h1lat;
        d->l1_filter = h1;
        d->l2_hit = h2;
        d->load_latency = lat;
        d->dram_util = out->dram_bw_util;
        d->t_sm = t_sm;
        d->t_cta = t_cta;
        d->t_tail = t_tail;
        d->burst = burst;
        d->t_burst = t_burst;
        d->burst_extra = burst_extra;
        d->t_gens = t_gens;
        d->startup = startup;
        d->t_dram = t_dram;
        d->t_l2 = t_l2;
        d->t_noc = t_noc;
        d->t_interval = gfull.t_int;
        d->t_units = gfull.t_units;
        d->t_lsu = gfull.t_lsu;
        d->t_mshr = gfull.t_mshr;
        d->generations = gens;
        d->l1_crowded = crowded;
    }
    return 0;
}
