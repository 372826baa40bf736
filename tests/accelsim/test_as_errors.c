/*
 * test_as_errors.c - bad input to the Accel-Sim reader: every error is one
 * line naming file:line (or the file when there is no line), the source
 * never crashes, and a truncated or corrupted trace either fails cleanly or
 * yields whole, correct CTAs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "accelsim.h"
#include "as_testutil.h"

#define SM61 "tests/data/traces/vectoradd_sm61"

static const char good_header[] =
    "-kernel name = k\n"              /* 1 */
    "-kernel id = 1\n"                /* 2 */
    "-grid dim = (2,1,1)\n"           /* 3 */
    "-block dim = (64,1,1)\n"         /* 4 */
    "-shmem = 0\n"                    /* 5 */
    "-nregs = 16\n"                   /* 6 */
    "-binary version = 80\n"          /* 7 */
    "-cuda stream id = 0\n"           /* 8 */
    "-accelsim tracer version = 5\n"  /* 9 */
    "-enable lineinfo = 0\n"          /* 10 */
    "\n#traces format = x\n\n";       /* 11-13 */

/* Read everything; returns the first error (-1) or 0, message in e.  The
 * CTA buffers are kept between calls (the sweeps below call this tens of
 * thousands of times). */
static ws_cta drain_cta;

static int drain(ws_source *s, ge_err *e, uint64_t *insts)
{
    ws_event ev;
    int r;
    if (insts)
        *insts = 0;
    while ((r = ws_next_event(s, &ev, e)) == 1) {
        while ((r = ws_next_cta(s, &drain_cta, e)) == 1)
            if (insts)
                *insts += drain_cta.ninst;
        if (r < 0)
            break;
    }
    return r;
}

static int teardown(void **state)
{
    (void)state;
    ws_cta_free(&drain_cta);
    return 0;
}

/* The text must fail; the message is one line and contains want. */
static void expect_error(const char *text, const char *want)
{
    ws_source *s;
    ge_err e;
    memset(&e, 0, sizeof e);
    int r = accelsim_open_buffer(text, strlen(text), "t.traceg", &s, &e);
    if (r == 0) {
        r = drain(s, &e, NULL);
        ws_close(s);
    }
    if (r != -1)
        fail_msg("no error for input expecting '%s'", want);
    if (!tu_one_line(e.msg))
        fail_msg("error is not one line: '%s'", e.msg);
    if (!strstr(e.msg, want))
        fail_msg("error '%s' does not contain '%s'", e.msg, want);
}

/* good_header with line `line` (1-based) replaced by repl ("" drops it). */
static void expect_header_error(int line, const char *repl, const char *want)
{
    char buf[2048];
    size_t n = 0;
    const char *p = good_header;
    for (int ln = 1; *p; ln++) {
        const char *nl = strchr(p, '\n');
        size_t len = (size_t)(nl - p) + 1;
        if (ln == line)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", repl, *repl ? "\n" : "");
        else
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%.*s", (int)len, p);
        p += len;
    }
    expect_error(buf, want);
}

static void header_validation(void **state)
{
    (void)state;
    expect_header_error(6, "-nregs = 21955", "t.traceg:6: nregs = 21955 out of range");
    expect_header_error(7, "-binary version = 0", "t.traceg:7: binary version = 0 is not supported");
    expect_header_error(7, "-binary version = 52", "t.traceg:7: binary version = 52 is not supported");
    expect_header_error(3, "-grid dim = (0,1,1)", "t.traceg:3: grid (0,1,1) out of range");
    expect_header_error(3, "-grid dim = (1,70000,1)", "t.traceg:3: grid");
    expect_header_error(3, "-grid dim = (1,1)", "t.traceg:3: bad value");
    expect_header_error(4, "-block dim = (2048,1,1)", "t.traceg:4: block (2048,1,1) out of range");
    expect_header_error(4, "-block dim = (32,32,2)", "t.traceg:4: block (32,32,2) out of range");
    expect_header_error(5, "-shmem = 9999999", "t.traceg:5: shmem = 9999999 bytes out of range");
    expect_header_error(9, "-accelsim tracer version = 2", "t.traceg:9: accelsim tracer version = 2");
    expect_header_error(9, "-accelsim tracer version = 6", "t.traceg:9: accelsim tracer version = 6");
    expect_header_error(10, "-enable lineinfo = 2", "t.traceg:10: bad value");
    expect_header_error(6, "-nregs = 12abc", "t.traceg:6: bad value '12abc' for 'nregs'");
    expect_header_error(6, "-nregs = -1", "t.traceg:6: bad value");
    expect_header_error(6, "-nregs = 99999999999999999999999", "t.traceg:6: bad value");
    expect_header_error(2, "-kernel id = 0", "t.traceg:2: bad value");
    expect_header_error(1, "-kernel name = ", "t.traceg:1: kernel name is empty");
    expect_header_error(8, "garbage line", "t.traceg:8: expected a '-key = value' header line");
    expect_header_error(8, "-no equals sign", "t.traceg:8: expected a '-key = value' header line");
    /* required fields */
    expect_header_error(1, "", "t.traceg: kernel header has no '-kernel name' line");
    expect_header_error(3, "", "kernel header has no '-grid dim' line");
    expect_header_error(4, "", "kernel header has no '-block dim' line");
    expect_header_error(6, "", "kernel header has no '-nregs' line");
    expect_header_error(7, "", "kernel header has no '-binary version' line");
    expect_header_error(9, "", "kernel header has no '-accelsim tracer version' line");
}

