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

typedef struct mods {
    int types[3], ntypes;
    int rnd, cmp, aop, shfl, vote, testp, prmt, space, vec, lo, hi, full, sync, dir, ndir;
    unsigned flags;
} mods;

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

/* ---- operands ---- */

static int read_paramlist(parser *P, raw_opnd *r)
{
    ptx_module *m = P->m;
    r->o.kind = PTX_O_PARAMLIST;
    r->o.reg = m->nvregs;
    r->o.n = 0;
    tok t = lex_peek(&P->L);
    if (tok_punct(&t, ')')) {
        lex_next(&P->L);
        return 0;
    }
    for (;;) {
        t = lex_next(&P->L);
        raw_opnd e;
        if (t.kind != TK_WORD || p_resolve_name(P, &t, &e))
            return perr(P, t.line, "bad call parameter '%.*s'", t.len, t.s);
        if (e.o.kind != PTX_O_ADDR || e.space != PTX_SP_FPARAM)
            return perr(P, t.line, "call parameter '%.*s' is not a .param variable", t.len, t.s);
        if (r->o.n == 255)
            return perr(P, t.line, "too many call parameters");
        if (p_grow(P, (void **)&m->vregs, &P->cap_vregs, m->nvregs + 1, sizeof *m->vregs))
            return -1;
        m->vregs[m->nvregs++] = (uint32_t)e.o.imm;
        r->o.n++;
        t = lex_next(&P->L);
        if (tok_punct(&t, ')'))
            return 0;
        if (!tok_punct(&t, ','))
            return perr(P, t.line, "expected ',' or ')' in call parameters");
    }
}

static int read_int_offset(parser *P, int64_t *off)
{
    tok t = lex_next(&P->L);
    int neg = 0;
    if (tok_punct(&t, '-')) {
        neg = 1;
        t = lex_next(&P->L);
    }
    int form;
    uint64_t bits;
    double f;
    if (t.kind != TK_WORD || lex_number(t.s, t.len, &form, &bits, &f) || form != LIT_INT)
        return perr(P, t.line, "expected an offset, found '%.*s'", t.len, t.s);
    *off = neg ? -(int64_t)bits : (int64_t)bits;
    return 0;
}

static int read_operand(parser *P, raw_opnd *r)
{
    ptx_module *m = P->m;
    memset(r, 0, sizeof *r);
    tok t = lex_next(&P->L);
    r->line = t.line;
    if (tok_punct(&t, '(')) /* call parameter list */
        return read_paramlist(P, r);
    if (tok_punct(&t, '{')) {
        r->o.kind = PTX_O_VEC;
        r->o.reg = m->nvregs;
        for (;;) {
            t = lex_next(&P->L);
            raw_opnd e;
            uint32_t v;
            if (tok_is(&t, "_")) {
                v = PTX_NO_REG;
            } else {
                if (t.kind != TK_WORD || p_resolve_name(P, &t, &e))
                    return perr(P, t.line, "bad vector element '%.*s'", t.len, t.s);
                if (e.o.kind != PTX_O_REG)
                    return perr(P, t.line, "vector element '%.*s' is not a register", t.len, t.s);
                v = e.o.reg;
            }
            if (r->o.n == 8)
                return perr(P, t.line, "vector too long");
            if (p_grow(P, (void **)&m->vregs, &P->cap_vregs, m->nvregs + 1, sizeof *m->vregs))
                return -1;
            m->vregs[m->nvregs++] = v;
            r->o.n++;
            t = lex_next(&P->L);
            if (tok_punct(&t, '}'))
                break;
            if (!tok_punct(&t, ','))
                return perr(P, t.line, "expected ',' or '}' in vector operand");
        }
        return 0;
    }
    if (tok_punct(&t, '[')) {
        r->o.kind = PTX_O_MEM;
        r->o.reg = PTX_NO_REG;
        t = lex_next(&P->L);
        int form;
        uint64_t bits;
        double f;
        if (t.kind == TK_WORD && lex_number(t.s, t.len, &form, &bits, &f) == 0) {
            if (form != LIT_INT)
                return perr(P, t.line, "bad address");
            r->o.imm = (int64_t)bits;
        } else {
            raw_opnd b;
            if (t.kind != TK_WORD || p_resolve_name(P, &t, &b))
                return perr(P, t.line, "bad address '%.*s'", t.len, t.s);
            if (b.o.kind == PTX_O_REG) {
                r->o.reg = b.o.reg;
            } else if (b.o.kind == PTX_O_ADDR) {
                r->o.base = b.o.base;
                r->o.imm = b.o.imm;
                r->space = b.space;
            } else {
                return perr(P, t.line, "bad address '%.*s'", t.len, t.s);
            }
        }
        t = lex_next(&P->L);
        if (tok_punct(&t, '+') || tok_punct(&t, '-')) {
            int64_t off;
            if (tok_punct(&t, '-')) {
                P->L.has_peek = 1;
                P->L.peeked = t;
            }
            if (read_int_offset(P, &off))
                return -1;
            r->o.imm += off;
            t = lex_next(&P->L);
        }
        if (!tok_punct(&t, ']'))
            return perr(P, t.line, "expected ']'");
        return 0;
    }
    int neg = 0, minus = 0;
    if (tok_punct(&t, '!')) {
        neg = 1;
        t = lex_next(&P->L);
    } else if (tok_punct(&t, '-')) {
        minus = 1;
        t = lex_next(&P->L);
    }
    if (t.kind != TK_WORD)
        return perr(P, t.line, "bad operand '%.*s'", t.len, t.s);
    int form;
    uint64_t bits;
    double f;
    if (lex_number(t.s, t.len, &form, &bits, &f) == 0) {
        if (neg)
            return perr(P, t.line, "'!' applies to predicates only");
        r->o.kind = PTX_O_IMM;
        r->o.imm = (int64_t)bits;
        r->o.neg = (uint8_t)minus;
        r->lit_form = form;
        r->fval = f;
    } else if (tok_is(&t, "_")) {
        r->o.kind = PTX_O_SINK;
    } else {
        if (minus)
            return perr(P, t.line, "bad operand '-%.*s'", t.len, t.s);
        if (p_resolve_name(P, &t, r))
            return -1;
        if (neg) {
            if (r->o.kind != PTX_O_PRED)
                return perr(P, t.line, "'!' applies to predicates only");
            r->o.neg = 1;
        }
        if (r->o.kind == PTX_O_ADDR) { /* sym+off */
            tok n = lex_peek(&P->L);
            if (tok_punct(&n, '+')) {
                lex_next(&P->L);
                int64_t off;
                if (read_int_offset(P, &off))
                    return -1;
                r->o.imm += off;
            }
        }
    }
    tok n = lex_peek(&P->L);
    if (tok_punct(&n, '|')) {
        lex_next(&P->L);
        tok t2 = lex_next(&P->L);
        raw_opnd r2;
        if (t2.kind != TK_WORD || p_resolve_name(P, &t2, &r2))
            return perr(P, t2.line, "bad operand after '|'");
        r->pair = 1;
        r->o2 = r2.o;
    }
    return 0;
}

