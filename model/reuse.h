/*
 * reuse.h - reuse (stack) distance histograms and the LRU hit rates they
 * imply for any cache size and associativity.
 *
 * A stream of line accesses, each touching some 32-byte sectors of a
 * 128-byte line, is measured once.  For every sector touched we record the
 * number of DISTINCT OTHER lines accessed since that sector was last
 * touched (its stack distance in lines), or "cold" for a first touch.  In a
 * fully associative LRU cache of C lines the access hits iff distance < C;
 * this is Mattson et al.'s stack property (IBM Systems Journal 1970).  A
 * sector's distance counts lines touched since the SECTOR's last use, which
 * bounds the line's own residency from above, so it is exact when a line's
 * sectors are used together and slightly pessimistic otherwise.
 *
 * Set associativity: with S sets, A ways and random (hash-like) placement,
 * an access with distance d hits iff fewer than A of the d intervening lines
 * map to its set: P(hit | d) = P(Binomial(d, 1/S) < A) (Smith, "A
 * comparative study of set associative memory mapping algorithms", ISCA
 * 1978; used by Sen & Wood, SIGMETRICS 2013 for GPU/CPU models).
 *
 * Measurement uses the Bennett-Kruskal method: a Fenwick tree over access
 * time holds a 1 at the latest access of every line, so the distinct lines
 * between two times is a prefix-sum difference: O(log T) per access.
 *
 * Histogram bins: distances 0..15 exactly, then 8 bins per octave up to
 * 2^27 lines, plus one "cold" bin.
 */
#ifndef MODEL_REUSE_H
#define MODEL_REUSE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define RD_SECTORS 4 /* 32 B sectors of a 128 B line */
#define RD_EXACT 16
#define RD_PER_OCTAVE 8
#define RD_OCTAVES 23 /* 2^4 .. 2^27 */
#define RD_BINS (RD_EXACT + RD_PER_OCTAVE * RD_OCTAVES)

#define RD_TBINS 32 /* time distances 2^i .. 2^(i+1)-1 accesses */

typedef struct rd_hist {
    double bin[RD_BINS];
    double cold;
    /* Time distance of the same (non-cold) accesses: how many accesses of
     * the stream, repeats included, since the sector's last touch.  A reuse
     * that comes sooner than the data of the first touch can return finds
     * the line still in flight (an MSHR hit): no new traffic, but the
     * latency of a miss. */
    double tbin[RD_TBINS];
    /* The same accesses by their LINE's last touch, for caches that fill
     * whole lines (one sector per line, as GTX 480's L1): every touched
     * sector is binned by the distinct other lines and the accesses since
     * its line was last touched, by any sector; the sectors of a line's
     * first touch are the rest of rd_total. */
    double lbin[RD_BINS];
    double ltbin[RD_TBINS];
} rd_hist;

/* One line access of a stream (sector mask within a 128 B line). */
typedef struct rd_access {
    uint64_t line;
    uint32_t sectors;
} rd_access;

/* Bin of a distance, and the representative distance of a bin. */
int rd_bin_of(uint64_t d);
double rd_bin_distance(int bin);
double rd_bin_lo(int bin);
double rd_bin_hi(int bin); /* exclusive */

/* Measure a stream: adds one count per touched sector to *h (h is not
 * cleared, so several streams can be accumulated). */
int rd_measure(const rd_access *acc, size_t n, rd_hist *h, ge_err *e);

/* Memory that a series of measurements can share (the profiler measures
 * hundreds of streams per kernel): zero-initialised, freed with
 * rd_ws_free. */
typedef struct rd_ws {
    void *slots; /* the line map */
    size_t cap, count;
    uint32_t gen; /* number of the current measurement */
    int32_t *fw;  /* Fenwick tree */
    size_t fw_cap;
} rd_ws;
/* rd_measure in w, over one stream whose accesses are attributed to
 * several histograms: access i counts into hists[bucket[i]] (bucket NULL:
 * all into hists[0]).  `scale` multiplies every measured distance and
 * count, for streams that were sampled by line hash at rate 1/scale
 * (SHARDS, Waldspurger et al., FAST 2015): a sampled stream of lines with
 * hash below the threshold preserves distances in expectation after
 * scaling. */
int rd_measure_ws(rd_ws *w, const rd_access *acc, const uint32_t *bucket, size_t n, rd_hist *hists, double scale,
                  ge_err *e);
void rd_ws_free(rd_ws *w);

/* Sector hit rate (0..1) of an LRU cache of `lines` lines in `sets` sets
 * (ways = lines / sets) for the accesses in h (cold sectors miss). */
double rd_hit_rate(const rd_hist *h, uint64_t lines, uint32_t sets);
/* The same for a cache that fills whole lines: a sector hits when its line
 * is resident, whether or not that sector was touched before. */
double rd_hit_rate_lines(const rd_hist *h, uint64_t lines, uint32_t sets);
double rd_total(const rd_hist *h);
/* Share of all accesses (cold ones included) that reuse a sector touched
 * fewer than `accesses` accesses earlier. */
double rd_recent(const rd_hist *h, double accesses);
/* The same, by the line's last touch (caches that fill whole lines). */
double rd_recent_lines(const rd_hist *h, double accesses);
void rd_add(rd_hist *dst, const rd_hist *src, double weight);

#endif
