/*
 * fuzz_profile.c - the profile reader on arbitrary bytes: it must refuse
 * anything malformed with a message and never read out of bounds, whether
 * it reads the sample CTAs' warp streams or stops before them.
 */
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    profile p;
    ge_err e;
    for (int with_ctas = 1; with_ctas >= 0; with_ctas--) { /* both reads: all, and the model's part */
        rewind(f);
        if (prof_read_opts(&p, f, "fuzz", with_ctas, &e) == 0)
            prof_free(&p);
    }
    fclose(f);
    return 0;
}
