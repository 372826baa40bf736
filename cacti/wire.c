/*
 * wire.c - interconnect: resistance and capacitance per micron of a wire
 * layer, and the repeated wire used for the H-trees between mats and banks.
 *
 * Layer R and C (CACTI 6.0 report HPL-2009-85, sec. 3; Ho, "On-chip wires:
 * scaling and efficiency", PhD thesis, Stanford 2003):
 *   width = pitch/2, thickness = aspect * width, spacing = pitch - width
 *   R = alpha_scatter * rho / ((thickness - barrier - dishing)(width - 2 barrier))
 *   C = 2 eps0 k_vert width / ILD + 2 eps0 M k_horiz thickness / spacing + C_fringe
 *
 * Repeated wire (CACTI 6.0 report sec. 3.1; Bakoglu, "Circuits,
 * Interconnections and Packaging for VLSI", 1990): a wire broken into
 * segments of length l, each driven by an inverter of size s (in minimum
 * inverters).  With r, c per length, R0/C0 the output resistance and
 * input/output capacitance of a minimum inverter,
 *   t_seg = 0.693 (R0 (Cin+Cout) + R0 c l / s + r l Cin s + r c l^2 / 2)
 *   delay per length = t_seg / l
 *   energy per length = (s (Cin+Cout) + c l) Vdd^2 / l + short-circuit
 * The delay-optimal design has s* = sqrt(R0 c / (r Cin)),
 * l* = sqrt(2 R0 (Cin+Cout) / (r c)).  Like CACTI's "Global_30" wires, the
 * H-trees use the design that minimises energy + leakage (normalised to the
 * delay-optimal design) among those whose delay is at most 30% above the
 * optimum; the search scans repeater size and spacing.  The repeated wire
 * is routed on the semi-global layer at the minimum width and spacing of
 * that layer (half of its half-pitch), as in CACTI's repeated-wire model.
 * Short-circuit energy uses a 65 uA/um peak short-circuit current
 * (Banerjee et al., IEEE TED 2002, as in CACTI).
 */
#include <math.h>

#include "cacti_int.h"

#define EPS0 8.854e-18       /* F/um */
#define I_SHORT_CKT 65e-6    /* A/um */

void cacti_layer_rc(double F, double pitch_f, double aspect, double barrier, double dishing,
                    double alpha, double ild, double miller, double horiz, double vert,
                    double resistivity, double fringe, cacti_layer *l)
{
    double pitch = pitch_f * F;
    double w = pitch / 2.0;
    double th = aspect * w;
    double sp = pitch - w;
    l->pitch = pitch;
    l->aspect_ratio = aspect;
    l->ild = ild;
    l->miller = miller;
    l->horiz_k = horiz;
    l->vert_k = vert;
    l->R_per_um = alpha * resistivity / ((th - barrier - dishing) * (w - 2.0 * barrier));
    l->C_per_um = 2.0 * EPS0 * vert * w / ild + 2.0 * EPS0 * miller * horiz * th / sp + fringe;
}

typedef struct {
    double r, c;          /* per um */
    double cin, cout, r0; /* minimum inverter */
    double vdd, leak1, gleak1, wmin;
} rep_ctx;

static void rep_point(const rep_ctx *x, double l, double s, cacti_rep *o)
{
    double tc = x->r0 * (x->cin + x->cout) + x->r0 * x->c * l / s + x->r * l * x->cin * s +
                0.5 * x->r * x->c * l * l;
    double sw = (s * (x->cin + x->cout) + l * x->c) * x->vdd * x->vdd;
    double sc = x->vdd * x->wmin * I_SHORT_CKT * 1.0986 * s * tc;
    o->delay = 0.693 * tc / l;
    o->dyn = (sw + sc) / l;
    o->leak = x->leak1 * s / l;
    o->gleak = x->gleak1 * s / l;
    o->spacing = l;
    o->size = s;
}

void cacti_rep_init(cacti_tech *t, double penalty)
{
    const cacti_dev *d = &t->peri;
    const cacti_layer *L = &t->outside;
    rep_ctx x;
    /* minimum-width wire on the semi-global layer */
    double w = L->pitch / 4.0, sp = L->pitch / 4.0;
    double h = L->aspect_ratio * w;
    x.r = 1.05 * 0.022 / (h * w);
    x.c = L->miller * L->horiz_k * (h / sp) * EPS0 + L->miller * L->vert_k * w / L->ild * EPS0 +
          t->fringe_cap;
    double wn = t->min_w_nmos, wp = d->n2p * t->min_w_nmos;
    x.cin = cacti_gate_c(d, wn + wp);
    x.cout = cacti_drain_c(t, d, wp, CACTI_PCH, 1, 1, t->cell_h_def) +
             cacti_drain_c(t, d, wn, CACTI_NCH, 1, 1, t->cell_h_def);
    x.r0 = (cacti_ron(d, wn, CACTI_NCH, 1) + cacti_ron(d, wp, CACTI_PCH, 1)) / 2.0;
    x.vdd = d->Vdd;
    x.wmin = wn;
    x.leak1 = d->Vdd * cacti_isub(d, wn, wp, 1, CACTI_G_INV);
    x.gleak1 = d->Vdd * cacti_ig(d, wn, wp, 1, CACTI_G_INV);

    double s_opt = sqrt(x.r0 * x.c / (x.r * x.cin));
    double l_opt = sqrt(2.0 * x.r0 * (x.cin + x.cout) / (x.r * x.c));
    rep_point(&x, l_opt, s_opt, &t->rep_opt);

    cacti_rep best = t->rep_opt;
    double best_cost = 2.0;
    double limit = t->rep_opt.delay * (1.0 + penalty);
    for (int i = 0; i <= 60; i++) {
        double l = l_opt * (1.0 + 3.0 * i / 60.0);
        for (double s = s_opt; s >= 1.0; s -= (s_opt > 40.0 ? s_opt / 40.0 : 1.0)) {
            cacti_rep p;
            rep_point(&x, l, s, &p);
            if (p.delay > limit)
                continue;
            double cost = p.dyn / t->rep_opt.dyn + p.leak / t->rep_opt.leak;
            if (cost < best_cost) {
                best_cost = cost;
                best = p;
            }
        }
    }
    t->rep_h = best;

    /* output ramp of a repeater stage: time to threshold of one segment */
    t->rep_out_rise = best.delay * best.spacing / d->Vth;
}
