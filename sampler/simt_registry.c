/*
 * simt_registry.c - the divergence mechanisms by name (config key
 * sm.divergence).  Adding one is one line here plus its file.
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "simt.h"

extern const sim_simt_ops sim_simt_pdom;

static const sim_simt_ops *const simt_table[] = {&sim_simt_pdom};

#define SIMT_COUNT (sizeof simt_table / sizeof *simt_table)

const sim_simt_ops *sim_simt_find(const char *name)
{
    for (size_t i = 0; i < SIMT_COUNT; i++)
        if (strcmp(simt_table[i]->name, name) == 0)
            return simt_table[i];
    return NULL;
}

void sim_divergence_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < SIMT_COUNT && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "|" : "", simt_table[i]->name);
}
