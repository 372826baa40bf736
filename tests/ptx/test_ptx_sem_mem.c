/*
 * test_ptx_sem_mem.c - memory, atomic, warp-collective and special-register
 * semantics against C reference values: atomics of every operation and
 * type in global and shared memory (lane order is the emulator's
 * documented, deterministic order), shfl in all modes with the clamp and
 * segment operand and its predicate output, vote/match/redux/activemask,
 * the special registers of a 3-D launch, vector loads and stores with '_'
 * sinks, sign-extending loads, generic addressing through cvta/isspacep,
 * and local memory through a function's depot.
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

static void check_dev(gpurt *d)
{
    if (gpurt_error(d))
        fail_msg("%s", gpurt_error(d));
}

/* ---------------------------------------------------------------- atomics */

static const char atom_ptx[] = HDR
    ".visible .entry k(.param .u64 pg, .param .u64 pold)\n{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<4>;\n .reg .pred %p<4>;\n"
    " .shared .align 8 .b8 sm[64];\n"
    " ld.param.u64 %rd1, [pg];\n ld.param.u64 %rd2, [pold];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd2, %rd2, %rd3;\n"
    " setp.ne.u32 %p1, %r1, 0;\n"
    " @%p1 bra SKIP;\n st.shared.u32 [sm], 100;\n st.shared.u32 [sm+4], 0;\n SKIP:\n bar.sync 0;\n"
    " atom.global.add.u32 %r2, [%rd1], %r1;\n"            /* g[0] += tid, old to out */
    " st.global.u32 [%rd2], %r2;\n"
    " atom.global.min.s32 %r3, [%rd1+4], %r1;\n"          /* g[1] = min */
    " sub.s32 %r4, 0, %r1;\n atom.global.max.s32 %r3, [%rd1+8], %r4;\n" /* g[2] = max(-tid) */
    " atom.global.inc.u32 %r3, [%rd1+12], 5;\n"           /* wraps at 5 */
    " atom.global.dec.u32 %r3, [%rd1+16], 3;\n"
    " atom.global.cas.b32 %r3, [%rd1+20], %r1, 1000;\n"   /* only the thread whose tid equals g[5] swaps */
    " atom.global.exch.b32 %r3, [%rd1+24], %r1;\n"
    " shl.b32 %r5, 1, %r1;\n atom.global.or.b32 %r3, [%rd1+28], %r5;\n"
    " atom.global.and.b32 %r3, [%rd1+32], 0xfffffffe;\n"
    " atom.global.xor.b32 %r3, [%rd1+36], %r5;\n"
    " cvt.rn.f32.u32 %f1, %r1;\n atom.global.add.f32 %f2, [%rd1+40], %f1;\n"
    " cvt.u64.u32 %rd4, %r1;\n atom.global.add.u64 %rd5, [%rd1+48], %rd4;\n"
    " red.global.add.u32 [%rd1+56], 2;\n"
    " atom.shared.add.u32 %r6, [sm], 1;\n atom.shared.max.u32 %r7, [sm+4], %r1;\n"
    " bar.sync 0;\n"
    " @%p1 bra END;\n ld.shared.u32 %r8, [sm];\n st.global.u32 [%rd1+60], %r8;\n"
    " ld.shared.u32 %r8, [sm+4];\n st.global.u32 [%rd1+64], %r8;\n"
    " END:\n ret;\n}\n";

