/*
 * as_header.c - the header of a kernel trace file -> ws_kernel.
 *
 * The NVBit tracer writes one "-key = value" line per field before the
 * first thread block, then a "#traces format = ..." comment:
 *
 *     -kernel name = _Z9vectorAddPKfS0_Pfi     (rest of line; may hold spaces)
 *     -kernel id = 1
 *     -grid dim = (196,1,1)
 *     -block dim = (256,1,1)
 *     -shmem = 0                               (static + dynamic bytes)
 *     -nregs = 12
 *     -binary version = 80                     (selects the opcode table)
 *     -cuda stream id = 0
 *     -shmem base_addr = 0x00007fb139000000
 *     -local mem base_addr = 0x00007fb137000000
 *     -nvbit version = 1.7
 *     -accelsim tracer version = 5
 *     -enable lineinfo = 0                     (1: lines start with a line number)
 *
 * Validation is strict because a bad header poisons everything after it:
 * numbers must be plain decimals (hex for addresses) that fit their field,
 * and the values must be possible on a real GPU (grid and block limits of
 * CUDA compute capability 6.0-9.0, at most 255 registers per thread, at most
 * 256 KiB shared memory per block, a binary version with an opcode table,
 * tracer version 3 to 5).  Required: kernel name, grid, block, nregs,
 * binary version and tracer version; the rest defaults to 0.  Unknown keys
 * are ignored so that newer tracers' extra lines do not break reading.
 *
 * Not kept: the trace stores the sum of static and dynamic shared memory,
 * which becomes shmem_static (shmem_dynamic = 0).
 */
#include <stdlib.h>
#include <string.h>

#include "as_internal.h"

#define AS_MAX_NREGS 255
#define AS_MAX_SHMEM (256u << 10)
#define AS_MAX_BLOCK_THREADS 1024

static const char *const field_key[AS_F_COUNT] = {
    [AS_F_NAME] = "kernel name", [AS_F_ID] = "kernel id", [AS_F_GRID] = "grid dim",
    [AS_F_BLOCK] = "block dim", [AS_F_SHMEM] = "shmem", [AS_F_NREGS] = "nregs",
    [AS_F_BINVER] = "binary version", [AS_F_STREAM] = "cuda stream id",
    [AS_F_SHBASE] = "shmem base_addr", [AS_F_LOCBASE] = "local mem base_addr",
    [AS_F_NVBIT] = "nvbit version", [AS_F_TRACER] = "accelsim tracer version",
    [AS_F_LINEINFO] = "enable lineinfo",
};

static const unsigned required =
    1u << AS_F_NAME | 1u << AS_F_GRID | 1u << AS_F_BLOCK | 1u << AS_F_NREGS | 1u << AS_F_BINVER | 1u << AS_F_TRACER;

int as_kernel_init(as_kernel *K, ge_err *e)
{
    memset(K, 0, sizeof *K);
    /* Not zeroed: only entries below nmn are ever read, and a calloc of
     * this size would cost a memset per kernel. */
    K->mn = malloc(AS_MAX_MNEMONICS * sizeof *K->mn);
    K->mn_len = malloc(AS_MAX_MNEMONICS * sizeof *K->mn_len);
    K->mn_op = malloc(AS_MAX_MNEMONICS * sizeof *K->mn_op);
    K->hash_cap = 256;
    K->hash = calloc(K->hash_cap, sizeof *K->hash);
    if (!K->mn || !K->mn_len || !K->mn_op || !K->hash) {
        as_kernel_free(K);
        return ge_errf(e, "out of memory");
    }
    return 0;
}

void as_kernel_reset(as_kernel *K)
{
    for (uint32_t i = 0; i < K->nmn; i++)
        free(K->mn[i]);
    K->nmn = 0;
    if (K->hash)
        memset(K->hash, 0, K->hash_cap * sizeof *K->hash);
    free(K->name);
    free(K->nvbit);
    free(K->path);
    K->name = K->nvbit = K->path = NULL;
    memset(&K->k, 0, sizeof K->k);
    K->fam = NULL;
    K->warps_per_cta = 0;
}

void as_kernel_free(as_kernel *K)
{
    as_kernel_reset(K);
    free(K->mn);
    free(K->mn_len);
    free(K->mn_op);
    free(K->hash);
    memset(K, 0, sizeof *K);
}

/* ---- value parsers: the whole value must match (trailing blanks allowed) ---- */

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int at_end(const char *s)
{
    return *skip_blank(s) == 0;
}

