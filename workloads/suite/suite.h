/*
 * suite.h - the gpuest workload suite: CUDA kernels (PTX committed, embedded
 * in the binary) with host drivers that make inputs from a seed and a size,
 * run the kernels through gpurt, and verify against a CPU reference.
 */
#ifndef GE_SUITE_H
#define GE_SUITE_H

#include <stdint.h>

#include "err.h"
#include "gpurt.h"

typedef struct wl_params {
    uint32_t size; /* problem size parameter (meaning per workload); 0 = default */
    uint64_t seed;
} wl_params;

typedef struct wl_desc {
    const char *name;        /* "sgemm_tiled" */
    const char *description; /* one line */
    const char *kind;        /* "app" or "micro" */
    const char *ptx;         /* embedded PTX text */
    const char *ptx_name;    /* e.g. "sgemm.ptx" (for messages) */
    /* ptxas resource usage of each kernel, generated with the PTX:
     * lines "KERNEL_MANGLED_NAME REGS_PER_THREAD STATIC_SHARED_BYTES".
     * The emulator reports these in ws_kernel (PTX virtual registers say
     * nothing about real register pressure, which sets occupancy). */
    const char *ptx_resources;
    uint32_t tiny_size;      /* for unit tests: runs in well under a second */
    uint32_t default_size;   /* realistic size used by benchmarks and `run` */
    const char *size_help;   /* what size means, e.g. "matrix dimension N" */
    /* Make inputs, launch kernels, copy results back and compare with the
     * CPU reference.  Returns 0 if verified, -1 with a message otherwise
     * (including "verification failed: ..." mismatches). */
    int (*run)(gpurt *dev, const wl_params *p, ge_err *e);
} wl_desc;

/* All workloads, NULL-terminated, in listing order. */
const wl_desc *const *suite_all(void);
const wl_desc *suite_find(const char *name);

#endif
