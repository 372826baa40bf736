/*
 * profile_io.h - what the profile file's writer (profile_write.c) and
 * reader (profile_read.c) share: the layout and its limits.
 *
 * Layout (docs/profile-format.md has the field-by-field list):
 *   bytes 0-7   "GPUESTPF"
 *   bytes 8-11  format version (u32 LE), currently PROF_VERSION
 *   bytes 12-   an .xz stream (liblzma, CRC64) holding the body: everything
 *               but the sample CTAs' warp streams, which the model does not
 *               read;
 *   then        a second .xz stream holding those warp streams, kernel by
 *               kernel, sample by sample (read only for simulation: hybrid
 *               and full modes; prof_read_opts' with_ctas).
 * Every integer is little-endian, every real an IEEE-754 double, every
 * string a u32 length then bytes.  Reading validates each count against a
 * bound and each enum against its range before using it, so a corrupt or
 * truncated file is refused with a message and never read past.  The
 * writer and the reader walk the same fields in the same order (w_kernel,
 * r_kernel; w_cta, r_cta): a change to one is a change to both.
 */
#ifndef MODEL_PROFILE_IO_H
#define MODEL_PROFILE_IO_H

#define PROF_MAGIC "GPUESTPF"
#define PROF_IO_BUF 65536
#define PROF_MAX_STR (1u << 20)
#define PROF_MAX_COUNT (1u << 24)
/* xz preset: 1 compresses the repetitive warp streams well at ~10x the speed of the default 6. */
#define PROF_XZ_PRESET 1

#endif
