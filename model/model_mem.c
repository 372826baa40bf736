/*
 * model_mem.c - the memory side of the interval model for one design:
 * cache hit rates from the profile's reuse histograms, the latency of each
 * level, and the bandwidth each shared level can sustain.
 *
 * Hit rates:
 *   L1 (loads): the histogram measured for the design's SM count (nearest
 *   profiled one) and interleaving, interpolated in log2 of the resident CTAs
 *   per SM, evaluated for the L1's lines and sets (model/reuse.h).  An L1
 *   of one sector per line (GTX 480's) fills whole lines and is read by
 *   line: a sector first touched while its line is resident hits.
 *   L2: the hit rates of loads and of stores in one stream of all kinds, for
 *   the L2's total lines/sets at the design's GPU-wide resident CTAs
 *   (interpolated in log W).  A load that hits the L1 would also hit the
 *   larger, later-in-time L2 (inclusion of short reuse), so the L2 hit rate
 *   of the loads that miss the L1 is (H2 - h1) / (1 - h1).  Behind an L1
 *   of whole lines the L2 receives whole lines, and its loads are read by
 *   line too.
 * In-flight reuse: a hit whose sector was touched fewer accesses ago than
 * the SM issues during one miss latency finds the line still being filled
 * (an MSHR merge): it costs no traffic but waits like a miss.  The share of
 * such reuses comes from the histogram's time distances (rd_recent).
 * Latencies, in core cycles, are built from the config's own numbers along
 * the path a load takes (L1 lookup, NoC both ways, L2, DRAM timing at the
 * DRAM clock), the same path the detailed simulator times.
 * The L2's slices: how much busier than the mean the busiest slice is
 * (partition camping, mm_camping) and the global atomics the busiest slice
 * performs (mm_atomic_busiest_slice), which bound the L2's throughput.
 */
#include <math.h>
#include <string.h>

#include "addrmap.h"
#include "model_int.h"

static double log2d(double x) { return log(x) / log(2.0); }

/* The profiled SM count nearest (in ratio) to nsm. */
static uint32_t nearest_nsm(const prof_kernel *pk, uint32_t nsm)
{
    uint32_t best = 0;
    double bd = INFINITY;
    for (uint32_t i = 0; i < pk->nl1; i++) {
        double d = fabs(log((double)pk->l1[i].nsm / nsm));
        if (d < bd) {
            bd = d;
            best = pk->l1[i].nsm;
        }
    }
    return best;
}

/* A cache of one sector per line fills whole lines: a sector whose line is
 * resident hits, touched before or not (GTX 480's L1); by_line reads a
 * histogram so (model/reuse.h). */
static int whole_lines(const gcfg_cache *c) { return c->sector_bytes >= c->line_bytes; }
static double hit_rate(const rd_hist *h, uint64_t lines, uint32_t sets, int by_line)
{
    return by_line ? rd_hit_rate_lines(h, lines, sets) : rd_hit_rate(h, lines, sets);
}
static double recent_rate(const rd_hist *h, double window, int by_line)
{
    return by_line ? rd_recent_lines(h, window) : rd_recent(h, window);
}

/* The L1 histograms for SM count nsm and interleaving il around
 * ctas_per_sm resident CTAs, and the weight f of *hi in log2 of the CTAs
 * (0 when they are the same); 0 when there are none. */
static int l1_pair(const prof_kernel *pk, uint32_t nsm, double ctas_per_sm, int il, const prof_l1hist **plo,
                   const prof_l1hist **phi, double *f)
{
    const prof_l1hist *lo = NULL, *hi = NULL;
    for (uint32_t i = 0; i < pk->nl1; i++) {
        const prof_l1hist *h = &pk->l1[i];
        if (h->nsm != nsm || (int)h->interleave != il)
            continue;
        if (h->ctas_per_sm <= ctas_per_sm && (!lo || h->ctas_per_sm > lo->ctas_per_sm))
            lo = h;
        if (h->ctas_per_sm >= ctas_per_sm && (!hi || h->ctas_per_sm < hi->ctas_per_sm))
            hi = h;
    }
    if (!lo)
        lo = hi;
    if (!hi)
        hi = lo;
    *plo = lo, *phi = hi;
    *f = lo == hi ? 0
                  : (log2d(ctas_per_sm) - log2d(lo->ctas_per_sm)) / (log2d(hi->ctas_per_sm) - log2d(lo->ctas_per_sm));
    return lo != NULL;
}

