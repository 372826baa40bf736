/*
 * tech.c - technology tables: ITRS-derived device, wire and memory-cell
 * parameters for 90, 65, 45, 32, 22 and 16 nm, and the derived constants the
 * circuit models use.
 *
 * Sources.  Device parameters for the three ITRS logic flavours (HP = high
 * performance, LSTP = low standby power, LOP = low operating power) are the
 * MASTAR/ITRS 2005-2007 values tabulated by the CACTI authors (CACTI 5.1,
 * HPL-2008-20, section 8 and table 2; CACTI 7 distribution tables
 * tech_params/<node>.dat, Balasubramonian et al., TACO 2017) and by McPAT (Li et
 * al., MICRO 2009) for 16 nm HP (double-gate device).  Per flavour: gate
 * capacitance, fringe capacitance, physical/electrical channel length, Vdd,
 * Vth, Vdsat, Ion, Ioff(T) from 300 K to 400 K in 10 K steps, gate leakage,
 * Cox, PMOS/NMOS drive ratio, mobility and the effective-resistance
 * multiplier (Ron = k * Vdd / Ion).  Wires follow the ITRS "conservative"
 * interconnect projection of the same tables (Ron Ho's thesis values for 16
 * nm, as used by McPAT): pitch in multiples of F, aspect ratio, barrier and
 * dishing, scattering factor, ILD thickness, Miller factor and dielectric
 * constants; R and C per micron are computed from the geometry in wire.c.
 * SRAM cell: 146 F^2, aspect ratio 1.46, access/PMOS/NMOS widths 1.31/1.23/
 * 2.08 F; CAM cell 292 F^2, aspect 2.92 (CACTI 5.1 section 4.1, after
 * ITRS).
 *
 * Corrections and extrapolations (documented in docs/cacti.md):
 *  - 90 nm LOP Ioff at 350-370 K is printed 10x too large in the source
 *    table (a typo that breaks monotonicity); the monotone values are used.
 *  - 22 nm LSTP Ioff at 360 K is printed as 3.55e-10, below the 350 K
 *    value; the geometric mean of its neighbours is used.
 *  - 16 nm LSTP/LOP have no published table in CACTI/McPAT; they are
 *    extrapolated from 22 nm with the HP 16/22 ratios of gate capacitance
 *    and channel length, same Vdd, Vth, Ion and Ioff.
 *  - Temperatures between the 10 K table points are interpolated
 *    log-linearly in Ioff (Ioff is exponential in T).
 */
#include <math.h>
#include <string.h>

#include "cacti_int.h"

typedef struct {
    double C_g_ideal, C_fringe, C_junc, l_phy, l_elec, r_mult, Vdd, Vth, Vdsat, I_on_n, I_on_p;
    double I_off[11];  /* 300..400 K */
    double I_g[11];
    double C_ox, n2p, mobility_n, gmp_to_gmn;
} dev_row;

typedef struct {
    double barrier, dishing_global, alpha, ar_local, ar_global, horiz_k, ild_local, ild_global;
} wire_row;

typedef struct {
    unsigned nm;
    dev_row dev[3];
    wire_row w;
} node_row;

#define FLAT11(x) {x, x, x, x, x, x, x, x, x, x, x}

