/*
 * test_ptx_simt.c - SIMT control flow: the exact sequence of warp
 * instructions (pc and active mask) the emulator emits for nested if/else,
 * a loop whose trip count differs per lane, early exits, and a guarded call
 * into a function that diverges and returns on two paths; reconvergence at
 * the immediate post-dominator; a partial last warp; and the stream's
 * register ids, op kinds and lane addresses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx_testutil.h"

#define HDR ".version 8.0\n.target sm_75\n.address_size 64\n"
#define ALL 0xffffffffu
#define ODD 0xaaaaaaaau
#define EVEN 0x55555555u

typedef struct step {
    uint32_t inst, mask;
} step;

/* Run kernel k (one .u64 parameter, a 4 KB zeroed buffer) with one CTA of
 * `threads` threads and compare warp w's stream with want[0..n). */
static void expect_warp(const char *ptx, uint32_t threads, uint32_t w, const step *want, size_t n)
{
    gpurt *d = tu_device(ptx, "simt.ptx");
    tu_capture cap;
    tu_capture_attach(d, &cap);
    gpurt_ptr buf = gpurt_malloc(d, 4096);
    gpurt_memset(d, buf, 0, 4096);
    void *args[] = {&buf};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(threads, 1, 1), 0, args);
    if (gpurt_error(d))
        fail_msg("%s", gpurt_error(d));
    assert_int_equal(cap.ncta, 1);
    const ws_cta *c = &cap.cta[0];
    assert_int_equal(c->nwarps, (threads + 31) / 32);
    const ws_inst *in = ws_warp_inst(c, w);
    uint32_t ni = c->warps[w].ninst;
    for (size_t i = 0; i < n && i < ni; i++)
        if (in[i].pc != (uint64_t)want[i].inst * 16 || in[i].mask != want[i].mask)
            fail_msg("warp %u step %zu: pc %llu mask 0x%08x, expected pc %u mask 0x%08x", w, i,
                     (unsigned long long)(in[i].pc / 16), in[i].mask, want[i].inst, want[i].mask);
    assert_int_equal(ni, n);
    tu_capture_free(&cap);
    gpurt_destroy(d);
}