static void with_body(const char *body, const char *want)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n%s\n#END_TB\n", good_header,
             body);
    expect_error(buf, want);
}

static void instruction_errors(void **state)
{
    (void)state;
    /* the instruction is line 18 */
    with_body("0000 ffffffff 1 R1 FOO.BAR 0 0 0", "t.traceg:18: unknown opcode 'FOO.BAR' for binary version 80");
    with_body("0000 ffffffff 1 R1 XMAD.MRG 0 0 0", "t.traceg:18: unknown opcode 'XMAD.MRG'");
    with_body("0000 ffffffff 1 R1 MUFU 0 0 0", "t.traceg:18: unknown opcode 'MUFU'");
    with_body("0000 ffffffff 1 R1 MUFU.XYZ 0 0 0", "t.traceg:18: unknown opcode 'MUFU.XYZ'");
    with_body("0000 zzzz 1 R1 MOV 0 0 0", "t.traceg:18: expected a 32-bit hex active mask");
    with_body("0000 1ffffffff 1 R1 MOV 0 0 0", "t.traceg:18: expected a 32-bit hex active mask");
    with_body("gggg ffffffff 1 R1 MOV 0 0 0", "t.traceg:18: expected a hex PC");
    with_body("0000 ffffffff 5 R1 R2 R3 R4 R5 MOV 0 0 0", "t.traceg:18: bad destination count");
    with_body("0000 ffffffff 1 X1 MOV 0 0 0", "t.traceg:18: expected destination register");
    with_body("0000 ffffffff 1 R65536 MOV 0 0 0", "t.traceg:18: expected destination register");
    with_body("0000 ffffffff 1 R1 MOV 7 0", "t.traceg:18: bad source count");
    with_body("0000 ffffffff 1 R1 MOV 1 R 0", "t.traceg:18: expected source register");
    with_body("0000 ffffffff 1 R1 MOV 0 300 0", "t.traceg:18: bad memory width");
    with_body("0000 ffffffff 1 R1 LDG.E 0 4 3 0x0", "t.traceg:18: bad address compression mode");
    with_body("0000 0000000f 1 R1 LDG.E 0 4 0 0x10 0x20", "t.traceg:18: expected 4 hex addresses");
    with_body("0000 ffffffff 1 R1 LDG.E 0 4 1 0x10", "t.traceg:18: expected base address and stride");
    with_body("0000 00000007 1 R1 LDG.E 0 4 2 0x10 4", "t.traceg:18: expected 2 address deltas");
    with_body("0000 ffffffff 1 R1 MOV 0 0 0 1 2", "t.traceg:18: extra fields");
    with_body("0000 ffffffff 1 R1 MOV 0 0 99999999999", "t.traceg:18: bad immediate");
    with_body("0000 ffffffff 1 R1", "t.traceg:18: missing opcode");
    with_body("", "t.traceg:19: warp 0 has fewer instruction lines");
}

