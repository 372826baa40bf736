/*
 * mat.c - subarray and mat: wordline, bitlines, precharge/equalisation,
 * column multiplexer, sense amplifiers, sense-amp multiplexers, subarray
 * output drivers, and the mat's area, energy and leakage.
 *
 * Organisation (CACTI 5.1 report HPL-2008-20, sec. 2-4; CACTI 6.0 report
 * HPL-2009-85, sec. 2): a mat is 2 x 2 subarrays sharing predecoders in its
 * centre; an access activates one wordline in each of the 4 subarrays of an
 * active mat.  A subarray has `rows` wordlines and `cols` bitline pairs (plus
 * one ECC column per 8 when ECC is on).  Columns are multiplexed Ndcm:1 in
 * front of the sense amplifiers and the sense-amp outputs Ndsam1:1 and
 * Ndsam2:1 before the subarray output drivers.
 *
 * Multi-ported cells grow by two wire pitches per extra port in each
 * direction (one pitch for a single-ended read port) (CACTI 5.1 sec. 4.1).
 *
 * Bitline read (CACTI 5.1 sec. 5.4): the cell discharges the bitline
 * through its access and pull-down transistors until the sense voltage
 * V_sense = max(0.05 Vdd, 80 mV) develops:
 *   tau = (R_acc + R_pd)(C_bl + C_mux + C_sa) + R_bl (C_bl/2 + ...) + ...
 *   t_step = tau ln(V_pre / (V_pre - V_sense)),
 * corrected for the wordline ramp m = V_wl / t_rise:
 *   t = sqrt(2 t_step (V_wl - Vth) / m)        if t_step <= (V_wl - Vth)/(2m)
 *   t = t_step + (V_wl - Vth) / (2m)           otherwise.
 * Read energy: every bitline pair of the 4 active subarrays swings by
 * V_sense (2 C V_sense Vdd per pair); writes swing the written columns
 * fully (C_bl Vdd^2 on both sides, counted for the written columns of
 * every active mat as in CACTI 6.5).
 * Sense amplifier (CACTI 6.0 sec. 5): latch with transconductance gm,
 * t = (C_latch / gm) ln(Vdd / V_sense).
 * Bitline restore for the cycle time: precharge driver + RC of the
 * precharge PMOS and the bitline until within 10% of V_sense.
 * Cell leakage: two inverters plus access devices per port (stacked for
 * read-only ports), gate leakage of the cell and read-port devices.
 */
#include <math.h>
#include <string.h>

#include "cacti_int.h"

static int ilog2i(int v)
{
    return v > 0 ? cacti_ilog2((uint64_t)v) : 0;
}

