/*
 * test_reuse.c - reuse (stack) distances and the LRU hit rates they imply,
 * against hand-computed cases and a direct LRU simulation.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reuse.h"

static void test_reuse_aba(void **st)
{
    (void)st;
    /* A B A, every sector: A and B are cold (8 sectors), the second A has
     * one distinct line (B) in between: 4 sectors at distance 1. */
    rd_access s[] = {{1, 0xf}, {2, 0xf}, {1, 0xf}};
    rd_hist h;
    memset(&h, 0, sizeof h);
    assert_int_equal(rd_measure(s, 3, &h, NULL), 0);
    assert_true(h.cold == 8);
    assert_true(h.bin[1] == 4);
    assert_true(rd_total(&h) == 12);
    /* fully associative LRU: 2 lines hold A and B -> 4 hits of 12 */
    assert_true(fabs(rd_hit_rate(&h, 2, 1) - 4.0 / 12) < 1e-12);
    assert_true(rd_hit_rate(&h, 1, 1) == 0);
    /* 2 sets x 1 way: B lands in A's set with probability 1/2 -> 2 hits of 12 */
    assert_true(fabs(rd_hit_rate(&h, 2, 2) - 2.0 / 12) < 1e-9);
}

static void test_reuse_sectors(void **st)
{
    (void)st;
    /* A.s0, A.s1, A.s0: both first touches are cold; the third has no other
     * line in between -> distance 0 (a hit even in a 1-line cache). */
    rd_access s[] = {{7, 0x1}, {7, 0x2}, {7, 0x1}};
    rd_hist h;
    memset(&h, 0, sizeof h);
    assert_int_equal(rd_measure(s, 3, &h, NULL), 0);
    assert_true(h.cold == 2 && h.bin[0] == 1);
    assert_true(fabs(rd_hit_rate(&h, 1, 1) - 1.0 / 3) < 1e-12);
}

/* A cache that fills whole lines hits a sector its line brought in: A.s0,
 * B.s0, A.s1 is a hit in two lines there, a cold miss in a sectored cache. */
static void test_reuse_whole_lines(void **st)
{
    (void)st;
    rd_access s[] = {{1, 0x1}, {2, 0x1}, {1, 0x2}};
    rd_hist h;
    memset(&h, 0, sizeof h);
    assert_int_equal(rd_measure(s, 3, &h, NULL), 0);
    assert_true(h.cold == 3 && rd_total(&h) == 3);
    assert_true(h.lbin[1] == 1 && h.ltbin[1] == 1); /* one other line, two accesses ago */
    assert_true(rd_hit_rate(&h, 2, 1) == 0);
    assert_true(fabs(rd_hit_rate_lines(&h, 2, 1) - 1.0 / 3) < 1e-12);
    assert_true(rd_hit_rate_lines(&h, 1, 1) == 0);
    /* reused two accesses later: in flight if a miss lasts 4 accesses */
    assert_true(fabs(rd_recent_lines(&h, 4) - 1.0 / 3) < 1e-12);
    assert_true(rd_recent(&h, 4) == 0);
}

/* Brute-force fully associative LRU over whole lines: hits and accesses
 * counted per touched sector. */
static double lru_sim(const rd_access *s, size_t n, size_t cap)
{
    uint64_t *stack = calloc(cap ? cap : 1, sizeof *stack);
    size_t used = 0, hits = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        size_t pos = used;
        for (size_t j = 0; j < used; j++)
            if (stack[j] == s[i].line) {
                pos = j;
                break;
            }
        int cnt = __builtin_popcount(s[i].sectors & 0xf);
        total += cnt;
        if (pos < used)
            hits += cnt;
        size_t from = pos < used ? pos : (used < cap ? used++ : cap - 1);
        memmove(stack + 1, stack, from * sizeof *stack);
        stack[0] = s[i].line;
    }
    free(stack);
    return (double)hits / total;
}

