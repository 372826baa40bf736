/*
 * prof_inherit.c - per kernel, the lines it finds left over from earlier
 * kernels, and how old they are (prof_kernel.inherit_*).
 *
 * The hybrid estimator simulates a kernel's sample on a simulator that did
 * not run the earlier kernels in full, so its L2 is colder than a real
 * GPU's: a kernel that reads what the previous one wrote (a scan's pass
 * over the block sums, a stencil's next time step, a BFS level) would miss
 * where the full simulation hits.  The profile therefore lists, for each
 * kernel, the lines it touches that earlier kernels touched, each with its
 * LRU stack distance at the kernel's start -- the distinct lines the
 * workload touched after the line's last use -- so that the hybrid can put
 * into the sample's L2 exactly the lines an LRU L2 of the design's capacity
 * would still hold (calib/hybrid.c).
 *
 * Computed from the workload-wide L2 log with the classic stack-distance
 * method: a Fenwick tree marks, at each kernel start, the position of every
 * line's latest access; the age of a line last used at position j is the
 * number of marks after j.  When the log is hash-sampled (SHARDS,
 * profiler.c), ages are scaled back and only the sampled lines are listed.
 *
 * The order is the one a GPU runs the accesses in, not the log's CTA after
 * CTA: kernels in launch order, within a kernel its CTAs in groups of W
 * that run together, and within a group the warps' accesses interleaved
 * instruction by instruction -- prof_reuse.c's L2 order.  W, the CTAs
 * resident GPU-wide, depends on the design, so ages are measured at each
 * of prof_concurrency's W and interpolated at the design's (prof_age_at).
 * In log order a reduction's partial sums, which every CTA writes at its
 * end, looked as old as the CTAs that followed made them (5 of the 8 lines
 * past V100's L2), while on V100 all 256 CTAs end together and the next
 * kernel finds them in the L2; on GTX 480, 90 CTAs at a time, the early
 * ones are gone.
 *
 * Code: each kernel's code lines are fetched into the L2 when its CTAs
 * first reach them (every SM's I-cache starts cold), so a code line's last
 * fetch in a kernel is the latest first touch over its first CTAs
 * (PB_CODE_CTAS; the I-caches keep the code for later ones).  Its age at a
 * later kernel's start is the distinct data lines accessed after that
 * point of the order, counted like the data's (the code lines themselves
 * are few).  A loop body fetched at a long kernel's start is old by its
 * end; the code after the loop, reached last, is young -- unless more
 * groups of CTAs follow, as on a GPU with fewer resident CTAs.
 */
#include <stdlib.h>
#include <string.h>

#include "fenwick.h"
#include "prof_int.h"
#include "runsort.h"

typedef struct {
    uint64_t line;
    uint32_t age[PROF_NCONC];
    uint8_t sectors;
} inh;

typedef struct {
    const pb_l2rec *log;
    const uint32_t *group; /* of each record: its CTA / the concurrency */
} order_ctx;

static int line_less(const void *ctx, uint32_t i, uint32_t j)
{
    const pb_l2rec *log = ((const order_ctx *)ctx)->log;
    return log[i].line < log[j].line;
}

/* The GPU's order at concurrency w (see the top): kernel, CTA group,
 * instruction index, CTA, warp. */
static int gpu_less(const void *ctx, uint32_t i, uint32_t j)
{
    const order_ctx *o = ctx;
    const pb_l2rec *a = &o->log[i], *b = &o->log[j];
    if (a->kernel != b->kernel)
        return a->kernel < b->kernel;
    if (o->group[i] != o->group[j])
        return o->group[i] < o->group[j];
    if (a->seq != b->seq)
        return a->seq < b->seq;
    if (a->cta != b->cta)
        return a->cta < b->cta;
    return a->warp < b->warp;
}

/* 1 if the GPU order at prof_concurrency[j] (j >= 1) is the one at
 * prof_concurrency[j - 1]: no CTA index of the L2 log or of the code
 * fetches reaches the smaller W, so every kernel's CTAs form one group at
 * both, and a pass at j would repeat the pass before it. */
static int order_repeats(const pbuild *b, int j)
{
    uint32_t w = prof_concurrency[j - 1];
    for (size_t i = 0; i < b->nl2; i++)
        if (b->l2[i].cta >= w)
            return 0;
    for (size_t i = 0; i < b->ncf; i++)
        if (b->cf[i].cta >= w)
            return 0;
    return 1;
}

