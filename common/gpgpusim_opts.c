/*
 * gpgpusim_opts.c - the GPGPU-Sim option-file format, read strictly.
 *
 * Format (as GPGPU-Sim's option parser and the shipped configs use it):
 * white-space separated tokens; '#' outside quotes starts a comment that
 * runs to the end of the line; a double quote starts a quoted stretch that
 * may span lines and ends at the next double quote; tokens pair up as
 * "-name value".  Options may come in any order and repeat, the last one
 * wins.  Values are kept raw (a quoted DRAM timing string keeps its
 * newlines) so that later parsers can point at the exact line of a bad
 * field.
 *
 * Trade-off: GPGPU-Sim itself is lenient (sscanf accepts "12abc" as 12 and
 * a missing value silently shifts every later pair).  We are strict instead,
 * because a silently mis-read config yields a plausible but wrong GPU; every
 * malformed token is a "file:line:" error.  A value that looks like an option
 * name ("-gpgpu_...") is reported as a missing value for the same reason.
 */
#include "gpgpusim_import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages quote user text, which may hold newlines (quoted values) or
 * other control bytes: keep every message on one line. */
static int one_line(ge_err *e)
{
    if (e)
        for (char *p = e->msg; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = ' ';
    return -1;
}

typedef struct tok {
    char *s;
    int line;
} tok;

typedef struct toks {
    tok *v;
    size_t n, cap;
} toks;

static void toks_free(toks *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].s);
    free(t->v);
}

static int toks_push(toks *t, const char *s, size_t len, int line, ge_err *e)
{
    if (ge_reserve((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v, e))
        return -1;
    char *c = ge_malloc(len + 1, e);
    if (!c)
        return -1;
    memcpy(c, s, len);
    c[len] = 0;
    t->v[t->n].s = c;
    t->v[t->n].line = line;
    t->n++;
    return 0;
}

/* Split text into tokens with the line each starts on. */
static int tokenize(const char *text, size_t len, const char *file, toks *out, ge_err *e)
{
    char *buf = ge_malloc(GGS_MAX_TOKEN + 1, e);
    if (!buf)
        return -1;
    size_t blen = 0;
    int line = 1, tline = 0, in_tok = 0, quote_line = 0;
    int rc = 0;
    for (size_t i = 0; i <= len && rc == 0; i++) {
        int c = i < len ? (unsigned char)text[i] : -1;
        if (c == 0) {
            rc = ge_errf(e, "%s:%d: NUL byte in a text config (binary file?)", file, line);
            break;
        }
        if (quote_line) { /* inside "..." */
            if (c == -1) {
                rc = ge_errf(e, "%s:%d: unterminated quoted value (the quote opens here)", file, quote_line);
                break;
            }
            if (c == '"') {
                quote_line = 0;
                continue;
            }
            if (blen >= GGS_MAX_TOKEN) {
                rc = ge_errf(e, "%s:%d: value longer than %d bytes", file, tline, GGS_MAX_TOKEN);
                break;
            }
            buf[blen++] = (char)c;
            if (c == '\n')
                line++;
            continue;
        }
        int end = c == -1 || c == '#' || isspace(c);
        if (end) {
            if (in_tok) {
                rc = toks_push(out, buf, blen, tline, e);
                in_tok = 0;
                blen = 0;
            }
            if (c == '#')
                while (i + 1 < len && text[i + 1] != '\n')
                    i++;
            else if (c == '\n')
                line++;
            continue;
        }
        if (!in_tok) {
            in_tok = 1;
            tline = line;
        }
        if (c == '"') {
            quote_line = line;
            continue;
        }
        if (blen >= GGS_MAX_TOKEN) {
            rc = ge_errf(e, "%s:%d: token longer than %d bytes", file, tline, GGS_MAX_TOKEN);
            break;
        }
        buf[blen++] = (char)c;
    }
    free(buf);
    return rc;
}

static int valid_name(const char *s)
{
    if (s[0] != '-' || !s[1])
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_:.-", *p))
            return 0;
    return isalpha((unsigned char)s[1]) || s[1] == '_';
}

ggs_opt *ggs_opts_find(const ggs_opts *o, const char *name)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->v[i].name, name) == 0)
            return &o->v[i];
    return NULL;
}

int ggs_opts_parse(ggs_opts *o, const char *text, size_t len, const char *file, ge_err *e)
{
    toks t = {0};
    int rc = tokenize(text, len, file, &t, e);
    int count = 0;
    for (size_t i = 0; rc == 0 && i < t.n; i += 2) {
        tok *name = &t.v[i];
        if (!valid_name(name->s)) {
            rc = ge_errf(e, "%s:%d: expected an option (-name), got '%.60s'", file, name->line, name->s);
            break;
        }
        if (i + 1 >= t.n) {
            rc = ge_errf(e, "%s:%d: %s: missing value", file, name->line, name->s);
            break;
        }
        tok *val = &t.v[i + 1];
        if (valid_name(val->s)) {
            rc = ge_errf(e, "%s:%d: %s: missing value (the next token '%.60s' is an option)", file, name->line,
                         name->s, val->s);
            break;
        }
        ggs_opt *op = ggs_opts_find(o, name->s);
        if (op) {
            free(op->value);
            op->value = val->s;
            op->prev_line = op->line;
            op->count++;
            free(name->s);
        } else {
            if (o->n >= GGS_MAX_OPTIONS) {
                rc = ge_errf(e, "%s:%d: more than %d distinct options", file, name->line, GGS_MAX_OPTIONS);
                break;
            }
            if (ge_reserve((void **)&o->v, &o->cap, o->n + 1, sizeof *o->v, e)) {
                rc = -1;
                break;
            }
            op = &o->v[o->n++];
            memset(op, 0, sizeof *op);
            op->name = name->s;
            op->value = val->s;
            op->count = 1;
        }
        op->file = file;
        op->line = name->line;
        op->vline = val->line;
        name->s = val->s = NULL; /* owned by the option now */
        count++;
    }
    toks_free(&t);
    return rc ? one_line(e) : count;
}

