/*
 * root.c - see root.h.
 *
 * Two phases.  From the guess x0, steps towards the root (a Newton step
 * with the assumed slope, then secant steps overshot by half, doubling
 * after the third so that any range is crossed) until f changes sign or
 * the range ends.  Then GSL's Brent solver (gsl_root_fsolver_brent) inside
 * that bracket, stopped by the residual or the bracket's width.  GSL's
 * solver evaluates the bracket's ends again when it is set, and reports its
 * own latest point, so f goes through a memo of the last few points.
 */
#include <math.h>

#include <gsl/gsl_roots.h>

#include "root.h"

#define ROOT_MEMO 4
#define ROOT_MAX_STEPS 64 /* bracketing steps (the doubling crosses any range long before) */
#define ROOT_MAX_ITERS 100 /* Brent iterations */

typedef struct {
    root_fn f;
    void *ctx;
    int rc, evals, n, next;
    double mx[ROOT_MEMO], mf[ROOT_MEMO];
} search;

/* f through the memo.  After an error it returns 0 without calling f, and
 * the caller stops (GSL must always see finite values). */
static double eval(double x, void *p)
{
    search *s = p;
    for (int i = 0; i < s->n; i++)
        if (s->mx[i] == x)
            return s->mf[i];
    double fx = 0;
    if (s->rc || (s->rc = s->f(x, s->ctx, &fx)) != 0)
        return 0;
    if (!isfinite(fx)) {
        s->rc = -1;
        return 0;
    }
    s->evals++;
    s->mx[s->next] = x;
    s->mf[s->next] = fx;
    s->next = (s->next + 1) % ROOT_MEMO;
    if (s->n < ROOT_MEMO)
        s->n++;
    return fx;
}

/* Brent's method inside [xl, xu], whose ends f has of opposite signs. */
static int brent(search *s, const root_opts *o, double xl, double xu, double *x, ge_err *e)
{
    *x = 0.5 * (xl + xu);
    if (xu - xl < o->xtol)
        return 0;
    gsl_root_fsolver *so = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!so)
        return ge_errf(e, "out of memory (root search)");
    gsl_function F = {eval, s};
    gsl_root_fsolver_set(so, &F, xl, xu);
    for (int it = 0; it < ROOT_MAX_ITERS; it++) {
        gsl_root_fsolver_iterate(so);
        if (s->rc)
            break;
        double r = gsl_root_fsolver_root(so), fr = eval(r, s);
        xl = gsl_root_fsolver_x_lower(so);
        xu = gsl_root_fsolver_x_upper(so);
        *x = r;
        if (fabs(fr) <= o->ftol)
            break;
        if (xu - xl < o->xtol) {
            *x = 0.5 * (xl + xu);
            break;
        }
    }
    gsl_root_fsolver_free(so);
    return 0;
}

int root_nondecreasing(root_fn f, void *ctx, const root_opts *o, double *x, int *evals, ge_err *e)
{
    search s = {.f = f, .ctx = ctx};
    double a = fmin(o->hi, fmax(o->lo, o->x0)), fa = eval(a, &s);
    *x = a;
    int rc = 0;
    if (s.rc || fabs(fa) <= o->ftol)
        goto done;
    double dir = fa < 0 ? 1 : -1, edge = fa < 0 ? o->hi : o->lo;
    double step = fabs(fa) / o->slope;
    for (int i = 0; i < ROOT_MAX_STEPS; i++) {
        if (step < o->xtol)
            step = o->xtol;
        double b = a + dir * step;
        if (dir * (b - edge) > 0)
            b = edge;
        double fb = eval(b, &s);
        *x = b;
        if (s.rc || fabs(fb) <= o->ftol)
            goto done;
        if ((fb < 0) != (fa < 0)) {
            rc = brent(&s, o, fmin(a, b), fmax(a, b), x, e);
            goto done;
        }
        if (b == edge) /* no sign change in the range */
            goto done;
        /* still short of the root: the secant's step past b, overshot by half */
        double sl = (fb - fa) / (b - a);
        double next = sl > 0 ? 1.5 * fabs(fb) / sl : 2 * step;
        if (i >= 2 && next < 2 * step)
            next = 2 * step;
        a = b, fa = fb, step = next;
    }
done:
    if (evals)
        *evals = s.evals;
    return rc ? rc : s.rc;
}
