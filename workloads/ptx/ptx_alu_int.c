/*
 * ptx_alu_int.c - integer arithmetic and bit operations of the functional
 * executor: add/sub/mul/mad (lo, hi, wide, 24-bit, carry), div/rem, abs,
 * neg, min/max, sad (ptx_exec_int), and and/or/xor/not, shifts, funnel
 * shifts, bfe/bfi, popc/clz/bfind/brev, prmt, lop3, dp4a/dp2a
 * (ptx_exec_bits).  ptx_alu.c dispatches here.  Semantics: PTX ISA manual,
 * "Integer Arithmetic" and "Logic and Shift" instructions.  Where PTX leaves
 * a result undefined the choice here is fixed so runs are deterministic:
 * integer division by zero gives all ones (quotient) and the dividend
 * (remainder), the most negative value divided by -1 gives itself; shifts
 * by at least the width give 0 (or the sign, for shr.s).
 */
#include "ptx_exec.h"

int ptx_exec_int(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type, sz = ptx_types[ty].size, sg = ptx_types[ty].kind == 's';
    uint64_t M = ex_tmask(sz);
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
            uint64_t WM = ex_tmask(2 * sz);
            if (sg)
                LANES(mask, d[l] = ((uint64_t)(ex_sx(a[l], sz) * ex_sx(b[l], sz)) + (mad ? cc[l] : 0)) & WM);
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
                    hi = (uint64_t)((ex_sx(a[l], sz) * ex_sx(b[l], sz)) >> (8 * sz));
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
                int64_t u = ex_sx(a[l], sz), v = ex_sx(b[l], sz);
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
                int64_t u = ex_sx(a[l], sz), v = ex_sx(b[l], sz);
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
                int64_t u = ex_sx(a[l], sz), v = ex_sx(b[l], sz);
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
            int64_t u = ex_sx(a[l], sz);
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
                int64_t u = ex_sx(a[l], sz), v = ex_sx(b[l], sz);
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

int ptx_exec_bits(ptx_ex *x)
{
    const ptx_inst *in = x->in;
    int ty = in->type, sz = ptx_types[ty].size, sg = ptx_types[ty].kind == 's';
    uint64_t M = ex_tmask(sz);
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
                d[l] = (uint64_t)(ex_sx(a[l], sz) >> s) & M;
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
        LANES(mask, d[l] = (uint64_t)__builtin_popcountll(a[l] & ex_tmask(s2)));
        return 0;
    }
    case PTX_OP_CLZ: {
        int s2 = ptx_types[in->type2].size;
        LANES(mask, {
            uint64_t v = a[l] & ex_tmask(s2);
            d[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - 8 * s2)) : (uint64_t)(8 * s2);
        });
        return 0;
    }
    case PTX_OP_BFIND: {
        int s2 = ptx_types[in->type2].size, sgn = ptx_types[in->type2].kind == 's';
        LANES(mask, {
            uint64_t v = a[l] & ex_tmask(s2);
            if (sgn && ex_sx(v, s2) < 0)
                v = ~v & ex_tmask(s2);
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

