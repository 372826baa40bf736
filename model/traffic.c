/*
 * traffic.c - a kernel's memory traffic under the model: hit rates, the
 * sectors and lines each level moves, DRAM row locality and efficiency,
 * crossbar flits, the latency path, and the GPU-wide DRAM, L2 and crossbar
 * bounds (partition camping and the busiest atomic slice included).  The
 * second step of model_kernel (model.c); docs/model.md, steps 2, 3 and 7.
 */
#include <math.h>
#include <string.h>

#include "model_int.h"

#define PKT_HEADER_BYTES 8.0 /* a memory packet's header, as the simulator's (sampler/mempkt.h) */

/* Flits of one packet carrying `spp` 32 B sectors (an average: interpolated
 * between the neighbouring whole sector counts). */
double mm_pkt_flits(double spp, double flit_bytes)
{
    double lo = floor(spp), f = spp - lo;
    double a = ceil((PKT_HEADER_BYTES + 32.0 * lo) / flit_bytes);
    double b = ceil((PKT_HEADER_BYTES + 32.0 * (lo + 1)) / flit_bytes);
    return (1 - f) * a + f * b;
}

/* The share of its flit slots that a crossbar input with a packet always
 * waiting can use, when the other inputs send k flits per flit of its own to
 * each output (uniformly spread).  Its head packet, going to a random output,
 * finds that output carrying another input's packet with probability u (the
 * others' utilisation of an output) and waits out its residual, half a
 * packet of the same length on average (head-of-line blocking; Karol,
 * Hluchyj and Morgan, IEEE Trans. Commun. 35(12), 1987, for the saturated
 * symmetric switch).  Per packet of L flits the input thus takes
 * L (1 + u / 2) slots, and the others move with it, u = k x eta, so
 * eta = 1 / (1 + k eta / 2): eta = (sqrt(1 + 2k) - 1) / k. */
double mm_hol_throughput(double k)
{
    return k > 1e-9 ? (sqrt(1 + 2 * k) - 1) / k : 1;
}

void mm_traffic_of(const gpu_config *cfg, const profile *p, uint32_t k, const model_params *mp, const mm_setup *s,
                   mm_traffic *m)
{
    memset(m, 0, sizeof *m);
    /* hit rates: h1 filters traffic (model.c computes the L1 hit rate of
     * latency, which excludes the reuses that find their line still in
     * flight, with the latency) */
    double recent = 0;
    double h1m = mm_l1_hit(s->pk, cfg, s->runs, s->c, s->il, 0, &recent);
    m->h1 = mp->l1_filter >= 0 ? mp->l1_filter : h1m;
    m->load_sec = mm_sum_ops(s->t.op_sectors, MM_SP(GLOBAL) | MM_SP(LOCAL), ISA_F_LOAD);
    m->store_sec = mm_sum_ops(s->t.op_sectors, MM_SP(GLOBAL) | MM_SP(LOCAL), ISA_F_STORE);
    double atom_sec = mm_sum_ops(s->t.op_sectors, MM_SP(GLOBAL), ISA_F_ATOMIC);
    m->load_lines = mm_sum_ops(s->t.op_lines, MM_SP(GLOBAL) | MM_SP(LOCAL), ISA_F_LOAD);
    /* sectors moved below the L1 (mm_l1_gran); L1 activity stays in the
     * accesses' own sectors */
    double gran = mm_l1_gran(cfg);
    double load_mv = fmax(m->load_sec, m->load_lines * gran);
    double store_lines = mm_sum_ops(s->t.op_lines, MM_SP(GLOBAL) | MM_SP(LOCAL), ISA_F_STORE);
    m->atom_lines = mm_sum_ops(s->t.op_lines, MM_SP(GLOBAL), ISA_F_ATOMIC);
    m->store_mv = fmax(m->store_sec, store_lines * gran);
    m->atom_mv = fmax(atom_sec, m->atom_lines * gran);
    double H2;
    mm_l2_hits(p, k, cfg, (double)s->occ.ctas_per_sm * s->sms, &H2, &m->H2s);
    m->h2 = mp->l2_hit >= 0 ? mp->l2_hit : (m->h1 < 1 ? (H2 - m->h1) / (1 - m->h1) : 1);
    if (m->h2 < 0)
        m->h2 = 0;
    if (m->h2 > 1)
        m->h2 = 1;

    /* Row-buffer locality: measured in hybrid mode; otherwise a line fetched
     * whole (4 sectors) is taken to be part of a stream that opens a row once
     * per row_bytes / 128 lines, and a lone sector to open its own row.
     * Reads reach DRAM as the loads coalesced them; write-backs as the L2
     * merged them, i.e. the written sectors of each written line. */
    m->mp = *mp;
    double rh_stream = 1.0 - 128.0 / cfg->dram.row_bytes;
    double ld_lines = mm_sum_ops(s->t.op_lines, MM_SP(GLOBAL) | MM_SP(LOCAL), ISA_F_LOAD | ISA_F_ATOMIC);
    double spl_r = ld_lines > 0 ? (load_mv + m->atom_mv) / ld_lines : 4;
    /* A row stays open for the other sectors of a line that neighbouring
     * warps read soon after (a 16-wide tile reads half lines), so the
     * reads' row locality follows the sectors the kernel loads per loaded
     * line over its whole run, when that is the higher figure. */
    double spl_rows = s->pk->load_footprint_lines > 0 ? s->pk->load_footprint_sectors / s->pk->load_footprint_lines : 0;
    double spl_rr = fmin(4, fmax(spl_r, spl_rows));
    double spl_w = s->pk->store_footprint_lines > 0 ? s->pk->store_footprint_sectors / s->pk->store_footprint_lines : 4;
    /* Those estimates are per access; the DRAM model's rate is per burst, as
     * the simulator counts it, and an access's later bursts hit the row its
     * first one opened. */
    m->bursts_r = mm_dram_bursts(cfg, fmax(1, spl_r)), m->bursts_w = mm_dram_bursts(cfg, fmax(1, spl_w));
    double rh_r = 1 - (1 - rh_stream * (spl_rr - 1) / 3.0) / m->bursts_r;
    double rh_w = 1 - (1 - rh_stream * (spl_w - 1) / 3.0) / m->bursts_w;
    if (mp->row_hit >= 0) {
        rh_r = mp->row_hit;
        rh_w = mp->row_hit_w >= 0 ? mp->row_hit_w : mp->row_hit;
    }
    mp = &m->mp;

    /* memory volumes */
    m->l1_miss_sec = load_mv * (1 - m->h1);
    m->dram_read_sec = m->l1_miss_sec * (1 - m->h2) + m->atom_mv * (1 - m->H2s);
    /* Written lines stay dirty in the write-back L2 and reach DRAM only when
     * evicted: a kernel whose footprint fits the L2 writes nothing back
     * before it ends. */
    double l2_bytes = (double)cfg->l2.cache.size_bytes * cfg->l2.slices;
    double foot_bytes = s->pk->footprint_lines * 128.0;
    double spill = foot_bytes > l2_bytes ? 1 - l2_bytes / foot_bytes : 0;
    m->dram_write_sec = s->pk->store_footprint_sectors * (s->ctas / (s->pk->nctas ? s->pk->nctas : 1)) * spill;
    m->dram_bytes = (m->dram_read_sec + m->dram_write_sec) * 32.0;
    mm_dram_mix mix = {m->dram_read_sec, spl_r, rh_r, m->dram_write_sec, spl_w, rh_w};
    m->dram_eff = mp->dram_efficiency > 0 ? mp->dram_efficiency : mm_dram_efficiency(cfg, &mix);
    /* accesses of spl sectors, each of whole bursts */
    m->acc_r = m->dram_read_sec / fmax(1, spl_r), m->acc_w = m->dram_write_sec / fmax(1, spl_w);
    /* the rate over all bursts, reads' and writes' */
    m->row_hit = m->dram_read_sec + m->dram_write_sec > 0
                     ? (m->acc_r * m->bursts_r * rh_r + m->acc_w * m->bursts_w * rh_w) /
                           (m->acc_r * m->bursts_r + m->acc_w * m->bursts_w)
                     : rh_r;
    if (mp->row_hit < 0)
        m->mp.row_hit = m->row_hit;
    mm_latencies(cfg, mp, m->bursts_r, &m->path);
    m->l2_sec = m->l1_miss_sec + m->store_mv + m->atom_mv;
    double miss_lines = m->load_lines * (1 - m->h1);
    m->miss_lines_per_warp = s->t.warps > 0 ? miss_lines / s->t.warps : 0;
    /* the SM's NoC port: cycles to move one sector, and per warp in total */
    m->noc_per_sector = 32.0 / ((double)cfg->noc.flit_bytes * cfg->noc.port_flits_per_cycle) *
                            cfg->gpu.core_clock_mhz / cfg->gpu.icnt_clock_mhz;
    m->port_per_warp = s->t.warps > 0 ? (m->l1_miss_sec + m->store_mv + m->atom_mv) * m->noc_per_sector / s->t.warps : 0;
    /* Crossbar flits per direction, packet by packet as the simulator
     * sends them: requests are the L1 misses' read requests (a header) and
     * the stores and atomics (header and data); replies carry the misses'
     * and the atomics' data.  Each direction has its own network. */
    double F = cfg->noc.flit_bytes;
    double atom_flits = m->atom_lines > 0 ? m->atom_lines * mm_pkt_flits(m->atom_mv / m->atom_lines, F) : 0;
    double req_flits = miss_lines * mm_pkt_flits(0, F) + atom_flits +
                       (store_lines > 0 ? store_lines * mm_pkt_flits(m->store_mv / store_lines, F) : 0);
    double rep_flits = (miss_lines > 0 ? miss_lines * mm_pkt_flits(m->l1_miss_sec / miss_lines, F) : 0) + atom_flits;
    m->noc_flits = req_flits + rep_flits;

    m->t_dram = m->dram_bytes / (m->path.dram_bw * m->dram_eff * s->share);
    m->t_l2 = m->l2_sec * 32.0 / (m->path.l2_bw * s->share);
    m->t_noc = fmax(req_flits, rep_flits) * F / (m->path.noc_bw * s->share);
    /* Partition camping: the slices (and their crossbar ports) that the
     * CTAs running together crowd set the pace, not the average slice.
     * (The atomic bound below finds its busiest slice itself.) */
    double camp = mm_camping(cfg, s->pk, fmin(s->ctas, (double)s->occ.ctas_per_sm * s->active));
    m->t_l2 *= camp;
    m->t_noc *= camp;
    /* Global atomics are performed at the L2 slice that owns their line,
     * each sector holding the slice's port for a whole cycle (other accesses
     * move l2.banks sectors per cycle): a kernel that hammers few lines is
     * bound by the busiest slice, which also serves its share of the rest. */
    double l2_banks = cfg->l2.cache.banks ? cfg->l2.cache.banks : 1;
    double atom_busiest = mm_atomic_busiest_slice(cfg, s->pk, m->atom_mv, s->ctas / (s->pk->nctas ? (double)s->pk->nctas : 1));
    if (atom_busiest > 0) {
        double busiest = atom_busiest + (m->l1_miss_sec + m->store_mv) / (cfg->l2.slices * l2_banks);
        /* its replies leave through one crossbar input, blocked whenever the
         * SM its head packet goes to takes another slice's reply: the
         * other slices' reply data per reply of its own, per SM */
        double own = atom_busiest + m->l1_miss_sec / cfg->l2.slices;
        double others = m->l1_miss_sec + m->atom_mv - own;
        double hol = others > 0 && s->sms ? mm_hol_throughput(others / own / s->sms) : 1;
        double t_atom = busiest / hol / s->share * cfg->gpu.core_clock_mhz / cfg->gpu.l2_clock_mhz;
        if (t_atom > m->t_l2)
            m->t_l2 = t_atom;
    }
}
