/*
 * power_components.h - the power model's components (AccelWattch's set).
 *
 * The names key the per-component calibration factors in a GPU config
 * (power.scale.<name>) and the power breakdown in reports, so they live here
 * where both common/ and power/ can see them.  Append, never reorder.
 */
#ifndef GE_POWER_COMPONENTS_H
#define GE_POWER_COMPONENTS_H

#define PWR_COMPONENTS(X)                                        \
    X(IBUFFER, "ibuffer", "instruction buffer")                  \
    X(ICACHE, "icache", "instruction cache")                     \
    X(L1D, "l1d", "L1 data cache")                               \
    X(TEX, "tex", "texture cache")                               \
    X(CONST, "const_cache", "constant cache")                    \
    X(SHARED, "shared", "shared memory")                         \
    X(REGFILE, "regfile", "register file + operand collectors")  \
    X(INT_ALU, "int_alu", "integer ALU")                         \
    X(INT_MUL, "int_mul", "integer multiply")                    \
    X(INT_DIV, "int_div", "integer divide")                      \
    X(FP32_ADD, "fp32_add", "FP32 add")                          \
    X(FP32_MUL, "fp32_mul", "FP32 multiply")                     \
    X(FP32_FMA, "fp32_fma", "FP32 fused multiply-add")           \
    X(SFU_DIV, "sfu_div", "FP divide / reciprocal (SFU)")        \
    X(SFU_SQRT, "sfu_sqrt", "square root (SFU)")                 \
    X(SFU_LOG, "sfu_log", "logarithm (SFU)")                     \
    X(SFU_SIN, "sfu_sin", "sine/cosine (SFU)")                   \
    X(SFU_EXP, "sfu_exp", "exponential (SFU)")                   \
    X(FP64, "fp64", "FP64 unit")                                 \
    X(TENSOR, "tensor", "tensor cores")                          \
    X(SCHED, "scheduler", "warp schedulers")                     \
    X(PIPELINE, "pipeline", "pipeline latches and control")      \
    X(L2, "l2", "L2 cache")                                      \
    X(NOC, "noc", "interconnect")                                \
    X(MC, "mc", "memory controllers")                            \
    X(DRAM, "dram", "DRAM devices")                              \
    X(IDLE_SM, "idle_sm", "idle SM power")                       \
    X(CONSTANT, "constant", "constant power")                    \
    X(STATIC, "static", "static (leakage) power")

typedef enum {
#define X(id, name, desc) PWR_##id,
    PWR_COMPONENTS(X)
#undef X
    PWR_COMPONENT_COUNT
} pwr_component;

extern const char *const pwr_component_names[PWR_COMPONENT_COUNT];
extern const char *const pwr_component_desc[PWR_COMPONENT_COUNT];

#endif
