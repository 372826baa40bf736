/*
 * cli_source.h - open what the user named on the command line as a warp
 * stream: an Accel-Sim trace path, or the name of a workload of the suite.
 */
#ifndef GPUEST_CLI_SOURCE_H
#define GPUEST_CLI_SOURCE_H

#include <stdint.h>

#include "err.h"
#include "wstream.h"

/* spec is an existing path (kernelslist.g, a directory holding one, or a
 * kernel-*.traceg[.xz]) -> accelsim_open(); otherwise a workload name ->
 * the suite, run with problem size `size` (0 = the workload's default) and
 * input seed `seed`.  Returns 0 with *out set, or -1. */
int cli_open_source(const char *spec, uint32_t size, uint64_t seed, ws_source **out, ge_err *e);

#endif
