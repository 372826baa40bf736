/*
 * dealing.c - a sample's L1 rates moved to the GPU's CTA dealing.
 *
 * A hybrid sample runs runs of neighbouring CTAs on one SM, which a GPU
 * deals to different SMs: where neighbours share lines (a stencil's halo, a
 * matrix row) the sample hits in its L1 where the GPU's SMs do not.  The
 * model's difference between the two dealings (model_l1_dealing_shift, <= 0)
 * moves the measured L1 hit rate and filter; what the sample's L1 caught
 * beyond the GPU's reaches the L2 there, where the neighbour CTA on another
 * SM has just brought it, and joins the L2's hits.  docs/hybrid.md, step 5.
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
