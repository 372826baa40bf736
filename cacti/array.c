/*
 * array.c - one array organisation: partition parameters, the bank built
 * from mats and H-trees, and the UCA built from banks.
 *
 * Partitioning (CACTI 5.1 report HPL-2008-20, sec. 2.2; CACTI 6.0 report
 * HPL-2009-85, sec. 2): a bank of C/nbanks bytes holding sets of A lines of
 * B bytes is cut into Ndbl x Ndwl subarrays; Nspd sets share a wordline, so
 *   rows = C / (nbanks B A Ndbl Nspd),  cols = 8 B A Nspd / Ndwl
 * (tag array: tagbits instead of 8B).  Subarrays are grouped 2 x 2 into
 * mats; an access activates just enough mats across the bank to deliver
 * the output width: num_do_b_mat = 4 cols / (Ndcm Ndsam1 Ndsam2) bits per
 * mat and out_w / num_do_b_mat active mats.  With a set-associative data
 * array (normal access) the level-1 sense-amp mux also selects the way, so
 * Ndsam1 must be a multiple of A.  ECC adds one bit per 8 to columns and to
 * every data path.
 *
 * Access path: bank-to-bank H-tree + in-bank H-tree to the mat, predecode,
 * decode, wordline, bitline, sense amp, sense-amp mux, subarray output
 * driver, in-bank output H-tree, bank-to-bank output H-tree.  The delay
 * before the output driver is the slowest of the row, column-mux and
 * sense-amp-mux select paths.  Random cycle time: wordline + bitline +
 * sense + wordline reset + bitline restore, or the slowest predecoder.
 * Read energy: active mats + the address and data-out H-trees of the bank
 * and of the UCA.  Write energy swaps the read-only terms (bitline sensing,
 * sense amps, data-out trees) for the write terms (full-swing bitlines,
 * data-in trees).  Leakage: all mats of one bank plus the UCA routing.
 */
#include <math.h>
#include <string.h>

#include "cacti_int.h"

#define MIN_ROWS 16
#define MAX_ROWS 262144
#define MIN_COLS 2
#define MAX_COLS 262144
#define V_SENSE_MIN 0.08 /* minimum bitline swing the sense amp resolves, V */

static int log2i(long v)
{
    return v > 0 ? cacti_ilog2((uint64_t)v) : 0;
}

int cacti_dp_rows(const cacti_req *rq, double nspd, int ndwl, int ndbl, cacti_dp *dp)
{
    const cacti_spec *s = rq->spec;
    const cacti_tech *t = rq->t;
    if (ndwl < 2 || ndbl < 2)
        return 0;
    memset(dp, 0, sizeof *dp);
    int A = rq->assoc;
    double per = (double)s->banks * s->line_bytes * A * ndbl * nspd;
    double rows = ceil((double)s->size_bytes / per - 1e-9);
    double cols;
    if (rq->is_tag)
        cols = ceil(rq->tagbits * A * nspd / ndwl - 1e-9);
    else
        cols = ceil(8.0 * s->line_bytes * A * nspd / ndwl - 1e-9);
    if (rows < MIN_ROWS || rows > MAX_ROWS || cols < MIN_COLS || cols > MAX_COLS)
        return 0;
    dp->is_tag = rq->is_tag;
    dp->is_cache = s->is_cache;
    dp->nspd = nspd;
    dp->ndwl = ndwl;
    dp->ndbl = ndbl;
    dp->rows = (int)rows;
    dp->cols = (int)cols;
    dp->tagbits = rq->tagbits;
    dp->assoc = A;
    dp->ecc = s->ecc;
    dp->rwp = (int)s->rw_ports;
    dp->erp = (int)s->rd_ports;
    dp->ewp = (int)s->wr_ports;
    dp->serp = (int)s->se_rd_ports;
    dp->schp = 0;

    int extra = dp->rwp - 1 + dp->erp + dp->ewp;
    if (extra < 0)
        extra = 0;
    dp->cell_h = t->sram_b_h + 2.0 * t->local.pitch * extra;
    dp->cell_w = t->sram_b_w + 2.0 * t->local.pitch * (dp->rwp - 1 + dp->ewp + (dp->erp - dp->serp)) +
                 t->local.pitch * dp->serp;
    if (dp->cell_w < t->sram_b_w)
        dp->cell_w = t->sram_b_w;
    double vs = 0.05 * t->cell.Vdd;
    dp->v_b_sense = vs > V_SENSE_MIN ? vs : V_SENSE_MIN;
    return 1;
}

