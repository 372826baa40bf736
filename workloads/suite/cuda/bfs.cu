// bfs.cu - level-synchronous, top-down breadth-first search on a CSR graph.
//
// State is three byte flags per node (frontier, next, visited) and an int
// level per node (-1 = unreached).  One launch pair per BFS level:
//   bfs_expand: one thread per node; threads whose node is in the frontier
//     walk its adjacency list and label every unvisited neighbour with
//     level+1, marking it in `next`.  Only a few threads per warp are in the
//     frontier and adjacency lists differ in length, so the kernel is
//     strongly divergent with irregular, uncoalesced loads.  Two threads may
//     label one neighbour in the same level; they write the same value.
//   bfs_advance: next becomes the frontier, its nodes become visited, and
//     `*changed` is set if any node was added.
// The host clears `changed`, launches both kernels and reads the flag back,
// until a level adds no node.
extern "C" __global__ void bfs_expand(unsigned nnodes, const unsigned *__restrict__ row_ptr,
                                      const unsigned *__restrict__ cols, const unsigned char *__restrict__ frontier,
                                      unsigned char *__restrict__ next, const unsigned char *__restrict__ visited,
                                      int *__restrict__ level)
{
    unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= nnodes || !frontier[u])
        return;
    int lv = level[u] + 1;
    for (unsigned e = row_ptr[u]; e < row_ptr[u + 1]; e++) {
        unsigned v = cols[e];
        if (!visited[v]) {
            level[v] = lv;
            next[v] = 1;
        }
    }
}

extern "C" __global__ void bfs_advance(unsigned nnodes, unsigned char *__restrict__ frontier,
                                       unsigned char *__restrict__ next, unsigned char *__restrict__ visited,
                                       int *__restrict__ changed)
{
    unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= nnodes)
        return;
    unsigned char f = next[u];
    frontier[u] = f;
    if (f) {
        visited[u] = 1;
        next[u] = 0;
        *changed = 1;
    }
}
