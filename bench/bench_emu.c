/*
 * bench_emu.c - emulation speed of the PTX front-end on the workload suite.
 *
 *   bench_emu [--tiny] [--csv] [--stream] [--size N] [NAME...]
 *
 * Every workload (or the NAMEs given) runs at its default, realistic size
 * on a fresh device and must verify against its CPU reference.  Reported
 * per workload and overall: warp and thread instructions, the time spent
 * inside launches (emulation only: input generation and the CPU reference
 * are excluded; wall and CPU time of the emulating thread), and the rates
 * in thread and warp instructions per CPU second (CPU time, so that other
 * processes sharing the cores do not distort the figure).
 * Emulation is single-threaded: launches run on the calling thread.
 * With --stream the run goes through suite_source, so every instruction is
 * also emitted into the warp stream (per-lane addresses included) and
 * handed to a consumer thread that discards it: the cost of tracing and of
 * feeding a profiler; its times are the whole run's and its CPU time sums
 * both threads.  Exit status 1 if any workload fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_help.h"
#include "gpurt.h"
#include "progress.h"
#include "suite.h"
#include "suite_source.h"
#include "table.h"

static int selected(const char *name, int argc, char **argv, int first)
{
    if (first >= argc)
        return 1;
    for (int i = first; i < argc; i++)
        if (!strcmp(argv[i], name))
            return 1;
    return 0;
}

typedef struct res {
    gpurt_stats st;
    double wall;
    int ok;
    char msg[GE_ERR_MAX];
} res;

static void run_direct(const wl_desc *w, const wl_params *p, res *r)
{
    ge_err e = {{0}};
    gpurt *d = gpurt_create(w->ptx, w->ptx_name, &e);
    if (!d || gpurt_set_resources(d, w->ptx_resources)) {
        snprintf(r->msg, sizeof r->msg, "%s", d ? gpurt_error(d) : e.msg);
        gpurt_destroy(d);
        return;
    }
    double t0 = ge_now();
    r->ok = w->run(d, p, &e) == 0;
    r->wall = ge_now() - t0;
    gpurt_get_stats(d, &r->st);
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
    gpurt_destroy(d);
}

static double process_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Through suite_source: the consumer counts and discards.  Times cover the
 * whole run (input generation and the CPU reference included), CPU time
 * summed over the producer and consumer threads. */
static void run_stream(const wl_desc *w, const wl_params *p, res *r)
{
    ge_err e = {{0}};
    ws_source *s;
    double t0 = ge_now(), c0 = process_cpu();
    if (suite_source_open(w, p, &s, &e)) {
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        return;
    }
    ws_event ev;
    ws_cta c;
    ws_cta_init(&c);
    int rc;
    while ((rc = ws_next_event(s, &ev, &e)) == 1) {
        if (ev.kind != WS_EV_KERNEL)
            continue;
        r->st.launches++;
        while ((rc = ws_next_cta(s, &c, &e)) == 1) {
            r->st.ctas++;
            r->st.warp_insts += c.ninst;
            for (size_t i = 0; i < c.ninst; i++)
                r->st.thread_insts += (uint64_t)__builtin_popcount(c.inst[i].mask);
        }
        if (rc < 0)
            break;
    }
    ws_cta_free(&c);
    ws_close(s);
    r->wall = r->st.launch_seconds = ge_now() - t0;
    r->st.launch_cpu_seconds = process_cpu() - c0; /* both threads */
    r->ok = rc == 0;
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
}

static const char HELP[] =
    "usage: bench_emu [options] [NAME...]\n"
    "\n"
    "Emulation speed of the PTX front-end: every suite workload (or the NAMEs) at its default size, verified\n"
    "against its CPU reference; thread and warp instructions per CPU second. Exit status 1 if any fails.\n"
    "\n"
    "  --tiny       the workloads' tiny sizes\n"
    "  --size N     this size for every workload (0 = its default)\n"
    "  --csv        CSV instead of the table\n"
    "  --stream     also emit every instruction into the warp stream, consumed by a thread that discards it\n"
    "               (the cost of tracing and of feeding a profiler)\n"
    "  -h, --help   this text\n";

