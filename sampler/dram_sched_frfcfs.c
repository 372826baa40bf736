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
 *
 * With write drain (dram.h), reads go first outside a drain, and during a
 * drain only writes are served: a bank whose open row has queued reads but
 * whose next write wants another row is precharged for the write.  (Letting
 * a ready read slip in while the drain's next write waits for its row
 * turns the data bus twice per slip: measured on V100's 4096 x 4096 tiled
 * transpose, 0.0106 turns per DRAM cycle against 0.0035 at 2048 x 2048, and
 * the bus busy 0.69 of the time against 0.75 with the strict drain.)

 */
#include "dram.h"

/* The row command (PRE or ACT) bank bi needs next for request r, and the
 * earliest tick it can issue. */
static inline uint64_t row_cmd_ready(const dram_chan *ch, uint32_t bi, const dram_req *r, int *cmd)
{
    *cmd = ch->bank[bi].open_row >= 0 ? DRAM_PRE : DRAM_ACT;
    uint64_t t = dram_ready(ch, bi, *cmd);
    return r->arrive > t ? r->arrive : t;
}

/* During a drain: the oldest ready row command among the banks that have
 * writes but no write hit, each for its oldest write. */
static void drain_row_cmd(dram_chan *ch, uint64_t now, int32_t *best_row, uint64_t *row_seq, uint8_t *row_cmd,
                          uint64_t *wake)
{
    for (uint32_t w = 0; w < (ch->banks + 63) / 64; w++)
        for (uint64_t bits = ch->wr_banks[w]; bits; bits &= bits - 1) {
            uint32_t bi = w * 64 + (uint32_t)__builtin_ctzll(bits);
            int32_t ri = ch->bank[bi].khead[1];
            const dram_req *r = &ch->req[ri];
            if (r->seq > *row_seq)
                continue;
            int cmd;
            uint64_t t = row_cmd_ready(ch, bi, r, &cmd);
            if (t <= now)
                *row_seq = r->seq, *best_row = ri, *row_cmd = (uint8_t)cmd;
            else if (t < *wake)
                *wake = t;
        }
}

static void frfcfs_pick(dram_chan *ch, uint64_t now, dram_pick *out)
{
    int32_t best_row = -1, best_cas[2] = {-1, -1}; /* read, write */
    uint64_t row_seq = UINT64_MAX, cas_seq[2] = {UINT64_MAX, UINT64_MAX};
    uint8_t row_cmd = 0;
    uint64_t wake = DRAM_NEVER;
    /* preferred direction: -1 none (by age), 0 reads, 1 writes */
    int dir = ch->write_high ? ch->draining : -1;
    /* Column commands: per kind, the banks' oldest hits in age order; the
     * first that timing allows is the oldest ready one.  (A younger hit in
     * the same bank has the same readiness and is younger.) */
    for (int k = dir == 1; k < 2; k++) { /* a drain serves writes only */
        int cmd = k ? DRAM_WR : DRAM_RD;
        if (ch->chan_next[cmd] > now) { /* no column command of this kind before then */
            if (ch->nhit[k] && ch->chan_next[cmd] < wake)
                wake = ch->chan_next[cmd];
            continue;
        }
        const dram_hit *h = ch->hits[k];
        for (uint32_t p = 0, n = ch->nhit[k]; p < n; p++) {
            uint64_t t = dram_ready(ch, h[p].bank, cmd);
            if (h[p].arrive > t)
                t = h[p].arrive;
            if (t <= now) {
                best_cas[k] = h[p].req, cas_seq[k] = h[p].seq;
                break;
            }
            if (t < wake)
                wake = t;
        }
    }
    /* Row commands: banks with requests but no hit to their open row (a bank
     * with queued hits is never precharged); during a drain, banks with
     * writes but no write hit. */
    if (dir == 1)
        drain_row_cmd(ch, now, &best_row, &row_seq, &row_cmd, &wake);
    else
        for (uint32_t w = 0; w < (ch->banks + 63) / 64; w++)
            for (uint64_t bits = ch->row_banks[w]; bits; bits &= bits - 1) {
                uint32_t bi = w * 64 + (uint32_t)__builtin_ctzll(bits);
                dram_bank_q *q = &ch->bq[bi];
                if (q->hint > now) { /* known not ready yet (see dram_bank_q.hint) */
                    if (q->hint < wake)
                        wake = q->hint;
                    continue;
                }
                const dram_bank *b = &ch->bank[bi];
                /* between drains the bank's oldest read, if any */
                int32_t ri = dir == 0 && b->khead[0] >= 0 ? b->khead[0] : dram_bank_oldest(ch->req, b);
                const dram_req *r = &ch->req[ri];
                if (r->seq > row_seq)
                    continue; /* an older ready row command was found: this one cannot be
                               * picked whatever its timing, which stays unknown (no hint) */
                int cmd;
                uint64_t t = row_cmd_ready(ch, bi, r, &cmd);
                if (t <= now) {
                    if (r->seq < row_seq)
                        row_seq = r->seq, best_row = ri, row_cmd = (uint8_t)cmd;
                } else {
                    q->hint = t;
                    if (t < wake)
                        wake = t;
                }
            }
    /* Column command: the oldest ready one, or of the preferred direction. */
    int k = best_cas[1] >= 0 && (best_cas[0] < 0 || cas_seq[1] < cas_seq[0]);
    if (dir >= 0 && (best_cas[dir] >= 0 || best_cas[!dir] < 0))
        k = dir;
    out->col = best_cas[k], out->col_cmd = k ? DRAM_WR : DRAM_RD;
    out->row = best_row, out->row_cmd = row_cmd;
    out->wake = wake;
}

const dram_sched dram_sched_frfcfs = {"frfcfs", frfcfs_pick};
