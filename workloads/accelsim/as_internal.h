/*
 * as_internal.h - pieces shared by the files of the Accel-Sim front-end.
 *
 *   as_input.c    buffered line input from a plain or .xz file or memory
 *   as_opcodes.c  SASS mnemonic -> isa_op tables, one per GPU family
 *   as_header.c   kernel header lines -> ws_kernel, with validation
 *   as_parse.c    thread blocks and instruction lines -> ws_cta
 *   as_reader.c   the ws_source: kernelslist.g, events, CTAs, open_cta
 *   as_writer.c   ws_source -> kernelslist.g + kernel-N.traceg[.xz]
 */
#ifndef GE_AS_INTERNAL_H
#define GE_AS_INTERNAL_H

#include <lzma.h>
#include <stddef.h>
#include <stdint.h>

#include "accelsim.h"
#include "u64set.h"

/* ---- as_input.c ---- */

#define AS_IN_BUF (1u << 20)  /* read buffer; also the longest line accepted */
/* Distinct mnemonics per kernel.  SASS kernels use tens to a few hundred
 * (base opcode + modifiers); the limit only stops a corrupt trace from
 * growing the table without bound. */
#define AS_MAX_MNEMONICS 4096u
#define AS_XZ_MEMLIMIT (256u << 20)

typedef struct as_in {
    char *path;                 /* for messages */
    int fd;                     /* -1 for memory input */
    const uint8_t *mem;         /* memory input (not owned) */
    size_t memlen, mempos;
    int xz;                     /* data is xz-compressed */
    lzma_stream lz;
    int lz_live;
    uint8_t *zbuf;              /* compressed input chunk */
    int zeof;                   /* compressed input exhausted */
    char *buf;                  /* decompressed text window [beg, end) */
    size_t cap;                 /* size of buf */
    size_t beg, end, scan;      /* scan: bytes after beg known to hold no '\n' */
    uint64_t pos;               /* stream offset of buf[beg] */
    int eof;                    /* no more text after end */
    uint64_t lineno;            /* number of the last line returned */
    uint64_t line_off;          /* stream offset of the last line returned */
    int partial;                /* the last line returned had no newline */
    char *last;                 /* the last line returned (for as_in_unread) */
    size_t last_len;
    int pushed;
} as_in;

int as_in_open(as_in *in, const char *path, ge_err *e);
/* Memory input; data must outlive in.  name is used in messages. */
int as_in_open_mem(as_in *in, const void *data, size_t size, const char *name, ge_err *e);
void as_in_close(as_in *in);
/* Next line, NUL-terminated, without its "\n" or "\r\n".  The pointer is
 * valid until the next call.  1 = a line, 0 = end of input, -1 = error. */
int as_in_line(as_in *in, char **line, size_t *len, ge_err *e);
/* Give back the line just returned: the next as_in_line returns it again. */
void as_in_unread(as_in *in);
/* Continue reading at stream offset off, where line number lineno starts.
 * Plain data seeks; xz data decodes forward, from the start if off lies
 * behind the current position. */
int as_in_seek(as_in *in, uint64_t off, uint64_t lineno, ge_err *e);

/* ---- as_opcodes.c ---- */

typedef struct as_family as_family;
/* The opcode family of a binary version, or NULL if unsupported. */
const as_family *as_family_of(uint32_t binary_version);
const char *as_family_name(const as_family *f);
/* Op kind of a mnemonic of n bytes (not NUL-terminated): isa_op or -1. */
int as_family_lookup(const as_family *f, const char *mn, size_t n);
/* The versions accepted, for messages: "60, 61, ..." */
extern const char as_versions_text[];

/* ---- as_header.c ---- */

/* The kernel a reader is decoding, with storage for its strings. */
typedef struct as_kernel {
    ws_kernel k;
    char *path;                 /* trace file (for messages) */
    char *name, *nvbit;
    const as_family *fam;
    uint32_t warps_per_cta;
    /* Interned mnemonics: mn[i] for i < nmn (entries beyond are not
     * initialised).  mn has AS_MAX_MNEMONICS slots, allocated once, so its
     * address never changes while the source is open. */
    char **mn;
    uint32_t *mn_len;
    uint8_t *mn_op;
    uint32_t nmn;
    uint32_t *hash;             /* open addressing: mnemonic index + 1, 0 = empty */
    uint32_t hash_cap;
    /* Stream handles above 2^32-1 (pointer values) get ids counting down
     * from UINT32_MAX in order of appearance; kept across kernels. */
    uint64_t big_stream[64];
    uint32_t nbig_stream;
} as_kernel;

int as_kernel_init(as_kernel *K, ge_err *e);
void as_kernel_free(as_kernel *K);
/* Forget the current kernel's strings and mnemonics (keeps the tables). */
void as_kernel_reset(as_kernel *K);
/* Read and validate the header of a kernel file; stops before the first
 * thread block.  default_id is used when the header has no kernel id. */
int as_read_header(as_kernel *K, as_in *in, uint32_t default_id, ge_err *e);
/* Check a kernel's fields against the format's ranges (reader and writer).
 * On failure *field (if not NULL) is the AS_F_* of the offending field. */
enum {
    AS_F_NAME, AS_F_ID, AS_F_GRID, AS_F_BLOCK, AS_F_SHMEM, AS_F_NREGS, AS_F_BINVER, AS_F_STREAM,
    AS_F_SHBASE, AS_F_LOCBASE, AS_F_NVBIT, AS_F_TRACER, AS_F_LINEINFO, AS_F_COUNT
};
int as_check_kernel(const ws_kernel *k, int *field, ge_err *e);

/* ---- as_reader.c ---- */

/* One line of kernelslist.g. */
typedef struct as_cmd {
    ws_event_kind kind;
    uint64_t addr, bytes; /* memcpy */
    char *path;           /* kernel trace file; NULL = the source's memory buffer */
    uint64_t line;        /* line in kernelslist.g (for messages) */
} as_cmd;

/* Parse a kernelslist.g read from in; kernel paths are made relative to dir
 * (NULL: taken as written).  Kernel files are not opened. */
int as_list_read(as_in *in, const char *dir, as_cmd **cmds, size_t *ncmds, ge_err *e);
void as_list_free(as_cmd *cmds, size_t ncmds);

/* ---- as_parse.c ---- */

/* Intern a mnemonic of the current kernel; returns its index or -1 (unknown
 * opcode for the kernel's family, or table full). */
int as_intern(as_kernel *K, const char *mn, size_t n, ge_err *e);
/* Decode the next thread block into cta.  1 = got one, 0 = no more thread
 * blocks, -1 = error ("file:line: ..."). */
int as_read_cta(as_kernel *K, as_in *in, ws_cta *cta, ge_err *e);
/* Parse one instruction line (NUL-terminated) into cta's last warp. */
int as_parse_inst(as_kernel *K, char *line, ws_cta *cta, ge_err *e);
/* "thread block = x,y,z" -> ids; -1 if malformed. */
int as_parse_tb_line(const char *line, uint32_t id[3]);

#endif
