/*
 * dram.c - DRAM channel controller: request queue, bank state machines,
 * refresh, and the scheduler table (see dram.h for the model).
 *
 * Queue organisation: requests live in a fixed pool (dram.queue_entries per
 * channel); each bank keeps its own queued requests in arrival order (a
 * doubly linked list through the pool) and a count of those that target the
 * currently open row.  A scheduler therefore visits banks, not the whole
 * queue, and the "is there a row hit?" question is a counter test.  The
 * channel also keeps, for reads and for writes, each bank's oldest hit in
 * one list sorted by age (dram_hit), and a count of the banks that have
 * requests but no hit, so FR-FCFS finds the oldest ready hit without
 * visiting every bank and skips the row-command scan when it has nothing
 * to find.
 *
 * Per tick the controller issues at most one command, or one row command
 * plus one column command when the type has separate row and column command
 * buses (HBM).  When nothing can issue, the scheduler reports the earliest
 * tick at which something could (timing only), and the channel sleeps until
 * then or until a new request arrives: idle or waiting DRAM cycles cost no
 * simulation time.
 *
 * Refresh: all-bank refresh every tREFI ticks.  When due, the controller
 * stops scheduling requests, precharges the open banks (respecting tRAS,
 * tRTP, tWR), issues REF once every bank has been closed for tRP, and no ACT
 * may follow for tRFC.  Refresh is never postponed (JEDEC allows deferring
 * up to 8 refreshes; we do not model that slack).
 */
#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "mempkt.h"

extern const dram_sched dram_sched_frfcfs;
extern const dram_sched dram_sched_fcfs;

/* The DRAM schedulers, by config name (dram.scheduler). */
static const dram_sched *const sched_table[] = {
    &dram_sched_frfcfs,
    &dram_sched_fcfs,
};

const dram_sched *dram_sched_find(const char *name)
{
    for (size_t i = 0; i < sizeof sched_table / sizeof *sched_table; i++)
        if (strcmp(sched_table[i]->name, name) == 0)
            return sched_table[i];
    return NULL;
}

int dram_init(dram_chan *ch, const dram_timing *t, const gpu_config *cfg, dram_done_fn done, void *ctx, ge_err *e)
{
    memset(ch, 0, sizeof *ch);
    ch->t = t;
    ch->sched = dram_sched_find(cfg->dram.scheduler);
    if (!ch->sched)
        return ge_errf(e, "dram.scheduler: unknown scheduler '%s'", cfg->dram.scheduler);
    ch->banks = cfg->dram.banks;
    ch->groups = cfg->dram.bank_groups ? cfg->dram.bank_groups : 1;
    if (ch->groups > DRAM_MAX_GROUPS)
        return ge_errf(e, "dram.bank_groups: at most %d", DRAM_MAX_GROUPS);
    ch->cap = cfg->dram.queue_entries;
    ch->rrd = cfg->dram.tRRD;
    ch->write_high = cfg->dram.write_high;
    ch->write_low = cfg->dram.write_low;
    if (!ch->banks || !ch->cap)
        return ge_errf(e, "dram: needs banks and queue entries");
    ch->bank = ge_calloc(ch->banks, sizeof *ch->bank, e);
    ch->bq = ge_calloc(ch->banks, sizeof *ch->bq, e);
    ch->group_next = ge_calloc((size_t)ch->groups * DRAM_NCMD, sizeof *ch->group_next, e);
    ch->req = ge_calloc(ch->cap, sizeof *ch->req, e);
    ch->hits[0] = ge_calloc(ch->banks, sizeof *ch->hits[0], e);
    ch->hits[1] = ge_calloc(ch->banks, sizeof *ch->hits[1], e);
    ch->row_banks = ge_calloc((ch->banks + 63) / 64, sizeof *ch->row_banks, e);
    ch->wr_banks = ge_calloc((ch->banks + 63) / 64, sizeof *ch->wr_banks, e);
    if (!ch->bank || !ch->bq || !ch->group_next || !ch->req || !ch->hits[0] || !ch->hits[1] || !ch->row_banks ||
        !ch->wr_banks) {
        dram_free(ch);
        return -1;
    }
    for (uint32_t b = 0; b < ch->banks; b++) {
        ch->bank[b].open_row = -1;
        for (int k = 0; k < 2; k++)
            ch->bank[b].khead[k] = ch->bank[b].ktail[k] = -1;
        ch->bank[b].hit[0] = ch->bank[b].hit[1] = -1;
        ch->bank[b].group = b % ch->groups;
    }
    for (uint32_t i = 0; i < ch->cap; i++)
        ch->req[i].next_free = i + 1 < ch->cap ? (int32_t)(i + 1) : -1;
    for (int i = 0; i < 4; i++)
        ch->faw[i] = DRAM_NEVER;
    ch->free_head = 0;
    ch->next_ref = t->tREFI ? t->tREFI : DRAM_NEVER;
    ch->wake = ch->next_ref;
    ch->done = done;
    ch->done_ctx = ctx;
    return 0;
}

