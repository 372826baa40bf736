/*
 * test_gpu_config.c - shipped configs, the loader's validation messages,
 * gcfg_write round trips and gcfg_load_named.
 *
 * Mutation tests edit the shipped v100 text in one place and check that the
 * error names the file, the exact line of the edit and the key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "gpu_config.h"

static gpu_config *new_cfg(void)
{
    gpu_config *c = calloc(1, sizeof *c);
    assert_non_null(c);
    return c;
}

static void test_shipped_set(void **state)
{
    (void)state;
    static const char *const want[] = {"gtx480", "v100", "rtx2060", "a100", "h100"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_non_null(gcfg_find_embedded(want[i]));
    assert_true(gcfg_embedded_count >= 5);
    assert_null(gcfg_find_embedded("v1000"));
}

/* Every shipped config loads from the binary and from disk, identically. */
static void test_shipped_load(void **state)
{
    (void)state;
    gpu_config *a = new_cfg(), *b = new_cfg();
    for (size_t i = 0; i < gcfg_embedded_count; i++) {
        const gcfg_embedded *emb = &gcfg_embedded_configs[i];
        ge_err e = {{0}};
        if (gcfg_load_named(emb->name, a, &e))
            fail_msg("%s: %s", emb->name, e.msg);
        assert_string_equal(a->source, emb->path);
        if (gcfg_load(emb->path, b, &e))
            fail_msg("%s: %s", emb->path, e.msg);
        size_t n;
        const gcfg_key *ks = gcfg_keys(&n);
        for (size_t k = 0; k < n; k++)
            if (ks[k].type == GCFG_STRING)
                assert_string_equal(gcfg_get_str(a, &ks[k]), gcfg_get_str(b, &ks[k]));
            else
                assert_true(gcfg_get_num(a, &ks[k]) == gcfg_get_num(b, &ks[k]));
        assert_int_equal(gcfg_validate(a, &e), 0);
    }
    free(a);
    free(b);
}

/* The published peak FP32 figure must follow from units, ii, SMs and clock:
 * a config whose units or clock disagree with its own citation fails. */
static void test_reference_peak_consistent(void **state)
{
    (void)state;
    gpu_config *c = new_cfg();
    for (size_t i = 0; i < gcfg_embedded_count; i++) {
        ge_err e;
        assert_int_equal(gcfg_load_named(gcfg_embedded_configs[i].name, c, &e), 0);
        if (c->ref.fp32_gflops == 0)
            continue;
        double model = gcfg_fp32_peak_gflops(c);
        if (fabs(model - c->ref.fp32_gflops) > 0.01 * c->ref.fp32_gflops)
            fail_msg("%s: model peak %.0f GFLOP/s vs published %.0f", c->name, model, c->ref.fp32_gflops);
    }
    free(c);
}

static char *write_to_string(const gpu_config *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    gcfg_write(c, f);
    fclose(f);
    return text;
}

static void assert_same(const gpu_config *a, const gpu_config *b)
{
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    for (size_t k = 0; k < n; k++) {
        if (ks[k].type == GCFG_STRING) {
            assert_string_equal(gcfg_get_str(a, &ks[k]), gcfg_get_str(b, &ks[k]));
        } else if (gcfg_get_num(a, &ks[k]) != gcfg_get_num(b, &ks[k])) {
            fail_msg("%s: %.17g != %.17g", ks[k].path, gcfg_get_num(a, &ks[k]), gcfg_get_num(b, &ks[k]));
        }
    }
    assert_int_equal(a->power.ndvfs, b->power.ndvfs);
    for (uint32_t d = 0; d < a->power.ndvfs; d++) {
        assert_true(a->power.dvfs[d].freq_mhz == b->power.dvfs[d].freq_mhz);
        assert_true(a->power.dvfs[d].vdd_v == b->power.dvfs[d].vdd_v);
    }
}

/* load(write(cfg)) == cfg, for every shipped config and for one with
 * awkward values (fractions, an extra DVFS point). */
static void test_round_trip(void **state)
{
    (void)state;
    gpu_config *a = new_cfg(), *b = new_cfg();
    ge_err e;
    for (size_t i = 0; i < gcfg_embedded_count; i++) {
        assert_int_equal(gcfg_load_named(gcfg_embedded_configs[i].name, a, &e), 0);
        char *text = write_to_string(a);
        if (gcfg_load_string(text, "written.cfg", b, &e))
            fail_msg("%s: written text does not load: %s", gcfg_embedded_configs[i].name, e.msg);
        assert_same(a, b);
        free(text);
    }
    assert_int_equal(gcfg_load_named("v100", a, &e), 0);
    assert_int_equal(gcfg_set(a, "gpu.core_clock_mhz", "1234.5678901234", &e), 0);
    assert_int_equal(gcfg_set(a, "power.scale.l2", "0.3333333333333333", &e), 0);
    assert_int_equal(gcfg_set(a, "name", "odd \\\"name\\\"\n\ttab", &e), 0);
    a->power.ndvfs = 2;
    a->power.dvfs[0] = (gcfg_dvfs){100.25, 0.65};
    a->power.dvfs[1] = (gcfg_dvfs){1530.0, 1.0};
    char *text = write_to_string(a);
    if (gcfg_load_string(text, "written.cfg", b, &e))
        fail_msg("written text does not load: %s", e.msg);
    assert_same(a, b);
    free(text);
    free(a);
    free(b);
}

/* ---- mutations ---- */

typedef struct mutation {
    const char *find;    /* unique text in configs/v100.cfg */
    const char *replace;
    const char *key;     /* expected in the message right after "mut.cfg:LINE: " */
    const char *words;   /* expected somewhere in the message */
    int has_line;        /* 0: the error has no line (missing key) */
} mutation;

