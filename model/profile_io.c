/*
 * profile_io.c - the profile file: versioned, little-endian, xz-compressed.
 *
 * Layout (docs/profile-format.md has the field-by-field list):
 *   bytes 0-7   "GPUESTPF"
 *   bytes 8-11  format version (u32 LE), currently PROF_VERSION
 *   bytes 12-   an .xz stream (liblzma, CRC64) holding the body: everything
 *               but the sample CTAs' warp streams, which the model does not
 *               read;
 *   then        a second .xz stream holding those warp streams, kernel by
 *               kernel, sample by sample (read only for simulation: hybrid
 *               and full modes; prof_read_opts' with_ctas).
 * Every integer is little-endian, every real an IEEE-754 double, every
 * string a u32 length then bytes.  Reading validates each count against a
 * bound and each enum against its range before using it, so a corrupt or
 * truncated file is refused with a message and never read past.
 */
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

#define MAGIC "GPUESTPF"
#define BUF 65536
#define MAX_STR (1u << 20)
#define MAX_COUNT (1u << 24)
/* xz preset: 1 compresses the repetitive warp streams well at ~10x the speed of the default 6. */
#define PROF_XZ_PRESET 1

/* ---------------- writing ---------------- */

typedef struct {
    FILE *f;
    lzma_stream z;
    uint8_t in[BUF], out[BUF];
    size_t nin;
    int err;
} wstream_x;

static void wx_flush(wstream_x *w, lzma_action act)
{
    w->z.next_in = w->in;
    w->z.avail_in = w->nin;
    for (;;) {
        w->z.next_out = w->out;
        w->z.avail_out = BUF;
        lzma_ret r = lzma_code(&w->z, act);
        size_t got = BUF - w->z.avail_out;
        if (got && fwrite(w->out, 1, got, w->f) != got)
            w->err = 1;
        if (r == LZMA_STREAM_END)
            break;
        if (r != LZMA_OK) {
            w->err = 1;
            break;
        }
        if (act == LZMA_RUN && w->z.avail_in == 0)
            break;
    }
    w->nin = 0;
}

static void wx_bytes(wstream_x *w, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        size_t k = BUF - w->nin < n ? BUF - w->nin : n;
        memcpy(w->in + w->nin, b, k);
        w->nin += k;
        b += k;
        n -= k;
        if (w->nin == BUF)
            wx_flush(w, LZMA_RUN);
    }
}

static void w_u8(wstream_x *w, uint8_t v) { wx_bytes(w, &v, 1); }
static void w_u16(wstream_x *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    wx_bytes(w, b, 2);
}
static void w_u32(wstream_x *w, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    wx_bytes(w, b, 4);
}
static void w_u64(wstream_x *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    wx_bytes(w, b, 8);
}
static void w_f64(wstream_x *w, double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    w_u64(w, v);
}
static void w_str(wstream_x *w, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    w_u32(w, n);
    wx_bytes(w, s, n);
}
static void w_hist(wstream_x *w, const rd_hist *h)
{
    w_u32(w, RD_BINS);
    w_u32(w, RD_TBINS);
    w_f64(w, h->cold);
    for (int i = 0; i < RD_BINS; i++)
        w_f64(w, h->bin[i]);
    for (int i = 0; i < RD_TBINS; i++)
        w_f64(w, h->tbin[i]);
    for (int i = 0; i < RD_BINS; i++)
        w_f64(w, h->lbin[i]);
    for (int i = 0; i < RD_TBINS; i++)
        w_f64(w, h->ltbin[i]);
}

/* A u64 as a LEB128 varint (7 bits a byte, low first; at most 10 bytes). */
static void w_var(wstream_x *w, uint64_t v)
{
    uint8_t b[10];
    int n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    wx_bytes(w, b, (size_t)n);
}

/* A difference of u64s (mod 2^64) as a zigzag varint: small either way. */
static void w_delta(wstream_x *w, uint64_t v, uint64_t prev)
{
    uint64_t d = v - prev;
    w_var(w, (d << 1) ^ (uint64_t)-(int64_t)(d >> 63));
}

