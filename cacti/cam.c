/*
 * cam.c - fully associative arrays: a CAM of tags (or whole words for a
 * pure CAM) beside an SRAM data array, searched all at once.
 *
 * Model (after CACTI 6.0 report HPL-2009-85 sec. 2.4 and CACTI 7's CAM
 * extension, which follow Pagiamtzis and Sheikholeslami, "Content-
 * addressable memory circuits and architectures", JSSC 2006):
 *  - each of Ndbl subarrays holds entries/Ndbl rows; a row is a CAM part
 *    (cam cell, 292 F^2: an SRAM cell plus two 2-transistor compare stacks)
 *    and an SRAM part for the data;
 *  - search: the key is broadcast over an H-tree to every subarray; the
 *    searchline drivers swing one line of every searchline pair; every
 *    matchline is precharged and all but the matching one discharge
 *    through the compare stacks; a sense inverter per matchline detects
 *    the match and drives the data wordline of the hit row, which is then
 *    read like an SRAM row (bitlines, sense amps, output H-tree);
 *  - read/write by index use a row decoder like an SRAM;
 *  - leakage: CAM and SRAM cells, matchline precharge and sense devices.
 * The model is simpler than the set-associative path (no column muxing:
 * one wordline per entry, Ndwl = Nspd = 1).
 */
#include <math.h>
#include <string.h>

#include "cacti_int.h"

