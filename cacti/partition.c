/*
 * partition.c - search over array organisations and the objective.
 *
 * Following the CACTI 6.0 report (HPL-2009-85, sec. 2.3 and 7) every
 * combination of Nspd (sets per wordline, from out_w/(8B) for a data array
 * and 1/8 for a tag array, doubling up to 256), Ndwl and Ndbl (2..512,
 * powers of two), the bitline mux Ndcm and the two sense-amp mux levels
 * Ndsam1/Ndsam2 (1..256) that yields a valid partition (array.c) is
 * evaluated.  Cheap feasibility tests on the mux degrees prune the space
 * before the circuit model runs.
 *
 * Choice (CACTI "solve"): data organisations that are more than 50% worse
 * than the best in both delay and energy are dropped.  For a cache the tag
 * organisation is chosen first by the weighted metric under the deviation
 * limits (CACTI's template: minimum cycle time among tags within 20% of the
 * fastest), then combined with every data organisation.  The final
 * organisation minimises the objective over the combined (cache-level)
 * access time t and read energy E:
 *   ED^2: (t/tmin)^2 (E/Emin)   ED: (t/tmin)(E/Emin)
 *   DELAY: least E among organisations with t <= tmin (1 + max_dev)
 *   WEIGHTED: sum of weight_i * metric_i / min_i over organisations that
 *             are within dev_i of every minimum.
 * Ties are broken by search order, so results are deterministic.
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

long g_nevals;
static cacti_status enumerate(const cacti_req *rq, double nspd_min, arr_list *out)
{
    const cacti_spec *s = rq->spec;
    int A = rq->assoc;
    for (double nspd = nspd_min; nspd <= MAX_SPD; nspd *= 2.0) {
        for (int ndwl = 2; ndwl <= MAX_N; ndwl *= 2) {
            for (int ndbl = 2; ndbl <= MAX_N; ndbl *= 2) {
                double rows = (double)s->size_bytes / ((double)s->banks * s->line_bytes * A * ndbl * nspd);
                if (rows < 16.0 - 1e-9 || rows > 262144.0)
                    continue;
                double bits = rq->is_tag ? rq->tagbits : 8.0 * s->line_bytes;
                double cols = ceil(bits * A * nspd / ndwl - 1e-9);
                if (cols < 2 || cols > 262144)
                    continue;
                for (int ndcm = 1; ndcm <= MAX_MUX; ndcm *= 2) {
                    if (4.0 * cols / ndcm < 4.0)
                        break;
                    for (int s1 = 1; s1 <= MAX_MUX; s1 *= 2) {
                        if (4.0 * cols / ((double)ndcm * s1) < 4.0)
                            break;
                        for (int s2 = 1; s2 <= MAX_MUX; s2 *= 2) {
                            double do_mat = floor(4.0 * cols / ((double)ndcm * s1 * s2));
                            if (do_mat < 4.0)
                                break;
                            cacti_dp dp;
                            if (!cacti_dp_init(rq, nspd, ndwl, ndbl, ndcm, s1, s2, &dp))
                                continue;
                            cacti_arr a;
                            g_nevals++;
                            if (!cacti_arr_eval(rq, &dp, &a))
                                continue;
                            if (push(out, &a))
                                return cacti_fail(CACTI_ENOMEM, "out of memory during the organisation search");
                        }
                    }
                }
            }
        }
    }
    return CACTI_OK;
}

/* Cache-level figures of a (tag, data) pair. */
typedef struct {
    const cacti_arr *tag, *data;
    double t, cyc, e, leak, area, h, w;
} combo;

static void combine(const cacti_spec *s, const cacti_arr *tag, const cacti_arr *data, combo *c)
{
    c->tag = tag;
    c->data = data;
    if (!tag) {
        c->t = data->access_time;
        c->cyc = data->cycle_time;
        c->e = data->e_read;
        c->leak = data->leak + data->gleak;
        c->h = data->height;
        c->w = data->width;
    } else {
        if (s->access_mode == CACTI_ACCESS_FAST) {
            c->t = tag->access_time > data->access_time ? tag->access_time : data->access_time;
        } else if (s->access_mode == CACTI_ACCESS_SEQUENTIAL) {
            c->t = tag->access_time + data->access_time;
        } else {
            double a1 = tag->access_time + data->delay_samux_dec;
            double a2 = data->delay_before_outdrv;
            c->t = (a1 > a2 ? a1 : a2) + data->delay_outdrv_to_out;
        }
        c->cyc = tag->cycle_time > data->cycle_time ? tag->cycle_time : data->cycle_time;
        c->e = data->e_read + tag->e_read;
        c->leak = data->leak + data->gleak + tag->leak + tag->gleak;
        c->h = tag->height > data->height ? tag->height : data->height;
        c->w = tag->width + data->width;
    }
    c->area = c->h * c->w;
}

typedef struct {
    double t, e, leak, cyc, area;
} mins;

