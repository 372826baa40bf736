/*
 * as_input.c - line input for trace files: plain or xz, file or memory.
 *
 * Design: one 1 MiB window of text.  A line is found with memchr and handed
 * out in place (its '\n' overwritten with NUL), so the tokenizer in
 * as_parse.c works on a C string without copying.  When no newline is left
 * in the window the unread tail is moved to the front and the window is
 * refilled with read(2) (plain) or liblzma (xz).  So the cost per byte is a
 * memchr, an occasional memmove of less than one line, and the read.
 *
 * xz is recognised by its magic bytes, not by the file name, so a renamed
 * file still works.  Decoding uses liblzma's stream decoder with a memory
 * limit (a corrupt header cannot make it allocate gigabytes).
 *
 * Offsets are offsets in the text (after decompression).  Seeking in plain
 * data is an lseek; in xz data it is decoding forward, restarting from the
 * beginning when the target lies behind the current position (xz files as
 * written by the tracer are one block, so there is nothing to seek to).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "as_internal.h"

#define ZBUF_SIZE (1u << 16)

static const uint8_t xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

static char *as_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Raw (possibly compressed) bytes from the file or memory: n, 0 = EOF, -1. */
static ssize_t raw_read(as_in *in, void *dst, size_t n, ge_err *e)
{
    if (in->fd < 0) {
        size_t left = in->memlen - in->mempos;
        if (n > left)
            n = left;
        memcpy(dst, in->mem + in->mempos, n);
        in->mempos += n;
        return (ssize_t)n;
    }
    for (;;) {
        ssize_t got = read(in->fd, dst, n);
        if (got >= 0)
            return got;
        if (errno != EINTR)
            return ge_errf(e, "%s: read error: %s", in->path, strerror(errno));
    }
}

static int raw_rewind(as_in *in, ge_err *e)
{
    if (in->fd < 0) {
        in->mempos = 0;
        return 0;
    }
    if (lseek(in->fd, 0, SEEK_SET) < 0)
        return ge_errf(e, "%s: cannot seek: %s", in->path, strerror(errno));
    return 0;
}

