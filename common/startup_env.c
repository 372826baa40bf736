/*
 * startup_env.c - re-execute with the start-up environment gpuest wants
 * (see startup_env.h).
 */
#include "startup_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REEXEC_MARK "GPUEST_STARTUP_ENV_SET" /* set in the re-executed image: never twice */

/* The kernel's THP mode is "madvise" (the bracketed word of the sysfs file). */
static int thp_madvise_mode(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return 0;
    char buf[128];
    int ok = fgets(buf, sizeof buf, f) && strstr(buf, "[madvise]");
    fclose(f);
    return ok;
}

/* Put `name` back as it was (old NULL: it was unset). */
static void restore(const char *name, const char *old)
{
    if (old)
        setenv(name, old, 1);
    else
        unsetenv(name);
}

void ge_startup_reexec(char **argv)
{
    const char *pre = getenv("LD_PRELOAD");
    if (getenv(REEXEC_MARK) || (pre && strstr(pre, "vgpreload")))
        return;
    const char *t = getenv("GLIBC_TUNABLES");
    int thp = !getenv("GPUEST_NO_THP") && !(t && strstr(t, "glibc.malloc.hugetlb")) && thp_madvise_mode();
    char buf[4096];
    if (thp) {
        int n = snprintf(buf, sizeof buf, "%s%sglibc.malloc.hugetlb=1", t ? t : "", t && *t ? ":" : "");
        thp = n >= 0 && (size_t)n < sizeof buf;
    }
    int blas = !getenv("OPENBLAS_NUM_THREADS");
    if (!thp && !blas)
        return;
    char *old = t ? strdup(t) : NULL;
    if (t && !old)
        return;
    if ((thp && setenv("GLIBC_TUNABLES", buf, 1)) || (blas && setenv("OPENBLAS_NUM_THREADS", "1", 1)) ||
        setenv(REEXEC_MARK, "1", 1))
        goto fail;
    fflush(NULL);
    execv("/proc/self/exe", argv);
fail: /* go on as we are, in the environment we were given */
    restore("GLIBC_TUNABLES", old);
    if (blas)
        unsetenv("OPENBLAS_NUM_THREADS");
    unsetenv(REEXEC_MARK);
    free(old);
}
