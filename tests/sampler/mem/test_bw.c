/*
 * test_bw.c - bandwidth: a DRAM channel's sustained rate against its
 * analytic limits (data bus, tCCD_L, tRC, refresh), whole-hierarchy
 * streaming on every shipped config, "more DRAM bandwidth never slows a
 * memory-bound kernel", and sampled mode (a few SMs + background traffic)
 * against the full GPU under the same streaming load.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config_registry.h"
#include "dram.h"
#include "memdrv.h"

#ifndef LINES_SAMPLED
#define LINES_SAMPLED 96
#endif

/* ---- one channel, kept busy ---- */

typedef struct chan_fx {
    gpu_config cfg;
    dram_timing t;
    dram_chan ch;
    uint64_t reads_done;
} chan_fx;

static void count_done(void *ctx, const dram_req *r, uint64_t ready)
{
    (void)r, (void)ready;
    ((chan_fx *)ctx)->reads_done++;
}

static void chan_setup(chan_fx *f, uint32_t trefi, uint32_t trfc)
{
    memset(f, 0, sizeof *f);
    gpu_config *c = &f->cfg;
    strcpy(c->dram.type, "GDDR5");
    strcpy(c->dram.scheduler, "frfcfs");
    c->dram.bus_bits = 64, c->dram.data_rate = 4, c->dram.burst_length = 8; /* tBL 2, 64 B */
    c->dram.banks = 16, c->dram.bank_groups = 4, c->dram.queue_entries = 32, c->dram.row_bytes = 2048;
    c->dram.tCL = 10, c->dram.tWL = 4, c->dram.tRCD = 8, c->dram.tRP = 7, c->dram.tRAS = 20, c->dram.tRC = 27;
    c->dram.tCCD = 2, c->dram.tCCDL = 4, c->dram.tRRD = 5, c->dram.tWTR = 6, c->dram.tWR = 9, c->dram.tRTP = 3;
    c->dram.tREFI = trefi, c->dram.tRFC = trfc;
    ge_err e;
    assert_int_equal(dram_timing_build(&f->t, c, &e), 0);
    assert_int_equal(dram_init(&f->ch, &f->t, c, count_done, f, &e), 0);
}

/* Keep the queue full with requests from `next` for `ticks`; returns bursts
 * per tick after a warm-up of 2000 ticks. */
typedef void (*req_fn)(uint64_t i, uint32_t *bank, uint32_t *row);

static double chan_rate(chan_fx *f, req_fn next, uint64_t ticks)
{
    uint64_t i = 0, warm = 2000, r0 = 0;
    for (uint64_t t = 0; t < warm + ticks; t++) {
        if (t == warm)
            r0 = f->reads_done;
        while (dram_can_accept(&f->ch, 1)) {
            uint32_t bank, row;
            next(i++, &bank, &row);
            dram_push(&f->ch, 0, bank, row, 0x1, 64, 0, 0, 0, 0, 1, t);
        }
        dram_tick(&f->ch, t);
    }
    return (double)(f->reads_done - r0) / (double)ticks;
}

/* Sequential reads, each bank group streaming through the rows of one bank
 * (32 bursts per row); the banks change rows a quarter row apart, so three
 * groups always have hits while the fourth reopens. */
static void seq_groups(uint64_t i, uint32_t *bank, uint32_t *row)
{
    uint32_t b = (uint32_t)(i % 4);
    *bank = b;
    *row = (uint32_t)((i / 4 + b * 8) / 32);
}
/* The same, but all in bank group 0 (banks 0, 4, 8, 12). */
static void seq_one_group(uint64_t i, uint32_t *bank, uint32_t *row)
{
    uint32_t b = (uint32_t)(i % 4);
    *bank = b * 4;
    *row = (uint32_t)((i / 4 + b * 8) / 32);
}
/* Every request a new row of bank 0: limited by tRC. */
static void row_misses(uint64_t i, uint32_t *bank, uint32_t *row)
{
    *bank = 0;
    *row = (uint32_t)i;
}

