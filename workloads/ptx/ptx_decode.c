/*
 * ptx_decode.c - one PTX instruction to one pre-decoded ptx_inst.
 *
 * A mnemonic such as "ld.global.nc.v4.f32" is split on '.': the first part
 * names the operation (ptx_op), every other part is looked up in one table
 * of modifiers (types, rounding, comparisons, atomic/boolean operations,
 * shuffle and vote modes, state spaces, vector widths, flags, and the
 * memory-order/scope/cache-hint words that do not change functional
 * behaviour and are accepted and ignored).  Each operation then checks the
 * modifiers and operands it needs and normalises its operand list so the
 * executor finds every operand at a fixed position (e.g. setp is always
 * p, q, a, b, c with unused slots PTX_O_NONE).  Immediates are converted to
 * the bit pattern of the operand's type here, once.  The op kind of the
 * warp stream (isa_op) and the register lists of ws_inst are decided here
 * too, following the SASS an instruction compiles to (see docs/ptx.md).
 * An unknown operation or modifier is an error naming the whole mnemonic
 * and its line.  Semantics: PTX ISA manual, "Instruction Set" chapter.
 */
#include <string.h>

#include "ptx_exec.h"
#include "ptx_int.h"

/* ---- modifiers ---- */

enum { MC_RND = 1, MC_CMP, MC_AOP, MC_SHFL, MC_VOTE, MC_TESTP, MC_PRMT, MC_SPACE, MC_VEC, MC_FLAG, MC_LO, MC_HI,
       MC_IGN, MC_DIR, MC_FULL, MC_SYNC, MC_BAD };

typedef struct { const char *s; uint8_t cat; uint16_t val; } modent;

