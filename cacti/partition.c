/*
 * partition.c - search over array organisations and the objective.
 *
 * Following the CACTI 6.0 report (HPL-2009-85, sec. 2.3 and 7) an
 * organisation is a choice of Nspd (sets per wordline, from out_w/(8B) for a
 * data array and 1/8 for a tag array, doubling up to 256), Ndwl and Ndbl
 * (2..512, powers of two), the bitline mux Ndcm and the two sense-amp mux
 * levels Ndsam1/Ndsam2 (1..256); array.c rejects invalid ones.
 *
 * Choice (CACTI "solve"): for a cache the tag organisation is chosen first
 * by the weighted metric under the deviation limits (CACTI's template:
 * minimum cycle time among tags within 20% of the fastest), then combined
 * with every data organisation; the final organisation minimises the
 * objective over the combined (cache-level) access time t, read energy E,
 * cycle time, leakage and area:
 *   ED^2: (t/tmin)^2 (E/Emin)   ED: (t/tmin)(E/Emin)
 *   DELAY: least E among organisations with t <= tmin (1 + max_dev)
 *   WEIGHTED: sum of weight_i * metric_i / min_i over organisations that
 *             are within dev_i of every minimum.
 * CACTI also drops data organisations more than 50% worse than the best in
 * both delay and energy; that never removes a minimum of these objectives.
 *
 * Search.  Evaluating every organisation takes tens of ms for a large
 * cache, so the search is a branch and bound that returns the same answer.
 * Every objective above is, after normalisation, a monotone function of
 * (t, E, cycle) minimised under upper limits on some of them.  array.c
 * gives lower bounds on t, E and cycle time for a whole partition and for
 * each of its mux choices (the exact bitline / sense-amp / output-driver
 * figures and H-trees over the smallest possible mats).  Partitions are
 * visited in increasing order of their bound and expanded into mux choices,
 * again in increasing order of bound; the search stops when the next bound
 * is no better than the best organisation found, and skips candidates
 * whose bounds already violate a limit.  A WEIGHTED objective first finds
 * the minimum of each metric it normalises by, the same way.  Objectives
 * that weigh leakage or area fall back to the exhaustive search.  Ties are
 * broken by enumeration order, so results are deterministic.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cacti_int.h"

#define MAX_N 512
#define MAX_MUX 256
#define MAX_SPD 256.0
#define ADDRESS_BITS 42
#define EXTRA_TAG_BITS 5
#define NO_LIMIT_PCT 1e4 /* deviation limits at or above this are treated as absent */

typedef struct {
    cacti_arr *v;
    size_t n, cap;
} arr_list;

static int push(arr_list *l, const cacti_arr *a)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 256;
        cacti_arr *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = *a;
    return 0;
}

/* Figures the objective sees: cache-level when a tag is given. */
typedef struct {
    double t, e, cyc, leak, area, h, w;
} figs;

static void combine(const cacti_spec *s, const cacti_arr *tag, const cacti_arr *data, figs *f)
{
    if (!tag) {
        f->t = data->access_time;
        f->cyc = data->cycle_time;
        f->e = data->e_read;
        f->leak = data->leak + data->gleak;
        f->h = data->height;
        f->w = data->width;
    } else {
        if (s->access_mode == CACTI_ACCESS_FAST) {
            f->t = tag->access_time > data->access_time ? tag->access_time : data->access_time;
        } else if (s->access_mode == CACTI_ACCESS_SEQUENTIAL) {
            f->t = tag->access_time + data->access_time;
        } else {
            double a1 = tag->access_time + data->delay_samux_dec;
            double a2 = data->delay_before_outdrv;
            f->t = (a1 > a2 ? a1 : a2) + data->delay_outdrv_to_out;
        }
        f->cyc = tag->cycle_time > data->cycle_time ? tag->cycle_time : data->cycle_time;
        f->e = data->e_read + tag->e_read;
        f->leak = data->leak + data->gleak + tag->leak + tag->gleak;
        f->h = tag->height > data->height ? tag->height : data->height;
        f->w = tag->width + data->width;
    }
    f->area = f->h * f->w;
}