int pb_gpu_orders(pbuild *b, ge_err *e)
{
    size_t n = b->nl2;
    if (n > UINT32_MAX - 1)
        return ge_errf(e, "L2 log too long for the inherited-line record");
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp), *runs = malloc((n + 1) * sizeof *runs),
             *group = malloc((n ? n : 1) * sizeof *group);
    int rc = 0;
    if (!tmp || !runs || !group)
        rc = ge_errf(e, "out of memory (L2 order)");
    for (int j = 0; j < PROF_NCONC && rc == 0; j++) {
        if (j > 0 && order_repeats(b, j))
            continue;
        uint32_t *ord = b->gpu_ord[j] = malloc((n ? n : 1) * sizeof *ord);
        if (!ord) {
            rc = ge_errf(e, "out of memory (L2 order)");
            break;
        }
        for (size_t i = 0; i < n; i++) {
            ord[i] = (uint32_t)i;
            group[i] = b->l2[i].cta / prof_concurrency[j];
        }
        order_ctx o = {b->l2, group};
        runsort_u32(ord, tmp, runs, n, gpu_less, &o);
    }
    free(tmp);
    free(runs);
    free(group);
    return rc;
}

static uint32_t min_age(const inh *x)
{
    uint32_t m = x->age[0];
    for (int j = 1; j < PROF_NCONC; j++)
        if (x->age[j] < m)
            m = x->age[j];
    return m;
}