static const mutation mutations[] = {
    {"sm_count = 80;", "sm_count = 80; smcount = 3;", "gpu.smcount", "unknown key", 1},
    {"sm_count = 80;", "sm_count = \"80\";", "gpu.sm_count", "expected an integer, got string", 1},
    {"sm_count = 80;", "sm_count = 0;", "gpu.sm_count", "out of range", 1},
    {"max_ctas = 32;", "max_ctas = 32.5;", "sm.max_ctas", "expected an integer, got float", 1},
    {"scheduler = \"gto\";", "scheduler = \"fifo\";", "sm.scheduler", "not one of", 1},
    {"size_bytes = 32768; sets = 4;", "size_bytes = 32000; sets = 4;", "l1d.size_bytes",
     "sets 4 x ways 64 x line_bytes 128", 1},
    {"line_bytes = 128; sector_bytes = 32;  # 128 KB", "line_bytes = 128; sector_bytes = 48;  # 128 KB",
     "l1d.sector_bytes", "power of two", 1},
    {"tRC = 40;", "tRC = 20;", "dram.tRC", "less than tRAS", 1},
    {"tCCD = 1; tCCDL = 2;", "tCCD = 3; tCCDL = 2;", "dram.tCCDL", "less than tCCD", 1},
    {"shared_per_cta_bytes = 98304;", "shared_per_cta_bytes = 99999;", "sm.shared_per_cta_bytes", "exceeds", 1},
    {"rf_banks = 8;", "rf_banks = 6;", "sm.rf_banks", "multiple of sm.schedulers", 1},
    {"slices = 64;", "slices = 48;", "l2.slices", "multiple of dram.channels", 1},
    {"type = \"HBM2\";", "type = \"HBM9\";", "dram.type", "not one of", 1},
    {"miss_queue_entries = 16;", "miss_queue_entries = -1;", "l1d.miss_queue_entries", "out of range", 1},
    {"  tdp_w = 300.0;", "", "power.tdp_w", "required key is missing", 0},
};

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

static void test_mutations(void **state)
{
    (void)state;
    const gcfg_embedded *emb = gcfg_find_embedded("v100");
    assert_non_null(emb);
    const char *orig = (const char *)emb->text;
    gpu_config *c = new_cfg();
    for (size_t i = 0; i < sizeof mutations / sizeof *mutations; i++) {
        const mutation *m = &mutations[i];
        const char *at = strstr(orig, m->find);
        if (!at || strstr(at + 1, m->find))
            fail_msg("mutation %zu: '%s' not found exactly once", i, m->find);
        size_t pre = (size_t)(at - orig), flen = strlen(m->find), rlen = strlen(m->replace);
        char *text = malloc(strlen(orig) - flen + rlen + 1);
        memcpy(text, orig, pre);
        memcpy(text + pre, m->replace, rlen);
        strcpy(text + pre + rlen, at + flen);
        ge_err e = {{0}};
        if (gcfg_load_string(text, "mut.cfg", c, &e) == 0)
            fail_msg("mutation %zu (%s) was accepted", i, m->replace);
        char want[128];
        if (m->has_line)
            snprintf(want, sizeof want, "mut.cfg:%d: %s: ", line_of(text, text + pre), m->key);
        else
            snprintf(want, sizeof want, "mut.cfg: %s: ", m->key);
        if (strncmp(e.msg, want, strlen(want)) || !strstr(e.msg, m->words))
            fail_msg("mutation %zu: got '%s', want prefix '%s' and '%s'", i, e.msg, want, m->words);
        assert_null(strchr(e.msg, '\n'));
        free(text);
    }
    free(c);
}

static void test_syntax_error(void **state)
{
    (void)state;
    gpu_config *c = new_cfg();
    ge_err e;
    assert_int_equal(gcfg_load_string("name = \"x\";\ngpu = { sm_count = ; };\n", "syn.cfg", c, &e), -1);
    assert_non_null(strstr(e.msg, "syn.cfg:2: syntax error"));
    assert_int_equal(gcfg_load_string("", "empty.cfg", c, &e), -1);
    assert_non_null(strstr(e.msg, "empty.cfg: name: required key is missing"));
    free(c);
}

static void test_load_named(void **state)
{
    (void)state;
    gpu_config *c = new_cfg();
    ge_err e;
    assert_int_equal(gcfg_load_named("a100", c, &e), 0);
    assert_string_equal(c->gpu.arch, "ampere");
    assert_int_equal(gcfg_load_named("configs/h100.cfg", c, &e), 0);
    assert_string_equal(c->source, "configs/h100.cfg");
    assert_int_equal(gcfg_load_named("v10O", c, &e), -1);
    assert_non_null(strstr(e.msg, "neither a file nor a shipped config"));
    assert_non_null(strstr(e.msg, "v100"));
    assert_non_null(strstr(e.msg, "gtx480"));
    assert_int_equal(gcfg_load_named("no/such/file.cfg", c, &e), -1);
    assert_non_null(strstr(e.msg, "no/such/file.cfg: cannot open"));
    assert_int_equal(gcfg_load_named("configs", c, &e), -1);
    assert_non_null(strstr(e.msg, "is a directory"));
    assert_int_equal(gcfg_load_named("", c, &e), -1);
    char names[256];
    gcfg_embedded_names(names, sizeof names);
    assert_non_null(strstr(names, "rtx2060"));
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_set),
        cmocka_unit_test(test_shipped_load),
        cmocka_unit_test(test_reference_peak_consistent),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_load_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