static const node_row nodes[] = {
    {90,
     {{6.64e-16, 8e-17, 1e-15, 0.037, 0.0266, 1.54, 1.2, 0.23707, 0.128, 1.0769e-3, 7.126e-4,
       {3.24e-08, 4.01e-08, 4.9e-08, 5.92e-08, 7.08e-08, 8.38e-08, 9.82e-08, 1.14e-07, 1.29e-07,
        1.43e-07, 1.54e-07},
       FLAT11(1.65e-8), 1.79e-14, 2.45, 3.4216e10, 1.22},
      {9.15e-16, 8e-17, 1e-15, 0.075, 0.0486, 1.92, 1.3, 0.48203, 0.373, 5.036e-4, 2.351e-4,
       {2.81e-12, 4.76e-12, 7.82e-12, 1.25e-11, 1.94e-11, 2.94e-11, 4.36e-11, 6.32e-11, 8.95e-11,
        1.25e-10, 1.7e-10},
       FLAT11(3.87e-11), 1.22e-14, 2.44, 3.5676e10, 0.88},
      {8.45e-16, 8e-17, 1e-15, 0.053, 0.0354, 1.77, 0.9, 0.30764, 0.113, 3.866e-4, 2.097e-4,
       {2.14e-09, 2.9e-09, 3.87e-09, 5.07e-09, 6.54e-09, 8.27e-09, 1.02e-08, 1.2e-08, 1.36e-08,
        1.52e-08, 1.73e-08},
       FLAT11(4.31e-8), 1.59e-14, 2.54, 4.6039e10, 0.98}},
     {0.008, 0.0792, 1.0, 2.0, 2.2, 3.038, 0.48, 1.1}},
    {65,
     {{4.69e-16, 7.7e-17, 1e-15, 0.025, 0.019, 1.5, 1.1, 0.19491, 0.0771, 1.1972e-3, 8.708e-4,
       {1.96e-07, 2.29e-07, 2.66e-07, 3.05e-07, 3.49e-07, 3.95e-07, 4.45e-07, 4.97e-07, 5.48e-07,
        5.94e-07, 6.3e-07},
       FLAT11(4.09e-8), 1.88e-14, 2.41, 4.3624e10, 1.38},
      {6.14e-16, 8e-17, 1e-15, 0.045, 0.0298, 1.96, 1.2, 0.52354, 0.128, 5.192e-4, 2.66e-4,
       {9.12e-12, 1.49e-11, 2.36e-11, 3.64e-11, 5.48e-11, 8.05e-11, 1.15e-10, 1.59e-10, 2.1e-10,
        2.62e-10, 3.21e-10},
       FLAT11(1.09e-10), 1.36e-14, 2.23, 3.4121e10, 0.99},
      {6e-16, 8e-17, 1e-15, 0.032, 0.0216, 1.82, 0.8, 0.28512, 0.292, 5.731e-4, 3.406e-4,
       {4.9e-09, 6.49e-09, 8.45e-09, 1.08e-08, 1.37e-08, 1.71e-08, 2.09e-08, 2.48e-08, 2.84e-08,
        3.13e-08, 3.42e-08},
       FLAT11(9.61e-9), 1.87e-14, 2.28, 4.9519e10, 1.11}},
     {0.006, 0.0572, 1.0, 2.0, 2.2, 2.734, 0.405, 0.77}},
    {45,
     {{6.78e-16, 5e-17, 1e-15, 0.018, 0.01345, 1.51, 1.0, 0.18035, 0.0938, 2.0466e-3, 1.0233e-3,
       {2.8e-07, 3.28e-07, 3.81e-07, 4.39e-07, 5.02e-07, 5.69e-07, 6.42e-07, 7.2e-07, 8.03e-07,
        8.91e-07, 9.84e-07},
       FLAT11(3.59e-8), 3.77e-14, 2.41, 2.6668e10, 1.38},
      {5.18e-16, 8e-17, 1e-15, 0.028, 0.0212, 1.99, 1.1, 0.50245, 0.0912, 6.662e-4, 3.331e-4,
       {1.01e-11, 1.65e-11, 2.62e-11, 4.06e-11, 6.12e-11, 9.02e-11, 1.3e-10, 1.83e-10, 2.51e-10,
        3.29e-10, 4.1e-10},
       FLAT11(9.47e-12), 2.01e-14, 2.23, 3.6396e10, 0.99},
      {6.2e-16, 7.3e-17, 1e-15, 0.022, 0.016, 1.76, 0.7, 0.22599, 0.0571, 7.489e-4, 3.7445e-4,
       {4.03e-09, 5.02e-09, 6.18e-09, 7.51e-09, 9.04e-09, 1.08e-08, 1.27e-08, 1.47e-08, 1.66e-08,
        1.84e-08, 2.03e-08},
       {3.24e-08, 4.01e-08, 4.9e-08, 5.92e-08, 7.08e-08, 8.38e-08, 9.82e-08, 1.14e-07, 1.29e-07,
        1.43e-07, 1.54e-07},
       2.82e-14, 2.28, 5.089e10, 1.11}},
     {0.004, 0.0396, 1.0, 2.0, 2.2, 2.46, 0.315, 0.55}},
    {32,
     {{5.34e-16, 4e-17, 1e-15, 0.013, 0.01013, 1.49, 0.9, 0.21835, 0.0509, 2.2117e-3, 1.10585e-3,
       {1.52e-07, 1.55e-07, 1.59e-07, 1.68e-07, 1.9e-07, 2.69e-07, 5.32e-07, 1.02e-06, 1.62e-06,
        2.73e-06, 6.1e-06},
       FLAT11(6.55e-8), 4.11e-14, 2.41, 3.6184e10, 1.38},
      {4.58e-16, 5.3e-17, 1e-15, 0.02, 0.0173, 1.99, 1.0, 0.513, 0.0864, 6.836e-4, 3.418e-4,
       {2.06e-11, 3.3e-11, 5.15e-11, 7.83e-11, 1.16e-10, 1.69e-10, 2.4e-10, 3.34e-10, 4.54e-10,
        5.96e-10, 7.44e-10},
       FLAT11(3.73e-11), 2.29e-14, 2.23, 3.4746e10, 0.99},
      {4.54e-16, 5.7e-17, 1e-15, 0.016, 0.01232, 1.73, 0.6, 0.24227, 0.0464, 8.278e-4, 4.139e-4,
       {5.94e-08, 7.23e-08, 8.7e-08, 1.04e-07, 1.22e-07, 1.43e-07, 1.65e-07, 1.9e-07, 2.15e-07,
        2.39e-07, 2.63e-07},
       FLAT11(2.93e-9), 2.84e-14, 2.28, 5.1352e10, 1.11}},
     {0.003, 0.02816, 1.0, 2.0, 2.2, 2.214, 0.21, 0.385}},
    {22,
     {{3.27e-16, 6e-17, 0.0, 0.009, 0.00468, 1.45, 0.8, 0.1395, 0.0233, 2.6264e-3, 1.3132e-3,
       {1.216e-07, 1.24e-07, 1.272e-07, 1.344e-07, 1.52e-07, 2.152e-07, 4.256e-07, 8.16e-07,
        1.296e-06, 2.184e-06, 4.88e-06},
       FLAT11(1.81e-9), 3.63e-14, 2.0, 4.2607e10, 1.38},
      {3.22e-16, 8e-17, 0.0, 0.014, 0.008, 1.99, 0.8, 0.40126, 0.0664, 7.276e-4, 3.638e-4,
       {2.43e-11, 4.85e-11, 9.68e-11, 1.94e-10, 3.87e-10, 7.73e-10, 1.547e-09, 3.09e-09, 6.19e-09,
        1.24e-08, 2.48e-08},
       FLAT11(4.51e-10), 2.3e-14, 2.0, 7.3809e10, 0.99},
      {3.16e-16, 8e-17, 0.0, 0.011, 0.00604, 1.73, 0.6, 0.2315, 0.0181, 9.161e-4, 4.5805e-4,
       {1.31e-08, 2.6e-08, 5.14e-08, 1.02e-07, 2.02e-07, 3.99e-07, 7.91e-07, 1.09e-06, 2.09e-06,
        4.04e-06, 4.48e-06},
       FLAT11(2.74e-9), 2.87e-14, 2.0, 6.9837e10, 1.11}},
     {0.003, 0.01936, 1.05, 2.0, 2.2, 2.104, 0.15, 0.275}},
    {16,
     {{2.30e-16, 6e-17, 0.0, 0.006, 0.00315, 1.48, 0.7, 0.1489, 0.0142, 2.7684e-3, 1.3842e-3,
       {1.3011e-07, 1.3268e-07, 1.3610e-07, 1.4381e-07, 1.6264e-07, 2.3026e-07, 4.5539e-07,
        8.7312e-07, 1.3867e-06, 2.3369e-06, 5.2216e-06},
       FLAT11(1.07e-9), 3.83e-14, 2.0, 4.7615e10, 1.38},
      /* LSTP / LOP: extrapolated from 22 nm (see header comment) */
      {2.265e-16, 8e-17, 0.0, 0.00933, 0.00538, 1.99, 0.8, 0.40126, 0.0664, 7.276e-4, 3.638e-4,
       {2.43e-11, 4.85e-11, 9.68e-11, 1.94e-10, 3.87e-10, 7.73e-10, 1.547e-09, 3.09e-09, 6.19e-09,
        1.24e-08, 2.48e-08},
       FLAT11(4.51e-10), 2.3e-14, 2.0, 7.3809e10, 0.99},
      {2.223e-16, 8e-17, 0.0, 0.00733, 0.00406, 1.73, 0.6, 0.2315, 0.0181, 9.161e-4, 4.5805e-4,
       {1.31e-08, 2.6e-08, 5.14e-08, 1.02e-07, 2.02e-07, 3.99e-07, 7.91e-07, 1.09e-06, 2.09e-06,
        4.04e-06, 4.48e-06},
       FLAT11(2.74e-9), 2.87e-14, 2.0, 6.9837e10, 1.11}},
     {0.002, -1.0 /* 10% of thickness */, 1.05, 2.0, 2.2, 1.998, 0.108, 0.198}},
};

