/*
 * l2.h - one L2 slice (memory sub-partition): a sectored cache with MSHRs
 * between the request crossbar and its DRAM channel.  Atomics are performed
 * here.
 *
 * Per L2-clock tick a slice can
 *  - take one fill from DRAM (completing the MSHR entry's waiting requests
 *    when its last sector arrives: reads and atomics get a reply), and
 *  - start one request from the crossbar whose l2.latency_cycles pipeline
 *    delay has elapsed (the ROP/L2 queue delay of GPGPU-Sim's
 *    -gpgpu_l2_rop_latency; it applies to hits and misses alike).
 * The data port moves l2.banks sectors per tick (a request of k sectors
 * holds it k/banks ticks).  An atomic is one access per sector (it holds the
 * port one tick per sector), so atomics to a slice are serialised, and
 * atomics to one line are performed in arrival order (the request FIFO, and
 * the MSHR entry's target list when the line misses).
 *
 * Reads: hit -> reply; miss -> MSHR entry (merging) -> DRAM read of the
 * missing sectors.  Writes (from write-through L1s) follow l2.write_policy:
 * write_back marks sectors dirty (allocating on a miss with write_allocate;
 * whole-sector writes need no fetch), dirty victims become DRAM writes;
 * write_through/write_evict also forward every write to DRAM.  Allocation on
 * miss reserves a way for the fill (a set whose ways all wait stalls the
 * request); on_fill allocates when the data returns.
 *
 * A request that cannot proceed (MSHR or merge list full, DRAM queue full,
 * reply queue full, no replaceable way) stays at the head of the slice's
 * input and blocks it (in-order L2 input queue).  A blocked slice is not
 * polled: it sleeps until the resource it waits for frees up (its own fills
 * for MSHRs and ways; the channel's or the crossbar's callbacks, via
 * l2_wake, for DRAM queue and reply room).
 *
 * Activity (real traffic): L2_READ_HITS/MISSES per sector of loads and
 * atomics; L2_WRITE_HITS/MISSES per sector of writes; an atomic's update
 * also counts one L2 write hit per sector.
 */
#ifndef SIM_L2_H
#define SIM_L2_H

#include <stdint.h>

#include "addrmap.h"
#include "cache.h"
#include "dram.h"
#include "gpu_config.h"
#include "mempkt.h"
#include "mshr.h"
#include "noc.h"

/* What the slices share: their neighbours and the clock ratios. */
typedef struct l2_env {
    noc *req, *rep;          /* crossbars in and out */
    dram_chan *chan;         /* [channels] */
    const addrmap *am;
    uint64_t f_icnt, f_l2, f_dram; /* reduced clock frequencies */
    uint32_t latency;        /* pipeline delay, L2 ticks */
    uint32_t sector_bytes, flit_bytes;
    uint64_t *icnt_next, *dram_next; /* lowered when a slice gives those domains work */
    const uint16_t *shadow_weight;   /* [1..nshadow]: weight of background mirror k */
    uint32_t nshadow;
} l2_env;

typedef struct l2_fill {
    uint64_t ready;   /* L2 tick */
    uint32_t mshr, sectors;
} l2_fill;

typedef struct l2_stats {
    double rd_hit, rd_miss, wr_hit, wr_miss;
} l2_stats;

enum { L2_BLK_DRAM = 1, L2_BLK_REPLY = 2 };

/* The ghost lines of a background mirror's line (l2.c, ghost_fill). */
typedef struct l2_ghosts {
    uint64_t line, first; /* the mirror's line; its first ghost's number + 1 (0: none) */
} l2_ghosts;

typedef struct l2_slice {
    uint32_t id, channel;
    cache c;
    mshr m;
    l2_fill *fq;             /* DRAM fills, in completion order */
    uint32_t fmask, fhead, fn;
    uint64_t port_free;      /* next free sector slot (tick * banks + k) */
    uint32_t banks;
    int wpolicy, alloc_on_fill, write_allocate;
    uint64_t wake;           /* earliest tick with work */
    uint8_t blocked;         /* L2_BLK_*: waiting for room elsewhere (not polled) */
    uint64_t ghosts;         /* ghost lines installed (background mode; l2.c ghost_fill) */
    l2_ghosts *ghost_of;     /* [slot]: the ghosts of the mirror line there */
    uint64_t *warm;          /* [slot]: line + 1 that l2_preload put there (0: none; l2.c warm_proxy) */
    l2_stats st;
} l2_slice;

int l2_init(l2_slice *s, uint32_t id, const gpu_config *cfg, const addrmap *am, ge_err *e);
void l2_free(l2_slice *s);

/* A DRAM read for entry `mshr` returned `sectors`, usable from L2 tick `ready`. */
void l2_dram_done(l2_slice *s, uint32_t mshr, uint32_t sectors, uint64_t ready);

/* A request may have arrived from the crossbar (arrival tick in icnt ticks). */
static inline void l2_wake(l2_slice *s, uint64_t tick)
{
    if (tick < s->wake)
        s->wake = tick;
}

/* Warm-up between kernels: make `line` (128 bytes) present with the 32-byte
 * sectors in `sectors32` valid and most recently used, as an earlier kernel
 * would have left it.  A line that is absent is installed clean unless its
 * victim is dirty or every way is pending (then nothing changes: no
 * write-back is invented).  1 if the line is present afterwards. */
int l2_preload(l2_slice *s, uint64_t line, uint32_t sectors32);

/* Empty the slice (clean or dirty lines alike, except lines with fills on
 * their way), and forget what l2_preload put there. */
void l2_invalidate(l2_slice *s);

/* Work at L2 tick `now`. */
void l2_tick(l2_slice *s, const l2_env *env, uint64_t now);

/* A request for `line` is next in the slice's queue: start loading what its
 * lookup reads (a host-cache hint; no effect on the simulation). */
GE_HINT void l2_prefetch(const l2_slice *s, uint64_t line)
{
    cache_prefetch(&s->c, line);
    lineidx_prefetch(&s->m.index, line);
}

#endif
