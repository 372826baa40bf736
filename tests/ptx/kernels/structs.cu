// Structs passed by value to kernels and returned from device functions.
#include <cstdint>

struct Params {
    int n;
    float scale;
    double offset;
    const int *in;
    int idx[3];
    char tag;
    short pad16;
};

struct Pair {
    long long sum;
    float mean;
};

__device__ __noinline__ Pair summarize(const int *v, int k)
{
    Pair p;
    p.sum = 0;
    for (int i = 0; i < k; i++)
        p.sum += v[i];
    p.mean = k ? (float)p.sum / k : 0.0f;
    return p;
}

extern "C" __global__ void structs_kernel(Params p, long long *sums, float *means, double *scaled)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.n)
        return;
    int k = p.idx[t % 3] + p.tag;
    Pair r = summarize(p.in + t, k);
    sums[t] = r.sum + p.pad16;
    means[t] = r.mean * p.scale;
    scaled[t] = (double)p.in[t] * p.offset;
}
