#include "reuse.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fenwick.h"
#include "u64set.h"

int rd_bin_of(uint64_t d)
{
    if (d < RD_EXACT)
        return (int)d;
    int oct = 63 - __builtin_clzll(d); /* floor(log2 d) >= 4 */
    int o = oct - 4;
    if (o >= RD_OCTAVES)
        return RD_BINS - 1;
    /* position within the octave [2^oct, 2^(oct+1)) in RD_PER_OCTAVE steps */
    uint64_t base = 1ULL << oct;
    int sub = (int)(((d - base) * RD_PER_OCTAVE) >> oct);
    return RD_EXACT + o * RD_PER_OCTAVE + sub;
}

double rd_bin_lo(int bin)
{
    if (bin < RD_EXACT)
        return bin;
    int o = (bin - RD_EXACT) / RD_PER_OCTAVE, sub = (bin - RD_EXACT) % RD_PER_OCTAVE;
    double base = ldexp(1.0, o + 4);
    return base + base * sub / RD_PER_OCTAVE;
}

double rd_bin_hi(int bin)
{
    if (bin < RD_EXACT)
        return bin + 1;
    return rd_bin_lo(bin) + ldexp(1.0, (bin - RD_EXACT) / RD_PER_OCTAVE + 4) / RD_PER_OCTAVE;
}

double rd_bin_distance(int bin)
{
    if (bin < RD_EXACT)
        return bin;
    return 0.5 * (rd_bin_lo(bin) + rd_bin_hi(bin) - 1);
}

/* ---- measurement ---- */

typedef struct line_slot {
    uint64_t key;      /* line + 1 */
    uint32_t last;     /* time of the line's latest access (+1) */
    uint32_t gen;      /* the slot is in use by the measurement of this number (rd_ws.gen) */
    uint32_t sec[RD_SECTORS]; /* time of each sector's latest touch (+1), 0 = never */
} line_slot;

/* The slot of `line` in the current measurement's map (open addressing;
 * slots of earlier measurements count as empty), created if new. */
static line_slot *map_get(rd_ws *w, uint64_t line, ge_err *e)
{
    line_slot *slots = w->slots;
    if ((w->count + 1) * 2 > w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 4096;
        line_slot *ns = calloc(ncap, sizeof *ns);
        if (!ns) {
            ge_errf(e, "out of memory (reuse map of %zu lines)", ncap);
            return NULL;
        }
        for (size_t i = 0; i < w->cap; i++) {
            if (slots[i].gen != w->gen)
                continue;
            size_t h = ge_hash64(slots[i].key) & (ncap - 1);
            while (ns[h].gen == w->gen)
                h = (h + 1) & (ncap - 1);
            ns[h] = slots[i];
        }
        free(w->slots);
        w->slots = slots = ns;
        w->cap = ncap;
    }
    uint64_t k = line + 1;
    size_t h = ge_hash64(k) & (w->cap - 1);
    while (slots[h].gen == w->gen && slots[h].key != k)
        h = (h + 1) & (w->cap - 1);
    if (slots[h].gen != w->gen) {
        memset(&slots[h], 0, sizeof slots[h]);
        slots[h].key = k;
        slots[h].gen = w->gen;
        w->count++;
    }
    return &slots[h];
}

void rd_ws_free(rd_ws *w)
{
    free(w->slots);
    free(w->fw);
    memset(w, 0, sizeof *w);
}

int rd_measure(const rd_access *acc, size_t n, rd_hist *h, ge_err *e)
{
    rd_ws w = {0};
    int rc = rd_measure_ws(&w, acc, NULL, n, h, 1.0, e);
    rd_ws_free(&w);
    return rc;
}

/* Count `cnt` accesses at distance d lines (scaled) and td >= 1 accesses. */
static void count_reuse(double *bin, double *tbin, int64_t d, uint32_t td, double scale, double cnt)
{
    double sd = (d < 0 ? 0 : (double)d) * scale;
    bin[rd_bin_of((uint64_t)(sd > 9e18 ? 9e18 : sd))] += cnt;
    int tb = 31 - __builtin_clz(td);
    tbin[tb < RD_TBINS ? tb : RD_TBINS - 1] += cnt;
}

int rd_measure_ws(rd_ws *w, const rd_access *acc, const uint32_t *bucket, size_t n, rd_hist *hists, double scale,
                  ge_err *e)
{
    if (n == 0)
        return 0;
    if (n >= UINT32_MAX - 1)
        return ge_errf(e, "reuse stream too long (%zu accesses)", n);
    if (n + 1 > w->fw_cap) {
        int32_t *fw = realloc(w->fw, (n + 1) * sizeof *fw);
        if (!fw)
            return ge_errf(e, "out of memory (reuse tree of %zu)", n);
        w->fw = fw;
        w->fw_cap = n + 1;
    }
    int32_t *fw = w->fw;
    memset(fw, 0, (n + 1) * sizeof *fw);
    w->count = 0;
    if (++w->gen == 0) { /* numbers wrapped: forget every slot */
        if (w->slots)
            memset(w->slots, 0, w->cap * sizeof(line_slot));
        w->gen = 1;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t t = (uint32_t)i + 1;
        /* The tree marks each line's latest access, all before t: their
         * count is the number of lines seen so far. */
        int64_t upto = (int64_t)w->count;
        line_slot *ls = map_get(w, acc[i].line, e);
        if (!ls)
            return -1;
        rd_hist *h = &hists[bucket ? bucket[i] : 0];
        uint32_t smask = acc[i].sectors & ((1u << RD_SECTORS) - 1);
        uint32_t sum_at = 0; /* sectors touched together share the sum */
        int64_t sum = 0;
        for (uint32_t s = smask; s; s &= s - 1) {
            int b = __builtin_ctz(s);
            uint32_t ps = ls->sec[b];
            if (!ps) {
                h->cold += scale;
                continue;
            }
            if (ps != sum_at) {
                sum = fenwick_sum(fw, ps);
                sum_at = ps;
            }
            int64_t d = upto - sum;
            if (ls->last > ps)
                d -= 1; /* the line itself, touched since by another sector */
            count_reuse(h->bin, h->tbin, d, t - ps, scale, scale);
        }
        if (ls->last && smask) /* by the line's last touch */
            count_reuse(h->lbin, h->ltbin, upto - fenwick_sum(fw, ls->last), t - ls->last, scale,
                        scale * __builtin_popcount(smask));
        for (uint32_t s = smask; s; s &= s - 1)
            ls->sec[__builtin_ctz(s)] = t;
        if (ls->last)
            fenwick_add(fw, n, ls->last, -1);
        fenwick_add(fw, n, t, 1);
        ls->last = t;
    }
    return 0;
}