int cacti_cam_eval(const cacti_req *rq, int ndbl, cacti_arr *a)
{
    const cacti_spec *s = rq->spec;
    const cacti_tech *t = rq->t;
    const cacti_dev *pd = &t->peri, *cd = &t->cell;
    memset(a, 0, sizeof *a);
    double entries = (double)s->size_bytes / ((double)s->banks * s->line_bytes);
    double rows_d = entries / ndbl;
    if (rows_d < 16.0 || rows_d > 262144.0 || floor(rows_d) != rows_d)
        return 0;
    int rows = (int)rows_d;
    int tb = rq->tagbits;
    int db = s->is_cache ? (int)(8 * s->line_bytes) : 0;
    if (s->ecc) {
        tb += (tb + 7) / 8;
        db += (db + 7) / 8;
    }
    int rwp = (int)s->rw_ports, erp = (int)s->rd_ports, ewp = (int)s->wr_ports;
    int schp = s->search_ports > 0 ? (int)s->search_ports : 1;
    int extra = rwp - 1 + erp + ewp;
    if (extra < 0)
        extra = 0;
    double lp = t->local.pitch;
    double cam_h = t->cam_b_h + 2 * lp * extra + 2 * lp * (schp - 1);
    double cam_w = t->cam_b_w + 2 * lp * extra + 2 * lp * (schp - 1);
    double ram_h = cam_h; /* rows are aligned to the taller CAM cell */
    double ram_w = t->sram_b_w + 2 * lp * extra;
    double vdd = pd->Vdd, v2 = vdd * vdd, vc = cd->Vdd;
    double r = pd->n2p;

    double sub_h = cam_h * (rows + 1);
    double sub_w = cam_w * tb + ram_w * db + ceil((tb + db) / 16.0) * t->wl_stitch + 144.0 * lp;

    /* wordline and bitlines of the SRAM part */
    double C_wl = (2 * cacti_gate_c(cd, t->cell_a_w) + ram_w * t->local.C_per_um) * db +
                  (2 * cacti_gate_c(cd, t->cell_a_w) + cam_w * t->local.C_per_um) * tb;
    double R_wl = (ram_w * db + cam_w * tb) * t->local.R_per_um;
    double C_bl = (rows + 1) * (cacti_drain_c(t, cd, t->cell_a_w, CACTI_NCH, 1, 0, ram_w) / 2.0 +
                                ram_h * t->local.C_per_um);
    double R_bl = (rows + 1) * ram_h * t->local.R_per_um;
    /* searchlines (one pair per tag bit) and matchlines (one per row) */
    double C_sl = (rows + 1) * (cacti_gate_c(cd, t->cell_n_w) + cam_h * t->local.C_per_um);
    double C_ml = tb * (2.0 * cacti_drain_c(t, cd, t->cell_n_w, CACTI_NCH, 2, 0, cam_w) +
                        cam_w * t->local.C_per_um);
    double R_ml = tb * cam_w * t->local.R_per_um;

    cacti_dec dec;
    cacti_dec_make(t, &dec, rows, 0, C_wl, R_wl, cam_h);
    cacti_predec pre;
    cacti_predec_make(t, &pre, rows, &dec, 0, 0, 1, 0.0);
    cacti_dec_time(t, &dec, pre.out_rise, vc);
    cacti_driver sl_drv, ml_pre, ml_wl;
    cacti_driver_make(t, &sl_drv, 0.0, C_sl, (rows + 1) * cam_h * t->local.R_per_um);
    cacti_driver_time(t, &sl_drv, 0.0);
    cacti_driver_make(t, &ml_pre, rows * cacti_gate_c(pd, t->w_pch), rows * cam_h * t->local.C_per_um,
                      rows * cam_h * t->local.R_per_um);
    cacti_driver_time(t, &ml_pre, 0.0);
    cacti_driver_make(t, &ml_wl, C_wl, 0.0, R_wl);
    cacti_driver_time(t, &ml_wl, 0.0);

    /* matchline discharge through one mismatching 2-stack */
    double R_cmp = cacti_ron(cd, t->cell_n_w, CACTI_NCH, 2);
    double d_ml = cacti_horowitz(sl_drv.out_rise, R_cmp * C_ml + R_ml * C_ml / 2.0, 0.5, 0.5, 1);
    /* bitline sensing of the hit row */
    double vbs = 0.05 * vc > 0.08 ? 0.05 * vc : 0.08;
    double C_latch = cacti_gate_c(pd, t->w_sense_p + t->w_sense_n) +
                     cacti_drain_c(t, pd, t->w_sense_n, CACTI_NCH, 1, 0, ram_w) +
                     cacti_drain_c(t, pd, t->w_sense_p, CACTI_PCH, 1, 0, ram_w);
    double R_pd = cacti_ron(cd, t->cell_n_w, CACTI_NCH, 1) + cacti_ron(cd, t->cell_a_w, CACTI_NCH, 1);
    double tau = R_pd * (C_bl + C_latch) + R_bl * C_bl / 2.0;
    double d_bl = tau * log(t->vbitpre / (t->vbitpre - vbs)) + (vc - cd->Vth) / (2.0 * vc / (ml_wl.out_rise + 1e-15));
    double d_sa = C_latch / t->gm_sa * log(vdd / vbs);

    /* mats and H-trees: 2 subarrays per column of a mat */
    int mh, mv;
    if (ndbl <= 2) {
        mh = mv = 1;
    } else {
        mh = (int)floor(sqrt(ndbl / 4.0));
        if (mh < 1)
            mh = 1;
        mv = ndbl / 4 / mh;
        if (mv < 1)
            mv = 1;
    }
    int subs_per_mat = ndbl / (mh * mv);
    double sa_h = cacti_sa_height(t, ram_w);
    double mat_h = subs_per_mat * sub_h + sa_h * subs_per_mat;
    double mat_w = sub_w + dec.area * rows / sub_h * (rwp + erp + ewp) + 2.0 * sl_drv.area / sub_h * tb;
    int out_bits = s->is_cache ? (int)s->output_bits : (int)ceil(log2(entries * s->banks));
    if (out_bits < 1)
        out_bits = 1;
    int addr_bits = (int)ceil(log2(entries)) + 1;
    cacti_htree hi, hs, ho;
    cacti_htree_make(t, CACTI_HT_IN, 0, mat_w, mat_h, mh, mv, addr_bits + tb, tb, out_bits, addr_bits, &hi);
    cacti_htree_make(t, CACTI_HT_IN, 0, mat_w, mat_h, mh, mv, addr_bits + tb, tb, out_bits, tb, &hs);
    cacti_htree_make(t, CACTI_HT_OUT, 0, mat_w, mat_h, mh, mv, addr_bits + tb, tb, out_bits, out_bits, &ho);
    double bw = hi.w, bh = hi.h;
    int nb = (int)s->banks, lb = cacti_ilog2((uint64_t)nb);
    int nbv = 1 << ((bh > bw) ? lb / 2 : lb - lb / 2), nbh = nb / nbv;
    cacti_htree ui, us, uo;
    cacti_htree_make(t, CACTI_HT_IN, 1, bw, bh, nbh, nbv, addr_bits + tb, tb, out_bits, addr_bits, &ui);
    cacti_htree_make(t, CACTI_HT_IN, 1, bw, bh, nbh, nbv, addr_bits + tb, tb, out_bits, tb, &us);
    cacti_htree_make(t, CACTI_HT_OUT, 1, bw, bh, nbh, nbv, addr_bits + tb, tb, out_bits, out_bits, &uo);

    /* the matchline sense inverter drives the hit row's data wordline */
    double d_ml_to_wl = ml_wl.delay;
    a->access_time = us.delay + hs.delay + sl_drv.delay + d_ml + d_ml_to_wl + d_bl + d_sa + ho.delay + uo.delay;
    a->cycle_time = sl_drv.delay + d_ml + ml_pre.delay + d_bl + d_sa;
    /* energies */
    /* one line of every searchline pair switches in every subarray */
    double e_sl = (double)tb * ndbl * sl_drv.pw.dyn;
    double e_ml = entries * C_ml * v2 + ml_pre.pw.dyn * ndbl;
    double e_rd_row = C_wl * vc * vc + db * (C_bl * 2.0 * vbs * vc + C_latch * v2);
    double e_search = e_sl + e_ml + ml_wl.pw.dyn + e_rd_row + (hs.dyn_bit * tb) * (mh * mv) + us.dyn +
                      ho.dyn + uo.dyn;
    double e_read = pre.dyn + dec.dyn + e_rd_row + tb * (C_bl * 2.0 * vbs * vc + C_latch * v2) + hi.dyn +
                    ui.dyn + ho.dyn + uo.dyn;
    double e_write = pre.dyn + dec.dyn + C_wl * vc * vc + (tb + db) * C_bl * vc * vc + hi.dyn + ui.dyn +
                     hs.dyn + us.dyn;
    a->e_search = e_search;
    a->e_read = s->is_cache ? e_search : e_read;
    a->e_write = e_write;
    /* leakage */
    double i_sram = 2.0 * cacti_isub(cd, t->cell_n_w, t->cell_p_w, 1, CACTI_G_INV) +
                    cacti_isub(cd, t->cell_a_w, 0, 1, CACTI_G_NMOS) * (rwp + ewp) +
                    cacti_isub(cd, t->cell_a_w, 0, 2, CACTI_G_NMOS) * erp;
    double i_cam = i_sram + 2.0 * cacti_isub(cd, t->cell_n_w, 0, 2, CACTI_G_NMOS) * schp;
    double cells_leak = entries * (i_cam * tb + i_sram * db) * vc;
    double g_sram = cacti_ig(cd, t->cell_n_w, t->cell_p_w, 1, CACTI_G_INV);
    double cells_gleak = entries * (g_sram * (tb + db)) * vc;
    double per_leak = ndbl * (dec.leak * rows + pre.leak + sl_drv.pw.leak * tb + ml_pre.pw.leak +
                              vdd * cacti_isub(pd, t->w_sense_en, 0, 1, CACTI_G_NMOS) * 2.0 * (tb + db)) +
                      entries * vdd * cacti_isub(pd, t->min_w_nmos, r * t->min_w_nmos, 1, CACTI_G_INV);
    double per_gleak = ndbl * (dec.gleak * rows + pre.gleak + sl_drv.pw.gleak * tb + ml_pre.pw.gleak);
    a->leak = cells_leak + per_leak + ui.leak + us.leak + uo.leak;
    a->gleak = cells_gleak + per_gleak + ui.gleak + us.gleak + uo.gleak;
    a->height = ui.h;
    a->width = ui.w;
    a->area = a->height * a->width;
    a->cell_area = entries * nb * (cam_w * cam_h * tb + ram_w * ram_h * db);
    a->dp.ndbl = ndbl;
    a->dp.ndwl = 1;
    a->dp.nspd = 1;
    a->dp.ndcm = a->dp.ndsam1 = a->dp.ndsam2 = 1;
    a->dp.rows = rows;
    a->dp.cols = tb + db;
    a->dp.num_mats = mh * mv;
    a->dp.num_act_mats = mh * mv;
    return 1;
}
