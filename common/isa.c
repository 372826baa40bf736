#include "isa.h"

#include <string.h>

const isa_op_info isa_ops[ISA_OP_COUNT] = {
#define X(id, nm, unit, lat, space, flags) \
    [ISA_OP_##id] = {nm, ISA_UNIT_##unit, ISA_LAT_##lat, ISA_SPACE_##space, flags},
    ISA_OPS(X)
#undef X
};

const char *const isa_unit_names[ISA_UNIT_COUNT] = {
#define X(id, nm) [ISA_UNIT_##id] = nm,
    ISA_UNITS(X)
#undef X
};

const char *const isa_lat_names[ISA_LAT_COUNT] = {
#define X(id, nm) [ISA_LAT_##id] = nm,
    ISA_LATS(X)
#undef X
};

const char *const isa_space_names[] = {"none", "global", "local", "shared", "const", "tex"};

int isa_op_by_name(const char *name)
{
    for (int i = 0; i < ISA_OP_COUNT; i++)
        if (strcmp(isa_ops[i].name, name) == 0)
            return i;
    return -1;
}

int isa_lat_by_name(const char *name)
{
    for (int i = 0; i < ISA_LAT_COUNT; i++)
        if (strcmp(isa_lat_names[i], name) == 0)
            return i;
    return -1;
}

int isa_unit_by_name(const char *name)
{
    for (int i = 0; i < ISA_UNIT_COUNT; i++)
        if (strcmp(isa_unit_names[i], name) == 0)
            return i;
    return -1;
}
