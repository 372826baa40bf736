/*
 * ptx.h - the execution-driven front-end: PTX modules, decoded once, and the
 * functional SIMT emulator that runs their kernels one CTA at a time.
 *
 * Three layers, one header (gpurt.h is the host API on top):
 *
 *   module   ptx_module_parse() turns the text nvcc emits into a compact,
 *            pointer-free array of pre-decoded instructions (ptx_inst) per
 *            module, with operands in a side array, branch targets resolved
 *            to instruction indices and each branch's reconvergence point
 *            (immediate post-dominator) precomputed.  Nothing is re-parsed
 *            at run time.
 *   memory   ptx_mem: the sparse, bounds-checked device address space.
 *   CTA      ptx_cta: the state of one CTA of a launch (registers of every
 *            warp as structure-of-arrays, shared and local memory, a
 *            reconvergence stack per warp, per-thread pcs).  ptx_cta_run()
 *            executes it warp by warp with a PDOM stack and emits the warp
 *            stream; ptx_cta_step() executes any set of threads at one pc,
 *            the hook for dynamic warp formation and other SIMT policies.
 *
 * Address layout (generic addresses, see docs/ptx.md):
 *   global heap        PTX_GLOBAL_BASE ..   module .global/.const variables
 *                                           first, then gpurt allocations
 *   shared window      PTX_WIN_SHARED + shared offset (same in every CTA)
 *   local window       PTX_WIN_LOCAL + local offset (same in every thread)
 *   param window       PTX_WIN_PARAM + kernel parameter offset (read only)
 * In the warp stream, shared addresses are PTX_WIN_SHARED + offset
 * (ws_kernel.shmem_base = PTX_WIN_SHARED) and local addresses are the
 * hardware's interleaved layout: word w of thread t of warp W of CTA c is at
 * PTX_LOCAL_TRACE + ((c*warps + W) * words + w) * 128 + lane*4
 * (ws_kernel.local_base = PTX_LOCAL_TRACE), so consecutive lanes' copies of a
 * local word are contiguous.
 *
 * Limits: no recursion (each function's registers, parameters and local
 * frame get a static slot per kernel, like ptxas without a call stack);
 * textures, surfaces, tensor-core (mma/wmma) and cluster instructions are not
 * supported and are rejected with the instruction and its line.
 */
#ifndef GE_PTX_H
#define GE_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "isa.h"
#include "wstream.h"

/* ---------------------------------------------------------------- layout */

#define PTX_GLOBAL_BASE 0x00007f0000000000ull
#define PTX_GLOBAL_END 0x00007fff00000000ull
#define PTX_WIN_SHARED 0x00007e0000000000ull
#define PTX_WIN_LOCAL 0x00007d0000000000ull
#define PTX_WIN_PARAM 0x00007b0000000000ull
#define PTX_WIN_SIZE 0x0000000001000000ull /* 16 MiB per window */
#define PTX_LOCAL_TRACE 0x0000600000000000ull

/* pc of instruction i in the warp stream: i * PTX_PC_STRIDE (SASS-like). */
#define PTX_PC_STRIDE 16
#define PTX_NO_PC UINT32_MAX

/* ----------------------------------------------------------------- types */

#define PTX_TYPES(X)                                                                                 \
    X(NONE, "", 0, 'x') X(PRED, "pred", 0, 'p') X(B8, "b8", 1, 'b') X(B16, "b16", 2, 'b')            \
    X(B32, "b32", 4, 'b') X(B64, "b64", 8, 'b') X(B128, "b128", 16, 'b') X(U8, "u8", 1, 'u')          \
    X(U16, "u16", 2, 'u') X(U32, "u32", 4, 'u') X(U64, "u64", 8, 'u') X(S8, "s8", 1, 's')             \
    X(S16, "s16", 2, 's') X(S32, "s32", 4, 's') X(S64, "s64", 8, 's') X(F16, "f16", 2, 'f')           \
    X(F16X2, "f16x2", 4, 'h') X(BF16, "bf16", 2, 'f') X(BF16X2, "bf16x2", 4, 'h') X(F32, "f32", 4, 'f') \
    X(F64, "f64", 8, 'f') X(TF32, "tf32", 4, 'f')

