/*
 * circuit.c - transistor-level primitives used by every block of the array
 * model.
 *
 * - Gate capacitance per width: C_g_ideal + C_overlap + 3 C_fringe (CACTI 5.1,
 *   HPL-2008-20, sec. 5.1).
 * - Drain capacitance: junction area + sidewall + gate-to-drain overlap and
 *   fringe, for a transistor folded into the height available in its cell
 *   (CACTI 5.1 sec. 5.1, fig. 13); adjacent fingers share drains.
 * - On-resistance R = R_on(per um) * stack / W.
 * - Delay of a stage driven by a ramp: Horowitz, "Timing models for MOS
 *   circuits", Stanford 1984, as used since CACTI 1.0 (Wada et al.).
 * - Subthreshold leakage averaged over the 2^fanin input states, with a
 *   stacking factor for series off-transistors (CACTI 6.0 report
 *   HPL-2009-85 sec. 6; Narendra et al., "Full-chip subthreshold leakage
 *   power prediction", DAC 2003, for the stack effect), and gate leakage of
 *   on-transistors.
 * - Layout area of a static gate with transistor folding (CACTI 5.1 sec.
 *   5.2).
 * - Logical-effort sizing of a chain (Sutherland, Sproull, Harris, "Logical
 *   Effort", 1999): stage effort ~4 (fo4), even number of stages.
 */
#include <math.h>

#include "cacti_int.h"

#define STACK_LEAK_FACTOR 0.43 /* leakage of a 2-stack relative to one off device */
#define STAGE_EFFORT 4.0

double cacti_gate_c(const cacti_dev *d, double w)
{
    return (d->C_g_ideal + d->C_overlap + 3.0 * d->C_fringe) * w;
}

double cacti_drain_c(const cacti_tech *t, const cacti_dev *d, double w, int nch, int stack,
                     int by_height, double fold_dim)
{
    double w_fold;
    if (!by_height) {
        w_fold = fold_dim;
    } else {
        /* the transistor region of a cell is split 1:2 between N and P */
        double h_tr = fold_dim - 2.0 * t->hrail - t->gap_pn;
        w_fold = nch ? h_tr / 3.0 : 2.0 * h_tr / 3.0;
    }
    int fingers = 1;
    if (w_fold > 0.0 && w > w_fold)
        fingers = (int)ceil(w / w_fold);
    if (fingers < 2)
        w_fold = w;

    double contact = t->w_poly_contact + 2.0 * t->sp_poly_contact;
    double drain_w = contact + (stack - 1) * t->sp_poly_poly;
    double side_h = w_fold;
    double h_vs_gate = w_fold * (1.0 + 2.0 * (stack - 1));
    double c_metal = 0.0;
    if (fingers > 1) {
        drain_w += (fingers - 2) * contact + (fingers - 1) * (stack - 1) * t->sp_poly_poly;
        if (fingers % 2 == 0)
            side_h = 0.0;
        h_vs_gate *= fingers;
        c_metal = t->local.C_per_um * drain_w;
    }
    double c_area = d->C_junc * drain_w * w_fold;
    double c_side = d->C_junc_sw * (side_h + 2.0 * drain_w);
    double c_gate = (2.0 * d->C_fringe + 2.0 * d->C_overlap) * h_vs_gate;
    return c_area + c_side + c_gate + c_metal;
}

double cacti_ron(const cacti_dev *d, double w, int nch, int stack)
{
    return stack * (nch ? d->R_nch_on : d->R_pch_on) / w;
}

