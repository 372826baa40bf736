/*
 * test_profiler.c - the profiler on synthetic warp streams (counts,
 * atomics, inherited lines, partition camping) and the profile file.
 */
#include <math.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config_registry.h"
#include "model.h"
#include "model_int.h"
#include "prof_int.h"
#include "profiler.h"
#include "reuse.h"
#include "synth.h"

static void test_profiler_counts(void **st)
{
    (void)st;
    synth_source s;
    synth_build_kernel(&s, 6);
    prof_options o;
    prof_options_default(&o);
    profile p;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "synthetic", 0, 1, &p, &e), 0);
    assert_int_equal(p.nkernels, 1);
    prof_kernel *k = &p.k[0];
    assert_true(k->warp_insts == 6 * 2 * 5);
    assert_true(k->op_warps[ISA_OP_LD_GLOBAL] == 24);
    /* per warp: 1 line/4 sectors + 32 lines/32 sectors */
    assert_true(k->op_lines[ISA_OP_LD_GLOBAL] == 12 * 33);
    assert_true(k->op_sectors[ISA_OP_LD_GLOBAL] == 12 * 36);
    assert_true(k->shared_bank_cycles == 12 * 2);
    assert_true(k->op_lanes[ISA_OP_EXIT] == 12 * 16);
    assert_int_equal(k->nctas, 6);
    assert_true(k->sample_is_all);
    assert_int_equal(k->nsample, 6);
    assert_true(k->nwarps >= 1);
    /* the FMA's source was produced one instruction earlier */
    assert_int_equal(k->warps[0].inst[1].dep[0], 1);
    prof_free(&p);
    synth_free(&s);
}

/* Global atomics: footprint and the per-line counts of the hot lines. */
static void test_profiler_atomics(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "atomics", 2, 64, 16);
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t w = 0; w < 2; w++) {
            synth_add_mem(&s, c, w, ISA_OP_ATOM_GLOBAL, 0xffffffffu, 0x1000, 0, 4); /* one word: 1 sector */
            synth_add_mem(&s, c, w, ISA_OP_ATOM_GLOBAL, 0xffffffffu, 0x2000, 4, 4); /* one line: 4 sectors */
            synth_add(&s, c, w, ISA_OP_EXIT, 0xffffffffu);
        }
    prof_options o;
    prof_options_default(&o);
    profile p;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "atomics", 0, 1, &p, &e), 0);
    const prof_kernel *k = &p.k[0];
    assert_true(k->atomic_footprint_lines == 2);
    assert_int_equal(k->natomic_hot, 2);
    assert_true(k->atomic_hot_line[0] == 0x1000 / 128 && k->atomic_hot_line[1] == 0x2000 / 128);
    assert_true(k->atomic_hot_sectors[0] == 4 && k->atomic_hot_packets[0] == 4);
    assert_true(k->atomic_hot_sectors[1] == 16 && k->atomic_hot_packets[1] == 4);
    prof_free(&p);
    synth_free(&s);
}

/* Inherited lines: a kernel launched twice loads lines A, B, C (one sector
 * each: 1, 0, 2).  The second launch finds all three left by the first,
 * with LRU ages C 0, B 1 (C came after it), A 2; the first inherits none.
 * Its one code line was fetched before the three loads: age 3. */
