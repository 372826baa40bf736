/*
 * l1.h - the memory side of one SM: its L1 data cache, constant cache and
 * texture cache (each a sectored cache with MSHRs and a data port), and the
 * queue of completed loads the SM pops.
 *
 * Accesses arrive one coalesced line at a time (sim_mem_access).  What each
 * cache does is set by its config block:
 *  - latency_cycles: the L1 pipeline depth; a hit's data is ready that many
 *    core cycles after the access, and a miss leaves for L2 at the same time.
 *  - banks: data sectors the cache moves per core cycle (its port); an
 *    access of k sectors holds the port k/banks cycles, and an access that
 *    cannot start in the current cycle is refused (RETRY).  With Volta's
 *    4 banks of 32 B that is 128 B/clk/SM.
 *  - mshr_entries / mshr_merge: misses in flight and loads merged per miss.
 *  - write_policy: write_through (stores update a present line and go to L2),
 *    write_evict (stores drop the line's written sectors and go to L2),
 *    write_back (stores stay in L1 as dirty sectors; dirty victims go to L2),
 *    read_only (as write_evict).
 *  - allocate: on_miss (a line is reserved when the miss is sent; a set whose
 *    ways all wait for fills refuses new misses) or on_fill (allocated when
 *    the data returns).
 *  - write_allocate: whether a store miss allocates the line (the written
 *    sectors become valid; stores write whole sectors in this model, so no
 *    fetch is needed).
 * Granularity: inside the memory system every mask is in L2 sectors of an L2
 * line (the L1s use the L2's line size).  A cache whose own sector is larger
 * (an unsectored Fermi L1 with 128-byte "sectors", a 64-byte constant-cache
 * block) fetches whole own-sectors on a miss and counts its activity in its
 * own sectors.  A cache whose line is shorter than the L2 line (the 64-byte
 * constant cache) is modelled with L2-sized lines and its sets x ways, so it
 * holds as many lines as configured but they are longer.
 * Loads with bypass_l1, atomics and loads when the cache is absent skip the
 * tag array and go to L2 through a non-merging MSHR entry; their replies do
 * not fill the L1.  A load that needs sectors that are already requested
 * merges into the MSHR entry and completes with it.
 *
 * Statistics and activity (sector granularity, real traffic only):
 * L1_READ/WRITE_HITS/MISSES for the data cache, CONST_* and TEX_* for the
 * constant and texture caches, in each cache's own sectors.  A sector that is
 * already in flight counts as a miss.
 */
#ifndef SIM_L1_H
#define SIM_L1_H

#include <stdint.h>

#include "activity.h"
#include "cache.h"
#include "gpu_config.h"
#include "mem.h"
#include "mempkt.h"
#include "mshr.h"

enum { WP_WRITE_THROUGH = 0, WP_WRITE_BACK, WP_WRITE_EVICT };
enum { L1_REFUSED_STATE = 0, L1_REFUSED_ROOM, L1_REFUSED_PORT };

typedef struct l1_cache {
    int present;
    uint32_t gran;       /* the cache's own sector = gran L2 sectors (fetch and count unit) */
    cache c;
    mshr m;
    /* Allocate on miss: the MSHR entry of each slot with pending sectors.
     * Such a line's entry lives exactly as long as the slot has pending
     * sectors (the two masks are updated together), so the slot names the
     * entry and the MSHR's line index is not needed (NULL: on_fill or absent). */
    int32_t *slot_mshr;
    uint32_t latency, banks;
    uint64_t port_free;  /* next free sector slot of the data port (cycle * banks + k) */
    int wpolicy, alloc_on_fill, write_allocate;
} l1_cache;

typedef struct l1_done {
    uint64_t ready, seq, issue;
    uint32_t token;
} l1_done;

typedef struct l1_stats {
    double rd_hit[L1_NCACHES], rd_miss[L1_NCACHES], wr_hit, wr_miss;
    double load_sectors, load_hits; /* data cache loads (for hit rates) */
    double lat_sum, lat_count;      /* completed data-cache loads (not atomics, constant or texture) */
} l1_stats;

