/*
 * test_calib.c - the hybrid estimator's rules: sweeps are deterministic
 * whatever the thread count, the Pareto front is right, small kernels are
 * simulated whole, full mode refuses a sampled profile, and the sample's
 * rates, weights and error terms.  (When a calibration may be reused:
 * test_calib_reuse.c.)
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calib_fixture.h"
#include "config_registry.h"
#include "estimate.h"
#include "estimate_int.h"
#include "occupancy.h"
#include "profiler.h"
#include "suite.h"
#include "suite_source.h"
#include "sweep.h"
#include "synth.h"

static void test_small_kernel_whole(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 12, 32);
    profile p;
    calib_profile_of(&s, 64u << 20, &p);
    assert_true(p.k[0].sample_is_all);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *h, *f;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h, &e), 0);
    o.mode = EST_FULL;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &f, &e), 0);
    assert_true(h[0].simulated_full);
    assert_true(h[0].r.cycles == f[0].r.cycles); /* the same simulation */
    /* and full mode on the stream itself: the same, every CTA counted as simulated */
    synth_source s2;
    calib_build(&s2, 12, 32);
    est_kernel *fs;
    size_t n;
    assert_int_equal(est_full_source(&cfg, &s2.base, &o, &fs, &n, &e), 0);
    assert_int_equal(n, 1);
    assert_true(fs[0].r.cycles == f[0].r.cycles);
    assert_int_equal(fs[0].r.sampled_ctas, 12);
    assert_int_equal(f[0].r.sampled_ctas, 12);
    free(fs);
    synth_free(&s2);
    free(h);
    free(f);
    prof_free(&p);
    synth_free(&s);
}

static void test_full_needs_all(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 200, 32);
    profile p;
    calib_profile_of(&s, 1, &p);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    o.mode = EST_FULL;
    est_kernel *r;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), -1);
    assert_non_null(strstr(e.msg, "full mode needs the workload or trace"));
    prof_free(&p);
    synth_free(&s);
}

/* The launch's prologue burst (docs/model.md step 7): 640 CTAs, all
 * resident on V100, load 8 lines per warp before using any.  A one-SM
 * sample issues no such burst, so the hybrid's error estimate carries the
 * share of the cycles the model adds for it (docs/hybrid.md step 7). */
static void test_burst_error_term(void **st)
{
    (void)st;
    synth_source s;
    synth_build_prologue(&s, 640, 0);
    profile p;
    calib_profile_of(&s, 1, &p);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *r;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
    assert_false(r[0].simulated_full);
    kresult mr;
    model_detail d;
    assert_int_equal(model_kernel(&cfg, NULL, &p, 0, &r[0].cal.params, NULL, &mr, &d, &e), 0);
    double share = d.burst_extra / mr.cycles;
    if (!(share > 0.01 && fabs(r[0].cal.error_burst - share) < 1e-9 && r[0].r.error_estimate >= share))
        fail_msg("burst share %.4f, its term %.4f, error estimate %.4f", share, r[0].cal.error_burst,
                 r[0].r.error_estimate);
    free(r);
    prof_free(&p);
    synth_free(&s);
}

/* Where the last wave runs (docs/hybrid.md step 7): 192 CTAs of the
 * prologue kernel on 4 of V100's SMs (32 resident each) run two waves, and
 * the error estimate carries half the difference the even and the
 * lock-step placement make in the model's cycles; 128 CTAs, one wave, leave
 * no choice and carry none. */
static void test_placement_error_term(void **st)
{
    (void)st;
    for (int two = 0; two < 2; two++) {
        synth_source s;
        synth_build_prologue(&s, two ? 192 : 128, 0);
        profile p;
        calib_profile_of(&s, 1, &p);
        gpu_config cfg;
        ge_err e;
        assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
        cfg.gpu.sm_count = 4;
        est_options o;
        est_options_default(&o);
        est_kernel *r;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
        assert_false(r[0].simulated_full);
        model_params lock = r[0].cal.params, even = r[0].cal.params;
        lock.cta_spread = 0;
        even.cta_spread = HUGE_VAL;
        kresult rl, re;
        assert_int_equal(model_kernel(&cfg, NULL, &p, 0, &lock, NULL, &rl, NULL, &e), 0);
        assert_int_equal(model_kernel(&cfg, NULL, &p, 0, &even, NULL, &re, NULL, &e), 0);
        double want = 0.5 * fabs(rl.cycles - re.cycles) / r[0].r.cycles;
        if ((two ? !(want > 0.01) : want != 0) || fabs(r[0].cal.error_placement - want) > 1e-9 ||
            r[0].r.error_estimate < want)
            fail_msg("%s: placement term %.4f, want %.4f (lock %.0f, even %.0f), error estimate %.4f",
                     two ? "two waves" : "one wave", r[0].cal.error_placement, want, rl.cycles, re.cycles,
                     r[0].r.error_estimate);
        free(r);
        prof_free(&p);
        synth_free(&s);
    }
}

