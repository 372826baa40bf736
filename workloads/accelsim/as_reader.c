/*
 * as_reader.c - an Accel-Sim trace as a ws_source.
 *
 * kernelslist.g is small, so it is parsed whole when the source opens (and
 * every kernel file it names is checked to exist, so a missing file is
 * reported up front with the kernelslist line that names it).  Kernel files
 * are opened one at a time as the stream reaches them: next_event reads and
 * validates the header, next_cta decodes one thread block into the
 * consumer's ws_cta.  Memory stays bounded by one CTA plus the read buffer.
 *
 * open_cta (random access to one CTA): on the first call for a kernel, a
 * second reader scans the kernel file once and records, for every
 * "#BEGIN_TB", its text offset and line number, keyed by the CTA's linear
 * index.  The scan only looks at the first characters of each line, so it
 * runs at memchr speed.  Each open_cta then seeks to its CTA and decodes it.
 *   - Plain files: the scan costs one pass over the file; each open_cta is
 *     an lseek plus decoding that CTA.
 *   - .xz files: the scan costs one full decompression.  A seek forward
 *     decodes and drops the text in between; a seek backward restarts the
 *     decoder from the start of the file.  So opening CTAs in increasing
 *     order costs about one decompression in total, random order up to one
 *     decompression per CTA.  Use plain files for heavy random access.
 * The second reader has its own file descriptor, so streaming and random
 * access can be mixed freely.
 *
 * Duplicate thread blocks are an error (a u64set of the CTA indexes seen).
 * CTAs the post-processor dropped because they were empty are simply absent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "as_internal.h"

typedef struct as_cta_ix {
    uint64_t index, off, line;
} as_cta_ix;

typedef struct as_source {
    ws_source base;
    as_cmd *cmds;
    size_t ncmds, next;
    uint32_t nkernels;
    as_kernel K;
    int have_kernel;
    as_in in;
    int in_open, done;
    u64set seen;
    uint64_t body_off, body_line; /* where the thread blocks of the kernel start */
    as_in rin;
    int rin_open, ix_built;
    as_cta_ix *ix;
    size_t nix, ixcap;
    uint8_t *mem; /* accelsim_open_buffer's copy */
    size_t memlen;
    char *memname;
} as_source;

static const ws_source_ops as_ops;