/* Everything that depends only on rows, columns and the cell. */
static void row_build(const cacti_tech *t, const cacti_dp *dp, int cols, cacti_matcache *mc, cacti_matrow *r)
{
    const cacti_dev *pd = &t->peri, *cd = &t->cell;
    const double cw = dp->cell_w, ch = dp->cell_h;
    const int rows = dp->rows, sub_per_mat = 4, sub_per_row = 2;
    memset(r, 0, sizeof *r);
    r->rows = rows;
    r->cols = cols;
    r->cw = cw;
    r->ch = ch;
    r->sub_h = ch * rows;
    r->sub_w = cw * cols + ceil(cols / 16.0) * t->wl_stitch;
    r->cell_area = cw * ch * (double)rows * cols * sub_per_mat;
    r->C_wl = (2.0 * cacti_gate_c(cd, t->cell_a_w) + cw * t->local.C_per_um) * cols;
    r->R_wl = cols * cw * t->local.R_per_um;
    r->C_bl = rows * (cacti_drain_c(t, cd, t->cell_a_w, CACTI_NCH, 1, 0, cw) / 2.0 + ch * t->local.C_per_um);
    r->R_bl = rows * ch * t->local.R_per_um;

    /* the wordline driver and precharge driver depend on the columns, the
     * predecoder on the rows: both are memoised across partitions */
    /* linear probing: a search meets a few dozen distinct row and column counts */
    unsigned hc = (((unsigned)cols * 2654435761u) >> 24) % CACTI_RC_SLOTS;
    for (int k = 0; k < CACTI_RC_SLOTS && mc->dec_cols[hc] && (mc->dec_cols[hc] != cols || mc->dec_cw[hc] != cw); k++)
        hc = (hc + 1) % CACTI_RC_SLOTS;
    if (mc->dec_cols[hc] != cols || mc->dec_cw[hc] != cw) {
        cacti_dec_make(t, &mc->dec[hc], rows, 0, r->C_wl, r->R_wl, ch);
        cacti_driver_make(t, &mc->blpre[hc], cols * cacti_gate_c(pd, 2.0 * t->w_pch + t->w_eq),
                          cols * cw * t->outside.C_per_um, cols * cw * t->outside.R_per_um);
        cacti_driver_time(t, &mc->blpre[hc], 0.0);
        mc->dec_cols[hc] = cols;
        mc->dec_cw[hc] = cw;
    }
    r->row_dec = mc->dec[hc];
    if (rows < 16) /* fewer than 4 address bits: no separate decoder (not reached: rows >= 16) */
        r->row_dec.exist = 0;
    r->bl_pre_drv = mc->blpre[hc];
    unsigned hr = (((unsigned)rows * 2654435761u) >> 24) % CACTI_RC_SLOTS;
    for (int k = 0; k < CACTI_RC_SLOTS && mc->pre_rows[hr] && mc->pre_rows[hr] != rows; k++)
        hr = (hr + 1) % CACTI_RC_SLOTS;
    if (mc->pre_rows[hr] != rows) {
        double c_pre_wire = sub_per_row * rows * t->inside.C_per_um * ch;
        double r_pre_wire = sub_per_row * rows * t->inside.R_per_um * ch;
        cacti_predec_make(t, &mc->pre[hr], rows, &r->row_dec, c_pre_wire, r_pre_wire, sub_per_mat, 0.0);
        mc->pre_rows[hr] = rows;
    }
    r->row_pre = mc->pre[hr];
    cacti_dec_time(t, &r->row_dec, r->row_pre.out_rise, cd->Vdd);

    /* wordline reset and bitline restore (cycle time) */
    int k = r->row_dec.ch.n - 1;
    if (r->row_dec.exist && k >= 0) {
        double rdw = cacti_ron(pd, r->row_dec.ch.wn[k], CACTI_NCH, 1);
        double cint = cacti_drain_c(t, pd, r->row_dec.ch.wp[k], CACTI_PCH, 1, 1, 4 * ch) +
                      cacti_drain_c(t, pd, r->row_dec.ch.wn[k], CACTI_NCH, 1, 1, 4 * ch);
        double tfw = rdw * (cint + r->C_wl) + r->R_wl * r->C_wl / 2.0;
        r->d_wl_reset = cacti_horowitz(0, tfw, 0.5, 0.5, 1);
    } else {
        r->d_wl_reset = r->row_pre.delay;
    }
    double vbs = dp->v_b_sense;
    double R_pch = cacti_ron(pd, t->w_pch, CACTI_PCH, 1);
    r->d_bl_restore = r->bl_pre_drv.delay + log((t->vbitpre - 0.1 * vbs) / (t->vbitpre - vbs)) *
                                                (R_pch * r->C_bl + r->R_bl * r->C_bl / 2.0);

    /* the sense-amp outputs run across the subarray width to the mat's data port */
    double L_out = r->sub_w;
    r->rep_n = L_out / t->rep_h.spacing;
    r->wire_d = t->rep_h.delay * L_out;
    r->wire_e = t->rep_h.dyn * L_out;
    r->wire_l = t->rep_h.leak * L_out;
    r->wire_gl = t->rep_h.gleak * L_out;
    double wmin = t->min_w_nmos;
    r->rep_area = r->rep_n * cacti_gate_area(t, CACTI_G_INV, 1, pd->n2p * wmin * t->rep_h.size,
                                             wmin * t->rep_h.size, t->cell_h_def);

    /* cell leakage: two inverters, access devices per port (stacked for read-only ports) */
    const int RWP = dp->rwp, ERP = dp->erp, EWP = dp->ewp;
    double i_cell = 2.0 * cacti_isub(cd, t->cell_n_w, t->cell_p_w, 1, CACTI_G_INV);
    double i_port = cacti_isub(cd, t->cell_a_w, 0, 1, CACTI_G_NMOS);
    double i_port_rd = cacti_isub(cd, t->cell_a_w, 0, 2, CACTI_G_NMOS);
    r->leak_cell = (i_cell + i_port * (RWP + EWP) + i_port_rd * ERP) * cd->Vdd;
    r->gleak_cell = (cacti_ig(cd, t->cell_n_w, t->cell_p_w, 1, CACTI_G_INV) +
                     cacti_ig(cd, t->cell_a_w, 0, 1, CACTI_G_NMOS) * ERP) *
                    cd->Vdd;
}