/* A profile read without its warp streams (prof_read_opts' with_ctas = 0)
 * serves the model but is refused for simulation, not simulated empty. */
static void test_needs_ctas(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 12, 32);
    profile p;
    calib_profile_of(&s, 64u << 20, &p);
    assert_true(p.has_ctas);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *r;
    p.has_ctas = 0;
    static const est_mode simulating[] = {EST_HYBRID, EST_FULL};
    for (int i = 0; i < 2; i++) {
        o.mode = simulating[i];
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), -1);
        assert_non_null(strstr(e.msg, "sample CTAs, which were not read"));
    }
    o.mode = EST_MODEL;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
    assert_true(r[0].r.cycles > 0);
    free(r);
    prof_free(&p);
    synth_free(&s);
}

static void test_sweep_threads(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 320, 32);
    profile p;
    calib_profile_of(&s, 1, &p);
    sweep_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.nconfigs = 2;
    sp.configs[0] = "v100";
    sp.configs[1] = "gtx480";
    sp.nschedulers = 2;
    sp.schedulers[0] = "lrr";
    sp.schedulers[1] = "gto";
    sp.nvary = 1;
    snprintf(sp.vary[0].key, sizeof sp.vary[0].key, "dram.tCL");
    sp.vary[0].nvalues = 2;
    strcpy(sp.vary[0].values[0], "12");
    strcpy(sp.vary[0].values[1], "20");
    sp.mode = EST_HYBRID;
    assert_int_equal(sweep_count(&sp), 8);
    sweep_point *a, *b;
    ge_err e;
    sp.threads = 1;
    assert_int_equal(sweep_run(&sp, &p, &a, &e), 0);
    sp.threads = 3;
    assert_int_equal(sweep_run(&sp, &p, &b, &e), 0);
    int sampled = 0, reused = 0;
    for (size_t i = 0; i < 8; i++) {
        assert_string_equal(a[i].error, "");
        assert_true(a[i].cycles == b[i].cycles && a[i].energy_j == b[i].energy_j);
        assert_true(a[i].cycles > 0 && a[i].power_w > 0);
        sampled += (int)a[i].sampled;
        reused += (int)a[i].reused;
    }
    /* one sample per (config, scheduler) group; the tCL change is extrapolated */
    assert_int_equal(sampled, 4);
    assert_int_equal(reused, 4);
    free(a);
    free(b);
    prof_free(&p);
    synth_free(&s);
}

static void test_pareto(void **st)
{
    (void)st;
    sweep_point pts[5];
    memset(pts, 0, sizeof pts);
    double sec[] = {1, 2, 3, 2, 1}, en[] = {5, 3, 1, 4, 6};
    for (int i = 0; i < 5; i++) {
        pts[i].seconds = sec[i];
        pts[i].energy_j = en[i];
    }
    sweep_pareto(pts, 5);
    /* (1,5), (2,3), (3,1) are on the front; (2,4) is beaten by (2,3); (1,6) by (1,5) */
    int want[] = {1, 1, 1, 0, 0};
    for (int i = 0; i < 5; i++)
        assert_int_equal(pts[i].pareto, want[i]);
}

/* The background's shared lines (calib/shared_lines.c): a line every CTA
 * reads is shared; a CTA's own lines, and a line that only a pair of
 * neighbouring CTAs reads (inside one of the sample's runs), are not. */
#define GATHER_COMMON 0x9000000
#define GATHER_PAIR 0xa000000
static void gather_profile(profile *p)
{
    synth_source s;
    synth_init(&s, "gather", 2560, 32, 32);
    for (uint32_t c = 0; c < 2560; c++) {
        synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu, 0x1000000 + (uint64_t)c * 0x1000, 4, 4);
        synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu, GATHER_COMMON, 4, 4);
        synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu, GATHER_PAIR + (uint64_t)(c / 2) * 128, 4, 4);
        synth_add(&s, c, 0, ISA_OP_EXIT, 0xffffffffu);
    }
    calib_profile_of(&s, 1, p);
    synth_free(&s);
}