int cacti_dp_init(const cacti_req *rq, double nspd, int ndwl, int ndbl, int ndcm, int ndsam1,
                  int ndsam2, cacti_dp *dp)
{
    cacti_dp base;
    if (!cacti_dp_rows(rq, nspd, ndwl, ndbl, &base))
        return 0;
    return cacti_dp_split(rq, &base, ndcm, ndsam1, ndsam2, dp);
}

int cacti_dp_split(const cacti_req *rq, const cacti_dp *base, int ndcm, int ndsam1, int ndsam2, cacti_dp *dp)
{
    const cacti_spec *s = rq->spec;
    *dp = *base;
    const int ndwl = dp->ndwl, ndbl = dp->ndbl;
    int A = rq->assoc;
    dp->ndcm = ndcm;
    dp->ndsam1 = ndsam1;
    dp->ndsam2 = ndsam2;
    dp->num_mats_h = ndwl / 2;
    dp->num_mats_v = ndbl / 2;
    dp->num_mats = dp->num_mats_h * dp->num_mats_v;
    int do_mat = 4 * dp->cols / (ndcm * ndsam1 * ndsam2);
    if (do_mat < 1)
        do_mat = 1;
    if (do_mat < 4)
        return 0;
    int fast = s->is_cache && s->access_mode == CACTI_ACCESS_FAST;
    long do_subbank;
    int deg1;
    if (!rq->is_tag) {
        if (fast) {
            do_subbank = (long)rq->out_w * A;
            deg1 = ndsam1;
        } else {
            do_subbank = rq->out_w;
            deg1 = ndsam1 / A;
            if (deg1 < 1)
                return 0;
        }
    } else {
        do_subbank = (long)rq->tagbits * A;
        if (do_mat < rq->tagbits)
            return 0;
        deg1 = ndsam1;
    }
    int act = (int)(do_subbank / do_mat);
    if (act == 0 || act > dp->num_mats_h)
        return 0;
    if (rq->is_tag)
        do_mat = A / act;
    dp->num_do_b_mat = do_mat;
    dp->num_act_mats = act;
    dp->deg_samux1_nonassoc = deg1;
    if (!rq->is_tag)
        dp->num_di_b_mat = fast ? do_mat / A : do_mat;
    else
        dp->num_di_b_mat = rq->tagbits;
    dp->addr_bits_mat = log2i(dp->rows) + log2i(ndcm) + log2i(deg1) + log2i(ndsam2);
    dp->subbank_decode_bits = log2i(dp->num_mats / act);
    if (rq->is_tag) {
        dp->di_bank_port = rq->tagbits;
        dp->do_bank_port = A;
    } else {
        dp->di_bank_port = rq->out_w + A;
        dp->do_bank_port = rq->out_w;
    }
    if (!rq->is_tag && A > 1 && !fast)
        dp->way_select = A;
    if (dp->ecc) {
        dp->num_do_b_mat += (dp->num_do_b_mat + 7) / 8;
        dp->num_di_b_mat += (dp->num_di_b_mat + 7) / 8;
        dp->di_bank_port += (dp->di_bank_port + 7) / 8;
        dp->do_bank_port += (dp->do_bank_port + 7) / 8;
    }
    return 1;
}

