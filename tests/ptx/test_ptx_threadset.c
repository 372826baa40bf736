/*
 * test_ptx_threadset.c - thread-set execution (ptx_cta_step), the hook for
 * dynamic warp formation: driving CTAs one instruction at a time over
 * threads chosen by a policy gives the same memory results as warp-mode
 * execution with the PDOM stack.  Policies: one thread at a time; the
 * threads of one home warp at the lowest pc (a warp without a reconvergence
 * stack); and dynamic-warp-formation style, up to 32 threads from any warps
 * at the pc most threads share.  Kernels: divergent device calls with local
 * memory and libm code (calls.ptx), and barriers with early exits and
 * barrier reductions (barrier.ptx).  Also: the step record (mask, op kind,
 * per-thread addresses) and the misuse errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx.h"
#include "ptx_testutil.h"

enum { POL_SINGLE, POL_WARP, POL_DWF };

typedef struct rig {
    ptx_module *m;
    ptx_mem mem;
    ptx_launch L;
} rig;

static void rig_open(rig *r, const char *path)
{
    memset(r, 0, sizeof *r);
    char *text = tu_read(path);
    ge_err e = {{0}};
    if (ptx_module_parse(text, strlen(text), path, &r->m, &e))
        fail_msg("%s", e.msg);
    free(text);
    ptx_mem_init(&r->mem);
    if (ptx_mem_load_module(&r->mem, r->m, &e))
        fail_msg("%s", e.msg);
}

static void rig_close(rig *r)
{
    ptx_launch_release(&r->L);
    ptx_mem_free_all(&r->mem);
    ptx_module_free(r->m);
}

static uint64_t rig_upload(rig *r, const void *data, size_t n)
{
    ge_err e = {{0}};
    uint64_t a = ptx_mem_alloc(&r->mem, n, 0, &e);
    assert_true(a != 0);
    memcpy(ptx_mem_ptr(&r->mem, a, n), data, n);
    return a;
}

/* Pick the next thread set under a policy; returns its size (0 = none ready). */
static int pick(const ptx_cta *c, int policy, uint32_t *tids)
{
    uint32_t n = ptx_cta_nthreads(c);
    if (policy == POL_DWF) {
        /* the pc shared by most ready threads (lowest pc on ties) */
        uint32_t best = PTX_NO_PC, bestn = 0;
        for (uint32_t t = 0; t < n; t++) {
            if (ptx_cta_thread_state(c, t) != PTX_THR_READY)
                continue;
            uint32_t pc = ptx_cta_thread_pc(c, t), cnt = 0;
            for (uint32_t u = 0; u < n; u++)
                cnt += ptx_cta_thread_state(c, u) == PTX_THR_READY && ptx_cta_thread_pc(c, u) == pc;
            if (cnt > bestn || (cnt == bestn && pc < best))
                best = pc, bestn = cnt;
        }
        int k = 0;
        /* take threads from the back so groups mix warps differently from home warps */
        for (uint32_t t = n; t-- > 0 && k < 32;)
            if (ptx_cta_thread_state(c, t) == PTX_THR_READY && ptx_cta_thread_pc(c, t) == best)
                tids[k++] = t;
        return k;
    }
    uint32_t first = UINT32_MAX;
    for (uint32_t t = 0; t < n; t++)
        if (ptx_cta_thread_state(c, t) == PTX_THR_READY) {
            first = t;
            break;
        }
    if (first == UINT32_MAX)
        return 0;
    if (policy == POL_SINGLE) {
        tids[0] = first;
        return 1;
    }
    /* home warp of `first`, at the lowest pc among its ready threads */
    uint32_t w = first / 32, pc = PTX_NO_PC;
    for (uint32_t t = w * 32; t < n && t < w * 32 + 32; t++)
        if (ptx_cta_thread_state(c, t) == PTX_THR_READY && ptx_cta_thread_pc(c, t) < pc)
            pc = ptx_cta_thread_pc(c, t);
    int k = 0;
    for (uint32_t t = w * 32; t < n && t < w * 32 + 32; t++)
        if (ptx_cta_thread_state(c, t) == PTX_THR_READY && ptx_cta_thread_pc(c, t) == pc)
            tids[k++] = t;
    return k;
}

