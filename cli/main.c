/*
 * main.c - the gpuest command: dispatches to a subcommand from commands.h.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "startup_env.h"

typedef struct {
    const char *name;
    const char *help;
    int (*fn)(int, char **);
} command;

/* Weak so that the binary links while a command's module is being written;
 * a missing command reports itself instead of failing the whole build. */
#define PRAGMA(x) _Pragma(#x)
#define X(n, h) PRAGMA(weak cmd_##n)
GPUEST_COMMANDS(X)
#undef X

static const command commands[] = {
#define X(n, h) {#n, h, cmd_##n},
    GPUEST_COMMANDS(X)
#undef X
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuest COMMAND [options]   (gpuest COMMAND --help for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
    ge_startup_reexec(argv); /* huge pages, one OpenBLAS thread (common/startup_env.h) */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gpuest %s\n", GPUEST_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            if (!commands[i].fn) {
                fprintf(stderr, "gpuest: command '%s' is not available in this build\n", argv[1]);
                return 2;
            }
            return commands[i].fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "gpuest: unknown command '%s' (try gpuest --help)\n", argv[1]);
    return 2;
}