typedef enum {
#define X(id, name, size, kind) PTX_T_##id,
    PTX_TYPES(X)
#undef X
    PTX_T_COUNT
} ptx_type;

typedef struct ptx_type_info {
    const char *name;
    uint8_t size; /* bytes */
    char kind;    /* 'b' bits, 'u' unsigned, 's' signed, 'f' float, 'h' packed half, 'p' pred */
} ptx_type_info;
extern const ptx_type_info ptx_types[PTX_T_COUNT];

/* State spaces. */
typedef enum {
    PTX_SP_NONE = 0, /* generic */
    PTX_SP_GLOBAL,
    PTX_SP_SHARED,
    PTX_SP_LOCAL,
    PTX_SP_CONST,
    PTX_SP_PARAM,   /* kernel parameters (read only, the constant bank) */
    PTX_SP_FPARAM,  /* per-thread parameters of .func calls */
} ptx_space;

/* ------------------------------------------------------------ operations */

#define PTX_OPS(X)                                                                                  \
    X(ADD, "add") X(SUB, "sub") X(ADDC, "addc") X(SUBC, "subc") X(MUL, "mul") X(MAD, "mad")            \
    X(MADC, "madc") X(MUL24, "mul24") X(MAD24, "mad24") X(SAD, "sad") X(DIV, "div") X(REM, "rem")     \
    X(ABS, "abs") X(NEG, "neg") X(MIN, "min") X(MAX, "max") X(POPC, "popc") X(CLZ, "clz")               \
    X(BFIND, "bfind") X(BREV, "brev") X(BFE, "bfe") X(BFI, "bfi") X(PRMT, "prmt") X(DP4A, "dp4a")       \
    X(DP2A, "dp2a") X(AND, "and") X(OR, "or") X(XOR, "xor") X(NOT, "not") X(CNOT, "cnot")              \
    X(LOP3, "lop3") X(SHL, "shl") X(SHR, "shr") X(SHF, "shf") X(FMA, "fma") X(RCP, "rcp")                \
    X(SQRT, "sqrt") X(RSQRT, "rsqrt") X(SIN, "sin") X(COS, "cos") X(EX2, "ex2") X(LG2, "lg2")           \
    X(TANH, "tanh") X(COPYSIGN, "copysign") X(TESTP, "testp") X(SETP, "setp") X(SET, "set")           \
    X(SELP, "selp") X(SLCT, "slct") X(CVT, "cvt") X(CVTA, "cvta") X(MOV, "mov") X(LD, "ld")            \
    X(LDU, "ldu") X(ST, "st") X(PREFETCH, "prefetch") X(PREFETCHU, "prefetchu") X(ATOM, "atom")       \
    X(RED, "red") X(BRA, "bra") X(CALL, "call") X(RET, "ret") X(EXIT, "exit") X(BAR, "bar")            \
    X(BARRIER, "barrier") X(MEMBAR, "membar") X(FENCE, "fence") X(SHFL, "shfl") X(VOTE, "vote")       \
    X(MATCH, "match") X(ACTIVEMASK, "activemask") X(REDUX, "redux") X(ISSPACEP, "isspacep")          \
    X(TRAP, "trap") X(BRKPT, "brkpt") X(NANOSLEEP, "nanosleep") X(PMEVENT, "pmevent")

typedef enum {
#define X(id, name) PTX_OP_##id,
    PTX_OPS(X)
#undef X
    PTX_OP_COUNT
} ptx_op;
extern const char *const ptx_op_names[PTX_OP_COUNT];

