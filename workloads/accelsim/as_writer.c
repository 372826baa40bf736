/*
 * as_writer.c - a warp stream -> Accel-Sim trace files.
 *
 * Output follows what the NVBit tracer plus its post-processing produce
 * (see as_header.c and as_parse.c for the layout), so Accel-Sim can read
 * traces gpuest writes from SASS traces, and gpuest reads them back into the
 * identical stream.  Differences from the tracer, all deliberate:
 *   - line numbers (-enable lineinfo = 1) are not kept in the stream, so the
 *     writer always writes "-enable lineinfo = 0";
 *   - a kernel without a tracer version (e.g. from the PTX front-end) is
 *     written as version 5, with the immediate field;
 *   - the immediate is also written on a line of an older version when it
 *     is not zero (the reader accepts it on any line);
 *   - "-shmem" is static + dynamic shared memory (the format has one field).
 *
 * Mnemonics: an instruction keeps its kernel's mnemonic when the opcode
 * table of the kernel's binary version maps that mnemonic to the
 * instruction's op kind.  Otherwise (PTX mnemonics such as "ld.global.f32",
 * or a mnemonic that disagrees with the kind) the canonical SASS mnemonic of
 * the kind is written (accelsim_canonical), with a width suffix for memory
 * ops (.U8, .U16, .64, .128) as SASS spells it.  The answer per mnemonic is
 * cached, so the check costs one table lookup per distinct mnemonic.
 *
 * Addresses use the tracer's compression choice: base+stride when at least
 * two active lanes are contiguous and equally spaced (stride fits 32 bits),
 * otherwise base+delta; an instruction with no active lane is written as
 * base+stride 0x0 0, as the tracer does.
 *
 * Text is formatted by hand into a 1 MiB buffer (no printf per field) and
 * handed to fwrite or to liblzma (preset 1, what the tracer's "xz -1"
 * uses: fast, and decompression speed hardly depends on the preset).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "as_internal.h"

#define OBUF_SIZE (1u << 20)
#define OBUF_ROOM 8192 /* free space kept for one instruction line */
#define ZOUT_SIZE (1u << 16)
#define MAX_KEPT_MNEMONIC 4096
#define XZ_PRESET 1

struct accelsim_writer {
    char *dir;
    int xz;
    FILE *list;
    char *list_path;
    uint32_t nk;
    /* the current kernel file */
    FILE *kf;
    char *kpath;
    lzma_stream lz;
    int lz_live;
    char *obuf;
    size_t olen;
    uint8_t *zout;
    const as_family *fam;
    uint32_t binver, grid[3], warps_per_cta;
    int write_imm;
    int8_t *opmap; /* per mnemonic index: -2 not checked, -1 no match, else its kind */
};

/* ---- formatting ---- */

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static char *put_udec(char *p, uint64_t v)
{
    char t[24];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = t[--n];
    return p;
}

static char *put_sdec(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return put_udec(p, (uint64_t)0 - (uint64_t)v);
    }
    return put_udec(p, (uint64_t)v);
}

/* Lower-case hex with at least mind digits. */
static char *put_hex(char *p, uint64_t v, int mind)
{
    static const char dig[] = "0123456789abcdef";
    char t[16];
    int n = 0;
    do
        t[n++] = dig[v & 15];
    while ((v >>= 4) != 0);
    while (n < mind)
        t[n++] = '0';
    while (n)
        *p++ = t[--n];
    return p;
}

/* ---- output ---- */

static int write_out(accelsim_writer *w, const void *p, size_t n, ge_err *e)
{
    if (n && fwrite(p, 1, n, w->kf) != n)
        return ge_errf(e, "%s: write error: %s", w->kpath, strerror(errno));
    return 0;
}

static int flush(accelsim_writer *w, lzma_action act, ge_err *e)
{
    if (!w->xz) {
        int rc = write_out(w, w->obuf, w->olen, e);
        w->olen = 0;
        return rc;
    }
    w->lz.next_in = (const uint8_t *)w->obuf;
    w->lz.avail_in = w->olen;
    for (;;) {
        w->lz.next_out = w->zout;
        w->lz.avail_out = ZOUT_SIZE;
        lzma_ret r = lzma_code(&w->lz, act);
        if (r != LZMA_OK && r != LZMA_STREAM_END)
            return ge_errf(e, "%s: xz encoder error %d", w->kpath, (int)r);
        if (write_out(w, w->zout, ZOUT_SIZE - w->lz.avail_out, e))
            return -1;
        if (act == LZMA_FINISH ? r == LZMA_STREAM_END : (w->lz.avail_in == 0 && w->lz.avail_out != 0))
            break;
    }
    w->olen = 0;
    return 0;
}

