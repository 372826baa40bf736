/*
 * test_ptx_errors.c - run-time errors are one clear line and never a crash:
 * out-of-bounds and misaligned accesses in every state space (with the PTX
 * line, kernel, thread and block), stores to read-only memory, use after
 * free, trap and device assertions, barrier deadlock, the instruction limit,
 * bad launches and copies, and sticky errors; plus barrier semantics that
 * must not be errors (named barriers with counts and bar.arrive, bar.red).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx_testutil.h"

#define HDR ".version 8.0\n.target sm_75\n.address_size 64\n"

/* Launch kernel k(p) with grid x block on a fresh device whose parameter
 * points to a 256-byte allocation; expect an error containing every needle. */
static void expect_launch_error(const char *ptx, uint32_t grid, uint32_t block, const char *const *needles)
{
    gpurt *d = tu_device(ptx, "e.ptx");
    gpurt_ptr buf = gpurt_malloc(d, 256);
    gpurt_memset(d, buf, 0, 256);
    void *args[] = {&buf};
    int rc = gpurt_launch(d, "k", gpurt_dim(grid, 1, 1), gpurt_dim(block, 1, 1), 0, args);
    assert_int_equal(rc, -1);
    const char *msg = gpurt_error(d);
    assert_non_null(msg);
    assert_null(strchr(msg, '\n'));
    for (const char *const *n = needles; *n; n++)
        if (!strstr(msg, *n))
            fail_msg("error '%s' lacks '%s'", msg, *n);
    /* sticky: every later call fails with the same message */
    assert_int_equal(gpurt_malloc(d, 16), 0);
    assert_int_equal(gpurt_memset(d, buf, 0, 4), -1);
    assert_string_equal(gpurt_error(d), msg);
    gpurt_destroy(d);
}

#define KHEAD ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .pred %p<4>;\n" \
              " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n"

static void test_out_of_bounds(void **state)
{
    (void)state;
    /* block 1 only: thread 64 is the first to read past the 256 bytes (line 16) */
    const char *n1[] = {"e.ptx:16:", "out-of-bounds global load of 4 bytes", "kernel k", "thread (64,0,0)",
                        "block (1,0,0)", NULL};
    expect_launch_error(HDR KHEAD " mov.u32 %r7, %ctaid.x;\n setp.ne.u32 %p1, %r7, 1;\n @%p1 ret;\n"
                            " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
                            " ld.global.u32 %r2, [%rd3];\n ret;\n}\n",
                        2, 96, n1);
    /* the address is named */
    const char *n2[] = {"e.ptx:11:", "out-of-bounds global store of 8 bytes at 0x", NULL};
    expect_launch_error(HDR KHEAD " st.global.u64 [%rd1+256], %rd1;\n ret;\n}\n", 1, 1, n2);
    /* a null pointer */
    const char *n3[] = {"e.ptx:11:", "out-of-bounds global load of 4 bytes at 0x0,", NULL};
    expect_launch_error(HDR KHEAD " ld.u32 %r2, [0];\n ret;\n}\n", 1, 32, n3);
    /* shared: 64 bytes declared */
    const char *n4[] = {"e.ptx:13:", "out-of-bounds shared store of 4 bytes", "thread (16,0,0)", NULL};
    expect_launch_error(HDR KHEAD " .shared .align 4 .b8 sm[64];\n shl.b32 %r2, %r1, 2;\n"
                            " st.shared.u32 [%r2], %r1;\n ret;\n}\n",
                        1, 32, n4);
    /* local: a 16-byte depot */
    const char *n5[] = {"e.ptx:14:", "out-of-bounds local load", NULL};
    expect_launch_error(HDR KHEAD " .local .align 4 .b8 dep[16];\n mov.u64 %rd2, dep;\n"
                            " add.s64 %rd3, %rd2, 64;\n ld.local.u32 %r2, [%rd3];\n ret;\n}\n",
                        1, 1, n5);
    /* misaligned */
    const char *n6[] = {"e.ptx:11:", "misaligned global load of 8 bytes", NULL};
    expect_launch_error(HDR KHEAD " ld.global.u64 %rd2, [%rd1+4];\n ret;\n}\n", 1, 1, n6);
    const char *n7[] = {"misaligned global load of 16 bytes", NULL};
    expect_launch_error(HDR KHEAD " ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd1+8];\n ret;\n}\n", 1, 1, n7);
    /* read-only .const and the parameter window */
    const char *n8[] = {"e.ptx:13:", "store to read-only .const memory", NULL};
    expect_launch_error(HDR ".const .align 4 .u32 c[4];\n" KHEAD " mov.u64 %rd2, c;\n st.global.u32 [%rd2], 1;\n"
                                                         " ret;\n}\n",
                        1, 1, n8);
    const char *n9[] = {"store to kernel parameter memory", NULL};
    expect_launch_error(HDR KHEAD " mov.u64 %rd2, p;\n cvta.param.u64 %rd3, %rd2;\n st.u32 [%rd3], 1;\n ret;\n}\n",
                        1, 1, n9);
    /* generic address in no allocation and no window */
    const char *n10[] = {"out-of-bounds global atomic of 4 bytes at 0x1234", NULL};
    expect_launch_error(HDR KHEAD " atom.add.u32 %r2, [4660], 1;\n ret;\n}\n", 1, 1, n10);
}

