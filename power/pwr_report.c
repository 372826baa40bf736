/*
 * pwr_report.c - power results and the model itself as tables, JSON and
 * CSV.
 *
 * Results (per kernel, per window, or summed) print as an aligned
 * component table for people, a JSON fragment (keys power_w, energy_j, edp,
 * ed2p, seconds, power_breakdown_w) for machines, and CSV columns shared by
 * the per-kernel CSV and the --power-trace file so notebooks read both the
 * same way.  pwr_describe() is `gpuest power --config C`: the operating
 * points, every event energy with its source, every CACTI request and the
 * leakage per structure, so an architect can see where each watt comes
 * from.  Formatting only: no numbers are computed here except sums.
 */
#include <string.h>

#include "pwr_int.h"
#include "table.h"

void pwr_json(json_w *j, const pwr_result *r)
{
    json_knum(j, "power_w", r->total_w);
    json_knum(j, "energy_j", r->energy_j);
    json_knum(j, "edp", r->edp);
    json_knum(j, "ed2p", r->ed2p);
    json_knum(j, "seconds", r->seconds);
    json_knum(j, "dynamic_w", r->dynamic_w);
    json_knum(j, "freq_mhz", r->freq_mhz);
    json_knum(j, "vdd_v", r->vdd_v);
    json_key(j, "power_breakdown_w");
    json_obj_begin(j);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        json_knum(j, pwr_component_names[c], r->comp_w[c]);
    json_obj_end(j);
}

int pwr_print(const pwr_result *r, FILE *f, ge_err *e)
{
    static const char *const cols[] = {"component", "W", "%", "J"};
    table t;
    if (table_init(&t, 4, cols, e))
        return -1;
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++) {
        if (r->comp_w[c] == 0 && r->total_w != 0)
            continue;
        if (table_add_row(&t, e)) {
            table_free(&t);
            return -1;
        }
        table_set(&t, 0, pwr_component_names[c]);
        table_setf(&t, 1, "%.3f", r->comp_w[c]);
        table_setf(&t, 2, "%.1f", r->total_w > 0 ? 100.0 * r->comp_w[c] / r->total_w : 0.0);
        table_setf(&t, 3, "%.4g", r->comp_w[c] * r->seconds);
    }
    if (table_add_row(&t, e)) {
        table_free(&t);
        return -1;
    }
    table_set(&t, 0, "total");
    table_setf(&t, 1, "%.3f", r->total_w);
    table_set(&t, 2, "100.0");
    table_setf(&t, 3, "%.4g", r->energy_j);
    table_print(&t, f);
    table_free(&t);
    fprintf(f, "time %.6g s at %.0f MHz, %.3f V; energy %.6g J; EDP %.6g J*s; ED2P %.6g J*s^2\n",
            r->seconds, r->freq_mhz, r->vdd_v, r->energy_j, r->edp, r->ed2p);
    return 0;
}

void pwr_csv_header(FILE *f)
{
    fputs("total_w,energy_j,edp,ed2p", f);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        fprintf(f, ",%s_w", pwr_component_names[c]);
    fputc('\n', f);
}

static void csv_fields(const pwr_result *r, FILE *f)
{
    fprintf(f, "%.10g,%.10g,%.10g,%.10g", r->total_w, r->energy_j, r->edp, r->ed2p);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        fprintf(f, ",%.10g", r->comp_w[c]);
}

void pwr_csv_row(const pwr_result *r, FILE *f)
{
    csv_fields(r, f);
    fputc('\n', f);
}

void pwr_trace_header(FILE *f)
{
    fputs("start_cycle,time_s,cycles,", f);
    pwr_csv_header(f);
}

int pwr_trace_row(const pwr_model *m, uint64_t start_cycle, const act_counters *window, int dvfs,
                  FILE *f, ge_err *e)
{
    pwr_result r;
    if (pwr_eval(m, window, 0, dvfs, &r, e))
        return -1;
    fprintf(f, "%llu,%.10g,%.10g,", (unsigned long long)start_cycle,
            (double)start_cycle / (r.freq_mhz * 1e6), r.cycles);
    pwr_csv_row(&r, f);
    return 0;
}

