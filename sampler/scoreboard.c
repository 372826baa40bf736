/*
 * scoreboard.c - the per-warp scoreboard.
 *
 * Each warp keeps a small table of registers that in-flight instructions
 * will write.  An instruction may issue only when none of its sources
 * (read-after-write) or destinations (write-after-write) is pending.  A
 * fixed-latency result is entered with the cycle it becomes readable, so a
 * waiting warp knows exactly when to look again and the SM can sleep until
 * then; a load's result is entered as "never" with the load's record as
 * tag and made readable by its completion.  A 64-bit summary (bit r & 63
 * of every pending register) rejects most instructions without a scan.
 * Entries are dropped lazily, when a check finds them ready.
 */
#include "sm.h"

static void sb_rebuild_bits(sim_warp *w)
{
    uint64_t b = 0;
    for (uint32_t i = 0; i < w->nsb; i++)
        b |= 1ull << (w->sb[i].reg & 63);
    w->sb_bits = b;
}

int sim_sb_check(sim_warp *w, const sim_ib *b, uint64_t now, uint64_t *ready, int *mem)
{
    if (!(w->sb_bits & b->regbits))
        return 0;
    const ws_inst *in = &b->in;
    uint64_t worst = 0;
    int hazard = 0, m = 0, dropped = 0;
    for (uint32_t i = 0; i < w->nsb;) {
        sim_sb_ent *s = &w->sb[i];
        if (s->ready <= now) { /* written back: forget it */
            *s = w->sb[--w->nsb];
            dropped = 1;
            continue;
        }
        int hit = 0;
        for (int j = 0; j < in->nsrc && !hit; j++)
            hit = in->src[j] == s->reg;
        for (int j = 0; j < in->ndst && !hit; j++)
            hit = in->dst[j] == s->reg;
        if (hit) {
            hazard = 1;
            m |= s->mem;
            if (s->ready > worst)
                worst = s->ready;
        }
        i++;
    }
    if (dropped)
        sb_rebuild_bits(w);
    if (!hazard)
        return 0;
    *ready = worst;
    *mem = m;
    return 1;
}

void sim_sb_reserve(sim_warp *w, const ws_inst *in, uint64_t ready, uint32_t tag, int mem)
{
    for (int j = 0; j < in->ndst; j++) {
        sim_sb_ent *s = &w->sb[w->nsb++];
        s->reg = in->dst[j];
        s->ready = ready;
        s->tag = tag;
        s->mem = (uint8_t)mem;
        w->sb_bits |= 1ull << (s->reg & 63);
    }
}

void sim_sb_release(sim_warp *w, uint32_t tag, uint64_t now)
{
    for (uint32_t i = 0; i < w->nsb; i++)
        if (w->sb[i].tag == tag && w->sb[i].ready == SIM_NEVER)
            w->sb[i].ready = now;
}

int sim_sb_room(sim_warp *w, const ws_inst *in, uint64_t now)
{
    if (w->nsb + in->ndst <= SIM_SB_ENTRIES)
        return 1;
    for (uint32_t i = 0; i < w->nsb;) {
        if (w->sb[i].ready <= now)
            w->sb[i] = w->sb[--w->nsb];
        else
            i++;
    }
    sb_rebuild_bits(w);
    return w->nsb + in->ndst <= SIM_SB_ENTRIES;
}
