/*
 * synth.h - a tiny in-memory warp stream for model tests: one kernel whose
 * CTAs are built by the test, launched `launches` times (default once).
 */
#ifndef TEST_SYNTH_H
#define TEST_SYNTH_H

#include "wstream.h"

typedef struct synth_source {
    ws_source base;
    ws_kernel k;
    ws_cta *ctas;
    size_t nctas, next;
    int stage; /* 0 before the kernel event, 1 in it, 2 done */
    uint32_t launches, launched;
} synth_source;

/* Kernel with grid (nctas,1,1) and block (threads,1,1); the CTAs are
 * initialised and owned by the source. */
void synth_init(synth_source *s, const char *name, uint32_t nctas, uint32_t threads, uint32_t nregs);
void synth_free(synth_source *s);
/* Append an instruction to warp w of CTA c (warps are created on demand). */
ws_inst *synth_add(synth_source *s, uint32_t c, uint32_t w, isa_op op, uint32_t mask);
/* ...with per-lane addresses base + lane * stride, size bytes each. */
ws_inst *synth_add_mem(synth_source *s, uint32_t c, uint32_t w, isa_op op, uint32_t mask, uint64_t base,
                       uint64_t stride, uint8_t size);
/* A coalesced 4-byte load from base into r1 and an FMA that uses it. */
void synth_add_load_use(synth_source *s, uint32_t c, uint32_t w, uint64_t base);
/* The profiler tests' kernel: nctas CTAs of 2 warps, each with a load-use
 * pair, an uncoalesced load (32 lines of one sector) and a 2-way
 * bank-conflicted shared store (synth.c). */
void synth_build_kernel(synth_source *s, uint32_t nctas);
/* The launch-burst kernel ("prologue"): nctas CTAs of 2 warps, each warp 8
 * coalesced loads of its own lines into r1..r8.  mode 0 issues all loads
 * before the first use (one FMA per loaded register), 1 uses each load
 * right after it; 2 stores each loaded value to shared memory at once and
 * computes after a barrier (a tile load), 3 as 2 with an FMA after the
 * first store. */
void synth_build_prologue(synth_source *s, uint32_t nctas, int mode);

#endif
