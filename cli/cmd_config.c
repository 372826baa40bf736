/*
 * cmd_config.c - `gpuest config`: list, show, check and import GPU configs.
 *
 *   list                      the configs compiled into this binary
 *   show NAME|FILE            the resolved configuration: loadable libconfig
 *                             (default), --json, or a --table for people
 *   check NAME|FILE...        validate; every file is checked, exit 1 if any fails
 *   import-gpgpusim CFG [TRACE]
 *                             convert a GPGPU-Sim/Accel-Sim config; the config
 *                             goes to stdout (or -o FILE), the mapping report
 *                             to stderr
 *
 * The work is done by common/ (gpu_config.c, config_registry.c,
 * gpgpusim_import.c); this file only parses options and formats output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "gpgpusim_import.h"
#include "gpu_config.h"
#include "json.h"
#include "table.h"

#define CMD "gpuest config"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuest config list [--json|--csv]\n"
            "       gpuest config show NAME|FILE [--json|--table]\n"
            "       gpuest config check NAME|FILE...\n"
            "       gpuest config import-gpgpusim GPGPUSIM.config [TRACE.config] [-o FILE] [--name TEXT]\n"
            "                                     [-v|--verbose] [-q|--quiet]\n"
            "\n"
            "NAME is a shipped config compiled into gpuest (see `gpuest config list`);\n"
            "anything that exists as a file is read from disk instead.\n"
            "\n"
            "list             shipped configs with their headline figures (table; --json, --csv)\n"
            "show             the resolved configuration with every default filled in:\n"
            "                   (default) libconfig text that gpuest loads again\n"
            "                   --json    the same as JSON, plus derived peak figures\n"
            "                   --table   key, value and meaning, aligned for reading\n"
            "check            validate each config; prints 'ok NAME' or the error; exit 1 if any fails\n"
            "import-gpgpusim  convert GPGPU-Sim/Accel-Sim option files (gpgpusim.config, and\n"
            "                 optionally trace.config whose options override) into a gpuest config\n"
            "                   -o FILE        write the config to FILE instead of stdout\n"
            "                   --name TEXT    set the config's name (default: from the path)\n"
            "                   -v, --verbose  also report every mapped value on stderr\n"
            "                   -q, --quiet    no report on stderr (errors still print)\n"
            "                 The report lists what was mapped, derived, approximated, defaulted\n"
            "                 (and from where) and every option that could not be mapped.\n"
            "\n"
            "Exit status: 0 ok, 1 invalid input or I/O error, 2 usage error.\n");
}

static int fail(const ge_err *e)
{
    fprintf(stderr, "%s: %s\n", CMD, e->msg);
    return 1;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", CMD);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try gpuest config --help)\n");
    return 2;
}

/* ---- list ---- */

static int cmd_list(int argc, char **argv)
{
    int json = 0, csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--csv"))
            csv = 1;
        else
            return usage_error("list: unexpected argument '%s'", argv[i]);
    }
    static const char *const cols[] = {"config", "gpu", "arch", "SMs", "core MHz", "FP32 GFLOP/s", "DRAM GB/s",
                                       "L2 KB", "TDP W"};
    table t;
    ge_err e;
    if (table_init(&t, 9, cols, &e))
        return fail(&e);
    json_w j;
    if (json) {
        json_init(&j, stdout);
        json_arr_begin(&j);
    }
    int rc = 0;
    gpu_config *c = malloc(sizeof *c);
    if (!c) {
        table_free(&t);
        fprintf(stderr, "%s: out of memory\n", CMD);
        return 1;
    }
    for (size_t i = 0; i < gcfg_embedded_count && rc == 0; i++) {
        const gcfg_embedded *emb = &gcfg_embedded_configs[i];
        if (gcfg_load_named(emb->name, c, &e)) {
            rc = fail(&e);
            break;
        }
        double l2kb = (double)c->l2.cache.size_bytes * c->l2.slices / 1024.0;
        if (json) {
            json_obj_begin(&j);
            json_kstr(&j, "config", emb->name);
            json_kstr(&j, "name", c->name);
            json_kstr(&j, "arch", c->gpu.arch);
            json_kuint(&j, "sm_count", c->gpu.sm_count);
            json_knum(&j, "core_clock_mhz", c->gpu.core_clock_mhz);
            json_knum(&j, "fp32_peak_gflops", gcfg_fp32_peak_gflops(c));
            json_knum(&j, "dram_peak_gbs", gcfg_dram_bandwidth_gbs(c));
            json_knum(&j, "l2_kb", l2kb);
            json_knum(&j, "tdp_w", c->power.tdp_w);
            json_obj_end(&j);
            continue;
        }
        if (table_add_row(&t, &e)) {
            rc = fail(&e);
            break;
        }
        table_set(&t, 0, emb->name);
        table_set(&t, 1, c->name);
        table_set(&t, 2, c->gpu.arch);
        table_setf(&t, 3, "%u", c->gpu.sm_count);
        table_setf(&t, 4, "%.0f", c->gpu.core_clock_mhz);
        table_setf(&t, 5, "%.0f", gcfg_fp32_peak_gflops(c));
        table_setf(&t, 6, "%.1f", gcfg_dram_bandwidth_gbs(c));
        table_setf(&t, 7, "%.0f", l2kb);
        table_setf(&t, 8, "%.0f", c->power.tdp_w);
    }
    if (rc == 0) {
        if (json) {
            json_arr_end(&j);
            json_end(&j);
        } else if (csv) {
            table_print_csv(&t, stdout);
        } else {
            table_print(&t, stdout);
        }
    }
    free(c);
    table_free(&t);
    return rc;
}

