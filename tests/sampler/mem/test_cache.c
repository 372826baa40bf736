/*
 * test_cache.c - the generic sectored cache (LRU/FIFO by hand-made
 * sequences, sector state, pending-line protection, invalidation), the LRU
 * inclusion property on random streams, Belady's anomaly under FIFO, and the
 * MSHR table (merge, full, index consistency under random operations).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cache.h"
#include "mshr.h"

static gcfg_cache geom(uint32_t sets, uint32_t ways, uint32_t sector, const char *repl)
{
    gcfg_cache g;
    memset(&g, 0, sizeof g);
    g.sets = sets;
    g.ways = ways;
    g.line_bytes = 128;
    g.sector_bytes = sector;
    g.size_bytes = sets * ways * 128;
    g.banks = 1;
    strcpy(g.replacement, repl);
    return g;
}

/* Functional access: 1 if every requested sector hits; misses fill at once. */
static int touch(cache *c, uint64_t line, uint32_t sectors, uint32_t *missed)
{
    int s = cache_find(c, line);
    if (s >= 0 && (c->m[s].valid & sectors) == sectors) {
        cache_touch(c, (uint32_t)s);
        return 1;
    }
    uint32_t have = s >= 0 ? c->m[s].valid : 0;
    if (missed)
        *missed += (uint32_t)__builtin_popcount(sectors & ~have);
    if (s < 0) {
        s = cache_victim(c, line);
        assert_true(s >= 0);
        cache_install(c, (uint32_t)s, line, NULL);
    } else {
        cache_touch(c, (uint32_t)s);
    }
    c->m[s].valid |= sectors;
    return 0;
}

static void test_lru_order(void **st)
{
    (void)st;
    gcfg_cache g = geom(1, 4, 128, "lru");
    cache c;
    assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
    for (uint64_t l = 1; l <= 4; l++)
        assert_int_equal(touch(&c, l, 1, NULL), 0);
    assert_int_equal(touch(&c, 1, 1, NULL), 1); /* 1 becomes MRU; LRU order now 2 3 4 1 */
    assert_int_equal(touch(&c, 5, 1, NULL), 0); /* evicts 2 */
    assert_int_equal(cache_find(&c, 2), -1);
    assert_true(cache_find(&c, 1) >= 0);
    assert_int_equal(touch(&c, 3, 1, NULL), 1); /* order 4 1 5 3 */
    assert_int_equal(touch(&c, 6, 1, NULL), 0); /* evicts 4 */
    assert_int_equal(cache_find(&c, 4), -1);
    assert_int_equal(touch(&c, 7, 1, NULL), 0); /* evicts 1 */
    assert_int_equal(cache_find(&c, 1), -1);
    assert_true(cache_find(&c, 5) >= 0 && cache_find(&c, 3) >= 0 && cache_find(&c, 6) >= 0);
    cache_free(&c);
}

static void test_fifo_order(void **st)
{
    (void)st;
    gcfg_cache g = geom(1, 4, 128, "fifo");
    cache c;
    assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
    for (uint64_t l = 1; l <= 4; l++)
        touch(&c, l, 1, NULL);
    assert_int_equal(touch(&c, 1, 1, NULL), 1); /* a hit does not refresh under FIFO */
    assert_int_equal(touch(&c, 5, 1, NULL), 0); /* evicts 1, the first in */
    assert_int_equal(cache_find(&c, 1), -1);
    assert_true(cache_find(&c, 2) >= 0);
    assert_int_equal(touch(&c, 6, 1, NULL), 0); /* evicts 2 */
    assert_int_equal(cache_find(&c, 2), -1);
    cache_free(&c);
}

