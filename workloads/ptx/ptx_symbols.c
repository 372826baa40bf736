/*
 * ptx_symbols.c - names: functions, module variables, special registers,
 * and the resolution of an identifier used as an operand.
 *
 * Resolution order inside a function: registers (innermost scope first, so
 * a declaration in a nested { } shadows an outer one, as nvcc relies on),
 * special registers, function-scope symbols (local depots, demoted shared
 * variables, call-site .param variables), the function's own parameters,
 * module variables; anything else is taken for a label or a function and
 * resolved later.  Register ranges %r<N> declare %r0..%rN-1 and are matched
 * by prefix and number, without expanding them.
 */
#include <string.h>

#include "ptx_int.h"


int p_func_index(const ptx_module *m, const char *s, int len)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const char *n = m->strs + m->funcs[i].name;
        if ((int)strlen(n) == len && memcmp(n, s, (size_t)len) == 0)
            return (int)i;
    }
    return -1;
}

int p_var_index(const ptx_module *m, const char *s, int len)
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
    int f = p_func_index(m, name, (int)strlen(name));
    return f >= 0 && m->funcs[f].is_kernel ? f : -1;
}

int ptx_module_var(const ptx_module *m, const char *name)
{
    return p_var_index(m, name, (int)strlen(name));
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
    int v = p_var_index(m, t->s, t->len);
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

