/*
 * test_suite.c - the workload suite: registry checks, and per workload the
 * tiny-size CPU verification, determinism, and proof that its check can fail.
 *
 *   test_suite            registry: order, names, descriptors, embedded PTX
 *                         and resources, every PTX module loads, bad sizes
 *   test_suite WORKLOAD   that workload at its tiny size:
 *                         - verifies against its CPU reference (seed 1);
 *                         - same seed again: identical input and output
 *                           digests (hooks in wl_util.h hash every byte
 *                           uploaded and downloaded);
 *                         - seed 2: different inputs (the two workloads
 *                           whose only inputs are their size and that
 *                           have no random data are listed and must give
 *                           identical digests instead);
 *                         - the fault hook corrupts one result element
 *                           before the check: the run must fail with
 *                           "verification failed".
 * Each run gets a fresh device, as a real run does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suite.h"
#include "wl_util.h"

static const wl_desc *g_w;

/* Workloads with no seed-dependent input: their digests must not change with the seed. */
static int seed_independent(const char *name)
{
    return strcmp(name, "shmem_bank_conflict") == 0 || strcmp(name, "atomic_contention") == 0;
}

/* Run w once on a fresh device; returns run()'s result, message in e. */
static int run_once(const wl_desc *w, uint32_t size, uint64_t seed, wl_hooks *h, ge_err *e)
{
    gpurt *dev = gpurt_create(w->ptx, w->ptx_name, e);
    if (!dev)
        return -2;
    if (gpurt_set_resources(dev, w->ptx_resources) != 0) {
        snprintf(e->msg, sizeof e->msg, "%s", gpurt_error(dev));
        gpurt_destroy(dev);
        return -2;
    }
    wl_params p = {size, seed};
    wl_set_hooks(h);
    int rc = w->run(dev, &p, e);
    wl_set_hooks(NULL);
    gpurt_destroy(dev);
    return rc;
}

/* ---- registry ---- */

static void test_registry(void **state)
{
    (void)state;
    const wl_desc *const *all = suite_all();
    assert_non_null(all);
    char expect[2048];
    snprintf(expect, sizeof expect, "%s", SUITE_CTEST_NAMES);
    char *save = NULL, *tok = strtok_r(expect, ",", &save);
    int i = 0, seen_micro = 0;
    for (; all[i]; i++, tok = strtok_r(NULL, ",", &save)) {
        const wl_desc *w = all[i];
        /* tests/suite/CMakeLists.txt lists the same names in the same order */
        assert_non_null(tok);
        assert_string_equal(w->name, tok);
        assert_ptr_equal(suite_find(w->name), w);
        assert_true(strcmp(w->kind, "app") == 0 || strcmp(w->kind, "micro") == 0);
        if (strcmp(w->kind, "micro") == 0)
            seen_micro = 1;
        else
            assert_false(seen_micro); /* apps first */
        assert_true(w->description && *w->description && w->size_help && *w->size_help);
        assert_true(w->ptx_name && strstr(w->ptx_name, ".ptx"));
        assert_true(w->tiny_size > 0 && w->default_size > 0 && w->run);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(all[j]->name, w->name);
    }
    assert_null(tok);
    assert_true(i >= 27);
    assert_null(suite_find("no_such_workload"));
    assert_null(suite_find(NULL));
}

/* Every kernel of a module has one resource line and vice versa; values sane. */
static void test_resources(void **state)
{
    (void)state;
    for (const wl_desc *const *w = suite_all(); *w; w++) {
        const char *res = (*w)->ptx_resources, *ptx = (*w)->ptx;
        int lines = 0;
        char kname[256];
        unsigned regs, smem;
        int used;
        while (sscanf(res, "%255s %u %u%n", kname, &regs, &smem, &used) == 3) {
            char entry[300];
            snprintf(entry, sizeof entry, ".entry %s(", kname);
            if (!strstr(ptx, entry))
                fail_msg("%s: resource line for %s, which %s does not define", (*w)->name, kname, (*w)->ptx_name);
            assert_true(regs >= 1 && regs <= 255);
            assert_true(smem <= 48 * 1024);
            res += used;
            lines++;
        }
        int entries = 0;
        for (const char *q = ptx; (q = strstr(q, ".entry ")) != NULL; q++)
            entries++;
        if (entries != lines)
            fail_msg("%s: %d kernels in %s but %d resource lines", (*w)->name, entries, (*w)->ptx_name, lines);
    }
}