static void test_atomics(void **state)
{
    (void)state;
    gpurt *d = tu_device(atom_ptx, "atom.ptx");
    enum { T = 40 };
    uint32_t g[17] = {0};
    g[1] = 50, g[2] = 0x80000000u, g[4] = 0, g[5] = 7, g[6] = 0xdead, g[8] = 0xffffffffu, g[9] = 0;
    gpurt_ptr dg = gpurt_malloc(d, sizeof g), dold = gpurt_malloc(d, T * 4);
    gpurt_memcpy_h2d(d, dg, g, sizeof g);
    void *args[] = {&dg, &dold};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(T, 1, 1), 0, args);
    uint32_t r[17], old[T];
    gpurt_memcpy_d2h(d, r, dg, sizeof r);
    gpurt_memcpy_d2h(d, old, dold, sizeof old);
    check_dev(d);
    /* lane order inside a warp, warps in order: thread t sees the sum of 0..t-1 */
    for (uint32_t t = 0; t < T; t++)
        assert_int_equal(old[t], t * (t - 1) / 2);
    assert_int_equal(r[0], T * (T - 1) / 2);
    assert_int_equal(r[1], 0);
    assert_int_equal(r[2], 0); /* max(-tid) over tids = 0 */
    uint32_t inc = 0, dec = 0, cas = 7;
    for (uint32_t t = 0; t < T; t++) {
        inc = inc >= 5 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 3) ? 3 : dec - 1;
        if (cas == t)
            cas = 1000;
    }
    assert_int_equal(r[3], inc);
    assert_int_equal(r[4], dec);
    assert_int_equal(r[5], cas);
    assert_int_equal(r[6], T - 1); /* the last exchange wins */
    assert_int_equal(r[7], 0xffffffffu);
    assert_int_equal(r[8], 0xfffffffeu);
    uint32_t x = 0;
    for (uint32_t t = 0; t < T; t++)
        if (t < 32) /* shl.b32 by 32 or more gives 0 */
            x ^= 1u << t;
    assert_int_equal(r[9], x);
    float fs;
    memcpy(&fs, &r[10], 4);
    assert_true(fs == (float)(T * (T - 1) / 2));
    uint64_t s64;
    memcpy(&s64, &r[12], 8);
    assert_int_equal(s64, T * (T - 1) / 2);
    assert_int_equal(r[14], 2 * T);
    assert_int_equal(r[15], 100 + T);
    assert_int_equal(r[16], T - 1);
    gpurt_destroy(d);
}

/* ----------------------------------------------------------- collectives */

static const char coll_ptx[] = HDR
    ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
    " .reg .b32 %r<20>;\n .reg .b64 %rd<8>;\n .reg .pred %p<8>;\n"
    " ld.param.u64 %rd1, [pin];\n ld.param.u64 %rd2, [pout];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r2, [%rd4];\n"
    " mul.wide.u32 %rd3, %r1, 64;\n add.s64 %rd5, %rd2, %rd3;\n"
    /* shfl.up 3 within 8-lane segments: c = ((32-8)<<8) | 0 */
    " shfl.sync.up.b32 %r3|%p1, %r2, 3, 0x1800, -1;\n selp.u32 %r4, 1, 0, %p1;\n"
    /* shfl.down 5, clamp 31 */
    " shfl.sync.down.b32 %r5|%p2, %r2, 5, 31, -1;\n selp.u32 %r6, 1, 0, %p2;\n"
    /* shfl.bfly 1 */
    " shfl.sync.bfly.b32 %r7, %r2, 1, 31, -1;\n"
    /* shfl.idx 5 within 16-lane segments: c = ((32-16)<<8) | 31 */
    " shfl.sync.idx.b32 %r8, %r2, 5, 0x101f, -1;\n"
    " and.b32 %r9, %r2, 1;\n setp.eq.u32 %p3, %r9, 1;\n"
    " vote.sync.ballot.b32 %r10, !%p3, -1;\n"
    " vote.sync.uni.pred %p4, %p3, -1;\n selp.u32 %r11, 1, 0, %p4;\n"
    " shr.u32 %r12, %r2, 4;\n match.all.sync.b32 %r13|%p5, %r12, -1;\n selp.u32 %r14, 1, 0, %p5;\n"
    " redux.sync.max.u32 %r15, %r2, -1;\n"
    " redux.sync.add.u32 %r16, %r2, -1;\n"
    " st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};\n"
    " st.global.v4.u32 [%rd5+16], {%r7, %r8, %r10, %r11};\n"
    " st.global.v4.u32 [%rd5+32], {%r13, %r14, %r15, %r16};\n"
    " ret;\n}\n";

