/*
 * ptx_cta.c - one CTA: state, SIMT control flow, barriers, calls, and the
 * warp stream it emits.
 *
 * Warp mode (ptx_cta_run).  Each warp has a reconvergence stack of (pc,
 * reconvergence pc, mask) entries; the top entry executes.  A branch whose
 * guard splits the active lanes sets the top entry's pc to the branch's
 * immediate post-dominator (precomputed in ptx_cfg.c) and pushes one entry
 * per side, the taken side below the fall-through side; an entry is popped
 * when its pc reaches its reconvergence pc or its mask empties (Fung et al.,
 * MICRO 2007; the scheme of GPGPU-Sim's PDOM stack).  exit and ret from the
 * kernel remove the lanes from every entry.  call pushes a call-frame entry
 * for the callee; ret removes the returning lanes from the entries down to
 * and including that frame, so the caller resumes after the call once every
 * calling lane has returned (reconvergence at the return point).
 *
 * Warps of a CTA interleave at barriers: warps run in index order, each
 * until it exits or arrives at a barrier; a barrier releases when the
 * threads that arrived reach its count (bar.sync a, b) or, without a count,
 * when every thread that has not exited arrived (exited threads count as
 * arrived, as in CUDA).  Lanes parked at a reconvergence point from which
 * they can only reach the exit without another barrier (the usual `if (tid
 * >= n) return;` before a __syncthreads) count as exited too, as they would
 * on hardware with independent thread scheduling.  If every warp is waiting
 * and nothing can release, that is a deadlock, reported with the line (a
 * barrier reached by part of a diverged warp whose other part must still
 * reach it is one: with a PDOM stack the other part cannot run until the
 * warp reconverges).
 *
 * Thread mode (ptx_cta_step) keeps a pc, a state and a call stack per thread
 * instead and executes any set of threads at a common pc, grouping them by
 * home warp for the data work (see ptx.h).
 *
 * Stream.  Each executed warp instruction becomes a ws_inst: pc = index *
 * PTX_PC_STRIDE, mask = the lanes that execute it: for a branch every active
 * lane (its guard is the branch condition), for any other instruction the
 * active lanes whose guard is true (a predicated-off instruction still
 * appears, with mask 0, as in NVBit traces); the thread-instruction counters
 * count the same lanes.  It carries the kernel-relative register ids and,
 * for memory instructions, the per-lane addresses.  The ws_cta layout wants
 * each warp's instructions contiguous: in a kernel without barriers warps
 * simply run one after another straight into it; otherwise each warp
 * stages its instructions and they are concatenated warp after warp at the
 * end of the CTA.
 *
 * Parameters of .func calls live in a per-thread frame (ptx_layout.frame):
 * call copies each argument variable to the callee's formal parameter, ret
 * copies the return values back to the call's result variables.  vprintf
 * is accepted and prints nothing (libraries do not print); __assertfail is
 * an error naming the assertion's line.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_exec.h"

#define PC_EXIT PTX_NO_PC

/* ------------------------------------------------------------- creation */

ptx_cta *ptx_cta_new(const ptx_launch *L, ge_err *e)
{
    ptx_cta *c = calloc(1, sizeof *c);
    if (!c) {
        ge_errf(e, "out of memory");
        return NULL;
    }
    c->L = L;
    c->m = L->mod;
    c->lay = L->lay;
    c->nthreads = L->threads;
    c->nwarps = L->warps;
    c->shared_size = L->shared_size;
    c->local_size = (c->lay->local_size + 15) & ~15u;
    c->fparam_size = (c->lay->param_size + 15) & ~15u;
    c->max_depth = c->lay->max_depth;
    c->inst_limit = UINT64_MAX;
    size_t nr = (size_t)c->nwarps * c->lay->nregs * 32;
    c->regs = calloc(nr ? nr : 1, sizeof *c->regs);
    c->preds = calloc((size_t)c->nwarps * c->lay->npreds + 1, sizeof *c->preds);
    c->shared = calloc(c->shared_size + 1, 1);
    c->local = calloc((size_t)c->nthreads * c->local_size + 1, 1);
    c->fparam = calloc((size_t)c->nthreads * c->fparam_size + 1, 1);
    c->w = calloc(c->nwarps, sizeof *c->w);
    c->tpc = calloc(c->nthreads, sizeof *c->tpc);
    c->tstate = calloc(c->nthreads, 1);
    c->tbar = calloc(c->nthreads, 1);
    c->tdepth = calloc(c->nthreads, sizeof *c->tdepth);
    c->tstack = calloc((size_t)c->nthreads * (c->max_depth + 1), sizeof *c->tstack);
    if (!c->regs || !c->preds || !c->shared || !c->local || !c->fparam || !c->w || !c->tpc || !c->tstate ||
        !c->tbar || !c->tdepth || !c->tstack) {
        ptx_cta_free(c);
        ge_errf(e, "out of memory for CTA state (%u threads, %u registers)", L->threads, c->lay->nregs);
        return NULL;
    }
    return c;
}

