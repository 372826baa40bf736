/*
 * wl_bfs.c - driver for the level-synchronous BFS (cuda/bfs.cu).
 *
 * Size = number of nodes.  The graph is directed, in CSR form: node u has
 * 1 + rand(15) out-edges (8 on average), half to nodes within +-32 of u
 * (locality, like meshes and road networks) and half to uniformly random
 * nodes (short paths, like social graphs), so the BFS takes a modest
 * number of levels and a few nodes stay unreachable.  The search starts
 * at node 0.  Per level the host clears the `changed` flag, launches
 * bfs_expand and bfs_advance (256-thread CTAs, one thread per node) and
 * reads the flag back; it stops at the first level that adds no node.
 * The reference is a queue-based BFS on the CPU; levels are integers
 * (-1 = unreached), so the check is exact.
 */
#include "suite_embed.h"
#include "wl_util.h"

#define BFS_BLOCK 256
#define BFS_MAX_DEG 16
#define BFS_LOCAL 32

extern const wl_desc wl_bfs;

static int bfs_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    uint32_t *row_ptr, *cols, *queue;
    int32_t *level, *ref;
    uint8_t *flags;
    gpurt_ptr drow, dcols, dfront, dnext, dvis, dlevel, dchanged;
    if (wl_begin(&c, dev, p, e, &wl_bfs, 2, 1u << 24))
        goto out;
    uint32_t n = c.size;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 8);
    if (!(row_ptr = wl_host(&c, (size_t)n + 1, sizeof *row_ptr)) ||
        !(cols = wl_host(&c, (size_t)n * BFS_MAX_DEG, sizeof *cols)) || !(level = wl_host(&c, n, sizeof *level)) ||
        !(ref = wl_host(&c, n, sizeof *ref)) || !(queue = wl_host(&c, n, sizeof *queue)) ||
        !(flags = wl_host(&c, n, 1)))
        goto out;
    uint32_t ne = 0;
    for (uint32_t u = 0; u < n; u++) {
        row_ptr[u] = ne;
        uint32_t deg = 1 + wl_rng_below(&r, BFS_MAX_DEG - 1);
        for (uint32_t k = 0; k < deg; k++) {
            uint32_t v;
            if (wl_rng_below(&r, 2)) {
                int64_t t = (int64_t)u + (int64_t)wl_rng_below(&r, 2 * BFS_LOCAL + 1) - BFS_LOCAL;
                v = (uint32_t)((t % n + n) % n);
            } else {
                v = wl_rng_below(&r, n);
            }
            cols[ne++] = v;
        }
    }
    row_ptr[n] = ne;

    /* Device state: frontier = {0}, visited = {0}, level[0] = 0, others -1. */
    for (uint32_t u = 0; u < n; u++)
        level[u] = -1;
    level[0] = 0;
    flags[0] = 1;
    if (!(drow = wl_upload(&c, row_ptr, ((size_t)n + 1) * sizeof *row_ptr)) ||
        !(dcols = wl_upload(&c, cols, (size_t)ne * sizeof *cols)) || !(dfront = wl_upload(&c, flags, n)) ||
        !(dvis = wl_upload(&c, flags, n)) || !(dnext = wl_alloc(&c, n)) ||
        !(dlevel = wl_upload(&c, level, (size_t)n * sizeof *level)) || !(dchanged = wl_alloc(&c, sizeof(int32_t))))
        goto out;
    void *args_expand[] = {&n, &drow, &dcols, &dfront, &dnext, &dvis, &dlevel};
    void *args_advance[] = {&n, &dfront, &dnext, &dvis, &dchanged};
    gpurt_dim3 grid = gpurt_dim(wl_div_up(n, BFS_BLOCK), 1, 1), block = gpurt_dim(BFS_BLOCK, 1, 1);
    for (uint32_t iter = 0;; iter++) {
        int32_t changed = 0;
        if (iter > n) {
            rc = wl_verify_fail(&c, "no convergence after %u levels", iter);
            goto out;
        }
        if (wl_h2d(&c, dchanged, &changed, sizeof changed) || wl_launch(&c, "bfs_expand", grid, block, 0, args_expand) ||
            wl_launch(&c, "bfs_advance", grid, block, 0, args_advance) ||
            wl_download(&c, &changed, dchanged, sizeof changed))
            goto out;
        if (!changed)
            break;
    }
    if (wl_download(&c, level, dlevel, (size_t)n * sizeof *level))
        goto out;

    for (uint32_t u = 0; u < n; u++)
        ref[u] = -1;
    uint32_t head = 0, tail = 0;
    ref[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t k = row_ptr[u]; k < row_ptr[u + 1]; k++) {
            uint32_t v = cols[k];
            if (ref[v] < 0) {
                ref[v] = ref[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    rc = wl_check_i32(&c, "level", level, ref, n);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_bfs = {
    "bfs", "breadth-first search on a CSR graph, one expand/advance launch pair per level", "app",
    suite_ptx_bfs, "bfs.ptx", suite_res_bfs, 2048, 1u << 16, "number of graph nodes (8 out-edges each on average)",
    bfs_run};