/* L1 sector hit rate of loads from the histograms for SM count nsm, as a
 * cache of the L1's capacity in `sets` sets (see mm_l1_hit). */
static double l1_rate(const prof_kernel *pk, const gpu_config *cfg, uint32_t nsm, double ctas_per_sm, int il,
                      uint32_t sets, int by_line, double window, double *recent)
{
    const gcfg_cache *c = &cfg->l1d;
    *recent = 0;
    const prof_l1hist *lo, *hi;
    double f;
    if (!l1_pair(pk, nsm, ctas_per_sm, il, &lo, &hi, &f))
        return 0;
    /* the profile measures 32 B sectors of 128 B lines; a cache with another
     * line size is represented by its capacity in 128 B lines */
    uint64_t lines = (uint64_t)c->size_bytes / 128;
    double h_lo = hit_rate(&lo->load, lines, sets, by_line), h_hi = hit_rate(&hi->load, lines, sets, by_line);
    double r_lo = recent_rate(&lo->load, window, by_line), r_hi = recent_rate(&hi->load, window, by_line);
    double h = h_lo + f * (h_hi - h_lo), r = r_lo + f * (r_hi - r_lo);
    *recent = r < h ? r : h;
    return h;
}

double mm_l1_hit(const prof_kernel *pk, const gpu_config *cfg, int neighbour_runs, double ctas_per_sm, int il,
                 double window, double *recent)
{
    *recent = 0;
    if (cfg->l1d.size_bytes == 0 || pk->nl1 == 0)
        return 0;
    uint32_t nsm = neighbour_runs && nearest_nsm(pk, 1) == 1 ? 1 : nearest_nsm(pk, cfg->gpu.sm_count);
    return l1_rate(pk, cfg, nsm, ctas_per_sm, il, cfg->l1d.sets, whole_lines(&cfg->l1d), window, recent);
}

double mm_l1_dealing_shift(const prof_kernel *pk, const gpu_config *cfg, double ctas_per_sm, int il)
{
    if (cfg->l1d.size_bytes == 0 || pk->nl1 == 0 || nearest_nsm(pk, 1) != 1)
        return 0;
    double recent;
    /* By sectors, for any L1: in one SM's run of neighbouring CTAs the
     * sectors that an L1 of whole lines fetched for a neighbour are mostly
     * still in flight when asked for (neighbours run together), which the
     * sample counts as misses (GTX 480, hotspot at 16 KB: the one-SM
     * histograms by line hit 0.68, the sample 0.45). */
    double d = l1_rate(pk, cfg, nearest_nsm(pk, cfg->gpu.sm_count), ctas_per_sm, il, 1, 0, 0, &recent) -
               l1_rate(pk, cfg, 1, ctas_per_sm, il, 1, 0, 0, &recent);
    /* Only sharing is corrected.  Consecutive CTAs share at least what CTAs
     * SMs apart share; a GPU SM's histogram can still hit more, since it
     * holds the SM's CTAs of the profiled grid (kmeans at 32 K points on
     * RTX 2060: 128 CTAs, so 5 on an SM at 4 resident, the fifth alone and
     * hitting at 0.875), where the one-SM histogram holds whole generations
     * of 96 CTAs.  The sample runs that tail as the SM does. */
    return d < 0 ? d : 0;
}