static const modent modtab[] = {
    {"rn", MC_RND, PTX_RND_RN}, {"rz", MC_RND, PTX_RND_RZ}, {"rm", MC_RND, PTX_RND_RM}, {"rp", MC_RND, PTX_RND_RP},
    {"rni", MC_RND, PTX_RND_RNI}, {"rzi", MC_RND, PTX_RND_RZI}, {"rmi", MC_RND, PTX_RND_RMI},
    {"rpi", MC_RND, PTX_RND_RPI}, {"rna", MC_RND, PTX_RND_RNA},
    {"eq", MC_CMP, PTX_CMP_EQ}, {"ne", MC_CMP, PTX_CMP_NE}, {"lt", MC_CMP, PTX_CMP_LT}, {"le", MC_CMP, PTX_CMP_LE},
    {"gt", MC_CMP, PTX_CMP_GT}, {"ge", MC_CMP, PTX_CMP_GE}, {"ls", MC_CMP, PTX_CMP_LS}, {"hs", MC_CMP, PTX_CMP_HS},
    {"equ", MC_CMP, PTX_CMP_EQU}, {"neu", MC_CMP, PTX_CMP_NEU}, {"ltu", MC_CMP, PTX_CMP_LTU},
    {"leu", MC_CMP, PTX_CMP_LEU}, {"gtu", MC_CMP, PTX_CMP_GTU}, {"geu", MC_CMP, PTX_CMP_GEU},
    {"num", MC_CMP, PTX_CMP_NUM}, {"nan", MC_CMP, PTX_CMP_NAN},
    {"lo", MC_LO, 0}, {"hi", MC_HI, 0},
    {"add", MC_AOP, PTX_AOP_ADD}, {"min", MC_AOP, PTX_AOP_MIN}, {"max", MC_AOP, PTX_AOP_MAX},
    {"inc", MC_AOP, PTX_AOP_INC}, {"dec", MC_AOP, PTX_AOP_DEC}, {"cas", MC_AOP, PTX_AOP_CAS},
    {"exch", MC_AOP, PTX_AOP_EXCH}, {"and", MC_AOP, PTX_AOP_AND}, {"or", MC_AOP, PTX_AOP_OR},
    {"xor", MC_AOP, PTX_AOP_XOR}, {"popc", MC_AOP, PTX_AOP_POPC},
    {"up", MC_SHFL, PTX_SHFL_UP}, {"down", MC_SHFL, PTX_SHFL_DOWN}, {"bfly", MC_SHFL, PTX_SHFL_BFLY},
    {"idx", MC_SHFL, PTX_SHFL_IDX},
    {"all", MC_VOTE, PTX_VOTE_ALL}, {"any", MC_VOTE, PTX_VOTE_ANY}, {"ballot", MC_VOTE, PTX_VOTE_BALLOT},
    {"finite", MC_TESTP, PTX_TESTP_FINITE}, {"infinite", MC_TESTP, PTX_TESTP_INFINITE},
    {"number", MC_TESTP, PTX_TESTP_NUMBER}, {"notanumber", MC_TESTP, PTX_TESTP_NOTANUMBER},
    {"normal", MC_TESTP, PTX_TESTP_NORMAL}, {"subnormal", MC_TESTP, PTX_TESTP_SUBNORMAL},
    {"f4e", MC_PRMT, PTX_PRMT_F4E}, {"b4e", MC_PRMT, PTX_PRMT_B4E}, {"rc8", MC_PRMT, PTX_PRMT_RC8},
    {"ecl", MC_PRMT, PTX_PRMT_ECL}, {"ecr", MC_PRMT, PTX_PRMT_ECR}, {"rc16", MC_PRMT, PTX_PRMT_RC16},
    {"global", MC_SPACE, PTX_SP_GLOBAL}, {"shared", MC_SPACE, PTX_SP_SHARED}, {"shared::cta", MC_SPACE, PTX_SP_SHARED},
    {"local", MC_SPACE, PTX_SP_LOCAL}, {"const", MC_SPACE, PTX_SP_CONST}, {"param", MC_SPACE, PTX_SP_PARAM},
    {"v2", MC_VEC, 2}, {"v4", MC_VEC, 4},
    {"ftz", MC_FLAG, PTX_F_FTZ}, {"sat", MC_FLAG, PTX_F_SAT}, {"approx", MC_FLAG, PTX_F_APPROX},
    {"wide", MC_FLAG, PTX_F_WIDE}, {"cc", MC_FLAG, PTX_F_CC}, {"nc", MC_FLAG, PTX_F_NC}, {"to", MC_FLAG, PTX_F_TO},
    {"NaN", MC_FLAG, PTX_F_NAN}, {"wrap", MC_FLAG, PTX_F_WRAP}, {"clamp", MC_IGN, 0},
    {"shiftamt", MC_FLAG, PTX_F_SHIFTAMT}, {"arrive", MC_FLAG, PTX_F_ARRIVE}, {"red", MC_FLAG, PTX_F_RED},
    {"warp", MC_FLAG, PTX_F_WARP}, {"uni", MC_FLAG, PTX_F_UNI}, {"full", MC_FULL, 0}, {"sync", MC_SYNC, 0},
    {"l", MC_DIR, 0}, {"r", MC_DIR, 1},
    {"aligned", MC_IGN, 0}, {"volatile", MC_IGN, 0}, {"relaxed", MC_IGN, 0}, {"acquire", MC_IGN, 0},
    {"release", MC_IGN, 0}, {"acq_rel", MC_IGN, 0}, {"sc", MC_IGN, 0}, {"weak", MC_IGN, 0}, {"mmio", MC_IGN, 0},
    {"cta", MC_IGN, 0}, {"gpu", MC_IGN, 0}, {"sys", MC_IGN, 0}, {"gl", MC_IGN, 0}, {"ca", MC_IGN, 0},
    {"cg", MC_IGN, 0}, {"cs", MC_IGN, 0}, {"lu", MC_IGN, 0}, {"cv", MC_IGN, 0}, {"wb", MC_IGN, 0},
    {"wt", MC_IGN, 0}, {"noftz", MC_IGN, 0}, {"L1", MC_IGN, 0}, {"L2", MC_IGN, 0},
    {"L2::cache_hint", MC_BAD, 0},
};


static int lookup_type(const char *s, int len)
{
    for (int i = 1; i < PTX_T_COUNT; i++)
        if ((int)strlen(ptx_types[i].name) == len && memcmp(ptx_types[i].name, s, (size_t)len) == 0)
            return i;
    return -1;
}

