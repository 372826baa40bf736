/*
 * memdrv.h - a synthetic "SM side" that drives a sim_mem directly, for the
 * memory-hierarchy tests and bench/bench_mem.c: warps that issue line
 * accesses from a generator with a bounded number of loads in flight
 * (depth 1 = a dependent pointer chase), the same calling protocol as the
 * SM core (cycle, pop, access; skip to next_event when nothing can issue).
 */
#ifndef MEMDRV_H
#define MEMDRV_H

#include <stdint.h>

#include "mem.h"

typedef struct drv_op {
    uint64_t line;
    uint32_t sectors;
    uint8_t kind;   /* sim_mem_kind */
    uint8_t space;  /* isa_space (0 = global) */
    uint8_t bypass; /* bypass_l1 */
} drv_op;

/* The i-th access of warp w of SM s into *op; 0 when the warp is done. */
typedef int (*drv_gen)(void *ctx, uint32_t sm, uint32_t warp, uint64_t i, drv_op *op);

typedef struct drv_cfg {
    uint32_t nsm;            /* SMs 0..nsm-1 issue */
    uint32_t warps;          /* warps per SM */
    uint32_t depth;          /* loads in flight per warp */
    uint32_t issue_per_cycle;/* accesses an SM offers per cycle (0 = 1) */
    drv_gen gen;
    void *ctx;
    uint64_t start;          /* first core cycle */
    uint64_t max_cycles;     /* give up after this many (0 = 1e9) */
    int no_skip;             /* 1: call cycle() every cycle instead of jumping to next_event */
} drv_cfg;

typedef struct drv_result {
    uint64_t end;            /* cycle after the last completion */
    uint64_t cycles;         /* end - start */
    double loads, stores;    /* accesses completed */
    double load_sectors, store_sectors;
    double lat_sum, lat_min, lat_max; /* loads/atomics: issue -> completion, core cycles */
    double retries;
    int timed_out;
} drv_result;

/* Run until every warp is done and every load has completed.  -1 (with a
 * message) on allocation failure or timeout. */
int drv_run(sim_mem *m, const drv_cfg *c, drv_result *r, ge_err *e);

/* Issue one access from SM sm at *now (retrying while refused) and run until
 * it completes (loads/atomics); returns its latency and leaves *now at the
 * completion cycle.  Stores return 0 at acceptance. */
uint64_t drv_one(sim_mem *m, int sm, const drv_op *op, uint64_t *now);

/* Let the memory system run, event to event, through core cycle `until`
 * (e.g. to drain writes).  Refresh keeps a DRAM busy forever, so there is
 * no "idle" to wait for. */
void drv_drain(sim_mem *m, uint64_t now, uint64_t until);

#endif
