/*
 * wl_bitonic.c - driver for the bitonic sort (cuda/bitonic.cu).
 *
 * Size = number of keys, a power of two >= 2.  Keys are uniform in
 * [0, 4n), so about one in eight is a duplicate.  CTAs have B = min(256,
 * n/2) threads and chunks of 2B keys (2B * 4 bytes of dynamic shared
 * memory).  Launches: bitonic_chunk once; then for each merge size
 * k = 4B, 8B, ..., n: bitonic_global for j = k/2 down to 2B (one thread
 * per compare-exchange pair, n/2 threads) and one bitonic_merge_chunk.
 * The reference is qsort of the input; the check is exact.
 */
#include <stdlib.h>
#include <string.h>

#include "suite_embed.h"
#include "wl_util.h"

#define BIT_MAX_BLOCK 256

extern const wl_desc wl_bitonic_sort;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int bitonic_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *keys, *ref;
    gpurt_ptr dkeys;
    if (wl_begin(&c, dev, p, e, &wl_bitonic_sort, 2, 1u << 26))
        goto out;
    uint32_t n = c.size;
    if (n & (n - 1)) {
        rc = ge_errf(e, "bitonic_sort: size %u is not a power of two", n);
        goto out;
    }
    if (!(keys = wl_host(&c, n, sizeof *keys)) || !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 14);
    for (uint32_t i = 0; i < n; i++)
        keys[i] = wl_rng_below(&r, n > (1u << 30) ? UINT32_MAX : 4 * n);
    memcpy(ref, keys, (size_t)n * sizeof *keys);
    qsort(ref, n, sizeof *ref, cmp_u32);
    if (!(dkeys = wl_upload(&c, keys, (size_t)n * sizeof *keys)))
        goto out;
    uint32_t block = n / 2 < BIT_MAX_BLOCK ? n / 2 : BIT_MAX_BLOCK, chunk = 2 * block;
    uint32_t shmem = chunk * sizeof(uint32_t);
    gpurt_dim3 chunks = gpurt_dim(n / chunk, 1, 1), threads = gpurt_dim(block, 1, 1);
    void *args_chunk[] = {&dkeys};
    if (wl_launch(&c, "bitonic_chunk", chunks, threads, shmem, args_chunk))
        goto out;
    for (uint32_t k = 2 * chunk; k <= n && k != 0; k <<= 1) {
        for (uint32_t j = k / 2; j >= chunk; j >>= 1) {
            void *args[] = {&dkeys, &k, &j};
            if (wl_launch(&c, "bitonic_global", gpurt_dim(n / 2 / block, 1, 1), threads, 0, args))
                goto out;
        }
        void *args[] = {&dkeys, &k};
        if (wl_launch(&c, "bitonic_merge_chunk", chunks, threads, shmem, args))
            goto out;
    }
    if (wl_download(&c, keys, dkeys, (size_t)n * sizeof *keys))
        goto out;
    rc = wl_check_u32(&c, "keys", keys, ref, n);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_bitonic_sort = {
    "bitonic_sort", "bitonic sort of 32-bit keys: shared-memory chunks plus global merge steps", "app",
    suite_ptx_bitonic, "bitonic.ptx", suite_res_bitonic, 2048, 1u << 15, "number of keys (a power of two)",
    bitonic_run};