static void test_profiler_inherit(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "twice", 1, 32, 16);
    s.launches = 2;
    synth_add_mem(&s, 0, 0, ISA_OP_LD_GLOBAL, 1u, 0x20, 0, 4);
    synth_add_mem(&s, 0, 0, ISA_OP_LD_GLOBAL, 1u, 0x80, 0, 4);
    synth_add_mem(&s, 0, 0, ISA_OP_LD_GLOBAL, 1u, 0x140, 0, 4);
    synth_add(&s, 0, 0, ISA_OP_EXIT, 1u);
    prof_options o;
    prof_options_default(&o);
    profile p;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "twice", 0, 1, &p, &e), 0);
    assert_int_equal(p.nkernels, 2);
    assert_int_equal(p.k[0].ninherit, 0);
    const prof_kernel *k = &p.k[1];
    assert_int_equal(k->ninherit, 3);
    static const uint64_t line[3] = {2, 1, 0};
    static const uint32_t age[3] = {0, 1, 2};
    static const uint8_t sect[3] = {0x4, 0x1, 0x2};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(k->inherit_line[i], line[i]);
        for (int j = 0; j < PROF_NCONC; j++)
            assert_int_equal(k->inherit_age[i * PROF_NCONC + j], age[i]);
        assert_int_equal(k->inherit_sectors[i], sect[i]);
    }
    assert_int_equal(k->ncode_warm, 1);
    assert_int_equal(k->code_warm[0], 0);
    for (int j = 0; j < PROF_NCONC; j++)
        assert_int_equal(k->code_warm_age[j], 3);
    prof_free(&p);
    synth_free(&s);
}

/* Ages follow the order a GPU runs the accesses in: 128 CTAs each load
 * their line X_c, then their line P_c (a reduction's partial sum).  With
 * 512 (or 4096) CTAs resident all X come before all P, so at the second
 * launch P_c is 127 - c lines old and X_c 255 - c: P_0 is younger than X_127,
 * which CTA after CTA (X0 P0 X1 P1 ...) would make it older than.  With 64
 * resident, CTAs 64-127 run after 0-63: P_0 has the other 63 P of its group
 * and all 128 lines of the second group after it, 191.  The one code line
 * is fetched before any load: 256 at every concurrency. */
static void test_profiler_inherit_gpu_order(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "sides", 128, 32, 16);
    s.launches = 2;
    for (uint32_t c = 0; c < 128; c++) {
        synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 1u, 0x100000 + c * 128, 0, 4); /* X_c */
        synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 1u, 0x200000 + c * 128, 0, 4); /* P_c */
        synth_add(&s, c, 0, ISA_OP_EXIT, 1u);
    }
    prof_options o;
    prof_options_default(&o);
    profile p;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "sides", 0, 1, &p, &e), 0);
    const prof_kernel *k = &p.k[1];
    assert_int_equal(k->ninherit, 256);
    for (uint32_t i = 0; i < 256; i++) {
        const uint32_t *a = &k->inherit_age[i * PROF_NCONC];
        uint64_t l = k->inherit_line[i];
        int is_p = l >= 0x200000 / 128;
        uint32_t c = (uint32_t)(l - (is_p ? 0x200000 : 0x100000) / 128);
        uint32_t wide = is_p ? 127 - c : 255 - c; /* 512 and 4096 resident */
        uint32_t grp = c < 64 ? (is_p ? 63 - c + 128 : 127 - c + 128) : (is_p ? 127 - c : 191 - c);
        assert_int_equal(a[1], wide);
        assert_int_equal(a[2], wide);
        assert_int_equal(a[0], grp);
        assert_true(prof_age_at(a, 512) == wide && prof_age_at(a, 64) == grp);
    }
    /* between two measured concurrencies, log2-linear: 181 = 64 x 2^1.5 */
    const uint32_t *a0 = &k->inherit_age[0];
    assert_true(fabs(prof_age_at(a0, 64 * pow(2, 1.5)) - (a0[0] + a0[1]) / 2.0) < 1e-9);
    assert_int_equal(k->ncode_warm, 1);
    for (int j = 0; j < PROF_NCONC; j++)
        assert_int_equal(k->code_warm_age[j], 256);
    prof_free(&p);
    synth_free(&s);
}

/* Partition camping: lines 8 apart all land on slice 0 of a linear 8-slice
 * map, and spread evenly under the 8-slice XOR hash (line 8c -> slice
 * (c mod 8) XOR (c / 8 mod 8): each slice twice per 16 CTAs). */
