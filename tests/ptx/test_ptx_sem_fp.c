/*
 * test_ptx_sem_fp.c - floating-point instructions and conversions against
 * C reference values: IEEE arithmetic in every rounding mode (references
 * computed with the host's fesetround; this file is built with
 * -frounding-math), .ftz and .sat, min/max with NaN and signed zeros,
 * testp/copysign, the SFU approximations (within stated tolerances), every
 * cvt form nvcc emits (integer rounding with saturation and NaN -> 0,
 * int->float and f64->f32 in all four modes, round-to-integral, half and
 * bfloat16 both ways), and floating-point comparisons with unordered
 * operands.
 */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx_testutil.h"

#define F(x) tu_f32(x)
#define D(x) tu_f64(x)
#define AF tu_as_f32
#define AD tu_as_f64

static const float FV[] = {0.0f,  -0.0f,       1.0f,   -1.0f,   1.5f,    2.5f,   -2.5f,  3.0000002f, 1e-40f /* sub */,
                           -3e-39f, 1e30f,     -7e28f, 0.1f,    16777217.0f, 123456.789f, INFINITY, -INFINITY, NAN};
#define NF ((int)(sizeof FV / sizeof *FV))
static const double DV[] = {0.0, -0.0, 1.0, -1.0, 2.5, -3.5, 0.1, 1e300, -1e-310, 3.0000000000000004, 1e20,
                            -4503599627370497.0, INFINITY, NAN};
#define ND ((int)(sizeof DV / sizeof *DV))

static int same_f32(uint64_t got, float want)
{
    float g = AF(got);
    if (isnan(want))
        return isnan(g);
    return (uint32_t)got == (uint32_t)F(want);
}
static int same_f64(uint64_t got, double want)
{
    double g = AD(got);
    if (isnan(want))
        return isnan(g);
    return got == D(want);
}

typedef float (*fop32)(float a, float b, float c);
typedef double (*fop64)(double a, double b, double c);

/* Run body over all pairs (or triples) of FV values, compare with ref under
 * rounding mode `mode`. */
static void check32(const char *body, int nargs, int mode, fop32 ref)
{
    int n = NF * NF * (nargs > 2 ? 4 : 1);
    uint64_t (*in)[3] = calloc((size_t)n, sizeof *in), *out = calloc((size_t)n, 8);
    assert_true(in && out);
    for (int t = 0; t < n; t++) {
        in[t][0] = F(FV[t % NF]);
        in[t][1] = F(FV[(t / NF) % NF]);
        in[t][2] = F(FV[(t / NF / NF) * 3 % NF]);
    }
    tu_op(body, (const uint64_t(*)[3])in, n, out);
    for (int t = 0; t < n; t++) {
        float a = AF(in[t][0]), b = AF(in[t][1]), c = AF(in[t][2]);
        int old = fegetround();
        fesetround(mode);
        volatile float want = ref(a, b, c);
        fesetround(old);
        if (!same_f32(out[t], want))
            fail_msg("'%s' (%g, %g, %g): got %a, expected %a", body, a, b, c, AF(out[t]), want);
    }
    free(in);
    free(out);
}

static void check64(const char *body, int nargs, int mode, fop64 ref)
{
    int n = ND * ND * (nargs > 2 ? 3 : 1);
    uint64_t (*in)[3] = calloc((size_t)n, sizeof *in), *out = calloc((size_t)n, 8);
    assert_true(in && out);
    for (int t = 0; t < n; t++) {
        in[t][0] = D(DV[t % ND]);
        in[t][1] = D(DV[(t / ND) % ND]);
        in[t][2] = D(DV[(t / ND / ND) * 5 % ND]);
    }
    tu_op(body, (const uint64_t(*)[3])in, n, out);
    for (int t = 0; t < n; t++) {
        double a = AD(in[t][0]), b = AD(in[t][1]), c = AD(in[t][2]);
        int old = fegetround();
        fesetround(mode);
        volatile double want = ref(a, b, c);
        fesetround(old);
        if (!same_f64(out[t], want))
            fail_msg("'%s' (%g, %g, %g): got %a, expected %a", body, a, b, c, AD(out[t]), want);
    }
    free(in);
    free(out);
}

