/*
 * gpgpusim_import.h - reading GPGPU-Sim / Accel-Sim configuration files and
 * converting them into a gpuest gpu_config.
 *
 * Two layers, prefix ggs_:
 *   - the option reader (gpgpusim_opts.c): the "-option value" format of
 *     gpgpusim.config and trace.config, with # comments, quoted values that
 *     may span lines, options in any order and repeated (last wins), plus
 *     strict parsers for the value shapes those files use (numbers, lists,
 *     "a:b:c" tuples).  Every option remembers file and line.
 *   - the importer (gpgpusim_import.c): maps options onto the schema in
 *     gpu_config_schema.c and writes a report of what was mapped, derived,
 *     approximated, defaulted and not mapped.
 *
 * Errors are one line, "file:line: -option: message".
 */
#ifndef GE_GPGPUSIM_IMPORT_H
#define GE_GPGPUSIM_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "gpu_config.h"

/* ---- option reader ---- */

#define GGS_MAX_OPTIONS 4096   /* distinct options per import */
#define GGS_MAX_TOKEN 8192     /* bytes in one option name or value */

typedef struct ggs_opt {
    char *name;       /* with the leading '-', e.g. "-gpgpu_n_mem" */
    char *value;      /* raw value, quotes removed; may contain newlines */
    const char *file; /* file name given to ggs_opts_parse (not copied) */
    int line;         /* line of the option name */
    int vline;        /* line where the value starts */
    int count;        /* times given; the last one is kept */
    int prev_line;    /* line of the previous occurrence (count > 1) */
    int used;         /* set by the importer when it consumed the option */
} ggs_opt;

typedef struct ggs_opts {
    ggs_opt *v;
    size_t n, cap;
} ggs_opts;

/* Parse one file's text (len bytes, need not be NUL-terminated) and add its
 * options; file is used in messages and must outlive opts.  Returns the
 * number of options read, or -1 ("file:line: ..." in e). */
int ggs_opts_parse(ggs_opts *o, const char *text, size_t len, const char *file, ge_err *e);
/* Read a whole file and parse it. */
int ggs_opts_parse_file(ggs_opts *o, const char *path, ge_err *e);
void ggs_opts_free(ggs_opts *o);
/* The option of that name (with '-'), or NULL. */
ggs_opt *ggs_opts_find(const ggs_opts *o, const char *name);

/* Strict value parsers; on error "file:line: -option: message".  Leading
 * and trailing white space is ignored. */
int ggs_parse_u32(const ggs_opt *op, const char *s, uint32_t *out, ge_err *e);
int ggs_parse_f64(const ggs_opt *op, const char *s, double *out, ge_err *e);
/* A list of unsigned integers separated by sep (',' or ':'), at most max
 * items; returns the count. */
int ggs_parse_u32_list(const ggs_opt *op, const char *s, char sep, uint32_t *out, int max, ge_err *e);
int ggs_parse_f64_list(const ggs_opt *op, const char *s, char sep, double *out, int max, ge_err *e);
/* Line of byte offset off inside op->value (values may span lines). */
int ggs_value_line(const ggs_opt *op, size_t off);

/* ---- importer ---- */

typedef enum {
    GGS_MAPPED,     /* key <- option, same meaning */
    GGS_DERIVED,    /* key computed from one or more options */
    GGS_APPROX,     /* mapped, but the meaning differs; says how */
    GGS_DEFAULTED,  /* the file does not give it; value and source of the default */
    GGS_NOT_MAPPED, /* an option (or part of one) gpuest has no place for */
    GGS_NOTE,       /* anything else worth knowing (repeated options, ...) */
    GGS_KIND_COUNT
} ggs_kind;

extern const char *const ggs_kind_names[GGS_KIND_COUNT]; /* "mapped", "derived", ... */

typedef struct ggs_line {
    ggs_kind kind;
    char text[320];
} ggs_line;

typedef struct ggs_report {
    ggs_line *v;
    size_t n, cap;
} ggs_report;

void ggs_report_free(ggs_report *r);
size_t ggs_report_count(const ggs_report *r, ggs_kind kind);

/* One input file: gpgpusim.config first, then optionally trace.config
 * (later files override earlier ones, as when Accel-Sim reads both). */
typedef struct ggs_input {
    const char *name; /* used in messages */
    const char *text;
    size_t len;
} ggs_input;

/* Convert.  cfg receives a validated config that gcfg_write() writes and
 * gcfg_load() reads back unchanged (checked before returning); rep (may be
 * NULL) receives the report.  -1 with a one-line error in e. */
int ggs_import(const ggs_input *in, size_t nin, gpu_config *cfg, ggs_report *rep, ge_err *e);
/* Same from files; trace_path may be NULL. */
int ggs_import_files(const char *config_path, const char *trace_path, gpu_config *cfg, ggs_report *rep, ge_err *e);

#endif
