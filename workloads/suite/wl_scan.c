/*
 * wl_scan.c - driver for the exclusive prefix sum (cuda/scan.cu).
 *
 * Size = number of unsigned integers, uniform in [0, 1000) (so sums stay
 * below 2^32 up to 4M elements).  The host recursion: scan_block over
 * chunks of 512 (256 threads, 2 KB of dynamic shared memory) writes the
 * chunk totals; if there is more than one chunk, the totals are scanned the
 * same way (recursively) and scan_add adds them back.  Levels: 1 for n <=
 * 512, 2 up to 262144, 3 up to 2^27.  Integer sums: the check is exact.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define SCAN_BLOCK 256
#define SCAN_CHUNK (2 * SCAN_BLOCK)
#define SCAN_MAX_LEVELS 4

extern const wl_desc wl_scan;

/* Exclusive scan of d_in[0..n) into d_out, using the level buffers
 * sums[lv..] (chunk totals) and scanned[lv..] (their scan). */
static int scan_level(wl_ctx *c, gpurt_ptr d_in, gpurt_ptr d_out, uint32_t n, const gpurt_ptr *sums,
                      const gpurt_ptr *scanned, int lv)
{
    uint32_t chunks = wl_div_up(n, SCAN_CHUNK);
    gpurt_ptr d_sums = chunks > 1 ? sums[lv] : 0;
    void *args[] = {&d_in, &d_out, &d_sums, &n};
    if (wl_launch(c, "scan_block", gpurt_dim(chunks, 1, 1), gpurt_dim(SCAN_BLOCK, 1, 1),
                  SCAN_CHUNK * sizeof(uint32_t), args))
        return -1;
    if (chunks == 1)
        return 0;
    gpurt_ptr d_scanned = scanned[lv];
    if (scan_level(c, d_sums, d_scanned, chunks, sums, scanned, lv + 1))
        return -1;
    void *args2[] = {&d_out, &d_scanned, &n};
    return wl_launch(c, "scan_add", gpurt_dim(chunks, 1, 1), gpurt_dim(SCAN_BLOCK, 1, 1), 0, args2);
}

static int scan_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *in, *out, *ref;
    gpurt_ptr din, dout, sums[SCAN_MAX_LEVELS] = {0}, scanned[SCAN_MAX_LEVELS] = {0};
    if (wl_begin(&c, dev, p, e, &wl_scan, 1, 1u << 22))
        goto out;
    uint32_t n = c.size;
    if (!(in = wl_host(&c, n, sizeof *in)) || !(out = wl_host(&c, n, sizeof *out)) ||
        !(ref = wl_host(&c, n, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 7);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        in[i] = wl_rng_below(&r, 1000);
        ref[i] = acc;
        acc += in[i];
    }
    if (!(din = wl_upload(&c, in, (size_t)n * sizeof *in)) || !(dout = wl_alloc(&c, (size_t)n * sizeof *out)))
        goto out;
    /* Per level, the chunk totals and their scan. */
    uint32_t m = n;
    for (int lv = 0; lv < SCAN_MAX_LEVELS && m > SCAN_CHUNK; lv++) {
        m = wl_div_up(m, SCAN_CHUNK);
        if (!(sums[lv] = wl_alloc(&c, (size_t)m * sizeof(uint32_t))) ||
            !(scanned[lv] = wl_alloc(&c, (size_t)m * sizeof(uint32_t))))
            goto out;
    }
    if (scan_level(&c, din, dout, n, sums, scanned, 0) || wl_download(&c, out, dout, (size_t)n * sizeof *out))
        goto out;
    rc = wl_check_u32(&c, "out", out, ref, n);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_scan = {
    "scan", "exclusive prefix sum (Blelloch up/down-sweep per 512-element chunk, recursive)", "app",
    suite_ptx_scan, "scan.ptx", suite_res_scan, 5000, 1u << 18, "number of elements", scan_run};
