/*
 * profile.c - life cycle of a profile and small views of it.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

const char *const prof_interleave_names[PROF_IL_COUNT] = {"lrr", "gto"};

const char *const prof_sig_names[PROF_SIG_COUNT] = {
#define X(id, n) [PROF_SIG_##id] = n,
    PROF_SIG(X)
#undef X
};

void prof_init(profile *p) { memset(p, 0, sizeof *p); }

void prof_free(profile *p)
{
    for (uint32_t k = 0; k < p->nkernels; k++) {
        prof_kernel *pk = &p->k[k];
        for (uint32_t w = 0; w < pk->nwarps; w++)
            free(pk->warps[w].inst);
        free(pk->warps);
        free(pk->l1);
        free(pk->clusters);
        for (uint32_t s = 0; s < pk->nsample; s++)
            ws_cta_free(&pk->sample[s]);
        free(pk->sample);
        free(pk->sample_index);
        free(pk->sample_cluster);
        free(pk->inherit_line);
        free(pk->inherit_age);
        free(pk->inherit_sectors);
        free(pk->code_warm);
    }
    free(p->k);
    free(p->l2);
    for (uint32_t i = 0; i < p->nopcodes; i++)
        free(p->opcodes[i]);
    free(p->opcodes);
    prof_init(p);
}

void prof_kernel_ws(const profile *p, const prof_kernel *pk, ws_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->name = pk->name;
    memcpy(out->grid, pk->grid, sizeof out->grid);
    memcpy(out->block, pk->block, sizeof out->block);
    out->nregs = pk->nregs;
    out->shmem_static = pk->shmem_static;
    out->shmem_dynamic = pk->shmem_dynamic;
    out->binary_version = pk->binary_version;
    out->opcodes = (const char *const *)p->opcodes;
    out->nopcodes = p->nopcodes;
    out->id = (uint32_t)(pk - p->k) + 1;
}

int prof_camp_fn(int xor_hash, uint32_t slices)
{
    static const uint32_t counts[PROF_CAMP_NCOUNTS] = PROF_CAMP_COUNTS;
    for (int i = 0; i < PROF_CAMP_NCOUNTS; i++)
        if (counts[i] == slices)
            return i + (xor_hash ? PROF_CAMP_NCOUNTS : 0);
    return -1;
}
