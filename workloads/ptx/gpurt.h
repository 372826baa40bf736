/*
 * gpurt.h - the host runtime API of the execution-driven front-end.
 *
 * A small C API in the spirit of the CUDA runtime.  Workload drivers
 * (workloads/suite/) allocate device memory, copy data, and launch PTX
 * kernels through it; the functional SIMT emulator (workloads/ptx/) executes
 * the launches.  Device memory is a sparse, bounds-checked address space:
 * an access outside any allocation is an error naming the kernel, the PTX
 * line and the address, never a host crash.
 *
 * Launches are executed in order (one implicit stream, like the default
 * CUDA stream).  When the device has a warp-stream consumer attached
 * (see ptx_source.h), every CTA a launch executes is handed to it; without
 * one, launches run purely functionally.
 *
 * All functions return 0 on success and -1 with a one-line message in the
 * device's error (gpurt_error()) on failure.  After a failure, later calls
 * fail too (the first error is kept), so drivers may check once at the end,
 * as with CUDA's sticky errors.
 */
#ifndef GE_GPURT_H
#define GE_GPURT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef struct gpurt gpurt;
typedef uint64_t gpurt_ptr; /* device address; 0 is never a valid allocation */

typedef struct gpurt_dim3 {
    uint32_t x, y, z;
} gpurt_dim3;

static inline gpurt_dim3 gpurt_dim(uint32_t x, uint32_t y, uint32_t z)
{
    gpurt_dim3 d = {x, y, z};
    return d;
}

/* Create a device with a PTX module (the text of a .ptx file; name is used
 * in error messages).  Returns NULL with e filled on a PTX error. */
gpurt *gpurt_create(const char *ptx_text, const char *ptx_name, ge_err *e);
void gpurt_destroy(gpurt *d);

/* The first error, or NULL. */
const char *gpurt_error(const gpurt *d);

gpurt_ptr gpurt_malloc(gpurt *d, size_t bytes); /* 0 on failure */
int gpurt_free(gpurt *d, gpurt_ptr p);
int gpurt_memcpy_h2d(gpurt *d, gpurt_ptr dst, const void *src, size_t bytes);
int gpurt_memcpy_d2h(gpurt *d, void *dst, gpurt_ptr src, size_t bytes);
int gpurt_memset(gpurt *d, gpurt_ptr dst, int value, size_t bytes);
/* Address of a module-scope .global/.const variable (like cudaGetSymbolAddress). */
gpurt_ptr gpurt_symbol(gpurt *d, const char *name);

/* Launch kernel `name`.  args[i] points to the value of the i-th .param
 * (its size comes from the PTX declaration, as with cudaLaunchKernel).
 * Runs to completion before returning. */
int gpurt_launch(gpurt *d, const char *name, gpurt_dim3 grid, gpurt_dim3 block, uint32_t dyn_shmem,
                 void **args);

/* Counters of what the device executed so far. */
typedef struct gpurt_stats {
    uint64_t launches, ctas, warp_insts, thread_insts;
} gpurt_stats;
void gpurt_get_stats(const gpurt *d, gpurt_stats *s);

#endif
