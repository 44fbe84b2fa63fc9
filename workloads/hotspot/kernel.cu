// workloads/hotspot: transient thermal simulation of a chip, mirroring
// Rodinia's hotspot (written for gpusim). The die is a rows x cols grid of
// cells with a temperature (K) and a dissipated power (W). One explicit
// Euler step updates every cell from its four neighbours, its power and the
// heat sink at ambient temperature:
//   T' = T + step/Cap * (P + (T_N + T_S - 2T) / R_y + (T_E + T_W - 2T) / R_x
//                          + (T_amb - T) / R_z)
// where a neighbour outside the die counts as the cell itself (no flux
// across the edge).
//
// hotspot_steps runs `steps` (<= halo) time steps per launch with the
// ghost-zone ("pyramid") scheme: a 16x16 CTA loads a 16x16 window of
// temperatures and powers into shared memory, advances it `steps` times in
// shared memory (the valid part shrinks by one cell per side and step) and
// writes back the inner (16 - 2*halo)^2 cells it owns. Neighbouring CTAs'
// windows overlap by 2*halo cells, which they recompute redundantly instead
// of exchanging between steps.

#define HS_TILE 16

extern "C" __global__ void hotspot_steps(const float *__restrict__ power, const float *__restrict__ t_in,
                                         float *__restrict__ t_out, int rows, int cols, int halo, int steps,
                                         float step_div_cap, float rx_inv, float ry_inv, float rz_inv,
                                         float t_amb)
{
    __shared__ float t_s[2][HS_TILE][HS_TILE]; // ping-pong temperature windows
    __shared__ float p_s[HS_TILE][HS_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int own = HS_TILE - 2 * halo; // cells per side this CTA writes
    int gx = blockIdx.x * own - halo + tx;
    int gy = blockIdx.y * own - halo + ty;
    bool in_die = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    if (in_die) {
        t_s[0][ty][tx] = t_in[gy * cols + gx];
        p_s[ty][tx] = power[gy * cols + gx];
    }
    __syncthreads();

    // Neighbour offsets inside the window; 0 at the die's edges (the cell
    // stands in for the missing neighbour).
    int dn = gy > 0 ? -1 : 0, ds = gy < rows - 1 ? 1 : 0;
    int dw = gx > 0 ? -1 : 0, de = gx < cols - 1 ? 1 : 0;
    int cur = 0;
    for (int k = 0; k < steps; k++) {
        // Valid after this step: the window minus k + 1 cells on each side.
        bool active = in_die && tx > k && tx < HS_TILE - 1 - k && ty > k && ty < HS_TILE - 1 - k;
        if (active) {
            float t = t_s[cur][ty][tx];
            float tn = t_s[cur][ty + dn][tx], ts = t_s[cur][ty + ds][tx];
            float tw = t_s[cur][ty][tx + dw], te = t_s[cur][ty][tx + de];
            t_s[cur ^ 1][ty][tx] = t + step_div_cap * (p_s[ty][tx] + (tn + ts - 2.0f * t) * ry_inv +
                                                       (te + tw - 2.0f * t) * rx_inv + (t_amb - t) * rz_inv);
        }
        __syncthreads();
        cur ^= 1;
    }
    if (in_die && tx >= halo && tx < HS_TILE - halo && ty >= halo && ty < HS_TILE - halo)
        t_out[gy * cols + gx] = t_s[cur][ty][tx];
}
