/*
 * as_opcodes.c - SASS mnemonics -> gpuest op kinds (common/isa.h), per GPU
 * family.
 *
 * A trace names each instruction by its SASS mnemonic: a base opcode and
 * dot-separated modifiers ("LDG.E.64.SYS", "MUFU.RSQ", "IMAD.WIDE.U32").
 * The base decides the kind; for a few bases a modifier refines it:
 *   MUFU.<fn>     the SFU function (RCP, RSQ/SQRT, LG2, EX2, SIN/COS, TANH);
 *                 a MUFU without a known function is an unknown opcode.
 *   IMAD.MOV / IMAD.SHL / IMAD.IADD   Volta+ compilers use IMAD as a move,
 *                 shift or add; those are integer ALU work, not multiplies.
 * Memory kinds follow the state space of the base (LDG global, LDS shared,
 * LDL local, LDC/ULDC constant, TEX/TLD/SULD texture path).  Generic LD/ST/
 * ATOM are counted as global: the trace does not say which window a generic
 * address falls in (a documented approximation, as in Accel-Sim).
 *
 * The instruction sets come from NVIDIA's "CUDA Binary Utilities" manual
 * (instruction set reference for Maxwell/Pascal, Volta, Turing, Ampere and
 * Hopper) and from the instructions present in Accel-Sim's trace tables
 * (gpu-simulator/ISA_Def/<arch>_opcode.h), which list what NVBit reports.  The
 * kinds are gpuest's own classification.
 *
 * Tables are composed per family: the mnemonics every family since Pascal
 * shares, then one table per generation that adds (Volta, Turing, Ampere,
 * Hopper) or keeps alone (Pascal: XMAD, SSY/SYNC/BRK/PBK, ...).  A family
 * lists the tables it reads.  Lookups are linear scans, which is fine: the
 * reader interns mnemonics, so each distinct mnemonic of a kernel is looked
 * up once.
 *
 * Pseudo-mnemonics FDIV, IDIV and DDIV (no such SASS instruction exists; a
 * division is a sequence) are accepted in every family so that the op kinds
 * fp32_div, int_div and fp64_div of the PTX front-end survive a trip
 * through a trace file.  Accel-Sim itself does not know them.
 */
#include <string.h>

#include "as_internal.h"

typedef struct as_mod {
    const char *mod;
    int op;
} as_mod;

typedef struct as_sass {
    const char *name;
    int op;             /* -1: a modifier from mods is required */
    const as_mod *mods; /* refinements by modifier, NULL-terminated */
} as_sass;

#define K(x) ISA_OP_##x
#define END {NULL, 0, NULL}

static const as_mod mufu_mods[] = {
    {"RCP", K(SFU_RCP)}, {"RCP64H", K(SFU_RCP)}, {"RSQ", K(SFU_SQRT)}, {"RSQ64H", K(SFU_SQRT)},
    {"SQRT", K(SFU_SQRT)}, {"LG2", K(SFU_LOG)}, {"EX2", K(SFU_EXP)}, {"SIN", K(SFU_SIN)},
    {"COS", K(SFU_SIN)}, {"TANH", K(SFU_EXP)}, {NULL, 0},
};

static const as_mod imad_mods[] = {
    {"MOV", K(INT_ALU)}, {"SHL", K(INT_ALU)}, {"IADD", K(INT_ALU)}, {NULL, 0},
};

