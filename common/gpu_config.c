/*
 * gpu_config.c - loading, validating and writing GPU configs (libconfig).
 *
 * Loading walks the schema (gpu_config_schema.c): each key is looked up,
 * type- and range-checked, and stored.  Then every setting in the file is
 * walked once more so that a key the schema does not know is an error with
 * its line (a typo must never silently fall back to a default).  Finally the
 * cross-field rules in check_consistency() run, reporting the line of the
 * key at fault.  The one list-valued key, power.dvfs, is handled by hand.
 */
#include "gpu_config.h"

#include <libconfig.h>
#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DVFS_PATH "power.dvfs"

typedef struct {
    const char *file;
    int *lines; /* per schema key, 0 if unknown */
} where_ctx;

static int key_index(const gcfg_key *k)
{
    size_t n;
    const gcfg_key *all = gcfg_keys(&n);
    return (int)(k - all);
}

static int errk(const where_ctx *w, const char *path, ge_err *e, const char *fmt, ...) GE_PRINTF(4, 5);
static int errk(const where_ctx *w, const char *path, ge_err *e, const char *fmt, ...)
{
    char msg[GE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0;
    const gcfg_key *k = gcfg_find_key(path);
    if (w && w->lines && k)
        line = w->lines[key_index(k)];
    const char *file = (w && w->file) ? w->file : "config";
    if (line > 0)
        return ge_errf(e, "%s:%d: %s: %s", file, line, path, msg);
    return ge_errf(e, "%s: %s: %s", file, path, msg);
}

static void *field(gpu_config *cfg, const gcfg_key *k) { return (char *)cfg + k->offset; }
static const void *cfield(const gpu_config *cfg, const gcfg_key *k) { return (const char *)cfg + k->offset; }

double gcfg_get_num(const gpu_config *cfg, const gcfg_key *k)
{
    if (k->type == GCFG_INT)
        return *(const uint32_t *)cfield(cfg, k);
    if (k->type == GCFG_FLOAT)
        return *(const double *)cfield(cfg, k);
    return 0;
}

const char *gcfg_get_str(const gpu_config *cfg, const gcfg_key *k)
{
    return k->type == GCFG_STRING ? (const char *)cfield(cfg, k) : NULL;
}

static int choice_ok(const char *choices, const char *v)
{
    if (!choices)
        return 1;
    size_t n = strlen(v);
    const char *p = choices;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, v, n) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

/* Store a number or string into the field, with range/choice checks. */
static int store_num(gpu_config *cfg, const gcfg_key *k, double v, const where_ctx *w, ge_err *e)
{
    if (!isfinite(v) || v < k->min || v > k->max)
        return errk(w, k->path, e, "value %g out of range [%g, %g] (%s)", v, k->min, k->max, k->help);
    if (k->type == GCFG_INT) {
        if (v != floor(v))
            return errk(w, k->path, e, "expected an integer, got %g", v);
        *(uint32_t *)field(cfg, k) = (uint32_t)v;
    } else {
        *(double *)field(cfg, k) = v;
    }
    return 0;
}

static int store_str(gpu_config *cfg, const gcfg_key *k, const char *v, const where_ctx *w, ge_err *e)
{
    if (!choice_ok(k->choices, v))
        return errk(w, k->path, e, "'%s' is not one of %s", v, k->choices);
    size_t cap = strcmp(k->path, "name") == 0 ? sizeof cfg->name : GCFG_NAME_MAX;
    if (strlen(v) >= cap)
        return errk(w, k->path, e, "string longer than %zu characters", cap - 1);
    strcpy(field(cfg, k), v);
    return 0;
}

int gcfg_set(gpu_config *cfg, const char *path, const char *value, ge_err *e)
{
    const gcfg_key *k = gcfg_find_key(path);
    if (!k)
        return ge_errf(e, "unknown config key '%s'", path);
    if (k->type == GCFG_STRING)
        return store_str(cfg, k, value, NULL, e);
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end)
        return ge_errf(e, "%s: '%s' is not a number", path, value);
    return store_num(cfg, k, v, NULL, e);
}