static int parse_mods(parser *P, const tok *mn, const char *s, int len, mods *M)
{
    memset(M, 0, sizeof *M);
    M->vec = 1;
    int i = 0;
    while (i < len) {
        int j = i;
        while (j < len && s[j] != '.')
            j++;
        const char *w = s + i;
        int wl = j - i;
        i = j + 1;
        if (wl == 0)
            return perr(P, mn->line, "unknown instruction '%.*s'", mn->len, mn->s);
        int t = lookup_type(w, wl);
        if (t > 0) {
            if (M->ntypes == 3)
                return perr(P, mn->line, "unknown instruction '%.*s'", mn->len, mn->s);
            M->types[M->ntypes++] = t;
            continue;
        }
        if (wl > 4 && (memcmp(w, "L1::", 4) == 0 || memcmp(w, "L2::", 4) == 0) &&
            !(wl == 14 && memcmp(w, "L2::cache_hint", 14) == 0))
            continue;
        const modent *me = NULL;
        for (size_t k = 0; k < sizeof modtab / sizeof *modtab; k++)
            if ((int)strlen(modtab[k].s) == wl && memcmp(modtab[k].s, w, (size_t)wl) == 0) {
                me = &modtab[k];
                break;
            }
        if (!me || me->cat == MC_BAD)
            return perr(P, mn->line, "unknown instruction '%.*s'", mn->len, mn->s);
        switch (me->cat) {
        case MC_RND: M->rnd = me->val; break;
        case MC_CMP: M->cmp = me->val; break;
        case MC_AOP: M->aop = me->val; break;
        case MC_SHFL: M->shfl = me->val; break;
        case MC_VOTE: M->vote = me->val; break;
        case MC_TESTP: M->testp = me->val; break;
        case MC_PRMT: M->prmt = me->val; break;
        case MC_SPACE: M->space = me->val; break;
        case MC_VEC: M->vec = me->val; break;
        case MC_FLAG: M->flags |= me->val; break;
        case MC_LO: M->lo = 1; break;
        case MC_HI: M->hi = 1; break;
        case MC_FULL: M->full = 1; break;
        case MC_SYNC: M->sync = 1; break;
        case MC_DIR: M->dir = me->val; M->ndir++; break;
        default: break;
        }
    }
    return 0;
}

/* ---- the decoder ---- */


int dec_bad(dec *D)
{
    return perr(D->P, D->mn->line, "unsupported instruction '%.*s'", D->mn->len, D->mn->s);
}

int dec_nargs(dec *D, int lo, int hi)
{
    if (D->n < lo || D->n > hi)
        return perr(D->P, D->mn->line, "'%.*s' takes %d operand%s, got %d", D->mn->len, D->mn->s, lo,
                    lo == 1 ? "" : "s", D->n);
    return 0;
}

static int is_value(const raw_opnd *r)
{
    return r->o.kind == PTX_O_REG || r->o.kind == PTX_O_IMM || r->o.kind == PTX_O_SREG || r->o.kind == PTX_O_ADDR;
}

/* Append raw operand i as a value of type ty. */
int dec_val(dec *D, int i, int ty)
{
    raw_opnd *r = &D->r[i];
    if (ty == PTX_T_PRED) {
        if (r->o.kind != PTX_O_PRED && r->o.kind != PTX_O_IMM)
            return perr(D->P, r->line, "operand %d of '%.*s' must be a predicate", i + 1, D->mn->len, D->mn->s);
    } else if (!is_value(r) || r->pair) {
        return perr(D->P, r->line, "bad operand %d of '%.*s'", i + 1, D->mn->len, D->mn->s);
    }
    if (ptx_conv_imm(D->P, r, ty))
        return -1;
    D->out[D->nout++] = r->o;
    return 0;
}

/* Destination register of type ty (predicate or register, '_' allowed if sink). */
int dec_dst(dec *D, int i, int ty, int sink_ok)
{
    raw_opnd *r = &D->r[i];
    int want = ty == PTX_T_PRED ? PTX_O_PRED : PTX_O_REG;
    if (!(r->o.kind == want || (sink_ok && r->o.kind == PTX_O_SINK)) || r->o.neg)
        return perr(D->P, r->line, "operand %d of '%.*s' must be a %s", i + 1, D->mn->len, D->mn->s,
                    want == PTX_O_PRED ? "predicate" : "register");
    D->out[D->nout++] = r->o;
    return 0;
}

