/*
 * test_as_write.c - the Accel-Sim writer: real traces and random streams
 * survive a write + read unchanged (plain and xz), instruction lines of a
 * real trace are reproduced byte for byte, a stream with PTX mnemonics and
 * every op kind comes back with identical kinds, masks, registers,
 * addresses and sizes, and invalid streams are refused with one line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "accelsim.h"
#include "as_testutil.h"

#define SM61 "tests/data/traces/vectoradd_sm61"
#define SM80XZ "tests/data/traces/vectoradd_sm80_xz"

static void round_trip_path(const char *path, int xz)
{
    char *dir = tu_tmpdir();
    ws_source *a, *b;
    ge_err e;
    char why[512];
    assert_int_equal(accelsim_open(path, &a, &e), 0);
    if (accelsim_write_stream(a, dir, xz, &e))
        fail_msg("%s", e.msg);
    ws_close(a);
    assert_int_equal(accelsim_open(path, &a, &e), 0);
    if (accelsim_open(dir, &b, &e))
        fail_msg("%s", e.msg);
    if (ws_compare(a, b, CMP_MNEMONICS | CMP_TRACER, why, sizeof why))
        fail_msg("%s (xz %d): %s", path, xz, why);
    ws_close(a);
    ws_close(b);
    tu_rmdir(dir);
    free(dir);
}

static void round_trip_real(void **state)
{
    (void)state;
    round_trip_path(SM61, 0);
    round_trip_path(SM61, 1);
    round_trip_path(SM80XZ, 0);
    round_trip_path(SM80XZ, 1);
}

/* Keep only instruction lines (those starting with a hex PC). */
static char *inst_lines(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1), *o = out;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if ((p[0] >= '0' && p[0] <= '9') || (p[0] >= 'a' && p[0] <= 'f')) {
            memcpy(o, p, len);
            o += len;
        }
        p += len;
    }
    *o = 0;
    return out;
}

/* The writer chooses address modes as the tracer does, so a real trace's
 * instruction lines come back byte for byte (and warps/TBs in order). */
static void same_bytes_as_tracer(void **state)
{
    (void)state;
    char *dir = tu_tmpdir();
    ws_source *a;
    ge_err e;
    assert_int_equal(accelsim_open(SM61, &a, &e), 0);
    assert_int_equal(accelsim_write_stream(a, dir, 0, &e), 0);
    ws_close(a);
    char *k1 = tu_path(dir, "kernel-1.traceg"), *kl = tu_path(dir, "kernelslist.g");
    char *orig = tu_read_file(SM61 "/kernel-1.traceg", NULL), *mine = tu_read_file(k1, NULL);
    char *orig_list = tu_read_file(SM61 "/kernelslist.g", NULL), *my_list = tu_read_file(kl, NULL);
    assert_non_null(mine);
    char *x = inst_lines(orig), *y = inst_lines(mine);
    assert_true(strlen(x) > 10000);
    assert_string_equal(x, y);
    assert_string_equal(orig_list, my_list);
    /* the header keeps every field */
    assert_non_null(strstr(mine, "-kernel name = _Z6vecAddIfEvPT_S1_S1_i\n"));
    assert_non_null(strstr(mine, "-shmem base_addr = 0x00007f2b5a000000\n"));
    assert_non_null(strstr(mine, "-nvbit version = 1.5.5\n"));
    assert_non_null(strstr(mine, "-accelsim tracer version = 4\n"));
    free(x);
    free(y);
    free(orig);
    free(mine);
    free(orig_list);
    free(my_list);
    free(k1);
    free(kl);
    tu_rmdir(dir);
    free(dir);
}

