/*
 * ptx_exec.h - internals of the SIMT executor (not a public API).
 *
 * State of a CTA (ptx_cta, defined here) and the instruction executor that
 * ptx_cta.c (scheduling, control flow, stream) calls for every data
 * instruction: ptx_exec_inst() runs one decoded instruction for one warp
 * over a lane mask.  Registers are structure-of-arrays: register r of warp w
 * is 32 contiguous 64-bit slots, so an instruction is one tight loop over
 * the lanes with no per-lane dispatch; predicates are one 32-bit lane mask
 * per predicate register and warp.  Values narrower than 64 bits sit in the
 * low bits; an instruction reads only the width of its type.
 */
#ifndef GE_PTX_EXEC_H
#define GE_PTX_EXEC_H

#include <math.h>
#include <string.h>

#include "ptx.h"

#define PTX_MAX_BARRIERS 16

typedef struct simt_entry {
    uint32_t pc, rpc, mask;
    uint32_t call; /* call instruction if this entry is a call frame, else PTX_NO_PC */
} simt_entry;

enum { W_RUN = 0, W_BAR, W_DONE };

/* Where emitted warp instructions go: a warp's staging area, or directly
 * the output ws_cta's arrays when warps run one after another. */
typedef struct ptx_sbuf {
    ws_inst *i;
    size_t n, cap;
    uint64_t *a;
    size_t na, acap;
} ptx_sbuf;

typedef struct ptx_warp {
    simt_entry *stk;
    size_t sp, cap;
    uint32_t valid;  /* lanes that exist */
    uint32_t live;   /* lanes that have not exited */
    uint32_t carry;  /* carry flag per lane (add.cc) */
    uint8_t state;
    uint8_t bar;     /* barrier waited on */
    uint64_t clock;  /* warp instructions issued (for %clock) */
    ptx_sbuf stage;  /* this warp's stream while warps interleave at barriers */
} ptx_warp;

struct ptx_cta {
    const ptx_launch *L;
    const ptx_module *m;
    const ptx_layout *lay;
    uint32_t nthreads, nwarps;
    uint64_t *regs;      /* [warp][reg][32] */
    uint32_t *preds;     /* [warp][pred] lane masks */
    uint8_t *shared;
    uint32_t shared_size;
    uint8_t *local;      /* [thread][local_size] */
    uint32_t local_size;
    uint8_t *fparam;     /* [thread][fparam_size] */
    uint32_t fparam_size;
    ptx_warp *w;
    uint32_t ctaid[3];
    uint64_t index;
    uint32_t live_threads;
    int mode;            /* 0 fresh, 1 warp (ptx_cta_run), 2 threads (ptx_cta_step) */
    /* barriers */
    uint32_t bar_arrived[PTX_MAX_BARRIERS], bar_count[PTX_MAX_BARRIERS];
    uint32_t bar_popc[PTX_MAX_BARRIERS], bar_all[PTX_MAX_BARRIERS], bar_any[PTX_MAX_BARRIERS];
    /* thread-set mode */
    uint32_t *tpc;
    uint8_t *tstate, *tbar;
    uint32_t *tstack;    /* [thread][max_depth] call instructions */
    uint32_t *tdepth;
    uint32_t max_depth;
    /* per-instruction results */
    uint8_t dyn_isa;     /* isa op of the last instruction (generic memory ops resolve here) */
    uint8_t has_addr;
    uint64_t fast_off;   /* memory fast path: subtract from addresses before adding the base */
    uint64_t addr[32];   /* lane addresses of the last memory instruction (stream form) */
    uint64_t scratch[6][32];
    ptx_cta_stats st;
    uint64_t inst_limit;
    ge_err *e;
};

/* One instruction's execution context. */
typedef struct ptx_ex {
    ptx_cta *c;
    uint32_t w;
    const ptx_inst *in;
    const ptx_opnd *o;
    const ptx_frame *fr;
    uint64_t *R;     /* registers of the function's frame in warp w: R + r*32 */
    uint32_t *P;     /* predicates of the frame in warp w */
    uint32_t mask;   /* lanes that execute (active and guard true) */
    uint32_t active; /* lanes active at the pc (guard not applied): activemask */
} ptx_ex;

