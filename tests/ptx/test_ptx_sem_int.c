/*
 * test_ptx_sem_int.c - integer, bit, integer-conversion, comparison and
 * selection instructions against C reference values.
 *
 * Every case runs a one-line PTX body per thread over a grid of edge values
 * (0, 1, -1, the extremes, shift amounts around the width, patterns) and
 * compares each thread's result with a C expression of the PTX ISA
 * semantics.  Cases where PTX leaves the result undefined check the values
 * the emulator documents (division by zero, shifts past the width).
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

static const uint64_t V[] = {0,
                             1,
                             2,
                             7,
                             31,
                             32,
                             33,
                             64,
                             0xffffffffffffffffull,
                             0x80000000ull,
                             0x7fffffffull,
                             0xfffffff9ull,
                             0x123456789abcdef0ull,
                             0x8000000000000000ull,
                             0xdeadbeefull,
                             0xffff8001ull};
#define NV ((int)(sizeof V / sizeof *V))

#define U32(x) ((uint32_t)(x))
#define S32(x) ((int32_t)(uint32_t)(x))
#define U16(x) ((uint16_t)(x))
#define S16(x) ((int16_t)(uint16_t)(x))
#define S64(x) ((int64_t)(x))
#define REF(name, expr)                                        \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c)   \
    {                                                          \
        (void)a, (void)b, (void)c;                             \
        return (uint64_t)(expr);                               \
    }

#define OUT32 " cvt.u64.u32 %out, %w0;"
#define OUT16 " cvt.u64.u16 %out, %h0;"
#define OUTP " selp.u64 %out, 1, 0, %p0;"

/* ------------------------------------------------------------ arithmetic */

REF(r_add32, U32(a + b))
REF(r_sub32, U32(a - b))
static uint64_t r_addsat(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t r = (int64_t)S32(a) + S32(b);
    return U32(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
}
REF(r_mullo32, U32(U32(a) * U32(b)))
REF(r_mulhi_s32, U32((S64(S32(a)) * S32(b)) >> 32))
REF(r_mulhi_u32, U32(((uint64_t)U32(a) * U32(b)) >> 32))
REF(r_mulwide_s32, (uint64_t)(S64(S32(a)) * S32(b)))
REF(r_mulwide_u32, (uint64_t)U32(a) * U32(b))
REF(r_mulhi_u64, (uint64_t)(((unsigned __int128)a * b) >> 64))
REF(r_mulhi_s64, (uint64_t)(((__int128)S64(a) * S64(b)) >> 64))
REF(r_madlo32, U32(U32(a) * U32(b) + U32(c)))
REF(r_madwide_s32, (uint64_t)(S64(S32(a)) * S32(b)) + c)
REF(r_mul64, a * b)
REF(r_add16, U16(a + b))
REF(r_mullo16, U16(U16(a) * U16(b)))
REF(r_mulwide_s16, U32((int32_t)S16(a) * S16(b)))

static uint64_t r_div_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int32_t x = S32(a), y = S32(b);
    if (y == 0)
        return 0xffffffffu; /* documented: all ones */
    if (x == INT32_MIN && y == -1)
        return U32(INT32_MIN);
    return U32(x / y);
}
static uint64_t r_rem_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int32_t x = S32(a), y = S32(b);
    if (y == 0)
        return U32(x); /* documented: the dividend */
    if (y == -1)
        return 0;
    return U32(x % y);
}
REF(r_div_u32, U32(b) ? U32(a) / U32(b) : 0xffffffffu)
REF(r_rem_u64, b ? a % b : a)
REF(r_div_s64, b == 0 ? ~0ull : (S64(a) == INT64_MIN && S64(b) == -1) ? a : (uint64_t)(S64(a) / S64(b)))
REF(r_abs32, U32(S32(a) < 0 ? 0u - U32(a) : U32(a)))
REF(r_neg32, U32(0u - U32(a)))
REF(r_min_s32, U32(S32(a) < S32(b) ? S32(a) : S32(b)))
REF(r_max_u32, U32(a) > U32(b) ? U32(a) : U32(b))
REF(r_min_s64, S64(a) < S64(b) ? a : b)
REF(r_max_s16, U16(S16(a) > S16(b) ? S16(a) : S16(b)))
REF(r_sad_u32, U32((U32(a) > U32(b) ? U32(a) - U32(b) : U32(b) - U32(a)) + U32(c)))
REF(r_mul24lo_s32, U32((int64_t)(((int32_t)(U32(a) << 8)) >> 8) * (((int32_t)(U32(b) << 8)) >> 8)))
REF(r_mul24hi_u32, U32(((uint64_t)(U32(a) & 0xffffff) * (U32(b) & 0xffffff)) >> 16))

