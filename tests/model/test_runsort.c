/*
 * test_runsort.c - the profiler's natural merge sort (model/runsort.h)
 * against a brute-force stable sort, on inputs made of sorted runs (as the
 * profiler's logs are), on random and reversed inputs, and with many ties.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runsort.h"

static int key_less(const void *ctx, uint32_t a, uint32_t b)
{
    const uint32_t *key = ctx;
    return key[a] < key[b];
}

/* Stable insertion sort: the reference. */
static void ref_sort(uint32_t *v, size_t n, const uint32_t *key)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        size_t j = i;
        while (j > 0 && key[x] < key[v[j - 1]]) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* kind 0: runs of random length, each ascending; 1: random; 2: descending;
 * 3: ascending; keys drawn from `range` values (small: many ties). */
static void check(int kind, size_t n, uint32_t range, uint64_t seed)
{
    uint32_t *key = malloc((n ? n : 1) * sizeof *key), *v = malloc((n ? n : 1) * sizeof *v),
             *w = malloc((n ? n : 1) * sizeof *w), *tmp = malloc((n ? n : 1) * sizeof *tmp),
             *runs = malloc((n + 1) * sizeof *runs);
    uint64_t s = seed;
    for (size_t i = 0; i < n;) {
        if (kind == 0) { /* a run: ascending, with ties */
            size_t len = 1 + rng(&s) % 40;
            uint32_t k = (uint32_t)(rng(&s) % range);
            for (size_t j = 0; j < len && i < n; j++, i++) {
                key[i] = k;
                if (rng(&s) % 3 == 0)
                    k += (uint32_t)(rng(&s) % 4);
            }
            continue;
        }
        key[i] = kind == 1 ? (uint32_t)(rng(&s) % range) : kind == 2 ? (uint32_t)((n - i) % range) : (uint32_t)i;
        i++;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = w[i] = (uint32_t)i;
    runsort_u32(v, tmp, runs, n, key_less, key);
    ref_sort(w, n, key);
    if (n)
        assert_memory_equal(v, w, n * sizeof *v);
    free(key);
    free(v);
    free(w);
    free(tmp);
    free(runs);
}

static void test_runsort_matches_stable_sort(void **st)
{
    (void)st;
    const size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000, 3001};
    const uint32_t ranges[] = {2, 17, 1u << 30};
    for (int kind = 0; kind < 4; kind++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++)
                check(kind, sizes[i], ranges[r], 1000 * (uint64_t)kind + i * 10 + r + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runsort_matches_stable_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
