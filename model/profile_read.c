/*
 * profile_read.c - reading the profile file (prof_load, prof_read and
 * their _opts forms), refusing anything malformed with a message; the
 * layout is in profile_io.h, field by field in docs/profile-format.md.
 */
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_io.h"

typedef struct {
    FILE *f;
    const char *path;
    lzma_stream z;
    uint8_t in[PROF_IO_BUF], out[PROF_IO_BUF];
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
    r->z.avail_out = PROF_IO_BUF;
    while (r->z.avail_out == PROF_IO_BUF) {
        if (r->z.avail_in == 0 && !feof(r->f)) {
            r->z.next_in = r->in;
            r->z.avail_in = fread(r->in, 1, PROF_IO_BUF, r->f);
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
        if (act == LZMA_FINISH && r->z.avail_out == PROF_IO_BUF) {
            r->bad = 1;
            return -1;
        }
    }
    r->pos = 0;
    r->len = PROF_IO_BUF - r->z.avail_out;
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
    uint32_t n = r_count(r, PROF_MAX_STR, what);
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
        uint32_t ni = r_count(r, PROF_MAX_COUNT, "instructions per warp");
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
        uint32_t ni = r_count(r, PROF_MAX_COUNT, "warp instructions");
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
    if (fread(hdr, 1, 12, f) != 12 || memcmp(hdr, PROF_MAGIC, 8) != 0) {
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