/* Shared by every family from Pascal (sm_60) to Hopper (sm_90). */
static const as_sass sass_common[] = {
    /* fp32 */
    {"FADD", K(FP32_ADD), NULL}, {"FADD32I", K(FP32_ADD), NULL}, {"FCHK", K(FP32_ADD), NULL},
    {"FMNMX", K(FP32_ADD), NULL}, {"FSEL", K(FP32_ADD), NULL}, {"FSET", K(FP32_ADD), NULL},
    {"FSETP", K(FP32_ADD), NULL}, {"FSWZADD", K(FP32_ADD), NULL}, {"FMUL", K(FP32_MUL), NULL},
    {"FMUL32I", K(FP32_MUL), NULL}, {"FFMA", K(FP32_FMA), NULL}, {"FFMA32I", K(FP32_FMA), NULL},
    /* fp16x2 runs on the fp32 pipes */
    {"HADD2", K(FP32_ADD), NULL}, {"HSET2", K(FP32_ADD), NULL}, {"HSETP2", K(FP32_ADD), NULL},
    {"HMUL2", K(FP32_MUL), NULL}, {"HFMA2", K(FP32_FMA), NULL},
    /* sfu */
    {"MUFU", -1, mufu_mods},
    /* fp64 */
    {"DADD", K(FP64_ADD), NULL}, {"DSETP", K(FP64_ADD), NULL}, {"DMUL", K(FP64_MUL), NULL},
    {"DFMA", K(FP64_FMA), NULL},
    /* integer */
    {"IADD", K(INT_ALU), NULL}, {"IADD3", K(INT_ALU), NULL}, {"IADD32I", K(INT_ALU), NULL},
    {"ISCADD", K(INT_ALU), NULL}, {"ISCADD32I", K(INT_ALU), NULL}, {"ISETP", K(INT_ALU), NULL},
    {"IMNMX", K(INT_ALU), NULL}, {"LEA", K(INT_ALU), NULL}, {"LOP", K(INT_ALU), NULL},
    {"LOP3", K(INT_ALU), NULL}, {"LOP32I", K(INT_ALU), NULL}, {"POPC", K(INT_ALU), NULL},
    {"FLO", K(INT_ALU), NULL}, {"BREV", K(INT_ALU), NULL}, {"SHF", K(INT_ALU), NULL},
    {"SHL", K(INT_ALU), NULL}, {"SHR", K(INT_ALU), NULL}, {"VABSDIFF", K(INT_ALU), NULL},
    {"VABSDIFF4", K(INT_ALU), NULL}, {"MOV", K(INT_ALU), NULL}, {"MOV32I", K(INT_ALU), NULL},
    {"PRMT", K(INT_ALU), NULL}, {"SEL", K(INT_ALU), NULL}, {"PSETP", K(INT_ALU), NULL},
    {"P2R", K(INT_ALU), NULL}, {"R2P", K(INT_ALU), NULL},
    {"IMAD", K(INT_MUL), imad_mods}, {"IMUL", K(INT_MUL), NULL}, {"IMUL32I", K(INT_MUL), NULL},
    {"IDP", K(INT_MUL), NULL}, {"IDP4A", K(INT_MUL), NULL},
    /* conversions */
    {"F2F", K(CONV), NULL}, {"F2I", K(CONV), NULL}, {"I2F", K(CONV), NULL}, {"I2I", K(CONV), NULL},
    {"FRND", K(CONV), NULL},
    /* memory */
    {"LD", K(LD_GLOBAL), NULL}, {"LDG", K(LD_GLOBAL), NULL}, {"ST", K(ST_GLOBAL), NULL},
    {"STG", K(ST_GLOBAL), NULL}, {"LDL", K(LD_LOCAL), NULL}, {"STL", K(ST_LOCAL), NULL},
    {"LDS", K(LD_SHARED), NULL}, {"STS", K(ST_SHARED), NULL}, {"LDC", K(LD_CONST), NULL},
    {"ATOM", K(ATOM_GLOBAL), NULL}, {"ATOMG", K(ATOM_GLOBAL), NULL}, {"RED", K(ATOM_GLOBAL), NULL},
    {"ATOMS", K(ATOM_SHARED), NULL},
    {"TEX", K(LD_TEX), NULL}, {"TLD", K(LD_TEX), NULL}, {"TLD4", K(LD_TEX), NULL},
    {"TXD", K(LD_TEX), NULL}, {"SULD", K(LD_TEX), NULL}, {"SUST", K(ST_GLOBAL), NULL},
    {"SUATOM", K(ATOM_GLOBAL), NULL}, {"SURED", K(ATOM_GLOBAL), NULL},
    {"TMML", K(MISC), NULL}, {"TXQ", K(MISC), NULL},
    {"MEMBAR", K(FENCE), NULL}, {"CCTL", K(MISC), NULL}, {"CCTLL", K(MISC), NULL},
    {"CCTLT", K(MISC), NULL}, {"ERRBAR", K(MISC), NULL},
    /* control */
    {"BRA", K(BRANCH), NULL}, {"BRX", K(BRANCH), NULL}, {"JMP", K(BRANCH), NULL},
    {"JMX", K(BRANCH), NULL}, {"CALL", K(BRANCH), NULL}, {"RET", K(BRANCH), NULL},
    {"BPT", K(BRANCH), NULL}, {"RTT", K(BRANCH), NULL}, {"EXIT", K(EXIT), NULL},
    {"KILL", K(EXIT), NULL}, {"BAR", K(BARRIER), NULL},
    /* miscellaneous */
    {"NOP", K(NOP), NULL}, {"S2R", K(MISC), NULL}, {"CS2R", K(MISC), NULL}, {"B2R", K(MISC), NULL},
    {"R2B", K(MISC), NULL}, {"SHFL", K(MISC), NULL}, {"VOTE", K(MISC), NULL},
    {"DEPBAR", K(MISC), NULL}, {"LEPC", K(MISC), NULL}, {"PMTRIG", K(MISC), NULL},
    {"CSMTEST", K(MISC), NULL}, {"GETLMEMBASE", K(MISC), NULL}, {"SETLMEMBASE", K(MISC), NULL},
    {"SETCTAID", K(MISC), NULL}, {"MATCH", K(MISC), NULL},
    END,
};

