/*
 * dram_sched_frfcfs.c - First-Ready, First-Come-First-Served scheduling
 * (Rixner et al., "Memory Access Scheduling", ISCA 2000), the policy of
 * GPGPU-Sim's default DRAM controller.
 *
 * Among the commands that can issue this tick, column commands to an open
 * row (row hits) go first, oldest request first; otherwise the oldest
 * request's row command (PRE or ACT).  A bank with queued hits to its open
 * row is never precharged (that would throw away ready hits), so a row is
 * closed only when no queued request wants it.  "Ready" means the timing
 * constraints allow the command now -- the first-ready part, which lets a
 * hit in another bank group slip in while tCCD_L blocks this one.
 */
#include "dram.h"

/* Earliest tick of cmd at bank b given the precomputed group/channel part. */
static inline uint64_t ready_at(const dram_chan *ch, const uint64_t *gready, uint32_t b, int cmd)
{
    uint64_t r = ch->bank[b].next[cmd], g = gready[ch->bank[b].group * DRAM_NCMD + cmd];
    r = r > g ? r : g;
    if (cmd == DRAM_ACT && ch->t->tFAW && ch->faw[ch->faw_i] != DRAM_NEVER) {
        uint64_t f = ch->faw[ch->faw_i] + ch->t->tFAW;
        r = r > f ? r : f;
    }
    return r;
}

static void frfcfs_pick(const dram_chan *ch, uint64_t now, dram_pick *out)
{
    int32_t best_col = -1, best_row = -1;
    uint64_t col_seq = UINT64_MAX, row_seq = UINT64_MAX;
    uint8_t col_cmd = 0, row_cmd = 0;
    uint64_t wake = DRAM_NEVER;
    /* max(group, channel) earliest times, once per pick */
    uint64_t gready[DRAM_MAX_GROUPS * DRAM_NCMD];
    for (uint32_t g = 0; g < ch->groups; g++)
        for (int c = 0; c < DRAM_REF; c++) {
            uint64_t a = ch->group_next[g * DRAM_NCMD + c], b = ch->chan_next[c];
            gready[g * DRAM_NCMD + c] = a > b ? a : b;
        }
    for (uint32_t bi = 0; bi < ch->banks; bi++) {
        const dram_bank *b = &ch->bank[bi];
        if (!b->nq)
            continue;
        if (b->open_row >= 0 && b->nhits) {
            /* The oldest read hit and the oldest write hit: any younger hit
             * of the same kind has the same readiness and is younger. */
            for (int k = 0; k < 2; k++) {
                int32_t i = b->hit[k];
                if (i < 0)
                    continue;
                const dram_req *r = &ch->req[i];
                uint64_t t = ready_at(ch, gready, bi, k ? DRAM_WR : DRAM_RD);
                if (r->arrive > t)
                    t = r->arrive;
                if (t <= now) {
                    if (r->seq < col_seq)
                        col_seq = r->seq, best_col = i, col_cmd = k ? DRAM_WR : DRAM_RD;
                } else if (t < wake) {
                    wake = t;
                }
            }
            continue;
        }
        const dram_req *r = &ch->req[b->head];
        int cmd = b->open_row >= 0 ? DRAM_PRE : DRAM_ACT;
        uint64_t t = ready_at(ch, gready, bi, cmd);
        if (r->arrive > t)
            t = r->arrive;
        if (t <= now) {
            if (r->seq < row_seq)
                row_seq = r->seq, best_row = b->head, row_cmd = (uint8_t)cmd;
        } else if (t < wake) {
            wake = t;
        }
    }
    out->col = best_col, out->col_cmd = col_cmd;
    out->row = best_row, out->row_cmd = row_cmd;
    out->wake = wake;
}

const dram_sched dram_sched_frfcfs = {"frfcfs", frfcfs_pick};
