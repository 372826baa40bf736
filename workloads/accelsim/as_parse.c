/*
 * as_parse.c - thread blocks and instruction lines of a kernel trace.
 *
 * A thread block as the tracer's post-processing writes it:
 *
 *     #BEGIN_TB
 *     thread block = 3,0,0
 *     [cluster id = ..., cluster cta = ..., cluster rank = ...]   (sm_90; skipped)
 *     warp = 0
 *     insts = 17
 *     <17 instruction lines>
 *     warp = 1
 *     ...
 *     #END_TB
 *
 * and one instruction per line:
 *
 *     [line] PC mask ndst [Rd..] OPCODE nsrc [Rs..] width [addresses] [imm]
 *
 * PC and mask are hex; counts and width decimal.  With width > 0 an address
 * section follows.  Its first field is the compression mode:
 *   0  list-all:    one hex address per active lane, lowest lane first;
 *   1  base+stride: hex base, decimal stride; the k-th active lane reads
 *                   base + k*stride (the tracer uses it only when the active
 *                   lanes are contiguous);
 *   2  base+delta:  hex base, then for each further active lane a signed
 *                   decimal difference from the previous active lane.
 * A section that starts with "0x" instead of a mode is read as list-all,
 * so files written without the mode field still read (a mode is a small
 * decimal, an address always has the 0x prefix, so this is unambiguous).
 * After the addresses, tracer version 5 writes the immediate operand; older
 * versions do not.  The reader accepts it on any line (one more decimal
 * before the end), so it needs no per-version switch.  Lines end there:
 * anything else is an error, which is what catches most corruption.
 *
 * Facts about the format are from the NVBit tracer and trace parser of
 * Accel-Sim (util/tracer_nvbit/tracer_tool, gpu-simulator/trace-parser) and
 * the two real traces in ../shared/data/traces; the code is gpuest's own.
 *
 * Speed: a line is parsed in one pass with table-driven hex digits and no
 * library calls except one hash probe for the mnemonic (interned per
 * kernel, so the opcode table lookup runs once per distinct mnemonic).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as_internal.h"

/* ---- tokens ---- */

static const int8_t hexval[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
}; /* digit value + 1; 0 = not a hex digit */

static inline const char *blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static inline int sep(char c)
{
    return c == ' ' || c == '\t' || c == 0;
}

static inline int rd_hex(const char **pp, uint64_t *out)
{
    const char *p = blank(*pp);
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    const char *s = p;
    uint64_t v = 0;
    int d;
    while ((d = hexval[(unsigned char)*p]) != 0) {
        if (v >> 60)
            return -1;
        v = v << 4 | (uint64_t)(d - 1);
        p++;
    }
    if (p == s || !sep(*p))
        return -1;
    *pp = p;
    *out = v;
    return 0;
}

static inline int rd_dec(const char **pp, uint64_t max, uint64_t *out)
{
    const char *p = blank(*pp);
    const char *s = p;
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p - '0');
        if (d > max || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
        p++;
    }
    if (p == s || !sep(*p))
        return -1;
    *pp = p;
    *out = v;
    return 0;
}

/* Signed decimal in [-2^63, 2^63-1] as its two's complement bits. */
static inline int rd_sdec(const char **pp, uint64_t *out)
{
    const char *p = blank(*pp);
    int neg = *p == '-';
    if (neg || *p == '+')
        p++;
    uint64_t v;
    if (!(*p >= '0' && *p <= '9') || rd_dec(&p, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &v))
        return -1;
    *pp = p;
    *out = neg ? (uint64_t)0 - v : v;
    return 0;
}

static inline int rd_reg(const char **pp, uint16_t *out)
{
    const char *p = blank(*pp);
    uint64_t v;
    if (*p != 'R' || !(p[1] >= '0' && p[1] <= '9'))
        return -1;
    p++;
    if (rd_dec(&p, 65535, &v))
        return -1;
    *pp = p;
    *out = (uint16_t)v;
    return 0;
}

/* Copy at most 60 bytes of s for a message, non-printables as '?'. */
static const char *quote(char *buf, const char *s, size_t n)
{
    if (n > 60)
        n = 60;
    for (size_t i = 0; i < n; i++)
        buf[i] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    buf[n] = 0;
    return buf;
}

