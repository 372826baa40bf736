#include "cluster.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CL_MAX_ITER 50

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double urand(uint64_t *s) { return (splitmix(s) >> 11) * (1.0 / 9007199254740992.0); }

void cl_free(cl_result *r)
{
    free(r->assign);
    free(r->centre);
    free(r->size);
    free(r->medoid);
    memset(r, 0, sizeof *r);
}

/* z-score normalisation into a GSL matrix. */
static gsl_matrix *normalise(const double *x, size_t n, size_t d)
{
    gsl_matrix *m = gsl_matrix_alloc(n, d);
    if (!m)
        return NULL;
    for (size_t j = 0; j < d; j++) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < n; i++)
            mean += x[i * d + j];
        mean /= n;
        for (size_t i = 0; i < n; i++)
            var += (x[i * d + j] - mean) * (x[i * d + j] - mean);
        double sd = sqrt(var / n);
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(m, i, j, sd > 1e-12 * (fabs(mean) + 1) ? (x[i * d + j] - mean) / sd : 0.0);
    }
    return m;
}

/* dist(i,c) = |x_i|^2 + |c|^2 - 2 x_i.c for all i, c. */
static void distances(const gsl_matrix *X, const double *xn, const gsl_matrix *C, gsl_matrix *D)
{
    gsl_blas_dgemm(CblasNoTrans, CblasTrans, -2.0, X, C, 0.0, D);
    for (size_t c = 0; c < C->size1; c++) {
        double cn = 0;
        for (size_t j = 0; j < C->size2; j++)
            cn += gsl_matrix_get(C, c, j) * gsl_matrix_get(C, c, j);
        for (size_t i = 0; i < X->size1; i++) {
            double v = gsl_matrix_get(D, i, c) + xn[i] + cn;
            gsl_matrix_set(D, i, c, v < 0 ? 0 : v);
        }
    }
}

