/*
 * gpgpusim_import_units.c - functional units and latencies of the GPGPU-Sim
 * importer.
 *
 * PTX-mode lists (-ptx_opcode_latency_int "ADD,MAX,MUL,MAD,DIV,SHFL", _fp and
 * _dp "ADD,MAX,MUL,MAD,DIV", _sfu, _tensor) give latency and initiation
 * interval per op; gpuest keeps one pair per latency class, taking ADD/MUL/
 * DIV for integers and MAD/DIV for floating point (FMA is the dominant FP op
 * and the one peak figures count).  Accel-Sim's trace.config
 * (-trace_opcode_latency_initiation_* "lat,ii", -specialized_unit_N) is read
 * after them and overrides them, as Accel-Sim does in trace-driven mode.
 * GPGPU-Sim runs INT, DP and branch instructions on the SP/SFU pipelines
 * when no dedicated units exist; gpuest has separate unit pools, so those
 * become separate units of the same count (reported as approximations).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gpgpusim_internal.h"

/* ---- functional units and latencies ---- */

typedef struct latsrc {
    const char *lat_opt, *ii_opt; /* lists */
    int index;                    /* position in the list */
    const char *key;              /* "latency.int" */
    const char *field;            /* "ADD" */
} latsrc;

/* -ptx_opcode_latency_int "ADD,MAX,MUL,MAD,DIV,SHFL"; _fp "ADD,MAX,MUL,MAD,DIV";
 * _dp likewise; _sfu and _tensor single values.  GPGPU-Sim spells the
 * tensor latency option "-ptx_opcode_latency_tesnor"; both are accepted. */
static const latsrc ptx_lats[] = {
    {"-ptx_opcode_latency_int", "-ptx_opcode_initiation_int", 0, "latency.int", "ADD"},
    {"-ptx_opcode_latency_int", "-ptx_opcode_initiation_int", 2, "latency.int_mul", "MUL"},
    {"-ptx_opcode_latency_int", "-ptx_opcode_initiation_int", 4, "latency.int_div", "DIV"},
    {"-ptx_opcode_latency_fp", "-ptx_opcode_initiation_fp", 3, "latency.fp32", "MAD"},
    {"-ptx_opcode_latency_fp", "-ptx_opcode_initiation_fp", 4, "latency.fp32_div", "DIV"},
    {"-ptx_opcode_latency_dp", "-ptx_opcode_initiation_dp", 3, "latency.fp64", "MAD"},
    {"-ptx_opcode_latency_dp", "-ptx_opcode_initiation_dp", 4, "latency.fp64_div", "DIV"},
    {"-ptx_opcode_latency_sfu", "-ptx_opcode_initiation_sfu", 0, "latency.sfu", "first"},
    {"-ptx_opcode_latency_tesnor", "-ptx_opcode_initiation_tensor", 0, "latency.tensor", "first"},
    {"-ptx_opcode_latency_tensor", "-ptx_opcode_initiation_tensor", 0, "latency.tensor", "first"},
};

/* One list element of option name, or 0 (absent) / -1 (error). */
static int list_elem(imp *im, const char *name, int index, uint32_t *v, ggs_opt **out)
{
    ggs_opt *o = ggsi_use(im, name);
    *out = o;
    if (!o)
        return 0;
    uint32_t vals[16];
    int n = ggs_parse_u32_list(o, o->value, ',', vals, 16, im->e);
    if (n < 0)
        return -1;
    if (index >= n) {
        if (ggsi_say(im, GGS_NOTE, "%s (%s:%d) has %d values; position %d is missing", o->name, o->file, o->line, n,
                index + 1))
            return -1;
        return 0;
    }
    *v = vals[index];
    return 1;
}

static int put_lat(imp *im, const char *key, const char *leaf, uint32_t v, ggs_opt *o, const char *why)
{
    char path[160];
    snprintf(path, sizeof path, "%s.%s", key, leaf);
    if (v == 0) /* GPGPU-Sim accepts 0; gpuest needs >= 1 cycle */
        return ggsi_putn(im, path, 1, o, GGS_APPROX, "0 in the file; gpuest needs at least 1 cycle");
    return ggsi_putn(im, path, v, o, GGS_MAPPED, why);
}

