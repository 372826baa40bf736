/*
 * test_dram.c - DRAM channel timing, by hand-computed command schedules.
 *
 * Timing used (DRAM cycles): tCL 10, tWL 4, tRCD 8, tRP 7, tRAS 20, tRC 27,
 * tCCD 2, tCCDL 4, tRRD 5, tWTR 6, tWR 9, tRTP 3, tFAW 30; burst length 8 at
 * 4 transfers per clock (tBL = 2) on a 64-bit bus (64 B per burst); fixed
 * controller latency 5.  Banks b are in bank group b % 4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dram.h"

#define LAT 5

typedef struct rec {
    int ncmd;
    int cmd[256];
    uint32_t bank[256];
    uint64_t tick[256];
    int ndone;
    uint32_t done_tag[64];
    uint64_t done_at[64];
} rec;

static void on_cmd(void *ctx, int cmd, uint32_t bank, uint64_t tick)
{
    rec *r = ctx;
    if (r->ncmd < 256) {
        r->cmd[r->ncmd] = cmd;
        r->bank[r->ncmd] = bank;
        r->tick[r->ncmd++] = tick;
    }
}

static void on_done(void *ctx, const dram_req *q, uint64_t ready)
{
    rec *r = ctx;
    r->done_tag[r->ndone] = q->tag;
    r->done_at[r->ndone++] = ready;
}

static gpu_config base_cfg(const char *type, const char *sched)
{
    gpu_config c;
    memset(&c, 0, sizeof c);
    strcpy(c.dram.type, type);
    strcpy(c.dram.scheduler, sched);
    c.dram.channels = 1;
    c.dram.bus_bits = 64;
    c.dram.data_rate = 4;
    c.dram.burst_length = 8;
    c.dram.banks = 8;
    c.dram.bank_groups = 4;
    c.dram.row_bytes = 2048;
    c.dram.queue_entries = 16;
    c.dram.latency_cycles = LAT;
    c.dram.tCL = 10;
    c.dram.tWL = 4;
    c.dram.tRCD = 8;
    c.dram.tRP = 7;
    c.dram.tRAS = 20;
    c.dram.tRC = 27;
    c.dram.tCCD = 2;
    c.dram.tCCDL = 4;
    c.dram.tRRD = 5;
    c.dram.tWTR = 6;
    c.dram.tWR = 9;
    c.dram.tRTP = 3;
    c.dram.tFAW = 30;
    return c;
}

typedef struct fixture {
    gpu_config cfg;
    dram_timing t;
    dram_chan ch;
    rec r;
} fixture;

static fixture *setup(const char *type, const char *sched, uint32_t trefi, uint32_t trfc)
{
    fixture *f = calloc(1, sizeof *f);
    f->cfg = base_cfg(type, sched);
    f->cfg.dram.tREFI = trefi;
    f->cfg.dram.tRFC = trfc;
    ge_err e;
    assert_int_equal(dram_timing_build(&f->t, &f->cfg, &e), 0);
    assert_int_equal(dram_init(&f->ch, &f->t, &f->cfg, on_done, &f->r, &e), 0);
    f->ch.on_cmd = on_cmd;
    f->ch.cmd_ctx = &f->r;
    return f;
}

static void teardown(fixture *f)
{
    dram_free(&f->ch);
    free(f);
}

static void run(fixture *f, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t < to; t++)
        dram_tick(&f->ch, t);
}

static void push(fixture *f, uint32_t bank, uint32_t row, uint32_t sectors, int write, uint32_t tag, uint64_t at)
{
    assert_true(dram_can_accept(&f->ch, 1));
    dram_push(&f->ch, 0, bank, row, sectors, 32, write, 0, 0, tag, 1, at);
}

/* Index of the k-th command of kind cmd (to bank b, or any if b < 0). */
static uint64_t cmd_at(const fixture *f, int cmd, int b, int k)
{
    for (int i = 0; i < f->r.ncmd; i++)
        if (f->r.cmd[i] == cmd && (b < 0 || (int)f->r.bank[i] == b) && k-- == 0)
            return f->r.tick[i];
    fail_msg("command %d to bank %d not issued", cmd, b);
    return 0;
}

