/* workloads/lud/host.c: driver for lud (blocked LU decomposition, BS = 16).
 *
 * Inputs: an n x n row-major matrix (n a multiple of 16) with off-diagonal
 * entries uniform in [-1, 1) and diagonal n + [0, 1): strictly diagonally
 * dominant, so LU without pivoting exists and is stable. For each diagonal
 * offset d the driver launches lud_diagonal, then (unless d is the last
 * block) lud_perimeter over the n/16 - d/16 - 1 remaining block positions
 * and lud_internal over the square of them.
 *
 * Reference: the same blocked algorithm on the CPU, step for step in the
 * kernels' operation order: the in-place updates `x -= l * y` are a
 * separately rounded product and difference, as in the kernels' PTX
 * (mul.f32, sub.f32), and the internal kernel's 16-term dot product is an
 * fma chain from 0 (fma.rn.f32) subtracted at the end. The two normally
 * agree bit for bit, but PTX leaves unmodified mul/sub free to be fused
 * into an fma, which changes an update by up to 1 ulp; on this diagonally
 * dominant matrix (growth factor <= 2) such differences stay around
 * sqrt(n) u relative to the O(1) entries (u = 2^-24). So U (on and above
 * the diagonal; O(1), diagonal O(n)) is checked with relative 1e-4 plus
 * absolute 1e-5, and L (below; entries ~ 1/n) with relative 1e-4 plus
 * absolute 1e-5/n. Any wrong or missing block update is far outside. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BS 16
#define A(i, j) a[(size_t)(i) * n + (j)]

/* x - y * z with the product rounded separately (the kernels' mul.f32 +
 * sub.f32). */
static float sub_prod(float x, float y, float z)
{
    float p = y * z;
    return x - p;
}

/* The blocked LU, in place, in the kernels' order. */
static void cpu_lud(float *a, int n)
{
    for (int d = 0; d < n; d += BS) {
        /* diagonal block: right-looking, row by row below the pivot */
        for (int k = 0; k < BS - 1; k++)
            for (int i = k + 1; i < BS; i++) {
                float l = A(d + i, d + k) / A(d + k, d + k);
                A(d + i, d + k) = l;
                for (int j = k + 1; j < BS; j++)
                    A(d + i, d + j) = sub_prod(A(d + i, d + j), l, A(d + k, d + j));
            }
        /* perimeter: U blocks to the right, L blocks below */
        for (int off = d + BS; off < n; off += BS) {
            for (int c = 0; c < BS; c++)
                for (int p = 0; p < BS - 1; p++)
                    for (int i = p + 1; i < BS; i++)
                        A(d + i, off + c) = sub_prod(A(d + i, off + c), A(d + i, d + p), A(d + p, off + c));
            for (int r = 0; r < BS; r++)
                for (int p = 0; p < BS; p++) {
                    float l = A(off + r, d + p) / A(d + p, d + p);
                    A(off + r, d + p) = l;
                    for (int q = p + 1; q < BS; q++)
                        A(off + r, d + q) = sub_prod(A(off + r, d + q), l, A(d + p, d + q));
                }
        }
        /* trailing submatrix: A_ij -= L_id U_dj */
        for (int r = d + BS; r < n; r++)
            for (int c = d + BS; c < n; c++) {
                float sum = 0.0f;
                for (int p = 0; p < BS; p++)
                    sum = fmaf(A(r, d + p), A(d + p, c), sum);
                A(r, c) = A(r, c) - sum;
            }
    }
}

/* Split an in-place factorisation into its L (strictly below the diagonal)
 * and U (on and above) parts, zeros elsewhere. */
static void split(const float *a, int n, float *l, float *u)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            l[(size_t)i * n + j] = j < i ? A(i, j) : 0.0f;
            u[(size_t)i * n + j] = j >= i ? A(i, j) : 0.0f;
        }
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 64, 512, 1024, 2048);
    size_t nn = (size_t)n * n;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, nn * sizeof(float));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A(i, j) = i == j ? (float)n + wl_rng_float(&r, 0.0f, 1.0f) : wl_rng_float(&r, -1.0f, 1.0f);

    uint64_t da = wl_alloc_copy(w, a, nn * sizeof(float));
    gs_function *fd = wl_kernel(w, "lud_diagonal");
    gs_function *fp = wl_kernel(w, "lud_perimeter");
    gs_function *fi = wl_kernel(w, "lud_internal");
    for (int d = 0; d < n && wl_ok(w); d += BS) {
        void *params[] = {&da, &n, &d};
        wl_launch(w, fd, 1, 1, 1, BS, 1, 1, 0, params);
        unsigned rem = (unsigned)((n - d) / BS - 1);
        if (rem > 0) {
            wl_launch(w, fp, rem, 1, 1, 2 * BS, 1, 1, 0, params);
            wl_launch(w, fi, rem, rem, 1, BS, BS, 1, 0, params);
        }
    }
    float *got = wl_host_alloc(w, nn * sizeof(float));
    wl_dtoh(w, got, da, nn * sizeof(float));
    if (wl_ok(w)) {
        float *gl = wl_host_alloc(w, nn * sizeof(float)), *gu = wl_host_alloc(w, nn * sizeof(float));
        float *rl = wl_host_alloc(w, nn * sizeof(float)), *ru = wl_host_alloc(w, nn * sizeof(float));
        cpu_lud(a, n);
        split(got, n, gl, gu);
        split(a, n, rl, ru);
        wl_check_f32(w, "L", gl, rl, nn, 1e-4, 1e-5 / n);
        wl_check_f32(w, "U", gu, ru, nn, 1e-4, 1e-5);
        free(gl);
        free(gu);
        free(rl);
        free(ru);
    }
    free(a);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(lud) = {
    .name = "lud",
    .summary = "blocked LU decomposition (16x16 blocks): diagonal, perimeter and internal kernels per step",
    .mirrors = "Rodinia lud",
    .stresses = "shared-memory tiles, serial small kernels (diagonal/perimeter) vs parallel internal updates",
    .flags = WL_REG_HEAVY,
    .sizes = {"64x64", "512x512", "1024x1024", "2048x2048"},
    .run = run,
};
