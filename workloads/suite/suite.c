/*
 * suite.c - the list of suite workloads.
 *
 * One table, in listing order: applications first, then microbenchmarks.
 * Each driver file (wl_*.c) defines its descriptors; adding a workload is
 * one line here.  Lookup is a linear scan: the list has a few dozen
 * entries and is searched once per run.
 */
#include <string.h>

#include "suite.h"

#define SUITE_LIST(X)                                                                                        \
    X(vectoradd) X(saxpy) X(sgemm_naive) X(sgemm_tiled) X(transpose_naive) X(transpose_tiled) X(reduction)  \
    X(histogram_global) X(histogram_shared) X(scan) X(bfs) X(spmv_csr) X(hotspot) X(kmeans) X(nw)            \
    X(blackscholes) X(bitonic_sort)                                                                          \
    X(pchase_l1) X(pchase_l2) X(pchase_dram) X(stream_copy) X(stream_triad) X(fma_throughput)                 \
    X(divergence_ifelse) X(divergence_loop) X(shmem_bank_conflict) X(atomic_contention)

#define X(n) extern const wl_desc wl_##n;
SUITE_LIST(X)
#undef X

static const wl_desc *const suite_table[] = {
#define X(n) &wl_##n,
    SUITE_LIST(X)
#undef X
    NULL};

const wl_desc *const *suite_all(void) { return suite_table; }

const wl_desc *suite_find(const char *name)
{
    if (!name)
        return NULL;
    for (const wl_desc *const *w = suite_table; *w; w++) {
        if (strcmp((*w)->name, name) == 0)
            return *w;
    }
    return NULL;
}
