/*
 * ptx_int.h - internals shared by the PTX parser files (not a public API).
 *
 * The parser is split by concern: ptx_lex.c (tokens and literals),
 * ptx_parse.c (directives, functions, scopes), ptx_symbols.c (names),
 * ptx_vars.c (variables and initialisers), ptx_decode.c and
 * ptx_decode_ctl.c (one instruction: mnemonic modifiers to a ptx_inst),
 * ptx_operand.c (operands, immediates, stream register lists), ptx_cfg.c
 * (basic blocks, post-dominators, exit-free analysis, per-kernel layouts).
 */
#ifndef GE_PTX_INT_H
#define GE_PTX_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptx.h"

/* ---- tokens ---- */

typedef enum { TK_EOF = 0, TK_WORD, TK_PUNCT, TK_STRING } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    int len;
    uint32_t line;
} tok;

typedef struct lexer {
    const char *p, *end;
    uint32_t line;
    tok peeked;
    int has_peek;
} lexer;

void lex_init(lexer *L, const char *text, size_t len);
tok lex_next(lexer *L);
tok lex_peek(lexer *L);
static inline int tok_is(const tok *t, const char *s)
{
    int i = 0;
    for (; i < t->len; i++)
        if (s[i] != t->s[i])
            return 0;
    return s[i] == 0;
}
static inline int tok_punct(const tok *t, char c) { return t->kind == TK_PUNCT && t->s[0] == c; }

/* Literal forms. */
enum { LIT_INT = 1, LIT_F32, LIT_F64, LIT_DEC_FLOAT };
/* Parse a numeric literal word ("12", "0x1F", "0f3F800000", "0d...", "1.5",
 * "077", with optional U suffix).  Returns 0 or -1 if the word is not one. */
int lex_number(const char *s, int len, int *form, uint64_t *bits, double *fval);

/* ---- raw operands (before the instruction type is applied) ---- */

typedef struct raw_opnd {
    ptx_opnd o;      /* kind, reg, imm, base, n, neg */
    int lit_form;    /* LIT_* for PTX_O_IMM */
    double fval;     /* decimal float literal */
    uint8_t space;   /* resolved state space of a symbolic address (ptx_space) or 0 */
    uint8_t is_pred; /* register is a predicate */
    uint8_t pair;    /* followed by '|' second register (in o2) */
    ptx_opnd o2;
    tok name;        /* unresolved label/function name */
    uint32_t line;
} raw_opnd;

#define MAX_RAW 64

/* ---- the parser ---- */

typedef struct reg_decl {
    const char *name;
    int len;
    int is_range;
    uint32_t count;   /* range size */
    uint32_t base;    /* first register or predicate index */
    uint8_t is_pred;
    uint8_t type;
    int depth;
} reg_decl;

typedef struct sym_decl {  /* function-scope symbols: locals, shared, call-site params */
    const char *name;
    int len;
    uint8_t space;         /* PTX_SP_LOCAL, PTX_SP_SHARED, PTX_SP_FPARAM */
    uint32_t offset;
    uint32_t size;
    int depth;
} sym_decl;

typedef struct label_decl {
    const char *name;
    int len;
    uint32_t inst;
} label_decl;

typedef struct fixup {      /* branch target or callee to resolve later */
    uint32_t inst;          /* instruction index */
    uint32_t opnd;          /* operand index */
    const char *name;
    int len;
    uint32_t line;
} fixup;

typedef struct parser {
    lexer L;
    const char *name;
    ge_err *e;
    ptx_module *m;
    size_t cap_insts, cap_opnds, cap_vregs, cap_funcs, cap_params, cap_vars, cap_data, cap_strs, cap_mnems, cap_regw;
    /* current function */
    int fn;                 /* index or -1 */
    int depth;
    reg_decl *regs;
    size_t nregs, cap_regs;
    sym_decl *syms;
    size_t nsyms, cap_syms;
    label_decl *labels;
    size_t nlabels, cap_labels;
    fixup *bfix;            /* branch fixups of the current function */
    size_t nbfix, cap_bfix;
    fixup *cfix;            /* call fixups (module-wide, resolved at the end) */
    size_t ncfix, cap_cfix;
    /* mnemonic interning: open addressing over m->mnems */
    uint32_t *mhash;
    size_t mhash_cap;
    uint32_t shared_end;    /* static shared layout cursor of the current kernel */
} parser;

int perr(parser *P, uint32_t line, const char *fmt, ...) GE_PRINTF(3, 4);
uint32_t p_str(parser *P, const char *s, int len); /* intern a name into m->strs; UINT32_MAX on ENOMEM */
int p_mnem(parser *P, const char *s, int len);     /* intern a mnemonic; -1 on error */
int p_grow(parser *P, void **buf, size_t *cap, size_t need, size_t elsize);

