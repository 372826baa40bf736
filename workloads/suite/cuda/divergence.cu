// divergence.cu - SIMD-efficiency microbenchmarks: branch divergence in
// nested if/else and in loop trip counts.
//
// divergence_ifelse: a complete binary decision tree of depth 5 (32
// leaves).  Level L branches on bit L of path = lane & (2^depth - 1), so
// with a runtime `depth` d only the first d levels split the warp: 2^d
// leaves run, one after the other, each with 32 / 2^d lanes.  Every leaf is
// a chain of LEAF_OPS dependent floating-point ops; leaves use different
// sequences of multiply and FMA (chosen by the leaf number), so the compiler
// cannot merge them into one chain with selected constants.  The tree is
// generated with templates and fully inlined.
//
// divergence_loop: lane l runs 1 + l * step iterations of a one-FMA loop
// body; the warp runs as long as its longest lane (1 + 31 * step trips)
// while the others idle.  The loop is kept rolled (unroll 1) so its body is
// the same few instructions every trip.
//
// The unit test tests/suite/test_divergence.c predicts both kernels' SIMD
// efficiency by hand from the PTX and checks the emulator's counts.
#define LEAF_OPS 16
#define TREE_DEPTH 5

template <int ID> __device__ __forceinline__ float leaf(float x)
{
#pragma unroll
    for (int j = 0; j < LEAF_OPS; j++) {
        if ((ID >> (j % TREE_DEPTH)) & 1)
            x = fmaf(x, 0.999f, 0.001f);
        else
            x = x * 1.001f;
    }
    return x;
}

template <int L, int ID> struct tree {
    static __device__ __forceinline__ float run(float x, unsigned path)
    {
        if ((path >> L) & 1u)
            return tree<L + 1, 2 * ID + 1>::run(x, path);
        return tree<L + 1, 2 * ID>::run(x, path);
    }
};

template <int ID> struct tree<TREE_DEPTH, ID> {
    static __device__ __forceinline__ float run(float x, unsigned) { return leaf<ID>(x); }
};

extern "C" __global__ void divergence_ifelse(const float *__restrict__ in, float *__restrict__ out, unsigned depth)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned path = (threadIdx.x & 31u) & ((1u << depth) - 1u);
    out[tid] = tree<0, 0>::run(in[tid], path);
}

extern "C" __global__ void divergence_loop(const float *__restrict__ in, float *__restrict__ out, unsigned step)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned trips = 1u + (threadIdx.x & 31u) * step;
    float x = in[tid];
#pragma unroll 1
    for (unsigned i = 0; i < trips; i++)
        x = fmaf(x, 0.999f, 0.001f);
    out[tid] = x;
}
