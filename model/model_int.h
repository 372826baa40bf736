/*
 * model_int.h - internal interfaces between the model's files.
 */
#ifndef MODEL_INT_H
#define MODEL_INT_H

#include "model.h"
#include "occupancy.h"

/* Latency path and bandwidths of one design, core cycles / bytes per core cycle. */
typedef struct mm_path {
    double l1, l2, dram;   /* load latency when served by each level */
    double burst_core;     /* one DRAM burst on one channel, core cycles */
    double dram_bw, l2_bw, noc_bw;
} mm_path;

/* L1 sector hit rate of loads (traffic; by line for an L1 of whole lines); *recent gets the share of loads
 * that reuse a sector touched within `window` accesses (in flight).  The
 * CTAs are dealt to the SMs as on a GPU of cfg's SM count, or, with
 * neighbour_runs, as runs of consecutive CTAs on one SM (a hybrid sample),
 * when the profile measured that (its SM count 1; else as on the GPU). */
double mm_l1_hit(const prof_kernel *pk, const gpu_config *cfg, int neighbour_runs, double ctas_per_sm, int il,
                 double window, double *recent);
/* model_l1_dealing_shift for one kernel and interleaving (prof_interleave). */
/* The lines a GPU SM's L1 can have in flight before one set has all its
 * ways pending, from the profile's set placement of the SM's stream
 * (profile.h PROF_INFL_NSETS); 0 when the profile cannot say. */
double mm_l1_placement(const prof_kernel *pk, const gpu_config *cfg, double ctas_per_sm, int il);
double mm_l1_dealing_shift(const prof_kernel *pk, const gpu_config *cfg, double ctas_per_sm, int il);
/* L2 sector hit rates of loads and of stores (all accesses, before L1 filtering). */
void mm_l2_hits(const profile *p, uint32_t k, const gpu_config *cfg, double concurrency, double *load,
                double *store);
/* Unloaded latencies and bandwidths; `bursts` is a load's DRAM bursts (mm_dram_bursts). */
void mm_latencies(const gpu_config *cfg, const model_params *mp, double bursts, mm_path *m);
/* DRAM traffic by kind: sectors, sectors per access and row-hit rate.  The
 * row-hit rate is per burst (column command), as the simulator counts it:
 * an access of several bursts opens its row at most once. */
typedef struct mm_dram_mix {
    double read_sectors, spl_r, rh_r;
    double write_sectors, spl_w, rh_w;
} mm_dram_mix;

/* Bursts (column commands) of an access of `sectors` sectors: whole bursts,
 * at least one. */
double mm_dram_bursts(const gpu_config *cfg, double sectors);

/* Sustainable fraction of peak DRAM bandwidth for this traffic. */
double mm_dram_efficiency(const gpu_config *cfg, const mm_dram_mix *x);

/* L2 sectors moved per L1 sector: below the L1 whole L1 sectors move, so
 * with Fermi's 128 B L1 sectors a line access of one 32 B sector still
 * fetches, writes or performs four at the L2 (sampler/l1.h, granularity). */
double mm_l1_gran(const gpu_config *cfg);

/* Global-atomic sectors performed by the busiest L2 slice, for `scale` times
 * the profiled kernel's CTAs (atom_sec, the kernel's atomic sectors as they
 * reach the L2, is already scaled).  The profile's hot lines are placed with
 * the design's own slice hash, so skewed data (a histogram of an image puts
 * most updates on a few lines) and hot lines sharing a slice are seen; the
 * other atomic sectors spread evenly over the slices their lines reach.  A
 * line access moves at least one L1 sector (4 L2 sectors on a Fermi-style
 * 128 B-sector L1). */
double mm_atomic_busiest_slice(const gpu_config *cfg, const prof_kernel *pk, double atom_sec, double scale);

/* Partition camping: the busiest L2 slice's traffic over the mean while
 * `concurrent_ctas` CTAs run together, from the profile's record for the
 * design's slice hash and count (interpolated in log2 of the window size);
 * 1 if the profile has no record for the design. */
double mm_camping(const gpu_config *cfg, const prof_kernel *pk, double concurrent_ctas);

/* placement.c: how much longer than the kernel's mean CTA the heaviest CTA
 * class the scenario draws from is (0 without clusters). */
double mm_heaviest_ratio(const prof_kernel *pk, const model_scenario *sc);
/* placement.c: the lock-step tail's placement of `ctas` CTAs, c per SM on
 * `active` SMs: *full waves, then *rem CTAs on *tail_sms SMs (0: all). */
void mm_lockstep_tail(double ctas, double c, double active, double *full, double *rem, double *tail_sms);
/* placement.c: how many of the R CTAs left after a full wave the first SM
 * to finish takes, its c CTAs ending `spread` cycles apart and SM j
 * starting j x `step` cycles after it. */
double mm_first_sm_take(double R, double c, double active, double spread, double step);
/* prologue.c: the share of the kernel's global and local load lines its
 * warps issue before their first wait for a load (by representative-warp
 * weight). */
double mm_prologue_share(const prof_kernel *pk);

/* ---- the steps of model_kernel (model.c), in its order ---- */

#define MM_SP(x) (1u << ISA_SPACE_##x) /* a bit of an isa_space mask */
#define MM_LSU_LINES_PER_CYCLE 1.0     /* one L1 tag lookup (one line) per SM per cycle, as the simulator */