static const cacti_muxdec *mux_get(const cacti_tech *t, cacti_muxdec *slot, int cols, int nsig, int way_select,
                                   double c_load, double r_wire, double cell_h)
{
    if (!slot->valid || slot->cols != cols) {
        slot->cols = cols;
        cacti_dec_make(t, &slot->dec, nsig, way_select > 1, c_load, r_wire, cell_h);
        cacti_predec_make(t, &slot->pre, nsig, &slot->dec, 0, 0, 1, 0.0);
        cacti_waysel_make(t, &slot->way, way_select, &slot->dec, 0.0);
        double rise = slot->pre.out_rise > slot->way.out_rise ? slot->pre.out_rise : slot->way.out_rise;
        cacti_dec_time(t, &slot->dec, rise, t->peri.Vdd);
        slot->valid = 1;
    }
    return slot;
}

void cacti_mat_core(const cacti_tech *t, const cacti_dp *dp, const cacti_matrow *R, cacti_matcore *c)
{
    const cacti_dev *pd = &t->peri, *cd = &t->cell;
    const int rdp = dp->rwp + dp->erp > 0 ? dp->rwp + dp->erp : 1;
    const double vdd = pd->Vdd, vcell = cd->Vdd, cw = dp->cell_w, r = pd->n2p;
    const int ndcm = dp->ndcm, ndsam1 = dp->ndsam1, ndsam2 = dp->ndsam2;
    const double R_bl = R->R_bl;
    /* ---- bitlines ---- */
    double pitch_bmux = cw / (2.0 * rdp);
    double pitch_sa = cw * ndcm / rdp;
    double C_drain_bmux = cacti_drain_c(t, pd, t->w_b_mux, CACTI_NCH, 1, 0, pitch_bmux);
    double R_bmux = cacti_ron(pd, t->w_b_mux, CACTI_NCH, 1);
    double C_iso = cacti_drain_c(t, pd, t->w_iso, CACTI_PCH, 1, 0, pitch_sa);
    double R_iso = cacti_ron(pd, t->w_iso, CACTI_PCH, 1);
    double C_latch = cacti_gate_c(pd, t->w_sense_p + t->w_sense_n) +
                     cacti_drain_c(t, pd, t->w_sense_n, CACTI_NCH, 1, 0, pitch_sa) +
                     cacti_drain_c(t, pd, t->w_sense_p, CACTI_PCH, 1, 0, pitch_sa);
    double C_samux_d = cacti_drain_c(t, pd, t->w_sa_mux, CACTI_NCH, 1, 0, pitch_sa);
    double R_pd = cacti_ron(cd, t->cell_n_w, CACTI_NCH, 1);
    double R_acc = cacti_ron(cd, t->cell_a_w, CACTI_NCH, 1);
    double vbs = dp->v_b_sense;
    double tau, e_col_rd, e_col_wr;
    int deg_sam = ndsam1 * ndsam2;
    if (ndcm > 1) {
        double c_down = 2 * C_drain_bmux + 2 * C_iso + C_latch + C_samux_d;
        tau = (R_pd + R_acc) * (R->C_bl + c_down) + R_bl * (R->C_bl / 2.0 + c_down) +
              R_bmux * (C_drain_bmux + 2 * C_iso + C_latch + C_samux_d) + R_iso * (C_iso + C_latch + C_samux_d);
        e_col_rd = (R->C_bl + 2 * C_drain_bmux) * 2.0 * vbs * vcell +
                   (2 * C_iso + C_latch + C_samux_d) * 2.0 * vbs * vcell / ndcm;
        e_col_wr = (1.0 / ndcm / deg_sam) * dp->num_act_mats * (R->C_bl + 2 * C_drain_bmux) * vcell * vcell * 2.0;
    } else {
        tau = (R_pd + R_acc) * (R->C_bl + C_iso + C_latch + C_samux_d) + R_bl * R->C_bl / 2.0 +
              R_iso * (C_iso + C_latch + C_samux_d);
        e_col_rd = (R->C_bl + 2 * C_iso + C_latch + C_samux_d) * 2.0 * vbs * vcell;
        e_col_wr = (1.0 / deg_sam) * dp->num_act_mats * R->C_bl * vcell * vcell * 2.0;
    }
    double tstep = tau * log(t->vbitpre / (t->vbitpre - vbs));
    double wl_rise = R->row_dec.out_rise > 0 ? R->row_dec.out_rise : R->row_pre.out_rise;
    if (wl_rise <= 0)
        wl_rise = 1e-15;
    double mslope = vcell / wl_rise;
    double vov = vcell - cd->Vth;
    if (tstep <= 0.5 * vov / mslope)
        c->d_bitline = sqrt(2.0 * tstep * vov / mslope);
    else
        c->d_bitline = tstep + vov / (2.0 * mslope);

    /* ---- sense amplifier ---- */
    double C_sa_ld = C_latch + C_iso + C_samux_d;
    c->d_sa = C_sa_ld / t->gm_sa * log(vdd / vbs);
    c->e_sa_one = C_sa_ld * vdd * vdd;

    /* ---- sense-amp muxes and the subarray output driver ---- */
    double wmin = t->min_w_nmos, v2 = vdd * vdd;
    double out_d = 0, out_e = 0, rise = 0, cl, rd, dl;
    double c_samux2_d = cacti_drain_c(t, pd, t->w_sa_mux, CACTI_NCH, 1, 0, cw * ndcm * ndsam1 / rdp);
    rd = cacti_ron(pd, t->w_sa_mux, CACTI_NCH, 1);
    cl = ndsam1 * C_samux_d + cacti_gate_c(pd, wmin * (1 + r));
    dl = cacti_horowitz(rise, rd * cl, 0.5, 0.5, 1);
    out_d += dl;
    rise = dl / 0.5;
    out_e += 0.5 * cl * v2;
    double c_inv_d = cacti_drain_c(t, pd, wmin, CACTI_NCH, 1, 1, t->cell_h_def) +
                     cacti_drain_c(t, pd, r * wmin, CACTI_PCH, 1, 1, t->cell_h_def);
    double rdmin = cacti_ron(pd, wmin, CACTI_NCH, 1);
    cl = c_inv_d + cacti_gate_c(pd, wmin * (1 + r));
    dl = cacti_horowitz(rise, rdmin * cl, 0.5, 0.5, 1);
    out_d += dl;
    rise = dl / 0.5;
    out_e += 0.5 * cl * v2;
    cl = c_inv_d + c_samux2_d;
    dl = cacti_horowitz(rise, rdmin * cl, 0.5, 0.5, 1);
    out_d += dl;
    rise = dl / 0.5;
    out_e += 0.5 * cl * v2;
    cl = ndsam2 * c_samux2_d + cacti_gate_c(pd, t->rep_h.size * R->rep_n * wmin * (1 + r));
    dl = cacti_horowitz(rise, rd * cl, 0.5, 0.5, 1);
    out_d += dl;
    out_e += 0.5 * cl * v2;
    c->d_out = out_d;
    c->out_e = out_e;
    c->e_col_rd = e_col_rd;
    c->e_col_wr = e_col_wr;

}

