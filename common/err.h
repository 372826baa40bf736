/*
 * err.h - one-line error messages carried up the call stack.
 *
 * Every fallible function in gpuest returns an int (0 or a positive count on
 * success, -1 on failure) and, on failure, writes a single human-readable
 * line into a ge_err supplied by the caller.  Messages start with the
 * location they refer to ("file:line: ...") when there is one.  Nothing in
 * the libraries prints or exits; only cli/ decides how to report.
 */
#ifndef GE_ERR_H
#define GE_ERR_H

#include <stddef.h>

#define GE_ERR_MAX 512

typedef struct ge_err {
    char msg[GE_ERR_MAX];
} ge_err;

#if defined(__GNUC__)
#define GE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GE_PRINTF(a, b)
#endif

/* Format a message into e (if non-NULL) and return -1. */
int ge_errf(ge_err *e, const char *fmt, ...) GE_PRINTF(2, 3);

/* Prepend "prefix: " to an existing message (used to add a file name). */
int ge_err_prefix(ge_err *e, const char *fmt, ...) GE_PRINTF(2, 3);

/* Allocation helpers that never return NULL silently: they report ENOMEM into e. */
void *ge_malloc(size_t n, ge_err *e);
void *ge_calloc(size_t n, size_t size, ge_err *e);
/* Grow *pbuf so it holds at least need elements of elsize bytes; doubles capacity. */
int ge_reserve(void **pbuf, size_t *cap, size_t need, size_t elsize, ge_err *e);

#endif
