/* workloads/lbm/host.c: driver for lbm (Parboil lbm).
 *
 * Input from --seed: an nx x ny x nz box whose outer layer is wall
 * (obstacle); inside it, random solid spheres (radius 1.5 to 4 cells) above
 * the inflow plane z = 1, whose fluid cells are ACCEL cells (velocity held
 * at (0, 0, 0.05) lattice units, the driving flow). The fluid starts at
 * rest with density 1 (f_i = w_i). The host computes every cell's flag
 * word (obstacle, accel, and which of its 18 neighbours are solid), then
 * launches lbm_stream_collide once per time step (64 threads per block
 * along x, one block row per (y, z)), swapping the two grids.
 *
 * Check: tolerance 0, all 19 distributions of every cell (and the reference
 * must be finite, so that a blown-up flow cannot pass as NaN == NaN). The host
 * reference repeats the kernel's float operations in the same order (the
 * same sums, correctly rounded divisions, explicit fused multiply-adds and
 * no other contractions), so the results are bit-identical. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define Q 19 /* as in kernel.cu */
#define FLAG_ACCEL (1u << 29)
#define FLAG_OBSTACLE (1u << 30)
#define ACCEL_UX 0.0f
#define ACCEL_UY 0.0f
#define ACCEL_UZ 0.05f
#define THREADS 64

static const int CX[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int CY[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int CZ[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
static const float W[Q] = {1.0f / 3.0f,  1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                           1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                           1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                           1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};

static int opp(int i) { return i == 0 ? 0 : (i & 1 ? i + 1 : i - 1); }

static float add_c(float acc, int c, float v) { return c > 0 ? acc + v : c < 0 ? acc - v : acc; }

/* One step of lbm_stream_collide on the host, in the kernel's order. */
static void step_ref(const float *src, float *dst, const unsigned *flags, int nx, int ny, int nz, float omega)
{
    size_t ncells = (size_t)nx * ny * nz;
    for (size_t c = 0; c < ncells; c++) {
        unsigned fl = flags[c];
        if (fl & FLAG_OBSTACLE)
            continue;
        float f[Q];
        for (int i = 0; i < Q; i++) {
            long off = ((long)CZ[i] * ny + CY[i]) * nx + CX[i];
            f[i] = fl & (1u << i) ? src[(size_t)opp(i) * ncells + c] : src[(size_t)i * ncells + c - off];
        }
        float rho = f[0], jx = 0.0f, jy = 0.0f, jz = 0.0f;
        for (int i = 1; i < Q; i++)
            rho += f[i];
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
        float u2 = 1.5f * fmaf(uz, uz, fmaf(uy, uy, ux * ux));
        for (int i = 0; i < Q; i++) {
            float cu = add_c(add_c(add_c(0.0f, CX[i], ux), CY[i], uy), CZ[i], uz);
            float cu3 = 3.0f * cu;
            float feq = (W[i] * rho) * (fmaf(0.5f * cu3, cu3, 1.0f + cu3) - u2);
            dst[(size_t)i * ncells + c] = fmaf(omega, feq - f[i], f[i]);
        }
    }
}

static int run(struct wl *w)
{
    int nx = (int)wl_pick(w, 20, 64, 128, 128);
    int ny = (int)wl_pick(w, 18, 32, 64, 128);
    int nz = (int)wl_pick(w, 12, 32, 64, 128);
    int steps = (int)wl_pick(w, 3, 8, 10, 20);
    const float omega = 1.2f; /* relaxation rate 1/tau */
    size_t ncells = (size_t)nx * ny * nz, bytes = Q * ncells * sizeof(float);

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    unsigned *flags = wl_host_alloc(w, ncells * sizeof(unsigned));
    float *a = wl_host_alloc(w, bytes);
    float *b = wl_host_alloc(w, bytes);
    float *got = wl_host_alloc(w, bytes);
    if (!wl_ok(w))
        goto out;

    /* Geometry: walls, spheres, inflow plane, then the solid-neighbour bits. */
    int nspheres = (int)(ncells / 4000) + 2;
    for (int s = 0; s < nspheres; s++) {
        float cx = wl_rng_float(&r, 1.0f, (float)(nx - 1));
        float cy = wl_rng_float(&r, 1.0f, (float)(ny - 1));
        float cz = wl_rng_float(&r, 3.0f, (float)(nz - 1));
        float rad = wl_rng_float(&r, 1.5f, 4.0f);
        for (int z = 3; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    float dx = (float)x - cx, dy = (float)y - cy, dz = (float)z - cz;
                    if (dx * dx + dy * dy + dz * dz <= rad * rad)
                        flags[((size_t)z * ny + y) * nx + x] = FLAG_OBSTACLE;
                }
    }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t c = ((size_t)z * ny + y) * nx + x;
                if (x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || z == 0 || z == nz - 1)
                    flags[c] = FLAG_OBSTACLE;
                else if (z == 1)
                    flags[c] = FLAG_ACCEL;
            }
    for (size_t c = 0; c < ncells; c++) {
        if (flags[c] & FLAG_OBSTACLE)
            continue;
        for (int i = 1; i < Q; i++) {
            long off = ((long)CZ[i] * ny + CY[i]) * nx + CX[i];
            if (flags[c - off] & FLAG_OBSTACLE)
                flags[c] |= 1u << i;
        }
    }
    for (int i = 0; i < Q; i++)
        for (size_t c = 0; c < ncells; c++)
            a[(size_t)i * ncells + c] = W[i];
    memcpy(b, a, bytes);

    uint64_t d_src = wl_alloc_copy(w, a, bytes);
    uint64_t d_dst = wl_alloc_copy(w, a, bytes);
    uint64_t d_flags = wl_alloc_copy(w, flags, ncells * sizeof(unsigned));
    gs_function *k = wl_kernel(w, "lbm_stream_collide");
    float om = omega;
    for (int t = 0; t < steps && wl_ok(w); t++) {
        void *params[] = {&d_src, &d_dst, &d_flags, &nx, &ny, &nz, &om};
        wl_launch(w, k, (unsigned)(nx + THREADS - 1) / THREADS, (unsigned)ny, (unsigned)nz, THREADS, 1, 1, 0, params);
        uint64_t tmp = d_src;
        d_src = d_dst;
        d_dst = tmp;
        step_ref(a, b, flags, nx, ny, nz, omega);
        float *t2 = a;
        a = b;
        b = t2;
    }
    /* After the last swap the newest grid is d_src (device) and a (host). */
    wl_dtoh(w, got, d_src, bytes);
    if (wl_ok(w)) {
        size_t finite = 0;
        for (size_t i = 0; i < Q * ncells; i++)
            finite += isfinite(a[i]) != 0;
        wl_check(w, finite == Q * ncells, "reference has %zu non-finite values (unstable flow)", Q * ncells - finite);
        wl_check_f32(w, "f", got, a, Q * ncells, 0.0, 0.0);
    }
out:
    free(flags);
    free(a);
    free(b);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(lbm) = {
    .name = "lbm",
    .summary = "D3Q19 lattice-Boltzmann (BGK) stream-collide steps with obstacles and an inflow plane",
    .mirrors = "Parboil lbm",
    .stresses = "memory-bound (19 loads + 19 stores per cell, SoA), register-heavy, data-dependent bounce-back",
    .flags = WL_REG_HEAVY | WL_MEM_SENS,
    .sizes = {"20x18x12 cells, 3 steps", "64x32x32 cells, 8 steps", "128x64x64 cells, 10 steps",
              "128x128x128 cells, 20 steps"},
    .run = run,
};
