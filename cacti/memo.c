/*
 * memo.c - the public entry points: spec defaults and validation,
 * cacti_solve() with its thread-safe memo table, and error reporting.
 *
 * Memoisation: a sweep calls cacti_solve() for the same handful of
 * structures thousands of times, so results are kept in an open-addressing
 * hash table keyed by a canonical copy of the spec (all fields copied into a
 * zeroed struct, so padding never differs).  A pthread mutex guards the
 * table only while looking up or inserting; the solve itself runs unlocked,
 * so two threads that miss on the same spec both compute the same
 * (deterministic) answer and one insert wins.  Technologies are cached the
 * same way (the repeated-wire search is the costly part of building one).
 *
 * Errors: each failing call stores a one-line message in a thread-local
 * buffer returned by cacti_last_error(); nothing here prints or exits.
 *
 * Validation follows the limits of CACTI 6.0/7 (HPL-2009-85 sec. 7;
 * Balasubramonian et al., TACO 2017): power-of-two line size, ways and banks,
 * supported nodes 90-16 nm (CACTI 7 tables, McPAT for 16 nm), 300-400 K,
 * and a bank at least as large as the smallest array (one mat of 2 x 2
 * subarrays with 16 rows delivering the output width).  The template
 * defaults of cacti_spec_init() are those of CACTI 7's cache.cfg.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cacti_int.h"

static _Thread_local char err_buf[512];

cacti_status cacti_fail(cacti_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_buf, sizeof err_buf, fmt, ap);
    va_end(ap);
    return st;
}

void cacti_clear_error(void)
{
    err_buf[0] = '\0';
}

const char *cacti_last_error(void)
{
    return err_buf;
}

const char *cacti_status_str(cacti_status st)
{
    switch (st) {
    case CACTI_OK:
        return "ok";
    case CACTI_EINVAL:
        return "invalid spec";
    case CACTI_ENOSOL:
        return "no valid organisation";
    case CACTI_ENOMEM:
        return "out of memory";
    case CACTI_EIO:
        return "i/o error";
    case CACTI_ESYNTAX:
        return "syntax error";
    }
    return "unknown status";
}

int cacti_ilog2(uint64_t v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

int cacti_is_pow2(uint64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

void cacti_spec_init(cacti_spec *s)
{
    memset(s, 0, sizeof *s);
    s->size_bytes = 65536;
    s->line_bytes = 64;
    s->assoc = 2;
    s->banks = 1;
    s->rw_ports = 1;
    s->output_bits = 512;
    s->node_nm = 32;
    s->cell_dev = CACTI_DEV_HP;
    s->periph_dev = CACTI_DEV_HP;
    s->temperature_k = 360.0;
    s->is_cache = 1;
    s->ecc = 1;
    s->access_mode = CACTI_ACCESS_NORMAL;
    s->objective = CACTI_OPT_ED2;
    s->max_dev_pct = 10.0;
    const double w[5] = {0, 0, 0, 100, 0};
    const double d[5] = {20, 100000, 100000, 100000, 100000};
    memcpy(s->weight, w, sizeof w);
    memcpy(s->dev_pct, d, sizeof d);
}

cacti_status cacti_validate(const cacti_spec *s)
{
    if (!s)
        return cacti_fail(CACTI_EINVAL, "null spec");
    if (s->size_bytes == 0)
        return cacti_fail(CACTI_EINVAL, "size must be positive");
    if (s->size_bytes > ((uint64_t)1 << 36))
        return cacti_fail(CACTI_EINVAL, "size %llu bytes exceeds 64 GiB", (unsigned long long)s->size_bytes);
    if (!cacti_is_pow2(s->line_bytes) || s->line_bytes > 4096)
        return cacti_fail(CACTI_EINVAL, "line size %u must be a power of two between 1 and 4096 bytes",
                          s->line_bytes);
    if (s->assoc != 0 && (!cacti_is_pow2(s->assoc) || s->assoc > 64))
        return cacti_fail(CACTI_EINVAL, "associativity %u must be 0 (fully associative) or a power of two up to 64",
                          s->assoc);
    if (!cacti_is_pow2(s->banks) || s->banks > 1024)
        return cacti_fail(CACTI_EINVAL, "bank count %u must be a power of two between 1 and 1024", s->banks);
    uint32_t ports = s->rw_ports + s->rd_ports + s->wr_ports;
    if (s->rw_ports > 16 || s->rd_ports > 16 || s->wr_ports > 16 || s->search_ports > 16)
        return cacti_fail(CACTI_EINVAL, "at most 16 ports of each kind are supported");
    if (ports == 0)
        return cacti_fail(CACTI_EINVAL, "at least one read/write, read or write port is needed");
    if (s->rw_ports + s->rd_ports == 0)
        return cacti_fail(CACTI_EINVAL, "no port can read: add a read/write or read port");
    if (s->se_rd_ports > s->rd_ports)
        return cacti_fail(CACTI_EINVAL, "single-ended read ports (%u) exceed read ports (%u)", s->se_rd_ports,
                          s->rd_ports);
    if (!(s->temperature_k >= 300.0 && s->temperature_k <= 400.0))
        return cacti_fail(CACTI_EINVAL, "temperature %g K is outside 300..400 K", s->temperature_k);
    if ((unsigned)s->cell_dev > CACTI_DEV_LOP || (unsigned)s->periph_dev > CACTI_DEV_LOP)
        return cacti_fail(CACTI_EINVAL, "device flavour must be itrs-hp, itrs-lstp or itrs-lop");
    if ((unsigned)s->access_mode > CACTI_ACCESS_FAST)
        return cacti_fail(CACTI_EINVAL, "unknown access mode");
    if ((unsigned)s->objective > CACTI_OPT_WEIGHTED)
        return cacti_fail(CACTI_EINVAL, "unknown objective");
    if (!(s->max_dev_pct >= 0.0 && s->max_dev_pct <= 1e9))
        return cacti_fail(CACTI_EINVAL, "maximum deviation must be a non-negative percentage");
    for (int i = 0; i < 5; i++)
        if (!(s->weight[i] >= 0.0 && s->weight[i] <= 1e9) || !(s->dev_pct[i] >= 0.0 && s->dev_pct[i] <= 1e12))
            return cacti_fail(CACTI_EINVAL, "weights and deviations must be non-negative");
    unsigned nodes[] = {90, 65, 45, 32, 22, 16};
    int ok = 0;
    for (int i = 0; i < 6; i++)
        ok |= s->node_nm == nodes[i];
    if (!ok)
        return cacti_fail(CACTI_EINVAL, "technology node %u nm is not supported (90, 65, 45, 32, 22, 16)",
                          s->node_nm);
    uint64_t ways = s->assoc ? s->assoc : 1;
    uint64_t per_bank = s->size_bytes / s->banks;
    if (s->size_bytes % s->banks)
        return cacti_fail(CACTI_EINVAL, "size %llu is not divisible by the %u banks",
                          (unsigned long long)s->size_bytes, s->banks);
    if (per_bank % ((uint64_t)s->line_bytes * (s->is_cache ? ways : 1)))
        return cacti_fail(CACTI_EINVAL, "bank size %llu is not a whole number of %s",
                          (unsigned long long)per_bank, s->is_cache ? "sets" : "lines");
    uint32_t ow = s->output_bits ? s->output_bits : 8 * s->line_bytes;
    /* the smallest array is one mat of 2 x 2 subarrays with 16 rows each that
     * delivers the output width from one row: 2 x 16 rows x out_w bits */
    uint64_t min_bytes = s->assoc ? 4ull * ow * (s->is_cache ? ways : 1) : 32ull * s->line_bytes;
    if (per_bank < min_bytes)
        return cacti_fail(CACTI_EINVAL, "bank of %llu bytes is smaller than the minimum array (%llu bytes)",
                          (unsigned long long)per_bank, (unsigned long long)min_bytes);
    if (s->assoc != 0) {
        uint64_t set_bits = 8ull * s->line_bytes * (s->is_cache ? ways : 1);
        if (ow > set_bits || (s->is_cache && ow > 8ull * s->line_bytes))
            return cacti_fail(CACTI_EINVAL, "output width %u bits exceeds the %s (%llu bits)", ow,
                              s->is_cache ? "line" : "row", (unsigned long long)(8ull * s->line_bytes));
        if (!cacti_is_pow2(ow))
            return cacti_fail(CACTI_EINVAL, "output width %u bits must be a power of two", ow);
    }
    if (s->tag_bits > 64)
        return cacti_fail(CACTI_EINVAL, "tag of %u bits is longer than 64", s->tag_bits);
    return CACTI_OK;
}

