/*
 * dram.h - one DRAM channel: its memory controller (request queue +
 * pluggable scheduler), its banks' state machines, refresh, and the timing
 * constraints between commands.
 *
 * Commands: ACT (open a row), PRE (close it), RD/WR (one column access =
 * one burst on the data bus), REF (all-bank refresh).  A request is one L2
 * miss or write-back: a line and a sector mask; it needs one burst per
 * burst_bytes of sectors (dram.bus_bits/8 x burst_length bytes per burst),
 * issued as consecutive column commands to its open row.
 *
 * Timing is data, not code (as in Ramulator, Kim et al., CAL 2015, and
 * DRAMSim3, Li et al., CAL 2020): dram_timing.c compiles, for the config's
 * DRAM type, a list of rows "after command X, command Y to the same bank /
 * bank group / channel must wait N cycles" from the config's tCL/tRCD/...
 * Issuing a command raises, for every row starting at it, the earliest
 * allowed time of the follower at that scope; a command may issue when
 * the current tick reaches the maximum over its bank, bank-group and channel
 * earliest times (plus the four-activate window, tFAW).  Adding a constraint
 * is a table row, not a code change.
 *
 * Policies: the scheduler is a dram_sched (name + pick), looked up by name
 * (dram.scheduler) in one table in dram.c: FR-FCFS (dram_sched_frfcfs.c) and
 * FCFS (dram_sched_fcfs.c).  The controller loop does not know which runs.
 *
 * Row policy: open page (a row stays open until a request for another row
 * or refresh closes it).  One command per DRAM command-clock tick.
 *
 * Write drain (dram.write_drain_high/low > 0): the scheduler serves reads
 * first until write_high writes are queued (or no read is), then only
 * writes until only write_low remain, so writes go out in batches and the
 * bus turns around less often and read and write rows do not alternate in
 * a bank -- the write queue with high/low watermarks of real controllers
 * and of GPGPU-Sim (-dram_write_queue_size size:high:low), whose write mode
 * likewise schedules from the write queue alone.  Between drains a write
 * may issue when no read can (the bus would idle otherwise).  0 = serve
 * reads and writes alike by age.

 *
 * Weighted requests (sampled-mode background, weight w > 1) stand for w
 * requests of w SMs: each of their column commands moves w bursts back to
 * back (the data bus is busy w x tBL and the following constraints count
 * from the last of them), and their ACT holds the channel's activate window
 * as w ACTs would (w x tRRD).  Row locality is that of one request, so a
 * weighted random stream opens fewer rows than w real ones would.
 *
 * Everything is in DRAM command-clock ticks.  A read's data is complete at
 * CAS + tCL + tBL, plus the fixed controller/PHY latency dram.latency_cycles
 * (added on the return path only, so it does not cost bandwidth).
 */
#ifndef SIM_DRAM_H
#define SIM_DRAM_H

#include <stdint.h>

#include "err.h"
#include "gpu_config.h"

enum { DRAM_ACT = 0, DRAM_PRE, DRAM_RD, DRAM_WR, DRAM_REF, DRAM_NCMD };
enum { DRAM_SCOPE_BANK = 0, DRAM_SCOPE_GROUP, DRAM_SCOPE_CHANNEL };

#define DRAM_MAX_RULES 32
#define DRAM_MAX_GROUPS 64 /* the schema's limit for dram.bank_groups */
#define DRAM_NEVER UINT64_MAX

/* One compiled constraint: after `from`, `to` at `scope` waits `cycles`. */
typedef struct dram_rule {
    uint8_t from, to, scope;
    uint32_t cycles;
} dram_rule;

typedef struct dram_timing {
    const char *type;         /* "HBM2", ... */
    int dual_cmd_bus;         /* 1: a row and a column command may issue in the same tick */
    uint32_t tBL;             /* data-bus cycles of one burst */
    uint32_t tCL, tWL, tRCD;  /* kept for completion times and tests */
    uint32_t tFAW, tRFC, tREFI;
    uint32_t burst_bytes;     /* bytes moved by one column command */
    uint32_t latency;         /* fixed controller+PHY latency on the read return path */
    int nrules;
    dram_rule rule[DRAM_MAX_RULES];
    uint8_t first[DRAM_NCMD], count[DRAM_NCMD]; /* rules sorted by `from` */
} dram_timing;