void dram_free(dram_chan *ch)
{
    free(ch->bank);
    free(ch->bq);
    free(ch->group_next);
    free(ch->req);
    free(ch->hits[0]);
    free(ch->hits[1]);
    free(ch->row_banks);
    free(ch->wr_banks);
    ch->hits[0] = ch->hits[1] = NULL;
    ch->row_banks = ch->wr_banks = NULL;
    ch->bank = NULL;
    ch->bq = NULL;
    ch->group_next = NULL;
    ch->req = NULL;
}

/* Does the bank have queued requests but none for its open row (so only a
 * row command can serve it)?  ch->row_banks marks these banks. */
static inline void row_bank_note(dram_chan *ch, uint32_t bank)
{
    uint64_t bit = 1ull << (bank & 63);
    if (ch->bq[bank].nq && !ch->bq[bank].nhits)
        ch->row_banks[bank >> 6] |= bit;
    else
        ch->row_banks[bank >> 6] &= ~bit;
}

/* Does the bank have queued writes but none for its open row?
 * ch->wr_banks marks these banks. */
static inline void wr_bank_note(dram_chan *ch, uint32_t bank)
{
    uint64_t bit = 1ull << (bank & 63);
    if (ch->bq[bank].nwrites && ch->bank[bank].hit[1] < 0)
        ch->wr_banks[bank >> 6] |= bit;
    else
        ch->wr_banks[bank >> 6] &= ~bit;
}

/* Make request i (or -1: none) the oldest hit of kind k in `bank`, keeping
 * the channel's age-ordered list of hits of that kind (dram_hit). */
static void hit_set(dram_chan *ch, uint32_t bank, int k, int32_t i)
{
    dram_bank *b = &ch->bank[bank];
    if (b->hit[k] == i)
        return;
    dram_hit *h = ch->hits[k];
    uint32_t n = ch->nhit[k];
    if (b->hit[k] >= 0) {
        uint32_t p = 0;
        while (h[p].bank != bank)
            p++;
        memmove(h + p, h + p + 1, (n - p - 1) * sizeof *h);
        n--;
    }
    b->hit[k] = i;
    if (i >= 0) {
        const dram_req *r = &ch->req[i];
        uint32_t p = n;
        for (; p > 0 && h[p - 1].seq > r->seq; p--)
            h[p] = h[p - 1];
        h[p] = (dram_hit){r->seq, r->arrive, bank, i};
        n++;
    }
    ch->nhit[k] = n;
    if (k == 1)
        wr_bank_note(ch, bank);
}

/* The bank's row was closed: no hits. */
static void hits_clear(dram_chan *ch, uint32_t bank)
{
    ch->bq[bank].nhits = 0;
    row_bank_note(ch, bank);
    hit_set(ch, bank, 0, -1);
    hit_set(ch, bank, 1, -1);
}

/* Write drain (dram.h): enter when write_high writes are queued or only
 * writes are, leave at write_low writes with reads waiting or at no writes.
 * Evaluated whenever the queue changes, which is the same as evaluating it
 * every tick (with the counts unchanged it is a fixed point), so the state
 * does not depend on when the scheduler happens to run. */
static void drain_update(dram_chan *ch)
{
    if (!ch->write_high)
        return;
    uint32_t nreads = ch->nq - ch->nwrites;
    if (!ch->draining && (ch->nwrites >= ch->write_high || (!nreads && ch->nwrites)))
        ch->draining = 1;
    else if (ch->draining && ((ch->nwrites <= ch->write_low && nreads) || !ch->nwrites))
        ch->draining = 0;
}