void dec_none(dec *D)
{
    ptx_opnd o = {0};
    D->out[D->nout++] = o;
}

int dec_need_type(dec *D, int n)
{
    if (D->M.ntypes != n)
        return perr(D->P, D->mn->line, "'%.*s' needs %d type%s", D->mn->len, D->mn->s, n, n == 1 ? "" : "s");
    return 0;
}


static int dec_setp(dec *D)
{
    mods *M = &D->M;
    int isset = D->in.op == PTX_OP_SET;
    if (dec_nargs(D, 3, 4) || dec_need_type(D, isset ? 2 : 1))
        return -1;
    int cmp = M->cmp;
    if (M->lo)
        cmp = PTX_CMP_LO;
    if (M->hi)
        cmp = PTX_CMP_HI;
    if (!cmp)
        return dec_bad(D);
    int ty = M->types[isset ? 1 : 0];
    if (ty == PTX_T_PRED || tsize(ty) < 2 || tkind(ty) == 'h')
        return dec_bad(D);
    if (cmp >= PTX_CMP_EQU && !is_flt(ty))
        return dec_bad(D);
    if (cmp >= PTX_CMP_LO && cmp <= PTX_CMP_HS && is_flt(ty))
        return dec_bad(D);
    D->in.sub = (uint8_t)cmp;
    D->in.bop = (uint8_t)M->aop;
    if (M->aop && M->aop != PTX_AOP_AND && M->aop != PTX_AOP_OR && M->aop != PTX_AOP_XOR)
        return dec_bad(D);
    if (M->aop && D->n != 4)
        return perr(D->P, D->mn->line, "'%.*s' needs a predicate operand c", D->mn->len, D->mn->s);
    if (!M->aop && D->n != 3)
        return perr(D->P, D->mn->line, "'%.*s' takes 3 operands", D->mn->len, D->mn->s);
    D->in.type2 = (uint8_t)ty;
    if (isset) {
        int dt = M->types[0];
        if (!(dt == PTX_T_U32 || dt == PTX_T_S32 || dt == PTX_T_F32))
            return dec_bad(D);
        D->in.type = (uint8_t)dt;
        if (dec_dst(D, 0, dt, 0))
            return -1;
    } else {
        D->in.type = PTX_T_PRED;
        raw_opnd *r = &D->r[0];
        if (r->o.kind != PTX_O_PRED || r->o.neg)
            return perr(D->P, r->line, "destination of setp must be a predicate");
        D->out[D->nout++] = r->o;
        if (r->pair) {
            if (r->o2.kind != PTX_O_PRED)
                return perr(D->P, r->line, "second destination of setp must be a predicate");
            D->out[D->nout++] = r->o2;
        } else {
            dec_none(D);
        }
    }
    if (dec_val(D, 1, ty) || dec_val(D, 2, ty))
        return -1;
    if (D->n == 4) {
        if (dec_val(D, 3, PTX_T_PRED))
            return -1;
    } else {
        dec_none(D);
    }
    D->in.isa = ty == PTX_T_F64 ? ISA_OP_FP64_ADD : ISA_OP_INT_ALU;
    return 0;
}