/* The cache group a key belongs to, or NULL. */
static gcfg_cache *cache_of(gpu_config *cfg, const char *path, const char **leaf)
{
    static const struct {
        const char *pre;
        size_t off;
    } groups[] = {{"l1d.", offsetof(gpu_config, l1d)}, {"l1i.", offsetof(gpu_config, l1i)},
                  {"l1c.", offsetof(gpu_config, l1c)}, {"l1t.", offsetof(gpu_config, l1t)},
                  {"l2.", offsetof(gpu_config, l2.cache)}};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        size_t n = strlen(groups[i].pre);
        if (strncmp(path, groups[i].pre, n) == 0) {
            *leaf = path + n;
            return (gcfg_cache *)((char *)cfg + groups[i].off);
        }
    }
    return NULL;
}

int gcfg_apply(gpu_config *cfg, const char *path, const char *value, ge_err *e)
{
    if (gcfg_set(cfg, path, value, e))
        return -1;
    const char *leaf;
    gcfg_cache *c = cache_of(cfg, path, &leaf);
    if (!c || !c->line_bytes)
        return 0;
    if (strcmp(leaf, "size_bytes") == 0) {
        uint64_t per_way = (uint64_t)c->sets * c->line_bytes;
        if (per_way == 0 || c->size_bytes % per_way)
            return ge_errf(e, "%s = %s is not a whole number of ways of %u sets x %u B lines", path, value,
                           c->sets, c->line_bytes);
        c->ways = (uint32_t)(c->size_bytes / per_way);
    } else if (strcmp(leaf, "ways") == 0 || strcmp(leaf, "sets") == 0) {
        uint64_t size = (uint64_t)c->sets * c->ways * c->line_bytes;
        if (size > UINT32_MAX)
            return ge_errf(e, "%s = %s makes the cache larger than 4 GB", path, value);
        c->size_bytes = (uint32_t)size;
    }
    return 0;
}

static void set_defaults(gpu_config *cfg)
{
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    for (size_t i = 0; i < n; i++) {
        if (!ks[i].optional)
            continue;
        if (ks[i].type == GCFG_STRING)
            strcpy(field(cfg, &ks[i]), ks[i].sdef);
        else if (ks[i].type == GCFG_INT)
            *(uint32_t *)field(cfg, &ks[i]) = (uint32_t)ks[i].def;
        else
            *(double *)field(cfg, &ks[i]) = ks[i].def;
    }
}

static const char *type_name(int t)
{
    switch (t) {
    case CONFIG_TYPE_GROUP: return "group";
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "integer";
    case CONFIG_TYPE_FLOAT: return "float";
    case CONFIG_TYPE_STRING: return "string";
    case CONFIG_TYPE_BOOL: return "boolean";
    case CONFIG_TYPE_ARRAY: return "array";
    case CONFIG_TYPE_LIST: return "list";
    default: return "unknown";
    }
}

static int read_key(config_t *lc, gpu_config *cfg, const gcfg_key *k, where_ctx *w, ge_err *e)
{
    config_setting_t *s = config_lookup(lc, k->path);
    if (!s) {
        if (k->optional)
            return 0;
        return errk(w, k->path, e, "required key is missing (%s)", k->help);
    }
    w->lines[key_index(k)] = config_setting_source_line(s);
    int t = config_setting_type(s);
    if (k->type == GCFG_STRING) {
        if (t != CONFIG_TYPE_STRING)
            return errk(w, k->path, e, "expected a string, got %s", type_name(t));
        return store_str(cfg, k, config_setting_get_string(s), w, e);
    }
    double v;
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        v = (double)config_setting_get_int64(s);
    else if (t == CONFIG_TYPE_FLOAT && k->type == GCFG_FLOAT)
        v = config_setting_get_float(s);
    else
        return errk(w, k->path, e, "expected %s, got %s", k->type == GCFG_INT ? "an integer" : "a number",
                    type_name(t));
    return store_num(cfg, k, v, w, e);
}

/* A number member of a group, integer or float; 0 on success. */
static int lookup_number(config_setting_t *g, const char *name, double *v)
{
    config_setting_t *m = config_setting_get_member(g, name);
    if (!m)
        return -1;
    int t = config_setting_type(m);
    if (t == CONFIG_TYPE_FLOAT)
        *v = config_setting_get_float(m);
    else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        *v = (double)config_setting_get_int64(m);
    else
        return -1;
    return 0;
}