/* Objective: product t^pt E^pe (pt/pe in {0,1,2}) or weighted sum, with
 * upper limits on t, E and cycle time. */
typedef struct {
    int product;
    int pt, pe;
    double wt, we, wc;        /* weights already divided by the metric minima */
    double tmax, emax, cmax;
    const cacti_arr *tag;     /* data search of a cache: figures are cache-level */
    const cacti_spec *spec;
} objective;

static double ipow(double x, int p)
{
    return p == 0 ? 1.0 : (p == 1 ? x : x * x);
}

static double obj_cost(const objective *o, double t, double e, double c)
{
    if (o->product)
        return ipow(t, o->pt) * ipow(e, o->pe);
    return o->wt * t + o->we * e + o->wc * c;
}

/* Bounds of the cache-level figures from the data array bounds (out: bound
 * on the data array's delay from its output drivers to the output). */
static void lift_bounds(const objective *o, double *t, double *e, double *c, double out)
{
    if (!o->tag)
        return;
    *e += o->tag->e_read;
    if (o->tag->cycle_time > *c)
        *c = o->tag->cycle_time;
    if (o->spec->access_mode == CACTI_ACCESS_SEQUENTIAL) {
        *t += o->tag->access_time;
    } else if (o->spec->access_mode == CACTI_ACCESS_FAST) {
        if (o->tag->access_time > *t)
            *t = o->tag->access_time;
    } else if (o->tag->access_time + out > *t) {
        /* the way select waits for the tag, then the data leaves the array */
        *t = o->tag->access_time + out;
    }
}

static int feasible_lb(const objective *o, double t, double e, double c)
{
    return t <= o->tmax && e <= o->emax && c <= o->cmax;
}

typedef struct {
    double nspd;
    int ndwl, ndbl, ndcm, s1, s2;
    double key;
    unsigned seq;
    int full;                 /* gb includes the H-tree terms */
    cacti_gbound gb;          /* group bounds: cheap (no H-trees) until expanded */
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->key < y->key)
        return -1;
    if (x->key > y->key)
        return 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

typedef struct {
    const cacti_req *rq;
    double nspd_min;
    cacti_matcache *mc;
    cand *groups;             /* valid partitions with their group bounds */
    size_t ng;
    cand *c;                  /* mux choices of one partition */
    size_t nc, cap;
    const objective *obj;
    const cacti_gbound *gb;
    arr_list *out;            /* exhaustive mode: every organisation */
    /* organisations already evaluated by an earlier pass (open addressing) */
    struct memo_slot {
        uint64_t key;         /* 0 = empty */
        int valid;
        cacti_arr a;
    } *memo;
    size_t memo_cap, memo_n;
} engine;

static uint64_t org_key(const cand *x)
{
    uint64_t k = (uint64_t)cacti_ilog2((uint64_t)(x->nspd * 8.0)) & 0xff;
    k = (k << 8) | (uint64_t)cacti_ilog2((uint64_t)x->ndwl);
    k = (k << 8) | (uint64_t)cacti_ilog2((uint64_t)x->ndbl);
    k = (k << 8) | (uint64_t)cacti_ilog2((uint64_t)x->ndcm);
    k = (k << 8) | (uint64_t)cacti_ilog2((uint64_t)x->s1);
    k = (k << 8) | (uint64_t)cacti_ilog2((uint64_t)x->s2);
    return k | (1ull << 63);
}