static void test_shared_lines(void **st)
{
    (void)st;
    const uint64_t common = GATHER_COMMON, pair = GATHER_PAIR;
    profile p;
    gather_profile(&p);
    const prof_kernel *pk = &p.k[0];
    assert_true(pk->nsample >= 16 && pk->sample_index[0] % 2 == 0);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    u64set shared;
    u64set_init(&shared);
    assert_int_equal(est_shared_lines(&cfg, pk, &shared, &e), 0);
    assert_int_equal(shared.count, 1);
    assert_true(u64set_has(&shared, common / 128));
    assert_false(u64set_has(&shared, pair / 128 + pk->sample_index[0] / 2));
    assert_false(u64set_has(&shared, (0x1000000 + pk->sample_index[0] * 0x1000) / 128));
    u64set_free(&shared);
    prof_free(&p);
}

/* The heaviest-CTA floor's error term (hybrid.c, tail_term): one CTA of
 * 2560 gathers 40 x 32 lines where the others read 2 lines, so the model
 * floors the kernel at that CTA's modelled time alone; the estimate must
 * carry the share of the cycles the floor adds (it fails if the term is
 * dropped: the other terms are a few per cent).  A uniform kernel (the
 * gather kernel above) has no floor and no term. */
static void test_tail_error_term(void **st)
{
    (void)st;
    synth_source s;
    synth_init(&s, "heavy", 2560, 32, 32);
    for (uint32_t c = 0; c < 2560; c++) {
        uint32_t loads = c == 0 ? 40 : 2;
        for (uint32_t i = 0; i < loads; i++)
            synth_add_mem(&s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu,
                          0x1000000 + (uint64_t)c * 0x100000 + (uint64_t)i * 0x1000, c == 0 ? 128 : 4, 4);
        synth_add(&s, c, 0, ISA_OP_EXIT, 0xffffffffu);
    }
    profile p, u;
    calib_profile_of(&s, 1, &p);
    gather_profile(&u);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    for (int i = 0; i < 2; i++) {
        const profile *q = i ? &u : &p;
        est_kernel *h;
        assert_int_equal(est_profile(&cfg, q, &o, NULL, &h, &e), 0);
        assert_false(h[0].simulated_full);
        kresult r;
        model_detail d;
        assert_int_equal(model_kernel(&cfg, cfg.sm.scheduler, q, 0, &h[0].cal.params, NULL, &r, &d, &e), 0);
        double term = d.t_tail > d.t_gens ? (d.t_tail - d.t_gens) / r.cycles : 0;
        printf("%s: floor %.0f over generations %.0f, term %.3f, error estimate %.3f\n", i ? "uniform" : "heavy",
               d.t_tail, d.t_gens, term, h[0].r.error_estimate);
        if (i == 0) {
            assert_true(term > 0.2);
            assert_true(h[0].r.error_estimate >= term - 1e-12);
        } else {
            assert_true(term == 0);
        }
        free(h);
    }
    prof_free(&p);
    prof_free(&u);
    synth_free(&s);
}

/* Profile of suite workload `name` at its default size, sampled. */
static void suite_profile(const char *name, profile *p)
{
    const wl_desc *w = suite_find(name);
    assert_non_null(w);
    wl_params wp = {w->default_size, 1};
    ws_source *src;
    ge_err e;
    if (suite_source_open(w, &wp, &src, &e))
        fail_msg("%s", e.msg);
    prof_options o;
    prof_options_default(&o);
    o.keep_all_bytes = 1;
    int rc = prof_build(src, &o, name, wp.size, 1, p, &e);
    ws_close(src);
    if (rc)
        fail_msg("%s", e.msg);
}

/* The estimate cache (est_cache.c) keeps a sampled kernel's shared lines
 * for the later estimates of its profile: on the gather kernel of
 * test_shared_lines (the synthetic stream, built by gather_profile), the
 * estimates with the cache (making the entry, then reading it) equal the
 * one without, the entry equals a fresh scan, and a cache made for another
 * profile is left alone. */
