/*
 * gpgpusim_import_mem.c - the memory side of the GPGPU-Sim importer:
 * cache geometry strings, L2 slices, DRAM organisation and timing, power.
 *
 * Cache strings (GPGPU-Sim 4 / Accel-Sim, gpu-cache.h cache_config::init):
 *     <N|S>:<sets>:<line>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:<set_index>,
 *     <mshr type>:<entries>:<merge>[,<miss queue>[:<result fifo>][,<port>]]
 * GPGPU-Sim 3.x strings start at <sets> (no sector flag) and may lack the
 * set-index field; both are read.  A sectored ('S') cache has 32-byte
 * sectors (GPGPU-Sim's SECTOR_SIZE).  Letters: rep L=LRU F=FIFO; wr R=read
 * only B=write back T=write through E=write evict L=local write-back/global
 * write-through; alloc m=on miss f=on fill s=streaming; wr_alloc N=no W=yes
 * F=fetch-on-write L=lazy-fetch-on-read; set index H=Fermi hash P=IPOLY
 * hash C=custom L=linear X=XOR; MSHR A=associative S=sector associative
 * F=texture FIFO T=sector texture FIFO.
 *
 * DRAM timing string: "nbk=16:CCD=2:RRD=6:...", DRAM command cycles; each
 * field's own line is reported when it is malformed (the string is often
 * quoted over two lines).  Row size comes from the address-mapping string:
 * 2^(column bits C + burst bits S) bytes per channel.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpgpusim_internal.h"

typedef struct gcache {
    int none;        /* "none": cache disabled */
    int sector;      /* 'S' */
    uint32_t nset, line, assoc;
    char rp, wp, ap, wap, sif; /* sif = 0 when absent (3.x) */
    char mshr;
    uint32_t entries, merge;
    int nq;          /* numbers in the 4th group: miss queue [, result fifo] */
    uint32_t q[2];
    int has_port;
    uint32_t port;
} gcache;

static int bad(const ggs_opt *o, ge_err *e, const char *what)
{
    return ge_errf(e, "%s:%d: %s: malformed cache string '%.80s': %s", o->file, o->vline, o->name, o->value, what);
}

/* Split s at sep into at most max pieces (s is modified); returns count. */
static int split(char *s, char sep, char **out, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return max + 1;
        out[n++] = s;
        char *p = strchr(s, sep);
        if (!p)
            return n;
        *p = 0;
        s = p + 1;
    }
}

static int one_char(const ggs_opt *o, const char *s, const char *allowed, const char *field, char *out, ge_err *e)
{
    if (strlen(s) != 1 || !strchr(allowed, s[0])) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s is '%.10s', expected one of %s", field, s, allowed);
        return bad(o, e, msg);
    }
    *out = s[0];
    return 0;
}

static int num(const ggs_opt *o, const char *s, const char *field, uint32_t *out, ge_err *e)
{
    ge_err sub;
    if (ggs_parse_u32(o, s, out, &sub)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s '%.20s' is not an unsigned integer", field, s);
        return bad(o, e, msg);
    }
    return 0;
}

