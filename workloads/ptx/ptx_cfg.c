/*
 * ptx_cfg.c - control flow of each function and the static layout of each
 * kernel.
 *
 * Reconvergence points.  A divergent branch reconverges at its immediate
 * post-dominator (IPDOM), the reconvergence rule of the PDOM stack (Fung et
 * al., "Dynamic Warp Formation and Scheduling for Efficient GPU Control
 * Flow", MICRO 2007; used by GPGPU-Sim).  For every function the
 * instructions are cut into basic blocks (leaders: the first instruction,
 * branch targets, and the instruction after a bra/ret/exit/trap).  Edges:
 * a bra goes to its target and, when guarded, also falls through; ret,
 * exit and trap go to a virtual exit node and, when guarded, also fall
 * through; falling off the end goes to the exit.  Post-dominators are the
 * dominators of the reverse graph rooted at the virtual exit, computed with
 * the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
 * Dominance Algorithm", 2001): number the nodes in postorder of a DFS from
 * the root over reversed edges, then repeat, in reverse postorder, ipdom(b)
 * = intersection of the processed successors of b until nothing changes.
 * Blocks that cannot reach the exit (an endless loop) get the exit as their
 * IPDOM.  Each bra stores the first instruction of its block's IPDOM (or
 * PTX_NO_PC for the exit) in ptx_inst.rpc, so execution never searches.
 *
 * Kernel layouts.  Without recursion every function reachable from a kernel
 * can own fixed slots: its registers, predicates, parameter frame and local
 * frame are placed one after another (ptx_layout.frame).  A recursive call
 * is rejected here with its line.  The layout also records the deepest call
 * chain (per-thread call stacks in ptx_cta_step), whether the kernel can
 * reach a barrier, and its static shared memory.
 *
 * Exit-free instructions.  In a kernel, an instruction from which every
 * path reaches the exit without a barrier is marked PTX_F_EXITFREE.  Lanes
 * of a warp parked at such a reconvergence point (typically `if (tid >= n)
 * return;` compiled as a branch to the final ret) can only exit, so at a
 * barrier they count as exited, as the hardware's independent thread
 * scheduling (or ptxas's predicated EXIT) would let them; see ptx_cta.c.
 *
 * Register estimate.  PTX registers are virtual and unlimited, so their
 * number says nothing about occupancy.  When ptxas figures are absent the
 * kernel reports the maximum number of simultaneously live 32-bit values
 * (64-bit registers count two; predicates live in their own file), from a
 * standard backward liveness dataflow over the blocks, plus one for the
 * stack pointer R1 that the sm_70+ ABI reserves.  Callees count as the
 * largest of their own estimates.  ptxas can need more (address temporaries,
 * alignment of 64-bit pairs) or fewer (rematerialisation); docs/ptx.md.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"

typedef struct cfg {
    uint32_t nb;          /* blocks; node nb is the virtual exit */
    uint32_t *start;      /* first instruction of each block (function-relative), nb+1 entries */
    uint32_t *succ;       /* 2 per block, UINT32_MAX = none */
    uint32_t *pred_off, *pred; /* CSR predecessor lists (of nb+1 nodes) */
    uint32_t *ipdom;
    uint32_t *block_of;   /* instruction -> block */
} cfg;

static void cfg_free(cfg *g)
{
    free(g->start);
    free(g->succ);
    free(g->pred_off);
    free(g->pred);
    free(g->ipdom);
    free(g->block_of);
}

static int ends_block(const ptx_inst *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP;
}