static void test_modules_load(void **state)
{
    (void)state;
    for (const wl_desc *const *w = suite_all(); *w; w++) {
        ge_err e = {{0}};
        gpurt *dev = gpurt_create((*w)->ptx, (*w)->ptx_name, &e);
        if (!dev)
            fail_msg("%s: %s", (*w)->name, e.msg);
        gpurt_destroy(dev);
    }
}

/* Sizes outside a workload's range are a one-line error, not a crash. */
static void test_bad_sizes(void **state)
{
    (void)state;
    const char *names[] = {"sgemm_tiled", "bitonic_sort", "nw", "stream_copy", "divergence_ifelse",
                           "shmem_bank_conflict", "pchase_l1"};
    uint32_t sizes[] = {UINT32_MAX, 1000 /* not a power of two */, 100 /* not a multiple of 16 */,
                        10 /* not a multiple of 4 */, 3 /* not a power of two */, 33, UINT32_MAX};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const wl_desc *w = suite_find(names[i]);
        assert_non_null(w);
        ge_err e = {{0}};
        assert_int_equal(run_once(w, sizes[i], 1, NULL, &e), -1);
        assert_non_null(strstr(e.msg, names[i]));
        assert_null(strchr(e.msg, '\n'));
    }
}

/* ---- one workload ---- */

static void test_verifies(void **state)
{
    (void)state;
    ge_err e = {{0}};
    wl_hooks a = {0}, b = {0}, c = {0};
    if (run_once(g_w, g_w->tiny_size, 1, &a, &e) != 0)
        fail_msg("%s (size %u, seed 1): %s", g_w->name, g_w->tiny_size, e.msg);
    if (run_once(g_w, g_w->tiny_size, 1, &b, &e) != 0)
        fail_msg("%s (second run): %s", g_w->name, e.msg);
    assert_true(a.in_digest == b.in_digest);
    assert_true(a.out_digest == b.out_digest);
    if (run_once(g_w, g_w->tiny_size, 2, &c, &e) != 0)
        fail_msg("%s (size %u, seed 2): %s", g_w->name, g_w->tiny_size, e.msg);
    if (seed_independent(g_w->name)) {
        assert_true(a.in_digest == c.in_digest && a.out_digest == c.out_digest);
    } else {
        assert_true(a.in_digest != c.in_digest);
        assert_true(a.out_digest != c.out_digest);
    }
}

static void test_fault_detected(void **state)
{
    (void)state;
    ge_err e = {{0}};
    wl_hooks h = {0};
    h.fault = 7;
    int rc = run_once(g_w, g_w->tiny_size, 1, &h, &e);
    assert_int_equal(rc, -1);
    if (!strstr(e.msg, "verification failed"))
        fail_msg("%s: expected a verification failure, got: %s", g_w->name, e.msg);
    assert_null(strchr(e.msg, '\n'));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_registry),
            cmocka_unit_test(test_resources),
            cmocka_unit_test(test_modules_load),
            cmocka_unit_test(test_bad_sizes),
        };
        return cmocka_run_group_tests_name("suite_registry", tests, NULL, NULL);
    }
    g_w = suite_find(argv[1]);
    if (!g_w) {
        fprintf(stderr, "test_suite: unknown workload '%s'\n", argv[1]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verifies),
        cmocka_unit_test(test_fault_detected),
    };
    return cmocka_run_group_tests_name(argv[1], tests, NULL, NULL);
}