static int read_dvfs(config_t *lc, gpu_config *cfg, const where_ctx *w, ge_err *e)
{
    config_setting_t *s = config_lookup(lc, DVFS_PATH);
    if (!s) {
        cfg->power.ndvfs = 1;
        cfg->power.dvfs[0].freq_mhz = cfg->gpu.core_clock_mhz;
        cfg->power.dvfs[0].vdd_v = cfg->power.vdd_v;
        return 0;
    }
    int line = config_setting_source_line(s);
    if (!config_setting_is_list(s))
        return ge_errf(e, "%s:%d: %s: expected a list of { freq_mhz = ..; vdd_v = ..; }", w->file, line, DVFS_PATH);
    int n = config_setting_length(s);
    if (n < 1 || n > GCFG_MAX_DVFS)
        return ge_errf(e, "%s:%d: %s: needs 1 to %d points, has %d", w->file, line, DVFS_PATH, GCFG_MAX_DVFS, n);
    for (int i = 0; i < n; i++) {
        config_setting_t *p = config_setting_get_elem(s, (unsigned)i);
        int pl = config_setting_source_line(p);
        double f, v;
        if (!config_setting_is_group(p) || config_setting_length(p) != 2 || lookup_number(p, "freq_mhz", &f) ||
            lookup_number(p, "vdd_v", &v))
            return ge_errf(e, "%s:%d: %s[%d]: expected { freq_mhz = <float>; vdd_v = <float>; }", w->file, pl,
                           DVFS_PATH, i);
        if (!(f >= 50 && f <= 5000) || !(v >= 0.3 && v <= 2.0))
            return ge_errf(e, "%s:%d: %s[%d]: point (%g MHz, %g V) out of range [50, 5000] MHz, [0.3, 2] V",
                           w->file, pl, DVFS_PATH, i, f, v);
        if (i > 0 && f <= cfg->power.dvfs[i - 1].freq_mhz)
            return ge_errf(e, "%s:%d: %s[%d]: frequencies must increase", w->file, pl, DVFS_PATH, i);
        cfg->power.dvfs[i].freq_mhz = f;
        cfg->power.dvfs[i].vdd_v = v;
    }
    cfg->power.ndvfs = (uint32_t)n;
    return 0;
}