void dram_push(dram_chan *ch, uint64_t line, uint32_t bank, uint32_t row, uint32_t sectors, uint32_t sector_bytes,
               int write, int shadow, uint16_t src, uint32_t tag, uint32_t weight, uint64_t arrive)
{
    int32_t i = ch->free_head;
    dram_req *r = &ch->req[i];
    ch->free_head = r->next_free;
    uint32_t nsect = mem_popc(sectors);
    uint32_t bytes = nsect * sector_bytes;
    r->line = line;
    r->seq = ch->seq++;
    r->arrive = arrive;
    r->row = row;
    r->bank = bank;
    r->bursts = (bytes + ch->t->burst_bytes - 1) / ch->t->burst_bytes;
    if (!r->bursts)
        r->bursts = 1;
    r->sectors = sectors;
    r->tag = tag;
    r->src = src;
    r->weight = (uint16_t)(weight ? weight : 1);
    r->write = (uint8_t)(write != 0);
    r->shadow = (uint8_t)(shadow != 0);
    r->opened = 0;
    dram_bank *b = &ch->bank[bank];
    int k = r->write;
    r->kprev = b->ktail[k];
    r->knext = -1;
    if (b->ktail[k] >= 0)
        ch->req[b->ktail[k]].knext = i;
    else
        b->khead[k] = i;
    b->ktail[k] = i;
    ch->bq[bank].nq++;
    ch->bq[bank].nwrites += r->write;
    ch->bq[bank].hint = 0;
    ch->nwrites += r->write;
    if (b->open_row == (int64_t)row) {
        ch->bq[bank].nhits++;
        if (b->hit[r->write] < 0)
            hit_set(ch, bank, r->write, i);
    }
    row_bank_note(ch, bank);
    if (r->write) /* (a read changes neither its writes nor its write hit) */
        wr_bank_note(ch, bank);
    ch->nq++;
    drain_update(ch);
    if (!shadow)
        ch->st.mc_requests += nsect;
    if (arrive < ch->wake)
        ch->wake = arrive;
}

static void unlink_req(dram_chan *ch, int32_t i)
{
    dram_req *r = &ch->req[i];
    dram_bank *b = &ch->bank[r->bank];
    int k = r->write;
    if (r->kprev >= 0)
        ch->req[r->kprev].knext = r->knext;
    else
        b->khead[k] = r->knext;
    if (r->knext >= 0)
        ch->req[r->knext].kprev = r->kprev;
    else
        b->ktail[k] = r->kprev;
    ch->bq[r->bank].nq--;
    ch->bq[r->bank].nwrites -= r->write;
    ch->nwrites -= r->write;
    if (b->open_row == (int64_t)r->row) {
        ch->bq[r->bank].nhits--;
        if (b->hit[r->write] == i) { /* next oldest hit of the same kind */
            int32_t j = r->knext;
            while (j >= 0 && (int64_t)ch->req[j].row != b->open_row)
                j = ch->req[j].knext;
            hit_set(ch, r->bank, r->write, j);
        }
    }
    row_bank_note(ch, r->bank);
    if (k) /* (hit_set above notes it too when the write was the bank's write hit) */
        wr_bank_note(ch, r->bank);
    ch->nq--;
    drain_update(ch);
    r->next_free = ch->free_head;
    ch->free_head = i;
}

/* Raise the earliest times of every command that must wait after `cmd`. */
static void apply_rules(dram_chan *ch, int cmd, uint32_t bank, uint64_t now)
{
    const dram_timing *t = ch->t;
    uint64_t *gn = ch->group_next + ch->bank[bank].group * DRAM_NCMD;
    for (int k = t->first[cmd], end = t->first[cmd] + t->count[cmd]; k < end; k++) {
        const dram_rule *r = &t->rule[k];
        uint64_t at = now + r->cycles;
        uint64_t *slot = r->scope == DRAM_SCOPE_BANK    ? &ch->bank[bank].next[r->to]
                         : r->scope == DRAM_SCOPE_GROUP ? &gn[r->to]
                                                        : &ch->chan_next[r->to];
        if (at > *slot)
            *slot = at;
    }
}

static void count_hits(dram_chan *ch, uint32_t bank)
{
    const dram_bank *b = &ch->bank[bank];
    uint32_t n = 0;
    int32_t first[2] = {-1, -1};
    for (int k = 0; k < 2; k++)
        for (int32_t i = b->khead[k]; i >= 0; i = ch->req[i].knext)
            if ((int64_t)ch->req[i].row == b->open_row) {
                n++;
                if (first[k] < 0)
                    first[k] = i;
            }
    ch->bq[bank].nhits = n;
    row_bank_note(ch, bank);
    hit_set(ch, bank, 0, first[0]);
    hit_set(ch, bank, 1, first[1]);
}

