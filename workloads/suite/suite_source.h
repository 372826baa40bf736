/*
 * suite_source.h - a suite workload as a warp-stream source.
 *
 * The workload's host driver runs in a producer thread against a gpurt
 * device; every CTA the emulator executes is handed to the consumer's
 * ws_next_cta() through a one-slot handoff (the buffers are swapped, not
 * copied).  The order of events and CTAs is fixed by the driver and the
 * grid, so the stream is deterministic.  Closing the source early cancels
 * the driver cleanly.  open_cta is not supported (sources that need random
 * access re-open the workload; it is deterministic).
 */
#ifndef GE_SUITE_SOURCE_H
#define GE_SUITE_SOURCE_H

#include "suite.h"
#include "wstream.h"

int suite_source_open(const wl_desc *w, const wl_params *p, ws_source **out, ge_err *e);

#endif
