// transpose.cu - out = in^T for an n x n float matrix (row-major).
//
// transpose_naive: one thread per element; reads are coalesced along a row,
// writes stride by n words, so each warp store touches 32 different lines.
//
// transpose_tiled: a CTA of TILE x ROWS threads moves a TILE x TILE tile
// through shared memory: coalesced row reads into the tile, then coalesced
// row writes of the transposed tile.  The tile has TILE+1 columns so that
// reading a tile column hits 32 different banks (no bank conflicts).  Each
// thread handles TILE/ROWS elements, which amortises index arithmetic.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive(unsigned n, const float *__restrict__ in, float *__restrict__ out)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n)
        out[x * n + y] = in[y * n + x];
}

extern "C" __global__ void transpose_tiled(unsigned n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[TILE][TILE + 1];
    unsigned bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
    unsigned x = bx + threadIdx.x;
    for (unsigned r = threadIdx.y; r < TILE; r += ROWS) {
        unsigned y = by + r;
        if (x < n && y < n)
            tile[r][threadIdx.x] = in[y * n + x];
    }
    __syncthreads();
    // Write the tile transposed: output row (bx + r), columns by + threadIdx.x.
    x = by + threadIdx.x;
    for (unsigned r = threadIdx.y; r < TILE; r += ROWS) {
        unsigned y = bx + r;
        if (x < n && y < n)
            out[y * n + x] = tile[threadIdx.x][r];
    }
}
