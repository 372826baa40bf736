/*
 * calib_fixture.c - the synthetic kernel and profile the calibration tests
 * share (calib_fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "calib_fixture.h"
#include "profiler.h"

/* A kernel whose warps each read 8 lines twice.  With 255 registers per
 * thread V100 holds 8 warps per SM, so the second pass reuses at a distance of about
 * 64 lines: it hits in V100's 256-line L1 and misses in a 16-line one. */
void calib_build(synth_source *s, uint32_t nctas, uint32_t nregs)
{
    synth_init(s, "calib_kernel", nctas, 64, nregs);
    for (uint32_t c = 0; c < nctas; c++)
        for (uint32_t w = 0; w < 2; w++) {
            uint64_t base = 0x1000000 + (uint64_t)c * 0x100000 + w * 0x80000;
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < 8; i++) {
                    ws_inst *ld = synth_add_mem(s, c, w, ISA_OP_LD_GLOBAL, 0xffffffffu, base + (uint64_t)i * 128, 4, 4);
                    ld->ndst = 1;
                    ld->dst[0] = 1;
                    ws_inst *f = synth_add(s, c, w, ISA_OP_FP32_FMA, 0xffffffffu);
                    f->nsrc = 1;
                    f->src[0] = 1;
                }
            synth_add(s, c, w, ISA_OP_EXIT, 0xffffffffu);
        }
}

void calib_profile_of(synth_source *s, size_t keep_all, profile *p)
{
    prof_options o;
    prof_options_default(&o);
    o.keep_all_bytes = keep_all;
    o.max_sample = 16;
    ge_err e;
    assert_int_equal(prof_build(&s->base, &o, "calib", 0, 1, p, &e), 0);
}
