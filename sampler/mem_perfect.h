/*
 * mem_perfect.h - the "perfect" memory system (see mem_perfect.c).
 */
#ifndef SIM_MEM_PERFECT_H
#define SIM_MEM_PERFECT_H

#include "mem.h"

sim_mem *sim_mem_perfect_create(const gpu_config *cfg, const sim_mem_options *o, ge_err *e);

#endif
