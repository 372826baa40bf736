/*
 * cluster.h - k-means clustering of feature vectors (CTA signatures, warp
 * behaviour), used to pick representative CTAs and warps.
 *
 * Features are z-score normalised per column.  Centres start from a
 * deterministic k-means++ seeding (Arthur & Vassilvitskii, SODA 2007) driven
 * by a fixed-seed PRNG, then Lloyd iterations.  Point-to-centre distances are
 * computed for all points at once as |x|^2 + |c|^2 - 2 X C^T with one BLAS
 * dgemm (GSL's gsl_blas_dgemm on OpenBLAS), which is what makes clustering
 * 10^5 CTAs cheap.
 *
 * cl_choose() picks the number of clusters: the smallest k whose
 * within-cluster sum of squares is at most `frac` of the k = 1 total (the
 * share of variance left unexplained), so a uniform kernel gets one cluster
 * and an irregular one gets more, up to kmax.
 */
#ifndef MODEL_CLUSTER_H
#define MODEL_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct cl_result {
    uint32_t k;
    uint32_t *assign;   /* n entries: cluster of each point */
    double *centre;     /* k x d, in normalised units */
    double *size;       /* k: points per cluster */
    uint32_t *medoid;   /* k: index of the point nearest each centre */
    double sse;         /* within-cluster sum of squares (normalised units) */
} cl_result;

/* Cluster n points of d features (row-major x, n x d) into exactly k groups. */
int cl_kmeans(const double *x, size_t n, size_t d, uint32_t k, uint64_t seed, cl_result *r, ge_err *e);
/* Choose k in 1..kmax as described above and cluster. */
int cl_choose(const double *x, size_t n, size_t d, uint32_t kmax, double frac, uint64_t seed, cl_result *r,
              ge_err *e);
void cl_free(cl_result *r);

#endif
