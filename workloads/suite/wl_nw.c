/*
 * wl_nw.c - driver for the Needleman-Wunsch wavefront (cuda/nw.cu).
 *
 * Size = n, the length of both sequences (a multiple of 16, the tile).  The
 * sequences are random over a 24-letter alphabet; the similarity of two
 * letters comes from a random symmetric table (matches 4..11, mismatches
 * -4..2, in the style of BLOSUM62), gap penalty 10.  The host fills the
 * n x n similarity matrix and the (n+1) x (n+1) score matrix's first row
 * and column (-i * penalty), then launches nw_tile_diagonal once per
 * anti-diagonal of 16 x 16 tiles (2n/16 - 1 launches of 1, 2, ..., n/16,
 * ..., 1 CTAs of 16 threads).  The CPU reference is the textbook dynamic
 * programme; scores are integers, so the check is exact.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define NW_BS 16
#define NW_ALPHA 24
#define NW_PENALTY 10

extern const wl_desc wl_nw;

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static int nw_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint8_t *sa, *sb;
    int32_t *sim, *score, *ref, table[NW_ALPHA][NW_ALPHA];
    gpurt_ptr dsim, dscore;
    if (wl_begin(&c, dev, p, e, &wl_nw, NW_BS, 16384))
        goto out;
    uint32_t n = c.size;
    if (n % NW_BS) {
        rc = ge_errf(e, "nw: size %u is not a multiple of %d", n, NW_BS);
        goto out;
    }
    size_t w = (size_t)n + 1;
    if (!(sa = wl_host(&c, n, 1)) || !(sb = wl_host(&c, n, 1)) || !(sim = wl_host(&c, (size_t)n * n, sizeof *sim)) ||
        !(score = wl_host(&c, w * w, sizeof *score)) || !(ref = wl_host(&c, w * w, sizeof *ref)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 12);
    for (int i = 0; i < NW_ALPHA; i++) {
        table[i][i] = 4 + (int)wl_rng_below(&r, 8);
        for (int j = 0; j < i; j++)
            table[i][j] = table[j][i] = -4 + (int)wl_rng_below(&r, 7);
    }
    for (uint32_t i = 0; i < n; i++) {
        sa[i] = (uint8_t)wl_rng_below(&r, NW_ALPHA);
        sb[i] = (uint8_t)wl_rng_below(&r, NW_ALPHA);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            sim[(size_t)i * n + j] = table[sa[i]][sb[j]];
    for (size_t i = 0; i < w; i++) {
        score[i] = -(int32_t)i * NW_PENALTY;     /* row 0 */
        score[i * w] = -(int32_t)i * NW_PENALTY; /* column 0 */
    }
    if (!(dsim = wl_upload(&c, sim, (size_t)n * n * sizeof *sim)) ||
        !(dscore = wl_upload(&c, score, w * w * sizeof *score)))
        goto out;
    uint32_t tiles = n / NW_BS;
    int32_t penalty = NW_PENALTY;
    for (uint32_t d = 0; d + 1 < 2 * tiles; d++) {
        uint32_t ctas = (d < tiles ? d : 2 * tiles - 2 - d) + 1;
        void *args[] = {&n, &d, &dsim, &dscore, &penalty};
        if (wl_launch(&c, "nw_tile_diagonal", gpurt_dim(ctas, 1, 1), gpurt_dim(NW_BS, 1, 1), 0, args))
            goto out;
    }
    if (wl_download(&c, score, dscore, w * w * sizeof *score))
        goto out;
    for (size_t i = 0; i < w; i++) {
        ref[i] = -(int32_t)i * NW_PENALTY;
        ref[i * w] = -(int32_t)i * NW_PENALTY;
    }
    for (size_t i = 1; i < w; i++)
        for (size_t j = 1; j < w; j++)
            ref[i * w + j] = max3(ref[(i - 1) * w + j - 1] + sim[(i - 1) * n + j - 1], ref[(i - 1) * w + j] - NW_PENALTY,
                                  ref[i * w + j - 1] - NW_PENALTY);
    rc = wl_check_i32(&c, "score", score, ref, w * w);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_nw = {
    "nw", "Needleman-Wunsch alignment, one launch per anti-diagonal of 16x16 tiles", "app",
    suite_ptx_nw, "nw.ptx", suite_res_nw, 64, 1024, "sequence length n (multiple of 16)", nw_run};