static int parse_cache(const ggs_opt *o, gcache *g, ge_err *e)
{
    memset(g, 0, sizeof *g);
    char buf[512];
    const char *v = o->value;
    while (isspace((unsigned char)*v))
        v++;
    snprintf(buf, sizeof buf, "%s", v);
    for (size_t n = strlen(buf); n && isspace((unsigned char)buf[n - 1]); n--)
        buf[n - 1] = 0;
    if (!strcmp(buf, "none")) {
        g->none = 1;
        return 0;
    }
    char *grp[6], *f[6];
    int ng = split(buf, ',', grp, 5);
    if (ng < 3 || ng > 5)
        return bad(o, e, "expected 3 to 5 comma-separated groups");
    /* geometry */
    int nf = split(grp[0], ':', f, 4);
    int off = 0;
    if (nf == 4) {
        char ct = 'N';
        if (one_char(o, f[0], "NS", "sector flag", &ct, e))
            return -1;
        g->sector = ct == 'S';
        off = 1;
    } else if (nf != 3 || isalpha((unsigned char)f[0][0])) {
        return bad(o, e, "geometry must be [<N|S>:]<sets>:<line bytes>:<ways>");
    }
    if (num(o, f[off], "sets", &g->nset, e) || num(o, f[off + 1], "line size", &g->line, e) ||
        num(o, f[off + 2], "associativity", &g->assoc, e))
        return -1;
    if (!g->nset || !g->line || !g->assoc)
        return bad(o, e, "sets, line size and associativity must be > 0");
    if ((uint64_t)g->nset * g->line * g->assoc > (1u << 30))
        return bad(o, e, "cache larger than 1 GiB");
    if (g->sector && (g->line < 32 || g->line % 32))
        return bad(o, e, "a sectored cache needs a line that is a multiple of 32 bytes");
    /* policies */
    nf = split(grp[1], ':', f, 5);
    if (nf != 4 && nf != 5)
        return bad(o, e, "policies must be <rep>:<wr>:<alloc>:<wr_alloc>[:<set_index>]");
    if (one_char(o, f[0], "LF", "replacement", &g->rp, e) || one_char(o, f[1], "RBTEL", "write policy", &g->wp, e) ||
        one_char(o, f[2], "mfs", "allocation policy", &g->ap, e) ||
        one_char(o, f[3], "NWFL", "write-allocate policy", &g->wap, e))
        return -1;
    if (nf == 5 && one_char(o, f[4], "HPCLX", "set index function", &g->sif, e))
        return -1;
    /* MSHR */
    nf = split(grp[2], ':', f, 3);
    if (nf != 3)
        return bad(o, e, "MSHR must be <type>:<entries>:<max merge>");
    if (one_char(o, f[0], "AFTS", "MSHR type", &g->mshr, e) || num(o, f[1], "MSHR entries", &g->entries, e) ||
        num(o, f[2], "MSHR merge", &g->merge, e))
        return -1;
    if (ng >= 4) {
        g->nq = split(grp[3], ':', f, 2);
        if (g->nq > 2)
            return bad(o, e, "miss queue must be <entries>[:<result fifo>]");
        for (int i = 0; i < g->nq; i++)
            if (num(o, f[i], i ? "result FIFO" : "miss queue", &g->q[i], e))
                return -1;
    }
    if ((g->mshr == 'F' || g->mshr == 'T') && g->nq != 2)
        return bad(o, e, "a texture-FIFO MSHR (F/T) needs ,<miss queue>:<result fifo>");
    if (ng == 5) {
        g->has_port = 1;
        if (num(o, grp[4], "data port width", &g->port, e))
            return -1;
    }
    return 0;
}

static int put_word(imp *im, const char *pre, const char *leaf, const char *val, const ggs_opt *o, int approx,
                    const char *why)
{
    char key[64];
    snprintf(key, sizeof key, "%s.%s", pre, leaf);
    return ggsi_putv(im, key, val, o, approx ? GGS_APPROX : GGS_MAPPED, why);
}

static int put_num(imp *im, const char *pre, const char *leaf, double v, const ggs_opt *o, ggs_kind k,
                   const char *why)
{
    char key[64];
    snprintf(key, sizeof key, "%s.%s", pre, leaf);
    return ggsi_putn(im, key, v, o, k, why);
}