static int dec_selp(dec *D)
{
    if (dec_nargs(D, 4, 4))
        return -1;
    if (D->in.op == PTX_OP_SELP) {
        if (dec_need_type(D, 1))
            return -1;
        int ty = D->M.types[0];
        if (ty == PTX_T_PRED || tsize(ty) < 2)
            return dec_bad(D);
        D->in.type = (uint8_t)ty;
        if (dec_arith_like_dst(D, ty, 2) || dec_val(D, 3, PTX_T_PRED))
            return -1;
    } else {
        if (dec_need_type(D, 2))
            return -1;
        int ty = D->M.types[0], ct = D->M.types[1];
        if (ct != PTX_T_S32 && ct != PTX_T_F32)
            return dec_bad(D);
        D->in.type = (uint8_t)ty;
        D->in.type2 = (uint8_t)ct;
        if (dec_arith_like_dst(D, ty, 2) || dec_val(D, 3, ct))
            return -1;
    }
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_cvt(dec *D)
{
    mods *M = &D->M;
    if (dec_need_type(D, 2))
        return -1;
    int dt = M->types[0], at = M->types[1];
    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && at == PTX_T_F32) {
        /* cvt.rn.f16x2.f32 d, a, b: d.hi = a, d.lo = b (sm_80 PTX) */
        if (dec_nargs(D, 3, 3))
            return -1;
        if (M->rnd != PTX_RND_RN && M->rnd != PTX_RND_RZ && M->rnd)
            return dec_bad(D);
        D->in.type = (uint8_t)dt;
        D->in.type2 = (uint8_t)at;
        if (dec_dst(D, 0, PTX_T_B32, 0) || dec_val(D, 1, at) || dec_val(D, 2, at))
            return -1;
        D->in.isa = ISA_OP_CONV;
        return 0;
    }
    if (dec_nargs(D, 2, 2))
        return -1;
    if (dt == PTX_T_PRED || at == PTX_T_PRED || tkind(dt) == 'h' || tkind(at) == 'h' || dt == PTX_T_TF32 ||
        at == PTX_T_TF32 || tsize(dt) > 8 || tsize(at) > 8)
        return dec_bad(D);
    int fd = is_flt(dt), fa = is_flt(at);
    int r = M->rnd;
    if (fa && !fd) { /* float -> int needs an integer rounding */
        if (r && r < PTX_RND_RNI)
            return dec_bad(D);
    } else if (fd && fa) {
        if (tsize(dt) < tsize(at) && r >= PTX_RND_RNI)
            return dec_bad(D);
    } else if (fd && !fa) {
        if (r >= PTX_RND_RNI)
            return dec_bad(D);
    } else if (r) {
        return dec_bad(D);
    }
    D->in.type = (uint8_t)dt;
    D->in.type2 = (uint8_t)at;
    if (dec_dst(D, 0, dt, 0) || dec_val(D, 1, at))
        return -1;
    D->in.isa = (fd || fa) ? ISA_OP_CONV : ISA_OP_INT_ALU;
    return 0;
}