static void test_estimate_cache(void **st)
{
    (void)st;
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    profile p, q;
    gather_profile(&p);
    gather_profile(&q);
    est_cache *c = est_cache_new(&p, &e), *other = est_cache_new(&q, &e);
    assert_non_null(c);
    assert_non_null(other);
    est_options o;
    est_options_default(&o);
    est_kernel *h[4];
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h[0], &e), 0);
    assert_true(h[0][0].cal.params.l2_hit >= 0); /* the background run was made */
    assert_int_equal(est_cache_size(c), 0);
    o.cache = c;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h[1], &e), 0);
    assert_int_equal(est_cache_size(c), 1);
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h[2], &e), 0);
    assert_int_equal(est_cache_size(c), 1);
    o.cache = other;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h[3], &e), 0);
    assert_int_equal(est_cache_size(other), 0);
    for (int i = 1; i < 4; i++)
        assert_true(h[i][0].r.cycles == h[0][0].r.cycles);
    const u64set *got = est_cache_shared_lines(c, &cfg, 0, &e);
    assert_non_null(got);
    assert_ptr_equal(got, est_cache_shared_lines(c, &cfg, 0, &e));
    u64set fresh;
    u64set_init(&fresh);
    assert_int_equal(est_shared_lines(&cfg, &p.k[0], &fresh, &e), 0);
    assert_int_equal(fresh.count, 1);
    assert_int_equal(got->count, fresh.count);
    for (size_t i = 0; i < fresh.cap; i++) {
        uint64_t line;
        if (u64set_at(&fresh, i, &line))
            assert_true(u64set_has(got, line));
    }
    /* another line size is another entry */
    cfg.l1d.line_bytes = 64;
    const u64set *half = est_cache_shared_lines(c, &cfg, 0, &e);
    assert_non_null(half);
    assert_ptr_not_equal(half, got);
    assert_int_equal(est_cache_size(c), 2);
    u64set_free(&fresh);
    for (int i = 0; i < 4; i++)
        free(h[i]);
    est_cache_free(c);
    est_cache_free(other);
    prof_free(&p);
    prof_free(&q);
}

/* The background run only measures the L2 and DRAM row-buffer hit rates
 * under load.  It is made when they can move the estimate (a stream,
 * vectoradd) and skipped when they cannot (fma_throughput, whose few loads
 * are a sliver of its time): the rates are then the model's own (-1), and
 * the estimate and its error estimate are the ones made without a
 * background run.  A measured row-hit rate adds its error term (hybrid.c,
 * row_sensitivity). */
static void test_background_when_it_matters(void **st)
{
    (void)st;
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    const char *names[2] = {"vectoradd", "fma_throughput"};
    for (int i = 0; i < 2; i++) {
        profile p;
        suite_profile(names[i], &p);
        est_options o;
        est_options_default(&o);
        est_kernel *h, *h0;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h, &e), 0);
        o.background = 0;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h0, &e), 0);
        const model_params *mp = &h[0].cal.params;
        printf("%-14s L2 hit %.3f, row hit %.3f; cycles %.0f, without background %.0f\n", names[i], mp->l2_hit,
               mp->row_hit, h[0].r.cycles, h0[0].r.cycles);
        assert_false(h[0].simulated_full);
        if (i == 0) {
            assert_true(mp->l2_hit >= 0 && mp->row_hit >= 0);
        } else {
            assert_true(mp->l2_hit < 0 && mp->row_hit < 0);
            assert_true(h[0].r.cycles == h0[0].r.cycles);
            assert_true(h[0].r.error_estimate == h0[0].r.error_estimate);
        }
        free(h);
        free(h0);
        prof_free(&p);
    }
}

/* A row-hit rate measured by the background run brings an error term: the
 * relative change of the modelled cycles with the rate 0.3 lower (hybrid.c,
 * row_sensitivity).  vectoradd on RTX 2060 is bound by its DRAM
 * efficiency, so the term is most of its error estimate. */
static void test_row_hit_error_term(void **st)
{
    (void)st;
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("rtx2060", &cfg, &e), 0);
    profile p;
    suite_profile("vectoradd", &p);
    est_options o;
    est_options_default(&o);
    est_kernel *h;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h, &e), 0);
    const model_params *mp = &h[0].cal.params;
    assert_true(mp->row_hit >= 0);
    model_params lo = *mp;
    lo.row_hit = fmax(0, mp->row_hit - 0.3);
    kresult a, b;
    assert_int_equal(model_kernel(&cfg, cfg.sm.scheduler, &p, 0, mp, NULL, &a, NULL, &e), 0);
    assert_int_equal(model_kernel(&cfg, cfg.sm.scheduler, &p, 0, &lo, NULL, &b, NULL, &e), 0);
    double term = fabs(b.cycles - a.cycles) / a.cycles;
    printf("row hit %.3f: term %.4f, error estimate %.4f\n", mp->row_hit, term, h[0].r.error_estimate);
    assert_true(term > 0.1);
    assert_true(fabs(h[0].cal.error_row - term) < 1e-12); /* reported on its own (error_row_hit) */
    /* the other terms are a few per cent: the estimate is the term in quadrature with them */
    assert_true(h[0].r.error_estimate >= term && h[0].r.error_estimate < term + 0.05);
    free(h);
    prof_free(&p);
}

/* How many CTAs a sampled SM runs: what a real SM runs, capped at 2
 * generations, or 4 when the kernel runs 8 or more generations per SM
 * (est_options.sample_rounds = 0); a set sample_rounds is the cap. */