/* ---- mnemonics ---- */

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void hash_put(uint32_t *tab, uint32_t cap, uint32_t h, uint32_t idx)
{
    uint32_t i = h & (cap - 1);
    while (tab[i])
        i = (i + 1) & (cap - 1);
    tab[i] = idx + 1;
}

static int intern_hashed(as_kernel *K, const char *mn, size_t n, uint32_t h, ge_err *e)
{
    uint32_t mask = K->hash_cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t x = K->hash[i];
        if (!x)
            break;
        x--;
        if (K->mn_len[x] == n && memcmp(K->mn[x], mn, n) == 0)
            return (int)x;
    }
    char q[64];
    if (K->nmn == AS_MAX_MNEMONICS)
        return ge_errf(e, "more than %u distinct opcodes in one kernel", AS_MAX_MNEMONICS);
    int op = as_family_lookup(K->fam, mn, n);
    if (op < 0)
        return ge_errf(e, "unknown opcode '%s' for binary version %u (%s)", quote(q, mn, n),
                       K->k.binary_version, as_family_name(K->fam));
    if (2 * (K->nmn + 1) > K->hash_cap) {
        uint32_t ncap = K->hash_cap * 2;
        uint32_t *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return ge_errf(e, "out of memory");
        for (uint32_t i = 0; i < K->nmn; i++)
            hash_put(nt, ncap, fnv1a(K->mn[i], K->mn_len[i]), i);
        free(K->hash);
        K->hash = nt;
        K->hash_cap = ncap;
    }
    char *s = malloc(n + 1);
    if (!s)
        return ge_errf(e, "out of memory");
    memcpy(s, mn, n);
    s[n] = 0;
    uint32_t idx = K->nmn;
    K->mn[idx] = s;
    K->mn_len[idx] = (uint32_t)n;
    K->mn_op[idx] = (uint8_t)op;
    hash_put(K->hash, K->hash_cap, h, idx);
    K->nmn++;
    K->k.nopcodes = K->nmn;
    return (int)idx;
}

int as_intern(as_kernel *K, const char *mn, size_t n, ge_err *e)
{
    return intern_hashed(K, mn, n, fnv1a(mn, n), e);
}

/* Fast paths of ws_cta_push / ws_cta_push_addr for when the CTA's buffers
 * have room (nearly always: they are reused from CTA to CTA). */
static inline ws_inst *push_inst(ws_cta *c, ge_err *e)
{
    if (c->nwarps && c->ninst < c->inst_cap && c->ninst < UINT32_MAX - 1) {
        ws_inst *in = &c->inst[c->ninst++];
        memset(in, 0, sizeof *in);
        in->addr = WS_NO_ADDR;
        c->warps[c->nwarps - 1].ninst++;
        return in;
    }
    return ws_cta_push(c, e);
}

static inline uint64_t *push_addr(ws_cta *c, ws_inst *in, ge_err *e)
{
    if (c->naddr + WS_WARP_SIZE <= c->addr_cap && c->naddr + WS_WARP_SIZE < UINT32_MAX) {
        uint64_t *a = c->addr + c->naddr;
        in->addr = (uint32_t)c->naddr;
        if (in->mask != UINT32_MAX) /* with every lane active, parse_addrs fills all */
            memset(a, 0, WS_WARP_SIZE * sizeof *a);
        c->naddr += WS_WARP_SIZE;
        return a;
    }
    return ws_cta_push_addr(c, in, e);
}

/* ---- one instruction ---- */

static int parse_addrs(const char **pp, uint32_t mask, uint64_t *a, ge_err *e)
{
    const char *p = blank(*pp);
    uint64_t mode, base, x;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        mode = 0; /* no mode field: a plain address list */
    else if (rd_dec(&p, 2, &mode))
        return ge_errf(e, "bad address compression mode (0, 1 or 2)");
    switch (mode) {
    case 0:
        for (uint32_t m = mask; m; m &= m - 1)
            if (rd_hex(&p, &a[__builtin_ctz(m)]))
                return ge_errf(e, "expected %d hex addresses (one per active lane)", ws_popc(mask));
        break;
    case 1:
        if (rd_hex(&p, &base) || rd_sdec(&p, &x))
            return ge_errf(e, "expected base address and stride");
        for (uint32_t m = mask; m; m &= m - 1) {
            a[__builtin_ctz(m)] = base;
            base += x;
        }
        break;
    default:
        if (rd_hex(&p, &base))
            return ge_errf(e, "expected base address");
        for (uint32_t m = mask, first = 1; m; m &= m - 1, first = 0) {
            if (!first) {
                if (rd_sdec(&p, &x))
                    return ge_errf(e, "expected %d address deltas (one per active lane after the first)",
                                   ws_popc(mask) - 1);
                base += x;
            }
            a[__builtin_ctz(m)] = base;
        }
        break;
    }
    *pp = p;
    return 0;
}

