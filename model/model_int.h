/*
 * model_int.h - internal interfaces between the model's files.
 */
#ifndef MODEL_INT_H
#define MODEL_INT_H

#include "model.h"

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

#endif