static void w_cta(wstream_x *w, const ws_cta *c)
{
    for (int i = 0; i < 3; i++)
        w_u32(w, c->id[i]);
    w_u64(w, c->index);
    w_u32(w, c->nwarps);
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        const ws_inst *in = ws_warp_inst(c, wi);
        w_u32(w, c->warps[wi].ninst);
        uint64_t pc = 0, base = 0; /* the warp's previous pc and first lane address */
        for (uint32_t i = 0; i < c->warps[wi].ninst; i++, in++) {
            w_delta(w, in->pc, pc);
            pc = in->pc;
            w_u32(w, in->mask);
            w_u32(w, in->imm);
            w_u16(w, in->opcode);
            w_u8(w, in->op);
            w_u8(w, in->size);
            w_u8(w, in->ndst);
            w_u8(w, in->nsrc);
            for (int d = 0; d < in->ndst; d++)
                w_u16(w, in->dst[d]);
            for (int s = 0; s < in->nsrc; s++)
                w_u16(w, in->src[s]);
            const uint64_t *a = ws_inst_addr(c, in);
            w_u8(w, a != NULL);
            if (a) { /* the lanes with an address (not 0), each from the one before */
                uint32_t has = 0;
                for (int l = 0; l < WS_WARP_SIZE; l++)
                    has |= (uint32_t)(a[l] != 0) << l;
                w_u32(w, has);
                uint64_t prev = base;
                for (int l = 0, first = 1; l < WS_WARP_SIZE; l++)
                    if (has >> l & 1) {
                        w_delta(w, a[l], prev);
                        if (first)
                            base = a[l], first = 0;
                        prev = a[l];
                    }
            }
        }
    }
}

static void w_kernel(wstream_x *w, const prof_kernel *k)
{
    w_str(w, k->name);
    for (int i = 0; i < 3; i++)
        w_u32(w, k->grid[i]);
    for (int i = 0; i < 3; i++)
        w_u32(w, k->block[i]);
    w_u32(w, k->nregs);
    w_u32(w, k->shmem_static);
    w_u32(w, k->shmem_dynamic);
    w_u32(w, k->binary_version);
    w_u64(w, k->nctas);
    w_u32(w, k->warps_per_cta);
    w_f64(w, k->warp_insts);
    w_f64(w, k->thread_insts);
    w_u32(w, ISA_OP_COUNT);
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        w_f64(w, k->op_warps[i]);
        w_f64(w, k->op_lanes[i]);
        w_f64(w, k->op_lines[i]);
        w_f64(w, k->op_sectors[i]);
    }
    w_f64(w, k->shared_bank_cycles);
    w_f64(w, k->atomic_addr_serial);
    w_f64(w, k->footprint_lines);
    w_f64(w, k->barriers_per_warp);
    w_f64(w, k->reg_reads);
    w_f64(w, k->reg_writes);
    w_f64(w, k->code_lines);
    w_f64(w, k->store_footprint_lines);
    w_f64(w, k->store_footprint_sectors);
    w_f64(w, k->load_footprint_lines);
    w_f64(w, k->load_footprint_sectors);
    w_f64(w, k->atomic_footprint_lines);
    w_u32(w, k->natomic_hot);
    for (uint32_t i = 0; i < k->natomic_hot; i++) {
        w_u64(w, k->atomic_hot_line[i]);
        w_f64(w, k->atomic_hot_sectors[i]);
        w_f64(w, k->atomic_hot_packets[i]);
    }
    w_u32(w, PROF_CAMP_NFN);
    w_u32(w, PROF_CAMP_NWIN);
    for (int f = 0; f < PROF_CAMP_NFN; f++)
        for (int i = 0; i < PROF_CAMP_NWIN; i++)
            w_f64(w, k->camp[f][i]);
    w_u32(w, k->ninherit);
    for (uint32_t i = 0; i < k->ninherit; i++) {
        w_u64(w, k->inherit_line[i]);
        for (int j = 0; j < PROF_NCONC; j++)
            w_u32(w, k->inherit_age[(size_t)i * PROF_NCONC + j]);
        w_u8(w, k->inherit_sectors[i]);
    }
    w_u32(w, k->ncode_warm);
    for (uint32_t i = 0; i < k->ncode_warm; i++) {
        w_u64(w, k->code_warm[i]);
        for (int j = 0; j < PROF_NCONC; j++)
            w_u32(w, k->code_warm_age[(size_t)i * PROF_NCONC + j]);
    }
    w_u32(w, k->nwarps);
    for (uint32_t i = 0; i < k->nwarps; i++) {
        w_f64(w, k->warps[i].weight);
        w_u32(w, k->warps[i].ninst);
        for (uint32_t j = 0; j < k->warps[i].ninst; j++) {
            const prof_inst *pi = &k->warps[i].inst[j];
            w_u8(w, pi->op);
            w_u8(w, pi->lines);
            w_u8(w, pi->sectors);
            w_u8(w, pi->conflict);
            w_u8(w, pi->lanes);
            for (int d = 0; d < PROF_MAX_DEPS; d++)
                w_u16(w, pi->dep[d]);
        }
    }
    w_u32(w, k->nl1);
    for (uint32_t i = 0; i < k->nl1; i++) {
        w_u32(w, k->l1[i].nsm);
        w_u32(w, k->l1[i].ctas_per_sm);
        w_u32(w, k->l1[i].interleave);
        w_hist(w, &k->l1[i].load);
        for (int a = 0; a < PROF_INFL_NSETS; a++)
            for (int b = 0; b < PROF_INFL_NWAYS; b++)
                w_u16(w, k->l1[i].inflight[a][b]);
    }
    w_u32(w, k->nclusters);
    w_u32(w, PROF_SIG_COUNT);
    for (uint32_t i = 0; i < k->nclusters; i++) {
        const prof_cluster *c = &k->clusters[i];
        w_f64(w, c->weight);
        for (int f = 0; f < PROF_SIG_COUNT; f++)
            w_f64(w, c->mean[f]);
        w_f64(w, c->cv_insts);
        w_u32(w, c->nsample);
    }
    w_u32(w, k->nsample);
    w_u8(w, (uint8_t)k->sample_is_all);
    for (uint32_t i = 0; i < k->nsample; i++) {
        w_u64(w, k->sample_index[i]);
        w_u32(w, k->sample_cluster[i]);
    }
}