int cacti_arr_eval(const cacti_req *rq, const cacti_dp *dp, cacti_matcache *mc, cacti_arr *a)
{
    const cacti_tech *t = rq->t;
    const cacti_spec *s = rq->spec;
    cacti_mat m;
    memset(a, 0, sizeof *a);
    a->dp = *dp;
    if (!cacti_mat_build(t, dp, mc, &m))
        return 0;
    int ports_addr = dp->rwp + dp->erp + dp->ewp;
    int ports_in = dp->rwp + dp->ewp, ports_out = dp->rwp + dp->erp;
    int addr = (dp->addr_bits_mat + dp->subbank_decode_bits) * ports_addr;
    int din = dp->di_bank_port * ports_in;
    int dout = dp->do_bank_port * ports_out;
    if (s->is_cache && s->access_mode == CACTI_ACCESS_FAST && !dp->is_tag)
        dout *= dp->assoc;
    /* the data H-trees form a bidirectional bus as wide as the wider direction;
     * a read or a write switches all of it */
    int dbus = din > dout ? din : dout;

    /* every tree of a level has the same geometry: build one bit, scale by width */
    cacti_htree unit_in, unit_out, b_add, b_din, b_dout;
    cacti_htree_make(t, CACTI_HT_IN, 0, m.w, m.h, dp->num_mats_h, dp->num_mats_v, addr, din, dout, 1, &unit_in);
    cacti_htree_make(t, CACTI_HT_OUT, 0, m.w, m.h, dp->num_mats_h, dp->num_mats_v, addr, din, dout, 1, &unit_out);
    cacti_htree_scale(&unit_in, addr, &b_add);
    cacti_htree_scale(&unit_in, dbus, &b_din);
    cacti_htree_scale(&unit_out, dbus, &b_dout);
    double bank_w = b_din.w, bank_h = b_din.h;

    int nb = (int)s->banks;
    int lb = log2i(nb);
    int nbv = 1 << ((bank_h > bank_w) ? lb / 2 : lb - lb / 2);
    int nbh = nb / nbv;
    cacti_htree unit_u, u_add, u_din, u_dout;
    cacti_htree_make(t, CACTI_HT_IN, 1, bank_w, bank_h, nbh, nbv, addr, din, dout, 1, &unit_u);
    cacti_htree_scale(&unit_u, addr, &u_add);
    cacti_htree_scale(&unit_u, dbus, &u_din);
    cacti_htree_scale(&unit_u, dbus, &u_dout);

    /* delays */
    double to_mat = u_add.delay + b_add.delay;
    double before = to_mat + m.d_row_path;
    double colp = to_mat + m.d_col_path;
    double sa1 = to_mat + m.d_samux1, sa2 = to_mat + m.d_samux2;
    if (colp > before)
        before = colp;
    if (sa1 > before)
        before = sa1;
    if (sa2 > before)
        before = sa2;
    a->delay_before_outdrv = before;
    a->delay_outdrv_to_out = m.d_outdrv_htree + b_dout.delay + u_dout.delay;
    a->delay_samux_dec = sa1 > sa2 ? sa1 : sa2;
    a->access_time = before + a->delay_outdrv_to_out;
    if (dp->is_tag)
        a->access_time += m.d_comparator;
    double cyc = m.row_dec.delay + m.d_bitline + m.d_sa + m.d_wl_reset + m.d_bl_restore;
    if (m.d_max_predec > cyc)
        cyc = m.d_max_predec;
    a->cycle_time = cyc;

    /* energies */
    int act = dp->num_act_mats;
    double route_rd = u_add.dyn + u_dout.dyn, route_wr = u_add.dyn + u_din.dyn;
    a->e_read = m.e_read * act + b_add.dyn + b_dout.dyn + route_rd;
    a->e_write = a->e_read - m.e_bitline_rd * act + m.e_bitline_wr * act - route_rd + route_wr +
                 b_din.dyn - b_dout.dyn - m.e_sa * act;
    /* leakage of one bank + routing */
    a->leak = m.leak * dp->num_mats + u_add.leak + u_din.leak + u_dout.leak;
    a->gleak = m.gleak * dp->num_mats + u_add.gleak + u_din.gleak + u_dout.gleak;
    a->height = u_din.h;
    a->width = u_din.w;
    a->area = a->height * a->width;
    a->cell_area = m.cell_area * dp->num_mats * nb;
    return 1;
}