static float add32(float a, float b, float c) { (void)c; return a + b; }
static float sub32(float a, float b, float c) { (void)c; return a - b; }
static float mul32(float a, float b, float c) { (void)c; return a * b; }
static float div32(float a, float b, float c) { (void)c; return a / b; }
static float fma32(float a, float b, float c) { return fmaf(a, b, c); }
static float sqrt32(float a, float b, float c) { (void)b, (void)c; return sqrtf(a); }
static float rcp32(float a, float b, float c) { (void)b, (void)c; return 1.0f / a; }
static double add64(double a, double b, double c) { (void)c; return a + b; }
static double mul64(double a, double b, double c) { (void)c; return a * b; }
static double div64(double a, double b, double c) { (void)c; return a / b; }
static double fma64(double a, double b, double c) { return fma(a, b, c); }
static double sqrt64(double a, double b, double c) { (void)b, (void)c; return sqrt(a); }

#define O32 " mov.b32 %w0, %f0; cvt.u64.u32 %out, %w0;"
#define O64 " mov.b64 %out, %d0;"

static void test_rounding_modes(void **state)
{
    (void)state;
    static const struct {
        const char *m;
        int mode;
    } R[] = {{"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD}, {"rp", FE_UPWARD}};
    char b[160];
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, " add.%s.f32 %%f0, %%fa, %%fb;%s", R[i].m, O32);
        check32(b, 2, R[i].mode, add32);
        snprintf(b, sizeof b, " sub.%s.f32 %%f0, %%fa, %%fb;%s", R[i].m, O32);
        check32(b, 2, R[i].mode, sub32);
        snprintf(b, sizeof b, " mul.%s.f32 %%f0, %%fa, %%fb;%s", R[i].m, O32);
        check32(b, 2, R[i].mode, mul32);
        snprintf(b, sizeof b, " div.%s.f32 %%f0, %%fa, %%fb;%s", R[i].m, O32);
        check32(b, 2, R[i].mode, div32);
        snprintf(b, sizeof b, " fma.%s.f32 %%f0, %%fa, %%fb, %%fc;%s", R[i].m, O32);
        check32(b, 3, R[i].mode, fma32);
        snprintf(b, sizeof b, " sqrt.%s.f32 %%f0, %%fa;%s", R[i].m, O32);
        check32(b, 1, R[i].mode, sqrt32);
        snprintf(b, sizeof b, " rcp.%s.f32 %%f0, %%fa;%s", R[i].m, O32);
        check32(b, 1, R[i].mode, rcp32);
        snprintf(b, sizeof b, " add.%s.f64 %%d0, %%da, %%db;%s", R[i].m, O64);
        check64(b, 2, R[i].mode, add64);
        snprintf(b, sizeof b, " mul.%s.f64 %%d0, %%da, %%db;%s", R[i].m, O64);
        check64(b, 2, R[i].mode, mul64);
        snprintf(b, sizeof b, " div.%s.f64 %%d0, %%da, %%db;%s", R[i].m, O64);
        check64(b, 2, R[i].mode, div64);
        snprintf(b, sizeof b, " fma.%s.f64 %%d0, %%da, %%db, %%dc;%s", R[i].m, O64);
        check64(b, 3, R[i].mode, fma64);
        snprintf(b, sizeof b, " sqrt.%s.f64 %%d0, %%da;%s", R[i].m, O64);
        check64(b, 1, R[i].mode, sqrt64);
    }
    /* unrounded forms are round-to-nearest */
    check32(" add.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, add32);
    check32(" mul.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, mul32);
    check32(" mad.rn.f32 %f0, %fa, %fb, %fc;" O32, 3, FE_TONEAREST, fma32);
    check32(" div.full.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, div32);
}

static float ftz(float v) { return fpclassify(v) == FP_SUBNORMAL ? copysignf(0, v) : v; }
static float add_ftz(float a, float b, float c) { (void)c; return ftz(ftz(a) + ftz(b)); }
static float mul_sat(float a, float b, float c)
{
    (void)c;
    float r = a * b;
    return isnan(r) ? 0.0f : r < 0 ? 0.0f : r > 1 ? 1.0f : r;
}
static float min32(float a, float b, float c)
{
    (void)c;
    if (isnan(a) && isnan(b))
        return NAN;
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}
static float max_nan(float a, float b, float c)
{
    (void)c;
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static float abs32(float a, float b, float c) { (void)b, (void)c; return fabsf(a); }
static float neg32(float a, float b, float c) { (void)b, (void)c; return -a; }
static float cps32(float a, float b, float c) { (void)c; return copysignf(b, a); }

static void test_ftz_sat_minmax(void **state)
{
    (void)state;
    check32(" add.ftz.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, add_ftz);
    check32(" mul.sat.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, mul_sat);
    check32(" min.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, min32);
    check32(" max.NaN.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, max_nan);
    check32(" abs.f32 %f0, %fa;" O32, 1, FE_TONEAREST, abs32);
    check32(" neg.f32 %f0, %fa;" O32, 1, FE_TONEAREST, neg32);
    check32(" copysign.f32 %f0, %fa, %fb;" O32, 2, FE_TONEAREST, cps32);
}

/* SFU approximations: the emulator uses the C library (more accurate than
 * the hardware); check against double-precision references. */
static void test_sfu(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        double (*f)(double);
        double rel, abs;
    } S[] = {
        {" sin.approx.f32 %f0, %fa;" O32, sin, 0, 2e-7},
        {" cos.approx.ftz.f32 %f0, %fa;" O32, cos, 0, 2e-7},
        {" ex2.approx.f32 %f0, %fa;" O32, exp2, 2e-7, 0},
        {" lg2.approx.f32 %f0, %fa;" O32, log2, 0, 2e-7},
        {" tanh.approx.f32 %f0, %fa;" O32, tanh, 2e-7, 1e-7},
    };
    enum { N = 200 };
    uint64_t in[N][3], out[N];
    for (int t = 0; t < N; t++)
        in[t][0] = F((float)(t + 1) * 0.0625f - 3.0f), in[t][1] = in[t][2] = 0;
    for (size_t k = 0; k < sizeof S / sizeof *S; k++) {
        tu_op(S[k].body, (const uint64_t(*)[3])in, N, out);
        for (int t = 0; t < N; t++) {
            double x = AF(in[t][0]);
            if (S[k].f == log2 && x <= 0)
                continue;
            double want = S[k].f(x), got = AF(out[t]);
            if (fabs(got - want) > S[k].abs + S[k].rel * fabs(want))
                fail_msg("'%s' (%g): got %.9g, expected %.9g", S[k].body, x, got, want);
        }
    }
    /* rsqrt and rcp.approx within 1 ulp */
    uint64_t out2[N];
    tu_op(" rsqrt.approx.f32 %f0, %fa; mov.b32 %w0, %f0; cvt.u64.u32 %out, %w0;", (const uint64_t(*)[3])in, N, out2);
    for (int t = 0; t < N; t++) {
        float x = AF(in[t][0]);
        if (x <= 0)
            continue;
        float want = (float)(1.0 / sqrt((double)x)), got = AF(out2[t]);
        assert_true(fabsf(got - want) <= nextafterf(want, INFINITY) - want);
    }
}

/* --------------------------------------------------------------- cvt */

static void cvt_case(const char *body, uint64_t a, uint64_t want)
{
    uint64_t in[1][3] = {{a, 0, 0}}, out[1];
    tu_op(body, (const uint64_t(*)[3])in, 1, out);
    if (out[0] != want)
        fail_msg("'%s' with 0x%llx: got 0x%llx, expected 0x%llx", body, (unsigned long long)a,
                 (unsigned long long)out[0], (unsigned long long)want);
}

#define TOI32 " cvt.u64.u32 %out, %w0;"
static void test_cvt_float_int(void **state)
{
    (void)state;
    /* integer rounding of a float */
    cvt_case(" cvt.rni.s32.f32 %w0, %fa;" TOI32, F(2.5f), 2);
    cvt_case(" cvt.rni.s32.f32 %w0, %fa;" TOI32, F(3.5f), 4);
    cvt_case(" cvt.rni.s32.f32 %w0, %fa;" TOI32, F(-2.5f), (uint32_t)-2);
    cvt_case(" cvt.rzi.s32.f32 %w0, %fa;" TOI32, F(-2.7f), (uint32_t)-2);
    cvt_case(" cvt.rmi.s32.f32 %w0, %fa;" TOI32, F(-2.1f), (uint32_t)-3);
    cvt_case(" cvt.rpi.s32.f32 %w0, %fa;" TOI32, F(2.1f), 3);
    /* saturation and NaN */
    cvt_case(" cvt.rzi.s32.f32 %w0, %fa;" TOI32, F(1e10f), 0x7fffffff);
    cvt_case(" cvt.rzi.s32.f32 %w0, %fa;" TOI32, F(-1e10f), 0x80000000u);
    cvt_case(" cvt.rzi.s32.f32 %w0, %fa;" TOI32, F(NAN), 0);
    cvt_case(" cvt.rzi.u32.f32 %w0, %fa;" TOI32, F(-5.0f), 0);
    cvt_case(" cvt.rzi.u32.f32 %w0, %fa;" TOI32, F(INFINITY), 0xffffffffu);
    cvt_case(" cvt.rzi.s64.f64 %out, %da;", D(-1e30), 0x8000000000000000ull);
    cvt_case(" cvt.rzi.u64.f64 %out, %da;", D(1e30), ~0ull);
    cvt_case(" cvt.rni.u64.f64 %out, %da;", D(4503599627370497.0), 4503599627370497ull);
    cvt_case(" cvt.rzi.s16.f32 %h0, %fa; cvt.u64.u16 %out, %h0;", F(40000.0f), 0x7fff);
    /* int -> float in every mode: 2^24 + 1 is not representable */
    cvt_case(" cvt.rn.f32.s32 %f0, %wa;" O32, 16777217, F(16777216.0f));
    cvt_case(" cvt.rz.f32.s32 %f0, %wa;" O32, 16777219, F(16777218.0f));
    cvt_case(" cvt.rm.f32.s32 %f0, %wa;" O32, (uint32_t)-16777217, F(-16777218.0f));
    cvt_case(" cvt.rp.f32.s32 %f0, %wa;" O32, 16777217, F(16777218.0f));
    cvt_case(" cvt.rn.f32.u32 %f0, %wa;" O32, 0xffffffffu, F(4294967296.0f));
    cvt_case(" cvt.rz.f32.u64 %f0, %ra;" O32, ~0ull, F(18446742974197923840.0f));
    cvt_case(" cvt.rn.f64.s64 %d0, %ra;" O64, (uint64_t)-9007199254740993ll, D(-9007199254740992.0));
    cvt_case(" cvt.rp.f64.u64 %d0, %ra;" O64, 9007199254740993ull, D(9007199254740994.0));
}

static void test_cvt_float_float(void **state)
{
    (void)state;
    double x = 1.0 + 0x1.8p-24; /* between two floats, above the midpoint */
    cvt_case(" cvt.rn.f32.f64 %f0, %da;" O32, D(x), F(1.0f + 0x1p-23f));
    cvt_case(" cvt.rz.f32.f64 %f0, %da;" O32, D(x), F(1.0f));
    cvt_case(" cvt.rm.f32.f64 %f0, %da;" O32, D(-x), F(-1.0f - 0x1p-23f));
    cvt_case(" cvt.rp.f32.f64 %f0, %da;" O32, D(1.0 + 0x1p-40), F(1.0f + 0x1p-23f));
    cvt_case(" cvt.rn.f32.f64 %f0, %da;" O32, D(1e300), F(INFINITY));
    cvt_case(" cvt.rz.f32.f64 %f0, %da;" O32, D(1e300), F(3.40282347e38f));
    cvt_case(" cvt.f64.f32 %d0, %fa;" O64, F(0.1f), D((double)0.1f));
    cvt_case(" cvt.rni.f32.f32 %f0, %fa;" O32, F(2.5f), F(2.0f));
    cvt_case(" cvt.rzi.f32.f32 %f0, %fa;" O32, F(-2.7f), F(-2.0f));
    cvt_case(" cvt.rmi.f32.f32 %f0, %fa;" O32, F(-2.1f), F(-3.0f));
    cvt_case(" cvt.rpi.f64.f64 %d0, %da;" O64, D(2.000001), D(3.0));
    cvt_case(" cvt.sat.f32.f32 %f0, %fa;" O32, F(1.5f), F(1.0f));
    cvt_case(" cvt.sat.f32.f32 %f0, %fa;" O32, F(-0.5f), F(0.0f));
    cvt_case(" cvt.sat.f32.f32 %f0, %fa;" O32, F(NAN), F(0.0f));
    cvt_case(" cvt.ftz.f32.f32 %f0, %fa;" O32, F(1e-40f), F(0.0f));
    cvt_case(" cvt.ftz.f32.f32 %f0, %fa;" O32, F(-1e-40f), F(-0.0f));
}

#define TOH16 " cvt.u64.u16 %out, %h0;"
static void test_cvt_half(void **state)
{
    (void)state;
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(1.0f), 0x3c00);
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(-2.0f), 0xc000);
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(65504.0f), 0x7bff);
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(65520.0f), 0x7c00);  /* rounds up to infinity */
    cvt_case(" cvt.rz.f16.f32 %h0, %fa;" TOH16, F(65520.0f), 0x7bff);  /* toward zero: largest finite */
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(0.1f), 0x2e66);
    cvt_case(" cvt.rp.f16.f32 %h0, %fa;" TOH16, F(0.1f), 0x2e67);
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(5.96e-8f), 0x0001);  /* smallest subnormal */
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(2.9e-8f), 0x0000);   /* below half of it */
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(1.0f + 0x1p-11f), 0x3c00); /* tie to even */
    cvt_case(" cvt.rn.f16.f32 %h0, %fa;" TOH16, F(NAN), 0x7e00);
    cvt_case(" cvt.f32.f16 %f0, %ha;" O32, 0x3555, F(0.333251953125f));
    cvt_case(" cvt.f32.f16 %f0, %ha;" O32, 0x0001, F(0x1p-24f));
    cvt_case(" cvt.f32.f16 %f0, %ha;" O32, 0xfc00, F(-INFINITY));
    cvt_case(" cvt.rn.bf16.f32 %h0, %fa;" TOH16, F(1.0f), 0x3f80);
    cvt_case(" cvt.rn.bf16.f32 %h0, %fa;" TOH16, F(1.00390625f), 0x3f80); /* tie to even */
    cvt_case(" cvt.rn.bf16.f32 %h0, %fa;" TOH16, F(1.01171875f), 0x3f82); /* tie to even, up */
    cvt_case(" cvt.rz.bf16.f32 %h0, %fa;" TOH16, F(-1.0078125f), 0xbf81);
    cvt_case(" cvt.f32.bf16 %f0, %ha;" O32, 0xc2f7, F(-123.5f));
    /* two floats into a packed pair (sm_80 PTX): a high, b low */
    {
        uint64_t in[1][3] = {{F(1.0f), F(-2.0f), 0}}, out[1];
        tu_op(" cvt.rn.f16x2.f32 %w0, %fa, %fb;" TOI32, (const uint64_t(*)[3])in, 1, out);
        assert_int_equal(out[0], 0x3c00c000u);
        tu_op(" cvt.rn.bf16x2.f32 %w0, %fa, %fb;" TOI32, (const uint64_t(*)[3])in, 1, out);
        assert_int_equal(out[0], 0x3f80c000u);
    }
    /* half arithmetic */
    cvt_case(" mov.b16 %h1, 0x3c00; add.f16 %h0, %ha, %h1;" TOH16, 0x4000, 0x4200); /* 2 + 1 = 3 */
    cvt_case(" mul.rn.f16 %h0, %ha, %ha;" TOH16, 0x3e00, 0x4080);                   /* 1.5^2 = 2.25 */
    cvt_case(" mov.b32 %w1, 0x3c004000; add.f16x2 %w0, %wa, %w1;" TOI32, 0x40003c00, 0x42004200);
}

