/*
 * test_cacti_cfg.c - the cache.cfg reader and the `gpuest cacti` command.
 *
 * Reader: every key of CACTI's template parses; values reach the spec;
 * unknown keys are reported with file:line; a missing file, a malformed
 * line, an unterminated string, a wrong-type value and an impossible value
 * fail with the right code and a one-line "file:line: ..." message.
 * Command (cli/cmd_cacti.c linked in): --csv prints the documented header
 * and one row; errors print one line and return 1; usage errors return 2.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cacti.h"

int cmd_cacti(int argc, char **argv);

#define TEMPLATE "tests/data/cacti7/cfg/c0006_cache_256KB_128B_a8_b1_p100_90nm.cfg"

typedef struct {
    int n;
    int line[16];
    char msg[16][256];
} warns;

static void collect(void *ctx, const char *file, int line, const char *msg)
{
    warns *w = ctx;
    (void)file;
    if (w->n < 16) {
        w->line[w->n] = line;
        snprintf(w->msg[w->n], sizeof w->msg[0], "%s", msg);
    }
    w->n++;
}

static cacti_status parse(const char *text, cacti_spec *s, warns *w)
{
    return cacti_cfg_parse(text, strlen(text), "t.cfg", s, w ? collect : NULL, w);
}

static void test_template(void **state)
{
    (void)state;
    cacti_spec s;
    warns w = {0};
    assert_int_equal(cacti_cfg_read(TEMPLATE, &s, collect, &w), CACTI_OK);
    assert_int_equal(w.n, 0);
    assert_int_equal(s.size_bytes, 262144);
    assert_int_equal(s.line_bytes, 128);
    assert_int_equal(s.assoc, 8);
    assert_int_equal(s.banks, 1);
    assert_int_equal(s.node_nm, 90);
    assert_int_equal(s.output_bits, 512);
    assert_int_equal(s.is_cache, 1);
    assert_int_equal(s.rw_ports, 1);
    assert_int_equal(s.ecc, 1);
    assert_int_equal(s.objective, CACTI_OPT_ED2);
    assert_int_equal(s.access_mode, CACTI_ACCESS_NORMAL);
    assert_true(s.temperature_k == 360.0);
    assert_true(s.weight[CACTI_M_CYCLE] == 100.0 && s.dev_pct[CACTI_M_DELAY] == 20.0);
}

static void test_values(void **state)
{
    (void)state;
    cacti_spec s;
    const char *cfg = "// comment\n"
                      "# another\n"
                      "-size (bytes) 32768   // trailing comment\n"
                      "-block size (bytes) 64\n"
                      "-associativity 4\n"
                      "-read-write port 0\n"
                      "-exclusive read port 2\n"
                      "-exclusive write port 1\n"
                      "-UCA bank count 4\n"
                      "-technology (u) 0.022\n"
                      "-output/input bus width 256\n"
                      "-operating temperature (K) 330\n"
                      "-cache type \"cache\"\n"
                      "-tag size (b) 24\n"
                      "-access mode (normal, sequential, fast) - \"sequential\"\n"
                      "-Data array cell type - \"itrs-lstp\"\n"
                      "-Data array peripheral type - \"itrs-lop\"\n"
                      "-Tag array cell type - \"itrs-lstp\"\n"
                      "-Tag array peripheral type - \"itrs-lop\"\n"
                      "-Optimize ED or ED^2 (ED, ED^2, NONE): \"ED\"\n"
                      "-Add ECC - \"false\"\n"
                      "-tflight_value\n"
                      "-mem_density 4 Gb //ignored\n";
    warns w = {0};
    assert_int_equal(parse(cfg, &s, &w), CACTI_OK);
    assert_int_equal(w.n, 0);
    assert_int_equal(s.size_bytes, 32768);
    assert_int_equal(s.assoc, 4);
    assert_int_equal(s.rd_ports, 2);
    assert_int_equal(s.wr_ports, 1);
    assert_int_equal(s.rw_ports, 0);
    assert_int_equal(s.banks, 4);
    assert_int_equal(s.node_nm, 22);
    assert_int_equal(s.output_bits, 256);
    assert_int_equal(s.tag_bits, 24);
    assert_int_equal(s.access_mode, CACTI_ACCESS_SEQUENTIAL);
    assert_int_equal(s.cell_dev, CACTI_DEV_LSTP);
    assert_int_equal(s.periph_dev, CACTI_DEV_LOP);
    assert_int_equal(s.objective, CACTI_OPT_ED);
    assert_int_equal(s.ecc, 0);
    assert_true(s.temperature_k == 330.0);
    cacti_result r;
    assert_int_equal(cacti_solve(&s, &r), CACTI_OK);
}

static void test_cam_type(void **state)
{
    (void)state;
    cacti_spec s;
    /* cache type "cam" wins over a later -associativity line */
    assert_int_equal(parse("-size (bytes) 2048\n-block size (bytes) 8\n-cache type \"cam\"\n-associativity 1\n", &s,
                           NULL),
                     CACTI_OK);
    assert_int_equal(s.assoc, 0);
    assert_int_equal(s.is_cache, 0);
    cacti_result r;
    assert_int_equal(cacti_solve(&s, &r), CACTI_OK);
    assert_true(r.search_energy_nj > r.read_energy_nj);
}