/* ---- synthetic streams ---- */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static ws_kernel base_kernel(uint32_t binver, const char *const *ops, uint32_t nops)
{
    ws_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "synthetic";
    k.id = 1;
    k.grid[0] = 3;
    k.grid[1] = 2;
    k.grid[2] = 1;
    k.block[0] = 96;
    k.block[1] = 1;
    k.block[2] = 1;
    k.nregs = 40;
    k.shmem_static = 4096;
    k.binary_version = binver;
    k.tracer_version = 5;
    k.shmem_base = 0x7f0000000000ull;
    k.local_base = 0x7f1000000000ull;
    k.opcodes = ops;
    k.nopcodes = nops;
    return k;
}

/* Random lane addresses in one of the shapes real code produces. */
static void fill_addrs(uint64_t *a, uint32_t mask, unsigned size)
{
    uint64_t base = (rnd() % (1ull << 40)) & ~(uint64_t)(size - 1);
    int shape = (int)(rnd() % 4);
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1)) {
            a[l] = 0;
            continue;
        }
        switch (shape) {
        case 0: a[l] = base + (uint64_t)l * size; break;               /* coalesced */
        case 1: a[l] = base + (uint64_t)l * 4096; break;               /* strided */
        case 2: a[l] = base + (rnd() % 65536) * size; break;           /* gather */
        default: a[l] = base - (uint64_t)l * 8 + (rnd() % 2) * 128; break; /* descending, jittered */
        }
    }
}

static uint32_t random_mask(void)
{
    switch (rnd() % 5) {
    case 0: return 0xffffffffu;
    case 1: return 0;
    case 2: return 1u << (rnd() % 32);
    case 3: return (uint32_t)rnd();
    default: return 0xffffffffu >> (rnd() % 32);
    }
}

/* One CTA of random instructions; kind_of[i] is the op kind of mnemonic i. */
static void random_cta(ws_cta *c, uint32_t x, uint32_t y, int nwarps, const int *kind_of, int nops,
                       const unsigned *sizes)
{
    ge_err e;
    ws_cta_reset(c);
    c->id[0] = x;
    c->id[1] = y;
    c->id[2] = 0;
    c->index = x + 3ull * y;
    for (int w = 0; w < nwarps; w++) {
        assert_int_equal(ws_cta_begin_warp(c, &e), 0);
        int n = w == 1 ? 0 : (int)(rnd() % 40); /* warp 1 stays empty */
        for (int i = 0; i < n; i++) {
            ws_inst *in = ws_cta_push(c, &e);
            int o = (int)(rnd() % (uint64_t)nops);
            in->pc = (uint64_t)i * 16 + (rnd() % 3 == 0 ? 0x100000000ull : 0);
            in->mask = random_mask();
            in->opcode = (uint16_t)o;
            in->op = (uint8_t)kind_of[o];
            in->imm = rnd() % 4 == 0 ? (uint32_t)rnd() : 0;
            in->ndst = (uint8_t)(rnd() % (WS_MAX_DST + 1));
            in->nsrc = (uint8_t)(rnd() % (WS_MAX_SRC + 1));
            for (int r = 0; r < in->ndst; r++)
                in->dst[r] = (uint16_t)(rnd() % 70000 % 65536);
            for (int r = 0; r < in->nsrc; r++)
                in->src[r] = (uint16_t)(rnd() % 300);
            if (isa_is_mem((isa_op)in->op)) {
                in->size = (uint8_t)sizes[rnd() % 5];
                uint64_t *a = ws_cta_push_addr(c, in, &e);
                fill_addrs(a, in->mask, in->size);
            }
        }
    }
}

/* SASS mnemonics of kernels kept as they are. */
static const char *const sass_ops[] = {
    "IMAD.MOV.U32", "LDG.E.64.SYS", "STG.E.128", "LDS.U.32", "ATOMS.ADD", "RED.E.ADD.F32.FTZ.RN",
    "MUFU.RSQ",     "FFMA.FTZ",     "BAR.SYNC",  "EXIT",     "BRA",       "ISETP.GE.AND",
    "HMMA.1688.F32", "DFMA",        "LDL.LU",    "STL.64",   "I2F.F64",   "SHFL.BFLY",
};
#define NSASS (int)(sizeof sass_ops / sizeof *sass_ops)

