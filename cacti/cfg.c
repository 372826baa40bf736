/*
 * cfg.c - reader for CACTI's own cache.cfg input format.
 *
 * Format (CACTI 6.5/7 distribution, cache.cfg): one setting per line,
 * "-<key> <value>" where the key is free text that may contain spaces and
 * parentheses ("-size (bytes) 4096", "-Data array cell type - \"itrs-hp\"",
 * "-Optimize ED or ED^2 (ED, ED^2, NONE): \"ED^2\"").  Values are numbers,
 * colon-separated number lists or double-quoted strings; an optional "-" or
 * ":" separates key and value.  Lines starting with "//" or "#" are
 * comments, and "//" after a value starts a trailing comment.
 *
 * Keys are matched against a table of every key of CACTI's template (the
 * longest matching key wins, and it must be followed by a separator).  Keys
 * the model uses set fields of cacti_spec; keys of features outside this
 * model (DRAM main memory, NUCA, off-chip I/O, power gating, debug output)
 * are accepted and ignored, with a warning when they ask for something the
 * model cannot do.  An unknown key is reported through the warning callback
 * with file:line.  A line that is not a comment and does not start with
 * "-", an unterminated string, a value of the wrong type or an impossible
 * value fails with CACTI_ESYNTAX / CACTI_EINVAL and a "file:line: ..."
 * message.  The parser works on a length-delimited buffer, never reads past
 * it, and bounds line length, so arbitrary bytes are safe (fuzzed in CI).
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cacti_int.h"

#define LINE_MAX_LEN 4096

enum {
    K_SIZE, K_BLOCK, K_ASSOC, K_RWP, K_ERP, K_EWP, K_SERP, K_SCHP, K_BANKS, K_TECH, K_BUS, K_TEMP,
    K_TYPE, K_TAG, K_ACCESS, K_DCELL, K_DPERI, K_TCELL, K_TPERI, K_OBJ, K_DEV, K_OPT, K_ECC, K_MODEL,
    K_WIRE, K_WIN, K_WOUT, K_PROJ, K_FORCE,
    K_IGNORE /* accepted, not modelled */
};

typedef struct {
    const char *key;
    int id;
} keydef;

static const keydef keys[] = {
    {"-size (bytes)", K_SIZE},
    {"-block size (bytes)", K_BLOCK},
    {"-associativity", K_ASSOC},
    {"-read-write port", K_RWP},
    {"-exclusive read port", K_ERP},
    {"-exclusive write port", K_EWP},
    {"-single ended read ports", K_SERP},
    {"-search port", K_SCHP},
    {"-UCA bank count", K_BANKS},
    {"-technology (u)", K_TECH},
    {"-output/input bus width", K_BUS},
    {"-operating temperature (K)", K_TEMP},
    {"-cache type", K_TYPE},
    {"-tag size (b)", K_TAG},
    {"-access mode (normal, sequential, fast)", K_ACCESS},
    {"-Data array cell type", K_DCELL},
    {"-Data array peripheral type", K_DPERI},
    {"-Tag array cell type", K_TCELL},
    {"-Tag array peripheral type", K_TPERI},
    {"-design objective (weight delay, dynamic power, leakage power, cycle time, area)", K_OBJ},
    {"-deviate (delay, dynamic power, leakage power, cycle time, area)", K_DEV},
    {"-Optimize ED or ED^2 (ED, ED^2, NONE):", K_OPT},
    {"-Add ECC", K_ECC},
    {"-Cache model (NUCA, UCA)", K_MODEL},
    {"-Wire signaling (fullswing, lowswing, default)", K_WIRE},
    {"-Wire inside mat", K_WIN},
    {"-Wire outside mat", K_WOUT},
    {"-Interconnect projection", K_PROJ},
    {"-Force cache config", K_FORCE},
    /* recognised, outside the model */
    {"-page size (bits)", K_IGNORE},
    {"-burst length", K_IGNORE},
    {"-internal prefetch width", K_IGNORE},
    {"-NUCAdesign objective (weight delay, dynamic power, leakage power, cycle time, area)", K_IGNORE},
    {"-NUCAdeviate (delay, dynamic power, leakage power, cycle time, area)", K_IGNORE},
    {"-NUCA bank count", K_IGNORE},
    {"-Core count", K_IGNORE},
    {"-Cache level (L2/L3)", K_IGNORE},
    {"-Print level (DETAILED, CONCISE)", K_IGNORE},
    {"-Print input parameters", K_IGNORE},
    {"-Ndwl", K_IGNORE},
    {"-Ndbl", K_IGNORE},
    {"-Nspd", K_IGNORE},
    {"-Ndcm", K_IGNORE},
    {"-Ndsam1", K_IGNORE},
    {"-Ndsam2", K_IGNORE},
    {"-Array Power Gating", K_IGNORE},
    {"-WL Power Gating", K_IGNORE},
    {"-CL Power Gating", K_IGNORE},
    {"-Bitline floating", K_IGNORE},
    {"-Interconnect Power Gating", K_IGNORE},
    {"-Power Gating Performance Loss", K_IGNORE},
    {"-dram_type", K_IGNORE},
    {"-io state", K_IGNORE},
    {"-addr_timing", K_IGNORE},
    {"-mem_density", K_IGNORE},
    {"-bus_freq", K_IGNORE},
    {"-duty_cycle", K_IGNORE},
    {"-activity_dq", K_IGNORE},
    {"-activity_ca", K_IGNORE},
    {"-num_dqs", K_IGNORE},
    {"-num_dq", K_IGNORE},
    {"-num_ca", K_IGNORE},
    {"-num_clk", K_IGNORE},
    {"-num_mem_dq", K_IGNORE},
    {"-mem_data_width", K_IGNORE},
    {"-rtt_value", K_IGNORE},
    {"-ron_value", K_IGNORE},
    {"-tflight_value", K_IGNORE},
    {"-num_bobs", K_IGNORE},
    {"-capacity", K_IGNORE},
    {"-num_channels_per_bob", K_IGNORE},
    {"-first metric", K_IGNORE},
    {"-second metric", K_IGNORE},
    {"-third metric", K_IGNORE},
    {"-DIMM model", K_IGNORE},
    {"-mirror_in_bob", K_IGNORE},
    {"-verbose", K_IGNORE},
};