void mm_l2_hits(const profile *p, uint32_t k, const gpu_config *cfg, double concurrency, double *load,
                double *store)
{
    *load = *store = 0;
    if (p->nl2 == 0)
        return;
    uint64_t lines = (uint64_t)cfg->l2.cache.size_bytes * cfg->l2.slices / 128;
    uint32_t sets = cfg->l2.cache.sets * cfg->l2.slices;
    const prof_l2hist *lo = NULL, *hi = NULL;
    for (uint32_t j = 0; j < p->nl2; j++) {
        const prof_l2hist *h = prof_l2(p, k, j);
        if (h->concurrency <= concurrency && (!lo || h->concurrency > lo->concurrency))
            lo = h;
        if (h->concurrency >= concurrency && (!hi || h->concurrency < hi->concurrency))
            hi = h;
    }
    if (!lo)
        lo = hi;
    if (!hi)
        hi = lo;
    double f = lo == hi ? 0
                        : (log2d(concurrency) - log2d(lo->concurrency)) /
                              (log2d(hi->concurrency) - log2d(lo->concurrency));
    /* An L1 of whole lines asks the L2 for whole lines, which fill every
     * sector of an L2 line together: its loads are read by line too, and
     * the inclusion above holds (GTX 480).  Stores go through by sector. */
    int loads_by_line = whole_lines(&cfg->l2.cache) || (cfg->l1d.size_bytes && whole_lines(&cfg->l1d));
    int stores_by_line = whole_lines(&cfg->l2.cache);
    double l_lo = hit_rate(&lo->load, lines, sets, loads_by_line), l_hi = hit_rate(&hi->load, lines, sets, loads_by_line);
    double s_lo = hit_rate(&lo->store, lines, sets, stores_by_line),
           s_hi = hit_rate(&hi->store, lines, sets, stores_by_line);
    *load = l_lo + f * (l_hi - l_lo);
    *store = s_lo + f * (s_hi - s_lo);
}

static double to_core(const gpu_config *cfg, double cycles, double mhz)
{
    return mhz > 0 ? cycles * cfg->gpu.core_clock_mhz / mhz : cycles;
}

void mm_latencies(const gpu_config *cfg, const model_params *mp, double bursts, mm_path *m)
{
    memset(m, 0, sizeof *m);
    m->l1 = cfg->l1d.latency_cycles;
    double noc = to_core(cfg, cfg->noc.latency_cycles, cfg->gpu.icnt_clock_mhz);
    m->l2 = m->l1 + 2 * noc + cfg->l2.cache.latency_cycles;
    double burst = (double)cfg->dram.burst_length / cfg->dram.data_rate;
    /* a load's bursts, and the row it opens with probability bursts x (1 - rh)
     * (rh per burst; mm_dram_efficiency) */
    double open = fmin(1, bursts * (1 - mp->row_hit));
    double dram_cycles = cfg->dram.latency_cycles + cfg->dram.tCL + bursts * burst + open * (cfg->dram.tRCD + 0.5 * cfg->dram.tRP);
    m->dram = m->l2 + to_core(cfg, dram_cycles, cfg->gpu.dram_clock_mhz);
    m->burst_core = to_core(cfg, burst, cfg->gpu.dram_clock_mhz);
    /* bandwidths in bytes per core cycle */
    m->dram_bw = gcfg_dram_bandwidth_gbs(cfg) * 1e9 / (cfg->gpu.core_clock_mhz * 1e6);
    m->l2_bw = cfg->l2.slices * (double)cfg->l2.cache.sector_bytes * cfg->gpu.l2_clock_mhz / cfg->gpu.core_clock_mhz;
    m->noc_bw = cfg->l2.slices * (double)cfg->noc.flit_bytes * cfg->noc.port_flits_per_cycle *
                cfg->gpu.icnt_clock_mhz / cfg->gpu.core_clock_mhz;
}

/* The share of a burst that one sector's bytes fill (1 for 32-byte bursts,
 * 1/2 for 64-byte ones). */
static double sector_share(const gpu_config *cfg)
{
    double sector = cfg->l2.cache.sector_bytes ? cfg->l2.cache.sector_bytes : 32;
    double burst_bytes = cfg->dram.bus_bits / 8.0 * cfg->dram.burst_length;
    return burst_bytes > 0 ? sector / burst_bytes : 1;
}

double mm_dram_bursts(const gpu_config *cfg, double sectors) { return fmax(1, sectors * sector_share(cfg)); }

