// workloads/stencil: one time step of a 3-D 7-point Jacobi stencil
//   out[i,j,k] = (sum of the 6 face neighbours of in[i,j,k]) * c1 - in[i,j,k] * c0
// on the interior of an nx x ny x nz float grid (x fastest); the boundary
// shell is fixed. Mirrors Parboil "stencil": 2-D thread blocks tile the x-y
// plane and march along z, keeping the z-1 / z / z+1 values of their column
// in registers and the current x-y plane (with a one-cell halo) in shared
// memory, so every input value is read from global memory about once.
// The host ping-pongs two grids over the time steps.
#define TX 32
#define TY 4

extern "C" __global__ void __launch_bounds__(TX * TY)
    stencil7(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, float c0, float c1)
{
    __shared__ float plane[TY + 2][TX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = 1 + blockIdx.x * TX + tx; // interior cell owned by this thread
    const int j = 1 + blockIdx.y * TY + ty;
    const bool active = i < nx - 1 && j < ny - 1;
    const size_t sx = 1, sy = (size_t)nx, sz = (size_t)nx * ny;
    size_t idx = (size_t)j * sy + i * sx + sz; // cell (i, j, 1)

    float below = 0.0f, cur = 0.0f, above = 0.0f;
    if (active) {
        below = in[idx - sz];
        cur = in[idx];
    }
    for (int k = 1; k < nz - 1; k++, idx += sz) {
        if (active) {
            above = in[idx + sz];
            plane[ty + 1][tx + 1] = cur;
            // Halo of the current plane: edge threads of the tile (or of the
            // grid, for a partial tile) fetch the cell beyond them.
            if (tx == 0)
                plane[ty + 1][0] = in[idx - sx];
            if (tx == TX - 1 || i == nx - 2)
                plane[ty + 1][tx + 2] = in[idx + sx];
            if (ty == 0)
                plane[0][tx + 1] = in[idx - sy];
            if (ty == TY - 1 || j == ny - 2)
                plane[ty + 2][tx + 1] = in[idx + sy];
        }
        __syncthreads();
        if (active) {
            // Fixed summation order (z, y, x neighbours); the host reference
            // performs exactly the same float operations.
            float sum = below + above;
            sum += plane[ty][tx + 1];
            sum += plane[ty + 2][tx + 1];
            sum += plane[ty + 1][tx];
            sum += plane[ty + 1][tx + 2];
            out[idx] = __fmaf_rn(sum, c1, -(cur * c0));
        }
        __syncthreads();
        below = cur;
        cur = above;
    }
}