static void test_closed_hit_conflict(void **st)
{
    (void)st;
    fixture *f = setup("GDDR5", "frfcfs", 0, 0);
    assert_int_equal(f->t.tBL, 2);
    /* Closed bank: ACT, then RD after tRCD; data after tCL + tBL (+ LAT). */
    push(f, 0, 5, 0x1, 0, 1, 0);
    run(f, 0, 90);
    assert_int_equal(f->r.ndone, 1);
    assert_int_equal(cmd_at(f, DRAM_ACT, 0, 0), 0);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8);
    assert_int_equal(f->r.done_at[0], 8 + 10 + 2 + LAT); /* tRCD + tCL + tBL + latency */
    /* Row hit: tCL + tBL after arrival. */
    push(f, 0, 5, 0x1, 0, 2, 100);
    run(f, 90, 190);
    assert_int_equal(f->r.done_at[1], 100 + 10 + 2 + LAT);
    /* Row conflict: PRE, tRP, ACT, tRCD, RD. */
    push(f, 0, 6, 0x1, 0, 3, 200);
    run(f, 190, 300);
    assert_int_equal(cmd_at(f, DRAM_PRE, 0, 0), 200);
    assert_int_equal(cmd_at(f, DRAM_ACT, 0, 1), 207);
    assert_int_equal(f->r.done_at[2], 207 + 8 + 10 + 2 + LAT);
    assert_int_equal(f->ch.st.activates, 2);
    assert_int_equal(f->ch.st.precharges, 1);
    assert_int_equal(f->ch.st.row_accesses, 3);
    assert_int_equal(f->ch.st.row_hits, 1);
    assert_int_equal(f->ch.st.reads, 3);
    teardown(f);
}

static void test_tras_trc_bursts(void **st)
{
    (void)st;
    fixture *f = setup("GDDR5", "frfcfs", 0, 0);
    /* 4 sectors = 128 B = two 64-byte bursts, same bank: tCCDL apart. */
    push(f, 0, 1, 0xf, 0, 1, 0);
    /* A conflicting request right behind: PRE must wait tRAS after the ACT. */
    push(f, 0, 2, 0x1, 0, 2, 0);
    run(f, 0, 120);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 1), 12);
    assert_int_equal(f->r.done_at[0], 12 + 10 + 2 + LAT);
    assert_int_equal(cmd_at(f, DRAM_PRE, 0, 0), 20);    /* tRAS (> RD 12 + tRTP) */
    assert_int_equal(cmd_at(f, DRAM_ACT, 0, 1), 27);    /* max(PRE + tRP, ACT + tRC) = 27 */
    assert_int_equal(f->ch.st.reads, 3);
    teardown(f);
}

static void test_trrd_tfaw(void **st)
{
    (void)st;
    fixture *f = setup("GDDR5", "frfcfs", 0, 0);
    for (uint32_t b = 0; b < 5; b++)
        push(f, b, 1, 0x1, 0, b, 0);
    run(f, 0, 200);
    assert_int_equal(cmd_at(f, DRAM_ACT, 0, 0), 0);
    assert_int_equal(cmd_at(f, DRAM_ACT, 1, 0), 5);  /* tRRD */
    assert_int_equal(cmd_at(f, DRAM_ACT, 2, 0), 10);
    assert_int_equal(cmd_at(f, DRAM_ACT, 3, 0), 15);
    assert_int_equal(cmd_at(f, DRAM_ACT, 4, 0), 30); /* tFAW: fifth ACT >= first + 30 */
    assert_int_equal(f->r.ndone, 5);
    teardown(f);
}

