/*
 * bench_sim.c - speed of the detailed simulator: simulated warp
 * instructions per second of CPU time, single-threaded.
 *
 * Runs, on each config (default: the shipped v100 and gtx480) with the
 * detailed memory system:
 *   - two synthetic kernels built here, so the figure exists even in a
 *     build without the PTX emulator: "synth_fma" (FFMA chains with 8-way
 *     ILP, compute-bound) and "synth_stream" (c[i] = a[i] + b[i] over 64 MB,
 *     memory-bound);
 *   - the two shared Accel-Sim traces (../shared/data/traces);
 *   - every suite workload at its realistic (default) size, when the suite
 *     is in the build.
 * Kernels of the synthetic and trace items are loaded into memory before
 * the clock starts, and the simulator reads their CTAs where they are
 * (sim_cta_feed.borrow), as `gpuest estimate` reads a profile's, so only
 * simulation is timed.  Suite workloads stream from the emulator, which
 * runs in its own producer thread; the figure is the simulating thread's
 * CPU time (CLOCK_THREAD_CPUTIME_ID), so emulation is not counted.
 *
 * Each item is classed by what limits it in the simulation:
 *   memory-bound   DRAM bandwidth utilisation >= BENCH_MEMORY_BOUND_UTIL;
 *   compute-bound  otherwise, if the SM's pipelines limit it: issue slots
 *                  used plus structural stalls other than the LSU waiting
 *                  on the memory system make up at least
 *                  BENCH_COMPUTE_BOUND_SHARE of the scheduler-cycles;
 *   latency-bound  the rest (waiting on dependencies, memory latency,
 *                  barriers, or idle: pointer chases, atomics, small grids).
 * A group's figure is its total warp instructions / total CPU seconds, and
 * "all" covers every item.  Targets (issue 4): 2 M warp insts/s
 * compute-bound, 0.5 M memory-bound.
 *
 * Options: HELP below (`bench_sim --help`).  Why --repeat reports the
 * fastest run: on a shared machine other tenants only ever slow a run down,
 * so the minimum is the least disturbed measure of the simulator's own
 * speed; the simulation is deterministic, every run does the same work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "startup_env.h"
#include "accelsim.h"
#include "config_registry.h"
#include "sim.h"
#include "suite.h"
#include "suite_source.h"

#define BENCH_MEMORY_BOUND_UTIL 0.30   /* DRAM busy fraction that marks a memory-bound run */
#define BENCH_COMPUTE_BOUND_SHARE 0.50 /* issued + structural share of scheduler-cycles: compute-bound */
#define BENCH_MAX_KERNELS 4096
#define BENCH_MAX_REPEAT 16

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- an in-memory source ---- */

typedef struct mkernel {
    ws_kernel k;
    char name[256];
    ws_cta *cta;
    size_t n, cap;
} mkernel;

typedef struct msrc {
    ws_source base;
    mkernel *k;
    size_t nk, cur, next_cta;
} msrc;

static int m_event(ws_source *s, ws_event *ev, ge_err *e)
{
    (void)e;
    msrc *m = (msrc *)s;
    if (m->cur >= m->nk)
        return 0;
    memset(ev, 0, sizeof *ev);
    ev->kind = WS_EV_KERNEL;
    ev->kernel = m->k[m->cur++].k;
    m->next_cta = 0;
    return 1;
}

static int m_cta(ws_source *s, ws_cta *c, ge_err *e)
{
    msrc *m = (msrc *)s;
    mkernel *k = &m->k[m->cur - 1];
    if (m->next_cta >= k->n)
        return 0;
    return ws_cta_copy(c, &k->cta[m->next_cta++], e) ? -1 : 1;
}

/* The simulator's feed: the CTAs stay in memory while it runs them. */
static int m_borrow(void *ctx, const ws_cta **c, ge_err *e)
{
    (void)e;
    msrc *m = ctx;
    mkernel *k = &m->k[m->cur - 1];
    if (m->next_cta >= k->n)
        return 0;
    *c = &k->cta[m->next_cta++];
    return 1;
}