/* Modifier flags (ptx_inst.flags). */
enum {
    PTX_F_FTZ = 1 << 0,
    PTX_F_SAT = 1 << 1,
    PTX_F_APPROX = 1 << 2,
    PTX_F_HI = 1 << 3,    /* mul.hi, mad.hi, mul24.hi */
    PTX_F_WIDE = 1 << 4,  /* mul.wide, mad.wide */
    PTX_F_CC = 1 << 5,    /* .cc: writes the carry flag */
    PTX_F_NC = 1 << 6,    /* ld.global.nc */
    PTX_F_TO = 1 << 7,    /* cvta.to */
    PTX_F_NAN = 1 << 8,   /* min/max .NaN */
    PTX_F_WRAP = 1 << 9,  /* shf.wrap (else clamp) */
    PTX_F_UNI = 1 << 10,  /* bra.uni / call.uni */
    PTX_F_SHIFTAMT = 1 << 11,
    PTX_F_ARRIVE = 1 << 12, /* bar.arrive */
    PTX_F_WARP = 1 << 13,   /* bar.warp.sync */
    PTX_F_PAIR = 1 << 14,   /* two destinations d|p */
    PTX_F_RED = 1 << 15,    /* bar.red */
    /* set by ptx_cfg.c: in a kernel, every path from here reaches the exit
     * without a barrier (threads parked here count as exited at barriers) */
    PTX_F_EXITFREE = 1 << 16,
};

/* Rounding (ptx_inst.rnd). */
enum { PTX_RND_NONE = 0, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,
       PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI, PTX_RND_RNA };

/* Sub-operation (ptx_inst.sub): comparison, atomic op, shuffle/vote mode... */
enum {
    PTX_CMP_EQ = 1, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS, PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU,
    PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN,
};
enum {
    PTX_AOP_ADD = 1, PTX_AOP_MIN, PTX_AOP_MAX, PTX_AOP_INC, PTX_AOP_DEC, PTX_AOP_CAS,
    PTX_AOP_EXCH, PTX_AOP_AND, PTX_AOP_OR, PTX_AOP_XOR, PTX_AOP_POPC,
};
enum { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum { PTX_VOTE_ALL = 1, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT };
enum { PTX_TESTP_FINITE = 1, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER, PTX_TESTP_NOTANUMBER,
       PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL };
enum { PTX_PRMT_DEFAULT = 0, PTX_PRMT_F4E, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR,
       PTX_PRMT_RC16 };

/* Special registers (operand kind PTX_O_SREG, value = id*4 + component). */
#define PTX_SREGS(X)                                                                                \
    X(TID, "%tid") X(NTID, "%ntid") X(CTAID, "%ctaid") X(NCTAID, "%nctaid") X(LANEID, "%laneid")     \
    X(WARPID, "%warpid") X(NWARPID, "%nwarpid") X(SMID, "%smid") X(NSMID, "%nsmid")                 \
    X(GRIDID, "%gridid") X(LANEMASK_EQ, "%lanemask_eq") X(LANEMASK_LE, "%lanemask_le")              \
    X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_GE, "%lanemask_ge") X(LANEMASK_GT, "%lanemask_gt")    \
    X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") X(CLOCK64, "%clock64") X(GLOBALTIMER, "%globaltimer") \
    X(GLOBALTIMER_LO, "%globaltimer_lo") X(GLOBALTIMER_HI, "%globaltimer_hi")                       \
    X(DYN_SMEM, "%dynamic_smem_size") X(TOTAL_SMEM, "%total_smem_size") X(WARPSZ, "WARP_SZ")

typedef enum {
#define X(id, name) PTX_SREG_##id,
    PTX_SREGS(X)
#undef X
    PTX_SREG_COUNT
} ptx_sreg;

