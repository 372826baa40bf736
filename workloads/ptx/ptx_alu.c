/*
 * ptx_alu.c - operand fetch, the instruction dispatch, and the single/double
 * precision arithmetic, comparisons, selection and moves of the SIMT
 * executor (integer arithmetic and bit operations: ptx_alu_int.c).
 *
 * Every case is one loop over the executing lanes (LANES in ptx_exec.h)
 * on structure-of-arrays registers; immediates, special registers and
 * symbol addresses are broadcast into a scratch row first so the loops see
 * only arrays.  Semantics follow the PTX ISA manual ("Floating-Point",
 * "Comparison and Selection", "Data Movement" instructions).  Floating point
 * uses the host's IEEE arithmetic, which is exact for .rn; the SFU
 * approximations (sin, cos, ex2, lg2, rsqrt, rcp.approx, tanh) use the C
 * library, so they are at least as accurate as the hardware's and
 * bit-identical run to run (not bit-identical to a GPU).  Directed
 * rounding, half precision and cvt live in ptx_fp.c; memory and
 * warp-collective instructions in ptx_memop.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "ptx_exec.h"

/* ---------------------------------------------------------------- errors */

int ex_fail(ptx_ex *x, int lane, const char *fmt, ...)
{
    ptx_cta *c = x->c;
    char msg[GE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ptx_launch *L = c->L;
    uint32_t t = x->w * 32 + (uint32_t)(lane < 0 ? 0 : lane);
    uint32_t bx = L->block[0], by = L->block[1];
    return ge_errf(c->e, "%s:%u: %s, kernel %s, thread (%u,%u,%u) block (%u,%u,%u)", c->m->name, x->in->line, msg,
                   ptx_str(c->m, c->m->funcs[L->kernel].name), t % bx, (t / bx) % by, t / (bx * by), c->ctaid[0],
                   c->ctaid[1], c->ctaid[2]);
}

/* --------------------------------------------------------------- operands */

uint64_t ex_addr_value(const ptx_ex *x, const ptx_opnd *o)
{
    switch (o->base) {
    case PTX_B_LOCAL: return x->fr->local + (uint64_t)o->imm;
    case PTX_B_FPARAM: return x->fr->param + (uint64_t)o->imm;
    case PTX_B_DYNSHARED: return x->c->L->dyn_base + (uint64_t)o->imm;
    default: return (uint64_t)o->imm;
    }
}

static uint64_t sreg_lane(const ptx_ex *x, uint32_t id, int l)
{
    const ptx_cta *c = x->c;
    const ptx_launch *L = c->L;
    uint32_t comp = id & 3, t = x->w * 32 + (uint32_t)l;
    switch (id >> 2) {
    case PTX_SREG_TID:
        return comp == 0 ? t % L->block[0] : comp == 1 ? (t / L->block[0]) % L->block[1]
                                                       : t / (L->block[0] * L->block[1]);
    case PTX_SREG_NTID: return L->block[comp];
    case PTX_SREG_CTAID: return c->ctaid[comp];
    case PTX_SREG_NCTAID: return L->grid[comp];
    case PTX_SREG_LANEID: return (uint64_t)l;
    case PTX_SREG_WARPID: return x->w;
    case PTX_SREG_NWARPID: return c->nwarps;
    case PTX_SREG_SMID: return 0;
    case PTX_SREG_NSMID: return 1;
    case PTX_SREG_GRIDID: return L->launch_id;
    case PTX_SREG_LANEMASK_EQ: return 1u << l;
    case PTX_SREG_LANEMASK_LE: return l == 31 ? 0xffffffffu : (2u << l) - 1;
    case PTX_SREG_LANEMASK_LT: return (1u << l) - 1;
    case PTX_SREG_LANEMASK_GE: return ~((1u << l) - 1) & 0xffffffffu;
    case PTX_SREG_LANEMASK_GT: return l == 31 ? 0 : ~((2u << l) - 1) & 0xffffffffu;
    case PTX_SREG_CLOCK: return (uint32_t)c->w[x->w].clock;
    case PTX_SREG_CLOCK_HI: return (uint32_t)(c->w[x->w].clock >> 32);
    case PTX_SREG_CLOCK64: case PTX_SREG_GLOBALTIMER: return c->w[x->w].clock;
    case PTX_SREG_GLOBALTIMER_LO: return (uint32_t)c->w[x->w].clock;
    case PTX_SREG_GLOBALTIMER_HI: return (uint32_t)(c->w[x->w].clock >> 32);
    case PTX_SREG_DYN_SMEM: return L->dyn_shared;
    case PTX_SREG_TOTAL_SMEM: return L->shared_size;
    default: return 0;
    }
}

const uint64_t *ex_src(ptx_ex *x, int i)
{
    const ptx_opnd *o = &x->o[i];
    uint64_t *s = x->c->scratch[i < 6 ? i : 5];
    uint64_t v;
    switch (o->kind) {
    case PTX_O_REG:
        return ex_reg(x, o->reg);
    case PTX_O_SREG:
        if ((o->reg >> 2) == PTX_SREG_TID && x->c->L->block[1] * x->c->L->block[2] == 1) {
            uint64_t t0 = (uint64_t)x->w * 32; /* 1-D blocks: tid.x is the linear id */
            uint32_t comp = o->reg & 3;
            LANES(x->mask, s[l] = comp ? 0 : t0 + (uint64_t)l);
        } else if ((o->reg >> 2) == PTX_SREG_LANEID) {
            LANES(x->mask, s[l] = (uint64_t)l);
        } else {
            LANES(x->mask, s[l] = sreg_lane(x, o->reg, l));
        }
        return s;
    case PTX_O_ADDR:
        v = ex_addr_value(x, o);
        break;
    case PTX_O_PRED: {
        uint32_t p = ex_pred(x, i);
        for (int l = 0; l < 32; l++)
            s[l] = p >> l & 1;
        return s;
    }
    default:
        v = (uint64_t)o->imm;
        break;
    }
    for (int l = 0; l < 32; l++)
        s[l] = v;
    return s;
}

/* ---------------------------------------------------------------- helpers */

static inline float sat32(float v) { return isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }
static inline double sat64(double v) { return isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

/* ------------------------------------------------------- floating point */

/* float min/max: NaN loses unless .NaN; -0 < +0 */
static inline float fminmax32(float a, float b, int mx, int nanp)
{
    if (isnan(a) || isnan(b)) {
        if (nanp || (isnan(a) && isnan(b)))
            return NAN;
        return isnan(a) ? b : a;
    }
    if (a == b)
        return (signbit(a) != 0) == !mx ? a : b;
    return (a < b) != mx ? a : b;
}
static inline double fminmax64(double a, double b, int mx, int nanp)
{
    if (isnan(a) || isnan(b)) {
        if (nanp || (isnan(a) && isnan(b)))
            return NAN;
        return isnan(a) ? b : a;
    }
    if (a == b)
        return (signbit(a) != 0) == !mx ? a : b;
    return (a < b) != mx ? a : b;
}

static int float_arith(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int r = in->rnd;
    if ((r && r != PTX_RND_RN) || (in->type != PTX_T_F32 && in->type != PTX_T_F64))
        return ptx_exec_fp_slow(x);
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0, approx = (in->flags & PTX_F_APPROX) != 0;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    const uint64_t *b = in->nopnd > 2 ? ex_src(x, 2) : NULL;
    const uint64_t *c = in->nopnd > 3 ? ex_src(x, 3) : NULL;
    uint32_t mask = x->mask;
    int op = in->op;
    if (in->type == PTX_T_F32) {
#define A32 (ftz ? ex_ftz32(ex_f32(a[l])) : ex_f32(a[l]))
#define B32 (ftz ? ex_ftz32(ex_f32(b[l])) : ex_f32(b[l]))
#define C32 (ftz ? ex_ftz32(ex_f32(c[l])) : ex_f32(c[l]))
#define OUT32(expr)                                  \
    do {                                             \
        float v_ = (expr);                           \
        if (ftz)                                     \
            v_ = ex_ftz32(v_);                          \
        if (sat)                                     \
            v_ = sat32(v_);                          \
        d[l] = ex_bf32(v_);                          \
    } while (0)
        switch (op) {
        case PTX_OP_ADD:
            if (!ftz && !sat)
                LANES(mask, d[l] = ex_bf32(ex_f32(a[l]) + ex_f32(b[l])));
            else
                LANES(mask, OUT32(A32 + B32));
            return 0;
        case PTX_OP_SUB: LANES(mask, OUT32(A32 - B32)); return 0;
        case PTX_OP_MUL:
            if (!ftz && !sat)
                LANES(mask, d[l] = ex_bf32(ex_f32(a[l]) * ex_f32(b[l])));
            else
                LANES(mask, OUT32(A32 * B32));
            return 0;
        case PTX_OP_MAD:
        case PTX_OP_FMA:
            if (!ftz && !sat)
                LANES(mask, d[l] = ex_bf32(fmaf(ex_f32(a[l]), ex_f32(b[l]), ex_f32(c[l]))));
            else
                LANES(mask, OUT32(fmaf(A32, B32, C32)));
            return 0;
        case PTX_OP_DIV:
            if (approx)
                LANES(mask, OUT32(A32 * (1.0f / B32)));
            else
                LANES(mask, OUT32(A32 / B32));
            return 0;
        case PTX_OP_ABS: LANES(mask, OUT32(fabsf(A32))); return 0;
        case PTX_OP_NEG: LANES(mask, OUT32(-A32)); return 0;
        case PTX_OP_MIN:
        case PTX_OP_MAX: {
            int mx = op == PTX_OP_MAX, nanp = (in->flags & PTX_F_NAN) != 0;
            LANES(mask, OUT32(fminmax32(A32, B32, mx, nanp)));
            return 0;
        }
        case PTX_OP_COPYSIGN: LANES(mask, d[l] = ex_bf32(copysignf(ex_f32(b[l]), ex_f32(a[l])))); return 0;
        case PTX_OP_RCP: LANES(mask, OUT32(1.0f / A32)); return 0;
        case PTX_OP_SQRT: LANES(mask, OUT32(sqrtf(A32))); return 0;
        case PTX_OP_RSQRT: LANES(mask, OUT32(1.0f / sqrtf(A32))); return 0;
        case PTX_OP_SIN: LANES(mask, OUT32(sinf(A32))); return 0;
        case PTX_OP_COS: LANES(mask, OUT32(cosf(A32))); return 0;
        case PTX_OP_EX2: LANES(mask, OUT32(exp2f(A32))); return 0;
        case PTX_OP_LG2: LANES(mask, OUT32(log2f(A32))); return 0;
        case PTX_OP_TANH: LANES(mask, OUT32(tanhf(A32))); return 0;
        default: break;
        }
#undef A32
#undef B32
#undef C32
#undef OUT32
    } else {
#define A64 (ftz ? ex_ftz64(ex_f64(a[l])) : ex_f64(a[l]))
#define B64 (ftz ? ex_ftz64(ex_f64(b[l])) : ex_f64(b[l]))
#define C64 (ftz ? ex_ftz64(ex_f64(c[l])) : ex_f64(c[l]))
#define OUT64(expr)                                  \
    do {                                             \
        double v_ = (expr);                          \
        if (ftz)                                     \
            v_ = ex_ftz64(v_);                          \
        if (sat)                                     \
            v_ = sat64(v_);                          \
        d[l] = ex_bf64(v_);                          \
    } while (0)
        switch (op) {
        case PTX_OP_ADD: LANES(mask, OUT64(A64 + B64)); return 0;
        case PTX_OP_SUB: LANES(mask, OUT64(A64 - B64)); return 0;
        case PTX_OP_MUL: LANES(mask, OUT64(A64 * B64)); return 0;
        case PTX_OP_MAD:
        case PTX_OP_FMA: LANES(mask, OUT64(fma(A64, B64, C64))); return 0;
        case PTX_OP_DIV: LANES(mask, OUT64(A64 / B64)); return 0;
        case PTX_OP_ABS: LANES(mask, OUT64(fabs(A64))); return 0;
        case PTX_OP_NEG: LANES(mask, OUT64(-A64)); return 0;
        case PTX_OP_MIN:
        case PTX_OP_MAX: {
            int mx = op == PTX_OP_MAX, nanp = (in->flags & PTX_F_NAN) != 0;
            LANES(mask, OUT64(fminmax64(A64, B64, mx, nanp)));
            return 0;
        }
        case PTX_OP_COPYSIGN: LANES(mask, d[l] = ex_bf64(copysign(ex_f64(b[l]), ex_f64(a[l])))); return 0;
        case PTX_OP_RCP: LANES(mask, OUT64(1.0 / A64)); return 0;
        case PTX_OP_SQRT: LANES(mask, OUT64(sqrt(A64))); return 0;
        case PTX_OP_RSQRT: LANES(mask, OUT64(1.0 / sqrt(A64))); return 0;
        default: break;
        }
#undef A64
#undef B64
#undef C64
#undef OUT64
    }
    return ex_fail(x, -1, "unsupported floating-point operation '%s'", x->c->m->mnems[in->mnem]);
}

/* ------------------------------------------------------ compare / select */

static inline int cmp_int(int cmp, uint64_t a, uint64_t b, int sz, int sg)
{
    if (sg) {
        int64_t u = ex_sx(a, sz), v = ex_sx(b, sz);
        switch (cmp) {
        case PTX_CMP_EQ: return u == v;
        case PTX_CMP_NE: return u != v;
        case PTX_CMP_LT: return u < v;
        case PTX_CMP_LE: return u <= v;
        case PTX_CMP_GT: return u > v;
        case PTX_CMP_GE: return u >= v;
        default: break;
        }
    }
    uint64_t M = ex_tmask(sz), u = a & M, v = b & M;
    switch (cmp) {
    case PTX_CMP_EQ: return u == v;
    case PTX_CMP_NE: return u != v;
    case PTX_CMP_LT: case PTX_CMP_LO: return u < v;
    case PTX_CMP_LE: case PTX_CMP_LS: return u <= v;
    case PTX_CMP_GT: case PTX_CMP_HI: return u > v;
    case PTX_CMP_GE: case PTX_CMP_HS: return u >= v;
    default: return 0;
    }
}

static inline int cmp_flt(int cmp, double u, double v)
{
    int un = isnan(u) || isnan(v);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && u == v;
    case PTX_CMP_NE: return !un && u != v;
    case PTX_CMP_LT: return !un && u < v;
    case PTX_CMP_LE: return !un && u <= v;
    case PTX_CMP_GT: return !un && u > v;
    case PTX_CMP_GE: return !un && u >= v;
    case PTX_CMP_EQU: return un || u == v;
    case PTX_CMP_NEU: return un || u != v;
    case PTX_CMP_LTU: return un || u < v;
    case PTX_CMP_LEU: return un || u <= v;
    case PTX_CMP_GTU: return un || u > v;
    case PTX_CMP_GEU: return un || u >= v;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return 0;
    }
}

/* Lanes where a <cmp> b holds (operands ia, ib; type in->type2). */
static uint32_t compare(ptx_ex *x, int ia, int ib)
{
    const ptx_inst *in = x->in;
    int ty = in->type2, sz = ptx_types[ty].size;
    const uint64_t *a = ex_src(x, ia), *b = ex_src(x, ib);
    uint32_t r = 0, mask = x->mask;
    int cmp = in->sub;
    if (ty == PTX_T_F32) {
        int ftz = (in->flags & PTX_F_FTZ) != 0;
        LANES(mask, {
            float u = ex_f32(a[l]), v = ex_f32(b[l]);
            if (ftz)
                u = ex_ftz32(u), v = ex_ftz32(v);
            r |= (uint32_t)cmp_flt(cmp, u, v) << l;
        });
    } else if (ty == PTX_T_F64) {
        LANES(mask, r |= (uint32_t)cmp_flt(cmp, ex_f64(a[l]), ex_f64(b[l])) << l);
    } else if (ty == PTX_T_F16 || ty == PTX_T_BF16) {
        LANES(mask, {
            float u = ty == PTX_T_F16 ? ptx_f16_to_f32((uint16_t)a[l]) : ptx_bf16_to_f32((uint16_t)a[l]);
            float v = ty == PTX_T_F16 ? ptx_f16_to_f32((uint16_t)b[l]) : ptx_bf16_to_f32((uint16_t)b[l]);
            r |= (uint32_t)cmp_flt(cmp, u, v) << l;
        });
    } else {
        int sg = ptx_types[ty].kind == 's';
        if (!sg && sz == 4 && cmp == PTX_CMP_EQ)
            LANES(mask, r |= (uint32_t)((uint32_t)a[l] == (uint32_t)b[l]) << l);
        else
            LANES(mask, r |= (uint32_t)cmp_int(cmp, a[l], b[l], sz, sg) << l);
    }
    return r;
}

static uint32_t combine(int bop, uint32_t v, uint32_t c)
{
    switch (bop) {
    case PTX_AOP_AND: return v & c;
    case PTX_AOP_OR: return v | c;
    case PTX_AOP_XOR: return v ^ c;
    default: return v;
    }
}

static int exec_setp(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    if (in->op == PTX_OP_SETP) {
        uint32_t r = compare(x, 2, 3);
        uint32_t c = x->o[4].kind == PTX_O_PRED ? ex_pred(x, 4) : 0;
        ex_setp(x, 0, combine(in->bop, r, c));
        if (x->o[1].kind == PTX_O_PRED)
            ex_setp(x, 1, combine(in->bop, ~r, c));
        return 0;
    }
    /* set.cmp.dtype.stype d, a, b[, c] */
    uint32_t r = compare(x, 1, 2);
    if (x->o[3].kind == PTX_O_PRED)
        r = combine(in->bop, r, ex_pred(x, 3));
    uint64_t *d = ex_reg(x, x->o[0].reg);
    uint64_t one = in->type == PTX_T_F32 ? 0x3f800000u : 0xffffffffu;
    LANES(x->mask, d[l] = (r >> l & 1) ? one : 0);
    return 0;
}

static int exec_select(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1), *b = ex_src(x, 2);
    uint64_t M = ex_tmask(ptx_types[in->type].size);
    if (in->op == PTX_OP_SELP) {
        uint32_t p = ex_pred(x, 3);
        LANES(x->mask, d[l] = ((p >> l & 1) ? a[l] : b[l]) & M);
        return 0;
    }
    const uint64_t *c = ex_src(x, 3);
    if (in->type2 == PTX_T_F32) {
        int ftz = (in->flags & PTX_F_FTZ) != 0;
        LANES(x->mask, {
            float cv = ex_f32(c[l]);
            if (ftz)
                cv = ex_ftz32(cv);
            d[l] = (cv >= 0.0f ? a[l] : b[l]) & M;
        });
    } else {
        LANES(x->mask, d[l] = ((int32_t)c[l] >= 0 ? a[l] : b[l]) & M);
    }
    return 0;
}

