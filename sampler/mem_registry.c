/*
 * mem_registry.c - the one table of memory-system implementations, by the
 * name the simulator options use (sim.h mem_model, `gpuest simulate`).
 * Adding an implementation: its file with a *_create constructor (declared
 * in mem.h) and one line here.
 */
#include <string.h>

#include "mem.h"

typedef struct mem_impl {
    const char *name;
    sim_mem *(*create)(const gpu_config *cfg, const sim_mem_options *o, ge_err *e);
} mem_impl;

static const mem_impl impls[] = {
    {"detailed", sim_mem_detailed_create},
    {"perfect", sim_mem_perfect_create},
};

sim_mem *sim_mem_create(const char *name, const gpu_config *cfg, const sim_mem_options *o, ge_err *e)
{
    for (size_t i = 0; i < sizeof impls / sizeof *impls; i++)
        if (strcmp(impls[i].name, name) == 0)
            return impls[i].create(cfg, o, e);
    ge_errf(e, "unknown memory model '%s' (known: detailed, perfect)", name);
    return NULL;
}