static void test_use_after_free(void **state)
{
    (void)state;
    gpurt *d = tu_device(HDR KHEAD " ld.global.u32 %r2, [%rd1];\n ret;\n}\n", "e.ptx");
    gpurt_ptr a = gpurt_malloc(d, 64), b = gpurt_malloc(d, 64);
    assert_true(a && b && b > a + 64); /* a gap separates allocations */
    assert_int_equal(gpurt_free(d, a), 0);
    void *args[] = {&a};
    assert_int_equal(gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(1, 1, 1), 0, args), -1);
    assert_non_null(strstr(gpurt_error(d), "out-of-bounds global load"));
    gpurt_destroy(d);
    d = tu_device(HDR KHEAD " ret;\n}\n", "e.ptx");
    a = gpurt_malloc(d, 64);
    assert_int_equal(gpurt_free(d, a + 4), -1);
    assert_non_null(strstr(gpurt_error(d), "not the start of an allocation"));
    gpurt_destroy(d);
}

static void test_trap_assert_deadlock_limit(void **state)
{
    (void)state;
    const char *t1[] = {"e.ptx:12:", "trap executed", "thread (3,0,0)", NULL};
    expect_launch_error(HDR KHEAD " setp.eq.u32 %p1, %r1, 3;\n @%p1 trap;\n ret;\n}\n", 1, 8, t1);
    const char *t2[] = {"device assertion failed", NULL};
    expect_launch_error(HDR ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d,"
                            " .param .b64 e);\n" KHEAD
                            " { .param .b64 a0;\n .param .b64 a1;\n .param .b32 a2;\n .param .b64 a3;\n .param .b64 a4;\n"
                            " call.uni __assertfail, (a0, a1, a2, a3, a4);\n }\n ret;\n}\n",
                        1, 1, t2);
    /* a barrier in divergent code that the other lanes must also reach */
    const char *t3[] = {"e.ptx:13:", "barrier deadlock", "16 of 32 threads arrived", NULL};
    expect_launch_error(HDR KHEAD " setp.lt.u32 %p1, %r1, 16;\n @%p1 bra A;\n bar.sync 0;\n bra.uni B;\n"
                            "A:\n bar.sync 0;\nB:\n ret;\n}\n",
                        1, 32, t3);
    /* an endless loop stops at the instruction limit */
    gpurt *d = tu_device(HDR KHEAD "L:\n bra.uni L;\n}\n", "e.ptx");
    gpurt_set_inst_limit(d, 10000);
    gpurt_ptr buf = gpurt_malloc(d, 8);
    void *args[] = {&buf};
    assert_int_equal(gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(32, 1, 1), 0, args), -1);
    assert_non_null(strstr(gpurt_error(d), "e.ptx:12: instruction limit"));
    gpurt_destroy(d);
}