/* Decimal number <= max; advances *ps. */
static int dec(const char **ps, uint64_t max, uint64_t *out)
{
    const char *s = skip_blank(*ps);
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > max || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *ps = s;
    *out = v;
    return 0;
}

static int dec_value(const char *s, uint64_t max, uint64_t *out)
{
    return dec(&s, max, out) == 0 && at_end(s) ? 0 : -1;
}

static int hex_value(const char *s, uint64_t *out)
{
    s = skip_blank(s);
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    uint64_t v = 0;
    int n = 0;
    for (;; s++, n++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            break;
        if (v >> 60)
            return -1;
        v = v << 4 | d;
    }
    if (n == 0 || !at_end(s))
        return -1;
    *out = v;
    return 0;
}

/* "(x,y,z)" with optional blanks. */
static int dim3_value(const char *s, uint32_t d[3])
{
    s = skip_blank(s);
    if (*s++ != '(')
        return -1;
    for (int i = 0; i < 3; i++) {
        uint64_t v;
        if (dec(&s, UINT32_MAX, &v))
            return -1;
        d[i] = (uint32_t)v;
        s = skip_blank(s);
        if (*s++ != (i < 2 ? ',' : ')'))
            return -1;
    }
    return at_end(s) ? 0 : -1;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static uint32_t stream_id(as_kernel *K, uint64_t h, int *ok)
{
    *ok = 1;
    if (h <= UINT32_MAX - 64)
        return (uint32_t)h;
    for (uint32_t i = 0; i < K->nbig_stream; i++)
        if (K->big_stream[i] == h)
            return UINT32_MAX - i;
    if (K->nbig_stream == 64) {
        *ok = 0;
        return 0;
    }
    K->big_stream[K->nbig_stream] = h;
    return UINT32_MAX - K->nbig_stream++;
}

int as_check_kernel(const ws_kernel *k, int *field, ge_err *e)
{
    int f = -1;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    if (!k->name || !*k->name || strchr(k->name, '\n'))
        f = AS_F_NAME, ge_errf(e, "kernel name is empty or holds a newline");
    else if (k->grid[0] < 1 || k->grid[0] > INT32_MAX || k->grid[1] < 1 || k->grid[1] > 65535 ||
             k->grid[2] < 1 || k->grid[2] > 65535)
        f = AS_F_GRID, ge_errf(e, "grid (%u,%u,%u) out of range (1..2^31-1, 1..65535, 1..65535)",
                               k->grid[0], k->grid[1], k->grid[2]);
    else if (k->block[0] < 1 || k->block[0] > 1024 || k->block[1] < 1 || k->block[1] > 1024 ||
             k->block[2] < 1 || k->block[2] > 64 || threads > AS_MAX_BLOCK_THREADS)
        f = AS_F_BLOCK, ge_errf(e, "block (%u,%u,%u) out of range (at most 1024 threads, z <= 64)",
                                k->block[0], k->block[1], k->block[2]);
    else if (k->nregs > AS_MAX_NREGS)
        f = AS_F_NREGS, ge_errf(e, "nregs = %u out of range (0..%d registers per thread)", k->nregs,
                                AS_MAX_NREGS);
    else if ((uint64_t)k->shmem_static + k->shmem_dynamic > AS_MAX_SHMEM)
        f = AS_F_SHMEM, ge_errf(e, "shmem = %llu bytes out of range (0..%u)",
                                (unsigned long long)k->shmem_static + k->shmem_dynamic, AS_MAX_SHMEM);
    else if (!as_family_of(k->binary_version))
        f = AS_F_BINVER, ge_errf(e, "binary version = %u is not supported (supported: %s)",
                                 k->binary_version, as_versions_text);
    else if (k->tracer_version != 0 && (k->tracer_version < 3 || k->tracer_version > 5))
        f = AS_F_TRACER, ge_errf(e, "accelsim tracer version = %u is not supported (3..5)", k->tracer_version);
    else if (k->nvbit_version && strchr(k->nvbit_version, '\n'))
        f = AS_F_NVBIT, ge_errf(e, "nvbit version holds a newline");
    if (field)
        *field = f;
    return f < 0 ? 0 : -1;
}

/* Split "-key = value": key trimmed into key[], value after '=' and blanks. */
static int split_kv(char *line, char **key, char **value)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return -1;
    char *k = line + 1, *ke = eq;
    while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    *ke = 0;
    *key = k;
    *value = (char *)skip_blank(eq + 1);
    return 0;
}

