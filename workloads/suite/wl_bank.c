/*
 * wl_bank.c - driver for the shared-memory bank-conflict microbenchmark
 * (cuda/bank.cu).
 *
 * Size = the stride in 4-byte words between the shared-memory words that
 * neighbouring lanes load, 1..32: lane l loads word l * stride, so a warp
 * load is a gcd(stride, 32)-way bank conflict on a 32-bank shared memory
 * (stride 1 or odd: none; 32: all lanes in one bank).  To sweep conflict
 * degrees, run sizes 1, 2, 4, 8, 16, 32.  BANK_CTAS CTAs of 256 threads,
 * BANK_ITERS (64) dependent loads per thread.  Reading the result: cycles per
 * warp load grows with the conflict degree; compare the kernel's cycles
 * across strides.  Each thread returns the sum of the words it loaded,
 * BANK_ITERS * (l * stride mod 1024), checked exactly.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define BANK_BLOCK 256
#define BANK_CTAS 16
#define BANK_ITERS 64
#define BANK_WORDS 1024

extern const wl_desc wl_shmem_bank_conflict;

static int bank_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *out, *ref;
    gpurt_ptr dout;
    if (wl_begin(&c, dev, p, e, &wl_shmem_bank_conflict, 1, 32))
        goto out;
    uint32_t stride = c.size, iters = BANK_ITERS, n = BANK_CTAS * BANK_BLOCK;
    if (!(out = wl_host(&c, n, sizeof *out)) || !(ref = wl_host(&c, n, sizeof *ref)) ||
        !(dout = wl_alloc(&c, (size_t)n * sizeof *out)))
        goto out;
    void *args[] = {&dout, &stride, &iters};
    if (wl_launch(&c, "shmem_bank_conflict", gpurt_dim(BANK_CTAS, 1, 1), gpurt_dim(BANK_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, out, dout, (size_t)n * sizeof *out))
        goto out;
    for (uint32_t i = 0; i < n; i++)
        ref[i] = BANK_ITERS * ((((i % BANK_BLOCK) & 31u) * stride) % BANK_WORDS);
    rc = wl_check_u32(&c, "out", out, ref, n);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_shmem_bank_conflict = {
    "shmem_bank_conflict", "shared-memory loads at lane*stride words: gcd(stride,32)-way bank conflicts", "micro",
    suite_ptx_bank, "bank.ptx", suite_res_bank, 2, 32, "word stride between lanes, 1..32", bank_run};
