/*
 * gpu_config.h - a GPU design: every parameter the simulator, the model and
 * the power model use.  Loaded from a libconfig file (configs/NAME.cfg).
 *
 * The struct is plain data.  gpu_config.c holds one schema table that names
 * every key, its type, unit, valid range and where it lands in the struct;
 * loading, validation (unknown key, wrong type, out-of-range, inconsistent
 * geometry -> "file:line: key: message"), `config show` and the GPGPU-Sim
 * importer all walk that one table.
 *
 * Units are in the field names: _bytes, _mhz, _cycles (core cycles unless
 * the name says otherwise), _w, _v, _nm, _k.
 */
#ifndef GE_GPU_CONFIG_H
#define GE_GPU_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "isa.h"
#include "power_components.h"

#define GCFG_NAME_MAX 64
#define GCFG_MAX_DVFS 8

typedef struct gcfg_lat {
    uint32_t latency; /* cycles from issue to result */
    uint32_t ii;      /* initiation interval of one warp instruction on one unit */
} gcfg_lat;

typedef struct gcfg_cache {
    uint32_t size_bytes;
    uint32_t sets, ways, line_bytes, sector_bytes;
    uint32_t banks;
    uint32_t latency_cycles; /* hit latency */
    uint32_t mshr_entries;
    uint32_t mshr_merge;     /* requests merged per MSHR entry */
    char replacement[GCFG_NAME_MAX];  /* policy name: "lru", "fifo" */
    char write_policy[GCFG_NAME_MAX]; /* "write_back", "write_through", "write_evict" */
    char allocate[GCFG_NAME_MAX];     /* "on_miss", "on_fill" */
    char write_allocate[GCFG_NAME_MAX]; /* "no_write_allocate", "write_allocate" */
    uint32_t miss_queue_entries; /* misses waiting to go to the next level (0 = not modelled) */
    char set_index[GCFG_NAME_MAX];    /* "linear", "xor" (sampler/cache.h) */
} gcfg_cache;

typedef struct gcfg_dvfs {
    double freq_mhz;
    double vdd_v;
} gcfg_dvfs;

/* Published hardware figures the config is checked against (0 = none published). */
typedef struct gcfg_reference {
    double l1_hit_latency_cycles;
    double l2_hit_latency_cycles;
    double dram_latency_cycles;
    double dram_bandwidth_gbs;   /* sustained (measured) streaming bandwidth */
    double fp32_gflops;          /* peak FMA throughput at the core clock */
    double shared_latency_cycles;
} gcfg_reference;

typedef struct gpu_config {
    char source[512];  /* file it was loaded from */
    char name[128];

    struct {
        char arch[GCFG_NAME_MAX];   /* fermi, kepler, maxwell, pascal, volta, turing, ampere, hopper */
        uint32_t compute_capability; /* e.g. 70 */
        uint32_t sm_count;
        double core_clock_mhz, icnt_clock_mhz, l2_clock_mhz, dram_clock_mhz;
    } gpu;

    struct {
        uint32_t warp_size;
        uint32_t max_threads, max_warps, max_ctas;
        uint32_t registers;             /* 32-bit registers per SM */
        uint32_t max_regs_per_thread;
        uint32_t reg_alloc_unit;        /* registers, per-warp allocation granularity */
        uint32_t rf_banks;
        uint32_t rf_bank_ports;         /* register reads per bank per cycle (Volta: 2, 64-bit banks) */
        uint32_t operand_collectors;
        uint32_t schedulers;
        char scheduler[GCFG_NAME_MAX];  /* "lrr", "gto", "two_level" */
        uint32_t issue_width;           /* instructions per scheduler per cycle (2 = dual issue) */
        uint32_t ibuffer_entries;       /* per warp */
        uint32_t inst_bytes;            /* bytes per instruction in the I-cache (0 = 8 below sm_70, else 16) */
        uint32_t fetch_width;           /* instructions fetched per cycle per SM */
        char divergence[GCFG_NAME_MAX]; /* "pdom" */
        uint32_t shared_bytes;          /* shared memory per SM (configured carve-out) */
        uint32_t shared_per_cta_bytes;
        uint32_t shared_alloc_unit;     /* bytes */
        uint32_t shared_banks;
        uint32_t shared_latency_cycles;
    } sm;

    /* Units per SM of each kind (divided evenly among the schedulers). */
    uint32_t units[ISA_UNIT_COUNT];
    gcfg_lat lat[ISA_LAT_COUNT];

    gcfg_cache l1d, l1i, l1c, l1t;
    struct {
        gcfg_cache cache;            /* size_bytes/sets/ways are per slice */
        uint32_t slices;
        char hash[GCFG_NAME_MAX];    /* "linear", "xor" */
    } l2;

    struct {
        uint32_t flit_bytes;
        uint32_t latency_cycles;     /* icnt clock cycles, one way */
        uint32_t port_flits_per_cycle;
        uint32_t buffer_flits;
    } noc;

    struct {
        char type[GCFG_NAME_MAX];    /* "GDDR5", "GDDR6", "HBM2", "HBM3" */
        uint32_t channels;           /* memory controllers */
        uint32_t bus_bits;           /* per channel */
        uint32_t data_rate;          /* data transfers per DRAM command clock */
        uint32_t burst_length;
        uint32_t banks, bank_groups;
        uint32_t row_bytes;
        uint32_t queue_entries;
        char scheduler[GCFG_NAME_MAX]; /* "frfcfs", "fcfs" */
        uint32_t latency_cycles;     /* fixed controller/PHY latency, DRAM clock cycles */
        uint32_t write_high, write_low; /* write-drain watermarks, queued writes (0 = none) */
        /* Timing in DRAM command-clock cycles. */
        uint32_t tCL, tWL, tRCD, tRP, tRAS, tRC, tCCD, tCCDL, tRRD, tWTR, tWR, tRTP, tFAW, tRFC, tREFI;
    } dram;

    struct {
        uint32_t technology_nm;
        double temperature_k;
        double die_area_mm2;
        double tdp_w;
        double constant_w;           /* board power not in the GPU die model (fans, VRM) */
        double vdd_v;                /* nominal core voltage at the nominal clock */
        uint32_t ndvfs;
        gcfg_dvfs dvfs[GCFG_MAX_DVFS];
        uint32_t lane_static;        /* 1 = AccelWattch's active-lane-dependent static power */
        double scale[PWR_COMPONENT_COUNT]; /* calibration factors, default 1 */
    } power;

    gcfg_reference ref;
} gpu_config;

