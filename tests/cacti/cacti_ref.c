/*
 * cacti_ref.c - load the CACTI 7 reference rows and compare the model with
 * them (see cacti_ref.h).  The CSV columns are those documented in
 * tests/data/cacti7/README.md.
 */
#include "cacti_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cacti_ref_metric_name[REF_NMETRIC] = {"access time", "cycle time", "read energy",
                                                        "write energy", "leakage", "area"};

static int split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

static int col(char **hdr, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (!strcmp(hdr[i], name))
            return i;
    return -1;
}

int cacti_ref_load(const char *csv, const char *cfg_dir, cacti_ref_row **rows, size_t *n, char *err,
                   size_t errlen)
{
    *rows = NULL;
    *n = 0;
    FILE *f = fopen(csv, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", csv);
        return -1;
    }
    char hline[4096], line[4096];
    if (!fgets(hline, sizeof hline, f)) {
        fclose(f);
        snprintf(err, errlen, "%s: empty", csv);
        return -1;
    }
    hline[strcspn(hline, "\r\n")] = '\0';
    char *hdr[64];
    int nh = split(hline, hdr, 64);
    const char *need[] = {"name", "node", "kind", "size_bytes", "line_bytes", "assoc", "banks", "io_bits",
                          "rw_ports", "rd_ports", "wr_ports", "access_time_ns", "cycle_time_ns",
                          "read_energy_nJ", "write_energy_nJ", "leakage_per_bank_mW", "area_mm2"};
    int ci[17];
    for (int i = 0; i < 17; i++) {
        ci[i] = col(hdr, nh, need[i]);
        if (ci[i] < 0) {
            fclose(f);
            snprintf(err, errlen, "%s: missing column %s", csv, need[i]);
            return -1;
        }
    }
    size_t cap = 0;
    int lineno = 1;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        char *fl[64];
        int nf = split(line, fl, 64);
        if (nf < nh) {
            fclose(f);
            snprintf(err, errlen, "%s:%d: %d fields, expected %d", csv, lineno, nf, nh);
            free(*rows);
            *rows = NULL;
            return -1;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            cacti_ref_row *nr = realloc(*rows, cap * sizeof **rows);
            if (!nr) {
                fclose(f);
                free(*rows);
                *rows = NULL;
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            *rows = nr;
        }
        cacti_ref_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", fl[ci[0]]);
        cacti_spec *s = &r->spec;
        cacti_spec_init(s);
        s->node_nm = (uint32_t)atoi(fl[ci[1]]);
        s->is_cache = !strcmp(fl[ci[2]], "cache");
        s->size_bytes = strtoull(fl[ci[3]], NULL, 10);
        s->line_bytes = (uint32_t)atoi(fl[ci[4]]);
        s->assoc = (uint32_t)atoi(fl[ci[5]]);
        s->banks = (uint32_t)atoi(fl[ci[6]]);
        s->output_bits = (uint32_t)atoi(fl[ci[7]]);
        s->rw_ports = (uint32_t)atoi(fl[ci[8]]);
        s->rd_ports = (uint32_t)atoi(fl[ci[9]]);
        s->wr_ports = (uint32_t)atoi(fl[ci[10]]);
        for (int m = 0; m < REF_NMETRIC; m++)
            r->ref[m] = atof(fl[ci[11 + m]]);
        if (cfg_dir) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.cfg", cfg_dir, r->name);
            cacti_spec c;
            if (cacti_cfg_read(path, &c, NULL, NULL) != CACTI_OK) {
                fclose(f);
                snprintf(err, errlen, "%s", cacti_last_error());
                free(*rows);
                *rows = NULL;
                return -1;
            }
            if (c.node_nm != s->node_nm || c.is_cache != s->is_cache || c.size_bytes != s->size_bytes ||
                c.line_bytes != s->line_bytes || c.banks != s->banks || c.output_bits != s->output_bits ||
                c.rw_ports != s->rw_ports || c.rd_ports != s->rd_ports || c.wr_ports != s->wr_ports ||
                (s->is_cache && c.assoc != s->assoc)) {
                fclose(f);
                snprintf(err, errlen, "%s: does not match %s:%d", path, csv, lineno);
                free(*rows);
                *rows = NULL;
                return -1;
            }
            *s = c;
        }
    }
    fclose(f);
    if (*n == 0) {
        snprintf(err, errlen, "%s: no rows", csv);
        return -1;
    }
    return 0;
}

int cacti_ref_eval(const cacti_ref_row *rows, size_t n, int mod, int rem, cacti_ref_stats *st,
                   FILE *detail, char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    double sum[REF_NMETRIC] = {0};
    for (size_t i = 0; i < n; i++) {
        if (mod > 0 && (int)(i % (size_t)mod) != rem)
            continue;
        cacti_result r;
        if (cacti_solve(&rows[i].spec, &r) != CACTI_OK) {
            snprintf(err, errlen, "%s: %s", rows[i].name, cacti_last_error());
            return -1;
        }
        double v[REF_NMETRIC] = {r.access_time_ns, r.cycle_time_ns, r.read_energy_nj,
                                 r.write_energy_nj, r.leakage_mw, r.area_mm2};
        if (detail)
            fprintf(detail, "%-44s", rows[i].name);
        for (int m = 0; m < REF_NMETRIC; m++) {
            double ref = rows[i].ref[m];
            double e = fabs(v[m] - ref) / ref;
            sum[m] += e;
            double ratio = v[m] > ref ? v[m] / ref : ref / v[m];
            if (!(v[m] > 0))
                ratio = INFINITY;
            if (ratio > st->max_ratio[m]) {
                st->max_ratio[m] = ratio;
                snprintf(st->worst[m], sizeof st->worst[m], "%s", rows[i].name);
            }
            if (detail)
                fprintf(detail, " %7.3f", v[m] / ref);
        }
        if (detail)
            fprintf(detail, "  d=%ux%u spd=%g cm=%u sa=%ux%u",
                    r.data.ndwl, r.data.ndbl, r.data.nspd, r.data.ndcm, r.data.ndsam1, r.data.ndsam2);
        if (detail)
            fprintf(detail, "\n");
        st->n++;
    }
    for (int m = 0; m < REF_NMETRIC; m++)
        st->mape[m] = st->n ? 100.0 * sum[m] / st->n : 0.0;
    return 0;
}

void cacti_ref_print(const cacti_ref_stats *st, FILE *f)
{
    fprintf(f, "%-14s %8s %10s  %s\n", "metric", "MAPE%", "max ratio", "worst row");
    for (int m = 0; m < REF_NMETRIC; m++)
        fprintf(f, "%-14s %8.2f %10.3f  %s\n", cacti_ref_metric_name[m], st->mape[m], st->max_ratio[m],
                st->worst[m]);
    fprintf(f, "(%zu configurations)\n", st->n);
}
