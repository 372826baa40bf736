/*
 * ptx_parse.c - PTX modules: directives, declarations, scopes and symbols.
 *
 * One pass over the tokens builds the module's flat arrays (functions,
 * instructions, operands, variables, parameters); names are resolved as
 * they are met, because PTX declares before use, except branch labels
 * (resolved at the end of their function) and callees (at the end of the
 * module).  Names are looked up in ptx_symbols.c, variable declarations are
 * in ptx_vars.c, instructions are handed to ptx_decode.c.  The grammar covered
 * is what nvcc emits (PTX ISA 8.x/9.x, "Directives" and "State spaces"
 * chapters of the PTX ISA manual): .version/.target/.address_size, .file/
 * .loc (ignored), .pragma, .section (skipped: DWARF data), linkage
 * (.visible/.extern/.weak/.common), module and function scope variables in
 * .global/.const/.shared/.local with .align, vectors, arrays and
 * initialisers (numbers and symbol addresses), .entry and .func with
 * parameters and return parameters, performance directives, .reg
 * declarations with <N> ranges, nested { } scopes whose declarations may
 * shadow outer ones (nvcc does this for temporaries), and labels.
 *
 * Static placement decided here:
 *   .global/.const variables   one allocation each from PTX_GLOBAL_BASE, in
 *                              declaration order, 256-byte aligned with a gap
 *                              (ptx_mem_load_module creates them)
 *   .shared variables          one module-wide cursor: every variable gets
 *                              its own offset, so kernels never overlap
 *   .local variables           per function frame (recursion is rejected)
 *   call-site .param           per function parameter frame, after the
 *                              function's own parameters and return values
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"

const ptx_type_info ptx_types[PTX_T_COUNT] = {
#define X(id, nm, size, kind) [PTX_T_##id] = {nm, size, kind},
    PTX_TYPES(X)
#undef X
};

const char *const ptx_op_names[PTX_OP_COUNT] = {
#define X(id, nm) [PTX_OP_##id] = nm,
    PTX_OPS(X)
#undef X
};

#define MAX_FUNC_REGS 32767u

int perr(parser *P, uint32_t line, const char *fmt, ...)
{
    if (!P->e)
        return -1;
    char buf[GE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ge_errf(P->e, "%s:%u: %s", P->name, line, buf);
}

int p_grow(parser *P, void **buf, size_t *cap, size_t need, size_t elsize)
{
    return ge_reserve(buf, cap, need, elsize, P->e);
}

uint32_t p_str(parser *P, const char *s, int len)
{
    ptx_module *m = P->m;
    if (p_grow(P, (void **)&m->strs, &P->cap_strs, m->nstrs + (size_t)len + 1, 1))
        return UINT32_MAX;
    uint32_t off = (uint32_t)m->nstrs;
    memcpy(m->strs + off, s, (size_t)len);
    m->strs[off + len] = 0;
    m->nstrs += (size_t)len + 1;
    return off;
}

static uint32_t hash_str(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

int p_mnem(parser *P, const char *s, int len)
{
    ptx_module *m = P->m;
    if (m->nmnems * 2 + 2 > P->mhash_cap) {
        size_t nc = P->mhash_cap ? P->mhash_cap * 2 : 256;
        uint32_t *nh = calloc(nc, sizeof *nh);
        if (!nh)
            return ge_errf(P->e, "out of memory");
        for (uint32_t i = 0; i < m->nmnems; i++) {
            size_t k = hash_str(m->mnems[i], (int)strlen(m->mnems[i])) & (nc - 1);
            while (nh[k])
                k = (k + 1) & (nc - 1);
            nh[k] = i + 1;
        }
        free(P->mhash);
        P->mhash = nh;
        P->mhash_cap = nc;
    }
    size_t k = hash_str(s, len) & (P->mhash_cap - 1);
    while (P->mhash[k]) {
        const char *c = m->mnems[P->mhash[k] - 1];
        if ((int)strlen(c) == len && memcmp(c, s, (size_t)len) == 0)
            return (int)P->mhash[k] - 1;
        k = (k + 1) & (P->mhash_cap - 1);
    }
    if (m->nmnems >= 65535)
        return ge_errf(P->e, "%s: too many distinct instructions", P->name);
    if (p_grow(P, (void **)&m->mnems, &P->cap_mnems, m->nmnems + 1, sizeof *m->mnems))
        return -1;
    char *c = malloc((size_t)len + 1);
    if (!c)
        return ge_errf(P->e, "out of memory");
    memcpy(c, s, (size_t)len);
    c[len] = 0;
    m->mnems[m->nmnems] = c;
    P->mhash[k] = m->nmnems + 1;
    return (int)m->nmnems++;
}

/* ------------------------------------------------------------ utilities */