static void test_collectives(void **state)
{
    (void)state;
    gpurt *d = tu_device(coll_ptx, "coll.ptx");
    enum { T = 64 };
    uint32_t in[T], out[T * 16];
    for (int t = 0; t < T; t++)
        in[t] = (uint32_t)(t * 37 % 64) + (t >= 32 ? 0 : 16 * 5); /* warp 0: in>>4 not uniform; warp 1 ... */
    for (int t = 32; t < T; t++)
        in[t] = 0x50 + (uint32_t)(t & 15); /* warp 1: in >> 4 uniform (match.all true) */
    gpurt_ptr din = gpurt_malloc(d, sizeof in), dout = gpurt_malloc(d, sizeof out);
    gpurt_memcpy_h2d(d, din, in, sizeof in);
    void *args[] = {&din, &dout};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(T, 1, 1), 0, args);
    gpurt_memcpy_d2h(d, out, dout, sizeof out);
    check_dev(d);
    for (int w = 0; w < 2; w++) {
        const uint32_t *v = in + 32 * w;
        uint32_t ballot = 0, mx = 0, sum = 0, ones = 0;
        int uniform_hi = 1;
        for (int l = 0; l < 32; l++) {
            ballot |= (uint32_t)!(v[l] & 1) << l;
            ones += v[l] & 1;
            mx = v[l] > mx ? v[l] : mx;
            sum += v[l];
            uniform_hi &= (v[l] >> 4) == (v[0] >> 4);
        }
        for (int l = 0; l < 32; l++) {
            const uint32_t *o = out + 16 * (32 * w + l);
            int seg = l & ~7, up = l - 3 >= seg; /* up within 8-lane segments */
            assert_int_equal(o[0], up ? v[l - 3] : v[l]);
            assert_int_equal(o[1], (uint32_t)up);
            int dn = l + 5 <= 31;
            assert_int_equal(o[2], dn ? v[l + 5] : v[l]);
            assert_int_equal(o[3], (uint32_t)dn);
            assert_int_equal(o[4], v[l ^ 1]);
            assert_int_equal(o[5], v[(l & ~15) + 5]);
            assert_int_equal(o[6], ballot);
            assert_int_equal(o[7], (uint32_t)(ones == 0 || ones == 32));
            assert_int_equal(o[8], uniform_hi ? 0xffffffffu : 0);
            assert_int_equal(o[9], (uint32_t)uniform_hi);
            assert_int_equal(o[10], mx);
            assert_int_equal(o[11], sum);
        }
    }
    gpurt_destroy(d);
}

/* ------------------------------------------------------ special registers */

static const char sreg_ptx[] = HDR
    ".visible .entry k(.param .u64 pout)\n{\n"
    " .reg .b32 %r<24>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [pout];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n mov.u32 %r3, %tid.z;\n"
    " mov.u32 %r4, %ntid.x;\n mov.u32 %r5, %ntid.y;\n mov.u32 %r6, %ntid.z;\n"
    " mov.u32 %r7, %ctaid.x;\n mov.u32 %r8, %ctaid.y;\n mov.u32 %r9, %ctaid.z;\n"
    " mov.u32 %r10, %nctaid.x;\n mov.u32 %r11, %nctaid.y;\n mov.u32 %r12, %nctaid.z;\n"
    " mov.u32 %r13, %laneid;\n mov.u32 %r14, %warpid;\n mov.u32 %r15, %lanemask_lt;\n"
    " mov.u32 %r16, %lanemask_ge;\n mov.u32 %r17, %dynamic_smem_size;\n mov.u32 %r18, WARP_SZ;\n"
    /* linear ids: thread in block, block in grid */
    " mad.lo.s32 %r19, %r3, %r5, %r2;\n mad.lo.s32 %r19, %r19, %r4, %r1;\n"
    " mad.lo.s32 %r20, %r9, %r11, %r8;\n mad.lo.s32 %r20, %r20, %r10, %r7;\n"
    " mul.lo.s32 %r21, %r4, %r5;\n mul.lo.s32 %r21, %r21, %r6;\n mad.lo.s32 %r22, %r20, %r21, %r19;\n"
    " mul.wide.u32 %rd2, %r22, 64;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r7};\n st.global.v4.u32 [%rd3+16], {%r8, %r9, %r13, %r14};\n"
    " st.global.v4.u32 [%rd3+32], {%r15, %r16, %r17, %r18};\n st.global.v4.u32 [%rd3+48], {%r4, %r6, %r10, %r12};\n"
    " ret;\n}\n";

