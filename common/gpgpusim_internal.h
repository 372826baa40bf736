/*
 * gpgpusim_internal.h - shared state of the GPGPU-Sim importer's three files
 * (gpgpusim_import.c: identity, SM, report; gpgpusim_import_units.c: units
 * and latencies; gpgpusim_import_mem.c: caches, DRAM, power).
 * Not a public API: use gpgpusim_import.h.
 */
#ifndef GE_GPGPUSIM_INTERNAL_H
#define GE_GPGPUSIM_INTERNAL_H

#include "gpgpusim_import.h"

typedef struct imp {
    ggs_opts opts;
    gpu_config *cfg;
    ggs_report *rep;
    ge_err *e;
    size_t nkeys;
    unsigned char *set;   /* per schema key: written from the file */
    struct ggsi_loc {     /* per schema key: the option it came from, if one */
        const char *file, *opt;
        int line;
    } *loc;
    const char *basepath; /* "configs/v100.cfg": where defaults come from */
    const char *mainfile;
    double core_mhz, dram_mhz;
} imp;

typedef struct arch_row {
    uint32_t cc_min;     /* first compute capability x10 of this row */
    const char *arch;
    const char *base;    /* shipped config used for defaults */
    uint32_t technology; /* nm, typical node of the generation */
} arch_row;

/* Append a report line (no-op without a report); -1 only on OOM. */
int ggsi_say(imp *im, ggs_kind kind, const char *fmt, ...) GE_PRINTF(3, 4);
/* Find an option and mark it consumed. */
ggs_opt *ggsi_use(imp *im, const char *name);
/* 1 and *v if present, 0 if absent, -1 if malformed. */
int ggsi_get_u32(imp *im, const char *name, uint32_t *v, ggs_opt **out);
int ggsi_key_index(const gcfg_key *k);
/* Was key written from the file? */
int ggsi_isset(const imp *im, const char *key);
/* Write a schema key (validated) and report where it came from: src is the
 * option (NULL when derived from none/several), why a short explanation. */
int ggsi_putv(imp *im, const char *key, const char *val, const ggs_opt *src, ggs_kind kind, const char *why);
int ggsi_putn(imp *im, const char *key, double v, const ggs_opt *src, ggs_kind kind, const char *why);

int ggsi_units(imp *im);
int ggsi_caches(imp *im);
int ggsi_memory(imp *im);
int ggsi_power(imp *im, const arch_row *row);

#endif
