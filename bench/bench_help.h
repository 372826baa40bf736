/*
 * bench_help.h - the benchmarks' command lines: --help prints the whole
 * text on stdout (exit status 0); an unknown option, or one whose value is
 * missing or invalid, gets a one-line error on stderr (status 2).
 */
#ifndef GE_BENCH_HELP_H
#define GE_BENCH_HELP_H

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int bench_help_arg(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

/* bad = NULL: --help was asked for */
static inline int bench_usage(const char *help, const char *bad)
{
    if (!bad) {
        fputs(help, stdout);
        return 0;
    }
    const char *name = strncmp(help, "usage: ", 7) ? "" : help + 7;
    fprintf(stderr, "%.*s: unknown option, or a missing or invalid value, at '%s' (--help lists the options)\n",
            (int)strcspn(name, " \n"), name, bad);
    return 2;
}

/* A whole number in lo..hi (decimal or 0x hex) into *out; 0 (and *out
 * untouched) when s is anything else. */
static inline int bench_num(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (end == s || *end || errno || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

#endif
