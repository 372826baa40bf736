/*
 * htree.c - H-tree distribution of address and data.
 *
 * Inside a bank an H-tree carries the address and write data from the bank
 * edge to every mat and the read data back (CACTI 6.0 report HPL-2009-85,
 * sec. 4; CACTI 5.1 sec. 4.4).  Between banks of a UCA a second H-tree
 * carries the same signals to the bank.  Each link is a repeated wire
 * (wire.c).  Starting at the root, the tree alternates horizontal and
 * vertical links whose lengths halve at each level; with more horizontal
 * than vertical levels the excess horizontal links come first.  Inside a
 * bank every node of an input tree has a NAND gate that steers the signal
 * into one branch and every node of an output tree a tri-state buffer that
 * merges the branches; these gates add delay and energy.
 *
 * The area spanned by the tree is the leaves plus the routing tracks of the
 * wires running between them, at the semi-global pitch.
 *
 * Energy per access = (energy of one root-to-leaf path) x (bits carried);
 * delay = delay of that path.  Leakage counts the repeaters of every branch
 * (the number of wires doubles at each vertical branching).
 */
#include <math.h>

#include "cacti_int.h"

typedef struct {
    const cacti_tech *t;
    int dir, uca;
    double delay, dyn, leak, gleak;
    int want_leak;  /* node-gate leakage (only inter-bank trees report leakage; they have no gates) */
    double ln_vs;   /* ln(Vth/Vdd): the node gates switch at the threshold */
} walk;

/* Horowitz delay of a rising step at threshold vs = Vth/Vdd (ln_vs = ln vs) after a ramp tin. */
static double gate_delay(const walk *w, double tin, double tf)
{
    double vs = w->t->peri.Vth / w->t->peri.Vdd;
    double a = tin / tf;
    return tf * sqrt(w->ln_vs * w->ln_vs + 2.0 * a * 0.5 * (1.0 - vs));
}

/* NAND (input tree) or tri-state buffer (output tree) at a tree node driving
 * a branch whose repeater has size s2. */
static void node_gate(walk *w, double s1, double s2, double nw)
{
    const cacti_tech *t = w->t;
    const cacti_dev *d = &t->peri;
    double wn = t->min_w_nmos, wp = d->n2p * t->min_w_nmos, h = t->cell_h_def;
    double v2 = d->Vdd * d->Vdd;
    double pton = d->n2p;
    if (w->dir == CACTI_HT_IN) {
        double ns = s1 * (1 + pton) / (2 + pton);
        if (ns < 1)
            ns = 1;
        double tc = 2 * cacti_ron(d, ns * wn, CACTI_NCH, 1) *
                    (2 * cacti_drain_c(t, d, ns * wn, CACTI_NCH, 1, 1, h) + 2 * cacti_gate_c(d, s2 * (wn + wp)));
        w->delay += gate_delay(w, t->rep_out_rise, tc);
        w->dyn += 0.5 *
                  (2 * cacti_drain_c(t, d, pton * ns * wp, CACTI_PCH, 1, 1, h) +
                   cacti_drain_c(t, d, ns * wn, CACTI_NCH, 1, 1, h) + 2 * cacti_gate_c(d, s2 * (wn + wp))) *
                  v2;
        if (w->want_leak) {
            w->leak += cacti_isub(d, wn * ns * 2, wp * ns * 2, 2, CACTI_G_NAND) * d->Vdd * nw;
            w->gleak += cacti_ig(d, wn * ns * 2, wp * ns * 2, 2, CACTI_G_NAND) * d->Vdd * nw;
        }
    } else {
        double size = s1 * (1 + pton) / (3 + 3 * pton);
        if (size < 1)
            size = 1;
        double tr = s1 / 2.0;
        if (tr < 1)
            tr = 1;
        double res_nor = 2 * cacti_ron(d, size * wp, CACTI_PCH, 1);
        double res_pt = cacti_ron(d, tr * wn, CACTI_NCH, 1);
        double c_nand = cacti_drain_c(t, d, size * wn, CACTI_NCH, 1, 1, h) +
                        2 * cacti_drain_c(t, d, size * wp, CACTI_PCH, 1, 1, h) + cacti_gate_c(d, tr * wp);
        double c_pt = 2 * (cacti_drain_c(t, d, tr * wp, CACTI_PCH, 1, 1, h) +
                           cacti_drain_c(t, d, tr * wn, CACTI_NCH, 1, 1, h)) +
                      cacti_gate_c(d, s1 * (wn + wp));
        double tc = res_nor * c_nand + (res_nor + res_pt) * c_pt;
        w->delay += gate_delay(w, t->rep_out_rise, tc);
        w->dyn += 0.5 * (c_nand + c_pt + cacti_gate_c(d, size * (wn + wp)) + cacti_gate_c(d, tr * (wn + wp))) * v2;
        if (w->want_leak) {
            w->leak += (cacti_isub(d, wn * tr * 2, wp * tr * 2, 1, CACTI_G_INV) +
                        cacti_isub(d, wn * size * 3, wp * size * 3, 2, CACTI_G_NAND) +
                        cacti_isub(d, wn * size * 3, wp * size * 3, 2, CACTI_G_NOR)) *
                       d->Vdd * nw;
            w->gleak += (cacti_ig(d, wn * tr * 2, wp * tr * 2, 1, CACTI_G_INV) +
                         cacti_ig(d, wn * size * 3, wp * size * 3, 2, CACTI_G_NAND) +
                         cacti_ig(d, wn * size * 3, wp * size * 3, 2, CACTI_G_NOR)) *
                        d->Vdd * nw;
        }
    }
}

