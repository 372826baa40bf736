/*
 * test_root.c - the calibration's root search (calib/root.c): roots of
 * known functions to the tolerances asked for, in few evaluations when the
 * guess's slope is right, steps in f resolved to the bracket's width, the
 * range's ends when f does not change sign in it, and f's errors passed on.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "root.h"

typedef struct {
    int kind, calls, fail_at;
} fn;

static int f(double x, void *ctx, double *fx)
{
    fn *c = ctx;
    if (++c->calls == c->fail_at)
        return 7;
    switch (c->kind) {
    case 0: /* the calibration's shape: cycles / target - 1, cycles close to proportional to e^x */
        *fx = 1.1396 * exp(x) + 0.015 * x - 1;
        break;
    case 1: /* linear, twice the assumed slope */
        *fx = 2 * (x - 0.3);
        break;
    case 2: /* a step at 0.5 */
        *fx = x < 0.5 ? -1 : 1;
        break;
    case 3: /* steep, far from the guess */
        *fx = tanh(50 * (x - 1.7));
        break;
    case 4: /* below zero on the whole range */
        *fx = x - 10;
        break;
    case 5: /* above zero on the whole range */
        *fx = x + 10;
        break;
    default:
        *fx = NAN;
    }
    return 0;
}

static const root_opts opts = {.x0 = 0, .slope = 1, .lo = -2.0794415416798357, .hi = 2.0794415416798357,
                               .ftol = 1e-6, .xtol = 1e-4};

static double solve(int kind, int *evals, int *rc)
{
    fn c = {kind, 0, 0};
    double x = NAN;
    ge_err e;
    *rc = root_nondecreasing(f, &c, &opts, &x, evals, &e);
    assert_int_equal(c.calls, *evals); /* the memo never calls f twice for a point */
    return x;
}

static void test_smooth_roots(void **state)
{
    (void)state;
    int evals, rc;
    double x = solve(0, &evals, &rc);
    assert_int_equal(rc, 0);
    double fx = 1.1396 * exp(x) + 0.015 * x - 1;
    assert_true(fabs(fx) <= 1e-6);
    assert_true(evals <= 4); /* a bisection of [-ln 8, ln 8] to 1e-4 needs 16 */
    x = solve(1, &evals, &rc);
    assert_int_equal(rc, 0);
    assert_true(fabs(x - 0.3) <= 0.5e-6);
    assert_true(evals <= 5);
    x = solve(3, &evals, &rc);
    assert_int_equal(rc, 0);
    assert_true(fabs(x - 1.7) < 1e-4); /* the bracket's width ends it: f' = 50 */
    assert_true(evals <= 30);
}

static void test_step_and_no_root(void **state)
{
    (void)state;
    int evals, rc;
    double x = solve(2, &evals, &rc);
    assert_int_equal(rc, 0);
    assert_true(fabs(x - 0.5) < 1e-4);
    x = solve(4, &evals, &rc);
    assert_int_equal(rc, 0);
    assert_true(x == opts.hi);
    x = solve(5, &evals, &rc);
    assert_int_equal(rc, 0);
    assert_true(x == opts.lo);
}

static void test_errors(void **state)
{
    (void)state;
    for (int at = 1; at <= 3; at++) {
        fn c = {0, 0, at};
        double x;
        ge_err e;
        assert_int_equal(root_nondecreasing(f, &c, &opts, &x, NULL, &e), 7);
        assert_int_equal(c.calls, at); /* stops at the error */
    }
    fn c = {6, 0, 0}; /* NaN */
    double x;
    ge_err e;
    assert_int_equal(root_nondecreasing(f, &c, &opts, &x, NULL, &e), -1);
    assert_int_equal(c.calls, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smooth_roots),
        cmocka_unit_test(test_step_and_no_root),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
