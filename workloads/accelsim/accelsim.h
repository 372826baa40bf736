/*
 * accelsim.h - Accel-Sim SASS traces as a warp stream: reader, writer and
 * the SASS opcode tables.
 *
 * The format (kernelslist.g plus one kernel-N.traceg[.xz] per launch) is
 * described in docs/traces.md.  In short: kernelslist.g lists MemcpyHtoD
 * lines and kernel trace files in launch order; a kernel file has a header
 * of "-key = value" lines followed by thread blocks (#BEGIN_TB ... #END_TB),
 * each holding warps ("warp = N", "insts = M") and one line per warp
 * instruction:
 *     [line] PC mask ndst [Rd..] OPCODE nsrc [Rs..] width [mode addrs..] [imm]
 *
 * Reader: accelsim_open() returns a ws_source (common/wstream.h).  It
 * streams: one CTA is decoded at a time into the consumer's ws_cta, from a
 * 1 MiB read buffer with a hand-written tokenizer (no per-instruction
 * allocation).  open_cta works for plain and .xz files; see docs/traces.md
 * for its cost.
 *
 * Mnemonics: ws_inst.opcode indexes a per-kernel table of interned
 * mnemonics.  A trace reveals its mnemonics while it is read, so the table
 * grows as CTAs are decoded.  The table's address is stable for the whole
 * kernel (ws_kernel.opcodes of the kernel event stays valid until the next
 * event), every ws_inst.opcode the source hands out indexes a valid entry,
 * but ws_kernel.nopcodes in the event only counts the mnemonics known when
 * the event was delivered.  accelsim_kernel() gives the live count.
 */
#ifndef GE_ACCELSIM_H
#define GE_ACCELSIM_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "isa.h"
#include "wstream.h"

/* ---- reader ---- */

/* Open a trace: a kernelslist.g file, a directory holding one, or a single
 * kernel-*.traceg / kernel-*.traceg.xz file (one kernel, no memcpys).
 * kernelslist.g is parsed here; kernel files are opened as the stream
 * reaches them.  Returns 0 or -1. */
int accelsim_open(const char *path, ws_source **out, ge_err *e);

/* One kernel trace held in memory (plain text, or .xz data recognised by
 * its magic bytes).  name is used in messages.  The data is copied. */
int accelsim_open_buffer(const void *data, size_t size, const char *name, ws_source **out, ge_err *e);

/* 1 if s was opened by accelsim_open*(). */
int accelsim_is_source(const ws_source *s);

/* The current kernel of an accelsim source with the live mnemonic count,
 * or NULL before the first kernel event.  Valid until the next event. */
const ws_kernel *accelsim_kernel(ws_source *s);

/* ---- opcode tables ---- */

/* 1 if traces of this binary (SM) version can be read and written:
 * 60, 61, 62 (Pascal), 70, 72 (Volta), 75 (Turing), 80, 86, 87, 89
 * (Ampere/Ada), 90 (Hopper). */
int accelsim_version_supported(uint32_t binary_version);

/* The op kind of a SASS mnemonic ("LDG.E.64", "MUFU.RSQ", ...) under the
 * table of a binary version; -1 if the mnemonic or the version is unknown. */
int accelsim_op_of(uint32_t binary_version, const char *mnemonic);

/* The canonical mnemonic the writer uses for a kind when an instruction's
 * own mnemonic does not map back to it; NULL if the family has none (tensor
 * ops on Pascal).  accelsim_op_of(v, accelsim_canonical(v, op)) == op. */
const char *accelsim_canonical(uint32_t binary_version, isa_op op);

/* ---- writer ---- */

typedef struct accelsim_writer accelsim_writer;

/* Create dir (and its parents) if needed and start dir/kernelslist.g.
 * Kernel files are kernel-N.traceg, or kernel-N.traceg.xz when xz != 0. */
accelsim_writer *accelsim_writer_open(const char *dir, int xz, ge_err *e);

/* A memcpy line, or a kernel launch: closes the previous kernel file and
 * starts kernel-N.traceg[.xz] with its header.  Kernels must have a
 * supported binary version and nregs <= 255 (the format's range). */
int accelsim_write_event(accelsim_writer *w, const ws_event *ev, ge_err *e);

/* One CTA of the current kernel.  k is the kernel the CTA belongs to (for
 * its mnemonics).  An instruction whose mnemonic does not map back to its op
 * kind under the kernel's binary version is written with the canonical
 * mnemonic of the kind (plus a width suffix for memory ops).  Memory
 * instructions are written base+stride when the active lanes are
 * contiguous with one stride, else base+delta (as the NVBit tracer does). */
int accelsim_write_cta(accelsim_writer *w, const ws_kernel *k, const ws_cta *cta, ge_err *e);

/* Finish the current kernel file and kernelslist.g, free w.  Returns -1 if
 * any buffered output could not be written. */
int accelsim_writer_close(accelsim_writer *w, ge_err *e);

/* Copy a whole stream to dir; closes nothing of src. */
int accelsim_write_stream(ws_source *src, const char *dir, int xz, ge_err *e);

#endif