static void test_sectors_and_pending(void **st)
{
    (void)st;
    gcfg_cache g = geom(2, 2, 32, "lru");
    cache c;
    assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
    assert_int_equal(c.nsect, 4);
    assert_int_equal(c.full, 0xf);
    uint32_t missed = 0;
    assert_int_equal(touch(&c, 10, 0x1, &missed), 0); /* line 10 -> set 0 */
    assert_int_equal(missed, 1);
    assert_int_equal(touch(&c, 10, 0x1, &missed), 1);
    assert_int_equal(touch(&c, 10, 0x3, &missed), 0); /* sector 1 missing */
    assert_int_equal(missed, 2);
    int s = cache_find(&c, 10);
    assert_int_equal(c.m[s].valid, 0x3);
    /* Pending lines are never victims. */
    touch(&c, 12, 0x1, NULL); /* set 0, way 2 */
    int s12 = cache_find(&c, 12);
    cache_set_pending(&c, (uint32_t)s, 0x4);
    assert_int_equal(cache_victim(&c, 14), s12); /* 10 is LRU but pending */
    cache_set_pending(&c, (uint32_t)s12, 0x1);
    assert_int_equal(cache_victim(&c, 14), -1); /* all ways pending */
    cache_set_pending(&c, (uint32_t)s12, 0);    /* its fill came: a victim again */
    assert_int_equal(cache_victim(&c, 14), s12);
    /* Invalidation keeps pending lines' tags, drops everything else. */
    touch(&c, 11, 0xf, NULL); /* set 1 */
    cache_invalidate_all(&c);
    assert_int_equal(cache_find(&c, 11), -1);
    assert_int_equal(cache_find(&c, 10), s);
    assert_int_equal(c.m[s].valid, 0);
    assert_int_equal(c.m[s].pending, 0x4);
    assert_int_equal(cache_count_valid(&c), 0);
    cache_free(&c);
}

static void test_set_div(void **st)
{
    (void)st;
    gcfg_cache g = geom(4, 1, 128, "lru");
    cache c;
    assert_int_equal(cache_init(&c, &g, 3, NULL), 0); /* non-power-of-two divisor */
    assert_int_equal(cache_set_of(&c, 0), 0);
    assert_int_equal(cache_set_of(&c, 2), 0);
    assert_int_equal(cache_set_of(&c, 3), 1);
    assert_int_equal(cache_set_of(&c, 12), 0);
    assert_int_equal(cache_set_of(&c, 11), 3);
    cache_free(&c);
    gcfg_cache bad = geom(4, 1, 128, "random");
    ge_err e;
    assert_int_equal(cache_init(&c, &bad, 1, &e), -1);
    assert_non_null(strstr(e.msg, "random"));
}

/* set_index "xor": a column of lines a power-of-two stride apart spreads
 * over the sets instead of crowding one, and an aligned run of `sets`
 * consecutive lines still fills every set once; with 8 ways the column
 * then stays resident where the linear index thrashes one set. */
static void test_set_xor(void **st)
{
    (void)st;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t sets = pass ? 24 : 32, div = pass ? 12 : 64; /* an RTX 2060 and a V100 slice */
        gcfg_cache g = geom(sets, 8, 32, "lru");
        strcpy(g.set_index, "xor");
        cache c;
        assert_int_equal(cache_init(&c, &g, div, NULL), 0);
        for (uint64_t base = 0; pass == 0 && base < 4; base++) { /* power of two: a permutation */
            uint32_t seen[32] = {0};
            for (uint64_t i = 0; i < sets; i++)
                seen[cache_set_of(&c, (base * 1000 + 7) * sets * div + i * div)]++;
            for (uint32_t s = 0; s < sets; s++)
                assert_int_equal(seen[s], 1);
        }
        /* 16 lines a stride apart that the linear index maps to one set (a
         * matrix column, the features of a feature-major array) */
        uint64_t stride = (uint64_t)sets * div * 128;
        uint32_t distinct = 0, used[32] = {0};
        for (uint64_t f = 0; f < 16; f++)
            if (!used[cache_set_of(&c, f * stride)]++)
                distinct++;
        assert_true(distinct >= 8);
        uint32_t missed = 0;
        for (int round = 0; round < 4; round++)
            for (uint64_t f = 0; f < 16; f++)
                touch(&c, f * stride, 1, &missed);
        assert_int_equal(missed, 16); /* the cold misses only */
        cache_free(&c);
        strcpy(g.set_index, "linear");
        assert_int_equal(cache_init(&c, &g, div, NULL), 0);
        missed = 0;
        for (int round = 0; round < 4; round++)
            for (uint64_t f = 0; f < 16; f++)
                touch(&c, f * stride, 1, &missed);
        assert_int_equal(missed, 64); /* all in one set of 8 ways: LRU misses every time */
        cache_free(&c);
    }
    gcfg_cache bad = geom(4, 1, 128, "lru");
    strcpy(bad.set_index, "prime");
    cache c;
    ge_err e;
    assert_int_equal(cache_init(&c, &bad, 1, &e), -1);
    assert_non_null(strstr(e.msg, "prime"));
}