static char *str_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int ends_with(const char *s, size_t n, const char *suf)
{
    size_t m = strlen(suf);
    return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* ---- kernelslist.g ---- */

void as_list_free(as_cmd *cmds, size_t ncmds)
{
    for (size_t i = 0; i < ncmds; i++)
        free(cmds[i].path);
    free(cmds);
}

static int parse_memcpy(const char *s, as_cmd *c)
{
    /* after "MemcpyXtoY": ",0x<hex>,<dec>"; both must fit 64 bits */
    char *end;
    if (*s++ != ',')
        return -1;
    while (*s == ' ')
        s++;
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
        return -1;
    errno = 0;
    c->addr = strtoull(s, &end, 16);
    if (errno || end == s || *end != ',')
        return -1;
    s = end + 1;
    while (*s == ' ')
        s++;
    if (!(*s >= '0' && *s <= '9'))
        return -1;
    c->bytes = strtoull(s, &end, 10);
    if (errno)
        return -1;
    while (*end == ' ')
        end++;
    return *end == 0 ? 0 : -1;
}

int as_list_read(as_in *in, const char *dir, as_cmd **cmds, size_t *ncmds, ge_err *e)
{
    as_cmd *v = NULL;
    size_t n = 0, cap = 0;
    char *line;
    size_t len;
    int r;
    while ((r = as_in_line(in, &line, &len, e)) == 1) {
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = 0;
        char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        len -= (size_t)(t - line);
        if (*t == 0 || *t == '#')
            continue;
        if (ge_reserve((void **)&v, &cap, n + 1, sizeof *v, e))
            goto fail;
        as_cmd *c = &v[n];
        memset(c, 0, sizeof *c);
        c->line = in->lineno;
        unsigned long long ln = (unsigned long long)in->lineno;
        if (strncmp(t, "MemcpyHtoD", 10) == 0 || strncmp(t, "MemcpyDtoH", 10) == 0) {
            c->kind = t[6] == 'H' ? WS_EV_MEMCPY_H2D : WS_EV_MEMCPY_D2H;
            if (parse_memcpy(t + 10, c)) {
                ge_errf(e, "%s:%llu: expected 'MemcpyHtoD,0x<address>,<bytes>'", in->path, ln);
                goto fail;
            }
        } else if (ends_with(t, len, ".traceg") || ends_with(t, len, ".traceg.xz")) {
            c->kind = WS_EV_KERNEL;
            size_t dl = (dir && t[0] != '/') ? strlen(dir) + 1 : 0;
            if (!(c->path = malloc(dl + len + 1))) {
                ge_errf(e, "out of memory");
                goto fail;
            }
            if (dl) {
                memcpy(c->path, dir, dl - 1);
                c->path[dl - 1] = '/';
            }
            memcpy(c->path + dl, t, len + 1);
        } else if (ends_with(t, len, ".trace") || ends_with(t, len, ".trace.xz")) {
            ge_errf(e, "%s:%llu: '%.80s' is a raw NVBit trace; run Accel-Sim's post-traces-processing first",
                    in->path, ln, t);
            goto fail;
        } else {
            size_t q = len < 60 ? len : 60;
            for (size_t i = 0; i < q; i++)
                if (t[i] < 32 || t[i] > 126)
                    t[i] = '?';
            ge_errf(e, "%s:%llu: unrecognised line '%.*s' (expected MemcpyHtoD,... or a kernel-N.traceg file)",
                    in->path, ln, (int)q, t);
            goto fail;
        }
        n++;
    }
    if (r < 0)
        goto fail;
    *cmds = v;
    *ncmds = n;
    return 0;
fail:
    as_list_free(v, n);
    return -1;
}

/* ---- the source ---- */

static void close_kernel(as_source *S)
{
    if (S->in_open)
        as_in_close(&S->in);
    if (S->rin_open)
        as_in_close(&S->rin);
    S->in_open = S->rin_open = S->ix_built = 0;
    S->nix = 0;
    S->have_kernel = 0;
    S->done = 1;
    as_kernel_reset(&S->K);
    u64set_clear(&S->seen);
}

static int open_input(as_source *S, as_in *in, const char *path, ge_err *e)
{
    if (path)
        return as_in_open(in, path, e);
    return as_in_open_mem(in, S->mem, S->memlen, S->memname, e);
}

static int src_next_event(ws_source *s, ws_event *ev, ge_err *e)
{
    as_source *S = (as_source *)s;
    close_kernel(S);
    if (S->next >= S->ncmds)
        return 0;
    const as_cmd *c = &S->cmds[S->next++];
    memset(ev, 0, sizeof *ev);
    ev->kind = c->kind;
    if (c->kind != WS_EV_KERNEL) {
        ev->addr = c->addr;
        ev->bytes = c->bytes;
        return 1;
    }
    if (open_input(S, &S->in, c->path, e))
        return -1;
    S->in_open = 1;
    if (as_read_header(&S->K, &S->in, ++S->nkernels, e)) {
        close_kernel(S);
        return -1;
    }
    S->body_off = S->in.pushed ? S->in.line_off : S->in.pos;
    S->body_line = S->in.lineno + 1;
    S->have_kernel = 1;
    S->done = 0;
    ev->kernel = S->K.k;
    return 1;
}

static int src_next_cta(ws_source *s, ws_cta *cta, ge_err *e)
{
    as_source *S = (as_source *)s;
    if (!S->have_kernel || S->done)
        return 0;
    int r = as_read_cta(&S->K, &S->in, cta, e);
    if (r == 1) {
        int added = u64set_add(&S->seen, cta->index, e);
        if (added == 0)
            ge_errf(e, "%s:%llu: thread block (%u,%u,%u) appears twice", S->in.path,
                    (unsigned long long)S->in.lineno, cta->id[0], cta->id[1], cta->id[2]);
        if (added <= 0)
            r = -1;
    }
    if (r != 1)
        S->done = 1;
    return r;
}

static int ix_cmp(const void *a, const void *b)
{
    const as_cta_ix *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* One pass over the kernel's thread blocks recording where each starts. */
static int build_index(as_source *S, ge_err *e)
{
    const ws_kernel *k = &S->K.k;
    if (!S->rin_open) {
        if (open_input(S, &S->rin, S->cmds[S->next - 1].path, e))
            return -1;
        S->rin_open = 1;
    }
    if (as_in_seek(&S->rin, S->body_off, S->body_line, e))
        return -1;
    S->nix = 0;
    char *line;
    size_t len;
    int r, want_tb = 0;
    uint64_t off = 0, ln = 0;
    while ((r = as_in_line(&S->rin, &line, &len, e)) == 1) {
        if (want_tb) {
            uint32_t id[3];
            if (line[0] == 0)
                continue;
            if (as_parse_tb_line(line, id) || id[0] >= k->grid[0] || id[1] >= k->grid[1] || id[2] >= k->grid[2])
                return ge_errf(e, "%s:%llu: expected 'thread block = x,y,z' inside the grid", S->rin.path,
                               (unsigned long long)S->rin.lineno);
            if (ge_reserve((void **)&S->ix, &S->ixcap, S->nix + 1, sizeof *S->ix, e))
                return -1;
            as_cta_ix *x = &S->ix[S->nix++];
            x->index = id[0] + (uint64_t)id[1] * k->grid[0] + (uint64_t)id[2] * k->grid[0] * k->grid[1];
            x->off = off;
            x->line = ln;
            want_tb = 0;
        } else if (line[0] == '#' && strncmp(line, "#BEGIN_TB", 9) == 0) {
            off = S->rin.line_off;
            ln = S->rin.lineno;
            want_tb = 1;
        }
    }
    if (r < 0)
        return -1;
    if (S->nix > 1)
        qsort(S->ix, S->nix, sizeof *S->ix, ix_cmp);
    for (size_t i = 1; i < S->nix; i++)
        if (S->ix[i].index == S->ix[i - 1].index)
            return ge_errf(e, "%s:%llu: thread block %llu appears twice", S->rin.path,
                           (unsigned long long)S->ix[i].line, (unsigned long long)S->ix[i].index);
    S->ix_built = 1;
    return 0;
}

static int src_open_cta(ws_source *s, uint64_t index, ws_cta *cta, ge_err *e)
{
    as_source *S = (as_source *)s;
    if (!S->have_kernel)
        return ge_errf(e, "open_cta: no current kernel (call next_event first)");
    if (!S->ix_built && build_index(S, e))
        return -1;
    size_t lo = 0, hi = S->nix;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (S->ix[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == S->nix || S->ix[lo].index != index)
        return ge_errf(e, "%s: thread block %llu is not in the trace", S->K.path, (unsigned long long)index);
    if (as_in_seek(&S->rin, S->ix[lo].off, S->ix[lo].line, e))
        return -1;
    int r = as_read_cta(&S->K, &S->rin, cta, e);
    if (r == 0 || (r == 1 && cta->index != index))
        return ge_errf(e, "%s:%llu: thread block %llu changed while reading", S->K.path,
                       (unsigned long long)S->ix[lo].line, (unsigned long long)index);
    return r < 0 ? -1 : 0;
}

static void src_close(ws_source *s)
{
    as_source *S = (as_source *)s;
    close_kernel(S);
    as_kernel_free(&S->K);
    u64set_free(&S->seen);
    as_list_free(S->cmds, S->ncmds);
    free(S->ix);
    free(S->mem);
    free(S->memname);
    free(S);
}

static const ws_source_ops as_ops = {
    .name = "accelsim",
    .next_event = src_next_event,
    .next_cta = src_next_cta,
    .open_cta = src_open_cta,
    .close = src_close,
};

static as_source *new_source(ge_err *e)
{
    as_source *S = ge_calloc(1, sizeof *S, e);
    if (!S)
        return NULL;
    S->base.ops = &as_ops;
    S->done = 1;
    u64set_init(&S->seen);
    if (as_kernel_init(&S->K, e)) {
        free(S);
        return NULL;
    }
    return S;
}

static int one_kernel(as_source *S, const char *path, ge_err *e)
{
    S->cmds = ge_calloc(1, sizeof *S->cmds, e);
    if (!S->cmds)
        return -1;
    S->ncmds = 1;
    S->cmds[0].kind = WS_EV_KERNEL;
    if (path && !(S->cmds[0].path = str_dup(path)))
        return ge_errf(e, "out of memory");
    return 0;
}

int accelsim_open(const char *path, ws_source **out, ge_err *e)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) != 0)
        return ge_errf(e, "%s: no such file or directory", path);
    as_source *S = new_source(e);
    if (!S)
        return -1;
    size_t n = strlen(path);
    char *list = NULL, *dir = NULL;
    int rc = -1;
    if (!S_ISDIR(st.st_mode) && (ends_with(path, n, ".traceg") || ends_with(path, n, ".traceg.xz"))) {
        rc = one_kernel(S, path, e);
    } else {
        if (S_ISDIR(st.st_mode)) {
            dir = str_dup(path);
            list = malloc(n + sizeof "/kernelslist.g");
            if (list)
                memcpy(list, path, n), memcpy(list + n, "/kernelslist.g", sizeof "/kernelslist.g");
        } else {
            list = str_dup(path);
            dir = str_dup(path);
            if (dir) {
                char *sl = strrchr(dir, '/');
                if (sl)
                    *sl = 0;
                else
                    strcpy(dir, ".");
            }
        }
        as_in lin;
        if (!list || !dir) {
            ge_errf(e, "out of memory");
        } else if (as_in_open(&lin, list, e) == 0) {
            rc = as_list_read(&lin, dir, &S->cmds, &S->ncmds, e);
            for (size_t i = 0; rc == 0 && i < S->ncmds; i++)
                if (S->cmds[i].path && stat(S->cmds[i].path, &st) != 0)
                    rc = ge_errf(e, "%s:%llu: trace file %s does not exist", list,
                                 (unsigned long long)S->cmds[i].line, S->cmds[i].path);
            as_in_close(&lin);
        }
    }
    free(list);
    free(dir);
    if (rc) {
        src_close(&S->base);
        return -1;
    }
    *out = &S->base;
    return 0;
}

int accelsim_open_buffer(const void *data, size_t size, const char *name, ws_source **out, ge_err *e)
{
    *out = NULL;
    as_source *S = new_source(e);
    if (!S)
        return -1;
    S->mem = ge_malloc(size, e);
    S->memname = str_dup(name ? name : "<buffer>");
    if (!S->mem || !S->memname || one_kernel(S, NULL, e)) {
        if (S->mem && !S->memname)
            ge_errf(e, "out of memory");
        src_close(&S->base);
        return -1;
    }
    if (size)
        memcpy(S->mem, data, size);
    S->memlen = size;
    *out = &S->base;
    return 0;
}

int accelsim_is_source(const ws_source *s)
{
    return s && s->ops == &as_ops;
}

const ws_kernel *accelsim_kernel(ws_source *s)
{
    if (!accelsim_is_source(s))
        return NULL;
    as_source *S = (as_source *)s;
    return S->have_kernel ? &S->K.k : NULL;
}