/* Evaluate (or recall) one organisation; 0 if invalid, -1 on allocation failure. */
static int eval_cand(engine *en, const cand *x, cacti_arr *out)
{
    uint64_t k = org_key(x);
    if (en->memo_cap) {
        size_t i = (size_t)(k * 0x9E3779B97F4A7C15ull >> 20) & (en->memo_cap - 1);
        while (en->memo[i].key) {
            if (en->memo[i].key == k) {
                if (!en->memo[i].valid)
                    return 0;
                *out = en->memo[i].a;
                return 1;
            }
            i = (i + 1) & (en->memo_cap - 1);
        }
    }
    cacti_dp dp;
    int valid = cacti_dp_init(en->rq, x->nspd, x->ndwl, x->ndbl, x->ndcm, x->s1, x->s2, &dp) &&
                cacti_arr_eval(en->rq, &dp, en->mc, out);
    if ((en->memo_n + 1) * 2 > en->memo_cap) {
        size_t nc = en->memo_cap ? 2 * en->memo_cap : 256;
        struct memo_slot *nm = calloc(nc, sizeof *nm);
        if (!nm)
            return -1;
        for (size_t j = 0; j < en->memo_cap; j++) {
            if (!en->memo[j].key)
                continue;
            size_t i = (size_t)(en->memo[j].key * 0x9E3779B97F4A7C15ull >> 20) & (nc - 1);
            while (nm[i].key)
                i = (i + 1) & (nc - 1);
            nm[i] = en->memo[j];
        }
        free(en->memo);
        en->memo = nm;
        en->memo_cap = nc;
    }
    size_t i = (size_t)(k * 0x9E3779B97F4A7C15ull >> 20) & (en->memo_cap - 1);
    while (en->memo[i].key)
        i = (i + 1) & (en->memo_cap - 1);
    en->memo[i].key = k;
    en->memo[i].valid = valid;
    if (valid)
        en->memo[i].a = *out;
    en->memo_n++;
    return valid;
}

/* Enumerate the valid mux choices of a partition; fn returns non-zero to stop. */
typedef int (*split_fn)(engine *e, const cacti_dp *dp, int ndcm, int s1, int s2);

static int for_splits(engine *en, double nspd, int ndwl, int ndbl, split_fn fn)
{
    cacti_dp base;
    if (!cacti_dp_rows(en->rq, nspd, ndwl, ndbl, &base))
        return 0;
    double cols = base.cols;
    for (int ndcm = 1; ndcm <= MAX_MUX; ndcm *= 2) {
        if (4.0 * cols / ndcm < 4.0)
            break;
        for (int s1 = 1; s1 <= MAX_MUX; s1 *= 2) {
            if (4.0 * cols / ((double)ndcm * s1) < 4.0)
                break;
            for (int s2 = 1; s2 <= MAX_MUX; s2 *= 2) {
                if (floor(4.0 * cols / ((double)ndcm * s1 * s2)) < 4.0)
                    break;
                cacti_dp dp;
                if (!cacti_dp_split(en->rq, &base, ndcm, s1, s2, &dp))
                    continue;
                int rc = fn(en, &dp, ndcm, s1, s2);
                if (rc)
                    return rc;
            }
        }
    }
    return 0;
}

static int bound_split(engine *en, const cacti_dp *dp, int ndcm, int s1, int s2)
{
    double tl, el, cl, ol;
    cacti_split_bound(en->rq, dp, en->mc, en->gb, &tl, &el, &cl, &ol);
    lift_bounds(en->obj, &tl, &el, &cl, ol);
    if (!feasible_lb(en->obj, tl, el, cl))
        return 0;
    if (en->nc == en->cap) {
        size_t nc = en->cap ? 2 * en->cap : 1024;
        cand *n = realloc(en->c, nc * sizeof *n);
        if (!n)
            return -1;
        en->c = n;
        en->cap = nc;
    }
    cand *x = &en->c[en->nc];
    x->nspd = dp->nspd;
    x->ndwl = dp->ndwl;
    x->ndbl = dp->ndbl;
    x->ndcm = ndcm;
    x->s1 = s1;
    x->s2 = s2;
    x->key = obj_cost(en->obj, tl, el, cl);
    x->seq = (unsigned)en->nc;
    en->nc++;
    return 0;
}

