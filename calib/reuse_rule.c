/*
 * reuse_rule.c - when may a sweep reuse a kernel's calibration instead of
 * sampling again?  (docs/hybrid.md states the rule; tests/calib checks it.)
 *
 * A calibration measured at design A is reused at design B when the model
 * can carry the difference by itself:
 *   1. the SM core is the same: scheduler policy, schedulers, issue width,
 *      occupancy limits, register file, units, latency table, L1 latency and
 *      MSHRs (est_sm_signature) -- the ratio encodes scheduling behaviour the
 *      model does not capture, which changes with any of these;
 *   2. the kernel's occupancy (CTAs per SM) is the same;
 *   3. the uncalibrated model's L1 hit rate, L1 filter rate (hits plus
 *      in-flight merges) and L2 hit rate at B are each within
 *      EST_REUSE_HIT_DELTA of their values at A (the measured rates are then
 *      shifted by the model's change);
 *   4. if the L1's geometry (sets, ways, line size) differs, and its lines
 *      in flight (model_detail.l1_inflight: the MSHRs, random placement or
 *      the profile's set placement, docs/model.md item 6) set the
 *      uncalibrated model's generation time (t_mshr its largest term) at A
 *      or at B, they are within EST_REUSE_CROWD_DELTA (relative) at the
 *      other.  A sample run on an L1 that holds too few lines in flight
 *      meets that limit in its own L1, and its cycles and latency carry it
 *      into the fit, which the model does not move with the geometry
 *      (transpose_tiled at 2048 on GTX 480, every row in one set: the full
 *      runs at 8, 16 and 32 KB take 921 K, 407 K and 250 K cycles; the 8 KB
 *      calibration reused gave 844 K for all three; reduction at 16 M
 *      elements on GTX 480: 19.8 lines at 8 KB, 50.7 at 16 KB; the 8 KB
 *      calibration reused at 16 KB gave +27% under GTO, a new sample +5%).
 *      Where they do not set the pace, crowded or not, the calibration
 *      carries over (until 2026-11-29 any change in set crowding
 *      re-sampled: the sgemms on V100 and RTX 2060 at the larger sizes,
 *      crowded to 87-193 lines where they need a few, were sampled at every
 *      L1 size).  With the same geometry the bound still moves with the
 *      addresses (hotspot's launches alternate two buffers: 76 and 89 lines
 *      on V100), which the rule leaves to clause 3, as before.
 *   5. the L1's and the L2's set index functions are the same: the model
 *      does not see set hashing (its hit rates read the reuse histograms
 *      as randomly placed sets), and the measured rates depend on it
 *      (k-means' feature-major rows crowded a linear L2's sets).
 * Everything else (SM count, clocks, L2 and DRAM parameters, NoC) is
 * extrapolated analytically: the measured load latency is shifted by the
 * model's change in latency, and bandwidth bounds are recomputed.
 *
 * The same rule carries a calibration from one launch of a kernel to a
 * later launch at the same design point, when the launch does the same
 * work (est_same_launch): a stencil's time steps, k-means iterations.  A
 * BFS level, whose work differs from the last, is sampled again.
 */
#include <math.h>
#include <string.h>

#include "estimate_int.h"
#include "occupancy.h"
#include "u64set.h"

#define EST_REUSE_HIT_DELTA 0.05
#define EST_LAUNCH_WORK_DELTA 0.05
#define EST_REUSE_CROWD_DELTA 0.05

static uint64_t mix(uint64_t h, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return ge_hash64(h ^ b) + 0x9e3779b97f4a7c15ULL;
}