static void test_reuse_matches_lru(void **st)
{
    (void)st;
    enum { N = 4000 };
    rd_access *s = malloc(N * sizeof *s);
    uint64_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        s[i].line = (x >> 33) % 24; /* 24 lines: distances span the exact bins */
        s[i].sectors = 0xf;
    }
    rd_hist h;
    memset(&h, 0, sizeof h);
    assert_int_equal(rd_measure(s, N, &h, NULL), 0);
    double prev = -1;
    for (size_t cap = 1; cap <= 16; cap++) {
        double a = rd_hit_rate(&h, cap, 1), b = lru_sim(s, N, cap);
        assert_true(fabs(a - b) < 1e-12);
        assert_true(a >= prev); /* a larger LRU cache never misses more */
        prev = a;
    }
    /* partial sector masks: exact for a cache that fills whole lines, and
     * a sectored cache hits no more than it */
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        s[i].sectors = 1u + (uint32_t)(x >> 40) % 15;
    }
    memset(&h, 0, sizeof h);
    assert_int_equal(rd_measure(s, N, &h, NULL), 0);
    for (size_t cap = 1; cap <= 16; cap++) {
        double a = rd_hit_rate_lines(&h, cap, 1), b = lru_sim(s, N, cap);
        assert_true(fabs(a - b) < 1e-12);
        assert_true(rd_hit_rate(&h, cap, 1) <= a + 1e-12);
    }
    free(s);
}

/* Brute force: for each touched sector, the distinct other lines accessed
 * since that sector's previous touch, and the accesses since. */
static void brute_hist(const rd_access *s, size_t n, rd_hist *h)
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < RD_SECTORS; b++) {
            if (!(s[i].sectors >> b & 1))
                continue;
            size_t p = i;
            while (p-- > 0)
                if (s[p].line == s[i].line && (s[p].sectors >> b & 1))
                    break;
            if (p == (size_t)-1) {
                h->cold += 1;
                continue;
            }
            uint64_t d = 0;
            for (size_t q = p + 1; q < i; q++) {
                int seen = s[q].line == s[i].line;
                for (size_t r = p + 1; r < q && !seen; r++)
                    seen = s[r].line == s[q].line;
                d += !seen;
            }
            h->bin[rd_bin_of(d)] += 1;
            int tb = 63 - __builtin_clzll(i - p);
            h->tbin[tb < RD_TBINS ? tb : RD_TBINS - 1] += 1;
        }
    /* by the line's last touch, any sector */
    for (size_t i = 0; i < n; i++) {
        size_t p = i;
        while (p-- > 0)
            if (s[p].line == s[i].line)
                break;
        int cnt = __builtin_popcount(s[i].sectors & 0xf);
        if (p == (size_t)-1 || !cnt)
            continue;
        uint64_t d = 0;
        for (size_t q = p + 1; q < i; q++) {
            int seen = 0;
            for (size_t r = p + 1; r < q && !seen; r++)
                seen = s[r].line == s[q].line;
            d += !seen;
        }
        h->lbin[rd_bin_of(d)] += cnt;
        int tb = 63 - __builtin_clzll(i - p);
        h->ltbin[tb < RD_TBINS ? tb : RD_TBINS - 1] += cnt;
    }
}

/* Several streams measured in one workspace (as the profiler does), with
 * partial sector masks, against brute force: a small stream after a larger
 * one must not see the larger one's lines. */
static void test_reuse_workspace_matches_brute_force(void **st)
{
    (void)st;
    rd_ws ws = {0};
    uint64_t x = 777;
    const size_t lens[] = {600, 50, 1500, 1, 300};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        size_t n = lens[k];
        rd_access *s = malloc(n * sizeof *s);
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            s[i].line = (x >> 33) % (k % 2 ? 40 : 400);
            s[i].sectors = (uint32_t)(x >> 20) & 0xf;
        }
        rd_hist a, b;
        memset(&a, 0, sizeof a);
        assert_int_equal(rd_measure_ws(&ws, s, NULL, n, &a, 1.0, NULL), 0);
        brute_hist(s, n, &b);
        assert_memory_equal(&a, &b, sizeof a);
        free(s);
    }
    rd_ws_free(&ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_aba),
        cmocka_unit_test(test_reuse_sectors),
        cmocka_unit_test(test_reuse_whole_lines),
        cmocka_unit_test(test_reuse_matches_lru),
        cmocka_unit_test(test_reuse_workspace_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