static void mins_init(mins *m)
{
    m->t = m->e = m->leak = m->cyc = m->area = DBL_MAX;
}

static void mins_upd(mins *m, double t, double e, double leak, double cyc, double area)
{
    if (t < m->t)
        m->t = t;
    if (e < m->e)
        m->e = e;
    if (leak < m->leak)
        m->leak = leak;
    if (cyc < m->cyc)
        m->cyc = cyc;
    if (area < m->area)
        m->area = area;
}

static int within_dev(const double *dev, const mins *m, double t, double e, double leak, double cyc,
                      double area)
{
    const double v[5] = {t, e, leak, cyc, area};
    const double mn[5] = {m->t, m->e, m->leak, m->cyc, m->area};
    for (int i = 0; i < 5; i++)
        if (mn[i] > 0 && (v[i] - mn[i]) / mn[i] * 100.0 > dev[i])
            return 0;
    return 1;
}

static double weighted(const double *w, const mins *m, double t, double e, double leak, double cyc,
                       double area)
{
    const double v[5] = {t, e, leak, cyc, area};
    const double mn[5] = {m->t, m->e, m->leak, m->cyc, m->area};
    double c = 0.0;
    for (int i = 0; i < 5; i++)
        if (w[i] != 0.0 && mn[i] > 0)
            c += w[i] * v[i] / mn[i];
    return c;
}

static const cacti_arr *pick_tag(const cacti_spec *s, const arr_list *l)
{
    mins m;
    mins_init(&m);
    for (size_t i = 0; i < l->n; i++) {
        const cacti_arr *a = &l->v[i];
        mins_upd(&m, a->access_time, a->e_read, a->leak + a->gleak, a->cycle_time, a->area);
    }
    const cacti_arr *best = NULL;
    double bc = DBL_MAX;
    for (size_t i = 0; i < l->n; i++) {
        const cacti_arr *a = &l->v[i];
        double leak = a->leak + a->gleak;
        if (!within_dev(s->dev_pct, &m, a->access_time, a->e_read, leak, a->cycle_time, a->area))
            continue;
        double c = weighted(s->weight, &m, a->access_time, a->e_read, leak, a->cycle_time, a->area);
        if (c < bc) {
            bc = c;
            best = a;
        }
    }
    return best;
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

static cacti_status search_fa(const cacti_spec *s, const cacti_tech *t, cacti_result *res)
{
    cacti_req rq = {s, t, 0, 0, 0, 1};
    rq.tagbits = s->is_cache ? (int)(s->tag_bits ? s->tag_bits
                                                 : (uint32_t)(ADDRESS_BITS + EXTRA_TAG_BITS -
                                                              cacti_ilog2(s->line_bytes)))
                             : (int)(8 * s->line_bytes);
    rq.out_w = (int)s->output_bits;
    cacti_arr best;
    memset(&best, 0, sizeof best);
    int have = 0;
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
        return cacti_fail(CACTI_ENOSOL, "no valid CAM organisation (too few entries per bank)");
    }
    mins m;
    mins_init(&m);
    for (size_t i = 0; i < l.n; i++)
        mins_upd(&m, l.v[i].access_time, l.v[i].e_search, l.v[i].leak, l.v[i].cycle_time, l.v[i].area);
    double bc = DBL_MAX;
    for (size_t i = 0; i < l.n; i++) {
        double tr = l.v[i].access_time / m.t, er = l.v[i].e_search / m.e;
        double c = s->objective == CACTI_OPT_ED ? tr * er : tr * tr * er;
        if (s->objective == CACTI_OPT_DELAY)
            c = (tr - 1.0) * 100.0 <= s->max_dev_pct ? er : DBL_MAX;
        if (c < bc) {
            bc = c;
            best = l.v[i];
            have = 1;
        }
    }
    free(l.v);
    if (!have)
        return cacti_fail(CACTI_ENOSOL, "no CAM organisation met the objective");
    res->access_time_ns = best.access_time * 1e9;
    res->cycle_time_ns = best.cycle_time * 1e9;
    res->read_energy_nj = best.e_read * 1e9;
    res->write_energy_nj = best.e_write * 1e9;
    res->search_energy_nj = best.e_search * 1e9;
    res->subthreshold_leakage_mw = best.leak * 1e3;
    res->gate_leakage_mw = best.gleak * 1e3;
    res->leakage_mw = (best.leak + best.gleak) * 1e3;
    res->height_mm = best.height * 1e-3;
    res->width_mm = best.width * 1e-3;
    res->area_mm2 = best.area * 1e-6;
    res->area_efficiency = best.area > 0 ? best.cell_area / best.area : 0;
    res->tag_bits = s->is_cache ? (uint32_t)rq.tagbits : 0;
    fill_org(&best, &res->data);
    return CACTI_OK;
}

