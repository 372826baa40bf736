/*
 * mempkt.h - the message that travels between the levels of the memory
 * hierarchy (L1 -> crossbar -> L2 slice, and back), and the bounded FIFO
 * that holds it.
 *
 * One packet is one line-sized request or reply with a sector mask, the
 * granularity at which Volta-class L1s talk to L2 (only the missing 32-byte
 * sectors are fetched).  A request carries the index of the L1 MSHR entry
 * that waits for it, and the reply echoes it, so a fill finds its entry in
 * O(1) without searching.
 *
 * Sizes on the wire: every packet carries an 8-byte header (address,
 * command, ids), the size GPGPU-Sim uses for its memory-fetch control part
 * (Bakhoda et al., ISPASS 2009; GPGPU-Sim manual, "Interconnection
 * Network"); writes and atomics add their data in the request, read and
 * atomic replies add their data in the reply.  The interconnect turns bytes
 * into flits with noc.flit_bytes.
 *
 * pktq: a power-of-two ring of packets with a fixed capacity chosen at
 * creation from a proven bound; producers check pktq_full() first, so a
 * full queue is back-pressure, never growth or loss.
 */
#ifndef SIM_MEMPKT_H
#define SIM_MEMPKT_H

#include <stdint.h>
#include <stdlib.h>

#include "err.h"

#define MEM_PKT_HEADER_BYTES 8

/* Sampled mode: background ("shadow") traffic uses line addresses with a bit
 * at or above MEM_SHADOW_BIT set (real lines must stay below 2^50, i.e.
 * byte addresses below 2^57; the SM core puts code at 2^56), so any level
 * can tell shadow data from real data by its address (mem_detailed.c). */
#define MEM_SHADOW_BIT 50
static inline int mem_line_is_shadow(uint64_t line) { return (line >> MEM_SHADOW_BIT) != 0; }
/* Where a line lives (its slice, channel, bank, row): a shadow line lives
 * at its low bits, next to the line it copies (mem_detailed.c). */
static inline uint64_t mem_line_home(uint64_t line) { return line & ((1ull << MEM_SHADOW_BIT) - 1); }

/* Population count without a library call (the default x86-64 target has
 * no popcnt instruction, and __builtin_popcount then calls libgcc). */
static inline uint32_t mem_popc(uint32_t m)
{
    /* Most masks are one line's four sectors: their counts are the nibbles
     * of one constant, cheaper than the general bit-twiddling below (which
     * was 2% of the host instructions of a V100 spmv_csr run). */
    if (m < 16)
        return (uint32_t)(0x4332322132212110ull >> (m * 4)) & 0xF;
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* Sector masks between granularities: every bit of `m` becomes r bits
 * (expand), or every group of r bits becomes one bit, set if any is
 * (contract).  r is a power of two; masks have at most 32 bits. */
static inline uint32_t mem_mask_expand(uint32_t m, uint32_t r)
{
    if (r <= 1)
        return m;
    uint32_t out = 0, g = r >= 32 ? UINT32_MAX : (1u << r) - 1;
    for (uint32_t i = 0; m && i * r < 32; i++, m >>= 1)
        if (m & 1)
            out |= g << (i * r);
    return out;
}
static inline uint32_t mem_mask_contract(uint32_t m, uint32_t r)
{
    if (r <= 1)
        return m;
    uint32_t out = 0, g = r >= 32 ? UINT32_MAX : (1u << r) - 1;
    for (uint32_t i = 0; i * r < 32; i++)
        if ((m >> (i * r)) & g)
            out |= 1u << i;
    return out;
}

typedef enum { PKT_READ = 0, PKT_WRITE, PKT_ATOMIC } mem_pkt_kind;

enum {
    PKT_F_SHADOW = 1 << 0, /* background traffic of a non-simulated SM (sampled mode) */
    PKT_F_NOFILL = 1 << 1, /* reply completes the L1 MSHR entry but is not cached */
};

/* Which L1-side cache of the SM a reply fills. */
enum { L1_DATA = 0, L1_CONST, L1_TEX, L1_NCACHES };

typedef struct mem_pkt {
    uint64_t line;    /* line address */
    uint64_t ready;   /* tick (of the consumer's domain) from which it may be taken */
    uint32_t sectors; /* sector mask within the line */
    uint32_t mshr;    /* L1 MSHR entry index (echoed in the reply) */
    uint16_t sm;      /* SM port: requester / reply destination */
    uint16_t slice;   /* L2 slice */
    uint8_t kind;     /* mem_pkt_kind */
    uint8_t cache;    /* L1_DATA / L1_CONST / L1_TEX */
    uint8_t flags;    /* PKT_F_* */
    uint8_t flits;    /* size on the interconnect */
    uint16_t weight;  /* SMs' worth of traffic it stands for (1; more for weighted background) */
} mem_pkt;

typedef struct pktq {
    mem_pkt *buf;
    uint32_t mask, head, n;
} pktq;

/* Capacity is rounded up to a power of two (>= cap). */
static inline int pktq_init(pktq *q, uint32_t cap, ge_err *e)
{
    uint32_t c = 1;
    while (c < cap)
        c <<= 1;
    q->buf = ge_malloc(c * sizeof *q->buf, e); /* slots are written before they are read */
    q->mask = c - 1;
    q->head = q->n = 0;
    return q->buf ? 0 : -1;
}
static inline void pktq_free(pktq *q) { free(q->buf), q->buf = NULL; }
static inline int pktq_full(const pktq *q) { return q->n > q->mask; }
static inline uint32_t pktq_room(const pktq *q) { return q->mask + 1 - q->n; }
static inline mem_pkt *pktq_head(const pktq *q) { return q->n ? &q->buf[q->head] : NULL; }
static inline void pktq_push(pktq *q, const mem_pkt *p) { q->buf[(q->head + q->n++) & q->mask] = *p; }
/* Room for one more packet at the tail, to be filled in place. */
static inline mem_pkt *pktq_push_slot(pktq *q) { return &q->buf[(q->head + q->n++) & q->mask]; }
static inline void pktq_pop(pktq *q) { q->head = (q->head + 1) & q->mask, q->n--; }

/* Flits of `bytes` on a link of flit_bytes. */
static inline uint32_t mem_flits(uint32_t bytes, uint32_t flit_bytes) { return (bytes + flit_bytes - 1) / flit_bytes; }

#endif
