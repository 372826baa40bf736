/*
 * test_suite_source.c - a workload as a warp stream (suite_source_open):
 * events arrive in the driver's order (copies, kernel, its CTAs, copies),
 * CTAs are handed over whole, skipped CTAs are discarded, the stream is
 * deterministic, closing early at any point cancels the driver without a
 * leak or a deadlock (run under ASan in the sanitizer build), and a
 * verification failure or an emulator error in the driver becomes the
 * consumer's error.  A real suite workload streams the same instruction
 * counts as a direct run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpurt.h"
#include "suite.h"
#include "suite_source.h"

static const char fake_ptx[] =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry twice(.param .u64 p, .param .u32 n)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u32 %r1, [n];\n mov.u32 %r2, %tid.x;\n mov.u32 %r3, %ctaid.x;\n"
    " mov.u32 %r4, %ntid.x;\n mad.lo.s32 %r2, %r3, %r4, %r2;\n setp.ge.u32 %p1, %r2, %r1;\n @%p1 bra DONE;\n"
    " mul.wide.u32 %rd2, %r2, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r5, [%rd3];\n"
    " shl.b32 %r5, %r5, 1;\n st.global.u32 [%rd3], %r5;\n"
    "DONE:\n ret;\n}\n";

/* fake driver modes (wl_params.seed selects them) */
enum { FAKE_OK = 1, FAKE_VERIFY_FAIL, FAKE_OOB };

static int fake_run(gpurt *d, const wl_params *p, ge_err *e)
{
    uint32_t n = p->size ? p->size : 1000;
    uint32_t *h = malloc(n * sizeof *h);
    if (!h)
        return ge_errf(e, "fake: out of memory");
    for (uint32_t i = 0; i < n; i++)
        h[i] = i;
    gpurt_ptr dp = gpurt_malloc(d, n * 4);
    gpurt_memcpy_h2d(d, dp, h, n * 4);
    uint32_t launch_n = p->seed == FAKE_OOB ? n + 64 : n;
    void *args[] = {&dp, &launch_n};
    gpurt_launch(d, "twice", gpurt_dim((launch_n + 127) / 128, 1, 1), gpurt_dim(128, 1, 1), 0, args);
    gpurt_memcpy_d2h(d, h, dp, n * 4);
    int rc = 0;
    if (gpurt_error(d)) {
        rc = ge_errf(e, "fake: %s", gpurt_error(d));
    } else {
        for (uint32_t i = 0; i < n && !rc; i++)
            if (h[i] != 2 * i + (p->seed == FAKE_VERIFY_FAIL && i == 7))
                rc = ge_errf(e, "fake: verification failed at %u", i);
    }
    free(h);
    return rc;
}

static const wl_desc fake = {"fake", "doubles a vector", "micro", fake_ptx, "fake.ptx", "twice 8 0\n", 100, 1000,
                             "elements", fake_run};

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

/* Consume a whole stream; returns a digest of everything and the counts. */
static int drain(ws_source *s, uint64_t *digest, int *nkernels, int *ncopies, uint64_t *nctas, ge_err *e)
{
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    uint64_t h = 1469598103934665603ull;
    int r;
    *nkernels = *ncopies = 0;
    *nctas = 0;
    while ((r = ws_next_event(s, &ev, e)) == 1) {
        h = mix(h, ev.kind);
        if (ev.kind != WS_EV_KERNEL) {
            (*ncopies)++;
            h = mix(mix(h, ev.addr), ev.bytes);
            continue;
        }
        (*nkernels)++;
        h = mix(h, ev.kernel.nregs);
        while ((r = ws_next_cta(s, &c, e)) == 1) {
            (*nctas)++;
            h = mix(h, c.index);
            for (size_t i = 0; i < c.ninst; i++)
                h = mix(mix(mix(h, c.inst[i].pc), c.inst[i].mask), c.inst[i].op);
            for (size_t i = 0; i < c.naddr; i++)
                h = mix(h, c.addr[i]);
        }
        if (r < 0)
            break;
    }
    ws_cta_free(&c);
    *digest = h;
    return r;
}

static void test_order_and_determinism(void **state)
{
    (void)state;
    uint64_t dig[2];
    for (int k = 0; k < 2; k++) {
        ws_source *s;
        ge_err e = {{0}};
        wl_params p = {1000, FAKE_OK};
        assert_int_equal(suite_source_open(&fake, &p, &s, &e), 0);
        /* first event: the upload; then the kernel with the ptxas figures */
        ws_event ev;
        assert_int_equal(ws_next_event(s, &ev, &e), 1);
        assert_int_equal(ev.kind, WS_EV_MEMCPY_H2D);
        assert_int_equal(ev.bytes, 4000);
        ws_cta c;
        ws_cta_init(&c);
        assert_int_equal(ws_next_cta(s, &c, &e), 0); /* no CTAs before a kernel */
        assert_int_equal(ws_next_event(s, &ev, &e), 1);
        assert_int_equal(ev.kind, WS_EV_KERNEL);
        assert_string_equal(ev.kernel.name, "twice");
        assert_int_equal(ev.kernel.nregs, 8);
        assert_int_equal(ev.kernel.grid[0], 8);
        for (uint32_t i = 0; i < 8; i++) {
            assert_int_equal(ws_next_cta(s, &c, &e), 1);
            assert_int_equal(c.index, i);
            assert_int_equal(c.nwarps, 4);
        }
        assert_int_equal(ws_next_cta(s, &c, &e), 0);
        assert_int_equal(ws_next_event(s, &ev, &e), 1);
        assert_int_equal(ev.kind, WS_EV_MEMCPY_D2H);
        assert_int_equal(ws_next_event(s, &ev, &e), 0);
        assert_int_equal(ws_next_event(s, &ev, &e), 0); /* the end stays the end */
        ws_cta_free(&c);
        ws_close(s);
        /* and a digest of the whole stream */
        assert_int_equal(suite_source_open(&fake, &p, &s, &e), 0);
        int nk, nc;
        uint64_t nctas;
        assert_int_equal(drain(s, &dig[k], &nk, &nc, &nctas, &e), 0);
        assert_int_equal(nk, 1);
        assert_int_equal(nc, 2);
        assert_int_equal(nctas, 8);
        ws_close(s);
    }
    assert_true(dig[0] == dig[1]);
}