/*
 * DRAM efficiency from the timing parameters.  Reads arrive as the sectors
 * of a line the L2 missed (spl_r per line), write-backs as the dirty
 * sectors of an evicted line (spl_w).  An access of s sectors moves s
 * sectors' bytes but holds the data bus for whole bursts, max(1, s x
 * sector / burst bytes) of them (the controller rounds a request up to
 * bursts: a 32-bit GDDR6 channel at BL16 or a 64-bit GDDR5 one at BL8
 * moves 64 bytes, two sectors, per burst, so a lone sector takes as long as
 * two).  rh is per burst, as the simulator counts it; the later bursts of
 * an access find its row open, so an access of b bursts opens a row with
 * probability b (1 - rh), and then it first needs a row
 * activation, and activations are limited to min(U banks / tRC, 1 / tRRD,
 * 4 / tFAW) per DRAM cycle (bank cycle time, activate-to-activate, the
 * four-activate window).  U is the share of time a bank is busy when the
 * controller's queue is full: its Q requests hold about N = Q x (openings
 * per access) row openings, spread over the B banks at random, and in a closed queueing
 * network of B identical servers with random routing each server is busy
 * N / (N + B - 1) of the time (Gordon & Newell, Operations Research 15(2),
 * 1967; the product form, i.e. exponential service -- the simulator's
 * FR-FCFS on V100 with spmv_csr's row-hit rate of 0.58 reaches 0.23
 * activations per cycle, against 0.25 from this and 0.33 without it).  An
 * access takes the longer of the data and the activation.  Mixing
 * reads and writes turns the data bus around: write-to-read costs
 * tWL + burst + tWTR, read-to-write tCL + burst + 2 - tWL; a row-hit-first
 * scheduler serves a row's run of same-type requests together, so a switch
 * happens about 2 w (1 - w) times per run of accesses between row
 * openings, w being the write share; a controller with write-drain
 * watermarks (reads first until `high` writes wait, then writes down to
 * `low`) turns twice per drained batch of high - low writes.  Refresh takes
 * tRFC of every tREFI.  (Standard DRAM bandwidth reasoning, e.g. Jacob, Ng
 * & Wang, "Memory Systems", ch. 11-13.)
 */
double mm_dram_efficiency(const gpu_config *cfg, const mm_dram_mix *x)
{
    const double burst = (double)cfg->dram.burst_length / cfg->dram.data_rate; /* DRAM cycles per burst */
    double s_r = x->spl_r > 1 ? x->spl_r : 1, s_w = x->spl_w > 1 ? x->spl_w : 1;
    double reads = x->read_sectors / s_r, writes = x->write_sectors / s_w;
    if (reads + writes <= 0)
        return 1;
    /* bursts per access, and row openings per access (at most one) */
    double b_r = mm_dram_bursts(cfg, s_r), b_w = mm_dram_bursts(cfg, s_w);
    double open_r = fmin(1, b_r * (1 - x->rh_r)), open_w = fmin(1, b_w * (1 - x->rh_w));
    double open = (reads * open_r + writes * open_w) / (reads + writes);
    double banks = cfg->dram.banks, rows = cfg->dram.queue_entries * open;
    double busy_share = rows > 0 && banks > 1 ? rows / (rows + banks - 1) : 1;
    double act = busy_share * banks / (cfg->dram.tRC ? cfg->dram.tRC : 1);
    if (cfg->dram.tRRD && 1.0 / cfg->dram.tRRD < act)
        act = 1.0 / cfg->dram.tRRD;
    if (cfg->dram.tFAW && 4.0 / cfg->dram.tFAW < act)
        act = 4.0 / cfg->dram.tFAW;
    /* the payload at the peak rate against the longer of the whole bursts
     * and the activation */
    double data = (reads * s_r + writes * s_w) * sector_share(cfg) * burst;
    double need_r = fmax(b_r * burst, open_r / act), need_w = fmax(b_w * burst, open_w / act);
    double busy = reads * need_r + writes * need_w;
    double w = writes / (reads + writes);
    double turn = 0.5 * ((cfg->dram.tWL + burst + cfg->dram.tWTR) + (cfg->dram.tCL + burst + 2.0 - cfg->dram.tWL));
    double run = open > 0 ? 1.0 / open : 64.0; /* accesses per row opening */
    double batch = (double)cfg->dram.write_high - cfg->dram.write_low;
    double switches = batch > 0 ? 2.0 * writes / batch : 2.0 * w * (1.0 - w) / run * (reads + writes);
    double e = data / (busy + switches * turn);
    if (cfg->dram.tREFI)
        e *= 1.0 - (double)cfg->dram.tRFC / cfg->dram.tREFI;
    return e;
}

/* A placement table (profile.h PROF_INFL_NSETS) at `sets` x `ways`,
 * interpolated in log2 of the ways (A100's 56); 0 when out of its range,
 * not measured, or for a set count that is not a power of two, whose
 * modulo placement the table does not describe. */
