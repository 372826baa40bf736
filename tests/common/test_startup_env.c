/*
 * test_startup_env.c - the start-up environment (common/startup_env.h): a
 * program that calls ge_startup_reexec first runs with one OpenBLAS thread.
 *
 * OpenBLAS's pthread build starts its worker pool when it loads, before
 * main(), so what is checked is the re-executed image: after the call the
 * process has its main thread alone, with OpenBLAS loaded and working.  On
 * a machine of two or more cores this fails without the re-execution (the
 * pool adds a thread per further core); on one core it cannot tell.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_blas.h>

#include "startup_env.h"

static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_one_blas_thread(void **st)
{
    (void)st;
    const char *v = getenv("OPENBLAS_NUM_THREADS");
    if (v && strcmp(v, "1"))
        skip(); /* whoever ran us asked for more threads: theirs to have */
    /* OpenBLAS is loaded and computes (GSL's BLAS goes to it) */
    double x[3] = {1, 2, 3}, y[3] = {4, 5, 6}, r = 0;
    gsl_vector_view vx = gsl_vector_view_array(x, 3), vy = gsl_vector_view_array(y, 3);
    assert_int_equal(gsl_blas_ddot(&vx.vector, &vy.vector, &r), 0);
    assert_true(r == 32);
    assert_int_equal(count_threads(), 1);
}

int main(int argc, char **argv)
{
    (void)argc;
    ge_startup_reexec(argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_blas_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