static int cfg_build(const ptx_module *m, const ptx_func *f, cfg *g, ge_err *e)
{
    uint32_t n = f->ninst;
    const ptx_inst *I = m->insts + f->first;
    memset(g, 0, sizeof *g);
    uint8_t *lead = calloc(n + 1, 1);
    g->block_of = malloc((n + 1) * sizeof *g->block_of);
    if (!lead || !g->block_of) {
        free(lead);
        return ge_errf(e, "out of memory");
    }
    lead[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (I[i].op == PTX_OP_BRA)
            lead[I[i].target - f->first] = 1;
        if (ends_block(&I[i]))
            lead[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += lead[i];
    g->nb = nb;
    g->start = malloc((nb + 1) * sizeof *g->start);
    g->succ = malloc(2 * (nb + 1) * sizeof *g->succ);
    g->pred_off = calloc(nb + 2, sizeof *g->pred_off);
    g->pred = malloc(2 * (nb + 1) * sizeof *g->pred);
    g->ipdom = malloc((nb + 1) * sizeof *g->ipdom);
    if (!g->start || !g->succ || !g->pred_off || !g->pred || !g->ipdom) {
        free(lead);
        return ge_errf(e, "out of memory");
    }
    uint32_t b = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        if (lead[i])
            g->start[++b] = i;
        g->block_of[i] = b;
    }
    g->start[nb] = n;
    free(lead);
    for (b = 0; b < nb; b++) {
        const ptx_inst *last = &I[g->start[b + 1] - 1];
        uint32_t s0 = UINT32_MAX, s1 = UINT32_MAX;
        uint32_t next = b + 1; /* == nb (exit) after the last block */
        if (last->op == PTX_OP_BRA) {
            s0 = g->block_of[last->target - f->first];
            if (last->guard)
                s1 = next;
        } else if (ends_block(last)) {
            s0 = nb;
            if (last->guard)
                s1 = next;
        } else {
            s0 = next;
        }
        if (s1 == s0)
            s1 = UINT32_MAX;
        g->succ[2 * b] = s0;
        g->succ[2 * b + 1] = s1;
    }
    g->succ[2 * nb] = g->succ[2 * nb + 1] = UINT32_MAX;
    for (b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++)
            if (g->succ[2 * b + k] != UINT32_MAX)
                g->pred_off[g->succ[2 * b + k] + 1]++;
    for (uint32_t v = 0; v <= nb; v++)
        g->pred_off[v + 1] += g->pred_off[v];
    uint32_t *fill = calloc(nb + 1, sizeof *fill);
    if (!fill)
        return ge_errf(e, "out of memory");
    for (b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++) {
            uint32_t s = g->succ[2 * b + k];
            if (s != UINT32_MAX)
                g->pred[g->pred_off[s] + fill[s]++] = b;
        }
    free(fill);
    return 0;
}

/* Immediate post-dominators (Cooper-Harvey-Kennedy on the reverse graph). */
static int cfg_ipdom(cfg *g, ge_err *e)
{
    uint32_t N = g->nb + 1, root = g->nb, UNDEF = UINT32_MAX;
    uint32_t *po = malloc(N * sizeof *po);       /* postorder number */
    uint32_t *order = malloc(N * sizeof *order); /* nodes by postorder */
    uint32_t *stack = malloc(N * sizeof *stack), *it = malloc(N * sizeof *it);
    if (!po || !order || !stack || !it) {
        free(po), free(order), free(stack), free(it);
        return ge_errf(e, "out of memory");
    }
    for (uint32_t v = 0; v < N; v++) {
        po[v] = UNDEF;
        g->ipdom[v] = UNDEF;
    }
    /* iterative DFS from the exit over reversed edges (original predecessors) */
    uint32_t sp = 0, cnt = 0;
    uint8_t *seen = calloc(N, 1);
    if (!seen) {
        free(po), free(order), free(stack), free(it);
        return ge_errf(e, "out of memory");
    }
    stack[sp] = root;
    it[sp++] = g->pred_off[root];
    seen[root] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (it[sp - 1] < g->pred_off[v + 1]) {
            uint32_t w = g->pred[it[sp - 1]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp] = w;
                it[sp++] = g->pred_off[w];
            }
        } else {
            po[v] = cnt;
            order[cnt++] = v;
            sp--;
        }
    }
    free(seen);
    g->ipdom[root] = root;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t k = cnt; k-- > 0;) { /* reverse postorder */
            uint32_t b = order[k];
            if (b == root)
                continue;
            uint32_t nd = UNDEF;
            for (int s = 0; s < 2; s++) {
                uint32_t p = g->succ[2 * b + s];
                if (p == UINT32_MAX || g->ipdom[p] == UNDEF)
                    continue;
                if (nd == UNDEF) {
                    nd = p;
                    continue;
                }
                uint32_t a = p, c = nd;
                while (a != c) {
                    while (po[a] < po[c])
                        a = g->ipdom[a];
                    while (po[c] < po[a])
                        c = g->ipdom[c];
                }
                nd = a;
            }
            if (nd != UNDEF && g->ipdom[b] != nd) {
                g->ipdom[b] = nd;
                changed = 1;
            }
        }
    }
    for (uint32_t v = 0; v < N; v++)
        if (g->ipdom[v] == UNDEF)
            g->ipdom[v] = root; /* cannot reach the exit */
    free(po), free(order), free(stack), free(it);
    return 0;
}