int prof_save(const profile *p, const char *path, ge_err *e)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return ge_errf(e, "%s: cannot create profile file", path);
    wstream_x *w = calloc(1, sizeof *w);
    if (!w) {
        fclose(f);
        return ge_errf(e, "out of memory");
    }
    w->f = f;
    uint8_t ver[4] = {PROF_VERSION & 0xff, (PROF_VERSION >> 8) & 0xff, 0, 0};
    fwrite(MAGIC, 1, 8, f);
    fwrite(ver, 1, 4, f);
    lzma_stream init = LZMA_STREAM_INIT;
    w->z = init;
    if (lzma_easy_encoder(&w->z, PROF_XZ_PRESET, LZMA_CHECK_CRC64) != LZMA_OK) {
        fclose(f);
        free(w);
        return ge_errf(e, "%s: cannot start xz compression", path);
    }
    w_str(w, p->source);
    w_u32(w, p->size);
    w_u64(w, p->seed);
    w_u32(w, p->nkernels);
    w_u32(w, p->nl2);
    w_u32(w, p->nopcodes);
    for (uint32_t i = 0; i < p->nopcodes; i++)
        w_str(w, p->opcodes[i]);
    for (uint32_t k = 0; k < p->nkernels; k++)
        w_kernel(w, &p->k[k]);
    for (size_t i = 0; i < (size_t)p->nkernels * p->nl2; i++) {
        w_u32(w, p->l2[i].concurrency);
        w_hist(w, &p->l2[i].load);
        w_hist(w, &p->l2[i].store);
    }
    wx_flush(w, LZMA_FINISH);
    lzma_end(&w->z);
    /* the sample CTAs' warp streams */
    w->z = init;
    if (lzma_easy_encoder(&w->z, PROF_XZ_PRESET, LZMA_CHECK_CRC64) != LZMA_OK) {
        w->err = 1;
    } else {
        for (uint32_t k = 0; k < p->nkernels; k++)
            for (uint32_t i = 0; i < p->k[k].nsample; i++)
                w_cta(w, &p->k[k].sample[i]);
        wx_flush(w, LZMA_FINISH);
        lzma_end(&w->z);
    }
    int err = w->err;
    free(w);
    if (fclose(f) != 0 || err)
        return ge_errf(e, "%s: write error", path);
    return 0;
}

/* ---------------- reading ---------------- */

typedef struct {
    FILE *f;
    const char *path;
    lzma_stream z;
    uint8_t in[BUF], out[BUF];
    size_t pos, len; /* unread bytes of out */
    uint64_t offset; /* body bytes consumed */
    int eof, bad;
    ge_err *e;
} rstream_x;