int p_expect(parser *P, char c)
{
    tok t = lex_next(&P->L);
    if (!tok_punct(&t, c))
        return perr(P, t.line, "expected '%c' but found '%.*s'", c, t.len ? t.len : 3, t.len ? t.s : "EOF");
    return 0;
}

int p_read_uint(parser *P, uint64_t *v)
{
    tok t = lex_next(&P->L);
    int form;
    double f;
    if (t.kind != TK_WORD || lex_number(t.s, t.len, &form, v, &f) || form != LIT_INT)
        return perr(P, t.line, "expected a number but found '%.*s'", t.len, t.s);
    return 0;
}

static void skip_line(parser *P)
{
    lexer *L = &P->L;
    L->has_peek = 0;
    while (L->p < L->end && *L->p != '\n')
        L->p++;
}

static int skip_to_semicolon(parser *P)
{
    for (;;) {
        tok t = lex_next(&P->L);
        if (t.kind == TK_EOF)
            return perr(P, t.line, "unexpected end of file");
        if (tok_punct(&t, ';'))
            return 0;
    }
}

int p_type_of(const tok *t)
{
    if (t->kind != TK_WORD || t->s[0] != '.')
        return -1;
    for (int i = 1; i < PTX_T_COUNT; i++)
        if ((int)strlen(ptx_types[i].name) == t->len - 1 && memcmp(ptx_types[i].name, t->s + 1, (size_t)t->len - 1) == 0)
            return i;
    return -1;
}


/* ------------------------------------------------------------- functions */

static int parse_params(parser *P, ptx_func *f, int is_ret)
{
    ptx_module *m = P->m;
    /* '(' already consumed */
    tok t = lex_peek(&P->L);
    if (tok_punct(&t, ')')) {
        lex_next(&P->L);
        return 0;
    }
    for (;;) {
        t = lex_next(&P->L);
        if (tok_is(&t, ".reg"))
            return perr(P, t.line, ".reg parameters are not supported (old ABI)");
        if (!tok_is(&t, ".param"))
            return perr(P, t.line, "expected .param, found '%.*s'", t.len, t.s);
        uint64_t align = 0;
        int ty = -1;
        for (;;) {
            t = lex_next(&P->L);
            if (tok_is(&t, ".align")) {
                if (p_read_uint(P, &align))
                    return -1;
            } else if (tok_is(&t, ".ptr") || tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared") ||
                       tok_is(&t, ".local")) {
                continue;
            } else if ((ty = p_type_of(&t)) >= 0) {
                break;
            } else {
                return perr(P, t.line, "bad parameter declaration at '%.*s'", t.len, t.s);
            }
        }
        tok name = lex_next(&P->L);
        while (tok_is(&name, ".ptr") || tok_is(&name, ".global") || tok_is(&name, ".const") ||
               tok_is(&name, ".shared") || tok_is(&name, ".local") || tok_is(&name, ".align")) {
            if (tok_is(&name, ".align") && p_read_uint(P, &align)) /* .ptr attributes after the type */
                return -1;
            name = lex_next(&P->L);
        }
        if (name.kind != TK_WORD || name.s[0] == '.')
            return perr(P, name.line, "expected a parameter name");
        uint64_t n = 1;
        t = lex_peek(&P->L);
        if (tok_punct(&t, '[')) {
            lex_next(&P->L);
            if (p_read_uint(P, &n) || p_expect(P, ']'))
                return -1;
        }
        uint64_t size = n * ptx_types[ty].size;
        if (size == 0 || size > 32768)
            return perr(P, name.line, "bad parameter size");
        if (!align || align < ptx_types[ty].size)
            align = align ? align : ptx_types[ty].size;
        if (p_grow(P, (void **)&m->params, &P->cap_params, m->nparams + 1, sizeof *m->params))
            return -1;
        ptx_param *pa = &m->params[m->nparams];
        pa->name = p_str(P, name.s, name.len);
        if (pa->name == UINT32_MAX)
            return -1;
        pa->size = (uint32_t)size;
        pa->align = (uint32_t)align;
        pa->offset = (uint32_t)p_align_up(f->param_size, align);
        f->param_size = pa->offset + pa->size;
        if (f->param_size > 32764)
            return perr(P, name.line, "parameters exceed 32764 bytes");
        m->nparams++;
        if (is_ret)
            f->nrets++;
        else
            f->nparams++;
        t = lex_next(&P->L);
        if (tok_punct(&t, ')'))
            return 0;
        if (!tok_punct(&t, ','))
            return perr(P, t.line, "expected ',' or ')' in parameter list");
    }
}

