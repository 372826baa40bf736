/*
 * test_as_read.c - the Accel-Sim reader on real and hand-made traces:
 * the published figures of the two real traces, tracer versions 3-5 with
 * and without the immediate field, the three address modes (and the
 * mode-less list), lineinfo, kernelslist.g, and open_cta against streaming.
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
#define SM80XZ "tests/data/traces/vectoradd_sm80_xz"

typedef struct totals {
    int kernels, memcpys, ctas;
    uint64_t warp_insts, thread_insts;
    ws_kernel k; /* last kernel (strings not kept) */
} totals;

static int count(ws_source *s, totals *t, ge_err *e)
{
    memset(t, 0, sizeof *t);
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    int r;
    while ((r = ws_next_event(s, &ev, e)) == 1) {
        if (ev.kind != WS_EV_KERNEL) {
            t->memcpys++;
            continue;
        }
        t->kernels++;
        t->k = ev.kernel;
        while ((r = ws_next_cta(s, &c, e)) == 1) {
            t->ctas++;
            t->warp_insts += c.ninst;
            for (size_t i = 0; i < c.ninst; i++)
                t->thread_insts += (uint64_t)ws_popc(c.inst[i].mask);
        }
        if (r < 0)
            break;
    }
    ws_cta_free(&c);
    return r;
}

/* ---- the real traces ---- */

static void sm80_figures(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    totals t;
    assert_int_equal(accelsim_open(SM80XZ "/kernelslist.g", &s, &e), 0);
    assert_int_equal(count(s, &t, &e), 0);
    ws_close(s);
    assert_int_equal(t.memcpys, 2);
    assert_int_equal(t.kernels, 1);
    assert_int_equal(t.warp_insts, 26601);
    assert_int_equal(t.ctas, 196);
    assert_int_equal(t.k.grid[0], 196);
    assert_int_equal(t.k.grid[1], 1);
    assert_int_equal(t.k.grid[2], 1);
    assert_int_equal(t.k.block[0], 256);
    assert_int_equal(t.k.block[1], 1);
    assert_int_equal(t.k.nregs, 12);
    assert_int_equal(t.k.binary_version, 80);
    assert_int_equal(t.k.tracer_version, 5);
    assert_int_equal(t.k.shmem_base, 0x00007fb139000000ull);
    assert_int_equal(t.k.local_base, 0x00007fb137000000ull);
}

static void sm80_shared_plain_equals_xz(void **state)
{
    (void)state;
    const char *shared = getenv("GPUEST_SHARED");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/traces/vectoradd_sm80/kernelslist.g", shared ? shared : "../shared");
    FILE *f = fopen(path, "r");
    if (!f)
        skip();
    fclose(f);
    ws_source *a, *b;
    ge_err e;
    char why[256];
    assert_int_equal(accelsim_open(path, &a, &e), 0);
    assert_int_equal(accelsim_open(SM80XZ, &b, &e), 0);
    assert_int_equal(ws_compare(a, b, CMP_MNEMONICS | CMP_TRACER, why, sizeof why), 0);
    ws_close(a);
    ws_close(b);
}

static void sm61_figures(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    totals t;
    assert_int_equal(accelsim_open(SM61, &s, &e), 0); /* a directory */
    assert_int_equal(count(s, &t, &e), 0);
    ws_close(s);
    assert_int_equal(t.memcpys, 3);
    assert_int_equal(t.warp_insts, 344);
    assert_int_equal(t.ctas, 1);
    assert_int_equal(t.k.block[0], 1024);
    assert_int_equal(t.k.binary_version, 61);
    assert_int_equal(t.k.tracer_version, 4);
    assert_string_equal(t.k.nvbit_version ? "set" : "unset", "set");
}

/* One decoded instruction of the sm61 trace, checked field by field:
 * warp 1, line "0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500080 4". */
