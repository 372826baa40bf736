/*
 * ptx_vars.c - variable declarations and initialisers, module and function
 * scope (PTX ISA manual, "Variables": state space, .align, vector and array
 * forms, initialisers of numbers, nested braces and symbol addresses
 * including generic(sym) and sym+offset).  Where each lives is decided here
 * (see ptx_parse.c for the layout rules).
 */
#include <string.h>

#include "ptx_int.h"

/* ------------------------------------------------------------- variables */

/* The most initialised data a module may hold (an initialised array's
 * zero-filled tail is stored): real modules' tables are kilobytes to a few
 * megabytes. */
#define PTX_MAX_INIT_BYTES (64u << 20)

/* Append n bytes to the module's data; bytes NULL: n zero bytes. */
static int add_data(parser *P, const void *bytes, size_t n)
{
    ptx_module *m = P->m;
    if (p_grow(P, (void **)&m->data, &P->cap_data, m->ndata + n, 1))
        return -1;
    if (bytes)
        memcpy(m->data + m->ndata, bytes, n);
    else
        memset(m->data + m->ndata, 0, n);
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
            if (p_expect(P, '('))
                return -1;
            t = lex_next(&P->L);
            generic = 1;
        }
        int v = p_var_index(P->m, t.s, t.len);
        int fidx = v < 0 ? p_func_index(P->m, t.s, t.len) : -1;
        if (v < 0 && fidx < 0)
            return perr(P, t.line, "unknown symbol '%.*s' in initialiser", t.len, t.s);
        uint64_t a = v >= 0 ? P->m->vars[v].addr : (uint64_t)fidx;
        if (v >= 0 && P->m->vars[v].space == PTX_SP_SHARED)
            return perr(P, t.line, "address of shared variable in initialiser not supported");
        tok n = lex_peek(&P->L);
        if (tok_punct(&n, '+')) {
            lex_next(&P->L);
            uint64_t off;
            if (p_read_uint(P, &off))
                return -1;
            a += off;
        }
        if (generic && p_expect(P, ')'))
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
int p_parse_var(parser *P, int space, int is_extern, uint32_t line)
{
    ptx_module *m = P->m;
    uint64_t align = 0, vec = 1;
    int ty = -1;
    tok t;
    for (;;) {
        t = lex_next(&P->L);
        if (tok_is(&t, ".align")) {
            if (p_read_uint(P, &align))
                return -1;
            if (align == 0 || (align & (align - 1)) || align > 4096)
                return perr(P, t.line, "bad alignment %llu", (unsigned long long)align);
        } else if (tok_is(&t, ".v2") || tok_is(&t, ".v4")) {
            vec = (uint64_t)(t.s[2] - '0');
        } else if (tok_is(&t, ".ptr") || tok_is(&t, ".global") || tok_is(&t, ".const") || tok_is(&t, ".shared") ||
                   tok_is(&t, ".local") || tok_is(&t, ".visible") || tok_is(&t, ".extern") || tok_is(&t, ".weak")) {
            continue;
        } else if ((ty = p_type_of(&t)) >= 0) {
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
        if (p_read_uint(P, &d) || p_expect(P, ']'))
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
            elems = count && elems > PTX_MAX_INIT_BYTES / count ? (uint64_t)PTX_MAX_INIT_BYTES + 1 : elems * count;
        else if (count > elems)
            return perr(P, t.line, "too many initialisers for '%.*s'", name.len, name.s);
        if (m->ndata > PTX_MAX_INIT_BYTES || elems - count > (PTX_MAX_INIT_BYTES - m->ndata) / (esz ? esz : 1))
            return perr(P, t.line, "initialised data too large at '%.*s' (a module holds at most %u bytes)", name.len,
                        name.s, PTX_MAX_INIT_BYTES);
        /* zero-fill the rest */
        if (elems > count && add_data(P, NULL, (size_t)((elems - count) * esz)))
            return -1;
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
        v.addr = p_align_up(m->global_end, align > 256 ? align : 256);
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
        uint64_t off = p_align_up(P->shared_end, align);
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
        uint64_t off = p_align_up(f->local_size, align);
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
        uint64_t off = p_align_up(f->frame_size, align);
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