typedef struct {
    const char *name;
    int line;
    cacti_cfg_warn_fn warn;
    void *ctx;
} pctx;

static void warnf(const pctx *p, const char *fmt, ...) CACTI_PRINTF(2, 3);
static void warnf(const pctx *p, const char *fmt, ...)
{
    if (!p->warn)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->warn(p->ctx, p->name, p->line, msg);
}

/* Extract the value after the key into val (unquoted); returns 0, or -1 on an
 * unterminated string; *quoted tells whether it was a string. */
static int take_value(const char *s, char *val, size_t vlen, int *quoted)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if ((*s == '-' || *s == ':') && (s[1] == ' ' || s[1] == '\t' || s[1] == '"' || s[1] == '\0')) {
        s++;
        while (*s == ' ' || *s == '\t')
            s++;
    }
    *quoted = 0;
    size_t n = 0;
    if (*s == '"') {
        *quoted = 1;
        s++;
        while (*s && *s != '"') {
            if (n + 1 < vlen)
                val[n++] = *s;
            s++;
        }
        if (*s != '"')
            return -1;
        val[n] = '\0';
        return 0;
    }
    while (*s && *s != ' ' && *s != '\t') {
        if (s[0] == '/' && s[1] == '/')
            break;
        if (n + 1 < vlen)
            val[n++] = *s;
        s++;
    }
    val[n] = '\0';
    return 0;
}

static cacti_status bad(const pctx *p, cacti_status st, const char *what, const char *val)
{
    return cacti_fail(st, "%s:%d: %s '%.60s'", p->name, p->line, what, val);
}

static int parse_u64(const char *v, uint64_t *out)
{
    if (!*v || *v == '-' || *v == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end)
        return -1;
    *out = x;
    return 0;
}

static int parse_dbl(const char *v, double *out)
{
    if (!*v)
        return -1;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

static int parse5(const char *v, double *out)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    char *p = buf;
    for (int i = 0; i < 5; i++) {
        char *c = strchr(p, ':');
        if (i < 4 && !c)
            return -1;
        if (c)
            *c = '\0';
        if (i == 4 && c)
            return -1;
        if (parse_dbl(p, &out[i]) || out[i] < 0)
            return -1;
        p = c ? c + 1 : p;
    }
    return 0;
}

static int flavour(const char *v, cacti_device *d)
{
    if (!strcmp(v, "itrs-hp"))
        *d = CACTI_DEV_HP;
    else if (!strcmp(v, "itrs-lstp"))
        *d = CACTI_DEV_LSTP;
    else if (!strcmp(v, "itrs-lop"))
        *d = CACTI_DEV_LOP;
    else
        return -1;
    return 0;
}

