/*
 * synth.h - hand-built warp streams for the simulator's tests.
 *
 * A synth_kernel is a kernel launch whose CTAs a generator function builds
 * on demand (so tests need no trace files), usable as a sim_cta_feed (all
 * CTAs in order, or a chosen list) and, several together, as a ws_source.
 */
#ifndef SYNTH_H
#define SYNTH_H

#include "sim.h"
#include "wstream.h"

typedef int (*synth_gen)(void *ctx, uint64_t index, ws_cta *c, ge_err *e);

typedef struct synth_kernel {
    ws_kernel k;
    synth_gen gen;
    void *ctx;
    uint64_t next;         /* feed position */
    const uint64_t *pick;  /* optional: only these CTA indices, in this order */
    size_t npick;
} synth_kernel;

void synth_kernel_init(synth_kernel *s, const char *name, uint32_t grid, uint32_t block, uint32_t nregs,
                       uint32_t smem, synth_gen gen, void *ctx);
/* A feed over s's CTAs from the first (resets s's position). */
sim_cta_feed synth_feed(synth_kernel *s);
/* A source yielding the kernels in order (kernels must outlive it). */
ws_source *synth_source(synth_kernel *ks, size_t n);

/* Append to the current warp of c (-1 = no register).  The pc of the k-th
 * instruction of a warp is 16 * (k % synth_pc_period): by default 8, a loop
 * body of one 128-byte line, so the I-cache misses once per SM and kernel;
 * a test of the I-cache sets it larger (straight-line code). */
extern uint32_t synth_pc_period;
ws_inst *synth_op(ws_cta *c, isa_op op, int dst, int s0, int s1, int s2, uint32_t mask);
/* A memory instruction: lane l accesses base + l * stride (active lanes). */
ws_inst *synth_mem(ws_cta *c, isa_op op, int dst, int src, uint64_t base, int64_t stride, uint32_t size,
                   uint32_t mask);

/* Load tests/sampler/data/NAME (cwd = repo root); aborts the test on error. */
void synth_config(const char *name, gpu_config *cfg);
/* Set a config key and re-validate; aborts on error. */
void synth_set(gpu_config *cfg, const char *key, const char *value);
/* Run one kernel on a fresh simulator; returns 0 or -1 with e. */
int synth_run(const gpu_config *cfg, const sim_options *o, synth_kernel *s, kresult *r, ge_err *e);

#define FULL 0xffffffffu

#endif