static void sm61_instruction(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    assert_int_equal(accelsim_open(SM61 "/kernel-1.traceg", &s, &e), 0); /* one kernel file */
    assert_int_equal(ws_next_event(s, &ev, &e), 1);
    assert_int_equal(ev.kind, WS_EV_KERNEL);
    assert_int_equal(ws_next_cta(s, &c, &e), 1);
    assert_int_equal(c.nwarps, 32);
    assert_int_equal(c.warps[1].ninst, 23);
    assert_int_equal(c.warps[4].ninst, 9);
    const ws_inst *in = ws_warp_inst(&c, 1) + 14;
    assert_int_equal(in->pc, 0x98);
    assert_int_equal(in->mask, 0xffffffffu);
    assert_int_equal(in->op, ISA_OP_LD_GLOBAL);
    assert_int_equal(in->size, 4);
    assert_int_equal(in->ndst, 1);
    assert_int_equal(in->dst[0], 4);
    assert_int_equal(in->nsrc, 1);
    assert_int_equal(in->src[0], 4);
    const uint64_t *a = ws_inst_addr(&c, in);
    assert_non_null(a);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], 0x7f2b2d500080ull + 4u * (unsigned)l);
    const ws_kernel *k = accelsim_kernel(s);
    assert_string_equal(k->opcodes[in->opcode], "LDG.E.CG");
    /* warp 3 runs 4 lanes after its EXIT */
    const ws_inst *w3 = ws_warp_inst(&c, 3);
    assert_int_equal(w3[8].op, ISA_OP_EXIT);
    assert_int_equal(w3[8].mask, 0xfffffff0u);
    assert_int_equal(w3[14].mask, 0xfu);
    assert_int_equal(ws_inst_addr(&c, &w3[14])[3], 0x7f2b2d500180ull + 12);
    assert_int_equal(ws_inst_addr(&c, &w3[14])[4], 0);
    assert_int_equal(ws_next_cta(s, &c, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), 0);
    ws_cta_free(&c);
    ws_close(s);
}

/* ---- hand-made traces: versions, immediates, address modes ---- */

static size_t header(char *buf, size_t cap, int tracer, int binver, int lineinfo)
{
    return (size_t)snprintf(buf, cap,
                            "-kernel name = void k<int>(int*, float) [clone]\n-kernel id = 3\n"
                            "-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 1024\n-nregs = 16\n"
                            "-binary version = %d\n-cuda stream id = 7\n"
                            "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n"
                            "-nvbit version = 1.5.5\n-accelsim tracer version = %d\n-enable lineinfo = %d\n\n"
                            "#traces format = whatever\n\n\n",
                            binver, tracer, lineinfo);
}

/* Instruction lines without the immediate; imm[] is appended when asked. */
static const char *const body[] = {
    "0000 ffffffff 1 R1 MOV 0 0",
    "0010 0000000f 1 R2 LDG.E 1 R4 4 0 0x1000 0x1004 0x1010 0x2000",
    "0020 ffffffff 1 R3 LDG.E.64 1 R4 8 1 0x3000 8",
    "0030 80000001 0 STG.E 2 R6 R7 4 2 0x4000 -16",
    "0040 00000000 0 STG.E 2 R6 R7 4 1 0x0 0",
    "0050 00000003 1 R300 LDG.E 1 R65535 4 0x5000 0x5008",
    "0060 ffffffff 0 EXIT 0 0",
};
static const char *const imms[] = {"5", "0", "0", "0", "0", "0", "-1"};
#define NBODY 7

static size_t build(char *buf, size_t cap, int tracer, int with_imm, int lineinfo)
{
    size_t n = header(buf, cap, tracer, 80, lineinfo);
    n += (size_t)snprintf(buf + n, cap - n, "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 1\ninsts = %d\n", NBODY);
    for (int i = 0; i < NBODY; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s%s%s \n", lineinfo ? "42 " : "", body[i], with_imm ? " " : "",
                              with_imm ? imms[i] : "");
    n += (size_t)snprintf(buf + n, cap - n, "\n#END_TB\n");
    return n;
}

