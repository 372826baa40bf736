/*
 * profile.h - the workload profile: everything the interval model needs to
 * estimate a kernel on ANY GPU configuration, measured once from the warp
 * stream (model/profiler.c) and saved to a versioned file
 * (model/profile_write.c and profile_read.c, format in docs/profile-format.md).
 *
 * Everything here is independent of the GPU design except where the design
 * changes which accesses share a cache; those parts are measured for a grid
 * of the parameters that matter (SM count, resident CTAs per SM, scheduler
 * interleaving) and interpolated by the model.
 *
 * Per kernel:
 *   - launch shape and resources (grid, block, registers, shared memory);
 *   - instruction mix per op kind, thread-level and warp-level;
 *   - coalescing: lines and sectors per memory op kind, shared-memory bank
 *     cycles (32 banks of 4 B);
 *   - representative warps: clusters of warps by behaviour, each with the
 *     config-independent instruction sequence of its medoid (op kind, lines,
 *     sectors, bank conflicts, distance back to the producers of its sources);
 *   - L1 reuse histograms per (SM count, CTAs per SM, interleaving), and L2
 *     reuse histograms over the whole workload per concurrency W;
 *   - CTA clusters (by signature) with weights, and the warp streams of
 *     sample CTAs for spatially sampled detailed simulation.
 */
#ifndef MODEL_PROFILE_H
#define MODEL_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "isa.h"
#include "reuse.h"
#include "wstream.h"

#define PROF_VERSION 9
#define PROF_NCONC 3 /* concurrencies of the L2 histograms and inherited-line ages */
#define PROF_ATOMIC_HOT 64 /* atomic lines whose sectors a profile keeps one by one */
#define PROF_INHERIT_MAX (1u << 18) /* inherited lines kept per kernel (32 MB of 128 B lines) */
#define PROF_CODE_WARM_MAX (1u << 20) /* warm code lines per kernel (128 MB of code) */

/* Partition camping: L2 traffic that is even over a whole kernel can still
 * crowd a few slices at any moment (a naive transpose's strided stores under
 * a linear slice hash).  A profile records, for each of these slice
 * functions -- the "linear" and "xor" hashes of common/addrmap.h at each
 * slice count, linear first -- and for windows of PROF_CAMP_WINDOWS
 * consecutive CTAs, the busiest slice's traffic over the mean, summed over
 * the windows (docs/model.md). */
#define PROF_CAMP_COUNTS {8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128}
#define PROF_CAMP_NCOUNTS 11
#define PROF_CAMP_NFN (2 * PROF_CAMP_NCOUNTS)
#define PROF_CAMP_WINDOWS {16, 64, 256, 1024}
#define PROF_CAMP_NWIN 4
/* Index of (hash, slices) among the recorded functions, or -1. */
int prof_camp_fn(int xor_hash, uint32_t slices);
#define PROF_MAX_DEPS 3
#define PROF_NO_DEP 0

typedef enum { PROF_IL_LRR = 0, PROF_IL_GTO = 1, PROF_IL_COUNT } prof_interleave;
extern const char *const prof_interleave_names[PROF_IL_COUNT];

/* One instruction of a representative warp. */
typedef struct prof_inst {
    uint8_t op;        /* isa_op */
    uint8_t lines;     /* 128 B lines touched (memory ops), capped at 255 */
    uint8_t sectors;   /* 32 B sectors touched, capped at 255 */
    uint8_t conflict;  /* shared memory: bank cycles (1 = conflict-free) */
    uint8_t lanes;     /* active lanes */
    uint8_t pad;
    uint16_t dep[PROF_MAX_DEPS]; /* instructions back to each source's producer; 0 = none */
} prof_inst;

typedef struct prof_warp {
    double weight;   /* how many warps of the kernel this one stands for */
    uint32_t ninst;
    prof_inst *inst;
} prof_warp;

/* Set placement of an SM's misses in flight (model/prof_inflight.c): for an
 * L1 of 2^i sets of 2^j ways, indexed by line modulo the set count, that
 * allocates a way when a miss is sent, the lines the SM's load stream keeps
 * in flight when a miss to a set whose ways are all pending stalls the
 * in-order LSU (a timed model of the LSU and the L1; format 9, before it a
 * time-free count).  In 1/16 lines, at most PROF_INFL_CAP lines; 0 where
 * the LSU never waits for a way. */