static int parse_reg_decl(parser *P)
{
    ptx_module *m = P->m;
    ptx_func *f = &m->funcs[P->fn];
    tok t = lex_next(&P->L);
    if (tok_is(&t, ".v2") || tok_is(&t, ".v4"))
        return perr(P, t.line, "vector registers are not supported");
    int ty = p_type_of(&t);
    if (ty < 0)
        return perr(P, t.line, "expected a register type, found '%.*s'", t.len, t.s);
    if (ptx_types[ty].size > 8)
        return perr(P, t.line, ".%s registers are not supported", ptx_types[ty].name);
    for (;;) {
        tok name = lex_next(&P->L);
        if (name.kind != TK_WORD || name.s[0] == '.')
            return perr(P, name.line, "expected a register name");
        uint64_t count = 1;
        int is_range = 0;
        t = lex_peek(&P->L);
        if (tok_punct(&t, '<')) {
            lex_next(&P->L);
            if (p_read_uint(P, &count) || p_expect(P, '>'))
                return -1;
            is_range = 1;
        }
        uint32_t *ctr = ty == PTX_T_PRED ? &f->npreds : &f->nregs;
        if (count > MAX_FUNC_REGS || *ctr + count > MAX_FUNC_REGS)
            return perr(P, name.line, "function has more than %u registers", MAX_FUNC_REGS);
        if (p_grow(P, (void **)&P->regs, &P->cap_regs, P->nregs + 1, sizeof *P->regs))
            return -1;
        reg_decl *d = &P->regs[P->nregs++];
        d->name = name.s;
        d->len = name.len;
        d->is_range = is_range;
        d->count = (uint32_t)count;
        d->base = *ctr;
        d->is_pred = ty == PTX_T_PRED;
        d->type = (uint8_t)ty;
        d->depth = P->depth;
        *ctr += (uint32_t)count;
        if (ty != PTX_T_PRED && count) {
            if (p_grow(P, (void **)&m->regw, &P->cap_regw, m->nregw + count, 1))
                return -1;
            memset(m->regw + m->nregw, ptx_types[ty].size > 4 ? 2 : 1, count);
            m->nregw += (uint32_t)count;
        }
        t = lex_next(&P->L);
        if (tok_punct(&t, ';'))
            return 0;
        if (!tok_punct(&t, ','))
            return perr(P, t.line, "expected ',' or ';' in .reg declaration");
    }
}

static void pop_scope(parser *P)
{
    while (P->nregs && P->regs[P->nregs - 1].depth >= P->depth)
        P->nregs--;
    while (P->nsyms && P->syms[P->nsyms - 1].depth >= P->depth)
        P->nsyms--;
}

static int resolve_branches(parser *P)
{
    ptx_module *m = P->m;
    for (size_t i = 0; i < P->nbfix; i++) {
        fixup *fx = &P->bfix[i];
        size_t k = 0;
        for (; k < P->nlabels; k++)
            if (name_eq(P->labels[k].name, P->labels[k].len, fx->name, fx->len))
                break;
        if (k == P->nlabels)
            return perr(P, fx->line, "unknown label '%.*s'", fx->len, fx->name);
        uint32_t tgt = P->labels[k].inst;
        ptx_func *f = &m->funcs[P->fn];
        if (tgt >= f->first + f->ninst)
            return perr(P, fx->line, "label '%.*s' is at the end of the function", fx->len, fx->name);
        m->opnds[fx->opnd].imm = tgt;
        m->insts[fx->inst].target = tgt;
    }
    P->nbfix = 0;
    return 0;
}