static void test_bad_launches(void **state)
{
    (void)state;
    static const char ptx[] = HDR ".visible .entry k(.param .u64 p, .param .u32 n)\n.maxntid 128, 1, 1\n{\n ret;\n}\n";
    struct {
        uint32_t gx, bx, by, dyn;
        int noargs;
        const char *name, *needle;
    } cases[] = {
        {1, 64, 1, 0, 0, "nokernel", "no kernel named 'nokernel'"},
        {0, 64, 1, 0, 0, "k", "at least 1"},
        {1, 2048, 1, 0, 0, "k", "2048 threads per block"},
        {1, 128, 2, 0, 0, "k", ".maxntid"},
        {1, 64, 1, 1u << 20, 0, "k", "dynamic shared memory"},
        {1, 64, 1, 0, 1, "k", "no arguments"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gpurt *d = tu_device(ptx, "l.ptx");
        uint64_t p = 0;
        uint32_t n = 1;
        void *args[] = {&p, &n};
        assert_int_equal(gpurt_launch(d, cases[i].name, gpurt_dim(cases[i].gx, 1, 1),
                                      gpurt_dim(cases[i].bx, cases[i].by, 1), cases[i].dyn,
                                      cases[i].noargs ? NULL : args),
                         -1);
        if (!strstr(gpurt_error(d), cases[i].needle))
            fail_msg("case %zu: '%s' lacks '%s'", i, gpurt_error(d), cases[i].needle);
        gpurt_destroy(d);
    }
    /* copies outside allocations */
    gpurt *d = tu_device(ptx, "l.ptx");
    gpurt_ptr a = gpurt_malloc(d, 100);
    char buf[200] = {0};
    assert_int_equal(gpurt_memcpy_h2d(d, a + 50, buf, 51), -1);
    assert_non_null(strstr(gpurt_error(d), "memcpy to device of 51 bytes"));
    gpurt_destroy(d);
    d = tu_device(ptx, "l.ptx");
    assert_int_equal(gpurt_memcpy_d2h(d, buf, 0x1000, 4), -1);
    assert_non_null(strstr(gpurt_error(d), "outside any device allocation"));
    gpurt_destroy(d);
    /* a kernel that is only declared */
    d = tu_device(HDR ".visible .entry decl(.param .u64 p);\n", "l.ptx");
    uint64_t pv = 0;
    void *a1[] = {&pv};
    assert_int_equal(gpurt_launch(d, "decl", gpurt_dim(1, 1, 1), gpurt_dim(1, 1, 1), 0, a1), -1);
    assert_non_null(strstr(gpurt_error(d), "declared but not defined"));
    gpurt_destroy(d);
    /* a PTX error at creation names the line */
    ge_err e = {{0}};
    assert_null(gpurt_create(HDR ".visible .entry k()\n{\n nope;\n}\n", "bad.ptx", &e));
    assert_non_null(strstr(e.msg, "bad.ptx:6: unknown instruction 'nope'"));
    assert_null(gpurt_create(NULL, "none.ptx", &e));
}

/* Barriers that must work: named barriers with a thread count and
 * bar.arrive (producer/consumer), bar.red, and exits before a barrier. */
static void test_barrier_semantics(void **state)
{
    (void)state;
    /* warp 0 produces into shared, arrives on barrier 1 (count 64) and
     * leaves; warp 1 waits on barrier 1, then consumes */
    static const char pc[] = HDR KHEAD " .shared .align 4 .b8 sm[128];\n"
                                       " setp.ge.u32 %p1, %r1, 32;\n shl.b32 %r2, %r1, 2;\n @%p1 bra CONS;\n"
                                       " mul.lo.u32 %r3, %r1, 3;\n st.shared.u32 [%r2], %r3;\n bar.arrive 1, 64;\n ret;\n"
                                       "CONS:\n bar.sync 1, 64;\n sub.u32 %r4, %r2, 128;\n ld.shared.u32 %r5, [%r4];\n"
                                       " cvt.u64.u32 %rd2, %r4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r5;\n"
                                       " ret;\n}\n";
    gpurt *d = tu_device(pc, "pc.ptx");
    gpurt_ptr buf = gpurt_malloc(d, 128);
    void *args[] = {&buf};
    gpurt_launch(d, "k", gpurt_dim(2, 1, 1), gpurt_dim(64, 1, 1), 0, args);
    uint32_t out[32];
    gpurt_memcpy_d2h(d, out, buf, sizeof out);
    if (gpurt_error(d))
        fail_msg("%s", gpurt_error(d));
    for (int i = 0; i < 32; i++)
        assert_int_equal(out[i], 3 * i);
    gpurt_destroy(d);
    /* bar.red.popc and bar.red.and/or with lanes that exited first */
    static const char red[] = HDR KHEAD " setp.ge.u32 %p1, %r1, 40;\n @%p1 exit;\n and.b32 %r2, %r1, 3;\n"
                                        " setp.eq.u32 %p2, %r2, 0;\n bar.red.popc.u32 %r3, 0, %p2;\n"
                                        " bar.red.and.pred %p3, 0, %p2;\n selp.u32 %r4, 1, 0, %p3;\n"
                                        " bar.red.or.pred %p3, 0, %p2;\n selp.u32 %r5, 1, 0, %p3;\n"
                                        " mul.wide.u32 %rd2, %r1, 16;\n add.s64 %rd3, %rd1, %rd2;\n"
                                        " st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r1};\n ret;\n}\n";
    d = tu_device(red, "red.ptx");
    gpurt_ptr b2 = gpurt_malloc(d, 16 * 64);
    void *a2[] = {&b2};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(64, 1, 1), 0, a2);
    uint32_t o2[64 * 4];
    gpurt_memcpy_d2h(d, o2, b2, sizeof o2);
    if (gpurt_error(d))
        fail_msg("%s", gpurt_error(d));
    for (int t = 0; t < 40; t++) {
        assert_int_equal(o2[4 * t + 0], 10); /* tids 0..39 with tid % 4 == 0 */
        assert_int_equal(o2[4 * t + 1], 0);
        assert_int_equal(o2[4 * t + 2], 1);
    }
    gpurt_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_bounds), cmocka_unit_test(test_use_after_free),
        cmocka_unit_test(test_trap_assert_deadlock_limit), cmocka_unit_test(test_bad_launches),
        cmocka_unit_test(test_barrier_semantics),
    };
    return cmocka_run_group_tests_name("ptx_errors", tests, NULL, NULL);
}
