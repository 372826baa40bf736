// Device functions: nesting, divergent calls, multiple returns, local arrays,
// libm code paths (which use local memory and helper functions), printf.
#include <cstdio>

__device__ __noinline__ int leaf(int x)
{
    if (x < 0)
        return -x;      // early return
    if (x > 1000)
        return 1000;    // second return
    return x * 3 + 1;
}

__device__ __noinline__ int middle(int x, int y)
{
    int a = leaf(x) + leaf(y - x);
    if (a & 1)
        a += leaf(a >> 1);
    return a;
}

__device__ __noinline__ int with_local(int x)
{
    int buf[16];
    for (int i = 0; i < 16; i++)
        buf[i] = x * i + (i ^ x);
    int s = 0;
    for (int i = 0; i < 16; i++)
        s += buf[(i * 7 + x) & 15];
    return s;
}

extern "C" __global__ void calls_kernel(const int *in, int *out, float *fout, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int x = in[t];
    int r = middle(x, t);
    if (t & 1)                 // only odd threads call
        r += with_local(x);
    out[t] = r;
    float f = (float)x * 0.01f;
    fout[t] = sinf(f) + expf(-f * f);
    if (t == 0)
        printf("calls_kernel: n=%d\n", n);
}
