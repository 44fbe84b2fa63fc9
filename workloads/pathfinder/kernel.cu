// workloads/pathfinder: minimum-cost path through a grid of weights,
// mirroring Rodinia's pathfinder (written for gpusim). A path enters at any
// column of row 0 and moves down one row per step to the same or an
// adjacent column; cost[r][x] = wall[r][x] + min(cost[r-1][x-1],
// cost[r-1][x], cost[r-1][x+1]) (neighbours outside the grid ignored), with
// cost[0] = wall[0].
//
// pathfinder_rows advances the cost row by `steps` (<= halo) rows per launch
// with the ghost-zone ("pyramid") scheme: a CTA of 256 threads loads 256
// consecutive costs into shared memory, runs the `steps` row updates there
// (the valid span shrinks by one column per side and row) and writes back
// the 256 - 2*halo columns it owns. Neighbouring CTAs recompute the
// overlapping halo columns instead of exchanging them between rows.

#define PF_BLOCK 256

extern "C" __global__ void pathfinder_rows(const int *__restrict__ wall, const int *__restrict__ src,
                                           int *__restrict__ dst, int cols, int row0, int steps, int halo)
{
    __shared__ int cost[2][PF_BLOCK]; // ping-pong rows
    int t = threadIdx.x;
    int x = blockIdx.x * (PF_BLOCK - 2 * halo) - halo + t;
    bool in_grid = x >= 0 && x < cols;

    if (in_grid)
        cost[0][t] = src[x];
    __syncthreads();

    // Neighbour offsets; 0 at the grid's edges (the cell's own cost stands
    // in for the missing neighbour, which cannot change the minimum).
    int dl = x > 0 ? -1 : 0, dr = x < cols - 1 ? 1 : 0;
    int cur = 0;
    for (int k = 0; k < steps; k++) {
        if (in_grid && t > k && t < PF_BLOCK - 1 - k) {
            int m = min(cost[cur][t + dl], min(cost[cur][t], cost[cur][t + dr]));
            cost[cur ^ 1][t] = wall[(row0 + k) * cols + x] + m;
        }
        __syncthreads();
        cur ^= 1;
    }
    if (in_grid && t >= halo && t < PF_BLOCK - halo)
        dst[x] = cost[cur][t];
}
