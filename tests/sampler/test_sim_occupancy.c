/*
 * test_sim_occupancy.c - the CTA scheduler respects CUDA's occupancy rules.
 *
 * Expected CTAs per SM are worked out by hand from the rules of the CUDA
 * occupancy calculator (CUDA C Programming Guide, "Compute Capabilities"
 * tables; register allocation per warp rounded up to the unit, shared
 * memory per CTA rounded up to the unit plus the 1 KB the system reserves
 * per CTA on sm_80+), for the shipped GTX 480 (cc 2.0), V100 (cc 7.0) and
 * A100 (cc 8.0) configs, whose limits come from the same tables.  Then the
 * simulator must place exactly that many CTAs at once on an SM (counted
 * from the per-CTA start/end cycles), never more.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config_registry.h"
#include "occupancy.h"
#include "synth.h"

typedef struct occ_case {
    const char *config;
    uint32_t threads, regs, smem;
    uint32_t ctas;          /* expected CTAs per SM, by hand */
    const char *limiter;    /* expected limiting rule */
} occ_case;

static const occ_case cases[] = {
    /* V100, cc 7.0: 2048 threads, 64 warps, 32 CTAs, 65536 regs (256 per warp
     * granule), 96 KB shared (256 B granule). */
    {"v100", 256, 32, 0, 8, "warps"},             /* 8 warps/CTA: 64/8 = 8; regs 1024/warp -> 64 warps */
    {"v100", 256, 64, 0, 4, "registers"},         /* 2048 regs/warp -> 32 warps -> 4 CTAs */
    {"v100", 128, 40, 12288, 8, "shared_memory"}, /* regs 1280/warp -> 51 warps -> 12; smem 96K/12K = 8 */
    {"v100", 1024, 33, 0, 1, "registers"},        /* 33*32 = 1056 -> 1280/warp -> 51 warps -> 1 CTA of 32 */
    {"v100", 64, 16, 0, 32, "cta_slots"},         /* 2 warps/CTA: 32 by warps and by CTA slots */
    {"v100", 96, 128, 0, 5, "registers"},         /* 4096/warp -> 16 warps -> 5 CTAs of 3 */
    {"v100", 256, 255, 0, 1, "registers"},        /* 8160 -> 8192/warp -> 8 warps -> 1 */
    {"v100", 32, 16, 49153, 1, "shared_memory"},  /* 49153 -> 49408 B -> 98304/49408 = 1 */
    /* GTX 480, cc 2.0: 1536 threads, 48 warps, 8 CTAs, 32768 regs (64 per
     * warp granule), 48 KB shared (128 B granule). */
    {"gtx480", 256, 20, 0, 6, "warps"},           /* 640/warp -> 51 warps -> 6; warps 48/8 = 6 */
    {"gtx480", 192, 32, 8192, 5, "registers"},    /* 1024/warp -> 32 warps -> 5 of 6; smem 6 */
    {"gtx480", 128, 16, 0, 8, "cta_slots"},       /* warps 12, CTA slots 8 */
    {"gtx480", 512, 21, 0, 2, "registers"},       /* 672 -> 704/warp -> 46 warps -> 2 of 16 */
    {"gtx480", 64, 63, 20000, 2, "shared_memory"},/* 20000 -> 20096 B -> 49152/20096 = 2 */
    /* A100, cc 8.0: as V100 but 164 KB shared (128 B granule) with 1 KB
     * reserved per CTA. */
    {"a100", 256, 32, 16384, 8, "warps"},         /* smem 17408 -> 9; warps 8 */
    {"a100", 128, 32, 32768, 4, "shared_memory"}, /* 33792 B -> 167936/33792 = 4 */
    {"a100", 64, 16, 0, 32, "cta_slots"},         /* 1 KB reserved -> 164 by shared; 32 slots */
};