static const char ifelse_ptx[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .pred %p<4>;\n"
    " mov.u32 %r1, %laneid;\n and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra EVEN;\n"
    " setp.lt.u32 %p2, %r1, 16;\n @%p2 bra ODDLO;\n mov.u32 %r3, 1;\n bra.uni ODDJOIN;\n"
    "ODDLO:\n mov.u32 %r3, 2;\n"
    "ODDJOIN:\n add.u32 %r4, %r3, 10;\n bra.uni JOIN;\n"
    "EVEN:\n mov.u32 %r3, 3;\n add.u32 %r4, %r3, 20;\n"
    "JOIN:\n ret;\n}\n";

static void test_nested_ifelse(void **state)
{
    (void)state;
    const uint32_t OLO = ODD & 0xffffu, OHI = ODD & 0xffff0000u;
    const step want[] = {{0, ALL}, {1, ALL}, {2, ALL},   {3, ALL},   {4, ODD},   {5, ODD},   {6, OHI},
                         {7, OHI}, {8, OLO}, {9, ODD},   {10, ODD},  {11, EVEN}, {12, EVEN}, {13, ALL}};
    expect_warp(ifelse_ptx, 64, 1, want, sizeof want / sizeof *want);
    /* a partial warp: 40 threads, the second warp has lanes 0..7 only, so
     * the inner branch is uniform (all odd lanes are below 16) */
    const step want8[] = {{0, 0xff}, {1, 0xff}, {2, 0xff}, {3, 0xff}, {4, 0xaa}, {5, 0xaa},  {8, 0xaa},
                          {9, 0xaa}, {10, 0xaa}, {11, 0x55}, {12, 0x55}, {13, 0xff}};
    expect_warp(ifelse_ptx, 40, 1, want8, sizeof want8 / sizeof *want8);
}

static const char loop_ptx[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .pred %p<4>;\n"
    " mov.u32 %r1, %laneid;\n and.b32 %r2, %r1, 3;\n add.u32 %r2, %r2, 1;\n mov.u32 %r3, 0;\n"
    "LOOP:\n add.u32 %r3, %r3, 1;\n setp.lt.u32 %p1, %r3, %r2;\n @%p1 bra LOOP;\n ret;\n}\n";

static void test_loop_trip_counts(void **state)
{
    (void)state;
    const step want[] = {{0, ALL},         {1, ALL},         {2, ALL},         {3, ALL},
                         {4, ALL},         {5, ALL},         {6, ALL},         {4, 0xeeeeeeeeu},
                         {5, 0xeeeeeeeeu}, {6, 0xeeeeeeeeu}, {4, 0xccccccccu}, {5, 0xccccccccu},
                         {6, 0xccccccccu}, {4, 0x88888888u}, {5, 0x88888888u}, {6, 0x88888888u},
                         {7, ALL}};
    expect_warp(loop_ptx, 32, 0, want, sizeof want / sizeof *want);
}

static const char exit_ptx[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .pred %p<4>;\n"
    " mov.u32 %r1, %laneid;\n setp.lt.u32 %p1, %r1, 8;\n @%p1 exit;\n add.u32 %r2, %r1, 1;\n"
    " setp.lt.u32 %p2, %r1, 20;\n @%p2 bra SKIP;\n mov.u32 %r3, 5;\n exit;\n"
    "SKIP:\n mov.u32 %r3, 6;\n ret;\n}\n";

static void test_early_exit(void **state)
{
    (void)state;
    const step want[] = {{0, ALL},         {1, ALL},         {2, 0xffu},       {3, 0xffffff00u}, {4, 0xffffff00u},
                         {5, 0xffffff00u}, {6, 0xfff00000u}, {7, 0xfff00000u}, {8, 0x000fff00u}, {9, 0x000fff00u}};
    expect_warp(exit_ptx, 32, 0, want, sizeof want / sizeof *want);
}

static const char call_ptx[] = HDR
    ".func (.param .b32 rv) f(.param .b32 x)\n{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n"
    " ld.param.b32 %r1, [x];\n setp.lt.u32 %p1, %r1, 16;\n @%p1 bra LOW;\n st.param.b32 [rv], 1;\n ret;\n"
    "LOW:\n st.param.b32 [rv], 2;\n ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n .reg .pred %p<4>;\n"
    " mov.u32 %r1, %laneid;\n and.b32 %r2, %r1, 1;\n setp.eq.u32 %p1, %r2, 1;\n"
    " { .param .b32 a;\n .param .b32 r;\n st.param.b32 [a], %r1;\n @%p1 call.uni (r), f, (a);\n"
    " ld.param.b32 %r3, [r];\n }\n"
    " ld.param.u64 %rd1, [p];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r3;\n"
    " ret;\n}\n";

static void test_call_divergence(void **state)
{
    (void)state;
    const uint32_t OLO = ODD & 0xffffu, OHI = ODD & 0xffff0000u;
    /* f is instructions 0..6, the kernel 7.. */
    const step want[] = {{7, ALL},  {8, ALL},  {9, ALL},  {10, ALL}, {11, ODD},  {0, ODD},   {1, ODD},
                         {2, ODD},  {3, OHI},  {4, OHI},  {5, OLO},  {6, OLO},   {12, ALL},  {13, ALL},
                         {14, ALL}, {15, ALL}, {16, ALL}, {17, ALL}};
    expect_warp(call_ptx, 32, 0, want, sizeof want / sizeof *want);
    /* and the results: odd lanes get 2 below 16, 1 above */
    gpurt *d = tu_device(call_ptx, "call.ptx");
    gpurt_ptr buf = gpurt_malloc(d, 128);
    gpurt_memset(d, buf, 0, 128);
    void *args[] = {&buf};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(32, 1, 1), 0, args);
    uint32_t out[32];
    gpurt_memcpy_d2h(d, out, buf, sizeof out);
    assert_null(gpurt_error(d));
    for (int l = 1; l < 32; l += 2)
        assert_int_equal(out[l], l < 16 ? 2 : 1);
    gpurt_destroy(d);
}

/* The stream's registers, op kinds, sizes and lane addresses. */
static void test_stream_fields(void **state)
{
    (void)state;
    static const char ptx[] = HDR ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
                                  " .reg .pred %p<2>;\n"
                                  " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 8;\n"
                                  " add.s64 %rd3, %rd1, %rd2;\n setp.lt.u32 %p1, %r1, 5;\n"
                                  " @%p1 ld.global.v2.u32 {%r2, %r3}, [%rd3];\n ret;\n}\n";
    gpurt *d = tu_device(ptx, "f.ptx");
    tu_capture cap;
    tu_capture_attach(d, &cap);
    gpurt_ptr buf = gpurt_malloc(d, 8 * 32);
    gpurt_memset(d, buf, 0, 8 * 32);
    void *args[] = {&buf};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(32, 1, 1), 0, args);
    assert_null(gpurt_error(d));
    assert_int_equal(cap.nev, 1);
    const ws_kernel *k = &cap.ev[0].kernel;
    assert_string_equal(k->name, "k");
    assert_int_equal(k->binary_version, 75);
    assert_int_equal(k->block[0], 32);
    const ws_cta *c = &cap.cta[0];
    const ws_inst *in = ws_warp_inst(c, 0);
    assert_int_equal(c->warps[0].ninst, 7);
    assert_int_equal(in[0].op, ISA_OP_LD_CONST);  /* ld.param of a kernel parameter */
    assert_int_equal(ws_inst_addr(c, &in[0])[0], 0x00007b0000000000ull); /* the parameter window */
    assert_int_equal(in[1].op, ISA_OP_MISC);      /* S2R-like */
    assert_int_equal(in[2].op, ISA_OP_INT_MUL);
    assert_string_equal(k->opcodes[in[5].opcode], "ld.global.v2.u32");
    assert_int_equal(in[5].op, ISA_OP_LD_GLOBAL);
    assert_int_equal(in[5].mask, 0x1f);
    assert_int_equal(in[5].size, 8);
    assert_int_equal(in[5].ndst, 2);
    /* sources: the address register %rd3 and the guard %p1 */
    assert_int_equal(in[5].nsrc, 2);
    assert_int_equal(in[5].src[0], in[3].dst[0]);
    assert_int_equal(in[5].src[1], in[4].dst[0]);
    const uint64_t *a = ws_inst_addr(c, &in[5]);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], l < 5 ? buf + 8 * (uint64_t)l : 0);
    assert_int_equal(in[6].op, ISA_OP_EXIT);
    tu_capture_free(&cap);
    gpurt_destroy(d);
}