/* xorshift64*: deterministic streams. */
static uint64_t rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static uint32_t run_stream(uint32_t sets, uint32_t ways, const char *repl, uint64_t seed, int n, int sectored)
{
    gcfg_cache g = geom(sets, ways, sectored ? 32 : 128, repl);
    cache c;
    assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
    uint32_t missed = 0;
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        uint64_t r = rng(&s);
        /* mixture: a hot region, a warm region and a cold random tail */
        uint64_t line = (r & 3) == 0 ? (r >> 8) % 4096 : (r & 3) == 1 ? (r >> 8) % 64 : (r >> 8) % 400;
        uint32_t sect = sectored ? (uint32_t)((r >> 40) & 0xf) | 1u : 1u;
        touch(&c, line, sect, &missed);
    }
    cache_free(&c);
    return missed;
}

/* A larger LRU cache never misses more on the same stream (more ways with
 * the same sets, or more sets with the same ways). */
static void test_lru_inclusion(void **st)
{
    (void)st;
    static const uint32_t shapes[][2] = {{4, 4}, {4, 8}, {8, 4}, {8, 8}, {16, 8}, {16, 16}, {64, 4}};
    int strict = 0;
    for (uint64_t seed = 1; seed <= 12; seed++)
        for (int sectored = 0; sectored <= 1; sectored++)
            for (size_t a = 0; a < 7; a++)
                for (size_t b = 0; b < 7; b++) {
                    uint32_t sa = shapes[a][0], wa = shapes[a][1], sb = shapes[b][0], wb = shapes[b][1];
                    if (!(sb >= sa && wb >= wa && sb % sa == 0) || (sa == sb && wa == wb))
                        continue;
                    uint32_t ms = run_stream(sa, wa, "lru", seed * 7919, 20000, sectored);
                    uint32_t ml = run_stream(sb, wb, "lru", seed * 7919, 20000, sectored);
                    if (ml > ms)
                        fail_msg("LRU inclusion violated: %ux%u misses %u < %ux%u misses %u (seed %llu)", sa, wa,
                                 ms, sb, wb, ml, (unsigned long long)seed);
                    strict += ml < ms;
                }
    assert_true(strict > 0); /* the streams do exercise capacity */
}

/* Belady's anomaly: FIFO with 4 frames misses more than with 3 on
 * 1 2 3 4 1 2 5 1 2 3 4 5 -- the checker above would catch a non-stack
 * policy posing as LRU. */
static void test_fifo_belady(void **st)
{
    (void)st;
    static const uint64_t seq[] = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};
    uint32_t miss[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        gcfg_cache g = geom(1, 3 + (uint32_t)k, 128, "fifo");
        cache c;
        assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
        for (size_t i = 0; i < sizeof seq / sizeof *seq; i++)
            touch(&c, seq[i], 1, &miss[k]);
        cache_free(&c);
    }
    assert_int_equal(miss[0], 9);
    assert_int_equal(miss[1], 10);
}

/* The replacement order against a brute-force reference: random hits,
 * misses and pending marks on a few sets, for LRU and FIFO. */
static void check_order(const char *repl, uint32_t ways, uint64_t seed)
{
    enum { SETS = 4, OPS = 20000 };
    gcfg_cache g = geom(SETS, ways, 32, repl);
    cache c;
    assert_int_equal(cache_init(&c, &g, 1, NULL), 0);
    int lru = strcmp(repl, "lru") == 0;
    uint64_t *age = calloc((size_t)SETS * ways, sizeof *age), now = 0, x = seed;
    assert_non_null(age);
    for (int op = 0; op < OPS; op++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t line = (x >> 33) % (3 * SETS * ways);
        uint32_t set = cache_set_of(&c, line), base = set * ways;
        int s = cache_find(&c, line);
        if ((x >> 20) % 4 == 0) { /* mark or clear pending on some way of the set */
            uint32_t w = (uint32_t)(x >> 40) % ways;
            if (c.tag[base + w] != CACHE_NO_TAG)
                cache_set_pending(&c, base + w, c.m[base + w].pending ? 0 : 0x2);
            continue;
        }
        if (s >= 0) {
            cache_touch(&c, (uint32_t)s);
            if (lru)
                age[s] = ++now;
            continue;
        }
        int want = -1; /* empty lowest way, else the oldest way not pending */
        for (uint32_t w = 0; w < ways && want < 0; w++)
            if (c.tag[base + w] == CACHE_NO_TAG)
                want = (int)(base + w);
        int empty = want >= 0;
        for (uint32_t w = 0; w < ways && !empty; w++)
            if (!c.m[base + w].pending && (want < 0 || age[base + w] < age[want]))
                want = (int)(base + w);
        int got = cache_victim(&c, line);
        if (got != want)
            fail_msg("%s %u ways: op %d victim %d, reference %d", repl, ways, op, got, want);
        if (got >= 0) {
            cache_install(&c, (uint32_t)got, line, NULL);
            age[got] = ++now;
        }
    }
    free(age);
    cache_free(&c);
}