/* ---- immediates ---- */

static int conv_imm(parser *P, raw_opnd *r, int ty)
{
    if (r->o.kind != PTX_O_IMM)
        return 0;
    char k = ptx_types[ty].kind;
    int sz = ptx_types[ty].size;
    uint64_t bits = (uint64_t)r->o.imm;
    if (k == 'f' && sz >= 4) {
        double d;
        if (r->lit_form == LIT_F32) {
            uint32_t b = (uint32_t)bits;
            float x;
            memcpy(&x, &b, 4);
            d = x;
        } else if (r->lit_form == LIT_F64) {
            memcpy(&d, &bits, 8);
        } else if (r->lit_form == LIT_DEC_FLOAT) {
            d = r->fval;
        } else {
            d = (double)(int64_t)bits;
        }
        if (r->o.neg)
            d = -d;
        if (sz == 4) {
            float x = (float)d;
            uint32_t b;
            memcpy(&b, &x, 4);
            bits = b;
            if (r->lit_form == LIT_F32 && !r->o.neg)
                bits = (uint32_t)r->o.imm; /* keep NaN payloads exact */
        } else {
            memcpy(&bits, &d, 8);
            if (r->lit_form == LIT_F64 && !r->o.neg)
                bits = (uint64_t)r->o.imm;
        }
    } else if (k == 'f' || k == 'h') { /* f16/bf16 (x2): literal bits, or a converted float */
        if (r->lit_form == LIT_F32 || r->lit_form == LIT_DEC_FLOAT) {
            float x;
            if (r->lit_form == LIT_F32) {
                uint32_t b = (uint32_t)bits;
                memcpy(&x, &b, 4);
            } else {
                x = (float)r->fval;
            }
            if (r->o.neg)
                x = -x;
            bits = (ty == PTX_T_BF16 || ty == PTX_T_BF16X2) ? ptx_f32_to_bf16(x, PTX_RND_RN) : ptx_f32_to_f16(x, PTX_RND_RN);
        } else if (r->lit_form != LIT_INT) {
            return perr(P, r->line, "bad half-precision immediate");
        }
    } else if (k == 'p') {
        if (r->lit_form != LIT_INT || r->o.neg || bits > 1)
            return perr(P, r->line, "predicate immediate must be 0 or 1");
    } else {
        if (r->lit_form == LIT_DEC_FLOAT)
            return perr(P, r->line, "floating-point immediate for an integer operand");
        if (r->o.neg)
            bits = (uint64_t)(-(int64_t)bits);
    }
    r->o.imm = (int64_t)bits;
    r->o.neg = 0;
    return 0;
}

/* ---- the decoder ---- */

typedef struct dec {
    parser *P;
    const tok *mn;
    mods M;
    ptx_inst in;
    raw_opnd r[MAX_RAW];
    int n;
    ptx_opnd out[8];
    int nout;
} dec;

static int bad(dec *D)
{
    return perr(D->P, D->mn->line, "unsupported instruction '%.*s'", D->mn->len, D->mn->s);
}

static int nargs(dec *D, int lo, int hi)
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
static int val(dec *D, int i, int ty)
{
    raw_opnd *r = &D->r[i];
    if (ty == PTX_T_PRED) {
        if (r->o.kind != PTX_O_PRED && r->o.kind != PTX_O_IMM)
            return perr(D->P, r->line, "operand %d of '%.*s' must be a predicate", i + 1, D->mn->len, D->mn->s);
    } else if (!is_value(r) || r->pair) {
        return perr(D->P, r->line, "bad operand %d of '%.*s'", i + 1, D->mn->len, D->mn->s);
    }
    if (conv_imm(D->P, r, ty))
        return -1;
    D->out[D->nout++] = r->o;
    return 0;
}

/* Destination register of type ty (predicate or register, '_' allowed if sink). */
static int dst(dec *D, int i, int ty, int sink_ok)
{
    raw_opnd *r = &D->r[i];
    int want = ty == PTX_T_PRED ? PTX_O_PRED : PTX_O_REG;
    if (!(r->o.kind == want || (sink_ok && r->o.kind == PTX_O_SINK)) || r->o.neg)
        return perr(D->P, r->line, "operand %d of '%.*s' must be a %s", i + 1, D->mn->len, D->mn->s,
                    want == PTX_O_PRED ? "predicate" : "register");
    D->out[D->nout++] = r->o;
    return 0;
}

static void none(dec *D)
{
    ptx_opnd o = {0};
    D->out[D->nout++] = o;
}

static int need_type(dec *D, int n)
{
    if (D->M.ntypes != n)
        return perr(D->P, D->mn->line, "'%.*s' needs %d type%s", D->mn->len, D->mn->s, n, n == 1 ? "" : "s");
    return 0;
}