static void block_structure_errors(void **state)
{
    (void)state;
    char buf[4096];
    static const char *const cases[][2] = {
        {"#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n", "t.traceg:15: thread block (2,0,0) is outside the grid"},
        {"#BEGIN_TB\nwarp = 0\n", "t.traceg:15: expected 'thread block = x,y,z'"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\ninsts = 0\n#END_TB\n", "t.traceg:16: warp 2 out of order"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 0\nwarp = 0\n", "t.traceg:18: warp 0 out of order"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\nfoo\n", "t.traceg:17: expected 'insts = N'"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n0000 ffffffff 0 NOP 0 0 0\n#END_TB\n",
         "t.traceg:18: warp 0 has more instruction lines"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0 0\n#END_TB\n",
         "t.traceg:19: warp 0 has fewer instruction lines"},
        {"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 NOP 0 0 0\n",
         "end of file inside thread block (0,0,0)"},
        {"#BEGIN_TB\nthread block = 0,0,0\nbogus\n#END_TB\n", "t.traceg:16: expected 'warp = N' or #END_TB"},
        {"#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n",
         "thread block (0,0,0) appears twice"},
        {"#END_TB\n", "t.traceg:14: expected #BEGIN_TB"},
        {"0000 ffffffff 0 NOP 0 0 0\n", "t.traceg:14: expected #BEGIN_TB"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(buf, sizeof buf, "%s%s", good_header, cases[i][0]);
        expect_error(buf, cases[i][1]);
    }
}

static void missing_files(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    assert_int_equal(accelsim_open("tests/data/traces/no-such-trace", &s, &e), -1);
    assert_true(tu_one_line(e.msg));
    assert_non_null(strstr(e.msg, "tests/data/traces/no-such-trace: no such file"));

    char *dir = tu_tmpdir();
    assert_int_equal(accelsim_open(dir, &s, &e), -1); /* directory without kernelslist.g */
    assert_non_null(strstr(e.msg, "kernelslist.g: cannot open"));

    char *list = tu_path(dir, "kernelslist.g");
    static const char *const lists[][2] = {
        {"MemcpyHtoD,0x10,4\nkernel-1.traceg\n", "kernelslist.g:2: trace file"},
        {"MemcpyHtoD,zz,4\n", "kernelslist.g:1: expected 'MemcpyHtoD,0x<address>,<bytes>'"},
        {"MemcpyHtoD,0x10\n", "kernelslist.g:1: expected 'MemcpyHtoD"},
        {"MemcpyHtoD,0x10,99999999999999999999999\n", "kernelslist.g:1: expected 'MemcpyHtoD"},
        {"\n\nMemcpyHtoD,0x10000000000000000,1\n", "kernelslist.g:3: expected 'MemcpyHtoD"},
        {"\nkernel-1.trace\n", "kernelslist.g:2: 'kernel-1.trace' is a raw NVBit trace"},
        {"launch foo\n", "kernelslist.g:1: unrecognised line 'launch foo'"},
    };
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        assert_int_equal(tu_write_file(list, lists[i][0], strlen(lists[i][0])), 0);
        assert_int_equal(accelsim_open(list, &s, &e), -1);
        assert_true(tu_one_line(e.msg));
        if (!strstr(e.msg, lists[i][1]))
            fail_msg("'%s' lacks '%s'", e.msg, lists[i][1]);
    }
    /* a kernel file that vanished after open */
    char *k1 = tu_path(dir, "kernel-1.traceg");
    assert_int_equal(tu_write_file(list, "kernel-1.traceg\n", 16), 0);
    assert_int_equal(tu_write_file(k1, good_header, strlen(good_header)), 0);
    assert_int_equal(accelsim_open(list, &s, &e), 0);
    remove(k1);
    ws_event ev;
    assert_int_equal(ws_next_event(s, &ev, &e), -1);
    assert_non_null(strstr(e.msg, "kernel-1.traceg: cannot open"));
    ws_close(s);
    /* not xz although named so */
    char *kx = tu_path(dir, "kernel-2.traceg.xz");
    static const uint8_t fake_xz[] = {0xFD, '7', 'z', 'X', 'Z', 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    assert_int_equal(tu_write_file(kx, fake_xz, sizeof fake_xz), 0);
    assert_int_equal(accelsim_open(kx, &s, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), -1);
    assert_true(tu_one_line(e.msg));
    assert_non_null(strstr(e.msg, "kernel-2.traceg.xz: "));
    ws_close(s);
    /* a line longer than the read buffer */
    char *kl = tu_path(dir, "kernel-3.traceg");
    size_t hl = strlen(good_header), big = hl + (1u << 20) + 100;
    char *text = malloc(big + 1);
    memcpy(text, good_header, hl);
    memset(text + hl, '7', big - hl);
    text[big] = 0;
    assert_int_equal(tu_write_file(kl, text, big), 0);
    assert_int_equal(accelsim_open(kl, &s, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), 1);
    ws_cta c;
    ws_cta_init(&c);
    assert_int_equal(ws_next_cta(s, &c, &e), -1);
    assert_true(tu_one_line(e.msg));
    assert_non_null(strstr(e.msg, "kernel-3.traceg:14: line longer than"));
    ws_cta_free(&c);
    ws_close(s);
    free(text);
    free(kl);
    tu_rmdir(dir);
    free(kx);
    free(k1);
    free(list);
    free(dir);
}

/* Cut the trace at every byte: each prefix reads cleanly (whole CTAs only)
 * or fails with one line.  A clean prefix has 0 or all 344 instructions,
 * because the single CTA only counts once its #END_TB was read. */
static void truncation_plain(void **state)
{
    (void)state;
    size_t n;
    char *full = tu_read_file(SM61 "/kernel-1.traceg", &n);
    assert_non_null(full);
    int clean = 0, failed = 0;
    for (size_t cut = 0; cut < n; cut++) {
        ws_source *s;
        ge_err e;
        uint64_t insts;
        assert_int_equal(accelsim_open_buffer(full, cut, "cut.traceg", &s, &e), 0);
        int r = drain(s, &e, &insts);
        ws_close(s);
        if (r == 0) {
            clean++;
            if (insts != 0 && insts != 344)
                fail_msg("cut at %zu: %llu instructions", cut, (unsigned long long)insts);
        } else {
            failed++;
            if (!tu_one_line(e.msg) || strncmp(e.msg, "cut.traceg", 10) != 0)
                fail_msg("cut at %zu: bad message '%s'", cut, e.msg);
        }
    }
    free(full);
    assert_true(failed > (int)n / 2); /* most cuts fall inside the thread block */
    assert_true(clean > 0);           /* cuts between header and #BEGIN_TB are clean */
}

static void truncation_xz(void **state)
{
    (void)state;
    size_t n;
    char *full = tu_read_file(SM61 "_xz/kernel-1.traceg.xz", &n);
    assert_non_null(full);
    for (size_t cut = 0; cut < n; cut++) {
        ws_source *s;
        ge_err e;
        assert_int_equal(accelsim_open_buffer(full, cut, "cut.traceg.xz", &s, &e), 0);
        int r = drain(s, &e, NULL);
        ws_close(s);
        if (cut >= 6 && r == 0) /* with the magic bytes present it is xz, and incomplete */
            fail_msg("xz cut at %zu read cleanly", cut);
        if (r && !tu_one_line(e.msg))
            fail_msg("xz cut at %zu: bad message", cut);
    }
    ws_source *s;
    ge_err e;
    uint64_t insts;
    assert_int_equal(accelsim_open_buffer(full, n, "whole.traceg.xz", &s, &e), 0);
    assert_int_equal(drain(s, &e, &insts), 0);
    assert_int_equal(insts, 344);
    ws_close(s);
    free(full);
}

/* Overwrite bytes of the trace with troublesome characters: every byte of
 * the header and first thread-block lines with each character, then every
 * third byte of the rest with one character (rotating).  Each variant must
 * read cleanly or fail with one line. */
static void corruption(void **state)
{
    (void)state;
    size_t n;
    char *full = tu_read_file(SM61 "/kernel-1.traceg", &n);
    assert_non_null(full);
    static const char subst[] = {'\n', ' ', 'Z', '9', '\0', '-'};
    const size_t dense = 1200; /* header, #BEGIN_TB and warp 0 */
    int failed = 0;
    for (size_t at = 0; at < n; at += at < dense ? 1 : 3)
        for (size_t k = 0; k < sizeof subst; k++) {
            if (at >= dense && k != (at / 3) % sizeof subst)
                continue;
            char keep = full[at];
            if (keep == subst[k])
                continue;
            full[at] = subst[k];
            ws_source *s;
            ge_err e;
            uint64_t insts;
            assert_int_equal(accelsim_open_buffer(full, n, "bad.traceg", &s, &e), 0);
            int r = drain(s, &e, &insts);
            ws_close(s);
            full[at] = keep;
            if (r && !tu_one_line(e.msg))
                fail_msg("corrupt byte %zu: bad message", at);
            failed += r != 0;
        }
    assert_true(failed > 1000);
    free(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_validation),  cmocka_unit_test(instruction_errors),
        cmocka_unit_test(block_structure_errors), cmocka_unit_test(missing_files),
        cmocka_unit_test(truncation_plain),   cmocka_unit_test(truncation_xz),
        cmocka_unit_test(corruption),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