static void test_channel_analytic(void **st)
{
    (void)st;
    chan_fx f;
    const double tbl = 2, T = 200000;
    /* Data-bus bound: one burst per max(tBL, tCCD_S) = 2 ticks, minus one
     * PRE + ACT turnover of a bank group every 32 bursts, hidden by the other
     * groups (first-ready). */
    chan_setup(&f, 0, 0);
    double r = chan_rate(&f, seq_groups, (uint64_t)T);
    printf("bank groups interleaved: %.4f bursts/tick (bus limit %.4f)\n", r, 1 / tbl);
    assert_true(r > 0.98 / tbl && r <= 1 / tbl + 1 / T);
    dram_free(&f.ch);
    /* One bank group: column commands tCCD_L = 4 apart. */
    chan_setup(&f, 0, 0);
    r = chan_rate(&f, seq_one_group, (uint64_t)T);
    printf("one bank group: %.4f bursts/tick (tCCD_L limit %.4f)\n", r, 1 / 4.0);
    assert_true(r > 0.98 / 4 && r <= 1 / 4.0 + 1 / T);
    dram_free(&f.ch);
    /* Row miss on every access to one bank: one burst per tRC. */
    chan_setup(&f, 0, 0);
    r = chan_rate(&f, row_misses, (uint64_t)T);
    printf("row misses, one bank: %.4f bursts/tick (tRC limit %.4f)\n", r, 1 / 27.0);
    assert_true(r > 0.99 / 27 && r <= 1 / 27.0 + 1 / T);
    dram_free(&f.ch);
    /* Refresh every 1000 ticks for 100: the bus loses tRFC plus the time to
     * close the rows (<= tRAS), reopen them (tRCD, tRRD) and refill the
     * column pipeline. */
    chan_setup(&f, 1000, 100);
    r = chan_rate(&f, seq_groups, (uint64_t)T);
    double hi = (1 - 100.0 / 1000) / tbl, lo = (1 - (100.0 + 20 + 7 + 8 + 3 * 5 + 10) / 1000) / tbl;
    printf("with refresh: %.4f bursts/tick (bounds %.4f .. %.4f)\n", r, lo, hi);
    assert_true(r >= lo && r <= hi);
    assert_true(f.ch.st.refreshes >= (2000 + T) / 1000 - 1);
    dram_free(&f.ch);
}

/* ---- whole hierarchy ---- */

typedef struct stream {
    uint32_t nsm, warps;
    uint64_t lines;  /* per warp */
    uint32_t full;   /* all sectors of a line, l1d units */
    uint64_t base;
} stream;

static int gen_stream(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op)
{
    const stream *s = ctx;
    if (i >= s->lines)
        return 0;
    memset(op, 0, sizeof *op);
    op->kind = SIM_MEM_LOAD;
    op->line = s->base + (i * s->nsm + sm) * s->warps + warp;
    op->sectors = s->full;
    return 1;
}

static void load_cfg(const char *name, gpu_config *c)
{
    ge_err e;
    if (gcfg_load_named(name, c, &e))
        fail_msg("%s", e.msg);
}

typedef struct run_out {
    drv_result r;
    act_counters a;
    sim_mem_stats s;
    double gbs;      /* DRAM bytes moved per second of GPU time */
} run_out;

static void run_stream(const gpu_config *g, const sim_mem_options *o, uint32_t nsm, uint32_t warps, uint32_t depth,
                       uint64_t lines, run_out *out)
{
    ge_err e;
    sim_mem *m = sim_mem_create("detailed", g, o, &e);
    if (!m)
        fail_msg("%s", e.msg);
    uint32_t ns = g->l1d.size_bytes ? g->l1d.line_bytes / g->l1d.sector_bytes : 1;
    stream s = {nsm, warps, lines, ns >= 32 ? UINT32_MAX : (1u << ns) - 1, 0};
    drv_cfg c = {nsm, warps, depth, 1, gen_stream, &s, 0, 0, 0};
    if (drv_run(m, &c, &out->r, &e))
        fail_msg("%s", e.msg);
    act_clear(&out->a);
    memset(&out->s, 0, sizeof out->s);
    m->ops->collect(m, &out->a, &out->s);
    double bytes = out->a.c[ACT_DRAM_READS] * g->dram.bus_bits / 8 * g->dram.burst_length;
    out->gbs = bytes / (out->r.cycles / (g->gpu.core_clock_mhz * 1e6)) / 1e9;
    m->ops->destroy(m);
}

/* Streaming reads from every SM reach the DRAM bound: the peak less refresh,
 * and never more. */
static void test_stream_configs(void **st)
{
    (void)st;
    for (size_t ci = 0; ci < gcfg_embedded_count; ci++) {
        gpu_config g;
        load_cfg(gcfg_embedded_configs[ci].name, &g);
        run_out o;
        run_stream(&g, NULL, g.gpu.sm_count, 32, 4, 24, &o);
        double peak = gcfg_dram_bandwidth_gbs(&g);
        double refresh = g.dram.tREFI ? (double)g.dram.tRFC / g.dram.tREFI : 0;
        double bound = peak * (1 - refresh);
        printf("%-8s stream %7.1f GB/s = %5.1f%% of peak %.0f (bound with refresh %.0f; ref %g), row hits %.1f%%, "
               "%.0f cycles\n",
               gcfg_embedded_configs[ci].name, o.gbs, 100 * o.gbs / peak, peak, bound, g.ref.dram_bandwidth_gbs,
               100 * o.s.dram_row_hits / o.s.dram_row_accesses, (double)o.r.cycles);
        assert_true(o.gbs <= peak * 1.0001);
        assert_true(o.gbs >= 0.80 * bound);
        assert_true(o.s.dram_busy_cycles <= o.s.dram_cycles);
    }
}