static void test_arith(void **state)
{
    (void)state;
    tu_op_check_grid(" add.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_add32);
    tu_op_check_grid(" sub.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_sub32);
    tu_op_check_grid(" add.sat.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_addsat);
    tu_op_check_grid(" mul.lo.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_mullo32);
    tu_op_check_grid(" mul.hi.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_mulhi_s32);
    tu_op_check_grid(" mul.hi.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_mulhi_u32);
    tu_op_check_grid(" mul.wide.s32 %out, %wa, %wb;", V, NV, 2, r_mulwide_s32);
    tu_op_check_grid(" mul.wide.u32 %out, %wa, %wb;", V, NV, 2, r_mulwide_u32);
    tu_op_check_grid(" mul.hi.u64 %out, %ra, %rb;", V, NV, 2, r_mulhi_u64);
    tu_op_check_grid(" mul.hi.s64 %out, %ra, %rb;", V, NV, 2, r_mulhi_s64);
    tu_op_check_grid(" mul.lo.s64 %out, %ra, %rb;", V, NV, 2, r_mul64);
    tu_op_check_grid(" mad.lo.s32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_madlo32);
    tu_op_check_grid(" mad.wide.s32 %out, %wa, %wb, %rc;", V, NV, 3, r_madwide_s32);
    tu_op_check_grid(" add.s16 %h0, %ha, %hb;" OUT16, V, NV, 2, r_add16);
    tu_op_check_grid(" mul.lo.u16 %h0, %ha, %hb;" OUT16, V, NV, 2, r_mullo16);
    tu_op_check_grid(" mul.wide.s16 %w0, %ha, %hb;" OUT32, V, NV, 2, r_mulwide_s16);
    tu_op_check_grid(" div.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_div_s32);
    tu_op_check_grid(" rem.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_rem_s32);
    tu_op_check_grid(" div.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_div_u32);
    tu_op_check_grid(" rem.u64 %out, %ra, %rb;", V, NV, 2, r_rem_u64);
    tu_op_check_grid(" div.s64 %out, %ra, %rb;", V, NV, 2, r_div_s64);
    tu_op_check_grid(" abs.s32 %w0, %wa;" OUT32, V, NV, 1, r_abs32);
    tu_op_check_grid(" neg.s32 %w0, %wa;" OUT32, V, NV, 1, r_neg32);
    tu_op_check_grid(" min.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_min_s32);
    tu_op_check_grid(" max.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_max_u32);
    tu_op_check_grid(" min.s64 %out, %ra, %rb;", V, NV, 2, r_min_s64);
    tu_op_check_grid(" max.s16 %h0, %ha, %hb;" OUT16, V, NV, 2, r_max_s16);
    tu_op_check_grid(" sad.u32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_sad_u32);
    tu_op_check_grid(" mul24.lo.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_mul24lo_s32);
    tu_op_check_grid(" mul24.hi.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_mul24hi_u32);
}

/* 64-bit add and subtract built from 32-bit halves with the carry flag */
REF(r_add64, a + b)
REF(r_sub64, a - b)
REF(r_mad_cc, (uint64_t)U32(a) * U32(b) + c)

static void test_carry(void **state)
{
    (void)state;
    tu_op_check_grid(" mov.b64 {%w0, %w1}, %ra; mov.b64 {%w2, %w3}, %rb;"
                     " add.cc.u32 %w4, %w0, %w2; addc.u32 %w5, %w1, %w3; mov.b64 %out, {%w4, %w5};",
                     V, NV, 2, r_add64);
    tu_op_check_grid(" mov.b64 {%w0, %w1}, %ra; mov.b64 {%w2, %w3}, %rb;"
                     " sub.cc.u32 %w4, %w0, %w2; subc.u32 %w5, %w1, %w3; mov.b64 %out, {%w4, %w5};",
                     V, NV, 2, r_sub64);
    /* 32x32+64 via mad.lo.cc / madc.hi */
    tu_op_check_grid(" mov.b64 {%w2, %w3}, %rc;"
                     " mad.lo.cc.u32 %w4, %wa, %wb, %w2; madc.hi.u32 %w5, %wa, %wb, %w3; mov.b64 %out, {%w4, %w5};",
                     V, NV, 3, r_mad_cc);
}

/* ------------------------------------------------------------------ bits */

static uint64_t brev(uint64_t v, int bits)
{
    uint64_t r = 0;
    for (int i = 0; i < bits; i++)
        r |= (v >> i & 1) << (bits - 1 - i);
    return r;
}
static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sg)
{
    pos &= 0xff, len &= 0xff;
    uint64_t v = bits == 64 ? a : a & 0xffffffffu, r = 0, sbit = 0;
    int msb = bits - 1;
    if (sg && len) {
        int sb = (int)(pos + len - 1) > msb ? msb : (int)(pos + len - 1);
        sbit = v >> sb & 1;
    }
    for (int i = 0; i <= msb; i++) {
        uint64_t bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb) ? v >> (pos + (uint32_t)i) & 1 : sbit;
        r |= bit << i;
    }
    return r;
}

REF(r_and, U32(a & b))
REF(r_or, U32(a | b))
REF(r_xor, U32(a ^ b))
REF(r_not, U32(~a))
REF(r_cnot, U32(a) == 0)
REF(r_popc32, (uint64_t)__builtin_popcount(U32(a)))
REF(r_popc64, (uint64_t)__builtin_popcountll(a))
REF(r_clz32, U32(a) ? (uint64_t)__builtin_clz(U32(a)) : 32)
REF(r_clz64, a ? (uint64_t)__builtin_clzll(a) : 64)
REF(r_bfind_u32, U32(a) ? (uint64_t)(31 - __builtin_clz(U32(a))) : 0xffffffffu)
REF(r_bfind_s32, (S32(a) < 0 ? ~U32(a) : U32(a)) ? (uint64_t)(31 - __builtin_clz(S32(a) < 0 ? ~U32(a) : U32(a))) : 0xffffffffu)
REF(r_bfind_sa, U32(a) ? (uint64_t)__builtin_clz(U32(a)) : 0xffffffffu)
REF(r_brev32, brev(U32(a), 32))
REF(r_bfe_u32, bfe(a, U32(b), U32(c), 32, 0))
REF(r_bfe_s32, bfe(a, U32(b), U32(c), 32, 1))
REF(r_bfe_s64, bfe(a, U32(b), U32(c), 64, 1))
static uint64_t r_bfi(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t pos = U32(c) & 0xff, len = U32(c >> 32) & 0xff, r = U32(b);
    for (uint32_t i = 0; i < len && pos + i < 32; i++)
        r = (r & ~(1u << (pos + i))) | ((U32(a) >> i & 1) << (pos + i));
    return r;
}
static uint64_t r_prmt(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t v = (uint64_t)U32(b) << 32 | U32(a);
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t sel = U32(c) >> (4 * k) & 15, byte = (uint32_t)(v >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = byte & 0x80 ? 0xff : 0;
        r |= byte << (8 * k);
    }
    return r;
}
REF(r_shl32, U32(b) >= 32 ? 0 : U32(U32(a) << U32(b)))
REF(r_shr_u32, U32(b) >= 32 ? 0 : U32(a) >> U32(b))
REF(r_shr_s32, U32(S32(a) >> (U32(b) >= 32 ? 31 : U32(b))))
REF(r_shl64, U32(b) >= 64 ? 0 : a << U32(b))
REF(r_shr_s64, (uint64_t)(S64(a) >> (U32(b) >= 64 ? 63 : U32(b))))
REF(r_shfl_wrap, U32((((uint64_t)U32(b) << 32 | U32(a)) << (U32(c) & 31)) >> 32))
REF(r_shfr_clamp, U32((((uint64_t)U32(b) << 32 | U32(a)) >> (U32(c) > 32 ? 32 : U32(c)))))
REF(r_lop3, U32((a & b) ^ (~a & c)))

static void test_bits(void **state)
{
    (void)state;
    tu_op_check_grid(" and.b32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_and);
    tu_op_check_grid(" or.b32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_or);
    tu_op_check_grid(" xor.b32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_xor);
    tu_op_check_grid(" not.b32 %w0, %wa;" OUT32, V, NV, 1, r_not);
    tu_op_check_grid(" cnot.b32 %w0, %wa;" OUT32, V, NV, 1, r_cnot);
    tu_op_check_grid(" popc.b32 %w0, %wa;" OUT32, V, NV, 1, r_popc32);
    tu_op_check_grid(" popc.b64 %w0, %ra;" OUT32, V, NV, 1, r_popc64);
    tu_op_check_grid(" clz.b32 %w0, %wa;" OUT32, V, NV, 1, r_clz32);
    tu_op_check_grid(" clz.b64 %w0, %ra;" OUT32, V, NV, 1, r_clz64);
    tu_op_check_grid(" bfind.u32 %w0, %wa;" OUT32, V, NV, 1, r_bfind_u32);
    tu_op_check_grid(" bfind.s32 %w0, %wa;" OUT32, V, NV, 1, r_bfind_s32);
    tu_op_check_grid(" bfind.shiftamt.u32 %w0, %wa;" OUT32, V, NV, 1, r_bfind_sa);
    tu_op_check_grid(" brev.b32 %w0, %wa;" OUT32, V, NV, 1, r_brev32);
    tu_op_check_grid(" bfe.u32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_bfe_u32);
    tu_op_check_grid(" bfe.s32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_bfe_s32);
    tu_op_check_grid(" bfe.s64 %out, %ra, %wb, %wc;", V, NV, 3, r_bfe_s64);
    tu_op_check_grid(" mov.b64 {%w1, %w2}, %rc; bfi.b32 %w0, %wa, %wb, %w1, %w2;" OUT32, V, NV, 3, r_bfi);
    tu_op_check_grid(" prmt.b32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_prmt);
    tu_op_check_grid(" shl.b32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_shl32);
    tu_op_check_grid(" shr.u32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_shr_u32);
    tu_op_check_grid(" shr.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_shr_s32);
    tu_op_check_grid(" shl.b64 %out, %ra, %wb;", V, NV, 2, r_shl64);
    tu_op_check_grid(" shr.s64 %out, %ra, %wb;", V, NV, 2, r_shr_s64);
    tu_op_check_grid(" shf.l.wrap.b32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_shfl_wrap);
    tu_op_check_grid(" shf.r.clamp.b32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_shfr_clamp);
    /* lop3 with LUT F(a,b,c) = (a & b) ^ (~a & c) = (0xF0 & 0xCC) ^ (~0xF0 & 0xAA) = 0xCA */
    tu_op_check_grid(" lop3.b32 %w0, %wa, %wb, %wc, 0xCA;" OUT32, V, NV, 3, r_lop3);
}

/* prmt modes on fixed operands: a = 0x33221100, b = 0x77665544 */
static void test_prmt_modes(void **state)
{
    (void)state;
    static const struct {
        const char *mode;
        uint32_t sel, want;
    } cases[] = {
        {"f4e", 0, 0x33221100}, {"f4e", 1, 0x44332211}, {"f4e", 3, 0x66554433}, {"b4e", 0, 0x55667700},
        {"b4e", 2, 0x77001122}, {"rc8", 2, 0x22222222}, {"ecl", 1, 0x33221111}, {"ecr", 2, 0x22221100},
        {"rc16", 1, 0x33223322},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[160];
        snprintf(body, sizeof body, " prmt.b32.%s %%w0, %%wa, %%wb, %%wc;%s", cases[i].mode, OUT32);
        uint64_t in[1][3] = {{0x33221100u, 0x77665544u, cases[i].sel}}, out[1];
        tu_op(body, (const uint64_t(*)[3])in, 1, out);
        if (out[0] != cases[i].want)
            fail_msg("prmt.%s sel %u: got 0x%08llx, expected 0x%08x", cases[i].mode, cases[i].sel,
                     (unsigned long long)out[0], cases[i].want);
    }
}

/* ------------------------------------------------- int conversions, moves */

REF(r_cvt_s32_s8, U32((int32_t)(int8_t)a))
REF(r_cvt_u16_u32, U16(a))
REF(r_cvt_s64_s32, (uint64_t)S64(S32(a)))
REF(r_cvt_u64_u32, U32(a))
REF(r_cvt_sat_s8_s32, U32((int32_t)(S32(a) > 127 ? 127 : S32(a) < -128 ? -128 : S32(a))) & 0xff)
REF(r_cvt_sat_u32_s32, U32(S32(a) < 0 ? 0 : S32(a)))
REF(r_cvt_sat_s32_u64, U32(a > INT32_MAX ? INT32_MAX : a))
REF(r_cvt_sat_u16_s64, S64(a) < 0 ? 0 : S64(a) > 65535 ? 65535 : a)
REF(r_pack, (U32(b) & 0xffff) << 16 | (U32(a) & 0xffff))
REF(r_unpack_hi, (a >> 32) & 0xffffffffu)
REF(r_u8_ld, a & 0xff)

static void test_int_convert(void **state)
{
    (void)state;
    tu_op_check_grid(" cvt.s32.s8 %w0, %wa;" OUT32, V, NV, 1, r_cvt_s32_s8);
    tu_op_check_grid(" cvt.u16.u32 %h0, %wa;" OUT16, V, NV, 1, r_cvt_u16_u32);
    tu_op_check_grid(" cvt.s64.s32 %out, %wa;", V, NV, 1, r_cvt_s64_s32);
    tu_op_check_grid(" cvt.u64.u32 %out, %wa;", V, NV, 1, r_cvt_u64_u32);
    tu_op_check_grid(" cvt.sat.s8.s32 %w0, %wa; and.b32 %w0, %w0, 255;" OUT32, V, NV, 1, r_cvt_sat_s8_s32);
    tu_op_check_grid(" cvt.sat.u32.s32 %w0, %wa;" OUT32, V, NV, 1, r_cvt_sat_u32_s32);
    tu_op_check_grid(" cvt.sat.s32.u64 %w0, %ra;" OUT32, V, NV, 1, r_cvt_sat_s32_u64);
    tu_op_check_grid(" cvt.sat.u16.s64 %h0, %ra; cvt.u64.u16 %out, %h0;", V, NV, 1, r_cvt_sat_u16_s64);
    tu_op_check_grid(" mov.b32 %w0, {%ha, %hb};" OUT32, V, NV, 2, r_pack);
    tu_op_check_grid(" mov.b64 {%w1, %w0}, %ra;" OUT32, V, NV, 1, r_unpack_hi);
    tu_op_check_grid(" cvt.u32.u8 %w0, %wa;" OUT32, V, NV, 1, r_u8_ld);
}

/* -------------------------------------------------------- compare/select */

REF(r_setp_lt_s32, S32(a) < S32(b))
REF(r_setp_lo_u32, U32(a) < U32(b))
REF(r_setp_hs_u64, a >= b)
REF(r_setp_ge_s16, S16(a) >= S16(b))
REF(r_setp_and, (S32(a) < S32(b)) && (U32(c) & 1))
REF(r_setp_or_not, (U32(a) == U32(b)) || !(U32(c) & 1))
REF(r_setp_pair, (uint64_t)(S32(a) > S32(b)) | (uint64_t)(!(S32(a) > S32(b))) << 1)
REF(r_selp, U32(c) & 1 ? U32(a) : U32(b))
REF(r_slct_s32, S32(c) >= 0 ? U32(a) : U32(b))
REF(r_set_u32, S32(a) <= S32(b) ? 0xffffffffu : 0)
REF(r_pred_logic, ((U32(a) & 1) ^ (U32(b) & 1)) | ((!(U32(c) & 1)) << 1))

static void test_compare(void **state)
{
    (void)state;
    tu_op_check_grid(" setp.lt.s32 %p0, %wa, %wb;" OUTP, V, NV, 2, r_setp_lt_s32);
    tu_op_check_grid(" setp.lo.u32 %p0, %wa, %wb;" OUTP, V, NV, 2, r_setp_lo_u32);
    tu_op_check_grid(" setp.hs.u64 %p0, %ra, %rb;" OUTP, V, NV, 2, r_setp_hs_u64);
    tu_op_check_grid(" setp.ge.s16 %p0, %ha, %hb;" OUTP, V, NV, 2, r_setp_ge_s16);
    tu_op_check_grid(" and.b32 %w1, %wc, 1; setp.ne.u32 %p1, %w1, 0; setp.lt.and.s32 %p0, %wa, %wb, %p1;" OUTP, V,
                     NV, 3, r_setp_and);
    tu_op_check_grid(" and.b32 %w1, %wc, 1; setp.ne.u32 %p1, %w1, 0; setp.eq.or.u32 %p0, %wa, %wb, !%p1;" OUTP, V,
                     NV, 3, r_setp_or_not);
    tu_op_check_grid(" setp.gt.s32 %p0|%p1, %wa, %wb; selp.u64 %q0, 1, 0, %p0; selp.u64 %q1, 2, 0, %p1;"
                     " or.b64 %out, %q0, %q1;",
                     V, NV, 2, r_setp_pair);
    tu_op_check_grid(" and.b32 %w1, %wc, 1; setp.ne.u32 %p1, %w1, 0; selp.b32 %w0, %wa, %wb, %p1;" OUT32, V, NV, 3,
                     r_selp);
    tu_op_check_grid(" slct.u32.s32 %w0, %wa, %wb, %wc;" OUT32, V, NV, 3, r_slct_s32);
    tu_op_check_grid(" set.le.u32.s32 %w0, %wa, %wb;" OUT32, V, NV, 2, r_set_u32);
    tu_op_check_grid(" and.b32 %w1, %wa, 1; setp.ne.u32 %p1, %w1, 0; and.b32 %w1, %wb, 1; setp.ne.u32 %p2, %w1, 0;"
                     " and.b32 %w1, %wc, 1; setp.ne.u32 %p3, %w1, 0;"
                     " xor.pred %p4, %p1, %p2; not.pred %p5, %p3; mov.pred %p6, 0; or.pred %p5, %p5, %p6;"
                     " selp.u64 %q0, 1, 0, %p4; selp.u64 %q1, 2, 0, %p5; or.b64 %out, %q0, %q1;",
                     V, NV, 3, r_pred_logic);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith),         cmocka_unit_test(test_carry),   cmocka_unit_test(test_bits),
        cmocka_unit_test(test_prmt_modes),    cmocka_unit_test(test_int_convert),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests_name("ptx_sem_int", tests, NULL, NULL);
}