static void check_body(const ws_cta *c, int with_imm)
{
    assert_int_equal(c->id[0], 1);
    assert_int_equal(c->index, 1);
    assert_int_equal(c->nwarps, 2); /* warp 0 absent -> empty */
    assert_int_equal(c->warps[0].ninst, 0);
    assert_int_equal(c->warps[1].ninst, NBODY);
    const ws_inst *in = ws_warp_inst(c, 1);
    assert_int_equal(in[0].op, ISA_OP_INT_ALU);
    assert_int_equal(in[0].imm, with_imm ? 5u : 0u);
    assert_int_equal(in[0].addr, WS_NO_ADDR);
    assert_int_equal(in[0].size, 0);
    /* list-all, 4 lanes */
    const uint64_t *a = ws_inst_addr(c, &in[1]);
    assert_int_equal(a[0], 0x1000);
    assert_int_equal(a[1], 0x1004);
    assert_int_equal(a[2], 0x1010);
    assert_int_equal(a[3], 0x2000);
    assert_int_equal(a[4], 0);
    /* base+stride */
    a = ws_inst_addr(c, &in[2]);
    assert_int_equal(in[2].size, 8);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], 0x3000u + 8u * (unsigned)l);
    /* base+delta with a negative delta: lanes 0 and 31 */
    a = ws_inst_addr(c, &in[3]);
    assert_int_equal(in[3].op, ISA_OP_ST_GLOBAL);
    assert_int_equal(in[3].nsrc, 2);
    assert_int_equal(in[3].src[1], 7);
    assert_int_equal(a[0], 0x4000);
    assert_int_equal(a[31], 0x3ff0);
    assert_int_equal(a[15], 0);
    /* no active lane */
    assert_int_equal(in[4].mask, 0);
    assert_non_null(ws_inst_addr(c, &in[4]));
    /* mode-less list, large register numbers */
    a = ws_inst_addr(c, &in[5]);
    assert_int_equal(a[0], 0x5000);
    assert_int_equal(a[1], 0x5008);
    assert_int_equal(in[5].dst[0], 300);
    assert_int_equal(in[5].src[0], 65535);
    assert_int_equal(in[6].op, ISA_OP_EXIT);
    assert_int_equal(in[6].imm, with_imm ? 0xffffffffu : 0u);
}

static void read_one(const char *buf, size_t n, ws_cta *c, ws_kernel *k)
{
    ws_source *s;
    ge_err e;
    ws_event ev;
    assert_int_equal(accelsim_open_buffer(buf, n, "hand.traceg", &s, &e), 0);
    int r = ws_next_event(s, &ev, &e);
    if (r != 1)
        fail_msg("%s", e.msg);
    *k = ev.kernel;
    k->name = NULL;
    k->nvbit_version = NULL;
    k->opcodes = NULL;
    r = ws_next_cta(s, c, &e);
    if (r != 1)
        fail_msg("%s", e.msg);
    assert_int_equal(ws_next_cta(s, c + 1, &e), 0);
    ws_close(s);
}

static void versions_and_immediates(void **state)
{
    (void)state;
    static char buf[8192];
    for (int tracer = 3; tracer <= 5; tracer++)
        for (int imm = 0; imm <= 1; imm++)
            for (int li = 0; li <= 1; li++) {
                ws_cta c[2];
                ws_kernel k;
                ws_cta_init(&c[0]);
                ws_cta_init(&c[1]);
                size_t n = build(buf, sizeof buf, tracer, imm, li);
                read_one(buf, n, c, &k);
                assert_int_equal(k.tracer_version, tracer);
                assert_int_equal(k.lineinfo, li);
                assert_int_equal(k.id, 3);
                assert_int_equal(k.stream, 7);
                assert_int_equal(k.shmem_static, 1024);
                check_body(&c[0], imm);
                ws_cta_free(&c[0]);
                ws_cta_free(&c[1]);
            }
}

static void kernel_name_with_spaces(void **state)
{
    (void)state;
    static char buf[8192];
    size_t n = build(buf, sizeof buf, 5, 1, 0);
    ws_source *s;
    ge_err e;
    ws_event ev;
    assert_int_equal(accelsim_open_buffer(buf, n, "hand.traceg", &s, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), 1);
    assert_string_equal(ev.kernel.name, "void k<int>(int*, float) [clone]");
    assert_string_equal(ev.kernel.nvbit_version, "1.5.5");
    ws_close(s);
}

