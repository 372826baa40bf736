/*
 * test_as_suite.c - every workload of the suite (tiny size), run on the PTX
 * emulator, written as an Accel-Sim trace and read back: the stream read
 * back has identical kernels, CTAs, op kinds, masks, registers, addresses,
 * sizes, PCs and immediates.  (Mnemonics differ by design: PTX mnemonics
 * are written as canonical SASS.)  Built only when the suite is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "accelsim.h"
#include "as_testutil.h"
#include "suite_source.h"

static void suite_round_trip(void **state)
{
    (void)state;
    int n = 0;
    for (const wl_desc *const *w = suite_all(); *w; w++, n++) {
        wl_params p = {(*w)->tiny_size, 1};
        ws_source *src, *again, *back;
        ge_err e;
        char why[512];
        char *dir = tu_tmpdir();
        if (suite_source_open(*w, &p, &src, &e))
            fail_msg("%s: %s", (*w)->name, e.msg);
        if (accelsim_write_stream(src, dir, n % 2, &e))
            fail_msg("%s: write: %s", (*w)->name, e.msg);
        ws_close(src);
        if (suite_source_open(*w, &p, &again, &e) || accelsim_open(dir, &back, &e))
            fail_msg("%s: reopen: %s", (*w)->name, e.msg);
        if (ws_compare(again, back, 0, why, sizeof why))
            fail_msg("%s: %s", (*w)->name, why);
        ws_close(again);
        ws_close(back);
        tu_rmdir(dir);
        free(dir);
    }
    assert_true(n > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(suite_round_trip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