static cacti_status engine_init(engine *en, const cacti_req *rq, double nspd_min)
{
    memset(en, 0, sizeof *en);
    en->rq = rq;
    en->nspd_min = nspd_min;
    en->mc = calloc(1, sizeof *en->mc);
    if (!en->mc)
        return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
    size_t cap = 0;
    for (double nspd = nspd_min; nspd <= MAX_SPD; nspd *= 2.0)
        for (int ndwl = 2; ndwl <= MAX_N; ndwl *= 2)
            for (int ndbl = 2; ndbl <= MAX_N; ndbl *= 2) {
                cacti_gbound gb;
                if (!cacti_group_prep(rq, nspd, ndwl, ndbl, en->mc, &gb, 0))
                    continue;
                if (en->ng == cap) {
                    cap = cap ? 2 * cap : 256;
                    cand *n = realloc(en->groups, cap * sizeof *n);
                    if (!n)
                        return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
                    en->groups = n;
                }
                cand *x = &en->groups[en->ng];
                memset(x, 0, sizeof *x);
                x->nspd = nspd;
                x->ndwl = ndwl;
                x->ndbl = ndbl;
                x->gb = gb;
                x->seq = (unsigned)en->ng;
                en->ng++;
            }
    return CACTI_OK;
}

static void engine_free(engine *en)
{
    free(en->memo);
    free(en->mc);
    free(en->groups);
    free(en->c);
}

static double group_key(const objective *o, const cand *g)
{
    double tl = g->gb.t_lb, el = g->gb.e_lb, cl = g->gb.c_lb;
    lift_bounds(o, &tl, &el, &cl, g->gb.out_lb);
    return feasible_lb(o, tl, el, cl) ? obj_cost(o, tl, el, cl) : DBL_MAX;
}

/* binary min-heap of group indices ordered by (key, seq) */
static int heap_less(const cand *g, size_t a, size_t b)
{
    return g[a].key < g[b].key || (g[a].key == g[b].key && g[a].seq < g[b].seq);
}

static void heap_down(size_t *h, size_t n, size_t i, const cand *g)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && heap_less(g, h[l], h[m]))
            m = l;
        if (r < n && heap_less(g, h[r], h[m]))
            m = r;
        if (m == i)
            return;
        size_t x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

/* Branch and bound for objective o; the best organisation goes to *best
 * (found = 0 if none is feasible).  Groups start with cheap bounds (no
 * H-trees); the best one is refined to its full bound and re-queued, and is
 * expanded into mux choices only when its full bound is still the lowest. */
static cacti_status engine_run(engine *en, const objective *o, cacti_arr *best, int *found)
{
    *found = 0;
    en->obj = o;
    size_t *heap = malloc((en->ng ? en->ng : 1) * sizeof *heap);
    if (!heap)
        return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
    size_t nh = 0;
    for (size_t i = 0; i < en->ng; i++) {
        en->groups[i].key = group_key(o, &en->groups[i]);
        if (en->groups[i].key != DBL_MAX)
            heap[nh++] = i;
    }
    for (size_t i = nh / 2; i-- > 0;)
        heap_down(heap, nh, i, en->groups);
    double best_cost = DBL_MAX;
    cacti_status st = CACTI_OK;
    while (nh > 0) {
        cand *g = &en->groups[heap[0]];
        if (g->key >= best_cost)
            break;
        if (!g->full) {
            cacti_group_prep(en->rq, g->nspd, g->ndwl, g->ndbl, en->mc, &g->gb, 1);
            g->full = 1;
            g->key = group_key(o, g);
            if (g->key == DBL_MAX) {
                heap[0] = heap[--nh];
            }
            heap_down(heap, nh, 0, en->groups);
            continue;
        }
        heap[0] = heap[--nh];
        heap_down(heap, nh, 0, en->groups);
        en->gb = &g->gb;
        en->nc = 0;
        if (for_splits(en, g->nspd, g->ndwl, g->ndbl, bound_split)) {
            st = cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
            break;
        }
        if (en->nc > 1)
            qsort(en->c, en->nc, sizeof *en->c, cand_cmp);
        for (size_t i = 0; i < en->nc; i++) {
            const cand *x = &en->c[i];
            if (x->key >= best_cost)
                break;
            cacti_arr a;
            int v = eval_cand(en, x, &a);
            if (v < 0) {
                st = cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
                break;
            }
            if (!v)
                continue;
            figs f;
            combine(o->spec, o->tag, &a, &f);
            if (f.t > o->tmax || f.e > o->emax || f.cyc > o->cmax)
                continue;
            double c = obj_cost(o, f.t, f.e, f.cyc);
            if (c < best_cost || (c == best_cost && !*found)) {
                best_cost = c;
                *best = a;
                *found = 1;
            }
        }
        if (st != CACTI_OK)
            break;
    }
    free(heap);
    return st;
}