static int exec_testp(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    const uint64_t *a = ex_src(x, 1);
    uint32_t r = 0;
    LANES(x->mask, {
        double v = in->type2 == PTX_T_F32 ? (double)ex_f32(a[l]) : ex_f64(a[l]);
        int cls = in->type2 == PTX_T_F32 ? fpclassify(ex_f32(a[l])) : fpclassify(v);
        int t;
        switch (in->sub) {
        case PTX_TESTP_FINITE: t = isfinite(v); break;
        case PTX_TESTP_INFINITE: t = isinf(v); break;
        case PTX_TESTP_NUMBER: t = !isnan(v); break;
        case PTX_TESTP_NOTANUMBER: t = isnan(v) != 0; break;
        case PTX_TESTP_NORMAL: t = cls == FP_NORMAL; break;
        default: t = cls == FP_SUBNORMAL; break;
        }
        r |= (uint32_t)(t != 0) << l;
    });
    ex_setp(x, 0, r);
    return 0;
}

static int exec_mov(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    const ptx_module *m = x->c->m;
    if (in->type == PTX_T_PRED) {
        ex_setp(x, 0, ex_pred(x, 1));
        return 0;
    }
    int sz = ptx_types[in->type].size;
    if (x->o[0].kind == PTX_O_VEC) { /* unpack */
        const uint64_t *a = ex_src(x, 1);
        int n = in->vec, es = sz / n;
        uint64_t EM = ex_tmask(es);
        for (int k = 0; k < n; k++) {
            uint32_t r = m->vregs[x->o[0].reg + (uint32_t)k];
            if (r == PTX_NO_REG)
                continue;
            uint64_t *d = ex_reg(x, r);
            LANES(x->mask, d[l] = (a[l] >> (8 * es * k)) & EM);
        }
        return 0;
    }
    uint64_t *d = ex_reg(x, x->o[0].reg);
    if (x->o[1].kind == PTX_O_VEC) { /* pack */
        int n = in->vec, es = sz / n;
        uint64_t EM = ex_tmask(es);
        uint64_t tmp[32];
        LANES(x->mask, tmp[l] = 0);
        for (int k = 0; k < n; k++) {
            uint32_t r = m->vregs[x->o[1].reg + (uint32_t)k];
            if (r == PTX_NO_REG)
                continue;
            const uint64_t *a = ex_reg(x, r);
            LANES(x->mask, tmp[l] |= (a[l] & EM) << (8 * es * k));
        }
        LANES(x->mask, d[l] = tmp[l]);
        return 0;
    }
    const uint64_t *a = ex_src(x, 1);
    uint64_t M = ex_tmask(sz);
    LANES(x->mask, d[l] = a[l] & M);
    return 0;
}

