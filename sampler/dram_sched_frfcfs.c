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

static void frfcfs_pick(const dram_chan *ch, uint64_t now, unsigned allowed, dram_pick *out)
{
    int32_t best_col = -1, best_row = -1;
    uint64_t col_seq = UINT64_MAX, row_seq = UINT64_MAX;
    uint8_t col_cmd = 0, row_cmd = 0;
    uint64_t wake = DRAM_NEVER;
    for (uint32_t bi = 0; bi < ch->banks; bi++) {
        const dram_bank *b = &ch->bank[bi];
        if (!b->nq)
            continue;
        if (b->open_row >= 0 && b->nhits) {
            if (!(allowed & DRAM_COL_CMDS))
                continue;
            uint64_t rr = dram_ready(ch, bi, DRAM_RD), rw = dram_ready(ch, bi, DRAM_WR);
            for (int32_t i = b->head; i >= 0; i = ch->req[i].next) {
                const dram_req *r = &ch->req[i];
                if ((int64_t)r->row != b->open_row)
                    continue;
                uint64_t t = r->write ? rw : rr;
                if (r->arrive > t)
                    t = r->arrive;
                if (t <= now) {
                    if (r->seq < col_seq)
                        col_seq = r->seq, best_col = i, col_cmd = r->write ? DRAM_WR : DRAM_RD;
                    break; /* later hits in this bank are younger */
                }
                if (t < wake)
                    wake = t;
            }
            continue;
        }
        if (!(allowed & DRAM_ROW_CMDS))
            continue;
        const dram_req *r = &ch->req[b->head];
        int cmd = b->open_row >= 0 ? DRAM_PRE : DRAM_ACT;
        uint64_t t = dram_ready(ch, bi, cmd);
        if (r->arrive > t)
            t = r->arrive;
        if (t <= now) {
            if (r->seq < row_seq)
                row_seq = r->seq, best_row = b->head, row_cmd = (uint8_t)cmd;
        } else if (t < wake) {
            wake = t;
        }
    }
    if (best_col >= 0) {
        out->req = best_col, out->cmd = col_cmd;
    } else if (best_row >= 0) {
        out->req = best_row, out->cmd = row_cmd;
    } else {
        out->req = -1;
        out->wake = wake;
    }
}

const dram_sched dram_sched_frfcfs = {"frfcfs", frfcfs_pick};