static void test_sample_rounds(void **st)
{
    (void)st;
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    const uint32_t nctas[2] = {2560, 640}; /* 32 and 8 CTAs per SM */
    for (int i = 0; i < 2; i++) {
        synth_source s;
        calib_build(&s, nctas[i], 255);
        profile p;
        calib_profile_of(&s, 1, &p);
        ws_kernel wk;
        prof_kernel_ws(&p, &p.k[0], &wk);
        occupancy occ;
        assert_int_equal(occ_compute(&cfg, &wk, &occ, &e), 0);
        uint32_t gens = nctas[i] / cfg.gpu.sm_count / occ.ctas_per_sm;
        est_options o;
        est_options_default(&o);
        est_kernel *r;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
        uint64_t dflt = r[0].r.sampled_ctas;
        free(r);
        o.sample_rounds = 1;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
        uint64_t one = r[0].r.sampled_ctas;
        free(r);
        printf("%u generations of %u CTAs per SM: sampled %llu by default, %llu with 1 round\n", gens,
               occ.ctas_per_sm, (unsigned long long)dflt, (unsigned long long)one);
        assert_int_equal(one, occ.ctas_per_sm);
        assert_int_equal(dflt, (gens >= 8 ? 4 : 2) * occ.ctas_per_sm);
        prof_free(&p);
        synth_free(&s);
    }
}

/* 2560 one-warp CTAs of a 1-D stencil: CTA c reads line c and line c + 1. */
static void halo_source(synth_source *s)
{
    synth_init(s, "halo", 2560, 32, 32);
    for (uint32_t c = 0; c < 2560; c++) {
        for (uint32_t i = 0; i < 2; i++) {
            ws_inst *ld = synth_add_mem(s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu, 0x1000000 + (uint64_t)(c + i) * 128, 4, 4);
            ld->ndst = 1;
            ld->dst[0] = (uint16_t)(1 + i);
        }
        ws_inst *f = synth_add(s, c, 0, ISA_OP_FP32_FMA, 0xffffffffu);
        f->nsrc = 2;
        f->src[0] = 1;
        f->src[1] = 2;
        synth_add(s, c, 0, ISA_OP_EXIT, 0xffffffffu);
    }
}

/* A sample's L1 rates on a GPU's dealing (hybrid.c, sample_and_fit): CTA c
 * of a 1-D stencil reads its own line and its right neighbour's.  A hybrid
 * sample runs neighbouring CTAs on one SM, which hit in its L1 on every
 * line they share (about half the sectors); a GPU deals CTA c to SM c mod
 * 80, where nothing is shared in an L1 and the second reader of a line
 * finds it in the L2.  The model sees both dealings in the profile's L1
 * histograms (one SM, and the GPU's SM count); the calibration must carry
 * the GPU's rate into the whole kernel and move what the sample's L1 caught
 * to the L2 (dropping either shift fails this). */
static void test_l1_dealing(void **st)
{
    (void)st;
    synth_source s;
    halo_source(&s);
    profile p;
    calib_profile_of(&s, 1, &p);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("v100", &cfg, &e), 0);
    model_params base;
    model_params_default(&base);
    model_scenario runs = {1, 32, NULL, 0, 1};
    kresult r;
    model_detail gpu, one;
    assert_int_equal(model_kernel(&cfg, cfg.sm.scheduler, &p, 0, &base, NULL, &r, &gpu, &e), 0);
    assert_int_equal(model_kernel(&cfg, cfg.sm.scheduler, &p, 0, &base, &runs, &r, &one, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *h;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h, &e), 0);
    const model_params *mp = &h[0].cal.params;
    printf("model L1 filter: GPU dealing %.3f, one SM %.3f; hybrid L1 hit %.3f, filter %.3f, L2 hit %.3f\n",
           gpu.l1_filter, one.l1_filter, mp->l1_hit, mp->l1_filter, mp->l2_hit);
    assert_true(gpu.l1_filter < 0.05);
    assert_true(one.l1_filter > 0.4 && one.l1_filter < 0.55);
    double shift = model_l1_dealing_shift(&cfg, cfg.sm.scheduler, &p, 0, 32);
    assert_true(shift < -0.4 && shift > -0.55);
    /* a profile without the one-SM histograms (older ones) shifts nothing */
    prof_options po;
    prof_options_default(&po);
    po.keep_all_bytes = 1;
    po.max_sample = 16;
    po.n_nsms = 1;
    po.nsms[0] = 80;
    profile q;
    synth_source s2;
    halo_source(&s2);
    assert_int_equal(prof_build(&s2.base, &po, "calib", 0, 1, &q, &e), 0);
    synth_free(&s2);
    assert_true(model_l1_dealing_shift(&cfg, cfg.sm.scheduler, &q, 0, 32) == 0);
    prof_free(&q);
    assert_false(h[0].simulated_full);
    assert_true(mp->l1_filter >= 0 && mp->l1_filter < 0.1);
    assert_true(mp->l1_hit >= 0 && mp->l1_hit < 0.1);
    /* the background run measured about 0 (in a run, a line's first reader misses and its neighbour
     * hits the L1); the shared hits the L1 gave up are L2 hits on the GPU */
    assert_true(mp->l2_hit > 0.35);
    free(h);
    prof_free(&p);
    synth_free(&s);
}

