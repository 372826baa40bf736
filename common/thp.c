/*
 * thp.c - transparent huge pages for the heap (see thp.h).
 */
#include "thp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THP_MARK "GPUEST_THP_SET" /* set in the re-executed image: never twice */

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

void ge_thp_reexec(char **argv)
{
    const char *pre = getenv("LD_PRELOAD");
    if (getenv("GPUEST_NO_THP") || getenv(THP_MARK) || (pre && strstr(pre, "vgpreload")))
        return;
    const char *t = getenv("GLIBC_TUNABLES");
    if ((t && strstr(t, "glibc.malloc.hugetlb")) || !thp_madvise_mode())
        return;
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s%sglibc.malloc.hugetlb=1", t ? t : "", t && *t ? ":" : "");
    if (n < 0 || (size_t)n >= sizeof buf)
        return;
    char *old = t ? strdup(t) : NULL;
    if ((t && !old) || setenv("GLIBC_TUNABLES", buf, 1) || setenv(THP_MARK, "1", 1)) {
        free(old);
        return;
    }
    fflush(NULL);
    execv("/proc/self/exe", argv);
    /* could not: go on with small pages, in the environment we were given */
    if (old)
        setenv("GLIBC_TUNABLES", old, 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(THP_MARK);
    free(old);
}
