/*
 * lineidx.c - line address -> small integer index (see lineidx.h).
 */
#include <stdlib.h>

#include "lineidx.h"

int lineidx_init(lineidx *x, uint32_t max_entries, ge_err *e)
{
    uint32_t cap = 4;
    int bits = 2;
    while (cap < 2 * max_entries)
        cap <<= 1, bits++;
    x->mask = cap - 1;
    x->shift = 64 - bits;
    x->s = ge_malloc(cap * sizeof *x->s, e);
    if (!x->s) {
        lineidx_free(x);
        return -1;
    }
    lineidx_clear(x);
    return 0;
}

void lineidx_free(lineidx *x)
{
    free(x->s);
    x->s = NULL;
}

void lineidx_clear(lineidx *x)
{
    for (uint32_t i = 0; i <= x->mask; i++)
        x->s[i].val = -1, x->s[i].key = 0, x->s[i].unused = 0;
}

void lineidx_put(lineidx *x, uint64_t key, int32_t v)
{
    uint32_t h = lineidx_home(x, key);
    while (x->s[h].val >= 0)
        h = (h + 1) & x->mask;
    x->s[h].key = key;
    x->s[h].val = v;
}

void lineidx_del(lineidx *x, uint64_t key)
{
    uint32_t h = lineidx_home(x, key);
    while (x->s[h].key != key || x->s[h].val < 0)
        h = (h + 1) & x->mask;
    /* Backward shift: pull later members of the cluster into the hole unless
     * their home lies cyclically in (hole, j]. */
    uint32_t hole = h;
    for (uint32_t j = (hole + 1) & x->mask; x->s[j].val >= 0; j = (j + 1) & x->mask) {
        uint32_t home = lineidx_home(x, x->s[j].key);
        int stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            x->s[hole] = x->s[j];
            hole = j;
        }
    }
    x->s[hole].val = -1;
}
