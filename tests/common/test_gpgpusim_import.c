/*
 * test_gpgpusim_import.c - the GPGPU-Sim option reader and importer.
 *
 * The two distribution configs (copied into tests/data/gpgpusim/) are
 * checked value by value against what the files say; hand-written variants
 * cover the format in general (3.x cache strings, reordering, repeats, CRLF,
 * multi-line quotes, missing options, unknown options); broken files must
 * fail with "file:line:" of the defect.  A permutation test checks that the
 * result does not depend on option order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "gpgpusim_import.h"

#define DATA "tests/data/gpgpusim/"

typedef struct result {
    gpu_config cfg;
    ggs_report rep;
} result;

static result *import2(const char *cfg, const char *trace)
{
    result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    ge_err e = {{0}};
    if (ggs_import_files(cfg, trace, &r->cfg, &r->rep, &e))
        fail_msg("import of %s failed: %s", cfg, e.msg);
    return r;
}

static void done(result *r)
{
    ggs_report_free(&r->rep);
    free(r);
}

static double num(const gpu_config *c, const char *key)
{
    const gcfg_key *k = gcfg_find_key(key);
    if (!k)
        fail_msg("no key %s", key);
    return gcfg_get_num(c, k);
}

static const char *str(const gpu_config *c, const char *key)
{
    const gcfg_key *k = gcfg_find_key(key);
    if (!k)
        fail_msg("no key %s", key);
    return gcfg_get_str(c, k);
}

typedef struct kv {
    const char *key;
    double v;
} kv;

static void check_nums(const gpu_config *c, const kv *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (num(c, want[i].key) != want[i].v)
            fail_msg("%s: got %.17g, want %.17g", want[i].key, num(c, want[i].key), want[i].v);
}

static int has(const ggs_report *r, ggs_kind kind, const char *text)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].kind == kind && strstr(r->v[i].text, text))
            return 1;
    return 0;
}

#define HAS(r, kind, text)                                                           \
    do {                                                                             \
        if (!has(r, kind, text))                                                     \
            fail_msg("report lacks %s line containing '%s'", ggs_kind_names[kind], text); \
    } while (0)

/* ---- option reader ---- */

static void test_reader_basics(void **state)
{
    (void)state;
    const char *text = "# comment\n"
                       "-a 1   # trailing comment\n"
                       "-b \"x y\n z\"\n"
                       "-c:d 4,5\r\n"
                       "-a 2\n"
                       "-e \"\" -f -3\n";
    ggs_opts o = {0};
    ge_err e;
    assert_int_equal(ggs_opts_parse(&o, text, strlen(text), "t.cfg", &e), 6);
    assert_int_equal((int)o.n, 5);
    ggs_opt *a = ggs_opts_find(&o, "-a");
    assert_string_equal(a->value, "2");
    assert_int_equal(a->line, 6);
    assert_int_equal(a->prev_line, 2);
    assert_int_equal(a->count, 2);
    ggs_opt *b = ggs_opts_find(&o, "-b");
    assert_string_equal(b->value, "x y\n z");
    assert_int_equal(b->vline, 3);
    assert_int_equal(ggs_value_line(b, 5), 4);
    assert_string_equal(ggs_opts_find(&o, "-c:d")->value, "4,5");
    assert_string_equal(ggs_opts_find(&o, "-e")->value, "");
    assert_string_equal(ggs_opts_find(&o, "-f")->value, "-3"); /* a negative number is a value */
    assert_null(ggs_opts_find(&o, "-g"));
    uint32_t v[4];
    assert_int_equal(ggs_parse_u32_list(ggs_opts_find(&o, "-c:d"), "4,5", ',', v, 4, &e), 2);
    assert_int_equal(v[1], 5);
    ggs_opts_free(&o);
}

typedef struct bad_text {
    const char *text;
    const char *want;
} bad_text;

