/*
 * ptx_decode_alu.c - decoding of the arithmetic, logic, shift, bit-field and
 * special-function instructions (add ... sfu): their type and modifier
 * checks, operand lists and the warp stream's op kind (isa_op), following
 * the SASS each compiles to (docs/ptx.md).  ptx_decode.c dispatches here.
 */
#include "ptx_exec.h"
#include "ptx_int.h"

static int wide_type(int ty)
{
    switch (ty) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    default: return -1;
    }
}

static int alu_isa(int op, int ty)
{
    if (ty == PTX_T_F64) {
        switch (op) {
        case PTX_OP_MUL: return ISA_OP_FP64_MUL;
        case PTX_OP_MAD: case PTX_OP_FMA: return ISA_OP_FP64_FMA;
        case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT: return ISA_OP_FP64_DIV;
        default: return ISA_OP_FP64_ADD;
        }
    }
    if (is_flt(ty)) {
        switch (op) {
        case PTX_OP_MUL: return ISA_OP_FP32_MUL;
        case PTX_OP_MAD: case PTX_OP_FMA: return ISA_OP_FP32_FMA;
        case PTX_OP_DIV: return ISA_OP_FP32_DIV;
        default: return ISA_OP_FP32_ADD;
        }
    }
    switch (op) {
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return ISA_OP_INT_MUL;
    case PTX_OP_DIV: case PTX_OP_REM:
        return ISA_OP_INT_DIV;
    default:
        return ISA_OP_INT_ALU;
    }
}

/* arithmetic with all operands of the instruction type: d, a[, b[, c]] */
int dec_arith(dec *D, int nsrc)
{
    if (dec_nargs(D, nsrc + 1, nsrc + 1) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0))
        return -1;
    for (int i = 1; i <= nsrc; i++)
        if (dec_val(D, i, ty))
            return -1;
    D->in.isa = (uint8_t)alu_isa(D->in.op, ty);
    return 0;
}

int dec_add(dec *D)
{
    mods *M = &D->M;
    if (dec_arith(D, 2))
        return -1;
    int ty = D->in.type;
    if (is_int(ty) && (M->rnd || (M->flags & (PTX_F_FTZ)) || tsize(ty) < 2 || tsize(ty) > 8))
        return dec_bad(D);
    if (M->flags & PTX_F_SAT && is_int(ty) && ty != PTX_T_S32)
        return dec_bad(D);
    if ((M->flags & PTX_F_CC || D->in.op == PTX_OP_ADDC || D->in.op == PTX_OP_SUBC) && !(tsize(ty) >= 4 && is_int(ty)))
        return dec_bad(D);
    if (is_flt(ty) && ty == PTX_T_TF32)
        return dec_bad(D);
    return 0;
}

int dec_mul(dec *D)
{
    mods *M = &D->M;
    int op = D->in.op;
    int nsrc = (op == PTX_OP_MUL || op == PTX_OP_MUL24) ? 2 : 3;
    if (dec_nargs(D, nsrc + 1, nsrc + 1) || dec_need_type(D, 1))
        return -1;
    int ty = M->types[0];
    D->in.type = (uint8_t)ty;
    if (is_int(ty)) {
        if (M->rnd || (M->flags & PTX_F_FTZ) || tsize(ty) < 2)
            return dec_bad(D);
        if (M->flags & PTX_F_WIDE) {
            int wt = wide_type(ty);
            if (wt < 0)
                return dec_bad(D);
            if (dec_dst(D, 0, wt, 0) || dec_val(D, 1, ty) || dec_val(D, 2, ty) || (nsrc == 3 && dec_val(D, 3, wt)))
                return -1;
        } else {
            if (!(M->lo || M->hi) && op != PTX_OP_MADC)
                return dec_bad(D);
            if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty) || dec_val(D, 2, ty) || (nsrc == 3 && dec_val(D, 3, ty)))
                return -1;
        }
        if (M->hi)
            D->in.flags |= PTX_F_HI;
        if ((op == PTX_OP_MUL24 || op == PTX_OP_MAD24) && ty != PTX_T_S32 && ty != PTX_T_U32)
            return dec_bad(D);
        if ((M->flags & PTX_F_SAT) && !(ty == PTX_T_S32 && M->hi && op == PTX_OP_MAD))
            return dec_bad(D);
    } else {
        if (M->lo || M->hi || (M->flags & PTX_F_WIDE) || op == PTX_OP_MUL24 || op == PTX_OP_MAD24 ||
            ty == PTX_T_TF32 || op == PTX_OP_MADC)
            return dec_bad(D);
        if (dec_dst(D, 0, ty, 0))
            return -1;
        for (int i = 1; i <= nsrc; i++)
            if (dec_val(D, i, ty))
                return -1;
    }
    D->in.isa = (uint8_t)alu_isa(op, ty);
    return 0;
}

