/*
 * thp.h - transparent huge pages for the heap of a long-running program.
 *
 * The simulator's state -- every SM's L1, MSHRs and completion heap, the L2
 * slices' tags, the DRAM queues, the warp streams -- is tens of megabytes
 * touched all over, and with 4 KB pages much of a memory-bound simulation's
 * time goes to TLB misses: bench_sim's V100 memory-bound group took 34.5 and
 * 35.5 s with small pages, 31.5 and 31.1 s with huge pages (interleaved runs,
 * 2026-11-27).  Linux backs a heap with huge pages when its THP mode is
 * "always", or, in the usual "madvise" mode, when the program asks with
 * madvise(MADV_HUGEPAGE), which glibc's malloc does under its tunable
 * glibc.malloc.hugetlb=1.  glibc reads tunables only at start-up, so in
 * "madvise" mode the program executes itself again, once, with the tunable
 * added to GLIBC_TUNABLES.  Only the speed changes; every result is the same.
 *
 * Not done when GPUEST_NO_THP is set, when GLIBC_TUNABLES already says
 * something about glibc.malloc.hugetlb, under valgrind (which would not follow
 * the new image), or when /proc/self/exe cannot be executed (then the
 * program simply goes on with small pages).
 */
#ifndef GE_THP_H
#define GE_THP_H

/* Call first in main(); returns only if the program goes on as it is. */
void ge_thp_reexec(char **argv);

#endif