static void test_special_registers(void **state)
{
    (void)state;
    gpurt *d = tu_device(sreg_ptx, "sreg.ptx");
    enum { BX = 5, BY = 3, BZ = 4, GX = 2, GY = 1, GZ = 3 }; /* 60 threads per block: a partial warp */
    size_t n = (size_t)BX * BY * BZ * GX * GY * GZ;
    uint32_t *out = calloc(n * 16, 4);
    gpurt_ptr dout = gpurt_malloc(d, n * 64);
    void *args[] = {&dout};
    gpurt_launch(d, "k", gpurt_dim(GX, GY, GZ), gpurt_dim(BX, BY, BZ), 48, args);
    gpurt_memcpy_d2h(d, out, dout, n * 64);
    check_dev(d);
    for (size_t i = 0; i < n; i++) {
        const uint32_t *o = out + 16 * i;
        uint32_t t = (uint32_t)(i % (BX * BY * BZ)), b = (uint32_t)(i / (BX * BY * BZ)), l = t % 32;
        assert_int_equal(o[0], t % BX);
        assert_int_equal(o[1], t / BX % BY);
        assert_int_equal(o[2], t / (BX * BY));
        assert_int_equal(o[3], b % GX);
        assert_int_equal(o[4], b / GX % GY);
        assert_int_equal(o[5], b / (GX * GY));
        assert_int_equal(o[6], l);
        assert_int_equal(o[7], t / 32);
        assert_int_equal(o[8], (1u << l) - 1);
        assert_int_equal(o[9], ~((1u << l) - 1));
        assert_int_equal(o[10], 48);
        assert_int_equal(o[11], 32);
        assert_int_equal(o[12], BX);
        assert_int_equal(o[13], BZ);
        assert_int_equal(o[14], GX);
        assert_int_equal(o[15], GZ);
    }
    free(out);
    gpurt_destroy(d);
}

/* ---------------------------------------------------------------- memory */

static const char mem_ptx[] = HDR
    ".global .align 4 .s8 tab[8] = {-1, 2, -3, 4, -128, 127, 0, 9};\n"
    ".const .align 8 .f64 cst[2] = {0d4000000000000000, 0d3FF8000000000000};\n"
    ".func (.param .b32 rv) f(.param .b32 x)\n{\n"
    " .local .align 4 .b8 depot[64];\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .pred %p<2>;\n"
    " ld.param.u32 %r1, [x];\n mov.u64 %rd1, depot;\n cvta.local.u64 %rd2, %rd1;\n"
    " mov.u32 %r2, 0;\n LOOP:\n mul.wide.u32 %rd3, %r2, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " add.s32 %r3, %r1, %r2;\n st.u32 [%rd4], %r3;\n add.s32 %r2, %r2, 1;\n setp.lt.u32 %p1, %r2, 16;\n"
    " @%p1 bra LOOP;\n"
    " and.b32 %r4, %r1, 15;\n mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd5, %rd1, %rd3;\n ld.local.u32 %r5, [%rd5];\n"
    " st.param.b32 [rv], %r5;\n ret;\n}\n"
    ".visible .entry k(.param .u64 pout)\n{\n"
    " .reg .b32 %r<16>;\n .reg .b64 %rd<16>;\n .reg .f64 %fd<4>;\n .reg .pred %p<4>;\n"
    " .shared .align 16 .b8 sm[128];\n"
    " ld.param.u64 %rd1, [pout];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 32;\n add.s64 %rd3, %rd1, %rd2;\n"
    /* sign-extending byte load from an initialised global */
    " and.b32 %r2, %r1, 7;\n cvt.u64.u32 %rd4, %r2;\n mov.u64 %rd5, tab;\n add.s64 %rd6, %rd5, %rd4;\n"
    " ld.global.s8 %r3, [%rd6];\n"
    /* vector store to shared through a generic address, vector load back with sinks */
    " mov.u64 %rd7, sm;\n cvta.shared.u64 %rd8, %rd7;\n and.b32 %r4, %r1, 7;\n mul.wide.u32 %rd9, %r4, 16;\n"
    " add.s64 %rd10, %rd8, %rd9;\n add.s32 %r5, %r1, 100;\n"
    " st.v4.u32 [%rd10], {%r1, %r5, %r3, %r2};\n bar.sync 0;\n"
    " ld.shared.v4.u32 {_, %r6, _, %r7}, [%rd7+16];\n"
    " isspacep.shared %p1, %rd10;\n isspacep.global %p2, %rd3;\n selp.u32 %r8, 1, 0, %p1;\n selp.u32 %r9, 2, 0, %p2;\n"
    " or.b32 %r8, %r8, %r9;\n cvta.to.shared.u64 %rd11, %rd10;\n sub.s64 %rd11, %rd11, %rd7;\n cvt.u32.u64 %r10, %rd11;\n"
    " ld.const.f64 %fd1, [cst+8];\n cvt.rzi.s32.f64 %r11, %fd1;\n"
    " { .param .b32 a0;\n .param .b32 r0;\n st.param.b32 [a0], %r1;\n call.uni (r0), f, (a0);\n"
    "   ld.param.b32 %r12, [r0];\n }\n"
    " st.global.v4.u32 [%rd3], {%r3, %r6, %r7, %r8};\n st.global.v4.u32 [%rd3+16], {%r10, %r11, %r12, %r2};\n"
    " ret;\n}\n";