const cacti_matrow *cacti_matrow_get(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc)
{
    int cols = dp->cols + (dp->ecc ? (dp->cols + 7) / 8 : 0);
    cacti_matrow *R = &mc->row;
    if (!mc->row_valid || R->rows != dp->rows || R->cols != cols || R->cw != dp->cell_w || R->ch != dp->cell_h) {
        row_build(t, dp, cols, mc, R);
        mc->row_valid = 1;
    }
    if (mc->mux_cw != dp->cell_w || mc->mux_ch != dp->cell_h) {
        /* a different cell invalidates every multiplexer decoder */
        for (int w = 0; w < CACTI_MUX_WAYS; w++)
            for (int i = 0; i < 10; i++) {
                mc->bmux[w][i].valid = 0;
                for (int j = 0; j < 20; j++)
                    mc->sa1[w][j][i].valid = mc->sa2[w][j][i].valid = 0;
            }
        mc->mux_cw = dp->cell_w;
        mc->mux_ch = dp->cell_h;
    }
    mc->mux_cols = cols;
    return R;
}

int cacti_mux_get(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc, const cacti_muxdec **bm,
                  const cacti_muxdec **s1, const cacti_muxdec **s2)
{
    const cacti_dev *pd = &t->peri;
    const int cols = mc->mux_cols, sub_per_mat = 4, sub_per_row = 2;
    const double cw = dp->cell_w, ch = dp->cell_h;
    const int ndcm = dp->ndcm, ndsam1 = dp->ndsam1, ndsam2 = dp->ndsam2;
    const int nsa = cols / ndcm > 0 ? cols / ndcm : 1;
    double wire_c_mux = sub_per_row * cols * t->inside.C_per_um * cw;
    double wire_r_mux = sub_per_row * cols * t->inside.R_per_um * cw / 2.0;
    int lcm = ilog2i(ndcm), l1 = ilog2i(ndsam1), l2 = ilog2i(ndsam2);
    if (lcm > 9 || l1 > 9 || l2 > 9 || lcm + l1 > 19)
        return 0;
    double c_bmux = ndcm > 1 ? (2.0 * sub_per_mat * cols / ndcm) * cacti_gate_c(pd, t->w_b_mux) + wire_c_mux : 0;
    double c_sa1 = ndsam1 > 1 ? ((double)sub_per_mat * nsa / ndsam1) * cacti_gate_c(pd, t->w_sa_mux) + wire_c_mux : 0;
    double c_sa2 =
        ndsam2 > 1 ? ((double)sub_per_mat * nsa / (ndsam1 * ndsam2)) * cacti_gate_c(pd, t->w_sa_mux) + wire_c_mux : 0;
    int w = (int)((((unsigned)cols * 2654435761u) >> 24) % CACTI_MUX_WAYS);
    *bm = mux_get(t, &mc->bmux[w][lcm], cols, ndcm, 0, c_bmux, wire_r_mux, ch);
    *s1 = mux_get(t, &mc->sa1[w][lcm + l1][l1], cols, dp->deg_samux1_nonassoc, dp->way_select, c_sa1, wire_r_mux, ch);
    *s2 = mux_get(t, &mc->sa2[w][lcm + l1][l2], cols, ndsam2, 0, c_sa2, wire_r_mux, ch);
    return 1;
}

