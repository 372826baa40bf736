/*
 * decoder.c - driver chains, row / column decoders and predecoders.
 *
 * Structure (CACTI 5.1 report HPL-2008-20, sec. 4.3 and 5.3; Amrutur and
 * Horowitz, "Fast low-power decoders for RAMs", JSSC 2001): an n-bit row
 * address is split between two predecode blocks of ceil(n/2) and floor(n/2)
 * bits.  A block decodes its bits with first-level NAND2/NAND3 gates (groups
 * of 2 and 3 bits) and, for 4..9 bits, a second-level NAND2/NAND3 that
 * combines the groups; each gate drives an inverter chain sized by logical
 * effort for its fan-out.  The final decoder for each row is a NAND2 (or
 * NAND3 with a way-select input) followed by the wordline driver chain that
 * drives the wordline's gate and wire capacitance.  Address drivers buffer
 * every address bit (and its complement) to the first-level gates.  With
 * fewer than 4 address bits the predecoder drives the load directly and no
 * separate decoder is used.
 *
 * Delay of each stage: Horowitz ramp model with tf = R_on (C_drain + C_load)
 * (+ R_wire C_load / 2 for the last stage).  Energy: C V^2 per switching
 * node; only one path per block switches on an access.  Leakage: every gate
 * of every row / block, averaged over input states (circuit.c).
 */
#include <math.h>
#include <string.h>

#include "cacti_int.h"

static double stage_delay(const cacti_tech *t, double wn, double wp, int stack, double h, double c_load,
                          double r_wire, double in_rise, double *out_rise, double *c_int_out)
{
    const cacti_dev *d = &t->peri;
    double rd = cacti_ron(d, wn, CACTI_NCH, stack);
    double c_int = cacti_drain_c(t, d, wp, CACTI_PCH, 1, 1, h) * (stack > 1 ? stack : 1) +
                   cacti_drain_c(t, d, wn, CACTI_NCH, stack, 1, h);
    double tf = rd * (c_int + c_load) + r_wire * c_load / 2.0;
    double dl = cacti_horowitz(in_rise, tf, 0.5, 0.5, 1);
    *out_rise = dl / 0.5;
    *c_int_out = c_int;
    return dl;
}

void cacti_driver_make(const cacti_tech *t, cacti_driver *d, double c_gate, double c_wire,
                       double r_wire)
{
    memset(d, 0, sizeof *d);
    d->c_gate = c_gate;
    d->c_wire = c_wire;
    d->r_wire = r_wire;
    double r = t->peri.n2p;
    d->ch.wn[0] = t->min_w_nmos;
    d->ch.wp[0] = r * t->min_w_nmos;
    double F = (c_gate + c_wire) / cacti_gate_c(&t->peri, d->ch.wn[0] + d->ch.wp[0]);
    cacti_size_chain(t, &d->ch, 2, 1.0, F, c_gate + c_wire, t->max_w_nmos);
    for (int i = 0; i < d->ch.n; i++) {
        d->area += cacti_gate_area(t, CACTI_G_INV, 1, d->ch.wp[i], d->ch.wn[i], t->cell_h_def);
        d->pw.leak += t->peri.Vdd * cacti_isub(&t->peri, d->ch.wn[i], d->ch.wp[i], 1, CACTI_G_INV);
        d->pw.gleak += t->peri.Vdd * cacti_ig(&t->peri, d->ch.wn[i], d->ch.wp[i], 1, CACTI_G_INV);
    }
}

void cacti_driver_time(const cacti_tech *t, cacti_driver *d, double in_rise)
{
    double v2 = t->peri.Vdd * t->peri.Vdd, cint, rise = in_rise;
    d->delay = 0.0;
    d->pw.dyn = 0.0;
    for (int i = 0; i < d->ch.n; i++) {
        int last = (i == d->ch.n - 1);
        double cl = last ? d->c_gate + d->c_wire : cacti_gate_c(&t->peri, d->ch.wn[i + 1] + d->ch.wp[i + 1]);
        double rw = last ? d->r_wire : 0.0;
        double dl;
        if (last) {
            /* wire resistance sees the wire's distributed C and the lumped gate load */
            const cacti_dev *dv = &t->peri;
            double rd = cacti_ron(dv, d->ch.wn[i], CACTI_NCH, 1);
            cint = cacti_drain_c(t, dv, d->ch.wp[i], CACTI_PCH, 1, 1, t->cell_h_def) +
                   cacti_drain_c(t, dv, d->ch.wn[i], CACTI_NCH, 1, 1, t->cell_h_def);
            double tf = rd * (cint + cl) + rw * (d->c_wire / 2.0 + d->c_gate);
            dl = cacti_horowitz(rise, tf, 0.5, 0.5, 1);
            rise = dl / 0.5;
        } else {
            dl = stage_delay(t, d->ch.wn[i], d->ch.wp[i], 1, t->cell_h_def, cl, 0.0, rise, &rise, &cint);
        }
        d->delay += dl;
        d->pw.dyn += (cint + cl) * v2;
    }
    d->out_rise = rise;
}