static void test_turnarounds(void **st)
{
    (void)st;
    /* FCFS keeps the order write, read, write. */
    fixture *f = setup("GDDR5", "fcfs", 0, 0);
    push(f, 0, 1, 0x1, 1, 1, 0); /* write */
    push(f, 0, 1, 0x1, 0, 2, 0); /* read, same row */
    push(f, 0, 1, 0x1, 1, 3, 0); /* write again */
    run(f, 0, 200);
    assert_int_equal(cmd_at(f, DRAM_WR, 0, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8 + 4 + 2 + 6);       /* tWL + tBL + tWTR */
    assert_int_equal(cmd_at(f, DRAM_WR, 0, 1), 20 + 10 + 2 + 2 - 4); /* tCL + tBL + turnaround - tWL */
    assert_int_equal(f->r.ndone, 1); /* writes do not complete back */
    assert_int_equal(f->ch.st.writes, 2);
    /* Write recovery: PRE >= WR + tWL + tBL + tWR. */
    push(f, 0, 9, 0x1, 0, 4, 31);
    run(f, 200, 300);
    assert_int_equal(cmd_at(f, DRAM_PRE, 0, 0), 200);
    teardown(f);
    f = setup("GDDR5", "fcfs", 0, 0);
    push(f, 0, 1, 0x1, 1, 1, 0);
    push(f, 0, 2, 0x1, 0, 2, 0); /* conflict right after the write */
    run(f, 0, 200);
    assert_int_equal(cmd_at(f, DRAM_PRE, 0, 0), 8 + 4 + 2 + 9); /* write recovery (23) > tRAS (20) */
    teardown(f);
    /* FR-FCFS: the second write is ready before the read (tCCDL < write-to-read)
     * and goes first. */
    f = setup("GDDR5", "frfcfs", 0, 0);
    push(f, 0, 1, 0x1, 1, 1, 0);
    push(f, 0, 1, 0x1, 0, 2, 0);
    push(f, 0, 1, 0x1, 1, 3, 0);
    run(f, 0, 200);
    assert_int_equal(cmd_at(f, DRAM_WR, 0, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_WR, 0, 1), 12);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 12 + 4 + 2 + 6);
    teardown(f);
}

/* Two hits in bank 0 (group 0) and one in bank 1 (group 1), all queued at
 * once with both rows open.  FR-FCFS lets bank 1's hit use the tCCD slot
 * while bank 0 waits tCCDL; FCFS serves strictly in order. */
static void ccd_case(const char *sched, uint64_t expect[3])
{
    fixture *f = setup("GDDR5", sched, 0, 0);
    push(f, 0, 1, 0x1, 0, 1, 0);
    push(f, 1, 1, 0x1, 0, 2, 0);
    run(f, 0, 100);
    f->r.ncmd = 0;
    push(f, 0, 1, 0x1, 0, 10, 100);
    push(f, 0, 1, 0x1, 0, 11, 100);
    push(f, 1, 1, 0x1, 0, 12, 100);
    run(f, 100, 200);
    expect[0] = cmd_at(f, DRAM_RD, 0, 0);
    expect[1] = cmd_at(f, DRAM_RD, 0, 1);
    expect[2] = cmd_at(f, DRAM_RD, 1, 0);
    teardown(f);
}

static void test_ccd_first_ready(void **st)
{
    (void)st;
    uint64_t fr[3], fc[3];
    ccd_case("frfcfs", fr);
    assert_int_equal(fr[0], 100);
    assert_int_equal(fr[2], 102); /* tCCD, other bank group */
    assert_int_equal(fr[1], 104); /* tCCDL after the first */
    ccd_case("fcfs", fc);
    assert_int_equal(fc[0], 100);
    assert_int_equal(fc[1], 104);
    assert_int_equal(fc[2], 106);
}

/* Row 1 of bank 0 is open.  An older request to row 2 and a younger one to
 * row 1 arrive together: FR-FCFS serves the row hit first, FCFS does not. */
static void reorder_case(const char *sched, uint32_t order[2], uint64_t at[2])
{
    fixture *f = setup("GDDR5", sched, 0, 0);
    push(f, 0, 1, 0x1, 0, 1, 0);
    run(f, 0, 100);
    push(f, 0, 2, 0x1, 0, 20, 100); /* older, row miss */
    push(f, 0, 1, 0x1, 0, 21, 100); /* younger, row hit */
    run(f, 100, 300);
    assert_int_equal(f->r.ndone, 3);
    order[0] = f->r.done_tag[1], order[1] = f->r.done_tag[2];
    at[0] = f->r.done_at[1], at[1] = f->r.done_at[2];
    teardown(f);
}