static int do_ptx_latencies(imp *im)
{
    for (size_t i = 0; i < sizeof ptx_lats / sizeof *ptx_lats; i++) {
        const latsrc *l = &ptx_lats[i];
        uint32_t v;
        ggs_opt *o;
        char why[96];
        snprintf(why, sizeof why, "%s entry", l->field);
        int h = list_elem(im, l->lat_opt, l->index, &v, &o);
        if (h < 0 || (h && put_lat(im, l->key, "latency", v, o, why)))
            return -1;
        h = list_elem(im, l->ii_opt, l->index, &v, &o);
        if (h < 0 || (h && put_lat(im, l->key, "ii", v, o, why)))
            return -1;
    }
    return 0;
}

/* "latency,ii" of Accel-Sim's trace.config. */
static int lat_pair(imp *im, const char *name, uint32_t lat_ii[2], ggs_opt **out)
{
    ggs_opt *o = ggsi_use(im, name);
    *out = o;
    if (!o)
        return 0;
    int n = ggs_parse_u32_list(o, o->value, ',', lat_ii, 2, im->e);
    if (n < 0)
        return -1;
    if (n != 2)
        return ge_errf(im->e, "%s:%d: %s: expected <latency>,<initiation interval>", o->file, o->vline, o->name);
    return 1;
}

static int do_trace_latencies(imp *im)
{
    static const struct {
        const char *opt;
        const char *keys[2];
    } tl[] = {
        {"-trace_opcode_latency_initiation_int", {"latency.int", "latency.int_mul"}},
        {"-trace_opcode_latency_initiation_sp", {"latency.fp32", NULL}},
        {"-trace_opcode_latency_initiation_dp", {"latency.fp64", NULL}},
        {"-trace_opcode_latency_initiation_sfu", {"latency.sfu", NULL}},
        {"-trace_opcode_latency_initiation_tensor", {"latency.tensor", NULL}},
    };
    for (size_t i = 0; i < sizeof tl / sizeof *tl; i++) {
        uint32_t p[2];
        ggs_opt *o;
        int h = lat_pair(im, tl[i].opt, p, &o);
        if (h < 0)
            return -1;
        for (int k = 0; h && k < 2 && tl[i].keys[k]; k++)
            if (put_lat(im, tl[i].keys[k], "latency", p[0], o, "trace-driven (SASS) latency") ||
                put_lat(im, tl[i].keys[k], "ii", p[1], o, "trace-driven (SASS) initiation interval"))
                return -1;
    }
    /* -specialized_unit_N "<enabled>,<units>,<max latency>,<ID_OC>,<OC_EX>,<NAME>"
     * with -trace_opcode_latency_initiation_spec_op_N "<lat>,<ii>". */
    for (size_t i = 0; i < im->opts.n; i++) {
        ggs_opt *o = &im->opts.v[i];
        unsigned idx;
        char tail;
        if (sscanf(o->name, "-specialized_unit_%u%c", &idx, &tail) != 1)
            continue;
        o->used = 1;
        const char *comma = strrchr(o->value, ',');
        uint32_t f[5];
        char head[256];
        size_t hl = comma ? (size_t)(comma - o->value) : 0;
        if (!comma || hl >= sizeof head)
            return ge_errf(im->e, "%s:%d: %s: expected <enabled>,<units>,<max latency>,<ID_OC>,<OC_EX>,<NAME>",
                           o->file, o->vline, o->name);
        memcpy(head, o->value, hl);
        head[hl] = 0;
        int n = ggs_parse_u32_list(o, head, ',', f, 5, im->e);
        if (n < 0)
            return -1;
        if (n != 5)
            return ge_errf(im->e, "%s:%d: %s: expected 5 numbers before the unit name", o->file, o->vline, o->name);
        const char *uname = comma + 1;
        while (isspace((unsigned char)*uname))
            uname++;
        char pname[64];
        snprintf(pname, sizeof pname, "-trace_opcode_latency_initiation_spec_op_%u", idx);
        uint32_t p[2];
        ggs_opt *po;
        int hp = lat_pair(im, pname, p, &po);
        if (hp < 0)
            return -1;
        const char *key = !strcmp(uname, "BRA") ? "branch" : !strcmp(uname, "TENSOR") ? "tensor" : NULL;
        if (!f[0]) {
            if (ggsi_say(im, GGS_NOTE, "%s (%s:%d): unit '%s' is disabled; ignored", o->name, o->file, o->line, uname))
                return -1;
            continue;
        }
        if (!key) {
            if (ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): specialized unit '%s' has no gpuest unit class", o->name,
                    o->file, o->line, uname))
                return -1;
            if (po && ggsi_say(im, GGS_NOT_MAPPED, "%s (%s:%d): belongs to unmapped unit '%s'", po->name, po->file,
                          po->line, uname))
                return -1;
            continue;
        }
        char path[64];
        snprintf(path, sizeof path, "units.%s", key);
        if (ggsi_putn(im, path, f[1], o, GGS_MAPPED, "specialized unit count"))
            return -1;
        snprintf(path, sizeof path, "latency.%s", key);
        if (hp && (put_lat(im, path, "latency", p[0], po, "specialized unit") ||
                   put_lat(im, path, "ii", p[1], po, "specialized unit")))
            return -1;
    }
    return 0;
}

