/*
 * calib_fixture.h - what the calibration tests share.
 */
#ifndef TESTS_CALIB_FIXTURE_H
#define TESTS_CALIB_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "synth.h"

/* nctas CTAs of 2 warps, each reading 8 lines twice; nregs registers per
 * thread (calib_fixture.c says what the L1 sees). */
void calib_build(synth_source *s, uint32_t nctas, uint32_t nregs);
/* Profile of s keeping every CTA up to keep_all bytes (1: samples only),
 * at most 16 sample CTAs per kernel. */
void calib_profile_of(synth_source *s, size_t keep_all, profile *p);

#endif