static void random_round_trip(void **state)
{
    (void)state;
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    int kind_of[NSASS];
    for (int i = 0; i < NSASS; i++) {
        kind_of[i] = accelsim_op_of(80, sass_ops[i]);
        assert_true(kind_of[i] >= 0);
    }
    for (int trial = 0; trial < 6; trial++) {
        rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)trial;
        vec_source *v = vec_new();
        vec_memcpy(v, WS_EV_MEMCPY_H2D, 0x7f0000001000ull, 4096);
        ws_kernel k = base_kernel(trial % 2 ? 86 : 80, sass_ops, NSASS);
        k.tracer_version = (uint32_t)(3 + trial % 3);
        k.stream = (uint32_t)trial;
        vec_kernel(v, &k);
        ws_cta c;
        ws_cta_init(&c);
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 3; x++) {
                if (x == 1 && y == 1)
                    continue; /* a CTA the trace leaves out */
                random_cta(&c, x, y, 3, kind_of, NSASS, sizes);
                vec_cta(v, &c);
            }
        k.id = 2;
        k.nvbit_version = "1.7";
        vec_kernel(v, &k);
        random_cta(&c, 2, 1, 2, kind_of, NSASS, sizes);
        vec_cta(v, &c);
        vec_memcpy(v, WS_EV_MEMCPY_D2H, 0x7f0000001000ull, 64);
        ws_cta_free(&c);

        char *dir = tu_tmpdir();
        ge_err e;
        char why[512];
        ws_source *src = vec_source_open(v);
        if (accelsim_write_stream(src, dir, trial % 2, &e))
            fail_msg("%s", e.msg);
        ws_close(src);
        ws_source *a = vec_source_open(v), *b;
        if (accelsim_open(dir, &b, &e))
            fail_msg("%s", e.msg);
        if (ws_compare(a, b, CMP_MNEMONICS | CMP_TRACER, why, sizeof why))
            fail_msg("trial %d: %s", trial, why);
        ws_close(a);
        ws_close(b);
        tu_rmdir(dir);
        free(dir);
        vec_free(v);
    }
}

/* A PTX-like stream: lower-case mnemonics, every op kind, binary versions
 * 70..90.  Read back, kinds/masks/registers/addresses/sizes are identical
 * (the mnemonics become canonical SASS). */
static void every_kind_with_ptx_mnemonics(void **state)
{
    (void)state;
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    static const uint32_t versions[] = {70, 75, 80, 90};
    const char *ptx[ISA_OP_COUNT];
    char names[ISA_OP_COUNT][32];
    int kind_of[ISA_OP_COUNT];
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        snprintf(names[i], sizeof names[i], "ptx.%s.b32", isa_ops[i].name);
        ptx[i] = names[i];
        kind_of[i] = i;
    }
    for (size_t vi = 0; vi < sizeof versions / sizeof *versions; vi++) {
        rng_state = 12345 + vi;
        vec_source *v = vec_new();
        ws_kernel k = base_kernel(versions[vi], ptx, ISA_OP_COUNT);
        k.tracer_version = 0; /* written as 5 */
        k.nvbit_version = NULL;
        vec_kernel(v, &k);
        ws_cta c;
        ws_cta_init(&c);
        ge_err e;
        /* first warp: every kind once, full mask */
        c.id[0] = c.id[1] = c.id[2] = 0;
        c.index = 0;
        assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
        for (int i = 0; i < ISA_OP_COUNT; i++) {
            ws_inst *in = ws_cta_push(&c, &e);
            in->pc = (uint64_t)i * 16;
            in->mask = 0xffffffffu;
            in->opcode = (uint16_t)i;
            in->op = (uint8_t)i;
            in->ndst = 1;
            in->dst[0] = (uint16_t)(1000 + i);
            if (isa_is_mem((isa_op)i)) {
                in->size = 4;
                fill_addrs(ws_cta_push_addr(&c, in, &e), in->mask, 4);
            }
        }
        vec_cta(v, &c);
        random_cta(&c, 1, 0, 3, kind_of, ISA_OP_COUNT, sizes);
        vec_cta(v, &c);
        ws_cta_free(&c);

        char *dir = tu_tmpdir();
        char why[512];
        ws_source *src = vec_source_open(v);
        if (accelsim_write_stream(src, dir, 0, &e))
            fail_msg("%s", e.msg);
        ws_close(src);
        ws_source *a = vec_source_open(v), *b;
        assert_int_equal(accelsim_open(dir, &b, &e), 0);
        if (ws_compare(a, b, 0, why, sizeof why))
            fail_msg("binary version %u: %s", versions[vi], why);
        ws_close(a);
        ws_close(b);
        /* and the mnemonics written are SASS */
        char *k1 = tu_path(dir, "kernel-1.traceg");
        char *text = tu_read_file(k1, NULL);
        assert_null(strstr(text, "ptx."));
        assert_non_null(strstr(text, " FDIV "));
        assert_non_null(strstr(text, " MUFU.LG2 "));
        assert_non_null(strstr(text, "-accelsim tracer version = 5\n"));
        free(text);
        free(k1);
        tu_rmdir(dir);
        free(dir);
        vec_free(v);
    }
}