/* ---- exhaustive search (fallback, and the reference the tests compare to) ---- */

static int eval_split(engine *en, const cacti_dp *dp, int ndcm, int s1, int s2)
{
    (void)ndcm, (void)s1, (void)s2;
    cacti_arr a;
    if (!cacti_arr_eval(en->rq, dp, en->mc, &a))
        return 0;
    return push(en->out, &a) ? -1 : 0;
}

static cacti_status enumerate_all(engine *en, arr_list *out)
{
    en->out = out;
    for (size_t i = 0; i < en->ng; i++)
        if (for_splits(en, en->groups[i].nspd, en->groups[i].ndwl, en->groups[i].ndbl, eval_split))
            return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
    return CACTI_OK;
}

typedef struct {
    double t, e, leak, cyc, area;
} mins;

static void mins_init(mins *m)
{
    m->t = m->e = m->leak = m->cyc = m->area = DBL_MAX;
}

static void mins_upd(mins *m, const figs *f)
{
    if (f->t < m->t)
        m->t = f->t;
    if (f->e < m->e)
        m->e = f->e;
    if (f->leak < m->leak)
        m->leak = f->leak;
    if (f->cyc < m->cyc)
        m->cyc = f->cyc;
    if (f->area < m->area)
        m->area = f->area;
}

static int within_dev(const double *dev, const mins *m, const figs *f)
{
    const double v[5] = {f->t, f->e, f->leak, f->cyc, f->area};
    const double mn[5] = {m->t, m->e, m->leak, m->cyc, m->area};
    for (int i = 0; i < 5; i++)
        if (mn[i] > 0 && (v[i] - mn[i]) / mn[i] * 100.0 > dev[i])
            return 0;
    return 1;
}

static double weighted(const double *w, const mins *m, const figs *f)
{
    const double v[5] = {f->t, f->e, f->leak, f->cyc, f->area};
    const double mn[5] = {m->t, m->e, m->leak, m->cyc, m->area};
    double c = 0.0;
    for (int i = 0; i < 5; i++)
        if (w[i] != 0.0 && mn[i] > 0)
            c += w[i] * v[i] / mn[i];
    return c;
}

/* Exhaustive choice among a list (figures cache-level when tag != NULL). */
static const cacti_arr *choose_list(const cacti_spec *s, cacti_objective kind, const double *w,
                                    const double *dev, const cacti_arr *tag, const arr_list *l)
{
    mins m;
    mins_init(&m);
    for (size_t i = 0; i < l->n; i++) {
        figs f;
        combine(s, tag, &l->v[i], &f);
        mins_upd(&m, &f);
    }
    const cacti_arr *best = NULL;
    double bc = DBL_MAX;
    for (size_t i = 0; i < l->n; i++) {
        figs f;
        combine(s, tag, &l->v[i], &f);
        double tr = f.t / m.t, er = f.e / m.e, cost;
        switch (kind) {
        case CACTI_OPT_ED:
            cost = tr * er;
            break;
        case CACTI_OPT_DELAY:
            cost = (tr - 1.0) * 100.0 <= s->max_dev_pct + 1e-9 ? er : DBL_MAX;
            break;
        case CACTI_OPT_WEIGHTED:
            cost = within_dev(dev, &m, &f) ? weighted(w, &m, &f) : DBL_MAX;
            break;
        default:
            cost = tr * tr * er;
            break;
        }
        if (cost < bc) {
            bc = cost;
            best = &l->v[i];
        }
    }
    return best;
}

