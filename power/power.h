/*
 * power.h - GPU power and energy from activity counts (GPUWattch /
 * AccelWattch style), with per-event energies from first principles.
 *
 * A pwr_model is built once per GPU config: every SRAM-like structure (RF
 * banks, operand collectors, instruction buffer, L1I/L1D/const/tex caches,
 * shared memory, L2 slices, MSHRs, NoC buffers, MC queues) is sized from the
 * config and solved with cacti/ (memoised); logic energies (ALU/FPU/SFU/
 * tensor ops, scheduler, pipeline latches, operand and NoC wires) come from
 * published per-operation figures scaled to the config's node and voltage;
 * DRAM energies from the memory type's published pJ/bit.  Evaluating a
 * kernel is then a weighted sum of its act_counters (common/activity.h) -
 * the only input - plus leakage, idle-SM and constant power.  docs/power.md
 * gives every equation and source.
 *
 * Power model:  P = P_constant + P_static(V, T[, active lanes])
 *                 + P_idle_sm + sum_c scale_c * E_c(activity) / t
 * Dynamic energies scale with (V/Vnom)^2 at a DVFS point, leakage with
 * V/Vnom; t = cycles / f.  All results are deterministic.
 */
#ifndef GE_POWER_H
#define GE_POWER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "activity.h"
#include "err.h"
#include "gpu_config.h"
#include "json.h"
#include "kresult.h"
#include "power_components.h"

typedef struct pwr_model pwr_model;

/* DVFS point argument: PWR_NOMINAL = (gpu.core_clock_mhz, power.vdd_v);
 * 0..ndvfs-1 = the config's power.dvfs entries. */
#define PWR_NOMINAL (-1)

/* One kernel (or window, or sum of kernels). */
typedef struct pwr_result {
    double cycles;                       /* core cycles */
    double freq_mhz, vdd_v;              /* operating point */
    double seconds;                      /* cycles / freq */
    double comp_w[PWR_COMPONENT_COUNT];  /* average W per component, calibration applied */
    double dynamic_w;                    /* sum of the activity-driven components */
    double total_w;                      /* sum of comp_w */
    double energy_j;                     /* total_w * seconds */
    double edp;                          /* energy_j * seconds, J*s */
    double ed2p;                         /* energy_j * seconds^2, J*s^2 */
} pwr_result;

/* How an event's count is obtained from act_counters. */
typedef enum {
    PWR_SRC_ACT,     /* a->c[idx] */
    PWR_SRC_LANES,   /* a->op_lanes[idx] */
    PWR_SRC_WARPS,   /* a->op_warps[idx] */
    PWR_SRC_IDLE_SM  /* sm_count * cycles - a->c[ACT_ACTIVE_SM_CYCLES], >= 0 */
} pwr_src;

/* One row of the energy-per-event table. */
typedef struct pwr_event {
    char name[48];        /* "l1d.read_hit" */
    pwr_component comp;
    pwr_src src;
    int idx;              /* act_id or isa_op */
    double energy_j;      /* per count, at the nominal point */
    int core_rail;        /* 1: scales with core V^2 under DVFS; 0: DRAM rail */
    char source[128];     /* citation / derivation, one line */
} pwr_event;

/* One leakage contributor (W at the nominal point). */
typedef struct pwr_leak {
    char name[48];
    pwr_component comp;   /* structure the leakage belongs to (reported under PWR_STATIC) */
    double watts;         /* whole chip */
    int lane;             /* 1: SIMD-lane datapath (scales with active lanes if lane_static) */
    char source[128];
} pwr_leak;

/* One CACTI-solved structure, as used by the events above. */
typedef struct pwr_array_info {
    const char *name;     /* "l1d.tag" */
    const char *how;      /* the CACTI request, with any rounding */
    double read_j, write_j, search_j; /* per access, nominal point */
    double leak_w;        /* one instance */
    double area_mm2;      /* one instance */
    double count;         /* instances on the chip */
} pwr_array_info;

/* Build the model for a validated config.  Solves every array with cacti
 * (memoised and thread-safe, so later creates of similar configs are fast).
 * NULL with a one-line message on failure. */
pwr_model *pwr_create(const gpu_config *cfg, ge_err *e);
void pwr_free(pwr_model *m);

/* Power of one kernel or window: activity a over `cycles` core cycles
 * (<= 0: use a->c[ACT_CYCLES]) at DVFS point dvfs.  -1 with a message if
 * cycles is not positive, a count is negative/not finite, or dvfs is out of
 * range. */
int pwr_eval(const pwr_model *m, const act_counters *a, double cycles, int dvfs, pwr_result *out,
             ge_err *e);

/* The simulate/estimate hook: kr->act over kr->cycles at the nominal point. */
int pwr_kernel(const pwr_model *m, const kresult *kr, pwr_result *out, ge_err *e);

/* Accumulate kernel k into *sum (zero *sum first): times and energies add,
 * average powers are time-weighted, EDP/ED2P are those of the sum. */
void pwr_accumulate(pwr_result *sum, const pwr_result *k);

/* Model inspection: the energy-per-event table and the leakage list. */
const pwr_event *pwr_events(const pwr_model *m, size_t *n);
const pwr_leak *pwr_leaks(const pwr_model *m, size_t *n);
/* The i-th CACTI-solved array (0 <= i < pwr_array_count); -1 past the end.
 * count is 0 for an absent structure (a cache of size 0). */
size_t pwr_array_count(const pwr_model *m);
int pwr_array_get(const pwr_model *m, size_t i, pwr_array_info *out);
/* Static power at the nominal point with all lanes active (W). */
double pwr_static_w(const pwr_model *m);
/* Power of one idle SM (no resident warp) at the nominal point (W). */
double pwr_idle_sm_w(const pwr_model *m);
const gpu_config *pwr_config(const pwr_model *m);
/* Frequency (MHz) and voltage of a DVFS point; -1 if out of range. */
int pwr_point(const pwr_model *m, int dvfs, double *freq_mhz, double *vdd_v);

/* ---- reports ---- */

/* Writes, into the JSON object being built: "power_w", "energy_j", "edp",
 * "ed2p", "seconds", "power_breakdown_w" {component: W}. */
void pwr_json(json_w *j, const pwr_result *r);
/* Aligned table: component, W, %, J (rows with 0 W omitted unless all). */
int pwr_print(const pwr_result *r, FILE *f, ge_err *e);
/* CSV columns: total_w,energy_j,edp,ed2p,<component>_w...  (no newline
 * added by _fields; header/row functions end the line). */
void pwr_csv_header(FILE *f);
void pwr_csv_row(const pwr_result *r, FILE *f);

/* Power trace (--power-trace): header "start_cycle,time_s,cycles,<csv cols>"
 * and one row for an activity window of a->c[ACT_CYCLES] cycles starting at
 * core cycle start_cycle. */
void pwr_trace_header(FILE *f);
int pwr_trace_row(const pwr_model *m, uint64_t start_cycle, const act_counters *window, int dvfs,
                  FILE *f, ge_err *e);

/* `gpuest power --config C`: operating points, the energy-per-event table
 * with sources, and the leakage per structure. */
int pwr_describe(const pwr_model *m, FILE *f, ge_err *e);
void pwr_describe_json(const pwr_model *m, json_w *j);

#endif