void ptx_cta_free(ptx_cta *c)
{
    if (!c)
        return;
    if (c->w)
        for (uint32_t i = 0; i < c->nwarps; i++) {
            free(c->w[i].stk);
            free(c->w[i].stage.i);
            free(c->w[i].stage.a);
        }
    free(c->w);
    free(c->regs);
    free(c->preds);
    free(c->shared);
    free(c->local);
    free(c->fparam);
    free(c->tpc);
    free(c->tstate);
    free(c->tbar);
    free(c->tdepth);
    free(c->tstack);
    free(c);
}

static int push(ptx_warp *W, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t call, ge_err *e)
{
    if (ge_reserve((void **)&W->stk, &W->cap, W->sp + 1, sizeof *W->stk, e))
        return -1;
    simt_entry *t = &W->stk[W->sp++];
    t->pc = pc;
    t->rpc = rpc;
    t->mask = mask;
    t->call = call;
    return 0;
}

int ptx_cta_begin(ptx_cta *c, uint64_t index, ge_err *e)
{
    const ptx_launch *L = c->L;
    uint64_t gx = L->grid[0], gy = L->grid[1];
    if (index >= gx * gy * L->grid[2])
        return ge_errf(e, "CTA %llu is outside the grid", (unsigned long long)index);
    c->index = index;
    c->ctaid[0] = (uint32_t)(index % gx);
    c->ctaid[1] = (uint32_t)(index / gx % gy);
    c->ctaid[2] = (uint32_t)(index / (gx * gy));
    memset(c->shared, 0, c->shared_size);
    memset(c->local, 0, (size_t)c->nthreads * c->local_size);
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_count, 0, sizeof c->bar_count);
    memset(c->bar_popc, 0, sizeof c->bar_popc);
    memset(c->bar_any, 0, sizeof c->bar_any);
    for (int b = 0; b < PTX_MAX_BARRIERS; b++)
        c->bar_all[b] = 1;
    c->live_threads = c->nthreads;
    c->mode = 0;
    c->inst_limit = L->inst_limit ? L->inst_limit : UINT64_MAX;
    memset(&c->st, 0, sizeof c->st);
    uint32_t entry = c->m->funcs[L->kernel].first;
    for (uint32_t w = 0; w < c->nwarps; w++) {
        ptx_warp *W = &c->w[w];
        uint32_t n = c->nthreads - w * 32;
        W->valid = n >= 32 ? 0xffffffffu : (1u << n) - 1;
        W->live = W->valid;
        W->carry = 0;
        W->state = W_RUN;
        W->clock = 0;
        W->sp = 0;
        W->stage.n = W->stage.na = 0;
        if (push(W, entry, PC_EXIT, W->valid, PTX_NO_PC, e))
            return -1;
    }
    for (uint32_t t = 0; t < c->nthreads; t++) {
        c->tpc[t] = entry;
        c->tstate[t] = PTX_THR_READY;
        c->tdepth[t] = 0;
    }
    return 0;
}

/* -------------------------------------------------------------- helpers */

static void ex_setup(ptx_ex *x, ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t mask, uint32_t active)
{
    x->c = c;
    x->w = w;
    x->in = in;
    x->o = c->m->opnds + in->opnd;
    x->fr = &c->lay->frame[in->func];
    x->R = c->regs + ((size_t)w * c->lay->nregs + x->fr->reg) * 32;
    x->P = c->preds + (size_t)w * c->lay->npreds + x->fr->pred;
    x->mask = mask;
    x->active = active;
}

static uint32_t guard_mask(const ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t active)
{
    if (!in->guard)
        return active;
    uint32_t p = c->preds[(size_t)w * c->lay->npreds + c->lay->frame[in->func].pred + in->guard - 1];
    return active & (in->guard_neg ? ~p : p);
}

