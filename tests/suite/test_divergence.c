/*
 * test_divergence.c - the divergence microbenchmarks show the SIMD
 * efficiency that a hand calculation predicts.
 *
 * SIMD efficiency = thread instructions / (32 x warp instructions).  The
 * emulator's counts (gpurt_get_stats) must equal the counts derived below
 * from the committed PTX (workloads/suite/ptx/divergence.ptx) and the
 * rules of SIMT execution with reconvergence at the immediate
 * post-dominator (IPDOM):
 *   - a warp instruction is counted once per execution, with the lanes
 *     that execute it (a predicated branch counts every lane that reaches
 *     it, taken or not);
 *   - after a divergent branch, each side runs with its own lanes; they
 *     rejoin at the immediate post-dominator.
 * Each kernel runs in 32 CTAs of 256 threads = 256 warps, all with the
 * same lane pattern, so totals are 256 x the per-warp counts.
 *
 * divergence_loop, step s: lane l runs t_l = 1 + l s trips.  In the PTX
 * the loop is one block of B instructions ending in its backward branch
 * (B = 6: two constant moves, the FMA, the counter add, setp, bra); the
 * U other instructions (prologue, the skip test, which is never taken since
 * t_l >= 1, the counter init, and the epilogue) run once with all 32 lanes.
 * The warp repeats the body while any lane still loops, max t = 1 + 31 s
 * times, the lanes with t_l >= k active in round k:
 *   warp   = U + B (1 + 31 s)
 *   thread = 32 U + B sum_l t_l = 32 U + B (32 + 496 s)
 * For s = 4, U = 22, B = 6: warp = 772, thread = 12800, efficiency =
 * 12800 / (32 x 772) = 0.518.
 *
 * divergence_ifelse, 2^d paths: the kernel is loop-free, so under IPDOM a
 * warp executes every static instruction at most once, with the lanes
 * whose path passes through it.  So per warp:
 *   warp   = number of distinct PTX instructions on any lane's path
 *   thread = sum over the 32 lanes of the length of the lane's path
 * A lane's path is read off the PTX by hand rules: from the entry, go
 * through the instructions in order; `bra.uni L` jumps to L; `ret` ends;
 * every conditional branch `@%p bra A` is followed by `bra.uni B`, and the
 * k-th conditional branch on a path tests bit k of the lane's path number
 * (lane & (2^d - 1)) and goes to A when that bit is 0 (root: `setp.eq.b32
 * %p1, bit0, 1` ... `not.pred %p4` ... `@%p4 bra`; levels 1-4: `setp.eq.s32
 * %pK, path & 2^L, 0; @%pK bra`).  The walk below applies exactly these
 * rules to the embedded PTX text.  For d = 3 it gives thread = 1896, warp =
 * 232 per warp: efficiency 0.2554 (the 8 leaves alone would give 1/8; the
 * uniform prologue and epilogue raise it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suite.h"
#include "suite_source.h"
#include "wstats.h"

#define WARPS 256 /* 32 CTAs x 8 warps, see wl_divergence.c */
#define MAX_INS 2048
#define MAX_LABELS 256

typedef struct kbody {
    char ins[MAX_INS][96];
    int n;
    char label[MAX_LABELS][32];
    int label_at[MAX_LABELS];
    int nlabels;
} kbody;