/* Resolve an identifier used as an operand (register, symbol); fills r.
 * Returns 0, or -1 with the error set if the name is unknown and not a
 * possible label/function (labels and functions are left as PTX_O_LABEL
 * with r->name set for fixup). */
int p_resolve_name(parser *P, const tok *t, raw_opnd *r);

/* Decode one instruction whose mnemonic is t (guard already parsed:
 * guard = predicate+1 or 0).  Reads operands up to and including ';'. */
int ptx_decode(parser *P, const tok *mn, uint32_t guard, int guard_neg);

/* ---- parser helpers (ptx_parse.c, ptx_symbols.c, ptx_vars.c) ---- */

static inline int name_eq(const char *a, int alen, const char *b, int blen)
{
    return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}
static inline uint64_t p_align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }
int p_func_index(const ptx_module *m, const char *s, int len); /* -1 if none */
int p_var_index(const ptx_module *m, const char *s, int len);  /* module scope; -1 if none */
int p_expect(parser *P, char c);
int p_read_uint(parser *P, uint64_t *v);
int p_type_of(const tok *t);                                    /* ".u32" -> PTX_T_U32, -1 */
/* After the space directive of a declaration: [.align N] [.vN] .type name[dims] [= init]; */
int p_parse_var(parser *P, int space, int is_extern, uint32_t line);

/* ---- instruction decoding (ptx_decode.c, ptx_decode_ctl.c, ptx_operand.c) ---- */

/* Modifiers of a mnemonic after its operation. */
typedef struct mods {
    int types[3], ntypes;
    int rnd, cmp, aop, shfl, vote, testp, prmt, space, vec, lo, hi, full, sync, dir, ndir;
    unsigned flags;
} mods;

/* One instruction being decoded: its modifiers, raw operands, and the
 * normalised operand list being built. */
typedef struct dec {
    parser *P;
    const tok *mn;
    mods M;
    ptx_inst in;
    raw_opnd r[MAX_RAW];
    int n;
    ptx_opnd out[8];
    int nout;
} dec;

static inline char tkind(int ty) { return ptx_types[ty].kind; }
static inline int tsize(int ty) { return ptx_types[ty].size; }
static inline int is_int(int ty) { char k = tkind(ty); return k == 'b' || k == 'u' || k == 's'; }
static inline int is_flt(int ty) { return tkind(ty) == 'f' || tkind(ty) == 'h'; }

int dec_bad(dec *D);                        /* "unsupported instruction 'MNEMONIC'" */
int dec_nargs(dec *D, int lo, int hi);      /* operand count check */
int dec_need_type(dec *D, int n);           /* exactly n type modifiers */
int dec_val(dec *D, int i, int ty);         /* append raw operand i as a value of type ty */
int dec_dst(dec *D, int i, int ty, int sink_ok); /* append raw operand i as a destination */
void dec_none(dec *D);                      /* append an empty operand slot */

/* Memory, control flow, barriers, collectives (ptx_decode_ctl.c). */
int dec_ldst(dec *D);
int dec_atom(dec *D);
int dec_bra(dec *D);
int dec_call(dec *D);
int dec_bar(dec *D);
int dec_shfl(dec *D);
int dec_vote(dec *D);
int dec_match(dec *D);
int dec_redux(dec *D);
/* arithmetic, logic, shifts, bit fields, SFU (ptx_decode_alu.c) */
int dec_arith(dec *D, int nsrc);                  /* d, a[, b[, c]] all of the instruction type */
int dec_arith_like_dst(dec *D, int ty, int nsrc); /* d of type ty, then nsrc sources */
int dec_add(dec *D);
int dec_mul(dec *D);
int dec_fma(dec *D);
int dec_div(dec *D);
int dec_unary_int_or_float(dec *D);
int dec_minmax(dec *D);
int dec_bitcount(dec *D);
int dec_bfe(dec *D);
int dec_logic(dec *D);
int dec_shift(dec *D);
int dec_shf(dec *D);
int dec_prmt(dec *D);
int dec_dp(dec *D);
int dec_sfu(dec *D);

/* Operands (ptx_operand.c). */
int ptx_read_operand(parser *P, raw_opnd *r);
int ptx_conv_imm(parser *P, raw_opnd *r, int ty);
void ptx_ws_regs(const ptx_module *m, ptx_inst *in, const ptx_opnd *o);

/* After the whole module: basic blocks and reconvergence points of every
 * function, per-kernel layouts, recursion check. */
int ptx_cfg_module(ptx_module *m, ge_err *e);

#endif
