/*
 * wl_blackscholes.c - driver for Black-Scholes option pricing
 * (cuda/blackscholes.cu).
 *
 * Size = number of options.  Spot 5-30, strike 1-100, expiry 0.25-10
 * years, riskless rate 2%, volatility 30% (typical ranges of option
 * pricing benchmarks).  256-thread CTAs, one option per thread.
 *
 * The reference evaluates the same formula, with the same polynomial CND,
 * in double, so the check measures the kernel's float rounding, not the
 * approximation.  Tolerance per option: 128 u (S + X) (u = 2^-24).  The
 * prices are differences of terms bounded by S and X, and each term
 * carries a few ulp from expf/logf/sqrtf and the arithmetic; the error
 * of d1 (amplified by 1/(v sqrt(T)) <= 7) enters through S N'(d1) <= 0.4 S.
 * Together that stays well below 128 u (S + X) (about 1e-5 for S + X = 130).
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define BS_BLOCK 256

extern const wl_desc wl_blackscholes;

static double cnd(double d)
{
    const double a1 = 0.319381530, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
    const double rsqrt2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = rsqrt2pi * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0 ? 1.0 - c : c;
}

static int blackscholes_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *s, *x, *t, *call, *put;
    double *rcall, *rput, *tol;
    gpurt_ptr ds, dx, dt, dcall, dput;
    if (wl_begin(&c, dev, p, e, &wl_blackscholes, 1, 1u << 26))
        goto out;
    uint32_t n = c.size;
    if (!(s = wl_host(&c, n, sizeof *s)) || !(x = wl_host(&c, n, sizeof *x)) || !(t = wl_host(&c, n, sizeof *t)) ||
        !(call = wl_host(&c, n, sizeof *call)) || !(put = wl_host(&c, n, sizeof *put)) ||
        !(rcall = wl_host(&c, n, sizeof *rcall)) || !(rput = wl_host(&c, n, sizeof *rput)) ||
        !(tol = wl_host(&c, n, sizeof *tol)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 13);
    for (uint32_t i = 0; i < n; i++) {
        s[i] = wl_rng_float(&r, 5.0f, 30.0f);
        x[i] = wl_rng_float(&r, 1.0f, 100.0f);
        t[i] = wl_rng_float(&r, 0.25f, 10.0f);
    }
    float rate = 0.02f, vol = 0.30f;
    size_t bytes = (size_t)n * sizeof(float);
    if (!(ds = wl_upload(&c, s, bytes)) || !(dx = wl_upload(&c, x, bytes)) || !(dt = wl_upload(&c, t, bytes)) ||
        !(dcall = wl_alloc(&c, bytes)) || !(dput = wl_alloc(&c, bytes)))
        goto out;
    void *args[] = {&n, &ds, &dx, &dt, &dcall, &dput, &rate, &vol};
    if (wl_launch(&c, "blackscholes", gpurt_dim(wl_div_up(n, BS_BLOCK), 1, 1), gpurt_dim(BS_BLOCK, 1, 1), 0, args) ||
        wl_download(&c, call, dcall, bytes) || wl_download(&c, put, dput, bytes))
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        double S = s[i], X = x[i], T = t[i], R = rate, V = vol;
        double sq = sqrt(T);
        double d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sq);
        double d2 = d1 - V * sq;
        double n1 = cnd(d1), n2 = cnd(d2), disc = exp(-R * T);
        rcall[i] = S * n1 - X * disc * n2;
        rput[i] = X * disc * (1.0 - n2) - S * (1.0 - n1);
        tol[i] = 128.0 * ldexp(1.0, -24) * (S + X);
    }
    if ((rc = wl_check_f32(&c, "call", call, rcall, tol, n, 0.0, 0.0)) == 0)
        rc = wl_check_f32(&c, "put", put, rput, tol, n, 0.0, 0.0);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_blackscholes = {
    "blackscholes", "Black-Scholes European call/put pricing (expf, logf, sqrtf, polynomial CND)", "app",
    suite_ptx_blackscholes, "blackscholes.ptx", suite_res_blackscholes, 4096, 1u << 18, "number of options",
    blackscholes_run};