/* Backward liveness; returns the maximum live 32-bit values. */
static uint32_t cfg_maxlive(const ptx_module *m, const ptx_func *f, const cfg *g)
{
    uint32_t nr = f->nregs;
    if (nr == 0)
        return 0;
    size_t W = (nr + 63) / 64;
    uint32_t nb = g->nb;
    uint64_t *in = calloc((size_t)nb * W, 8), *out = calloc((size_t)nb * W, 8), *live = calloc(W, 8);
    if (!in || !out || !live) {
        free(in), free(out), free(live);
        return nr; /* no memory for the analysis: the declared count */
    }
    const uint8_t *rw = m->regw + f->regw_first;
    const ptx_inst *I = m->insts + f->first;
    int changed = 1;
    uint32_t best = 0;
    for (int pass = 0; changed || pass == 0; pass++) {
        changed = 0;
        int final = 0;
    again:
        for (uint32_t b = nb; b-- > 0;) {
            uint64_t *o = out + (size_t)b * W;
            for (int s = 0; s < 2; s++) {
                uint32_t t = g->succ[2 * b + s];
                if (t == UINT32_MAX || t == nb)
                    continue;
                for (size_t w = 0; w < W; w++)
                    o[w] |= in[(size_t)t * W + w];
            }
            memcpy(live, o, W * 8);
            uint32_t cur = 0;
            if (final)
                for (uint32_t r = 0; r < nr; r++)
                    if (live[r / 64] >> (r % 64) & 1)
                        cur += rw[r];
            for (uint32_t i = g->start[b + 1]; i-- > g->start[b];) {
                const ptx_inst *x = &I[i];
                int nd = x->nws & 15, ns = x->nws >> 4;
                for (int k = 0; k < nd; k++) {
                    uint16_t r = x->wsreg[k];
                    if (!(r & PTX_WSREG_PRED) && r < nr && (live[r / 64] >> (r % 64) & 1)) {
                        live[r / 64] &= ~(1ull << (r % 64));
                        cur -= final ? rw[r] : 0;
                    }
                }
                for (int k = 0; k < ns; k++) {
                    uint16_t r = x->wsreg[nd + k];
                    if (!(r & PTX_WSREG_PRED) && r < nr && !(live[r / 64] >> (r % 64) & 1)) {
                        live[r / 64] |= 1ull << (r % 64);
                        cur += final ? rw[r] : 0;
                    }
                }
                if (final && cur > best)
                    best = cur;
            }
            uint64_t *n = in + (size_t)b * W;
            for (size_t w = 0; w < W; w++)
                if (n[w] != live[w]) {
                    n[w] = live[w];
                    changed = 1;
                }
        }
        if (!changed && !final) {
            final = 1;
            goto again;
        }
        if (final)
            break;
    }
    free(in), free(out), free(live);
    return best;
}

static int is_barrier(const ptx_module *m, const ptx_inst *in, const uint8_t *func_bar)
{
    if ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && !(in->flags & (PTX_F_WARP | PTX_F_ARRIVE)))
        return 1;
    (void)m;
    return in->op == PTX_OP_CALL && func_bar[in->target];
}

/* Mark the instructions of a kernel from which every path reaches the exit
 * without a barrier (a greatest fixed point over the blocks). */
