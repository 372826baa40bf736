/*
 * test_coalesce.c - co_coalesce against hand-computed cases: the lines and
 * sector masks of one warp access, in first-touch lane order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "coalesce.h"

/* 32 lanes of 4-byte words from 4096: one 128-byte line, all 4 sectors. */
static void test_unit_stride(void **state)
{
    (void)state;
    uint64_t a[32];
    co_line l[CO_MAX_LINES];
    for (int i = 0; i < 32; i++)
        a[i] = 4096 + 4u * (unsigned)i;
    assert_int_equal(co_coalesce(~0u, a, 4, 128, 32, l), 1);
    assert_int_equal(l[0].line, 32);
    assert_int_equal(l[0].sectors, 0xf);
    /* odd lanes only: still every sector (8 lanes per sector) */
    assert_int_equal(co_coalesce(0xaaaaaaaau, a, 4, 128, 32, l), 1);
    assert_int_equal(l[0].sectors, 0xf);
    /* lanes 0-7 only: sector 0 */
    assert_int_equal(co_coalesce(0xffu, a, 4, 128, 32, l), 1);
    assert_int_equal(l[0].sectors, 0x1);
    assert_int_equal(co_coalesce(0, a, 4, 128, 32, l), 0);
}

/* float4 per lane: 512 bytes, four lines of four sectors; Fermi's 128-byte
 * sectors make them one sector each. */
static void test_vector_width(void **state)
{
    (void)state;
    uint64_t a[32];
    co_line l[CO_MAX_LINES];
    for (int i = 0; i < 32; i++)
        a[i] = 16u * (unsigned)i;
    assert_int_equal(co_coalesce(~0u, a, 16, 128, 32, l), 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(l[i].line, i);
        assert_int_equal(l[i].sectors, 0xf);
    }
    assert_int_equal(co_coalesce(~0u, a, 16, 128, 128, l), 4);
    assert_int_equal(l[3].sectors, 0x1);
    assert_int_equal(co_sectors(l, 4), 4);
}

/* A 128-byte stride: one line per lane, in lane order even when the
 * addresses run backwards, one sector each. */
static void test_strided_order(void **state)
{
    (void)state;
    uint64_t a[32];
    co_line l[CO_MAX_LINES];
    for (int i = 0; i < 32; i++)
        a[i] = 128u * (unsigned)(31 - i) + 32;
    assert_int_equal(co_coalesce(~0u, a, 4, 128, 32, l), 32);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(l[i].line, 31 - i);
        assert_int_equal(l[i].sectors, 0x2);
    }
    assert_int_equal(co_sectors(l, 32), 32);
}

/* Lanes that revisit an earlier line merge into it; an access across a
 * line boundary touches both lines. */
static void test_revisit_and_straddle(void **state)
{
    (void)state;
    uint64_t a[32] = {0};
    co_line l[CO_MAX_LINES];
    a[0] = 0;   /* line 0, sector 0 */
    a[1] = 200; /* line 1, sector 2 */
    a[2] = 100; /* line 0, sector 3 */
    assert_int_equal(co_coalesce(0x7u, a, 4, 128, 32, l), 2);
    assert_int_equal(l[0].line, 0);
    assert_int_equal(l[0].sectors, 0x9);
    assert_int_equal(l[1].line, 1);
    assert_int_equal(l[1].sectors, 0x4);
    a[0] = 124; /* 8 bytes from 124: sector 3 of line 0 and sector 0 of line 1 */
    assert_int_equal(co_coalesce(0x1u, a, 8, 128, 32, l), 2);
    assert_int_equal(l[0].sectors, 0x8);
    assert_int_equal(l[1].line, 1);
    assert_int_equal(l[1].sectors, 0x1);
    /* size 0 counts as one byte; an access ending past the top of the
     * address space is clamped to it */
    a[0] = UINT64_MAX - 1;
    assert_int_equal(co_coalesce(0x1u, a, 0, 128, 32, l), 1);
    assert_int_equal(co_coalesce(0x1u, a, 16, 128, 32, l), 1);
    assert_int_equal(l[0].line, UINT64_MAX >> 7);
    assert_int_equal(l[0].sectors, 0x8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_stride),
        cmocka_unit_test(test_vector_width),
        cmocka_unit_test(test_strided_order),
        cmocka_unit_test(test_revisit_and_straddle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