/* Pascal (and Maxwell-style) instructions that Volta removed. */
static const as_sass sass_pascal[] = {
    {"XMAD", K(INT_MUL), NULL}, {"IMADSP", K(INT_MUL), NULL},
    {"BFE", K(INT_ALU), NULL}, {"BFI", K(INT_ALU), NULL}, {"ICMP", K(INT_ALU), NULL},
    {"ISET", K(INT_ALU), NULL}, {"VADD", K(INT_ALU), NULL}, {"VMNMX", K(INT_ALU), NULL},
    {"CSET", K(INT_ALU), NULL}, {"CSETP", K(INT_ALU), NULL}, {"PSET", K(INT_ALU), NULL},
    {"FCMP", K(FP32_ADD), NULL}, {"RRO", K(FP32_ADD), NULL},
    {"DMNMX", K(FP64_ADD), NULL}, {"DSET", K(FP64_ADD), NULL},
    {"TEXS", K(LD_TEX), NULL}, {"TLDS", K(LD_TEX), NULL}, {"TLD4S", K(LD_TEX), NULL},
    {"TEXDEPBAR", K(MISC), NULL}, {"VOTE_VTG", K(MISC), NULL}, {"I2IP", K(CONV), NULL},
    /* SIMT stack control (replaced by convergence barriers in Volta) */
    {"SSY", K(BRANCH), NULL}, {"SYNC", K(BRANCH), NULL}, {"BRK", K(BRANCH), NULL},
    {"PBK", K(BRANCH), NULL}, {"CONT", K(BRANCH), NULL}, {"PCNT", K(BRANCH), NULL},
    {"CAL", K(BRANCH), NULL}, {"JCAL", K(BRANCH), NULL}, {"PRET", K(BRANCH), NULL},
    {"PEXIT", K(BRANCH), NULL}, {"GETCRSPTR", K(MISC), NULL}, {"SETCRSPTR", K(MISC), NULL},
    END,
};

/* Added in Volta (sm_70) and kept since. */
static const as_sass sass_volta[] = {
    {"HMMA", K(TENSOR), NULL}, {"IMMA", K(TENSOR), NULL},
    {"HADD2_32I", K(FP32_ADD), NULL}, {"HMUL2_32I", K(FP32_MUL), NULL}, {"HFMA2_32I", K(FP32_FMA), NULL},
    {"IABS", K(INT_ALU), NULL}, {"BMSK", K(INT_ALU), NULL}, {"SGXT", K(INT_ALU), NULL},
    {"PLOP3", K(INT_ALU), NULL}, {"I2IP", K(CONV), NULL}, {"QSPC", K(MISC), NULL},
    {"VOTE_VTG", K(MISC), NULL},
    /* convergence barriers and warp-level control */
    {"BSSY", K(BRANCH), NULL}, {"BSYNC", K(BRANCH), NULL}, {"BREAK", K(BRANCH), NULL},
    {"WARPSYNC", K(BRANCH), NULL}, {"YIELD", K(BRANCH), NULL}, {"BMOV", K(MISC), NULL},
    {"RPCMOV", K(MISC), NULL}, {"NANOSLEEP", K(MISC), NULL},
    END,
};