static void m_close(ws_source *s) { (void)s; }

static const ws_source_ops m_ops = {"bench-memory", m_event, m_cta, NULL, m_close};

static void msrc_free(msrc *m)
{
    for (size_t i = 0; i < m->nk; i++) {
        for (size_t j = 0; j < m->k[i].n; j++)
            ws_cta_free(&m->k[i].cta[j]);
        free(m->k[i].cta);
    }
    free(m->k);
}

static mkernel *msrc_kernel(msrc *m, const ws_kernel *k)
{
    mkernel *mk = &m->k[m->nk++];
    memset(mk, 0, sizeof *mk);
    mk->k = *k;
    snprintf(mk->name, sizeof mk->name, "%s", k->name);
    mk->k.name = mk->name;
    mk->k.opcodes = NULL;
    mk->k.nopcodes = 0;
    mk->k.nvbit_version = NULL;
    return mk;
}

static ws_cta *mkernel_cta(mkernel *mk, ge_err *e)
{
    if (ge_reserve((void **)&mk->cta, &mk->cap, mk->n + 1, sizeof *mk->cta, e))
        return NULL;
    ws_cta *c = &mk->cta[mk->n++];
    ws_cta_init(c);
    return c;
}

/* Read a whole source into memory. */
static int msrc_load(msrc *m, ws_source *src, ge_err *e)
{
    m->k = calloc(BENCH_MAX_KERNELS, sizeof *m->k);
    if (!m->k)
        return ge_errf(e, "out of memory");
    ws_event ev;
    int rc;
    while ((rc = ws_next_event(src, &ev, e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        if (m->nk == BENCH_MAX_KERNELS)
            return ge_errf(e, "too many kernels");
        mkernel *mk = msrc_kernel(m, &ev.kernel);
        for (;;) {
            ws_cta tmp;
            ws_cta_init(&tmp);
            rc = ws_next_cta(src, &tmp, e);
            if (rc <= 0) {
                ws_cta_free(&tmp);
                break;
            }
            ws_cta *c = mkernel_cta(mk, e);
            if (!c)
                return -1;
            *c = tmp;
        }
        if (rc < 0)
            return -1;
    }
    m->base.ops = &m_ops;
    return rc;
}

/* ---- synthetic kernels ---- */

static ws_inst *push(ws_cta *c, isa_op op, int dst, int s0, int s1, int s2, uint32_t pcslot, ge_err *e)
{
    ws_inst *in = ws_cta_push(c, e);
    if (!in)
        return NULL;
    in->pc = 16ull * pcslot;
    in->op = (uint8_t)op;
    in->mask = 0xffffffffu;
    if (dst >= 0)
        in->dst[in->ndst++] = (uint16_t)dst;
    int s[3] = {s0, s1, s2};
    for (int i = 0; i < 3; i++)
        if (s[i] >= 0)
            in->src[in->nsrc++] = (uint16_t)s[i];
    return in;
}

static int push_mem(ws_cta *c, isa_op op, int dst, int src, uint64_t base, uint32_t pcslot, ge_err *e)
{
    ws_inst *in = push(c, op, dst, src, -1, -1, pcslot, e);
    if (!in)
        return -1;
    in->size = 4;
    uint64_t *a = ws_cta_push_addr(c, in, e);
    if (!a)
        return -1;
    for (int l = 0; l < 32; l++)
        a[l] = base + 4ull * l;
    return 0;
}

/* synth_fma: per warp `iters` x 8 independent FFMA chains (dst r10..r17).
 * synth_stream: per warp `iters` x (2 loads, add, store), fully coalesced,
 * each warp walking its own part of three arrays. */
static int synth_build(msrc *m, int stream, uint32_t ctas, uint32_t iters, ge_err *e)
{
    m->k = calloc(1, sizeof *m->k);
    if (!m->k)
        return ge_errf(e, "out of memory");
    ws_kernel k;
    memset(&k, 0, sizeof k);
    k.name = stream ? "synth_stream" : "synth_fma";
    k.id = 1;
    k.grid[0] = ctas;
    k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256;
    k.block[1] = k.block[2] = 1;
    k.nregs = 32;
    k.binary_version = 70;
    mkernel *mk = msrc_kernel(m, &k);
    const uint64_t A = 0x10000000ull, B = 0x30000000ull, C = 0x50000000ull;
    for (uint32_t b = 0; b < ctas; b++) {
        ws_cta *c = mkernel_cta(mk, e);
        if (!c)
            return -1;
        c->index = b;
        c->id[0] = b;
        for (uint32_t w = 0; w < 8; w++) {
            if (ws_cta_begin_warp(c, e))
                return -1;
            uint32_t pc = 0;
            if (!push(c, ISA_OP_INT_ALU, 1, -1, -1, -1, pc++, e))
                return -1;
            for (uint32_t i = 0; i < iters; i++) {
                uint32_t slot = pc + (i % 4) * 8; /* a loop body of 4 unrolled copies */
                if (stream) {
                    uint64_t off = ((uint64_t)i * ctas * 8 + (uint64_t)b * 8 + w) * 128;
                    if (push_mem(c, ISA_OP_LD_GLOBAL, 2, 1, A + off, slot, e) ||
                        push_mem(c, ISA_OP_LD_GLOBAL, 3, 1, B + off, slot + 1, e) ||
                        !push(c, ISA_OP_FP32_ADD, 4, 2, 3, -1, slot + 2, e) ||
                        push_mem(c, ISA_OP_ST_GLOBAL, -1, 4, C + off, slot + 3, e) ||
                        !push(c, ISA_OP_INT_ALU, 1, 1, -1, -1, slot + 4, e) ||
                        !push(c, ISA_OP_BRANCH, -1, 1, -1, -1, slot + 5, e))
                        return -1;
                } else {
                    for (int j = 0; j < 8; j++)
                        if (!push(c, ISA_OP_FP32_FMA, 10 + j, 10 + j, 2, 3, slot + (uint32_t)j, e))
                            return -1;
                }
            }
            if (!push(c, ISA_OP_EXIT, -1, -1, -1, -1, 40, e))
                return -1;
        }
    }
    m->base.ops = &m_ops;
    return 0;
}

/* ---- running and reporting ---- */

typedef struct group {
    double insts, secs;
} group;

static const char *mem_model = "detailed";

static int feed_source(void *ctx, ws_cta *cta, ge_err *e) { return ws_next_cta((ws_source *)ctx, cta, e); }

enum { G_COMPUTE, G_MEMORY, G_LATENCY, G_ALL, G_COUNT };
static const char *const group_names[G_COUNT] = {"compute-bound", "memory-bound", "latency-bound", "all"};

/* One run's figures (all but secs are the same in every repetition). */
typedef struct run {
    size_t n;
    double insts, cycles, bw, busy, slots, secs;
} run;

static int repeat = 1; /* runs per item; the figure is the fastest (--repeat) */

static int measure(const char *cfgname, ws_source *src, run *out, ge_err *e)
{
    gpu_config cfg;
    if (gcfg_load_named(cfgname, &cfg, e))
        return -1;
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = mem_model;
    sim_gpu *g = sim_create(&cfg, &o, e);
    if (!g)
        return -1;
    /* sim_run_source's loop, keeping each kernel's LSU-busy stalls */
    double insts = 0, cycles = 0, bw = 0, busy = 0, slots = 0;
    size_t n = 0;
    ws_event ev;
    int rc;
    double t0 = thread_cpu();
    sim_cta_feed feed = {feed_source, src, NULL};
    if (src->ops == &m_ops) /* in memory: read where they are */
        feed = (sim_cta_feed){NULL, src, m_borrow};
    while ((rc = ws_next_event(src, &ev, e)) > 0) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        kresult r;
        if ((rc = sim_kernel(g, &ev.kernel, &feed, &r, e)) < 0)
            break;
        n++;
        insts += r.warp_insts;
        cycles += r.cycles;
        bw += r.dram_bw_util * r.cycles;
        /* the SM's pipelines: issue slots used, and structural stalls that are
         * not the LSU waiting for the memory system */
        busy += r.stall[KR_ISSUED] + r.stall[KR_STRUCTURAL] - sim_last_detail(g)->lsu_busy_stalls;
        slots += sim_stall_total(&r);
    }
    double secs = thread_cpu() - t0;
    sim_destroy(g);
    if (rc < 0)
        return -1;
    *out = (run){n, insts, cycles, bw, busy, slots, secs};
    return 0;
}

/* Class, print and add to the groups the fastest of the runs in r[0..k). */
static void report(const char *cfgname, const char *item, const run *r, int k, group *groups)
{
    double secs = r[0].secs;
    for (int i = 1; i < k; i++)
        if (r[i].secs < secs)
            secs = r[i].secs;
    size_t n = r[0].n;
    double insts = r[0].insts, cycles = r[0].cycles, busy = r[0].busy, slots = r[0].slots;
    double bw = cycles > 0 ? r[0].bw / cycles : 0;
    int cls = bw >= BENCH_MEMORY_BOUND_UTIL                                ? G_MEMORY
              : slots > 0 && busy / slots >= BENCH_COMPUTE_BOUND_SHARE ? G_COMPUTE
                                                                        : G_LATENCY;
    groups[cls].insts += insts;
    groups[cls].secs += secs;
    groups[G_ALL].insts += insts;
    groups[G_ALL].secs += secs;
    static const char *const cls_names[] = {"compute", "memory", "latency"};
    printf("%-8s %-22s %-7s %8zu %12.0f %12.0f %8.2f %6.2f %5.2f %9.3f %12.0f\n", cfgname, item, cls_names[cls], n,
           insts, cycles, cycles > 0 ? insts / cycles : 0, bw, slots > 0 ? busy / slots : 0, secs,
           secs > 0 ? insts / secs : 0);
    fflush(stdout);
}

static int run_loaded(const char *cfgname, const char *item, msrc *m, group *groups, ge_err *e)
{
    run r[BENCH_MAX_REPEAT];
    for (int i = 0; i < repeat; i++) {
        m->cur = 0;
        if (measure(cfgname, &m->base, &r[i], e))
            return -1;
    }
    report(cfgname, item, r, repeat, groups);
    return 0;
}

/* A suite workload, emulated afresh for every run. */
static int run_suite(const char *cfgname, const wl_desc *w, int preload, group *groups, ge_err *e)
{
    run r[BENCH_MAX_REPEAT];
    for (int i = 0; i < repeat; i++) {
        wl_params p = {w->default_size, 1};
        ws_source *src;
        if (suite_source_open(w, &p, &src, e))
            return -1;
        int rc;
        if (preload) { /* emulate first, then time the simulation alone (for profiling) */
            msrc m;
            memset(&m, 0, sizeof m);
            rc = msrc_load(&m, src, e) || measure(cfgname, &m.base, &r[i], e);
            msrc_free(&m);
        } else {
            rc = measure(cfgname, src, &r[i], e);
        }
        ws_close(src);
        if (rc)
            return -1;
    }
    report(cfgname, w->name, r, repeat, groups);
    return 0;
}

static const char HELP[] =
    "usage: bench_sim [options]\n"
    "\n"
    "Speed of the detailed simulator in simulated warp instructions per CPU second, single-threaded: two\n"
    "synthetic kernels, the shared Accel-Sim traces and every suite workload at its default size, each\n"
    "classed compute-, memory- or latency-bound by its own CPI stack and DRAM use, with group totals.\n"
    "\n"
    "  --config NAME   shipped config to run (repeatable, at most 8; default v100 and gtx480)\n"
    "  --only ITEM     run only this item (a suite workload, synth_fma, synth_stream, vectoradd_sm80, vectoradd_sm61)\n"
    "  --quick         small sizes, synthetic kernels and traces only (a smoke run)\n"
    "  --mem MODEL     memory model: detailed (default) or perfect (isolates the SM core)\n"
    "  --preload       read each suite workload's stream into memory before simulating it (for profiling)\n"
    "  --repeat N      run every item N times (1..16, default 1) and report the fastest run\n"
    "  -h, --help      this text\n";

int main(int argc, char **argv)
{
    ge_startup_reexec(argv); /* as gpuest does (common/startup_env.h) */
    const char *configs[8];
    int ncfg = 0, quick = 0, preload = 0;
    long long rep;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--config") && i + 1 < argc && ncfg < 8)
            configs[ncfg++] = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--preload"))
            preload = 1;
        else if (!strcmp(argv[i], "--mem") && i + 1 < argc)
            mem_model = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc && bench_num(argv[i + 1], 1, BENCH_MAX_REPEAT, &rep))
            repeat = (int)rep, i++;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    if (!ncfg) {
        configs[ncfg++] = "v100";
        configs[ncfg++] = "gtx480";
    }
    const char *shared = getenv("GPUEST_SHARED");
    if (!shared)
        shared = "../shared";
    ge_err e;
    printf("%-8s %-22s %-7s %8s %12s %12s %8s %6s %5s %9s %12s\n", "config", "item", "class", "kernels",
           "warp_insts", "cycles", "ipc", "dram", "busy", "cpu_s", "winst/s");
    for (int c = 0; c < ncfg; c++) {
        group groups[G_COUNT];
        memset(groups, 0, sizeof groups);
        /* synthetic */
        for (int stream = 0; stream < 2; stream++) {
            const char *name = stream ? "synth_stream" : "synth_fma";
            if (only && strcmp(only, name))
                continue;
            msrc m;
            memset(&m, 0, sizeof m);
            uint32_t ctas = quick ? 64 : 640, iters = quick ? 16 : (stream ? 64 : 128);
            if (synth_build(&m, stream, ctas, iters, &e) || run_loaded(configs[c], name, &m, groups, &e)) {
                fprintf(stderr, "bench_sim: %s on %s: %s\n", name, configs[c], e.msg);
                msrc_free(&m);
                return 1;
            }
            msrc_free(&m);
        }
        /* shared traces */
        const char *traces[] = {"vectoradd_sm80", "vectoradd_sm61"};
        for (int t = 0; t < 2; t++) {
            if (only && strcmp(only, traces[t]))
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/data/traces/%s", shared, traces[t]);
            ws_source *src;
            msrc m;
            memset(&m, 0, sizeof m);
            if (accelsim_open(path, &src, &e)) {
                fprintf(stderr, "bench_sim: %s (skipped)\n", e.msg);
                continue;
            }
            int rc = msrc_load(&m, src, &e);
            ws_close(src);
            if (rc || run_loaded(configs[c], traces[t], &m, groups, &e)) {
                fprintf(stderr, "bench_sim: %s on %s: %s\n", traces[t], configs[c], e.msg);
                msrc_free(&m);
                return 1;
            }
            msrc_free(&m);
        }
        if (!quick)
            for (const wl_desc *const *w = suite_all(); *w; w++) {
                if (only && strcmp(only, (*w)->name))
                    continue;
                if (run_suite(configs[c], *w, preload, groups, &e)) {
                    fprintf(stderr, "bench_sim: %s on %s: %s\n", (*w)->name, configs[c], e.msg);
                    return 1;
                }
            }
        for (int gi = 0; gi < G_COUNT; gi++) {
            char label[40];
            snprintf(label, sizeof label, "GROUP %s", group_names[gi]);
            printf("%-8s %-22s %-7s %8s %12.0f %12s %8s %6s %5s %9.3f %12.0f\n", configs[c], label, "", "",
                   groups[gi].insts, "", "", "", "", groups[gi].secs,
                   groups[gi].secs > 0 ? groups[gi].insts / groups[gi].secs : 0);
        }
    }
    return 0;
}