/* CRLF line ends, tabs, a cluster block and no newline at the end. */
static void tolerant_layout(void **state)
{
    (void)state;
    static const char txt[] =
        "-kernel name = k\r\n-grid dim = ( 1 , 1 , 1 )\r\n-block dim = (32,1,1)\r\n-nregs = 8\r\n"
        "-binary version = 90\r\n-accelsim tracer version = 5\r\n-some future field = 1\r\n"
        "#BEGIN_TB\r\nthread block = 0,0,0\r\ncluster id = 0,0,0\r\ncluster cta = 0,0,0\r\ncluster rank = 0\r\n"
        "warp = 0\r\ninsts = 2\r\n0000\tffffffff 1 R1 HGMMA.64x128x16.F32 0 0 0\r\n"
        "0010 ffffffff 0 EXIT 0 0 0\r\n#END_TB";
    ws_cta c[2];
    ws_kernel k;
    ws_cta_init(&c[0]);
    ws_cta_init(&c[1]);
    read_one(txt, sizeof txt - 1, c, &k);
    assert_int_equal(k.id, 1); /* default: first kernel */
    assert_int_equal(k.nregs, 8);
    assert_int_equal(c[0].ninst, 2);
    assert_int_equal(c[0].inst[0].op, ISA_OP_TENSOR);
    ws_cta_free(&c[0]);
    ws_cta_free(&c[1]);
}

static void kernel_without_ctas(void **state)
{
    (void)state;
    static char buf[4096];
    size_t n = header(buf, sizeof buf, 4, 70, 0);
    ws_source *s;
    ge_err e;
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    assert_int_equal(accelsim_open_buffer(buf, n, "empty.traceg", &s, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), 1);
    assert_int_equal(ws_next_cta(s, &c, &e), 0);
    assert_int_equal(ws_next_event(s, &ev, &e), 0);
    ws_close(s);
    ws_cta_free(&c);
}

/* ---- kernelslist.g ---- */

static void kernelslist_events(void **state)
{
    (void)state;
    static char buf[8192];
    char *dir = tu_tmpdir();
    char *k1 = tu_path(dir, "kernel-1.traceg"), *list = tu_path(dir, "kernelslist.g");
    size_t n = build(buf, sizeof buf, 5, 1, 0);
    assert_int_equal(tu_write_file(k1, buf, n), 0);
    static const char kl[] = "MemcpyHtoD,0x00007f2b2d500000,400\n\n# comment\nkernel-1.traceg\n"
                             "MemcpyDtoH,0x10,5\n  kernel-1.traceg  \n";
    assert_int_equal(tu_write_file(list, kl, sizeof kl - 1), 0);
    ws_source *s;
    ge_err e;
    ws_event ev;
    assert_int_equal(accelsim_open(list, &s, &e), 0);
    int kinds[8], nk = 0, r;
    while ((r = ws_next_event(s, &ev, &e)) == 1 && nk < 8) {
        kinds[nk++] = ev.kind;
        if (nk == 1) {
            assert_int_equal(ev.addr, 0x00007f2b2d500000ull);
            assert_int_equal(ev.bytes, 400);
        }
        if (nk == 3) {
            assert_int_equal(ev.addr, 0x10);
            assert_int_equal(ev.bytes, 5);
        }
    }
    assert_int_equal(r, 0);
    assert_int_equal(nk, 4);
    assert_int_equal(kinds[0], WS_EV_MEMCPY_H2D);
    assert_int_equal(kinds[1], WS_EV_KERNEL);
    assert_int_equal(kinds[2], WS_EV_MEMCPY_D2H);
    assert_int_equal(kinds[3], WS_EV_KERNEL);
    ws_close(s);
    tu_rmdir(dir);
    free(k1);
    free(list);
    free(dir);
}

/* ---- open_cta ---- */

