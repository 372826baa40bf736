/*
 * fuzz_cacti_cfg.c - libFuzzer target for the cache.cfg reader: arbitrary
 * bytes must parse or fail cleanly, never crash; a spec that parses is
 * validated and, when small, solved.
 */
#include <stddef.h>
#include <stdint.h>

#include "cacti.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cacti_spec s;
    if (cacti_cfg_parse((const char *)data, size, "fuzz.cfg", &s, NULL, NULL) == CACTI_OK) {
        if (s.size_bytes <= (1u << 16) && s.banks <= 4) {
            cacti_result r;
            (void)cacti_solve(&s, &r);
            if (cacti_memo_count() > 256) /* bound memory over a long run */
                cacti_memo_clear();
        }
    }
    return 0;
}
