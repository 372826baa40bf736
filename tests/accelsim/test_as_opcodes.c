/*
 * test_as_opcodes.c - SASS mnemonic -> op kind per family, modifiers that
 * change the kind, instructions that exist only in some generations, and
 * the writer's canonical mnemonics mapping back to their kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "accelsim.h"

typedef struct {
    const char *mn;
    int op[5]; /* kind under Pascal(61), Volta(70), Turing(75), Ampere(80), Hopper(90); -1 unknown */
} expect;

#define K(x) ISA_OP_##x
#define ALL(x) {K(x), K(x), K(x), K(x), K(x)}

static const expect cases[] = {
    {"FADD", ALL(FP32_ADD)},
    {"FFMA.FTZ", ALL(FP32_FMA)},
    {"FMUL32I", ALL(FP32_MUL)},
    {"HFMA2.MMA", ALL(FP32_FMA)},
    {"MUFU.RSQ", ALL(SFU_SQRT)},
    {"MUFU.SQRT", ALL(SFU_SQRT)},
    {"MUFU.RCP64H", ALL(SFU_RCP)},
    {"MUFU.LG2", ALL(SFU_LOG)},
    {"MUFU.EX2", ALL(SFU_EXP)},
    {"MUFU.SIN", ALL(SFU_SIN)},
    {"MUFU.COS", ALL(SFU_SIN)},
    {"MUFU", {-1, -1, -1, -1, -1}},
    {"MUFU.BOGUS", {-1, -1, -1, -1, -1}},
    {"DADD", ALL(FP64_ADD)},
    {"DMUL", ALL(FP64_MUL)},
    {"DFMA.RM", ALL(FP64_FMA)},
    {"IMAD", ALL(INT_MUL)},
    {"IMAD.WIDE", ALL(INT_MUL)},
    {"IMAD.WIDE.U32", ALL(INT_MUL)},
    {"IMAD.MOV.U32", ALL(INT_ALU)},
    {"IMAD.SHL.U32", ALL(INT_ALU)},
    {"IMAD.IADD", ALL(INT_ALU)},
    {"IADD3.X", ALL(INT_ALU)},
    {"XMAD.PSL.CBCC", {K(INT_MUL), -1, -1, -1, -1}},
    {"SSY", {K(BRANCH), -1, -1, -1, -1}},
    {"BSSY", {-1, K(BRANCH), K(BRANCH), K(BRANCH), K(BRANCH)}},
    {"I2F.F64", ALL(CONV)},
    {"F2I.FTZ.TRUNC", ALL(CONV)},
    {"F2F.F16.F32", ALL(CONV)},
    {"F2FP.PACK_AB", {-1, -1, -1, K(CONV), K(CONV)}},
    {"LDG.E.64.SYS", ALL(LD_GLOBAL)},
    {"LDG.E.CG", ALL(LD_GLOBAL)},
    {"LD.E", ALL(LD_GLOBAL)},
    {"STG.E.128", ALL(ST_GLOBAL)},
    {"LDS.U.128", ALL(LD_SHARED)},
    {"STS.64", ALL(ST_SHARED)},
    {"LDL.LU", ALL(LD_LOCAL)},
    {"STL", ALL(ST_LOCAL)},
    {"LDC.64", ALL(LD_CONST)},
    {"ULDC.64", {-1, -1, K(LD_CONST), K(LD_CONST), K(LD_CONST)}},
    {"TEX.SCR.LL", ALL(LD_TEX)},
    {"TLD.LZ", ALL(LD_TEX)},
    {"ATOM.E.ADD", ALL(ATOM_GLOBAL)},
    {"ATOMG.E.CAS.STRONG.GPU", ALL(ATOM_GLOBAL)},
    {"RED.E.ADD.F32.FTZ.RN", ALL(ATOM_GLOBAL)},
    {"ATOMS.ADD", ALL(ATOM_SHARED)},
    {"LDSM.16.M88.4", {-1, -1, K(LD_SHARED), K(LD_SHARED), K(LD_SHARED)}},
    {"LDGSTS.E.BYPASS.128", {-1, -1, -1, K(LD_GLOBAL), K(LD_GLOBAL)}},
    {"BAR.SYNC", ALL(BARRIER)},
    {"BAR.RED.POPC", ALL(BARRIER)},
    {"MEMBAR.SC.GPU", ALL(FENCE)},
    {"HMMA.1688.F32", {-1, K(TENSOR), K(TENSOR), K(TENSOR), K(TENSOR)}},
    {"IMMA.8816.S8.S8", {-1, K(TENSOR), K(TENSOR), K(TENSOR), K(TENSOR)}},
    {"DMMA.884", {-1, -1, -1, K(TENSOR), K(TENSOR)}},
    {"HGMMA.64x128x16.F32", {-1, -1, -1, -1, K(TENSOR)}},
    {"BRA", ALL(BRANCH)},
    {"EXIT", ALL(EXIT)},
    {"NOP", ALL(NOP)},
    {"S2R", ALL(MISC)},
    {"CS2R.32", ALL(MISC)},
    {"SHFL.BFLY", ALL(MISC)},
    {"VOTE.ANY", ALL(MISC)},
    {"ISETP.GE.AND", ALL(INT_ALU)},
    {"FDIV", ALL(FP32_DIV)},
    {"IDIV", ALL(INT_DIV)},
    {"DDIV", ALL(FP64_DIV)},
    {"UTMALDG.2D", {-1, -1, -1, -1, -1}},
    {"ld.global.f32", {-1, -1, -1, -1, -1}},
    {"", {-1, -1, -1, -1, -1}},
    {".E", {-1, -1, -1, -1, -1}},
};