int cacti_group_prep(const cacti_req *rq, double nspd, int ndwl, int ndbl, cacti_matcache *mc,
                     cacti_gbound *gb, int with_trees)
{
    const cacti_tech *t = rq->t;
    const cacti_spec *s = rq->spec;
    cacti_dp dp;
    if (!cacti_dp_rows(rq, nspd, ndwl, ndbl, &dp))
        return 0;
    const cacti_matrow *R = cacti_matrow_get(t, &dp, mc);
    int nh = ndwl / 2, nv = ndbl / 2, A = rq->assoc;
    /* trees over mats no smaller than their cells, row decoders and sense amps */
    double big = 1e9;
    double h_per = cacti_fold_width(t, t->w_pch, big) + cacti_fold_width(t, t->w_eq, big) + cacti_sa_height(t, big);
    int allp = dp.rwp + dp.erp + dp.ewp;
    double w_rowdec = R->row_dec.area * dp.rows * allp / R->sub_h;
    double mat_w = 2.0 * R->sub_w + 2.0 * w_rowdec, mat_h = 2.0 * R->sub_h + 2.0 * h_per;
    int ports_out = dp.rwp + dp.erp, ports_in = dp.rwp + dp.ewp;
    int do_port = rq->is_tag ? A : rq->out_w, di_port = rq->is_tag ? rq->tagbits : rq->out_w + A;
    int din = di_port * ports_in, dout = do_port * ports_out;
    int dbus = dout > din ? dout : din;
    if (with_trees) {
        /* in-bank trees with their node gates over the smallest mats */
        cacti_htree bi, bo, ut, ut2;
        cacti_htree_make(t, CACTI_HT_IN, 0, mat_w, mat_h, nh, nv, 0, din, dout, 1, &bi);
        cacti_htree_make(t, CACTI_HT_OUT, 0, mat_w, mat_h, nh, nv, 0, din, dout, 1, &bo);
        /* banks no smaller than those mats plus the data-bus tracks between them */
        int nb = (int)s->banks, lb = log2i(nb);
        double bw = bi.w, bh = bi.h;
        /* the bank arrangement depends on the bank's aspect: take the cheaper of both */
        int v1 = 1 << (lb / 2), v2 = 1 << (lb - lb / 2);
        cacti_htree_make(t, CACTI_HT_IN, 1, bw, bh, nb / v1, v1, 0, din, dout, 1, &ut);
        if (v2 != v1) {
            cacti_htree_make(t, CACTI_HT_IN, 1, bw, bh, nb / v2, v2, 0, din, dout, 1, &ut2);
            if (ut2.delay < ut.delay)
                ut.delay = ut2.delay;
            if (ut2.dyn < ut.dyn)
                ut.dyn = ut2.dyn;
        }
        gb->t_in = bi.delay + ut.delay;
        gb->t_out = bo.delay + ut.delay + R->wire_d;
        /* address bits: the row, the mux selects that deliver the output width,
         * the choice of a mat row; for every port */
        double mux_min = log2((double)dp.cols * 4.0 / (rq->is_tag ? (double)rq->tagbits * A : (double)rq->out_w));
        if (!rq->is_tag && A > 1)
            mux_min -= log2((double)A);
        if (mux_min < 0)
            mux_min = 0;
        int addr_lb = (log2i(dp.rows) + (int)floor(mux_min) + log2i(nv)) * allp;
        gb->e_addr_bit = bi.dyn + ut.dyn;
        gb->e_tree = dbus * (bo.dyn + ut.dyn) + addr_lb * gb->e_addr_bit;
        gb->e_data_tree = dbus * (bo.dyn + ut.dyn);
    } else {
        /* cheap bound: no H-trees (they only add delay and energy) */
        gb->t_in = 0.0;
        gb->t_out = R->wire_d;
        gb->e_addr_bit = 0.0;
        gb->e_tree = gb->e_data_tree = 0.0;
    }
    gb->t_row = R->row_pre.delay + R->row_dec.delay;
    gb->e_mat_fixed = R->row_dec.dyn * 4.0 + R->row_pre.dyn + R->bl_pre_drv.pw.dyn * 4.0;

    /* a bound for every mux choice at once: bitline and sense amp with the
     * smallest (unfolded) mux/sense-amp loads, output stages driven by steps,
     * the fewest active mats, at least half the output through sense amps */
    const cacti_dev *pd = &t->peri, *cd = &t->cell;
    double C_iso = cacti_drain_c(t, pd, t->w_iso, CACTI_PCH, 1, 0, big);
    double C_latch = cacti_gate_c(pd, t->w_sense_p + t->w_sense_n) +
                     cacti_drain_c(t, pd, t->w_sense_n, CACTI_NCH, 1, 0, big) +
                     cacti_drain_c(t, pd, t->w_sense_p, CACTI_PCH, 1, 0, big);
    double C_smx = cacti_drain_c(t, pd, t->w_sa_mux, CACTI_NCH, 1, 0, big);
    double R_iso = cacti_ron(pd, t->w_iso, CACTI_PCH, 1);
    double R_pd = cacti_ron(cd, t->cell_n_w, CACTI_NCH, 1), R_acc = cacti_ron(cd, t->cell_a_w, CACTI_NCH, 1);
    double tau = (R_pd + R_acc) * (R->C_bl + C_iso + C_latch + C_smx) + R->R_bl * R->C_bl / 2.0 +
                 R_iso * (C_iso + C_latch + C_smx);
    double vbs = dp.v_b_sense, vcell = cd->Vdd;
    double tstep = tau * log(t->vbitpre / (t->vbitpre - vbs));
    double wl_rise = R->row_dec.out_rise > 0 ? R->row_dec.out_rise : 1e-15;
    double mslope = vcell / wl_rise, vov = vcell - cd->Vth, d_bl;
    if (tstep <= 0.5 * vov / mslope)
        d_bl = sqrt(2.0 * tstep * vov / mslope);
    else
        d_bl = tstep + vov / (2.0 * mslope);
    double d_sa = (C_latch + C_iso + C_smx) / t->gm_sa * log(pd->Vdd / vbs);
    double wmin = t->min_w_nmos, r = pd->n2p;
    double rd_m = cacti_ron(pd, t->w_sa_mux, CACTI_NCH, 1), rd_i = cacti_ron(pd, wmin, CACTI_NCH, 1);
    double c_inv = cacti_drain_c(t, pd, wmin, CACTI_NCH, 1, 1, t->cell_h_def) +
                   cacti_drain_c(t, pd, r * wmin, CACTI_PCH, 1, 1, t->cell_h_def);
    double g_inv = cacti_gate_c(pd, wmin * (1 + r));
    double d_out = cacti_horowitz(0, rd_m * (C_smx + g_inv), 0.5, 0.5, 1) +
                   cacti_horowitz(0, rd_i * (c_inv + g_inv), 0.5, 0.5, 1) +
                   cacti_horowitz(0, rd_i * (c_inv + C_smx), 0.5, 0.5, 1) +
                   cacti_horowitz(0, rd_m * (C_smx + cacti_gate_c(pd, t->rep_h.size * R->rep_n * wmin * (1 + r))),
                                  0.5, 0.5, 1);
    gb->t_lb = gb->t_in + gb->t_row + d_bl + d_sa + d_out + gb->t_out;
    gb->out_lb = d_out + gb->t_out;
    long do_sub = rq->is_tag ? (long)rq->tagbits * A : (long)rq->out_w;
    int deg_min = (!rq->is_tag && A > 1) ? A : 1;
    long act = (long)floor((double)do_sub * deg_min / (4.0 * dp.cols));
    if (act < 1)
        act = 1;
    double e_mat = R->C_bl * 2.0 * vbs * vcell * 4.0 * R->cols + gb->e_mat_fixed;
    double c_sa = cacti_gate_c(pd, t->w_sense_p + t->w_sense_n);
    double half_out = rq->is_tag ? 0.0 : 0.5 * rq->out_w;
    gb->e_lb = act * e_mat + half_out * (R->wire_e + c_sa * pd->Vdd * pd->Vdd) + gb->e_tree;
    gb->c_fixed = R->row_dec.delay + R->d_wl_reset + R->d_bl_restore;
    double cyc = gb->c_fixed + d_bl + d_sa;
    gb->c_lb = cyc > R->row_pre.delay ? cyc : R->row_pre.delay;
    return 1;
}

