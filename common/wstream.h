/*
 * wstream.h - the warp stream: the one representation of a workload that
 * every consumer (profiler, detailed simulator, stats) reads.
 *
 * Shape: a sequence of events (memory copies and kernel launches).  A kernel
 * launch holds CTAs; a CTA holds warps; a warp holds warp instructions.
 *
 * Streaming: a consumer pulls one CTA at a time into a ws_cta it owns, so no
 * consumer ever needs a whole kernel in memory.  A ws_cta's buffers are reused
 * across calls (no per-instruction allocation).  A CTA stays valid until the
 * consumer passes the same ws_cta to the source again or frees it, so a
 * simulator can hold as many CTAs as it has resident slots.
 *
 * Layout: a CTA stores all its warps' instructions in one array, warp after
 * warp, and the per-lane addresses of memory instructions in a second array
 * (32 contiguous entries per memory instruction, inactive lanes hold 0).
 *
 * Sources implement ws_source_ops (a struct of function pointers).  Front-ends
 * live in workloads/: accelsim/ (SASS traces) and ptx/ (execution-driven).
 */
#ifndef GE_WSTREAM_H
#define GE_WSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "isa.h"

#define WS_WARP_SIZE 32
#define WS_MAX_DST 4
#define WS_MAX_SRC 6
#define WS_NO_ADDR UINT32_MAX

/* One warp instruction (48 bytes). */
typedef struct ws_inst {
    uint64_t pc;
    uint32_t mask;     /* active lanes */
    uint32_t addr;     /* index of lane 0's address in ws_cta.addr, or WS_NO_ADDR */
    uint32_t imm;      /* immediate field of tracer v5 lines (kept for round trips) */
    uint16_t opcode;   /* index into ws_kernel.opcodes (front-end's mnemonic) */
    uint8_t op;        /* isa_op */
    uint8_t size;      /* bytes per lane for memory instructions, else 0 */
    uint8_t ndst, nsrc;
    uint16_t dst[WS_MAX_DST];
    uint16_t src[WS_MAX_SRC];
} ws_inst;

typedef struct ws_warp {
    uint32_t first; /* index of the warp's first instruction in ws_cta.inst */
    uint32_t ninst;
} ws_warp;

typedef struct ws_cta {
    uint32_t id[3];  /* blockIdx x, y, z */
    uint64_t index;  /* linear index: x + y*gx + z*gx*gy */
    uint32_t nwarps;
    ws_warp *warps;
    size_t warps_cap;
    ws_inst *inst;
    size_t ninst, inst_cap;
    uint64_t *addr;
    size_t naddr, addr_cap;
} ws_cta;

/* A kernel launch. Strings are owned by the source and live until the next
 * event or the source is closed. */
typedef struct ws_kernel {
    const char *name;
    uint32_t id;           /* 1-based launch order */
    uint32_t grid[3], block[3];
    uint32_t nregs;        /* registers per thread */
    uint32_t shmem_static; /* bytes per CTA */
    uint32_t shmem_dynamic;
    uint32_t binary_version; /* SM version of the code (e.g. 70, 80); 0 if unknown */
    uint32_t stream;
    uint64_t shmem_base, local_base;
    /* Extra header lines a trace carried (nvbit version, tracer version...). */
    uint32_t tracer_version;
    const char *nvbit_version;
    uint32_t lineinfo;
    /* Mnemonics indexed by ws_inst.opcode.  A trace source discovers
     * mnemonics while its CTAs are read, so nopcodes may be short of the
     * indices handed out later; the table stays valid (and grows) until the
     * next event, and every ws_inst.opcode a source hands out indexes a
     * valid entry. */
    const char *const *opcodes;
    uint32_t nopcodes;
} ws_kernel;

typedef enum { WS_EV_KERNEL = 1, WS_EV_MEMCPY_H2D, WS_EV_MEMCPY_D2H } ws_event_kind;

typedef struct ws_event {
    ws_event_kind kind;
    uint64_t addr, bytes; /* memcpy */
    ws_kernel kernel;     /* kernel */
} ws_event;

typedef struct ws_source ws_source;

typedef struct ws_source_ops {
    const char *name;
    /* Next event: 1 = got one, 0 = end of stream, -1 = error. After a kernel
     * event, next_cta yields its CTAs; calling next_event again skips any
     * CTAs not consumed. */
    int (*next_event)(ws_source *s, ws_event *ev, ge_err *e);
    /* Next CTA of the current kernel in launch order: 1, 0 (no more), -1. */
    int (*next_cta)(ws_source *s, ws_cta *cta, ge_err *e);
    /* One CTA of the current kernel on its own (any order). May be NULL when
     * the source cannot seek; ws_open_cta then fails cleanly. */
    int (*open_cta)(ws_source *s, uint64_t index, ws_cta *cta, ge_err *e);
    void (*close)(ws_source *s);
} ws_source_ops;

struct ws_source {
    const ws_source_ops *ops;
};

static inline int ws_next_event(ws_source *s, ws_event *ev, ge_err *e) { return s->ops->next_event(s, ev, e); }
static inline int ws_next_cta(ws_source *s, ws_cta *c, ge_err *e) { return s->ops->next_cta(s, c, e); }
int ws_open_cta(ws_source *s, uint64_t index, ws_cta *c, ge_err *e);
void ws_close(ws_source *s);

/* ---- kernel helpers ---- */
uint64_t ws_kernel_nctas(const ws_kernel *k);
uint32_t ws_kernel_threads_per_cta(const ws_kernel *k);
uint32_t ws_kernel_warps_per_cta(const ws_kernel *k);

/* ---- CTA building (used by front-ends) ---- */
void ws_cta_init(ws_cta *c);
void ws_cta_free(ws_cta *c);
void ws_cta_reset(ws_cta *c); /* empty it, keep buffers */
/* Start a new warp; instructions appended afterwards belong to it. */
int ws_cta_begin_warp(ws_cta *c, ge_err *e);
/* Append an instruction to the last warp; returns a pointer to fill or NULL. */
ws_inst *ws_cta_push(ws_cta *c, ge_err *e);
/* Give the last pushed instruction 32 lane addresses (zeroed); returns them. */
uint64_t *ws_cta_push_addr(ws_cta *c, ws_inst *in, ge_err *e);
/* Deep copy (for consumers that keep a CTA beyond the source's reuse). */
int ws_cta_copy(ws_cta *dst, const ws_cta *src, ge_err *e);

static inline const ws_inst *ws_warp_inst(const ws_cta *c, uint32_t w) { return c->inst + c->warps[w].first; }
static inline const uint64_t *ws_inst_addr(const ws_cta *c, const ws_inst *in)
{
    return in->addr == WS_NO_ADDR ? NULL : c->addr + in->addr;
}
static inline int ws_popc(uint32_t m) { return __builtin_popcount(m); }

#endif