static char tkind(int ty) { return ptx_types[ty].kind; }
static int tsize(int ty) { return ptx_types[ty].size; }
static int is_int(int ty) { char k = tkind(ty); return k == 'b' || k == 'u' || k == 's'; }
static int is_flt(int ty) { return tkind(ty) == 'f' || tkind(ty) == 'h'; }

static int wide_type(int ty)
{
    switch (ty) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    default: return -1;
    }
}

static int alu_isa(int op, int ty)
{
    if (ty == PTX_T_F64) {
        switch (op) {
        case PTX_OP_MUL: return ISA_OP_FP64_MUL;
        case PTX_OP_MAD: case PTX_OP_FMA: return ISA_OP_FP64_FMA;
        case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT: return ISA_OP_FP64_DIV;
        default: return ISA_OP_FP64_ADD;
        }
    }
    if (is_flt(ty)) {
        switch (op) {
        case PTX_OP_MUL: return ISA_OP_FP32_MUL;
        case PTX_OP_MAD: case PTX_OP_FMA: return ISA_OP_FP32_FMA;
        case PTX_OP_DIV: return ISA_OP_FP32_DIV;
        default: return ISA_OP_FP32_ADD;
        }
    }
    switch (op) {
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return ISA_OP_INT_MUL;
    case PTX_OP_DIV: case PTX_OP_REM:
        return ISA_OP_INT_DIV;
    default:
        return ISA_OP_INT_ALU;
    }
}

/* arithmetic with all operands of the instruction type: d, a[, b[, c]] */
static int arith(dec *D, int nsrc)
{
    if (nargs(D, nsrc + 1, nsrc + 1) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0))
        return -1;
    for (int i = 1; i <= nsrc; i++)
        if (val(D, i, ty))
            return -1;
    D->in.isa = (uint8_t)alu_isa(D->in.op, ty);
    return 0;
}

static int dec_add(dec *D)
{
    mods *M = &D->M;
    if (arith(D, 2))
        return -1;
    int ty = D->in.type;
    if (is_int(ty) && (M->rnd || (M->flags & (PTX_F_FTZ)) || tsize(ty) < 2 || tsize(ty) > 8))
        return bad(D);
    if (M->flags & PTX_F_SAT && is_int(ty) && ty != PTX_T_S32)
        return bad(D);
    if ((M->flags & PTX_F_CC || D->in.op == PTX_OP_ADDC || D->in.op == PTX_OP_SUBC) && !(tsize(ty) >= 4 && is_int(ty)))
        return bad(D);
    if (is_flt(ty) && ty == PTX_T_TF32)
        return bad(D);
    return 0;
}

static int dec_mul(dec *D)
{
    mods *M = &D->M;
    int op = D->in.op;
    int nsrc = (op == PTX_OP_MUL || op == PTX_OP_MUL24) ? 2 : 3;
    if (nargs(D, nsrc + 1, nsrc + 1) || need_type(D, 1))
        return -1;
    int ty = M->types[0];
    D->in.type = (uint8_t)ty;
    if (is_int(ty)) {
        if (M->rnd || (M->flags & PTX_F_FTZ) || tsize(ty) < 2)
            return bad(D);
        if (M->flags & PTX_F_WIDE) {
            int wt = wide_type(ty);
            if (wt < 0)
                return bad(D);
            if (dst(D, 0, wt, 0) || val(D, 1, ty) || val(D, 2, ty) || (nsrc == 3 && val(D, 3, wt)))
                return -1;
        } else {
            if (!(M->lo || M->hi) && op != PTX_OP_MADC)
                return bad(D);
            if (dst(D, 0, ty, 0) || val(D, 1, ty) || val(D, 2, ty) || (nsrc == 3 && val(D, 3, ty)))
                return -1;
        }
        if (M->hi)
            D->in.flags |= PTX_F_HI;
        if ((op == PTX_OP_MUL24 || op == PTX_OP_MAD24) && ty != PTX_T_S32 && ty != PTX_T_U32)
            return bad(D);
        if ((M->flags & PTX_F_SAT) && !(ty == PTX_T_S32 && M->hi && op == PTX_OP_MAD))
            return bad(D);
    } else {
        if (M->lo || M->hi || (M->flags & PTX_F_WIDE) || op == PTX_OP_MUL24 || op == PTX_OP_MAD24 ||
            ty == PTX_T_TF32 || op == PTX_OP_MADC)
            return bad(D);
        if (dst(D, 0, ty, 0))
            return -1;
        for (int i = 1; i <= nsrc; i++)
            if (val(D, i, ty))
                return -1;
    }
    D->in.isa = (uint8_t)alu_isa(op, ty);
    return 0;
}

static int dec_fma(dec *D)
{
    if (arith(D, 3))
        return -1;
    if (!is_flt(D->in.type) || D->in.type == PTX_T_TF32 || !D->M.rnd)
        return bad(D);
    return 0;
}

static int dec_div(dec *D)
{
    if (arith(D, 2))
        return -1;
    int ty = D->in.type;
    if (D->in.op == PTX_OP_REM && !is_int(ty))
        return bad(D);
    if (is_flt(ty)) {
        if (ty != PTX_T_F32 && ty != PTX_T_F64)
            return bad(D);
        if (!(D->M.flags & PTX_F_APPROX) && !D->M.full && !D->M.rnd)
            return bad(D);
        if ((D->M.flags & PTX_F_APPROX) && ty == PTX_T_F32)
            D->in.isa = ISA_OP_SFU_RCP;
    }
    return 0;
}

static int dec_unary_int_or_float(dec *D)
{
    if (arith(D, 1))
        return -1;
    return 0;
}

static int dec_minmax(dec *D)
{
    if (arith(D, 2))
        return -1;
    return 0;
}