/* Bounded choice: the same answer as choose_list over every organisation. */
static cacti_status choose_bnb(engine *en, const cacti_spec *s, cacti_objective kind, const double *w,
                               const double *dev, const cacti_arr *tag, cacti_arr *best, int *found)
{
    objective o;
    memset(&o, 0, sizeof o);
    o.tag = tag;
    o.spec = s;
    o.tmax = o.emax = o.cmax = DBL_MAX;
    o.product = 1;
    cacti_status st;
    if (kind == CACTI_OPT_ED2 || kind == CACTI_OPT_ED) {
        o.pt = kind == CACTI_OPT_ED2 ? 2 : 1;
        o.pe = 1;
        return engine_run(en, &o, best, found);
    }
    /* minima of the metrics the objective normalises by or limits */
    double mn[3] = {0, 0, 0}; /* t, e, cycle */
    int need[3] = {1, 0, 0};
    if (kind == CACTI_OPT_WEIGHTED) {
        /* a minimum is needed for a deviation limit, or to normalise when
         * more than one metric is weighed (one weight: argmin is unchanged) */
        int nw = (w[CACTI_M_DELAY] != 0) + (w[CACTI_M_DYN] != 0) + (w[CACTI_M_CYCLE] != 0);
        need[0] = (nw > 1 && w[CACTI_M_DELAY] != 0) || dev[CACTI_M_DELAY] < NO_LIMIT_PCT;
        need[1] = (nw > 1 && w[CACTI_M_DYN] != 0) || dev[CACTI_M_DYN] < NO_LIMIT_PCT;
        need[2] = (nw > 1 && w[CACTI_M_CYCLE] != 0) || dev[CACTI_M_CYCLE] < NO_LIMIT_PCT;
    }
    for (int k = 0; k < 3; k++) {
        if (!need[k])
            continue;
        o.pt = k == 0;
        o.pe = k == 1;
        if (k == 2) {
            o.product = 0;
            o.wt = o.we = 0.0;
            o.wc = 1.0;
        }
        cacti_arr a;
        int f;
        if ((st = engine_run(en, &o, &a, &f)) != CACTI_OK)
            return st;
        if (!f) {
            *found = 0;
            return CACTI_OK;
        }
        figs fg;
        combine(s, tag, &a, &fg);
        mn[k] = k == 0 ? fg.t : (k == 1 ? fg.e : fg.cyc);
        o.product = 1;
    }
    if (kind == CACTI_OPT_DELAY) {
        o.product = 1;
        o.pt = 0;
        o.pe = 1;
        o.tmax = mn[0] * (1.0 + (s->max_dev_pct + 1e-9) / 100.0);
        return engine_run(en, &o, best, found);
    }
    o.product = 0;
    o.wt = w[CACTI_M_DELAY] != 0 ? w[CACTI_M_DELAY] / (need[0] ? mn[0] : 1.0) : 0.0;
    o.we = w[CACTI_M_DYN] != 0 ? w[CACTI_M_DYN] / (need[1] ? mn[1] : 1.0) : 0.0;
    o.wc = w[CACTI_M_CYCLE] != 0 ? w[CACTI_M_CYCLE] / (need[2] ? mn[2] : 1.0) : 0.0;
    if (dev[CACTI_M_DELAY] < NO_LIMIT_PCT)
        o.tmax = mn[0] * (1.0 + dev[CACTI_M_DELAY] / 100.0);
    if (dev[CACTI_M_DYN] < NO_LIMIT_PCT)
        o.emax = mn[1] * (1.0 + dev[CACTI_M_DYN] / 100.0);
    if (dev[CACTI_M_CYCLE] < NO_LIMIT_PCT)
        o.cmax = mn[2] * (1.0 + dev[CACTI_M_CYCLE] / 100.0);
    return engine_run(en, &o, best, found);
}

