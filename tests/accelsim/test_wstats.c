/*
 * test_wstats.c - stream statistics against numbers worked out by hand
 * (comments give the arithmetic), on a synthetic stream and on the real
 * sm61 trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "accelsim.h"
#include "as_testutil.h"
#include "wstats.h"

static ws_inst *add(ws_cta *c, isa_op op, uint32_t mask, unsigned size)
{
    ge_err e;
    ws_inst *in = ws_cta_push(c, &e);
    assert_non_null(in);
    in->op = (uint8_t)op;
    in->mask = mask;
    in->size = (uint8_t)size;
    return in;
}

/* Lane l reads base + l*stride (inactive lanes 0). */
static void mem(ws_cta *c, isa_op op, uint32_t mask, unsigned size, uint64_t base, uint64_t stride)
{
    ge_err e;
    ws_inst *in = add(c, op, mask, size);
    uint64_t *a = ws_cta_push_addr(c, in, &e);
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1)
            a[l] = base + (uint64_t)l * stride;
}

static ws_kernel kernel(uint32_t id, uint32_t gx)
{
    ws_kernel k;
    memset(&k, 0, sizeof k);
    k.name = id == 1 ? "A" : "B";
    k.id = id;
    k.grid[0] = gx;
    k.grid[1] = k.grid[2] = 1;
    k.block[0] = 64;
    k.block[1] = k.block[2] = 1;
    k.binary_version = 80;
    return k;
}

static vec_source *stream(void)
{
    ge_err e;
    vec_source *v = vec_new();
    ws_kernel ka = kernel(1, 2), kb = kernel(2, 1);
    ws_cta c;
    ws_cta_init(&c);
    vec_kernel(v, &ka);
    /* CTA 0, warp 0 */
    assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
    mem(&c, ISA_OP_LD_GLOBAL, ~0u, 4, 0x1000, 4);     /* 128 B aligned: 1 line, 4 sectors */
    mem(&c, ISA_OP_LD_GLOBAL, ~0u, 4, 0x10000, 128);  /* a line per lane: 32 lines, 32 sectors */
    mem(&c, ISA_OP_ST_GLOBAL, ~0u, 8, 0x20004, 8);    /* bytes 0x20004..0x20103: 3 lines, 9 sectors */
    mem(&c, ISA_OP_ST_LOCAL, 1u, 16, 0x30078, 0);     /* 0x30078..0x30087 crosses a line: 2 lines, 2 sectors */
    mem(&c, ISA_OP_LD_SHARED, ~0u, 4, 0x0, 4);        /* shared: not a request */
    mem(&c, ISA_OP_LD_GLOBAL, 0u, 4, 0x9000, 4);      /* no active lane: not a request */
    add(&c, ISA_OP_FP32_ADD, 0xffffu, 0);             /* 16 lanes */
    add(&c, ISA_OP_EXIT, ~0u, 0);
    /* CTA 0, warp 1 */
    assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
    mem(&c, ISA_OP_ATOM_GLOBAL, 3u, 4, 0x1000, 0);    /* both lanes on one word: 1 line, 1 sector */
    vec_cta(v, &c);
    /* CTA 1 */
    ws_cta_reset(&c);
    c.id[0] = 1;
    c.index = 1;
    assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
    mem(&c, ISA_OP_LD_GLOBAL, ~0u, 4, 0x1000, 4);     /* the first line again */
    vec_cta(v, &c);
    /* kernel B */
    vec_kernel(v, &kb);
    ws_cta_reset(&c);
    c.id[0] = 0;
    c.index = 0;
    assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
    mem(&c, ISA_OP_LD_GLOBAL, ~0u, 4, 0x1000, 4);     /* line 0x20, seen in A */
    mem(&c, ISA_OP_LD_GLOBAL, ~0u, 4, 0x5000, 4);     /* line 0xa0, new */
    vec_cta(v, &c);
    ws_cta_free(&c);
    return v;
}

