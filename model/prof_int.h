/*
 * prof_int.h - state shared by the profiler's stream walk (profiler.c) and
 * its end-of-kernel / end-of-workload steps (prof_select.c, prof_reuse.c).
 * Not a public header.
 */
#ifndef MODEL_PROF_INT_H
#define MODEL_PROF_INT_H

#include "profiler.h"
#include "addrmap.h"
#include "u64set.h"

/* A logged line access for the L1 histograms (loads of CTAs on measured SMs). */
typedef struct pb_l1rec {
    uint64_t line;
    uint32_t cta, seq, chunk;
    uint16_t warp, kernel;
    uint8_t sectors;
} pb_l1rec;

/* A logged line access for the L2 histograms (hash-sampled, all kinds). */
typedef struct pb_l2rec {
    uint64_t line;
    uint32_t cta, seq;
    uint16_t warp, kernel;
    uint8_t sectors;
    uint8_t store; /* store or atomic */
} pb_l2rec;

/* A kernel's code lines are fetched into the L2 by its first CTAs (the
 * I-caches keep them for later ones): the latest first touch among the
 * first PB_CODE_CTAS, which run together at every concurrency the ages are
 * measured at (prof_concurrency), is the last fetch (prof_inherit.c). */
#define PB_CODE_CTAS 64

/* A kernel's last fetch of a code line into the L2: CTA `cta` reached it at
 * its warps' instruction index `seq` (prof_inherit.c). */
typedef struct pb_coderec {
    uint64_t line;
    uint32_t cta, seq;
} pb_coderec;

typedef struct pb_warp {
    uint32_t ninst;
    prof_inst *inst;
} pb_warp;

#define PB_WARP_FEATURES 8

typedef struct pbuild {
    const prof_options *o;
    profile *p;
    prof_kernel *pk;
    uint32_t kidx;

    /* per-kernel CTA signatures, in arrival order */
    double *sig;
    uint64_t *sig_index;
    size_t nsig, sig_cap;

    /* warp reservoir */
    pb_warp *res;
    double *res_feat;
    uint32_t nres;
    uint64_t warps_seen;
    uint64_t rng;

    /* candidate CTAs */
    ws_cta *cand;
    uint64_t *cand_index;
    uint32_t ncand, cand_cap;
    size_t kept_bytes;
    int keeping_all;

    /* logs (whole workload) */
    pb_l1rec *l1;
    size_t nl1, l1_cap;
    pb_l2rec *l2;
    size_t nl2, l2_cap;
    uint32_t l2_shift; /* keep lines whose hash has the low l2_shift bits zero */

    u64set lines;       /* per-kernel footprint */
    u64set store_lines; /* per-kernel lines written */
    u64set store_sectors; /* per-kernel sectors written (line * 4 + sector) */
    u64set load_lines;    /* per-kernel lines loaded */
    u64set load_sectors;  /* per-kernel sectors loaded (line * 4 + sector) */
    u64set atomic_lines; /* per-kernel lines of global atomics */
    u64set code;        /* per-kernel instruction lines */
    u64set code_before; /* instruction lines of the kernels before this one */
    size_t code_warm_cap; /* of pk->code_warm */
    /* code fetches: kernel k's records are cf[cf_first[k] .. cf_first[k+1]);
     * cta_code: the current CTA's first touches (line, least seq);
     * cta_code_last: the entry the last touch found or made */
    pb_coderec *cf;
    size_t ncf, cf_cap;
    /* the L2 log's indices in the GPU's order at each prof_concurrency
     * (pb_gpu_orders) */
    uint32_t *gpu_ord[PROF_NCONC];
    size_t *cf_first;
    size_t cf_first_cap;
    pb_coderec *cta_code;
    size_t ncta_code, cta_code_cap, cta_code_last;
    /* partition-camping record (profile.h): per slice function, its map,
     * and per window size the open window's slice traffic and the sums of
     * closed windows' busiest and mean slice traffic */
    addrmap camp_map[PROF_CAMP_NFN];
    double *camp_cnt[PROF_CAMP_NFN][PROF_CAMP_NWIN];
    double camp_max[PROF_CAMP_NFN][PROF_CAMP_NWIN], camp_mean[PROF_CAMP_NFN][PROF_CAMP_NWIN];
    uint64_t camp_ctas; /* CTAs walked in this kernel */

    /* register producer tracking for the current warp */
    uint32_t *writer;   /* instruction index of the latest writer */
    uint32_t *wgen;     /* generation stamp of writer[] */
    uint32_t *pgen;     /* pending-load stamp */
    uint32_t gen, pend;
    prof_inst *wi;
    size_t wi_cap;
} pbuild;

int pb_finish_kernel(pbuild *b, ge_err *e);   /* prof_select.c */
int pb_inherit(pbuild *b, ge_err *e);         /* prof_inherit.c: lines left by earlier kernels */
/* prof_inherit.c: code fetches.  A kernel begins; the current warp of the
 * current CTA executes code line `line` at instruction index seq (called
 * when the line differs from the previous instruction's); the CTA's warps
 * are done. */
int pb_code_kernel(pbuild *b, ge_err *e);
int pb_code_touch(pbuild *b, uint64_t line, uint32_t seq, ge_err *e);
int pb_code_cta_done(pbuild *b, uint32_t cta, ge_err *e);
/* prof_inherit.c: gpu_ord for every concurrency whose order differs from
 * the one before (NULL where it is the same: no CTA index reaches the
 * smaller W); both the L2 histograms and the inherited lines' ages read
 * the log in these orders. */
int pb_gpu_orders(pbuild *b, ge_err *e);
int pb_reuse(pbuild *b, ge_err *e);           /* prof_reuse.c */

/* prof_inflight.c: the lines in flight one SM stream's set placement
 * allows (profile.h, PROF_INFL_NSETS).  infl_prepare groups the stream
 * (records list[0..n) of the L1 log, nsm SMs) by CTA, warp and
 * instruction; prof_inflight then fills the table for c CTAs per SM. */
typedef struct {
    uint64_t *line;          /* [n] by CTA, warp, instruction */
    uint8_t *mark;           /* [n] ends of instructions and load-wait chunks */
    uint32_t *wstart, *cwarp; /* a warp's first line [nwarps + 1]; a CTA's first warp [ncta + 1] */
    uint32_t nwarps, ncta;
    uint64_t *tag, *ret, *stamp; /* the timed L1's ways (scratch) */
    uint32_t sgen[1u << (PROF_INFL_NSETS - 1)], gen; /* the run that last emptied each set */
} infl_ws;
int infl_prepare(infl_ws *w, const pb_l1rec *l1, const uint32_t *list, size_t n, uint32_t nsm, ge_err *e);
int prof_inflight(infl_ws *w, uint32_t c, uint16_t out[PROF_INFL_NSETS][PROF_INFL_NWAYS], ge_err *e);
void infl_ws_free(infl_ws *w);
uint64_t pb_rand(uint64_t *s);

#endif