static void test_occupancy_rules(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const occ_case *c = &cases[i];
        gpu_config cfg;
        ge_err e;
        if (gcfg_load_named(c->config, &cfg, &e))
            fail_msg("%s", e.msg);
        ws_kernel k;
        memset(&k, 0, sizeof k);
        k.name = "k";
        k.grid[0] = k.grid[1] = k.grid[2] = 1;
        k.block[0] = c->threads;
        k.block[1] = k.block[2] = 1;
        k.nregs = c->regs;
        k.shmem_static = c->smem;
        occupancy o;
        if (occ_compute(&cfg, &k, &o, &e))
            fail_msg("%s", e.msg);
        if (o.ctas_per_sm != c->ctas || strcmp(occ_limiter_names[o.limiter], c->limiter))
            fail_msg("case %zu (%s %u thr %u regs %u B): %u CTAs (%s), want %u (%s)", i, c->config, c->threads,
                     c->regs, c->smem, o.ctas_per_sm, occ_limiter_names[o.limiter], c->ctas, c->limiter);
    }
}

static int gen_short(void *ctx, uint64_t index, ws_cta *c, ge_err *e)
{
    const uint32_t *warps = ctx;
    for (uint32_t w = 0; w < *warps; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        int n = 10 + (int)((index * 7 + w) % 13); /* CTAs of different lengths */
        for (int i = 0; i < n; i++)
            synth_op(c, ISA_OP_FP32_FMA, 1, 1, 2, -1, FULL);
        synth_op(c, ISA_OP_EXIT, -1, -1, -1, -1, FULL);
    }
    return 0;
}

/* Most CTAs resident on one SM at any cycle, from the CTA records. */
static uint32_t max_resident(const sim_detail *d, uint32_t sm)
{
    uint32_t best = 0;
    for (size_t i = 0; i < d->ncta; i++) {
        if (d->cta[i].sm != sm)
            continue;
        uint64_t t = d->cta[i].start; /* residency is [start, end] */
        uint32_t n = 0;
        for (size_t j = 0; j < d->ncta; j++)
            n += d->cta[j].sm == sm && d->cta[j].start <= t && t <= d->cta[j].end;
        best = n > best ? n : best;
    }
    return best;
}

static void test_scheduler_respects_occupancy(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const occ_case *c = &cases[i];
        gpu_config cfg;
        ge_err e;
        if (gcfg_load_named(c->config, &cfg, &e))
            fail_msg("%s", e.msg);
        synth_set(&cfg, "gpu.sm_count", "2");
        uint32_t warps = (c->threads + 31) / 32;
        synth_kernel k;
        synth_kernel_init(&k, "occ", 2 * 2 * c->ctas + 3, c->threads, c->regs, c->smem, gen_short, &warps);
        sim_options o;
        memset(&o, 0, sizeof o);
        o.mem_model = "perfect";
        sim_gpu *g = sim_create(&cfg, &o, &e);
        assert_non_null(g);
        sim_cta_feed f = synth_feed(&k);
        kresult r;
        if (sim_kernel(g, &k.k, &f, &r, &e))
            fail_msg("%s", e.msg);
        const sim_detail *d = sim_last_detail(g);
        assert_int_equal(d->ctas_per_sm, c->ctas);
        assert_string_equal(d->limiter, c->limiter);
        assert_int_equal(d->ncta, k.k.grid[0]);
        for (uint32_t s = 0; s < 2; s++)
            if (max_resident(d, s) != c->ctas)
                fail_msg("case %zu: SM %u held %u CTAs at once, occupancy allows %u", i, s, max_resident(d, s),
                         c->ctas);
        double limit = (double)c->ctas * warps / cfg.sm.max_warps;
        assert_true(r.occupancy > 0 && r.occupancy <= limit + 1e-9);
        sim_destroy(g);
    }
}

/* A CTA that cannot fit at all is refused before anything runs. */
static void test_cta_too_big(void **st)
{
    (void)st;
    gpu_config cfg;
    ge_err e;
    synth_config("test_volta.cfg", &cfg);
    uint32_t warps = 1;
    synth_kernel k;
    synth_kernel_init(&k, "big", 1, 32, 16, 200000, gen_short, &warps);
    kresult r;
    sim_options o;
    memset(&o, 0, sizeof o);
    o.mem_model = "perfect";
    assert_int_equal(synth_run(&cfg, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "shared memory"));
    synth_kernel_init(&k, "regs", 1, 32, 300, 0, gen_short, &warps);
    assert_int_equal(synth_run(&cfg, &o, &k, &r, &e), -1);
    assert_non_null(strstr(e.msg, "registers"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy_rules),
        cmocka_unit_test(test_scheduler_respects_occupancy),
        cmocka_unit_test(test_cta_too_big),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
