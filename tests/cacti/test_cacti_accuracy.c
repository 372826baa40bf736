/*
 * test_cacti_accuracy.c - agreement of cacti/ with CACTI 7.
 *
 * Every configuration of tests/data/cacti7 is read through the cache.cfg
 * reader (and checked against the CSV columns), solved, and compared with
 * CACTI 7's result.  Acceptance bounds (issue 5): MAPE <= 15% for access
 * time, read and write energy, <= 25% for leakage and area, and no
 * configuration off by more than 2x in any of these.  The model fits no
 * constant to these rows, so as a guard against accidental overfitting the
 * same bounds are also required on each half of a 2-fold split.  The MAPE
 * table is printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cacti_ref.h"

static const double mape_bound[REF_NMETRIC] = {15.0, -1.0, 15.0, 15.0, 25.0, 25.0}; /* -1: not bounded */

static cacti_ref_row *rows;
static size_t nrows;

static int setup(void **state)
{
    (void)state;
    char err[512];
    if (cacti_ref_load("tests/data/cacti7/reference.csv", "tests/data/cacti7/cfg", &rows, &nrows, err,
                       sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(rows);
    return 0;
}

static void check(const cacti_ref_stats *st, const char *what)
{
    for (int m = 0; m < REF_NMETRIC; m++) {
        if (mape_bound[m] < 0)
            continue;
        if (st->mape[m] > mape_bound[m] || st->max_ratio[m] > 2.0)
            fail_msg("%s: %s MAPE %.2f%% (bound %.0f%%), worst ratio %.3f (%s)", what, cacti_ref_metric_name[m],
                     st->mape[m], mape_bound[m], st->max_ratio[m], st->worst[m]);
    }
}

static void test_reference_set(void **state)
{
    (void)state;
    assert_true(nrows >= 200);
    cacti_ref_stats st;
    char err[512];
    if (cacti_ref_eval(rows, nrows, 0, 0, &st, NULL, err, sizeof err))
        fail_msg("%s", err);
    printf("agreement with CACTI 7 over %zu configurations:\n", st.n);
    cacti_ref_print(&st, stdout);
    check(&st, "all rows");
}

static void test_two_fold(void **state)
{
    (void)state;
    for (int f = 0; f < 2; f++) {
        cacti_ref_stats st;
        char err[512], what[32];
        if (cacti_ref_eval(rows, nrows, 2, f, &st, NULL, err, sizeof err))
            fail_msg("%s", err);
        snprintf(what, sizeof what, "fold %d/2", f);
        check(&st, what);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_set),
        cmocka_unit_test(test_two_fold),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