/* 2560 one-warp CTAs in a grid of 20 columns: CTA c reads its own line
 * and the 8 lines of its column (c mod 20), each used at once. */
static void column_source(synth_source *s)
{
    synth_init(s, "columns", 2560, 32, 32);
    for (uint32_t c = 0; c < 2560; c++) {
        synth_add_mem(s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu, 0x1000000 + (uint64_t)c * 128, 4, 4);
        for (uint32_t i = 0; i < 8; i++) {
            ws_inst *ld = synth_add_mem(s, c, 0, ISA_OP_LD_GLOBAL, 0xffffffffu,
                                        0x9000000 + (uint64_t)((c % 20) * 8 + i) * 128, 4, 4);
            ld->ndst = 1;
            ld->dst[0] = 1;
            ws_inst *f = synth_add(s, c, 0, ISA_OP_FP32_FMA, 0xffffffffu);
            f->nsrc = 1;
            f->src[0] = 1;
        }
        synth_add(s, c, 0, ISA_OP_EXIT, 0xffffffffu);
    }
}

/* The warm L2 of the later generations (hybrid.c, warm_share): CTAs of one
 * grid column share their column's lines, and a GPU deals the column's
 * CTAs to different SMs, so after the first generation (120 of the 2560
 * CTAs on GTX 480) a CTA finds them in the L2, fetched by other SMs.  A
 * sample SM runs a run of consecutive CTAs, each of another column, and
 * fetches every column from DRAM; fitted to that alone, the hybrid was
 * 45% slow (27,817 cycles against 19,133).  With the warm run weighed in it
 * is within 8% (-1.7%), and its error estimate carries the weighing. */
static void test_warm_shared(void **st)
{
    (void)st;
    synth_source s;
    column_source(&s);
    profile p;
    calib_profile_of(&s, 1, &p);
    synth_free(&s);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    est_kernel *h, *f;
    assert_int_equal(est_profile(&cfg, &p, &o, NULL, &h, &e), 0);
    assert_false(h[0].simulated_full);
    column_source(&s);
    size_t n;
    assert_int_equal(est_full_source(&cfg, &s.base, &o, &f, &n, &e), 0);
    double err = h[0].r.cycles / f[0].r.cycles - 1;
    printf("columns on GTX 480: hybrid %.0f cycles, full %.0f (%+.1f%%), error estimate %.4f\n", h[0].r.cycles,
           f[0].r.cycles, 100 * err, h[0].r.error_estimate);
    assert_true(fabs(err) < 0.08);
    /* the weighing's term: at most the smaller weight (1 - 120 / 2560) times the runs' difference, which
     * is under the weighed cycles; and part of the estimate */
    double w = 120.0 / 2560;
    printf("cold/warm term %.4f of at most %.4f\n", h[0].cal.error_warm, w);
    assert_true(h[0].cal.error_warm > 0.2 * w && h[0].cal.error_warm < w);
    assert_true(h[0].r.error_estimate >= h[0].cal.error_warm);
    free(h);
    free(f);
    prof_free(&p);
    synth_free(&s);
}

/* est_dealing_shift by hand.  A sectored L1 (V100's): the sample hit 0.05
 * and filtered 0.5 (merges), so 0.5 sectors per load sector reached the L2,
 * none of them hits; a shift of -0.45 moves 0.45 of the filter (the hit
 * rate only 0.05), and those become L2 hits: 0.45 / (0.5 + 0.45).  An L1 of
 * whole lines (GTX 480's, hotspot): the sample hit 0.45 but fetched 1.37
 * sectors per load sector, so the filter reads 0; the hit rate's 0.286
 * move: (0.104 x 1.37 + 0.286) / (1.37 + 0.286).  A positive shift or a
 * rate the sample did not measure changes nothing below. */