static void test_frfcfs_vs_fcfs(void **st)
{
    (void)st;
    uint32_t o[2];
    uint64_t at[2];
    reorder_case("frfcfs", o, at);
    assert_int_equal(o[0], 21);
    assert_int_equal(o[1], 20);
    assert_int_equal(at[0], 100 + 17);                 /* hit: RD at 100 */
    assert_int_equal(at[1], 103 + 7 + 8 + 10 + 2 + LAT); /* PRE at RD + tRTP, ACT, RD */
    reorder_case("fcfs", o, at);
    assert_int_equal(o[0], 20);
    assert_int_equal(o[1], 21);
    assert_int_equal(at[0], 100 + 7 + 8 + 10 + 2 + LAT); /* PRE at 100 */
}

static void test_refresh(void **st)
{
    (void)st;
    fixture *f = setup("GDDR5", "frfcfs", 1000, 100);
    run(f, 0, 10500);
    assert_int_equal(f->ch.st.refreshes, 10); /* every tREFI, even when idle */
    teardown(f);
    /* An open bank is precharged, then REF; nothing opens for tRFC. */
    f = setup("GDDR5", "frfcfs", 1000, 100);
    push(f, 0, 1, 0x1, 0, 1, 900);
    run(f, 0, 1001);
    push(f, 3, 1, 0x1, 0, 2, 1001);
    run(f, 1001, 1300);
    assert_int_equal(cmd_at(f, DRAM_PRE, 0, 0), 1000);
    assert_int_equal(cmd_at(f, DRAM_REF, -1, 0), 1007); /* PRE + tRP */
    assert_int_equal(cmd_at(f, DRAM_ACT, 3, 0), 1107);  /* REF + tRFC */
    assert_int_equal(f->r.done_at[1], 1107 + 8 + 10 + 2 + LAT);
    assert_int_equal(f->ch.st.precharges, 1);
    teardown(f);
}

/* HBM: a row command and a column command may share a tick. */
static void test_dual_command_bus(void **st)
{
    (void)st;
    fixture *f = setup("HBM2", "frfcfs", 0, 0);
    push(f, 0, 1, 0x1, 0, 1, 0);
    run(f, 0, 8);
    push(f, 0, 1, 0x1, 0, 2, 8); /* hit, issues at 8 with the first's RD... */
    push(f, 1, 1, 0x1, 0, 3, 8); /* ...and the ACT of bank 1 in the same tick */
    run(f, 8, 100);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_ACT, 1, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 1), 12); /* tCCDL */
    teardown(f);
    f = setup("GDDR5", "frfcfs", 0, 0);
    push(f, 0, 1, 0x1, 0, 1, 0);
    run(f, 0, 8);
    push(f, 1, 1, 0x1, 0, 3, 8);
    run(f, 8, 100);
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8);
    assert_int_equal(cmd_at(f, DRAM_ACT, 1, 0), 9); /* one command bus */
    teardown(f);
}

/* A weighted (background) request of weight 4 stands for 4 requests: one
 * column command moves 4 bursts, and its ACT holds the activate window for
 * 4 x tRRD. */
static void test_weighted(void **st)
{
    (void)st;
    fixture *f = setup("GDDR5", "frfcfs", 0, 0);
    dram_push(&f->ch, 0, 0, 1, 0x1, 32, 0, 1, 0, 7, 4, 0); /* weight 4 */
    push(f, 1, 1, 0x1, 0, 8, 0);                            /* another bank */
    push(f, 0, 1, 0x1, 0, 9, 0);                            /* row hit behind it */
    run(f, 0, 200);
    assert_int_equal(cmd_at(f, DRAM_ACT, 0, 0), 0);
    assert_int_equal(cmd_at(f, DRAM_ACT, 1, 0), 4 * 5); /* 4 x tRRD */
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 0), 8);
    assert_int_equal(f->r.done_tag[0], 7);
    assert_int_equal(f->r.done_at[0], 8 + 3 * 2 + 10 + 2 + LAT); /* last of 4 bursts */
    assert_int_equal(cmd_at(f, DRAM_RD, 0, 1), 8 + 3 * 2 + 4);  /* tCCD_L after the last burst */
    assert_true(f->ch.st.busy == 4 * 2 + 2 * 2);
    assert_int_equal(f->ch.st.reads, 2); /* the background one is not real traffic */
    teardown(f);
}

