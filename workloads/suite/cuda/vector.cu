// vector.cu - element-wise BLAS-1 kernels: vector add and SAXPY.
//
// One thread per element, consecutive threads touch consecutive words, so
// every warp access is one fully coalesced 128-byte request.  These are the
// smallest memory-bound kernels: about one load per 3-4 instructions.
extern "C" __global__ void vectoradd(const float *__restrict__ a, const float *__restrict__ b,
                                     float *__restrict__ c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// y = alpha * x + y (in place on y, as in BLAS).
extern "C" __global__ void saxpy(unsigned n, float alpha, const float *__restrict__ x, float *__restrict__ y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