static int dec_cvta(dec *D)
{
    if (dec_nargs(D, 2, 2) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (ty != PTX_T_U64 && ty != PTX_T_U32 && ty != PTX_T_B64 && ty != PTX_T_B32)
        return dec_bad(D);
    if (!D->M.space)
        return dec_bad(D);
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_mov(dec *D)
{
    if (dec_nargs(D, 2, 2) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    raw_opnd *d = &D->r[0], *a = &D->r[1];
    if (d->o.kind == PTX_O_VEC || a->o.kind == PTX_O_VEC) {
        /* pack {a,b} -> d or unpack a -> {a,b}: element size = type size / n */
        raw_opnd *v = d->o.kind == PTX_O_VEC ? d : a;
        if (d->o.kind == PTX_O_VEC && a->o.kind == PTX_O_VEC)
            return dec_bad(D);
        if (tkind(ty) == 'f' || tsize(ty) < 2 || (v->o.n != 2 && v->o.n != 4) || tsize(ty) % v->o.n)
            return dec_bad(D);
        D->out[D->nout++] = d->o;
        if (a->o.kind == PTX_O_VEC) {
            D->out[D->nout++] = a->o;
        } else if (dec_val(D, 1, ty)) {
            return -1;
        }
        D->in.vec = v->o.n;
        D->in.isa = ISA_OP_INT_ALU;
        return 0;
    }
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty))
        return -1;
    D->in.isa = a->o.kind == PTX_O_SREG ? ISA_OP_MISC : ISA_OP_INT_ALU;
    return 0;
}

static int decode_op(dec *D)
{
    mods *M = &D->M;
    ptx_inst *in = &D->in;
    int op = in->op;
    in->rnd = (uint8_t)M->rnd;
    in->flags |= (uint32_t)(M->flags & (PTX_F_FTZ | PTX_F_SAT | PTX_F_APPROX | PTX_F_CC | PTX_F_NC | PTX_F_TO |
                                        PTX_F_NAN | PTX_F_WRAP | PTX_F_UNI | PTX_F_SHIFTAMT | PTX_F_ARRIVE |
                                        PTX_F_WARP | PTX_F_RED | PTX_F_WIDE));
    in->space = (uint8_t)M->space;
    in->vec = 1;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
        return dec_add(D);
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MUL24: case PTX_OP_MAD24: case PTX_OP_MADC:
        return dec_mul(D);
    case PTX_OP_SAD:
        if (dec_arith(D, 3))
            return -1;
        return is_int(in->type) ? 0 : dec_bad(D);
    case PTX_OP_FMA:
        return dec_fma(D);
    case PTX_OP_DIV: case PTX_OP_REM:
        return dec_div(D);
    case PTX_OP_ABS: case PTX_OP_NEG:
        if (dec_unary_int_or_float(D))
            return -1;
        return (is_int(in->type) && tkind(in->type) == 'u') ? dec_bad(D) : 0;
    case PTX_OP_MIN: case PTX_OP_MAX:
        return dec_minmax(D);
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BFIND: case PTX_OP_BREV:
        return dec_bitcount(D);
    case PTX_OP_BFE: case PTX_OP_BFI:
        return dec_bfe(D);
    case PTX_OP_PRMT:
        return dec_prmt(D);
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return dec_dp(D);
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_LOP3:
        return dec_logic(D);
    case PTX_OP_SHL: case PTX_OP_SHR:
        return dec_shift(D);
    case PTX_OP_SHF:
        return dec_shf(D);
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_TANH:
        return dec_sfu(D);
    case PTX_OP_COPYSIGN:
        if (dec_arith(D, 2))
            return -1;
        return (in->type == PTX_T_F32 || in->type == PTX_T_F64) ? 0 : dec_bad(D);
    case PTX_OP_TESTP:
        if (!M->testp || M->ntypes != 1)
            return dec_bad(D);
        if (dec_nargs(D, 2, 2))
            return -1;
        in->type2 = (uint8_t)M->types[0];
        in->type = PTX_T_PRED;
        in->sub = (uint8_t)M->testp;
        if (in->type2 != PTX_T_F32 && in->type2 != PTX_T_F64)
            return dec_bad(D);
        if (dec_dst(D, 0, PTX_T_PRED, 0) || dec_val(D, 1, in->type2))
            return -1;
        in->isa = ISA_OP_INT_ALU;
        return 0;
    case PTX_OP_SETP: case PTX_OP_SET:
        return dec_setp(D);
    case PTX_OP_SELP: case PTX_OP_SLCT:
        return dec_selp(D);
    case PTX_OP_CVT:
        return dec_cvt(D);
    case PTX_OP_CVTA:
        return dec_cvta(D);
    case PTX_OP_ISSPACEP:
        if (!M->space || M->ntypes)
            return dec_bad(D);
        if (dec_nargs(D, 2, 2))
            return -1;
        in->type = PTX_T_PRED;
        if (dec_dst(D, 0, PTX_T_PRED, 0) || dec_val(D, 1, PTX_T_U64))
            return -1;
        in->isa = ISA_OP_INT_ALU;
        return 0;
    case PTX_OP_MOV:
        return dec_mov(D);
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST:
        return dec_ldst(D);
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        if (dec_nargs(D, 1, 1) || D->r[0].o.kind != PTX_O_MEM)
            return dec_bad(D);
        D->out[D->nout++] = D->r[0].o;
        in->isa = ISA_OP_MISC;
        return 0;
    case PTX_OP_ATOM: case PTX_OP_RED:
        return dec_atom(D);
    case PTX_OP_BRA:
        return dec_bra(D);
    case PTX_OP_CALL:
        return dec_call(D);
    case PTX_OP_RET:
        if (dec_nargs(D, 0, 0))
            return -1;
        in->isa = D->P->m->funcs[D->P->fn].is_kernel ? ISA_OP_EXIT : ISA_OP_BRANCH;
        return 0;
    case PTX_OP_EXIT: case PTX_OP_TRAP:
        if (dec_nargs(D, 0, 0))
            return -1;
        in->isa = ISA_OP_EXIT;
        return 0;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return dec_bar(D);
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        if (dec_nargs(D, 0, 0))
            return -1;
        in->isa = ISA_OP_FENCE;
        return 0;
    case PTX_OP_SHFL:
        return dec_shfl(D);
    case PTX_OP_VOTE:
        return dec_vote(D);
    case PTX_OP_MATCH:
        return dec_match(D);
    case PTX_OP_ACTIVEMASK:
        if (dec_nargs(D, 1, 1) || dec_need_type(D, 1) || dec_dst(D, 0, PTX_T_B32, 0))
            return -1;
        in->type = PTX_T_B32;
        in->isa = ISA_OP_MISC;
        return 0;
    case PTX_OP_REDUX:
        return dec_redux(D);
    case PTX_OP_BRKPT: case PTX_OP_PMEVENT: case PTX_OP_NANOSLEEP:
        for (int i = 0; i < D->n; i++)
            if (dec_val(D, i, PTX_T_U32))
                return -1;
        in->isa = ISA_OP_NOP;
        return 0;
    default:
        return dec_bad(D);
    }
}