static const uint32_t fam_versions[5] = {61, 70, 75, 80, 90};

static void mnemonic_kinds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int f = 0; f < 5; f++) {
            int got = accelsim_op_of(fam_versions[f], cases[i].mn);
            if (got != cases[i].op[f])
                fail_msg("%s under %u: got %d, want %d", cases[i].mn, fam_versions[f], got, cases[i].op[f]);
        }
}

static void versions(void **state)
{
    (void)state;
    static const uint32_t ok[] = {60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
    static const uint32_t bad[] = {0, 1, 35, 50, 52, 53, 71, 100};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        assert_true(accelsim_version_supported(ok[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(accelsim_version_supported(bad[i]));
        assert_int_equal(accelsim_op_of(bad[i], "FADD"), -1);
        assert_null(accelsim_canonical(bad[i], ISA_OP_FP32_ADD));
    }
    /* same family, same answers */
    assert_int_equal(accelsim_op_of(60, "XMAD"), ISA_OP_INT_MUL);
    assert_int_equal(accelsim_op_of(86, "LDGSTS"), ISA_OP_LD_GLOBAL);
    assert_int_equal(accelsim_op_of(89, "LDGSTS"), ISA_OP_LD_GLOBAL);
    assert_int_equal(accelsim_op_of(72, "HMMA.884.F32.F32"), ISA_OP_TENSOR);
}

static void canonical_maps_back(void **state)
{
    (void)state;
    static const uint32_t all[] = {60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90};
    for (size_t v = 0; v < sizeof all / sizeof *all; v++)
        for (int op = 0; op < ISA_OP_COUNT; op++) {
            const char *c = accelsim_canonical(all[v], (isa_op)op);
            if (all[v] < 70 && op == ISA_OP_TENSOR) {
                assert_null(c); /* Pascal: no tensor cores */
                continue;
            }
            if (!c)
                fail_msg("no canonical mnemonic for %s under %u", isa_ops[op].name, all[v]);
            assert_int_equal(accelsim_op_of(all[v], c), op);
        }
    assert_null(accelsim_canonical(80, ISA_OP_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mnemonic_kinds),
        cmocka_unit_test(versions),
        cmocka_unit_test(canonical_maps_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