/* Run every CTA of r->L under `policy`; returns the number of steps. */
static uint64_t run_threads(rig *r, int policy)
{
    ge_err e = {{0}};
    ptx_cta *c = ptx_cta_new(&r->L, &e);
    assert_non_null(c);
    uint64_t steps = 0, nctas = (uint64_t)r->L.grid[0] * r->L.grid[1] * r->L.grid[2];
    for (uint64_t i = 0; i < nctas; i++) {
        assert_int_equal(ptx_cta_begin(c, i, &e), 0);
        while (!ptx_cta_done(c)) {
            uint32_t tids[32];
            int k = pick(c, policy, tids);
            if (k == 0)
                fail_msg("no thread ready but CTA %llu not done (policy %d)", (unsigned long long)i, policy);
            ptx_step s;
            if (ptx_cta_step(c, tids, k, &s, &e))
                fail_msg("policy %d: %s", policy, e.msg);
            steps++;
        }
    }
    ptx_cta_free(c);
    return steps;
}

/* ---- calls.ptx: divergent device calls ---- */

static void calls_setup(rig *r, const int32_t *in, int n, uint64_t *dout, uint64_t *dfout)
{
    uint64_t din = rig_upload(r, in, (size_t)n * 4);
    int32_t zero[512] = {0};
    *dout = rig_upload(r, zero, (size_t)n * 4);
    *dfout = rig_upload(r, zero, (size_t)n * 4);
    ge_err e = {{0}};
    uint32_t grid[3] = {3, 1, 1}, block[3] = {64, 1, 1};
    void *args[] = {&din, dout, dfout, &n};
    int k = ptx_module_kernel(r->m, "calls_kernel");
    assert_true(k >= 0);
    if (ptx_launch_init(&r->L, r->m, (uint32_t)k, &r->mem, grid, block, 0, args, &e))
        fail_msg("%s", e.msg);
}

static void test_calls_policies(void **state)
{
    (void)state;
    enum { N = 150 };
    int32_t in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 2500 - 1200;
    /* reference: warp mode */
    rig w;
    rig_open(&w, "tests/ptx/kernels/calls.ptx");
    uint64_t wo, wf;
    calls_setup(&w, in, N, &wo, &wf);
    ge_err e = {{0}};
    ptx_cta *c = ptx_cta_new(&w.L, &e);
    for (uint64_t i = 0; i < 3; i++)
        if (ptx_cta_begin(c, i, &e) || ptx_cta_run(c, NULL, &e))
            fail_msg("%s", e.msg);
    ptx_cta_free(c);
    int32_t ref[N], reff[N];
    memcpy(ref, ptx_mem_ptr(&w.mem, wo, sizeof ref), sizeof ref);
    memcpy(reff, ptx_mem_ptr(&w.mem, wf, sizeof reff), sizeof reff);
    uint64_t steps[3];
    for (int pol = 0; pol < 3; pol++) {
        rig r;
        rig_open(&r, "tests/ptx/kernels/calls.ptx");
        uint64_t o, f;
        calls_setup(&r, in, N, &o, &f);
        steps[pol] = run_threads(&r, pol);
        assert_memory_equal(ptx_mem_ptr(&r.mem, o, sizeof ref), ref, sizeof ref);
        assert_memory_equal(ptx_mem_ptr(&r.mem, f, sizeof reff), reff, sizeof reff);
        rig_close(&r);
    }
    /* grouping threads takes fewer steps than one thread at a time */
    assert_true(steps[POL_WARP] < steps[POL_SINGLE] / 8);
    assert_true(steps[POL_DWF] < steps[POL_SINGLE] / 8);
    rig_close(&w);
}

/* ---- barrier.ptx: barriers, early exits, bar.red ---- */

static void test_barrier_policies(void **state)
{
    (void)state;
    enum { B = 2, T = 96 };
    int32_t in[B * T];
    for (int i = 0; i < B * T; i++)
        in[i] = (i * 37) % 101;
    int32_t ref[B * 4];
    for (int pol = -1; pol < 3; pol++) {
        rig r;
        rig_open(&r, "tests/ptx/kernels/barrier.ptx");
        uint64_t din = rig_upload(&r, in, sizeof in);
        int32_t zero[B * 4] = {0};
        uint64_t dout = rig_upload(&r, zero, sizeof zero);
        int live = 70;
        void *args[] = {&din, &dout, &live};
        uint32_t grid[3] = {B, 1, 1}, block[3] = {T, 1, 1};
        ge_err e = {{0}};
        if (ptx_launch_init(&r.L, r.m, (uint32_t)ptx_module_kernel(r.m, "barrier_kernel"), &r.mem, grid, block, 0,
                            args, &e))
            fail_msg("%s", e.msg);
        if (pol < 0) {
            ptx_cta *c = ptx_cta_new(&r.L, &e);
            for (uint64_t i = 0; i < B; i++)
                if (ptx_cta_begin(c, i, &e) || ptx_cta_run(c, NULL, &e))
                    fail_msg("%s", e.msg);
            ptx_cta_free(c);
            memcpy(ref, ptx_mem_ptr(&r.mem, dout, sizeof ref), sizeof ref);
            int sum = 0;
            for (int t = 0; t < live; t++)
                sum += in[t];
            assert_int_equal(ref[0], sum); /* block 0's reduction, checked against C */
        } else {
            run_threads(&r, pol);
            assert_memory_equal(ptx_mem_ptr(&r.mem, dout, sizeof ref), ref, sizeof ref);
        }
        rig_close(&r);
    }
}