static int map_cache(imp *im, const char *optname, const char *pre, int may_be_absent)
{
    ggs_opt *o = ggsi_use(im, optname);
    if (!o)
        return 0;
    gcache g;
    if (parse_cache(o, &g, im->e))
        return -1;
    if (g.none) {
        if (!may_be_absent)
            return ge_errf(im->e, "%s:%d: %s: 'none': gpuest needs this cache (%s)", o->file, o->vline, o->name, pre);
        static const char *const zero[] = {"size_bytes", "sets", "ways", "line_bytes", "sector_bytes",
                                           "banks", "mshr_entries", "mshr_merge", "miss_queue_entries"};
        for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
            if (put_num(im, pre, zero[i], 0, o, GGS_MAPPED, "cache disabled ('none')"))
                return -1;
        return 0;
    }
    /* The base config may not have this cache (e.g. no texture cache on
     * Volta): then banks and latency have no default to inherit. */
    const gcfg_key *kb = NULL;
    {
        char key[64];
        snprintf(key, sizeof key, "%s.size_bytes", pre);
        kb = gcfg_find_key(key);
    }
    if (kb && gcfg_get_num(im->cfg, kb) == 0) {
        if (put_num(im, pre, "banks", 1, NULL, GGS_DEFAULTED, "1 (no bank count in the format; absent in the base)") ||
            put_num(im, pre, "latency_cycles", im->cfg->l1d.latency_cycles ? im->cfg->l1d.latency_cycles : 1, NULL,
                    GGS_DEFAULTED, "as l1d.latency_cycles (absent in the base)"))
            return -1;
    }
    if (put_num(im, pre, "sets", g.nset, o, GGS_MAPPED, NULL) ||
        put_num(im, pre, "line_bytes", g.line, o, GGS_MAPPED, NULL) ||
        put_num(im, pre, "ways", g.assoc, o, GGS_MAPPED, NULL) ||
        put_num(im, pre, "size_bytes", (double)g.nset * g.line * g.assoc, o, GGS_DERIVED, "sets x line x ways") ||
        put_num(im, pre, "sector_bytes", g.sector ? 32 : g.line, o, GGS_DERIVED,
                g.sector ? "sectored: 32-byte sectors" : "not sectored: sector = line"))
        return -1;
    const char *rep = g.rp == 'L' ? "lru" : "fifo";
    if (put_word(im, pre, "replacement", rep, o, 0, NULL))
        return -1;
    static const struct {
        char c;
        const char *ours;
        const char *why; /* non-NULL: approximation */
    } wp[] = {
        {'R', "read_only", NULL},
        {'B', "write_back", NULL},
        {'T', "write_through", NULL},
        {'E', "write_evict", NULL},
        {'L', "write_through", "GPGPU-Sim 'L' is write-back for local, write-through for global data"},
    };
    for (size_t i = 0; i < sizeof wp / sizeof *wp; i++)
        if (wp[i].c == g.wp && put_word(im, pre, "write_policy", wp[i].ours, o, wp[i].why != NULL, wp[i].why))
            return -1;
    if (put_word(im, pre, "allocate", g.ap == 'm' ? "on_miss" : "on_fill", o, g.ap == 's',
                 g.ap == 's' ? "GPGPU-Sim 's' (streaming) allocates on fill with one MSHR per line" : NULL))
        return -1;
    const char *wa_why = g.wap == 'F'   ? "GPGPU-Sim 'F' is fetch-on-write"
                         : g.wap == 'L' ? "GPGPU-Sim 'L' is lazy fetch-on-read (write-validate)"
                                        : NULL;
    if (put_word(im, pre, "write_allocate", g.wap == 'N' ? "no_write_allocate" : "write_allocate", o, wa_why != NULL,
                 wa_why))
        return -1;
    int fifo = g.mshr == 'F' || g.mshr == 'T';
    if (put_num(im, pre, "mshr_entries", g.entries, o, fifo ? GGS_APPROX : GGS_MAPPED,
                fifo ? "texture FIFO: fragment-FIFO entries used as MSHR entries" : NULL) ||
        put_num(im, pre, "mshr_merge", g.merge, o, fifo ? GGS_APPROX : GGS_MAPPED,
                fifo ? "texture FIFO: request-FIFO entries used as merge limit" : NULL))
        return -1;
    if (g.nq >= 1 && put_num(im, pre, "miss_queue_entries", g.q[0], o, fifo ? GGS_APPROX : GGS_MAPPED,
                             fifo ? "texture FIFO: reorder-buffer entries used as miss queue" : NULL))
        return -1;
    /* set index: L linear, X bitwise XOR; the Fermi hash (H) and IPOLY (P)
     * are modelled by our XOR fold; a custom one (C) is not mapped. */
    if (g.sif == 'C') {
        if (ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): custom set index function 'C' (gpuest indexes sets linearly)",
                     o->name, o->file, o->line))
            return -1;
    } else if (g.sif && put_word(im, pre, "set_index", g.sif == 'L' ? "linear" : "xor", o, g.sif == 'H' || g.sif == 'P',
                                 g.sif == 'H'   ? "Fermi set hash modelled as an XOR fold"
                                 : g.sif == 'P' ? "IPOLY set hash modelled as an XOR fold"
                                                : NULL)) {
        return -1;
    }
    if (g.nq == 2 && !fifo && g.q[1] &&
        ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): result FIFO of %u entries", o->name, o->file, o->line, g.q[1]))
        return -1;
    if (g.has_port && g.port && g.port != g.line &&
        ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): data port width %u bytes", o->name, o->file, o->line, g.port))
        return -1;
    return 0;
}