/* A function whose last instruction can fall through gets an implicit ret
 * (at the line of its closing brace), so execution never runs past the end
 * of a function; the CFG treats falling off the end the same way. */
static int implicit_ret(parser *P, uint32_t line)
{
    ptx_module *m = P->m;
    const ptx_inst *last = &m->insts[m->ninsts - 1];
    int ends = (last->op == PTX_OP_BRA || last->op == PTX_OP_RET || last->op == PTX_OP_EXIT ||
                last->op == PTX_OP_TRAP) && !last->guard;
    if (ends)
        return 0;
    int mi = p_mnem(P, "ret", 3);
    if (mi < 0 || p_grow(P, (void **)&m->insts, &P->cap_insts, m->ninsts + 1, sizeof *m->insts))
        return -1;
    ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = PTX_OP_RET;
    in.isa = m->funcs[P->fn].is_kernel ? ISA_OP_EXIT : ISA_OP_BRANCH;
    in.vec = 1;
    in.mnem = (uint16_t)mi;
    in.func = (uint32_t)P->fn;
    in.line = line;
    in.target = in.rpc = PTX_NO_PC;
    in.opnd = m->nopnds;
    m->insts[m->ninsts++] = in;
    m->funcs[P->fn].ninst++;
    return 0;
}

static int parse_body(parser *P)
{
    ptx_module *m = P->m;
    ptx_func *f = &m->funcs[P->fn];
    uint32_t end_line = 0;
    f->first = m->ninsts;
    f->regw_first = m->nregw;
    f->frame_size = f->is_kernel ? 0 : f->param_size;
    P->depth = 1;
    P->nregs = P->nsyms = P->nlabels = P->nbfix = 0;
    for (;;) {
        tok t = lex_next(&P->L);
        if (t.kind == TK_EOF)
            return perr(P, t.line, "unexpected end of file inside function");
        if (tok_punct(&t, '{')) {
            P->depth++;
            continue;
        }
        if (tok_punct(&t, '}')) {
            pop_scope(P);
            end_line = t.line;
            if (--P->depth == 0)
                break;
            continue;
        }
        if (tok_punct(&t, ';'))
            continue;
        f = &m->funcs[P->fn];
        if (t.kind == TK_WORD && t.s[0] == '.') {
            if (tok_is(&t, ".reg")) {
                if (parse_reg_decl(P))
                    return -1;
            } else if (tok_is(&t, ".local")) {
                if (p_parse_var(P, PTX_SP_LOCAL, 0, t.line))
                    return -1;
            } else if (tok_is(&t, ".shared")) {
                if (p_parse_var(P, PTX_SP_SHARED, 0, t.line))
                    return -1;
            } else if (tok_is(&t, ".param")) {
                if (p_parse_var(P, PTX_SP_PARAM, 0, t.line))
                    return -1;
            } else if (tok_is(&t, ".pragma")) {
                if (skip_to_semicolon(P))
                    return -1;
            } else if (tok_is(&t, ".loc") || tok_is(&t, ".file") || tok_is(&t, ".dwarf")) {
                skip_line(P);
            } else {
                return perr(P, t.line, "unsupported directive '%.*s' in function body", t.len, t.s);
            }
            continue;
        }
        uint32_t guard = 0;
        int gneg = 0;
        if (tok_punct(&t, '@')) {
            tok g = lex_next(&P->L);
            if (tok_punct(&g, '!')) {
                gneg = 1;
                g = lex_next(&P->L);
            }
            raw_opnd r;
            if (g.kind != TK_WORD || p_resolve_name(P, &g, &r))
                return perr(P, g.line, "bad guard predicate '%.*s'", g.len, g.s);
            if (r.o.kind != PTX_O_PRED)
                return perr(P, g.line, "guard '%.*s' is not a predicate", g.len, g.s);
            guard = r.o.reg + 1;
            t = lex_next(&P->L);
        }
        if (t.kind != TK_WORD)
            return perr(P, t.line, "unexpected '%.*s'", t.len, t.s);
        tok n = lex_peek(&P->L);
        if (!guard && tok_punct(&n, ':')) {
            lex_next(&P->L);
            if (p_grow(P, (void **)&P->labels, &P->cap_labels, P->nlabels + 1, sizeof *P->labels))
                return -1;
            for (size_t k = 0; k < P->nlabels; k++)
                if (name_eq(P->labels[k].name, P->labels[k].len, t.s, t.len))
                    return perr(P, t.line, "duplicate label '%.*s'", t.len, t.s);
            P->labels[P->nlabels].name = t.s;
            P->labels[P->nlabels].len = t.len;
            P->labels[P->nlabels].inst = m->ninsts;
            P->nlabels++;
            continue;
        }
        if (ptx_decode(P, &t, guard, gneg))
            return -1;
        m->funcs[P->fn].ninst = m->ninsts - m->funcs[P->fn].first;
    }
    f = &m->funcs[P->fn];
    f->ninst = m->ninsts - f->first;
    if (f->ninst && implicit_ret(P, end_line))
        return -1;
    return resolve_branches(P);
}

