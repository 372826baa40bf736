/*
 * pwr_suite_run.c - run a suite workload through the detailed simulator and
 * price it with the power model (shared by test_power_bands and
 * bench_power).
 *
 * Kernels are simulated in full mode (sim_run_source); each kernel's
 * kresult goes through pwr_kernel() and the kernels are summed with
 * pwr_accumulate(), so a workload's power is its time-weighted average.
 * Optionally every window of `interval` cycles is priced too: the
 * windows' energies are summed (which must reproduce the kernels' energy),
 * and the best PSR_SUSTAIN_CYCLES-long stretch of windows gives the
 * sustained power, without the launch ramp and the drain of a short kernel.
 */
#include <string.h>

#include "pwr_suite_run.h"
#include "sim.h"
#include "suite.h"
#include "suite_source.h"

typedef struct {
    double at, cycles, energy_j; /* start (cycles since the first kernel), length, energy */
} window;

typedef struct {
    const pwr_model *m;
    double energy_j, cycles;
    window *w;
    size_t n, cap;
    ge_err *e;
} win_ctx;

static int on_window(void *ctx, const ws_kernel *k, uint64_t start, uint64_t cycles, const act_counters *w)
{
    (void)k;
    (void)start;
    win_ctx *c = ctx;
    pwr_result r;
    if (pwr_eval(c->m, w, (double)cycles, PWR_NOMINAL, &r, c->e))
        return -1;
    if (ge_reserve((void **)&c->w, &c->cap, c->n + 1, sizeof *c->w, c->e))
        return -1;
    c->w[c->n++] = (window){c->cycles, (double)cycles, r.energy_j};
    c->energy_j += r.energy_j;
    c->cycles += (double)cycles;
    return 0;
}

/* Sustained power: the highest mean power over `span` consecutive windows.
 * A short kernel spends much of its time ramping up (cold I-cache, CTA
 * launch) and draining; the best stretch of span windows is what the same
 * kernel would draw in steady state if it ran long, which is the figure to
 * set against a TDP. */
static double sustained_w(const win_ctx *c, size_t span, double f_hz)
{
    double best = 0;
    if (c->n < span)
        span = c->n;
    for (size_t i = 0; span && i + span <= c->n; i++) {
        double e = 0, t = 0;
        for (size_t k = i; k < i + span; k++) {
            e += c->w[k].energy_j;
            t += c->w[k].cycles / f_hz;
        }
        if (t > 0 && e / t > best)
            best = e / t;
    }
    return best;
}

int psr_run(const gpu_config *cfg, const pwr_model *m, const char *workload, uint32_t size,
            uint64_t interval, psr_result *out, ge_err *e)
{
    memset(out, 0, sizeof *out);
    const wl_desc *w = suite_find(workload);
    if (!w)
        return ge_errf(e, "no suite workload '%s'", workload);
    win_ctx wc = {.m = m, .e = e};
    sim_options o;
    memset(&o, 0, sizeof o);
    if (interval) {
        o.interval_cycles = interval;
        o.on_interval = on_window;
        o.ctx = &wc;
    }
    sim_gpu *g = sim_create(cfg, &o, e);
    if (!g)
        return -1;
    wl_params p = {.size = size, .seed = 1};
    ws_source *src = NULL;
    if (suite_source_open(w, &p, &src, e)) {
        sim_destroy(g);
        return -1;
    }
    kresult *res = NULL;
    size_t n = 0;
    int rc = sim_run_source(g, src, &res, &n, e);
    ws_close(src);
    sim_destroy(g);
    if (rc) {
        free(wc.w);
        return -1;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        pwr_result r;
        if (pwr_kernel(m, &res[i], &r, e)) {
            rc = -1;
            break;
        }
        pwr_accumulate(&out->power, &r);
        act_add(&out->act, &res[i].act);
        out->cycles += res[i].cycles;
        out->thread_insts += res[i].thread_insts;
    }
    out->kernels = n;
    out->window_energy_j = wc.energy_j;
    out->window_cycles = wc.cycles;
    if (interval)
        out->sustained_w = sustained_w(&wc, (PSR_SUSTAIN_CYCLES + interval - 1) / interval,
                                       cfg->gpu.core_clock_mhz * 1e6);
    free(wc.w);
    free(res);
    if (!rc && n == 0)
        rc = ge_errf(e, "%s: no kernel was simulated", workload);
    return rc;
}