/* ---- show ---- */

static void show_json(const gpu_config *c)
{
    json_w j;
    json_init(&j, stdout);
    json_obj_begin(&j);
    json_kstr(&j, "source", c->source);
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    char open[8][48];
    int nopen = 0;
    for (size_t i = 0; i < n; i++) {
        const gcfg_key *k = &ks[i];
        /* split "a.b.c" into groups a, b and leaf c */
        char comps[8][48];
        int nc = 0;
        const char *p = k->path, *dot;
        while ((dot = strchr(p, '.')) && nc < 8) {
            snprintf(comps[nc++], sizeof comps[0], "%.*s", (int)(dot - p), p);
            p = dot + 1;
        }
        int keep = 0;
        while (keep < nopen && keep < nc && !strcmp(open[keep], comps[keep]))
            keep++;
        while (nopen > keep) {
            json_obj_end(&j);
            nopen--;
        }
        while (nopen < nc) {
            json_key(&j, comps[nopen]);
            json_obj_begin(&j);
            strcpy(open[nopen], comps[nopen]);
            nopen++;
        }
        if (k->type == GCFG_STRING)
            json_kstr(&j, p, gcfg_get_str(c, k));
        else
            json_knum(&j, p, gcfg_get_num(c, k));
        if (!strcmp(k->path, "power.lane_static")) {
            json_key(&j, "dvfs");
            json_arr_begin(&j);
            for (uint32_t d = 0; d < c->power.ndvfs; d++) {
                json_obj_begin(&j);
                json_knum(&j, "freq_mhz", c->power.dvfs[d].freq_mhz);
                json_knum(&j, "vdd_v", c->power.dvfs[d].vdd_v);
                json_obj_end(&j);
            }
            json_arr_end(&j);
        }
    }
    while (nopen-- > 0)
        json_obj_end(&j);
    json_key(&j, "derived");
    json_obj_begin(&j);
    json_knum(&j, "fp32_peak_gflops", gcfg_fp32_peak_gflops(c));
    json_knum(&j, "dram_peak_gbs", gcfg_dram_bandwidth_gbs(c));
    json_knum(&j, "l2_total_bytes", (double)c->l2.cache.size_bytes * c->l2.slices);
    json_knum(&j, "l1_shared_unified_bytes", (double)c->l1d.size_bytes + c->sm.shared_bytes);
    json_obj_end(&j);
    json_obj_end(&j);
    json_end(&j);
}

static int show_table(const gpu_config *c)
{
    static const char *const cols[] = {"key", "value", "meaning"};
    table t;
    ge_err e;
    if (table_init(&t, 3, cols, &e))
        return fail(&e);
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    for (size_t i = 0; i < n; i++) {
        if (table_add_row(&t, &e)) {
            table_free(&t);
            return fail(&e);
        }
        table_set(&t, 0, ks[i].path);
        if (ks[i].type == GCFG_STRING)
            table_set(&t, 1, gcfg_get_str(c, &ks[i]));
        else
            table_setf(&t, 1, "%.10g", gcfg_get_num(c, &ks[i]));
        table_set(&t, 2, ks[i].help);
    }
    for (uint32_t d = 0; d < c->power.ndvfs; d++) {
        if (table_add_row(&t, &e)) {
            table_free(&t);
            return fail(&e);
        }
        table_setf(&t, 0, "power.dvfs[%u]", d);
        table_setf(&t, 1, "%g MHz @ %g V", c->power.dvfs[d].freq_mhz, c->power.dvfs[d].vdd_v);
        table_set(&t, 2, "voltage/frequency point");
    }
    table_print(&t, stdout);
    printf("\nderived: FP32 peak %.0f GFLOP/s, DRAM peak %.1f GB/s, L2 %.0f KB\n", gcfg_fp32_peak_gflops(c),
           gcfg_dram_bandwidth_gbs(c), (double)c->l2.cache.size_bytes * c->l2.slices / 1024.0);
    table_free(&t);
    return 0;
}