cacti_status cacti_search(const cacti_spec *s, const cacti_tech *t, cacti_result *res)
{
    memset(res, 0, sizeof *res);
    if (s->assoc == 0)
        return search_fa(s, t, res);

    int A = s->is_cache ? (int)s->assoc : 1;
    uint32_t tagbits = 0;
    arr_list tags = {0}, data = {0};
    const cacti_arr *tag = NULL;
    cacti_status st;
    if (s->is_cache) {
        tagbits = s->tag_bits ? s->tag_bits : default_tagbits(s, A);
        cacti_req rt = {s, t, 1, (int)tagbits, (int)s->output_bits, A};
        st = enumerate(&rt, 0.125, &tags);
        if (st != CACTI_OK)
            goto out;
        if (tags.n == 0) {
            st = cacti_fail(CACTI_ENOSOL, "no valid tag-array organisation (bank too small for the "
                                          "minimum array of 2x2 subarrays with 16 rows)");
            goto out;
        }
        tag = pick_tag(s, &tags);
        if (!tag) {
            st = cacti_fail(CACTI_ENOSOL, "no tag-array organisation meets the deviation limits");
            goto out;
        }
    }
    cacti_req rd = {s, t, 0, 0, (int)s->output_bits, A};
    st = enumerate(&rd, (double)s->output_bits / (8.0 * s->line_bytes), &data);
    if (st != CACTI_OK)
        goto out;
    if (data.n == 0) {
        st = cacti_fail(CACTI_ENOSOL, "no valid data-array organisation (bank too small for the "
                                      "minimum array of 2x2 subarrays with 16 rows, or output "
                                      "width not deliverable)");
        goto out;
    }
    /* drop organisations much worse than the best in both delay and energy */
    double dmin = DBL_MAX, emin = DBL_MAX;
    for (size_t i = 0; i < data.n; i++) {
        if (data.v[i].access_time < dmin)
            dmin = data.v[i].access_time;
        if (data.v[i].e_read < emin)
            emin = data.v[i].e_read;
    }
    mins cm;
    mins_init(&cm);
    for (size_t i = 0; i < data.n; i++) {
        const cacti_arr *a = &data.v[i];
        if (a->access_time > 1.5 * dmin && a->e_read > 1.5 * emin)
            continue;
        combo c;
        combine(s, tag, a, &c);
        mins_upd(&cm, c.t, c.e, c.leak, c.cyc, c.area);
    }
    const cacti_arr *best = NULL;
    combo bcmb = {0};
    double bc = DBL_MAX;
    for (size_t i = 0; i < data.n; i++) {
        const cacti_arr *a = &data.v[i];
        if (a->access_time > 1.5 * dmin && a->e_read > 1.5 * emin)
            continue;
        combo c;
        combine(s, tag, a, &c);
        double tr = c.t / cm.t, er = c.e / cm.e, cost;
        switch (s->objective) {
        case CACTI_OPT_ED:
            cost = tr * er;
            break;
        case CACTI_OPT_DELAY:
            cost = (tr - 1.0) * 100.0 <= s->max_dev_pct + 1e-9 ? er : DBL_MAX;
            break;
        case CACTI_OPT_WEIGHTED:
            cost = within_dev(s->dev_pct, &cm, c.t, c.e, c.leak, c.cyc, c.area)
                       ? weighted(s->weight, &cm, c.t, c.e, c.leak, c.cyc, c.area)
                       : DBL_MAX;
            break;
        default:
            cost = tr * tr * er;
            break;
        }
        if (cost < bc) {
            bc = cost;
            best = a;
            bcmb = c;
        }
    }
    if (!best) {
        st = cacti_fail(CACTI_ENOSOL, "no organisation meets the objective's deviation limits");
        goto out;
    }
    res->access_time_ns = bcmb.t * 1e9;
    res->cycle_time_ns = bcmb.cyc * 1e9;
    res->read_energy_nj = bcmb.e * 1e9;
    res->write_energy_nj = (best->e_write + (tag ? tag->e_write : 0.0)) * 1e9;
    res->search_energy_nj = 0.0;
    res->subthreshold_leakage_mw = (best->leak + (tag ? tag->leak : 0.0)) * 1e3;
    res->gate_leakage_mw = (best->gleak + (tag ? tag->gleak : 0.0)) * 1e3;
    res->leakage_mw = res->subthreshold_leakage_mw + res->gate_leakage_mw;
    res->height_mm = bcmb.h * 1e-3;
    res->width_mm = bcmb.w * 1e-3;
    res->area_mm2 = bcmb.area * 1e-6;
    double cells = best->cell_area + (tag ? tag->cell_area : 0.0);
    res->area_efficiency = bcmb.area > 0 ? cells / bcmb.area : 0.0;
    res->tag_bits = tagbits;
    fill_org(best, &res->data);
    if (tag)
        fill_org(tag, &res->tag);
    st = CACTI_OK;
out:
    free(tags.v);
    free(data.v);
    return st;
}