/* Shared and local addresses in the stream: shared as the window plus the
 * offset, local in the interleaved per-thread layout. */
static void test_stream_spaces(void **state)
{
    (void)state;
    static const char ptx[] = HDR ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
                                  " .local .align 4 .b8 dep[16];\n .shared .align 4 .b8 sm[256];\n"
                                  " mov.u32 %r1, %tid.x;\n st.local.u32 [dep+8], %r1;\n shl.b32 %r2, %r1, 2;\n"
                                  " st.shared.u32 [%r2], %r1;\n ret;\n}\n";
    gpurt *d = tu_device(ptx, "s.ptx");
    tu_capture cap;
    tu_capture_attach(d, &cap);
    gpurt_ptr buf = gpurt_malloc(d, 8);
    void *args[] = {&buf};
    gpurt_launch(d, "k", gpurt_dim(3, 1, 1), gpurt_dim(64, 1, 1), 0, args);
    assert_null(gpurt_error(d));
    const ws_kernel *k = &cap.ev[0].kernel;
    assert_int_equal(cap.ncta, 3);
    const ws_cta *c = &cap.cta[2]; /* CTA 2, warp 1 */
    const ws_inst *in = ws_warp_inst(c, 1);
    assert_int_equal(in[1].op, ISA_OP_ST_LOCAL);
    assert_int_equal(in[3].op, ISA_OP_ST_SHARED);
    const uint64_t *la = ws_inst_addr(c, &in[1]), *sa = ws_inst_addr(c, &in[3]);
    uint64_t words = 16 / 4, warp_global = 2 * 2 + 1;
    for (uint64_t l = 0; l < 32; l++) {
        assert_int_equal(la[l], k->local_base + (warp_global * words + 2) * 128 + l * 4);
        assert_int_equal(sa[l], k->shmem_base + (32 + l) * 4);
    }
    tu_capture_free(&cap);
    gpurt_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_ifelse),   cmocka_unit_test(test_loop_trip_counts),
        cmocka_unit_test(test_early_exit),      cmocka_unit_test(test_call_divergence),
        cmocka_unit_test(test_stream_fields),   cmocka_unit_test(test_stream_spaces),
    };
    return cmocka_run_group_tests_name("ptx_simt", tests, NULL, NULL);
}