static int parse_function(parser *P, int is_kernel, uint32_t line)
{
    ptx_module *m = P->m;
    ptx_func nf = {0};
    nf.is_kernel = (uint8_t)is_kernel;
    nf.line = line;
    tok t = lex_next(&P->L);
    /* return parameters of a .func come first, in parentheses */
    uint32_t rets_first = m->nparams;
    if (tok_punct(&t, '(')) {
        if (is_kernel)
            return perr(P, t.line, "kernels have no return values");
        nf.ret_first = m->nparams;
        if (parse_params(P, &nf, 1))
            return -1;
        t = lex_next(&P->L);
    }
    if (t.kind != TK_WORD || t.s[0] == '.')
        return perr(P, t.line, "expected a function name, found '%.*s'", t.len, t.s);
    tok name = t;
    nf.param_first = m->nparams;
    /* rets were laid out first in the frame: keep their offsets, params follow */
    t = lex_peek(&P->L);
    if (tok_punct(&t, '(')) {
        lex_next(&P->L);
        if (parse_params(P, &nf, 0))
            return -1;
    }
    if (nf.nrets) {
        /* parameters were appended after the returns: param_first points after them */
        nf.ret_first = rets_first;
        nf.param_first = rets_first + nf.nrets;
    }
    /* performance directives, then ';' (declaration) or '{' (definition) */
    for (;;) {
        t = lex_next(&P->L);
        if (tok_is(&t, ".maxntid") || tok_is(&t, ".reqntid")) {
            for (int k = 0; k < 3; k++) {
                uint64_t v;
                if (p_read_uint(P, &v))
                    return -1;
                nf.reqntid[k] = (uint32_t)v;
                tok c = lex_peek(&P->L);
                if (!tok_punct(&c, ','))
                    break;
                lex_next(&P->L);
            }
        } else if (tok_is(&t, ".minnctapersm") || tok_is(&t, ".maxnreg") || tok_is(&t, ".maxnctapersm") ||
                   tok_is(&t, ".maxclusterrank")) {
            uint64_t v;
            if (p_read_uint(P, &v))
                return -1;
        } else if (tok_is(&t, ".noreturn") || tok_is(&t, ".explicitcluster")) {
            continue;
        } else if (tok_is(&t, ".pragma")) {
            if (skip_to_semicolon(P))
                return -1;
        } else {
            break;
        }
    }
    int idx = p_func_index(m, name.s, name.len);
    if (idx >= 0) {
        ptx_func *old = &m->funcs[idx];
        if (!old->is_extern || old->is_kernel != nf.is_kernel)
            return perr(P, name.line, "function '%.*s' defined twice", name.len, name.s);
    }
    if (tok_punct(&t, ';')) {
        if (idx >= 0)
            return 0; /* repeated prototype */
        nf.is_extern = 1;
        nf.name = p_str(P, name.s, name.len);
        if (nf.name == UINT32_MAX)
            return -1;
        if (tok_is(&name, "vprintf"))
            nf.builtin = PTX_BUILTIN_VPRINTF;
        else if (tok_is(&name, "__assertfail"))
            nf.builtin = PTX_BUILTIN_ASSERTFAIL;
        if (p_grow(P, (void **)&m->funcs, &P->cap_funcs, m->nfuncs + 1, sizeof *m->funcs))
            return -1;
        m->funcs[m->nfuncs++] = nf;
        return 0;
    }
    if (!tok_punct(&t, '{'))
        return perr(P, t.line, "expected '{' or ';' after function header, found '%.*s'", t.len, t.s);
    nf.name = p_str(P, name.s, name.len);
    if (nf.name == UINT32_MAX)
        return -1;
    if (idx < 0) {
        if (p_grow(P, (void **)&m->funcs, &P->cap_funcs, m->nfuncs + 1, sizeof *m->funcs))
            return -1;
        idx = (int)m->nfuncs++;
    }
    m->funcs[idx] = nf;
    P->fn = idx;
    if (parse_body(P))
        return -1;
    if (m->funcs[idx].ninst == 0)
        return perr(P, line, "function '%.*s' has no instructions", name.len, name.s);
    P->fn = -1;
    return 0;
}