int as_parse_inst(as_kernel *K, char *line, ws_cta *cta, ge_err *e)
{
    const char *p = line;
    uint64_t v, pc, mask;
    if (K->k.lineinfo && rd_dec(&p, UINT64_MAX, &v))
        return ge_errf(e, "expected a source line number (enable lineinfo = 1)");
    if (rd_hex(&p, &pc))
        return ge_errf(e, "expected a hex PC at the start of an instruction line");
    if (rd_hex(&p, &mask) || mask > UINT32_MAX)
        return ge_errf(e, "expected a 32-bit hex active mask");
    ws_inst *in = push_inst(cta, e);
    if (!in)
        return -1;
    in->pc = pc;
    in->mask = (uint32_t)mask;
    if (rd_dec(&p, WS_MAX_DST, &v))
        return ge_errf(e, "bad destination count (0..%d)", WS_MAX_DST);
    in->ndst = (uint8_t)v;
    for (unsigned i = 0; i < in->ndst; i++)
        if (rd_reg(&p, &in->dst[i]))
            return ge_errf(e, "expected destination register R0..R65535");
    p = blank(p);
    const char *op = p;
    uint32_t h = 2166136261u; /* FNV-1a while scanning the token */
    while (!sep(*p))
        h = (h ^ (unsigned char)*p++) * 16777619u;
    if (p == op)
        return ge_errf(e, "missing opcode");
    int idx = intern_hashed(K, op, (size_t)(p - op), h, e);
    if (idx < 0)
        return -1;
    in->opcode = (uint16_t)idx;
    in->op = K->mn_op[idx];
    if (rd_dec(&p, WS_MAX_SRC, &v))
        return ge_errf(e, "bad source count (0..%d)", WS_MAX_SRC);
    in->nsrc = (uint8_t)v;
    for (unsigned i = 0; i < in->nsrc; i++)
        if (rd_reg(&p, &in->src[i]))
            return ge_errf(e, "expected source register R0..R65535");
    if (rd_dec(&p, 255, &v))
        return ge_errf(e, "bad memory width (0..255 bytes per lane)");
    in->size = (uint8_t)v;
    if (v > 0) {
        uint64_t *a = push_addr(cta, in, e);
        if (!a || parse_addrs(&p, in->mask, a, e))
            return -1;
    }
    p = blank(p);
    if (*p) {
        if (rd_sdec(&p, &v) || ((int64_t)v < INT32_MIN) || ((int64_t)v > (int64_t)UINT32_MAX))
            return ge_errf(e, "bad immediate, or extra fields at the end of the line");
        in->imm = (uint32_t)v;
        if (*blank(p))
            return ge_errf(e, "extra fields at the end of the line");
    }
    return 0;
}

/* ---- thread blocks ---- */

int as_parse_tb_line(const char *line, uint32_t id[3])
{
    const char *p = blank(line);
    if (strncmp(p, "thread block", 12) != 0)
        return -1;
    p = blank(p + 12);
    if (*p++ != '=')
        return -1;
    for (int i = 0; i < 3; i++) {
        uint64_t v;
        p = blank(p);
        const char *s = p;
        v = 0;
        while (*p >= '0' && *p <= '9' && v <= UINT32_MAX)
            v = v * 10 + (uint64_t)(*p++ - '0');
        if (p == s || v > UINT32_MAX)
            return -1;
        id[i] = (uint32_t)v;
        p = blank(p);
        if (i < 2 && *p++ != ',')
            return -1;
    }
    return *p == 0 ? 0 : -1;
}

/* "key = N" with key matched exactly. */
static int keyed_number(const char *t, const char *key, uint64_t max, uint64_t *v)
{
    size_t n = strlen(key);
    if (strncmp(t, key, n) != 0)
        return -1;
    const char *p = blank(t + n);
    if (*p++ != '=')
        return -1;
    if (rd_dec(&p, max, v) || *blank(p))
        return -1;
    return 0;
}