static void test_profiler_camping(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "camp", 32, 32, 16);
    for (uint32_t c = 0; c < 32; c++) {
        synth_add_mem(&s, c, 0, ISA_OP_ST_GLOBAL, 1u, (uint64_t)c * 8 * 128, 0, 4);
        synth_add(&s, c, 0, ISA_OP_EXIT, 1u);
    }
    prof_options o;
    prof_options_default(&o);
    profile p;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "camp", 0, 1, &p, &e), 0);
    int lin = prof_camp_fn(0, 8), xr = prof_camp_fn(1, 8);
    assert_true(lin >= 0 && xr >= 0 && prof_camp_fn(1, 20) < 0);
    for (int w = 0; w < PROF_CAMP_NWIN; w++) {
        assert_true(fabs(p.k[0].camp[lin][w] - 8) < 1e-12);
        assert_true(fabs(p.k[0].camp[xr][w] - 1) < 1e-12);
    }
    prof_free(&p);
    synth_free(&s);
}

/* The lines in flight a stream's set placement allows (prof_inflight.c),
 * by hand.  Every line is its own load, issued one per cycle; a fill
 * comes back 256 cycles after its miss.
 *   - One warp sends n lines 1024 apart (one set of any profiled set
 *     count) in one load-wait chunk: W go out, the next waits for the
 *     first fill, and from then on each goes out as the line W before it
 *     comes back.  The last leaves at 256 (n/W - 1) + W - 1, so the SM
 *     keeps 256 n / (256 (n/W - 1) + W) lines in flight; from W = n on
 *     no line waits and the entry is 0 (not measured).
 *   - Two CTAs of one such warp, the second's lines one set over: their
 *     loads alternate, so 2W lines are in flight where there are two sets
 *     (the same formula with 2n lines and 2W ways), W where one set
 *     holds both.
 *   - One warp whose every load waits for the one before never has two
 *     lines pending: no way is ever waited for, nothing is measured. */
static double placement_want(double n, double ways)
{
    return 256 * n / (256 * (n / ways - 1) + ways);
}

static uint16_t placement_entry(double lines) { return (uint16_t)(lines * PROF_INFL_UNIT + 0.5); }

static void test_profiler_placement(void **st)
{
    (void)st;
    enum { N = 64 };
    pb_l1rec r[2 * N];
    uint32_t list[2 * N];
    infl_ws w = {0};
    ge_err e;
    uint16_t t[PROF_INFL_NSETS][PROF_INFL_NWAYS];
    for (uint32_t k = 0; k < 2 * N; k++) {
        uint32_t cta = k / N, i = k % N;
        r[k] = (pb_l1rec){.line = (uint64_t)i * 1024 + cta, .cta = cta, .seq = i, .chunk = 0, .warp = 0, .sectors = 0xf};
        list[k] = k;
    }
    /* one warp, one set */
    assert_int_equal(infl_prepare(&w, r, list, N, 1, &e), 0);
    assert_int_equal(prof_inflight(&w, 1, t, &e), 0);
    for (int i = 0; i < PROF_INFL_NSETS; i++)
        for (int j = 0; j < PROF_INFL_NWAYS; j++)
            assert_int_equal(t[i][j], (1 << j) < N ? placement_entry(placement_want(N, 1 << j)) : 0);
    assert_int_equal(t[5][2], 68); /* 32 x 4: 256 * 64 / 3844 = 4.26 lines */
    /* two CTAs, one set each */
    assert_int_equal(infl_prepare(&w, r, list, 2 * N, 1, &e), 0);
    assert_int_equal(prof_inflight(&w, 2, t, &e), 0);
    for (int j = 0; j < PROF_INFL_NWAYS; j++) {
        uint16_t one_set = (1 << j) < 2 * N ? placement_entry(placement_want(2 * N, 1 << j)) : 0;
        uint16_t two_sets = (1 << j) < N ? placement_entry(placement_want(2 * N, 2 << j)) : 0;
        assert_int_equal(t[0][j], one_set);
        for (int i = 1; i < PROF_INFL_NSETS; i++)
            assert_int_equal(t[i][j], two_sets);
    }
    /* a dependent chain */
    for (uint32_t k = 0; k < N; k++)
        r[k].chunk = k;
    assert_int_equal(infl_prepare(&w, r, list, N, 1, &e), 0);
    assert_int_equal(prof_inflight(&w, 1, t, &e), 0);
    for (int i = 0; i < PROF_INFL_NSETS; i++)
        for (int j = 0; j < PROF_INFL_NWAYS; j++)
            assert_int_equal(t[i][j], 0);
    infl_ws_free(&w);
}