/* Compile the constraint table for cfg->dram (dram_timing.c). */
int dram_timing_build(dram_timing *t, const gpu_config *cfg, ge_err *e);

typedef struct dram_req {
    uint64_t line;
    uint64_t seq;        /* arrival order in this channel */
    uint64_t arrive;     /* tick it may first be scheduled */
    uint32_t row, bank;
    uint32_t bursts;     /* column commands still to issue */
    uint32_t sectors;
    uint32_t tag;        /* requester's id (L2 MSHR entry) */
    uint16_t src;        /* requester (L2 slice) */
    uint16_t weight;     /* requests it stands for (sampled-mode background; 1 otherwise) */
    uint8_t write, shadow;
    uint8_t opened;      /* an ACT was issued for this request */
    int32_t kprev, knext; /* links among the bank's queued requests of its kind (read/write), age order */
    int32_t next_free;
} dram_req;

typedef struct dram_bank {
    int64_t open_row;    /* -1: precharged */
    int32_t khead[2], ktail[2]; /* queued reads [0] / writes [1], oldest first (dram_bank_oldest) */
    int32_t hit[2];      /* oldest queued read [0] / write [1] for the open row, or -1 */
    uint32_t group;      /* bank group (bank mod bank_groups) */
    uint64_t next[DRAM_NCMD];
} dram_bank;

/* The bank's oldest queued request, read or write (-1: none). */
static inline int32_t dram_bank_oldest(const dram_req *req, const dram_bank *b)
{
    int32_t r = b->khead[0], w = b->khead[1];
    return r < 0 || (w >= 0 && req[w].seq < req[r].seq) ? w : r;
}

/* What a scheduler's scan of the banks looks at first, for all banks
 * together (FR-FCFS visits the banks of `row_banks` for row commands: a
 * visit then touches a bank's own state only when it may have a command to
 * issue; its column commands come from the `hits` lists). */
typedef struct dram_bank_q {
    /* Scheduler hint: no command of this bank can issue before `hint`.
     * Timing constraints only ever move later, so a bound a scheduler found
     * stays valid until the bank's queue or row changes; the controller then
     * resets it to 0. */
    uint64_t hint;
    uint32_t nq;         /* queued requests */
    uint32_t nhits;      /* of them, for the open row (0 when the bank is closed) */
    uint32_t nwrites;    /* of them, writes */
} dram_bank_q;

/* A bank's oldest queued hit of one kind (read or write) to its open row.
 * The channel keeps these, per kind, sorted oldest first (`hits`), so a
 * scheduler that wants the oldest ready hit tries them in age order and
 * stops at the first that timing allows, instead of visiting every bank. */
typedef struct dram_hit {
    uint64_t seq, arrive; /* the request's */
    uint32_t bank;
    int32_t req;
} dram_hit;

typedef struct dram_chan dram_chan;

/* A scheduler decision: the column command (RD/WR) and the row command
 * (ACT/PRE) it would issue now, each as a request index or -1.  A channel
 * with one command bus issues the column command if there is one, else the
 * row command; with separate row and column buses (HBM) it issues both when
 * they are for different banks. */
typedef struct dram_pick {
    int32_t col, row;
    uint8_t col_cmd, row_cmd;
    uint64_t wake; /* if both are -1: earliest tick at which something could issue */
} dram_pick;

typedef struct dram_sched {
    const char *name;
    /* Decide at tick `now` (refresh is handled by the controller).  May
     * update the banks' `hint` fields, nothing else. */
    void (*pick)(dram_chan *ch, uint64_t now, dram_pick *out);
} dram_sched;

typedef struct dram_stats {
    double reads, writes;           /* bursts (real traffic) */
    double activates, precharges;   /* real traffic + refresh precharges */
    double mc_requests;             /* sectors entering the controller (real) */
    double row_hits, row_accesses;  /* column commands (real) that did / did not need an ACT */
    double row_hits_w;              /* of the row hits, the writes' (their accesses: `writes`) */
    double busy;                    /* data-bus busy ticks (all traffic, incl. shadow) */
    double refreshes;
} dram_stats;

/* Read completion: the request (still valid during the call) and the tick
 * its data is back at the controller's output. */
typedef void (*dram_done_fn)(void *ctx, const dram_req *r, uint64_t ready);