static int mark_exit_free(ptx_module *m, const ptx_func *f, const cfg *g, const uint8_t *func_bar, ge_err *e)
{
    uint32_t nb = g->nb;
    ptx_inst *I = m->insts + f->first;
    uint8_t *ok = malloc(nb + 1);
    if (!ok)
        return ge_errf(e, "out of memory");
    for (uint32_t b = 0; b < nb; b++) {
        ok[b] = 1;
        for (uint32_t i = g->start[b]; i < g->start[b + 1]; i++)
            if (is_barrier(m, &I[i], func_bar))
                ok[b] = 0;
    }
    ok[nb] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < nb; b++)
            for (int s = 0; s < 2 && ok[b]; s++) {
                uint32_t t = g->succ[2 * b + s];
                if (t != UINT32_MAX && !ok[t])
                    ok[b] = 0, changed = 1;
            }
    }
    for (uint32_t b = 0; b < nb; b++) {
        int tail = 1; /* the rest of the block and its successors are barrier-free */
        for (int s = 0; s < 2; s++) {
            uint32_t t = g->succ[2 * b + s];
            if (t != UINT32_MAX && !ok[t])
                tail = 0;
        }
        for (uint32_t i = g->start[b + 1]; i-- > g->start[b];) {
            if (is_barrier(m, &I[i], func_bar))
                tail = 0;
            if (tail)
                I[i].flags |= PTX_F_EXITFREE;
        }
    }
    free(ok);
    return 0;
}

static int func_cfg(ptx_module *m, uint32_t fi, const uint8_t *func_bar, ge_err *e)
{
    ptx_func *f = &m->funcs[fi];
    cfg g;
    if (cfg_build(m, f, &g, e) || cfg_ipdom(&g, e) || (f->is_kernel && mark_exit_free(m, f, &g, func_bar, e))) {
        cfg_free(&g);
        return -1;
    }
    for (uint32_t i = 0; i < f->ninst; i++) {
        ptx_inst *in = &m->insts[f->first + i];
        if (in->op != PTX_OP_BRA)
            continue;
        uint32_t pd = g.ipdom[g.block_of[i]];
        in->rpc = pd == g.nb ? PTX_NO_PC : f->first + g.start[pd];
    }
    f->est_regs = cfg_maxlive(m, f, &g);
    cfg_free(&g);
    return 0;
}

/* ---- call graph ---- */

static int check_recursion(ptx_module *m, ge_err *e)
{
    uint32_t n = m->nfuncs;
    uint8_t *color = calloc(n, 1);
    uint32_t *stack = malloc((n + 1) * sizeof *stack), *pos = malloc((n + 1) * sizeof *pos);
    if (!color || !stack || !pos) {
        free(color), free(stack), free(pos);
        return ge_errf(e, "out of memory");
    }
    int rc = 0;
    for (uint32_t r = 0; r < n && !rc; r++) {
        if (color[r])
            continue;
        uint32_t sp = 0;
        stack[sp] = r;
        pos[sp++] = 0;
        color[r] = 1;
        while (sp && !rc) {
            uint32_t f = stack[sp - 1];
            const ptx_func *F = &m->funcs[f];
            uint32_t i = pos[sp - 1];
            if (F->is_extern || i >= F->ninst) {
                color[f] = 2;
                sp--;
                continue;
            }
            pos[sp - 1]++;
            const ptx_inst *in = &m->insts[F->first + i];
            if (in->op != PTX_OP_CALL)
                continue;
            uint32_t c = in->target;
            if (color[c] == 1) {
                rc = ge_errf(e, "%s:%u: recursive call to '%s' is not supported", m->name, in->line,
                             m->strs + m->funcs[c].name);
            } else if (color[c] == 0) {
                color[c] = 1;
                stack[sp] = c;
                pos[sp++] = 0;
            }
        }
    }
    free(color), free(stack), free(pos);
    return rc;
}

static uint32_t call_depth(const ptx_module *m, uint32_t f, uint32_t *memo)
{
    if (memo[f] != UINT32_MAX)
        return memo[f];
    const ptx_func *F = &m->funcs[f];
    uint32_t d = 0;
    for (uint32_t i = 0; i < F->ninst && !F->is_extern; i++) {
        const ptx_inst *in = &m->insts[F->first + i];
        if (in->op == PTX_OP_CALL) {
            uint32_t c = call_depth(m, in->target, memo) + 1;
            if (c > d)
                d = c;
        }
    }
    return memo[f] = d;
}

