// sgemm.cu - single-precision dense matrix multiply C = A * B (n x n,
// row-major), in two classic forms.
//
// sgemm_naive: one thread per C element, reading a row of A and a column of
// B straight from global memory (the row read is a broadcast within a warp,
// the column read is coalesced).  Arithmetic intensity is low; the kernel is
// bound by L1/L2 bandwidth.
//
// sgemm_tiled: the textbook shared-memory version.  A CTA of TILE x TILE
// threads computes one TILE x TILE block of C; for each step along k it
// stages a tile of A and a tile of B in shared memory (one element per
// thread), synchronises, and does TILE multiply-adds from shared memory.
// Global traffic drops by a factor of TILE.  Edges are guarded so n need not
// be a multiple of TILE.
#define TILE 16

extern "C" __global__ void sgemm_naive(unsigned n, const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C)
{
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (unsigned k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

extern "C" __global__ void sgemm_tiled(unsigned n, const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned col = blockIdx.x * TILE + tx;
    unsigned row = blockIdx.y * TILE + ty;
    float acc = 0.0f;
    for (unsigned t = 0; t < n; t += TILE) {
        As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (unsigned k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