/* Copy call arguments (call) or results (ret) for lane l of warp w. */
static void copy_params(ptx_cta *c, uint32_t t, const ptx_inst *call, int results)
{
    const ptx_module *m = c->m;
    const ptx_func *callee = &m->funcs[call->target];
    const ptx_opnd *o = m->opnds + call->opnd;
    const ptx_frame *fc = &c->lay->frame[call->func], *fe = &c->lay->frame[call->target];
    uint8_t *base = c->fparam + (size_t)t * c->fparam_size;
    const ptx_opnd *list = &o[results ? 0 : 2];
    for (uint32_t i = 0; i < list->n; i++) {
        const ptx_param *pa = &m->params[(results ? callee->ret_first : callee->param_first) + i];
        uint8_t *var = base + fc->param + m->vregs[list->reg + i];
        uint8_t *formal = base + fe->param + pa->offset;
        if (results)
            memcpy(var, formal, pa->size);
        else
            memcpy(formal, var, pa->size);
    }
}

/* Built-in extern functions; returns 0 or -1. */
static int builtin_call(ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t mask)
{
    const ptx_module *m = c->m;
    const ptx_func *f = &m->funcs[in->target];
    if (f->builtin == PTX_BUILTIN_ASSERTFAIL) {
        ptx_ex x;
        ex_setup(&x, c, w, in, mask, mask);
        return ex_fail(&x, __builtin_ctz(mask), "device assertion failed (__assertfail)");
    }
    /* vprintf: returns 0 in the result variable, prints nothing */
    const ptx_opnd *o = m->opnds + in->opnd;
    if (o[0].n) {
        const ptx_frame *fc = &c->lay->frame[in->func];
        for (uint32_t mm = mask; mm; mm &= mm - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(mm);
            memset(c->fparam + (size_t)t * c->fparam_size + fc->param + m->vregs[o[0].reg], 0, 4);
        }
    }
    return 0;
}

/* ------------------------------------------------------------- emission */

/* The instruction's registers as the warp stream names them: kernel-wide ids
 * (frame base + virtual number; predicates after the registers), renamed by
 * the layout's bank-aware map (ptx_cfg.c). */
static void stream_regs(const ptx_cta *c, const ptx_inst *in, ws_inst *wi)
{
    const ptx_frame *fr = &c->lay->frame[in->func];
    int nd = in->nws & 15, ns = in->nws >> 4;
    wi->ndst = (uint8_t)nd;
    wi->nsrc = (uint8_t)ns;
    for (int i = 0; i < nd + ns; i++) {
        uint16_t r = in->wsreg[i];
        uint32_t id = c->lay->wsmap[(r & PTX_WSREG_PRED) ? c->lay->nregs + fr->pred + (r & 0x7fffu) : fr->reg + r];
        if (i < nd)
            wi->dst[i] = (uint16_t)id;
        else
            wi->src[i - nd] = (uint16_t)id;
    }
}

static int emit(ptx_cta *c, ptx_sbuf *sb, const ptx_inst *in, uint32_t pc, uint32_t mask, ge_err *e)
{
    if (sb->n == sb->cap && ge_reserve((void **)&sb->i, &sb->cap, sb->n + 1, sizeof *sb->i, e))
        return -1;
    ws_inst *wi = &sb->i[sb->n++];
    memset(wi, 0, sizeof *wi);
    wi->pc = (uint64_t)pc * PTX_PC_STRIDE;
    wi->mask = mask;
    wi->opcode = in->mnem;
    wi->op = c->dyn_isa;
    wi->addr = WS_NO_ADDR;
    stream_regs(c, in, wi);
    if (isa_is_mem((isa_op)wi->op)) {
        wi->size = (uint8_t)(ptx_types[in->type].size * in->vec);
        if (sb->na + 32 > sb->acap && ge_reserve((void **)&sb->a, &sb->acap, sb->na + 32, sizeof *sb->a, e))
            return -1;
        if (sb->na + 32 >= UINT32_MAX)
            return ge_errf(e, "CTA %llu has too many memory instructions for one ws_cta",
                           (unsigned long long)c->index);
        wi->addr = (uint32_t)sb->na;
        uint64_t *a = sb->a + sb->na;
        sb->na += 32;
        if (c->has_addr)
            for (int l = 0; l < 32; l++)
                a[l] = (mask >> l & 1) ? c->addr[l] : 0;
        else
            memset(a, 0, 32 * sizeof *a);
    }
    return 0;
}