/* More DRAM bandwidth (clock) never makes a memory-bound kernel slower. */
static void test_more_bandwidth_never_slower(void **st)
{
    (void)st;
    static const double mhz[] = {500, 650, 800, 877, 1000, 1200};
    double prev = 1e300;
    for (size_t i = 0; i < sizeof mhz / sizeof *mhz; i++) {
        gpu_config g;
        load_cfg("v100", &g);
        g.gpu.dram_clock_mhz = mhz[i];
        run_out o;
        run_stream(&g, NULL, 40, 32, 4, 16, &o);
        printf("dram %6.0f MHz: %8.0f cycles, %6.1f GB/s\n", mhz[i], (double)o.r.cycles, o.gbs);
        assert_true((double)o.r.cycles <= prev);
        prev = (double)o.r.cycles;
    }
    /* and more channels (same per-channel bandwidth) */
    static const uint32_t chans[] = {8, 16, 32, 64};
    prev = 1e300;
    for (size_t i = 0; i < 4; i++) {
        gpu_config g;
        load_cfg("v100", &g);
        g.dram.channels = chans[i];
        run_out o;
        run_stream(&g, NULL, 40, 32, 4, 16, &o);
        printf("%2u channels: %8.0f cycles\n", chans[i], (double)o.r.cycles);
        assert_true((double)o.r.cycles <= prev);
        prev = (double)o.r.cycles;
    }
}

/* Sampled mode: a few simulated SMs with background traffic see the latency
 * and per-SM bandwidth of the full GPU under the same streaming load;
 * without background they would not.  background 1 = weighted mirrors (the
 * default: cost proportional to the simulated SMs), 2 = one mirror per SM. */
static void sampled_case(const gpu_config *g, const run_out *full, uint32_t a, int background, double tol)
{
    uint32_t n = g->gpu.sm_count;
    run_out samp;
    sim_mem_options o = {.active_sms = a, .background = background};
    run_stream(g, &o, a, 32, 4, LINES_SAMPLED, &samp);
    double lf = full->r.lat_sum / full->r.loads, ls = samp.r.lat_sum / samp.r.loads;
    double bf = full->r.loads / full->r.cycles / n, bs = samp.r.loads / samp.r.cycles / a;
    printf("active %2u background %d: per-SM lines/cycle %.4f (full %.4f, %+.1f%%), load latency %.1f (full %.1f, "
           "%+.1f%%), row hits %.3f (full %.3f)\n",
           a, background, bs, bf, 100 * (bs / bf - 1), ls, lf, 100 * (ls / lf - 1),
           samp.s.dram_row_hits / samp.s.dram_row_accesses, full->s.dram_row_hits / full->s.dram_row_accesses);
    assert_true(bs > (1 - tol) * bf && bs < (1 + tol) * bf);
    assert_true(ls > (1 - tol) * lf && ls < (1 + tol) * lf);
    /* activity counts only the simulated SMs' traffic */
    assert_true(samp.a.c[ACT_DRAM_READS] < 1.5 * a / n * full->a.c[ACT_DRAM_READS]);
}

static void test_sampled_vs_full(void **st)
{
    (void)st;
    gpu_config g;
    load_cfg("v100", &g);
    uint32_t n = g.gpu.sm_count, a = 8;
    run_out full, alone;
    run_stream(&g, NULL, n, 32, 4, LINES_SAMPLED, &full);
    sampled_case(&g, &full, a, 1, 0.05);
    sampled_case(&g, &full, a, 2, 0.05);
    sampled_case(&g, &full, 1, 1, 0.05);
    sampled_case(&g, &full, 20, 1, 0.05);
    /* the test has teeth: without the background the 8 SMs run much faster */
    sim_mem_options o2 = {.active_sms = a, .background = 0};
    run_stream(&g, &o2, a, 32, 4, LINES_SAMPLED, &alone);
    double ba = alone.r.loads / alone.r.cycles / a, bf = full.r.loads / full.r.cycles / n;
    double la = alone.r.lat_sum / alone.r.loads, lf = full.r.lat_sum / full.r.loads;
    printf("no background: per-SM lines/cycle %.4f, latency %.1f\n", ba, la);
    assert_true(ba > 1.5 * bf);
    assert_true(la < 0.6 * lf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_channel_analytic),
        cmocka_unit_test(test_stream_configs),
        cmocka_unit_test(test_more_bandwidth_never_slower),
        cmocka_unit_test(test_sampled_vs_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
