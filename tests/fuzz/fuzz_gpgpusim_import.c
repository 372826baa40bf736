/*
 * fuzz_gpgpusim_import.c - libFuzzer target for the GPGPU-Sim importer
 * (gpgpusim_opts.c, gpgpusim_import*.c).
 *
 * The input is a gpgpusim.config, optionally followed by a line "@@TRACE@@"
 * and a trace.config.  Import must succeed with a validated config (the
 * importer itself writes and re-reads it before returning) or fail with one
 * line of error and an empty report.  Anything else aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpgpusim_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *find(const char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return hay + i;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    const char *text = (const char *)data;
    const char *mark = find(text, size, "\n@@TRACE@@\n");
    ggs_input in[2] = {{"fuzz.config", text, mark ? (size_t)(mark - text) : size}, {"fuzz.trace", NULL, 0}};
    size_t nin = 1;
    if (mark) {
        in[1].text = mark + 11;
        in[1].len = size - (size_t)(mark + 11 - text);
        nin = 2;
    }
    gpu_config *c = malloc(sizeof *c);
    if (!c)
        return 0;
    ggs_report rep;
    ge_err e;
    if (ggs_import(in, nin, c, &rep, &e) == 0) {
        if (gcfg_validate(c, &e))
            abort();
        ggs_report_free(&rep);
    } else if (strchr(e.msg, '\n') || !e.msg[0] || rep.n != 0) {
        abort();
    }
    free(c);
    return 0;
}