static int rx_fill(rstream_x *r)
{
    if (r->eof || r->bad)
        return -1;
    r->z.next_out = r->out;
    r->z.avail_out = BUF;
    while (r->z.avail_out == BUF) {
        if (r->z.avail_in == 0 && !feof(r->f)) {
            r->z.next_in = r->in;
            r->z.avail_in = fread(r->in, 1, BUF, r->f);
        }
        lzma_action act = feof(r->f) && r->z.avail_in == 0 ? LZMA_FINISH : LZMA_RUN;
        lzma_ret ret = lzma_code(&r->z, act);
        if (ret == LZMA_STREAM_END) {
            r->eof = 1;
            break;
        }
        if (ret != LZMA_OK) {
            r->bad = 1;
            return -1;
        }
        if (act == LZMA_FINISH && r->z.avail_out == BUF) {
            r->bad = 1;
            return -1;
        }
    }
    r->pos = 0;
    r->len = BUF - r->z.avail_out;
    return r->len ? 0 : -1;
}

static int rx_bytes(rstream_x *r, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        if (r->pos == r->len && rx_fill(r)) {
            r->bad = 1;
            return -1;
        }
        size_t k = r->len - r->pos < n ? r->len - r->pos : n;
        memcpy(b, r->out + r->pos, k);
        r->pos += k;
        r->offset += k;
        b += k;
        n -= k;
    }
    return 0;
}

