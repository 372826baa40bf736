/*
 * profile.c - life cycle of a profile and small views of it.
 */
#include "profile.h"

#include <math.h>
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
        free(pk->code_warm_age);
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

const uint32_t prof_concurrency[PROF_NCONC] = {64, 512, 4096};

double prof_age_at(const uint32_t *ages, double concurrency)
{
    if (concurrency <= prof_concurrency[0])
        return ages[0];
    for (int j = 1; j < PROF_NCONC; j++)
        if (concurrency <= prof_concurrency[j]) {
            double f = log2(concurrency / prof_concurrency[j - 1]) / log2((double)prof_concurrency[j] / prof_concurrency[j - 1]);
            return ages[j - 1] + f * ((double)ages[j] - ages[j - 1]);
        }
    return ages[PROF_NCONC - 1];
}

uint32_t prof_code_held(const prof_kernel *pk, double cap_lines, double concurrency, uint64_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pk->ncode_warm; i++)
        if (prof_age_at(&pk->code_warm_age[(size_t)i * PROF_NCONC], concurrency) < cap_lines) {
            if (out)
                out[n] = pk->code_warm[i];
            n++;
        }
    return n;
}