/* --------------------------------------------------------------- dispatch */

static int is_float_type(int ty) { return ptx_types[ty].kind == 'f' || ptx_types[ty].kind == 'h'; }

int ptx_exec_inst(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_DIV: case PTX_OP_ABS:
    case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX:
        return is_float_type(in->type) ? float_arith(x) : ptx_exec_int(x);
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_SAD: case PTX_OP_REM:
        return ptx_exec_int(x);
    case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
    case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_TANH: case PTX_OP_COPYSIGN:
        return float_arith(x);
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_LOP3:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND:
    case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_PRMT: case PTX_OP_DP4A: case PTX_OP_DP2A:
        return ptx_exec_bits(x);
    case PTX_OP_SETP: case PTX_OP_SET:
        return exec_setp(x);
    case PTX_OP_SELP: case PTX_OP_SLCT:
        return exec_select(x);
    case PTX_OP_TESTP:
        return exec_testp(x);
    case PTX_OP_MOV:
        return exec_mov(x);
    case PTX_OP_CVT:
        return ptx_exec_cvt(x);
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_CVTA:
    case PTX_OP_ISSPACEP: case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        return ptx_exec_mem(x);
    case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_ACTIVEMASK:
        return ptx_exec_collective(x);
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_BRKPT: case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
    case PTX_OP_BAR: /* bar.warp.sync */
        return 0;
    default:
        return ex_fail(x, -1, "internal: '%s' reached the data executor", x->c->m->mnems[in->mnem]);
    }
}
