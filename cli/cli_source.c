/*
 * cli_source.c - a trace path or a workload name -> ws_source.
 *
 * A path that exists wins: it is an Accel-Sim trace.  Anything else is
 * looked up in the workload suite.  The suite is built by another module
 * that may be absent from a build; its two entry points are weak symbols
 * here, so the binary links without it and reports the name as unknown.
 * (A weak reference does not by itself pull an object out of a static
 * library: the suite is found when the gpuest binary links gpuest_suite's
 * objects for another reason, e.g. a command that uses it directly.)
 */
#include "cli_source.h"

#include <sys/stat.h>

#include "accelsim.h"

#if defined(__has_include)
#if __has_include("suite_source.h") && __has_include("gpurt.h")
#include "suite_source.h"
#define CLI_HAVE_SUITE 1
#endif
#endif

#ifdef CLI_HAVE_SUITE
#pragma weak suite_find
#pragma weak suite_source_open
#endif

int cli_open_source(const char *spec, uint32_t size, uint64_t seed, ws_source **out, ge_err *e)
{
    struct stat st;
    *out = NULL;
    if (stat(spec, &st) == 0)
        return accelsim_open(spec, out, e);
#ifdef CLI_HAVE_SUITE
    if (suite_find && suite_source_open) {
        const wl_desc *w = suite_find(spec);
        if (w) {
            wl_params p = {size, seed};
            return suite_source_open(w, &p, out, e);
        }
    }
#else
    (void)size;
    (void)seed;
#endif
    return ge_errf(e, "unknown trace path or workload '%s'", spec);
}
