/*
 * table.h - readable text tables and CSV from the same rows.
 *
 * A table is a list of column names and rows of cell strings.  It is
 * printed either aligned for people (right-aligned numbers) or as CSV
 * (RFC 4180 quoting) for notebooks.  Cells are copied in, so callers can
 * format into a scratch buffer.
 */
#ifndef GE_TABLE_H
#define GE_TABLE_H

#include <stdio.h>

#include "err.h"

typedef struct table {
    int ncols;
    char **cols;
    char **cells; /* nrows * ncols */
    int nrows;
    size_t cap;
} table;

int table_init(table *t, int ncols, const char *const *cols, ge_err *e);
void table_free(table *t);
/* Add a row; then fill it with table_set/table_setf. */
int table_add_row(table *t, ge_err *e);
int table_set(table *t, int col, const char *text);
int table_setf(table *t, int col, const char *fmt, ...) GE_PRINTF(3, 4);
void table_print(const table *t, FILE *f);
void table_print_csv(const table *t, FILE *f);
/* Write one CSV field with quoting where needed. */
void csv_field(FILE *f, const char *s);

#endif