/*
 * Register renaming for the warp stream.  PTX registers are virtual; ptxas
 * assigns physical registers so that the operands of one instruction sit in
 * different register-file banks wherever it can, which is why real code
 * rarely meets the bank conflicts that raw virtual numbers would suggest
 * (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
 * Microbenchmarking", 2018, section 2.2, on how the compiler spreads FFMA
 * operands over banks).  A greedy pass in program order does the same for the
 * stream's ids: each register, when first met, takes a number in a bank (id
 * mod REGALLOC_BANKS) that none of the instruction's already-numbered
 * operands uses, choosing the bank with the most free numbers.  It is a
 * permutation, so the count and range of ids do not change.
 */
#define REGALLOC_BANKS 8

static uint32_t ws_id(const ptx_layout *L, const ptx_frame *fr, uint16_t r)
{
    return (r & PTX_WSREG_PRED) ? L->nregs + fr->pred + (r & 0x7fffu) : fr->reg + r;
}

static int regalloc_banks(const ptx_module *m, ptx_layout *L, const uint32_t *funcs, uint32_t nfuncs, ge_err *e)
{
    uint32_t n = L->nregs + L->npreds;
    L->wsmap = malloc((n ? n : 1) * sizeof *L->wsmap);
    uint8_t *done = calloc(n ? n : 1, 1);
    uint32_t next[REGALLOC_BANKS]; /* next unused id of each bank: b, b + B, b + 2B, ... */
    if (!L->wsmap || !done) {
        free(done);
        return ge_errf(e, "out of memory");
    }
    for (uint32_t b = 0; b < REGALLOC_BANKS; b++)
        next[b] = b;
    for (uint32_t q = 0; q < nfuncs; q++) {
        const ptx_func *F = &m->funcs[funcs[q]];
        const ptx_frame *fr = &L->frame[funcs[q]];
        for (uint32_t i = 0; i < F->ninst && !F->is_extern; i++) {
            const ptx_inst *x = &m->insts[F->first + i];
            int nops = (x->nws & 15) + (x->nws >> 4);
            unsigned used = 0;
            for (int o = 0; o < nops; o++) { /* banks already taken by this instruction */
                uint32_t id = ws_id(L, fr, x->wsreg[o]);
                if (id < n && done[id])
                    used |= 1u << (L->wsmap[id] % REGALLOC_BANKS);
            }
            for (int o = 0; o < nops; o++) {
                uint32_t id = ws_id(L, fr, x->wsreg[o]);
                if (id >= n || done[id])
                    continue;
                int best = -1;
                for (uint32_t b = 0; b < REGALLOC_BANKS; b++)
                    if (next[b] < n && !(used & (1u << b)) && (best < 0 || next[b] < next[best]))
                        best = (int)b;
                for (uint32_t b = 0; best < 0 && b < REGALLOC_BANKS; b++)
                    if (next[b] < n)
                        best = (int)b;
                L->wsmap[id] = (uint16_t)next[best];
                next[best] += REGALLOC_BANKS;
                done[id] = 1;
                used |= 1u << best;
            }
        }
    }
    /* registers no instruction names keep the numbers nobody took */
    for (uint32_t id = 0, b = 0; id < n; id++) {
        if (done[id])
            continue;
        while (next[b % REGALLOC_BANKS] >= n)
            b++;
        L->wsmap[id] = (uint16_t)next[b % REGALLOC_BANKS];
        next[b % REGALLOC_BANKS] += REGALLOC_BANKS;
    }
    free(done);
    return 0;
}

