/*
 * progress.h - progress on stderr for long runs.
 *
 * Prints "label: done/total (pct%) elapsed" at most every half second, only
 * when stderr is a terminal or GPUEST_PROGRESS=1 is set, so pipes and CI logs
 * stay clean.  progress_done() finishes the line.
 */
#ifndef GE_PROGRESS_H
#define GE_PROGRESS_H

#include <stdint.h>

typedef struct progress {
    const char *label;
    uint64_t total;
    double start, last;
    int enabled;
    int printed;
} progress;

void progress_begin(progress *p, const char *label, uint64_t total);
void progress_update(progress *p, uint64_t done);
void progress_done(progress *p);
/* Monotonic wall-clock seconds. */
double ge_now(void);

#endif