static void test_order_reference(void **st)
{
    (void)st;
    static const uint32_t ways[] = {1, 2, 5, 24, 64};
    for (size_t i = 0; i < sizeof ways / sizeof *ways; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            check_order("lru", ways[i], seed);
            check_order("fifo", ways[i], seed);
        }
}

typedef struct tgt {
    uint32_t token;
} tgt;

static void test_mshr_basic(void **st)
{
    (void)st;
    mshr m;
    assert_int_equal(mshr_init(&m, 3, 2, sizeof(tgt), NULL), 0);
    int a = mshr_alloc(&m, 100, 1), b = mshr_alloc(&m, 200, 1), c = mshr_alloc(&m, 300, 0);
    assert_true(a >= 0 && b >= 0 && c >= 0);
    assert_true(mshr_full(&m));
    assert_int_equal(mshr_alloc(&m, 400, 1), -1);
    assert_int_equal(mshr_find(&m, 100), a);
    assert_int_equal(mshr_find(&m, 200), b);
    assert_int_equal(mshr_find(&m, 300), -1); /* non-mergeable entries are not indexed */
    assert_true(mshr_can_merge(&m, a));
    ((tgt *)mshr_add_target(&m, a))->token = 7;
    ((tgt *)mshr_add_target(&m, a))->token = 8;
    assert_false(mshr_can_merge(&m, a)); /* merge = 2 targets */
    assert_int_equal(((tgt *)mshr_target(&m, a, 1))->token, 8);
    mshr_release(&m, a);
    assert_int_equal(mshr_find(&m, 100), -1);
    int d = mshr_alloc(&m, 500, 1);
    assert_int_equal(d, a); /* reused */
    assert_int_equal(m.e[d].ntargets, 0);
    mshr_free(&m);
}

/* Random alloc/find/release against a reference array: the index stays
 * consistent through backward-shift deletions and collisions. */
static void test_mshr_random(void **st)
{
    (void)st;
    enum { N = 64, OPS = 200000 };
    mshr m;
    assert_int_equal(mshr_init(&m, N, 4, sizeof(tgt), NULL), 0);
    uint64_t ref[N];
    int live[N];
    memset(live, 0, sizeof live);
    uint64_t s = 42;
    for (int op = 0; op < OPS; op++) {
        uint64_t r = rng(&s);
        /* few distinct lines with a stride that collides in the hash */
        uint64_t line = ((r >> 16) % 300) * 1024;
        int found = -1;
        for (int i = 0; i < N; i++)
            if (live[i] && ref[i] == line)
                found = i;
        assert_int_equal(mshr_find(&m, line), found);
        if (found >= 0 && (r & 1)) {
            mshr_release(&m, found);
            live[found] = 0;
        } else if (found < 0) {
            int i = mshr_alloc(&m, line, 1);
            int nlive = 0;
            for (int k = 0; k < N; k++)
                nlive += live[k];
            if (nlive == N) {
                assert_int_equal(i, -1);
            } else {
                assert_true(i >= 0 && !live[i]);
                live[i] = 1;
                ref[i] = line;
            }
        }
    }
    mshr_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_order),     cmocka_unit_test(test_fifo_order),
        cmocka_unit_test(test_sectors_and_pending), cmocka_unit_test(test_set_div),
        cmocka_unit_test(test_set_xor),
        cmocka_unit_test(test_lru_inclusion), cmocka_unit_test(test_fifo_belady),
        cmocka_unit_test(test_order_reference),
        cmocka_unit_test(test_mshr_basic),    cmocka_unit_test(test_mshr_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
