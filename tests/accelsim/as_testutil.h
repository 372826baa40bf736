/*
 * as_testutil.h - helpers for the accelsim and wstats tests: an in-memory
 * ws_source built from CTAs, a stream comparison that says where two
 * streams differ, and scratch directories/files.
 */
#ifndef GE_AS_TESTUTIL_H
#define GE_AS_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "wstream.h"

/* ---- a ws_source over events and CTAs held in memory ---- */

typedef struct vec_source vec_source;

vec_source *vec_new(void);
/* Append events; strings and opcode tables of k are copied. */
void vec_memcpy(vec_source *v, ws_event_kind kind, uint64_t addr, uint64_t bytes);
void vec_kernel(vec_source *v, const ws_kernel *k);
/* Append a deep copy of a CTA to the last kernel. */
void vec_cta(vec_source *v, const ws_cta *c);
/* A ws_source reading v from the start (v must outlive it; closing the
 * source does not free v). */
ws_source *vec_source_open(vec_source *v);
void vec_free(vec_source *v);

/* ---- comparing streams ---- */

enum {
    CMP_MNEMONICS = 1, /* mnemonic strings must match */
    CMP_TRACER = 2,    /* tracer version, nvbit version and lineinfo must match */
};
/* 0 if a and b yield the same events and CTAs; else -1 with the first
 * difference in why.  Consumes both sources. */
int ws_compare(ws_source *a, ws_source *b, int flags, char *why, size_t whylen);

/* ---- files ---- */

/* A fresh directory under $TMPDIR (or /tmp); returns a malloc'd path. */
char *tu_tmpdir(void);
/* rm -r of a directory made by tu_tmpdir (files one level deep). */
void tu_rmdir(const char *dir);
char *tu_path(const char *dir, const char *name); /* malloc'd dir/name */
int tu_write_file(const char *path, const void *data, size_t n);
/* Whole file, NUL-terminated; *n gets its size.  NULL on failure. */
char *tu_read_file(const char *path, size_t *n);

/* Count the lines of a message: an error must be exactly one line. */
int tu_one_line(const char *msg);

#endif