/* Choose one array organisation for request rq. */
static cacti_status choose_array(const cacti_req *rq, double nspd_min, cacti_objective kind, const double *w,
                                 const double *dev, const cacti_arr *tag, int exhaustive, cacti_arr *best,
                                 int *found)
{
    engine en;
    cacti_status st = engine_init(&en, rq, nspd_min);
    *found = 0;
    /* leakage and area have no useful bounds: such objectives search everything */
    /* with no weight CACTI keeps the first organisation (in enumeration order)
     * within the limits: that too needs the full list */
    int simple = !(kind == CACTI_OPT_WEIGHTED &&
                   (w[CACTI_M_LEAK] != 0 || w[CACTI_M_AREA] != 0 || dev[CACTI_M_LEAK] < NO_LIMIT_PCT ||
                    dev[CACTI_M_AREA] < NO_LIMIT_PCT ||
                    (w[CACTI_M_DELAY] == 0 && w[CACTI_M_DYN] == 0 && w[CACTI_M_CYCLE] == 0)));
    if (st == CACTI_OK && simple && !exhaustive) {
        st = choose_bnb(&en, rq->spec, kind, w, dev, tag, best, found);
    } else if (st == CACTI_OK) {
        arr_list l = {0};
        st = enumerate_all(&en, &l);
        if (st == CACTI_OK) {
            const cacti_arr *b = choose_list(rq->spec, kind, w, dev, tag, &l);
            if (b) {
                *best = *b;
                *found = 1;
            }
        }
        free(l.v);
    }
    engine_free(&en);
    return st;
}

static void fill_org(const cacti_arr *a, cacti_org *o)
{
    const cacti_dp *dp = &a->dp;
    o->ndwl = (uint32_t)dp->ndwl;
    o->ndbl = (uint32_t)dp->ndbl;
    o->nspd = dp->nspd;
    o->ndcm = (uint32_t)dp->ndcm;
    o->ndsam1 = (uint32_t)dp->ndsam1;
    o->ndsam2 = (uint32_t)dp->ndsam2;
    o->rows = (uint32_t)dp->rows;
    o->cols = (uint32_t)(dp->cols + (dp->ecc ? (dp->cols + 7) / 8 : 0));
    o->mats = (uint32_t)dp->num_mats;
    o->active_mats = (uint32_t)dp->num_act_mats;
    o->height_mm = a->height * 1e-3;
    o->width_mm = a->width * 1e-3;
}

static uint32_t default_tagbits(const cacti_spec *s, int assoc)
{
    int lc = cacti_ilog2(s->size_bytes);
    int la = cacti_ilog2((uint64_t)(2 * assoc - 1));
    int tb = ADDRESS_BITS + EXTRA_TAG_BITS - lc + la;
    return tb > 1 ? (uint32_t)tb : 1u;
}

static void fill_result(const cacti_arr *tag, const cacti_arr *data, const figs *f, uint32_t tagbits,
                        cacti_result *res)
{
    res->access_time_ns = f->t * 1e9;
    res->cycle_time_ns = f->cyc * 1e9;
    res->read_energy_nj = f->e * 1e9;
    res->write_energy_nj = (data->e_write + (tag ? tag->e_write : 0.0)) * 1e9;
    res->search_energy_nj = data->e_search * 1e9;
    res->subthreshold_leakage_mw = (data->leak + (tag ? tag->leak : 0.0)) * 1e3;
    res->gate_leakage_mw = (data->gleak + (tag ? tag->gleak : 0.0)) * 1e3;
    res->leakage_mw = res->subthreshold_leakage_mw + res->gate_leakage_mw;
    res->height_mm = f->h * 1e-3;
    res->width_mm = f->w * 1e-3;
    res->area_mm2 = f->area * 1e-6;
    double cells = data->cell_area + (tag ? tag->cell_area : 0.0);
    res->area_efficiency = f->area > 0 ? cells / f->area : 0.0;
    res->tag_bits = tagbits;
    fill_org(data, &res->data);
    if (tag)
        fill_org(tag, &res->tag);
}

