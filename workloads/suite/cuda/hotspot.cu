// hotspot.cu - a HotSpot-like transient thermal simulation on an n x n grid:
// an explicit 5-point stencil, one launch per time step, ping-ponging two
// temperature arrays.
//
// Each cell is a thermal node with capacitance cap, lateral resistances rx,
// ry to its neighbours, a vertical resistance rz to ambient, and a power
// input p.  One step of forward Euler:
//   t' = t + cap_step * (p + (tN + tS - 2t) / ry + (tE + tW - 2t) / rx + (amb - t) / rz)
// with 1/rx etc. passed as reciprocals.  Cells on the chip border use their
// own temperature for the missing neighbour (adiabatic edge).
//
// A CTA of BS x BS threads loads its tile plus a one-cell halo into shared
// memory (border threads load the halo), synchronises, and computes from
// shared memory: 1 global load per cell instead of 5.
#define BS 16

extern "C" __global__ void hotspot_step(unsigned n, const float *__restrict__ power, const float *__restrict__ tin,
                                        float *__restrict__ tout, float cap_step, float rx_inv, float ry_inv,
                                        float rz_inv, float amb)
{
    __shared__ float t[BS + 2][BS + 2];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned x = blockIdx.x * BS + tx;
    unsigned y = blockIdx.y * BS + ty;
    // Clamp so that threads past the edge still load a valid cell.
    unsigned cx = x < n ? x : n - 1, cy = y < n ? y : n - 1;
    t[ty + 1][tx + 1] = tin[cy * n + cx];
    if (tx == 0)
        t[ty + 1][0] = tin[cy * n + (cx > 0 ? cx - 1 : 0)];
    if (tx == BS - 1)
        t[ty + 1][BS + 1] = tin[cy * n + (cx + 1 < n ? cx + 1 : n - 1)];
    if (ty == 0)
        t[0][tx + 1] = tin[(cy > 0 ? cy - 1 : 0) * n + cx];
    if (ty == BS - 1)
        t[BS + 1][tx + 1] = tin[(cy + 1 < n ? cy + 1 : n - 1) * n + cx];
    __syncthreads();
    if (x >= n || y >= n)
        return;
    float c = t[ty + 1][tx + 1];
    // At the chip border the halo holds the cell itself (clamped above).
    float north = t[ty][tx + 1], south = t[ty + 2][tx + 1];
    float west = t[ty + 1][tx], east = t[ty + 1][tx + 2];
    float delta = cap_step * (power[y * n + x] + (north + south - 2.0f * c) * ry_inv +
                              (east + west - 2.0f * c) * rx_inv + (amb - c) * rz_inv);
    tout[y * n + x] = c + delta;
}