static uint8_t r_u8(rstream_x *r)
{
    uint8_t v = 0;
    rx_bytes(r, &v, 1);
    return v;
}
static uint16_t r_u16(rstream_x *r)
{
    uint8_t b[2] = {0};
    rx_bytes(r, b, 2);
    return (uint16_t)(b[0] | b[1] << 8);
}
static uint32_t r_u32(rstream_x *r)
{
    uint8_t b[4] = {0};
    rx_bytes(r, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static uint64_t r_u64(rstream_x *r)
{
    uint8_t b[8] = {0};
    rx_bytes(r, b, 8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}
static double r_f64(rstream_x *r)
{
    uint64_t v = r_u64(r);
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static int fail(rstream_x *r, const char *what)
{
    if (!r->bad)
        r->bad = 2;
    return ge_errf(r->e, "%s: corrupt or truncated profile (%s, body offset %llu)", r->path, what,
                   (unsigned long long)r->offset);
}

/* -1, making sure a message exists for a read that ran out of data. */
static int bad_ret(rstream_x *r)
{
    if (r->bad != 2)
        fail(r, "unexpected end of data");
    return -1;
}

/* A count, volume or weight: finite and not negative, else the file is
 * refused (the model divides by and sums these). */
static double r_amount(rstream_x *r, const char *what)
{
    double v = r_f64(r);
    if (!r->bad && !(v >= 0 && v <= 1e300))
        fail(r, what);
    return v;
}

static uint32_t r_count(rstream_x *r, uint32_t max, const char *what)
{
    uint32_t n = r_u32(r);
    if (n > max && !r->bad) {
        fail(r, what);
        r->bad = 2;
    }
    return r->bad ? 0 : n;
}

static int r_str(rstream_x *r, char *dst, size_t cap, const char *what)
{
    uint32_t n = r_count(r, MAX_STR, what);
    if (r->bad)
        return bad_ret(r);
    if (n >= cap) {
        char skip[256];
        while (n > 0) {
            uint32_t k = n > sizeof skip ? (uint32_t)sizeof skip : n;
            rx_bytes(r, skip, k);
            n -= k;
        }
        return fail(r, what);
    }
    rx_bytes(r, dst, n);
    dst[n] = 0;
    return r->bad ? -1 : 0;
}

static void r_hist(rstream_x *r, rd_hist *h)
{
    if (r_u32(r) != RD_BINS || r_u32(r) != RD_TBINS) {
        fail(r, "histogram bins");
        return;
    }
    h->cold = r_amount(r, "histogram count");
    for (int i = 0; i < RD_BINS; i++)
        h->bin[i] = r_amount(r, "histogram count");
    for (int i = 0; i < RD_TBINS; i++)
        h->tbin[i] = r_amount(r, "histogram count");
    for (int i = 0; i < RD_BINS; i++)
        h->lbin[i] = r_amount(r, "histogram count");
    for (int i = 0; i < RD_TBINS; i++)
        h->ltbin[i] = r_amount(r, "histogram count");
}

static uint64_t r_var(rstream_x *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        uint8_t b = r_u8(r);
        if (i == 9 && b > 1) {
            fail(r, "varint");
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return v;
    }
    fail(r, "varint");
    return 0;
}

static uint64_t r_delta(rstream_x *r, uint64_t prev)
{
    uint64_t z = r_var(r);
    return prev + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

static int r_cta(rstream_x *r, ws_cta *c, uint32_t nopcodes, ge_err *e)
{
    ws_cta_reset(c);
    for (int i = 0; i < 3; i++)
        c->id[i] = r_u32(r);
    c->index = r_u64(r);
    uint32_t nw = r_count(r, 2048, "warps per CTA");
    for (uint32_t w = 0; w < nw && !r->bad; w++) {
        if (ws_cta_begin_warp(c, e))
            return -1;
        uint32_t ni = r_count(r, MAX_COUNT, "instructions per warp");
        uint64_t pc = 0, base = 0; /* as w_cta */
        for (uint32_t i = 0; i < ni && !r->bad; i++) {
            ws_inst *in = ws_cta_push(c, e);
            if (!in)
                return -1;
            in->pc = pc = r_delta(r, pc);
            in->mask = r_u32(r);
            in->imm = r_u32(r);
            in->opcode = r_u16(r);
            in->op = r_u8(r);
            in->size = r_u8(r);
            in->ndst = r_u8(r);
            in->nsrc = r_u8(r);
            if (in->op >= ISA_OP_COUNT || in->ndst > WS_MAX_DST || in->nsrc > WS_MAX_SRC ||
                (nopcodes && in->opcode >= nopcodes))
                return fail(r, "instruction fields");
            for (int d = 0; d < in->ndst; d++)
                in->dst[d] = r_u16(r);
            for (int s = 0; s < in->nsrc; s++)
                in->src[s] = r_u16(r);
            uint8_t has = r_u8(r);
            if (has > 1)
                return fail(r, "address flag");
            if (has) {
                uint64_t *a = ws_cta_push_addr(c, in, e); /* zeroed */
                if (!a)
                    return -1;
                uint32_t lanes = r_u32(r);
                uint64_t prev = base;
                for (int l = 0, first = 1; l < WS_WARP_SIZE && !r->bad; l++)
                    if (lanes >> l & 1) {
                        a[l] = prev = r_delta(r, prev);
                        if (!a[l] && !r->bad) /* (a bad varint has its own message) */
                            return fail(r, "lane address");
                        if (first)
                            base = a[l], first = 0;
                    }
            }
        }
    }
    return r->bad ? bad_ret(r) : 0;
}

static int r_kernel(rstream_x *r, prof_kernel *k, ge_err *e)
{
    if (r_str(r, k->name, sizeof k->name, "kernel name"))
        return bad_ret(r);
    for (int i = 0; i < 3; i++)
        k->grid[i] = r_u32(r);
    for (int i = 0; i < 3; i++)
        k->block[i] = r_u32(r);
    k->nregs = r_u32(r);
    k->shmem_static = r_u32(r);
    k->shmem_dynamic = r_u32(r);
    k->binary_version = r_u32(r);
    k->nctas = r_u64(r);
    k->warps_per_cta = r_u32(r);
    k->warp_insts = r_amount(r, "kernel counts");
    k->thread_insts = r_amount(r, "kernel counts");
    if (r_u32(r) != ISA_OP_COUNT)
        return fail(r, "op kind count");
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        k->op_warps[i] = r_amount(r, "kernel counts");
        k->op_lanes[i] = r_amount(r, "kernel counts");
        k->op_lines[i] = r_amount(r, "kernel counts");
        k->op_sectors[i] = r_amount(r, "kernel counts");
    }
    k->shared_bank_cycles = r_amount(r, "kernel counts");
    k->atomic_addr_serial = r_amount(r, "kernel counts");
    k->footprint_lines = r_amount(r, "kernel counts");
    k->barriers_per_warp = r_amount(r, "kernel counts");
    k->reg_reads = r_amount(r, "kernel counts");
    k->reg_writes = r_amount(r, "kernel counts");
    k->code_lines = r_amount(r, "kernel counts");
    k->store_footprint_lines = r_amount(r, "kernel counts");
    k->store_footprint_sectors = r_amount(r, "kernel counts");
    k->load_footprint_lines = r_amount(r, "kernel counts");
    k->load_footprint_sectors = r_amount(r, "kernel counts");
    k->atomic_footprint_lines = r_amount(r, "kernel counts");
    k->natomic_hot = r_count(r, PROF_ATOMIC_HOT, "hot atomic lines");
    for (uint32_t i = 0; i < k->natomic_hot && !r->bad; i++) {
        k->atomic_hot_line[i] = r_u64(r);
        k->atomic_hot_sectors[i] = r_amount(r, "kernel counts");
        k->atomic_hot_packets[i] = r_amount(r, "kernel counts");
    }
    if ((r_u32(r) != PROF_CAMP_NFN || r_u32(r) != PROF_CAMP_NWIN) && !r->bad)
        return fail(r, "slice-camping table shape");
    for (int f = 0; f < PROF_CAMP_NFN && !r->bad; f++)
        for (int i = 0; i < PROF_CAMP_NWIN && !r->bad; i++) {
            k->camp[f][i] = r_f64(r);
            if (!r->bad && !(k->camp[f][i] >= 1 && k->camp[f][i] <= 1e6))
                return fail(r, "slice-camping factor");
        }
    uint32_t ni = r_count(r, PROF_INHERIT_MAX, "inherited lines");
    if (r->bad)
        return bad_ret(r);
    k->inherit_line = malloc((ni ? ni : 1) * sizeof *k->inherit_line);
    k->inherit_age = malloc((ni ? ni : 1) * PROF_NCONC * sizeof *k->inherit_age);
    k->inherit_sectors = malloc(ni ? ni : 1);
    if (!k->inherit_line || !k->inherit_age || !k->inherit_sectors)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < ni && !r->bad; i++) {
        k->inherit_line[i] = r_u64(r);
        for (int j = 0; j < PROF_NCONC; j++)
            k->inherit_age[(size_t)i * PROF_NCONC + j] = r_u32(r);
        k->inherit_sectors[i] = r_u8(r);
        if (!r->bad && (k->inherit_sectors[i] & 0xf0))
            return fail(r, "inherited line sectors");
        k->ninherit = i + 1;
    }
    uint32_t nwarm = r_count(r, PROF_CODE_WARM_MAX, "warm code lines");
    if (r->bad)
        return bad_ret(r);
    if (nwarm > k->code_lines)
        return fail(r, "warm code lines");
    k->code_warm = malloc((nwarm ? nwarm : 1) * sizeof *k->code_warm);
    k->code_warm_age = malloc((nwarm ? nwarm : 1) * PROF_NCONC * sizeof *k->code_warm_age);
    if (!k->code_warm || !k->code_warm_age)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < nwarm && !r->bad; i++) {
        k->code_warm[i] = r_u64(r);
        for (int j = 0; j < PROF_NCONC; j++)
            k->code_warm_age[(size_t)i * PROF_NCONC + j] = r_u32(r);
        if (!r->bad && i > 0 && k->code_warm[i] <= k->code_warm[i - 1])
            return fail(r, "warm code lines (not ascending)");
        k->ncode_warm = i + 1;
    }
    uint32_t nw = r_count(r, 64, "representative warps");
    if (r->bad)
        return bad_ret(r);
    k->warps = calloc(nw ? nw : 1, sizeof *k->warps);
    if (!k->warps)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < nw && !r->bad; i++) {
        prof_warp *w = &k->warps[i];
        w->weight = r_amount(r, "warp weight");
        uint32_t ni = r_count(r, MAX_COUNT, "warp instructions");
        if (r->bad)
            return bad_ret(r);
        w->inst = calloc(ni ? ni : 1, sizeof *w->inst);
        if (!w->inst)
            return ge_errf(e, "out of memory");
        k->nwarps++;
        w->ninst = ni;
        for (uint32_t j = 0; j < ni && !r->bad; j++) {
            prof_inst *pi = &w->inst[j];
            pi->op = r_u8(r);
            pi->lines = r_u8(r);
            pi->sectors = r_u8(r);
            pi->conflict = r_u8(r);
            pi->lanes = r_u8(r);
            for (int d = 0; d < PROF_MAX_DEPS; d++)
                pi->dep[d] = r_u16(r);
            if (pi->op >= ISA_OP_COUNT || pi->lanes > 32 || pi->dep[0] > j || pi->dep[1] > j || pi->dep[2] > j)
                return fail(r, "warp instruction");
        }
    }
    uint32_t nl1 = r_count(r, 1u << 16, "L1 histograms");
    if (r->bad)
        return bad_ret(r);
    k->l1 = calloc(nl1 ? nl1 : 1, sizeof *k->l1);
    if (!k->l1)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < nl1 && !r->bad; i++) {
        k->l1[i].nsm = r_u32(r);
        k->l1[i].ctas_per_sm = r_u32(r);
        k->l1[i].interleave = r_u32(r);
        if (k->l1[i].interleave >= PROF_IL_COUNT || k->l1[i].nsm == 0 || k->l1[i].ctas_per_sm == 0)
            return fail(r, "L1 histogram key");
        r_hist(r, &k->l1[i].load);
        for (int a = 0; a < PROF_INFL_NSETS; a++)
            for (int b = 0; b < PROF_INFL_NWAYS; b++)
                if ((k->l1[i].inflight[a][b] = r_u16(r)) > PROF_INFL_CAP * PROF_INFL_UNIT && !r->bad)
                    return fail(r, "L1 set-placement count");
        k->nl1++;
    }
    uint32_t nc = r_count(r, 1024, "CTA clusters");
    if (r_u32(r) != PROF_SIG_COUNT)
        return fail(r, "signature size");
    if (r->bad)
        return bad_ret(r);
    k->clusters = calloc(nc ? nc : 1, sizeof *k->clusters);
    if (!k->clusters)
        return ge_errf(e, "out of memory");
    k->nclusters = nc;
    for (uint32_t i = 0; i < nc; i++) {
        prof_cluster *c = &k->clusters[i];
        c->weight = r_amount(r, "cluster weight");
        for (int f = 0; f < PROF_SIG_COUNT; f++)
            c->mean[f] = r_amount(r, "cluster signature");
        c->cv_insts = r_amount(r, "cluster spread");
        c->nsample = r_u32(r);
    }
    uint32_t ns = r_count(r, 1u << 16, "sample CTAs");
    k->sample_is_all = r_u8(r) != 0;
    if (r->bad)
        return bad_ret(r);
    k->sample = calloc(ns ? ns : 1, sizeof *k->sample);
    k->sample_index = calloc(ns ? ns : 1, sizeof *k->sample_index);
    k->sample_cluster = calloc(ns ? ns : 1, sizeof *k->sample_cluster);
    if (!k->sample || !k->sample_index || !k->sample_cluster)
        return ge_errf(e, "out of memory");
    for (uint32_t i = 0; i < ns; i++) {
        k->sample_index[i] = r_u64(r);
        k->sample_cluster[i] = r_u32(r);
        if (k->sample_cluster[i] >= (nc ? nc : 1))
            return fail(r, "sample cluster");
        ws_cta_init(&k->sample[i]);
        k->nsample++;
    }
    return r->bad ? bad_ret(r) : 0;
}

