/*
 * comparator.c - tag comparators of a set-associative cache.
 *
 * Each way has four quarter comparators (CACTI 1.0 / 3.0, Wilton and
 * Jouppi WRL 93/5 sec. 4.7, retained in CACTI 5.1 sec. 4.6): the stored and
 * incoming tag bits drive XOR-style pull-down pairs on a precharged compare
 * node; an inverter chain (three stages of growing size) buffers the
 * address, and the evaluation inverter discharges the compare node.  The
 * delay is the inverter chain plus the time for the compare node to fall to
 * the threshold of the output NAND, taking the input slope into account.
 * Energy: the chain nodes of all 4*A quarter comparators switch, the
 * compare node of every way discharges, and all but one way's output node
 * switches.  Leakage: every inverter and the compare devices.
 */
#include <math.h>

#include "cacti_int.h"

#define VTH_COMP_INV 0.437 /* switching threshold of the chain inverters, fraction of Vdd */
#define VTH_EVAL_INV 0.452
#define VTH_MUX_NAND 0.548

void cacti_comparator(const cacti_tech *t, int tagbits, int assoc, double in_rise, cacti_cmp *c)
{
    const cacti_dev *d = &t->peri;
    double v2 = d->Vdd * d->Vdd, h = t->cell_h_def;
    int A = assoc > 0 ? assoc : 1;
    int qbits = tagbits / 4;
    double n4A = 4.0 * A;
    c->dyn = c->leak = c->gleak = 0.0;

    /* three chain inverters */
    const double wp[4] = {t->w_comp_inv_p1, t->w_comp_inv_p2, t->w_comp_inv_p3, t->w_eval_inv_p};
    const double wn[4] = {t->w_comp_inv_n1, t->w_comp_inv_n2, t->w_comp_inv_n3, t->w_eval_inv_n};
    double rise = in_rise, total = 0.0;
    for (int s = 0; s < 3; s++) {
        double ceq = cacti_gate_c(d, wn[s + 1] + wp[s + 1]) + cacti_drain_c(t, d, wp[s], CACTI_PCH, 1, 1, h) +
                     cacti_drain_c(t, d, wn[s], CACTI_NCH, 1, 1, h);
        int falling = (s != 1);
        double req = falling ? cacti_ron(d, wp[s], CACTI_PCH, 1) : cacti_ron(d, wn[s], CACTI_NCH, 1);
        double vs2 = (s == 2) ? VTH_EVAL_INV : VTH_COMP_INV;
        double dl = cacti_horowitz(rise, req * ceq, VTH_COMP_INV, vs2, falling ? 0 : 1);
        total += dl;
        rise = falling ? dl / vs2 : dl / (1.0 - VTH_COMP_INV);
        c->dyn += 0.5 * ceq * v2 * n4A;
        c->leak += cacti_isub(d, wn[s], wp[s], 1, CACTI_G_INV) * n4A;
        c->gleak += cacti_ig(d, wn[s], wp[s], 1, CACTI_G_INV) * n4A;
    }
    /* compare node discharged through the evaluation inverter */
    double r1 = cacti_ron(d, t->w_comp_n, CACTI_NCH, 2);
    double r2 = cacti_ron(d, t->w_eval_inv_n, CACTI_NCH, 1);
    double cpair = cacti_drain_c(t, d, t->w_comp_n, CACTI_NCH, 1, 1, h) +
                   cacti_drain_c(t, d, t->w_comp_n, CACTI_NCH, 2, 1, h);
    double c2 = qbits * cpair + cacti_drain_c(t, d, t->w_eval_inv_p, CACTI_PCH, 1, 1, h) +
                cacti_drain_c(t, d, t->w_eval_inv_n, CACTI_NCH, 1, 1, h);
    double c1 = qbits * cpair + cacti_drain_c(t, d, t->w_comp_p, CACTI_PCH, 1, 1, h);
    c->dyn += 0.5 * c2 * v2 * n4A + c1 * v2 * (A - 1);
    c->leak += (cacti_isub(d, t->w_eval_inv_n, t->w_eval_inv_p, 1, CACTI_G_INV) +
                cacti_isub(d, t->w_comp_n, t->w_comp_n, 1, CACTI_G_INV)) *
               n4A;
    c->gleak += (cacti_ig(d, t->w_eval_inv_n, t->w_eval_inv_p, 1, CACTI_G_INV) +
                 cacti_ig(d, t->w_comp_n, t->w_comp_n, 1, CACTI_G_INV)) *
                n4A;
    double tstep = (r2 * c2 + (r1 + r2) * c1) * log(1.0 / VTH_MUX_NAND);
    double m = d->Vdd / (rise > 0 ? rise : 1e-15);
    double vov = d->Vdd - d->Vth, veval = d->Vdd * VTH_EVAL_INV - d->Vth;
    double tc;
    if (tstep <= 0.5 * vov / m) {
        double a = m, b = 2.0 * veval;
        double cc = -2.0 * tstep * vov + veval * veval / m;
        double disc = b * b - 4.0 * a * cc;
        tc = (-b + sqrt(disc > 0 ? disc : 0)) / (2.0 * a);
    } else {
        tc = tstep + (d->Vdd + d->Vth) / (2.0 * m) - d->Vdd * VTH_EVAL_INV / m;
    }
    if (tc < 0)
        tc = 0;
    c->delay = total + tc;
    c->leak *= d->Vdd;
    c->gleak *= d->Vdd;
}

double cacti_comparator_height(const cacti_tech *t, int tagbits, int ways_in_mat, double width)
{
    double nand2 = cacti_gate_area(t, CACTI_G_NAND, 2, t->w_comp_p, t->w_comp_n, t->cell_h_def);
    return nand2 * ways_in_mat * tagbits / 4.0 / width;
}