static cacti_status set_u32(const pctx *p, const char *v, uint32_t *dst, uint32_t maxv)
{
    uint64_t x;
    if (parse_u64(v, &x))
        return bad(p, CACTI_ESYNTAX, "expected a non-negative integer, got", v);
    if (x > maxv)
        return bad(p, CACTI_EINVAL, "value out of range (too large):", v);
    *dst = (uint32_t)x;
    return CACTI_OK;
}

typedef struct {
    int tag_cell, tag_peri;
    int have_tag_cell, have_tag_peri;
    int cam;            /* cache type "cam": fully associative whatever -associativity says */
} extra_t;

static cacti_status apply(const pctx *p, int id, const char *v, cacti_spec *s, extra_t *x)
{
    cacti_status st;
    uint64_t u;
    double d;
    cacti_device dev;
    switch (id) {
    case K_SIZE:
        if (parse_u64(v, &u))
            return bad(p, CACTI_ESYNTAX, "expected a size in bytes, got", v);
        if (u == 0 || u > ((uint64_t)1 << 36))
            return bad(p, CACTI_EINVAL, "impossible size", v);
        s->size_bytes = u;
        return CACTI_OK;
    case K_BLOCK:
        if ((st = set_u32(p, v, &s->line_bytes, 1u << 20)) != CACTI_OK)
            return st;
        if (!cacti_is_pow2(s->line_bytes) || s->line_bytes > 4096)
            return bad(p, CACTI_EINVAL, "block size must be a power of two up to 4096 bytes, got", v);
        return CACTI_OK;
    case K_ASSOC:
        if ((st = set_u32(p, v, &s->assoc, 1u << 20)) != CACTI_OK)
            return st;
        if (s->assoc != 0 && (!cacti_is_pow2(s->assoc) || s->assoc > 64))
            return bad(p, CACTI_EINVAL, "associativity must be 0 (fully associative) or a power of two up to 64, got", v);
        return CACTI_OK;
    case K_RWP:
        return set_u32(p, v, &s->rw_ports, 16);
    case K_ERP:
        return set_u32(p, v, &s->rd_ports, 16);
    case K_EWP:
        return set_u32(p, v, &s->wr_ports, 16);
    case K_SERP:
        return set_u32(p, v, &s->se_rd_ports, 16);
    case K_SCHP:
        return set_u32(p, v, &s->search_ports, 16);
    case K_BANKS:
        if ((st = set_u32(p, v, &s->banks, 1u << 20)) != CACTI_OK)
            return st;
        if (!cacti_is_pow2(s->banks) || s->banks > 1024)
            return bad(p, CACTI_EINVAL, "bank count must be a power of two between 1 and 1024, got", v);
        return CACTI_OK;
    case K_BUS:
        if ((st = set_u32(p, v, &s->output_bits, 1u << 24)) != CACTI_OK)
            return st;
        if (!cacti_is_pow2(s->output_bits))
            return bad(p, CACTI_EINVAL, "output/input bus width must be a power of two, got", v);
        return CACTI_OK;
    case K_TECH: {
        if (parse_dbl(v, &d) || d <= 0)
            return bad(p, CACTI_ESYNTAX, "expected a feature size in microns, got", v);
        double nm = d * 1000.0;
        const unsigned ok[] = {90, 65, 45, 32, 22, 16};
        for (int i = 0; i < 6; i++)
            if (fabs(nm - ok[i]) < 0.5) {
                s->node_nm = ok[i];
                return CACTI_OK;
            }
        return bad(p, CACTI_EINVAL, "unsupported technology (use 0.090, 0.065, 0.045, 0.032, 0.022 or 0.016):", v);
    }
    case K_TEMP:
        if (parse_dbl(v, &d))
            return bad(p, CACTI_ESYNTAX, "expected a temperature in kelvin, got", v);
        if (d < 300 || d > 400)
            return bad(p, CACTI_EINVAL, "temperature outside 300..400 K:", v);
        s->temperature_k = d;
        return CACTI_OK;
    case K_TYPE:
        if (!strcmp(v, "cache"))
            s->is_cache = 1, x->cam = 0;
        else if (!strcmp(v, "ram"))
            s->is_cache = 0, x->cam = 0;
        else if (!strcmp(v, "cam")) {
            s->is_cache = 0;
            x->cam = 1;
        } else if (!strcmp(v, "main memory"))
            return bad(p, CACTI_EINVAL, "DRAM main memory is not modelled; cache type", v);
        else
            return bad(p, CACTI_EINVAL, "unknown cache type", v);
        return CACTI_OK;
    case K_TAG:
        if (!strcmp(v, "default")) {
            s->tag_bits = 0;
            return CACTI_OK;
        }
        return set_u32(p, v, &s->tag_bits, 64);
    case K_ACCESS:
        if (!strcmp(v, "normal"))
            s->access_mode = CACTI_ACCESS_NORMAL;
        else if (!strcmp(v, "sequential"))
            s->access_mode = CACTI_ACCESS_SEQUENTIAL;
        else if (!strcmp(v, "fast"))
            s->access_mode = CACTI_ACCESS_FAST;
        else
            return bad(p, CACTI_EINVAL, "unknown access mode", v);
        return CACTI_OK;
    case K_DCELL:
    case K_DPERI:
    case K_TCELL:
    case K_TPERI:
        if (flavour(v, &dev)) {
            if (!strcmp(v, "lp-dram") || !strcmp(v, "comm-dram"))
                return bad(p, CACTI_EINVAL, "DRAM cells are not modelled:", v);
            return bad(p, CACTI_EINVAL, "unknown device type", v);
        }
        if (id == K_DCELL)
            s->cell_dev = dev;
        else if (id == K_DPERI)
            s->periph_dev = dev;
        else if (id == K_TCELL) {
            x->tag_cell = (int)dev;
            x->have_tag_cell = 1;
        } else {
            x->tag_peri = (int)dev;
            x->have_tag_peri = 1;
        }
        return CACTI_OK;
    case K_OBJ:
        if (parse5(v, s->weight))
            return bad(p, CACTI_ESYNTAX, "expected five weights a:b:c:d:e, got", v);
        return CACTI_OK;
    case K_DEV:
        if (parse5(v, s->dev_pct))
            return bad(p, CACTI_ESYNTAX, "expected five deviations a:b:c:d:e, got", v);
        return CACTI_OK;
    case K_OPT:
        if (!strcmp(v, "ED^2"))
            s->objective = CACTI_OPT_ED2;
        else if (!strcmp(v, "ED"))
            s->objective = CACTI_OPT_ED;
        else if (!strcmp(v, "NONE"))
            s->objective = CACTI_OPT_WEIGHTED;
        else
            return bad(p, CACTI_EINVAL, "optimisation must be ED, ED^2 or NONE, got", v);
        return CACTI_OK;
    case K_ECC:
        if (!strcmp(v, "true"))
            s->ecc = 1;
        else if (!strcmp(v, "false"))
            s->ecc = 0;
        else
            return bad(p, CACTI_EINVAL, "expected true or false, got", v);
        return CACTI_OK;
    case K_MODEL:
        if (strcmp(v, "UCA"))
            return bad(p, CACTI_EINVAL, "only the UCA cache model is supported, got", v);
        return CACTI_OK;
    case K_WIRE:
        if (strcmp(v, "Global_30"))
            warnf(p, "wire signaling '%.40s' is modelled as Global_30 repeated wires", v);
        return CACTI_OK;
    case K_WIN:
    case K_WOUT:
        if (strcmp(v, "semi-global"))
            warnf(p, "'%.40s' wires are modelled on the semi-global layer", v);
        return CACTI_OK;
    case K_PROJ:
        if (!strcmp(v, "aggressive"))
            warnf(p, "aggressive interconnect projection is modelled as conservative");
        else if (strcmp(v, "conservative"))
            return bad(p, CACTI_EINVAL, "interconnect projection must be conservative or aggressive, got", v);
        return CACTI_OK;
    case K_FORCE:
        if (!strcmp(v, "true"))
            warnf(p, "forced cache configuration is ignored; the organisation is searched");
        return CACTI_OK;
    default:
        return CACTI_OK;
    }
}

