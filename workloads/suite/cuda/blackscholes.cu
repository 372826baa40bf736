// blackscholes.cu - European call and put prices by the Black-Scholes formula,
// one option per thread.
//
// d1 = (ln(S/X) + (r + v^2/2) T) / (v sqrt(T)), d2 = d1 - v sqrt(T),
// call = S N(d1) - X e^{-rT} N(d2), put = X e^{-rT} N(-d2) - S N(-d1).
// N() is the standard normal CDF, evaluated with the 5-term polynomial of
// Abramowitz & Stegun 26.2.17 (absolute error < 7.5e-8).  The kernel is
// compute-bound with a transcendental-heavy mix (logf, expf, sqrtf, a
// division), i.e. it exercises the SFU path.
__device__ __forceinline__ float cnd(float d)
{
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = rsqrt2pi * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

extern "C" __global__ void blackscholes(unsigned n, const float *__restrict__ spot, const float *__restrict__ strike,
                                        const float *__restrict__ years, float *__restrict__ call,
                                        float *__restrict__ put, float rate, float vol)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = spot[i], x = strike[i], t = years[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
    float d2 = d1 - vol * sqrt_t;
    float nd1 = cnd(d1), nd2 = cnd(d2);
    float disc = expf(-rate * t);
    call[i] = s * nd1 - x * disc * nd2;
    put[i] = x * disc * (1.0f - nd2) - s * (1.0f - nd1);
}
