/*
 * root.h - the root of a nondecreasing function of one variable, from a
 * good first guess.
 *
 * The hybrid's calibration solves model(scale) = sample for the SM-side
 * scale, some 100 times per sampled kernel, and each evaluation is a whole
 * interval-model run.  The model's cycles are close to proportional to the
 * scale, so a first guess and one Newton step with that slope nearly always
 * bracket the root tightly, and GSL's Brent solver finishes in one or two
 * more evaluations; a bisection of the whole range needed 16.
 */
#ifndef CALIB_ROOT_H
#define CALIB_ROOT_H

#include "err.h"

/* f(x) into *fx, finite; nonzero on error (the search stops and returns
 * it, -1 for a value that is not finite). */
typedef int (*root_fn)(double x, void *ctx, double *fx);

typedef struct {
    double x0;    /* first guess */
    double slope; /* assumed df/dx for the first step (> 0) */
    double lo, hi;
    double ftol;  /* done when |f(x)| <= ftol ... */
    double xtol;  /* ... or the bracket is narrower than xtol (its midpoint) */
} root_opts;

/* x in [lo, hi] where the nondecreasing f crosses 0: a point with
 * |f| <= ftol, or the midpoint of a bracket narrower than xtol (a step in
 * f); lo if f(lo) > 0, hi if f(hi) < 0.  *evals (may be NULL) gets the
 * number of evaluations of f.  Returns f's error (or -1 with e set when
 * out of memory), or 0. */
int root_nondecreasing(root_fn f, void *ctx, const root_opts *o, double *x, int *evals, ge_err *e);

#endif
