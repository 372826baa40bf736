/*
 * ptx_decode_ctl.c - decoding of memory, control-flow, barrier and
 * warp-collective instructions (the rest is in ptx_decode.c).
 *
 * Memory instructions take the state space from the mnemonic, or from the
 * symbol an address is based on, or are generic; .param accesses inside a
 * .func are per-thread parameter frame accesses (register moves in SASS,
 * so INT_ALU in the warp stream), while a kernel's ld.param reads the
 * constant bank (LD_CONST).  Branch targets and callees are resolved later
 * (ptx_parse.c); a call is normalised to three operands: result list,
 * callee, argument list.
 */
#include <string.h>

#include "ptx_int.h"

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

int dec_ldst(dec *D)
{
    mods *M = &D->M;
    int op = D->in.op;
    int st = op == PTX_OP_ST;
    if (dec_nargs(D, 2, 2) || dec_need_type(D, 1))
        return -1;
    int ty = M->types[0];
    if (ty == PTX_T_PRED || tkind(ty) == 'h' || ty == PTX_T_TF32)
        return dec_bad(D);
    raw_opnd *m = &D->r[st ? 0 : 1], *v = &D->r[st ? 1 : 0];
    if (m->o.kind != PTX_O_MEM)
        return perr(D->P, m->line, "'%.*s' needs an address operand [..]", D->mn->len, D->mn->s);
    int sp = mem_space(D, m);
    if (sp < 0)
        return perr(D->P, m->line, "address of '%.*s' is in another state space", D->mn->len, D->mn->s);
    if (st && (sp == PTX_SP_CONST || sp == PTX_SP_PARAM))
        return perr(D->P, m->line, "store to a read-only state space");
    if (op == PTX_OP_LDU && sp != PTX_SP_GLOBAL && sp != PTX_SP_NONE)
        return dec_bad(D);
    if (D->M.flags & PTX_F_NC && sp != PTX_SP_GLOBAL)
        return dec_bad(D);
    D->in.type = (uint8_t)ty;
    D->in.space = (uint8_t)sp;
    D->in.vec = (uint8_t)M->vec;
    if (tsize(ty) * M->vec > 16 || tsize(ty) > 8)
        return dec_bad(D);
    if (M->vec > 1) {
        if (v->o.kind != PTX_O_VEC || v->o.n != M->vec)
            return perr(D->P, v->line, "'%.*s' needs a vector of %d registers", D->mn->len, D->mn->s, M->vec);
    }
    if (st) {
        D->out[D->nout++] = m->o;
        if (M->vec > 1)
            D->out[D->nout++] = v->o;
        else if (dec_val(D, 1, ty))
            return -1;
    } else {
        if (M->vec > 1)
            D->out[D->nout++] = v->o;
        else if (dec_dst(D, 0, ty, 1))
            return -1;
        D->out[D->nout++] = m->o;
    }
    D->in.isa = (uint8_t)mem_isa(st ? PTX_OP_ST : PTX_OP_LD, sp, D->P->m->funcs[D->P->fn].is_kernel);
    return 0;
}

int dec_atom(dec *D)
{
    mods *M = &D->M;
    int isred = D->in.op == PTX_OP_RED;
    int aop = M->aop;
    if (!aop || aop == PTX_AOP_POPC || D->M.ntypes != 1)
        return dec_bad(D);
    int ty = M->types[0];
    int nsrc = aop == PTX_AOP_CAS ? 2 : 1;
    if (dec_nargs(D, nsrc + 1 + !isred, nsrc + 1 + !isred))
        return -1;
    if (tsize(ty) < 4 || tsize(ty) > 8 || tkind(ty) == 'h' || ty == PTX_T_TF32)
        return dec_bad(D);
    if (is_flt(ty) && aop != PTX_AOP_ADD && !(aop == PTX_AOP_EXCH))
        return dec_bad(D);
    if ((aop == PTX_AOP_INC || aop == PTX_AOP_DEC) && ty != PTX_T_U32)
        return dec_bad(D);
    if (M->vec > 1 || (isred && aop == PTX_AOP_CAS))
        return dec_bad(D);
    raw_opnd *m = &D->r[isred ? 0 : 1];
    if (m->o.kind != PTX_O_MEM)
        return perr(D->P, m->line, "'%.*s' needs an address operand [..]", D->mn->len, D->mn->s);
    int sp = mem_space(D, m);
    if (sp < 0 || (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED && sp != PTX_SP_NONE))
        return dec_bad(D);
    D->in.type = (uint8_t)ty;
    D->in.space = (uint8_t)sp;
    D->in.sub = (uint8_t)aop;
    D->in.vec = 1;
    if (isred) {
        dec_none(D);
    } else if (dec_dst(D, 0, ty, 1)) {
        return -1;
    }
    D->out[D->nout++] = m->o;
    int first = isred ? 1 : 2;
    if (dec_val(D, first, ty))
        return -1;
    if (nsrc == 2) {
        if (dec_val(D, first + 1, ty))
            return -1;
    } else {
        dec_none(D);
    }
    D->in.isa = sp == PTX_SP_SHARED ? ISA_OP_ATOM_SHARED : ISA_OP_ATOM_GLOBAL;
    return 0;
}