/* ---- memo tables ---- */

typedef struct {
    cacti_spec key;
    cacti_result val;
    int used;
} memo_ent;

typedef struct {
    unsigned node;
    int cell, peri;
    double temp;
    cacti_tech tech;
} tech_ent;

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static memo_ent *memo_tab;
static size_t memo_cap, memo_n;
#define TECH_CACHE 16
static tech_ent tech_tab[TECH_CACHE];
static int tech_n, tech_next;

static void canon(const cacti_spec *in, cacti_spec *out)
{
    memset(out, 0, sizeof *out);
    out->size_bytes = in->size_bytes;
    out->line_bytes = in->line_bytes;
    out->assoc = in->assoc;
    out->banks = in->banks;
    out->rw_ports = in->rw_ports;
    out->rd_ports = in->rd_ports;
    out->wr_ports = in->wr_ports;
    out->se_rd_ports = in->se_rd_ports;
    out->search_ports = in->search_ports;
    out->output_bits = in->output_bits ? in->output_bits : 8 * in->line_bytes;
    out->node_nm = in->node_nm;
    out->cell_dev = in->cell_dev;
    out->periph_dev = in->periph_dev;
    out->temperature_k = in->temperature_k;
    out->is_cache = in->is_cache ? 1 : 0;
    out->tag_bits = in->tag_bits;
    out->ecc = in->ecc ? 1 : 0;
    out->access_mode = in->access_mode;
    out->objective = in->objective;
    out->max_dev_pct = in->max_dev_pct;
    for (int i = 0; i < 5; i++) {
        out->weight[i] = in->weight[i];
        out->dev_pct[i] = in->dev_pct[i];
    }
    if (out->assoc == 0 && !out->is_cache)
        out->search_ports = out->search_ports ? out->search_ports : 1;
    if (out->assoc == 0 && out->is_cache && out->search_ports == 0)
        out->search_ports = 1;
}

