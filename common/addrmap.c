/*
 * addrmap.c - line -> slice, channel, bank, row, column (see addrmap.h).
 */
#include <string.h>

#include "addrmap.h"

void addrmap_init_slices(addrmap *a, uint32_t slices, int xor_hash)
{
    memset(a, 0, sizeof *a);
    a->slices = slices ? slices : 1;
    a->channels = 1;
    a->slices_per_chan = a->slices;
    a->xor_hash = xor_hash;
    a->slices_pow2 = (a->slices & (a->slices - 1)) == 0;
    while ((1u << a->fold_bits) < a->slices)
        a->fold_bits++;
}

void addrmap_init(addrmap *a, const gpu_config *cfg)
{
    addrmap_init_slices(a, cfg->l2.slices, strcmp(cfg->l2.hash, "linear") != 0);
    a->channels = cfg->dram.channels;
    a->slices_per_chan = a->slices / a->channels;
    uint32_t line = cfg->l2.cache.line_bytes;
    a->lines_per_row = cfg->dram.row_bytes >= line ? cfg->dram.row_bytes / line : 1;
    a->banks = cfg->dram.banks;
    a->bank_groups = cfg->dram.bank_groups ? cfg->dram.bank_groups : 1;
}

static inline void split(const addrmap *a, uint64_t line, uint64_t *q, uint32_t *slice)
{
    *q = line / a->slices;
    uint32_t r = (uint32_t)(line % a->slices);
    if (!a->xor_hash)
        *slice = r;
    else if (a->slices_pow2)
        *slice = r ^ addrmap_fold(*q, a->fold_bits);
    else
        *slice = (uint32_t)((r + addrmap_fold(*q, a->fold_bits)) % a->slices);
}

uint32_t addrmap_slice(const addrmap *a, uint64_t line)
{
    uint64_t q;
    uint32_t s;
    split(a, line, &q, &s);
    return s;
}

void addrmap_dram(const addrmap *a, uint64_t line, dram_addr *d)
{
    uint64_t q;
    uint32_t s;
    split(a, line, &q, &s);
    d->channel = s / a->slices_per_chan;
    uint64_t p = q * a->slices_per_chan + s % a->slices_per_chan;
    uint32_t group = (uint32_t)(p % a->bank_groups);
    p /= a->bank_groups;
    d->col = (uint32_t)(p % a->lines_per_row);
    p /= a->lines_per_row;
    uint32_t per_group = a->banks / a->bank_groups;
    uint32_t bank = (uint32_t)(p % per_group);
    uint64_t row = p / per_group;
    if (a->xor_hash)
        bank = (uint32_t)((bank ^ (row % per_group)) % per_group);
    d->bank = bank * a->bank_groups + group;
    d->row = (uint32_t)row;
}
