// fma.cu - FP32 fused multiply-add throughput microbenchmark.
//
// Each thread runs CHAINS independent dependency chains x = x * a + b, so a
// warp always has CHAINS FMAs ready to issue; with enough warps per
// scheduler the FP32 pipes stay full and the measured rate approaches the
// peak (2 flops per FMA).  The loop body is unrolled (CHAINS * UNROLL FMAs
// per iteration) so loop overhead is a few percent of the instructions.
// a < 1 makes each chain converge to b / (1 - a): no overflow, no denormals.
// The sum of the chains is stored so nothing is dead code.
#define CHAINS 8
#define UNROLL 4

extern "C" __global__ void fma_throughput(float *__restrict__ out, unsigned iters, float a, float b)
{
    float x[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        x[c] = (float)(threadIdx.x + c);
    for (unsigned i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < CHAINS; c++)
                x[c] = fmaf(x[c], a, b);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        sum += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