int ggsi_caches(imp *im)
{
    if (map_cache(im, "-gpgpu_cache:dl1", "l1d", 1) || map_cache(im, "-gpgpu_cache:il1", "l1i", 0) ||
        map_cache(im, "-gpgpu_const_cache:l1", "l1c", 0) || map_cache(im, "-gpgpu_tex_cache:l1", "l1t", 1) ||
        map_cache(im, "-gpgpu_cache:dl2", "l2", 0))
        return -1;
    /* L2 slices = memory sub-partitions. */
    uint32_t nmem = 0, sub = 1;
    ggs_opt *om, *os;
    int hm = ggsi_get_u32(im, "-gpgpu_n_mem", &nmem, &om);
    int hs = ggsi_get_u32(im, "-gpgpu_n_sub_partition_per_mchannel", &sub, &os);
    if (hm < 0 || hs < 0)
        return -1;
    if (hm && ggsi_putn(im, "l2.slices", (double)nmem * sub, om, GGS_DERIVED,
                        hs ? "x -gpgpu_n_sub_partition_per_mchannel" : "x 1 sub-partition (option absent)"))
        return -1;
    uint32_t idx;
    ggs_opt *oi;
    int hi = ggsi_get_u32(im, "-gpgpu_memory_partition_indexing", &idx, &oi);
    if (hi < 0)
        return -1;
    if (hi && ggsi_putv(im, "l2.hash", idx == 0 ? "linear" : "xor", oi, idx <= 1 ? GGS_MAPPED : GGS_APPROX,
                        idx == 0   ? "0 = consecutive"
                        : idx == 1 ? "1 = bitwise XOR permutation"
                                   : "IPOLY/PAE/random/custom hashing modelled as XOR"))
        return -1;
    return 0;
}

/* ---- DRAM ---- */

typedef struct tfield {
    const char *name, *key;
} tfield;

static const tfield timing_fields[] = {
    {"nbk", "dram.banks"},  {"CCD", "dram.tCCD"}, {"RRD", "dram.tRRD"}, {"RCD", "dram.tRCD"},
    {"RAS", "dram.tRAS"},   {"RP", "dram.tRP"},   {"RC", "dram.tRC"},   {"CL", "dram.tCL"},
    {"WL", "dram.tWL"},     {"CDLR", "dram.tWTR"}, {"WR", "dram.tWR"}, {"nbkgrp", "dram.bank_groups"},
    {"CCDL", "dram.tCCDL"}, {"RTPL", "dram.tRTP"},
};