/* Kernel totals for the scenario (scaled by CTAs, optionally per cluster). */
typedef struct mm_totals {
    double warps, insts, lanes;
    double op_warps[ISA_OP_COUNT], op_lanes[ISA_OP_COUNT], op_lines[ISA_OP_COUNT], op_sectors[ISA_OP_COUNT];
    double shared_bank, reg_reads, reg_writes;
} mm_totals;

/* The sum of v[op] over the ops of the spaces in mask_space (MM_SP bits)
 * with any of `flags`. */
static inline double mm_sum_ops(const double *v, unsigned mask_space, unsigned flags)
{
    double s = 0;
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        const isa_op_info *inf = &isa_ops[i];
        if ((mask_space & (1u << inf->space)) && (inf->flags & flags))
            s += v[i];
    }
    return s;
}

/* 1. Where the kernel runs: the scenario's CTAs on its SMs. */
typedef struct mm_setup {
    const prof_kernel *pk;
    model_policy pol;
    int il;            /* the L1 histograms' interleaving (prof_interleave) */
    int runs;          /* the scenario's neighbour_runs */
    occupancy occ;
    uint32_t sms;      /* the GPU's */
    double ctas;       /* the scenario's CTAs */
    double active;     /* SMs that run them */
    double share;      /* of the memory system's bandwidth (background scenarios) */
    double per_sm, c;  /* CTAs per active SM; resident at once */
    mm_totals t;
} mm_setup;

/* The share of its slots a saturated crossbar input keeps when the other
 * inputs send k flits per flit of its own to each output (traffic.c). */
double mm_hol_throughput(double k);

/* 2. The memory traffic (traffic.c). */
typedef struct mm_traffic {
    model_params mp;       /* the parameters, with the row-hit rate filled in when not given */
    double h1;             /* L1 filter: load sectors that do not go below the L1 */
    double h2, H2s;        /* L2 hit rate of the loads that reach it; of stores and atomics (all) */
    double load_sec, store_sec, load_lines, atom_lines; /* the accesses' own sectors and lines */
    double store_mv, atom_mv;                           /* sectors moved below the L1 */
    double l1_miss_sec, l2_sec;                         /* load sectors missing the L1; all sectors at the L2 */
    double miss_lines_per_warp;
    double noc_per_sector, port_per_warp;               /* the SM's crossbar port, cycles */
    double noc_flits;
    double dram_read_sec, dram_write_sec, dram_bytes, dram_eff;
    double acc_r, acc_w, bursts_r, bursts_w;            /* DRAM accesses and bursts per access */
    double row_hit;                                     /* DRAM row-buffer hit rate over all bursts */
    mm_path path;
    double t_dram, t_l2, t_noc;                         /* the GPU-wide bounds, core cycles */
} mm_traffic;

void mm_traffic_of(const gpu_config *cfg, const profile *p, uint32_t k, const model_params *mp, const mm_setup *s,
                   mm_traffic *m);
/* Flits of one packet carrying `spp` 32 B sectors (an average: interpolated
 * between the neighbouring whole sector counts). */
double mm_pkt_flits(double spp, double flit_bytes);

/* Time of one generation of `cpsm` resident CTAs on one SM: the SM side
 * (issue and dependencies, functional units, the LSU), times the
 * calibration's `scale`, or the misses-in-flight bound, whichever is
 * longer.  The latter is a memory-side bound -- lines x loaded latency /
 * lines in flight -- so the SM-side factor does not rescale it: a sample
 * whose CTAs do not crowd the L1's sets, fitted with the bound scaled,
 * took the bound away from the whole kernel, whose CTAs do (GTX 480 8 KB
 * L1, vectoradd: the full GPU 38% slower than at 16 KB, the hybrid 0%). */
typedef struct mm_gen {
    double t, t_int, t_units, t_lsu, t_mshr, mem_stall, dep_stall, pipe_stall;
} mm_gen;

/* 3. One generation of `cpsm` CTAs on an SM (generation.c). */
void mm_generation(const gpu_config *cfg, const prof_kernel *pk, model_policy pol, const model_warp_time *wt,
                   const double *wweight, uint32_t nw, const mm_totals *t, double cpsm, double load_lat,
                   double l1_miss_lines_per_warp, double port_per_warp, double inflight, double scale, mm_gen *g);

/* 4. The kernel solved (model.c's fixed point). */
typedef struct mm_solved {
    double total, startup;          /* cycles; the cold I-cache's start-up in them */
    double lat, h1lat;              /* the loaded load latency and the L1 hit rate of latency */
    double t_sm, t_cta, t_tail, t_gens, gens;
    double full, tail_sms;          /* full generations; SMs running the last one (0: all active) */
    mm_gen gfull, gpart;            /* a full and the partial generation */
    double burst, t_burst, burst_extra; /* the launch's prologue burst */
    double inflight;                /* model_detail.l1_inflight */
} mm_solved;

/* 5. The kresult, CPI stack, activity and detail of a solved kernel (report.c). */
void mm_report(const gpu_config *cfg, const mm_setup *s, const mm_traffic *m, const mm_solved *v, kresult *out,
               model_detail *d);

#endif
