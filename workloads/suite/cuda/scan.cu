// scan.cu - exclusive prefix sum of unsigned integers (Blelloch 1990,
// work-efficient up-sweep / down-sweep), for arrays of any length.
//
// scan_block: a CTA of B threads scans a chunk of 2B elements in shared
// memory: the up-sweep builds partial sums in a balanced tree (log2(2B)
// levels, a barrier per level), the root is saved as the chunk total and
// cleared, and the down-sweep distributes the prefixes back down.  The
// chunk totals go to `sums` (if not null) for the next level.
// scan_add: adds the scanned chunk totals to every element of each chunk.
// The host recurses: scan chunks, scan the chunk totals, add them back.
// Integer addition keeps the result exact (the CPU check is exact).
extern "C" __global__ void scan_block(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                      unsigned *__restrict__ sums, unsigned n)
{
    extern __shared__ unsigned s[];
    unsigned tid = threadIdx.x;
    unsigned m = 2 * blockDim.x; // elements per chunk, a power of two
    unsigned base = blockIdx.x * m;
    s[tid] = base + tid < n ? in[base + tid] : 0;
    s[tid + blockDim.x] = base + tid + blockDim.x < n ? in[base + tid + blockDim.x] : 0;

    unsigned offset = 1;
    for (unsigned d = m >> 1; d > 0; d >>= 1) { // up-sweep
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            s[bi] += s[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        if (sums)
            sums[blockIdx.x] = s[m - 1];
        s[m - 1] = 0;
    }
    for (unsigned d = 1; d < m; d <<= 1) { // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            unsigned ai = offset * (2 * tid + 1) - 1;
            unsigned bi = offset * (2 * tid + 2) - 1;
            unsigned t = s[ai];
            s[ai] = s[bi];
            s[bi] += t;
        }
    }
    __syncthreads();
    if (base + tid < n)
        out[base + tid] = s[tid];
    if (base + tid + blockDim.x < n)
        out[base + tid + blockDim.x] = s[tid + blockDim.x];
}

extern "C" __global__ void scan_add(unsigned *__restrict__ data, const unsigned *__restrict__ sums, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    unsigned add = sums[blockIdx.x];
    if (i < n)
        data[i] += add;
    if (i + blockDim.x < n)
        data[i + blockDim.x] += add;
}
