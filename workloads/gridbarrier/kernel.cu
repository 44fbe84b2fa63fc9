// workloads/gridbarrier: `iters` sweeps of an integer 2-D Jacobi smoothing
// stencil on an h x w grid, all inside ONE kernel launch whose blocks
// synchronise between sweeps through a software grid barrier in global
// memory (the persistent-kernel / grid-sync pattern of GPU stencil and
// iterative-solver codes, e.g. Rodinia-style Jacobi without relaunches).
//
// Sweep: interior cell (r, c) becomes (4*u[r][c] + u[r-1][c] + u[r+1][c] +
// u[r][c-1] + u[r][c+1]) / 8 (values are non-negative, integer division);
// boundary cells keep their value. Two buffers are used in turn.
//
// The grid is cut into 32x8 tiles numbered row-major (blocks are 32x8
// threads, one per cell of the tile being processed); block b owns the
// contiguous strip of tiles [b*T/G, (b+1)*T/G) in every sweep (domain
// decomposition: a strip's halo rows belong to the neighbouring blocks'
// strips), so the grid can be limited to the CTAs that are resident at
// once (required: blocks wait for each other at the barrier). Halo cells
// were written by other blocks in the previous sweep, so the source buffer
// is read through a volatile pointer (no stale non-coherent L1 copies)
// after the barrier's fences.
//
// Barrier state bar[0] = arrival counter, bar[1] = generation. One thread
// per block arrives with atomicAdd; the last arrival resets the counter and
// bumps the generation, the others spin on the generation; the rest of the
// block waits at __syncthreads.

#define TILE_W 32
#define TILE_H 8

__device__ static void grid_sync(unsigned *bar, unsigned nblocks)
{
    __syncthreads(); // the whole block has finished its sweep
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        volatile unsigned *gen = bar + 1;
        unsigned my_gen = *gen;   // cannot advance before this block arrives
        __threadfence();          // publish the block's writes before arriving
        if (atomicAdd(&bar[0], 1u) == nblocks - 1) {
            atomicExch(&bar[0], 0u); // reset for the next barrier ...
            __threadfence();
            atomicExch(&bar[1], my_gen + 1); // ... before releasing everybody
        } else {
            while (*gen == my_gen)
                ;
        }
        __threadfence(); // acquire: later reads see the other blocks' writes
    }
    __syncthreads();
}

extern "C" __global__ void jacobi_persistent(int *buf0, int *buf1, int h, int w, int iters, unsigned *bar)
{
    int tiles_x = (w + TILE_W - 1) / TILE_W;
    int n_tiles = tiles_x * ((h + TILE_H - 1) / TILE_H);
    // This block's strip: a contiguous range of row-major tiles.
    int t_lo = (int)((long long)blockIdx.x * n_tiles / gridDim.x);
    int t_hi = (int)((long long)(blockIdx.x + 1) * n_tiles / gridDim.x);
    for (int it = 0; it < iters; it++) {
        const volatile int *src = (it & 1) ? buf1 : buf0;
        int *dst = (it & 1) ? buf0 : buf1;
        for (int t = t_lo; t < t_hi; t++) {
            int c = (t % tiles_x) * TILE_W + threadIdx.x;
            int r = (t / tiles_x) * TILE_H + threadIdx.y;
            if (r >= h || c >= w)
                continue;
            int k = r * w + c;
            int v = src[k];
            if (r > 0 && r < h - 1 && c > 0 && c < w - 1)
                v = (4 * v + src[k - w] + src[k + w] + src[k - 1] + src[k + 1]) / 8;
            dst[k] = v;
        }
        if (it + 1 < iters)
            grid_sync(bar, gridDim.x);
    }
}