/* Make room for at least n more bytes (n <= OBUF_SIZE). */
static int room(accelsim_writer *w, size_t n, ge_err *e)
{
    return w->olen + n > OBUF_SIZE ? flush(w, LZMA_RUN, e) : 0;
}

static int emit(accelsim_writer *w, const char *s, size_t n, ge_err *e)
{
    while (n) {
        if (w->olen == OBUF_SIZE && flush(w, LZMA_RUN, e))
            return -1;
        size_t k = OBUF_SIZE - w->olen < n ? OBUF_SIZE - w->olen : n;
        memcpy(w->obuf + w->olen, s, k);
        w->olen += k;
        s += k;
        n -= k;
    }
    return 0;
}

static int emitf(accelsim_writer *w, ge_err *e, const char *fmt, ...) GE_PRINTF(3, 4);
static int emitf(accelsim_writer *w, ge_err *e, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return emit(w, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1, e);
}

static int close_kernel(accelsim_writer *w, ge_err *e)
{
    if (!w->kf)
        return 0;
    int rc = flush(w, LZMA_FINISH, e);
    if (fclose(w->kf) != 0 && rc == 0)
        rc = ge_errf(e, "%s: write error: %s", w->kpath, strerror(errno));
    w->kf = NULL;
    if (w->lz_live)
        lzma_end(&w->lz);
    w->lz_live = 0;
    free(w->kpath);
    w->kpath = NULL;
    return rc;
}

/* ---- opening ---- */

static int mkdirs(char *path, ge_err *e)
{
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            int rc = mkdir(path, 0777);
            int err = errno;
            *p = c;
            if (rc != 0 && err != EEXIST)
                return ge_errf(e, "%s: cannot create directory: %s", path, strerror(err));
            if (!c)
                break;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ge_errf(e, "%s: not a directory", path);
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

static void writer_free(accelsim_writer *w)
{
    if (w->kf)
        fclose(w->kf);
    if (w->lz_live)
        lzma_end(&w->lz);
    if (w->list)
        fclose(w->list);
    free(w->dir);
    free(w->list_path);
    free(w->kpath);
    free(w->obuf);
    free(w->zout);
    free(w->opmap);
    free(w);
}

accelsim_writer *accelsim_writer_open(const char *dir, int xz, ge_err *e)
{
    accelsim_writer *w = ge_calloc(1, sizeof *w, e);
    if (!w)
        return NULL;
    w->xz = xz;
    size_t n = strlen(dir);
    w->dir = malloc(n + 1);
    w->obuf = malloc(OBUF_SIZE);
    w->zout = malloc(ZOUT_SIZE);
    w->opmap = malloc(65536);
    if (!w->dir || !w->obuf || !w->zout || !w->opmap) {
        ge_errf(e, "out of memory");
        writer_free(w);
        return NULL;
    }
    memcpy(w->dir, dir, n + 1);
    while (n > 1 && w->dir[n - 1] == '/')
        w->dir[--n] = 0;
    if (n == 0 || mkdirs(w->dir, e)) {
        if (n == 0)
            ge_errf(e, "empty output directory name");
        writer_free(w);
        return NULL;
    }
    w->list_path = join(w->dir, "kernelslist.g");
    if (!w->list_path || !(w->list = fopen(w->list_path, "w"))) {
        ge_errf(e, "%s: cannot create: %s", w->list_path ? w->list_path : dir, strerror(errno));
        writer_free(w);
        return NULL;
    }
    return w;
}

/* ---- events ---- */

static int start_kernel(accelsim_writer *w, const ws_kernel *k, ge_err *e)
{
    if (as_check_kernel(k, NULL, e))
        return ge_err_prefix(e, "kernel %u (%s)", k->id, k->name ? k->name : "?");
    char name[64];
    w->nk++;
    snprintf(name, sizeof name, "kernel-%u.traceg%s", w->nk, w->xz ? ".xz" : "");
    if (!(w->kpath = join(w->dir, name)))
        return ge_errf(e, "out of memory");
    if (!(w->kf = fopen(w->kpath, "wb")))
        return ge_errf(e, "%s: cannot create: %s", w->kpath, strerror(errno));
    if (w->xz) {
        lzma_stream init = LZMA_STREAM_INIT;
        w->lz = init;
        if (lzma_easy_encoder(&w->lz, XZ_PRESET, LZMA_CHECK_CRC64) != LZMA_OK)
            return ge_errf(e, "%s: cannot start the xz encoder", w->kpath);
        w->lz_live = 1;
    }
    if (fprintf(w->list, "%s\n", name) < 0)
        return ge_errf(e, "%s: write error", w->list_path);
    w->fam = as_family_of(k->binary_version);
    w->binver = k->binary_version;
    memcpy(w->grid, k->grid, sizeof w->grid);
    w->warps_per_cta = ws_kernel_warps_per_cta(k);
    memset(w->opmap, -2, 65536);
    uint32_t tv = k->tracer_version ? k->tracer_version : 5;
    w->write_imm = tv >= 5;
    if (emit(w, "-kernel name = ", 15, e) || emit(w, k->name, strlen(k->name), e) ||
        emitf(w, e, "\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n", k->id ? k->id : w->nk,
              k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2]) ||
        emitf(w, e, "-shmem = %u\n-nregs = %u\n-binary version = %u\n-cuda stream id = %u\n",
              k->shmem_static + k->shmem_dynamic, k->nregs, k->binary_version, k->stream) ||
        emitf(w, e, "-shmem base_addr = 0x%016llx\n-local mem base_addr = 0x%016llx\n",
              (unsigned long long)k->shmem_base, (unsigned long long)k->local_base))
        return -1;
    if (k->nvbit_version &&
        (emit(w, "-nvbit version = ", 17, e) || emit(w, k->nvbit_version, strlen(k->nvbit_version), e) ||
         emit(w, "\n", 1, e)))
        return -1;
    return emitf(w, e,
                 "-accelsim tracer version = %u\n-enable lineinfo = 0\n\n#traces format = [line_num] PC mask "
                 "dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]%s\n\n",
                 tv, w->write_imm ? " immediate" : "");
}