/* Write drain: reads first until write_high writes are queued (or no read
 * is), then writes until write_low remain.  One bank, row 1 open; requests
 * to rows[i] (NULL: all to row 1); order[] gets 1 per write, 0 per read, in
 * the order their column commands issued. */
static void drain_case(uint32_t high, uint32_t low, const int *kinds, const uint32_t *rows, int n, int *order)
{
    fixture *f = calloc(1, sizeof *f);
    f->cfg = base_cfg("GDDR5", "frfcfs");
    f->cfg.dram.write_high = high;
    f->cfg.dram.write_low = low;
    ge_err e;
    assert_int_equal(dram_timing_build(&f->t, &f->cfg, &e), 0);
    assert_int_equal(dram_init(&f->ch, &f->t, &f->cfg, on_done, &f->r, &e), 0);
    f->ch.on_cmd = on_cmd;
    f->ch.cmd_ctx = &f->r;
    push(f, 0, 1, 0x1, 0, 99, 0); /* open row 1 */
    run(f, 0, 100);
    f->r.ncmd = 0;
    for (int i = 0; i < n; i++)
        push(f, 0, rows ? rows[i] : 1, 0x1, kinds[i], (uint32_t)i, 100);
    run(f, 100, 400);
    int k = 0;
    for (int i = 0; i < f->r.ncmd; i++)
        if (f->r.cmd[i] == DRAM_RD || f->r.cmd[i] == DRAM_WR)
            order[k++] = f->r.cmd[i] == DRAM_WR;
    assert_int_equal(k, n);
    teardown(f);
}

static void test_write_drain(void **st)
{
    (void)st;
    static const int mix[] = {1, 0, 1, 0};    /* W R W R, oldest first */
    int o[5];
    drain_case(0, 0, mix, NULL, 4, o); /* no drain: first ready (W, then W before the turnaround) */
    assert_true(o[0] == 1 && o[1] == 1 && o[2] == 0 && o[3] == 0);
    drain_case(3, 1, mix, NULL, 4, o); /* 2 writes < 3: reads first, then writes */
    assert_true(o[0] == 0 && o[1] == 0 && o[2] == 1 && o[3] == 1);
    /* 3 writes queued: drain.  At 1 write left the drain ends, but no read is
     * ready yet (write-to-read turnaround) and the bus is never left idle
     * for the policy, so the last write goes too. */
    static const int many[] = {0, 1, 1, 1, 0};
    drain_case(3, 1, many, NULL, 5, o);
    assert_true(o[0] == 1 && o[1] == 1 && o[2] == 1 && o[3] == 0 && o[4] == 0);
    drain_case(0, 0, many, NULL, 5, o); /* without drain the oldest read goes first */
    assert_int_equal(o[0], 0);
    /* A drain serves writes only: the bank's open row 1 has a ready read,
     * the two writes want row 2, and the bank is precharged for them; the
     * read waits for the drain to end.  Without drain the read hit goes
     * first. */
    static const int rww[] = {0, 1, 1};
    static const uint32_t rows[] = {1, 2, 2};
    drain_case(2, 0, rww, rows, 3, o);
    assert_true(o[0] == 1 && o[1] == 1 && o[2] == 0);
    drain_case(0, 0, rww, rows, 3, o);
    assert_true(o[0] == 0 && o[1] == 1 && o[2] == 1);
}

/* FR-FCFS by brute force over every queued request, as the policy is
 * defined (dram_sched_frfcfs.c): the oldest ready row hit of each kind, the
 * oldest ready row command of a bank without hits, and the write-drain
 * preference between the two kinds; during a drain only writes, and a row
 * command for any bank with writes but no write hit. */
