/*
 * cmd_power.c - `gpuest power`: where a config's power numbers come from,
 * and power from activity counters.
 *
 *   gpuest power --config C            operating points, energy per event
 *                                      (with sources), CACTI requests,
 *                                      leakage per structure
 *   gpuest power --config C --activity FILE.csv
 *                                      power of each row of an activity CSV
 *                                      (the columns of act_csv_header():
 *                                      counters, lanes_<op>, and optionally
 *                                      warps_<op> and a text `name` column),
 *                                      e.g. measured counters mapped to
 *                                      gpuest's names
 *
 * All modelling is in power/; this file parses options, reads the CSV and
 * formats output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_registry.h"
#include "json.h"
#include "power.h"

#define CMD "gpuest power"

static void usage(FILE *f)
{
    char names[256];
    gcfg_embedded_names(names, sizeof names);
    fprintf(f,
            "usage: gpuest power --config NAME|FILE [--dvfs I] [--json]\n"
            "       gpuest power --config NAME|FILE --activity FILE.csv [--dvfs I] [--json|--csv]\n"
            "\n"
            "Without --activity: the power model of the config - its operating points,\n"
            "the energy of every event with its source, the CACTI request behind every\n"
            "array, and the leakage of every structure.\n"
            "\n"
            "  --config C       shipped config (%s) or a config file\n"
            "  --activity FILE  evaluate the power of each row of an activity CSV: a header\n"
            "                   of counter names as written by gpuest (cycles, warp_insts,\n"
            "                   l1_read_hits, ..., lanes_<op>), optionally warps_<op> columns\n"
            "                   and a text column `name`; `cycles` must be positive\n"
            "  --dvfs I         with --activity: evaluate at the config's power.dvfs point I\n"
            "                   (0-based); default: gpu.core_clock_mhz at power.vdd_v.  The\n"
            "                   model listing is always at that nominal point\n"
            "  --json           JSON instead of tables\n"
            "  --csv            with --activity: one CSV row per input row\n"
            "  -h, --help       this text\n"
            "\n"
            "Exit status: 0 ok, 1 invalid input or I/O error, 2 usage error.\n",
            names);
}

static int fail(const char *msg)
{
    fprintf(stderr, "%s: %s\n", CMD, msg);
    return 1;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", CMD);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try gpuest power --help)\n");
    return 2;
}

/* ---- activity CSV ---- */

enum { COL_NAME = -1, COL_ACT = 0, COL_LANES = 1, COL_WARPS = 2 };

typedef struct {
    int kind, idx;
} column;

static int map_column(const char *h, column *c)
{
    if (!strcmp(h, "name")) {
        c->kind = COL_NAME;
        return 0;
    }
    for (int i = 0; i < ACT_COUNT; i++)
        if (!strcmp(h, act_names[i])) {
            c->kind = COL_ACT;
            c->idx = i;
            return 0;
        }
    const char *pre[] = {"lanes_", "warps_"};
    for (int p = 0; p < 2; p++) {
        size_t n = strlen(pre[p]);
        if (!strncmp(h, pre[p], n)) {
            int k = isa_op_by_name(h + n);
            if (k >= 0) {
                c->kind = p ? COL_WARPS : COL_LANES;
                c->idx = k;
                return 0;
            }
        }
    }
    return -1;
}