static void open_cta_matches_stream(const char *path, const uint64_t *order, size_t norder)
{
    ws_source *s;
    ge_err e;
    ws_event ev;
    assert_int_equal(accelsim_open(path, &s, &e), 0);
    while (ws_next_event(s, &ev, &e) == 1 && ev.kind != WS_EV_KERNEL)
        ;
    assert_int_equal(ev.kind, WS_EV_KERNEL);
    uint64_t n = ws_kernel_nctas(&ev.kernel);
    ws_cta *all = calloc(n, sizeof *all), c, got;
    ws_cta_init(&c);
    ws_cta_init(&got);
    uint64_t seen = 0;
    /* interleave: open one CTA before streaming starts */
    assert_int_equal(ws_open_cta(s, n - 1, &got, &e), 0);
    while (ws_next_cta(s, &c, &e) == 1) {
        ws_cta_init(&all[c.index]);
        assert_int_equal(ws_cta_copy(&all[c.index], &c, &e), 0);
        seen++;
        if (seen == 3) /* and one in the middle of streaming */
            assert_int_equal(ws_open_cta(s, 0, &got, &e), 0);
    }
    assert_int_equal(seen, n);
    for (size_t i = 0; i < norder; i++) {
        uint64_t idx = order[i];
        if (ws_open_cta(s, idx, &got, &e))
            fail_msg("%s", e.msg);
        vec_source *va = vec_new(), *vb = vec_new();
        ws_kernel k = ev.kernel;
        k.nopcodes = 0;
        vec_kernel(va, &k);
        vec_kernel(vb, &k);
        vec_cta(va, &all[idx]);
        vec_cta(vb, &got);
        ws_source *sa = vec_source_open(va), *sb = vec_source_open(vb);
        char why[256];
        if (ws_compare(sa, sb, 0, why, sizeof why))
            fail_msg("CTA %llu: %s", (unsigned long long)idx, why);
        ws_close(sa);
        ws_close(sb);
        vec_free(va);
        vec_free(vb);
    }
    assert_int_equal(ws_open_cta(s, n, &got, &e), -1); /* beyond the grid */
    assert_non_null(strstr(e.msg, "not in the trace"));
    for (uint64_t i = 0; i < n; i++)
        ws_cta_free(&all[i]);
    free(all);
    ws_cta_free(&c);
    ws_cta_free(&got);
    ws_close(s);
}

static void open_cta_xz(void **state)
{
    (void)state;
    static const uint64_t order[] = {195, 7, 0, 100, 101, 3, 194, 64};
    open_cta_matches_stream(SM80XZ, order, sizeof order / sizeof *order);
}

static void open_cta_plain(void **state)
{
    (void)state;
    /* a plain copy of the sm80 trace written by the writer */
    char *dir = tu_tmpdir();
    ws_source *s;
    ge_err e;
    assert_int_equal(accelsim_open(SM80XZ, &s, &e), 0);
    assert_int_equal(accelsim_write_stream(s, dir, 0, &e), 0);
    ws_close(s);
    uint64_t order[196];
    for (int i = 0; i < 196; i++)
        order[i] = (uint64_t)(195 - i); /* every CTA, backwards */
    open_cta_matches_stream(dir, order, 196);
    tu_rmdir(dir);
    free(dir);
}

static void open_cta_needs_kernel(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    ws_cta c;
    ws_cta_init(&c);
    assert_int_equal(accelsim_open(SM61, &s, &e), 0);
    assert_int_equal(ws_open_cta(s, 0, &c, &e), -1);
    assert_true(tu_one_line(e.msg));
    ws_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sm80_figures),
        cmocka_unit_test(sm80_shared_plain_equals_xz),
        cmocka_unit_test(sm61_figures),
        cmocka_unit_test(sm61_instruction),
        cmocka_unit_test(versions_and_immediates),
        cmocka_unit_test(kernel_name_with_spaces),
        cmocka_unit_test(tolerant_layout),
        cmocka_unit_test(kernel_without_ctas),
        cmocka_unit_test(kernelslist_events),
        cmocka_unit_test(open_cta_xz),
        cmocka_unit_test(open_cta_plain),
        cmocka_unit_test(open_cta_needs_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
