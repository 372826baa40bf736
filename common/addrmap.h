/*
 * addrmap.h - where a line lives: its L2 slice, its DRAM channel, and its
 * bank group / bank / row / column inside the channel.
 *
 * 1. Slice.  Lines are interleaved over the l2.slices slices at line
 *    granularity.  Write line = q * S + r (S slices, r < S).
 *      "linear": slice = r.
 *      "xor":    slice = r XOR fold(q) for power-of-two S, (r + fold(q)) mod S
 *                otherwise, where fold(q) XORs q's bits in chunks of
 *                ceil(log2 S) bits.  Power-of-two strides that would all land
 *                on one slice under "linear" (partition camping) are spread
 *                over all slices, as the XOR/polynomial slice hashes of
 *                real GPUs do (GPGPU-Sim/Accel-Sim offer the same choice via
 *                -gpgpu_memory_partition_indexing: 0 linear, 1 XOR, 2 IPOLY;
 *                its V100 config uses a hashed one).
 *    For a fixed q both maps are a permutation of the S lines q*S..q*S+S-1,
 *    so (slice, q) names a line uniquely and q is the slice-local line index
 *    (the L2 slice uses it for its set index).
 * 2. Channel.  The l2.slices / dram.channels slices of one channel are
 *    consecutive: channel = slice / slices_per_channel.  Channel-local line
 *    number: p = q * slices_per_channel + slice mod slices_per_channel.
 * 3. Inside the channel.  The lowest bits of p pick the bank group, so
 *    consecutive lines of a stream alternate bank groups and their column
 *    commands can follow each other at tCCD_S instead of tCCD_L (the reason
 *    bank groups exist, JESD212/JESD235; GPGPU-Sim's V100 address map also
 *    puts a bank bit among the column bits).  Then the column (line within
 *    the row: consecutive lines of one bank group share an open row), then
 *    the bank within its group, then the row.  bank = bank_in_group *
 *    bank_groups + group, so bank group = bank mod bank_groups.  With the
 *    "xor" hash the bank within the group is XORed with the low row bits,
 *    the permutation-based page interleaving of Zhang, Zhu and Zhang
 *    (MICRO 2000), which turns row conflicts of strided streams into
 *    accesses to different banks.
 */
#ifndef GE_ADDRMAP_H
#define GE_ADDRMAP_H

#include <stdint.h>

#include "gpu_config.h"

typedef struct addrmap {
    uint32_t slices, channels, slices_per_chan;
    int xor_hash;
    int slices_pow2;
    uint32_t fold_bits;     /* ceil(log2 slices) */
    uint32_t lines_per_row; /* dram.row_bytes / l2 line */
    uint32_t banks, bank_groups;
} addrmap;

typedef struct dram_addr {
    uint32_t channel, bank, row, col;
} dram_addr;

void addrmap_init(addrmap *a, const gpu_config *cfg);
/* q's bits XORed together in chunks of `bits` (0 for bits = 0): the fold of
 * the "xor" slice hash, and of the caches' "xor" set index (sampler/cache.h). */
static inline uint32_t addrmap_fold(uint64_t q, uint32_t bits)
{
    if (bits == 0)
        return 0;
    uint64_t mask = (1ull << bits) - 1, r = 0;
    for (; q; q >>= bits)
        r ^= q & mask;
    return (uint32_t)r;
}
/* Only the line -> slice part, for `slices` slices and the "linear" (0) or
 * "xor" (1) hash (the profiler records slice traffic this way). */
void addrmap_init_slices(addrmap *a, uint32_t slices, int xor_hash);
uint32_t addrmap_slice(const addrmap *a, uint64_t line);
static inline uint32_t addrmap_channel_of_slice(const addrmap *a, uint32_t slice) { return slice / a->slices_per_chan; }
void addrmap_dram(const addrmap *a, uint64_t line, dram_addr *d);

#endif
