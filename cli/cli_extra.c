#include "cli_extra.h"

#include <math.h>
#include <string.h>

static int na(const cli_report_extra *x) { return x ? x->ncols : 0; }

static double value(void *ctx, size_t i, int c)
{
    cli_extra_pair *p = ctx;
    if (c < na(p->a))
        return p->a->value(p->a->ctx, i, c);
    c -= na(p->a);
    return p->b && c < p->b->ncols ? p->b->value(p->b->ctx, i, c) : NAN;
}

static void json(void *ctx, size_t i, json_w *j)
{
    cli_extra_pair *p = ctx;
    if (p->a && p->a->json)
        p->a->json(p->a->ctx, i, j);
    if (p->b && p->b->json)
        p->b->json(p->b->ctx, i, j);
}

int cli_extra_pair_init(cli_extra_pair *p, const cli_report_extra *a, const cli_report_extra *b)
{
    memset(p, 0, sizeof *p);
    if (na(a) + na(b) > CLI_EXTRA_MAX_COLS)
        return -1;
    p->a = a;
    p->b = b;
    for (int c = 0; c < na(a); c++)
        p->cols[c] = a->cols[c];
    for (int c = 0; c < na(b); c++)
        p->cols[na(a) + c] = b->cols[c];
    p->extra.ncols = na(a) + na(b);
    p->extra.cols = p->cols;
    p->extra.value = value;
    p->extra.json = json;
    p->extra.ctx = p;
    return 0;
}
