/*
 * ptx_alu.c - operand fetch, the instruction dispatch, and the integer and
 * single/double precision arithmetic of the SIMT executor.
 *
 * Every case is one loop over the executing lanes (LANES in ptx_exec.h)
 * on structure-of-arrays registers; immediates, special registers and
 * symbol addresses are broadcast into a scratch row first so the loops see
 * only arrays.  Semantics follow the PTX ISA manual ("Integer Arithmetic",
 * "Floating-Point", "Comparison and Selection", "Logic and Shift", "Data
 * Movement" instructions).  Where PTX leaves a result undefined the choice
 * here is fixed and documented so runs are deterministic: integer division
 * by zero gives all ones (quotient) and the dividend (remainder), the
 * most negative value divided by -1 gives itself; shifts by at least the
 * width give 0 (or the sign, for shr.s).  Floating point uses the host's
 * IEEE arithmetic, which is exact for .rn; the SFU approximations (sin,
 * cos, ex2, lg2, rsqrt, rcp.approx, tanh) use the C library, so they are at
 * least as accurate as the hardware's and bit-identical run to run (not bit-
 * identical to a GPU).  Directed rounding, half precision and cvt live in
 * ptx_fp.c; memory and warp-collective instructions in ptx_memop.c.
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

static inline uint64_t tmask(int sz) { return sz >= 8 ? ~0ull : (1ull << (8 * sz)) - 1; }
static inline int64_t sx(uint64_t v, int sz)
{
    return sz == 1 ? (int8_t)v : sz == 2 ? (int16_t)v : sz == 4 ? (int32_t)v : (int64_t)v;
}

static inline float ftz32(float v) { return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v; }
static inline double ftz64(double v) { return fpclassify(v) == FP_SUBNORMAL ? copysign(0.0, v) : v; }
static inline float sat32(float v) { return isnan(v) ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }
static inline double sat64(double v) { return isnan(v) ? 0.0 : v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v; }

/* --------------------------------------------------------------- integers */

