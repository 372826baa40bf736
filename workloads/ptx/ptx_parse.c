/*
 * ptx_parse.c - PTX modules: directives, declarations, scopes and symbols.
 *
 * One pass over the tokens builds the module's flat arrays (functions,
 * instructions, operands, variables, parameters); names are resolved as
 * they are met, because PTX declares before use, except branch labels
 * (resolved at the end of their function) and callees (at the end of the
 * module).  Instructions are handed to ptx_decode.c.  The grammar covered
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

static int name_eq(const char *a, int alen, const char *b, int blen)
{
    return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

static int func_by_name(const ptx_module *m, const char *s, int len)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const char *n = m->strs + m->funcs[i].name;
        if ((int)strlen(n) == len && memcmp(n, s, (size_t)len) == 0)
            return (int)i;
    }
    return -1;
}

static int var_by_name(const ptx_module *m, const char *s, int len)
{
    for (uint32_t i = m->nvars; i-- > 0;) {
        if (m->vars[i].func != UINT32_MAX)
            continue;
        const char *n = m->strs + m->vars[i].name;
        if ((int)strlen(n) == len && memcmp(n, s, (size_t)len) == 0)
            return (int)i;
    }
    return -1;
}

int ptx_module_kernel(const ptx_module *m, const char *name)
{
    int f = func_by_name(m, name, (int)strlen(name));
    return f >= 0 && m->funcs[f].is_kernel ? f : -1;
}

int ptx_module_var(const ptx_module *m, const char *name)
{
    return var_by_name(m, name, (int)strlen(name));
}

static const struct {
    const char *name;
    int ncomp;
} sreg_tab[PTX_SREG_COUNT] = {
    [PTX_SREG_TID] = {"%tid", 3},       [PTX_SREG_NTID] = {"%ntid", 3},
    [PTX_SREG_CTAID] = {"%ctaid", 3},   [PTX_SREG_NCTAID] = {"%nctaid", 3},
#define X(id, nm) [PTX_SREG_##id] = {nm, 0},
    X(LANEID, "%laneid") X(WARPID, "%warpid") X(NWARPID, "%nwarpid") X(SMID, "%smid") X(NSMID, "%nsmid")
    X(GRIDID, "%gridid") X(LANEMASK_EQ, "%lanemask_eq") X(LANEMASK_LE, "%lanemask_le")
    X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_GE, "%lanemask_ge") X(LANEMASK_GT, "%lanemask_gt")
    X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") X(CLOCK64, "%clock64") X(GLOBALTIMER, "%globaltimer")
    X(GLOBALTIMER_LO, "%globaltimer_lo") X(GLOBALTIMER_HI, "%globaltimer_hi")
    X(DYN_SMEM, "%dynamic_smem_size") X(TOTAL_SMEM, "%total_smem_size") X(WARPSZ, "WARP_SZ")
#undef X
};

static int resolve_sreg(const tok *t, raw_opnd *r)
{
    for (int i = 0; i < PTX_SREG_COUNT; i++) {
        int n = (int)strlen(sreg_tab[i].name);
        if (t->len < n || memcmp(t->s, sreg_tab[i].name, (size_t)n) != 0)
            continue;
        int comp = 0;
        if (sreg_tab[i].ncomp) {
            if (t->len != n + 2 || t->s[n] != '.')
                continue;
            char c = t->s[n + 1];
            if (c < 'x' || c > 'z')
                continue;
            comp = c - 'x';
        } else if (t->len != n) {
            continue;
        }
        r->o.kind = i == PTX_SREG_WARPSZ ? PTX_O_IMM : PTX_O_SREG;
        if (i == PTX_SREG_WARPSZ) {
            r->o.imm = 32;
            r->lit_form = LIT_INT;
        } else {
            r->o.reg = (uint32_t)(i * 4 + comp);
        }
        return 0;
    }
    return -1;
}

int p_resolve_name(parser *P, const tok *t, raw_opnd *r)
{
    ptx_module *m = P->m;
    memset(&r->o, 0, sizeof r->o);
    r->line = t->line;
    /* registers, innermost scope first */
    for (size_t i = P->nregs; i-- > 0;) {
        reg_decl *d = &P->regs[i];
        uint32_t idx;
        if (!d->is_range) {
            if (!name_eq(d->name, d->len, t->s, t->len))
                continue;
            idx = d->base;
        } else {
            if (t->len <= d->len || memcmp(t->s, d->name, (size_t)d->len) != 0)
                continue;
            uint64_t n = 0;
            int ok = 1;
            for (int k = d->len; k < t->len && ok; k++) {
                if (t->s[k] < '0' || t->s[k] > '9' || n > 100000000)
                    ok = 0;
                else
                    n = n * 10 + (uint64_t)(t->s[k] - '0');
            }
            if (!ok || n >= d->count)
                continue;
            idx = d->base + (uint32_t)n;
        }
        r->o.kind = d->is_pred ? PTX_O_PRED : PTX_O_REG;
        r->o.reg = idx;
        r->is_pred = d->is_pred;
        return 0;
    }
    if (t->s[0] == '%' || t->len == 7) {
        if (resolve_sreg(t, r) == 0)
            return 0;
    }
    /* function-scope symbols */
    for (size_t i = P->nsyms; i-- > 0;) {
        sym_decl *s = &P->syms[i];
        if (!name_eq(s->name, s->len, t->s, t->len))
            continue;
        r->o.kind = PTX_O_ADDR;
        r->space = s->space;
        r->o.imm = s->offset;
        r->o.base = s->space == PTX_SP_LOCAL ? PTX_B_LOCAL : s->space == PTX_SP_FPARAM ? PTX_B_FPARAM : PTX_B_ABS;
        if (s->space == PTX_SP_SHARED && s->size == 0 && s->offset == UINT32_MAX) {
            r->o.base = PTX_B_DYNSHARED;
            r->o.imm = 0;
        }
        return 0;
    }
    /* parameters of the current function */
    if (P->fn >= 0) {
        ptx_func *f = &m->funcs[P->fn];
        uint32_t np = f->nparams + f->nrets;
        for (uint32_t k = 0; k < np; k++) {
            const ptx_param *pa = &m->params[k < f->nparams ? f->param_first + k : f->ret_first + k - f->nparams];
            const char *n = m->strs + pa->name;
            if ((int)strlen(n) != t->len || memcmp(n, t->s, (size_t)t->len) != 0)
                continue;
            r->o.kind = PTX_O_ADDR;
            r->o.imm = pa->offset;
            if (f->is_kernel) {
                r->space = PTX_SP_PARAM;
                r->o.base = PTX_B_ABS;
            } else {
                r->space = PTX_SP_FPARAM;
                r->o.base = PTX_B_FPARAM;
            }
            return 0;
        }
    }
    int v = var_by_name(m, t->s, t->len);
    if (v >= 0) {
        const ptx_var *var = &m->vars[v];
        r->o.kind = PTX_O_ADDR;
        r->space = var->space;
        r->o.base = PTX_B_ABS;
        r->o.imm = (int64_t)var->addr;
        if (var->space == PTX_SP_SHARED && var->size == 0) {
            r->o.base = PTX_B_DYNSHARED;
            r->o.imm = 0;
        }
        return 0;
    }
    if (t->s[0] == '%')
        return perr(P, t->line, "unknown register '%.*s'", t->len, t->s);
    /* a label or a function, resolved later */
    r->o.kind = PTX_O_LABEL;
    r->name = *t;
    return 0;
}

