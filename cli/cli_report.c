/*
 * cli_report.c - see cli_report.h.
 *
 * Per kernel: name, grid, block, cycles, warp and thread instructions, IPC
 * (warp instructions per cycle, whole GPU), the CPI stack as fractions of
 * scheduler-cycles (common/kresult.h defines the categories), L1 and L2
 * load hit rates, DRAM row-buffer hit rate, DRAM bandwidth utilisation,
 * average global-load latency, occupancy, and (JSON/CSV) every activity
 * counter of common/activity.h (CSV columns act_<name> and lanes_<kind>).
 * The table shows the headline numbers only.
 */
#include <math.h>
#include <string.h>

#include "cli_report.h"
#include "table.h"

static double safe_div(double a, double b) { return b > 0 ? a / b : 0; }

static double l1_weight(const kresult *k) { return k->act.c[ACT_L1_READ_HITS] + k->act.c[ACT_L1_READ_MISSES]; }
static double l2_weight(const kresult *k) { return k->act.c[ACT_L2_READ_HITS] + k->act.c[ACT_L2_READ_MISSES]; }
static double dram_weight(const kresult *k) { return k->act.c[ACT_DRAM_READS] + k->act.c[ACT_DRAM_WRITES]; }
static double load_weight(const kresult *k)
{
    return k->act.op_warps[ISA_OP_LD_GLOBAL] + k->act.op_warps[ISA_OP_LD_LOCAL] + k->act.op_warps[ISA_OP_ATOM_GLOBAL];
}

void cli_report_total(const kresult *k, size_t n, kresult *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "total");
    double w[6] = {0};
    for (size_t i = 0; i < n; i++) {
        const kresult *r = &k[i];
        t->ctas += r->ctas;
        t->cycles += r->cycles;
        t->warp_insts += r->warp_insts;
        t->thread_insts += r->thread_insts;
        for (int s = 0; s < KR_STALL_COUNT; s++)
            t->stall[s] += r->stall[s];
        act_add(&t->act, &r->act);
        t->l1_hit_rate += r->l1_hit_rate * l1_weight(r);
        w[0] += l1_weight(r);
        t->l2_hit_rate += r->l2_hit_rate * l2_weight(r);
        w[1] += l2_weight(r);
        t->dram_row_hit_rate += r->dram_row_hit_rate * dram_weight(r);
        w[2] += dram_weight(r);
        t->avg_mem_latency += r->avg_mem_latency * load_weight(r);
        w[3] += load_weight(r);
        t->dram_bw_util += r->dram_bw_util * r->cycles;
        t->occupancy += r->occupancy * r->cycles;
        w[4] += r->cycles;
        t->sampled_ctas += r->sampled_ctas;
    }
    t->l1_hit_rate = safe_div(t->l1_hit_rate, w[0]);
    t->l2_hit_rate = safe_div(t->l2_hit_rate, w[1]);
    t->dram_row_hit_rate = safe_div(t->dram_row_hit_rate, w[2]);
    t->avg_mem_latency = safe_div(t->avg_mem_latency, w[3]);
    t->dram_bw_util = safe_div(t->dram_bw_util, w[4]);
    t->occupancy = safe_div(t->occupancy, w[4]);
}

static double stall_total(const kresult *k)
{
    double s = 0;
    for (int i = 0; i < KR_STALL_COUNT; i++)
        s += k->stall[i];
    return s;
}

static const char *const base_cols[] = {"kernel", "grid", "block", "cycles", "warp_insts", "ipc"};
#define NBASE 6
static const char *const rate_cols[] = {"l1_hit", "l2_hit", "row_hit", "bw_util", "mem_lat", "occupancy"};
#define NRATE 6

static void fmt_dim(char *buf, size_t cap, const uint32_t d[3]) { snprintf(buf, cap, "%u,%u,%u", d[0], d[1], d[2]); }

