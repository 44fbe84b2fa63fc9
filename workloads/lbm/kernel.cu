// workloads/lbm: one time step of a D3Q19 lattice-Boltzmann fluid solver
// with BGK (single relaxation time) collision, mirroring Parboil "lbm".
// The 19 particle distributions f_i live in structure-of-arrays layout
// (array i holds f_i of every cell). Each thread updates one cell:
//   stream (pull):  f_i = f_i^post(x - c_i) of the previous step, or, when
//                   x - c_i is an obstacle, f_opp(i)^post(x) (half-way
//                   bounce-back: no-slip walls);
//   moments:        rho = sum f_i, u = sum c_i f_i / rho (a fixed inflow
//                   velocity on ACCEL cells, as Parboil's accelerated plane);
//   collide:        f_i += omega * (feq_i(rho, u) - f_i),
//                   feq_i = w_i rho (1 + 3 c_i.u + 4.5 (c_i.u)^2 - 1.5 u.u).
// Obstacle cells are not updated. The host marks the outer layer of cells
// as obstacles (so every neighbour index is in range) and precomputes per
// cell a flag word: bit i set when the cell's neighbour x - c_i is an
// obstacle, plus FLAG_OBSTACLE and FLAG_ACCEL. The host ping-pongs the two
// grids over the time steps. The float operations are spelled out
// (explicit fused multiply-adds, __fmul_rn where a product feeds an
// addition) so that the host reference can repeat them exactly.
#define Q 19
#define FLAG_ACCEL (1u << 29)
#define FLAG_OBSTACLE (1u << 30)
#define ACCEL_UX 0.0f
#define ACCEL_UY 0.0f
#define ACCEL_UZ 0.05f

// Velocities c_i: rest, 6 faces, 12 edges; i and opp(i) are adjacent pairs.
static __device__ const int CX[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static __device__ const int CY[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static __device__ const int CZ[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
static __device__ const float W[Q] = {1.0f / 3.0f,  1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                                      1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                                      1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                                      1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};

__device__ __forceinline__ int opp(int i) { return i == 0 ? 0 : (i & 1 ? i + 1 : i - 1); }

// acc + c * v for a lattice velocity component c in {-1, 0, 1}.
__device__ __forceinline__ float add_c(float acc, int c, float v) { return c > 0 ? acc + v : c < 0 ? acc - v : acc; }

// Launch: (bx, 1, 1) threads, grid (ceil(nx / bx), ny, nz).
extern "C" __global__ void lbm_stream_collide(const float *__restrict__ src, float *__restrict__ dst,
                                              const unsigned *__restrict__ flags, int nx, int ny, int nz,
                                              float omega)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= nx)
        return;
    const size_t ncells = (size_t)nx * ny * nz;
    const size_t c = ((size_t)z * ny + y) * nx + x;
    const unsigned fl = flags[c];
    if (fl & FLAG_OBSTACLE)
        return;

    float f[Q];
#pragma unroll
    for (int i = 0; i < Q; i++) {
        const long off = ((long)CZ[i] * ny + CY[i]) * nx + CX[i];
        f[i] = fl & (1u << i) ? src[opp(i) * ncells + c] : src[i * ncells + c - off];
    }

    float rho = f[0], jx = 0.0f, jy = 0.0f, jz = 0.0f;
#pragma unroll
    for (int i = 1; i < Q; i++)
        rho += f[i];
#pragma unroll
    for (int i = 1; i < Q; i++) {
        jx = add_c(jx, CX[i], f[i]);
        jy = add_c(jy, CY[i], f[i]);
        jz = add_c(jz, CZ[i], f[i]);
    }
    float ux = jx / rho, uy = jy / rho, uz = jz / rho;
    if (fl & FLAG_ACCEL) {
        ux = ACCEL_UX;
        uy = ACCEL_UY;
        uz = ACCEL_UZ;
    }
    const float u2 = __fmul_rn(1.5f, __fmaf_rn(uz, uz, __fmaf_rn(uy, uy, ux * ux)));
#pragma unroll
    for (int i = 0; i < Q; i++) {
        const float cu = add_c(add_c(add_c(0.0f, CX[i], ux), CY[i], uy), CZ[i], uz);
        const float cu3 = __fmul_rn(3.0f, cu);
        const float feq = __fmul_rn(W[i] * rho, __fmaf_rn(0.5f * cu3, cu3, 1.0f + cu3) - u2);
        dst[i * ncells + c] = __fmaf_rn(omega, feq - f[i], f[i]);
    }
}