/* Operand kinds. */
typedef enum {
    PTX_O_NONE = 0,
    PTX_O_REG,     /* reg = function-relative register */
    PTX_O_PRED,    /* reg = function-relative predicate; neg = '!' */
    PTX_O_IMM,     /* imm = value bits (floats as their bit pattern of the instruction type) */
    PTX_O_SREG,    /* reg = sreg*4 + component (0..2; 0 for scalar ones) */
    PTX_O_ADDR,    /* an address value: imm + base (see base below) */
    PTX_O_MEM,     /* [address]: reg = base register or PTX_NO_REG, imm = offset, base = symbol base */
    PTX_O_VEC,     /* {a, b, ...}: reg = first entry in ptx_module.vregs, n = count */
    PTX_O_SINK,    /* _ */
    PTX_O_LABEL,   /* resolved: imm = instruction index */
    PTX_O_FUNC,    /* resolved: imm = function index */
    PTX_O_PARAMLIST /* call argument list: reg = first in ptx_module.vregs, n = count (param offsets) */
} ptx_opnd_kind;

/* What a symbolic address is relative to (ptx_opnd.base). */
enum {
    PTX_B_ABS = 0,   /* imm is the address itself (global/const variables, kernel params) */
    PTX_B_LOCAL,     /* imm + the function's local frame base */
    PTX_B_FPARAM,    /* imm + the function's parameter frame base */
    PTX_B_DYNSHARED, /* imm + the kernel's dynamic shared base */
};

#define PTX_NO_REG UINT32_MAX

typedef struct ptx_opnd {
    uint8_t kind;
    uint8_t neg;   /* PTX_O_PRED: negated */
    uint8_t base;  /* PTX_O_MEM/ADDR: PTX_B_* */
    uint8_t n;     /* PTX_O_VEC/PARAMLIST: entries */
    uint32_t reg;
    int64_t imm;
} ptx_opnd;

/* A decoded instruction (64 bytes).  Operands are mod->opnds[opnd .. opnd+nopnd). */
typedef struct ptx_inst {
    uint8_t op;       /* ptx_op */
    uint8_t type;     /* ptx_type of the instruction (destination) */
    uint8_t type2;    /* second type: cvt source, slct/set comparison type, bfind etc. */
    uint8_t rnd;      /* PTX_RND_* */
    uint8_t sub;      /* PTX_CMP_*, PTX_AOP_*, PTX_SHFL_*, PTX_VOTE_*, prmt mode... */
    uint8_t bop;      /* setp/set/bar.red boolean combine: PTX_AOP_AND/OR/XOR or 0 */
    uint8_t space;    /* ptx_space of ld/st/atom/cvta/isspacep */
    uint8_t vec;      /* 1, 2 or 4 */
    uint8_t isa;      /* isa_op for the warp stream (generic memory ops: resolved per execution) */
    uint8_t nopnd;
    uint8_t guard_neg;
    uint8_t nws;      /* ws registers: ndst | nsrc << 4 */
    uint16_t mnem;    /* index into ptx_module.mnems */
    uint32_t flags;   /* PTX_F_* */
    uint32_t guard;   /* predicate register + 1, 0 = unguarded */
    uint32_t func;    /* owning function */
    uint32_t line;    /* source line */
    uint32_t target;  /* bra: target instruction; call: callee function */
    uint32_t rpc;     /* bra: reconvergence instruction (immediate post-dominator) or PTX_NO_PC */
    uint32_t opnd;    /* first operand */
    /* Registers for ws_inst: ndst destinations then nsrc sources, function
     * relative; PTX_WSREG_PRED marks a predicate.  Kernel-relative ids are
     * frame.reg + r, or layout.nregs + frame.pred + p for predicates. */
    uint16_t wsreg[WS_MAX_DST + WS_MAX_SRC];
} ptx_inst;
#define PTX_WSREG_PRED 0x8000u