#define CU_RESISTIVITY 0.022      /* ohm*um, conservative (with barrier/scattering) */
#define FRINGE_CAP 1.15e-16       /* F/um, all layers */
#define SRAM_CELL_AREA_F2 146.0
#define SRAM_CELL_ASPECT 1.46
#define CAM_CELL_AREA_F2 292.0
#define CAM_CELL_ASPECT 2.92
#define H_TREE_DELAY_PENALTY 0.30 /* Global_30 repeated wires (CACTI 6 report, sec. 3) */

static double interp_temp(const double *tab, double temp_k)
{
    double x = (temp_k - 300.0) / 10.0;
    int i = (int)floor(x);
    if (i < 0)
        i = 0;
    if (i > 9)
        i = 9;
    double f = x - i;
    if (f <= 0.0)
        return tab[i];
    if (f >= 1.0)
        return tab[i + 1];
    if (tab[i] > 0 && tab[i + 1] > 0)
        return exp(log(tab[i]) * (1.0 - f) + log(tab[i + 1]) * f);
    return tab[i] * (1.0 - f) + tab[i + 1] * f;
}

static void fill_dev(const dev_row *r, double temp_k, cacti_dev *d)
{
    memset(d, 0, sizeof *d);
    d->C_g_ideal = r->C_g_ideal;
    d->C_fringe = r->C_fringe;
    d->C_overlap = 0.2 * r->C_g_ideal;
    d->C_junc = r->C_junc;
    d->C_junc_sw = 2.5e-16;
    d->l_phy = r->l_phy;
    d->l_elec = r->l_elec;
    d->Vdd = r->Vdd;
    d->Vth = r->Vth;
    d->Vdsat = r->Vdsat;
    d->I_on_n = r->I_on_n;
    d->I_on_p = r->I_on_p;
    d->R_nch_on = r->r_mult * r->Vdd / r->I_on_n;
    d->R_pch_on = r->n2p * d->R_nch_on;
    d->I_off_n = interp_temp(r->I_off, temp_k);
    d->I_off_p = d->I_off_n;
    d->I_g_on_n = interp_temp(r->I_g, temp_k);
    d->I_g_on_p = d->I_g_on_n;
    d->C_ox = r->C_ox;
    d->n2p = r->n2p;
    d->mobility_n = r->mobility_n;
    d->gmp_to_gmn = r->gmp_to_gmn;
}

