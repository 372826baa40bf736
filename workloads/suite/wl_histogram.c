/*
 * wl_histogram.c - drivers for histogram_global and histogram_shared
 * (cuda/histogram.cu).
 *
 * Size = number of 32-bit words of input (4 bytes each).  The bytes are
 * image-like rather than uniform: half come from a narrow bump around a
 * seed-chosen value (sum of four small uniforms), half uniform over 0..255,
 * so a few bins are hot and atomics contend as they do on real data.  The
 * grid is at most 120 CTAs of 256 threads (grid-stride loops beyond that),
 * so each privatised shared histogram covers many inputs.  Counts are
 * integers: the check is exact.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define HIST_BINS 256
#define HIST_BLOCK 256
#define HIST_MAX_GRID 120

extern const wl_desc wl_histogram_global, wl_histogram_shared;

static int histogram_run(const wl_desc *w, const char *kernel, gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *data, *bins, *ref;
    gpurt_ptr ddata, dbins;
    if (wl_begin(&c, dev, p, e, w, 1, 1u << 26))
        goto out;
    uint32_t nwords = c.size;
    if (!(data = wl_host(&c, nwords, sizeof *data)) || !(bins = wl_host(&c, HIST_BINS, sizeof *bins)) ||
        !(ref = wl_host(&c, HIST_BINS, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 6);
    uint32_t centre = wl_rng_below(&r, 256);
    for (uint32_t i = 0; i < nwords; i++) {
        uint32_t wv = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t v;
            if (wl_rng_below(&r, 2)) {
                v = (centre + 256 - 30 + wl_rng_below(&r, 16) + wl_rng_below(&r, 16) + wl_rng_below(&r, 16) +
                     wl_rng_below(&r, 16)) & 0xffu;
            } else {
                v = wl_rng_below(&r, 256);
            }
            ref[v]++;
            wv |= v << (8 * k);
        }
        data[i] = wv;
    }
    if (!(ddata = wl_upload(&c, data, (size_t)nwords * sizeof *data)) ||
        !(dbins = wl_alloc(&c, HIST_BINS * sizeof *bins)))
        goto out;
    uint32_t grid = wl_div_up(nwords, HIST_BLOCK);
    if (grid > HIST_MAX_GRID)
        grid = HIST_MAX_GRID;
    void *args[] = {&ddata, &nwords, &dbins};
    if (wl_launch(&c, kernel, gpurt_dim(grid, 1, 1), gpurt_dim(HIST_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, bins, dbins, HIST_BINS * sizeof *bins))
        goto out;
    rc = wl_check_u32(&c, "bins", bins, ref, HIST_BINS);
out:
    return wl_end(&c, rc);
}

static int global_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return histogram_run(&wl_histogram_global, "histogram_global", dev, p, e);
}

static int shared_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    return histogram_run(&wl_histogram_shared, "histogram_shared", dev, p, e);
}

const wl_desc wl_histogram_global = {
    "histogram_global", "256-bin byte histogram with global atomics", "app",
    suite_ptx_histogram, "histogram.ptx", suite_res_histogram, 4096, 1u << 20,
    "number of 32-bit input words (4 bytes each)", global_run};

const wl_desc wl_histogram_shared = {
    "histogram_shared", "256-bin byte histogram privatised in shared memory (shared atomics)", "app",
    suite_ptx_histogram, "histogram.ptx", suite_res_histogram, 4096, 1u << 20,
    "number of 32-bit input words (4 bytes each)", shared_run};
