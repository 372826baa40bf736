/*
 * test_ptx_trace.c - `gpuest trace` round trip: a workload's warp stream
 * written as Accel-Sim traces (accelsim_write_stream, plain and .xz) and
 * read back (accelsim_open) gives the same statistics (wstats: instruction
 * counts, SIMD efficiency, op-kind mix, memory requests, sectors, lines)
 * as the execution-driven stream itself, for workloads that cover
 * divergence, shared memory, atomics, several kernels and host loops.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "accelsim.h"
#include "suite.h"
#include "suite_source.h"
#include "wstats.h"

static void measure(ws_source *s, wstats *w)
{
    ge_err e = {{0}};
    wstats_init(w);
    if (wstats_run(w, s, NULL, &e))
        fail_msg("%s", e.msg);
}

static void same_kernel(const wstats_kernel *a, const wstats_kernel *b)
{
    assert_int_equal(a->ctas, b->ctas);
    assert_int_equal(a->warp_insts, b->warp_insts);
    assert_int_equal(a->thread_insts, b->thread_insts);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        if (a->op[i] != b->op[i])
            fail_msg("%s: op %s: %llu vs %llu", a->name, isa_ops[i].name, (unsigned long long)a->op[i],
                     (unsigned long long)b->op[i]);
    assert_int_equal(a->mem_requests, b->mem_requests);
    assert_int_equal(a->mem_sectors, b->mem_sectors);
    assert_int_equal(a->mem_lines, b->mem_lines);
    assert_int_equal(a->shared_requests, b->shared_requests);
    assert_int_equal(a->lines_touched, b->lines_touched);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(a->grid[i], b->grid[i]);
        assert_int_equal(a->block[i], b->block[i]);
    }
}

static void round_trip(const char *name, int xz)
{
    const wl_desc *w = suite_find(name);
    assert_non_null(w);
    wl_params p = {w->tiny_size, 5};
    ge_err e = {{0}};
    char dir[] = "/tmp/gpuest_ptx_traceXXXXXX";
    assert_non_null(mkdtemp(dir));
    ws_source *s;
    assert_int_equal(suite_source_open(w, &p, &s, &e), 0);
    if (accelsim_write_stream(s, dir, xz, &e))
        fail_msg("%s: %s", name, e.msg);
    ws_close(s);
    wstats direct, back;
    assert_int_equal(suite_source_open(w, &p, &s, &e), 0);
    measure(s, &direct);
    ws_close(s);
    if (accelsim_open(dir, &s, &e))
        fail_msg("%s", e.msg);
    measure(s, &back);
    ws_close(s);
    assert_int_equal(direct.nkernels, back.nkernels);
    assert_true(direct.nkernels > 0);
    for (size_t k = 0; k < direct.nkernels; k++)
        same_kernel(&direct.kernels[k], &back.kernels[k]);
    same_kernel(&direct.total, &back.total);
    wstats_free(&direct);
    wstats_free(&back);
    /* remove the trace */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_vectoradd(void **state) { (void)state; round_trip("vectoradd", 0); }
static void test_bfs_xz(void **state) { (void)state; round_trip("bfs", 1); }
static void test_reduction(void **state) { (void)state; round_trip("reduction", 0); }
static void test_divergence(void **state) { (void)state; round_trip("divergence_ifelse", 0); }
static void test_histogram(void **state) { (void)state; round_trip("histogram_shared", 0); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectoradd), cmocka_unit_test(test_bfs_xz),     cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_divergence), cmocka_unit_test(test_histogram),
    };
    return cmocka_run_group_tests_name("ptx_trace", tests, NULL, NULL);
}