/* Every scalar in the file must be a schema key (or inside power.dvfs). */
static int check_unknown(config_setting_t *s, char *path, size_t cap, const where_ctx *w, ge_err *e)
{
    size_t len = strlen(path);
    const char *nm = config_setting_name(s);
    if (nm) {
        if (len + strlen(nm) + 2 > cap)
            return ge_errf(e, "%s:%d: key path too long", w->file, config_setting_source_line(s));
        if (len)
            strcat(path, ".");
        strcat(path, nm);
    }
    int rc = 0;
    if (strcmp(path, DVFS_PATH) == 0) {
        /* handled by read_dvfs */
    } else if (config_setting_is_group(s)) {
        int n = config_setting_length(s);
        for (int i = 0; i < n && rc == 0; i++)
            rc = check_unknown(config_setting_get_elem(s, (unsigned)i), path, cap, w, e);
        if (n == 0 && *path && !gcfg_find_key(path))
            rc = ge_errf(e, "%s:%d: %s: empty group", w->file, config_setting_source_line(s), path);
    } else if (!gcfg_find_key(path)) {
        rc = ge_errf(e, "%s:%d: %s: unknown key", w->file, config_setting_source_line(s), path);
    }
    path[len] = 0;
    return rc;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static int check_cache(const char *pre, const gcfg_cache *c, int allow_absent, const where_ctx *w, ge_err *e)
{
    char p[64];
#define P(suffix) (snprintf(p, sizeof p, "%s.%s", pre, suffix), p)
    if (c->size_bytes == 0) {
        if (!allow_absent)
            return errk(w, P("size_bytes"), e, "must be > 0");
        return 0;
    }
    if (!c->sets || !c->ways || !c->line_bytes)
        return errk(w, P("sets"), e, "sets, ways and line_bytes must be > 0 for a present cache");
    if ((uint64_t)c->sets * c->ways * c->line_bytes != c->size_bytes)
        return errk(w, P("size_bytes"), e, "%u != sets %u x ways %u x line_bytes %u = %llu", c->size_bytes,
                    c->sets, c->ways, c->line_bytes, (unsigned long long)c->sets * c->ways * c->line_bytes);
    if (!is_pow2(c->line_bytes))
        return errk(w, P("line_bytes"), e, "%u is not a power of two", c->line_bytes);
    if (!c->sector_bytes || !is_pow2(c->sector_bytes) || c->sector_bytes > c->line_bytes)
        return errk(w, P("sector_bytes"), e, "%u must be a power of two dividing line_bytes %u", c->sector_bytes,
                    c->line_bytes);
    if (c->line_bytes / c->sector_bytes > 32)
        return errk(w, P("sector_bytes"), e, "at most 32 sectors per line");
    if (!c->banks)
        return errk(w, P("banks"), e, "must be > 0");
    if (!c->mshr_entries && strcmp(c->write_policy, "read_only") != 0 && strcmp(pre, "l1i") != 0)
        return errk(w, P("mshr_entries"), e, "must be > 0");
#undef P
    return 0;
}

static int check_consistency(const gpu_config *c, const where_ctx *w, ge_err *e)
{
    if (c->sm.max_threads > c->sm.max_warps * c->sm.warp_size)
        return errk(w, "sm.max_threads", e, "%u exceeds max_warps %u x warp_size %u", c->sm.max_threads,
                    c->sm.max_warps, c->sm.warp_size);
    if (c->sm.max_threads % c->sm.warp_size)
        return errk(w, "sm.max_threads", e, "%u is not a multiple of the warp size", c->sm.max_threads);
    if (c->sm.registers % c->sm.reg_alloc_unit)
        return errk(w, "sm.reg_alloc_unit", e, "%u does not divide sm.registers %u", c->sm.reg_alloc_unit,
                    c->sm.registers);
    if (c->sm.shared_per_cta_bytes > c->sm.shared_bytes)
        return errk(w, "sm.shared_per_cta_bytes", e, "%u exceeds sm.shared_bytes %u", c->sm.shared_per_cta_bytes,
                    c->sm.shared_bytes);
    if (c->sm.rf_banks % c->sm.schedulers)
        return errk(w, "sm.rf_banks", e, "%u is not a multiple of sm.schedulers %u", c->sm.rf_banks,
                    c->sm.schedulers);
    static const isa_unit needed[] = {ISA_UNIT_INT, ISA_UNIT_FP32, ISA_UNIT_SFU, ISA_UNIT_LDST, ISA_UNIT_BRANCH};
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++) {
        char p[48];
        snprintf(p, sizeof p, "units.%s", isa_unit_names[needed[i]]);
        if (c->units[needed[i]] == 0)
            return errk(w, p, e, "must be > 0");
    }
    for (int u = 0; u < ISA_UNIT_COUNT; u++) {
        char p[48];
        snprintf(p, sizeof p, "units.%s", isa_unit_names[u]);
        if (c->units[u] % c->sm.schedulers && c->units[u] >= c->sm.schedulers)
            return errk(w, p, e, "%u units cannot be split evenly among %u schedulers", c->units[u],
                        c->sm.schedulers);
    }
    if (check_cache("l1d", &c->l1d, 1, w, e) || check_cache("l1i", &c->l1i, 0, w, e) ||
        check_cache("l1c", &c->l1c, 0, w, e) || check_cache("l1t", &c->l1t, 1, w, e) ||
        check_cache("l2", &c->l2.cache, 0, w, e))
        return -1;
    if (!is_pow2(c->sm.shared_banks))
        return errk(w, "sm.shared_banks", e, "%u is not a power of two", c->sm.shared_banks);
    if (c->dram.banks % c->dram.bank_groups)
        return errk(w, "dram.bank_groups", e, "%u does not divide dram.banks %u", c->dram.bank_groups,
                    c->dram.banks);
    if (c->dram.tRC < c->dram.tRAS)
        return errk(w, "dram.tRC", e, "%u is less than tRAS %u", c->dram.tRC, c->dram.tRAS);
    if (c->dram.tCCDL < c->dram.tCCD)
        return errk(w, "dram.tCCDL", e, "%u is less than tCCD %u", c->dram.tCCDL, c->dram.tCCD);
    if ((c->dram.tRFC == 0) != (c->dram.tREFI == 0))
        return errk(w, "dram.tREFI", e, "tRFC and tREFI must both be set or both be 0");
    if (!is_pow2(c->dram.row_bytes))
        return errk(w, "dram.row_bytes", e, "%u is not a power of two", c->dram.row_bytes);
    if (c->l2.slices % c->dram.channels)
        return errk(w, "l2.slices", e, "%u is not a multiple of dram.channels %u", c->l2.slices,
                    c->dram.channels);
    if (c->power.constant_w >= c->power.tdp_w)
        return errk(w, "power.constant_w", e, "%g W is not below the TDP %g W", c->power.constant_w,
                    c->power.tdp_w);
    /* The nominal clock must be one of the DVFS points' range. */
    const gcfg_dvfs *d = c->power.dvfs;
    if (c->power.ndvfs && (c->gpu.core_clock_mhz < d[0].freq_mhz - 1e-6 ||
                           c->gpu.core_clock_mhz > d[c->power.ndvfs - 1].freq_mhz + 1e-6))
        return errk(w, "gpu.core_clock_mhz", e, "%g MHz is outside the power.dvfs range [%g, %g]",
                    c->gpu.core_clock_mhz, d[0].freq_mhz, d[c->power.ndvfs - 1].freq_mhz);
    return 0;
}