void cacti_split_bound(const cacti_req *rq, const cacti_dp *dp, cacti_matcache *mc, const cacti_gbound *gb,
                       double *t_lb, double *e_lb, double *c_lb, double *out_lb)
{
    const cacti_matrow *R = cacti_matrow_get(rq->t, dp, mc);
    const cacti_muxdec *bm, *s1, *s2;
    cacti_matcore c;
    cacti_mat_core(rq->t, dp, R, &c);
    double before = gb->t_row + c.d_bitline + c.d_sa, e_mux = 0.0;
    double cyc = gb->c_fixed + c.d_bitline + c.d_sa;
    if (R->row_pre.delay > cyc)
        cyc = R->row_pre.delay;
    if (cacti_mux_get(rq->t, dp, mc, &bm, &s1, &s2)) {
        if (bm->pre.delay > cyc)
            cyc = bm->pre.delay;
        if (s1->pre.delay > cyc)
            cyc = s1->pre.delay;
        if (s2->pre.delay > cyc)
            cyc = s2->pre.delay;
        double colp = bm->pre.delay + bm->dec.delay + c.d_sa;
        double sa1 = (s1->pre.delay > s1->way.delay ? s1->pre.delay : s1->way.delay) + s1->dec.delay;
        double sa2 = s2->pre.delay + s2->dec.delay;
        if (colp > before)
            before = colp;
        if (sa1 > before)
            before = sa1;
        if (sa2 > before)
            before = sa2;
        e_mux = bm->pre.dyn + bm->dec.dyn + s1->pre.dyn + s1->dec.dyn + s2->pre.dyn + s2->dec.dyn;
    }
    int nsa = R->cols / dp->ndcm > 0 ? R->cols / dp->ndcm : 1;
    *t_lb = gb->t_in + before + c.d_out + gb->t_out;
    double e_mat = gb->e_mat_fixed + e_mux + c.e_col_rd * 4.0 * R->cols + c.e_sa_one * nsa * 4.0 +
                   (c.out_e + R->wire_e) * dp->num_do_b_mat;
    int addr = (dp->addr_bits_mat + dp->subbank_decode_bits) * (dp->rwp + dp->erp + dp->ewp);
    *e_lb = dp->num_act_mats * e_mat + gb->e_data_tree + addr * gb->e_addr_bit;
    *c_lb = cyc;
    *out_lb = c.d_out + gb->t_out;
}