static int key_index(const char *key)
{
    for (int i = 0; i < AS_F_COUNT; i++)
        if (strcmp(field_key[i], key) == 0)
            return i;
    return -1;
}

int as_read_header(as_kernel *K, as_in *in, uint32_t default_id, ge_err *e)
{
    uint64_t where[AS_F_COUNT] = {0};
    unsigned seen = 0;
    uint64_t tracer = 0, lineinfo = 0, v;
    ws_kernel *k = &K->k;
    char *line;
    size_t len;
    int r;
    K->path = dup_str(in->path);
    if (!K->path)
        return ge_errf(e, "out of memory");
    while ((r = as_in_line(in, &line, &len, e)) == 1) {
        const char *t = skip_blank(line);
        if (*t == 0)
            continue;
        if (*t == '#') {
            if (strncmp(t, "#BEGIN_TB", 9) == 0)
                as_in_unread(in);
            break;
        }
        unsigned long long ln = (unsigned long long)in->lineno;
        char *key, *val;
        if (*t != '-' || split_kv((char *)t, &key, &val))
            return ge_errf(e, "%s:%llu: expected a '-key = value' header line", in->path, ln);
        int f = key_index(key);
        if (f < 0)
            continue; /* a newer tracer's field */
        where[f] = in->lineno;
        seen |= 1u << f;
        int bad = 0;
        switch (f) {
        case AS_F_NAME:
            free(K->name);
            if (!(K->name = dup_str(val)))
                return ge_errf(e, "out of memory");
            break;
        case AS_F_ID:
            bad = dec_value(val, UINT32_MAX, &v) || v == 0;
            k->id = (uint32_t)v;
            break;
        case AS_F_GRID: bad = dim3_value(val, k->grid); break;
        case AS_F_BLOCK: bad = dim3_value(val, k->block); break;
        case AS_F_SHMEM:
            bad = dec_value(val, UINT32_MAX, &v);
            k->shmem_static = (uint32_t)v;
            break;
        case AS_F_NREGS:
            bad = dec_value(val, UINT32_MAX, &v);
            k->nregs = (uint32_t)v;
            break;
        case AS_F_BINVER:
            bad = dec_value(val, UINT32_MAX, &v);
            k->binary_version = (uint32_t)v;
            break;
        case AS_F_STREAM: {
            int ok;
            bad = dec_value(val, UINT64_MAX, &v);
            k->stream = stream_id(K, v, &ok);
            if (!bad && !ok)
                return ge_errf(e, "%s:%llu: more than 64 distinct large stream handles", in->path, ln);
            break;
        }
        case AS_F_SHBASE: bad = hex_value(val, &k->shmem_base); break;
        case AS_F_LOCBASE: bad = hex_value(val, &k->local_base); break;
        case AS_F_NVBIT:
            free(K->nvbit);
            if (!(K->nvbit = dup_str(val)))
                return ge_errf(e, "out of memory");
            break;
        case AS_F_TRACER: bad = dec_value(val, UINT32_MAX, &tracer); break;
        case AS_F_LINEINFO: bad = dec_value(val, 1, &lineinfo); break;
        }
        if (bad)
            return ge_errf(e, "%s:%llu: bad value '%.60s' for '%s'", in->path, ln, val, key);
    }
    if (r < 0)
        return -1;
    if ((seen & required) != required) {
        for (int f = 0; f < AS_F_COUNT; f++)
            if ((required & (1u << f)) && !(seen & (1u << f)))
                return ge_errf(e, "%s: kernel header has no '-%s' line", in->path, field_key[f]);
    }
    k->name = K->name;
    k->nvbit_version = K->nvbit;
    k->tracer_version = (uint32_t)tracer;
    k->lineinfo = (uint32_t)lineinfo;
    if (!(seen & (1u << AS_F_ID)))
        k->id = default_id;
    int f;
    if (tracer < 3 || tracer > 5)
        return ge_errf(e, "%s:%llu: accelsim tracer version = %llu is not supported (3..5)", in->path,
                       (unsigned long long)where[AS_F_TRACER], (unsigned long long)tracer);
    if (as_check_kernel(k, &f, e))
        return ge_err_prefix(e, "%s:%llu", in->path, (unsigned long long)where[f]);
    K->fam = as_family_of(k->binary_version);
    K->warps_per_cta = ws_kernel_warps_per_cta(k);
    k->opcodes = (const char *const *)K->mn;
    k->nopcodes = 0;
    return 0;
}