struct dram_chan {
    const dram_timing *t;
    const dram_sched *sched;
    uint32_t banks, groups, cap;
    uint32_t rrd;           /* tRRD (weighted ACTs) */
    uint32_t nwrites;       /* queued writes */
    uint32_t write_high, write_low; /* write-drain watermarks (0 = no drain mode) */
    int draining;           /* write drain: serving writes first (kept by the controller) */
    dram_bank *bank;
    dram_bank_q *bq;        /* [banks] */
    dram_hit *hits[2];      /* [banks] each: read [0] / write [1] hits, oldest first */
    uint32_t nhit[2];       /* entries in hits[k] (banks whose hit[k] >= 0) */
    uint64_t *row_banks;    /* [(banks + 63) / 64] bitmap: banks with queued requests, none for
                             * the open row (FR-FCFS visits only these for row commands) */
    uint64_t *wr_banks;     /* the same: banks with queued writes, none for the open row (the row
                             * commands of a write drain) */
    uint64_t *group_next;   /* [groups * DRAM_NCMD] */
    uint64_t chan_next[DRAM_NCMD];
    uint64_t faw[4];        /* ticks of the last four ACTs (ring) */
    uint32_t faw_i;
    dram_req *req;          /* pool [cap] */
    int32_t free_head;
    uint32_t nq, nbanks_busy;
    uint64_t seq;
    uint64_t next_ref;      /* tick the next refresh is due (DRAM_NEVER: none) */
    uint64_t wake;          /* earliest tick dram_tick has work */
    dram_done_fn done;
    void *done_ctx;
    /* Optional: a requester that found the queue full asked (room_waiting)
     * to be told when a slot frees up. */
    uint32_t id;
    int room_waiting;
    void (*on_room)(void *ctx, uint32_t chan, uint64_t tick);
    void *room_ctx;
    /* Optional: told of every command issued (tests, tracing). */
    void (*on_cmd)(void *ctx, int cmd, uint32_t bank, uint64_t tick);
    void *cmd_ctx;
    dram_stats st;
};

/* Scheduler by name ("frfcfs", "fcfs"); NULL if unknown. */
const dram_sched *dram_sched_find(const char *name);

int dram_init(dram_chan *ch, const dram_timing *t, const gpu_config *cfg, dram_done_fn done, void *ctx, ge_err *e);
void dram_free(dram_chan *ch);

static inline int dram_can_accept(const dram_chan *ch, uint32_t n) { return ch->nq + n <= ch->cap; }

/* Queue a request (caller checked dram_can_accept).  It may be scheduled
 * from tick `arrive`. */
void dram_push(dram_chan *ch, uint64_t line, uint32_t bank, uint32_t row, uint32_t sectors, uint32_t sector_bytes,
               int write, int shadow, uint16_t src, uint32_t tag, uint32_t weight, uint64_t arrive);

/* Run the controller at tick `now` (at most one command). */
void dram_tick(dram_chan *ch, uint64_t now);

/* --- helpers for schedulers --- */

/* Earliest tick command `cmd` may issue to bank b (timing only). */
static inline uint64_t dram_ready(const dram_chan *ch, uint32_t b, int cmd)
{
    uint64_t r = ch->bank[b].next[cmd];
    uint64_t g = ch->group_next[ch->bank[b].group * DRAM_NCMD + cmd];
    if (g > r)
        r = g;
    if (ch->chan_next[cmd] > r)
        r = ch->chan_next[cmd];
    if (cmd == DRAM_ACT && ch->t->tFAW && ch->faw[ch->faw_i] != DRAM_NEVER) {
        uint64_t f = ch->faw[ch->faw_i] + ch->t->tFAW; /* oldest of the last four ACTs */
        if (f > r)
            r = f;
    }
    return r;
}

/* The command request r needs next given its bank's state. */
static inline int dram_next_cmd(const dram_chan *ch, const dram_req *r)
{
    const dram_bank *b = &ch->bank[r->bank];
    if (b->open_row == (int64_t)r->row)
        return r->write ? DRAM_WR : DRAM_RD;
    return b->open_row < 0 ? DRAM_ACT : DRAM_PRE;
}

/* Is a refresh pending (the scheduler must not open rows)? */
static inline int dram_refresh_due(const dram_chan *ch, uint64_t now) { return now >= ch->next_ref; }

#endif