#define LOC(in) (in)->path, (unsigned long long)(in)->lineno

int as_read_cta(as_kernel *K, as_in *in, ws_cta *cta, ge_err *e)
{
    char *line;
    size_t len;
    int r;
    const char *t;
    ws_cta_reset(cta);
    /* find the next #BEGIN_TB; '#' comments and blank lines may precede it */
    for (;;) {
        if ((r = as_in_line(in, &line, &len, e)) <= 0)
            return r;
        t = blank(line);
        if (*t == 0)
            continue;
        if (strncmp(t, "#BEGIN_TB", 9) == 0 && *blank(t + 9) == 0)
            break;
        if (*t == '#' && strncmp(t, "#END_TB", 7) != 0)
            continue;
        return ge_errf(e, "%s:%llu: expected #BEGIN_TB", LOC(in));
    }
    do {
        if ((r = as_in_line(in, &line, &len, e)) <= 0)
            return r < 0 ? -1 : ge_errf(e, "%s:%llu: end of file inside a thread block", LOC(in));
    } while (*blank(line) == 0);
    uint32_t *id = cta->id;
    const ws_kernel *k = &K->k;
    if (as_parse_tb_line(line, id))
        return ge_errf(e, "%s:%llu: expected 'thread block = x,y,z'", LOC(in));
    if (id[0] >= k->grid[0] || id[1] >= k->grid[1] || id[2] >= k->grid[2])
        return ge_errf(e, "%s:%llu: thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", LOC(in), id[0],
                       id[1], id[2], k->grid[0], k->grid[1], k->grid[2]);
    cta->index = id[0] + (uint64_t)id[1] * k->grid[0] + (uint64_t)id[2] * k->grid[0] * k->grid[1];

    uint64_t left = 0, v;
    int64_t warp = -1;
    for (;;) {
        if ((r = as_in_line(in, &line, &len, e)) <= 0)
            return r < 0 ? -1 : ge_errf(e, "%s:%llu: end of file inside thread block (%u,%u,%u)", LOC(in),
                                       id[0], id[1], id[2]);
        t = blank(line);
        if (*t == 0)
            continue;
        if (left > 0) {
            if (*t == '#' || *t == 'w')
                return ge_errf(e, "%s:%llu: warp %lld has fewer instruction lines than its 'insts' count",
                               LOC(in), (long long)warp);
            if (as_parse_inst(K, line, cta, e)) {
                if (in->partial && e) {
                    size_t n = strlen(e->msg);
                    snprintf(e->msg + n, sizeof e->msg - n, " (the file ends inside this line: truncated?)");
                }
                return ge_err_prefix(e, "%s:%llu", LOC(in));
            }
            left--;
            continue;
        }
        if (strncmp(t, "#END_TB", 7) == 0 && *blank(t + 7) == 0)
            break;
        if (strncmp(t, "cluster ", 8) == 0)
            continue;
        if (keyed_number(t, "warp", UINT32_MAX, &v) == 0) {
            if ((int64_t)v <= warp || v >= K->warps_per_cta)
                return ge_errf(e, "%s:%llu: warp %llu out of order or beyond the %u warps of a block", LOC(in),
                               (unsigned long long)v, K->warps_per_cta);
            while ((int64_t)cta->nwarps <= (int64_t)v)
                if (ws_cta_begin_warp(cta, e))
                    return -1;
            warp = (int64_t)v;
            do {
                if ((r = as_in_line(in, &line, &len, e)) <= 0)
                    return r < 0 ? -1 : ge_errf(e, "%s:%llu: end of file inside a thread block", LOC(in));
            } while (*blank(line) == 0);
            if (keyed_number(blank(line), "insts", UINT32_MAX, &left))
                return ge_errf(e, "%s:%llu: expected 'insts = N'", LOC(in));
            continue;
        }
        if (warp >= 0 && hexval[(unsigned char)*t])
            return ge_errf(e, "%s:%llu: warp %lld has more instruction lines than its 'insts' count", LOC(in),
                           (long long)warp);
        return ge_errf(e, "%s:%llu: expected 'warp = N' or #END_TB", LOC(in));
    }
    return 1;
}
