/*
 * isa.h - the operation classes that every part of gpuest speaks.
 *
 * Both front-ends (SASS traces and PTX emulation) reduce an instruction to an
 * op kind.  The kind decides three things, all by table:
 *   - the functional unit that executes it (isa_unit),
 *   - the latency class whose latency and initiation interval the GPU config
 *     gives (isa_lat, keys of the config's `latency` group),
 *   - the activity counter it feeds for power (see activity.h).
 * Kinds are finer than units because power needs to tell an FMA from an add
 * and a sine from a square root (AccelWattch's component list).
 *
 * To add a kind: one line in ISA_OPS.  Order is part of the profile file
 * format (model/), so append, never reorder.
 */
#ifndef GE_ISA_H
#define GE_ISA_H

#include <stdint.h>

/* Functional unit pools of an SM. */
#define ISA_UNITS(X) \
    X(INT, "int")       \
    X(FP32, "fp32")     \
    X(FP64, "fp64")     \
    X(SFU, "sfu")       \
    X(TENSOR, "tensor") \
    X(LDST, "ldst")     \
    X(BRANCH, "branch")

typedef enum {
#define X(id, name) ISA_UNIT_##id,
    ISA_UNITS(X)
#undef X
    ISA_UNIT_COUNT
} isa_unit;

/* Latency classes: each has {latency, ii} in the config's `latency` group. */
#define ISA_LATS(X)           \
    X(INT, "int")             \
    X(INT_MUL, "int_mul")     \
    X(INT_DIV, "int_div")     \
    X(FP32, "fp32")           \
    X(FP32_DIV, "fp32_div")   \
    X(SFU, "sfu")             \
    X(FP64, "fp64")           \
    X(FP64_DIV, "fp64_div")   \
    X(TENSOR, "tensor")       \
    X(BRANCH, "branch")       \
    X(MISC, "misc")           \
    X(MEM, "mem")

typedef enum {
#define X(id, name) ISA_LAT_##id,
    ISA_LATS(X)
#undef X
    ISA_LAT_COUNT
} isa_lat;

/* Memory state spaces. */
typedef enum {
    ISA_SPACE_NONE = 0,
    ISA_SPACE_GLOBAL,
    ISA_SPACE_LOCAL,
    ISA_SPACE_SHARED,
    ISA_SPACE_CONST,
    ISA_SPACE_TEX,
} isa_space;

/* Flags of an op kind. */
enum {
    ISA_F_LOAD = 1 << 0,
    ISA_F_STORE = 1 << 1,
    ISA_F_ATOMIC = 1 << 2, /* read-modify-write at the memory side */
    ISA_F_BARRIER = 1 << 3,
    ISA_F_BRANCH = 1 << 4,
    ISA_F_EXIT = 1 << 5,
    ISA_F_FENCE = 1 << 6,
};

/*      id            name           unit    lat       space   flags */
#define ISA_OPS(X)                                                              \
    X(NOP, "nop", INT, MISC, NONE, 0)                                           \
    X(INT_ALU, "int_alu", INT, INT, NONE, 0)                                    \
    X(INT_MUL, "int_mul", INT, INT_MUL, NONE, 0)                                \
    X(INT_DIV, "int_div", INT, INT_DIV, NONE, 0)                                \
    X(FP32_ADD, "fp32_add", FP32, FP32, NONE, 0)                                \
    X(FP32_MUL, "fp32_mul", FP32, FP32, NONE, 0)                                \
    X(FP32_FMA, "fp32_fma", FP32, FP32, NONE, 0)                                \
    X(FP32_DIV, "fp32_div", SFU, FP32_DIV, NONE, 0)                             \
    X(CONV, "conv", SFU, SFU, NONE, 0)                                          \
    X(SFU_SQRT, "sfu_sqrt", SFU, SFU, NONE, 0)                                  \
    X(SFU_RCP, "sfu_rcp", SFU, SFU, NONE, 0)                                    \
    X(SFU_LOG, "sfu_log", SFU, SFU, NONE, 0)                                    \
    X(SFU_EXP, "sfu_exp", SFU, SFU, NONE, 0)                                    \
    X(SFU_SIN, "sfu_sin", SFU, SFU, NONE, 0)                                    \
    X(FP64_ADD, "fp64_add", FP64, FP64, NONE, 0)                                \
    X(FP64_MUL, "fp64_mul", FP64, FP64, NONE, 0)                                \
    X(FP64_FMA, "fp64_fma", FP64, FP64, NONE, 0)                                \
    X(FP64_DIV, "fp64_div", FP64, FP64_DIV, NONE, 0)                            \
    X(TENSOR, "tensor", TENSOR, TENSOR, NONE, 0)                                \
    X(MISC, "misc", INT, MISC, NONE, 0)                                         \
    X(LD_GLOBAL, "ld_global", LDST, MEM, GLOBAL, ISA_F_LOAD)                    \
    X(ST_GLOBAL, "st_global", LDST, MEM, GLOBAL, ISA_F_STORE)                   \
    X(LD_LOCAL, "ld_local", LDST, MEM, LOCAL, ISA_F_LOAD)                       \
    X(ST_LOCAL, "st_local", LDST, MEM, LOCAL, ISA_F_STORE)                      \
    X(LD_SHARED, "ld_shared", LDST, MEM, SHARED, ISA_F_LOAD)                    \
    X(ST_SHARED, "st_shared", LDST, MEM, SHARED, ISA_F_STORE)                   \
    X(LD_CONST, "ld_const", LDST, MEM, CONST, ISA_F_LOAD)                       \
    X(LD_TEX, "ld_tex", LDST, MEM, TEX, ISA_F_LOAD)                             \
    X(ATOM_GLOBAL, "atom_global", LDST, MEM, GLOBAL, ISA_F_ATOMIC)              \
    X(ATOM_SHARED, "atom_shared", LDST, MEM, SHARED, ISA_F_ATOMIC)              \
    X(BARRIER, "barrier", BRANCH, BRANCH, NONE, ISA_F_BARRIER)                  \
    X(FENCE, "fence", LDST, MEM, NONE, ISA_F_FENCE)                             \
    X(BRANCH, "branch", BRANCH, BRANCH, NONE, ISA_F_BRANCH)                     \
    X(EXIT, "exit", BRANCH, BRANCH, NONE, ISA_F_EXIT)

typedef enum {
#define X(id, name, unit, lat, space, flags) ISA_OP_##id,
    ISA_OPS(X)
#undef X
    ISA_OP_COUNT
} isa_op;

typedef struct isa_op_info {
    const char *name;
    isa_unit unit;
    isa_lat lat;
    isa_space space;
    unsigned flags;
} isa_op_info;

extern const isa_op_info isa_ops[ISA_OP_COUNT];
extern const char *const isa_unit_names[ISA_UNIT_COUNT];
extern const char *const isa_lat_names[ISA_LAT_COUNT];
extern const char *const isa_space_names[];

static inline int isa_is_mem(isa_op op) { return isa_ops[op].space != ISA_SPACE_NONE; }

/* Look up a kind, unit or latency class by name; -1 if unknown. */
int isa_op_by_name(const char *name);
int isa_lat_by_name(const char *name);
int isa_unit_by_name(const char *name);

#endif