/* The instructions and labels of `kernel` in the PTX text. */
static void parse_kernel(const char *ptx, const char *kernel, kbody *k)
{
    char head[128];
    snprintf(head, sizeof head, ".entry %s(", kernel);
    const char *p = strstr(ptx, head);
    assert_non_null(p);
    p = strstr(p, "\n{");
    assert_non_null(p);
    p += 2;
    k->n = k->nlabels = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[256];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (eol ? 1 : 0);
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (strcmp(s, "}") == 0)
            break;
        if (!*s || s[0] == '/' || s[0] == '.')
            continue; /* blank, comment, directive (.reg, .pragma) */
        size_t sl = strlen(s);
        if (s[sl - 1] == ':') {
            assert_true(k->nlabels < MAX_LABELS && sl < sizeof k->label[0]);
            s[sl - 1] = 0;
            strcpy(k->label[k->nlabels], s);
            k->label_at[k->nlabels++] = k->n;
            continue;
        }
        assert_true(k->n < MAX_INS);
        /* normalise whitespace to single spaces */
        char *o = k->ins[k->n];
        size_t w = 0;
        for (char *q = s; *q && w + 1 < sizeof k->ins[0]; q++) {
            char ch = (*q == '\t') ? ' ' : *q;
            if (ch == ' ' && (w == 0 || o[w - 1] == ' '))
                continue;
            o[w++] = ch;
        }
        o[w] = 0;
        k->n++;
    }
}

static int label_index(const kbody *k, const char *name)
{
    for (int i = 0; i < k->nlabels; i++)
        if (strcmp(k->label[i], name) == 0)
            return k->label_at[i];
    fail_msg("label %s not found", name);
    return -1;
}

/* Branch target of "bra.uni L;" / "@%p bra L;" into out. */
static void target(const char *ins, char *out)
{
    const char *t = strrchr(ins, ' ');
    assert_non_null(t);
    snprintf(out, 32, "%s", t + 1);
    char *semi = strchr(out, ';');
    if (semi)
        *semi = 0;
}

/* Hand calculation for divergence_ifelse with 2^depth paths (see top). */
static void ifelse_expected(const kbody *k, int depth, uint64_t *warp, uint64_t *thread)
{
    static unsigned char seen[MAX_INS];
    memset(seen, 0, sizeof seen);
    uint64_t th = 0, wp = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        uint32_t path = lane & ((1u << depth) - 1u);
        int pc = 0, level = 0, steps = 0;
        for (;;) {
            assert_true(pc >= 0 && pc < k->n && ++steps < 10000);
            const char *ins = k->ins[pc];
            if (!seen[pc]) {
                seen[pc] = 1;
                wp++;
            }
            th++;
            char t[32];
            if (strncmp(ins, "ret", 3) == 0)
                break;
            if (ins[0] == '@' && strstr(ins, " bra ")) {
                assert_true(pc + 1 < k->n && strncmp(k->ins[pc + 1], "bra.uni ", 8) == 0);
                int taken = ((path >> level) & 1u) == 0;
                level++;
                if (taken) {
                    target(ins, t);
                    pc = label_index(k, t);
                } else {
                    pc++;
                }
            } else if (strncmp(ins, "bra.uni ", 8) == 0) {
                target(ins, t);
                pc = label_index(k, t);
            } else {
                pc++;
            }
        }
        assert_int_equal(level, 5); /* every lane passes the five levels of the tree */
    }
    *warp = wp;
    *thread = th;
}

static void run_counts(const char *name, uint32_t size, gpurt_stats *st)
{
    const wl_desc *w = suite_find(name);
    assert_non_null(w);
    ge_err e = {{0}};
    gpurt *dev = gpurt_create(w->ptx, w->ptx_name, &e);
    if (!dev)
        fail_msg("%s", e.msg);
    assert_int_equal(gpurt_set_resources(dev, w->ptx_resources), 0);
    wl_params p = {size, 1};
    if (w->run(dev, &p, &e) != 0)
        fail_msg("%s: %s", name, e.msg);
    gpurt_get_stats(dev, st);
    gpurt_destroy(dev);
    assert_int_equal(st->launches, 1);
}

/* The same numbers through the warp stream and wstats: the path
 * `gpuest stats` takes. */
