/*
 * json.h - a small streaming JSON writer.
 *
 * Output is built by nested begin/end calls; commas and indentation are
 * handled here, strings are escaped, and non-finite numbers become null
 * (JSON has no NaN).  It writes to a FILE* and never allocates.
 */
#ifndef GE_JSON_H
#define GE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct json_w {
    FILE *f;
    int depth;
    int first[JSON_MAX_DEPTH]; /* no element written yet at this level */
    int pending_key;           /* a key was written; next value follows it */
} json_w;

void json_init(json_w *j, FILE *f);
void json_obj_begin(json_w *j);
void json_obj_end(json_w *j);
void json_arr_begin(json_w *j);
void json_arr_end(json_w *j);
void json_key(json_w *j, const char *key);
void json_str(json_w *j, const char *s);
void json_num(json_w *j, double v);
void json_int(json_w *j, int64_t v);
void json_uint(json_w *j, uint64_t v);
void json_bool(json_w *j, int v);
void json_null(json_w *j);
/* Finish the document with a newline. */
void json_end(json_w *j);

/* key + value shorthands */
static inline void json_kstr(json_w *j, const char *k, const char *v) { json_key(j, k); json_str(j, v); }
static inline void json_knum(json_w *j, const char *k, double v) { json_key(j, k); json_num(j, v); }
static inline void json_kint(json_w *j, const char *k, int64_t v) { json_key(j, k); json_int(j, v); }
static inline void json_kuint(json_w *j, const char *k, uint64_t v) { json_key(j, k); json_uint(j, v); }

#endif