int dec_bra(dec *D)
{
    if (dec_nargs(D, 1, 1) || D->M.ntypes)
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

int dec_call(dec *D)
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

int dec_bar(dec *D)
{
    mods *M = &D->M;
    if (M->flags & PTX_F_WARP) {
        if (dec_nargs(D, 1, 1) || dec_val(D, 0, PTX_T_B32))
            return -1;
        D->in.isa = ISA_OP_MISC;
        return 0;
    }
    if (M->flags & PTX_F_RED) {
        /* bar.red.op.type d, a{, b}, {!}c */
        if (dec_nargs(D, 3, 4) || dec_need_type(D, 1))
            return -1;
        int ty = M->types[0];
        if (!M->aop || (M->aop == PTX_AOP_POPC) != (ty == PTX_T_U32) ||
            (M->aop != PTX_AOP_POPC && M->aop != PTX_AOP_AND && M->aop != PTX_AOP_OR))
            return dec_bad(D);
        D->in.type = (uint8_t)ty;
        D->in.sub = (uint8_t)M->aop;
        if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, PTX_T_U32))
            return -1;
        if (D->n == 4) {
            if (dec_val(D, 2, PTX_T_U32))
                return -1;
        } else {
            dec_none(D);
        }
        if (dec_val(D, D->n - 1, PTX_T_PRED))
            return -1;
        D->in.isa = ISA_OP_BARRIER;
        return 0;
    }
    if (!M->sync && !(M->flags & PTX_F_ARRIVE) && D->in.op == PTX_OP_BARRIER)
        return dec_bad(D);
    if (dec_nargs(D, (M->flags & PTX_F_ARRIVE) ? 2 : 1, 2) || M->ntypes)
        return -1;
    if (dec_val(D, 0, PTX_T_U32))
        return -1;
    if (D->n == 2) {
        if (dec_val(D, 1, PTX_T_U32))
            return -1;
    } else {
        dec_none(D);
    }
    D->in.isa = ISA_OP_BARRIER;
    return 0;
}

int dec_shfl(dec *D)
{
    mods *M = &D->M;
    if (!M->shfl || !M->sync || M->ntypes != 1 || M->types[0] != PTX_T_B32)
        return dec_bad(D);
    if (dec_nargs(D, 5, 5))
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
        dec_none(D);
    }
    for (int i = 1; i < 5; i++)
        if (dec_val(D, i, PTX_T_B32))
            return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

int dec_vote(dec *D)
{
    mods *M = &D->M;
    int mode = M->vote ? M->vote : (M->flags & PTX_F_UNI) ? PTX_VOTE_UNI : 0;
    if (!mode || !M->sync || M->ntypes != 1)
        return dec_bad(D);
    if (dec_nargs(D, 3, 3))
        return -1;
    int ty = M->types[0];
    if ((mode == PTX_VOTE_BALLOT) != (ty == PTX_T_B32) || (mode != PTX_VOTE_BALLOT && ty != PTX_T_PRED))
        return dec_bad(D);
    D->in.sub = (uint8_t)mode;
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, PTX_T_PRED) || dec_val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

int dec_match(dec *D)
{
    mods *M = &D->M;
    int mode = M->vote;
    if ((mode != PTX_VOTE_ANY && mode != PTX_VOTE_ALL) || !M->sync || dec_need_type(D, 1))
        return dec_bad(D);
    int ty = M->types[0];
    if (ty != PTX_T_B32 && ty != PTX_T_B64)
        return dec_bad(D);
    if (dec_nargs(D, 3, 3))
        return -1;
    D->in.sub = (uint8_t)mode;
    D->in.type = (uint8_t)ty;
    raw_opnd *d = &D->r[0];
    if (d->o.kind != PTX_O_REG)
        return perr(D->P, d->line, "destination of match must be a register");
    D->out[D->nout++] = d->o;
    if (d->pair) {
        if (mode != PTX_VOTE_ALL || d->o2.kind != PTX_O_PRED)
            return dec_bad(D);
        D->out[D->nout++] = d->o2;
    } else {
        dec_none(D);
    }
    if (dec_val(D, 1, ty) || dec_val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

int dec_redux(dec *D)
{
    mods *M = &D->M;
    if (!M->sync || M->ntypes != 1)
        return dec_bad(D);
    if (dec_nargs(D, 3, 3))
        return -1;
    int ty = M->types[0];
    int aop = M->aop;
    if (ty != PTX_T_U32 && ty != PTX_T_S32 && ty != PTX_T_B32)
        return dec_bad(D);
    if (aop != PTX_AOP_ADD && aop != PTX_AOP_MIN && aop != PTX_AOP_MAX && aop != PTX_AOP_AND && aop != PTX_AOP_OR &&
        aop != PTX_AOP_XOR)
        return dec_bad(D);
    D->in.sub = (uint8_t)aop;
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty) || dec_val(D, 2, PTX_T_B32))
        return -1;
    D->in.isa = ISA_OP_MISC;
    return 0;
}