/* (Re)start the xz decoder.  Memory input is given to it whole. */
static int lz_start(as_in *in, ge_err *e)
{
    if (in->lz_live)
        lzma_end(&in->lz);
    lzma_stream init = LZMA_STREAM_INIT;
    in->lz = init;
    if (lzma_stream_decoder(&in->lz, AS_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
        return ge_errf(e, "%s: cannot start the xz decoder", in->path);
    in->lz_live = 1;
    in->zeof = 0;
    if (in->fd < 0) {
        in->lz.next_in = in->mem;
        in->lz.avail_in = in->memlen;
        in->mempos = in->memlen;
        in->zeof = 1;
    }
    return 0;
}

static const char *lz_message(lzma_ret r)
{
    switch (r) {
    case LZMA_FORMAT_ERROR: return "not xz data";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "corrupt xz data";
    case LZMA_BUF_ERROR: return "truncated xz data";
    case LZMA_MEM_ERROR: return "out of memory in the xz decoder";
    case LZMA_MEMLIMIT_ERROR: return "xz data needs more memory than the 256 MiB limit";
    default: return "xz decoder error";
    }
}

/* Move the unread text to the front and add more.  Returns the number of
 * bytes added (0 at end of input) or -1. */
static ssize_t fill(as_in *in, ge_err *e)
{
    if (in->beg > 0) {
        size_t n = in->end - in->beg;
        memmove(in->buf, in->buf + in->beg, n);
        in->beg = 0;
        in->end = n;
    }
    size_t room = in->cap - 1 - in->end; /* keep one byte for a final NUL */
    if (room == 0 || in->eof)
        return 0;
    if (!in->xz) {
        ssize_t got = raw_read(in, in->buf + in->end, room, e);
        if (got < 0)
            return -1;
        if (got == 0)
            in->eof = 1;
        in->end += (size_t)got;
        return got;
    }
    size_t before = in->end;
    while (in->end == before) {
        if (in->lz.avail_in == 0 && !in->zeof) {
            ssize_t got = raw_read(in, in->zbuf, ZBUF_SIZE, e);
            if (got < 0)
                return -1;
            if (got == 0)
                in->zeof = 1;
            in->lz.next_in = in->zbuf;
            in->lz.avail_in = (size_t)got;
        }
        in->lz.next_out = (uint8_t *)in->buf + in->end;
        in->lz.avail_out = room;
        lzma_ret r = lzma_code(&in->lz, in->zeof ? LZMA_FINISH : LZMA_RUN);
        in->end = (size_t)((char *)in->lz.next_out - in->buf);
        if (r == LZMA_STREAM_END) {
            in->eof = 1;
            break;
        }
        if (r != LZMA_OK)
            return ge_errf(e, "%s: %s", in->path, lz_message(r));
    }
    return (ssize_t)(in->end - before);
}

/* Common part of the two opens: look at the first bytes to pick plain/xz.
 * Memory input is handed to the decoder (or copied) whole, without the
 * compressed-chunk buffer. */
static int start(as_in *in, ge_err *e)
{
    const uint8_t *head;
    size_t got;
    if (in->fd < 0) {
        head = in->mem;
        got = in->memlen;
    } else {
        if (!(in->zbuf = malloc(ZBUF_SIZE)))
            return ge_errf(e, "%s: out of memory", in->path);
        ssize_t n = raw_read(in, in->zbuf, ZBUF_SIZE, e);
        if (n < 0)
            return -1;
        head = in->zbuf;
        got = (size_t)n;
    }
    int xz = got >= sizeof xz_magic && memcmp(head, xz_magic, sizeof xz_magic) == 0;
    /* plain data in memory needs no more window than its own size */
    in->cap = (in->fd < 0 && !xz && in->memlen + 2 < AS_IN_BUF) ? in->memlen + 2 : AS_IN_BUF;
    if (!(in->buf = malloc(in->cap)))
        return ge_errf(e, "%s: out of memory", in->path);
    if (xz) {
        in->xz = 1;
        if (lz_start(in, e))
            return -1;
        if (in->fd >= 0) {
            in->lz.next_in = head;
            in->lz.avail_in = got;
        }
    } else {
        if (in->fd < 0) {
            got = in->memlen < in->cap - 1 ? in->memlen : in->cap - 1;
            in->mempos = got;
        }
        memcpy(in->buf, head, got);
        in->end = got;
        if (got == 0)
            in->eof = 1;
    }
    return 0;
}

static void clear(as_in *in)
{
    memset(in, 0, sizeof *in);
    in->fd = -1;
}

int as_in_open(as_in *in, const char *path, ge_err *e)
{
    clear(in);
    in->path = as_strdup(path);
    if (!in->path)
        return ge_errf(e, "out of memory");
    in->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0) {
        ge_errf(e, "%s: cannot open: %s", path, strerror(errno));
        as_in_close(in);
        return -1;
    }
    if (start(in, e)) {
        as_in_close(in);
        return -1;
    }
    return 0;
}

int as_in_open_mem(as_in *in, const void *data, size_t size, const char *name, ge_err *e)
{
    clear(in);
    in->path = as_strdup(name);
    if (!in->path)
        return ge_errf(e, "out of memory");
    in->mem = data;
    in->memlen = size;
    if (start(in, e)) {
        as_in_close(in);
        return -1;
    }
    return 0;
}

void as_in_close(as_in *in)
{
    if (in->fd >= 0)
        close(in->fd);
    if (in->lz_live)
        lzma_end(&in->lz);
    free(in->buf);
    free(in->zbuf);
    free(in->path);
    clear(in);
}

int as_in_line(as_in *in, char **line, size_t *len, ge_err *e)
{
    if (in->pushed) {
        in->pushed = 0;
        in->lineno++;
        *line = in->last;
        *len = in->last_len;
        return 1;
    }
    for (;;) {
        char *from = in->buf + in->beg + in->scan;
        char *nl = memchr(from, '\n', in->end - in->beg - in->scan);
        size_t n;
        if (nl) {
            n = (size_t)(nl - (in->buf + in->beg));
        } else if (in->eof) {
            if (in->beg == in->end)
                return 0;
            n = in->end - in->beg; /* last line without a newline */
        } else {
            in->scan = in->end - in->beg;
            if (in->beg == 0 && in->end >= in->cap - 1)
                return ge_errf(e, "%s:%llu: line longer than %u bytes", in->path,
                               (unsigned long long)in->lineno + 1, (unsigned)(in->cap - 2));
            if (fill(in, e) < 0)
                return -1;
            continue;
        }
        char *s = in->buf + in->beg;
        size_t adv = n + (nl != NULL);
        s[n] = 0; /* the newline, or the spare byte after end */
        if (n > 0 && s[n - 1] == '\r')
            s[--n] = 0;
        in->partial = nl == NULL;
        in->line_off = in->pos;
        in->pos += adv;
        in->beg += adv;
        in->scan = 0;
        in->lineno++;
        in->last = s;
        in->last_len = n;
        *line = s;
        *len = n;
        return 1;
    }
}

void as_in_unread(as_in *in)
{
    in->pushed = 1;
    in->lineno--;
}

int as_in_seek(as_in *in, uint64_t off, uint64_t lineno, ge_err *e)
{
    in->pushed = 0;
    in->scan = 0;
    if (!in->xz) {
        if (in->fd >= 0) {
            if (lseek(in->fd, (off_t)off, SEEK_SET) < 0)
                return ge_errf(e, "%s: cannot seek: %s", in->path, strerror(errno));
        } else {
            in->mempos = off < in->memlen ? (size_t)off : in->memlen;
        }
        in->beg = in->end = 0;
        in->eof = 0;
        in->pos = off;
    } else {
        if (off < in->pos) { /* behind us: decode again from the start */
            if (raw_rewind(in, e) || lz_start(in, e))
                return -1;
            in->beg = in->end = 0;
            in->eof = 0;
            in->pos = 0;
        }
        while (in->pos + (in->end - in->beg) < off) {
            in->pos += in->end - in->beg;
            in->beg = in->end;
            ssize_t got = fill(in, e);
            if (got < 0)
                return -1;
            if (got == 0 && in->beg == in->end)
                return ge_errf(e, "%s: offset %llu is past the end of the data", in->path,
                               (unsigned long long)off);
        }
        in->beg += (size_t)(off - in->pos);
        in->pos = off;
    }
    in->lineno = lineno ? lineno - 1 : 0;
    return 0;
}
