#include "table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int table_init(table *t, int ncols, const char *const *cols, ge_err *e)
{
    memset(t, 0, sizeof *t);
    t->cols = calloc((size_t)ncols, sizeof *t->cols);
    if (!t->cols)
        return ge_errf(e, "out of memory");
    t->ncols = ncols;
    for (int i = 0; i < ncols; i++)
        if (!(t->cols[i] = dupstr(cols[i])))
            return ge_errf(e, "out of memory");
    return 0;
}

void table_free(table *t)
{
    for (int i = 0; i < t->ncols; i++)
        free(t->cols[i]);
    for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cols);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

int table_add_row(table *t, ge_err *e)
{
    size_t need = (size_t)(t->nrows + 1) * t->ncols;
    if (ge_reserve((void **)&t->cells, &t->cap, need, sizeof *t->cells, e))
        return -1;
    memset(t->cells + (size_t)t->nrows * t->ncols, 0, (size_t)t->ncols * sizeof *t->cells);
    t->nrows++;
    return 0;
}

int table_set(table *t, int col, const char *text)
{
    if (t->nrows == 0 || col < 0 || col >= t->ncols)
        return -1;
    char **cell = &t->cells[(size_t)(t->nrows - 1) * t->ncols + col];
    free(*cell);
    *cell = dupstr(text);
    return *cell ? 0 : -1;
}

int table_setf(table *t, int col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return table_set(t, col, buf);
}

static const char *cell(const table *t, int r, int c)
{
    const char *s = t->cells[(size_t)r * t->ncols + c];
    return s ? s : "";
}

static int numeric(const char *s)
{
    if (!*s)
        return 0;
    char *end;
    strtod(s, &end);
    return *end == 0 || *end == '%' || *end == 'x';
}

void table_print(const table *t, FILE *f)
{
    size_t *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->cols[c]);
        for (int r = 0; r < t->nrows; r++)
            if (strlen(cell(t, r, c)) > w[c])
                w[c] = strlen(cell(t, r, c));
    }
    for (int c = 0; c < t->ncols; c++)
        fprintf(f, "%s%-*s", c ? "  " : "", (int)w[c], t->cols[c]);
    fputc('\n', f);
    for (int c = 0; c < t->ncols; c++) {
        fprintf(f, "%s", c ? "  " : "");
        for (size_t i = 0; i < w[c]; i++)
            fputc('-', f);
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *s = cell(t, r, c);
            if (numeric(s))
                fprintf(f, "%s%*s", c ? "  " : "", (int)w[c], s);
            else
                fprintf(f, "%s%-*s", c ? "  " : "", (int)w[c], s);
        }
        fputc('\n', f);
    }
    free(w);
}

void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void table_print_csv(const table *t, FILE *f)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, t->cols[c]);
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            csv_field(f, cell(t, r, c));
        }
        fputc('\n', f);
    }
}