static double rep_size_for(const cacti_tech *t, double len)
{
    const cacti_rep *rp = &t->rep_h;
    if (len > rp->spacing)
        return rp->size;
    return len / rp->spacing * rp->size;
}

static void link(walk *w, double len, double nwires)
{
    const cacti_rep *rp = &w->t->rep_h;
    w->delay += rp->delay * len;
    w->dyn += rp->dyn * len;
    w->leak += rp->leak * len * nwires;
    w->gleak += rp->gleak * len * nwires;
}

void cacti_htree_make(const cacti_tech *t, int dir, int uca, double leaf_w, double leaf_h, int nh,
                      int nv, int addr_bits, int din_bits, int dout_bits, int bits, cacti_htree *ht)
{
    int h = nh > 1 ? cacti_ilog2((uint64_t)nh) : 0;
    int v = nv > 1 ? cacti_ilog2((uint64_t)nv) : 0;
    double pitch = t->outside.pitch;
    double len, ht_half;
    if (uca) {
        double tracks = (double)(addr_bits + din_bits + dout_bits) * pitch;
        ht_half = (leaf_h * nv + tracks * 2.0 * (1.0 - pow(0.5, h))) / 2.0;
        len = (leaf_w * nh + tracks * 2.0 * (1.0 - pow(0.5, v))) / 2.0;
    } else {
        double a = (double)addr_bits * pitch, dd = (double)(din_bits + dout_bits) * pitch;
        if (h == v) {
            ht_half = (leaf_h * nv + a * (nv - 1) + dd * h) / 2.0;
            len = (leaf_w * nh + a * (nh - 1) + dd * v) / 2.0;
        } else if (h > v) {
            double ex = h - v;
            ht_half = (leaf_h * nv + a * ((nv - 1) + ex) + dd * (2.0 * (1.0 - pow(0.5, h - v)) + pow(0.5, v - h) * v)) / 2.0;
            len = (leaf_w * nh + a * (nh - 1) + dd * v) / 2.0;
        } else {
            double ex = v - h;
            ht_half = (leaf_h * nv + a * ((nh - 1) + ex) + dd * h) / 2.0;
            len = (leaf_w * nh + a * ((nh - 1) + ex) + dd * (h + 2.0 * (1.0 - pow(0.5, v - h)))) / 2.0;
        }
    }
    ht->h = ht_half * 2.0;
    ht->w = len * 2.0;

    walk w = {t, dir, uca, 0, 0, 0, 0, 0, log(t->peri.Vth / t->peri.Vdd)};
    if (bits < 0) { /* wires only */
        w.uca = uca = 1;
        bits = 1;
    }
    double vert = ht_half / 2.0;
    double nwires = bits;
    while (v > 0 || h > 0) {
        double l1, l2 = 0.0, l3 = 0.0;
        int opt;
        if (h > v) {
            l1 = len;
            l2 = len / 2.0;
            len /= 2.0;
            h--;
            opt = 0;
        } else if (v > 0 && h > 0) {
            l1 = len;
            l2 = vert;
            l3 = len / 2.0;
            len /= 2.0;
            vert /= 2.0;
            v--;
            h--;
            opt = 1;
        } else {
            l1 = vert;
            l2 = vert / 2.0;
            vert /= 2.0;
            v--;
            opt = 2;
        }
        link(&w, l1, nwires);
        if (!uca && opt == 2)
            nwires *= 2;
        if (!uca)
            node_gate(&w, rep_size_for(t, l1), rep_size_for(t, l2), nwires);
        if (opt != 1)
            continue;
        link(&w, l2, nwires);
        if (!uca) {
            nwires *= 2;
            node_gate(&w, rep_size_for(t, l2), rep_size_for(t, l3), nwires);
        }
    }
    ht->delay = w.delay;
    ht->dyn_bit = w.dyn;
    ht->dyn = w.dyn * bits;
    ht->leak = w.leak;
    ht->gleak = w.gleak;
}

void cacti_htree_scale(const cacti_htree *unit, int bits, cacti_htree *out)
{
    *out = *unit;
    out->dyn_bit = unit->dyn;
    out->dyn = unit->dyn * bits;
    out->leak = unit->leak * bits;
    out->gleak = unit->gleak * bits;
}

void cacti_htree_wires(const cacti_tech *t, double leaf_w, double leaf_h, int nh, int nv, cacti_htree *ht)
{
    cacti_htree_make(t, CACTI_HT_IN, 1, leaf_w, leaf_h, nh, nv, 0, 0, 0, -1, ht);
}