/* ---- describing the model ---- */

static void src_name(const pwr_event *ev, char *buf, size_t cap)
{
    switch (ev->src) {
    case PWR_SRC_ACT:
        snprintf(buf, cap, "%s", act_names[ev->idx]);
        break;
    case PWR_SRC_LANES:
        snprintf(buf, cap, "lanes_%s", isa_ops[ev->idx].name);
        break;
    case PWR_SRC_WARPS:
        snprintf(buf, cap, "warps_%s", isa_ops[ev->idx].name);
        break;
    case PWR_SRC_IDLE_SM:
        snprintf(buf, cap, "idle SM-cycles");
        break;
    }
}

static int print_events(const pwr_model *m, FILE *f, ge_err *e)
{
    static const char *const cols[] = {"event", "component", "counted by", "pJ", "source"};
    table t;
    size_t n;
    const pwr_event *ev = pwr_events(m, &n);
    if (table_init(&t, 5, cols, e))
        return -1;
    for (size_t i = 0; i < n; i++) {
        char src[64];
        if (table_add_row(&t, e)) {
            table_free(&t);
            return -1;
        }
        src_name(&ev[i], src, sizeof src);
        table_set(&t, 0, ev[i].name);
        table_set(&t, 1, pwr_component_names[ev[i].comp]);
        table_set(&t, 2, src);
        table_setf(&t, 3, "%.4g", ev[i].energy_j * 1e12);
        table_set(&t, 4, ev[i].source);
    }
    table_print(&t, f);
    table_free(&t);
    return 0;
}

static int print_arrays(const pwr_model *m, FILE *f, ge_err *e)
{
    static const char *const cols[] = {"array",    "count", "read pJ",  "write pJ",
                                       "search pJ", "leak mW", "area mm2", "CACTI request"};
    table t;
    if (table_init(&t, 8, cols, e))
        return -1;
    for (size_t i = 0; i < pwr_array_count(m); i++) {
        pwr_array_info a;
        pwr_array_get(m, i, &a);
        if (a.count <= 0)
            continue;
        if (table_add_row(&t, e)) {
            table_free(&t);
            return -1;
        }
        table_set(&t, 0, a.name);
        table_setf(&t, 1, "%g", a.count);
        table_setf(&t, 2, "%.4g", a.read_j * 1e12);
        table_setf(&t, 3, "%.4g", a.write_j * 1e12);
        table_setf(&t, 4, "%.4g", a.search_j * 1e12);
        table_setf(&t, 5, "%.4g", a.leak_w * 1e3);
        table_setf(&t, 6, "%.4g", a.area_mm2);
        table_set(&t, 7, a.how);
    }
    table_print(&t, f);
    table_free(&t);
    return 0;
}

static int print_leaks(const pwr_model *m, FILE *f, ge_err *e)
{
    static const char *const cols[] = {"structure", "component", "W", "lane", "source"};
    table t;
    size_t n;
    const pwr_leak *lk = pwr_leaks(m, &n);
    if (table_init(&t, 5, cols, e))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (table_add_row(&t, e)) {
            table_free(&t);
            return -1;
        }
        table_set(&t, 0, lk[i].name);
        table_set(&t, 1, pwr_component_names[lk[i].comp]);
        table_setf(&t, 2, "%.4g", lk[i].watts);
        table_set(&t, 3, lk[i].lane ? "yes" : "");
        table_set(&t, 4, lk[i].source);
    }
    table_print(&t, f);
    table_free(&t);
    return 0;
}