int dec_fma(dec *D)
{
    if (dec_arith(D, 3))
        return -1;
    if (!is_flt(D->in.type) || D->in.type == PTX_T_TF32 || !D->M.rnd)
        return dec_bad(D);
    return 0;
}

int dec_div(dec *D)
{
    if (dec_arith(D, 2))
        return -1;
    int ty = D->in.type;
    if (D->in.op == PTX_OP_REM && !is_int(ty))
        return dec_bad(D);
    if (is_flt(ty)) {
        if (ty != PTX_T_F32 && ty != PTX_T_F64)
            return dec_bad(D);
        if (!(D->M.flags & PTX_F_APPROX) && !D->M.full && !D->M.rnd)
            return dec_bad(D);
        if ((D->M.flags & PTX_F_APPROX) && ty == PTX_T_F32)
            D->in.isa = ISA_OP_SFU_RCP;
    }
    return 0;
}

int dec_unary_int_or_float(dec *D)
{
    if (dec_arith(D, 1))
        return -1;
    return 0;
}

int dec_minmax(dec *D)
{
    if (dec_arith(D, 2))
        return -1;
    return 0;
}

int dec_bitcount(dec *D) /* popc, clz, bfind, brev */
{
    if (dec_nargs(D, 2, 2) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 4)
        return dec_bad(D);
    D->in.type2 = (uint8_t)ty;
    int dt = D->in.op == PTX_OP_BREV ? ty : PTX_T_U32;
    D->in.type = (uint8_t)dt;
    if (dec_dst(D, 0, dt, 0) || dec_val(D, 1, ty))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

int dec_bfe(dec *D)
{
    int isbfi = D->in.op == PTX_OP_BFI;
    if (dec_nargs(D, isbfi ? 5 : 4, isbfi ? 5 : 4) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 4)
        return dec_bad(D);
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty))
        return -1;
    if (isbfi && dec_val(D, 2, ty))
        return -1;
    for (int i = isbfi ? 3 : 2; i < D->n; i++)
        if (dec_val(D, i, PTX_T_U32))
            return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

int dec_arith_like_dst(dec *D, int ty, int nsrc)
{
    if (dec_dst(D, 0, ty, 0))
        return -1;
    for (int i = 1; i <= nsrc; i++)
        if (dec_val(D, i, ty))
            return -1;
    return 0;
}