static void issue(dram_chan *ch, int32_t ri, int cmd, uint64_t now)
{
    dram_req *r = &ch->req[ri];
    dram_bank *b = &ch->bank[r->bank];
    /* A weighted column command moves w bursts; its followers count from the
     * last one. */
    uint64_t last = cmd == DRAM_RD || cmd == DRAM_WR ? now + (uint64_t)(r->weight - 1) * ch->t->tBL : now;
    apply_rules(ch, cmd, r->bank, last);
    ch->bq[r->bank].hint = 0;
    if (ch->on_cmd)
        ch->on_cmd(ch->cmd_ctx, cmd, r->bank, now);
    switch (cmd) {
    case DRAM_ACT:
        b->open_row = r->row;
        count_hits(ch, r->bank);
        ch->faw[ch->faw_i] = now;
        ch->faw_i = (ch->faw_i + 1) & 3;
        r->opened = 1;
        if (r->weight > 1) { /* the activate window of w ACTs */
            uint64_t t = now + (uint64_t)r->weight * ch->rrd;
            if (t > ch->chan_next[DRAM_ACT])
                ch->chan_next[DRAM_ACT] = t;
        }
        if (!r->shadow)
            ch->st.activates++;
        break;
    case DRAM_PRE:
        b->open_row = -1;
        hits_clear(ch, r->bank);
        if (!r->shadow)
            ch->st.precharges++;
        break;
    default: /* RD, WR */
        ch->st.busy += (double)ch->t->tBL * r->weight;
        if (!r->shadow) {
            if (cmd == DRAM_RD) {
                ch->st.reads++;
            } else {
                ch->st.writes++;
                ch->st.row_hits_w += !r->opened;
            }
            ch->st.row_accesses++;
            ch->st.row_hits += !r->opened;
        }
        r->opened = 0;
        if (--r->bursts == 0) {
            if (cmd == DRAM_RD && ch->done)
                ch->done(ch->done_ctx, r, last + ch->t->tCL + ch->t->tBL + ch->t->latency);
            unlink_req(ch, ri);
            if (ch->room_waiting && ch->on_room) {
                ch->room_waiting = 0;
                ch->on_room(ch->room_ctx, ch->id, now);
            }
        }
        break;
    }
}

/* Refresh in progress: close one bank, or issue REF once all are closed;
 * sets ch->wake. */
static void refresh_step(dram_chan *ch, uint64_t now)
{
    uint64_t wake = DRAM_NEVER;
    for (uint32_t b = 0; b < ch->banks; b++) {
        if (ch->bank[b].open_row < 0)
            continue;
        uint64_t t = dram_ready(ch, b, DRAM_PRE);
        if (t <= now) {
            apply_rules(ch, DRAM_PRE, b, now);
            if (ch->on_cmd)
                ch->on_cmd(ch->cmd_ctx, DRAM_PRE, b, now);
            ch->bank[b].open_row = -1;
            hits_clear(ch, b);
            ch->bq[b].hint = 0;
            ch->st.precharges++;
            ch->wake = now + 1;
            return;
        }
        if (t < wake)
            wake = t;
    }
    if (wake != DRAM_NEVER) {
        ch->wake = wake;
        return;
    }
    uint64_t t = dram_ready(ch, 0, DRAM_REF);
    if (t > now) {
        ch->wake = t;
        return;
    }
    apply_rules(ch, DRAM_REF, 0, now);
    if (ch->on_cmd)
        ch->on_cmd(ch->cmd_ctx, DRAM_REF, 0, now);
    ch->st.refreshes++;
    ch->next_ref += ch->t->tREFI;
    ch->wake = now + 1;
}

void dram_tick(dram_chan *ch, uint64_t now)
{
    if (now < ch->wake)
        return;
    if (dram_refresh_due(ch, now)) {
        refresh_step(ch, now);
        return;
    }
    if (!ch->nq) {
        ch->wake = ch->next_ref;
        return;
    }
    dram_pick p;
    ch->sched->pick(ch, now, &p);
    if (p.col < 0 && p.row < 0) {
        ch->wake = p.wake > now ? p.wake : now + 1;
        if (ch->next_ref < ch->wake)
            ch->wake = ch->next_ref;
        return;
    }
    if (p.col >= 0) {
        uint32_t col_bank = ch->req[p.col].bank;
        issue(ch, p.col, p.col_cmd, now);
        if (ch->t->dual_cmd_bus && p.row >= 0 && ch->req[p.row].bank != col_bank)
            issue(ch, p.row, p.row_cmd, now);
    } else {
        issue(ch, p.row, p.row_cmd, now);
    }
    ch->wake = now + 1;
}
