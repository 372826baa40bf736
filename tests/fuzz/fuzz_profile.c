/*
 * fuzz_profile.c - the profile reader on arbitrary bytes: it must refuse
 * anything malformed with a message and never read out of bounds.
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
    if (prof_read(&p, f, "fuzz", &e) == 0)
        prof_free(&p);
    fclose(f);
    return 0;
}
