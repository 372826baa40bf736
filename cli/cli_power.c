#include "cli_power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const power_cols[] = {"power_w", "energy_j", "edp", "ed2p"};

static const pwr_result *row(const cli_power *cp, size_t i) { return i < cp->n ? &cp->k[i] : &cp->total; }

static double value(void *ctx, size_t i, int c)
{
    const pwr_result *r = row(ctx, i);
    switch (c) {
    case 0: return r->total_w;
    case 1: return r->energy_j;
    case 2: return r->edp;
    case 3: return r->ed2p;
    default: return NAN;
    }
}

/* The columns above are already JSON keys; add what does not fit a column. */
static void json(void *ctx, size_t i, json_w *j)
{
    const pwr_result *r = row(ctx, i);
    json_knum(j, "seconds", r->seconds);
    json_key(j, "power_breakdown_w");
    json_obj_begin(j);
    for (int c = 0; c < PWR_COMPONENT_COUNT; c++)
        json_knum(j, pwr_component_names[c], r->comp_w[c]);
    json_obj_end(j);
}

int cli_power_init(cli_power *cp, const gpu_config *cfg, const kresult *k, size_t n, ge_err *e)
{
    memset(cp, 0, sizeof *cp);
    cp->model = pwr_create(cfg, e);
    if (!cp->model)
        return -1;
    cp->k = calloc(n ? n : 1, sizeof *cp->k);
    if (!cp->k) {
        cli_power_free(cp);
        return ge_errf(e, "out of memory");
    }
    cp->n = n;
    for (size_t i = 0; i < n; i++) {
        if (pwr_kernel(cp->model, &k[i], &cp->k[i], e)) {
            cli_power_free(cp);
            return -1;
        }
        pwr_accumulate(&cp->total, &cp->k[i]);
    }
    cp->extra.ncols = 4;
    cp->extra.cols = power_cols;
    cp->extra.value = value;
    cp->extra.json = json;
    cp->extra.ctx = cp;
    return 0;
}

void cli_power_free(cli_power *cp)
{
    pwr_free(cp->model);
    free(cp->k);
    memset(cp, 0, sizeof *cp);
}
