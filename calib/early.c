/*
 * early.c - the early CTA generations' extra time in a hybrid sample.
 *
 * An SM's first CTA generation starts in lock step, so its CTAs' loads do
 * not overlap each other's work, and the next generations inherit some of
 * that; a GPU's SM goes through the same start once and then runs many more
 * generations at the later pace (hotspot at 512 x 512 on GTX 480: 7400
 * cycles for the first generation, 5400 for the next, 4700 from the fifth
 * on).  A sample of 4 generations, spread evenly by the fit's sm_scale,
 * would put that start into every generation of the kernel (+17%).  So the
 * sample's time is split: its SMs' later pace, which sm_scale carries to
 * every generation, and the rest, which the model adds once per SM
 * (model_params.early_extra).  docs/hybrid.md, step 2.
 *
 * How the first generation ends, too: its CTAs finish together or one by
 * one, which decides where the kernel's last CTAs run (model_params.
 * cta_spread, model.c's lock-step tail).
 */
#include "estimate_int.h"

/* An SM's last generation drains -- its CTAs are alone on the SM for
 * longer and longer -- so in a sample of 2 generations the later half is
 * faster than the GPU's pace (transpose_naive at the default size on V100:
 * -4% became -12%); 4 generations are needed to tell it. */
#define EST_EARLY_GENS 4

double est_early_extra(const sim_detail *d, double cycles)
{
    uint32_t c = d->ctas_per_sm;
    double sum = 0;
    uint32_t told = 0;
    for (uint32_t sm = 0; sm < d->sms && c > 0; sm++) {
        uint32_t seen = 0;
        for (size_t i = 0; i < d->ncta; i++)
            seen += d->cta[i].sm == sm;
        uint32_t gens = (seen + c - 1) / c, half = gens / 2;
        if (gens < EST_EARLY_GENS)
            continue;
        double end_mid = 0, end_last = 0, insts = 0, late = 0;
        uint32_t j = 0, n_mid = 0, n_last = 0;
        for (size_t i = 0; i < d->ncta; i++) { /* launch order */
            const sim_cta_stat *s = &d->cta[i];
            if (s->sm != sm)
                continue;
            uint32_t g = j++ / c;
            insts += s->warp_insts;
            if (g >= half)
                late += s->warp_insts;
            if (g == half - 1)
                end_mid += (double)s->end, n_mid++;
            if (g == gens - 1)
                end_last += (double)s->end, n_last++;
        }
        double span = end_last / n_last - end_mid / n_mid;
        if (!(late > 0) || !(span > 0))
            continue;
        sum += cycles - insts * span / late;
        told++;
    }
    return told ? sum / told : 0;
}

double est_first_spread(const sim_detail *d)
{
    double sum = 0;
    uint32_t told = 0;
    for (uint32_t sm = 0; sm < d->sms; sm++) {
        double lo = 0, hi = 0;
        uint32_t seen = 0;
        for (size_t i = 0; i < d->ncta; i++) {
            const sim_cta_stat *s = &d->cta[i];
            if (s->sm != sm || s->start != 0) /* (the first generation starts at the launch) */
                continue;
            double end = (double)s->end;
            if (!seen || end < lo)
                lo = end;
            if (!seen || end > hi)
                hi = end;
            seen++;
        }
        if (seen >= 2)
            sum += hi - lo, told++;
    }
    return told ? sum / told : -1;
}