static int assemble(ptx_cta *c, ws_cta *out, ge_err *e)
{
    size_t ni = 0, na = 0;
    for (uint32_t w = 0; w < c->nwarps; w++)
        ni += c->w[w].stage.n, na += c->w[w].stage.na;
    if (ni >= UINT32_MAX || na >= UINT32_MAX)
        return ge_errf(e, "CTA %llu has too many instructions for one ws_cta", (unsigned long long)c->index);
    if (ge_reserve((void **)&out->inst, &out->inst_cap, ni, sizeof *out->inst, e) ||
        ge_reserve((void **)&out->addr, &out->addr_cap, na, sizeof *out->addr, e))
        return -1;
    for (uint32_t w = 0; w < c->nwarps; w++) {
        ptx_sbuf *sb = &c->w[w].stage;
        if (ws_cta_begin_warp(out, e))
            return -1;
        out->warps[out->nwarps - 1].ninst = (uint32_t)sb->n;
        ws_inst *dst = out->inst + out->ninst;
        if (sb->n)
            memcpy(dst, sb->i, sb->n * sizeof *dst);
        for (size_t i = 0; i < sb->n; i++)
            if (dst[i].addr != WS_NO_ADDR)
                dst[i].addr += (uint32_t)out->naddr;
        if (sb->na)
            memcpy(out->addr + out->naddr, sb->a, sb->na * sizeof *out->addr);
        out->ninst += sb->n;
        out->naddr += sb->na;
    }
    return 0;
}

static void out_begin(const ptx_cta *c, ws_cta *out)
{
    ws_cta_reset(out);
    out->id[0] = c->ctaid[0];
    out->id[1] = c->ctaid[1];
    out->id[2] = c->ctaid[2];
    out->index = c->index;
}

/* ------------------------------------------------------------- barriers */

/* The barrier number of a bar instruction (and its thread count, 0 if none). */
static int bar_id(ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t mask, uint32_t *count)
{
    ptx_ex x;
    ex_setup(&x, c, w, in, mask, mask);
    int ired = (in->flags & PTX_F_RED) != 0;
    const uint64_t *a = ex_src(&x, ired ? 1 : 0);
    uint32_t id = (uint32_t)a[__builtin_ctz(mask)];
    *count = 0;
    const ptx_opnd *cnt = &x.o[ired ? 2 : 1];
    if (cnt->kind != PTX_O_NONE)
        *count = (uint32_t)ex_src(&x, ired ? 2 : 1)[__builtin_ctz(mask)];
    if (id >= PTX_MAX_BARRIERS)
        return ex_fail(&x, __builtin_ctz(mask), "barrier %u out of range (0..15)", id);
    return (int)id;
}

/* Record an arrival of lanes `mask` of warp w at the barrier instruction. */
static int bar_arrive(ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t mask)
{
    uint32_t count;
    int b = bar_id(c, w, in, mask, &count);
    if (b < 0)
        return -1;
    c->bar_arrived[b] += (uint32_t)ex_popc(mask);
    if (count)
        c->bar_count[b] = count;
    if (in->flags & PTX_F_RED) {
        ptx_ex x;
        ex_setup(&x, c, w, in, mask, mask);
        uint32_t p = ex_pred(&x, 3) & mask;
        c->bar_popc[b] += (uint32_t)ex_popc(p);
        if (p != mask)
            c->bar_all[b] = 0;
        if (p)
            c->bar_any[b] = 1;
    }
    return b;
}

/* Lanes of a waiting warp parked below its top entry at an exit-free pc:
 * they can only exit, so a barrier does not wait for them. */
static uint32_t parked_exit(const ptx_cta *c, const ptx_warp *W)
{
    if (W->state != W_BAR || !W->sp)
        return 0;
    uint32_t covered = W->stk[W->sp - 1].mask, parked = 0;
    for (size_t i = W->sp - 1; i-- > 0;) {
        const simt_entry *s = &W->stk[i];
        uint32_t here = s->mask & ~covered;
        if (here && s->pc != PC_EXIT && (c->m->insts[s->pc].flags & PTX_F_EXITFREE))
            parked |= here;
        covered |= s->mask;
    }
    return parked;
}

/* Threads barrier b waits for: its count, or every thread that has not
 * exited (in warp mode, less those parked on their way to the exit). */
static uint32_t bar_need(const ptx_cta *c, int b)
{
    if (c->bar_count[b])
        return c->bar_count[b];
    uint32_t need = c->live_threads;
    if (c->mode == 1)
        for (uint32_t w = 0; w < c->nwarps; w++)
            need -= (uint32_t)ex_popc(parked_exit(c, &c->w[w]));
    return need;
}

