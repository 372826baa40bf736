/*
 * wl_hotspot.c - driver for the HotSpot-like thermal stencil
 * (cuda/hotspot.cu).
 *
 * Size = n, the grid is n x n cells; HS_STEPS time steps, one launch each
 * (16 x 16 CTAs), ping-ponging two temperature arrays.  Initial
 * temperatures are 320-340 K, power 0-1 (normalised units) with a few
 * seed-placed hot rectangles, ambient 300 K.  The constants are normalised
 * rather than physical (the kernel is what matters here); they satisfy
 * cap_step * (2 rx_inv + 2 ry_inv + rz_inv) = 0.82 < 1, the stability
 * condition of explicit Euler, so temperatures stay bounded.
 *
 * Tolerance: one step computes each cell with about a dozen float
 * operations on values below Tmax, so it adds at most ~12 u Tmax of
 * rounding error (u = 2^-24); the update is an averaging with non-negative
 * weights summing to at most 1, so errors from earlier steps do not grow.
 * After s steps the error is below s * 12 u Tmax; the check allows
 * s * 32 u Tmax (about 3e-3 K for 8 steps), while a wrong neighbour or
 * coefficient changes cells by tenths of a kelvin or more.
 */
#include <math.h>

#include "suite_embed.h"
#include "wl_util.h"

#define HS_BS 16
#define HS_STEPS 8
#define HS_HOT_RECTS 4

extern const wl_desc wl_hotspot;

static int hotspot_run(gpurt *dev, const wl_params *p, ge_err *e)
{
    wl_ctx c;
    int rc = -1;
    float *power, *temp, *out;
    double *a, *b;
    gpurt_ptr dpower, dt[2];
    if (wl_begin(&c, dev, p, e, &wl_hotspot, 2, 8192))
        goto out;
    uint32_t n = c.size;
    size_t nn = (size_t)n * n;
    if (!(power = wl_host(&c, nn, sizeof *power)) || !(temp = wl_host(&c, nn, sizeof *temp)) ||
        !(out = wl_host(&c, nn, sizeof *out)) || !(a = wl_host(&c, nn, sizeof *a)) || !(b = wl_host(&c, nn, sizeof *b)))
        goto out;
    wl_rng r;
    wl_rng_seed(&r, c.seed, 10);
    for (size_t i = 0; i < nn; i++) {
        temp[i] = wl_rng_float(&r, 320.0f, 340.0f);
        power[i] = wl_rng_float(&r, 0.0f, 0.25f);
    }
    for (int k = 0; k < HS_HOT_RECTS; k++) { /* functional units running hot */
        uint32_t x0 = wl_rng_below(&r, n), y0 = wl_rng_below(&r, n);
        uint32_t w = 1 + wl_rng_below(&r, n / 4 + 1), h = 1 + wl_rng_below(&r, n / 4 + 1);
        for (uint32_t y = y0; y < y0 + h && y < n; y++)
            for (uint32_t x = x0; x < x0 + w && x < n; x++)
                power[(size_t)y * n + x] = wl_rng_float(&r, 0.75f, 1.0f);
    }
    float cap_step = 0.2f, rx_inv = 1.0f, ry_inv = 1.0f, rz_inv = 0.1f, amb = 300.0f;
    if (!(dpower = wl_upload(&c, power, nn * sizeof *power)) || !(dt[0] = wl_upload(&c, temp, nn * sizeof *temp)) ||
        !(dt[1] = wl_alloc(&c, nn * sizeof *temp)))
        goto out;
    gpurt_dim3 grid = gpurt_dim(wl_div_up(n, HS_BS), wl_div_up(n, HS_BS), 1), block = gpurt_dim(HS_BS, HS_BS, 1);
    for (int s = 0; s < HS_STEPS; s++) {
        void *args[] = {&n, &dpower, &dt[s & 1], &dt[(s + 1) & 1], &cap_step, &rx_inv, &ry_inv, &rz_inv, &amb};
        if (wl_launch(&c, "hotspot_step", grid, block, 0, args))
            goto out;
    }
    if (wl_download(&c, out, dt[HS_STEPS & 1], nn * sizeof *out))
        goto out;

    double tmax = 0.0;
    for (size_t i = 0; i < nn; i++)
        a[i] = temp[i];
    for (int s = 0; s < HS_STEPS; s++) {
        for (uint32_t y = 0; y < n; y++) {
            for (uint32_t x = 0; x < n; x++) {
                size_t i = (size_t)y * n + x;
                double t = a[i];
                double north = a[(size_t)(y > 0 ? y - 1 : 0) * n + x];
                double south = a[(size_t)(y + 1 < n ? y + 1 : n - 1) * n + x];
                double west = a[(size_t)y * n + (x > 0 ? x - 1 : 0)];
                double east = a[(size_t)y * n + (x + 1 < n ? x + 1 : n - 1)];
                b[i] = t + cap_step * (power[i] + (north + south - 2.0 * t) * ry_inv +
                                       (east + west - 2.0 * t) * rx_inv + (amb - t) * rz_inv);
                if (b[i] > tmax)
                    tmax = b[i];
            }
        }
        double *sw = a;
        a = b;
        b = sw;
    }
    if (tmax < 340.0)
        tmax = 340.0;
    rc = wl_check_f32(&c, "temperature", out, a, NULL, nn, 0.0, HS_STEPS * 32.0 * ldexp(1.0, -24) * tmax);
out:
    return wl_end(&c, rc);
}

const wl_desc wl_hotspot = {
    "hotspot", "HotSpot-like thermal 5-point stencil, 8 time steps, shared-memory tiles with halo", "app",
    suite_ptx_hotspot, "hotspot.ptx", suite_res_hotspot, 40, 256, "grid dimension n (n x n cells)", hotspot_run};