int cacti_mat_build(const cacti_tech *t, const cacti_dp *dp, cacti_matcache *mc, cacti_mat *m)
{
    memset(m, 0, sizeof *m);
    const cacti_dev *pd = &t->peri;
    const int RWP = dp->rwp, ERP = dp->erp, EWP = dp->ewp, SCHP = dp->schp;
    const int rdp = RWP + ERP > 0 ? RWP + ERP : 1;
    const int allp = RWP + ERP + EWP;
    const int rwsp = RWP + ERP + SCHP > 0 ? RWP + ERP + SCHP : 1;
    const double vdd = pd->Vdd;
    const double cw = dp->cell_w;
    const int rows = dp->rows;
    int cols = dp->cols + (dp->ecc ? (dp->cols + 7) / 8 : 0);
    m->cols_ecc = cols;
    const int sub_per_mat = 4, sub_per_row = 2;
    const int ndcm = dp->ndcm, ndsam1 = dp->ndsam1, ndsam2 = dp->ndsam2;
    const double r = pd->n2p;

    const cacti_matrow *R = cacti_matrow_get(t, dp, mc);
    m->sub_h = R->sub_h;
    m->sub_w = R->sub_w;
    m->cell_area = R->cell_area;
    m->C_wl = R->C_wl;
    m->R_wl = R->R_wl;
    m->C_bl = R->C_bl;
    m->row_dec = R->row_dec;
    m->row_pre = R->row_pre;
    m->bl_pre_drv = R->bl_pre_drv;
    m->d_wl_reset = R->d_wl_reset;
    m->d_bl_restore = R->d_bl_restore;
    const int nsa = cols / ndcm > 0 ? cols / ndcm : 1;

    const cacti_muxdec *bm, *s1, *s2;
    if (!cacti_mux_get(t, dp, mc, &bm, &s1, &s2))
        return 0;
    m->bmux_dec = bm->dec;
    m->bmux_pre = bm->pre;
    m->sa1_dec = s1->dec;
    m->sa1_pre = s1->pre;
    m->waysel = s1->way;
    m->sa2_dec = s2->dec;
    m->sa2_pre = s2->pre;

    cacti_matcore core;
    cacti_mat_core(t, dp, R, &core);
    m->d_bitline = core.d_bitline;
    m->d_sa = core.d_sa;
    m->d_outdrv = core.d_out;
    m->d_outdrv_htree = core.d_out + R->wire_d;
    const double wmin = t->min_w_nmos;
    const int deg_sam = ndsam1 * ndsam2;
    double outdrv_leak = 2.0 * vdd * cacti_isub(pd, wmin, r * wmin, 1, CACTI_G_INV) + R->wire_l;
    double outdrv_gleak = vdd * (2.0 * cacti_ig(pd, wmin, r * wmin, 1, CACTI_G_INV) +
                                 2.0 * cacti_ig(pd, t->w_sa_mux, 0, 1, CACTI_G_NMOS)) +
                          R->wire_gl;

    /* comparators of a tag array */
    cacti_cmp cmp;
    memset(&cmp, 0, sizeof cmp);
    if (dp->is_tag && !dp->fa)
        cacti_comparator(t, dp->tagbits, dp->assoc, 0.0, &cmp);
    m->d_comparator = cmp.delay;

    /* path delays inside the mat (from the mat input) */
    m->d_row_predec = m->row_pre.delay;
    m->d_row_path = m->row_pre.delay + m->row_dec.delay + m->d_bitline + m->d_sa;
    m->d_col_path = m->bmux_pre.delay + m->bmux_dec.delay + m->d_sa;
    m->d_samux1 = (m->sa1_pre.delay > m->waysel.delay ? m->sa1_pre.delay : m->waysel.delay) + m->sa1_dec.delay;
    m->d_samux2 = m->sa2_pre.delay + m->sa2_dec.delay;
    m->d_max_predec = m->row_pre.delay;
    if (m->bmux_pre.delay > m->d_max_predec)
        m->d_max_predec = m->bmux_pre.delay;
    if (m->sa1_pre.delay > m->d_max_predec)
        m->d_max_predec = m->sa1_pre.delay;
    if (m->sa2_pre.delay > m->d_max_predec)
        m->d_max_predec = m->sa2_pre.delay;

    /* ---- energy of one mat access ---- */
    double e_predec = m->row_pre.dyn + m->bmux_pre.dyn + m->sa1_pre.dyn + m->sa2_pre.dyn;
    m->e_predec_row = m->row_pre.dyn;
    m->e_rowdec = m->row_dec.dyn * sub_per_mat;
    double e_blpre = m->bl_pre_drv.pw.dyn * sub_per_mat;
    m->e_sa = core.e_sa_one * nsa * sub_per_mat;
    m->e_bitline_rd = core.e_col_rd * sub_per_mat * cols;
    m->e_bitline_wr = core.e_col_wr * sub_per_mat * cols;
    m->e_outdrv = (core.out_e + R->wire_e) * dp->num_do_b_mat;
    m->e_cmp = cmp.dyn;
    m->e_read = e_predec + m->e_rowdec + e_blpre + m->e_sa + m->e_bitline_rd + m->e_outdrv + m->bmux_dec.dyn +
                m->sa1_dec.dyn + m->sa2_dec.dyn + m->e_cmp;

    /* ---- leakage of the whole mat ---- */
    double cells = (double)rows * cols * sub_per_mat;
    double n_outdrv = (double)nsa / deg_sam;
    double i_sa = vdd * t->w_sense_en * pd->I_off_n, g_sa = vdd * t->w_sense_en * pd->I_g_on_n;
    m->leak = R->leak_cell * cells + m->bl_pre_drv.pw.leak * sub_per_mat + i_sa * nsa * sub_per_mat * rdp +
              outdrv_leak * n_outdrv * sub_per_mat * rdp + cmp.leak * dp->num_do_b_mat * rdp +
              m->row_dec.leak * rows * sub_per_mat + m->bmux_dec.leak * ndcm + m->sa1_dec.leak * ndsam1 +
              m->sa2_dec.leak * ndsam2 + m->row_pre.leak + m->bmux_pre.leak + m->sa1_pre.leak + m->sa2_pre.leak +
              m->waysel.leak;
    m->gleak = R->gleak_cell * cells + m->bl_pre_drv.pw.gleak * sub_per_mat + g_sa * nsa * sub_per_mat * rdp +
               outdrv_gleak * n_outdrv * sub_per_mat * rdp + cmp.gleak * dp->num_do_b_mat * rdp +
               m->row_dec.gleak * rows * sub_per_mat + m->bmux_dec.gleak * ndcm + m->sa1_dec.gleak * ndsam1 +
               m->sa2_dec.gleak * ndsam2 + m->row_pre.gleak + m->bmux_pre.gleak + m->sa1_pre.gleak +
               m->sa2_pre.gleak + m->waysel.gleak;

    /* ---- mat area ---- */
    double area_rowdec = m->row_dec.area * rows * allp;
    double w_rowdec = area_rowdec / m->sub_h;
    double h_periph = cacti_fold_width(t, t->w_pch, cw / (2.0 * rwsp)) + cacti_fold_width(t, t->w_eq, cw / rwsp);
    if (ndcm > 1)
        h_periph += cacti_fold_width(t, t->w_b_mux, cw / (2.0 * rdp));
    h_periph += cacti_sa_height(t, cw * ndcm / rdp);
    if (ndsam1 > 1)
        h_periph += cacti_fold_width(t, t->w_sa_mux, cw * ndsam1 / rdp);
    if (ndsam2 > 1) {
        h_periph += cacti_fold_width(t, t->w_sa_mux, cw * ndcm * ndsam1 / rdp);
        h_periph += 2.0 * cacti_fold_width(t, r * wmin, cw * ndsam2 / rdp);
        h_periph += 2.0 * cacti_fold_width(t, wmin, cw * ndsam2 / rdp);
    }
    double h_outdrv = R->rep_area * ((double)cols / (ndcm * deg_sam)) / m->sub_w * (RWP + ERP + SCHP);
    double h_cmp = 0.0;
    if (dp->is_tag && !dp->fa)
        h_cmp = cacti_comparator_height(t, dp->tagbits, dp->num_do_b_mat, m->sub_w) * rdp;
    int b1 = m->row_pre.blk_bits[0], b2 = m->row_pre.blk_bits[1];
    double w_predec_wires = ((1 << b2) + (1 << b1)) * t->inside.pitch * allp;
    double h_wires = (dp->addr_bits_mat + dp->way_select + (dp->num_di_b_mat + dp->num_do_b_mat) / (double)sub_per_row) *
                     t->inside.pitch * allp;
    if (ndcm > 1)
        h_wires += ndcm * t->inside.pitch * rdp;
    if (ndsam1 > 1)
        h_wires += ndsam1 * t->inside.pitch * rdp;
    if (ndsam2 > 1)
        h_wires += ndsam2 * t->inside.pitch * rdp;
    double h_non_cell = (h_periph + h_cmp + h_outdrv) * (sub_per_mat / sub_per_row) + h_wires;
    double w_non_cell = w_predec_wires > sub_per_row * w_rowdec ? w_predec_wires : sub_per_row * w_rowdec;
    double center = (m->row_pre.area + m->bmux_pre.area + m->sa1_pre.area + m->sa2_pre.area + m->waysel.area +
                     m->bmux_dec.area + m->sa1_dec.area + m->sa2_dec.area) *
                    allp;
    m->h = (sub_per_mat / sub_per_row) * m->sub_h + h_non_cell;
    m->w = sub_per_row * m->sub_w + w_non_cell;
    m->w = (m->h * m->w + center) / m->h;
    return 1;
}
