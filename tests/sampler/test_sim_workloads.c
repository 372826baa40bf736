/*
 * test_sim_workloads.c - real streams simulate to completion, plausibly.
 *
 * Both Accel-Sim traces (tests/data/traces, copies of ../shared's) and
 * every suite workload at its tiny size run on the shipped V100 and
 * GTX 480 configs with the detailed memory.  Each run must finish; issue
 * every warp instruction of the stream exactly once (counted in a separate
 * pass over the same, deterministic stream); give 0 < IPC <= the GPU's
 * issue limit (SMs x schedulers x issue width); and charge every
 * scheduler-cycle to exactly one CPI category.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "accelsim.h"
#include "config_registry.h"
#include "synth.h"
#include "suite.h"
#include "suite_source.h"

typedef int (*open_fn)(const void *what, ws_source **src, ge_err *e);

static double count_insts(open_fn open, const void *what)
{
    ws_source *src;
    ge_err e;
    if (open(what, &src, &e))
        fail_msg("%s", e.msg);
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    double n = 0;
    int rc;
    while ((rc = ws_next_event(src, &ev, &e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        while ((rc = ws_next_cta(src, &c, &e)) > 0)
            n += (double)c.ninst;
        if (rc < 0)
            fail_msg("%s", e.msg);
    }
    if (rc < 0)
        fail_msg("%s", e.msg);
    ws_cta_free(&c);
    ws_close(src);
    return n;
}

static void check_run(const char *cfgname, const char *label, open_fn open, const void *what, double *insts_out)
{
    gpu_config cfg;
    ge_err e;
    if (gcfg_load_named(cfgname, &cfg, &e))
        fail_msg("%s", e.msg);
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = "detailed";
    sim_gpu *g = sim_create(&cfg, &o, &e);
    if (!g)
        fail_msg("%s", e.msg);
    ws_source *src;
    if (open(what, &src, &e))
        fail_msg("%s", e.msg);
    kresult *res;
    size_t n;
    if (sim_run_source(g, src, &res, &n, &e))
        fail_msg("%s on %s: %s", label, cfgname, e.msg);
    ws_close(src);
    sim_destroy(g);
    double insts = 0, cap = (double)cfg.gpu.sm_count * cfg.sm.schedulers * cfg.sm.issue_width;
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const kresult *r = &res[i];
        if (!(r->cycles > 0 && kr_ipc(r) > 0 && kr_ipc(r) <= cap))
            fail_msg("%s on %s, kernel %s: %.0f insts in %.0f cycles", label, cfgname, r->name, r->warp_insts,
                     r->cycles);
        if (sim_stall_total(r) != r->cycles * cfg.sm.schedulers * cfg.gpu.sm_count)
            fail_msg("%s on %s: CPI stack does not add up", label, cfgname);
        assert_true(r->stall[KR_ISSUED] <= r->warp_insts && r->stall[KR_ISSUED] > 0);
        assert_true(r->occupancy > 0 && r->occupancy <= 1);
        insts += r->warp_insts;
    }
    free(res);
    double want = count_insts(open, what);
    if (insts != want)
        fail_msg("%s on %s: simulated %.0f warp instructions, the stream has %.0f", label, cfgname, insts, want);
    if (insts_out)
        *insts_out = insts;
}

static int open_trace(const void *what, ws_source **src, ge_err *e) { return accelsim_open(what, src, e); }

static void test_traces(void **st)
{
    (void)st;
    const char *cfgs[] = {"v100", "gtx480"};
    for (int c = 0; c < 2; c++) {
        double n;
        check_run(cfgs[c], "vectoradd_sm80", open_trace, "tests/data/traces/vectoradd_sm80_xz", &n);
        assert_true(n == 26601);
        check_run(cfgs[c], "vectoradd_sm61", open_trace, "tests/data/traces/vectoradd_sm61", &n);
        assert_true(n == 344);
    }
}

static int open_suite(const void *what, ws_source **src, ge_err *e)
{
    const wl_desc *w = what;
    wl_params p = {w->tiny_size, 1};
    return suite_source_open(w, &p, src, e);
}

static void test_suite(void **st)
{
    (void)st;
    const char *cfgs[] = {"v100", "gtx480"};
    for (int c = 0; c < 2; c++)
        for (const wl_desc *const *w = suite_all(); *w; w++)
            check_run(cfgs[c], (*w)->name, open_suite, *w, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traces),
        cmocka_unit_test(test_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
