// 64-bit integer and double arithmetic, 64-bit atomics.
#include <cstdint>

extern "C" __global__ void math64_kernel(const int64_t *a, const int64_t *b, int64_t *q, uint64_t *uq,
                                         uint64_t *bits, double *d, unsigned long long *acc, long long *mn, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int64_t x = a[t], y = b[t];
    int64_t yy = y == 0 ? 7 : y;
    q[4 * t + 0] = x / yy;
    q[4 * t + 1] = x % yy;
    q[4 * t + 2] = __mul64hi(x, yy);
    q[4 * t + 3] = (x >> (t & 63)) ^ (x << ((t * 7) & 63));
    uint64_t ux = (uint64_t)x, uy = (uint64_t)yy;
    uq[3 * t + 0] = ux / uy;
    uq[3 * t + 1] = ux % uy;
    uq[3 * t + 2] = __umul64hi(ux, uy);
    bits[4 * t + 0] = __popcll(ux);
    bits[4 * t + 1] = __clzll(x);
    bits[4 * t + 2] = __ffsll(x);
    bits[4 * t + 3] = __brevll(ux);
    double dx = (double)x * 1e-9, dy = (double)yy * 1e-9;
    d[3 * t + 0] = sqrt(fabs(dx)) + fma(dx, dy, 0.5);
    d[3 * t + 1] = dx / dy;
    d[3 * t + 2] = (double)(float)dx;
    atomicAdd(acc, (unsigned long long)ux);
    atomicMin(mn, (long long)x);
}
