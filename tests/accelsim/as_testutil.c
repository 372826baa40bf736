/*
 * as_testutil.c - see as_testutil.h.  Test code: allocation failures abort.
 */
#include "as_testutil.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accelsim.h"

static void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        abort();
    return p;
}

static char *xstrdup(const char *s)
{
    if (!s)
        return NULL;
    char *d = xalloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

/* ---- vec_source ---- */

typedef struct vec_event {
    ws_event ev;
    char *name, *nvbit;
    char **opcodes;
    ws_cta *ctas;
    size_t nctas;
} vec_event;

struct vec_source {
    vec_event *evs;
    size_t nevs;
};

typedef struct vec_reader {
    ws_source base;
    vec_source *v;
    size_t next_ev, next_cta;
    int in_kernel;
} vec_reader;

vec_source *vec_new(void)
{
    return xalloc(sizeof(vec_source));
}

static vec_event *add_event(vec_source *v)
{
    v->evs = realloc(v->evs, (v->nevs + 1) * sizeof *v->evs);
    if (!v->evs)
        abort();
    vec_event *x = &v->evs[v->nevs++];
    memset(x, 0, sizeof *x);
    return x;
}

void vec_memcpy(vec_source *v, ws_event_kind kind, uint64_t addr, uint64_t bytes)
{
    vec_event *x = add_event(v);
    x->ev.kind = kind;
    x->ev.addr = addr;
    x->ev.bytes = bytes;
}

void vec_kernel(vec_source *v, const ws_kernel *k)
{
    vec_event *x = add_event(v);
    x->ev.kind = WS_EV_KERNEL;
    x->ev.kernel = *k;
    x->name = xstrdup(k->name);
    x->nvbit = xstrdup(k->nvbit_version);
    x->ev.kernel.name = x->name;
    x->ev.kernel.nvbit_version = x->nvbit;
    if (k->nopcodes) {
        x->opcodes = xalloc(k->nopcodes * sizeof *x->opcodes);
        for (uint32_t i = 0; i < k->nopcodes; i++)
            x->opcodes[i] = xstrdup(k->opcodes[i]);
    }
    x->ev.kernel.opcodes = (const char *const *)x->opcodes;
}

void vec_cta(vec_source *v, const ws_cta *c)
{
    vec_event *x = &v->evs[v->nevs - 1];
    x->ctas = realloc(x->ctas, (x->nctas + 1) * sizeof *x->ctas);
    if (!x->ctas)
        abort();
    ws_cta *d = &x->ctas[x->nctas++];
    ws_cta_init(d);
    if (ws_cta_copy(d, c, NULL))
        abort();
}

void vec_free(vec_source *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nevs; i++) {
        vec_event *x = &v->evs[i];
        for (size_t c = 0; c < x->nctas; c++)
            ws_cta_free(&x->ctas[c]);
        free(x->ctas);
        if (x->opcodes)
            for (uint32_t o = 0; o < x->ev.kernel.nopcodes; o++)
                free(x->opcodes[o]);
        free(x->opcodes);
        free(x->name);
        free(x->nvbit);
    }
    free(v->evs);
    free(v);
}

static int vr_next_event(ws_source *s, ws_event *ev, ge_err *e)
{
    (void)e;
    vec_reader *r = (vec_reader *)s;
    if (r->next_ev >= r->v->nevs)
        return 0;
    *ev = r->v->evs[r->next_ev++].ev;
    r->next_cta = 0;
    r->in_kernel = ev->kind == WS_EV_KERNEL;
    return 1;
}

static int vr_next_cta(ws_source *s, ws_cta *c, ge_err *e)
{
    vec_reader *r = (vec_reader *)s;
    if (!r->in_kernel)
        return 0;
    vec_event *x = &r->v->evs[r->next_ev - 1];
    if (r->next_cta >= x->nctas)
        return 0;
    return ws_cta_copy(c, &x->ctas[r->next_cta++], e) ? -1 : 1;
}

