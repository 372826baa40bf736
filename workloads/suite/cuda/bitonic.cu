// bitonic.cu - ascending bitonic sort of n = 2^m unsigned keys (Batcher 1968).
//
// The network has, for each merge size k = 2, 4, ..., n, compare-exchange
// steps with distances j = k/2, k/4, ..., 1; element i is paired with
// i ^ j and the pair is put in ascending order when (i & k) == 0, else in
// descending order.  Steps with small j stay inside one chunk of
// CHUNK = 2 * blockDim.x elements, so they run in shared memory:
//   bitonic_chunk: sorts each chunk completely (all k <= CHUNK), one thread
//     per pair, a barrier between steps;
//   bitonic_global: one compare-exchange step with j >= CHUNK, straight on
//     global memory (one launch per step);
//   bitonic_merge_chunk: the steps j < CHUNK of one merge size k > CHUNK, in
//     shared memory.
// So the host issues, for each k > CHUNK, log2(k/CHUNK) global launches and
// one shared launch.
__device__ __forceinline__ void cmp_swap(unsigned *s, unsigned a, unsigned b, bool up)
{
    unsigned x = s[a], y = s[b];
    if ((x > y) == up) {
        s[a] = y;
        s[b] = x;
    }
}

extern "C" __global__ void bitonic_chunk(unsigned *__restrict__ keys)
{
    extern __shared__ unsigned s[];
    unsigned chunk = 2 * blockDim.x, base = blockIdx.x * chunk, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + blockDim.x] = keys[base + t + blockDim.x];
    for (unsigned k = 2; k <= chunk; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            unsigned a = 2 * t - (t & (j - 1)); // the lower index of this thread's pair
            cmp_swap(s, a, a + j, ((base + a) & k) == 0);
        }
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + blockDim.x] = s[t + blockDim.x];
}

extern "C" __global__ void bitonic_global(unsigned *__restrict__ keys, unsigned k, unsigned j)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x; // one thread per pair
    unsigned a = 2 * t - (t & (j - 1));
    cmp_swap(keys, a, a + j, (a & k) == 0);
}

extern "C" __global__ void bitonic_merge_chunk(unsigned *__restrict__ keys, unsigned k)
{
    extern __shared__ unsigned s[];
    unsigned chunk = 2 * blockDim.x, base = blockIdx.x * chunk, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + blockDim.x] = keys[base + t + blockDim.x];
    bool up = (base & k) == 0; // the whole chunk lies in one half of a k-block
    for (unsigned j = chunk >> 1; j > 0; j >>= 1) {
        __syncthreads();
        unsigned a = 2 * t - (t & (j - 1));
        cmp_swap(s, a, a + j, up);
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + blockDim.x] = s[t + blockDim.x];
}