void cacti_dec_make(const cacti_tech *t, cacti_dec *d, int nsig, int way_select, double c_load,
                    double r_wire, double cell_h)
{
    memset(d, 0, sizeof *d);
    d->c_load = c_load;
    d->r_wire = r_wire;
    d->h = t->h_dec_cells * cell_h;
    int bits = nsig > 0 ? cacti_ilog2((uint64_t)nsig) : 0;
    if (bits < 4) {
        if (!way_select)
            return; /* the predecoder drives the load directly */
        d->nin = 2;
    } else {
        d->nin = way_select ? 3 : 2;
    }
    d->exist = 1;
    double r = t->peri.n2p;
    double g = (d->nin + r) / (1.0 + r);
    d->ch.wn[0] = d->nin * t->min_w_nmos;
    d->ch.wp[0] = r * t->min_w_nmos;
    double F = g * c_load / cacti_gate_c(&t->peri, d->ch.wn[0] + d->ch.wp[0]);
    cacti_size_chain(t, &d->ch, 2, g, F, c_load, t->max_w_nmos);
    const cacti_dev *dv = &t->peri;
    d->area = cacti_gate_area(t, CACTI_G_NAND, d->nin, d->ch.wp[0], d->ch.wn[0], d->h);
    d->leak = cacti_isub(dv, d->ch.wn[0], d->ch.wp[0], d->nin, CACTI_G_NAND);
    d->gleak = cacti_ig(dv, d->ch.wn[0], d->ch.wp[0], d->nin, CACTI_G_NAND);
    for (int i = 1; i < d->ch.n; i++) {
        d->area += cacti_gate_area(t, CACTI_G_INV, 1, d->ch.wp[i], d->ch.wn[i], d->h);
        d->leak += cacti_isub(dv, d->ch.wn[i], d->ch.wp[i], 1, CACTI_G_INV);
        d->gleak += cacti_ig(dv, d->ch.wn[i], d->ch.wp[i], 1, CACTI_G_INV);
    }
    d->leak *= dv->Vdd;
    d->gleak *= dv->Vdd;
}

void cacti_dec_time(const cacti_tech *t, cacti_dec *d, double in_rise, double v_out)
{
    d->delay = d->dyn = d->out_rise = 0.0;
    if (!d->exist)
        return;
    double vdd = t->peri.Vdd, rise = in_rise, cint;
    for (int i = 0; i < d->ch.n; i++) {
        int last = (i == d->ch.n - 1);
        double cl = last ? d->c_load : cacti_gate_c(&t->peri, d->ch.wn[i + 1] + d->ch.wp[i + 1]);
        d->delay += stage_delay(t, d->ch.wn[i], d->ch.wp[i], i == 0 ? d->nin : 1, d->h, cl,
                                last ? d->r_wire : 0.0, rise, &rise, &cint);
        if (last)
            d->dyn += cl * v_out * v_out + cint * vdd * vdd;
        else
            d->dyn += (cl + cint) * vdd * vdd;
    }
    d->out_rise = rise;
}

/* ---- predecoder blocks ---- */

typedef struct {
    int exist, bits;
    int ngroups, group[3];   /* first-level gates: bits per group (2 or 3; 1 -> NAND2 on a and a') */
    int l2_in;               /* second-level NAND inputs, 0 if none */
    cacti_chain l1[2];       /* [0]: NAND2 path, [1]: NAND3 path */
    cacti_chain l2;
    double c_out, r_out;     /* block output load */
} pblk;

