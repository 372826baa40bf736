/*
 * pwr_suite_run.c - run a suite workload through the detailed simulator and
 * price it with the power model (shared by test_power_bands and
 * bench_power).
 *
 * Kernels are simulated in full mode (sim_run_source); each kernel's
 * kresult goes through pwr_kernel() and the kernels are summed with
 * pwr_accumulate(), so a workload's power is its time-weighted average.
 * Optionally every window of `interval` cycles is priced too and the
 * windows' energies summed, which must reproduce the kernels' energy.
 */
#include <string.h>

#include "pwr_suite_run.h"
#include "sim.h"
#include "suite.h"
#include "suite_source.h"

typedef struct {
    const pwr_model *m;
    double energy_j, cycles;
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
    c->energy_j += r.energy_j;
    c->cycles += (double)cycles;
    return 0;
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
    if (rc)
        return -1;
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
    free(res);
    if (!rc && n == 0)
        rc = ge_errf(e, "%s: no kernel was simulated", workload);
    return rc;
}
