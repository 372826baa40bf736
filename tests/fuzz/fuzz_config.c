/*
 * fuzz_config.c - libFuzzer target for the GPU config reader (gpu_config.c).
 *
 * Any input must either load or fail with one line of error; a config that
 * loads must validate, write and load back to the same values.  Anything
 * else aborts, which the fuzzer (or the gcc corpus replay) reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    /* libconfig would follow @include to real files: not part of the input. */
    if (strstr(text, "@include")) {
        free(text);
        return 0;
    }
    gpu_config *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ge_err e;
    if (a && b) {
        if (gcfg_load_string(text, "fuzz.cfg", a, &e) == 0) {
            if (gcfg_validate(a, &e))
                abort();
            char *out = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&out, &len);
            if (!f)
                abort();
            gcfg_write(a, f);
            fclose(f);
            if (gcfg_load_string(out, "written.cfg", b, &e))
                abort();
            size_t n;
            const gcfg_key *ks = gcfg_keys(&n);
            for (size_t i = 0; i < n; i++)
                if (ks[i].type == GCFG_STRING ? strcmp(gcfg_get_str(a, &ks[i]), gcfg_get_str(b, &ks[i]))
                                              : gcfg_get_num(a, &ks[i]) != gcfg_get_num(b, &ks[i]))
                    abort();
            free(out);
        } else if (strchr(e.msg, '\n') || !e.msg[0]) {
            abort(); /* errors are exactly one line */
        }
    }
    free(a);
    free(b);
    free(text);
    return 0;
}

/* libconfig 1.5 (Debian 12) leaks its string buffer on some syntax errors
 * inside strings (found by this target); that is not gpuest's leak. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libconfig.so\n"; }
