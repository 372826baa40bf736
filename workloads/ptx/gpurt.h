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
 * (gpurt_set_sink below), every CTA a launch executes is handed to it; without
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
#include "wstream.h"

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

/* Create a device with a PTX module (the NUL-terminated text of a .ptx file;
 * name is used in error messages).  Returns NULL with e filled on a PTX
 * error ("name:LINE: ..."). */
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
    double launch_seconds;     /* wall time spent inside launches (emulation, and the sink's waits) */
    double launch_cpu_seconds; /* CPU time of the calling thread inside launches */
} gpurt_stats;
void gpurt_get_stats(const gpurt *d, gpurt_stats *s);

/* ---- extensions (gpuest-specific) ---- */

/* ptxas resource usage, lines "KERNEL_MANGLED_NAME REGS STATIC_SHARED_BYTES"
 * (wl_desc.ptx_resources).  Kernels listed report these in ws_kernel.nregs
 * and shmem_static; others report the emulator's estimate (ptx.h).
 * Returns -1 on a malformed line (the device error is set). */
int gpurt_set_resources(gpurt *d, const char *text);

/* Streams label launches (ws_kernel.stream); the device still executes
 * launches in issue order, which is one valid CUDA schedule.  Stream 0 is
 * the default stream. */
uint32_t gpurt_stream_create(gpurt *d);
int gpurt_launch_stream(gpurt *d, uint32_t stream, const char *name, gpurt_dim3 grid, gpurt_dim3 block,
                        uint32_t dyn_shmem, void **args);
/* Wait for all launches (they are synchronous here: returns the sticky state). */
int gpurt_sync(gpurt *d);

/* Stop a launch after this many warp instructions per CTA (0 = no limit). */
void gpurt_set_inst_limit(gpurt *d, uint64_t warp_insts_per_cta);

/* Make the device fail with a message (sticky), e.g. from a driver whose
 * verification failed, or from a consumer that cancels. Returns -1. */
int gpurt_fail(gpurt *d, const char *fmt, ...) GE_PRINTF(2, 3);

/* A warp-stream consumer.  With a sink attached, every memcpy reports a
 * WS_EV_MEMCPY_* event, every launch a WS_EV_KERNEL event (its strings live
 * as long as the device), then each CTA as it finishes, in launch order.
 * The sink may swap the ws_cta's buffers with its own instead of copying;
 * the device resets it before reuse.  A callback returning -1 fails the
 * current call with the callback's message (sticky), which is how a
 * consumer cancels a running driver.  Callbacks run on the driver's thread. */
typedef struct gpurt_sink {
    void *ctx;
    int (*event)(void *ctx, const ws_event *ev, ge_err *e);
    int (*cta)(void *ctx, ws_cta *cta, ge_err *e);
} gpurt_sink;
void gpurt_set_sink(gpurt *d, const gpurt_sink *s); /* NULL detaches */

/* Called after every CTA with the running counters (for progress reports;
 * must not call back into the device).  NULL detaches. */
void gpurt_set_progress(gpurt *d, void (*fn)(void *ctx, const gpurt_stats *st), void *ctx);

#endif