/* Load and validate a config file.  On error returns -1 with
 * "file:line: key: message" in e. */
int gcfg_load(const char *path, gpu_config *cfg, ge_err *e);
/* Same from a string (name is used in messages). */
int gcfg_load_string(const char *text, const char *name, gpu_config *cfg, ge_err *e);
/* Cross-field checks (geometry, occupancy) on an already-filled struct. */
int gcfg_validate(const gpu_config *cfg, ge_err *e);

/* Write the resolved configuration in libconfig syntax (loadable again),
 * with the unit/meaning of each key as a comment. */
void gcfg_write(const gpu_config *cfg, FILE *out);

/* Derived quantities. */
double gcfg_dram_bandwidth_gbs(const gpu_config *cfg); /* theoretical peak */
double gcfg_fp32_peak_gflops(const gpu_config *cfg);

/* Where code lives in this GPU's I-cache: an instruction at stream pc
 * `pc` sits at byte pc * num / den.  A stream's pcs follow its binary's
 * instruction size (8 B below sm_70, 16 B from sm_70; the PTX front-end's
 * index x 16); the I-cache holds the config's (sm.inst_bytes, or 8 B below
 * compute capability 7.0 and 16 B from it), as if the kernel were compiled
 * for this GPU.  The simulator's fetch and the model's start-up both use
 * this rule. */
void gcfg_code_scale(const gpu_config *cfg, uint32_t binary_version, uint32_t *num, uint32_t *den);

/* ---- schema access, for tools (importer, sweeps) ---- */
typedef enum { GCFG_INT, GCFG_FLOAT, GCFG_STRING } gcfg_type;

typedef struct gcfg_key {
    const char *path;    /* "l1d.size_bytes" */
    gcfg_type type;
    size_t offset;
    double min, max;
    const char *choices; /* strings: "a|b|c" */
    const char *help;    /* unit and meaning */
    int optional;        /* 1: may be absent (then def) */
    double def;
    const char *sdef;
} gcfg_key;

const gcfg_key *gcfg_keys(size_t *n);
const gcfg_key *gcfg_find_key(const char *path);
/* Set one key from text (used by sweeps and the importer); validates range. */
int gcfg_set(gpu_config *cfg, const char *path, const char *value, ge_err *e);
/* Set a key the way a user override (--set, --vary) means it: like
 * gcfg_set, but a cache's geometry stays consistent -- setting a cache's
 * size_bytes changes its ways (sets and line size kept; an error if the
 * size is not a whole number of ways), setting its ways or sets changes its
 * size_bytes.  The caller still runs gcfg_validate afterwards. */
int gcfg_apply(gpu_config *cfg, const char *path, const char *value, ge_err *e);
/* Read a key as a double (ints and floats) or string. */
double gcfg_get_num(const gpu_config *cfg, const gcfg_key *k);
const char *gcfg_get_str(const gpu_config *cfg, const gcfg_key *k);

#endif