/* youngest (at any concurrency) first */
static int cmp_age(const void *a, const void *b)
{
    const inh *x = a, *y = b;
    uint32_t ax = min_age(x), ay = min_age(y);
    if (ax != ay)
        return ax < ay ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_line(const void *a, const void *b)
{
    const inh *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int keep(prof_kernel *pk, inh *c, size_t n, ge_err *e)
{
    qsort(c, n, sizeof *c, cmp_age);
    if (n > PROF_INHERIT_MAX)
        n = PROF_INHERIT_MAX;
    pk->inherit_line = malloc((n ? n : 1) * sizeof *pk->inherit_line);
    pk->inherit_age = malloc((n ? n : 1) * PROF_NCONC * sizeof *pk->inherit_age);
    pk->inherit_sectors = malloc(n ? n : 1);
    if (!pk->inherit_line || !pk->inherit_age || !pk->inherit_sectors)
        return ge_errf(e, "out of memory (inherited lines)");
    for (size_t i = 0; i < n; i++) {
        pk->inherit_line[i] = c[i].line;
        for (int j = 0; j < PROF_NCONC; j++)
            pk->inherit_age[i * PROF_NCONC + j] = c[i].age[j];
        pk->inherit_sectors[i] = c[i].sectors;
    }
    pk->ninherit = (uint32_t)n;
    return 0;
}

/* ---- code fetches (called during the stream walk) ---- */

int pb_code_kernel(pbuild *b, ge_err *e)
{
    if (ge_reserve((void **)&b->cf_first, &b->cf_first_cap, (size_t)b->kidx + 2, sizeof *b->cf_first, e))
        return -1;
    b->cf_first[b->kidx] = b->cf_first[b->kidx + 1] = b->ncf;
    return 0;
}

int pb_code_touch(pbuild *b, uint64_t line, uint32_t seq, ge_err *e)
{
    /* Search back from the line before: a warp steps to the line after it
     * or back to a loop's head, which it reached earlier (this is called on
     * every change of line of the first CTAs' warps). */
    for (size_t k = 0, n = b->ncta_code, i = b->cta_code_last + 1; k < n; k++) {
        i = i == 0 ? n - 1 : i - 1;
        if (b->cta_code[i].line == line) {
            if (seq < b->cta_code[i].seq)
                b->cta_code[i].seq = seq;
            b->cta_code_last = i;
            return 0;
        }
    }
    if (ge_reserve((void **)&b->cta_code, &b->cta_code_cap, b->ncta_code + 1, sizeof *b->cta_code, e))
        return -1;
    b->cta_code_last = b->ncta_code;
    b->cta_code[b->ncta_code++] = (pb_coderec){line, 0, seq};
    return 0;
}

/* The kernel's record of each line the CTA reached: the latest first touch
 * among the first PB_CODE_CTAS CTAs (the first group at every concurrency
 * the ages are measured at), else the first CTA's that reached it. */
int pb_code_cta_done(pbuild *b, uint32_t cta, ge_err *e)
{
    size_t first = b->cf_first[b->kidx];
    for (size_t c = 0; c < b->ncta_code; c++) {
        const pb_coderec *t = &b->cta_code[c];
        size_t i = first;
        while (i < b->ncf && b->cf[i].line != t->line)
            i++;
        if (i == b->ncf) {
            if (ge_reserve((void **)&b->cf, &b->cf_cap, b->ncf + 1, sizeof *b->cf, e))
                return -1;
            b->cf[b->ncf++] = (pb_coderec){t->line, cta, t->seq};
        } else if (cta < PB_CODE_CTAS && (t->seq > b->cf[i].seq || (t->seq == b->cf[i].seq && cta > b->cf[i].cta))) {
            b->cf[i].cta = cta;
            b->cf[i].seq = t->seq;
        }
    }
    b->ncta_code = b->cta_code_last = 0;
    b->cf_first[b->kidx + 1] = b->ncf;
    return 0;
}

/* ---- ages at the end of the workload ---- */

/* Position in `log` (GPU order at concurrency w, kernel k's records in
 * [lo, hi)) of a code fetch: before every access of its CTA group at or
 * after its instruction index (the CTAs of a group run side by side, and an
 * instruction's line is fetched before the instruction runs). */
static size_t fetch_pos(const pb_l2rec *log, size_t lo, size_t hi, const pb_coderec *c, uint32_t w)
{
    uint32_t g = c->cta / w;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pb_l2rec *r = &log[mid];
        if (r->cta / w < g || (r->cta / w == g && r->seq < c->seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The latest fetch position of each code line so far, sorted by line. */
typedef struct {
    uint64_t *line;
    size_t *pos;
    size_t n, cap;
} code_pos;

static size_t cp_find(const code_pos *cp, uint64_t line)
{
    size_t lo = 0, hi = cp->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp->line[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int cp_set(code_pos *cp, uint64_t line, size_t pos, ge_err *e)
{
    size_t i = cp_find(cp, line);
    if (i < cp->n && cp->line[i] == line) {
        cp->pos[i] = pos;
        return 0;
    }
    if (cp->n == cp->cap) {
        size_t cap = cp->cap ? 2 * cp->cap : 64;
        uint64_t *l = realloc(cp->line, cap * sizeof *l);
        if (l)
            cp->line = l;
        size_t *p = realloc(cp->pos, cap * sizeof *p);
        if (p)
            cp->pos = p;
        if (!l || !p)
            return ge_errf(e, "out of memory (code fetches)");
        cp->cap = cap;
    }
    memmove(cp->line + i + 1, cp->line + i, (cp->n - i) * sizeof *cp->line);
    memmove(cp->pos + i + 1, cp->pos + i, (cp->n - i) * sizeof *cp->pos);
    cp->line[i] = line;
    cp->pos[i] = pos;
    cp->n++;
    return 0;
}

static uint32_t age_after(const int32_t *fw, int64_t before, size_t pos, double scale)
{
    double age = (double)(before - fenwick_sum(fw, pos)) * scale;
    return age < UINT32_MAX ? (uint32_t)age : UINT32_MAX;
}

/* One concurrency's ages (column j of every inh in cand; pass 0 also
 * fills the lines and sectors, kernel k's at cand[kfirst[k] ..
 * kfirst[k+1]), sorted by line). */
typedef struct {
    uint32_t *ord, *tmp, *runs, *prev;
    uint8_t *cum;
    int32_t *fw;
    pb_l2rec *log;
    inh *cand, *scratch;
    size_t *kfirst;
} inh_work;

static int ages_at(pbuild *b, inh_work *x, int j, ge_err *e)
{
    size_t n = b->nl2;
    profile *p = b->p;
    uint32_t w = prof_concurrency[j];
    const pb_l2rec *log = x->log;
    for (size_t i = 0; i < n; i++)
        x->log[i] = b->l2[b->gpu_ord[j][i]];
    /* prev[i]: the previous access to the same line (UINT32_MAX: none);
     * cum[i]: the sectors touched in accesses to it up to and including i */
    for (size_t i = 0; i < n; i++)
        x->ord[i] = (uint32_t)i;
    order_ctx o = {log, NULL};
    runsort_u32(x->ord, x->tmp, x->runs, n, line_less, &o);
    for (size_t y = 0; y < n; y++) {
        uint32_t i = x->ord[y];
        int same = y > 0 && log[x->ord[y - 1]].line == log[i].line;
        x->prev[i] = same ? x->ord[y - 1] : UINT32_MAX;
        x->cum[i] = (uint8_t)((same ? x->cum[x->ord[y - 1]] : 0) | log[i].sectors);
    }
    memset(x->fw, 0, (n + 1) * sizeof *x->fw);
    double scale = (double)(1ULL << b->l2_shift);
    code_pos cp = {0};
    int rc = 0;
    size_t s = 0; /* start of the current kernel in the log */
    for (uint32_t k = 0; k < p->nkernels && rc == 0; k++) {
        prof_kernel *pk = &p->k[k];
        size_t end = s;
        while (end < n && log[end].kernel == k)
            end++;
        /* marks are at the latest access (< s) of every line: age = marks after prev */
        inh *c = j == 0 ? x->cand + x->kfirst[k] : x->scratch;
        size_t nc = 0;
        int64_t before = fenwick_sum(x->fw, s);
        for (size_t i = s; i < end; i++) {
            uint32_t pi = x->prev[i];
            if (pi == UINT32_MAX || pi >= s) /* new line, or not the kernel's first touch */
                continue;
            c[nc].line = log[i].line;
            c[nc].age[j] = age_after(x->fw, before, (size_t)pi + 1, scale);
            c[nc].sectors = x->cum[pi];
            nc++;
        }
        qsort(c, nc, sizeof *c, cmp_line);
        if (j == 0) {
            x->kfirst[k + 1] = x->kfirst[k] + nc;
        } else { /* the same lines as pass 0's, in the same order */
            if (x->kfirst[k + 1] - x->kfirst[k] != nc) {
                rc = ge_errf(e, "internal: inherited lines differ between orders");
                break;
            }
            for (size_t i = 0; i < nc; i++)
                x->cand[x->kfirst[k] + i].age[j] = c[i].age[j];
        }
        for (uint32_t ci = 0; ci < pk->ncode_warm; ci++) {
            size_t i = cp_find(&cp, pk->code_warm[ci]);
            pk->code_warm_age[(size_t)ci * PROF_NCONC + j] =
                i < cp.n && cp.line[i] == pk->code_warm[ci] ? age_after(x->fw, before, cp.pos[i], scale) : UINT32_MAX;
        }
        for (size_t i = s; i < end; i++) {
            if (x->prev[i] != UINT32_MAX)
                fenwick_add(x->fw, n, (size_t)x->prev[i] + 1, -1);
            fenwick_add(x->fw, n, i + 1, 1);
        }
        for (size_t ci = b->cf_first[k]; ci < b->cf_first[k + 1] && rc == 0; ci++)
            rc = cp_set(&cp, b->cf[ci].line, fetch_pos(log, s, end, &b->cf[ci], w), e);
        s = end;
    }
    free(cp.line);
    free(cp.pos);
    return rc;
}

/* Column j of every age is column j - 1's (order_repeats). */
static void copy_ages(profile *p, inh_work *x, int j)
{
    for (size_t i = 0; i < x->kfirst[p->nkernels]; i++)
        x->cand[i].age[j] = x->cand[i].age[j - 1];
    for (uint32_t k = 0; k < p->nkernels; k++) {
        prof_kernel *pk = &p->k[k];
        for (uint32_t ci = 0; ci < pk->ncode_warm; ci++)
            pk->code_warm_age[(size_t)ci * PROF_NCONC + j] = pk->code_warm_age[(size_t)ci * PROF_NCONC + j - 1];
    }
}

int pb_inherit(pbuild *b, ge_err *e)
{
    size_t n = b->nl2;
    profile *p = b->p;
    for (uint32_t k = 0; k < p->nkernels; k++) {
        prof_kernel *pk = &p->k[k];
        size_t na = (size_t)(pk->ncode_warm ? pk->ncode_warm : 1) * PROF_NCONC;
        pk->code_warm_age = malloc(na * sizeof *pk->code_warm_age);
        if (!pk->code_warm_age)
            return ge_errf(e, "out of memory (code ages)");
        for (size_t i = 0; i < na; i++)
            pk->code_warm_age[i] = UINT32_MAX;
    }
    if (p->nkernels < 2)
        return 0;
    size_t m = n ? n : 1;
    inh_work x = {malloc(m * sizeof *x.ord), malloc(m * sizeof *x.tmp), malloc((m + 1) * sizeof *x.runs),
                  malloc(m * sizeof *x.prev), malloc(m),
                  malloc((n + 1) * sizeof *x.fw), malloc(m * sizeof *x.log), malloc(m * sizeof *x.cand),
                  malloc(m * sizeof *x.scratch), calloc((size_t)p->nkernels + 1, sizeof *x.kfirst)};
    int rc = 0;
    if (!x.ord || !x.tmp || !x.runs || !x.prev || !x.cum || !x.fw || !x.log || !x.cand || !x.scratch || !x.kfirst)
        rc = ge_errf(e, "out of memory (inherited lines)");
    for (int j = 0; j < PROF_NCONC && rc == 0; j++)
        if (!b->gpu_ord[j]) /* the order before (order_repeats): the same ages */
            copy_ages(p, &x, j);
        else
            rc = ages_at(b, &x, j, e);
    for (uint32_t k = 0; k < p->nkernels && rc == 0; k++)
        if (x.kfirst[k + 1] > x.kfirst[k])
            rc = keep(&p->k[k], x.cand + x.kfirst[k], x.kfirst[k + 1] - x.kfirst[k], e);
    free(x.ord);
    free(x.tmp);
    free(x.runs);
    free(x.prev);
    free(x.cum);
    free(x.fw);
    free(x.log);
    free(x.cand);
    free(x.scratch);
    free(x.kfirst);
    return rc;
}