cacti_status cacti_cfg_parse(const char *text, size_t len, const char *name, cacti_spec *spec,
                             cacti_cfg_warn_fn warn, void *warn_ctx)
{
    if (!spec || (!text && len))
        return cacti_fail(CACTI_EINVAL, "null argument");
    if (!name)
        name = "<cfg>";
    cacti_spec s;
    cacti_spec_init(&s);
    s.output_bits = 0; /* unless given: the whole line */
    cacti_clear_error();
    extra_t x = {0, 0, 0, 0, 0};
    pctx p = {name, 0, warn, warn_ctx};
    int line_of[K_IGNORE + 1];
    memset(line_of, 0, sizeof line_of);
    size_t pos = 0;
    char line[LINE_MAX_LEN + 1], val[512];
    while (pos < len) {
        p.line++;
        size_t start = pos;
        while (pos < len && text[pos] != '\n')
            pos++;
        size_t ll = pos - start;
        if (pos < len)
            pos++; /* skip '\n' */
        if (ll > LINE_MAX_LEN)
            return cacti_fail(CACTI_ESYNTAX, "%s:%d: line longer than %d characters", name, p.line, LINE_MAX_LEN);
        memcpy(line, text + start, ll);
        line[ll] = '\0';
        if (memchr(line, '\0', ll))
            return cacti_fail(CACTI_ESYNTAX, "%s:%d: NUL byte in line", name, p.line);
        /* trim */
        char *l = line;
        while (*l == ' ' || *l == '\t' || *l == '\r')
            l++;
        size_t n = strlen(l);
        while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r'))
            l[--n] = '\0';
        if (!*l || l[0] == '#' || (l[0] == '/' && l[1] == '/'))
            continue;
        if (l[0] != '-')
            return cacti_fail(CACTI_ESYNTAX, "%s:%d: malformed line (expected -key value): '%.60s'", name, p.line, l);
        const keydef *best = NULL;
        size_t blen = 0;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t kl = strlen(keys[k].key);
            if (kl <= blen || strncmp(l, keys[k].key, kl) != 0)
                continue;
            char c = l[kl];
            if (c == '\0' || c == ' ' || c == '\t' || c == '"')
                best = &keys[k], blen = kl;
        }
        if (!best) {
            size_t kl = strcspn(l, "\"0123456789");
            while (kl && (l[kl - 1] == ' ' || l[kl - 1] == '-' || l[kl - 1] == ':'))
                kl--;
            warnf(&p, "unknown key '%.*s' ignored", (int)(kl > 80 ? 80 : kl), l);
            continue;
        }
        int quoted;
        if (take_value(l + blen, val, sizeof val, &quoted))
            return cacti_fail(CACTI_ESYNTAX, "%s:%d: unterminated string in '%.60s'", name, p.line, l);
        if (best->id == K_IGNORE)
            continue;
        if (!val[0])
            return cacti_fail(CACTI_ESYNTAX, "%s:%d: missing value for '%s'", name, p.line, best->key);
        cacti_status st = apply(&p, best->id, val, &s, &x);
        if (st != CACTI_OK) {
            return st;
        }
        line_of[best->id] = p.line;
    }
    p.line = 0;
    if ((x.have_tag_cell && x.tag_cell != (int)s.cell_dev) || (x.have_tag_peri && x.tag_peri != (int)s.periph_dev))
        warnf(&p, "tag array device types differ from the data array; the data array's are used for both");
    if (x.cam)
        s.assoc = 0;
    else if (!s.is_cache && s.assoc != 1)
        s.assoc = 1; /* a RAM has no ways */
    if (s.output_bits == 0)
        s.output_bits = 8 * s.line_bytes;
    cacti_status st = cacti_validate(&s);
    if (st != CACTI_OK) {
        /* point at the setting that makes the combination impossible */
        int ln = line_of[K_SIZE];
        uint32_t ports = s.rw_ports + s.rd_ports + s.wr_ports;
        if (ports == 0 || s.rw_ports + s.rd_ports == 0)
            ln = line_of[K_RWP] > line_of[K_ERP] ? line_of[K_RWP] : line_of[K_ERP];
        else if (s.se_rd_ports > s.rd_ports)
            ln = line_of[K_SERP];
        else if (s.output_bits > 8u * s.line_bytes && line_of[K_BUS])
            ln = line_of[K_BUS];
        else if (s.size_bytes % s.banks && line_of[K_BANKS])
            ln = line_of[K_BANKS];
        char msg[512];
        snprintf(msg, sizeof msg, "%s", cacti_last_error());
        if (ln > 0)
            return cacti_fail(st, "%s:%d: %s", name, ln, msg);
        return cacti_fail(st, "%s: %s", name, msg);
    }
    *spec = s;
    return CACTI_OK;
}

cacti_status cacti_cfg_read(const char *path, cacti_spec *spec, cacti_cfg_warn_fn warn, void *warn_ctx)
{
    if (!path || !spec)
        return cacti_fail(CACTI_EINVAL, "null argument");
    FILE *f = fopen(path, "rb");
    if (!f)
        return cacti_fail(CACTI_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return cacti_fail(CACTI_ENOMEM, "%s: out of memory", path);
    }
    for (;;) {
        if (n == cap) {
            if (cap >= ((size_t)64 << 20)) {
                free(buf);
                fclose(f);
                return cacti_fail(CACTI_EIO, "%s: file larger than 64 MiB", path);
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return cacti_fail(CACTI_ENOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(buf);
        return cacti_fail(CACTI_EIO, "%s: read error", path);
    }
    cacti_status st = cacti_cfg_parse(buf, n, path, spec, warn, warn_ctx);
    free(buf);
    return st;
}
