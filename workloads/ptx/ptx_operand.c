/*
 * ptx_operand.c - operands of a PTX instruction: reading them from the
 * tokens, converting immediates to the bit pattern of their type, and the
 * register lists the warp stream reports for each instruction.
 *
 * Operand syntax (PTX ISA manual, "Instruction Operands"): registers and
 * predicates (with '!' for negation and '|' for a second destination),
 * immediates (see ptx_lex.c), special registers, symbols and symbol+offset
 * address values, [address] with a register or symbol base and a signed
 * offset, {vector} lists whose elements may be '_' (a sink), and the
 * parenthesised parameter lists of call.  Register lists for ws_inst: the
 * destinations, then the sources including address registers and the guard
 * predicate, truncated to the ws_inst limits (4 and 6).
 */
#include <string.h>

#include "ptx_exec.h"
#include "ptx_int.h"

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

int ptx_read_operand(parser *P, raw_opnd *r)
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

int ptx_conv_imm(parser *P, raw_opnd *r, int ty)
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

/* ---- ws_inst register lists ---- */

void ptx_ws_regs(const ptx_module *m, ptx_inst *in, const ptx_opnd *o)
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