int main(int argc, char **argv)
{
    int tiny = 0, csv = 0, stream = 0, i = 1;
    long long size = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (bench_help_arg(argv[i]))
            return bench_usage(HELP, NULL);
        if (!strcmp(argv[i], "--tiny"))
            tiny = 1;
        else if (!strcmp(argv[i], "--csv"))
            csv = 1;
        else if (!strcmp(argv[i], "--stream"))
            stream = 1;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc && bench_num(argv[i + 1], 0, UINT32_MAX, &size))
            i++;
        else {
            return bench_usage(HELP, argv[i]);
        }
    }
    for (int k = i; k < argc; k++)
        if (!suite_find(argv[k])) {
            fprintf(stderr, "bench_emu: unknown workload '%s'\n", argv[k]);
            return 2;
        }
    static const char *const cols[] = {"workload",     "size",        "launches",    "ctas",
                                       "warp_insts",   "thread_insts", "emu_wall_s", "emu_cpu_s",
                                       "Mthread_inst/s", "Mwarp_inst/s", "result"};
    table t;
    ge_err e = {{0}};
    if (table_init(&t, 11, cols, &e)) {
        fprintf(stderr, "bench_emu: %s\n", e.msg);
        return 1;
    }
    uint64_t tw = 0, tt = 0;
    double ts = 0;
    int failed = 0;
    for (const wl_desc *const *w = suite_all(); *w; w++) {
        if (!selected((*w)->name, argc, argv, i))
            continue;
        wl_params p = {tiny ? (*w)->tiny_size : size ? size : (*w)->default_size, 1};
        res r;
        memset(&r, 0, sizeof r);
        fprintf(stderr, "bench_emu: %s (size %u)...\n", (*w)->name, p.size);
        if (stream)
            run_stream(*w, &p, &r);
        else
            run_direct(*w, &p, &r);
        failed += !r.ok;
        if (table_add_row(&t, &e)) {
            fprintf(stderr, "bench_emu: %s\n", e.msg);
            return 1;
        }
        /* rates per CPU second: robust when other processes share the cores;
         * with --stream, the CPU time of the whole run, both threads */
        double s = r.st.launch_cpu_seconds;
        table_set(&t, 0, (*w)->name);
        table_setf(&t, 1, "%u", p.size);
        table_setf(&t, 2, "%llu", (unsigned long long)r.st.launches);
        table_setf(&t, 3, "%llu", (unsigned long long)r.st.ctas);
        table_setf(&t, 4, "%llu", (unsigned long long)r.st.warp_insts);
        table_setf(&t, 5, "%llu", (unsigned long long)r.st.thread_insts);
        table_setf(&t, 6, "%.3f", r.st.launch_seconds);
        table_setf(&t, 7, "%.3f", r.st.launch_cpu_seconds);
        table_setf(&t, 8, "%.1f", s > 0 ? r.st.thread_insts / s / 1e6 : 0);
        table_setf(&t, 9, "%.2f", s > 0 ? r.st.warp_insts / s / 1e6 : 0);
        table_set(&t, 10, r.ok ? "verified" : r.msg);
        tw += r.st.warp_insts, tt += r.st.thread_insts, ts += s;
    }
    if (table_add_row(&t, &e) == 0) {
        table_set(&t, 0, "total");
        table_setf(&t, 4, "%llu", (unsigned long long)tw);
        table_setf(&t, 5, "%llu", (unsigned long long)tt);
        table_setf(&t, 7, "%.3f", ts);
        table_setf(&t, 8, "%.1f", ts > 0 ? tt / ts / 1e6 : 0);
        table_setf(&t, 9, "%.2f", ts > 0 ? tw / ts / 1e6 : 0);
        table_set(&t, 10, failed ? "FAILED" : "all verified");
    }
    if (csv)
        table_print_csv(&t, stdout);
    else
        table_print(&t, stdout);
    table_free(&t);
    return failed ? 1 : 0;
}
