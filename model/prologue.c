/*
 * prologue.c - the share of a kernel's load lines that its warps issue
 * before their first wait for a load, which the first generation's CTAs
 * issue together at launch (the launch burst, model.c).
 */
#include "model_int.h"

#include "isa.h"

/* What a tile load does besides loading: store to shared memory, compute
 * addresses, branch.  (A shared atomic, as in a shared histogram's loop,
 * is work: its loop's loads are not a prologue.) */
static int tile_op(uint8_t op)
{
    const isa_op_info *inf = &isa_ops[op];
    if (inf->space == ISA_SPACE_NONE)
        return inf->unit == ISA_UNIT_INT || (inf->unit == ISA_UNIT_BRANCH && !(inf->flags & ISA_F_EXIT));
    if (inf->space == ISA_SPACE_SHARED)
        return inf->flags == ISA_F_STORE;
    return (inf->flags & ISA_F_LOAD) && !(inf->flags & ISA_F_ATOMIC) && (MM_SP(GLOBAL) | MM_SP(LOCAL)) & (1u << inf->space);
}

/* The share of a kernel's global and local load lines that its warps issue
 * before their first instruction that waits for a load (the prologue),
 * over the representative warps by weight.  A warp that, after that wait,
 * only moves data (tile_op) until a barrier is still loading its CTA's
 * tiles: its prologue runs to the barrier (hotspot stores each loaded value
 * to shared memory, which waits for the load, and loads the next). */
double mm_prologue_share(const prof_kernel *pk)
{
    double pro = 0, all = 0;
    for (uint32_t r = 0; r < pk->nwarps; r++) {
        const prof_warp *w = &pk->warps[r];
        double a = 0, b = 0, tiles = 0; /* tiles: loads after the first wait, while only data moves */
        int open = 1, moving = 0;       /* moving: past the first wait, no computation yet */
        for (uint32_t j = 0; j < w->ninst; j++) {
            const prof_inst *pi = &w->inst[j];
            const isa_op_info *inf = &isa_ops[pi->op];
            for (int d = 0; d < PROF_MAX_DEPS && open && !moving; d++) {
                uint32_t q = pi->dep[d];
                if (q && q <= j) {
                    const isa_op_info *src = &isa_ops[w->inst[j - q].op];
                    if ((src->flags & ISA_F_LOAD) && (MM_SP(GLOBAL) | MM_SP(LOCAL)) & (1u << src->space))
                        moving = 1;
                }
            }
            if (moving && open) {
                if (inf->flags & ISA_F_BARRIER) {
                    b += tiles; /* the data moved up to the barrier was the prologue's */
                    open = moving = 0;
                } else if (!tile_op(pi->op)) {
                    open = moving = 0; /* computation: the prologue ended at the first wait */
                }
            }
            if ((inf->flags & ISA_F_LOAD) && (MM_SP(GLOBAL) | MM_SP(LOCAL)) & (1u << inf->space)) {
                a += pi->lines;
                if (open && !moving)
                    b += pi->lines;
                else if (moving)
                    tiles += pi->lines;
            }
        }
        pro += w->weight * b;
        all += w->weight * a;
    }
    return all > 0 ? pro / all : 0;
}