#define PROF_INFL_NSETS 11 /* 1, 2, 4, ..., 1024 sets */
#define PROF_INFL_NWAYS 7  /* 1, 2, 4, ..., 64 ways */
#define PROF_INFL_CAP 256
#define PROF_INFL_UNIT 16

typedef struct prof_l1hist {
    uint32_t nsm;          /* SM count the CTA-to-SM assignment assumed */
    uint32_t ctas_per_sm;  /* resident CTAs per SM */
    uint32_t interleave;   /* prof_interleave */
    rd_hist load;          /* global/local loads (sectors) */
    uint16_t inflight[PROF_INFL_NSETS][PROF_INFL_NWAYS]; /* see PROF_INFL_NSETS; 0 = not measured */
} prof_l1hist;

typedef struct prof_l2hist {
    uint32_t concurrency;  /* CTAs resident GPU-wide */
    /* One stream of loads, stores and atomics (sectors) with workload-wide
     * history, its accesses counted by kind: */
    rd_hist load;          /* loads */
    rd_hist store;         /* stores and atomics */
} prof_l2hist;

/* Per-CTA signature features used for clustering and sampling. */
#define PROF_SIG(X)                      \
    X(WARP_INSTS, "warp_insts")          \
    X(MEM_INSTS, "mem_insts")            \
    X(LINES, "lines")                    \
    X(SECTORS, "sectors")                \
    X(SHARED, "shared_insts")            \
    X(ATOMICS, "atomics")                \
    X(LANES, "thread_insts")             \
    X(BRANCHES, "branches")

typedef enum {
#define X(id, n) PROF_SIG_##id,
    PROF_SIG(X)
#undef X
    PROF_SIG_COUNT
} prof_sig;
extern const char *const prof_sig_names[PROF_SIG_COUNT];

typedef struct prof_cluster {
    double weight;                 /* CTAs in the cluster */
    double mean[PROF_SIG_COUNT];   /* mean signature */
    double cv_insts;               /* coefficient of variation of warp_insts inside */
    uint32_t nsample;              /* sample CTAs from this cluster (in prof_kernel.sample) */
} prof_cluster;

typedef struct prof_kernel {
    char name[256];
    uint32_t grid[3], block[3];
    uint32_t nregs, shmem_static, shmem_dynamic, binary_version;
    uint64_t nctas;
    uint32_t warps_per_cta;

    double warp_insts, thread_insts;
    double op_warps[ISA_OP_COUNT], op_lanes[ISA_OP_COUNT];
    double op_lines[ISA_OP_COUNT], op_sectors[ISA_OP_COUNT]; /* memory ops */
    double shared_bank_cycles;      /* sum of bank cycles over shared-memory insts */
    double atomic_addr_serial;      /* sum over atomics of max lanes per address */
    double footprint_lines;         /* distinct 128 B lines touched (global+local) */
    double barriers_per_warp;       /* average */
    double reg_reads, reg_writes;   /* register operands read / written (warp-wide) */
    double code_lines;              /* distinct 128 B instruction lines executed */
    /* Of those, the lines an earlier kernel of the stream executed too
     * (their 128 B pc line numbers, ascending): the model fetches them from
     * the L2, the others from DRAM, and the hybrid warms its sample's L2 with
     * them.  code_warm_age[i * PROF_NCONC + j]: the distinct data lines the
     * workload touched after code_warm[i] was last fetched into the L2 and
     * before this kernel began, with prof_concurrency[j] CTAs resident
     * (prof_inherit.c; UINT32_MAX: unknown): an LRU L2 of more lines still
     * holds it. */
    uint32_t ncode_warm;
    uint64_t *code_warm;
    uint32_t *code_warm_age;
    double store_footprint_lines;   /* distinct 128 B lines written (stores, atomics) */
    double store_footprint_sectors; /* distinct 32 B sectors written */
    double load_footprint_lines;    /* distinct 128 B lines loaded (global, local) */
    double load_footprint_sectors;  /* distinct 32 B sectors loaded */
    double atomic_footprint_lines;  /* distinct 128 B lines global atomics touch */
    /* The first PROF_ATOMIC_HOT distinct lines of global atomics and their
     * atomic sectors: the model maps them to L2 slices with the design's
     * address hash to find the busiest slice. */
    uint32_t natomic_hot;
    uint64_t atomic_hot_line[PROF_ATOMIC_HOT];
    double atomic_hot_sectors[PROF_ATOMIC_HOT]; /* 32 B sectors */
    double atomic_hot_packets[PROF_ATOMIC_HOT]; /* line accesses (one packet each) */
    /* busiest slice / mean slice of the L2 traffic in windows of CTAs, per
     * slice function and window size (>= 1; 1 = even) */
    double camp[PROF_CAMP_NFN][PROF_CAMP_NWIN];
    /* Lines the kernel touches that earlier kernels touched too, youngest
     * (at any concurrency) first: inherit_age[i * PROF_NCONC + j] = distinct
     * lines the workload touched after the line's last use and before this
     * kernel began, with prof_concurrency[j] CTAs resident (an LRU L2 of
     * more lines still holds it), sectors = the 32 B sectors earlier kernels
     * touched.  The hybrid warms a sample's L2 with them (calib/,
     * docs/hybrid.md).  Hash-sampled like the L2 log when that is; at most
     * PROF_INHERIT_MAX. */
    uint32_t ninherit;
    uint64_t *inherit_line;
    uint32_t *inherit_age;
    uint8_t *inherit_sectors;

    uint32_t nwarps;                /* representative warps */
    prof_warp *warps;

    uint32_t nl1;
    prof_l1hist *l1;

    uint32_t nclusters;
    prof_cluster *clusters;
    /* Sample CTAs for detailed simulation, in CTA-index order. */
    uint32_t nsample;
    uint64_t *sample_index;
    uint32_t *sample_cluster;
    ws_cta *sample;
    int sample_is_all;              /* 1: every CTA of the kernel is in sample[] */
} prof_kernel;