static int vr_open_cta(ws_source *s, uint64_t index, ws_cta *c, ge_err *e)
{
    vec_reader *r = (vec_reader *)s;
    if (!r->in_kernel)
        return ge_errf(e, "no kernel");
    vec_event *x = &r->v->evs[r->next_ev - 1];
    for (size_t i = 0; i < x->nctas; i++)
        if (x->ctas[i].index == index)
            return ws_cta_copy(c, &x->ctas[i], e);
    return ge_errf(e, "no CTA %llu", (unsigned long long)index);
}

static void vr_close(ws_source *s)
{
    free(s);
}

static const ws_source_ops vr_ops = {"vec", vr_next_event, vr_next_cta, vr_open_cta, vr_close};

ws_source *vec_source_open(vec_source *v)
{
    vec_reader *r = xalloc(sizeof *r);
    r->base.ops = &vr_ops;
    r->v = v;
    return &r->base;
}

/* ---- comparing ---- */

static int differ(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *mnem(ws_source *s, const ws_kernel *ev_k, uint16_t op)
{
    const ws_kernel *k = accelsim_is_source(s) ? accelsim_kernel(s) : ev_k;
    return (k && k->opcodes && op < k->nopcodes) ? k->opcodes[op] : NULL;
}

static int str_eq(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int cmp_kernel(const ws_kernel *a, const ws_kernel *b, int flags, char *why, size_t n)
{
    if (!str_eq(a->name, b->name))
        return differ(why, n, "kernel name '%s' vs '%s'", a->name, b->name);
    if (a->id != b->id || memcmp(a->grid, b->grid, sizeof a->grid) || memcmp(a->block, b->block, sizeof a->block))
        return differ(why, n, "kernel %u: id/grid/block differ", a->id);
    if (a->nregs != b->nregs || a->shmem_static + a->shmem_dynamic != b->shmem_static + b->shmem_dynamic ||
        a->binary_version != b->binary_version || a->stream != b->stream || a->shmem_base != b->shmem_base ||
        a->local_base != b->local_base)
        return differ(why, n, "kernel %u: nregs/shmem/binary version/stream/bases differ", a->id);
    if ((flags & CMP_TRACER) && (a->tracer_version != b->tracer_version || a->lineinfo != b->lineinfo ||
                                 !str_eq(a->nvbit_version, b->nvbit_version)))
        return differ(why, n, "kernel %u: tracer/nvbit version or lineinfo differ", a->id);
    return 0;
}

static int cmp_cta(ws_source *sa, const ws_kernel *ka, const ws_cta *a, ws_source *sb, const ws_kernel *kb,
                   const ws_cta *b, int flags, char *why, size_t n)
{
    if (memcmp(a->id, b->id, sizeof a->id) || a->index != b->index)
        return differ(why, n, "CTA index %llu vs %llu", (unsigned long long)a->index, (unsigned long long)b->index);
    if (a->nwarps != b->nwarps)
        return differ(why, n, "CTA %llu: %u vs %u warps", (unsigned long long)a->index, a->nwarps, b->nwarps);
    for (uint32_t w = 0; w < a->nwarps; w++) {
        if (a->warps[w].ninst != b->warps[w].ninst)
            return differ(why, n, "CTA %llu warp %u: %u vs %u instructions", (unsigned long long)a->index, w,
                          a->warps[w].ninst, b->warps[w].ninst);
        for (uint32_t i = 0; i < a->warps[w].ninst; i++) {
            const ws_inst *x = ws_warp_inst(a, w) + i, *y = ws_warp_inst(b, w) + i;
            const char *where = NULL;
            if (x->pc != y->pc || x->mask != y->mask || x->imm != y->imm)
                where = "pc/mask/imm";
            else if (x->op != y->op)
                where = "op kind";
            else if (x->size != y->size || (x->addr == WS_NO_ADDR) != (y->addr == WS_NO_ADDR))
                where = "size/addresses present";
            else if (x->ndst != y->ndst || x->nsrc != y->nsrc ||
                     memcmp(x->dst, y->dst, x->ndst * sizeof *x->dst) ||
                     memcmp(x->src, y->src, x->nsrc * sizeof *x->src))
                where = "registers";
            else if (x->addr != WS_NO_ADDR) {
                const uint64_t *ax = ws_inst_addr(a, x), *ay = ws_inst_addr(b, y);
                for (int l = 0; l < WS_WARP_SIZE && !where; l++)
                    if (ax[l] != ay[l])
                        where = "addresses";
            }
            if (!where && (flags & CMP_MNEMONICS) &&
                !str_eq(mnem(sa, ka, x->opcode), mnem(sb, kb, y->opcode)))
                where = "mnemonic";
            if (where)
                return differ(why, n, "CTA %llu warp %u inst %u (pc %llx): %s differ (%s / %s)",
                              (unsigned long long)a->index, w, i, (unsigned long long)x->pc, where,
                              mnem(sa, ka, x->opcode) ? mnem(sa, ka, x->opcode) : "?",
                              mnem(sb, kb, y->opcode) ? mnem(sb, kb, y->opcode) : "?");
        }
    }
    return 0;
}

int ws_compare(ws_source *a, ws_source *b, int flags, char *why, size_t n)
{
    ws_event ea, eb;
    ws_cta ca, cb;
    ge_err e;
    int rc = 0, ra, rb;
    ws_cta_init(&ca);
    ws_cta_init(&cb);
    for (int ev = 0; rc == 0; ev++) {
        ra = ws_next_event(a, &ea, &e);
        if (ra < 0) {
            rc = differ(why, n, "first stream: %s", e.msg);
            break;
        }
        rb = ws_next_event(b, &eb, &e);
        if (rb < 0) {
            rc = differ(why, n, "second stream: %s", e.msg);
            break;
        }
        if (ra != rb) {
            rc = differ(why, n, "event %d: one stream ended early", ev);
            break;
        }
        if (ra == 0)
            break;
        if (ea.kind != eb.kind) {
            rc = differ(why, n, "event %d: kinds %d vs %d", ev, ea.kind, eb.kind);
            break;
        }
        if (ea.kind != WS_EV_KERNEL) {
            if (ea.addr != eb.addr || ea.bytes != eb.bytes)
                rc = differ(why, n, "event %d: memcpy differs", ev);
            continue;
        }
        if ((rc = cmp_kernel(&ea.kernel, &eb.kernel, flags, why, n)) != 0)
            break;
        for (;;) {
            ra = ws_next_cta(a, &ca, &e);
            if (ra < 0) {
                rc = differ(why, n, "first stream: %s", e.msg);
                break;
            }
            rb = ws_next_cta(b, &cb, &e);
            if (rb < 0) {
                rc = differ(why, n, "second stream: %s", e.msg);
                break;
            }
            if (ra != rb) {
                rc = differ(why, n, "kernel %u: CTA counts differ", ea.kernel.id);
                break;
            }
            if (ra == 0)
                break;
            if ((rc = cmp_cta(a, &ea.kernel, &ca, b, &eb.kernel, &cb, flags, why, n)) != 0)
                break;
        }
    }
    ws_cta_free(&ca);
    ws_cta_free(&cb);
    return rc;
}

/* ---- files ---- */

char *tu_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/gpuest-test-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpl))
        abort();
    return xstrdup(tmpl);
}

char *tu_path(const char *dir, const char *name)
{
    char *p = xalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

void tu_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char *p = tu_path(dir, de->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

int tu_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

char *tu_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *buf = xalloc(cap + 1);
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            buf = realloc(buf, (cap *= 2) + 1);
            if (!buf)
                abort();
        }
    }
    fclose(f);
    buf[len] = 0;
    if (n)
        *n = len;
    return buf;
}

int tu_one_line(const char *msg)
{
    return msg[0] != 0 && strchr(msg, '\n') == NULL;
}