uint64_t est_sm_signature(const gpu_config *c)
{
    uint64_t h = 1469598103934665603ULL;
    const double sm[] = {c->sm.max_threads, c->sm.max_warps, c->sm.max_ctas, c->sm.registers,
                         c->sm.max_regs_per_thread, c->sm.reg_alloc_unit, c->sm.rf_banks,
                         c->sm.operand_collectors, c->sm.schedulers, c->sm.issue_width, c->sm.ibuffer_entries,
                         c->sm.fetch_width, c->sm.shared_bytes, c->sm.shared_banks, c->sm.shared_latency_cycles,
                         c->l1d.latency_cycles, c->l1d.mshr_entries, c->l1d.mshr_merge};
    for (size_t i = 0; i < sizeof sm / sizeof *sm; i++)
        h = mix(h, sm[i]);
    for (int u = 0; u < ISA_UNIT_COUNT; u++)
        h = mix(h, c->units[u]);
    for (int l = 0; l < ISA_LAT_COUNT; l++) {
        h = mix(h, c->lat[l].latency);
        h = mix(h, c->lat[l].ii);
    }
    for (const char *s = c->sm.divergence; *s; s++)
        h = mix(h, *s);
    return h;
}

static double per_cta(double v, const prof_kernel *pk) { return pk->nctas ? v / (double)pk->nctas : 0; }

static double mem_lines(const prof_kernel *pk)
{
    double l = 0;
    for (int i = 0; i < ISA_OP_COUNT; i++)
        l += pk->op_lines[i];
    return l;
}

static int close_rel(double a, double b, double delta) { return fabs(a - b) <= delta * fmax(fabs(a), fabs(b)); }

int est_same_launch(const profile *p, uint32_t j, uint32_t k)
{
    if (j >= p->nkernels || k >= p->nkernels)
        return 0;
    const prof_kernel *a = &p->k[j], *b = &p->k[k];
    return strcmp(a->name, b->name) == 0 && memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
           memcmp(a->block, b->block, sizeof a->block) == 0 && a->nregs == b->nregs &&
           a->shmem_static == b->shmem_static && a->shmem_dynamic == b->shmem_dynamic &&
           close_rel(per_cta(a->warp_insts, a), per_cta(b->warp_insts, b), EST_LAUNCH_WORK_DELTA) &&
           close_rel(per_cta(mem_lines(a), a), per_cta(mem_lines(b), b), EST_LAUNCH_WORK_DELTA);
}

int est_inflight_binds(const model_detail *d)
{
    return d->t_mshr > fmax(d->t_interval, fmax(d->t_units, d->t_lsu));
}

/* Clause 4: an L1 of another geometry bounds the lines in flight as it did
 * where they set the model's pace. */
static int same_inflight(const est_calibration *c, const model_detail *d)
{
    return !(c->model_inflight_binds || est_inflight_binds(d)) ||
           close_rel(d->l1_inflight, c->model_l1_inflight, EST_REUSE_CROWD_DELTA);
}

static int same_l1_geometry(const est_calibration *c, const gpu_config *cfg)
{
    return c->l1_sets == cfg->l1d.sets && c->l1_ways == cfg->l1d.ways && c->l1_line == cfg->l1d.line_bytes;
}

int est_calibration_reusable(const est_calibration *c, const gpu_config *cfg, const char *scheduler,
                             const profile *p, uint32_t k)
{
    if (!c || !c->valid || k >= p->nkernels)
        return 0;
    if (strcmp(c->scheduler, scheduler) != 0 || c->sm_signature != est_sm_signature(cfg) ||
        strcmp(c->l1_set_index, cfg->l1d.set_index) != 0 || strcmp(c->l2_set_index, cfg->l2.cache.set_index) != 0)
        return 0;
    ws_kernel wk;
    prof_kernel_ws(p, &p->k[k], &wk);
    occupancy occ;
    if (occ_compute(cfg, &wk, &occ, NULL) || occ.ctas_per_sm != c->ctas_per_sm)
        return 0;
    model_params base;
    model_params_default(&base);
    kresult r;
    model_detail d;
    if (model_kernel(cfg, scheduler, p, k, &base, NULL, &r, &d, NULL))
        return 0;
    return fabs(d.l1_hit - c->model_l1_hit) <= EST_REUSE_HIT_DELTA &&
           fabs(d.l1_filter - c->model_l1_filter) <= EST_REUSE_HIT_DELTA &&
           fabs(d.l2_hit - c->model_l2_hit) <= EST_REUSE_HIT_DELTA &&
           (same_l1_geometry(c, cfg) || same_inflight(c, &d));
}