static int skip_section(parser *P)
{
    tok t = lex_next(&P->L); /* section name */
    t = lex_next(&P->L);
    if (!tok_punct(&t, '{'))
        return perr(P, t.line, "expected '{' after .section");
    int depth = 1;
    while (depth) {
        t = lex_next(&P->L);
        if (t.kind == TK_EOF)
            return perr(P, t.line, "unexpected end of file in .section");
        if (tok_punct(&t, '{'))
            depth++;
        else if (tok_punct(&t, '}'))
            depth--;
    }
    return 0;
}

static int resolve_calls(parser *P)
{
    ptx_module *m = P->m;
    for (size_t i = 0; i < P->ncfix; i++) {
        fixup *fx = &P->cfix[i];
        int f = p_func_index(m, fx->name, fx->len);
        if (f < 0)
            return perr(P, fx->line, "call to unknown function '%.*s'", fx->len, fx->name);
        ptx_func *callee = &m->funcs[f];
        if (callee->is_kernel)
            return perr(P, fx->line, "call to kernel '%.*s'", fx->len, fx->name);
        if (callee->is_extern && !callee->builtin)
            return perr(P, fx->line, "call to external function '%.*s' is not supported", fx->len, fx->name);
        ptx_inst *in = &m->insts[fx->inst];
        in->target = (uint32_t)f;
        m->opnds[fx->opnd].imm = f;
        /* argument and return counts must match the callee */
        const ptx_opnd *o = m->opnds + in->opnd;
        uint32_t nret = o[0].n, narg = o[2].n;
        if (nret != callee->nrets || narg != callee->nparams)
            return perr(P, fx->line, "call to '%.*s' with %u arguments and %u results, expected %u and %u",
                        fx->len, fx->name, narg, nret, callee->nparams, callee->nrets);
    }
    return 0;
}