static cacti_status search_fa(const cacti_spec *s, const cacti_tech *t, cacti_result *res)
{
    cacti_req rq = {s, t, 0, 0, 0, 1};
    rq.tagbits = s->is_cache ? (int)(s->tag_bits ? s->tag_bits
                                                 : (uint32_t)(ADDRESS_BITS + EXTRA_TAG_BITS -
                                                              cacti_ilog2(s->line_bytes)))
                             : (int)(8 * s->line_bytes);
    rq.out_w = (int)s->output_bits;
    arr_list l = {0};
    for (int ndbl = 2; ndbl <= MAX_N; ndbl *= 2) {
        cacti_arr a;
        if (!cacti_cam_eval(&rq, ndbl, &a))
            continue;
        if (push(&l, &a)) {
            free(l.v);
            return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
        }
    }
    if (l.n == 0) {
        free(l.v);
        return cacti_fail(CACTI_ENOSOL, "no valid CAM organisation (fewer than 32 entries per bank)");
    }
    /* the search energy drives the choice of a CAM (a read of a fully
     * associative cache already is a search) */
    double *plain = malloc(l.n * sizeof *plain);
    if (!plain) {
        free(l.v);
        return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
    }
    for (size_t i = 0; i < l.n; i++) {
        plain[i] = l.v[i].e_read;
        l.v[i].e_read = l.v[i].e_search;
    }
    const cacti_arr *b = choose_list(s, s->objective, s->weight, s->dev_pct, NULL, &l);
    if (!b) {
        free(plain);
        free(l.v);
        return cacti_fail(CACTI_ENOSOL, "no CAM organisation met the objective");
    }
    cacti_arr best = *b;
    best.e_read = plain[b - l.v];
    free(plain);
    free(l.v);
    figs f;
    combine(s, NULL, &best, &f);
    fill_result(NULL, &best, &f, s->is_cache ? (uint32_t)rq.tagbits : 0, res);
    return CACTI_OK;
}

cacti_status cacti_search_ex(const cacti_spec *s, const cacti_tech *t, cacti_result *res, int exhaustive)
{
    memset(res, 0, sizeof *res);
    if (s->assoc == 0)
        return search_fa(s, t, res);

    int A = s->is_cache ? (int)s->assoc : 1;
    uint32_t tagbits = 0;
    cacti_arr tag, data;
    int have_tag = 0, found;
    cacti_status st;
    if (s->is_cache) {
        tagbits = s->tag_bits ? s->tag_bits : default_tagbits(s, A);
        cacti_req rt = {s, t, 1, (int)tagbits, (int)s->output_bits, A};
        st = choose_array(&rt, 0.125, CACTI_OPT_WEIGHTED, s->weight, s->dev_pct, NULL, exhaustive, &tag, &found);
        if (st != CACTI_OK)
            return st;
        if (!found)
            return cacti_fail(CACTI_ENOSOL, "no valid tag-array organisation (bank too small for the minimum "
                                            "array of 2x2 subarrays with 16 rows, or no tag meets the limits)");
        have_tag = 1;
    }
    cacti_req rd = {s, t, 0, 0, (int)s->output_bits, A};
    st = choose_array(&rd, (double)s->output_bits / (8.0 * s->line_bytes), s->objective, s->weight, s->dev_pct,
                      have_tag ? &tag : NULL, exhaustive, &data, &found);
    if (st != CACTI_OK)
        return st;
    if (!found)
        return cacti_fail(CACTI_ENOSOL, "no valid data-array organisation (bank too small for the minimum array "
                                        "of 2x2 subarrays with 16 rows, output width not deliverable, or no "
                                        "organisation meets the deviation limits)");
    figs f;
    combine(s, have_tag ? &tag : NULL, &data, &f);
    fill_result(have_tag ? &tag : NULL, &data, &f, tagbits, res);
    return CACTI_OK;
}

cacti_status cacti_search(const cacti_spec *s, const cacti_tech *t, cacti_result *res)
{
    return cacti_search_ex(s, t, res, 0);
}