typedef struct l1_unit {
    l1_cache cache[L1_NCACHES];
    uint8_t route_const, route_tex;  /* cache used by CONST / TEX loads */
    uint32_t sector_bytes, flit_bytes;
    l1_done *heap;                   /* completions, min-heap on (ready, seq) */
    uint32_t hn, hcap;
    uint64_t seq;
    uint32_t tokens;                 /* accepted loads/atomics not yet popped (<= hcap) */
    /* Refusal memo.  A refused access is offered again every cycle until it
     * is taken; the memo answers a repeat without planning it again, for as
     * long as nothing that could lift the refusal has happened.  `kver`
     * changes whenever something may have (l1_fill, l1_pop, l1_access, l1_room_grew):
     *  - a refusal for want of an MSHR or merge slot, a completion slot or a
     *    replaceable way (state) is lifted only by a fill (which frees
     *    entries, ways and slots) or a pop;
     *  - one for want of queue room (room) only by the room growing, or by
     *    a fill of the refused line itself (its sectors then hit or merge and
     *    need no packet).  A store to a write-back L1 may also find a clean
     *    victim after any fill and write without a packet, so a store's room
     *    refusal is lifted by any fill too;
     *  - one for a busy data port depends on the clock and is not kept.
     * Accepts and invalidations change it always (they change the plan of
     * any access), and so does keeping a new refusal, so that a caller
     * holding the key of an older one offers it again. */
    uint64_t kver;
    int held;          /* the last l1_access was refused by (or into) the memo */
    struct {
        uint64_t line, kver;
        uint32_t sectors;
        int kind, space, bypass_l1, room, valid;
    } refused;
    int why; /* L1_REFUSED_*: the reason of the last refusal */
    l1_stats st;
} l1_unit;

int l1_init(l1_unit *u, const gpu_config *cfg, ge_err *e);
/* Masks in accesses given to l1_access are in L2 sectors (see above). */
void l1_free(l1_unit *u);

/* The SM's outgoing queue room grew (a packet left it). */
static inline void l1_room_grew(l1_unit *u)
{
    if (u->refused.room)
        u->kver++;
}

/* After a refused l1_access: nonzero while offering the same access again
 * would be answered by the memo (refused, nothing that could lift the
 * refusal happened); 0 if the refusal is not kept (busy data port).  The
 * value changes whenever the refusal may have been lifted. */
static inline uint64_t l1_refusal_key(const l1_unit *u) { return u->held ? u->kver + 1 : 0; }

/* Offer an access at core cycle now.  room_pkts/room_flits: space in the
 * SM's outgoing queue.  On ACCEPTED, out[0..*nout-1] are the packets to send
 * to L2 (line, sectors, kind, cache, mshr, flags, flits set; sm, slice and
 * ready left to the caller), and *send_at the core cycle they leave L1. */
sim_mem_status l1_access(l1_unit *u, const sim_mem_access *a, uint64_t now, uint32_t room_pkts,
                         uint32_t room_flits, mem_pkt out[2], int *nout, uint64_t *send_at);

/* A reply from L2 arrived; its data is usable at core cycle `now`. */
void l1_fill(l1_unit *u, const mem_pkt *reply, uint64_t now);

/* Pop one completion with ready <= now: 1 and *token, or 0. */
int l1_pop(l1_unit *u, uint64_t now, uint32_t *token);

/* Earliest ready cycle of a queued completion (UINT64_MAX if none). */
static inline uint64_t l1_next_ready(const l1_unit *u) { return u->hn ? u->heap[0].ready : UINT64_MAX; }

/* A fill for p is on its way: start loading the MSHR entry it completes
 * and the index slot its release clears (a host-cache hint; no effect on
 * the simulation). */
GE_HINT void l1_prefetch_fill(const l1_unit *u, const mem_pkt *p)
{
    if (!(p->flags & PKT_F_SHADOW) && p->mshr != UINT32_MAX) {
        const mshr *m = &u->cache[p->cache].m;
        __builtin_prefetch(&m->e[p->mshr]);
        if (!u->cache[p->cache].slot_mshr)
            lineidx_prefetch(&m->index, p->line);
    }
}

/* A load of `line` from the data cache is coming: start loading what its
 * lookup reads (tag or index slot, MSHR index slot); a host-cache hint. */
GE_HINT void l1_prefetch_load(const l1_unit *u, uint64_t line)
{
    const l1_cache *lc = &u->cache[L1_DATA];
    if (lc->present)
        cache_prefetch(&lc->c, line);
    if (!lc->slot_mshr)
        lineidx_prefetch(&lc->m.index, line);
}

/* Kernel boundary: invalidate all L1-side caches. */
void l1_invalidate(l1_unit *u);

/* Outstanding MSHR entries over all caches (tests). */
uint32_t l1_mshr_used(const l1_unit *u);

#endif