int pwr_describe(const pwr_model *m, FILE *f, ge_err *e)
{
    const gpu_config *c = pwr_config(m);
    pwr_tech t;
    pwr_tech_init(&t, c);
    fprintf(f, "%s: %u nm (arrays solved by CACTI at %u nm, %.2f V ITRS-HP, then scaled), "
               "%.3f V, %.0f K, %u SMs, die %.0f mm^2\n",
            c->name, c->power.technology_nm, t.cacti_nm, t.cacti_vdd_v, c->power.vdd_v,
            c->power.temperature_k, c->gpu.sm_count, c->power.die_area_mm2);
    fprintf(f, "operating points: nominal %.0f MHz @ %.3f V", c->gpu.core_clock_mhz, c->power.vdd_v);
    for (uint32_t i = 0; i < c->power.ndvfs; i++)
        fprintf(f, "; [%u] %.0f MHz @ %.3f V", i, c->power.dvfs[i].freq_mhz, c->power.dvfs[i].vdd_v);
    fprintf(f, "\nenergies below are at the nominal point; at a DVFS point core energies scale "
               "with (V/Vnom)^2, leakage with V/Vnom\n\nEnergy per event\n");
    if (print_events(m, f, e))
        return -1;
    fprintf(f, "\nCACTI arrays (per instance)\n");
    if (print_arrays(m, f, e))
        return -1;
    fprintf(f, "\nStatic power (leakage at %.0f K)\n", c->power.temperature_k);
    if (print_leaks(m, f, e))
        return -1;
    fprintf(f, "\nstatic %.3f W%s; idle SM %.4f W each (%.3f W for all %u); constant %.3f W; "
               "TDP %.0f W\n",
            pwr_static_w(m), c->power.lane_static ? " with all lanes active (lane_static = 1)" : "",
            pwr_idle_sm_w(m), pwr_idle_sm_w(m) * c->gpu.sm_count, c->gpu.sm_count,
            c->power.constant_w * c->power.scale[PWR_CONSTANT], c->power.tdp_w);
    return 0;
}

void pwr_describe_json(const pwr_model *m, json_w *j)
{
    const gpu_config *c = pwr_config(m);
    size_t n;
    json_kstr(j, "config", c->name);
    json_kuint(j, "technology_nm", c->power.technology_nm);
    json_knum(j, "vdd_v", c->power.vdd_v);
    json_knum(j, "core_clock_mhz", c->gpu.core_clock_mhz);
    json_knum(j, "static_w", pwr_static_w(m));
    json_knum(j, "idle_sm_w", pwr_idle_sm_w(m));
    json_knum(j, "constant_w", c->power.constant_w * c->power.scale[PWR_CONSTANT]);
    json_knum(j, "tdp_w", c->power.tdp_w);
    json_key(j, "events");
    json_arr_begin(j);
    const pwr_event *ev = pwr_events(m, &n);
    for (size_t i = 0; i < n; i++) {
        char src[64];
        src_name(&ev[i], src, sizeof src);
        json_obj_begin(j);
        json_kstr(j, "event", ev[i].name);
        json_kstr(j, "component", pwr_component_names[ev[i].comp]);
        json_kstr(j, "counted_by", src);
        json_knum(j, "energy_pj", ev[i].energy_j * 1e12);
        json_kstr(j, "source", ev[i].source);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "arrays");
    json_arr_begin(j);
    for (size_t i = 0; i < pwr_array_count(m); i++) {
        pwr_array_info a;
        pwr_array_get(m, i, &a);
        if (a.count <= 0)
            continue;
        json_obj_begin(j);
        json_kstr(j, "array", a.name);
        json_knum(j, "count", a.count);
        json_knum(j, "read_pj", a.read_j * 1e12);
        json_knum(j, "write_pj", a.write_j * 1e12);
        json_knum(j, "search_pj", a.search_j * 1e12);
        json_knum(j, "leakage_mw", a.leak_w * 1e3);
        json_knum(j, "area_mm2", a.area_mm2);
        json_kstr(j, "cacti_request", a.how);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "static");
    json_arr_begin(j);
    const pwr_leak *lk = pwr_leaks(m, &n);
    for (size_t i = 0; i < n; i++) {
        json_obj_begin(j);
        json_kstr(j, "structure", lk[i].name);
        json_kstr(j, "component", pwr_component_names[lk[i].comp]);
        json_knum(j, "watts", lk[i].watts);
        json_key(j, "lane");
        json_bool(j, lk[i].lane);
        json_kstr(j, "source", lk[i].source);
        json_obj_end(j);
    }
    json_arr_end(j);
}
