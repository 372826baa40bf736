/*
 * dram_sched_fcfs.c - First-Come-First-Served scheduling: only the oldest
 * queued request may issue a command (PRE, ACT or its column command), so
 * requests are served strictly in arrival order and a younger row hit never
 * overtakes an older row miss (the baseline of Rixner et al., ISCA 2000, and
 * GPGPU-Sim's -gpgpu_dram_scheduler 0).
 */
#include "dram.h"

static void fcfs_pick(dram_chan *ch, uint64_t now, dram_pick *out)
{
    int32_t oldest = -1;
    uint64_t seq = UINT64_MAX;
    for (uint32_t bi = 0; bi < ch->banks; bi++) {
        int32_t h = dram_bank_oldest(ch->req, &ch->bank[bi]);
        if (h >= 0 && ch->req[h].seq < seq)
            seq = ch->req[h].seq, oldest = h;
    }
    out->col = out->row = -1;
    out->wake = DRAM_NEVER;
    if (oldest < 0)
        return;
    const dram_req *r = &ch->req[oldest];
    int cmd = dram_next_cmd(ch, r);
    uint64_t t = dram_ready(ch, r->bank, cmd);
    if (r->arrive > t)
        t = r->arrive;
    if (t > now) {
        out->wake = t;
    } else if (cmd == DRAM_RD || cmd == DRAM_WR) {
        out->col = oldest, out->col_cmd = (uint8_t)cmd;
    } else {
        out->row = oldest, out->row_cmd = (uint8_t)cmd;
    }
}

const dram_sched dram_sched_fcfs = {"fcfs", fcfs_pick};
