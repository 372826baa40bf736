// atomic.cu - global atomic contention microbenchmark.
//
// Every thread performs `iters` atomicAdd(+1) operations on counter
// (global thread id + i) % k of an array of k consecutive 32-bit counters.
// k = 1 serialises every atomic of the whole grid on one address; larger k
// spreads them over k addresses (k <= 32 of them share one 128-byte line,
// so the contention moves from the address to the line / L2 slice).  The
// return value is not used, so nvcc emits red.global.add.
extern "C" __global__ void atomic_contention(unsigned *__restrict__ counters, unsigned k, unsigned iters)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned i = 0; i < iters; i++)
        atomicAdd(&counters[(tid + i) % k], 1u);
}
