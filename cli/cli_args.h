/*
 * cli_args.h - small helpers the commands share for parsing option values.
 */
#ifndef GPUEST_CLI_ARGS_H
#define GPUEST_CLI_ARGS_H

#include <stdint.h>

/* A decimal unsigned integer in [0, max], the whole string: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif
