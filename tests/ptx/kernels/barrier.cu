// Barriers: block-wide reductions through shared memory, __syncthreads_count
// / _and / _or, and threads that return before the barrier.
extern "C" __global__ void barrier_kernel(const int *in, int *out, int live)
{
    __shared__ int sm[256];
    int tid = threadIdx.x;
    if (tid >= live)
        return;  // exited threads count as arrived at later barriers
    int v = in[blockIdx.x * blockDim.x + tid];
    sm[tid] = v;
    __syncthreads();
    // tree reduction over the live threads
    for (int s = 1; s < live; s <<= 1) {
        int o = (tid + s < live && (tid % (2 * s)) == 0) ? sm[tid + s] : 0;
        __syncthreads();
        sm[tid] += o;
        __syncthreads();
    }
    int cnt = __syncthreads_count(v > 50);
    int all = __syncthreads_and(v >= 0);
    int any = __syncthreads_or(v > 99);
    if (tid == 0) {
        out[4 * blockIdx.x + 0] = sm[0];
        out[4 * blockIdx.x + 1] = cnt;
        out[4 * blockIdx.x + 2] = all;
        out[4 * blockIdx.x + 3] = any;
    }
}