/* ------------------------------------------------------------ utilities */

static int expect(parser *P, char c)
{
    tok t = lex_next(&P->L);
    if (!tok_punct(&t, c))
        return perr(P, t.line, "expected '%c' but found '%.*s'", c, t.len ? t.len : 3, t.len ? t.s : "EOF");
    return 0;
}

static int read_uint(parser *P, uint64_t *v)
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

static int type_of(const tok *t)
{
    if (t->kind != TK_WORD || t->s[0] != '.')
        return -1;
    for (int i = 1; i < PTX_T_COUNT; i++)
        if ((int)strlen(ptx_types[i].name) == t->len - 1 && memcmp(ptx_types[i].name, t->s + 1, (size_t)t->len - 1) == 0)
            return i;
    return -1;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ------------------------------------------------------------- variables */

static int add_data(parser *P, const void *bytes, size_t n)
{
    ptx_module *m = P->m;
    if (p_grow(P, (void **)&m->data, &P->cap_data, m->ndata + n, 1))
        return -1;
    memcpy(m->data + m->ndata, bytes, n);
    m->ndata += n;
    return 0;
}

/* One initialiser element of type ty into the data array. */
static int init_elem(parser *P, int ty)
{
    tok t = lex_next(&P->L);
    int neg = 0;
    if (tok_punct(&t, '-')) {
        neg = 1;
        t = lex_next(&P->L);
    }
    uint8_t buf[8] = {0};
    size_t sz = ptx_types[ty].size;
    if (t.kind != TK_WORD)
        return perr(P, t.line, "bad initialiser '%.*s'", t.len, t.s);
    int form;
    uint64_t bits;
    double f;
    if (lex_number(t.s, t.len, &form, &bits, &f) == 0) {
        if (ptx_types[ty].kind == 'f') {
            double d = form == LIT_DEC_FLOAT ? f : form == LIT_INT ? (double)bits : 0;
            if (form == LIT_F32) {
                float x;
                uint32_t b32 = (uint32_t)bits;
                memcpy(&x, &b32, 4);
                d = x;
            } else if (form == LIT_F64) {
                memcpy(&d, &bits, 8);
            }
            if (neg)
                d = -d;
            if (sz == 4) {
                float x = (float)d;
                memcpy(buf, &x, 4);
            } else if (sz == 8) {
                memcpy(buf, &d, 8);
            } else {
                return perr(P, t.line, "unsupported initialiser type .%s", ptx_types[ty].name);
            }
        } else {
            if (form == LIT_DEC_FLOAT)
                return perr(P, t.line, "float initialiser for an integer variable");
            if (neg)
                bits = (uint64_t)(-(int64_t)bits);
            memcpy(buf, &bits, sz <= 8 ? sz : 8);
        }
    } else {
        /* an address: sym, generic(sym), sym+off */
        int generic = 0;
        if (tok_is(&t, "generic")) {
            if (expect(P, '('))
                return -1;
            t = lex_next(&P->L);
            generic = 1;
        }
        int v = var_by_name(P->m, t.s, t.len);
        int fidx = v < 0 ? func_by_name(P->m, t.s, t.len) : -1;
        if (v < 0 && fidx < 0)
            return perr(P, t.line, "unknown symbol '%.*s' in initialiser", t.len, t.s);
        uint64_t a = v >= 0 ? P->m->vars[v].addr : (uint64_t)fidx;
        if (v >= 0 && P->m->vars[v].space == PTX_SP_SHARED)
            return perr(P, t.line, "address of shared variable in initialiser not supported");
        tok n = lex_peek(&P->L);
        if (tok_punct(&n, '+')) {
            lex_next(&P->L);
            uint64_t off;
            if (read_uint(P, &off))
                return -1;
            a += off;
        }
        if (generic && expect(P, ')'))
            return -1;
        if (sz < 4)
            return perr(P, t.line, "address initialiser needs a 32- or 64-bit type");
        memcpy(buf, &a, sz <= 8 ? sz : 8);
    }
    return add_data(P, buf, sz);
}

/* Initialiser: a scalar or a { } list (nested braces for multi-dim arrays). */
static int parse_init(parser *P, int ty, uint64_t *count)
{
    tok t = lex_peek(&P->L);
    if (!tok_punct(&t, '{')) {
        *count += 1;
        return init_elem(P, ty);
    }
    lex_next(&P->L);
    for (;;) {
        t = lex_peek(&P->L);
        if (tok_punct(&t, '}')) {
            lex_next(&P->L);
            return 0;
        }
        if (parse_init(P, ty, count))
            return -1;
        t = lex_next(&P->L);
        if (tok_punct(&t, '}'))
            return 0;
        if (!tok_punct(&t, ','))
            return perr(P, t.line, "expected ',' or '}' in initialiser");
    }
}

static int add_var(parser *P, ptx_var *v)
{
    ptx_module *m = P->m;
    if (p_grow(P, (void **)&m->vars, &P->cap_vars, m->nvars + 1, sizeof *m->vars))
        return -1;
    m->vars[m->nvars++] = *v;
    return 0;
}

static int add_sym(parser *P, const tok *name, uint8_t space, uint32_t offset, uint32_t size)
{
    if (p_grow(P, (void **)&P->syms, &P->cap_syms, P->nsyms + 1, sizeof *P->syms))
        return -1;
    sym_decl *s = &P->syms[P->nsyms++];
    s->name = name->s;
    s->len = name->len;
    s->space = space;
    s->offset = offset;
    s->size = size;
    s->depth = P->depth;
    return 0;
}

/* After the space directive: [.align N] [.vN] .type name[dims] [= init] ; */
static int parse_var(parser *P, int space, int is_extern, uint32_t line)
{
    ptx_module *m = P->m;
    uint64_t align = 0, vec = 1;
    int ty = -1;
    tok t;
    for (;;) {
        t = lex_next(&P->L);
        if (tok_is(&t, ".align")) {
            if (read_uint(P, &align))
                return -1;
            if (align == 0 || (align & (align - 1)) || align > 4096)
                return perr(P, t.line, "bad alignment %llu", (unsigned long long)align);
        } else if (tok_is(&t, ".v2") || tok_is(&t, ".v4")) {
            vec = (uint64_t)(t.s[2] - '0');
        } else if (tok_is(&t, ".ptr") || tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared") ||
                   tok_is(&t, ".local") || tok_is(&t, ".visible") || tok_is(&t, ".extern") || tok_is(&t, ".weak")) {
            continue;
        } else if ((ty = type_of(&t)) >= 0) {
            break;
        } else {
            return perr(P, t.line, "expected a type in variable declaration, found '%.*s'", t.len, t.s);
        }
    }
    if (ty == PTX_T_PRED)
        return perr(P, t.line, "predicate variables must be .reg");
    tok name = lex_next(&P->L);
    if (name.kind != TK_WORD || name.s[0] == '.')
        return perr(P, name.line, "expected a variable name, found '%.*s'", name.len, name.s);
    uint64_t elems = vec;
    int open_dim = 0;
    for (;;) {
        t = lex_peek(&P->L);
        if (!tok_punct(&t, '['))
            break;
        lex_next(&P->L);
        t = lex_peek(&P->L);
        if (tok_punct(&t, ']')) {
            lex_next(&P->L);
            open_dim = 1;
            continue;
        }
        uint64_t d;
        if (read_uint(P, &d) || expect(P, ']'))
            return -1;
        if (d == 0 || d > (1ull << 32) || elems > (1ull << 40) / d)
            return perr(P, t.line, "array too large");
        elems *= d;
    }
    uint64_t esz = ptx_types[ty].size;
    if (!align)
        align = esz * vec;
    uint32_t init = UINT32_MAX;
    t = lex_next(&P->L);
    if (tok_punct(&t, '=')) {
        if (space != PTX_SP_GLOBAL && space != PTX_SP_CONST)
            return perr(P, t.line, "only .global and .const variables may have initialisers");
        init = (uint32_t)m->ndata;
        uint64_t count = 0;
        if (parse_init(P, ty, &count))
            return -1;
        if (open_dim)
            elems = elems * count;
        else if (count > elems)
            return perr(P, t.line, "too many initialisers for '%.*s'", name.len, name.s);
        /* zero-fill the rest */
        while (count < elems) {
            uint8_t z[16] = {0};
            if (add_data(P, z, esz))
                return -1;
            count++;
        }
        t = lex_next(&P->L);
    } else if (open_dim && !is_extern && space != PTX_SP_SHARED) {
        return perr(P, name.line, "array '%.*s' without size", name.len, name.s);
    }
    if (!tok_punct(&t, ';'))
        return perr(P, t.line, "expected ';' after variable declaration");
    uint64_t size = open_dim && init == UINT32_MAX ? 0 : elems * esz;
    ptx_var v = {0};
    v.name = p_str(P, name.s, name.len);
    if (v.name == UINT32_MAX)
        return -1;
    v.space = (uint8_t)space;
    v.type = (uint8_t)ty;
    v.align = (uint32_t)align;
    v.size = size;
    v.init = init;
    v.func = P->fn >= 0 ? (uint32_t)P->fn : UINT32_MAX;
    (void)line;
    switch (space) {
    case PTX_SP_GLOBAL:
    case PTX_SP_CONST:
        if (P->fn >= 0)
            return perr(P, name.line, "function-scope .global/.const variables are not supported");
        if (is_extern && init == UINT32_MAX && size == 0)
            return perr(P, name.line, "external variable '%.*s' is not supported (no linking)", name.len, name.s);
        if (size > (1ull << 32))
            return perr(P, name.line, "variable too large");
        v.addr = align_up(m->global_end, align > 256 ? align : 256);
        m->global_end = v.addr + (size ? size : 1) + 256;
        break;
    case PTX_SP_SHARED: {
        if (size == 0) {
            /* dynamic shared memory: its offset is the kernel's static end */
            v.addr = 0;
            if (align > m->dyn_shared_align)
                m->dyn_shared_align = (uint32_t)align;
            if (P->fn >= 0)
                return perr(P, name.line, "extern shared array inside a function is not supported");
            break;
        }
        uint64_t off = align_up(P->shared_end, align);
        if (off + size > PTX_WIN_SIZE)
            return perr(P, name.line, "shared memory exceeds %llu bytes", (unsigned long long)PTX_WIN_SIZE);
        v.addr = off;
        P->shared_end = (uint32_t)(off + size);
        if (P->fn < 0)
            m->shared_module = P->shared_end;
        else if (m->funcs[P->fn].shared_size < P->shared_end)
            m->funcs[P->fn].shared_size = P->shared_end;
        if (P->fn >= 0)
            return add_var(P, &v) || add_sym(P, &name, PTX_SP_SHARED, (uint32_t)off, (uint32_t)size);
        break;
    }
    case PTX_SP_LOCAL: {
        if (P->fn < 0)
            return perr(P, name.line, "module-scope .local variables are not supported");
        ptx_func *f = &m->funcs[P->fn];
        uint64_t off = align_up(f->local_size, align);
        if (off + size > PTX_WIN_SIZE / 32)
            return perr(P, name.line, "local frame too large");
        f->local_size = (uint32_t)(off + size);
        v.addr = off;
        return add_var(P, &v) || add_sym(P, &name, PTX_SP_LOCAL, (uint32_t)off, (uint32_t)size);
    }
    case PTX_SP_PARAM: {
        if (P->fn < 0)
            return perr(P, name.line, "module-scope .param variables are not supported");
        ptx_func *f = &m->funcs[P->fn];
        uint64_t off = align_up(f->frame_size, align);
        if (off + size > 65536)
            return perr(P, name.line, "parameter frame too large");
        f->frame_size = (uint32_t)(off + size);
        return add_sym(P, &name, PTX_SP_FPARAM, (uint32_t)off, (uint32_t)size);
    }
    default:
        return perr(P, name.line, "unsupported state space");
    }
    return add_var(P, &v);
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
                if (read_uint(P, &align))
                    return -1;
            } else if (tok_is(&t, ".ptr") || tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared") ||
                       tok_is(&t, ".local")) {
                continue;
            } else if ((ty = type_of(&t)) >= 0) {
                break;
            } else {
                return perr(P, t.line, "bad parameter declaration at '%.*s'", t.len, t.s);
            }
        }
        tok name = lex_next(&P->L);
        while (tok_is(&name, ".ptr") || tok_is(&name, ".global") || tok_is(&name, ".const") ||
               tok_is(&name, ".shared") || tok_is(&name, ".local") || tok_is(&name, ".align")) {
            if (tok_is(&name, ".align") && read_uint(P, &align)) /* .ptr attributes after the type */
                return -1;
            name = lex_next(&P->L);
        }
        if (name.kind != TK_WORD || name.s[0] == '.')
            return perr(P, name.line, "expected a parameter name");
        uint64_t n = 1;
        t = lex_peek(&P->L);
        if (tok_punct(&t, '[')) {
            lex_next(&P->L);
            if (read_uint(P, &n) || expect(P, ']'))
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
        pa->offset = (uint32_t)align_up(f->param_size, align);
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
    int ty = type_of(&t);
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
            if (read_uint(P, &count) || expect(P, '>'))
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

static int parse_body(parser *P)
{
    ptx_module *m = P->m;
    ptx_func *f = &m->funcs[P->fn];
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
                if (parse_var(P, PTX_SP_LOCAL, 0, t.line))
                    return -1;
            } else if (tok_is(&t, ".shared")) {
                if (parse_var(P, PTX_SP_SHARED, 0, t.line))
                    return -1;
            } else if (tok_is(&t, ".param")) {
                if (parse_var(P, PTX_SP_PARAM, 0, t.line))
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
                if (read_uint(P, &v))
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
            if (read_uint(P, &v))
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
    int idx = func_by_name(m, name.s, name.len);
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
        int f = func_by_name(m, fx->name, fx->len);
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
            if (v.kind != TK_WORD || sscanf(v.s, "%d.%d", &maj, &min) != 2)
                return perr(P, v.line, "bad .version");
            if (maj < 6 || maj > 9)
                return perr(P, v.line, "PTX version %d.%d is not supported (6.x to 9.x)", maj, min);
            m->version = (uint32_t)(maj * 10 + min);
        } else if (tok_is(&t, ".target")) {
            for (;;) {
                tok v = lex_next(&P->L);
                if (v.kind == TK_WORD && v.len > 3 && memcmp(v.s, "sm_", 3) == 0)
                    m->target = (uint32_t)atoi(v.s + 3);
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
            if (read_uint(P, &v))
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
            if (parse_var(P, sp, is_extern, t.line))
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
        for (uint32_t i = 0; i < m->nfuncs; i++)
            free(m->layouts[i].frame);
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
