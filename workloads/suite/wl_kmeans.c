/*
 * wl_kmeans.c - driver for k-means clustering (cuda/kmeans.cu): GPU
 * assignment, host centroid update, KM_ITERS iterations.
 *
 * Size = number of points; KM_F = 8 features, KM_K = 8 clusters.  Points
 * are drawn around K seed-chosen centres in [0,1]^F (noise of +-0.15 per
 * feature, triangular), stored feature-major.  The initial centroids are
 * the first K points.  Each iteration copies the centroids into the
 * kernel's __constant__ array (gpurt_symbol), launches kmeans_assign
 * (256-thread CTAs, one thread per point), copies the membership back and
 * recomputes the centroids on the host as the means of their points (an
 * empty cluster keeps its centroid), as Rodinia's kmeans does.
 *
 * Check, every iteration: each point's cluster must be a nearest centroid
 * up to rounding.  The kernel's float distance sum_f (p_f - c_f)^2 has a
 * relative error of at most (F + 3) u (u = 2^-24: F additions, the square
 * and the difference), so the kernel can only prefer centroid m over the
 * true nearest b if d_m <= d_b (1 + 2 (F + 3) u).  The check allows
 * 4 (F + 3) u; picking a centroid that is not nearest is off by far more.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define KM_F 8
#define KM_K 8
#define KM_ITERS 4
#define KM_BLOCK 256

extern const wl_desc wl_kmeans;

static double dist2(const float *pts, uint32_t n, uint32_t i, const float *cent, uint32_t k)
{
    double d = 0.0;
    for (uint32_t f = 0; f < KM_F; f++) {
        double t = (double)pts[(size_t)f * n + i] - cent[k * KM_F + f];
        d += t * t;
    }
    return d;
}

static int kmeans_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *pts, cent[KM_K * KM_F], centres[KM_K * KM_F];
    int32_t *member;
    gpurt_ptr dpts, dmember, dcent;
    if (wl_begin(&c, dev, p, e, &wl_kmeans, KM_K, 1u << 22))
        goto out;
    uint32_t n = c.size;
    if (!(pts = wl_host(&c, (size_t)n * KM_F, sizeof *pts)) || !(member = wl_host(&c, n, sizeof *member)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 11);
    for (int i = 0; i < KM_K * KM_F; i++)
        centres[i] = wl_rng_float(&r, 0.0f, 1.0f);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = wl_rng_below(&r, KM_K);
        for (uint32_t f = 0; f < KM_F; f++)
            pts[(size_t)f * n + i] =
                centres[k * KM_F + f] + wl_rng_float(&r, -0.075f, 0.075f) + wl_rng_float(&r, -0.075f, 0.075f);
    }
    for (uint32_t k = 0; k < KM_K; k++)
        for (uint32_t f = 0; f < KM_F; f++)
            cent[k * KM_F + f] = pts[(size_t)f * n + k];
    if (!(dpts = wl_upload(&c, pts, (size_t)n * KM_F * sizeof *pts)) ||
        !(dmember = wl_alloc(&c, (size_t)n * sizeof *member)))
        goto out;
    if (!(dcent = gpurt_symbol(dev, "km_centroids"))) {
        rc = wl_dev_fail(&c, "symbol km_centroids");
        goto out;
    }
    uint32_t nf = KM_F, nk = KM_K;
    void *args[] = {&n, &nf, &nk, &dpts, &dmember};
    const double slack = 4.0 * (KM_F + 3) * ldexp(1.0, -24);
    for (int it = 0; it < KM_ITERS; it++) {
        if (wl_h2d(&c, dcent, cent, sizeof cent) ||
            wl_launch(&c, "kmeans_assign", gpurt_dim(wl_div_up(n, KM_BLOCK), 1, 1), gpurt_dim(KM_BLOCK, 1, 1), 0,
                      args) ||
            wl_download(&c, member, dmember, (size_t)n * sizeof *member))
            goto out;
        if (it == KM_ITERS - 1 && wl_fault_now(&c))
            member[n / 2] = (member[n / 2] + 1) % KM_K;
        for (uint32_t i = 0; i < n; i++) {
            int32_t m = member[i];
            if (m < 0 || m >= KM_K) {
                rc = wl_verify_fail(&c, "iteration %d: membership[%u]: expected a cluster in [0, %d), got %d", it, i,
                                    KM_K, (int)m);
                goto out;
            }
            uint32_t best = 0;
            double dbest = dist2(pts, n, i, cent, 0);
            for (uint32_t k = 1; k < KM_K; k++) {
                double d = dist2(pts, n, i, cent, k);
                if (d < dbest) {
                    dbest = d;
                    best = k;
                }
            }
            double dm = dist2(pts, n, i, cent, (uint32_t)m);
            if (dm > dbest * (1.0 + slack)) {
                rc = wl_verify_fail(&c, "iteration %d: membership[%u]: expected %u (distance^2 %.9g), got %d (%.9g)",
                                    it, i, best, dbest, (int)m, dm);
                goto out;
            }
        }
        /* Host update: centroids = means of their points. */
        double sum[KM_K * KM_F] = {0};
        uint32_t count[KM_K] = {0};
        for (uint32_t i = 0; i < n; i++) {
            count[member[i]]++;
            for (uint32_t f = 0; f < KM_F; f++)
                sum[member[i] * KM_F + f] += pts[(size_t)f * n + i];
        }
        for (uint32_t k = 0; k < KM_K; k++)
            if (count[k])
                for (uint32_t f = 0; f < KM_F; f++)
                    cent[k * KM_F + f] = (float)(sum[k * KM_F + f] / count[k]);
    }
    rc = 0;
out:
    return wl_end(&c, rc);
}

const wl_desc wl_kmeans = {
    "kmeans", "k-means (8 clusters, 8 features): GPU assignment with centroids in constant memory, host update",
    "app", suite_ptx_kmeans, "kmeans.ptx", suite_res_kmeans, 256, 8192, "number of points", kmeans_run};