static int kernel_layout(ptx_module *m, uint32_t k, uint32_t *memo, ge_err *e)
{
    ptx_layout *L = &m->layouts[k];
    uint32_t n = m->nfuncs;
    L->frame = calloc(n, sizeof *L->frame);
    uint32_t *queue = malloc(n * sizeof *queue);
    uint8_t *in = calloc(n, 1);
    if (!L->frame || !queue || !in) {
        free(queue), free(in);
        return ge_errf(e, "out of memory");
    }
    uint32_t qh = 0, qt = 0;
    queue[qt++] = k;
    in[k] = 1;
    uint64_t regs = 0, preds = 0, params = 0, local = 0;
    uint32_t est = 0;
    uint64_t shared_end = m->shared_module, shared_decl = 0;
    while (qh < qt) {
        uint32_t f = queue[qh++];
        const ptx_func *F = &m->funcs[f];
        ptx_frame *fr = &L->frame[f];
        fr->reg = (uint32_t)regs;
        fr->pred = (uint32_t)preds;
        fr->param = (uint32_t)((params + 15) & ~15ull);
        fr->local = (uint32_t)((local + 15) & ~15ull);
        regs += F->nregs;
        preds += F->npreds;
        params = fr->param + F->frame_size;
        local = fr->local + F->local_size;
        if (F->est_regs > est)
            est = F->est_regs;
        for (uint32_t i = 0; i < F->ninst && !F->is_extern; i++) {
            const ptx_inst *x = &m->insts[F->first + i];
            if ((x->op == PTX_OP_BAR || x->op == PTX_OP_BARRIER) && !(x->flags & PTX_F_WARP))
                L->has_barrier = 1;
            if (x->op == PTX_OP_CALL && !in[x->target]) {
                in[x->target] = 1;
                queue[qt++] = x->target;
            }
        }
    }
    for (uint32_t v = 0; v < m->nvars; v++) {
        const ptx_var *var = &m->vars[v];
        if (var->space != PTX_SP_SHARED || var->size == 0)
            continue;
        if (var->func == UINT32_MAX || in[var->func]) {
            shared_decl += var->size;
            if (var->addr + var->size > shared_end)
                shared_end = var->addr + var->size;
        }
    }
    free(in);
    L->nregs = (uint32_t)regs;
    L->npreds = (uint32_t)preds;
    if (regs + preds < 65535 && regalloc_banks(m, L, queue, qt, e)) {
        free(queue);
        return -1;
    }
    free(queue);
    L->param_size = (uint32_t)params;
    L->local_size = (uint32_t)local;
    L->max_depth = call_depth(m, k, memo);
    L->shared_size = (uint32_t)shared_end;
    L->shared_decl = (uint32_t)shared_decl;
    uint32_t r = est + 1;
    m->funcs[k].est_regs = r < 2 ? 2 : r > 255 ? 255 : r;
    if (regs + preds >= 65535)
        return ge_errf(e, "%s:%u: kernel '%s' uses %llu registers and predicates; at most 65534 are supported",
                       m->name, m->funcs[k].line, m->strs + m->funcs[k].name,
                       (unsigned long long)(regs + preds));
    return 0;
}

/* Functions that can execute a barrier, directly or through calls. */
static uint8_t *barrier_funcs(const ptx_module *m)
{
    uint8_t *fb = calloc(m->nfuncs + 1, 1);
    if (!fb)
        return NULL;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            const ptx_func *F = &m->funcs[f];
            for (uint32_t i = 0; i < F->ninst && !F->is_extern && !fb[f]; i++)
                if (is_barrier(m, &m->insts[F->first + i], fb))
                    fb[f] = 1, changed = 1;
        }
    }
    return fb;
}

int ptx_cfg_module(ptx_module *m, ge_err *e)
{
    if (check_recursion(m, e))
        return -1;
    uint8_t *fb = barrier_funcs(m);
    if (!fb)
        return ge_errf(e, "out of memory");
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!m->funcs[f].is_extern && func_cfg(m, f, fb, e)) {
            free(fb);
            return -1;
        }
    free(fb);
    m->layouts = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *m->layouts);
    uint32_t *memo = malloc((m->nfuncs + 1) * sizeof *memo);
    if (!m->layouts || !memo) {
        free(memo);
        return ge_errf(e, "out of memory");
    }
    for (uint32_t f = 0; f < m->nfuncs; f++)
        memo[f] = UINT32_MAX;
    int rc = 0;
    for (uint32_t f = 0; f < m->nfuncs && !rc; f++)
        if (m->funcs[f].is_kernel)
            rc = kernel_layout(m, f, memo, e);
    free(memo);
    return rc;
}

uint32_t ptx_kernel_reg_estimate(const ptx_module *m, uint32_t kernel)
{
    return m->funcs[kernel].est_regs;
}