/* Start decoding the next .xz stream of the file: the input the last one
 * left unread stays. */
static int rx_next_stream(rstream_x *r, uint32_t flags)
{
    const uint8_t *next_in = r->z.next_in;
    size_t avail_in = r->z.avail_in;
    lzma_end(&r->z);
    lzma_stream init = LZMA_STREAM_INIT;
    r->z = init;
    if (lzma_stream_decoder(&r->z, UINT64_MAX, flags) != LZMA_OK)
        return ge_errf(r->e, "%s: cannot start xz decoder", r->path);
    r->z.next_in = next_in;
    r->z.avail_in = avail_in;
    r->eof = r->bad = 0;
    r->pos = r->len = 0;
    return 0;
}

/* The current stream must end here. */
static int rx_at_end(rstream_x *r)
{
    uint8_t extra;
    if (rx_bytes(r, &extra, 1) == 0)
        return fail(r, "trailing data");
    if (!r->eof) /* the xz data itself is bad */
        return fail(r, "xz stream");
    r->bad = 0;
    return 0;
}

int prof_load(profile *p, const char *path, ge_err *e) { return prof_load_opts(p, path, 1, e); }

int prof_load_opts(profile *p, const char *path, int with_ctas, ge_err *e)
{
    prof_init(p);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ge_errf(e, "%s: cannot open profile file", path);
    int rc = prof_read_opts(p, f, path, with_ctas, e);
    fclose(f);
    return rc;
}