static int dec_bitcount(dec *D) /* popc, clz, bfind, brev */
{
    if (nargs(D, 2, 2) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 4)
        return bad(D);
    D->in.type2 = (uint8_t)ty;
    int dt = D->in.op == PTX_OP_BREV ? ty : PTX_T_U32;
    D->in.type = (uint8_t)dt;
    if (dst(D, 0, dt, 0) || val(D, 1, ty))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_bfe(dec *D)
{
    int isbfi = D->in.op == PTX_OP_BFI;
    if (nargs(D, isbfi ? 5 : 4, isbfi ? 5 : 4) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 4)
        return bad(D);
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0) || val(D, 1, ty))
        return -1;
    if (isbfi && val(D, 2, ty))
        return -1;
    for (int i = isbfi ? 3 : 2; i < D->n; i++)
        if (val(D, i, PTX_T_U32))
            return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int arith_like_dst(dec *D, int ty, int nsrc)
{
    if (dst(D, 0, ty, 0))
        return -1;
    for (int i = 1; i <= nsrc; i++)
        if (val(D, i, ty))
            return -1;
    return 0;
}

static int dec_logic(dec *D)
{
    int op = D->in.op;
    int nsrc = (op == PTX_OP_NOT || op == PTX_OP_CNOT) ? 1 : op == PTX_OP_LOP3 ? 4 : 2;
    if (nargs(D, nsrc + 1, nsrc + 1) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    if (ty == PTX_T_PRED) {
        if (op == PTX_OP_CNOT || op == PTX_OP_LOP3)
            return bad(D);
        if (dst(D, 0, ty, 0))
            return -1;
        for (int i = 1; i <= nsrc; i++)
            if (val(D, i, ty))
                return -1;
    } else {
        if (!is_int(ty) || tsize(ty) < 2)
            return bad(D);
        if (op == PTX_OP_LOP3 && ty != PTX_T_B32)
            return bad(D);
        if (arith_like_dst(D, ty, nsrc))
            return -1;
    }
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}


static int dec_shift(dec *D)
{
    if (nargs(D, 3, 3) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 2)
        return bad(D);
    if (D->in.op == PTX_OP_SHL && tkind(ty) != 'b')
        return bad(D);
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0) || val(D, 1, ty) || val(D, 2, PTX_T_U32))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_shf(dec *D)
{
    if (D->M.ndir != 1 || D->M.ntypes != 1 || D->M.types[0] != PTX_T_B32)
        return bad(D);
    if (nargs(D, 4, 4))
        return -1;
    D->in.type = PTX_T_B32;
    D->in.sub = (uint8_t)D->M.dir; /* 0 left, 1 right */
    if (dst(D, 0, PTX_T_B32, 0) || val(D, 1, PTX_T_B32) || val(D, 2, PTX_T_B32) || val(D, 3, PTX_T_U32))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_prmt(dec *D)
{
    if (nargs(D, 4, 4) || need_type(D, 1) || D->M.types[0] != PTX_T_B32)
        return -1;
    D->in.type = PTX_T_B32;
    D->in.sub = (uint8_t)D->M.prmt;
    if (arith_like_dst(D, PTX_T_B32, 3))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_dp(dec *D)
{
    if (nargs(D, 4, 4) || need_type(D, 2))
        return -1;
    int a = D->M.types[0], b = D->M.types[1];
    if ((a != PTX_T_U32 && a != PTX_T_S32) || (b != PTX_T_U32 && b != PTX_T_S32))
        return bad(D);
    if (D->in.op == PTX_OP_DP2A && !(D->M.lo || D->M.hi))
        return bad(D);
    if (D->M.hi)
        D->in.flags |= PTX_F_HI;
    D->in.type = (uint8_t)a;
    D->in.type2 = (uint8_t)b;
    int dt = (a == PTX_T_S32 || b == PTX_T_S32) ? PTX_T_S32 : PTX_T_U32;
    if (dst(D, 0, dt, 0) || val(D, 1, a) || val(D, 2, b) || val(D, 3, dt))
        return -1;
    D->in.isa = ISA_OP_INT_MUL;
    return 0;
}

static int dec_sfu(dec *D)
{
    int op = D->in.op;
    if (arith(D, 1))
        return -1;
    int ty = D->in.type;
    if (ty != PTX_T_F32 && ty != PTX_T_F64)
        return bad(D);
    int approx = (D->M.flags & PTX_F_APPROX) != 0;
    switch (op) {
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
        if (!approx && !D->M.rnd)
            return bad(D);
        if (ty == PTX_T_F32)
            D->in.isa = op == PTX_OP_RCP ? ISA_OP_SFU_RCP : ISA_OP_SFU_SQRT;
        else if (approx)
            D->in.isa = op == PTX_OP_RCP ? ISA_OP_SFU_RCP : ISA_OP_SFU_SQRT;
        else
            D->in.isa = ISA_OP_FP64_DIV;
        break;
    case PTX_OP_RSQRT:
        if (!approx)
            return bad(D);
        D->in.isa = ISA_OP_SFU_SQRT;
        break;
    default: /* sin cos ex2 lg2 tanh: .approx .f32 only */
        if (!approx || ty != PTX_T_F32)
            return bad(D);
        D->in.isa = op == PTX_OP_LG2 ? ISA_OP_SFU_LOG : (op == PTX_OP_SIN || op == PTX_OP_COS) ? ISA_OP_SFU_SIN
                                                                                                 : ISA_OP_SFU_EXP;
        break;
    }
    return 0;
}

static int dec_setp(dec *D)
{
    mods *M = &D->M;
    int isset = D->in.op == PTX_OP_SET;
    if (nargs(D, 3, 4) || need_type(D, isset ? 2 : 1))
        return -1;
    int cmp = M->cmp;
    if (M->lo)
        cmp = PTX_CMP_LO;
    if (M->hi)
        cmp = PTX_CMP_HI;
    if (!cmp)
        return bad(D);
    int ty = M->types[isset ? 1 : 0];
    if (ty == PTX_T_PRED || tsize(ty) < 2 || tkind(ty) == 'h')
        return bad(D);
    if (cmp >= PTX_CMP_EQU && !is_flt(ty))
        return bad(D);
    if (cmp >= PTX_CMP_LO && cmp <= PTX_CMP_HS && is_flt(ty))
        return bad(D);
    D->in.sub = (uint8_t)cmp;
    D->in.bop = (uint8_t)M->aop;
    if (M->aop && M->aop != PTX_AOP_AND && M->aop != PTX_AOP_OR && M->aop != PTX_AOP_XOR)
        return bad(D);
    if (M->aop && D->n != 4)
        return perr(D->P, D->mn->line, "'%.*s' needs a predicate operand c", D->mn->len, D->mn->s);
    if (!M->aop && D->n != 3)
        return perr(D->P, D->mn->line, "'%.*s' takes 3 operands", D->mn->len, D->mn->s);
    D->in.type2 = (uint8_t)ty;
    if (isset) {
        int dt = M->types[0];
        if (!(dt == PTX_T_U32 || dt == PTX_T_S32 || dt == PTX_T_F32))
            return bad(D);
        D->in.type = (uint8_t)dt;
        if (dst(D, 0, dt, 0))
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
            none(D);
        }
    }
    if (val(D, 1, ty) || val(D, 2, ty))
        return -1;
    if (D->n == 4) {
        if (val(D, 3, PTX_T_PRED))
            return -1;
    } else {
        none(D);
    }
    D->in.isa = ty == PTX_T_F64 ? ISA_OP_FP64_ADD : ISA_OP_INT_ALU;
    return 0;
}

static int dec_selp(dec *D)
{
    if (nargs(D, 4, 4))
        return -1;
    if (D->in.op == PTX_OP_SELP) {
        if (need_type(D, 1))
            return -1;
        int ty = D->M.types[0];
        if (ty == PTX_T_PRED || tsize(ty) < 2)
            return bad(D);
        D->in.type = (uint8_t)ty;
        if (arith_like_dst(D, ty, 2) || val(D, 3, PTX_T_PRED))
            return -1;
    } else {
        if (need_type(D, 2))
            return -1;
        int ty = D->M.types[0], ct = D->M.types[1];
        if (ct != PTX_T_S32 && ct != PTX_T_F32)
            return bad(D);
        D->in.type = (uint8_t)ty;
        D->in.type2 = (uint8_t)ct;
        if (arith_like_dst(D, ty, 2) || val(D, 3, ct))
            return -1;
    }
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_cvt(dec *D)
{
    mods *M = &D->M;
    if (nargs(D, 2, 2) || need_type(D, 2))
        return -1;
    int dt = M->types[0], at = M->types[1];
    if (dt == PTX_T_PRED || at == PTX_T_PRED || tkind(dt) == 'h' || tkind(at) == 'h' || dt == PTX_T_TF32 ||
        at == PTX_T_TF32 || tsize(dt) > 8 || tsize(at) > 8)
        return bad(D);
    int fd = is_flt(dt), fa = is_flt(at);
    int r = M->rnd;
    if (fa && !fd) { /* float -> int needs an integer rounding */
        if (r && r < PTX_RND_RNI)
            return bad(D);
    } else if (fd && fa) {
        if (tsize(dt) < tsize(at) && r >= PTX_RND_RNI)
            return bad(D);
    } else if (fd && !fa) {
        if (r >= PTX_RND_RNI)
            return bad(D);
    } else if (r) {
        return bad(D);
    }
    D->in.type = (uint8_t)dt;
    D->in.type2 = (uint8_t)at;
    if (dst(D, 0, dt, 0) || val(D, 1, at))
        return -1;
    D->in.isa = (fd || fa) ? ISA_OP_CONV : ISA_OP_INT_ALU;
    return 0;
}

static int dec_cvta(dec *D)
{
    if (nargs(D, 2, 2) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (ty != PTX_T_U64 && ty != PTX_T_U32 && ty != PTX_T_B64 && ty != PTX_T_B32)
        return bad(D);
    if (!D->M.space)
        return bad(D);
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0) || val(D, 1, ty))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

static int dec_mov(dec *D)
{
    if (nargs(D, 2, 2) || need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    raw_opnd *d = &D->r[0], *a = &D->r[1];
    if (d->o.kind == PTX_O_VEC || a->o.kind == PTX_O_VEC) {
        /* pack {a,b} -> d or unpack a -> {a,b}: element size = type size / n */
        raw_opnd *v = d->o.kind == PTX_O_VEC ? d : a;
        if (d->o.kind == PTX_O_VEC && a->o.kind == PTX_O_VEC)
            return bad(D);
        if (tkind(ty) == 'f' || tsize(ty) < 2 || (v->o.n != 2 && v->o.n != 4) || tsize(ty) % v->o.n)
            return bad(D);
        D->out[D->nout++] = d->o;
        if (a->o.kind == PTX_O_VEC) {
            D->out[D->nout++] = a->o;
        } else if (val(D, 1, ty)) {
            return -1;
        }
        D->in.vec = v->o.n;
        D->in.isa = ISA_OP_INT_ALU;
        return 0;
    }
    if (dst(D, 0, ty, 0) || val(D, 1, ty))
        return -1;
    D->in.isa = a->o.kind == PTX_O_SREG ? ISA_OP_MISC : ISA_OP_INT_ALU;
    return 0;
}

static int mem_isa(int op, int space, int in_kernel)
{
    int st = op == PTX_OP_ST;
    switch (space) {
    case PTX_SP_SHARED: return st ? ISA_OP_ST_SHARED : ISA_OP_LD_SHARED;
    case PTX_SP_LOCAL: return st ? ISA_OP_ST_LOCAL : ISA_OP_LD_LOCAL;
    case PTX_SP_CONST: return ISA_OP_LD_CONST;
    case PTX_SP_PARAM: return in_kernel ? ISA_OP_LD_CONST : ISA_OP_INT_ALU;
    case PTX_SP_FPARAM: return ISA_OP_INT_ALU;
    default: return st ? ISA_OP_ST_GLOBAL : ISA_OP_LD_GLOBAL;
    }
}

/* The state space of a memory operand: the instruction's, the symbol's, or
 * PTX_SP_FPARAM for .param accesses inside a .func. */
static int mem_space(dec *D, const raw_opnd *m)
{
    int sp = D->M.space;
    int in_kernel = D->P->m->funcs[D->P->fn].is_kernel;
    if (m->space == PTX_SP_FPARAM)
        return PTX_SP_FPARAM;
    if (sp == PTX_SP_PARAM && m->o.reg != PTX_NO_REG && !in_kernel)
        return PTX_SP_FPARAM;
    if (!sp && m->space && m->space != PTX_SP_PARAM)
        return m->space; /* generic access through a symbol: the symbol's space */
    if (sp && m->space && m->space != sp && !(sp == PTX_SP_GLOBAL && m->space == PTX_SP_CONST))
        return -1;
    return sp;
}

static int dec_ldst(dec *D)
{
    mods *M = &D->M;
    int op = D->in.op;
    int st = op == PTX_OP_ST;
    if (nargs(D, 2, 2) || need_type(D, 1))
        return -1;
    int ty = M->types[0];
    if (ty == PTX_T_PRED || tkind(ty) == 'h' || ty == PTX_T_TF32)
        return bad(D);
    raw_opnd *m = &D->r[st ? 0 : 1], *v = &D->r[st ? 1 : 0];
    if (m->o.kind != PTX_O_MEM)
        return perr(D->P, m->line, "'%.*s' needs an address operand [..]", D->mn->len, D->mn->s);
    int sp = mem_space(D, m);
    if (sp < 0)
        return perr(D->P, m->line, "address of '%.*s' is in another state space", D->mn->len, D->mn->s);
    if (st && (sp == PTX_SP_CONST || sp == PTX_SP_PARAM))
        return perr(D->P, m->line, "store to a read-only state space");
    if (op == PTX_OP_LDU && sp != PTX_SP_GLOBAL && sp != PTX_SP_NONE)
        return bad(D);
    if (D->M.flags & PTX_F_NC && sp != PTX_SP_GLOBAL)
        return bad(D);
    D->in.type = (uint8_t)ty;
    D->in.space = (uint8_t)sp;
    D->in.vec = (uint8_t)M->vec;
    if (tsize(ty) * M->vec > 16 || tsize(ty) > 8)
        return bad(D);
    if (M->vec > 1) {
        if (v->o.kind != PTX_O_VEC || v->o.n != M->vec)
            return perr(D->P, v->line, "'%.*s' needs a vector of %d registers", D->mn->len, D->mn->s, M->vec);
    }
    if (st) {
        D->out[D->nout++] = m->o;
        if (M->vec > 1)
            D->out[D->nout++] = v->o;
        else if (val(D, 1, ty))
            return -1;
    } else {
        if (M->vec > 1)
            D->out[D->nout++] = v->o;
        else if (dst(D, 0, ty, 1))
            return -1;
        D->out[D->nout++] = m->o;
    }
    D->in.isa = (uint8_t)mem_isa(st ? PTX_OP_ST : PTX_OP_LD, sp, D->P->m->funcs[D->P->fn].is_kernel);
    return 0;
}

static int dec_atom(dec *D)
{
    mods *M = &D->M;
    int isred = D->in.op == PTX_OP_RED;
    int aop = M->aop;
    if (!aop || aop == PTX_AOP_POPC || D->M.ntypes != 1)
        return bad(D);
    int ty = M->types[0];
    int nsrc = aop == PTX_AOP_CAS ? 2 : 1;
    if (nargs(D, nsrc + 1 + !isred, nsrc + 1 + !isred))
        return -1;
    if (tsize(ty) < 4 || tsize(ty) > 8 || tkind(ty) == 'h' || ty == PTX_T_TF32)
        return bad(D);
    if (is_flt(ty) && aop != PTX_AOP_ADD && !(aop == PTX_AOP_EXCH))
        return bad(D);
    if ((aop == PTX_AOP_INC || aop == PTX_AOP_DEC) && ty != PTX_T_U32)
        return bad(D);
    if (M->vec > 1 || (isred && aop == PTX_AOP_CAS))
        return bad(D);
    raw_opnd *m = &D->r[isred ? 0 : 1];
    if (m->o.kind != PTX_O_MEM)
        return perr(D->P, m->line, "'%.*s' needs an address operand [..]", D->mn->len, D->mn->s);
    int sp = mem_space(D, m);
    if (sp < 0 || (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED && sp != PTX_SP_NONE))
        return bad(D);
    D->in.type = (uint8_t)ty;
    D->in.space = (uint8_t)sp;
    D->in.sub = (uint8_t)aop;
    D->in.vec = 1;
    if (isred) {
        none(D);
    } else if (dst(D, 0, ty, 1)) {
        return -1;
    }
    D->out[D->nout++] = m->o;
    int first = isred ? 1 : 2;
    if (val(D, first, ty))
        return -1;
    if (nsrc == 2) {
        if (val(D, first + 1, ty))
            return -1;
    } else {
        none(D);
    }
    D->in.isa = sp == PTX_SP_SHARED ? ISA_OP_ATOM_SHARED : ISA_OP_ATOM_GLOBAL;
    return 0;
}

static int dec_bra(dec *D)
{
    if (nargs(D, 1, 1) || D->M.ntypes)
        return -1;
    raw_opnd *r = &D->r[0];
    if (r->o.kind != PTX_O_LABEL)
        return perr(D->P, r->line, "branch target is not a label");
    parser *P = D->P;
    if (p_grow(P, (void **)&P->bfix, &P->cap_bfix, P->nbfix + 1, sizeof *P->bfix))
        return -1;
    fixup *fx = &P->bfix[P->nbfix++];
    fx->inst = P->m->ninsts;
    fx->opnd = P->m->nopnds;
    fx->name = r->name.s;
    fx->len = r->name.len;
    fx->line = r->line;
    D->out[D->nout++] = r->o;
    D->in.isa = ISA_OP_BRANCH;
    return 0;
}

static int dec_call(dec *D)
{
    /* call{.uni} [(rets),] func [, (args)] [, prototype] */
    int i = 0;
    ptx_opnd empty = {0};
    empty.kind = PTX_O_PARAMLIST;
    if (D->n > 0 && D->r[0].o.kind == PTX_O_PARAMLIST)
        D->out[D->nout++] = D->r[i++].o;
    else
        D->out[D->nout++] = empty;
    if (i >= D->n || D->r[i].o.kind != PTX_O_LABEL)
        return perr(D->P, D->mn->line, "call target must be a function name (indirect calls are not supported)");
    raw_opnd *f = &D->r[i++];
    parser *P = D->P;
    if (p_grow(P, (void **)&P->cfix, &P->cap_cfix, P->ncfix + 1, sizeof *P->cfix))
        return -1;
    fixup *fx = &P->cfix[P->ncfix++];
    fx->inst = P->m->ninsts;
    fx->opnd = P->m->nopnds + 1;
    fx->name = f->name.s;
    fx->len = f->name.len;
    fx->line = f->line;
    ptx_opnd fo = {0};
    fo.kind = PTX_O_FUNC;
    D->out[D->nout++] = fo;
    if (i < D->n && D->r[i].o.kind == PTX_O_PARAMLIST)
        D->out[D->nout++] = D->r[i++].o;
    else
        D->out[D->nout++] = empty;
    if (i != D->n)
        return perr(D->P, D->mn->line, "unsupported call form (prototype or indirect call)");
    D->in.isa = ISA_OP_BRANCH;
    return 0;
}

static int dec_bar(dec *D)
{
    mods *M = &D->M;
    if (M->flags & PTX_F_WARP) {
        if (nargs(D, 1, 1) || val(D, 0, PTX_T_B32))
            return -1;
        D->in.isa = ISA_OP_MISC;
        return 0;
    }
    if (M->flags & PTX_F_RED) {
        /* bar.red.op.type d, a{, b}, {!}c */
        if (nargs(D, 3, 4) || need_type(D, 1))
            return -1;
        int ty = M->types[0];
        if (!M->aop || (M->aop == PTX_AOP_POPC) != (ty == PTX_T_U32) ||
            (M->aop != PTX_AOP_POPC && M->aop != PTX_AOP_AND && M->aop != PTX_AOP_OR))
            return bad(D);
        D->in.type = (uint8_t)ty;
        D->in.sub = (uint8_t)M->aop;
        if (dst(D, 0, ty, 0) || val(D, 1, PTX_T_U32))
            return -1;
        if (D->n == 4) {
            if (val(D, 2, PTX_T_U32))
                return -1;
        } else {
            none(D);
        }
        if (val(D, D->n - 1, PTX_T_PRED))
            return -1;
        D->in.isa = ISA_OP_BARRIER;
        return 0;
    }
    if (!M->sync && !(M->flags & PTX_F_ARRIVE) && D->in.op == PTX_OP_BARRIER)
        return bad(D);
    if (nargs(D, (M->flags & PTX_F_ARRIVE) ? 2 : 1, 2) || M->ntypes)
        return -1;
    if (val(D, 0, PTX_T_U32))
        return -1;
    if (D->n == 2) {
        if (val(D, 1, PTX_T_U32))
            return -1;
    } else {
        none(D);
    }
    D->in.isa = ISA_OP_BARRIER;
    return 0;
}

static int dec_shfl(dec *D)
{
    mods *M = &D->M;
    if (!M->shfl || !M->sync || M->ntypes != 1 || M->types[0] != PTX_T_B32)
        return bad(D);
    if (nargs(D, 5, 5))
        return -1;
    D->in.sub = (uint8_t)M->shfl;
    D->in.type = PTX_T_B32;
    raw_opnd *d = &D->r[0];
    if (d->o.kind != PTX_O_REG)
        return perr(D->P, d->line, "destination of shfl must be a register");
    D->out[D->nout++] = d->o;
    if (d->pair) {
        if (d->o2.kind != PTX_O_PRED)
            return perr(D->P, d->line, "second destination of shfl must be a predicate");
        D->out[D->nout++] = d->o2;
    } else {
        none(D);
    }
    for (int i = 1; i < 5; i++)
        if (val(D, i, PTX_T_B32))
            return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

static int dec_vote(dec *D)
{
    mods *M = &D->M;
    int mode = M->vote ? M->vote : (M->flags & PTX_F_UNI) ? PTX_VOTE_UNI : 0;
    if (!mode || !M->sync || M->ntypes != 1)
        return bad(D);
    if (nargs(D, 3, 3))
        return -1;
    int ty = M->types[0];
    if ((mode == PTX_VOTE_BALLOT) != (ty == PTX_T_B32) || (mode != PTX_VOTE_BALLOT && ty != PTX_T_PRED))
        return bad(D);
    D->in.sub = (uint8_t)mode;
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0) || val(D, 1, PTX_T_PRED) || val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

static int dec_match(dec *D)
{
    mods *M = &D->M;
    int mode = M->vote;
    if ((mode != PTX_VOTE_ANY && mode != PTX_VOTE_ALL) || !M->sync || need_type(D, 1))
        return bad(D);
    int ty = M->types[0];
    if (ty != PTX_T_B32 && ty != PTX_T_B64)
        return bad(D);
    if (nargs(D, 3, 3))
        return -1;
    D->in.sub = (uint8_t)mode;
    D->in.type = (uint8_t)ty;
    raw_opnd *d = &D->r[0];
    if (d->o.kind != PTX_O_REG)
        return perr(D->P, d->line, "destination of match must be a register");
    D->out[D->nout++] = d->o;
    if (d->pair) {
        if (mode != PTX_VOTE_ALL || d->o2.kind != PTX_O_PRED)
            return bad(D);
        D->out[D->nout++] = d->o2;
    } else {
        none(D);
    }
    if (val(D, 1, ty) || val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

static int dec_redux(dec *D)
{
    mods *M = &D->M;
    if (!M->sync || M->ntypes != 1)
        return bad(D);
    if (nargs(D, 3, 3))
        return -1;
    int ty = M->types[0];
    int aop = M->aop;
    if (ty != PTX_T_U32 && ty != PTX_T_S32 && ty != PTX_T_B32)
        return bad(D);
    if (aop != PTX_AOP_ADD && aop != PTX_AOP_MIN && aop != PTX_AOP_MAX && aop != PTX_AOP_AND && aop != PTX_AOP_OR &&
        aop != PTX_AOP_XOR)
        return bad(D);
    D->in.sub = (uint8_t)aop;
    D->in.type = (uint8_t)ty;
    if (dst(D, 0, ty, 0) || val(D, 1, ty) || val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
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
        if (arith(D, 3))
            return -1;
        return is_int(in->type) ? 0 : bad(D);
    case PTX_OP_FMA:
        return dec_fma(D);
    case PTX_OP_DIV: case PTX_OP_REM:
        return dec_div(D);
    case PTX_OP_ABS: case PTX_OP_NEG:
        if (dec_unary_int_or_float(D))
            return -1;
        return (is_int(in->type) && tkind(in->type) == 'u') ? bad(D) : 0;
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
        if (arith(D, 2))
            return -1;
        return (in->type == PTX_T_F32 || in->type == PTX_T_F64) ? 0 : bad(D);
    case PTX_OP_TESTP:
        if (!M->testp || M->ntypes != 1)
            return bad(D);
        if (nargs(D, 2, 2))
            return -1;
        in->type2 = (uint8_t)M->types[0];
        in->type = PTX_T_PRED;
        in->sub = (uint8_t)M->testp;
        if (in->type2 != PTX_T_F32 && in->type2 != PTX_T_F64)
            return bad(D);
        if (dst(D, 0, PTX_T_PRED, 0) || val(D, 1, in->type2))
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
            return bad(D);
        if (nargs(D, 2, 2))
            return -1;
        in->type = PTX_T_PRED;
        if (dst(D, 0, PTX_T_PRED, 0) || val(D, 1, PTX_T_U64))
            return -1;
        in->isa = ISA_OP_INT_ALU;
        return 0;
    case PTX_OP_MOV:
        return dec_mov(D);
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST:
        return dec_ldst(D);
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU:
        if (nargs(D, 1, 1) || D->r[0].o.kind != PTX_O_MEM)
            return bad(D);
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
        if (nargs(D, 0, 0))
            return -1;
        in->isa = D->P->m->funcs[D->P->fn].is_kernel ? ISA_OP_EXIT : ISA_OP_BRANCH;
        return 0;
    case PTX_OP_EXIT: case PTX_OP_TRAP:
        if (nargs(D, 0, 0))
            return -1;
        in->isa = ISA_OP_EXIT;
        return 0;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return dec_bar(D);
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        if (nargs(D, 0, 0))
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
        if (nargs(D, 1, 1) || need_type(D, 1) || dst(D, 0, PTX_T_B32, 0))
            return -1;
        in->type = PTX_T_B32;
        in->isa = ISA_OP_MISC;
        return 0;
    case PTX_OP_REDUX:
        return dec_redux(D);
    case PTX_OP_BRKPT: case PTX_OP_PMEVENT: case PTX_OP_NANOSLEEP:
        for (int i = 0; i < D->n; i++)
            if (val(D, i, PTX_T_U32))
                return -1;
        in->isa = ISA_OP_NOP;
        return 0;
    default:
        return bad(D);
    }
}

/* ---- ws_inst register lists ---- */

static void ws_regs(const ptx_module *m, ptx_inst *in, const ptx_opnd *o)
{
    int nd = 0, ns = 0;
    uint16_t d[16], s[16];
    int ndst_opnds;
    switch (in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_PREFETCH: case PTX_OP_PREFETCHU: case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_TRAP:
    case PTX_OP_BRKPT: case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
        ndst_opnds = 0;
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        ndst_opnds = (in->flags & PTX_F_RED) ? 1 : 0;
        break;
    case PTX_OP_SETP: case PTX_OP_SHFL: case PTX_OP_MATCH:
        ndst_opnds = 2;
        break;
    default:
        ndst_opnds = in->nopnd ? 1 : 0;
    }
    for (int i = 0; i < in->nopnd; i++) {
        const ptx_opnd *p = &o[i];
        int isdst = i < ndst_opnds;
        uint16_t *arr = isdst ? d : s;
        int *cnt = isdst ? &nd : &ns;
        switch (p->kind) {
        case PTX_O_REG:
            if (*cnt < 16)
                arr[(*cnt)++] = (uint16_t)p->reg;
            break;
        case PTX_O_PRED:
            if (*cnt < 16)
                arr[(*cnt)++] = (uint16_t)(PTX_WSREG_PRED | p->reg);
            break;
        case PTX_O_MEM:
            if (p->reg != PTX_NO_REG && ns < 16)
                s[ns++] = (uint16_t)p->reg;
            break;
        case PTX_O_VEC:
            for (int k = 0; k < p->n; k++) {
                uint32_t r = m->vregs[p->reg + (uint32_t)k];
                if (r != PTX_NO_REG && *cnt < 16)
                    arr[(*cnt)++] = (uint16_t)r;
            }
            break;
        default:
            break;
        }
    }
    if (in->guard && ns < 16)
        s[ns++] = (uint16_t)(PTX_WSREG_PRED | (in->guard - 1));
    if (nd > WS_MAX_DST)
        nd = WS_MAX_DST;
    if (ns > WS_MAX_SRC)
        ns = WS_MAX_SRC;
    for (int i = 0; i < nd; i++)
        in->wsreg[i] = d[i];
    for (int i = 0; i < ns; i++)
        in->wsreg[nd + i] = s[i];
    in->nws = (uint8_t)(nd | ns << 4);
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
            if (read_operand(P, &D.r[D.n++]))
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
    ws_regs(m, &D.in, m->opnds + D.in.opnd);
    m->insts[m->ninsts++] = D.in;
    return 0;
}