static int cmd_show(int argc, char **argv)
{
    const char *what = NULL;
    int json = 0, tab = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--table"))
            tab = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage_error("show: unknown option '%s'", argv[i]);
        else if (what)
            return usage_error("show: more than one config given ('%s')", argv[i]);
        else
            what = argv[i];
    }
    if (!what)
        return usage_error("show: which config?%s", "");
    if (json && tab)
        return usage_error("show: --json and --table exclude each other%s", "");
    gpu_config *c = malloc(sizeof *c);
    ge_err e;
    int rc = 0;
    if (!c) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return 1;
    }
    if (gcfg_load_named(what, c, &e))
        rc = fail(&e);
    else if (json)
        show_json(c);
    else if (tab)
        rc = show_table(c);
    else
        gcfg_write(c, stdout);
    free(c);
    return rc;
}

/* ---- check ---- */

static int cmd_check(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("check: which configs?%s", "");
    gpu_config *c = malloc(sizeof *c);
    if (!c) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return 1;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        ge_err e;
        if (argv[i][0] == '-' && argv[i][1]) {
            free(c);
            return usage_error("check: unknown option '%s'", argv[i]);
        }
        if (gcfg_load_named(argv[i], c, &e))
            rc = fail(&e);
        else
            printf("ok %s (%s)\n", argv[i], c->name);
    }
    free(c);
    return rc;
}

/* ---- import-gpgpusim ---- */

static int cmd_import(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *out = NULL, *name = NULL;
    int nfiles = 0, verbose = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--name")) {
            if (i + 1 >= argc)
                return usage_error("import-gpgpusim: %s needs a value", a);
            *(a[1] == 'o' ? &out : &name) = argv[++i];
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("import-gpgpusim: unknown option '%s'", a);
        } else if (nfiles == 2) {
            return usage_error("import-gpgpusim: too many files ('%s')", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (!nfiles)
        return usage_error("import-gpgpusim: which gpgpusim.config?%s", "");
    gpu_config *c = malloc(sizeof *c);
    if (!c) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return 1;
    }
    ggs_report rep;
    ge_err e;
    if (ggs_import_files(files[0], files[1], c, &rep, &e)) {
        free(c);
        return fail(&e);
    }
    if (name && gcfg_set(c, "name", name, &e)) {
        free(c);
        ggs_report_free(&rep);
        return fail(&e);
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    int rc = 0;
    if (!f) {
        fprintf(stderr, "%s: %s: cannot write\n", CMD, out);
        rc = 1;
    } else {
        fprintf(f, "# Imported by `gpuest config import-gpgpusim` from %s%s%s.\n", files[0], files[1] ? " + " : "",
                files[1] ? files[1] : "");
        fprintf(f, "# Provenance of every value (mapped/derived/approx: from the file; defaulted: not in it):\n");
        for (size_t i = 0; i < rep.n; i++)
            fprintf(f, "#   %s: %s\n", ggs_kind_names[rep.v[i].kind], rep.v[i].text);
        gcfg_write(c, f);
        if (fflush(f) || ferror(f)) {
            fprintf(stderr, "%s: %s: write error\n", CMD, out ? out : "stdout");
            rc = 1;
        }
        if (out && fclose(f)) {
            fprintf(stderr, "%s: %s: write error\n", CMD, out);
            rc = 1;
        }
    }
    if (!quiet) {
        for (size_t i = 0; i < rep.n; i++)
            if (verbose || (rep.v[i].kind != GGS_MAPPED && rep.v[i].kind != GGS_DERIVED))
                fprintf(stderr, "%s: %s: %s\n", CMD, ggs_kind_names[rep.v[i].kind], rep.v[i].text);
        fprintf(stderr, "%s: %s: %zu mapped, %zu derived, %zu approximated, %zu defaulted, %zu not mapped%s\n", CMD,
                files[0], ggs_report_count(&rep, GGS_MAPPED), ggs_report_count(&rep, GGS_DERIVED),
                ggs_report_count(&rep, GGS_APPROX), ggs_report_count(&rep, GGS_DEFAULTED),
                ggs_report_count(&rep, GGS_NOT_MAPPED), verbose ? "" : " (-v lists the mapped values)");
    }
    ggs_report_free(&rep);
    free(c);
    return rc;
}

int cmd_config(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        usage(stdout);
        return 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    if (!strcmp(sub, "list"))
        return cmd_list(argc - 1, argv + 1);
    if (!strcmp(sub, "show"))
        return cmd_show(argc - 1, argv + 1);
    if (!strcmp(sub, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(sub, "import-gpgpusim"))
        return cmd_import(argc - 1, argv + 1);
    return usage_error("unknown subcommand '%s'", sub);
}