int ggs_opts_parse_file(ggs_opts *o, const char *path, ge_err *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ge_errf(e, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (ge_reserve((void **)&buf, &cap, n + 65536, 1, e)) {
            free(buf);
            fclose(f);
            return -1;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n > (64u << 20)) {
            free(buf);
            fclose(f);
            return ge_errf(e, "%s: larger than 64 MiB; not a GPGPU-Sim config", path);
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return ge_errf(e, "%s: read error", path);
    }
    int rc = ggs_opts_parse(o, buf, n, path, e);
    free(buf);
    return rc;
}

void ggs_opts_free(ggs_opts *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->v[i].name);
        free(o->v[i].value);
    }
    free(o->v);
    memset(o, 0, sizeof *o);
}

int ggs_value_line(const ggs_opt *op, size_t off)
{
    int line = op->vline;
    for (size_t i = 0; i < off && op->value[i]; i++)
        if (op->value[i] == '\n')
            line++;
    return line;
}

/* Line of pointer p inside op->value, or the value's line. */
static int line_at(const ggs_opt *op, const char *p)
{
    if (p >= op->value && p <= op->value + strlen(op->value))
        return ggs_value_line(op, (size_t)(p - op->value));
    return op->vline;
}

static const char *skip_ws(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Parse an unsigned integer at s, stopping at the first non-digit; *end set. */
static int scan_u32(const ggs_opt *op, const char *s, const char **end, uint32_t *out, ge_err *e)
{
    const char *p = skip_ws(s);
    if (!isdigit((unsigned char)*p))
        return ge_errf(e, "%s:%d: %s: expected an unsigned integer at '%.30s'", op->file, line_at(op, p), op->name,
                       p);
    uint64_t v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return ge_errf(e, "%s:%d: %s: integer too large", op->file, line_at(op, p), op->name);
        p++;
    }
    *out = (uint32_t)v;
    *end = skip_ws(p);
    return 0;
}

static int scan_f64(const ggs_opt *op, const char *s, const char **end, double *out, ge_err *e)
{
    const char *p = skip_ws(s);
    char *q;
    errno = 0;
    double v = strtod(p, &q);
    if (q == p || (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+'))
        return ge_errf(e, "%s:%d: %s: expected a number at '%.30s'", op->file, line_at(op, p), op->name, p);
    if (!isfinite(v) || errno == ERANGE)
        return ge_errf(e, "%s:%d: %s: number out of range", op->file, line_at(op, p), op->name);
    *out = v;
    *end = skip_ws(q);
    return 0;
}

static int trailing(const ggs_opt *op, const char *p, ge_err *e)
{
    if (*p)
        return ge_errf(e, "%s:%d: %s: unexpected '%.30s' after the value", op->file, line_at(op, p), op->name, p);
    return 0;
}

int ggs_parse_u32(const ggs_opt *op, const char *s, uint32_t *out, ge_err *e)
{
    const char *end;
    if (scan_u32(op, s, &end, out, e) || trailing(op, end, e))
        return one_line(e);
    return 0;
}

int ggs_parse_f64(const ggs_opt *op, const char *s, double *out, ge_err *e)
{
    const char *end;
    if (scan_f64(op, s, &end, out, e) || trailing(op, end, e))
        return one_line(e);
    return 0;
}

int ggs_parse_u32_list(const ggs_opt *op, const char *s, char sep, uint32_t *out, int max, ge_err *e)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        if (n >= max) {
            ge_errf(e, "%s:%d: %s: more than %d values", op->file, line_at(op, p), op->name, max);
            return one_line(e);
        }
        if (scan_u32(op, p, &p, &out[n], e))
            return one_line(e);
        n++;
        if (*p != sep)
            break;
        p++;
    }
    return trailing(op, p, e) ? one_line(e) : n;
}

int ggs_parse_f64_list(const ggs_opt *op, const char *s, char sep, double *out, int max, ge_err *e)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        if (n >= max) {
            ge_errf(e, "%s:%d: %s: more than %d values", op->file, line_at(op, p), op->name, max);
            return one_line(e);
        }
        if (scan_f64(op, p, &p, &out[n], e))
            return one_line(e);
        n++;
        if (*p != sep)
            break;
        p++;
    }
    return trailing(op, p, e) ? one_line(e) : n;
}