/* Added in Turing (sm_75): the uniform datapath, more tensor ops. */
static const as_sass sass_turing[] = {
    {"BMMA", K(TENSOR), NULL}, {"LDSM", K(LD_SHARED), NULL}, {"MOVM", K(MISC), NULL},
    {"BRXU", K(BRANCH), NULL}, {"JMXU", K(BRANCH), NULL}, {"SUQUERY", K(MISC), NULL},
    {"R2UR", K(MISC), NULL}, {"S2UR", K(MISC), NULL}, {"VOTEU", K(MISC), NULL},
    {"ULDC", K(LD_CONST), NULL}, {"UIMAD", K(INT_MUL), NULL},
    {"UBMSK", K(INT_ALU), NULL}, {"UBREV", K(INT_ALU), NULL}, {"UCLEA", K(INT_ALU), NULL},
    {"UFLO", K(INT_ALU), NULL}, {"UIADD3", K(INT_ALU), NULL}, {"UISETP", K(INT_ALU), NULL},
    {"ULEA", K(INT_ALU), NULL}, {"ULOP", K(INT_ALU), NULL}, {"ULOP3", K(INT_ALU), NULL},
    {"ULOP32I", K(INT_ALU), NULL}, {"UMOV", K(INT_ALU), NULL}, {"UP2UR", K(INT_ALU), NULL},
    {"UPLOP3", K(INT_ALU), NULL}, {"UPOPC", K(INT_ALU), NULL}, {"UPRMT", K(INT_ALU), NULL},
    {"UPSETP", K(INT_ALU), NULL}, {"UR2UP", K(INT_ALU), NULL}, {"USEL", K(INT_ALU), NULL},
    {"USGXT", K(INT_ALU), NULL}, {"USHF", K(INT_ALU), NULL}, {"USHL", K(INT_ALU), NULL},
    {"USHR", K(INT_ALU), NULL},
    END,
};

/* Added in Ampere (sm_80/86; Ada sm_89 uses the same set). */
static const as_sass sass_ampere[] = {
    {"DMMA", K(TENSOR), NULL}, {"LDGSTS", K(LD_GLOBAL), NULL}, {"LDGDEPBAR", K(MISC), NULL},
    {"F2FP", K(CONV), NULL}, {"I2FP", K(CONV), NULL}, {"F2IP", K(CONV), NULL},
    {"UF2FP", K(CONV), NULL}, {"HMNMX2", K(FP32_ADD), NULL}, {"REDUX", K(MISC), NULL},
    END,
};

/* Added in Hopper (sm_90).  TMA bulk copies (UTMA*, UBLK*) are not listed:
 * their trace lines carry a different address layout that is not read. */
static const as_sass sass_hopper[] = {
    {"HGMMA", K(TENSOR), NULL}, {"IGMMA", K(TENSOR), NULL}, {"QGMMA", K(TENSOR), NULL},
    {"BGMMA", K(TENSOR), NULL}, {"WARPGROUP", K(MISC), NULL},
    {"VIADD", K(INT_ALU), NULL}, {"VIADDMNMX", K(INT_ALU), NULL}, {"VIMNMX", K(INT_ALU), NULL},
    {"VIMNMX3", K(INT_ALU), NULL}, {"FENCE", K(FENCE), NULL}, {"SYNCS", K(MISC), NULL},
    {"ARRIVES", K(MISC), NULL}, {"ELECT", K(MISC), NULL}, {"CGAERRBAR", K(MISC), NULL},
    {"UCGABAR_ARV", K(MISC), NULL}, {"UCGABAR_WAIT", K(MISC), NULL}, {"USETMAXREG", K(MISC), NULL},
    END,
};

/* gpuest pseudo-mnemonics for kinds that no single SASS instruction has. */
static const as_sass sass_gpuest[] = {
    {"FDIV", K(FP32_DIV), NULL}, {"IDIV", K(INT_DIV), NULL}, {"DDIV", K(FP64_DIV), NULL},
    END,
};

struct as_family {
    const char *name;
    uint32_t versions[5]; /* 0-terminated */
    const as_sass *tables[7]; /* NULL-terminated */
};

static const as_family families[] = {
    {"Pascal", {60, 61, 62, 0}, {sass_common, sass_pascal, sass_gpuest, NULL}},
    {"Volta", {70, 72, 0}, {sass_common, sass_volta, sass_gpuest, NULL}},
    {"Turing", {75, 0}, {sass_common, sass_volta, sass_turing, sass_gpuest, NULL}},
    {"Ampere", {80, 86, 87, 89, 0}, {sass_common, sass_volta, sass_turing, sass_ampere, sass_gpuest, NULL}},
    {"Hopper", {90, 0},
     {sass_common, sass_volta, sass_turing, sass_ampere, sass_hopper, sass_gpuest, NULL}},
};

