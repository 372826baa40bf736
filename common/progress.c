#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double ge_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_begin(progress *p, const char *label, uint64_t total)
{
    const char *env = getenv("GPUEST_PROGRESS");
    p->label = label;
    p->total = total;
    p->start = p->last = ge_now();
    p->enabled = env ? strcmp(env, "0") != 0 : isatty(2);
    p->printed = 0;
}

void progress_update(progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    double now = ge_now();
    if (now - p->last < 0.5)
        return;
    p->last = now;
    if (p->total)
        fprintf(stderr, "\r%s: %llu/%llu (%.0f%%) %.1fs   ", p->label, (unsigned long long)done,
                (unsigned long long)p->total, 100.0 * done / p->total, now - p->start);
    else
        fprintf(stderr, "\r%s: %llu %.1fs   ", p->label, (unsigned long long)done, now - p->start);
    p->printed = 1;
}

void progress_done(progress *p)
{
    if (p->enabled && p->printed)
        fprintf(stderr, "\r%s: done in %.1fs%*s\n", p->label, ge_now() - p->start, 20, "");
    p->printed = 0;
}