static int run(const gsl_matrix *X, const double *xn, uint32_t k, uint64_t seed, cl_result *r, ge_err *e)
{
    size_t n = X->size1, d = X->size2;
    gsl_matrix *C = gsl_matrix_calloc(k, d), *D = gsl_matrix_alloc(n, k);
    double *best = malloc(n * sizeof *best);
    r->assign = calloc(n, sizeof *r->assign);
    r->centre = calloc((size_t)k * d, sizeof *r->centre);
    r->size = calloc(k, sizeof *r->size);
    r->medoid = calloc(k, sizeof *r->medoid);
    if (!C || !D || !best || !r->assign || !r->centre || !r->size || !r->medoid) {
        gsl_matrix_free(C);
        gsl_matrix_free(D);
        free(best);
        cl_free(r);
        return ge_errf(e, "out of memory (clustering %zu points)", n);
    }
    r->k = k;
    /* k-means++ seeding, deterministic */
    uint64_t s = seed ^ 0x5eedULL;
    size_t first = (size_t)(urand(&s) * n);
    if (first >= n)
        first = n - 1;
    for (size_t j = 0; j < d; j++)
        gsl_matrix_set(C, 0, j, gsl_matrix_get(X, first, j));
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        for (size_t j = 0; j < d; j++) {
            double t = gsl_matrix_get(X, i, j) - gsl_matrix_get(C, 0, j);
            v += t * t;
        }
        best[i] = v;
    }
    for (uint32_t c = 1; c < k; c++) {
        double tot = 0;
        for (size_t i = 0; i < n; i++)
            tot += best[i];
        size_t pick = 0;
        if (tot > 0) {
            double u = urand(&s) * tot, acc = 0;
            for (pick = 0; pick < n - 1; pick++) {
                acc += best[pick];
                if (acc >= u)
                    break;
            }
        } else {
            pick = (size_t)c % n;
        }
        for (size_t j = 0; j < d; j++)
            gsl_matrix_set(C, c, j, gsl_matrix_get(X, pick, j));
        for (size_t i = 0; i < n; i++) {
            double v = 0;
            for (size_t j = 0; j < d; j++) {
                double t = gsl_matrix_get(X, i, j) - gsl_matrix_get(C, c, j);
                v += t * t;
            }
            if (v < best[i])
                best[i] = v;
        }
    }
    /* Lloyd iterations */
    for (int it = 0; it < CL_MAX_ITER; it++) {
        distances(X, xn, C, D);
        int changed = it == 0;
        r->sse = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t bc = 0;
            double bv = gsl_matrix_get(D, i, 0);
            for (uint32_t c = 1; c < k; c++)
                if (gsl_matrix_get(D, i, c) < bv) {
                    bv = gsl_matrix_get(D, i, c);
                    bc = c;
                }
            if (r->assign[i] != bc)
                changed = 1;
            r->assign[i] = bc;
            best[i] = bv;
            r->sse += bv;
        }
        if (!changed)
            break;
        gsl_matrix_set_zero(C);
        memset(r->size, 0, k * sizeof *r->size);
        for (size_t i = 0; i < n; i++) {
            r->size[r->assign[i]] += 1;
            for (size_t j = 0; j < d; j++)
                gsl_matrix_set(C, r->assign[i], j, gsl_matrix_get(C, r->assign[i], j) + gsl_matrix_get(X, i, j));
        }
        for (uint32_t c = 0; c < k; c++)
            for (size_t j = 0; j < d; j++)
                gsl_matrix_set(C, c, j, r->size[c] > 0 ? gsl_matrix_get(C, c, j) / r->size[c] : 0.0);
    }
    memset(r->size, 0, k * sizeof *r->size);
    double *mbest = malloc(k * sizeof *mbest);
    for (uint32_t c = 0; c < k && mbest; c++)
        mbest[c] = INFINITY;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = r->assign[i];
        r->size[c] += 1;
        if (mbest && best[i] < mbest[c]) {
            mbest[c] = best[i];
            r->medoid[c] = (uint32_t)i;
        }
    }
    free(mbest);
    for (uint32_t c = 0; c < k; c++)
        for (size_t j = 0; j < d; j++)
            r->centre[c * d + j] = gsl_matrix_get(C, c, j);
    gsl_matrix_free(C);
    gsl_matrix_free(D);
    free(best);
    return 0;
}

static double *row_norms(const gsl_matrix *X)
{
    double *xn = malloc(X->size1 * sizeof *xn);
    if (!xn)
        return NULL;
    for (size_t i = 0; i < X->size1; i++) {
        double v = 0;
        for (size_t j = 0; j < X->size2; j++)
            v += gsl_matrix_get(X, i, j) * gsl_matrix_get(X, i, j);
        xn[i] = v;
    }
    return xn;
}

int cl_kmeans(const double *x, size_t n, size_t d, uint32_t k, uint64_t seed, cl_result *r, ge_err *e)
{
    memset(r, 0, sizeof *r);
    if (n == 0 || d == 0 || k == 0)
        return ge_errf(e, "clustering needs points, features and k > 0");
    if (k > n)
        k = (uint32_t)n;
    gsl_matrix *X = normalise(x, n, d);
    double *xn = X ? row_norms(X) : NULL;
    int rc = (X && xn) ? run(X, xn, k, seed, r, e) : ge_errf(e, "out of memory (clustering)");
    free(xn);
    gsl_matrix_free(X);
    return rc;
}

int cl_choose(const double *x, size_t n, size_t d, uint32_t kmax, double frac, uint64_t seed, cl_result *r,
              ge_err *e)
{
    if (cl_kmeans(x, n, d, 1, seed, r, e))
        return -1;
    double sse1 = r->sse;
    if (sse1 <= 1e-9 * n)
        return 0; /* uniform */
    for (uint32_t k = 2; k <= kmax && k <= n; k++) {
        cl_result t;
        if (cl_kmeans(x, n, d, k, seed, &t, e))
            return -1;
        cl_free(r);
        *r = t;
        if (t.sse <= frac * sse1)
            break;
    }
    return 0;
}
