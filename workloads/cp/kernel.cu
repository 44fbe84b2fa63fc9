// workloads/cp: direct Coulomb summation, mirroring ISPASS-2009 "CP"
// (coulombic potential, the VMD cionize kernel). The electrostatic
// potential at every point of a 2-D slice of a lattice,
//   V(p) = sum_j q_j / |p - a_j|,
// summed over all atoms directly. As in the original, the atoms stream
// through __constant__ memory in chunks of MAXATOMS records (x, y, dz^2, q),
// with dz^2 the squared z distance to the slice precomputed by the host, one
// launch per chunk, each adding its partial potential to the grid. Every
// thread computes UNROLLX points of one row, BLOCKX points apart (so the
// warp's stores coalesce), reusing the atom's y/z term for all of them.
#define MAXATOMS 4000
#define BLOCKX 16
#define BLOCKY 8
#define UNROLLX 8

__constant__ float4 c_atoms[MAXATOMS];

// Adds the potential of the numatoms atoms in c_atoms to the nx x ny slice
// energy[] (row-major, lattice spacing h). Launch: BLOCKX x BLOCKY threads,
// grid (ceil(nx / (BLOCKX * UNROLLX)), ceil(ny / BLOCKY)).
extern "C" __global__ void __launch_bounds__(BLOCKX * BLOCKY)
    cp_cenergy(int numatoms, float h, float *energy, int nx, int ny)
{
    const int x0 = blockIdx.x * (BLOCKX * UNROLLX) + threadIdx.x;
    const int y = blockIdx.y * BLOCKY + threadIdx.y;
    const float py = h * (float)y;
    const float px = h * (float)x0;
    const float step = h * (float)BLOCKX; // x distance between this thread's points
    float e[UNROLLX];
#pragma unroll
    for (int u = 0; u < UNROLLX; u++)
        e[u] = 0.0f;
    for (int a = 0; a < numatoms; a++) {
        const float4 at = c_atoms[a];
        const float dy = py - at.y;
        const float dyz2 = __fmaf_rn(dy, dy, at.z);
        float dx = px - at.x;
#pragma unroll
        for (int u = 0; u < UNROLLX; u++) {
            e[u] = __fmaf_rn(at.w, rsqrtf(__fmaf_rn(dx, dx, dyz2)), e[u]);
            dx += step;
        }
    }
    if (y < ny) {
        float *row = energy + (size_t)y * nx;
#pragma unroll
        for (int u = 0; u < UNROLLX; u++) {
            const int x = x0 + u * BLOCKX;
            if (x < nx)
                row[x] += e[u];
        }
    }
}