int gcfg_validate(const gpu_config *cfg, ge_err *e)
{
    where_ctx w = {cfg->source[0] ? cfg->source : "config", NULL};
    return check_consistency(cfg, &w, e);
}

static int load(config_t *lc, int ok, const char *name, gpu_config *cfg, ge_err *e)
{
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    int lines[512] = {0};
    if (n > sizeof lines / sizeof *lines)
        return ge_errf(e, "internal: schema too large");
    if (!ok) {
        const char *f = config_error_file(lc);
        return ge_errf(e, "%s:%d: syntax error: %s", f ? f : name, config_error_line(lc), config_error_text(lc));
    }
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->source, sizeof cfg->source, "%s", name);
    set_defaults(cfg);
    where_ctx w = {name, lines};
    for (size_t i = 0; i < n; i++)
        if (read_key(lc, cfg, &ks[i], &w, e))
            return -1;
    char path[256] = "";
    if (check_unknown(config_root_setting(lc), path, sizeof path, &w, e))
        return -1;
    if (read_dvfs(lc, cfg, &w, e))
        return -1;
    return check_consistency(cfg, &w, e);
}

/* Messages quote values from the file, which may hold newlines: keep the
 * error on one line. */
static int one_line(int rc, ge_err *e)
{
    if (rc && e)
        for (char *p = e->msg; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = ' ';
    return rc;
}

int gcfg_load(const char *path, gpu_config *cfg, ge_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ge_errf(e, "%s: cannot open config file", path);
    fclose(f);
    config_t lc;
    config_init(&lc);
    int ok = config_read_file(&lc, path) == CONFIG_TRUE;
    int rc = load(&lc, ok, path, cfg, e);
    config_destroy(&lc);
    return one_line(rc, e);
}

int gcfg_load_string(const char *text, const char *name, gpu_config *cfg, ge_err *e)
{
    config_t lc;
    config_init(&lc);
    int ok = config_read_string(&lc, text) == CONFIG_TRUE;
    int rc = load(&lc, ok, name, cfg, e);
    config_destroy(&lc);
    return one_line(rc, e);
}

/* ---- writing ---- */

/* Floats always get a decimal point so libconfig reads them back as floats. */
static void fmt_float(char *buf, size_t cap, double v)
{
    /* the shortest %g that reads back exactly, so load(write(cfg)) == cfg */
    for (int prec = 10; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".eEn"))
        strncat(buf, ".0", cap - strlen(buf) - 1);
}

/* Number of leading path components two dotted group paths share. */
static int shared_depth(char comps_a[][32], int na, char comps_b[][32], int nb)
{
    int d = 0;
    while (d < na && d < nb && strcmp(comps_a[d], comps_b[d]) == 0)
        d++;
    return d;
}