static void test_dealing_shift_rates(void **st)
{
    (void)st;
    model_params mp;
    model_params_default(&mp);
    mp.l1_hit = 0.05, mp.l1_filter = 0.5, mp.l2_hit = 0;
    est_dealing_shift(&mp, -0.45, 0.5);
    assert_true(mp.l1_hit == 0 && fabs(mp.l1_filter - 0.05) < 1e-12);
    assert_true(fabs(mp.l2_hit - 0.45 / 0.95) < 1e-12);
    model_params_default(&mp);
    mp.l1_hit = 0.45, mp.l1_filter = 0, mp.l2_hit = 0.104;
    est_dealing_shift(&mp, -0.286, 1.37);
    assert_true(fabs(mp.l1_hit - 0.164) < 1e-12 && mp.l1_filter == 0);
    assert_true(fabs(mp.l2_hit - (0.104 * 1.37 + 0.286) / (1.37 + 0.286)) < 1e-12);
    model_params_default(&mp);
    mp.l1_hit = 0.45, mp.l1_filter = 0.6;
    est_dealing_shift(&mp, -0.2, 0.4); /* l2_hit < 0: the model's own, untouched */
    assert_true(mp.l2_hit < 0 && fabs(mp.l1_filter - 0.4) < 1e-12);
}

/* est_tail_weighted by hand.  k-means at 32 K points on RTX 2060: 128 CTAs
 * on 30 SMs; the sample SM's fifth CTA stands for the 8 fifth CTAs of the
 * GPU, the first four for 30 each, so its 0.875 weighs 8 / 128 of the rate:
 * 8 x 87.5 / (128 x 100).  CTAs of two SMs, interleaved in launch order,
 * are placed by their own SM's count (all in full rounds: unweighted); a
 * position no GPU SM reaches weighs nothing. */
static void test_tail_weights(void **st)
{
    (void)st;
    sim_cta_stat cta[5];
    for (int i = 0; i < 5; i++)
        cta[i] = (sim_cta_stat){.index = (uint64_t)i, .sm = 0, .l1_load_sectors = 100, .l1_load_hits = i == 4 ? 87.5 : 0};
    sim_detail d = {.sms = 1, .ctas_per_sm = 4, .ncta = 5, .cta = cta};
    double s, h;
    est_tail_weighted(&d, 128, 30, &s, &h);
    assert_true(fabs(h / s - 8 * 87.5 / (128 * 100.0)) < 1e-12);
    assert_true(fabs(s - (400 + 100 * 8 / 30.0)) < 1e-9);
    for (int i = 0; i < 5; i++)
        cta[i].sm = (uint32_t)(i % 2); /* positions 0 0 1 1 2 */
    est_tail_weighted(&d, 128, 30, &s, &h);
    assert_true(s == 500 && h == 87.5);
    est_tail_weighted(&d, 20, 30, &s, &h); /* 20 CTAs: position 0 on 20 SMs, none beyond */
    assert_true(fabs(s - 200 * 20 / 30.0) < 1e-9 && h == 0);
}

/* The early generations' extra by hand: 2 CTAs per SM of 10 warp
 * instructions each; SM 0's generations end at 100, 160, 220, 280 (the
 * first 40 cycles longer than the later pace of 60), SM 1's at 90, 130,
 * 170, 210 (pace 40, first 50 longer); the run's cycles are the later
 * SM's end, 280.  SM 0: 280 - 80 x 120 / 40 = 40; SM 1: 280 - 80 x 80 / 40
 * = 120 (its 70 idle cycles at the end count too). */
static void test_early_extra(void **st)
{
    (void)st;
    sim_cta_stat cta[16];
    const double ends[2][4] = {{100, 160, 220, 280}, {90, 130, 170, 210}};
    size_t n = 0;
    for (int g = 0; g < 4; g++)
        for (uint32_t sm = 0; sm < 2; sm++)
            for (int i = 0; i < 2; i++) /* the two CTAs of a generation end 2 cycles apart */
                cta[n] = (sim_cta_stat){.index = n, .sm = sm, .end = (uint64_t)ends[sm][g] - 1 + 2 * i,
                                          .warp_insts = 10}, n++;
    sim_detail d = {.sms = 2, .ctas_per_sm = 2, .ncta = n, .cta = cta};
    assert_true(fabs(est_early_extra(&d, 280) - (40 + 120) / 2.0) < 1e-9);
    /* 3 generations do not tell the pace (the last one drains) */
    d.ncta = 12;
    assert_true(est_early_extra(&d, 220) == 0);
    /* one SM of 4 generations, one of 3: the first alone */
    sim_cta_stat mix[14];
    memcpy(mix, cta, 12 * sizeof *mix);
    mix[12] = cta[12], mix[13] = cta[13]; /* SM 0's last generation */
    d.cta = mix, d.ncta = 14;
    assert_true(fabs(est_early_extra(&d, 280) - 40) < 1e-9);
}

