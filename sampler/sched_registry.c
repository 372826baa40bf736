/*
 * sched_registry.c - the warp-scheduler policies by name (config key
 * sm.scheduler, option --scheduler).  Adding one is one line here plus its
 * file.
 */
#include <stdio.h>
#include <string.h>

#include "sched.h"
#include "sim.h"

extern const sim_sched_ops sim_sched_lrr, sim_sched_gto, sim_sched_two_level;

static const sim_sched_ops *const sched_table[] = {&sim_sched_lrr, &sim_sched_gto, &sim_sched_two_level};

#define SCHED_COUNT (sizeof sched_table / sizeof *sched_table)

const sim_sched_ops *sim_sched_find(const char *name)
{
    for (size_t i = 0; i < SCHED_COUNT; i++)
        if (strcmp(sched_table[i]->name, name) == 0)
            return sched_table[i];
    return NULL;
}

void sim_scheduler_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < SCHED_COUNT && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "|" : "", sched_table[i]->name);
}
