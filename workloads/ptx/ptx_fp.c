/*
 * ptx_fp.c - the floating-point corners: cvt in all its forms, directed
 * rounding (.rz/.rm/.rp), and half precision (f16, bf16 and their x2 pairs).
 *
 * Directed rounding uses the host's IEEE rounding modes through fesetround
 * around the lane loop; this file is compiled with -frounding-math so the
 * compiler keeps the arithmetic inside the mode change.  That is exact for
 * add, sub, mul, div, sqrt and fma (IEEE requires correct rounding in every
 * mode) and for int<->float conversions.
 *
 * Half precision values are rounded from double by hand (to_half): the
 * double holds any f16/bf16/f32 operand and the exact result of an add, sub
 * or mul of two halves, so one rounding gives the correctly rounded half
 * (fma of halves is rounded twice, which can differ in the last bit in rare
 * ties).  Float-to-integer cvt saturates to the destination range and maps
 * NaN to 0, as the PTX ISA manual specifies for cvt; .sat on float results
 * clamps to [0, 1]; .ftz flushes subnormal inputs and results to zero of
 * the same sign.
 */
#include <fenv.h>
#include <math.h>

#include "ptx_exec.h"

static int host_mode(int rnd)
{
    switch (rnd) {
    case PTX_RND_RZ: case PTX_RND_RZI: return FE_TOWARDZERO;
    case PTX_RND_RM: case PTX_RND_RMI: return FE_DOWNWARD;
    case PTX_RND_RP: case PTX_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* ---- half precision ---- */

/* Round a double to f16 (mb=10, eb=5) or bf16 (mb=7, eb=8) with a PTX mode. */
static uint16_t to_half(double d, int rnd, int mb, int eb)
{
    int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
    uint16_t sign = signbit(d) ? (uint16_t)(1u << (mb + eb)) : 0;
    if (isnan(d))
        return (uint16_t)(sign | (uint16_t)(emax << mb) | (uint16_t)(1u << (mb - 1)));
    double a = fabs(d);
    if (isinf(a))
        return (uint16_t)(sign | (uint16_t)(emax << mb));
    if (a == 0)
        return sign;
    int e;
    (void)frexp(a, &e);
    int E = e - 1, emin = 1 - bias;
    int q = (E >= emin ? E : emin) - mb;
    double s = ldexp(a, -q);
    double ip = floor(s), fr = s - ip;
    int neg = sign != 0;
    switch (rnd) {
    case PTX_RND_RZ: break;
    case PTX_RND_RM: if (neg && fr > 0) ip += 1; break;
    case PTX_RND_RP: if (!neg && fr > 0) ip += 1; break;
    default:
        if (fr > 0.5 || (fr == 0.5 && fmod(ip, 2.0) != 0))
            ip += 1;
        break;
    }
    uint32_t mant = (uint32_t)ip;
    if (E < emin)
        return (uint16_t)(sign | mant); /* subnormal (mant == 1<<mb becomes the smallest normal) */
    if (mant == (1u << (mb + 1))) {
        mant >>= 1;
        E++;
    }
    int be = E + bias;
    if (be >= emax) {
        int to_inf = rnd == PTX_RND_RZ ? 0 : rnd == PTX_RND_RM ? neg : rnd == PTX_RND_RP ? !neg : 1;
        if (to_inf)
            return (uint16_t)(sign | (uint16_t)(emax << mb));
        return (uint16_t)(sign | (uint16_t)((emax - 1) << mb) | (uint16_t)((1u << mb) - 1));
    }
    return (uint16_t)(sign | (uint16_t)(be << mb) | (uint16_t)(mant & ((1u << mb) - 1)));
}

static double from_half(uint16_t h, int mb, int eb)
{
    int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
    int sign = h >> (mb + eb) & 1, be = h >> mb & emax;
    uint32_t man = h & ((1u << mb) - 1);
    double v;
    if (be == emax)
        v = man ? NAN : INFINITY;
    else if (be == 0)
        v = ldexp((double)man, 1 - bias - mb);
    else
        v = ldexp((double)(man | (1u << mb)), be - bias - mb);
    return sign ? -v : v;
}

uint16_t ptx_f32_to_f16(float f, int rnd) { return to_half(f, rnd, 10, 5); }
float ptx_f16_to_f32(uint16_t h) { return (float)from_half(h, 10, 5); }
uint16_t ptx_f32_to_bf16(float f, int rnd) { return to_half(f, rnd, 7, 8); }
float ptx_bf16_to_f32(uint16_t h) { return (float)from_half(h, 7, 8); }

static int half_arith(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type;
    int bf = ty == PTX_T_BF16 || ty == PTX_T_BF16X2, pairs = ty == PTX_T_F16X2 || ty == PTX_T_BF16X2 ? 2 : 1;
    int mb = bf ? 7 : 10, eb = bf ? 8 : 5;
    int rnd = in->rnd ? in->rnd : PTX_RND_RN, sat = (in->flags & PTX_F_SAT) != 0;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    const uint64_t *b = in->nopnd > 2 ? ex_src(x, 2) : NULL;
    const uint64_t *c = in->nopnd > 3 ? ex_src(x, 3) : NULL;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD: case PTX_OP_NEG:
    case PTX_OP_ABS: case PTX_OP_MIN: case PTX_OP_MAX:
        break;
    default:
        return ex_fail(x, -1, "unsupported half-precision operation '%s'", x->c->m->mnems[in->mnem]);
    }
    LANES(x->mask, {
        uint64_t r = 0;
        for (int k = 0; k < pairs; k++) {
            uint16_t ha = (uint16_t)(a[l] >> (16 * k)), hb = b ? (uint16_t)(b[l] >> (16 * k)) : 0;
            uint16_t hc = c ? (uint16_t)(c[l] >> (16 * k)) : 0;
            double u = from_half(ha, mb, eb), v = from_half(hb, mb, eb), w = from_half(hc, mb, eb), o;
            uint16_t h;
            int bitop = 1;
            switch (in->op) {
            case PTX_OP_NEG: h = (uint16_t)(ha ^ 0x8000); break;
            case PTX_OP_ABS: h = (uint16_t)(ha & 0x7fff); break;
            default: bitop = 0; h = 0; break;
            }
            if (!bitop) switch (in->op) {
            case PTX_OP_ADD: o = u + v; break;
            case PTX_OP_SUB: o = u - v; break;
            case PTX_OP_MUL: o = u * v; break;
            case PTX_OP_MIN: case PTX_OP_MAX:
                if (isnan(u) || isnan(v))
                    o = isnan(u) ? v : u;
                else
                    o = (u < v) == (in->op == PTX_OP_MIN) ? u : v;
                break;
            default: o = fma(u, v, w); break;
            }
            if (!bitop) {
                if (sat)
                    o = isnan(o) ? 0.0 : o < 0 ? 0.0 : o > 1 ? 1.0 : o;
                h = to_half(o, rnd, mb, eb);
            }
            r |= (uint64_t)h << (16 * k);
        }
        d[l] = r;
    });
    return 0;
}

/* ---- directed rounding for f32/f64 ---- */

int ptx_exec_fp_slow(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type;
    if (ty != PTX_T_F32 && ty != PTX_T_F64)
        return half_arith(x);
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    const uint64_t *b = in->nopnd > 2 ? ex_src(x, 2) : NULL;
    const uint64_t *c = in->nopnd > 3 ? ex_src(x, 3) : NULL;
    int op = in->op;
    if (op != PTX_OP_ADD && op != PTX_OP_SUB && op != PTX_OP_MUL && op != PTX_OP_FMA && op != PTX_OP_MAD &&
        op != PTX_OP_DIV && op != PTX_OP_RCP && op != PTX_OP_SQRT)
        return ex_fail(x, -1, "unsupported rounding in '%s'", x->c->m->mnems[in->mnem]);
    int old = fegetround();
    fesetround(host_mode(in->rnd));
    if (ty == PTX_T_F32) {
        LANES(x->mask, {
            float u = ex_f32(a[l]), v = b ? ex_f32(b[l]) : 0, w = c ? ex_f32(c[l]) : 0, o;
            if (ftz)
                u = ex_ftz32(u), v = ex_ftz32(v), w = ex_ftz32(w);
            switch (op) {
            case PTX_OP_ADD: o = u + v; break;
            case PTX_OP_SUB: o = u - v; break;
            case PTX_OP_MUL: o = u * v; break;
            case PTX_OP_DIV: o = u / v; break;
            case PTX_OP_RCP: o = 1.0f / u; break;
            case PTX_OP_SQRT: o = sqrtf(u); break;
            default: o = fmaf(u, v, w); break;
            }
            if (ftz)
                o = ex_ftz32(o);
            if (sat)
                o = isnan(o) ? 0.0f : o < 0 ? 0.0f : o > 1 ? 1.0f : o;
            d[l] = ex_bf32(o);
        });
    } else {
        LANES(x->mask, {
            double u = ex_f64(a[l]), v = b ? ex_f64(b[l]) : 0, w = c ? ex_f64(c[l]) : 0, o;
            if (ftz)
                u = ex_ftz64(u), v = ex_ftz64(v), w = ex_ftz64(w);
            switch (op) {
            case PTX_OP_ADD: o = u + v; break;
            case PTX_OP_SUB: o = u - v; break;
            case PTX_OP_MUL: o = u * v; break;
            case PTX_OP_DIV: o = u / v; break;
            case PTX_OP_RCP: o = 1.0 / u; break;
            case PTX_OP_SQRT: o = sqrt(u); break;
            default: o = fma(u, v, w); break;
            }
            if (ftz)
                o = ex_ftz64(o);
            if (sat)
                o = isnan(o) ? 0.0 : o < 0 ? 0.0 : o > 1 ? 1.0 : o;
            d[l] = ex_bf64(o);
        });
    }
    fesetround(old);
    return 0;
}

/* ---- cvt ---- */

/* Read operand value of type at as double (floats) */
static double read_f(uint64_t v, int at)
{
    switch (at) {
    case PTX_T_F32: return ex_f32(v);
    case PTX_T_F64: return ex_f64(v);
    case PTX_T_F16: return from_half((uint16_t)v, 10, 5);
    case PTX_T_BF16: return from_half((uint16_t)v, 7, 8);
    default: return 0;
    }
}

/* Integer range of a type as doubles (exact powers of two). */
static void int_range(int ty, double *lo, double *hi_excl)
{
    int bits = 8 * ptx_types[ty].size;
    if (ptx_types[ty].kind == 's') {
        *lo = -ldexp(1.0, bits - 1);
        *hi_excl = ldexp(1.0, bits - 1);
    } else {
        *lo = 0;
        *hi_excl = ldexp(1.0, bits);
    }
}

int ptx_exec_cvt(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int dt = in->type, at = in->type2;
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) { /* two f32 into a packed pair: a high, b low */
        int bf = dt == PTX_T_BF16X2, rnd = in->rnd ? in->rnd : PTX_RND_RN;
        uint64_t *d = ex_reg(x, x->o[0].reg);
        const uint64_t *a = ex_src(x, 1), *b = ex_src(x, 2);
        LANES(x->mask, {
            uint32_t hi = to_half(ex_f32(a[l]), rnd, bf ? 7 : 10, bf ? 8 : 5);
            uint32_t lo = to_half(ex_f32(b[l]), rnd, bf ? 7 : 10, bf ? 8 : 5);
            d[l] = hi << 16 | lo;
        });
        return 0;
    }
    int ds = ptx_types[dt].size, as = ptx_types[at].size;
    int fd = ptx_types[dt].kind == 'f', fa = ptx_types[at].kind == 'f';
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    int rnd = in->rnd;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    uint32_t mask = x->mask;
    uint64_t DM = ex_tmask(ds);
    if (!fd && !fa) { /* integer to integer */
        int sa = ptx_types[at].kind == 's', sd = ptx_types[dt].kind == 's';
        if (!sat) {
            if (sa)
                LANES(mask, d[l] = (uint64_t)ex_sx(a[l], as) & DM);
            else
                LANES(mask, d[l] = a[l] & ex_tmask(as) & DM);
            if (sd && ds < 8) /* a signed result fills a wider register with its sign */
                LANES(mask, d[l] = (uint64_t)ex_sx(d[l], ds));
            return 0;
        }
        double lo, hi;
        int_range(dt, &lo, &hi);
        (void)lo;
        LANES(mask, {
            if (sa) {
                __int128 v = ex_sx(a[l], as);
                __int128 mn = sd ? -((__int128)1 << (8 * ds - 1)) : 0;
                __int128 mx = sd ? ((__int128)1 << (8 * ds - 1)) - 1 : ((__int128)1 << (8 * ds)) - 1;
                v = v < mn ? mn : v > mx ? mx : v;
                d[l] = (uint64_t)v & DM;
            } else {
                unsigned __int128 v = a[l] & ex_tmask(as);
                unsigned __int128 mx = sd ? ((unsigned __int128)1 << (8 * ds - 1)) - 1
                                          : ((unsigned __int128)1 << (8 * ds)) - 1;
                d[l] = (uint64_t)(v > mx ? mx : v) & DM;
            }
        });
        if (sd && ds < 8)
            LANES(mask, d[l] = (uint64_t)ex_sx(d[l], ds));
        return 0;
    }
    if (fa && !fd) { /* float to integer: round, saturate, NaN -> 0 */
        double lo, hi;
        int_range(dt, &lo, &hi);
        LANES(mask, {
            double v = read_f(a[l], at);
            if (ftz)
                v = at == PTX_T_F32 ? ex_ftz32((float)v) : ex_ftz64(v);
            switch (rnd) {
            case PTX_RND_RNI: v = nearbyint(v); break;
            case PTX_RND_RMI: v = floor(v); break;
            case PTX_RND_RPI: v = ceil(v); break;
            default: v = trunc(v); break;
            }
            uint64_t r;
            if (isnan(v))
                r = 0;
            else if (v < lo)
                r = (uint64_t)(int64_t)lo;
            else if (v >= hi)
                r = ptx_types[dt].kind == 's' ? (uint64_t)((1ull << (8 * ds - 1)) - 1) : DM;
            else if (ptx_types[dt].kind == 's')
                r = (uint64_t)(int64_t)v;
            else
                r = (uint64_t)v;
            d[l] = ptx_types[dt].kind == 's' ? (uint64_t)ex_sx(r, ds) : r & DM;
        });
        return 0;
    }
    int old = fegetround();
    if (!fa) { /* integer to float */
        int sa = ptx_types[at].kind == 's';
        fesetround(host_mode(rnd));
        LANES(mask, {
            uint64_t r;
            if (dt == PTX_T_F32) {
                float v = sa ? (float)ex_sx(a[l], as) : (float)(a[l] & ex_tmask(as));
                if (sat)
                    v = v < 0 ? 0.0f : v > 1 ? 1.0f : v;
                r = ex_bf32(v);
            } else if (dt == PTX_T_F64) {
                double v = sa ? (double)ex_sx(a[l], as) : (double)(a[l] & ex_tmask(as));
                if (sat)
                    v = v < 0 ? 0.0 : v > 1 ? 1.0 : v;
                r = ex_bf64(v);
            } else {
                fesetround(FE_TONEAREST);
                double v = sa ? (double)ex_sx(a[l], as) : (double)(a[l] & ex_tmask(as));
                fesetround(host_mode(rnd));
                r = to_half(v, rnd ? rnd : PTX_RND_RN, dt == PTX_T_BF16 ? 7 : 10, dt == PTX_T_BF16 ? 8 : 5);
            }
            d[l] = r;
        });
        fesetround(old);
        return 0;
    }
    /* float to float */
    int integral = rnd >= PTX_RND_RNI;
    fesetround(integral ? FE_TONEAREST : host_mode(rnd));
    LANES(mask, {
        double v = read_f(a[l], at);
        if (ftz && (at == PTX_T_F32 || at == PTX_T_F64))
            v = at == PTX_T_F32 ? ex_ftz32((float)v) : ex_ftz64(v);
        if (integral) {
            switch (rnd) {
            case PTX_RND_RNI: v = nearbyint(v); break;
            case PTX_RND_RMI: v = floor(v); break;
            case PTX_RND_RPI: v = ceil(v); break;
            default: v = trunc(v); break;
            }
        }
        if (sat)
            v = isnan(v) ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : v;
        uint64_t r;
        if (dt == PTX_T_F32) {
            float f = (float)v; /* rounds in the current mode */
            if (ftz)
                f = ex_ftz32(f);
            r = ex_bf32(f);
        } else if (dt == PTX_T_F64) {
            r = ex_bf64(ftz ? ex_ftz64(v) : v);
        } else {
            r = to_half(v, rnd && !integral ? rnd : PTX_RND_RN, dt == PTX_T_BF16 ? 7 : 10, dt == PTX_T_BF16 ? 8 : 5);
        }
        d[l] = r;
    });
    fesetround(old);
    return 0;
}