static uint64_t hash_spec(const cacti_spec *k)
{
    /* the key is a zero-padded canonical copy: hash it as 64-bit words */
    uint64_t h = 0x9E3779B97F4A7C15ull;
    const unsigned char *p = (const unsigned char *)k;
    size_t n = sizeof *k;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    while (n--)
        h = (h ^ *p++) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static memo_ent *memo_find(const cacti_spec *k, uint64_t h)
{
    if (!memo_cap)
        return NULL;
    size_t i = (size_t)(h & (memo_cap - 1));
    while (memo_tab[i].used) {
        if (memcmp(&memo_tab[i].key, k, sizeof *k) == 0)
            return &memo_tab[i];
        i = (i + 1) & (memo_cap - 1);
    }
    return NULL;
}

static int memo_insert(const cacti_spec *k, uint64_t h, const cacti_result *v)
{
    if ((memo_n + 1) * 2 > memo_cap) {
        size_t nc = memo_cap ? memo_cap * 2 : 256;
        memo_ent *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return -1;
        for (size_t j = 0; j < memo_cap; j++) {
            if (!memo_tab[j].used)
                continue;
            size_t i = (size_t)(hash_spec(&memo_tab[j].key) & (nc - 1));
            while (nt[i].used)
                i = (i + 1) & (nc - 1);
            nt[i] = memo_tab[j];
        }
        free(memo_tab);
        memo_tab = nt;
        memo_cap = nc;
    }
    if (memo_find(k, h))
        return 0;
    size_t i = (size_t)(h & (memo_cap - 1));
    while (memo_tab[i].used)
        i = (i + 1) & (memo_cap - 1);
    memo_tab[i].key = *k;
    memo_tab[i].val = *v;
    memo_tab[i].used = 1;
    memo_n++;
    return 0;
}

size_t cacti_memo_count(void)
{
    pthread_mutex_lock(&memo_lock);
    size_t n = memo_n;
    pthread_mutex_unlock(&memo_lock);
    return n;
}

void cacti_memo_clear(void)
{
    pthread_mutex_lock(&memo_lock);
    free(memo_tab);
    memo_tab = NULL;
    memo_cap = memo_n = 0;
    tech_n = tech_next = 0;
    pthread_mutex_unlock(&memo_lock);
}

static cacti_status get_tech(const cacti_spec *s, cacti_tech *t)
{
    pthread_mutex_lock(&memo_lock);
    for (int i = 0; i < tech_n; i++) {
        tech_ent *e = &tech_tab[i];
        if (e->node == s->node_nm && e->cell == (int)s->cell_dev && e->peri == (int)s->periph_dev &&
            e->temp == s->temperature_k) {
            *t = e->tech;
            pthread_mutex_unlock(&memo_lock);
            return CACTI_OK;
        }
    }
    pthread_mutex_unlock(&memo_lock);
    cacti_status st = cacti_tech_build(s->node_nm, s->cell_dev, s->periph_dev, s->temperature_k, t);
    if (st != CACTI_OK)
        return st;
    pthread_mutex_lock(&memo_lock);
    tech_ent *e = &tech_tab[tech_next];
    e->node = s->node_nm;
    e->cell = (int)s->cell_dev;
    e->peri = (int)s->periph_dev;
    e->temp = s->temperature_k;
    e->tech = *t;
    tech_next = (tech_next + 1) % TECH_CACHE;
    if (tech_n < TECH_CACHE)
        tech_n++;
    pthread_mutex_unlock(&memo_lock);
    return CACTI_OK;
}

cacti_status cacti_solve(const cacti_spec *spec, cacti_result *out)
{
    if (!spec || !out)
        return cacti_fail(CACTI_EINVAL, "null argument");
    cacti_status st = cacti_validate(spec);
    if (st != CACTI_OK)
        return st;
    cacti_spec key;
    canon(spec, &key);
    uint64_t h = hash_spec(&key);
    pthread_mutex_lock(&memo_lock);
    memo_ent *e = memo_find(&key, h);
    if (e) {
        *out = e->val;
        pthread_mutex_unlock(&memo_lock);
        return CACTI_OK;
    }
    pthread_mutex_unlock(&memo_lock);

    cacti_tech *t = malloc(sizeof *t);
    if (!t)
        return cacti_fail(CACTI_ENOMEM, "out of memory");
    st = get_tech(&key, t);
    cacti_result res;
    if (st == CACTI_OK)
        st = cacti_search(&key, t, &res);
    free(t);
    if (st != CACTI_OK)
        return st;
    pthread_mutex_lock(&memo_lock);
    int rc = memo_insert(&key, h, &res);
    pthread_mutex_unlock(&memo_lock);
    if (rc)
        return cacti_fail(CACTI_ENOMEM, "out of memory in the memo table");
    *out = res;
    return CACTI_OK;
}