static double infl_at(const prof_l1hist *h, uint32_t sets, uint32_t ways)
{
    double y = log2d(ways);
    int i = 0;
    while (i < PROF_INFL_NSETS && (1u << i) < sets)
        i++;
    if (i == PROF_INFL_NSETS || (1u << i) != sets || y < 0 || y > PROF_INFL_NWAYS - 1)
        return 0;
    int j = (int)y, j1 = j + 1 < PROF_INFL_NWAYS ? j + 1 : j;
    const uint16_t *t = h->inflight[i];
    if (!t[j] || (y > j && !t[j1]))
        return 0;
    return (t[j] + (y - j) * (t[j1] - t[j])) / PROF_INFL_UNIT;
}

double mm_l1_placement(const prof_kernel *pk, const gpu_config *cfg, double ctas_per_sm, int il)
{
    const gcfg_cache *c = &cfg->l1d;
    if (c->size_bytes == 0 || pk->nl1 == 0 || c->line_bytes != 128 || !c->sets || !c->ways)
        return 0;
    const prof_l1hist *lo, *hi;
    double f;
    if (!l1_pair(pk, nearest_nsm(pk, cfg->gpu.sm_count), ctas_per_sm, il, &lo, &hi, &f))
        return 0;
    double a = infl_at(lo, c->sets, c->ways), b = infl_at(hi, c->sets, c->ways);
    return a > 0 && b > 0 ? a + f * (b - a) : 0;
}

/* See model_int.h. */
double mm_l1_gran(const gpu_config *cfg) { return cfg->l1d.sector_bytes > 32 ? cfg->l1d.sector_bytes / 32.0 : 1; }

/* See model_int.h. */
double mm_camping(const gpu_config *cfg, const prof_kernel *pk, double concurrent_ctas)
{
    static const double win[PROF_CAMP_NWIN] = PROF_CAMP_WINDOWS;
    int f = prof_camp_fn(strcmp(cfg->l2.hash, "linear") != 0, cfg->l2.slices);
    if (f < 0 || cfg->l2.cache.line_bytes != 128)
        return 1;
    const double *c = pk->camp[f];
    if (concurrent_ctas <= win[0])
        return c[0];
    for (int i = 1; i < PROF_CAMP_NWIN; i++)
        if (concurrent_ctas <= win[i]) {
            double x = log(concurrent_ctas / win[i - 1]) / log(win[i] / win[i - 1]);
            return c[i - 1] + x * (c[i] - c[i - 1]);
        }
    return c[PROF_CAMP_NWIN - 1];
}

/* See model_int.h. */
double mm_atomic_busiest_slice(const gpu_config *cfg, const prof_kernel *pk, double atom_sec, double scale)
{
    uint32_t S = cfg->l2.slices;
    if (!S || atom_sec <= 0 || pk->atomic_footprint_lines < 1)
        return 0;
    addrmap am;
    addrmap_init(&am, cfg);
    uint32_t slice[PROF_ATOMIC_HOT], n = 0;
    double load[PROF_ATOMIC_HOT], tracked = 0, hot = 0;
    uint32_t l2_line = cfg->l2.cache.line_bytes ? cfg->l2.cache.line_bytes : 128;
    double gran = mm_l1_gran(cfg);
    for (uint32_t i = 0; i < pk->natomic_hot; i++) {
        uint32_t sl = addrmap_slice(&am, pk->atomic_hot_line[i] * 128 / l2_line), j = 0;
        while (j < n && slice[j] != sl)
            j++;
        if (j == n)
            slice[n] = sl, load[n++] = 0;
        double sec = fmax(pk->atomic_hot_sectors[i], pk->atomic_hot_packets[i] * gran) * scale;
        load[j] += sec;
        tracked += sec;
        if (load[j] > hot)
            hot = load[j];
    }
    double rest = atom_sec > tracked ? atom_sec - tracked : 0;
    double rest_lines = pk->atomic_footprint_lines - pk->natomic_hot;
    if (rest_lines < 1)
        return hot;
    if (rest_lines >= S) /* the rest reaches every slice, the busiest too */
        return hot + rest / S;
    double each = rest / rest_lines;
    return hot > each ? hot : each;
}