/* ------------------------------------------------------ float compare */

static void test_fcompare(void **state)
{
    (void)state;
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu",
                                        "num", "nan"};
    int n = NF * NF;
    uint64_t (*in)[3] = calloc((size_t)n, sizeof *in), *out = calloc((size_t)n, 8);
    assert_true(in && out);
    for (int t = 0; t < n; t++) {
        in[t][0] = F(FV[t % NF]);
        in[t][1] = F(FV[t / NF]);
    }
    for (int k = 0; k < 14; k++) {
        char body[128];
        snprintf(body, sizeof body, " setp.%s.f32 %%p0, %%fa, %%fb; selp.u64 %%out, 1, 0, %%p0;", names[k]);
        tu_op(body, (const uint64_t(*)[3])in, n, out);
        for (int t = 0; t < n; t++) {
            float a = AF(in[t][0]), b = AF(in[t][1]);
            int un = isnan(a) || isnan(b), r;
            switch (k) {
            case 0: r = !un && a == b; break;
            case 1: r = !un && a != b; break;
            case 2: r = !un && a < b; break;
            case 3: r = !un && a <= b; break;
            case 4: r = !un && a > b; break;
            case 5: r = !un && a >= b; break;
            case 6: r = un || a == b; break;
            case 7: r = un || a != b; break;
            case 8: r = un || a < b; break;
            case 9: r = un || a <= b; break;
            case 10: r = un || a > b; break;
            case 11: r = un || a >= b; break;
            case 12: r = !un; break;
            default: r = un; break;
            }
            if (out[t] != (uint64_t)r)
                fail_msg("setp.%s.f32 %g, %g: got %llu", names[k], a, b, (unsigned long long)out[t]);
        }
    }
    free(in);
    free(out);
    /* testp and slct.f32 */
    cvt_case(" testp.subnormal.f32 %p0, %fa; selp.u64 %out, 1, 0, %p0;", F(1e-40f), 1);
    cvt_case(" testp.finite.f32 %p0, %fa; selp.u64 %out, 1, 0, %p0;", F(INFINITY), 0);
    cvt_case(" testp.notanumber.f64 %p0, %da; selp.u64 %out, 1, 0, %p0;", D(NAN), 1);
    cvt_case(" mov.f32 %f1, 0fBF800000; slct.u32.f32 %w0, 7, 9, %f1;" TOI32, 0, 9);
    cvt_case(" mov.f32 %f1, 0f00000000; slct.u32.f32 %w0, 7, 9, %f1;" TOI32, 0, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounding_modes), cmocka_unit_test(test_ftz_sat_minmax), cmocka_unit_test(test_sfu),
        cmocka_unit_test(test_cvt_float_int),  cmocka_unit_test(test_cvt_float_float), cmocka_unit_test(test_cvt_half),
        cmocka_unit_test(test_fcompare),
    };
    return cmocka_run_group_tests_name("ptx_sem_fp", tests, NULL, NULL);
}
