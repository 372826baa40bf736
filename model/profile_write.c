/*
 * profile_write.c - writing the profile file (prof_save); the layout is in
 * profile_io.h, field by field in docs/profile-format.md.
 */
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_io.h"

typedef struct {
    FILE *f;
    lzma_stream z;
    uint8_t in[PROF_IO_BUF], out[PROF_IO_BUF];
    size_t nin;
    int err;
} wstream_x;

static void wx_flush(wstream_x *w, lzma_action act)
{
    w->z.next_in = w->in;
    w->z.avail_in = w->nin;
    for (;;) {
        w->z.next_out = w->out;
        w->z.avail_out = PROF_IO_BUF;
        lzma_ret r = lzma_code(&w->z, act);
        size_t got = PROF_IO_BUF - w->z.avail_out;
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
        size_t k = PROF_IO_BUF - w->nin < n ? PROF_IO_BUF - w->nin : n;
        memcpy(w->in + w->nin, b, k);
        w->nin += k;
        b += k;
        n -= k;
        if (w->nin == PROF_IO_BUF)
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
    fwrite(PROF_MAGIC, 1, 8, f);
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
