#include "activity.h"

#include <string.h>

const char *const act_names[ACT_COUNT] = {
#define X(id, name, desc) [ACT_##id] = name,
    ACT_COUNTERS(X)
#undef X
};

const char *const act_desc[ACT_COUNT] = {
#define X(id, name, desc) [ACT_##id] = desc,
    ACT_COUNTERS(X)
#undef X
};

void act_clear(act_counters *a) { memset(a, 0, sizeof *a); }

void act_add(act_counters *dst, const act_counters *src)
{
    for (int i = 0; i < ACT_COUNT; i++)
        dst->c[i] += src->c[i];
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        dst->op_lanes[i] += src->op_lanes[i];
        dst->op_warps[i] += src->op_warps[i];
    }
}

void act_scale(act_counters *a, double f)
{
    for (int i = 0; i < ACT_COUNT; i++)
        a->c[i] *= f;
    for (int i = 0; i < ISA_OP_COUNT; i++) {
        a->op_lanes[i] *= f;
        a->op_warps[i] *= f;
    }
}

void act_csv_header(FILE *f)
{
    for (int i = 0; i < ACT_COUNT; i++)
        fprintf(f, "%s%s", i ? "," : "", act_names[i]);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        fprintf(f, ",lanes_%s", isa_ops[i].name);
    fputc('\n', f);
}

void act_csv_row(const act_counters *a, FILE *f)
{
    for (int i = 0; i < ACT_COUNT; i++)
        fprintf(f, "%s%.10g", i ? "," : "", a->c[i]);
    for (int i = 0; i < ISA_OP_COUNT; i++)
        fprintf(f, ",%.10g", a->op_lanes[i]);
    fputc('\n', f);
}
