/*
 * cmd_trace.c - `gpuest trace`: write Accel-Sim traces of a suite workload.
 *
 * The workload runs on the PTX emulator exactly as `gpuest run` runs it
 * (suite_source: driver in a producer thread, CTAs streamed one at a time)
 * and the stream is written by the Accel-Sim writer (kernelslist.g plus one
 * kernel-N.traceg[.xz] per launch, docs/traces.md).  PTX mnemonics that do
 * not name a SASS instruction are written with the canonical SASS mnemonic
 * of their op kind, so the trace reader gives back the same op kinds,
 * masks, registers and addresses: `gpuest stats DIR` equals `gpuest stats
 * WORKLOAD`.  The trace is only complete when the workload verified; a
 * failed verification is an error (exit 1).  Progress (CTAs of the current
 * kernel) goes to stderr on a terminal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "accelsim.h"
#include "progress.h"
#include "suite.h"
#include "suite_source.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest trace WORKLOAD -o DIR [--size N | --tiny] [--seed S] [--xz]\n"
            "\n"
            "Run a workload of the suite on the PTX emulator and write its warp stream as\n"
            "Accel-Sim traces: DIR/kernelslist.g and one DIR/kernel-N.traceg per launch.\n"
            "The trace reads back with the same statistics (gpuest stats DIR).\n"
            "\n"
            "  WORKLOAD    a name from 'gpuest workloads'\n"
            "  -o DIR      output directory (created if needed)\n"
            "  --size N    problem size (0 = the workload's default size)\n"
            "  --tiny      use the workload's tiny size\n"
            "  --seed S    input seed (default 1)\n"
            "  --xz        compress kernel files (kernel-N.traceg.xz)\n"
            "  -h, --help  show this help\n");
}

/* Progress on stderr: the writer pulls CTAs through this source, which
 * counts them per kernel. */
typedef struct prog_src {
    ws_source base;
    ws_source *in;
    progress pr;
    uint64_t ctas;
    char label[128];
} prog_src;

static int pg_next_event(ws_source *s, ws_event *ev, ge_err *e)
{
    prog_src *p = (prog_src *)s;
    int r = ws_next_event(p->in, ev, e);
    if (r == 1 && ev->kind == WS_EV_KERNEL) {
        progress_done(&p->pr);
        snprintf(p->label, sizeof p->label, "tracing kernel %u (%.60s), CTAs", ev->kernel.id, ev->kernel.name);
        progress_begin(&p->pr, p->label, ws_kernel_nctas(&ev->kernel));
        p->ctas = 0;
    }
    return r;
}

static int pg_next_cta(ws_source *s, ws_cta *c, ge_err *e)
{
    prog_src *p = (prog_src *)s;
    int r = ws_next_cta(p->in, c, e);
    if (r == 1)
        progress_update(&p->pr, ++p->ctas);
    return r;
}

static const ws_source_ops prog_ops = {"progress", pg_next_event, pg_next_cta, NULL, NULL};

int cmd_trace(int argc, char **argv)
{
    const char *name = NULL, *dir = NULL;
    uint64_t size = 0, seed = 1;
    int xz = 0, tiny = 0, have_size = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--xz")) {
            xz = 1;
        } else if (!strcmp(a, "--tiny")) {
            tiny = 1;
        } else if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gpuest trace: -o needs a directory\n");
                return 2;
            }
            dir = argv[++i];
        } else if (!strcmp(a, "--size") || !strcmp(a, "--seed")) {
            uint64_t v;
            if (i + 1 >= argc || cli_parse_u64(argv[i + 1], !strcmp(a, "--size") ? UINT32_MAX : UINT64_MAX, &v)) {
                fprintf(stderr, "gpuest trace: %s needs a non-negative integer\n", a);
                return 2;
            }
            if (!strcmp(a, "--size"))
                size = v, have_size = 1;
            else
                seed = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "gpuest trace: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "gpuest trace: one workload at a time ('%s' and '%s')\n", name, a);
            return 2;
        }
    }
    if (!name || !dir) {
        usage(stderr);
        return 2;
    }
    if (tiny && have_size) {
        fprintf(stderr, "gpuest trace: --tiny and --size are exclusive\n");
        return 2;
    }
    const wl_desc *w = suite_find(name);
    if (!w) {
        fprintf(stderr, "gpuest trace: unknown workload '%s' (see gpuest workloads)\n", name);
        return 2;
    }
    wl_params p = {(uint32_t)(tiny ? w->tiny_size : size), seed};
    ge_err e = {{0}};
    ws_source *src;
    if (suite_source_open(w, &p, &src, &e)) {
        fprintf(stderr, "gpuest trace: %s\n", e.msg);
        return 1;
    }
    prog_src ps;
    memset(&ps, 0, sizeof ps);
    ps.base.ops = &prog_ops;
    ps.in = src;
    progress_begin(&ps.pr, "tracing", 0);
    int rc = accelsim_write_stream(&ps.base, dir, xz, &e);
    progress_done(&ps.pr);
    ws_close(src);
    if (rc) {
        fprintf(stderr, "gpuest trace: %s\n", e.msg);
        return 1;
    }
    return 0;
}
