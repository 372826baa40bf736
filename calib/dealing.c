/*
 * dealing.c - a sample's L1 rates moved to the GPU's CTA dealing.
 *
 * A hybrid sample runs runs of neighbouring CTAs on one SM, which a GPU
 * deals to different SMs: where neighbours share lines (a stencil's halo, a
 * matrix row) the sample hits in its L1 where the GPU's SMs do not.  The
 * model's difference between the two dealings (model_l1_dealing_shift, <= 0)
 * moves the measured L1 hit rate and filter; what the sample's L1 caught
 * beyond the GPU's reaches the L2 there, where the neighbour CTA on another
 * SM has just brought it, and joins the L2's hits.  And a sample SM runs
 * its CTAs in the positions one GPU SM does, but a last, partial round of
 * the kernel's CTAs covers only some of the GPU's SMs: est_tail_weighted
 * weighs each sample CTA's L1 counts by the kernel's CTAs it stands for.
 * docs/hybrid.md, step 5.
 */
#include <math.h>

#include "estimate_int.h"

void est_dealing_shift(model_params *mp, double shift, double below)
{
    double moved = 0; /* per load sector, the L1 hits and merges that the GPU's dealing loses */
    if (mp->l1_hit >= 0) {
        double h = fmin(1, fmax(0, mp->l1_hit + shift));
        moved = mp->l1_hit - h;
        mp->l1_hit = h;
    }
    if (mp->l1_filter >= 0) {
        double f = fmin(1, fmax(0, mp->l1_filter + shift));
        moved = fmax(moved, mp->l1_filter - f);
        mp->l1_filter = f;
    }
    /* `below` sectors per load sector reached the L2 in the sample: 1 - the
     * filter, or more where an L1 that fills whole lines fetched halves that
     * a neighbour used (GTX 480's), and the filter reads 0 */
    if (mp->l2_hit >= 0 && moved > 0 && below + moved > 0)
        mp->l2_hit = fmin(1, (mp->l2_hit * below + moved) / (below + moved));
}

/* The L1 load sectors and hits of the sample's CTAs, each weighed by the
 * share of the kernel's CTAs it stands for: a sampled SM runs its CTAs as
 * one GPU SM does, and the CTA in position j on its SM (0 = first placed)
 * stands for the CTAs in position j on every GPU SM that runs more than j
 * -- all S SMs, or N mod S of them in a last, partial round.  Such a tail
 * CTA may run with few others beside it (RTX 2060 k-means at 32 K points:
 * 128 CTAs on 30 SMs, the fifth on an SM runs alone and hits 0.875 in the
 * L1 where the first four hit nothing): its counts are a fifth of the
 * sample's, but it stands for 8 of the kernel's 128 CTAs.  A weight is the
 * share of the S SMs (1: all of them). */
void est_tail_weighted(const sim_detail *d, uint64_t nctas, uint32_t sm_count, double *sectors, double *hits)
{
    *sectors = *hits = 0;
    for (size_t i = 0; i < d->ncta; i++) {
        uint64_t j = 0; /* position on its SM */
        for (size_t q = 0; q < i; q++)
            j += d->cta[q].sm == d->cta[i].sm;
        uint64_t before = j * sm_count;
        double w = before >= nctas ? 0 : nctas - before >= sm_count ? 1 : (double)(nctas - before) / sm_count;
        *sectors += w * d->cta[i].l1_load_sectors;
        *hits += w * d->cta[i].l1_load_hits;
    }
}
