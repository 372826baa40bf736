/*
 * bench_help.h - the benchmarks' --help: the whole text on stdout and exit
 * status 0; after an unknown or incomplete option, that option and the text
 * on stderr and status 2.
 */
#ifndef GE_BENCH_HELP_H
#define GE_BENCH_HELP_H

#include <stdio.h>
#include <string.h>

static inline int bench_help_arg(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

/* bad = NULL: --help was asked for */
static inline int bench_usage(const char *help, const char *bad)
{
    if (!bad) {
        fputs(help, stdout);
        return 0;
    }
    fprintf(stderr, "unknown or incomplete option '%s'\n%s", bad, help);
    return 2;
}

#endif