/* A module-scope or function-scope variable. */
typedef struct ptx_var {
    uint32_t name;     /* offset in ptx_module.strs */
    uint8_t space;     /* ptx_space */
    uint8_t type;
    uint32_t align;
    uint64_t size;     /* bytes (0 for extern shared arrays) */
    uint64_t addr;     /* global/const: device address; shared: offset; local: frame offset */
    uint32_t init;     /* offset in ptx_module.data of initial bytes, or UINT32_MAX */
    uint32_t func;     /* owning function or UINT32_MAX for module scope */
} ptx_var;

/* A parameter of an .entry or .func. */
typedef struct ptx_param {
    uint32_t name;
    uint32_t size, align;
    uint32_t offset;   /* kernels: offset in the parameter buffer; funcs: offset in the frame */
} ptx_param;

typedef struct ptx_func {
    uint32_t name;        /* offset in strs */
    uint8_t is_kernel;
    uint8_t is_extern;    /* declared without body */
    uint8_t builtin;      /* PTX_BUILTIN_* for extern functions we implement */
    uint32_t first, ninst; /* instruction range */
    uint32_t nregs, npreds; /* virtual registers (64-bit slots) and predicates */
    uint32_t param_first, nparams; /* formal parameters (in ptx_module.params) */
    uint32_t ret_first, nrets;     /* return parameters (funcs) */
    uint32_t param_size;  /* kernels: parameter buffer size; funcs: formal and return parameters */
    uint32_t frame_size;  /* per-thread .param frame: (funcs) formals and returns, then call-site variables */
    uint32_t local_size;  /* per-thread local frame (depots) */
    uint32_t shared_size; /* kernels: end of static shared memory */
    uint32_t dyn_shared_align;
    uint32_t line;
    uint32_t reqntid[3]; /* .reqntid or .maxntid, 0 if absent */
    uint32_t regw_first; /* widths of the registers in ptx_module.regw */
    uint32_t est_regs;   /* max live 32-bit values (ptx_cfg.c) */
} ptx_func;

enum { PTX_BUILTIN_NONE = 0, PTX_BUILTIN_VPRINTF, PTX_BUILTIN_ASSERTFAIL };

typedef struct ptx_module {
    char *name;          /* file name for messages */
    uint32_t version;    /* .version major*10+minor */
    uint32_t target;     /* sm number, e.g. 75 */
    uint32_t address_size;
    ptx_inst *insts;
    uint32_t ninsts;
    ptx_opnd *opnds;
    uint32_t nopnds;
    uint32_t *vregs;     /* vector/parameter-list entries (register ids, PTX_NO_REG for '_', or offsets) */
    uint32_t nvregs;
    ptx_func *funcs;
    uint32_t nfuncs;
    ptx_param *params;
    uint32_t nparams;
    ptx_var *vars;
    uint32_t nvars;
    uint8_t *data;       /* initialisers */
    size_t ndata;
    char *strs;          /* names, NUL-terminated, referenced by offset */
    size_t nstrs;
    uint8_t *regw;       /* register widths in 32-bit units (1 or 2), per function */
    uint32_t nregw;
    const char **mnems;  /* interned mnemonics ("ld.global.v4.f32"), indexed by ptx_inst.mnem */
    uint32_t nmnems;
    uint64_t global_end; /* end of the module's global/const variables */
    uint32_t shared_module; /* end of module-scope .shared variables */
    uint32_t dyn_shared_align; /* alignment of extern .shared arrays (>= 16) */
    /* Per-kernel layouts of the reachable functions (see ptx_kernel_layout). */
    struct ptx_layout *layouts;
} ptx_module;

/* Static placement of each function reachable from a kernel: its registers,
 * predicates, parameter frame and local frame get fixed bases (recursion is
 * rejected when the module is parsed). */
typedef struct ptx_frame {
    uint32_t reg, pred, param, local;
} ptx_frame;

typedef struct ptx_layout {
    ptx_frame *frame;    /* indexed by function; only reachable ones are meaningful */
    uint32_t nregs, npreds, param_size, local_size, max_depth;
    uint32_t has_barrier; /* any bar/barrier reachable (warps must interleave) */
    uint32_t shared_size; /* static shared bytes (end of the highest variable used) */
    uint32_t shared_decl; /* static shared bytes declared by the kernel, its callees and the module */
    /* Register numbers the warp stream reports: kernel-wide register and
     * predicate ids (frame bases + virtual numbers) renamed the way a
     * register allocator would, so that an instruction's operands fall in
     * different register-file banks (ptx_cfg.c, regalloc_banks). */
    uint16_t *wsmap;      /* nregs + npreds entries */
} ptx_layout;

static inline const char *ptx_str(const ptx_module *m, uint32_t off) { return m->strs + off; }

/* Parse PTX text.  name is used in messages ("name:LINE: ...").  On error
 * returns -1 and e holds one line naming the line. */
int ptx_module_parse(const char *text, size_t len, const char *name, ptx_module **out, ge_err *e);
void ptx_module_free(ptx_module *m);

/* Index of the kernel (.entry) called name, or -1. */
int ptx_module_kernel(const ptx_module *m, const char *name);
/* Index of the variable called name (module scope), or -1. */
int ptx_module_var(const ptx_module *m, const char *name);

/* ---------------------------------------------------------------- memory */

enum { PTX_MEM_READONLY = 1 }; /* kernels may not write (module .const variables) */

typedef struct ptx_alloc {
    uint64_t base, size;
    uint8_t *data;
    uint32_t flags;
} ptx_alloc;

typedef struct ptx_mem {
    ptx_alloc *a; /* sorted by base */
    size_t n, cap;
    uint64_t next;  /* next free address (never reused) */
    uint64_t live_bytes, limit_bytes;
    size_t last;    /* lookup cache */
} ptx_mem;

void ptx_mem_init(ptx_mem *m);
void ptx_mem_free_all(ptx_mem *m);
/* New zeroed allocation aligned to 256 bytes with a gap before the next one;
 * returns its address or 0 with e filled. */
uint64_t ptx_mem_alloc(ptx_mem *m, uint64_t size, uint32_t flags, ge_err *e);
int ptx_mem_release(ptx_mem *m, uint64_t addr, ge_err *e);
/* The allocation holding [addr, addr+size), or NULL. */
ptx_alloc *ptx_mem_find(ptx_mem *m, uint64_t addr, uint64_t size);
/* Host pointer for [addr, addr+size) or NULL. */
static inline uint8_t *ptx_mem_ptr(ptx_mem *m, uint64_t addr, uint64_t size)
{
    ptx_alloc *a = ptx_mem_find(m, addr, size);
    return a ? a->data + (addr - a->base) : NULL;
}
/* Place the module's .global/.const variables (with initialisers). */
int ptx_mem_load_module(ptx_mem *m, const ptx_module *mod, ge_err *e);

/* ------------------------------------------------------------- execution */

typedef struct ptx_launch {
    const ptx_module *mod;
    uint32_t kernel;          /* function index */
    const ptx_layout *lay;
    ptx_mem *mem;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;
    uint32_t shared_size;     /* static + dynamic bytes per CTA */
    uint32_t dyn_base;        /* offset of dynamic shared memory */
    uint8_t *params;          /* kernel parameter buffer (func->param_size bytes) */
    uint32_t launch_id;       /* for %gridid */
    uint32_t threads, warps;  /* per CTA */
    uint64_t inst_limit;      /* warp instructions per CTA before failing; 0 = none */
} ptx_launch;

/* Validate a launch configuration the way the CUDA runtime does (block at
 * most 1024 threads, grid y/z at most 65535, .maxntid/.reqntid, dynamic
 * shared memory at most 227 KB) and fill L: the parameter buffer is laid out
 * from the kernel's .param declarations, args[i] pointing to the i-th value.
 * L->params is (re)allocated here; release it with ptx_launch_release.
 * Errors read "launch of KERNEL: ...". */