/* ---- hit rates ---- */

/* P(hit | distance d) for `sets` sets of `ways` ways. */
static double p_hit(double d, uint64_t lines, uint32_t sets)
{
    if (sets <= 1)
        return d < (double)lines ? 1.0 : 0.0;
    uint32_t ways = (uint32_t)(lines / sets);
    if (ways == 0)
        return 0.0;
    if (d < ways)
        return 1.0;
    unsigned int nd = d > 4e9 ? 4000000000u : (unsigned int)llround(d);
    return gsl_cdf_binomial_P(ways - 1, 1.0 / sets, nd);
}

/* p_hit of every bin for one cache geometry, filled in as bins are asked
 * for.  The model asks for the same few geometries (each L1 and the L2)
 * many times per kernel, and a binomial tail costs about a microsecond, so
 * each thread keeps the last few tables. */
#define PHIT_TABLES 8
typedef struct phit_table {
    uint64_t lines;
    uint32_t sets;
    int used;
    double p[RD_BINS]; /* < 0: not computed yet */
} phit_table;

static double *phit_row(uint64_t lines, uint32_t sets)
{
    static _Thread_local phit_table tab[PHIT_TABLES];
    static _Thread_local unsigned next;
    for (int i = 0; i < PHIT_TABLES; i++)
        if (tab[i].used && tab[i].lines == lines && tab[i].sets == sets)
            return tab[i].p;
    phit_table *t = &tab[next++ % PHIT_TABLES]; /* round robin */
    t->lines = lines;
    t->sets = sets;
    t->used = 1;
    for (int b = 0; b < RD_BINS; b++)
        t->p[b] = -1;
    return t->p;
}

/* The accesses of distance bins `bin` that hit. */
static double bin_hits(const double *bin, uint64_t lines, uint32_t sets)
{
    double hits = 0;
    double *ph = phit_row(lines, sets);
    for (int b = 0; b < RD_BINS; b++) {
        if (bin[b] == 0)
            continue;
        if (b < RD_EXACT || sets > 1) {
            if (ph[b] < 0)
                ph[b] = p_hit(rd_bin_distance(b), lines, sets);
            hits += bin[b] * ph[b];
        } else {
            /* fully associative: the part of the bin below the capacity */
            double lo = rd_bin_lo(b), hi = rd_bin_hi(b);
            double f = (lines <= lo) ? 0 : (lines >= hi) ? 1 : (lines - lo) / (hi - lo);
            hits += bin[b] * f;
        }
    }
    return hits;
}

double rd_hit_rate(const rd_hist *h, uint64_t lines, uint32_t sets)
{
    double tot = rd_total(h);
    return tot > 0 ? bin_hits(h->bin, lines, sets) / tot : 0.0;
}

double rd_hit_rate_lines(const rd_hist *h, uint64_t lines, uint32_t sets)
{
    double tot = rd_total(h);
    return tot > 0 ? bin_hits(h->lbin, lines, sets) / tot : 0.0;
}

double rd_total(const rd_hist *h)
{
    double t = h->cold;
    for (int b = 0; b < RD_BINS; b++)
        t += h->bin[b];
    return t;
}

void rd_add(rd_hist *dst, const rd_hist *src, double w)
{
    dst->cold += w * src->cold;
    for (int b = 0; b < RD_BINS; b++)
        dst->bin[b] += w * src->bin[b];
    for (int b = 0; b < RD_TBINS; b++)
        dst->tbin[b] += w * src->tbin[b];
    for (int b = 0; b < RD_BINS; b++)
        dst->lbin[b] += w * src->lbin[b];
    for (int b = 0; b < RD_TBINS; b++)
        dst->ltbin[b] += w * src->ltbin[b];
}

static double recent_of(const rd_hist *h, const double *tbin, double accesses)
{
    double tot = rd_total(h), n = 0;
    if (tot <= 0 || accesses <= 1)
        return 0;
    for (int b = 0; b < RD_TBINS; b++) {
        double lo = (double)(1ull << b), hi = 2 * lo; /* 2^b, exactly */
        if (accesses >= hi)
            n += tbin[b];
        else if (accesses > lo)
            n += tbin[b] * (accesses - lo) / (hi - lo);
    }
    return n / tot;
}

double rd_recent(const rd_hist *h, double accesses) { return recent_of(h, h->tbin, accesses); }
double rd_recent_lines(const rd_hist *h, double accesses) { return recent_of(h, h->ltbin, accesses); }
