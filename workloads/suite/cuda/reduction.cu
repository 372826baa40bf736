// reduction.cu - sum of a float array by a shared-memory tree reduction.
//
// Each thread first accumulates a grid-stride slice of the input (two loads
// per iteration, so the first level of the tree is done while loading),
// then the CTA reduces its blockDim.x partial sums in shared memory with
// sequential addressing (active threads are contiguous, so whole warps drop
// out and there are no bank conflicts), halving the active threads each
// step with a barrier between steps.  Thread 0 writes the CTA's sum.  The
// host launches the same kernel a second time with one CTA over the
// per-CTA sums.  The shared array is dynamic (blockDim.x floats).
extern "C" __global__ void reduce_sum(const float *__restrict__ in, float *__restrict__ out, unsigned n)
{
    extern __shared__ float partial[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + tid;
    unsigned stride = blockDim.x * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) {
        sum += in[i];
        if (i + blockDim.x < n)
            sum += in[i + blockDim.x];
        i += stride;
    }
    partial[tid] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (tid < half)
            partial[tid] += partial[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}