static void blk_groups(pblk *b)
{
    static const int tab[10][3] = {{0, 0, 0}, {2, 0, 0}, {2, 0, 0}, {3, 0, 0}, {2, 2, 0},
                                   {2, 3, 0}, {3, 3, 0}, {2, 2, 3}, {2, 3, 3}, {3, 3, 3}};
    int nb = b->bits > 9 ? 9 : b->bits;
    b->ngroups = 0;
    for (int i = 0; i < 3; i++)
        if (tab[nb][i])
            b->group[b->ngroups++] = tab[nb][i];
    b->l2_in = b->bits >= 4 ? b->ngroups : 0;
}

static void size_path(const cacti_tech *t, cacti_chain *ch, int nin, double c_load)
{
    double r = t->peri.n2p;
    double g = (nin + r) / (1.0 + r);
    ch->wn[0] = nin * t->min_w_nmos;
    ch->wp[0] = r * t->min_w_nmos;
    double F = g * c_load / cacti_gate_c(&t->peri, ch->wn[0] + ch->wp[0]);
    cacti_size_chain(t, ch, 2, g, F, c_load, t->max_w_nmos);
}

static double path_time(const cacti_tech *t, const cacti_chain *ch, int nin, double c_load,
                        double r_wire, double in_rise, double *out_rise, double *dyn)
{
    double rise = in_rise, cint, delay = 0.0, v2 = t->peri.Vdd * t->peri.Vdd;
    for (int i = 0; i < ch->n; i++) {
        int last = (i == ch->n - 1);
        double cl = last ? c_load : cacti_gate_c(&t->peri, ch->wn[i + 1] + ch->wp[i + 1]);
        delay += stage_delay(t, ch->wn[i], ch->wp[i], i == 0 ? nin : 1, t->cell_h_def, cl,
                             last ? r_wire : 0.0, rise, &rise, &cint);
        *dyn += (cl + cint) * v2;
    }
    *out_rise = rise;
    return delay;
}

static double chain_leak(const cacti_tech *t, const cacti_chain *ch, int nin, double *gleak,
                         double *area)
{
    const cacti_dev *d = &t->peri;
    double l = cacti_isub(d, ch->wn[0], ch->wp[0], nin, nin > 1 ? CACTI_G_NAND : CACTI_G_INV);
    *gleak += cacti_ig(d, ch->wn[0], ch->wp[0], nin, nin > 1 ? CACTI_G_NAND : CACTI_G_INV);
    *area += cacti_gate_area(t, nin > 1 ? CACTI_G_NAND : CACTI_G_INV, nin, ch->wp[0], ch->wn[0],
                             t->cell_h_def);
    for (int i = 1; i < ch->n; i++) {
        l += cacti_isub(d, ch->wn[i], ch->wp[i], 1, CACTI_G_INV);
        *gleak += cacti_ig(d, ch->wn[i], ch->wp[i], 1, CACTI_G_INV);
        *area += cacti_gate_area(t, CACTI_G_INV, 1, ch->wp[i], ch->wn[i], t->cell_h_def);
    }
    return l;
}