static int bar_ready(const ptx_cta *c, int b)
{
    return c->bar_arrived[b] >= bar_need(c, b);
}

/* bar.red result for the threads of warp w at instruction in. */
static void bar_result(ptx_cta *c, uint32_t w, const ptx_inst *in, uint32_t mask, int b)
{
    if (!(in->flags & PTX_F_RED))
        return;
    ptx_ex x;
    ex_setup(&x, c, w, in, mask, mask);
    uint32_t v = in->sub == PTX_AOP_POPC ? c->bar_popc[b] : in->sub == PTX_AOP_AND ? c->bar_all[b] : c->bar_any[b];
    if (in->type == PTX_T_PRED) {
        ex_setp(&x, 0, v ? 0xffffffffu : 0);
    } else {
        uint64_t *d = ex_reg(&x, x.o[0].reg);
        LANES(mask, d[l] = v);
    }
}

static void bar_reset(ptx_cta *c, int b)
{
    c->bar_arrived[b] = 0;
    c->bar_count[b] = 0;
    c->bar_popc[b] = 0;
    c->bar_all[b] = 1;
    c->bar_any[b] = 0;
}

/* ------------------------------------------------------------ warp mode */

static void remove_lanes(ptx_warp *W, uint32_t lanes, size_t down_to)
{
    for (size_t i = down_to; i < W->sp; i++)
        W->stk[i].mask &= ~lanes;
}

/* Run warp w until it exits, blocks at a barrier, or fails; emit into sb
 * (NULL: no stream). */
static int run_warp(ptx_cta *c, uint32_t w, ptx_sbuf *sb)
{
    ptx_warp *W = &c->w[w];
    const ptx_module *m = c->m;
    ge_err *e = c->e;
    for (;;) {
        while (W->sp && (W->stk[W->sp - 1].mask == 0 || W->stk[W->sp - 1].pc == W->stk[W->sp - 1].rpc))
            W->sp--;
        if (!W->sp) {
            W->state = W_DONE;
            return 0;
        }
        simt_entry *t = &W->stk[W->sp - 1];
        uint32_t pc = t->pc, active = t->mask;
        if (pc == PC_EXIT)
            return ge_errf(e, "%s: internal: warp %u ran past the end of a function", m->name, w);
        const ptx_inst *in = &m->insts[pc];
        uint32_t mask = guard_mask(c, w, in, active);
        /* a branch is executed by every active lane (its guard is the
         * condition); other instructions by the lanes whose guard holds */
        uint32_t shown = in->op == PTX_OP_BRA ? active : mask;
        if (++c->st.warp_insts > c->inst_limit)
            return ge_errf(e, "%s:%u: instruction limit of %llu warp instructions exceeded (endless loop?)",
                           m->name, in->line, (unsigned long long)c->inst_limit);
        c->st.thread_insts += (uint64_t)ex_popc(shown);
        W->clock++;
        c->dyn_isa = in->isa;
        c->has_addr = 0;
        switch (in->op) {
        case PTX_OP_BRA:
            if (mask == active) {
                t->pc = in->target;
            } else if (mask == 0) {
                t->pc = pc + 1;
            } else {
                t->pc = in->rpc;
                uint32_t rpc = in->rpc;
                if (push(W, in->target, rpc, mask, PTX_NO_PC, e) || push(W, pc + 1, rpc, active & ~mask, PTX_NO_PC, e))
                    return -1;
            }
            break;
        case PTX_OP_EXIT:
        case PTX_OP_TRAP:
        case PTX_OP_RET:
            if (in->op == PTX_OP_TRAP && mask) {
                ptx_ex x;
                ex_setup(&x, c, w, in, mask, active);
                return ex_fail(&x, __builtin_ctz(mask), "trap executed");
            }
            if (in->op == PTX_OP_RET && !m->funcs[in->func].is_kernel) {
                /* return from a .func: find the call frame */
                size_t f = W->sp;
                while (f-- > 0 && W->stk[f].call == PTX_NO_PC)
                    ;
                if (f >= W->sp)
                    return ge_errf(e, "%s:%u: internal: ret without a call frame", m->name, in->line);
                const ptx_inst *call = &m->insts[W->stk[f].call];
                for (uint32_t mm = mask; mm; mm &= mm - 1)
                    copy_params(c, w * 32 + (uint32_t)__builtin_ctz(mm), call, 1);
                remove_lanes(W, mask, f);
            } else {
                remove_lanes(W, mask, 0);
                W->live &= ~mask;
                c->live_threads -= (uint32_t)ex_popc(mask);
            }
            if (active & ~mask)
                W->stk[W->sp - 1].pc = pc + 1; /* t is still the top: nothing was pushed */
            break;
        case PTX_OP_CALL:
            t->pc = pc + 1;
            if (!mask)
                break;
            if (m->funcs[in->target].is_extern) {
                if (builtin_call(c, w, in, mask))
                    return -1;
                break;
            }
            for (uint32_t mm = mask; mm; mm &= mm - 1)
                copy_params(c, w * 32 + (uint32_t)__builtin_ctz(mm), in, 0);
            if (push(W, m->funcs[in->target].first, PC_EXIT, mask, pc, e))
                return -1;
            break;
        case PTX_OP_BAR:
        case PTX_OP_BARRIER:
            if ((in->flags & PTX_F_WARP) || !mask) {
                t->pc = pc + 1;
                break;
            }
            {
                int b = bar_arrive(c, w, in, mask);
                if (b < 0)
                    return -1;
                if (in->flags & PTX_F_ARRIVE) {
                    t->pc = pc + 1;
                    break;
                }
                W->state = W_BAR;
                W->bar = (uint8_t)b;
                if (sb && emit(c, sb, in, pc, mask, e))
                    return -1;
                return 0;
            }
        default: {
            if (mask) {
                ptx_ex x;
                ex_setup(&x, c, w, in, mask, active);
                if (ptx_exec_inst(&x))
                    return -1;
            }
            W->stk[W->sp - 1].pc = pc + 1;
            break;
        }
        }
        if (sb && emit(c, sb, in, pc, shown, e))
            return -1;
    }
}