/* Fill row `row` of t with kernel k (i: its index or n for the total). */
static void fill_row(table *t, int row_is_total, const kresult *k, const cli_report *r, size_t i, int csv)
{
    int c = 0;
    char buf[64];
    table_set(t, c++, k->name);
    if (row_is_total) {
        table_set(t, c++, "");
        table_set(t, c++, "");
    } else {
        fmt_dim(buf, sizeof buf, k->grid);
        table_set(t, c++, buf);
        fmt_dim(buf, sizeof buf, k->block);
        table_set(t, c++, buf);
    }
    table_setf(t, c++, "%.0f", k->cycles);
    table_setf(t, c++, "%.0f", k->warp_insts);
    table_setf(t, c++, "%.3f", kr_ipc(k));
    double st = stall_total(k);
    for (int s = 0; s < KR_STALL_COUNT; s++)
        table_setf(t, c++, csv ? "%.6f" : "%.3f", safe_div(k->stall[s], st));
    double rates[NRATE] = {k->l1_hit_rate, k->l2_hit_rate, k->dram_row_hit_rate, k->dram_bw_util,
                           k->avg_mem_latency, k->occupancy};
    for (int j = 0; j < NRATE; j++)
        table_setf(t, c++, j == 4 ? "%.1f" : csv ? "%.6f" : "%.3f", rates[j]);
    if (r->extra)
        for (int j = 0; j < r->extra->ncols; j++) {
            double v = r->extra->value(r->extra->ctx, i, j);
            if (isnan(v))
                table_set(t, c++, "-");
            else
                table_setf(t, c++, "%.6g", v);
        }
    if (csv) {
        table_setf(t, c++, "%.0f", k->thread_insts);
        for (int a = 0; a < ACT_COUNT; a++)
            table_setf(t, c++, "%.10g", k->act.c[a]);
        for (int o = 0; o < ISA_OP_COUNT; o++)
            table_setf(t, c++, "%.10g", k->act.op_lanes[o]);
    }
}

static int build(const cli_report *r, int csv, table *t, ge_err *e)
{
    const char *cols[NBASE + KR_STALL_COUNT + NRATE + 64 + 1 + ACT_COUNT + ISA_OP_COUNT];
    char opnames[ISA_OP_COUNT][48], actnames[ACT_COUNT][48];
    int n = 0;
    for (int i = 0; i < NBASE; i++)
        cols[n++] = base_cols[i];
    for (int s = 0; s < KR_STALL_COUNT; s++)
        cols[n++] = kr_stall_names[s];
    for (int i = 0; i < NRATE; i++)
        cols[n++] = rate_cols[i];
    int nextra = r->extra ? r->extra->ncols : 0;
    if (nextra > 64)
        return ge_errf(e, "report: too many extra columns");
    for (int i = 0; i < nextra; i++)
        cols[n++] = r->extra->cols[i];
    if (csv) {
        cols[n++] = "thread_insts";
        for (int a = 0; a < ACT_COUNT; a++) { /* prefixed: some names (cycles...) are report columns too */
            snprintf(actnames[a], sizeof actnames[a], "act_%s", act_names[a]);
            cols[n++] = actnames[a];
        }
        for (int o = 0; o < ISA_OP_COUNT; o++) {
            snprintf(opnames[o], sizeof opnames[o], "lanes_%s", isa_ops[o].name);
            cols[n++] = opnames[o];
        }
    }
    if (table_init(t, n, cols, e))
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        if (table_add_row(t, e))
            return -1;
        fill_row(t, 0, &r->k[i], r, i, csv);
    }
    if (r->n != 1 || csv) {
        kresult tot;
        cli_report_total(r->k, r->n, &tot);
        if (table_add_row(t, e))
            return -1;
        fill_row(t, 1, &tot, r, r->n, csv);
    }
    return 0;
}

