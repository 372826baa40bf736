// nw.cu - Needleman-Wunsch global sequence alignment (score matrix only).
//
// The (n+1) x (n+1) score matrix has row 0 and column 0 set to -i*penalty;
// cell (i,j) = max(up-left + sim(a_i, b_j), up - penalty, left - penalty).
// Cell (i,j) depends on its up, left and up-left neighbours, so all cells of
// an anti-diagonal are independent.
//
// Blocked wavefront: the matrix interior is cut into BS x BS tiles; tiles on
// one anti-diagonal of tiles are independent, so the host launches one grid
// per tile diagonal (2n/BS - 1 launches; the first and last are a single
// CTA).  Within a tile, a CTA of BS threads loads the tile's similarity
// scores and its top/left borders into shared memory, then sweeps the
// tile's 2*BS-1 internal anti-diagonals, one barrier per diagonal, with
// thread t computing the cell of row t on that diagonal.  Utilisation ramps
// up and down within each tile and across launches.
#define BS 16

extern "C" __global__ void nw_tile_diagonal(unsigned n, unsigned diag, const int *__restrict__ sim,
                                            int *__restrict__ score, int penalty)
{
    __shared__ int s[BS + 1][BS + 1];
    __shared__ int ref[BS][BS];
    unsigned tiles = n / BS;
    // Tiles (bi, bj) with bi + bj == diag; blockIdx.x counts from the lowest valid bi.
    unsigned bi_lo = diag < tiles ? 0 : diag - tiles + 1;
    unsigned bi = bi_lo + blockIdx.x;
    unsigned bj = diag - bi;
    unsigned t = threadIdx.x;
    unsigned w = n + 1; // row width of score
    unsigned r0 = bi * BS, c0 = bj * BS; // tile's top-left interior cell is (r0+1, c0+1)

    for (unsigned r = 0; r < BS; r++)
        ref[r][t] = sim[(r0 + r) * n + c0 + t];
    s[t + 1][0] = score[(r0 + t + 1) * w + c0];
    s[0][t + 1] = score[r0 * w + c0 + t + 1];
    if (t == 0)
        s[0][0] = score[r0 * w + c0];
    __syncthreads();

    for (unsigned d = 0; d < 2 * BS - 1; d++) {
        int j = (int)d - (int)t; // column within the tile for row t
        if (j >= 0 && j < BS) {
            int diag_v = s[t][j] + ref[t][j];
            int up = s[t][j + 1] - penalty;
            int left = s[t + 1][j] - penalty;
            int m = diag_v > up ? diag_v : up;
            s[t + 1][j + 1] = m > left ? m : left;
        }
        __syncthreads();
    }
    for (unsigned r = 0; r < BS; r++)
        score[(r0 + r + 1) * w + c0 + t + 1] = s[r + 1][t + 1];
}