static int split_group(const char *path, char comps[][32], int max)
{
    int n = 0;
    const char *p = path;
    const char *dot;
    while ((dot = strchr(p, '.')) != NULL && n < max) {
        snprintf(comps[n++], 32, "%.*s", (int)(dot - p), p);
        p = dot + 1;
    }
    return n;
}

/* A libconfig string literal: quotes, backslashes and control characters escaped. */
static void quote_str(char *buf, size_t cap, const char *s)
{
    size_t n = 0;
    buf[n++] = '"';
    for (; *s && n + 6 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", c);
            continue;
        }
        if (c == '"' || c == '\\')
            buf[n++] = '\\';
        buf[n++] = (char)c;
    }
    buf[n++] = '"';
    buf[n] = 0;
}

void gcfg_write(const gpu_config *cfg, FILE *out)
{
    size_t n;
    const gcfg_key *ks = gcfg_keys(&n);
    char open[8][32];
    int nopen = 0;
    fprintf(out, "# Resolved gpuest GPU configuration (source: %s)\n", cfg->source[0] ? cfg->source : "-");
    for (size_t i = 0; i < n; i++) {
        const gcfg_key *k = &ks[i];
        char comps[8][32];
        int nc = split_group(k->path, comps, 8);
        int keep = shared_depth(open, nopen, comps, nc);
        while (nopen > keep)
            fprintf(out, "%*s};\n", 2 * --nopen, "");
        while (nopen < nc) {
            fprintf(out, "%*s%s = {\n", 2 * nopen, "", comps[nopen]);
            strcpy(open[nopen], comps[nopen]);
            nopen++;
        }
        const char *leaf = strrchr(k->path, '.');
        leaf = leaf ? leaf + 1 : k->path;
        char val[600];
        if (k->type == GCFG_STRING)
            quote_str(val, sizeof val, gcfg_get_str(cfg, k));
        else if (k->type == GCFG_INT)
            snprintf(val, sizeof val, "%.0f", gcfg_get_num(cfg, k));
        else
            fmt_float(val, sizeof val, gcfg_get_num(cfg, k));
        fprintf(out, "%*s%s = %s;  # %s\n", 2 * nopen, "", leaf, val, k->help);
        if (strcmp(k->path, "power.lane_static") == 0) {
            fprintf(out, "%*sdvfs = (", 2 * nopen, "");
            for (uint32_t j = 0; j < cfg->power.ndvfs; j++) {
                char f[40], v[40];
                fmt_float(f, sizeof f, cfg->power.dvfs[j].freq_mhz);
                fmt_float(v, sizeof v, cfg->power.dvfs[j].vdd_v);
                fprintf(out, "%s{ freq_mhz = %s; vdd_v = %s; }", j ? ", " : "", f, v);
            }
            fprintf(out, ");  # voltage/frequency points, MHz and V\n");
        }
    }
    while (nopen > 0)
        fprintf(out, "%*s};\n", 2 * --nopen, "");
}

double gcfg_dram_bandwidth_gbs(const gpu_config *c)
{
    /* channels x bytes per transfer x transfers per second */
    return c->dram.channels * (c->dram.bus_bits / 8.0) * c->dram.data_rate * c->gpu.dram_clock_mhz * 1e6 / 1e9;
}

void gcfg_code_scale(const gpu_config *c, uint32_t binary_version, uint32_t *num, uint32_t *den)
{
    *den = binary_version && binary_version < 70 ? 8 : 16;
    *num = c->sm.inst_bytes ? c->sm.inst_bytes : (c->gpu.compute_capability < 70 ? 8 : 16);
}

double gcfg_fp32_peak_gflops(const gpu_config *c)
{
    /* A unit retires one warp instruction (32 lanes) every ii cycles; FMA = 2 flops. */
    double lanes_per_cycle = c->units[ISA_UNIT_FP32] * 32.0 / c->lat[ISA_LAT_FP32].ii;
    return c->gpu.sm_count * lanes_per_cycle * 2.0 * c->gpu.core_clock_mhz / 1e3;
}