int ptx_decode(parser *P, const tok *mn, uint32_t guard, int guard_neg)
{
    ptx_module *m = P->m;
    dec D;
    memset(&D, 0, sizeof D);
    D.P = P;
    D.mn = mn;
    int blen = 0;
    while (blen < mn->len && mn->s[blen] != '.')
        blen++;
    int op = -1;
    for (int i = 0; i < PTX_OP_COUNT; i++)
        if ((int)strlen(ptx_op_names[i]) == blen && memcmp(ptx_op_names[i], mn->s, (size_t)blen) == 0) {
            op = i;
            break;
        }
    if (op < 0)
        return perr(P, mn->line, "unknown instruction '%.*s'", mn->len, mn->s);
    if (blen < mn->len && parse_mods(P, mn, mn->s + blen + 1, mn->len - blen - 1, &D.M))
        return -1;
    if (blen == mn->len)
        D.M.vec = 1;
    /* operands up to ';' */
    tok t = lex_peek(&P->L);
    if (!tok_punct(&t, ';')) {
        for (;;) {
            if (D.n == MAX_RAW)
                return perr(P, mn->line, "too many operands");
            if (ptx_read_operand(P, &D.r[D.n++]))
                return -1;
            t = lex_next(&P->L);
            if (tok_punct(&t, ';'))
                break;
            if (!tok_punct(&t, ','))
                return perr(P, t.line, "expected ',' or ';' after operand of '%.*s', found '%.*s'", mn->len, mn->s,
                            t.len ? t.len : 3, t.len ? t.s : "EOF");
        }
    } else {
        lex_next(&P->L);
    }
    D.in.op = (uint8_t)op;
    D.in.guard = guard;
    D.in.guard_neg = (uint8_t)guard_neg;
    D.in.func = (uint32_t)P->fn;
    D.in.line = mn->line;
    D.in.rpc = PTX_NO_PC;
    D.in.target = PTX_NO_PC;
    if (decode_op(&D))
        return -1;
    /* any special-register source makes it an S2R-like MISC op */
    for (int i = 0; i < D.nout; i++)
        if (D.out[i].kind == PTX_O_SREG && D.in.op != PTX_OP_MOV)
            D.in.isa = ISA_OP_MISC;
    int mi = p_mnem(P, mn->s, mn->len);
    if (mi < 0)
        return -1;
    D.in.mnem = (uint16_t)mi;
    if (p_grow(P, (void **)&m->opnds, &P->cap_opnds, m->nopnds + (size_t)D.nout + 1, sizeof *m->opnds) ||
        p_grow(P, (void **)&m->insts, &P->cap_insts, m->ninsts + 1, sizeof *m->insts))
        return -1;
    if (m->ninsts >= PTX_NO_PC - 1)
        return perr(P, mn->line, "too many instructions");
    D.in.opnd = m->nopnds;
    D.in.nopnd = (uint8_t)D.nout;
    if (D.nout)
        memcpy(m->opnds + m->nopnds, D.out, (size_t)D.nout * sizeof *D.out);
    m->nopnds += (uint32_t)D.nout;
    ptx_ws_regs(m, &D.in, m->opnds + D.in.opnd);
    m->insts[m->ninsts++] = D.in;
    return 0;
}