const char as_versions_text[] = "60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90";

/* The writer's choice per kind: a mnemonic every family since Volta maps
 * back to the same kind (checked per family in accelsim_canonical). */
static const char *const canonical[ISA_OP_COUNT] = {
    [ISA_OP_NOP] = "NOP", [ISA_OP_INT_ALU] = "IADD3", [ISA_OP_INT_MUL] = "IMAD",
    [ISA_OP_INT_DIV] = "IDIV", [ISA_OP_FP32_ADD] = "FADD", [ISA_OP_FP32_MUL] = "FMUL",
    [ISA_OP_FP32_FMA] = "FFMA", [ISA_OP_FP32_DIV] = "FDIV", [ISA_OP_CONV] = "I2F",
    [ISA_OP_SFU_SQRT] = "MUFU.RSQ", [ISA_OP_SFU_RCP] = "MUFU.RCP", [ISA_OP_SFU_LOG] = "MUFU.LG2",
    [ISA_OP_SFU_EXP] = "MUFU.EX2", [ISA_OP_SFU_SIN] = "MUFU.SIN", [ISA_OP_FP64_ADD] = "DADD",
    [ISA_OP_FP64_MUL] = "DMUL", [ISA_OP_FP64_FMA] = "DFMA", [ISA_OP_FP64_DIV] = "DDIV",
    [ISA_OP_TENSOR] = "HMMA", [ISA_OP_MISC] = "S2R", [ISA_OP_LD_GLOBAL] = "LDG.E",
    [ISA_OP_ST_GLOBAL] = "STG.E", [ISA_OP_LD_LOCAL] = "LDL", [ISA_OP_ST_LOCAL] = "STL",
    [ISA_OP_LD_SHARED] = "LDS", [ISA_OP_ST_SHARED] = "STS", [ISA_OP_LD_CONST] = "LDC",
    [ISA_OP_LD_TEX] = "TEX", [ISA_OP_ATOM_GLOBAL] = "ATOMG", [ISA_OP_ATOM_SHARED] = "ATOMS",
    [ISA_OP_BARRIER] = "BAR.SYNC", [ISA_OP_FENCE] = "MEMBAR", [ISA_OP_BRANCH] = "BRA",
    [ISA_OP_EXIT] = "EXIT",
};

const as_family *as_family_of(uint32_t v)
{
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        for (const uint32_t *p = families[i].versions; *p; p++)
            if (*p == v)
                return &families[i];
    return NULL;
}

const char *as_family_name(const as_family *f)
{
    return f->name;
}

static const as_sass *find_base(const as_family *f, const char *s, size_t n)
{
    for (const as_sass *const *t = f->tables; *t; t++)
        for (const as_sass *x = *t; x->name; x++)
            if (x->name[0] == s[0] && strncmp(x->name, s, n) == 0 && x->name[n] == 0)
                return x;
    return NULL;
}

int as_family_lookup(const as_family *f, const char *mn, size_t n)
{
    size_t base = 0;
    while (base < n && mn[base] != '.')
        base++;
    if (base == 0)
        return -1;
    const as_sass *x = find_base(f, mn, base);
    if (!x)
        return -1;
    if (x->mods) {
        size_t i = base;
        while (i < n) {
            size_t s = ++i; /* skip the '.' */
            while (i < n && mn[i] != '.')
                i++;
            for (const as_mod *m = x->mods; m->mod; m++)
                if (strncmp(m->mod, mn + s, i - s) == 0 && m->mod[i - s] == 0)
                    return m->op;
        }
    }
    return x->op;
}

int accelsim_version_supported(uint32_t binary_version)
{
    return as_family_of(binary_version) != NULL;
}

int accelsim_op_of(uint32_t binary_version, const char *mnemonic)
{
    const as_family *f = as_family_of(binary_version);
    return f && mnemonic ? as_family_lookup(f, mnemonic, strlen(mnemonic)) : -1;
}

const char *accelsim_canonical(uint32_t binary_version, isa_op op)
{
    const as_family *f = as_family_of(binary_version);
    if (!f || (unsigned)op >= ISA_OP_COUNT || !canonical[op])
        return NULL;
    const char *c = canonical[op];
    return as_family_lookup(f, c, strlen(c)) == (int)op ? c : NULL;
}