static void check_stream(const char *name, uint32_t size, double expect_eff)
{
    const wl_desc *w = suite_find(name);
    wl_params p = {size, 1};
    ws_source *src = NULL;
    ge_err e = {{0}};
    if (suite_source_open(w, &p, &src, &e) != 0)
        fail_msg("%s: %s", name, e.msg);
    wstats s;
    wstats_init(&s);
    int rc = wstats_run(&s, src, NULL, &e);
    ws_close(src);
    if (rc != 0)
        fail_msg("%s stream: %s", name, e.msg);
    double eff = wstats_simd_efficiency(&s.total);
    wstats_free(&s);
    print_message("%s through suite_source + wstats: SIMD eff %.4f\n", name, eff);
    assert_true(eff > expect_eff - 1e-12 && eff < expect_eff + 1e-12);
}

static void test_ifelse(void **state)
{
    (void)state;
    static kbody k;
    const wl_desc *w = suite_find("divergence_ifelse");
    assert_non_null(w);
    parse_kernel(w->ptx, "divergence_ifelse", &k);
    double prev = 2.0;
    for (int depth = 0; depth <= 5; depth++) {
        uint64_t wexp, texp;
        ifelse_expected(&k, depth, &wexp, &texp);
        gpurt_stats st;
        run_counts("divergence_ifelse", 1u << depth, &st);
        double hand = (double)texp / (32.0 * (double)wexp);
        double got = (double)st.thread_insts / (32.0 * (double)st.warp_insts);
        print_message("divergence_ifelse %2u paths: hand %llu thread / %llu warp insts per warp, SIMD eff %.4f; "
                      "emulator %.4f\n",
                      1u << depth, (unsigned long long)texp, (unsigned long long)wexp, hand, got);
        assert_int_equal(st.warp_insts, WARPS * wexp);
        assert_int_equal(st.thread_insts, WARPS * texp);
        if (depth == 0)
            assert_true(hand == 1.0); /* no divergence at all */
        assert_true(hand < prev);     /* more paths, lower efficiency */
        prev = hand;
        if (depth == 3)
            check_stream("divergence_ifelse", 8, hand);
    }
}

static void test_loop(void **state)
{
    (void)state;
    static kbody k;
    const wl_desc *w = suite_find("divergence_loop");
    assert_non_null(w);
    parse_kernel(w->ptx, "divergence_loop", &k);
    /* The loop body: from its label to the backward branch that targets it. */
    int body_start = -1, body_end = -1;
    for (int i = 0; i < k.n; i++) {
        char t[32];
        if (k.ins[i][0] == '@' && strstr(k.ins[i], " bra ")) {
            target(k.ins[i], t);
            int at = label_index(&k, t);
            if (at <= i) {
                assert_int_equal(body_start, -1); /* exactly one loop */
                body_start = at;
                body_end = i;
            }
        }
    }
    assert_true(body_start >= 0);
    uint64_t B = (uint64_t)(body_end - body_start + 1), U = (uint64_t)k.n - B;
    assert_int_equal(B, 6);
    assert_int_equal(U, 22);
    for (uint32_t s = 1; s <= 8; s *= 2) {
        uint64_t wexp = U + B * (1 + 31 * s), texp = 32 * U + B * (32 + 496 * s);
        gpurt_stats st;
        run_counts("divergence_loop", s, &st);
        double hand = (double)texp / (32.0 * (double)wexp);
        print_message("divergence_loop step %u: hand %llu thread / %llu warp insts per warp, SIMD eff %.4f; "
                      "emulator %.4f\n",
                      s, (unsigned long long)texp, (unsigned long long)wexp, hand,
                      (double)st.thread_insts / (32.0 * (double)st.warp_insts));
        assert_int_equal(st.warp_insts, WARPS * wexp);
        assert_int_equal(st.thread_insts, WARPS * texp);
        if (s == 4) {
            assert_int_equal(wexp, 772);
            assert_int_equal(texp, 12800);
            check_stream("divergence_loop", 4, hand);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ifelse),
        cmocka_unit_test(test_loop),
    };
    return cmocka_run_group_tests_name("divergence", tests, NULL, NULL);
}