int ggsi_units(imp *im)
{
    gpu_config *c = im->cfg;
    uint32_t v;
    ggs_opt *o;
    int h;
    /* INT: dedicated units, or (Fermi-style, 0 units) the SP pipeline. */
    if ((h = ggsi_get_u32(im, "-gpgpu_num_int_units", &v, &o)) < 0)
        return -1;
    if (h && v > 0) {
        if (ggsi_putn(im, "units.int", v, o, GGS_MAPPED, NULL))
            return -1;
    } else if (ggsi_isset(im, "units.fp32")) {
        if (ggsi_putn(im, "units.int", c->units[ISA_UNIT_FP32], o ? o : ggs_opts_find(&im->opts, "-gpgpu_num_sp_units"),
                 GGS_APPROX, "no INT units: GPGPU-Sim issues integer ops to the SP units; modelled as separate units"))
            return -1;
    }
    if ((h = ggsi_get_u32(im, "-gpgpu_num_dp_units", &v, &o)) < 0)
        return -1;
    if (h && v > 0) {
        if (ggsi_putn(im, "units.fp64", v, o, GGS_MAPPED, NULL))
            return -1;
    } else if (h && ggsi_isset(im, "units.sfu")) {
        if (ggsi_putn(im, "units.fp64", c->units[ISA_UNIT_SFU], o, GGS_APPROX,
                 "0 DP units: GPGPU-Sim runs DP ops on the SFU; modelled as separate units"))
            return -1;
    }
    uint32_t avail = 1;
    ggs_opt *oa;
    if ((h = ggsi_get_u32(im, "-gpgpu_tensor_core_avail", &avail, &oa)) < 0)
        return -1;
    int ht = ggsi_get_u32(im, "-gpgpu_num_tensor_core_units", &v, &o);
    if (ht < 0)
        return -1;
    if (h && !avail) {
        if (ggsi_putn(im, "units.tensor", 0, oa, GGS_MAPPED, "tensor cores not available"))
            return -1;
    } else if (ht && ggsi_putn(im, "units.tensor", v, o, GGS_MAPPED, NULL)) {
        return -1;
    }
    /* GPGPU-Sim has one LD/ST pipeline per SM taking one warp instruction a cycle. */
    if (ggsi_putn(im, "units.ldst", 1, NULL, GGS_DERIVED, "GPGPU-Sim models one LD/ST unit per SM") ||
        ggsi_putn(im, "latency.mem.ii", 1, NULL, GGS_DERIVED, "one memory instruction per cycle into the LD/ST unit"))
        return -1;
    if (do_ptx_latencies(im) || do_trace_latencies(im))
        return -1;
    /* Branches: a BRA specialized unit if given, else they share the SP pipeline. */
    if (!ggsi_isset(im, "units.branch") && ggsi_isset(im, "units.fp32") &&
        ggsi_putn(im, "units.branch", c->units[ISA_UNIT_FP32], ggs_opts_find(&im->opts, "-gpgpu_num_sp_units"), GGS_APPROX,
             "no branch unit: GPGPU-Sim issues branches to the SP units; modelled as separate units"))
        return -1;
    return 0;
}