/* Without barriers warps never wait for each other: run them one after the
 * other, emitting straight into out (no staging copy). */
static int run_sequential(ptx_cta *c, ws_cta *out, ge_err *e)
{
    out_begin(c, out);
    ptx_sbuf d = {out->inst, out->ninst, out->inst_cap, out->addr, out->naddr, out->addr_cap};
    int rc = 0;
    for (uint32_t w = 0; w < c->nwarps && !rc; w++) {
        out->ninst = d.n;
        if ((rc = ws_cta_begin_warp(out, e)) != 0)
            break;
        size_t first = d.n;
        rc = run_warp(c, w, &d);
        out->warps[out->nwarps - 1].ninst = (uint32_t)(d.n - first);
        if (!rc && c->w[w].state != W_DONE)
            rc = ge_errf(e, "%s: internal: warp %u blocked in a kernel without barriers", c->m->name, w);
    }
    out->inst = d.i, out->ninst = d.n, out->inst_cap = d.cap;
    out->addr = d.a, out->naddr = d.na, out->addr_cap = d.acap;
    if (!rc && (d.n >= UINT32_MAX || d.na >= UINT32_MAX))
        rc = ge_errf(e, "CTA %llu has too many instructions for one ws_cta", (unsigned long long)c->index);
    return rc;
}

int ptx_cta_run(ptx_cta *c, ws_cta *out, ge_err *e)
{
    if (c->mode)
        return ge_errf(e, "CTA state was already used; call ptx_cta_begin first");
    c->mode = 1;
    c->e = e;
    if (out && !c->lay->has_barrier)
        return run_sequential(c, out, e);
    for (;;) {
        int any = 0, done = 1;
        for (uint32_t w = 0; w < c->nwarps; w++) {
            ptx_warp *W = &c->w[w];
            if (W->state == W_RUN) {
                any = 1;
                if (run_warp(c, w, out ? &W->stage : NULL))
                    return -1;
            }
            if (W->state != W_DONE)
                done = 0;
        }
        if (done)
            break;
        /* release barriers whose count is reached */
        int released = 0;
        for (int b = 0; b < PTX_MAX_BARRIERS; b++) {
            if (!c->bar_arrived[b] || !bar_ready(c, b))
                continue;
            for (uint32_t w = 0; w < c->nwarps; w++) {
                ptx_warp *W = &c->w[w];
                if (W->state != W_BAR || W->bar != b)
                    continue;
                simt_entry *t = &W->stk[W->sp - 1];
                const ptx_inst *in = &c->m->insts[t->pc];
                bar_result(c, w, in, guard_mask(c, w, in, t->mask), b);
                t->pc++;
                W->state = W_RUN;
                released = 1;
            }
            bar_reset(c, b);
        }
        if (!any && !released) {
            for (uint32_t w = 0; w < c->nwarps; w++) {
                ptx_warp *W = &c->w[w];
                if (W->state == W_BAR) {
                    const ptx_inst *in = &c->m->insts[W->stk[W->sp - 1].pc];
                    int b = W->bar;
                    return ge_errf(e,
                                   "%s:%u: barrier deadlock in kernel %s, block (%u,%u,%u): %u of %u threads arrived "
                                   "at barrier %d (a barrier inside divergent code?)",
                                   c->m->name, in->line, ptx_str(c->m, c->m->funcs[c->L->kernel].name), c->ctaid[0],
                                   c->ctaid[1], c->ctaid[2], c->bar_arrived[b], bar_need(c, b), b);
                }
            }
            return ge_errf(e, "%s: internal: no warp can run", c->m->name);
        }
    }
    if (out) {
        out_begin(c, out);
        return assemble(c, out, e);
    }
    return 0;
}