double cacti_horowitz(double tin, double tf, double vs1, double vs2, int rise)
{
    if (vs1 == 0.5 && vs2 == 0.5) { /* the common case: switching at half swing */
        const double ln2 = 0.69314718055994531;
        if (tin == 0.0)
            return tf * ln2;
        double a = tin / tf;
        return rise ? tf * sqrt(ln2 * ln2 + a * 0.5) : tf * sqrt(ln2 * ln2 + 2.0 * a * 0.4 * 0.5);
    }
    if (tin == 0.0 && vs1 == vs2)
        return tf * (vs1 < 1.0 ? -log(vs1) : log(vs1));
    double a = tin / tf;
    if (rise)
        return tf * sqrt(log(vs1) * log(vs1) + 2.0 * a * 0.5 * (1.0 - vs1)) + tf * (log(vs1) - log(vs2));
    return tf * sqrt(log(1.0 - vs1) * log(1.0 - vs1) + 2.0 * a * 0.4 * vs1) +
           tf * (log(1.0 - vs1) - log(1.0 - vs2));
}

static double binom(int n, int k)
{
    static const double small[5][5] = {
        {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};
    if (n <= 4)
        return small[n][k];
    double r = 1.0;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Sum over states with k of n series devices off: k=1..n, leak*s^(k-1)*C(n,k). */
static double series_off(double leak, int n)
{
    double s = 0.0, f = 1.0;
    for (int k = 1; k <= n; k++) {
        s += leak * f * binom(n, k);
        f *= STACK_LEAK_FACTOR;
    }
    return s;
}

double cacti_isub(const cacti_dev *d, double wn, double wp, int fanin, int gate)
{
    double ln = wn * d->I_off_n, lp = wp * d->I_off_p;
    double states = ldexp(1.0, fanin);
    switch (gate) {
    case CACTI_G_NMOS:
        return fanin == 1 ? ln / states : series_off(ln, fanin) / states;
    case CACTI_G_NAND:
        return (fanin * lp + series_off(ln, fanin)) / states;
    case CACTI_G_NOR:
        return (fanin * ln + series_off(lp, fanin)) / states;
    case CACTI_G_TRI:
        return ((ln + lp) / 2.0 + ln * STACK_LEAK_FACTOR) / 2.0;
    default: /* inverter */
        return (ln + lp) / 2.0;
    }
}

double cacti_ig(const cacti_dev *d, double wn, double wp, int fanin, int gate)
{
    double gn = wn * d->I_g_on_n, gp = wp * d->I_g_on_p;
    double states = ldexp(1.0, fanin);
    double s = 0.0;
    switch (gate) {
    case CACTI_G_NMOS:
        if (fanin == 1)
            return gn / states;
        s = gn * fanin;
        for (int k = 1; k < fanin; k++)
            s += gn * binom(fanin, k) * k / 2.0;
        return s / states;
    case CACTI_G_NAND:
        for (int k = 1; k <= fanin; k++)
            s += gp * binom(fanin, k) * k;
        s += gn * fanin;
        for (int k = 1; k < fanin; k++)
            s += gn * binom(fanin, k) * k / 2.0;
        return s / states;
    case CACTI_G_NOR:
        s = gp * fanin;
        for (int k = 1; k < fanin; k++)
            s += gp * binom(fanin, k) * k / 2.0;
        for (int k = 1; k <= fanin; k++)
            s += gn * binom(fanin, k) * k;
        return s / states;
    case CACTI_G_TRI:
        return ((2.0 * gn + 2.0 * gp) / 2.0 + (gn + gp) / 2.0) / 2.0;
    default:
        return (gn + gp) / 2.0;
    }
}

static double diffusion_width(const cacti_tech *t, int nstack, int fingers)
{
    double contact = t->w_poly_contact + 2.0 * t->sp_poly_contact;
    double w = 2.0 * contact + nstack * t->F + (nstack - 1) * t->sp_poly_poly;
    if (fingers > 1)
        w += (fingers - 2) * 2.0 * contact + (fingers - 1) * nstack * t->F +
             (fingers - 1) * (nstack - 1) * t->sp_poly_poly;
    return w;
}

double cacti_gate_area(const cacti_tech *t, int gate, int nin, double wp, double wn, double h)
{
    if (wp <= 0.0 || wn <= 0.0)
        return 0.0;
    double h_tr = h - 2.0 * t->hrail;
    double ratio = wp / (wp + wn);
    double wf_p = (h_tr - t->gap_pn) * ratio;
    double wf_n = (h_tr - t->gap_pn) * (1.0 - ratio);
    if (wf_p <= 0.0 || wf_n <= 0.0)
        return 0.0;
    int fp = (int)ceil(wp / wf_p), fn = (int)ceil(wn / wf_n);
    double dn, dp;
    if (gate == CACTI_G_NAND) {
        dn = diffusion_width(t, nin, fn);
        dp = diffusion_width(t, 1, nin * fp);
    } else if (gate == CACTI_G_NOR) {
        dn = diffusion_width(t, 1, nin * fn);
        dp = diffusion_width(t, nin, fp);
    } else {
        dn = diffusion_width(t, 1, fn);
        dp = diffusion_width(t, 1, fp);
    }
    double gw = dn > dp ? dn : dp;
    double gh = (wf_n > wn) ? wn + wp + t->gap_pn + 2.0 * t->hrail : h;
    return gw * gh;
}

double cacti_fold_width(const cacti_tech *t, double w, double threshold)
{
    if (w <= 0.0)
        return 0.0;
    int fingers = threshold > 0.0 ? (int)ceil(w / threshold) : 1;
    if (fingers < 1)
        fingers = 1;
    double contact = t->w_poly_contact + 2.0 * t->sp_poly_contact;
    return fingers * t->F + (fingers + 1) * contact;
}

double cacti_sa_height(const cacti_tech *t, double pitch)
{
    double hp = 2.0 * cacti_fold_width(t, t->w_sense_p, pitch) + cacti_fold_width(t, t->w_iso, pitch) +
                2.0 * t->gap_same;
    double hn = 2.0 * cacti_fold_width(t, t->w_sense_n, pitch) +
                cacti_fold_width(t, t->w_sense_en, pitch) + 2.0 * t->gap_same;
    return hp + hn + t->gap_pn;
}

void cacti_size_chain(const cacti_tech *t, cacti_chain *ch, int nmin, double g, double F,
                      double c_load, double max_wn)
{
    double r = t->peri.n2p;
    double cg1 = cacti_gate_c(&t->peri, 1.0);
    if (F < 1.0)
        F = 1.0;
    int n = (int)(log(F) / log(STAGE_EFFORT));
    n += n % 2;
    if (n < nmin)
        n = nmin;
    if (n > CACTI_MAX_STAGES - 2)
        n = CACTI_MAX_STAGES - 2;
    double f = pow(F, 1.0 / n);
    int last = n - 1;
    double wn = c_load / f / (1.0 + r) / cg1;
    if (wn < t->min_w_nmos)
        wn = t->min_w_nmos;
    ch->wn[last] = wn;
    if (wn > max_wn) {
        /* the last stage saturates at max width: re-split the remaining effort */
        double c_ld = cacti_gate_c(&t->peri, (1.0 + r) * max_wn);
        double F2 = g * c_ld / cacti_gate_c(&t->peri, ch->wn[0] + ch->wp[0]);
        if (F2 < 1.0)
            F2 = 1.0;
        n = (int)(log(F2) / log(STAGE_EFFORT)) + 1;
        n += n % 2;
        if (n < nmin)
            n = nmin;
        if (n > CACTI_MAX_STAGES - 2)
            n = CACTI_MAX_STAGES - 2;
        f = pow(F2, 1.0 / (n - 1));
        last = n - 1;
        ch->wn[last] = max_wn;
    }
    ch->wp[last] = r * ch->wn[last];
    for (int i = last - 1; i >= 1; i--) {
        double w = ch->wn[i + 1] / f;
        ch->wn[i] = w > t->min_w_nmos ? w : t->min_w_nmos;
        ch->wp[i] = r * ch->wn[i];
    }
    ch->n = n;
}