int accelsim_write_event(accelsim_writer *w, const ws_event *ev, ge_err *e)
{
    if (close_kernel(w, e))
        return -1;
    switch (ev->kind) {
    case WS_EV_MEMCPY_H2D:
    case WS_EV_MEMCPY_D2H:
        if (fprintf(w->list, "Memcpy%s,0x%016llx,%llu\n", ev->kind == WS_EV_MEMCPY_H2D ? "HtoD" : "DtoH",
                    (unsigned long long)ev->addr, (unsigned long long)ev->bytes) < 0)
            return ge_errf(e, "%s: write error", w->list_path);
        return 0;
    case WS_EV_KERNEL:
        return start_kernel(w, &ev->kernel, e);
    }
    return ge_errf(e, "unknown event kind %d", (int)ev->kind);
}

/* ---- CTAs ---- */

static const char *width_suffix(unsigned size)
{
    switch (size) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

/* The mnemonic to write for in (kept or canonical), into p. */
static char *put_mnemonic(accelsim_writer *w, const ws_kernel *k, const ws_inst *in, char *p, ge_err *e)
{
    if (k->opcodes && in->opcode < k->nopcodes && k->opcodes[in->opcode]) {
        const char *m = k->opcodes[in->opcode];
        int8_t c = w->opmap[in->opcode];
        if (c == -2) {
            size_t n = strlen(m);
            c = -1;
            if (n > 0 && n <= MAX_KEPT_MNEMONIC && !strpbrk(m, " \t\r\n"))
                c = (int8_t)as_family_lookup(w->fam, m, n);
            w->opmap[in->opcode] = c;
        }
        if (c == (int)in->op)
            return put_str(p, m);
    }
    const char *c = accelsim_canonical(w->binver, (isa_op)in->op);
    if (!c) {
        ge_errf(e, "op kind %s has no SASS mnemonic for binary version %u", isa_ops[in->op].name, w->binver);
        return NULL;
    }
    p = put_str(p, c);
    return isa_is_mem((isa_op)in->op) ? put_str(p, width_suffix(in->size)) : p;
}

static char *put_addrs(char *p, uint32_t mask, const uint64_t *a)
{
    if (mask == 0)
        return put_str(p, "1 0x0 0 ");
    int first = __builtin_ctz(mask);
    uint32_t run = mask >> first;
    int n = ws_popc(mask);
    if (n >= 2 && (run & (run + 1)) == 0) { /* contiguous lanes: try base+stride */
        int64_t stride = (int64_t)(a[first + 1] - a[first]);
        int ok = stride >= INT32_MIN && stride <= INT32_MAX;
        for (int l = first + 2; ok && l < first + n; l++)
            ok = (int64_t)(a[l] - a[l - 1]) == stride;
        if (ok) {
            p = put_str(p, "1 0x");
            p = put_hex(p, a[first], 1);
            *p++ = ' ';
            p = put_sdec(p, stride);
            *p++ = ' ';
            return p;
        }
    }
    p = put_str(p, "2 0x");
    p = put_hex(p, a[first], 1);
    *p++ = ' ';
    uint64_t last = a[first];
    for (uint32_t m = mask & (mask - 1); m; m &= m - 1) {
        int l = __builtin_ctz(m);
        p = put_sdec(p, (int64_t)(a[l] - last));
        *p++ = ' ';
        last = a[l];
    }
    return p;
}

static int check_inst(const ws_cta *cta, const ws_inst *in, uint32_t wi, size_t ii, ge_err *e)
{
    const char *why = NULL;
    if (in->op >= ISA_OP_COUNT)
        why = "unknown op kind";
    else if (in->ndst > WS_MAX_DST || in->nsrc > WS_MAX_SRC)
        why = "too many registers";
    else if ((in->addr != WS_NO_ADDR) != (in->size != 0))
        why = "a memory size without addresses, or addresses without a size";
    else if (in->addr != WS_NO_ADDR && (size_t)in->addr + WS_WARP_SIZE > cta->naddr)
        why = "address index out of range";
    if (why)
        return ge_errf(e, "CTA %llu warp %u instruction %zu: %s", (unsigned long long)cta->index, wi, ii, why);
    return 0;
}

int accelsim_write_cta(accelsim_writer *w, const ws_kernel *k, const ws_cta *cta, ge_err *e)
{
    if (!w->kf)
        return ge_errf(e, "accelsim writer: a CTA before any kernel event");
    const uint32_t *id = cta->id;
    if (id[0] >= w->grid[0] || id[1] >= w->grid[1] || id[2] >= w->grid[2])
        return ge_errf(e, "CTA (%u,%u,%u) is outside the grid", id[0], id[1], id[2]);
    if (cta->nwarps > w->warps_per_cta)
        return ge_errf(e, "CTA (%u,%u,%u) has %u warps, the block only %u", id[0], id[1], id[2], cta->nwarps,
                       w->warps_per_cta);
    if (emitf(w, e, "\n#BEGIN_TB\n\nthread block = %u,%u,%u\n", id[0], id[1], id[2]))
        return -1;
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        const ws_warp *wp = &cta->warps[wi];
        if ((size_t)wp->first + wp->ninst > cta->ninst)
            return ge_errf(e, "CTA %llu warp %u: instruction range out of bounds", (unsigned long long)cta->index,
                           wi);
        if (emitf(w, e, "\nwarp = %u\ninsts = %u\n", wi, wp->ninst))
            return -1;
        for (uint32_t ii = 0; ii < wp->ninst; ii++) {
            const ws_inst *in = &cta->inst[wp->first + ii];
            if (check_inst(cta, in, wi, ii, e) || room(w, OBUF_ROOM + MAX_KEPT_MNEMONIC, e))
                return -1;
            char *p = w->obuf + w->olen;
            p = put_hex(p, in->pc, 4);
            *p++ = ' ';
            p = put_hex(p, in->mask, 8);
            *p++ = ' ';
            p = put_udec(p, in->ndst);
            *p++ = ' ';
            for (unsigned r = 0; r < in->ndst; r++) {
                *p++ = 'R';
                p = put_udec(p, in->dst[r]);
                *p++ = ' ';
            }
            if (!(p = put_mnemonic(w, k, in, p, e)))
                return -1;
            *p++ = ' ';
            p = put_udec(p, in->nsrc);
            *p++ = ' ';
            for (unsigned r = 0; r < in->nsrc; r++) {
                *p++ = 'R';
                p = put_udec(p, in->src[r]);
                *p++ = ' ';
            }
            p = put_udec(p, in->size);
            *p++ = ' ';
            if (in->size)
                p = put_addrs(p, in->mask, cta->addr + in->addr);
            if (w->write_imm || in->imm) {
                p = put_sdec(p, (int32_t)in->imm);
                *p++ = ' ';
            }
            *p++ = '\n';
            w->olen = (size_t)(p - w->obuf);
        }
    }
    return emit(w, "\n#END_TB\n", 9, e);
}