static void frfcfs_reference(const dram_chan *ch, uint64_t now, int32_t *col, int *col_cmd, int32_t *row,
                             uint64_t *row_banks, uint64_t *wr_banks)
{
    /* the queued requests: every slot of the pool not on its free list */
    enum { MAXQ = 256 };
    assert_true(ch->cap <= MAXQ);
    int queued[MAXQ];
    for (uint32_t i = 0; i < ch->cap; i++)
        queued[i] = 1;
    for (int32_t i = ch->free_head; i >= 0; i = ch->req[i].next_free)
        queued[i] = 0;
    int32_t best[2] = {-1, -1};
    *row = -1;
    *row_banks = *wr_banks = 0;
    int dir = ch->write_high ? ch->draining : -1;
    for (uint32_t b = 0; b < ch->banks; b++) {
        const dram_bank *bk = &ch->bank[b];
        int hits = 0, write_hits = 0;
        int32_t oldest[2] = {-1, -1}; /* the bank's oldest read and write */
        uint32_t n[2] = {0, 0};
        for (uint32_t i = 0; i < ch->cap; i++) {
            const dram_req *r = &ch->req[i];
            if (!queued[i] || r->bank != b)
                continue;
            n[r->write]++;
            if (oldest[r->write] < 0 || r->seq < ch->req[oldest[r->write]].seq)
                oldest[r->write] = (int32_t)i;
            if ((int64_t)r->row != bk->open_row)
                continue;
            uint64_t t = dram_ready(ch, b, r->write ? DRAM_WR : DRAM_RD);
            hits = 1;
            write_hits |= r->write;
            if ((t > r->arrive ? t : r->arrive) <= now && (best[r->write] < 0 || r->seq < ch->req[best[r->write]].seq))
                best[r->write] = (int32_t)i;
        }
        /* the bank's per-kind lists hold exactly its queued requests of that kind, oldest first */
        for (int k = 0; k < 2; k++) {
            assert_int_equal(bk->khead[k], oldest[k]);
            uint32_t m = 0;
            for (int32_t i = bk->khead[k], prev = -1; i >= 0; prev = i, i = ch->req[i].knext, m++) {
                assert_true(queued[i] && ch->req[i].bank == b && ch->req[i].write == k);
                assert_int_equal(ch->req[i].kprev, prev);
                assert_true(prev < 0 || ch->req[prev].seq < ch->req[i].seq);
                if (ch->req[i].knext < 0)
                    assert_int_equal(bk->ktail[k], i);
            }
            assert_int_equal(m, n[k]);
        }
        if (!hits && (oldest[0] >= 0 || oldest[1] >= 0))
            *row_banks |= 1ull << b; /* (the test's configs have at most 64 banks) */
        if (oldest[1] >= 0 && !write_hits)
            *wr_banks |= 1ull << b;
        int32_t ri = dir >= 0 ? oldest[dir] : -1;
        if (dir != 1 && ri < 0) /* not draining, or between drains without reads: the oldest of either kind */
            ri = oldest[0] < 0 || (oldest[1] >= 0 && ch->req[oldest[1]].seq < ch->req[oldest[0]].seq) ? oldest[1]
                                                                                                    : oldest[0];
        if (ri < 0 || (dir == 1 ? write_hits : hits))
            continue;
        const dram_req *r = &ch->req[ri];
        uint64_t t = dram_ready(ch, b, bk->open_row >= 0 ? DRAM_PRE : DRAM_ACT);
        if ((t > r->arrive ? t : r->arrive) <= now && (*row < 0 || r->seq < ch->req[*row].seq))
            *row = ri;
    }
    if (dir == 1)
        best[0] = -1;
    int k = best[1] >= 0 && (best[0] < 0 || ch->req[best[1]].seq < ch->req[best[0]].seq);
    if (dir >= 0 && (best[dir] >= 0 || best[!dir] < 0))
        k = dir;
    *col = best[k];
    *col_cmd = k ? DRAM_WR : DRAM_RD;
}

/* The write-drain rule (dram.h) applied once more, to the channel's counts
 * now: it must agree with the state the channel keeps, i.e. the channel
 * must apply it at every change of its queue (and nowhere else). */
static void drain_rule(const dram_chan *ch, int on, int *draining, int *drains)
{
    uint32_t nw = ch->nwrites, nr = ch->nq - ch->nwrites;
    if (on && !*draining && (nw >= ch->write_high || (!nr && nw)))
        *draining = 1, ++*drains;
    else if (*draining && ((nw <= ch->write_low && nr) || !nw))
        *draining = 0;
    assert_int_equal(ch->draining, *draining);
}