int prof_read(profile *p, FILE *f, const char *path, ge_err *e) { return prof_read_opts(p, f, path, 1, e); }

int prof_read_opts(profile *p, FILE *f, const char *path, int with_ctas, ge_err *e)
{
    prof_init(p);
    uint8_t hdr[12];
    if (fread(hdr, 1, 12, f) != 12 || memcmp(hdr, MAGIC, 8) != 0) {
        return ge_errf(e, "%s: not a gpuest profile (bad magic)", path);
    }
    uint32_t ver = (uint32_t)hdr[8] | (uint32_t)hdr[9] << 8 | (uint32_t)hdr[10] << 16 | (uint32_t)hdr[11] << 24;
    if (ver != PROF_VERSION) {
        return ge_errf(e, "%s: profile format version %u, this gpuest reads version %u (re-run gpuest profile)",
                       path, ver, PROF_VERSION);
    }
    rstream_x *r = calloc(1, sizeof *r);
    if (!r)
        return ge_errf(e, "out of memory");
    r->f = f;
    r->path = path;
    r->e = e;
    lzma_stream init = LZMA_STREAM_INIT;
    r->z = init;
    int rc = 0;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    uint32_t flags = LZMA_IGNORE_CHECK; /* let mutations reach the body parser */
#else
    uint32_t flags = 0;
#endif
    if (lzma_stream_decoder(&r->z, UINT64_MAX, flags) != LZMA_OK) {
        rc = ge_errf(e, "%s: cannot start xz decoder", path);
        goto out;
    }
    if (r_str(r, p->source, sizeof p->source, "source")) {
        rc = bad_ret(r);
        goto out;
    }
    p->size = r_u32(r);
    p->seed = r_u64(r);
    uint32_t nk = r_count(r, 65535, "kernel count");
    uint32_t nl2 = r_count(r, 64, "L2 histogram count");
    uint32_t nop = r_count(r, 65535, "mnemonic count");
    if (r->bad) {
        rc = bad_ret(r);
        goto out;
    }
    p->opcodes = calloc(nop ? nop : 1, sizeof *p->opcodes);
    p->k = calloc(nk ? nk : 1, sizeof *p->k);
    p->l2 = calloc((size_t)nk * nl2 + 1, sizeof *p->l2);
    if (!p->opcodes || !p->k || !p->l2) {
        rc = ge_errf(e, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < nop; i++) {
        char buf[512];
        if (r_str(r, buf, sizeof buf, "mnemonic")) {
            rc = bad_ret(r);
            goto out;
        }
        size_t len = strlen(buf) + 1;
        if (!(p->opcodes[i] = malloc(len))) {
            rc = ge_errf(e, "out of memory");
            goto out;
        }
        memcpy(p->opcodes[i], buf, len);
        p->nopcodes++;
    }
    for (uint32_t k = 0; k < nk; k++) {
        p->nkernels++;
        if (r_kernel(r, &p->k[k], e)) {
            rc = -1;
            goto out;
        }
    }
    p->nl2 = nl2;
    for (size_t i = 0; i < (size_t)nk * nl2; i++) {
        p->l2[i].concurrency = r_u32(r);
        r_hist(r, &p->l2[i].load);
        r_hist(r, &p->l2[i].store);
        if (p->l2[i].concurrency == 0 && !r->bad)
            fail(r, "L2 histogram key");
    }
    if (r->bad) {
        rc = bad_ret(r);
        goto out;
    }
    if ((rc = rx_at_end(r)) || !with_ctas)
        goto out;
    if ((rc = rx_next_stream(r, flags)))
        goto out;
    for (uint32_t k = 0; k < nk && rc == 0; k++)
        for (uint32_t i = 0; i < p->k[k].nsample && rc == 0; i++)
            rc = r_cta(r, &p->k[k].sample[i], p->nopcodes, e);
    if (rc == 0)
        rc = rx_at_end(r);
    if (rc == 0)
        p->has_ctas = 1;
out:
    lzma_end(&r->z);
    free(r);
    if (rc)
        prof_free(p);
    return rc;
}