/* ---- the step record and misuse ---- */

static void test_step_record(void **state)
{
    (void)state;
    static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
                              " .reg .pred %p<2>;\n"
                              " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 40;\n"
                              " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
                              " @%p1 st.global.u32 [%rd3], %r1;\n ret;\n}\n";
    ptx_module *m;
    ge_err e = {{0}};
    assert_int_equal(ptx_module_parse(ptx, strlen(ptx), "s.ptx", &m, &e), 0);
    ptx_mem mem;
    ptx_mem_init(&mem);
    uint64_t buf = ptx_mem_alloc(&mem, 64 * 4, 0, &e);
    ptx_launch L = {0};
    uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
    void *args[] = {&buf};
    assert_int_equal(ptx_launch_init(&L, m, 0, &mem, g, b, 0, args, &e), 0);
    ptx_cta *c = ptx_cta_new(&L, &e);
    assert_int_equal(ptx_cta_begin(c, 0, &e), 0);
    /* threads 63, 5 and 38 (two home warps) step together to the store */
    uint32_t set[3] = {63, 5, 38};
    ptx_step s;
    for (int i = 0; i < 5; i++)
        assert_int_equal(ptx_cta_step(c, set, 3, &s, &e), 0);
    assert_int_equal(ptx_cta_thread_pc(c, 63), 5);
    assert_int_equal(ptx_cta_step(c, set, 3, &s, &e), 0); /* the guarded store: 63 is off */
    assert_int_equal(s.inst.op, ISA_OP_ST_GLOBAL);
    assert_int_equal(s.inst.pc, 5 * 16);
    assert_int_equal(s.inst.mask, 0x6); /* set[1] and set[2] */
    assert_int_equal(s.inst.size, 4);
    assert_int_equal(s.addr[0], 0);
    assert_int_equal(s.addr[1], buf + 20);
    assert_int_equal(s.addr[2], buf + 152);
    uint32_t v;
    memcpy(&v, ptx_mem_ptr(&mem, buf + 152, 4), 4);
    assert_int_equal(v, 38);
    /* misuse: threads at different pcs, exited threads, duplicates, sizes */
    uint32_t mix[2] = {5, 6};
    assert_int_equal(ptx_cta_step(c, mix, 2, &s, &e), -1);
    assert_non_null(strstr(e.msg, "different pcs"));
    assert_int_equal(ptx_cta_step(c, set, 3, &s, &e), 0); /* ret */
    assert_int_equal(ptx_cta_thread_state(c, 5), PTX_THR_EXITED);
    assert_int_equal(ptx_cta_step(c, set, 1, &s, &e), -1);
    assert_non_null(strstr(e.msg, "exited"));
    uint32_t dup[2] = {7, 7};
    assert_int_equal(ptx_cta_step(c, dup, 2, &s, &e), -1);
    assert_int_equal(ptx_cta_step(c, dup, 0, &s, &e), -1);
    uint32_t out[1] = {64};
    assert_int_equal(ptx_cta_step(c, out, 1, &s, &e), -1);
    assert_non_null(strstr(e.msg, "outside the CTA"));
    /* a CTA in thread mode cannot also be run in warp mode */
    assert_int_equal(ptx_cta_run(c, NULL, &e), -1);
    ptx_cta_free(c);
    ptx_launch_release(&L);
    ptx_mem_free_all(&mem);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calls_policies),
        cmocka_unit_test(test_barrier_policies),
        cmocka_unit_test(test_step_record),
    };
    return cmocka_run_group_tests_name("ptx_threadset", tests, NULL, NULL);
}