static inline uint64_t *ex_reg(const ptx_ex *x, uint32_t r) { return x->R + ((size_t)r << 5); }

/* Lane loop over x->mask: full warps get a plain loop the compiler can
 * vectorise, partial ones iterate the set bits. */
#define LANES(mask_, ...)                                                    \
    do {                                                                     \
        uint32_t mm_ = (mask_);                                              \
        if (mm_ == 0xffffffffu) {                                            \
            for (int l = 0; l < 32; l++) {                                   \
                __VA_ARGS__;                                                 \
            }                                                                \
        } else {                                                             \
            for (; mm_; mm_ &= mm_ - 1) {                                    \
                int l = __builtin_ctz(mm_);                                  \
                __VA_ARGS__;                                                 \
            }                                                                \
        }                                                                    \
    } while (0)

/* Population count without a libgcc call (no -mpopcnt in portable builds). */
static inline int ex_popc(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Value mask of a sz-byte integer type, sign extension from sz bytes, and
 * PTX's flush-to-zero of subnormals (.ftz), shared by the executors. */
static inline uint64_t ex_tmask(int sz) { return sz >= 8 ? ~0ull : (1ull << (8 * sz)) - 1; }
static inline int64_t ex_sx(uint64_t v, int sz)
{
    return sz == 1 ? (int8_t)v : sz == 2 ? (int16_t)v : sz == 4 ? (int32_t)v : (int64_t)v;
}
static inline float ex_ftz32(float v) { return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v; }
static inline double ex_ftz64(double v) { return fpclassify(v) == FP_SUBNORMAL ? copysign(0.0, v) : v; }

static inline float ex_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t ex_bf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double ex_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t ex_bf64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Value of operand i for every lane: a register's slots, or scratch filled
 * with an immediate, a special register or a symbol address. */
const uint64_t *ex_src(ptx_ex *x, int i);
/* Lanes where predicate operand i is true (with '!' applied). */
static inline uint32_t ex_pred(const ptx_ex *x, int i)
{
    const ptx_opnd *o = &x->o[i];
    if (o->kind == PTX_O_IMM)
        return o->imm ? 0xffffffffu : 0;
    uint32_t p = x->P[o->reg];
    return o->neg ? ~p : p;
}
/* Write predicate operand i on lanes of x->mask. */
static inline void ex_setp(ptx_ex *x, int i, uint32_t val)
{
    uint32_t *p = &x->P[x->o[i].reg];
    *p = (*p & ~x->mask) | (val & x->mask);
}
/* Value of a symbol address operand (PTX_O_ADDR) in its own space. */
uint64_t ex_addr_value(const ptx_ex *x, const ptx_opnd *o);

/* Error at the current instruction: "file:line: <msg>, kernel K, thread (x,y,z) block (x,y,z)". */
int ex_fail(ptx_ex *x, int lane, const char *fmt, ...) GE_PRINTF(3, 4);

/* Executors by family; each returns 0 or -1. */
int ptx_exec_inst(ptx_ex *x);            /* dispatch (ptx_alu.c) */
int ptx_exec_int(ptx_ex *x);             /* integer arithmetic (ptx_alu_int.c) */
int ptx_exec_bits(ptx_ex *x);            /* logic, shifts, bit fields (ptx_alu_int.c) */
int ptx_exec_mem(ptx_ex *x);             /* ld, st, atom, red, cvta, isspacep (ptx_memop.c) */
int ptx_exec_collective(ptx_ex *x);      /* shfl, vote, match, redux, activemask (ptx_memop.c) */
int ptx_exec_cvt(ptx_ex *x);             /* cvt (ptx_fp.c) */
/* Floating-point arithmetic with rounding modes other than .rn, .ftz, .sat
 * or half precision, one lane at a time (ptx_fp.c). */
int ptx_exec_fp_slow(ptx_ex *x);

/* Half precision conversions (ptx_fp.c). rnd: PTX_RND_RN/RZ/RM/RP. */
uint16_t ptx_f32_to_f16(float f, int rnd);
float ptx_f16_to_f32(uint16_t h);
uint16_t ptx_f32_to_bf16(float f, int rnd);
float ptx_bf16_to_f32(uint16_t h);

#endif
