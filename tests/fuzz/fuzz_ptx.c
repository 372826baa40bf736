/*
 * fuzz_ptx.c - libFuzzer target of the PTX front-end.
 *
 * The input is PTX text.  It is parsed; if it parses, each of its first
 * two kernels runs one CTA of 32 threads with every parameter pointing at
 * zeroed memory and a small instruction limit, so the decoder's operand
 * layouts, the executor's bounds checks and the SIMT stack meet arbitrary
 * programs too.  Any outcome but a crash, a hang or a sanitizer report is
 * fine: errors are the expected result for most inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpurt.h"
#include "ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    ge_err e = {{0}};
    gpurt *d = gpurt_create(text, "fuzz.ptx", &e);
    free(text);
    if (!d)
        return 0;
    static uint8_t zeros[32768];
    gpurt_ptr buf = gpurt_malloc(d, 4096);
    if (buf) {
        gpurt_memset(d, buf, 0, 4096);
        memcpy(zeros, &buf, sizeof buf); /* pointer parameters see a real allocation */
    }
    void *args[64];
    for (int i = 0; i < 64; i++)
        args[i] = zeros;
    gpurt_set_inst_limit(d, 20000);
    /* run up to two kernels (names from the module) */
    ptx_module *m = NULL;
    if (ptx_module_parse((const char *)data, size, "fuzz.ptx", &m, &e) == 0) {
        int ran = 0;
        for (uint32_t f = 0; f < m->nfuncs && ran < 2; f++) {
            if (!m->funcs[f].is_kernel || m->funcs[f].nparams > 64)
                continue;
            gpurt_launch(d, ptx_str(m, m->funcs[f].name), gpurt_dim(1, 1, 1), gpurt_dim(32, 1, 1), 0, args);
            ran++;
            if (gpurt_error(d))
                break; /* errors are sticky */
        }
        ptx_module_free(m);
    }
    memset(zeros, 0, sizeof zeros);
    gpurt_destroy(d);
    return 0;
}