/* Split a CSV line in place (no quoting: names and numbers only). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line;; p++) {
        if (n == max)
            return -1;
        f[n++] = p;
        p += strcspn(p, ",");
        if (*p != ',')
            break;
        *p = '\0';
    }
    return n;
}

#define MAX_COLS (ACT_COUNT + 2 * ISA_OP_COUNT + 8)

typedef struct {
    const pwr_model *m;
    int dvfs, json, csv;
    json_w j;
} out_ctx;

static int emit(out_ctx *o, const char *label, const pwr_result *r, ge_err *e)
{
    if (o->json) {
        json_obj_begin(&o->j);
        json_kstr(&o->j, "name", label);
        pwr_json(&o->j, r);
        json_obj_end(&o->j);
    } else if (o->csv) {
        fputc('"', stdout);
        for (const char *p = label; *p; p++) {
            if (*p == '"')
                fputc('"', stdout);
            fputc(*p, stdout);
        }
        fputs("\",", stdout);
        pwr_csv_row(r, stdout);
    } else {
        printf("%s\n", label);
        if (pwr_print(r, stdout, e))
            return -1;
        putchar('\n');
    }
    return 0;
}

static int run_activity(out_ctx *o, const char *path)
{
    FILE *f = fopen(path, "r");
    char msg[GE_ERR_MAX + 300];
    if (!f) {
        snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
        return fail(msg);
    }
    char *line = NULL, *fields[MAX_COLS];
    size_t cap = 0;
    column cols[MAX_COLS];
    int ncol = 0, lineno = 0, rc = 0;
    ge_err e = {{0}};
    if (getline(&line, &cap, f) < 0) {
        snprintf(msg, sizeof msg, "%s: empty file (expected a header line)", path);
        rc = fail(msg);
        goto done;
    }
    lineno = 1;
    ncol = split(line, fields, MAX_COLS);
    if (ncol < 0) {
        snprintf(msg, sizeof msg, "%s:1: more than %d columns", path, MAX_COLS);
        rc = fail(msg);
        goto done;
    }
    for (int i = 0; i < ncol; i++)
        if (map_column(fields[i], &cols[i])) {
            snprintf(msg, sizeof msg, "%s:1: unknown column '%.100s' (expected counter names, lanes_<op>, "
                                      "warps_<op> or name)", path, fields[i]);
            rc = fail(msg);
            goto done;
        }
    if (o->json) {
        json_init(&o->j, stdout);
        json_arr_begin(&o->j);
    } else if (o->csv) {
        fputs("name,", stdout);
        pwr_csv_header(stdout);
    }
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        int n = split(line, fields, MAX_COLS);
        if (n != ncol) {
            snprintf(msg, sizeof msg, "%s:%d: %d fields, header has %d", path, lineno, n, ncol);
            rc = fail(msg);
            goto done;
        }
        act_counters a;
        act_clear(&a);
        char label[64];
        snprintf(label, sizeof label, "row %d", lineno - 1);
        for (int i = 0; i < n; i++) {
            if (cols[i].kind == COL_NAME) {
                snprintf(label, sizeof label, "%s", fields[i]);
                continue;
            }
            char *end;
            double v = strtod(fields[i], &end);
            if (end == fields[i] || *end) {
                snprintf(msg, sizeof msg, "%s:%d: column %d: '%.60s' is not a number", path, lineno, i + 1,
                         fields[i]);
                rc = fail(msg);
                goto done;
            }
            double *dst = cols[i].kind == COL_ACT     ? &a.c[cols[i].idx]
                          : cols[i].kind == COL_LANES ? &a.op_lanes[cols[i].idx]
                                                      : &a.op_warps[cols[i].idx];
            *dst = v;
        }
        pwr_result r;
        if (pwr_eval(o->m, &a, 0, o->dvfs, &r, &e) || emit(o, label, &r, &e)) {
            snprintf(msg, sizeof msg, "%s:%d: %s", path, lineno, e.msg);
            rc = fail(msg);
            goto done;
        }
    }
    if (ferror(f)) {
        snprintf(msg, sizeof msg, "%s: read error", path);
        rc = fail(msg);
        goto done;
    }
    if (o->json) {
        json_arr_end(&o->j);
        json_end(&o->j);
    }
done:
    free(line);
    fclose(f);
    return rc;
}

int cmd_power(int argc, char **argv)
{
    const char *config = NULL, *activity = NULL;
    int json = 0, csv = 0, dvfs = PWR_NOMINAL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if (!strcmp(a, "--config") || !strcmp(a, "--activity") || !strcmp(a, "--dvfs")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--config"))
                config = v;
            else if (!strcmp(a, "--activity"))
                activity = v;
            else {
                char *end;
                long d = strtol(v, &end, 10);
                if (end == v || *end || d < 0 || d > GCFG_MAX_DVFS)
                    return usage_error("--dvfs: '%s' is not a DVFS point index", v);
                dvfs = (int)d;
            }
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (!config)
        return usage_error("%s", "--config is required");
    if (json && csv)
        return usage_error("%s", "--json and --csv exclude each other");
    if (csv && !activity)
        return usage_error("%s", "--csv needs --activity");

    gpu_config cfg;
    ge_err e = {{0}};
    if (gcfg_load_named(config, &cfg, &e))
        return fail(e.msg);
    pwr_model *m = pwr_create(&cfg, &e);
    if (!m)
        return fail(e.msg);
    double f, v;
    if (pwr_point(m, dvfs, &f, &v)) {
        pwr_free(m);
        char msg[160];
        snprintf(msg, sizeof msg, "--dvfs %d: the config has %u DVFS points", dvfs, cfg.power.ndvfs);
        return fail(msg);
    }
    int rc = 0;
    out_ctx o = {.m = m, .dvfs = dvfs, .json = json, .csv = csv};
    if (activity) {
        rc = run_activity(&o, activity);
    } else if (json) {
        json_w j;
        json_init(&j, stdout);
        json_obj_begin(&j);
        pwr_describe_json(m, &j);
        json_obj_end(&j);
        json_end(&j);
    } else if (pwr_describe(m, stdout, &e)) {
        rc = fail(e.msg);
    }
    pwr_free(m);
    if (!rc && fflush(stdout))
        rc = fail("error writing output");
    return rc;
}