/* The fuzz run starts from tests/fuzz/corpus/profile: seeds of an older
 * format are refused at the header, and the fuzzer never reaches the body
 * (they were format 6 until format 8).  Every seed must load whole. */
static void test_fuzz_seeds_current(void **st)
{
    (void)st;
    static const char *seeds[] = {"histogram_tiny.prof", "scan_tiny.prof", "sm61.prof"};
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fuzz/corpus/profile/%s", seeds[i]);
        profile p;
        ge_err e;
        if (prof_load(&p, path, &e) != 0)
            fail_msg("%s: %s (regenerate the seed with gpuest profile)", path, e.msg);
        assert_true(p.nkernels > 0);
        prof_free(&p);
    }
}

static void test_profile_file(void **st)
{
    (void)st;
    synth_source s;
    synth_build_kernel(&s, 5);
    s.launches = 2; /* the second launch inherits the first's lines */
    prof_options o;
    prof_options_default(&o);
    profile p, q;
    ge_err e;
    assert_int_equal(prof_build(&s.base, &o, "synthetic", 7, 9, &p, &e), 0);
    /* the warp streams are stored as differences (pcs, lane addresses):
     * extremes, zeros between lanes and steps back must come back exact */
    ws_cta *c3 = &p.k[0].sample[3];
    assert_true(c3->naddr >= 2 * WS_WARP_SIZE && c3->ninst >= 2);
    static const uint64_t edge[] = {UINT64_MAX, 0, 1, 0x8000000000000000ull, 5, 4, 0, 0, 0x7fffffffffffffffull};
    memcpy(c3->addr, edge, sizeof edge);
    c3->addr[WS_WARP_SIZE + 31] = 3; /* the next instruction: only its last lane */
    memset(c3->addr + WS_WARP_SIZE, 0, 31 * sizeof *c3->addr);
    c3->inst[0].pc = UINT64_MAX;
    c3->inst[1].pc = 0;
    char path[] = "/tmp/gpuest_test_profile_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(prof_save(&p, path, &e), 0);
    assert_int_equal(prof_load(&q, path, &e), 0);
    assert_string_equal(q.source, "synthetic");
    assert_int_equal(q.size, 7);
    assert_int_equal(q.k[0].nsample, p.k[0].nsample);
    assert_memory_equal(q.k[0].op_lines, p.k[0].op_lines, sizeof p.k[0].op_lines);
    assert_int_equal(q.k[0].sample[3].ninst, p.k[0].sample[3].ninst);
    assert_int_equal(q.k[0].sample[3].naddr, p.k[0].sample[3].naddr);
    assert_memory_equal(q.k[0].sample[3].addr, p.k[0].sample[3].addr, p.k[0].sample[3].naddr * 8);
    assert_true(q.k[0].sample[3].inst[0].pc == UINT64_MAX && q.k[0].sample[3].inst[1].pc == 0);
    assert_memory_equal(&q.l2[0].load, &p.l2[0].load, sizeof(rd_hist));
    assert_memory_equal(&q.l2[0].store, &p.l2[0].store, sizeof(rd_hist));
    assert_int_equal(q.nkernels, 2);
    uint32_t ni = p.k[1].ninherit;
    assert_true(ni > 0 && q.k[1].ninherit == ni);
    assert_memory_equal(q.k[1].inherit_line, p.k[1].inherit_line, ni * sizeof *p.k[1].inherit_line);
    assert_memory_equal(q.k[1].inherit_age, p.k[1].inherit_age, ni * PROF_NCONC * sizeof *p.k[1].inherit_age);
    assert_memory_equal(q.k[1].inherit_sectors, p.k[1].inherit_sectors, ni);
    assert_true(q.has_ctas);
    prof_free(&q);

    /* without the warp streams: everything else, the samples listed but empty */
    assert_int_equal(prof_load_opts(&q, path, 0, &e), 0);
    assert_false(q.has_ctas);
    assert_int_equal(q.k[0].nsample, p.k[0].nsample);
    assert_int_equal(q.k[0].sample_index[3], p.k[0].sample_index[3]);
    assert_int_equal(q.k[0].sample[3].ninst, 0);
    assert_memory_equal(q.k[0].op_lines, p.k[0].op_lines, sizeof p.k[0].op_lines);
    assert_memory_equal(&q.l2[0].store, &p.l2[0].store, sizeof(rd_hist));
    assert_memory_equal(q.k[1].inherit_age, p.k[1].inherit_age, ni * PROF_NCONC * sizeof *p.k[1].inherit_age);
    prof_free(&q);

    /* read the file, then damage it three ways */
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    unsigned char *buf = malloc((size_t)len);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);

    unsigned char *bad = malloc((size_t)len);
    memcpy(bad, buf, (size_t)len);
    bad[8] = 99; /* another format version */
    FILE *m = fmemopen(bad, (size_t)len, "rb");
    assert_int_equal(prof_read(&q, m, "v99", &e), -1);
    assert_non_null(strstr(e.msg, "version 99"));
    fclose(m);

    memcpy(bad, buf, (size_t)len);
    bad[len / 2] ^= 0x5a; /* a flipped byte inside the compressed body */
    m = fmemopen(bad, (size_t)len, "rb");
    assert_int_equal(prof_read(&q, m, "flipped", &e), -1);
    assert_non_null(strstr(e.msg, "flipped"));
    fclose(m);

    for (long cut = 0; cut < len; cut += len / 13 + 1) { /* truncations */
        m = fmemopen(buf, (size_t)(cut ? cut : 1), "rb");
        assert_int_equal(prof_read(&q, m, "cut", &e), -1);
        fclose(m);
    }

    /* damage at the end of the file, inside the warp streams: a read that
     * needs them refuses it, one without them does not look there */
    memcpy(bad, buf, (size_t)len);
    bad[len - 1] ^= 0x5a;
    m = fmemopen(bad, (size_t)len, "rb");
    assert_int_equal(prof_read(&q, m, "tail", &e), -1);
    assert_non_null(strstr(e.msg, "tail"));
    fclose(m);
    m = fmemopen(bad, (size_t)len, "rb");
    assert_int_equal(prof_read_opts(&q, m, "tail", 0, &e), 0);
    prof_free(&q);
    fclose(m);
    m = fmemopen(buf, (size_t)(len - 1), "rb");
    assert_int_equal(prof_read(&q, m, "cut", &e), -1);
    fclose(m);
    m = fmemopen(buf, (size_t)(len - 1), "rb");
    assert_int_equal(prof_read_opts(&q, m, "cut", 0, &e), 0);
    prof_free(&q);
    fclose(m);
    free(bad);
    free(buf);
    unlink(path);
    prof_free(&p);
    synth_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiler_counts),
        cmocka_unit_test(test_profiler_atomics),
        cmocka_unit_test(test_profiler_inherit),
        cmocka_unit_test(test_profiler_inherit_gpu_order),
        cmocka_unit_test(test_profiler_camping),
        cmocka_unit_test(test_profiler_placement),
        cmocka_unit_test(test_fuzz_seeds_current),
        cmocka_unit_test(test_profile_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