/* The first generation's end spread by hand: SM 0's first two CTAs (placed
 * at the launch) end at 100 and 130, SM 1's at 90 and 150; the later CTAs,
 * placed afterwards, do not count: (30 + 60) / 2.  An SM whose first
 * generation is one CTA tells nothing (-1 when no SM tells). */
static void test_first_spread(void **st)
{
    (void)st;
    sim_cta_stat cta[] = {
        {.sm = 0, .start = 0, .end = 100}, {.sm = 1, .start = 0, .end = 90},  {.sm = 0, .start = 0, .end = 130},
        {.sm = 1, .start = 0, .end = 150}, {.sm = 0, .start = 100, .end = 400}, {.sm = 1, .start = 90, .end = 900},
    };
    sim_detail d = {.sms = 2, .ctas_per_sm = 2, .ncta = 6, .cta = cta};
    assert_true(fabs(est_first_spread(&d) - 45) < 1e-9);
    d.ncta = 2; /* one first-generation CTA per SM */
    assert_true(est_first_spread(&d) == -1);
}

/* Start phases (hybrid.c, average_phases): with N of them the sample runs
 * alone N times, run i started 3 i cycles later against the memory clocks,
 * and the calibration keeps the runs' mean cycles; the error estimate
 * carries half their range over the mean.  The runs are the same whatever
 * N (run 0 is the one-phase run), so the sample cycles with 1, 2 and 3
 * phases give each run's cycles, from which the terms follow.  (100 CTAs
 * on GTX 480 run in one generation: no warm run is weighed in.) */
static void test_start_phases(void **st)
{
    (void)st;
    synth_source s;
    calib_build(&s, 100, 32);
    profile p;
    calib_profile_of(&s, 1, &p);
    gpu_config cfg;
    ge_err e;
    assert_int_equal(gcfg_load_named("gtx480", &cfg, &e), 0);
    est_options o;
    est_options_default(&o);
    assert_int_equal(o.sample_phases, EST_SAMPLE_PHASES);
    double mean[3], term[3], est[3];
    for (uint32_t n = 1; n <= 3; n++) {
        o.sample_phases = n;
        est_kernel *r;
        assert_int_equal(est_profile(&cfg, &p, &o, NULL, &r, &e), 0);
        assert_false(r[0].simulated_full);
        mean[n - 1] = r[0].cal.sample_cycles;
        term[n - 1] = r[0].cal.error_phase;
        est[n - 1] = r[0].r.error_estimate;
        free(r);
    }
    double c[3] = {mean[0], 2 * mean[1] - mean[0], 3 * mean[2] - 2 * mean[1]};
    printf("sample cycles at start delays 0, 3, 6: %.0f %.0f %.0f; phase terms %.4f %.4f\n", c[0], c[1], c[2],
           term[1], term[2]);
    for (int i = 1; i < 3; i++) /* a few cycles' delay moves a run by far less than half */
        assert_true(c[i] > 0.5 * c[0] && c[i] < 2 * c[0]);
    double lo2 = fmin(c[0], c[1]), hi2 = fmax(c[0], c[1]);
    double lo3 = fmin(lo2, c[2]), hi3 = fmax(hi2, c[2]);
    assert_true(term[0] == 0);
    assert_true(fabs(term[1] - (hi2 - lo2) / (2 * mean[1])) < 1e-9);
    assert_true(fabs(term[2] - (hi3 - lo3) / (2 * mean[2])) < 1e-9);
    for (int i = 0; i < 3; i++)
        assert_true(est[i] >= term[i] - 1e-12);
    prof_free(&p);
    synth_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_kernel_whole), cmocka_unit_test(test_shared_lines), cmocka_unit_test(test_estimate_cache), cmocka_unit_test(test_tail_error_term),
        cmocka_unit_test(test_full_needs_all), cmocka_unit_test(test_needs_ctas), cmocka_unit_test(test_burst_error_term), cmocka_unit_test(test_placement_error_term), cmocka_unit_test(test_sweep_threads),
        cmocka_unit_test(test_pareto), cmocka_unit_test(test_background_when_it_matters),
        cmocka_unit_test(test_sample_rounds), cmocka_unit_test(test_row_hit_error_term),
        cmocka_unit_test(test_l1_dealing), cmocka_unit_test(test_dealing_shift_rates), cmocka_unit_test(test_tail_weights), cmocka_unit_test(test_warm_shared), cmocka_unit_test(test_early_extra), cmocka_unit_test(test_first_spread),
        cmocka_unit_test(test_start_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