static void count_done(void *ctx, const dram_req *q, uint64_t ready)
{
    (void)q, (void)ready;
    ++*(uint64_t *)ctx;
}

/* The scheduler's incremental structures (per-kind hit lists in age order,
 * each bank's oldest read and write, the banks a drain visits, hints)
 * against frfcfs_reference, and the wake it reports when nothing is
 * ready, at every tick of a random mix of reads and writes over few rows,
 * with write drain off and on (and the drain state against drain_rule). */
static void test_frfcfs_random(void **st)
{
    (void)st;
    for (int drain = 0; drain < 2; drain++) {
        gpu_config cfg = base_cfg("GDDR6", "frfcfs");
        cfg.dram.write_high = drain ? 6 : 0;
        cfg.dram.write_low = drain ? 2 : 0;
        cfg.dram.tREFI = 3000;
        cfg.dram.tRFC = 60;
        dram_timing t;
        dram_chan ch;
        ge_err e;
        uint64_t done = 0, reads = 0, seed = 12345 + (uint64_t)drain;
        assert_int_equal(dram_timing_build(&t, &cfg, &e), 0);
        assert_int_equal(dram_init(&ch, &t, &cfg, count_done, &done, &e), 0);
        int checked = 0, drains = 0, draining = 0;
        for (uint64_t now = 0; now < 20000; now++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t x = (uint32_t)(seed >> 33);
            if (x % 3 == 0 && dram_can_accept(&ch, 1)) {
                int write = (x >> 2) % 3 == 0;
                reads += !write;
                dram_push(&ch, 0, (x >> 4) % cfg.dram.banks, (x >> 8) % 3, 0x3, 32, write, 0, 0, 0, 1,
                          now + (x >> 12) % 4);
            }
            drain_rule(&ch, drain, &draining, &drains); /* after the push */
            if (now >= ch.wake && !dram_refresh_due(&ch, now) && ch.nq) {
                int32_t col, row;
                int col_cmd;
                uint64_t row_banks, wr_banks;
                dram_pick p;
                frfcfs_reference(&ch, now, &col, &col_cmd, &row, &row_banks, &wr_banks);
                assert_true(ch.banks <= 64);
                assert_int_equal(ch.row_banks[0], row_banks);
                assert_int_equal(ch.wr_banks[0], wr_banks);
                ch.sched->pick(&ch, now, &p);
                assert_int_equal(p.col, col);
                if (col >= 0)
                    assert_int_equal(p.col_cmd, col_cmd);
                assert_int_equal(p.row, row);
                if (col < 0 && row < 0) /* nothing ready before the wake it reports */
                    for (uint64_t u = now + 1; u < p.wake && u < now + 64; u++) {
                        frfcfs_reference(&ch, u, &col, &col_cmd, &row, &row_banks, &wr_banks);
                        assert_true(col < 0 && row < 0);
                    }
                checked++;
            }
            dram_tick(&ch, now);
            drain_rule(&ch, drain, &draining, &drains); /* after a command left the queue */
        }
        assert_true(checked > 5000);
        assert_true(drain ? drains > 50 : drains == 0);
        assert_true(done > 1000 && done <= reads);
        dram_free(&ch);
    }
}

static void test_bad_type(void **st)
{
    (void)st;
    gpu_config c = base_cfg("DDR9", "frfcfs");
    dram_timing t;
    ge_err e;
    assert_int_equal(dram_timing_build(&t, &c, &e), -1);
    assert_non_null(strstr(e.msg, "dram.type"));
    assert_null(dram_sched_find("random"));
    assert_non_null(dram_sched_find("fcfs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_hit_conflict), cmocka_unit_test(test_tras_trc_bursts),
        cmocka_unit_test(test_trrd_tfaw),           cmocka_unit_test(test_turnarounds),
        cmocka_unit_test(test_ccd_first_ready),     cmocka_unit_test(test_frfcfs_vs_fcfs),
        cmocka_unit_test(test_refresh),             cmocka_unit_test(test_dual_command_bus),
        cmocka_unit_test(test_weighted),            cmocka_unit_test(test_write_drain),
        cmocka_unit_test(test_frfcfs_random),
        cmocka_unit_test(test_bad_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