typedef struct profile {
    char source[512];  /* workload name or trace path */
    uint32_t size;
    uint64_t seed;
    uint32_t nkernels;
    prof_kernel *k;
    uint32_t nl2;      /* L2 histograms, per kernel: k * nl2 + j */
    prof_l2hist *l2;
    /* Mnemonic table shared by every sample CTA (ws_inst.opcode). */
    uint32_t nopcodes;
    char **opcodes;
    /* 1: the sample CTAs' warp streams are here (built, or read with them);
     * simulation (hybrid and full modes) needs them. */
    int has_ctas;
} profile;

void prof_init(profile *p);
void prof_free(profile *p);

/* L2 histogram j of kernel k. */
static inline prof_l2hist *prof_l2(const profile *p, uint32_t k, uint32_t j) { return &p->l2[(size_t)k * p->nl2 + j]; }

/* The CTAs resident GPU-wide at which the L2 reuse histograms and the ages
 * of inherited lines are measured. */
extern const uint32_t prof_concurrency[PROF_NCONC];

/* An age (one value per prof_concurrency) at `concurrency` CTAs resident:
 * interpolated in log2 of it, clamped to the measured range. */
double prof_age_at(const uint32_t *ages, double concurrency);

/* Of kernel pk's warm code lines, the ones an LRU L2 of cap_lines 128-byte
 * lines still holds at its start with `concurrency` CTAs resident (their
 * age below cap_lines), in code_warm's order; copied to out unless NULL. */
uint32_t prof_code_held(const prof_kernel *pk, double cap_lines, double concurrency, uint64_t *out);

/* A ws_kernel view of a profiled kernel (for occupancy and the simulator). */
void prof_kernel_ws(const profile *p, const prof_kernel *pk, ws_kernel *out);

/* ---- file format (profile_write.c, profile_read.c; layout in profile_io.h) ---- */
int prof_save(const profile *p, const char *path, ge_err *e);
int prof_load(profile *p, const char *path, ge_err *e);
/* Read from an open stream; name is used in messages. */
int prof_read(profile *p, FILE *f, const char *name, ge_err *e);
/* As prof_load and prof_read; with_ctas = 0 skips the sample CTAs' warp
 * streams (the file's second xz stream, most of a small workload's file):
 * enough for the model (has_ctas stays 0, samples have no warps), not for
 * simulation. */
int prof_load_opts(profile *p, const char *path, int with_ctas, ge_err *e);
int prof_read_opts(profile *p, FILE *f, const char *name, int with_ctas, ge_err *e);

#endif