static void test_memory(void **state)
{
    (void)state;
    gpurt *d = tu_device(mem_ptx, "mem.ptx");
    enum { T = 40 };
    uint32_t out[T * 8];
    gpurt_ptr dout = gpurt_malloc(d, sizeof out);
    void *args[] = {&dout};
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(T, 1, 1), 0, args);
    gpurt_memcpy_d2h(d, out, dout, sizeof out);
    check_dev(d);
    static const int8_t tab[8] = {-1, 2, -3, 4, -128, 127, 0, 9};
    /* shared slot 1 (16 bytes) was last written by the highest tid with tid & 7 == 1: warps run in order */
    uint32_t last1 = 0;
    for (uint32_t t = 0; t < T; t++)
        if ((t & 7) == 1)
            last1 = t;
    for (uint32_t t = 0; t < T; t++) {
        const uint32_t *o = out + 8 * t;
        assert_int_equal((int32_t)o[0], tab[t & 7]);
        assert_int_equal(o[1], last1 + 100);
        assert_int_equal(o[2], 1);              /* slot 1's fourth word: tid & 7 of its writer */
        assert_int_equal(o[3], 3);              /* shared window and global pointer */
        assert_int_equal(o[4], (t & 7) * 16);
        assert_int_equal(o[5], 1);              /* (int)1.5 */
        assert_int_equal(o[6], t + (t & 15));   /* f(): depot[t & 15] = t + (t & 15) */
    }
    gpurt_destroy(d);
}

/* A symbol: gpurt_symbol and memcpy to a .const variable (cudaMemcpyToSymbol). */
static void test_symbols(void **state)
{
    (void)state;
    static const char ptx[] = HDR ".const .align 4 .u32 c[4];\n.global .align 4 .u32 g;\n"
                                  ".visible .entry k()\n{\n .reg .b32 %r<4>;\n ld.const.u32 %r1, [c+8];\n"
                                  " st.global.u32 [g], %r1;\n ret;\n}\n";
    gpurt *d = tu_device(ptx, "sym.ptx");
    uint32_t cv[4] = {1, 2, 3, 4}, gv = 0;
    gpurt_ptr c = gpurt_symbol(d, "c"), g = gpurt_symbol(d, "g");
    assert_true(c && g);
    gpurt_memcpy_h2d(d, c, cv, sizeof cv);
    gpurt_launch(d, "k", gpurt_dim(1, 1, 1), gpurt_dim(1, 1, 1), 0, NULL);
    gpurt_memcpy_d2h(d, &gv, g, 4);
    check_dev(d);
    assert_int_equal(gv, 3);
    assert_int_equal(gpurt_symbol(d, "nope"), 0);
    assert_non_null(strstr(gpurt_error(d), "nope"));
    gpurt_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomics), cmocka_unit_test(test_collectives), cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_memory),  cmocka_unit_test(test_symbols),
    };
    return cmocka_run_group_tests_name("ptx_sem_mem", tests, NULL, NULL);
}