int ptx_launch_init(ptx_launch *L, const ptx_module *m, uint32_t kernel, ptx_mem *mem, const uint32_t grid[3],
                    const uint32_t block[3], uint32_t dyn_shared, void **args, ge_err *e);
void ptx_launch_release(ptx_launch *L);

typedef struct ptx_cta ptx_cta;

/* Counters of one CTA execution. */
typedef struct ptx_cta_stats {
    uint64_t warp_insts, thread_insts;
} ptx_cta_stats;

/* Allocate the state for CTAs of launch L (reused for each CTA). */
ptx_cta *ptx_cta_new(const ptx_launch *L, ge_err *e);
void ptx_cta_free(ptx_cta *c);
/* Reset the state to the start of CTA `index` (linear block index). */
int ptx_cta_begin(ptx_cta *c, uint64_t index, ge_err *e);

/* Run the CTA to completion, warp by warp: each warp runs until it exits or
 * waits at a barrier, then the next; a barrier releases when every thread
 * that has not exited has arrived.  Divergence uses a per-warp reconvergence
 * stack at immediate post-dominators.  If out is non-NULL it receives the
 * CTA's warp stream (reset first).  Returns 0 or -1 (e.g. out-of-bounds
 * access, barrier deadlock, trap). */
int ptx_cta_run(ptx_cta *c, ws_cta *out, ge_err *e);

/* ---- thread-set execution: the hook for dynamic warp formation ----
 *
 * After ptx_cta_begin(), a SIMT policy may instead drive the CTA one
 * instruction at a time over any set of its threads (by linear thread id
 * tid = x + y*bx + z*bx*by).  Every thread keeps its own pc, call stack and
 * state here, so threads of different warps can be grouped at one pc the
 * way dynamic warp formation regroups them.  Registers stay in each
 * thread's home warp and lane (as in DWF hardware, a thread keeps its
 * register lane), so warp-collective instructions (shfl, vote, match,
 * redux, activemask) combine the threads of the set that share a home warp,
 * exactly as on a warp whose other lanes are inactive.  A CTA is driven
 * either by ptx_cta_run() or by ptx_cta_step(), not both. */

typedef enum { PTX_THR_READY = 0, PTX_THR_BARRIER, PTX_THR_EXITED } ptx_thr_state;

/* What one step executed. */
typedef struct ptx_step {
    ws_inst inst;            /* pc, op kind, mnemonic, registers, size;
                                mask: bit i = tids[i] executed (guard true) */
    uint64_t addr[WS_WARP_SIZE]; /* memory ops: address of tids[i] (0 if it did not execute) */
} ptx_step;

/* Execute the instruction at the common pc of threads tids[0..n), 1 <= n <=
 * 32, all READY and at the same pc.  Branches set each thread's own pc; a
 * barrier parks the threads until every non-exited thread of the CTA has
 * arrived.  Returns 0, or -1 (threads not at one pc, not ready, or an
 * execution error). */
int ptx_cta_step(ptx_cta *c, const uint32_t *tids, int n, ptx_step *out, ge_err *e);
uint32_t ptx_cta_thread_pc(const ptx_cta *c, uint32_t tid); /* instruction index */
ptx_thr_state ptx_cta_thread_state(const ptx_cta *c, uint32_t tid);
uint32_t ptx_cta_nthreads(const ptx_cta *c);
/* 1 when every thread has exited. */
int ptx_cta_done(const ptx_cta *c);
void ptx_cta_get_stats(const ptx_cta *c, ptx_cta_stats *s);

/* Registers of the kernel as reported in ws_kernel.nregs when ptxas figures
 * are absent: the maximum number of simultaneously live 32-bit values over
 * the kernel's instructions (a liveness analysis of the virtual registers;
 * see ptx_cfg.c) plus one for the stack pointer, clamped to [2, 255]. */
uint32_t ptx_kernel_reg_estimate(const ptx_module *m, uint32_t kernel);

#endif