static int map_timing(imp *im)
{
    ggs_opt *o = ggsi_use(im, "-gpgpu_dram_timing_opt");
    if (!o)
        return 0;
    const char *v = o->value, *p = v;
    uint32_t ccdl = 1, rtpl = 1;
    int have_ccdl = 0, have_rtpl = 0;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ':')
            p++;
        if (!*p)
            break;
        ggs_opt fo = *o; /* same option, located at this field's line */
        fo.line = fo.vline = ggs_value_line(o, (size_t)(p - v));
        const char *n0 = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t nlen = (size_t)(p - n0);
        while (isspace((unsigned char)*p))
            p++;
        if (!nlen || *p != '=')
            return ge_errf(im->e, "%s:%d: %s: expected <name>=<cycles> at '%.20s'", fo.file, fo.vline, o->name, n0);
        p++;
        while (isspace((unsigned char)*p))
            p++;
        uint64_t val = 0;
        const char *d0 = p;
        while (isdigit((unsigned char)*p) && val <= UINT32_MAX)
            val = val * 10 + (uint64_t)(*p++ - '0');
        if (p == d0 || val > UINT32_MAX)
            return ge_errf(im->e, "%s:%d: %s: %.*s: expected a cycle count at '%.20s'", fo.file, fo.vline, o->name,
                           (int)nlen, n0, d0);
        while (isspace((unsigned char)*p))
            p++;
        if (*p && *p != ':')
            return ge_errf(im->e, "%s:%d: %s: expected ':' after %.*s=%llu, got '%.20s'", fo.file, fo.vline, o->name,
                           (int)nlen, n0, (unsigned long long)val, p);
        size_t i;
        for (i = 0; i < sizeof timing_fields / sizeof *timing_fields; i++)
            if (strlen(timing_fields[i].name) == nlen && !strncmp(timing_fields[i].name, n0, nlen))
                break;
        if (i == sizeof timing_fields / sizeof *timing_fields) {
            if (ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): timing field '%.*s'", o->name, fo.file, fo.line, (int)nlen,
                         n0))
                return -1;
            continue;
        }
        const char *key = timing_fields[i].key;
        char why[48];
        snprintf(why, sizeof why, "field %s", timing_fields[i].name);
        if (!strcmp(key, "dram.tCCDL")) {
            ccdl = (uint32_t)val, have_ccdl = 1;
            if (val == 0)
                continue;
        }
        if (!strcmp(key, "dram.tRTP")) {
            rtpl = (uint32_t)val, have_rtpl = 1;
            if (val == 0)
                continue;
        }
        if (!strcmp(key, "dram.bank_groups") && val == 0)
            val = 1;
        if (ggsi_putn(im, key, (double)val, &fo, GGS_MAPPED, why))
            return -1;
    }
    gpu_config *c = im->cfg;
    /* GPGPU-Sim: "to disable bank groups, set nbkgrp to 1 and tCCDL and tRTPL to 0". */
    if (have_ccdl && ccdl == 0 &&
        ggsi_putn(im, "dram.tCCDL", c->dram.tCCD, o, GGS_DERIVED, "CCDL=0 (no bank groups): = tCCD"))
        return -1;
    if (have_rtpl && rtpl == 0) {
        uint32_t burst = (c->dram.burst_length + c->dram.data_rate - 1) / c->dram.data_rate;
        if (ggsi_putn(im, "dram.tRTP", burst ? burst : 1, o, GGS_DERIVED,
                      "RTPL=0: one burst (burst_length / data_rate)"))
            return -1;
    }
    return 0;
}

static int map_row_bytes(imp *im)
{
    ggs_opt *o = ggsi_use(im, "-gpgpu_mem_addr_mapping");
    if (!o)
        return 0;
    const char *p = o->value;
    const char *semi = strchr(p, ';');
    if (semi)
        p = semi + 1;
    unsigned bits = 0, cs = 0;
    for (; *p; p++) {
        if (*p == '.' || isspace((unsigned char)*p))
            continue;
        if (!isalnum((unsigned char)*p))
            return ge_errf(im->e, "%s:%d: %s: unexpected '%c' in the address mapping", o->file, o->vline, o->name, *p);
        bits++;
        cs += *p == 'C' || *p == 'S';
    }
    if (bits > 64)
        return ge_errf(im->e, "%s:%d: %s: %u address bits (at most 64)", o->file, o->vline, o->name, bits);
    if (cs < 6 || cs > 20)
        return ge_errf(im->e, "%s:%d: %s: %u column+burst bits (C, S): expected 6 to 20", o->file, o->vline, o->name,
                       cs);
    return ggsi_putn(im, "dram.row_bytes", (double)(1u << cs), o, GGS_DERIVED,
                     "2^(column bits C + burst bits S) bytes per channel");
}