int cli_report_table(const cli_report *r, FILE *f, ge_err *e)
{
    table t;
    memset(&t, 0, sizeof t);
    int rc = build(r, 0, &t, e);
    if (rc == 0) {
        fprintf(f, "config: %s   workload: %s\n", r->config, r->workload);
        table_print(&t, f);
    }
    table_free(&t);
    return rc;
}

int cli_report_csv(const cli_report *r, FILE *f, ge_err *e)
{
    table t;
    memset(&t, 0, sizeof t);
    int rc = build(r, 1, &t, e);
    if (rc == 0)
        table_print_csv(&t, f);
    table_free(&t);
    return rc;
}

static void json_dim(json_w *j, const char *key, const uint32_t d[3])
{
    json_key(j, key);
    json_arr_begin(j);
    for (int i = 0; i < 3; i++)
        json_uint(j, d[i]);
    json_arr_end(j);
}

static void json_kernel(json_w *j, const kresult *k, const cli_report *r, size_t i, int total)
{
    json_obj_begin(j);
    json_kstr(j, "name", k->name);
    if (!total) {
        json_dim(j, "grid", k->grid);
        json_dim(j, "block", k->block);
    }
    json_kuint(j, "ctas", k->ctas);
    json_knum(j, "cycles", k->cycles);
    json_knum(j, "warp_instructions", k->warp_insts);
    json_knum(j, "thread_instructions", k->thread_insts);
    json_knum(j, "ipc", kr_ipc(k));
    json_key(j, "cpi_stack");
    json_obj_begin(j);
    double st = stall_total(k);
    for (int s = 0; s < KR_STALL_COUNT; s++)
        json_knum(j, kr_stall_names[s], safe_div(k->stall[s], st));
    json_obj_end(j);
    json_knum(j, "l1_hit_rate", k->l1_hit_rate);
    json_knum(j, "l2_hit_rate", k->l2_hit_rate);
    json_knum(j, "dram_row_hit_rate", k->dram_row_hit_rate);
    json_knum(j, "dram_bw_util", k->dram_bw_util);
    json_knum(j, "avg_mem_latency", k->avg_mem_latency);
    json_knum(j, "occupancy", k->occupancy);
    if (r->extra)
        for (int c = 0; c < r->extra->ncols; c++)
            json_knum(j, r->extra->cols[c], r->extra->value(r->extra->ctx, i, c));
    if (r->extra && r->extra->json)
        r->extra->json(r->extra->ctx, i, j);
    json_key(j, "activity");
    json_obj_begin(j);
    for (int a = 0; a < ACT_COUNT; a++)
        json_knum(j, act_names[a], k->act.c[a]);
    json_obj_end(j);
    json_key(j, "op_lanes");
    json_obj_begin(j);
    for (int o = 0; o < ISA_OP_COUNT; o++)
        if (k->act.op_lanes[o] || k->act.op_warps[o])
            json_knum(j, isa_ops[o].name, k->act.op_lanes[o]);
    json_obj_end(j);
    json_key(j, "op_warps");
    json_obj_begin(j);
    for (int o = 0; o < ISA_OP_COUNT; o++)
        if (k->act.op_warps[o])
            json_knum(j, isa_ops[o].name, k->act.op_warps[o]);
    json_obj_end(j);
    json_obj_end(j);
}

void cli_report_json(const cli_report *r, FILE *f)
{
    json_w j;
    json_init(&j, f);
    json_obj_begin(&j);
    json_kstr(&j, "config", r->config);
    json_kstr(&j, "workload", r->workload);
    json_key(&j, "kernels");
    json_arr_begin(&j);
    for (size_t i = 0; i < r->n; i++)
        json_kernel(&j, &r->k[i], r, i, 0);
    json_arr_end(&j);
    kresult tot;
    cli_report_total(r->k, r->n, &tot);
    json_key(&j, "total");
    json_kernel(&j, &tot, r, r->n, 1);
    json_obj_end(&j);
    json_end(&j);
}
