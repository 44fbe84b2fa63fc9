/* workloads/sgemm/host.c: driver for sgemm (C = alpha*A*B + beta*C).
 *
 * Inputs: column-major A (M x K), B (K x N) and C (M x N) uniform in
 * [-1, 1) from --seed, alpha = 1.5, beta = -0.5. One launch of M/64 x N/16
 * CTAs of 64 threads.
 *
 * Check: the reference is computed in double precision, which is exact
 * enough to stand for the true result. A float dot product of length K
 * accumulated in any order is within gamma_K * sum_k |a_ik b_kj| of the true
 * value (gamma_K = K u / (1 - K u), u = 2^-24, the standard bound), and the
 * epilogue's multiply-adds add at most a few ulp of |alpha*acc| and
 * |beta*c|. So each element gets its own tolerance
 *   |alpha| (gamma_K + 2u) S_ij + 2u |beta c_ij|, S_ij = sum_k |a_ik b_kj|,
 * plus a 1e-30 floor; it grows with the dot-product length K and stays
 * far below the effect of any dropped or duplicated product term. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define TILE_M 64
#define TILE_N 16

/* Compare the kernel's C against a double-precision reference with the
 * per-element bound described above; print the first 10 violations. */
static void check(struct wl *w, const float *a, const float *b, const float *c, const float *got, int m, int n,
                  int k, float alpha, float beta)
{
    const double u = ldexp(1.0, -24), gamma_k = k * u / (1.0 - k * u);
    size_t bad = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double dot = 0.0, mag = 0.0;
            for (int p = 0; p < k; p++) {
                double prod = (double)a[(size_t)p * m + i] * b[(size_t)j * k + p];
                dot += prod;
                mag += fabs(prod);
            }
            double cij = c[(size_t)j * m + i];
            double want = alpha * dot + beta * cij;
            double tol = fabs(alpha) * (gamma_k + 2 * u) * mag + 2 * u * fabs(beta * cij) + 1e-30;
            double g = got[(size_t)j * m + i];
            if (!(fabs(g - want) <= tol) && bad++ < 10)
                fprintf(stderr, "sgemm: mismatch in C(%d,%d): got %.9g, expected %.9g (tolerance %.3g)\n", i, j, g,
                        want, tol);
        }
    }
    wl_check(w, bad == 0, "C: %zu of %zu elements outside the dot-product error bound", bad, (size_t)m * n);
}

static int run(struct wl *w)
{
    int m = (int)wl_pick(w, 128, 512, 1024, 2048);
    int n = (int)wl_pick(w, 48, 512, 1024, 2048);
    int k = (int)wl_pick(w, 64, 384, 1024, 2048);
    float alpha = 1.5f, beta = -0.5f;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, (size_t)m * k * sizeof(float));
    float *b = wl_host_alloc(w, (size_t)k * n * sizeof(float));
    float *c = wl_host_alloc(w, (size_t)m * n * sizeof(float));
    float *got = wl_host_alloc(w, (size_t)m * n * sizeof(float));
    for (size_t i = 0; i < (size_t)m * k; i++)
        a[i] = wl_rng_float(&r, -1.0f, 1.0f);
    for (size_t i = 0; i < (size_t)k * n; i++)
        b[i] = wl_rng_float(&r, -1.0f, 1.0f);
    for (size_t i = 0; i < (size_t)m * n; i++)
        c[i] = wl_rng_float(&r, -1.0f, 1.0f);

    uint64_t da = wl_alloc_copy(w, a, (size_t)m * k * sizeof(float));
    uint64_t db = wl_alloc_copy(w, b, (size_t)k * n * sizeof(float));
    uint64_t dc = wl_alloc_copy(w, c, (size_t)m * n * sizeof(float));
    gs_function *f = wl_kernel(w, "sgemm");
    void *params[] = {&da, &db, &dc, &m, &n, &k, &alpha, &beta};
    wl_launch(w, f, (unsigned)(m / TILE_M), (unsigned)(n / TILE_N), 1, TILE_M, 1, 1, 0, params);
    wl_dtoh(w, got, dc, (size_t)m * n * sizeof(float));
    if (wl_ok(w))
        check(w, a, b, c, got, m, n, k, alpha, beta);
    free(a);
    free(b);
    free(c);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(sgemm) = {
    .name = "sgemm",
    .summary = "C = alpha*A*B + beta*C, 64x16 register-tiled with a shared B tile",
    .mirrors = "Parboil sgemm",
    .stresses = "compute-bound, register tiling, shared-memory broadcast",
    .flags = WL_REG_HEAVY,
    .sizes = {"128x48x64 (MxNxK)", "512x512x384", "1024x1024x1024", "2048x2048x2048"},
    .run = run,
};