cacti_status cacti_tech_build(unsigned node_nm, cacti_device cell, cacti_device peri, double temp_k,
                              cacti_tech *t)
{
    const node_row *nr = NULL;
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
        if (nodes[i].nm == node_nm)
            nr = &nodes[i];
    if (!nr)
        return cacti_fail(CACTI_EINVAL, "technology node %u nm is not supported (90, 65, 45, 32, 22, 16)",
                          node_nm);
    if ((unsigned)cell > CACTI_DEV_LOP || (unsigned)peri > CACTI_DEV_LOP)
        return cacti_fail(CACTI_EINVAL, "device flavour must be itrs-hp, itrs-lstp or itrs-lop");
    if (!(temp_k >= 300.0 && temp_k <= 400.0))
        return cacti_fail(CACTI_EINVAL, "temperature %g K is outside 300..400 K", temp_k);

    memset(t, 0, sizeof *t);
    double F = node_nm * 1e-3;
    t->node_nm = node_nm;
    t->F = F;
    t->temperature_k = temp_k;
    fill_dev(&nr->dev[peri], temp_k, &t->peri);
    fill_dev(&nr->dev[cell], temp_k, &t->cell);

    const wire_row *w = &nr->w;
    double dish_g = w->dishing_global;
    if (dish_g < 0) /* expressed as a fraction of the global wire thickness */
        dish_g = 0.1 * (w->ar_global * 8.0 * F / 2.0);
    cacti_layer_rc(F, 2.5, w->ar_local, w->barrier, 0.0, w->alpha, w->ild_local, 1.5, w->horiz_k, 3.9,
                   CU_RESISTIVITY, FRINGE_CAP, &t->local);
    cacti_layer_rc(F, 4.0, w->ar_local, w->barrier, 0.0, w->alpha, w->ild_local, 1.5, w->horiz_k, 3.9,
                   CU_RESISTIVITY, FRINGE_CAP, &t->inside);
    t->outside = t->inside;
    cacti_layer_rc(F, 8.0, w->ar_global, w->barrier, dish_g, w->alpha, w->ild_global, 1.5, w->horiz_k, 3.9,
                   CU_RESISTIVITY, FRINGE_CAP, &t->global);
    t->fringe_cap = FRINGE_CAP;

    /* memory cells (CACTI 5.1 sec. 4.1) */
    t->cell_a_w = 1.31 * F;
    t->cell_p_w = 1.23 * F;
    t->cell_n_w = 2.08 * F;
    t->sram_b_w = sqrt(SRAM_CELL_AREA_F2 * F * F / SRAM_CELL_ASPECT);
    t->sram_b_h = SRAM_CELL_ASPECT * t->sram_b_w;
    t->cam_b_w = sqrt(CAM_CELL_AREA_F2 * F * F / CAM_CELL_ASPECT);
    t->cam_b_h = CAM_CELL_ASPECT * t->cam_b_w;
    t->vbitpre = t->cell.Vdd;

    /* peripheral sizing and layout rules in units of F (CACTI 5.1 sec. 4-6) */
    t->min_w_nmos = 1.5 * F;
    t->max_w_nmos = 100.0 * F;
    t->w_iso = 12.5 * F;
    t->w_sense_n = 3.75 * F;
    t->w_sense_p = 7.5 * F;
    t->w_sense_en = 5.0 * F;
    t->w_b_mux = 6.0 * t->min_w_nmos;
    t->w_sa_mux = 6.0 * t->min_w_nmos;
    t->w_pch = 6.0 * t->peri.n2p * t->min_w_nmos;
    t->w_eq = t->peri.n2p * t->min_w_nmos;
    t->w_comp_inv_p1 = 12.5 * F;
    t->w_comp_inv_n1 = 7.5 * F;
    t->w_comp_inv_p2 = 25.0 * F;
    t->w_comp_inv_n2 = 15.0 * F;
    t->w_comp_inv_p3 = 50.0 * F;
    t->w_comp_inv_n3 = 30.0 * F;
    t->w_eval_inv_p = 100.0 * F;
    t->w_eval_inv_n = 50.0 * F;
    t->w_comp_n = 12.5 * F;
    t->w_comp_p = 37.5 * F;
    t->gap_pn = 5.0 * F;
    t->gap_same = 1.5 * F;
    t->hrail = 2.0 * F;
    t->cell_h_def = 50.0 * F;
    t->w_poly_contact = F;
    t->sp_poly_contact = F;
    t->sp_poly_poly = 1.5 * F;
    t->wl_stitch = 7.5 * F;
    t->h_dec_cells = 4.0;

    /* sense-amp latch transconductance gm = mu/2 * Cox * W/L * Vdsat, NMOS + PMOS */
    double gmn = (t->peri.mobility_n / 2.0) * t->peri.C_ox * (t->w_sense_n / t->peri.l_elec) *
                 t->peri.Vdsat;
    t->gm_sa = gmn * (1.0 + t->peri.gmp_to_gmn);

    cacti_rep_init(t, H_TREE_DELAY_PENALTY);
    return CACTI_OK;
}
