/*
 * placement.c - where a kernel's CTAs end up across the SMs, for the
 * interval model (model.c): the heaviest CTA's floor under an SM's time,
 * the lock-step tail after the full waves, and how much of that tail the
 * first SM to finish takes.
 */
#include <math.h>

#include "model_int.h"

/* How much longer than the kernel's mean CTA the heaviest CTA class of the
 * scenario is: the largest, over the clusters it draws CTAs from, of a
 * class's ratios to that mean CTA in warp instructions, memory
 * instructions and lines -- a CTA that issues k times the instructions,
 * waits for k times the loads, or moves k times the lines through the LSU
 * (a load completes with its last line) takes about k times as long alone.
 * 0 without clusters. */
double mm_heaviest_ratio(const prof_kernel *pk, const model_scenario *sc)
{
    const double *n = sc && sc->cluster_ctas ? sc->cluster_ctas : NULL;
    double cnt = 0, mean[PROF_SIG_COUNT] = {0};
    for (uint32_t c = 0; c < pk->nclusters; c++) { /* the kernel's mean CTA */
        double w = pk->clusters[c].weight;
        cnt += w;
        for (int f = 0; f < PROF_SIG_COUNT; f++)
            mean[f] += w * pk->clusters[c].mean[f];
    }
    if (cnt <= 0)
        return 0;
    double worst = 0;
    for (uint32_t c = 0; c < pk->nclusters; c++) {
        if ((n ? n[c] : pk->clusters[c].weight) <= 0)
            continue;
        const double *m = pk->clusters[c].mean;
        double r_i = mean[PROF_SIG_WARP_INSTS] > 0 ? m[PROF_SIG_WARP_INSTS] * cnt / mean[PROF_SIG_WARP_INSTS] : 1;
        double r_m = mean[PROF_SIG_MEM_INSTS] > 0 ? m[PROF_SIG_MEM_INSTS] * cnt / mean[PROF_SIG_MEM_INSTS] : 1;
        double r_l = mean[PROF_SIG_LINES] > 0 ? m[PROF_SIG_LINES] * cnt / mean[PROF_SIG_LINES] : 1;
        worst = fmax(worst, fmax(r_i, fmax(r_m, r_l)));
    }
    return worst;
}

/*
 * The lock-step tail.  The model spreads a kernel's CTAs evenly, the
 * busiest SM running ceil(CTAs / SMs): true when an SM's CTAs finish one by
 * one and each freed slot takes the next CTA (GTO retires the oldest warps
 * first), and when SMs finish a wave in the same cycle, since the CTA
 * scheduler then deals the next CTAs out one per SM (sampler/cta_sched.c).
 * When an SM's CTAs finish together and the SMs one after the other, the
 * first SMs to finish take c CTAs each, and the R < c x SMs CTAs left after
 * the full waves run on ceil(R / c) SMs at full occupancy while the others
 * idle.  Two cases are known:
 *  - under LRR an SM's CTAs advance in lock-step, and a kernel bound by a
 *    shared memory resource decouples the SMs' progress (histogram_global
 *    on GTX 480: 30 CTAs on 5 of 15 SMs, its hot L2 slice idle 22% of the
 *    time);
 *  - any policy, when a sample measured its SM's first generation ending
 *    within less than the SMs' start-up stagger (the code replies that
 *    reach the SMs one after the other, below; model_params.cta_spread):
 *    hotspot at 512 x 512 on V100 under GTO, whose 1024 CTAs of 8 per SM
 *    ran 16 on 43 SMs and 8 on the others in the full simulation, not 12-13
 *    on each (its first generations ended within 29-92 cycles per SM and
 *    500-1000 cycles apart across the SMs); how many CTAs each of those
 *    SMs takes follows from the spread (mm_first_sm_take).
 * This gives the whole placement: *full waves, a last generation of *rem CTAs on
 * *tail_sms SMs; *tail_sms = 0 if the tail fills every SM.
 */
void mm_lockstep_tail(double ctas, double c, double active, double *full, double *rem, double *tail_sms)
{
    double wave = c * active;
    double waves = ceil(ctas / wave - 1e-9);
    double last = ctas - (waves - 1) * wave;
    double sms = ceil(last / c - 1e-9);
    *full = waves - 1;
    *rem = fmin(c, last);
    *tail_sms = waves > 1 && sms < active ? sms : 0;
}

/*
 * How many of the R CTAs left after a full wave the first SM to finish
 * takes, when each SM's c CTAs end `spread` cycles apart from first to last
 * (evenly spaced; model_params.cta_spread) and SM j's start `step` x j
 * cycles after the first SM's (the start-up stagger, one code reply per
 * SM).  Freed slots take the next CTA in the order they free, so the first
 * SM's k-th slot takes one iff fewer than R slots free before it: its own
 * k earlier ones, and SM j's k' with j x step + spread x k' / (c - 1) below
 * its time.  spread 0 gives min(c, R), the whole lock-step tail; a spread
 * much longer than (SMs - 1) x step about R / SMs.  k-means at 32 K points
 * on RTX 2060 under LRR (128 CTAs, 4 per SM on 30 SMs, a spread of 72
 * cycles in the sample, 4 cycles per SM): 2, where the full simulation's
 * busiest SM ran 2-3 of the 8 and the whole tail put 4 on it.
 */
double mm_first_sm_take(double R, double c, double active, double spread, double step)
{
    uint32_t n = (uint32_t)c, sms = (uint32_t)active, take = 0;
    for (uint32_t k = 0; k < n && take < R; k++) {
        double t = n > 1 ? spread * k / (n - 1) : 0;
        double before = k; /* slots that free before this one */
        for (uint32_t j = 1; j < sms && before < R; j++) {
            double x = t - j * step; /* SM j's slots free at x' < x */
            if (x <= 0)
                break;
            before += spread > 0 ? fmin(n, ceil(x * (n - 1) / spread)) : n;
        }
        if (before >= R)
            break;
        take++;
    }
    return take;
}
