/*
 * profiler.h - warp stream -> workload profile (model/profile.h).
 *
 * One pass over the stream.  Per kernel it accumulates the instruction mix
 * and coalescing, the per-warp dependency structure, CTA signatures, a
 * reservoir of warps and a set of candidate CTAs; at the end of the kernel it
 * clusters warps and CTAs and keeps representatives.  Memory accesses are
 * logged compactly (bounded: see prof_options) and the reuse histograms are
 * computed at the end of the workload, because the L2's history spans
 * kernels.
 */
#ifndef MODEL_PROFILER_H
#define MODEL_PROFILER_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "wstream.h"

#define PROF_MAX_NSMS 16

typedef struct prof_options {
    uint32_t nsms[PROF_MAX_NSMS]; /* SM counts to measure L1 histograms for */
    uint32_t n_nsms;
    uint32_t l1_sms;              /* SMs whose L1 streams are measured per SM count */
    uint32_t l1_ctas_per_sm;      /* at most this many CTAs of each such SM are logged */
    uint32_t warp_clusters;       /* max representative warps per kernel */
    uint32_t cta_clusters;        /* max CTA clusters per kernel */
    uint32_t max_sample;          /* sample CTAs kept per kernel */
    uint32_t candidates;          /* candidate CTAs considered per kernel */
    uint32_t run;                 /* candidates come in runs of this many consecutive CTAs */
    size_t keep_all_bytes;        /* keep every CTA of a kernel whose stream is smaller */
    uint32_t reservoir_warps;     /* warps kept for representative-warp clustering */
    size_t l2_log_max;            /* L2 log entries before hash sampling halves its rate */
    uint64_t seed;
} prof_options;

/* Defaults; nsms = the SM counts of the shipped configs. */
void prof_options_default(prof_options *o);

/* Build a profile from every kernel of src.  source/size/seed are recorded. */
int prof_build(ws_source *src, const prof_options *o, const char *source, uint32_t size, uint64_t seed,
               profile *out, ge_err *e);

#endif
