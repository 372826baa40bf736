// Warp-level primitives: shuffles (all modes, sub-warp widths), votes,
// match, activemask in divergent code.
extern "C" __global__ void shuffle_kernel(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    // warp reduction (shfl.down)
    int s = v;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    // inclusive scan (shfl.up)
    int sc = v;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, sc, o);
        if (lane >= o)
            sc += u;
    }
    // butterfly max (shfl.xor) within 8-lane groups
    int m = v;
    for (int o = 4; o > 0; o >>= 1)
        m = max(m, __shfl_xor_sync(0xffffffffu, m, o, 8));
    // broadcast of lane 3 of each 16-lane half (shfl.idx with width)
    int b = __shfl_sync(0xffffffffu, v, 3, 16);
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    int any = __any_sync(0xffffffffu, v > 1000);
    int all = __all_sync(0xffffffffu, v >= 0);
    unsigned match = __match_any_sync(0xffffffffu, v & 3);
    unsigned active = 0;
    if (lane % 3 == 0)
        active = __activemask();
    out[8 * t + 0] = s;
    out[8 * t + 1] = sc;
    out[8 * t + 2] = m;
    out[8 * t + 3] = b;
    out[8 * t + 4] = (int)ballot;
    out[8 * t + 5] = any * 2 + all;
    out[8 * t + 6] = (int)match;
    out[8 * t + 7] = (int)active;
}
