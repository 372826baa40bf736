/*
 * trim.h - temporal sampling inside CTAs for the hybrid estimator.
 *
 * Spatial sampling alone cannot shorten a kernel whose few CTAs each run a
 * long loop (a grid-stride loop over a large input, a long dot product):
 * every sampled CTA is as long as the kernel.  Trimming copies a sample CTA
 * with only `keep` iterations of each warp's hot loop, so that the same CTAs
 * run in detail for a fraction of the time.  Cycles grow about linearly in
 * the iterations kept, so two trimmed runs (keep k1 < k2) give the cost of
 * the iterations dropped, and the whole sample's cycles follow
 * (calib/hybrid.c).  See trim.c for how the loop is found and cut.
 */
#ifndef CALIB_TRIM_H
#define CALIB_TRIM_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "wstream.h"

/* The hot loops of a set of CTAs (which must outlive it). */
typedef struct est_loops est_loops;

est_loops *est_loops_find(const ws_cta *const *ctas, size_t n, ge_err *e);
void est_loops_free(est_loops *l);

/* Warp instructions that trimming every CTA to `keep` iterations drops
 * (keep >= 2: the first keep - 1 iterations and the last stay). */
double est_loops_dropped(const est_loops *l, uint32_t keep);

/* dst = CTA i trimmed to `keep` iterations.  A CTA that cannot be cut
 * safely, or whose warps run no more than `keep`, is copied whole. */
int est_loops_trim(const est_loops *l, size_t i, uint32_t keep, ws_cta *dst, ge_err *e);

#endif
