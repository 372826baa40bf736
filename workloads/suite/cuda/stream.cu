// stream.cu - STREAM-style bandwidth microbenchmarks (McCalpin's copy and
// triad) on float arrays.
//
// Many CTAs, each thread a grid-stride loop over float4 elements: every
// warp access is 512 contiguous bytes (four 128-byte lines), each thread
// issues 16-byte vector loads and stores, and there is almost no
// arithmetic, so the kernels are bound by DRAM bandwidth once the arrays
// exceed the L2.  Bytes moved per float4 element: copy 32, triad 48.
extern "C" __global__ void stream_copy(const float4 *__restrict__ a, float4 *__restrict__ c, unsigned n4)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x)
        c[i] = a[i];
}

// a = b + s * c
extern "C" __global__ void stream_triad(float4 *__restrict__ a, const float4 *__restrict__ b,
                                        const float4 *__restrict__ c, float s, unsigned n4)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}