int dec_logic(dec *D)
{
    int op = D->in.op;
    int nsrc = (op == PTX_OP_NOT || op == PTX_OP_CNOT) ? 1 : op == PTX_OP_LOP3 ? 4 : 2;
    if (dec_nargs(D, nsrc + 1, nsrc + 1) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    D->in.type = (uint8_t)ty;
    if (ty == PTX_T_PRED) {
        if (op == PTX_OP_CNOT || op == PTX_OP_LOP3)
            return dec_bad(D);
        if (dec_dst(D, 0, ty, 0))
            return -1;
        for (int i = 1; i <= nsrc; i++)
            if (dec_val(D, i, ty))
                return -1;
    } else {
        if (!is_int(ty) || tsize(ty) < 2)
            return dec_bad(D);
        if (op == PTX_OP_LOP3 && ty != PTX_T_B32)
            return dec_bad(D);
        if (dec_arith_like_dst(D, ty, nsrc))
            return -1;
    }
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}


int dec_shift(dec *D)
{
    if (dec_nargs(D, 3, 3) || dec_need_type(D, 1))
        return -1;
    int ty = D->M.types[0];
    if (!is_int(ty) || tsize(ty) < 2)
        return dec_bad(D);
    if (D->in.op == PTX_OP_SHL && tkind(ty) != 'b')
        return dec_bad(D);
    D->in.type = (uint8_t)ty;
    if (dec_dst(D, 0, ty, 0) || dec_val(D, 1, ty) || dec_val(D, 2, PTX_T_U32))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

int dec_shf(dec *D)
{
    if (D->M.ndir != 1 || D->M.ntypes != 1 || D->M.types[0] != PTX_T_B32)
        return dec_bad(D);
    if (dec_nargs(D, 4, 4))
        return -1;
    D->in.type = PTX_T_B32;
    D->in.sub = (uint8_t)D->M.dir; /* 0 left, 1 right */
    if (dec_dst(D, 0, PTX_T_B32, 0) || dec_val(D, 1, PTX_T_B32) || dec_val(D, 2, PTX_T_B32) || dec_val(D, 3, PTX_T_U32))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

int dec_prmt(dec *D)
{
    if (dec_nargs(D, 4, 4) || dec_need_type(D, 1) || D->M.types[0] != PTX_T_B32)
        return -1;
    D->in.type = PTX_T_B32;
    D->in.sub = (uint8_t)D->M.prmt;
    if (dec_arith_like_dst(D, PTX_T_B32, 3))
        return -1;
    D->in.isa = ISA_OP_INT_ALU;
    return 0;
}

int dec_dp(dec *D)
{
    if (dec_nargs(D, 4, 4) || dec_need_type(D, 2))
        return -1;
    int a = D->M.types[0], b = D->M.types[1];
    if ((a != PTX_T_U32 && a != PTX_T_S32) || (b != PTX_T_U32 && b != PTX_T_S32))
        return dec_bad(D);
    if (D->in.op == PTX_OP_DP2A && !(D->M.lo || D->M.hi))
        return dec_bad(D);
    if (D->M.hi)
        D->in.flags |= PTX_F_HI;
    D->in.type = (uint8_t)a;
    D->in.type2 = (uint8_t)b;
    int dt = (a == PTX_T_S32 || b == PTX_T_S32) ? PTX_T_S32 : PTX_T_U32;
    if (dec_dst(D, 0, dt, 0) || dec_val(D, 1, a) || dec_val(D, 2, b) || dec_val(D, 3, dt))
        return -1;
    D->in.isa = ISA_OP_INT_MUL;
    return 0;
}

int dec_sfu(dec *D)
{
    int op = D->in.op;
    if (dec_arith(D, 1))
        return -1;
    int ty = D->in.type;
    if (ty != PTX_T_F32 && ty != PTX_T_F64)
        return dec_bad(D);
    int approx = (D->M.flags & PTX_F_APPROX) != 0;
    switch (op) {
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
        if (!approx && !D->M.rnd)
            return dec_bad(D);
        if (ty == PTX_T_F32)
            D->in.isa = op == PTX_OP_RCP ? ISA_OP_SFU_RCP : ISA_OP_SFU_SQRT;
        else if (approx)
            D->in.isa = op == PTX_OP_RCP ? ISA_OP_SFU_RCP : ISA_OP_SFU_SQRT;
        else
            D->in.isa = ISA_OP_FP64_DIV;
        break;
    case PTX_OP_RSQRT:
        if (!approx)
            return dec_bad(D);
        D->in.isa = ISA_OP_SFU_SQRT;
        break;
    default: /* sin cos ex2 lg2 tanh: .approx .f32 only */
        if (!approx || ty != PTX_T_F32)
            return dec_bad(D);
        D->in.isa = op == PTX_OP_LG2 ? ISA_OP_SFU_LOG : (op == PTX_OP_SIN || op == PTX_OP_COS) ? ISA_OP_SFU_SIN
                                                                                                 : ISA_OP_SFU_EXP;
        break;
    }
    return 0;
}