static void test_reader_errors(void **state)
{
    (void)state;
    static const bad_text bad[] = {
        {"-a 1\n-b \"open\n\n", "r.cfg:2: unterminated quoted value"},
        {"-a 1\n-b\n", "r.cfg:2: -b: missing value"},
        {"-a\n-b 2\n", "r.cfg:1: -a: missing value (the next token '-b' is an option)"},
        {"-a 1\nb 2\n", "r.cfg:2: expected an option (-name), got 'b'"},
        {"-a 1\n-b 2\0", "r.cfg:2: NUL byte"},
        {"-a 1\n-$x 2\n", "r.cfg:2: expected an option"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ggs_opts o = {0};
        ge_err e = {{0}};
        size_t len = strlen(bad[i].text) + (i == 4); /* include the NUL in case 4 */
        assert_int_equal(ggs_opts_parse(&o, bad[i].text, len, "r.cfg", &e), -1);
        if (!strstr(e.msg, bad[i].want))
            fail_msg("case %zu: got '%s', want '%s'", i, e.msg, bad[i].want);
        ggs_opts_free(&o);
    }
    /* an over-long token */
    size_t n = GGS_MAX_TOKEN + 10;
    char *big = malloc(n + 4);
    memcpy(big, "-a ", 3);
    memset(big + 3, 'x', n);
    ggs_opts o = {0};
    ge_err e;
    assert_int_equal(ggs_opts_parse(&o, big, n + 3, "r.cfg", &e), -1);
    assert_non_null(strstr(e.msg, "r.cfg:1: token longer than"));
    ggs_opts_free(&o);
    free(big);
}

static void test_value_parsers(void **state)
{
    (void)state;
    ggs_opt op = {.name = "-x", .value = "", .file = "p.cfg", .line = 7, .vline = 7};
    uint32_t u, l[3];
    double d;
    ge_err e;
    assert_int_equal(ggs_parse_u32(&op, " 42 ", &u, &e), 0);
    assert_int_equal(u, 42);
    assert_int_equal(ggs_parse_u32(&op, "42abc", &u, &e), -1);
    assert_non_null(strstr(e.msg, "p.cfg:7: -x: unexpected 'abc'"));
    assert_int_equal(ggs_parse_u32(&op, "4294967296", &u, &e), -1);
    assert_int_equal(ggs_parse_u32(&op, "-1", &u, &e), -1);
    assert_int_equal(ggs_parse_u32_list(&op, "1,2,3,4", ',', l, 3, &e), -1);
    assert_non_null(strstr(e.msg, "more than 3 values"));
    assert_int_equal(ggs_parse_u32_list(&op, "1,,3", ',', l, 3, &e), -1);
    assert_int_equal(ggs_parse_f64(&op, "700.5", &d, &e), 0);
    assert_true(d == 700.5);
    assert_int_equal(ggs_parse_f64(&op, "nan", &d, &e), -1);
    assert_int_equal(ggs_parse_f64(&op, "1e999", &d, &e), -1);
}

/* ---- the two distribution configs ---- */

static void test_gtx480(void **state)
{
    (void)state;
    result *r = import2(DATA "SM2_GTX480.config", NULL);
    const gpu_config *c = &r->cfg;
    static const kv want[] = {
        {"gpu.compute_capability", 20}, {"gpu.sm_count", 15},           {"gpu.core_clock_mhz", 700},
        {"gpu.icnt_clock_mhz", 700},    {"gpu.l2_clock_mhz", 700},      {"gpu.dram_clock_mhz", 924},
        {"sm.warp_size", 32},           {"sm.max_threads", 1536},       {"sm.max_warps", 48},
        {"sm.max_ctas", 8},             {"sm.registers", 32768},        {"sm.max_regs_per_thread", 63},
        {"sm.reg_alloc_unit", 64},      {"sm.rf_banks", 16},            {"sm.operand_collectors", 14},
        {"sm.schedulers", 2},           {"sm.issue_width", 1},          {"sm.shared_bytes", 49152},
        {"sm.shared_per_cta_bytes", 49152}, {"sm.shared_banks", 32},    {"sm.shared_latency_cycles", 26},
        {"units.fp32", 2},              {"units.sfu", 1},               {"units.int", 2},
        {"units.fp64", 1},              {"units.ldst", 1},              {"latency.int.latency", 4},
        {"latency.int.ii", 1},          {"latency.int_mul.latency", 4}, {"latency.int_mul.ii", 2},
        {"latency.int_div.latency", 145}, {"latency.int_div.ii", 8},    {"latency.fp32.latency", 5},
        {"latency.fp32.ii", 1},         {"latency.fp32_div.latency", 39}, {"latency.fp32_div.ii", 4},
        {"latency.fp64.latency", 8},    {"latency.fp64.ii", 8},         {"latency.fp64_div.latency", 330},
        {"latency.fp64_div.ii", 130},   {"latency.mem.ii", 1},
        {"l1d.sets", 32},               {"l1d.ways", 4},                {"l1d.line_bytes", 128},
        {"l1d.size_bytes", 16384},      {"l1d.sector_bytes", 128},      {"l1d.latency_cycles", 35},
        {"l1d.mshr_entries", 64},       {"l1d.mshr_merge", 8},          {"l1d.miss_queue_entries", 8},
        {"l1i.size_bytes", 2048},       {"l1i.mshr_entries", 2},        {"l1i.mshr_merge", 32},
        {"l1c.sets", 64},               {"l1c.line_bytes", 64},         {"l1c.ways", 2},
        {"l1c.size_bytes", 8192},       {"l1t.size_bytes", 12288},      {"l1t.ways", 24},
        {"l2.sets", 64},                {"l2.ways", 8},                 {"l2.line_bytes", 128},
        {"l2.sector_bytes", 32},        {"l2.size_bytes", 65536},       {"l2.slices", 12},
        {"l2.latency_cycles", 120},     {"l2.mshr_entries", 256},       {"l2.mshr_merge", 4},
        {"l2.miss_queue_entries", 4},   {"noc.flit_bytes", 40},
        {"dram.channels", 6},           {"dram.bus_bits", 64},          {"dram.data_rate", 4},
        {"dram.burst_length", 8},       {"dram.banks", 16},             {"dram.bank_groups", 4},
        {"dram.row_bytes", 4096},       {"dram.queue_entries", 64},     {"dram.latency_cycles", 132},
        {"dram.tCCD", 2},               {"dram.tRRD", 6},               {"dram.tRCD", 12},
        {"dram.tRAS", 28},              {"dram.tRP", 12},               {"dram.tRC", 40},
        {"dram.tCL", 12},               {"dram.tWL", 4},                {"dram.tWTR", 5},
        {"dram.tWR", 12},               {"dram.tCCDL", 3},              {"dram.tRTP", 2},
        {"power.technology_nm", 40},
    };
    check_nums(c, want, sizeof want / sizeof *want);
    assert_string_equal(str(c, "gpu.arch"), "fermi");
    assert_string_equal(str(c, "sm.scheduler"), "gto");
    assert_string_equal(str(c, "l1d.write_policy"), "write_through");
    assert_string_equal(str(c, "l1d.allocate"), "on_miss");
    assert_string_equal(str(c, "l1d.write_allocate"), "no_write_allocate");
    assert_string_equal(str(c, "l1i.allocate"), "on_fill");
    assert_string_equal(str(c, "l1i.write_policy"), "read_only");
    assert_string_equal(str(c, "l2.write_policy"), "write_back");
    assert_string_equal(str(c, "l2.hash"), "linear");
    assert_string_equal(str(c, "dram.scheduler"), "frfcfs");
    assert_string_equal(str(c, "dram.type"), "GDDR5");
    assert_string_equal(c->name, "SM2_GTX480 (imported from GPGPU-Sim)");
    /* 177.4 GB/s and 1344 GFLOP/s, as the real GTX 480 */
    assert_true(gcfg_dram_bandwidth_gbs(c) > 177.3 && gcfg_dram_bandwidth_gbs(c) < 177.5);
    assert_true(gcfg_fp32_peak_gflops(c) > 1343 && gcfg_fp32_peak_gflops(c) < 1345);
    HAS(&r->rep, GGS_APPROX, "l1d.write_policy = write_through");
    HAS(&r->rep, GGS_APPROX, "units.int = 2");
    HAS(&r->rep, GGS_NOT_MAPPED, "-gpuwattch_xml_file (tests/data/gpgpusim/SM2_GTX480.config:157)");
    /* dl1's Fermi set hash (H) is approximated by the XOR fold, dl2's L is linear */
    assert_string_equal(str(c, "l1d.set_index"), "xor");
    assert_string_equal(str(c, "l2.set_index"), "linear");
    HAS(&r->rep, GGS_APPROX, "Fermi set hash modelled as an XOR fold");
    HAS(&r->rep, GGS_DEFAULTED, "power.tdp_w = 250 (from configs/gtx480.cfg)");
    HAS(&r->rep, GGS_DERIVED, "gpu.sm_count = 15 <- -gpgpu_n_clusters");
    HAS(&r->rep, GGS_DERIVED, "dram.latency_cycles = 132");
    done(r);
}

/* Keys the shipped gtx480.cfg takes from GPGPU-Sim ([GS] in its comments)
 * must agree with the import of the same GPGPU-Sim file. */
static void test_gtx480_matches_shipped(void **state)
{
    (void)state;
    result *r = import2(DATA "SM2_GTX480.config", NULL);
    gpu_config *s = calloc(1, sizeof *s);
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", s, &e), 0);
    static const char *const same[] = {
        "gpu.sm_count", "gpu.core_clock_mhz", "gpu.dram_clock_mhz", "sm.max_threads", "sm.max_ctas",
        "sm.registers", "sm.rf_banks", "sm.operand_collectors", "sm.schedulers", "sm.shared_bytes",
        "sm.shared_latency_cycles", "units.fp32", "latency.int.latency", "latency.fp32.latency",
        "latency.fp64_div.latency", "l1d.size_bytes", "l1d.sets", "l1d.ways", "l1d.latency_cycles",
        "l1d.mshr_entries", "l1i.size_bytes", "l1c.size_bytes", "l1t.size_bytes", "l2.size_bytes", "l2.ways",
        "l2.slices", "l2.latency_cycles", "dram.channels", "dram.bus_bits", "dram.data_rate", "dram.burst_length",
        "dram.row_bytes", "dram.latency_cycles", "dram.tCL", "dram.tRCD", "dram.tRAS", "dram.tRC", "dram.tCCDL",
        "dram.tWTR", "dram.tRTP",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (num(&r->cfg, same[i]) != num(s, same[i]))
            fail_msg("%s: import %.17g, shipped %.17g", same[i], num(&r->cfg, same[i]), num(s, same[i]));
    free(s);
    done(r);
}

static void test_qv100_with_trace(void **state)
{
    (void)state;
    result *r = import2(DATA "SM7_QV100.config", DATA "SM7_QV100.trace.config");
    const gpu_config *c = &r->cfg;
    static const kv want[] = {
        {"gpu.compute_capability", 70}, {"gpu.sm_count", 80},          {"gpu.core_clock_mhz", 1132},
        {"gpu.dram_clock_mhz", 850},   {"sm.max_threads", 2048},       {"sm.max_warps", 64},
        {"sm.max_ctas", 32},           {"sm.registers", 65536},        {"sm.schedulers", 4},
        {"sm.rf_banks", 16},           {"sm.operand_collectors", 8},   {"sm.fetch_width", 4},
        {"sm.shared_bytes", 98304},    {"sm.shared_per_cta_bytes", 65536}, {"sm.shared_latency_cycles", 20},
        {"units.int", 4},              {"units.fp32", 4},              {"units.fp64", 4},
        {"units.sfu", 4},              {"units.tensor", 4},            {"units.branch", 4},
        /* trace.config overrides the PTX latencies */
        {"latency.int.latency", 2},    {"latency.int.ii", 2},          {"latency.int_mul.latency", 2},
        {"latency.fp32.latency", 2},   {"latency.fp32.ii", 2},         {"latency.fp64.latency", 8},
        {"latency.fp64.ii", 4},        {"latency.sfu.latency", 20},    {"latency.sfu.ii", 8},
        {"latency.tensor.latency", 2}, {"latency.tensor.ii", 2},       {"latency.branch.latency", 4},
        {"latency.branch.ii", 4},      {"latency.int_div.latency", 145}, {"latency.fp32_div.latency", 39},
        {"latency.fp64_div.ii", 130},
        {"l1d.sets", 4},               {"l1d.ways", 64},               {"l1d.size_bytes", 32768},
        {"l1d.sector_bytes", 32},      {"l1d.banks", 4},               {"l1d.latency_cycles", 20},
        {"l1d.mshr_entries", 512},     {"l1d.mshr_merge", 8},          {"l1d.miss_queue_entries", 16},
        {"l1i.size_bytes", 131072},    {"l1i.mshr_merge", 48},         {"l1c.size_bytes", 65536},
        {"l1t.size_bytes", 131072},    {"l1t.ways", 256},              {"l1t.mshr_entries", 512},
        {"l2.sets", 32},               {"l2.ways", 24},                {"l2.size_bytes", 98304},
        {"l2.slices", 64},             {"l2.latency_cycles", 160},     {"l2.mshr_entries", 192},
        {"l2.miss_queue_entries", 32}, {"noc.flit_bytes", 40},         {"noc.buffer_flits", 512},
        {"dram.channels", 32},         {"dram.bus_bits", 128},         {"dram.data_rate", 2},
        {"dram.burst_length", 2},      {"dram.banks", 16},             {"dram.bank_groups", 4},
        /* the 850 MHz timing string, not the commented-out 1 GHz one */
        {"dram.tCCD", 1},              {"dram.tRRD", 3},               {"dram.tRCD", 12},
        {"dram.tRAS", 28},             {"dram.tRP", 12},               {"dram.tRC", 40},
        {"dram.tCL", 12},              {"dram.tWL", 2},                {"dram.tWTR", 3},
        {"dram.tWR", 10},              {"dram.tCCDL", 2},              {"dram.tRTP", 3},
        {"dram.row_bytes", 2048},      {"dram.queue_entries", 64},     {"dram.latency_cycles", 75},
    };
    check_nums(c, want, sizeof want / sizeof *want);
    assert_string_equal(str(c, "gpu.arch"), "volta");
    assert_string_equal(str(c, "sm.scheduler"), "lrr");
    assert_string_equal(str(c, "l1d.write_policy"), "write_through");
    assert_string_equal(str(c, "l1d.write_allocate"), "write_allocate");
    assert_string_equal(str(c, "l2.hash"), "xor");
    assert_string_equal(str(c, "l1d.set_index"), "linear");
    assert_string_equal(str(c, "l2.set_index"), "xor"); /* IPOLY (P), approximated */
    assert_string_equal(str(c, "dram.type"), "HBM2");
    /* 870 GB/s as the Quadro GV100 */
    assert_true(gcfg_dram_bandwidth_gbs(c) > 870.3 && gcfg_dram_bandwidth_gbs(c) < 870.5);
    HAS(&r->rep, GGS_NOTE, "latency.int.latency: -trace_opcode_latency_initiation_int "
                           "(tests/data/gpgpusim/SM7_QV100.trace.config:1) overrides -ptx_opcode_latency_int");
    HAS(&r->rep, GGS_NOT_MAPPED, "-specialized_unit_2");
    HAS(&r->rep, GGS_NOT_MAPPED, "'TEX'");
    HAS(&r->rep, GGS_APPROX, "l2.hash = xor");
    HAS(&r->rep, GGS_NOT_MAPPED, "-gpgpu_adaptive_cache_config");
    HAS(&r->rep, GGS_DEFAULTED, "from configs/v100.cfg");
    HAS(&r->rep, GGS_MAPPED, "latency.tensor.latency = 2 <- -trace_opcode_latency_initiation_spec_op_3");
    /* the timing string's fields on its second line are located there */
    HAS(&r->rep, GGS_MAPPED, "dram.tCL = 12 <- -gpgpu_dram_timing_opt (tests/data/gpgpusim/SM7_QV100.config:217)");
    HAS(&r->rep, GGS_MAPPED, "dram.tRRD = 3 <- -gpgpu_dram_timing_opt (tests/data/gpgpusim/SM7_QV100.config:216)");
    assert_true(ggs_report_count(&r->rep, GGS_NOT_MAPPED) > 20);
    done(r);
}

static void test_qv100_ptx_only(void **state)
{
    (void)state;
    result *r = import2(DATA "SM7_QV100.config", NULL);
    static const kv want[] = {
        {"latency.int.latency", 4},     {"latency.int.ii", 2},     {"latency.int_mul.latency", 4},
        {"latency.fp32.latency", 5},    {"latency.fp32.ii", 2},    {"latency.fp64.latency", 8},
        {"latency.fp64.ii", 4},         {"latency.sfu.latency", 100}, {"latency.sfu.ii", 8},
        {"latency.tensor.latency", 64}, {"latency.tensor.ii", 64}, {"units.branch", 4},
    };
    check_nums(&r->cfg, want, sizeof want / sizeof *want);
    HAS(&r->rep, GGS_MAPPED, "latency.tensor.latency = 64 <- -ptx_opcode_latency_tesnor");
    HAS(&r->rep, GGS_APPROX, "units.branch = 4");
    done(r);
}

/* ---- hand-written variants ---- */

static void test_pascal_like(void **state)
{
    (void)state;
    result *r = import2(DATA "pascal_like.config", NULL);
    static const kv want[] = {
        {"gpu.compute_capability", 61}, {"gpu.sm_count", 28},      {"gpu.dram_clock_mhz", 2500},
        {"sm.issue_width", 2},          {"sm.rf_banks", 32},       {"sm.operand_collectors", 32},
        {"units.fp64", 4},              {"units.int", 4},          {"latency.fp64.ii", 64},
        {"latency.sfu.latency", 20},    {"l1d.size_bytes", 49152}, {"l1d.latency_cycles", 82},
        {"l2.size_bytes", 131072},      {"l2.slices", 24},         {"dram.channels", 12},
        {"dram.bus_bits", 64},          {"dram.tRCD", 16},         {"dram.tRAS", 37},
        {"dram.tRC", 52},               {"dram.tWL", 6},           {"dram.tRTP", 3},
        {"dram.row_bytes", 2048},       {"noc.flit_bytes", 32},    {"l1t.size_bytes", 49152},
        {"power.technology_nm", 16},
    };
    check_nums(&r->cfg, want, sizeof want / sizeof *want);
    assert_string_equal(str(&r->cfg, "gpu.arch"), "pascal");
    assert_string_equal(str(&r->cfg, "l2.hash"), "linear");
    HAS(&r->rep, GGS_NOTE, "-gpgpu_n_mem given 2 times; the last (tests/data/gpgpusim/pascal_like.config:47)");
    HAS(&r->rep, GGS_MAPPED, "dram.tRAS = 37 <- -gpgpu_dram_timing_opt (tests/data/gpgpusim/pascal_like.config:53)");
    HAS(&r->rep, GGS_MAPPED, "dram.tWL = 6 <- -gpgpu_dram_timing_opt (tests/data/gpgpusim/pascal_like.config:54)");
    HAS(&r->rep, GGS_APPROX, "units.fp64 = 4");
    done(r);
}

static void test_kepler_3x(void **state)
{
    (void)state;
    result *r = import2(DATA "kepler_3x_style.config", NULL);
    static const kv want[] = {
        {"gpu.compute_capability", 35}, {"sm.max_regs_per_thread", 255}, {"sm.reg_alloc_unit", 256},
        {"sm.issue_width", 2},          {"l1d.size_bytes", 16384},       {"l1d.sector_bytes", 128},
        {"l2.size_bytes", 131072},      {"l2.ways", 16},                 {"l2.slices", 6},
        {"l1t.size_bytes", 5120},       {"l1t.miss_queue_entries", 128}, {"dram.bank_groups", 1},
        {"dram.tCCDL", 2},              {"dram.tRTP", 2},
    };
    check_nums(&r->cfg, want, sizeof want / sizeof *want);
    assert_string_equal(str(&r->cfg, "gpu.arch"), "kepler");
    assert_string_equal(str(&r->cfg, "sm.scheduler"), "two_level");
    assert_string_equal(str(&r->cfg, "l2.write_allocate"), "write_allocate");
    assert_string_equal(str(&r->cfg, "dram.scheduler"), "fcfs");
    HAS(&r->rep, GGS_DERIVED, "dram.tCCDL = 2");
    HAS(&r->rep, GGS_APPROX, "texture FIFO");
    HAS(&r->rep, GGS_DERIVED, "gpu.compute_capability = 35 <- -gpgpu_ptx_force_max_capability");
    done(r);
}

static void test_turing_like(void **state)
{
    (void)state;
    result *r = import2(DATA "turing_like.config", DATA "turing_like.trace.config");
    static const kv want[] = {
        {"gpu.compute_capability", 75}, {"sm.max_warps", 32},       {"sm.operand_collectors", 8},
        {"units.tensor", 4},            {"units.branch", 4},        {"latency.tensor.latency", 16},
        {"latency.tensor.ii", 8},       {"latency.fp64.latency", 48}, {"latency.fp64.ii", 32},
        {"latency.int.latency", 4},     {"latency.sfu.latency", 21}, {"dram.burst_length", 16},
        {"dram.bus_bits", 16},          {"l2.slices", 24},          {"dram.tCCD", 4},
    };
    check_nums(&r->cfg, want, sizeof want / sizeof *want);
    assert_string_equal(str(&r->cfg, "gpu.arch"), "turing");
    assert_string_equal(str(&r->cfg, "dram.type"), "GDDR6");
    HAS(&r->rep, GGS_NOT_MAPPED, "-specialized_unit_4 (tests/data/gpgpusim/turing_like.trace.config:11)");
    HAS(&r->rep, GGS_NOTE, "'INT_MUL' is disabled");
    HAS(&r->rep, GGS_NOTE, "configs/rtx2060.cfg");
    done(r);
}

static void test_ampere_like(void **state)
{
    (void)state;
    result *r = import2(DATA "ampere_like.config", NULL);
    static const kv want[] = {
        {"gpu.compute_capability", 86}, {"sm.max_warps", 48},   {"sm.shared_alloc_unit", 128},
        {"l1t.size_bytes", 0},          {"l1d.size_bytes", 131072}, {"l1d.mshr_entries", 384},
        {"sm.shared_per_cta_bytes", 102400},
    };
    check_nums(&r->cfg, want, sizeof want / sizeof *want);
    assert_string_equal(str(&r->cfg, "l1d.allocate"), "on_fill");
    HAS(&r->rep, GGS_APPROX, "streaming");
    HAS(&r->rep, GGS_NOT_MAPPED, "-my_lab_prefetcher_degree (tests/data/gpgpusim/ampere_like.config:31): not known");
    HAS(&r->rep, GGS_NOT_MAPPED, "-gpgpu_some_future_option");
    assert_string_equal(str(&r->cfg, "l2.set_index"), "xor"); /* dl2 ...:X, mapped */
    done(r);
}

static void test_minimal_and_crlf(void **state)
{
    (void)state;
    result *r = import2(DATA "minimal.config", NULL);
    assert_int_equal((int)num(&r->cfg, "gpu.sm_count"), 40);
    assert_int_equal((int)num(&r->cfg, "gpu.compute_capability"), 70);
    assert_true(num(&r->cfg, "gpu.core_clock_mhz") == 1200);
    assert_true(ggs_report_count(&r->rep, GGS_DEFAULTED) > 100);
    HAS(&r->rep, GGS_DEFAULTED, "l2.slices = 64 (from configs/v100.cfg)");
    HAS(&r->rep, GGS_DEFAULTED, "power.dvfs = one point (1200 MHz");
    assert_int_equal((int)ggs_report_count(&r->rep, GGS_NOT_MAPPED), 0);
    done(r);
    r = import2(DATA "crlf.config", NULL);
    assert_int_equal((int)num(&r->cfg, "gpu.sm_count"), 16);
    assert_int_equal((int)num(&r->cfg, "dram.tRP"), 12);
    assert_int_equal((int)num(&r->cfg, "dram.tRTP"), 2);
    HAS(&r->rep, GGS_MAPPED, "dram.tRP = 12 <- -gpgpu_dram_timing_opt (tests/data/gpgpusim/crlf.config:7)");
    done(r);
}

typedef struct bad_file {
    const char *file, *want;
} bad_file;

static void test_malformed(void **state)
{
    (void)state;
    static const bad_file bad[] = {
        {"bad_geometry.config", "bad_geometry.config:3: -gpgpu_cache:dl1: malformed cache string"},
        {"bad_policy.config", "bad_policy.config:3: -gpgpu_cache:dl2: malformed cache string"},
        {"bad_timing.config", "bad_timing.config:3: -gpgpu_dram_timing_opt: expected ':' after RCD=1"},
        {"bad_unterminated.config", "bad_unterminated.config:2: unterminated quoted value"},
        {"bad_missing_value.config", "bad_missing_value.config:2: -gpgpu_n_mem: missing value"},
        {"bad_number.config", "bad_number.config:2: -gpgpu_n_clusters: expected an unsigned integer"},
        {"bad_clock.config", "bad_clock.config:2: -gpgpu_clock_domains: expected <core>"},
        {"bad_warp.config", "bad_warp.config:2: -gpgpu_shader_core_pipeline: cannot be used as sm.warp_size"},
        {"bad_inconsistent.config", "bad_inconsistent.config:3: -gpgpu_num_reg_banks: imported value is "
                                    "inconsistent: sm.rf_banks"},
        {"bad_no_dash.config", "bad_no_dash.config:1: expected an option"},
        {"no_such.config", "no_such.config: cannot open"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char path[256];
        snprintf(path, sizeof path, DATA "%s", bad[i].file);
        gpu_config *c = calloc(1, sizeof *c);
        ggs_report rep;
        ge_err e = {{0}};
        assert_int_equal(ggs_import_files(path, NULL, c, &rep, &e), -1);
        if (!strstr(e.msg, bad[i].want))
            fail_msg("%s: got '%s', want '%s'", bad[i].file, e.msg, bad[i].want);
        assert_null(strchr(e.msg, '\n'));
        assert_int_equal((int)rep.n, 0);
        free(c);
    }
}

/* Option order must not matter: import the QV100 options shuffled. */
static void test_order_independent(void **state)
{
    (void)state;
    ggs_opts o = {0};
    ge_err e;
    assert_true(ggs_opts_parse_file(&o, DATA "SM7_QV100.config", &e) > 0);
    size_t n = o.n;
    size_t *perm = malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    uint64_t s = 0x9e3779b97f4a7c15ull; /* fixed seed: deterministic */
    for (size_t i = n - 1; i > 0; i--) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        size_t j = (size_t)(s % (i + 1)), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    for (size_t i = 0; i < n; i++) {
        /* first a wrong value, then the real one: the last must win */
        fprintf(f, "%s 999999 # placeholder\n", o.v[perm[i]].name);
    }
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s \"%s\"\n", o.v[perm[i]].name, o.v[perm[i]].value);
    fclose(f);
    ggs_input in = {DATA "SM7_QV100.config", text, len};
    gpu_config *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    if (ggs_import(&in, 1, a, NULL, &e))
        fail_msg("shuffled import failed: %s", e.msg);
    assert_int_equal(ggs_import_files(DATA "SM7_QV100.config", NULL, b, NULL, &e), 0);
    size_t nk;
    const gcfg_key *ks = gcfg_keys(&nk);
    for (size_t k = 0; k < nk; k++)
        if (ks[k].type == GCFG_STRING)
            assert_string_equal(gcfg_get_str(a, &ks[k]), gcfg_get_str(b, &ks[k]));
        else if (gcfg_get_num(a, &ks[k]) != gcfg_get_num(b, &ks[k]))
            fail_msg("%s differs after shuffling", ks[k].path);
    free(a);
    free(b);
    free(text);
    free(perm);
    ggs_opts_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_basics),   cmocka_unit_test(test_reader_errors),
        cmocka_unit_test(test_value_parsers),   cmocka_unit_test(test_gtx480),
        cmocka_unit_test(test_gtx480_matches_shipped), cmocka_unit_test(test_qv100_with_trace),
        cmocka_unit_test(test_qv100_ptx_only),  cmocka_unit_test(test_pascal_like),
        cmocka_unit_test(test_kepler_3x),       cmocka_unit_test(test_turing_like),
        cmocka_unit_test(test_ampere_like),     cmocka_unit_test(test_minimal_and_crlf),
        cmocka_unit_test(test_malformed),       cmocka_unit_test(test_order_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