int ggsi_memory(imp *im)
{
    gpu_config *c = im->cfg;
    uint32_t bw = 0, per = 1, v;
    ggs_opt *ob, *op, *o;
    int hb = ggsi_get_u32(im, "-gpgpu_dram_buswidth", &bw, &ob);
    int hp = ggsi_get_u32(im, "-gpgpu_n_mem_per_ctrlr", &per, &op);
    if (hb < 0 || hp < 0)
        return -1;
    if (hb && ggsi_putn(im, "dram.bus_bits", (double)bw * 8 * per, ob, GGS_DERIVED,
                        hp ? "bytes x 8 x -gpgpu_n_mem_per_ctrlr" : "bytes x 8 (one chip per controller)"))
        return -1;
    if (map_timing(im) || map_row_bytes(im))
        return -1;
    int h = ggsi_get_u32(im, "-gpgpu_frfcfs_dram_sched_queue_size", &v, &o);
    if (h < 0)
        return -1;
    if (h && v == 0 &&
        ggsi_say(im, GGS_NOT_MAPPED, "%s 0 (%s:%d): unlimited queue; dram.queue_entries keeps %u from %s", o->name,
                 o->file, o->line, c->dram.queue_entries, im->basepath))
        return -1;
    if (h && v && ggsi_putn(im, "dram.queue_entries", v, o, GGS_MAPPED, NULL))
        return -1;
    if ((h = ggsi_get_u32(im, "-gpgpu_dram_scheduler", &v, &o)) < 0)
        return -1;
    if (h && v > 1)
        return ge_errf(im->e, "%s:%d: %s: %u is not 0 (FIFO) or 1 (FR-FCFS)", o->file, o->vline, o->name, v);
    if (h && ggsi_putv(im, "dram.scheduler", v ? "frfcfs" : "fcfs", o, GGS_MAPPED, v ? "1 = FR-FCFS" : "0 = FIFO"))
        return -1;
    if ((h = ggsi_get_u32(im, "-dram_latency", &v, &o)) < 0)
        return -1;
    if (h && ggsi_putn(im, "dram.latency_cycles", floor(v * im->dram_mhz / im->core_mhz + 0.5), o, GGS_DERIVED,
                       "core cycles converted to DRAM cycles (x dram clock / core clock)"))
        return -1;
    /* The format has no DRAM technology name: guess from the signalling. */
    if (ggsi_isset(im, "dram.data_rate")) {
        char base_type[GCFG_NAME_MAX];
        snprintf(base_type, sizeof base_type, "%s", c->dram.type); /* gcfg_set copies into c->dram.type */
        const char *type = c->dram.data_rate >= 4 ? (c->dram.burst_length >= 16 ? "GDDR6" : "GDDR5")
                           : c->dram.bus_bits >= 64 ? "HBM2"
                                                    : base_type;
        if (ggsi_putv(im, "dram.type", type, NULL, GGS_DEFAULTED,
                      "guessed from data rate, burst length and bus width (GPGPU-Sim names no DRAM type)"))
            return -1;
    }
    return 0;
}

int ggsi_power(imp *im, const arch_row *row)
{
    gpu_config *c = im->cfg;
    char why[96];
    snprintf(why, sizeof why, "typical process of %s GPUs (not in GPGPU-Sim configs)", row->arch);
    if (ggsi_putn(im, "power.technology_nm", row->technology, NULL, GGS_DEFAULTED, why))
        return -1;
    c->power.ndvfs = 1;
    c->power.dvfs[0].freq_mhz = c->gpu.core_clock_mhz;
    c->power.dvfs[0].vdd_v = c->power.vdd_v;
    memset(&c->ref, 0, sizeof c->ref);
    return ggsi_say(im, GGS_DEFAULTED, "power.dvfs = one point (%g MHz, %g V): core clock, power.vdd_v of %s",
                    c->gpu.core_clock_mhz, c->power.vdd_v, im->basepath);
}
