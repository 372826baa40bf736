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
 * Computed from the workload-wide L2 log, in log order (kernels in launch
 * order), with the classic stack-distance method: a Fenwick tree marks, at
 * each kernel start, the position of every line's latest access; the age of
 * a line last used at position j is the number of marks after j.  When the
 * log is hash-sampled (SHARDS, profiler.c), ages are scaled back and only
 * the sampled lines are listed.
 */
#include <stdlib.h>

#include "fenwick.h"
#include "prof_int.h"

typedef struct {
    uint64_t line;
    uint32_t age;
    uint8_t sectors;
} inh;

/* Sort log indices by (line, index): a merge sort, since qsort has no
 * context pointer in C11. */
static void sort_idx(uint32_t *v, uint32_t *tmp, size_t n, const pb_l2rec *log)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_idx(v, tmp, h, log);
    sort_idx(v + h, tmp, n - h, log);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) /* the halves are each in index order: ties keep it */
        tmp[k++] = log[v[j]].line < log[v[i]].line ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    for (size_t x = 0; x < n; x++)
        v[x] = tmp[x];
}

static int cmp_age(const void *a, const void *b)
{
    const inh *x = a, *y = b;
    if (x->age != y->age)
        return x->age < y->age ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int keep(prof_kernel *pk, inh *c, size_t n, ge_err *e)
{
    qsort(c, n, sizeof *c, cmp_age);
    if (n > PROF_INHERIT_MAX)
        n = PROF_INHERIT_MAX;
    pk->inherit_line = malloc((n ? n : 1) * sizeof *pk->inherit_line);
    pk->inherit_age = malloc((n ? n : 1) * sizeof *pk->inherit_age);
    pk->inherit_sectors = malloc(n ? n : 1);
    if (!pk->inherit_line || !pk->inherit_age || !pk->inherit_sectors)
        return ge_errf(e, "out of memory (inherited lines)");
    for (size_t i = 0; i < n; i++) {
        pk->inherit_line[i] = c[i].line;
        pk->inherit_age[i] = c[i].age;
        pk->inherit_sectors[i] = c[i].sectors;
    }
    pk->ninherit = (uint32_t)n;
    return 0;
}

int pb_inherit(pbuild *b, ge_err *e)
{
    const pb_l2rec *log = b->l2;
    size_t n = b->nl2;
    profile *p = b->p;
    if (n == 0 || p->nkernels < 2)
        return 0;
    if (n > UINT32_MAX - 1)
        return ge_errf(e, "L2 log too long for the inherited-line record");
    uint32_t *ord = malloc(n * sizeof *ord), *tmp = malloc(n * sizeof *tmp), *prev = malloc(n * sizeof *prev);
    uint8_t *cum = malloc(n);
    int32_t *fw = calloc(n + 1, sizeof *fw); /* log position i is tree position i + 1 */
    inh *cand = malloc(n * sizeof *cand);
    int rc = 0;
    if (!ord || !tmp || !prev || !cum || !fw || !cand) {
        rc = ge_errf(e, "out of memory (inherited lines)");
        goto out;
    }
    /* prev[i]: the previous access to the same line (UINT32_MAX: none);
     * cum[i]: the sectors touched in accesses to it up to and including i */
    for (size_t i = 0; i < n; i++)
        ord[i] = (uint32_t)i;
    sort_idx(ord, tmp, n, log);
    for (size_t x = 0; x < n; x++) {
        uint32_t i = ord[x];
        int same = x > 0 && log[ord[x - 1]].line == log[i].line;
        prev[i] = same ? ord[x - 1] : UINT32_MAX;
        cum[i] = (uint8_t)((same ? cum[ord[x - 1]] : 0) | log[i].sectors);
    }
    double scale = (double)(1ULL << b->l2_shift);
    size_t s = 0; /* start of the current kernel in the log */
    while (s < n && rc == 0) {
        uint32_t k = log[s].kernel;
        size_t end = s;
        while (end < n && log[end].kernel == k)
            end++;
        /* marks are at the latest access (< s) of every line: age = marks after prev */
        size_t nc = 0;
        int64_t before = fenwick_sum(fw, s);
        for (size_t i = s; i < end; i++) {
            uint32_t j = prev[i];
            if (j == UINT32_MAX || j >= s) /* new line, or not the kernel's first touch */
                continue;
            double age = (double)(before - fenwick_sum(fw, (size_t)j + 1)) * scale;
            cand[nc].line = log[i].line;
            cand[nc].age = age < UINT32_MAX ? (uint32_t)age : UINT32_MAX;
            cand[nc].sectors = cum[j];
            nc++;
        }
        if (k < p->nkernels && nc)
            rc = keep(&p->k[k], cand, nc, e);
        for (size_t i = s; i < end; i++) {
            if (prev[i] != UINT32_MAX)
                fenwick_add(fw, n, (size_t)prev[i] + 1, -1);
            fenwick_add(fw, n, i + 1, 1);
        }
        s = end;
    }
out:
    free(ord);
    free(tmp);
    free(prev);
    free(cum);
    free(fw);
    free(cand);
    return rc;
}