static void test_skipping_ctas(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e = {{0}};
    wl_params p = {1000, FAKE_OK};
    assert_int_equal(suite_source_open(&fake, &p, &s, &e), 0);
    ws_event ev;
    int kinds[4], n = 0;
    while (n < 4 && ws_next_event(s, &ev, &e) == 1)
        kinds[n++] = ev.kind;
    assert_int_equal(n, 3);
    assert_int_equal(kinds[0], WS_EV_MEMCPY_H2D);
    assert_int_equal(kinds[1], WS_EV_KERNEL);
    assert_int_equal(kinds[2], WS_EV_MEMCPY_D2H);
    ws_close(s);
}

static void test_early_close(void **state)
{
    (void)state;
    /* close after 0..10 items: never hangs, never leaks */
    for (int stop = 0; stop <= 10; stop++) {
        ws_source *s;
        ge_err e = {{0}};
        wl_params p = {100000, FAKE_OK};
        assert_int_equal(suite_source_open(&fake, &p, &s, &e), 0);
        ws_event ev;
        ws_cta c;
        ws_cta_init(&c);
        int got = 0;
        if (stop > 0 && ws_next_event(s, &ev, &e) == 1)
            got++;
        if (stop > 1 && ws_next_event(s, &ev, &e) == 1)
            got++;
        while (got < stop && ws_next_cta(s, &c, &e) == 1)
            got++;
        ws_cta_free(&c);
        ws_close(s);
    }
}

static void test_driver_errors(void **state)
{
    (void)state;
    static const struct {
        uint64_t mode;
        const char *needle;
    } cases[] = {{FAKE_VERIFY_FAIL, "fake: verification failed at 7"},
                 {FAKE_OOB, "out-of-bounds global load of 4 bytes"}};
    for (size_t i = 0; i < 2; i++) {
        ws_source *s;
        ge_err e = {{0}};
        wl_params p = {1000, cases[i].mode};
        assert_int_equal(suite_source_open(&fake, &p, &s, &e), 0);
        uint64_t dig, nctas;
        int nk, nc;
        assert_int_equal(drain(s, &dig, &nk, &nc, &nctas, &e), -1);
        if (!strstr(e.msg, cases[i].needle))
            fail_msg("'%s' lacks '%s'", e.msg, cases[i].needle);
        assert_null(strchr(e.msg, '\n'));
        ws_close(s);
    }
    /* a module that does not parse fails at open */
    wl_desc bad = fake;
    bad.ptx = ".version 8.0\n.target sm_75\n.visible .entry k()\n{\n bogus;\n}\n";
    ws_source *s = NULL;
    ge_err e = {{0}};
    wl_params p = {10, 1};
    assert_int_equal(suite_source_open(&bad, &p, &s, &e), -1);
    assert_non_null(strstr(e.msg, "fake.ptx:5: unknown instruction 'bogus'"));
    assert_null(s);
    /* malformed ptxas resources */
    bad = fake;
    bad.ptx_resources = "twice eight 0\n";
    assert_int_equal(suite_source_open(&bad, &p, &s, &e), -1);
    assert_non_null(strstr(e.msg, "ptxas resources line 1"));
}

/* A suite workload streams what a direct run executes. */
static void test_suite_workload(void **state)
{
    (void)state;
    const wl_desc *w = suite_find("bfs");
    assert_non_null(w);
    wl_params p = {w->tiny_size, 3};
    ge_err e = {{0}};
    gpurt *d = gpurt_create(w->ptx, w->ptx_name, &e);
    assert_non_null(d);
    assert_int_equal(w->run(d, &p, &e), 0);
    gpurt_stats st;
    gpurt_get_stats(d, &st);
    gpurt_destroy(d);
    ws_source *s;
    assert_int_equal(suite_source_open(w, &p, &s, &e), 0);
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    uint64_t launches = 0, ctas = 0, warp = 0, thread = 0;
    int r;
    while ((r = ws_next_event(s, &ev, &e)) == 1) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        launches++;
        while ((r = ws_next_cta(s, &c, &e)) == 1) {
            ctas++;
            warp += c.ninst;
            for (size_t i = 0; i < c.ninst; i++)
                thread += (uint64_t)__builtin_popcount(c.inst[i].mask);
        }
        assert_true(r == 0);
    }
    assert_int_equal(r, 0);
    assert_int_equal(launches, st.launches);
    assert_int_equal(ctas, st.ctas);
    assert_int_equal(warp, st.warp_insts);
    assert_int_equal(thread, st.thread_insts);
    ws_cta_free(&c);
    ws_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_determinism), cmocka_unit_test(test_skipping_ctas),
        cmocka_unit_test(test_early_close),           cmocka_unit_test(test_driver_errors),
        cmocka_unit_test(test_suite_workload),
    };
    return cmocka_run_group_tests_name("suite_source", tests, NULL, NULL);
}
