#include "json.h"

#include <inttypes.h>
#include <math.h>

void json_init(json_w *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    j->pending_key = 0;
}

static void indent(json_w *j)
{
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
}

/* Separator before a value or key at the current level. */
static void before_item(json_w *j)
{
    if (j->pending_key) {
        j->pending_key = 0;
        return;
    }
    if (j->depth == 0)
        return;
    if (!j->first[j->depth])
        fputc(',', j->f);
    j->first[j->depth] = 0;
    indent(j);
}

static void open(json_w *j, char c)
{
    before_item(j);
    fputc(c, j->f);
    if (j->depth < JSON_MAX_DEPTH - 1)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close(json_w *j, char c)
{
    int empty = j->first[j->depth];
    if (j->depth > 0)
        j->depth--;
    if (!empty)
        indent(j);
    fputc(c, j->f);
}

void json_obj_begin(json_w *j) { open(j, '{'); }
void json_obj_end(json_w *j) { close(j, '}'); }
void json_arr_begin(json_w *j) { open(j, '['); }
void json_arr_end(json_w *j) { close(j, ']'); }

static void write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_key(json_w *j, const char *key)
{
    before_item(j);
    write_escaped(j->f, key);
    fputs(": ", j->f);
    j->pending_key = 1;
}

void json_str(json_w *j, const char *s)
{
    before_item(j);
    if (s)
        write_escaped(j->f, s);
    else
        fputs("null", j->f);
}

void json_num(json_w *j, double v)
{
    before_item(j);
    if (!isfinite(v))
        fputs("null", j->f);
    else if (v == floor(v) && fabs(v) < 1e15)
        fprintf(j->f, "%.0f", v);
    else
        fprintf(j->f, "%.9g", v);
}

void json_int(json_w *j, int64_t v)
{
    before_item(j);
    fprintf(j->f, "%" PRId64, v);
}

void json_uint(json_w *j, uint64_t v)
{
    before_item(j);
    fprintf(j->f, "%" PRIu64, v);
}

void json_bool(json_w *j, int v)
{
    before_item(j);
    fputs(v ? "true" : "false", j->f);
}

void json_null(json_w *j)
{
    before_item(j);
    fputs("null", j->f);
}

void json_end(json_w *j) { fputc('\n', j->f); }