/* Decimal digits at the start of s[0..len) ("90a" -> 90); 0 if none. */
static int leading_int(const char *s, int len)
{
    int v = 0;
    for (int i = 0; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

/* "MAJOR.MINOR" within the token (the text need not be NUL-terminated). */
static int parse_version(const tok *v, int *maj, int *min)
{
    int dot = 0;
    while (dot < v->len && v->s[dot] != '.')
        dot++;
    if (dot == 0 || dot >= v->len - 1)
        return -1;
    for (int i = 0; i < v->len; i++)
        if (i != dot && (v->s[i] < '0' || v->s[i] > '9'))
            return -1;
    *maj = leading_int(v->s, dot);
    *min = leading_int(v->s + dot + 1, v->len - dot - 1);
    return 0;
}

static int parse_module(parser *P)
{
    ptx_module *m = P->m;
    int is_extern = 0;
    for (;;) {
        tok t = lex_next(&P->L);
        if (t.kind == TK_EOF)
            break;
        if (tok_punct(&t, ';'))
            continue;
        if (t.kind != TK_WORD || t.s[0] != '.')
            return perr(P, t.line, "unexpected '%.*s' at module scope", t.len, t.s);
        if (tok_is(&t, ".version")) {
            tok v = lex_next(&P->L);
            int maj = 0, min = 0;
            if (v.kind != TK_WORD || parse_version(&v, &maj, &min))
                return perr(P, v.line, "bad .version");
            if (maj < 6 || maj > 9)
                return perr(P, v.line, "PTX version %d.%d is not supported (6.x to 9.x)", maj, min);
            m->version = (uint32_t)(maj * 10 + min);
        } else if (tok_is(&t, ".target")) {
            for (;;) {
                tok v = lex_next(&P->L);
                if (v.kind == TK_WORD && v.len > 3 && memcmp(v.s, "sm_", 3) == 0)
                    m->target = (uint32_t)leading_int(v.s + 3, v.len - 3);
                else if (v.kind != TK_WORD)
                    return perr(P, v.line, "bad .target");
                tok c = lex_peek(&P->L);
                if (!tok_punct(&c, ','))
                    break;
                lex_next(&P->L);
            }
            if (m->target && m->target < 50)
                return perr(P, t.line, ".target sm_%u is not supported", m->target);
        } else if (tok_is(&t, ".address_size")) {
            uint64_t v;
            if (p_read_uint(P, &v))
                return -1;
            if (v != 64)
                return perr(P, t.line, ".address_size %llu is not supported (64 only)", (unsigned long long)v);
            m->address_size = 64;
        } else if (tok_is(&t, ".file") || tok_is(&t, ".loc")) {
            skip_line(P);
        } else if (tok_is(&t, ".pragma")) {
            if (skip_to_semicolon(P))
                return -1;
        } else if (tok_is(&t, ".section")) {
            if (skip_section(P))
                return -1;
        } else if (tok_is(&t, ".visible") || tok_is(&t, ".weak") || tok_is(&t, ".common")) {
            continue;
        } else if (tok_is(&t, ".extern")) {
            is_extern = 1;
            continue;
        } else if (tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared")) {
            int sp = t.s[1] == 'g' ? PTX_SP_GLOBAL : t.s[1] == 'c' ? PTX_SP_CONST : PTX_SP_SHARED;
            if (p_parse_var(P, sp, is_extern, t.line))
                return -1;
        } else if (tok_is(&t, ".entry") || tok_is(&t, ".func")) {
            if (!m->version)
                return perr(P, t.line, "function before .version");
            if (parse_function(P, t.s[1] == 'e', t.line))
                return -1;
        } else {
            return perr(P, t.line, "unsupported directive '%.*s'", t.len, t.s);
        }
        is_extern = 0;
    }
    if (!m->version)
        return perr(P, P->L.line, "missing .version");
    if (!m->target)
        return perr(P, P->L.line, "missing .target");
    if (resolve_calls(P))
        return -1;
    return ptx_cfg_module(m, P->e);
}

int ptx_module_parse(const char *text, size_t len, const char *name, ptx_module **out, ge_err *e)
{
    *out = NULL;
    parser P;
    memset(&P, 0, sizeof P);
    P.name = name ? name : "ptx";
    P.e = e;
    P.fn = -1;
    P.m = calloc(1, sizeof *P.m);
    if (!P.m)
        return ge_errf(e, "out of memory");
    P.m->name = strdup(P.name);
    P.m->global_end = PTX_GLOBAL_BASE;
    P.m->dyn_shared_align = 16;
    lex_init(&P.L, text, len);
    int rc = P.m->name ? parse_module(&P) : ge_errf(e, "out of memory");
    free(P.regs);
    free(P.syms);
    free(P.labels);
    free(P.bfix);
    free(P.cfix);
    free(P.mhash);
    if (rc) {
        ptx_module_free(P.m);
        return -1;
    }
    *out = P.m;
    return 0;
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nmnems; i++)
        free((char *)m->mnems[i]);
    if (m->layouts)
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            free(m->layouts[i].frame);
            free(m->layouts[i].wsmap);
        }
    free(m->layouts);
    free(m->mnems);
    free(m->regw);
    free(m->name);
    free(m->insts);
    free(m->opnds);
    free(m->vregs);
    free(m->funcs);
    free(m->params);
    free(m->vars);
    free(m->data);
    free(m->strs);
    free(m);
}