/* ----------------------------------------------------------- thread mode */

uint32_t ptx_cta_nthreads(const ptx_cta *c) { return c->nthreads; }
uint32_t ptx_cta_thread_pc(const ptx_cta *c, uint32_t tid) { return tid < c->nthreads ? c->tpc[tid] : PTX_NO_PC; }
ptx_thr_state ptx_cta_thread_state(const ptx_cta *c, uint32_t tid)
{
    return tid < c->nthreads ? (ptx_thr_state)c->tstate[tid] : PTX_THR_EXITED;
}
int ptx_cta_done(const ptx_cta *c)
{
    if (c->mode == 1) {
        for (uint32_t w = 0; w < c->nwarps; w++)
            if (c->w[w].state != W_DONE)
                return 0;
        return 1;
    }
    return c->live_threads == 0;
}
void ptx_cta_get_stats(const ptx_cta *c, ptx_cta_stats *s) { *s = c->st; }

static void fill_step_inst(ptx_cta *c, const ptx_inst *in, uint32_t pc, ptx_step *out)
{
    ws_inst *wi = &out->inst;
    memset(wi, 0, sizeof *wi);
    wi->pc = (uint64_t)pc * PTX_PC_STRIDE;
    wi->opcode = in->mnem;
    wi->op = in->isa;
    wi->addr = WS_NO_ADDR;
    stream_regs(c, in, wi);
    memset(out->addr, 0, sizeof out->addr);
}

