/* workloads/stencil/host.c: driver for stencil (Parboil stencil).
 *
 * Input: an nx x ny x nz float grid, values uniform in [0, 1) from --seed
 * (the boundary shell included; it never changes). Both ping-pong buffers
 * start as copies of it, so the fixed boundary is present in each. One
 * launch per time step, swapping input and output.
 *
 * Check: tolerance 0. The host reference performs the kernel's float
 * operations in the same order (five adds, one multiply, one fused
 * multiply-add, all correctly rounded on both sides), so the results are
 * bit-identical. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define TX 32 /* block shape, as in kernel.cu */
#define TY 4

static const float C0 = 1.0f / 6.0f, C1 = 1.0f / 6.0f / 6.0f;

/* One Jacobi step on the interior; the reference for kernel stencil7. */
static void step_ref(const float *in, float *out, int nx, int ny, int nz)
{
    size_t sy = (size_t)nx, sz = (size_t)nx * ny;
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                size_t c = (size_t)k * sz + (size_t)j * sy + (size_t)i;
                float sum = in[c - sz] + in[c + sz];
                sum += in[c - sy];
                sum += in[c + sy];
                sum += in[c - 1];
                sum += in[c + 1];
                out[c] = fmaf(sum, C1, -(in[c] * C0));
            }
}

static int run(struct wl *w)
{
    int nx = (int)wl_pick(w, 50, 128, 256, 512);
    int ny = (int)wl_pick(w, 14, 128, 256, 512);
    int nz = (int)wl_pick(w, 8, 32, 64, 64);
    int steps = (int)wl_pick(w, 3, 12, 15, 40);
    size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, bytes);
    float *b = wl_host_alloc(w, bytes);
    float *got = wl_host_alloc(w, bytes);
    for (size_t i = 0; i < n; i++)
        a[i] = wl_rng_float(&r, 0.0f, 1.0f);
    memcpy(b, a, bytes);

    uint64_t d_in = wl_alloc_copy(w, a, bytes);
    uint64_t d_out = wl_alloc_copy(w, a, bytes);
    gs_function *k = wl_kernel(w, "stencil7");
    unsigned gx = (unsigned)(nx - 2 + TX - 1) / TX, gy = (unsigned)(ny - 2 + TY - 1) / TY;
    float c0 = C0, c1 = C1;
    for (int t = 0; t < steps && wl_ok(w); t++) {
        void *params[] = {&d_in, &d_out, &nx, &ny, &nz, &c0, &c1};
        wl_launch(w, k, gx, gy, 1, TX, TY, 1, 0, params);
        uint64_t tmp = d_in;
        d_in = d_out;
        d_out = tmp;
        step_ref(a, b, nx, ny, nz);
        float *t2 = a;
        a = b;
        b = t2;
    }
    /* After the last swap the newest grid is d_in (device) and a (host). */
    wl_dtoh(w, got, d_in, bytes);
    if (wl_ok(w))
        wl_check_f32(w, "grid", got, a, n, 0.0, 0.0);
    free(a);
    free(b);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(stencil) = {
    .name = "stencil",
    .summary = "3-D 7-point Jacobi stencil, several time steps with ping-pong grids",
    .mirrors = "Parboil stencil",
    .stresses = "memory-bound, shared-memory tiling with z-marching register reuse, barriers",
    .flags = WL_REG_HEAVY | WL_MEM_SENS,
    .sizes = {"50x14x8 grid, 3 steps", "128x128x32 grid, 12 steps", "256x256x64 grid, 15 steps",
              "512x512x64 grid, 40 steps"},
    .run = run,
};