int accelsim_writer_close(accelsim_writer *w, ge_err *e)
{
    if (!w)
        return 0;
    int rc = close_kernel(w, e);
    if (fclose(w->list) != 0 && rc == 0)
        rc = ge_errf(e, "%s: write error: %s", w->list_path, strerror(errno));
    w->list = NULL;
    writer_free(w);
    return rc;
}

int accelsim_write_stream(ws_source *src, const char *dir, int xz, ge_err *e)
{
    accelsim_writer *w = accelsim_writer_open(dir, xz, e);
    if (!w)
        return -1;
    ws_event ev;
    ws_cta cta;
    ws_cta_init(&cta);
    int r;
    while ((r = ws_next_event(src, &ev, e)) == 1) {
        if (accelsim_write_event(w, &ev, e)) {
            r = -1;
            break;
        }
        if (ev.kind != WS_EV_KERNEL)
            continue;
        while ((r = ws_next_cta(src, &cta, e)) == 1) {
            const ws_kernel *k = accelsim_is_source(src) ? accelsim_kernel(src) : &ev.kernel;
            if (accelsim_write_cta(w, k, &cta, e)) {
                r = -1;
                break;
            }
        }
        if (r < 0)
            break;
    }
    ws_cta_free(&cta);
    if (r < 0) {
        accelsim_writer_close(w, NULL);
        return -1;
    }
    return accelsim_writer_close(w, e);
}