int ptx_cta_step(ptx_cta *c, const uint32_t *tids, int n, ptx_step *out, ge_err *e)
{
    if (c->mode == 1)
        return ge_errf(e, "ptx_cta_step on a CTA run in warp mode");
    c->mode = 2;
    c->e = e;
    if (n < 1 || n > 32)
        return ge_errf(e, "thread set of %d threads (1..32)", n);
    const ptx_module *m = c->m;
    uint32_t pc = PTX_NO_PC;
    /* group by home warp */
    uint32_t wl[32], wm[32];
    int nw = 0;
    for (int i = 0; i < n; i++) {
        uint32_t t = tids[i];
        if (t >= c->nthreads)
            return ge_errf(e, "thread %u is outside the CTA (%u threads)", t, c->nthreads);
        if (c->tstate[t] != PTX_THR_READY)
            return ge_errf(e, "thread %u is not ready (%s)", t,
                           c->tstate[t] == PTX_THR_EXITED ? "exited" : "waiting at a barrier");
        if (i == 0)
            pc = c->tpc[t];
        else if (c->tpc[t] != pc)
            return ge_errf(e, "threads %u and %u are at different pcs", tids[0], t);
        uint32_t w = t / 32, bit = 1u << (t % 32);
        int k = 0;
        while (k < nw && wl[k] != w)
            k++;
        if (k == nw) {
            wl[nw] = w;
            wm[nw++] = 0;
        }
        if (wm[k] & bit)
            return ge_errf(e, "thread %u appears twice in the set", t);
        wm[k] |= bit;
    }
    const ptx_inst *in = &m->insts[pc];
    if (out)
        fill_step_inst(c, in, pc, out);
    c->st.warp_insts++;
    int bar = -1;
    for (int k = 0; k < nw; k++) {
        uint32_t w = wl[k], active = wm[k];
        uint32_t mask = guard_mask(c, w, in, active);
        uint32_t shown = in->op == PTX_OP_BRA ? active : mask;
        c->st.thread_insts += (uint64_t)ex_popc(shown);
        c->w[w].clock++;
        c->dyn_isa = in->isa;
        c->has_addr = 0;
        for (uint32_t mm = active; mm; mm &= mm - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(mm), t = w * 32 + l;
            int on = mask >> l & 1;
            uint32_t next = pc + 1;
            switch (in->op) {
            case PTX_OP_BRA:
                if (on)
                    next = in->target;
                break;
            case PTX_OP_EXIT:
            case PTX_OP_TRAP:
                break;
            case PTX_OP_RET:
                if (on && !m->funcs[in->func].is_kernel) {
                    if (!c->tdepth[t])
                        return ge_errf(e, "%s:%u: internal: ret without a call", m->name, in->line);
                    uint32_t ci = c->tstack[(size_t)t * (c->max_depth + 1) + --c->tdepth[t]];
                    copy_params(c, t, &m->insts[ci], 1);
                    next = ci + 1;
                }
                break;
            case PTX_OP_CALL:
                if (on && !m->funcs[in->target].is_extern) {
                    copy_params(c, t, in, 0);
                    c->tstack[(size_t)t * (c->max_depth + 1) + c->tdepth[t]++] = pc;
                    next = m->funcs[in->target].first;
                }
                break;
            default:
                break;
            }
            c->tpc[t] = next;
        }
        switch (in->op) {
        case PTX_OP_EXIT:
        case PTX_OP_TRAP:
        case PTX_OP_RET:
            if (in->op == PTX_OP_TRAP && mask) {
                ptx_ex x;
                ex_setup(&x, c, w, in, mask, active);
                return ex_fail(&x, __builtin_ctz(mask), "trap executed");
            }
            if (in->op != PTX_OP_RET || m->funcs[in->func].is_kernel)
                for (uint32_t mm = mask; mm; mm &= mm - 1) {
                    c->tstate[w * 32 + (uint32_t)__builtin_ctz(mm)] = PTX_THR_EXITED;
                    c->live_threads--;
                }
            break;
        case PTX_OP_CALL:
            if (mask && m->funcs[in->target].is_extern && builtin_call(c, w, in, mask))
                return -1;
            break;
        case PTX_OP_BAR:
        case PTX_OP_BARRIER:
            if ((in->flags & PTX_F_WARP) || !mask)
                break;
            bar = bar_arrive(c, w, in, mask);
            if (bar < 0)
                return -1;
            if (!(in->flags & PTX_F_ARRIVE))
                for (uint32_t mm = mask; mm; mm &= mm - 1) {
                    uint32_t t = w * 32 + (uint32_t)__builtin_ctz(mm);
                    c->tstate[t] = PTX_THR_BARRIER;
                    c->tbar[t] = (uint8_t)bar;
                    c->tpc[t] = pc; /* stays at the barrier until released */
                }
            break;
        case PTX_OP_BRA:
            break;
        default:
            if (mask) {
                ptx_ex x;
                ex_setup(&x, c, w, in, mask, active);
                if (ptx_exec_inst(&x))
                    return -1;
            }
            break;
        }
        if (out) {
            out->inst.op = c->dyn_isa;
            for (int i = 0; i < n; i++) {
                uint32_t t = tids[i];
                if (t / 32 != w || !(shown >> (t % 32) & 1))
                    continue;
                out->inst.mask |= 1u << i;
                if (c->has_addr)
                    out->addr[i] = c->addr[t % 32];
            }
        }
    }
    if (out && isa_is_mem((isa_op)out->inst.op))
        out->inst.size = (uint8_t)(ptx_types[in->type].size * in->vec);
    /* a barrier releases when its count is reached (exits can release one too) */
    for (int b = 0; b < PTX_MAX_BARRIERS; b++) {
        if (!c->bar_arrived[b] || !bar_ready(c, b))
            continue;
        int any = 0;
        for (uint32_t t = 0; t < c->nthreads; t++) {
            if (c->tstate[t] != PTX_THR_BARRIER || c->tbar[t] != b)
                continue;
            const ptx_inst *bi = &m->insts[c->tpc[t]];
            bar_result(c, t / 32, bi, 1u << (t % 32), b);
            c->tstate[t] = PTX_THR_READY;
            c->tpc[t]++;
            any = 1;
        }
        if (any || b == bar)
            bar_reset(c, b);
    }
    return 0;
}