static void test_unknown_key(void **state)
{
    (void)state;
    cacti_spec s;
    warns w = {0};
    assert_int_equal(parse("-size (bytes) 8192\n-frobnicate 12\n-block size (bytes) 32\n", &s, &w), CACTI_OK);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.line[0], 2);
    assert_non_null(strstr(w.msg[0], "-frobnicate"));
}

static void expect_fail(const char *cfg, cacti_status want, const char *needle)
{
    cacti_spec s;
    cacti_status st = parse(cfg, &s, NULL);
    assert_int_equal(st, want);
    const char *m = cacti_last_error();
    assert_null(strchr(m, '\n'));
    if (!strstr(m, needle))
        fail_msg("message '%s' lacks '%s'", m, needle);
}

static void test_errors(void **state)
{
    (void)state;
    expect_fail("-size (bytes) 4096\nthis is not a setting\n", CACTI_ESYNTAX, "t.cfg:2:");
    expect_fail("-size (bytes) lots\n", CACTI_ESYNTAX, "t.cfg:1:");
    expect_fail("-cache type \"ram\n", CACTI_ESYNTAX, "t.cfg:1: unterminated");
    expect_fail("-size (bytes) 4096\n-associativity 3\n", CACTI_EINVAL, "t.cfg:2:");
    expect_fail("-technology (u) 0.070\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-size (bytes) 0\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-operating temperature (K) 500\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-Data array cell type - \"comm-dram\"\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-cache type \"main memory\"\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-design objective (weight delay, dynamic power, leakage power, cycle time, area) 1:2:3\n",
                CACTI_ESYNTAX, "t.cfg:1:");
    expect_fail("-size (bytes) 64\n-block size (bytes) 8\n-cache type \"ram\"\n", CACTI_EINVAL, "t.cfg:1:");
    expect_fail("-read-write port 0\n-exclusive read port 0\n-exclusive write port 1\n", CACTI_EINVAL,
                "port");
    char big[5000];
    memset(big, 'x', sizeof big);
    big[0] = '-';
    big[sizeof big - 1] = '\0';
    expect_fail(big, CACTI_ESYNTAX, "longer than");
    cacti_spec s;
    assert_int_equal(cacti_cfg_read("tests/data/cacti7/cfg/does-not-exist.cfg", &s, NULL, NULL), CACTI_EIO);
    assert_non_null(strstr(cacti_last_error(), "does-not-exist.cfg"));
}

/* Run cmd_cacti with stdout/stderr captured into buffers. */
static int run_cmd(int argc, char **argv, char *out, size_t outlen, char *err, size_t errlen)
{
    char fo[] = "/tmp/cacti_cli_outXXXXXX", fe[] = "/tmp/cacti_cli_errXXXXXX";
    int fdo = mkstemp(fo), fde = mkstemp(fe);
    assert_true(fdo >= 0 && fde >= 0);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    dup2(fdo, 1);
    dup2(fde, 2);
    int rc = cmd_cacti(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    lseek(fdo, 0, SEEK_SET);
    lseek(fde, 0, SEEK_SET);
    ssize_t n = read(fdo, out, outlen - 1);
    out[n > 0 ? n : 0] = '\0';
    n = read(fde, err, errlen - 1);
    err[n > 0 ? n : 0] = '\0';
    close(fdo);
    close(fde);
    unlink(fo);
    unlink(fe);
    return rc;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_cli(void **state)
{
    (void)state;
    char out[8192], err[4096];
    char *a1[] = {"cacti", "-infile", TEMPLATE, "--csv"};
    assert_int_equal(run_cmd(4, a1, out, sizeof out, err, sizeof err), 0);
    assert_int_equal(count_lines(out), 2);
    assert_non_null(strstr(out, "access_time_ns,cycle_time_ns,read_energy_nJ,write_energy_nJ,"
                                "leakage_per_bank_mW,area_mm2\n"));
    char *a2[] = {"cacti", "-infile", TEMPLATE};
    assert_int_equal(run_cmd(3, a2, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "access time"));
    char *a3[] = {"cacti", "-infile", "/nonexistent/cache.cfg"};
    assert_int_equal(run_cmd(3, a3, out, sizeof out, err, sizeof err), 1);
    assert_int_equal(count_lines(err), 1);
    assert_non_null(strstr(err, "gpuest cacti: /nonexistent/cache.cfg"));
    char bad[] = "/tmp/cacti_bad_cfgXXXXXX";
    int fd = mkstemp(bad);
    assert_true(fd >= 0);
    const char *txt = "-size (bytes) 8192\n-block size (bytes) 48\n";
    assert_true(write(fd, txt, strlen(txt)) == (ssize_t)strlen(txt));
    close(fd);
    char *a4[] = {"cacti", "-infile", bad};
    assert_int_equal(run_cmd(3, a4, out, sizeof out, err, sizeof err), 1);
    assert_int_equal(count_lines(err), 1);
    assert_non_null(strstr(err, ":2: "));
    unlink(bad);
    char *a5[] = {"cacti"};
    assert_int_equal(run_cmd(1, a5, out, sizeof out, err, sizeof err), 2);
    char *a6[] = {"cacti", "--bogus"};
    assert_int_equal(run_cmd(2, a6, out, sizeof out, err, sizeof err), 2);
    char *a7[] = {"cacti", "--help"};
    assert_int_equal(run_cmd(2, a7, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "-infile"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_template),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_cam_type),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