/* One block + its address drivers: delay/energy/leakage/area accumulated into p. */
static void blk_eval(const cacti_tech *t, pblk *b, double in_rise, cacti_predec *p)
{
    const cacti_dev *d = &t->peri;
    blk_groups(b);
    int has2 = 0, has3 = 0;
    for (int i = 0; i < b->ngroups; i++) {
        if (b->group[i] == 2)
            has2 = 1;
        else
            has3 = 1;
    }
    /* second level */
    double c_l1[2] = {b->c_out, b->c_out};
    double r_l1 = b->r_out;
    if (b->l2_in) {
        size_path(t, &b->l2, b->l2_in, b->c_out);
        double cin_l2 = cacti_gate_c(d, b->l2.wn[0] + b->l2.wp[0]);
        /* each first-level output fans out to all combinations of the other groups */
        int outs = 1 << b->bits;
        c_l1[0] = cin_l2 * (outs / 4);
        c_l1[1] = cin_l2 * (outs / 8);
        r_l1 = 0.0;
    }
    if (has2)
        size_path(t, &b->l1[0], 2, c_l1[0]);
    if (has3)
        size_path(t, &b->l1[1], 3, c_l1[1]);

    /* address-bit drivers: each bit drives its group's first-level gates */
    double dyn = 0.0, delay = 0.0, rise_out = 0.0, worst = 0.0;
    double gl = 0.0, area = 0.0, lk = 0.0;
    for (int gi = 0; gi < b->ngroups; gi++) {
        int gb = b->group[gi];
        int k = gb == 2 ? 0 : 1;
        int ngates = 1 << gb;
        int nbits_grp = (b->bits == 1) ? 1 : gb;
        const cacti_chain *l1 = &b->l1[k];
        /* driver of one address bit: loads half of the group's gates (a or a') */
        double c_drv = (ngates / 2) * cacti_gate_c(d, l1->wn[0] + l1->wp[0]);
        cacti_driver drv;
        cacti_driver_make(t, &drv, c_drv, 0.0, 0.0);
        cacti_driver_time(t, &drv, in_rise);
        /* a bit transition charges one of a/a': half the C V^2 of a full cycle */
        dyn += 0.5 * drv.pw.dyn * nbits_grp;
        lk += drv.pw.leak * 2 * nbits_grp / t->peri.Vdd;
        gl += drv.pw.gleak * 2 * nbits_grp / t->peri.Vdd;
        area += drv.area * 2 * nbits_grp;
        double dr, pd = 0.0;
        double dl = drv.delay + path_time(t, l1, gb, c_l1[k], r_l1, drv.out_rise, &dr, &pd);
        dyn += pd; /* one gate of this group switches */
        double g_area = 0.0, g_gl = 0.0;
        double g_lk = chain_leak(t, l1, gb, &g_gl, &g_area);
        lk += g_lk * ngates;
        gl += g_gl * ngates;
        area += g_area * ngates;
        if (dl > worst) {
            worst = dl;
            rise_out = dr;
        }
    }
    delay = worst;
    if (b->l2_in) {
        double dr, pd = 0.0;
        delay += path_time(t, &b->l2, b->l2_in, b->c_out, b->r_out, rise_out, &dr, &pd);
        rise_out = dr;
        dyn += pd;
        double g_area = 0.0, g_gl = 0.0;
        double g_lk = chain_leak(t, &b->l2, b->l2_in, &g_gl, &g_area);
        int outs = 1 << b->bits;
        lk += g_lk * outs;
        gl += g_gl * outs;
        area += g_area * outs;
    }
    p->dyn += dyn;
    p->leak += lk * t->peri.Vdd;
    p->gleak += gl * t->peri.Vdd;
    p->area += area;
    if (delay > p->delay) {
        p->delay = delay;
        p->out_rise = rise_out;
    }
}

void cacti_predec_make(const cacti_tech *t, cacti_predec *p, int nsig, const cacti_dec *dec,
                       double c_wire, double r_wire, int dec_per_predec, double in_rise)
{
    memset(p, 0, sizeof *p);
    int bits = nsig > 0 ? cacti_ilog2((uint64_t)nsig) : 0;
    if (bits <= 0)
        return;
    p->exist = 1;
    pblk b[2];
    memset(b, 0, sizeof b);
    if (bits < 4) {
        /* one block drives the decoder output load directly */
        b[0].bits = bits;
        b[0].c_out = dec->c_load;
        b[0].r_out = dec->r_wire;
        p->blk_bits[0] = bits;
        blk_eval(t, &b[0], in_rise, p);
        return;
    }
    double c_dec = dec_per_predec * cacti_gate_c(&t->peri, dec->ch.wn[0] + dec->ch.wp[0]);
    int b1 = (bits + 1) / 2, b2 = bits - b1;
    b[0].bits = b1;
    b[1].bits = b2;
    b[0].c_out = (1 << b2) * c_dec + c_wire;
    b[1].c_out = (1 << b1) * c_dec + c_wire;
    b[0].r_out = b[1].r_out = r_wire;
    p->blk_bits[0] = b1;
    p->blk_bits[1] = b2;
    blk_eval(t, &b[0], in_rise, p);
    blk_eval(t, &b[1], in_rise, p);
}

void cacti_waysel_make(const cacti_tech *t, cacti_predec *p, int ways, const cacti_dec *dec,
                       double in_rise)
{
    memset(p, 0, sizeof *p);
    if (ways <= 1 || !dec->exist)
        return;
    p->exist = 1;
    cacti_driver drv;
    cacti_driver_make(t, &drv, cacti_gate_c(&t->peri, dec->ch.wn[0] + dec->ch.wp[0]), 0.0, 0.0);
    cacti_driver_time(t, &drv, in_rise);
    p->delay = drv.delay;
    p->out_rise = drv.out_rise;
    p->dyn = 0.5 * drv.pw.dyn;
    p->leak = drv.pw.leak * ways;
    p->gleak = drv.pw.gleak * ways;
    p->area = drv.area * ways;
}
