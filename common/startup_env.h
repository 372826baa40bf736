/*
 * startup_env.h - the environment a gpuest program wants before its
 * libraries load.  Two libraries read their settings only at start-up, so a
 * program that wants other settings executes itself again, once, with them
 * added to its environment (ge_startup_reexec, first thing in main()).
 *
 * 1. Huge pages for the heap (glibc.malloc.hugetlb=1 in GLIBC_TUNABLES).
 *    The simulator's state -- every SM's L1, MSHRs and completion heap, the
 *    L2 slices' tags, the DRAM queues, the warp streams -- is tens of
 *    megabytes touched all over, and with 4 KB pages much of a memory-bound
 *    simulation's time goes to TLB misses: bench_sim's V100 memory-bound
 *    group took 34.5 and 35.5 s with small pages, 31.5 and 31.1 s with huge
 *    pages (interleaved runs, 2026-11-27).  Linux backs a heap with huge
 *    pages when its THP mode is "always", or, in the usual "madvise" mode,
 *    when the program asks with madvise(MADV_HUGEPAGE), which glibc's malloc
 *    does under that tunable; glibc reads tunables only at start-up.  Asked
 *    for only in "madvise" mode, and not when GPUEST_NO_THP is set or
 *    GLIBC_TUNABLES already says something about glibc.malloc.hugetlb.
 *
 * 2. One OpenBLAS thread (OPENBLAS_NUM_THREADS=1), unless the variable is
 *    set.  Debian's default OpenBLAS is the pthread build: when it loads it
 *    starts a pool of one worker per further core, and each worker spins in
 *    sched_yield for about 0.1 s before it sleeps (measured 2026-11-29: a
 *    `gpuest simulate` on a 2-core VM had a third thread that used 0.11 s
 *    of CPU and did nothing; with the variable set it has none).  gpuest's
 *    BLAS work is small (warp clustering, calibration fits) and its
 *    parallelism is per design point (`--threads`), so the pool is pure cost:
 *    on a 64-core server each process would start 63 spinning workers, in a
 *    design-space sweep that runs many processes side by side.  OpenBLAS
 *    reads the variable only when it loads.
 *
 * Only the speed changes; every result is the same.  Nothing is done under
 * valgrind (which would not follow the new image) or when /proc/self/exe
 * cannot be executed (the program then goes on as it is).
 */
#ifndef GE_STARTUP_ENV_H
#define GE_STARTUP_ENV_H

/* Call first in main(); returns only if the program goes on as it is. */
void ge_startup_reexec(char **argv);

#endif
