/*
 * noc.h - a crossbar between N source ports and M destination ports, with
 * per-port bandwidth, a fixed traversal latency, bounded buffers and
 * credit-based flow control.  The memory system uses two: SMs -> L2 slices
 * (requests) and L2 slices -> SMs (replies), like GPGPU-Sim's two subnets.
 *
 * Model (per interconnect-clock tick):
 *  - Each source has an injection FIFO (the SM's miss queue, or the slice's
 *    reply queue), bounded in packets and in flits.
 *  - Each port moves noc.port_flits_per_cycle flits per tick.  Time on a
 *    port is counted in flit slots (tick * rate + k), so a 5-flit write on a
 *    1-flit/cycle port holds both its input and its output port for 5 ticks
 *    and a read request of 1 flit for one.
 *  - Arbitration: every tick the sources with a packet are visited in
 *    round-robin order (the start is the tick number mod the number of
 *    sources, so no port is favoured and skipped idle ticks change nothing);
 *    a source's head packet goes if its output port and its own
 *    input port have a free slot in this tick and the destination buffer has
 *    credits for all its flits.  A blocked head blocks its source (FIFO
 *    injection queue, head-of-line blocking as in a simple input-queued
 *    crossbar).
 *  - The packet reaches its destination buffer noc.latency_cycles ticks
 *    after its last flit left (pipelined wires/switch).  The destination
 *    pops it when it is ready; popping returns the credits.
 * Packets to one destination arrive in send order, so each destination
 * buffer is a FIFO ordered by arrival tick.
 *
 * Weighted packets (sampled-mode background, mem_pkt.weight = w) stand for
 * w packets from w SMs: they occupy their L2-slice-side port w times as long
 * (and their SM-side port once), so the slices see the bandwidth demand of
 * w SMs while the simulator moves one packet.
 *
 * A source whose head is blocked sleeps: until its ports free up, or (when
 * blocked on credits) until some destination returns credits.
 * All sizes are fixed at creation; nothing is allocated per packet.
 */
#ifndef SIM_NOC_H
#define SIM_NOC_H

#include <stdint.h>

#include "err.h"
#include "mempkt.h"

typedef struct noc {
    uint32_t nsrc, ndst;
    uint32_t rate;       /* flits per port per tick */
    uint32_t latency;    /* ticks */
    uint32_t src_flits_max, dst_flits_max, src_pkts_max;
    int to_slices;       /* 1: destination = pkt.slice (requests), 0: pkt.sm (replies) */
    pktq *src;           /* [nsrc] injection FIFOs */
    uint32_t *src_flits; /* flits queued at each source */
    uint64_t *in_free;   /* [nsrc] next free flit slot of the input port */
    uint64_t *out_free;  /* [ndst] next free flit slot of the output port */
    pktq *dst;           /* [ndst] destination buffers; pkt.ready = arrival tick */
    uint32_t *credits;   /* [ndst] free flits in each destination buffer */
    uint64_t *busy;      /* bitmap of sources with packets */
    uint64_t *src_wake;  /* [nsrc] tick from which a busy source is worth looking at */
    uint32_t nwords;
    uint64_t credit_epoch, credit_seen; /* credits returned (noc_pop count); value at the last tick */
    uint64_t wake;       /* earliest tick noc_tick has work */
    /* Called for every packet put into a destination buffer, with the packet
     * as queued (p->ready: its arrival tick); may be NULL. */
    void (*on_arrive)(void *ctx, uint32_t dst, const mem_pkt *p);
    /* Called when a packet leaves source src's queue (may be NULL). */
    void (*on_depart)(void *ctx, uint32_t src, uint64_t tick);
    void *ctx;
    double flits;        /* flits delivered (real traffic) */
} noc;

/* src_pkts: max packets per source queue (0: bounded by flits only).
 * to_slices: see the field. */
int noc_init(noc *n, uint32_t nsrc, uint32_t ndst, int to_slices, uint32_t rate, uint32_t latency,
             uint32_t src_flits, uint32_t src_pkts, uint32_t dst_flits, ge_err *e);
void noc_free(noc *n);

/* Can source s queue `pkts` more packets of `flits` flits in total? */
static inline int noc_room(const noc *n, uint32_t s, uint32_t pkts, uint32_t flits)
{
    return n->src[s].n + pkts <= n->src_pkts_max && n->src_flits[s] + flits <= n->src_flits_max;
}

/* Queue p at source s (caller checked noc_room); it may leave from tick
 * p->ready.  Its destination is p->slice or p->sm (see to_slices). */
void noc_push(noc *n, uint32_t s, const mem_pkt *p);

/* Arbitrate and send at tick `now`. */
void noc_tick(noc *n, uint64_t now);

/* Head of destination d's buffer if it has arrived by tick `now`. */
static inline const mem_pkt *noc_peek(const noc *n, uint32_t d, uint64_t now)
{
    const mem_pkt *p = pktq_head(&n->dst[d]);
    return p && p->ready <= now ? p : NULL;
}
/* Head regardless of arrival time (NULL if empty). */
static inline const mem_pkt *noc_front(const noc *n, uint32_t d) { return pktq_head(&n->dst[d]); }
void noc_pop(noc *n, uint32_t d);

#endif
