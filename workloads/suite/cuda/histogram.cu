// histogram.cu - 256-bin histogram of a byte array, two ways.
//
// histogram_global: every thread does atomicAdd on the global bins for each
// byte it reads (grid-stride loop).  All CTAs contend on the same 256
// counters, so throughput is set by the L2 atomic units.
//
// histogram_shared: privatisation.  Each CTA builds its own histogram in
// shared memory with shared atomics, then merges it into the global bins
// with one global atomic per non-zero bin.  Contention moves to the SM's
// shared memory, where it depends on how many lanes of a warp hit one bank.
//
// Bytes are read four at a time as 32-bit words (coalesced).
#define BINS 256

extern "C" __global__ void histogram_global(const unsigned *__restrict__ data, unsigned nwords,
                                            unsigned *__restrict__ bins)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
        unsigned w = data[i];
        atomicAdd(&bins[w & 0xffu], 1u);
        atomicAdd(&bins[(w >> 8) & 0xffu], 1u);
        atomicAdd(&bins[(w >> 16) & 0xffu], 1u);
        atomicAdd(&bins[w >> 24], 1u);
    }
}

extern "C" __global__ void histogram_shared(const unsigned *__restrict__ data, unsigned nwords,
                                            unsigned *__restrict__ bins)
{
    __shared__ unsigned local[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
        unsigned w = data[i];
        atomicAdd(&local[w & 0xffu], 1u);
        atomicAdd(&local[(w >> 8) & 0xffu], 1u);
        atomicAdd(&local[(w >> 16) & 0xffu], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned c = local[b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
}
