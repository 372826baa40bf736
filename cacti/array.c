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
#include <stdio.h>
#include <stdlib.h>

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

int cacti_dp_init(const cacti_req *rq, double nspd, int ndwl, int ndbl, int ndcm, int ndsam1,
                  int ndsam2, cacti_dp *dp)
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
    dp->ndcm = ndcm;
    dp->ndsam1 = ndsam1;
    dp->ndsam2 = ndsam2;
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

int cacti_arr_eval(const cacti_req *rq, const cacti_dp *dp, cacti_arr *a)
{
    const cacti_tech *t = rq->t;
    const cacti_spec *s = rq->spec;
    cacti_mat m;
    memset(a, 0, sizeof *a);
    a->dp = *dp;
    if (!cacti_mat_build(t, dp, &m))
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

    cacti_htree b_add, b_din, b_dout;
    cacti_htree_make(t, CACTI_HT_IN, 0, m.w, m.h, dp->num_mats_h, dp->num_mats_v, addr, din, dout, addr, &b_add);
    cacti_htree_make(t, CACTI_HT_IN, 0, m.w, m.h, dp->num_mats_h, dp->num_mats_v, addr, din, dout, dbus, &b_din);
    cacti_htree_make(t, CACTI_HT_OUT, 0, m.w, m.h, dp->num_mats_h, dp->num_mats_v, addr, din, dout, dbus, &b_dout);
    double bank_w = b_din.w, bank_h = b_din.h;

    int nb = (int)s->banks;
    int lb = log2i(nb);
    int nbv = 1 << ((bank_h > bank_w) ? lb / 2 : lb - lb / 2);
    int nbh = nb / nbv;
    cacti_htree u_add, u_din, u_dout;
    cacti_htree_make(t, CACTI_HT_IN, 1, bank_w, bank_h, nbh, nbv, addr, din, dout, addr, &u_add);
    cacti_htree_make(t, CACTI_HT_IN, 1, bank_w, bank_h, nbh, nbv, addr, din, dout, dbus, &u_din);
    cacti_htree_make(t, CACTI_HT_OUT, 1, bank_w, bank_h, nbh, nbv, addr, din, dout, dbus, &u_dout);

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
    if (getenv("CACTI_DEBUG"))
        fprintf(stderr, "org %dx%d spd=%g cm=%d sa=%dx%d act=%d rows=%d cols=%d | mat: rd=%.4g blrd=%.4g blwr=%.4g sa=%.4g outdrv=%.4g rowdec=%.4g predec=%.4g | bank add=%.4g din=%.4g dout=%.4g | uca add=%.4g din=%.4g dout=%.4g | R=%.4g W=%.4g t=%.4g (to_mat %.3g rowp %.3g out %.3g)\n",
                dp->ndwl, dp->ndbl, dp->nspd, dp->ndcm, dp->ndsam1, dp->ndsam2, act, dp->rows, dp->cols,
                m.e_read*1e9, m.e_bitline_rd*1e9, m.e_bitline_wr*1e9, m.e_sa*1e9, m.e_outdrv*1e9, m.e_rowdec*1e9, m.e_predec_row*1e9,
                b_add.dyn*1e9, b_din.dyn*1e9, b_dout.dyn*1e9, u_add.dyn*1e9, u_din.dyn*1e9, u_dout.dyn*1e9, a->e_read*1e9, a->e_write*1e9,
                a->access_time*1e9, to_mat*1e9, m.d_row_path*1e9, a->delay_outdrv_to_out*1e9);
    a->leak = m.leak * dp->num_mats + u_add.leak + u_din.leak + u_dout.leak;
    a->gleak = m.gleak * dp->num_mats + u_add.gleak + u_din.gleak + u_dout.gleak;
    a->height = u_din.h;
    a->width = u_din.w;
    a->area = a->height * a->width;
    a->cell_area = m.cell_area * dp->num_mats * nb;
    return 1;
}