static int int_arith(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type, sz = ptx_types[ty].size, sg = ptx_types[ty].kind == 's';
    uint64_t M = tmask(sz);
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    const uint64_t *b = in->nopnd > 2 ? ex_src(x, 2) : NULL;
    const uint64_t *cc = in->nopnd > 3 ? ex_src(x, 3) : NULL;
    uint32_t mask = x->mask;
    ptx_warp *W = &x->c->w[x->w];
    switch (in->op) {
    case PTX_OP_ADD:
        if (in->flags & PTX_F_SAT) { /* add.sat.s32 */
            LANES(mask, {
                int64_t r = (int64_t)(int32_t)a[l] + (int32_t)b[l];
                d[l] = (uint32_t)(int32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
            });
        } else if (in->flags & PTX_F_CC) {
            uint32_t cf = 0;
            LANES(mask, {
                uint64_t r = (a[l] & M) + (b[l] & M);
                cf |= (uint32_t)(sz == 8 ? r < (a[l] & M) : (r >> (8 * sz)) & 1) << l;
                d[l] = r & M;
            });
            W->carry = (W->carry & ~mask) | cf;
        } else {
            LANES(mask, d[l] = (a[l] + b[l]) & M);
        }
        return 0;
    case PTX_OP_SUB:
        if (in->flags & PTX_F_SAT) {
            LANES(mask, {
                int64_t r = (int64_t)(int32_t)a[l] - (int32_t)b[l];
                d[l] = (uint32_t)(int32_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
            });
        } else if (in->flags & PTX_F_CC) {
            uint32_t cf = 0;
            LANES(mask, {
                cf |= (uint32_t)((a[l] & M) < (b[l] & M)) << l;
                d[l] = (a[l] - b[l]) & M;
            });
            W->carry = (W->carry & ~mask) | cf;
        } else {
            LANES(mask, d[l] = (a[l] - b[l]) & M);
        }
        return 0;
    case PTX_OP_ADDC:
    case PTX_OP_SUBC: {
        uint32_t cin = W->carry, cf = 0;
        int sub = in->op == PTX_OP_SUBC;
        LANES(mask, {
            unsigned __int128 av = a[l] & M, bv = (b[l] & M) + (cin >> l & 1);
            unsigned __int128 r = sub ? av - bv : av + bv;
            cf |= (uint32_t)(sub ? av < bv : (r >> (8 * sz)) != 0) << l;
            d[l] = (uint64_t)r & M;
        });
        if (in->flags & PTX_F_CC)
            W->carry = (W->carry & ~mask) | cf;
        return 0;
    }
    case PTX_OP_MUL:
    case PTX_OP_MAD:
    case PTX_OP_MADC: {
        int mad = in->op != PTX_OP_MUL;
        uint32_t cin = W->carry, cf = 0;
        if (in->flags & PTX_F_WIDE) {
            uint64_t WM = tmask(2 * sz);
            if (sg)
                LANES(mask, d[l] = ((uint64_t)(sx(a[l], sz) * sx(b[l], sz)) + (mad ? cc[l] : 0)) & WM);
            else
                LANES(mask, d[l] = ((a[l] & M) * (b[l] & M) + (mad ? cc[l] : 0)) & WM);
            return 0;
        }
        if (in->flags & PTX_F_HI) {
            LANES(mask, {
                uint64_t hi;
                if (sz == 8) {
                    if (sg)
                        hi = (uint64_t)(((__int128)(int64_t)a[l] * (int64_t)b[l]) >> 64);
                    else
                        hi = (uint64_t)(((unsigned __int128)a[l] * b[l]) >> 64);
                } else if (sg) {
                    hi = (uint64_t)((sx(a[l], sz) * sx(b[l], sz)) >> (8 * sz));
                } else {
                    hi = ((a[l] & M) * (b[l] & M)) >> (8 * sz);
                }
                if (mad && (in->flags & PTX_F_SAT)) {
                    int64_t r = (int64_t)(int32_t)hi + (int32_t)cc[l];
                    hi = (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
                } else if (mad) {
                    hi += cc[l] + (in->op == PTX_OP_MADC ? (cin >> l & 1) : 0);
                }
                d[l] = hi & M;
            });
            return 0;
        }
        if (in->op == PTX_OP_MADC || (mad && (in->flags & PTX_F_CC))) {
            LANES(mask, {
                unsigned __int128 r = (unsigned __int128)((a[l] * b[l]) & M) + (cc[l] & M) +
                                      (in->op == PTX_OP_MADC ? (cin >> l & 1) : 0);
                cf |= (uint32_t)((r >> (8 * sz)) != 0) << l;
                d[l] = (uint64_t)r & M;
            });
            if (in->flags & PTX_F_CC)
                W->carry = (W->carry & ~mask) | cf;
            return 0;
        }
        if (mad)
            LANES(mask, d[l] = (a[l] * b[l] + cc[l]) & M);
        else
            LANES(mask, d[l] = (a[l] * b[l]) & M);
        return 0;
    }
    case PTX_OP_MUL24:
    case PTX_OP_MAD24: {
        int mad = in->op == PTX_OP_MAD24, hi = (in->flags & PTX_F_HI) != 0;
        LANES(mask, {
            int64_t p = sg ? (int64_t)(((int32_t)((uint32_t)a[l] << 8)) >> 8) * (((int32_t)((uint32_t)b[l] << 8)) >> 8)
                           : (int64_t)((a[l] & 0xffffff) * (b[l] & 0xffffff));
            uint64_t r = hi ? (uint64_t)(p >> 16) : (uint64_t)p;
            d[l] = (r + (mad ? cc[l] : 0)) & 0xffffffffu;
        });
        return 0;
    }
    case PTX_OP_SAD:
        if (sg)
            LANES(mask, {
                int64_t u = sx(a[l], sz), v = sx(b[l], sz);
                d[l] = ((uint64_t)(u > v ? u - v : v - u) + cc[l]) & M;
            });
        else
            LANES(mask, {
                uint64_t u = a[l] & M, v = b[l] & M;
                d[l] = ((u > v ? u - v : v - u) + cc[l]) & M;
            });
        return 0;
    case PTX_OP_DIV:
        if (sg)
            LANES(mask, {
                int64_t u = sx(a[l], sz), v = sx(b[l], sz);
                int64_t mn = sz == 8 ? INT64_MIN : -(1ll << (8 * sz - 1));
                d[l] = (v == 0 ? M : (u == mn && v == -1) ? (uint64_t)u : (uint64_t)(u / v)) & M;
            });
        else
            LANES(mask, {
                uint64_t u = a[l] & M, v = b[l] & M;
                d[l] = v ? u / v : M;
            });
        return 0;
    case PTX_OP_REM:
        if (sg)
            LANES(mask, {
                int64_t u = sx(a[l], sz), v = sx(b[l], sz);
                d[l] = (v == 0 ? (uint64_t)u : v == -1 ? 0 : (uint64_t)(u % v)) & M;
            });
        else
            LANES(mask, {
                uint64_t u = a[l] & M, v = b[l] & M;
                d[l] = v ? u % v : u;
            });
        return 0;
    case PTX_OP_ABS:
        LANES(mask, {
            int64_t u = sx(a[l], sz);
            d[l] = (uint64_t)(u < 0 ? -(uint64_t)u : (uint64_t)u) & M;
        });
        return 0;
    case PTX_OP_NEG:
        LANES(mask, d[l] = (0 - a[l]) & M);
        return 0;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        int mx = in->op == PTX_OP_MAX;
        if (sg)
            LANES(mask, {
                int64_t u = sx(a[l], sz), v = sx(b[l], sz);
                d[l] = (uint64_t)((u < v) != mx ? u : v) & M;
            });
        else
            LANES(mask, {
                uint64_t u = a[l] & M, v = b[l] & M;
                d[l] = (u < v) != mx ? u : v;
            });
        return 0;
    }
    default:
        return ex_fail(x, -1, "internal: bad integer op");
    }
}

static const uint16_t prmt_tab[7][4] = {
    [PTX_PRMT_F4E] = {0x3210, 0x4321, 0x5432, 0x6543}, [PTX_PRMT_B4E] = {0x5670, 0x6701, 0x7012, 0x0123},
    [PTX_PRMT_RC8] = {0x0000, 0x1111, 0x2222, 0x3333}, [PTX_PRMT_ECL] = {0x3210, 0x3211, 0x3222, 0x3333},
    [PTX_PRMT_ECR] = {0x0000, 0x1110, 0x2210, 0x3210}, [PTX_PRMT_RC16] = {0x1010, 0x3232, 0x1010, 0x3232},
};

static int bit_ops(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type, sz = ptx_types[ty].size, sg = ptx_types[ty].kind == 's';
    uint64_t M = tmask(sz);
    uint32_t mask = x->mask;
    if (ty == PTX_T_PRED) {
        uint32_t a = ex_pred(x, 1), b = in->nopnd > 2 ? ex_pred(x, 2) : 0, r;
        switch (in->op) {
        case PTX_OP_AND: r = a & b; break;
        case PTX_OP_OR: r = a | b; break;
        case PTX_OP_XOR: r = a ^ b; break;
        default: r = ~a; break;
        }
        ex_setp(x, 0, r);
        return 0;
    }
    uint64_t *d = ex_reg(x, x->o[0].reg);
    const uint64_t *a = ex_src(x, 1);
    const uint64_t *b = in->nopnd > 2 ? ex_src(x, 2) : NULL;
    const uint64_t *c = in->nopnd > 3 ? ex_src(x, 3) : NULL;
    int bits = 8 * sz;
    switch (in->op) {
    case PTX_OP_AND: LANES(mask, d[l] = a[l] & b[l] & M); return 0;
    case PTX_OP_OR: LANES(mask, d[l] = (a[l] | b[l]) & M); return 0;
    case PTX_OP_XOR: LANES(mask, d[l] = (a[l] ^ b[l]) & M); return 0;
    case PTX_OP_NOT: LANES(mask, d[l] = ~a[l] & M); return 0;
    case PTX_OP_CNOT: LANES(mask, d[l] = (a[l] & M) == 0); return 0;
    case PTX_OP_LOP3: {
        const uint64_t *lut = ex_src(x, 4);
        LANES(mask, {
            uint32_t r = 0, A = (uint32_t)a[l], B = (uint32_t)b[l], C = (uint32_t)c[l];
            for (int k = 0; k < 8; k++)
                if (lut[l] >> k & 1)
                    r |= ((k & 4) ? A : ~A) & ((k & 2) ? B : ~B) & ((k & 1) ? C : ~C);
            d[l] = r;
        });
        return 0;
    }
    case PTX_OP_SHL:
        LANES(mask, d[l] = (uint32_t)b[l] >= (uint32_t)bits ? 0 : (a[l] << (uint32_t)b[l]) & M);
        return 0;
    case PTX_OP_SHR:
        if (sg)
            LANES(mask, {
                uint32_t s = (uint32_t)b[l] >= (uint32_t)bits ? (uint32_t)bits - 1 : (uint32_t)b[l];
                d[l] = (uint64_t)(sx(a[l], sz) >> s) & M;
            });
        else
            LANES(mask, d[l] = (uint32_t)b[l] >= (uint32_t)bits ? 0 : (a[l] & M) >> (uint32_t)b[l]);
        return 0;
    case PTX_OP_SHF:
        LANES(mask, {
            uint32_t n = (uint32_t)c[l];
            n = (in->flags & PTX_F_WRAP) ? n & 31 : n > 32 ? 32 : n;
            uint64_t v = (b[l] & 0xffffffffu) << 32 | (a[l] & 0xffffffffu);
            d[l] = in->sub ? (v >> n) & 0xffffffffu : (v << n) >> 32 & 0xffffffffu;
        });
        return 0;
    case PTX_OP_POPC: {
        int s2 = ptx_types[in->type2].size;
        LANES(mask, d[l] = (uint64_t)__builtin_popcountll(a[l] & tmask(s2)));
        return 0;
    }
    case PTX_OP_CLZ: {
        int s2 = ptx_types[in->type2].size;
        LANES(mask, {
            uint64_t v = a[l] & tmask(s2);
            d[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - 8 * s2)) : (uint64_t)(8 * s2);
        });
        return 0;
    }
    case PTX_OP_BFIND: {
        int s2 = ptx_types[in->type2].size, sgn = ptx_types[in->type2].kind == 's';
        LANES(mask, {
            uint64_t v = a[l] & tmask(s2);
            if (sgn && sx(v, s2) < 0)
                v = ~v & tmask(s2);
            uint64_t pos = v ? (uint64_t)(63 - __builtin_clzll(v)) : 0xffffffffu;
            if (v && (in->flags & PTX_F_SHIFTAMT))
                pos = (uint64_t)(8 * s2 - 1) - pos;
            d[l] = pos;
        });
        return 0;
    }
    case PTX_OP_BREV:
        LANES(mask, {
            uint64_t v = a[l], r = 0;
            for (int k = 0; k < bits; k++)
                r |= (v >> k & 1) << (bits - 1 - k);
            d[l] = r;
        });
        return 0;
    case PTX_OP_BFE:
        LANES(mask, {
            uint32_t pos = (uint32_t)b[l] & 0xff, len = (uint32_t)c[l] & 0xff, msb = (uint32_t)bits - 1;
            uint64_t v = a[l] & M, r = 0;
            uint64_t sbit = 0;
            if (sg && len) {
                uint32_t sb = pos + len - 1 > msb ? msb : pos + len - 1;
                sbit = v >> sb & 1;
            }
            for (uint32_t k = 0; k <= msb; k++) {
                uint64_t bit = (k < len && pos + k <= msb) ? (v >> (pos + k) & 1) : sbit;
                r |= bit << k;
            }
            d[l] = r;
        });
        return 0;
    case PTX_OP_BFI: {
        const uint64_t *len = ex_src(x, 4);
        LANES(mask, {
            uint32_t pos = (uint32_t)c[l] & 0xff, ln = (uint32_t)len[l] & 0xff, msb = (uint32_t)bits - 1;
            uint64_t r = b[l] & M, f = a[l];
            for (uint32_t k = 0; k < ln && pos + k <= msb; k++)
                r = (r & ~(1ull << (pos + k))) | ((f >> k & 1) << (pos + k));
            d[l] = r;
        });
        return 0;
    }
    case PTX_OP_PRMT:
        LANES(mask, {
            uint64_t v = (b[l] & 0xffffffffu) << 32 | (a[l] & 0xffffffffu);
            uint32_t s = (uint32_t)c[l], r = 0;
            for (int k = 0; k < 4; k++) {
                uint32_t byte;
                if (in->sub == PTX_PRMT_DEFAULT) {
                    uint32_t sel = s >> (4 * k) & 15;
                    byte = (uint32_t)(v >> (8 * (sel & 7))) & 0xff;
                    if (sel & 8)
                        byte = (byte & 0x80) ? 0xff : 0;
                } else {
                    uint32_t sel = prmt_tab[in->sub][s & 3] >> (4 * k) & 7;
                    byte = (uint32_t)(v >> (8 * sel)) & 0xff;
                }
                r |= byte << (8 * k);
            }
            d[l] = r;
        });
        return 0;
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: {
        int as = in->type == PTX_T_S32, bs = in->type2 == PTX_T_S32, hi = (in->flags & PTX_F_HI) != 0;
        LANES(mask, {
            int64_t acc = as || bs ? (int64_t)(int32_t)c[l] : (int64_t)(uint32_t)c[l];
            uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l];
            if (in->op == PTX_OP_DP4A) {
                for (int k = 0; k < 4; k++) {
                    int64_t u = as ? (int8_t)(A >> (8 * k)) : (uint8_t)(A >> (8 * k));
                    int64_t v = bs ? (int8_t)(B >> (8 * k)) : (uint8_t)(B >> (8 * k));
                    acc += u * v;
                }
            } else {
                for (int k = 0; k < 2; k++) {
                    int64_t u = as ? (int16_t)(A >> (16 * k)) : (uint16_t)(A >> (16 * k));
                    int sh = 8 * (k + (hi ? 2 : 0));
                    int64_t v = bs ? (int8_t)(B >> sh) : (uint8_t)(B >> sh);
                    acc += u * v;
                }
            }
            d[l] = (uint32_t)acc;
        });
        return 0;
    }
    default:
        return ex_fail(x, -1, "internal: bad bit op");
    }
}

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
#define A32 (ftz ? ftz32(ex_f32(a[l])) : ex_f32(a[l]))
#define B32 (ftz ? ftz32(ex_f32(b[l])) : ex_f32(b[l]))
#define C32 (ftz ? ftz32(ex_f32(c[l])) : ex_f32(c[l]))
#define OUT32(expr)                                  \
    do {                                             \
        float v_ = (expr);                           \
        if (ftz)                                     \
            v_ = ftz32(v_);                          \
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
#define A64 (ftz ? ftz64(ex_f64(a[l])) : ex_f64(a[l]))
#define B64 (ftz ? ftz64(ex_f64(b[l])) : ex_f64(b[l]))
#define C64 (ftz ? ftz64(ex_f64(c[l])) : ex_f64(c[l]))
#define OUT64(expr)                                  \
    do {                                             \
        double v_ = (expr);                          \
        if (ftz)                                     \
            v_ = ftz64(v_);                          \
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
        int64_t u = sx(a, sz), v = sx(b, sz);
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
    uint64_t M = tmask(sz), u = a & M, v = b & M;
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
                u = ftz32(u), v = ftz32(v);
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
    uint64_t M = tmask(ptx_types[in->type].size);
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
                cv = ftz32(cv);
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
        uint64_t EM = tmask(es);
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
        uint64_t EM = tmask(es);
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
    uint64_t M = tmask(sz);
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
        return is_float_type(in->type) ? float_arith(x) : int_arith(x);
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_SAD: case PTX_OP_REM:
        return int_arith(x);
    case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
    case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_TANH: case PTX_OP_COPYSIGN:
        return float_arith(x);
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_LOP3:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND:
    case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_PRMT: case PTX_OP_DP4A: case PTX_OP_DP2A:
        return bit_ops(x);
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