static void expect_write_error(const ws_kernel *k, const ws_cta *c, const char *want)
{
    char *dir = tu_tmpdir();
    ge_err e;
    accelsim_writer *w = accelsim_writer_open(dir, 0, &e);
    assert_non_null(w);
    ws_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = WS_EV_KERNEL;
    ev.kernel = *k;
    int r = accelsim_write_event(w, &ev, &e);
    if (r == 0 && c)
        r = accelsim_write_cta(w, k, c, &e);
    assert_int_equal(r, -1);
    assert_true(tu_one_line(e.msg));
    if (!strstr(e.msg, want))
        fail_msg("'%s' lacks '%s'", e.msg, want);
    accelsim_writer_close(w, &e);
    tu_rmdir(dir);
    free(dir);
}

static void writer_refuses(void **state)
{
    (void)state;
    static const char *const ops[] = {"HMMA.884", "LDG.E"};
    ws_kernel k = base_kernel(80, ops, 2);
    k.nregs = 300;
    expect_write_error(&k, NULL, "nregs = 300 out of range");
    k = base_kernel(0, ops, 2);
    expect_write_error(&k, NULL, "binary version = 0 is not supported");

    ws_cta c;
    ge_err e;
    ws_cta_init(&c);
    assert_int_equal(ws_cta_begin_warp(&c, &e), 0);
    ws_inst *in = ws_cta_push(&c, &e);
    in->op = ISA_OP_TENSOR;
    in->opcode = 0;
    k = base_kernel(61, ops, 2); /* Pascal has no tensor instruction */
    expect_write_error(&k, &c, "op kind tensor has no SASS mnemonic for binary version 61");
    in->op = ISA_OP_LD_GLOBAL;
    in->opcode = 1;
    in->size = 4; /* but no addresses */
    k = base_kernel(80, ops, 2);
    expect_write_error(&k, &c, "a memory size without addresses");
    in->size = 0;
    c.id[0] = 7;
    expect_write_error(&k, &c, "CTA (7,0,0) is outside the grid");
    ws_cta_free(&c);

    assert_null(accelsim_writer_open("", 0, &e));
    assert_null(accelsim_writer_open("/proc/gpuest-cannot-create/x", 0, &e));
    assert_true(tu_one_line(e.msg));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_real),
        cmocka_unit_test(same_bytes_as_tracer),
        cmocka_unit_test(random_round_trip),
        cmocka_unit_test(every_kind_with_ptx_mnemonics),
        cmocka_unit_test(writer_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