static void hand_computed(void **state)
{
    (void)state;
    vec_source *v = stream();
    ws_source *s = vec_source_open(v);
    wstats w;
    ge_err e;
    wstats_init(&w);
    assert_int_equal(wstats_run(&w, s, NULL, &e), 0);
    ws_close(s);
    assert_int_equal(w.nkernels, 2);

    const wstats_kernel *a = &w.kernels[0];
    assert_string_equal(a->name, "A");
    assert_int_equal(a->ctas, 2);
    assert_int_equal(a->warp_insts, 10);
    /* 32+32+32+1+32+0+16+32 (warp 0) + 2 (warp 1) + 32 (CTA 1) */
    assert_int_equal(a->thread_insts, 211);
    assert_float_equal(wstats_simd_efficiency(a), 211.0 / 320.0, 1e-12);
    assert_int_equal(a->mem_requests, 6);
    assert_int_equal(a->mem_sectors, 4 + 32 + 9 + 2 + 1 + 4);
    assert_int_equal(a->mem_lines, 1 + 32 + 3 + 2 + 1 + 1);
    assert_float_equal(wstats_sectors_per_request(a), 52.0 / 6.0, 1e-12);
    assert_float_equal(wstats_lines_per_request(a), 40.0 / 6.0, 1e-12);
    assert_int_equal(a->lines_touched, 1 + 32 + 3 + 2); /* 0x1000's line counted once */
    assert_int_equal(a->shared_requests, 1);
    assert_int_equal(a->op[ISA_OP_LD_GLOBAL], 4);
    assert_int_equal(a->op[ISA_OP_ST_GLOBAL], 1);
    assert_int_equal(a->op[ISA_OP_ST_LOCAL], 1);
    assert_int_equal(a->op[ISA_OP_LD_SHARED], 1);
    assert_int_equal(a->op[ISA_OP_ATOM_GLOBAL], 1);
    assert_int_equal(a->op[ISA_OP_FP32_ADD], 1);
    assert_int_equal(a->op[ISA_OP_EXIT], 1);

    const wstats_kernel *b = &w.kernels[1];
    assert_int_equal(b->warp_insts, 2);
    assert_int_equal(b->mem_requests, 2);
    assert_int_equal(b->mem_sectors, 8);
    assert_int_equal(b->lines_touched, 2);

    const wstats_kernel *t = &w.total;
    assert_string_equal(t->name, "total");
    assert_int_equal(t->ctas, 3);
    assert_int_equal(t->warp_insts, 12);
    assert_int_equal(t->thread_insts, 211 + 64);
    assert_int_equal(t->mem_requests, 8);
    assert_int_equal(t->mem_sectors, 60);
    assert_int_equal(t->lines_touched, 38 + 1); /* distinct over both kernels */
    wstats_free(&w);
    vec_free(v);
}

static void empty_and_errors(void **state)
{
    (void)state;
    wstats w;
    ge_err e;
    ws_cta c;
    ws_cta_init(&c);
    wstats_init(&w);
    assert_int_equal(wstats_add_cta(&w, &c, &e), -1); /* no kernel yet */
    ws_kernel k = kernel(1, 1);
    assert_int_equal(wstats_begin_kernel(&w, &k, &e), 0);
    wstats_end_kernel(&w);
    assert_int_equal(w.kernels[0].warp_insts, 0);
    assert_float_equal(wstats_simd_efficiency(&w.kernels[0]), 0.0, 0.0);
    assert_float_equal(wstats_sectors_per_request(&w.kernels[0]), 0.0, 0.0);
    wstats_free(&w);
    ws_cta_free(&c);
}

/* The sm61 vectorAdd: 100 floats per array, 1 CTA of 32 warps.
 * Warps 0-2 run 22 full instructions and a masked-off EXIT (3 x 704
 * lanes); warp 3 runs 8 full ones, an EXIT for 28 lanes and 14 with 4
 * lanes (256 + 28 + 56); warps 4-31 run 9 full ones (28 x 288).
 * Memory: 3 arrays x 4 warps; warps 0-2 read 128 aligned bytes (4
 * sectors), warp 3 reads 16 bytes (1 sector); each array covers 4 lines. */
static void sm61_by_hand(void **state)
{
    (void)state;
    ws_source *s;
    ge_err e;
    wstats w;
    wstats_init(&w);
    assert_int_equal(accelsim_open("tests/data/traces/vectoradd_sm61", &s, &e), 0);
    assert_int_equal(wstats_run(&w, s, NULL, &e), 0);
    ws_close(s);
    const wstats_kernel *k = &w.kernels[0];
    assert_int_equal(k->warp_insts, 4 * 23 + 28 * 9);
    assert_int_equal(k->thread_insts, 3 * 704 + 256 + 28 + 56 + 28 * 288);
    assert_int_equal(k->mem_requests, 12);
    assert_int_equal(k->mem_sectors, 3 * (3 * 4 + 1));
    assert_int_equal(k->mem_lines, 12);
    assert_int_equal(k->lines_touched, 12);
    assert_int_equal(k->op[ISA_OP_LD_GLOBAL], 8);
    assert_int_equal(k->op[ISA_OP_ST_GLOBAL], 4);
    assert_int_equal(k->op[ISA_OP_EXIT], 36);
    wstats_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_computed),
        cmocka_unit_test(empty_and_errors),
        cmocka_unit_test(sm61_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
