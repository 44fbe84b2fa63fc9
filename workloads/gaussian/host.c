/* workloads/gaussian/host.c: driver for gaussian (solve A x = b).
 *
 * Inputs: off-diagonal entries of A and all of b uniform in [-1, 1), the
 * diagonal n + [0, 1) (strictly diagonally dominant, so elimination without
 * pivoting is stable: growth factor <= 2). For t = 0 .. n-2 the driver
 * launches gauss_fan1 (256 threads per CTA over the n-t-1 rows below the
 * pivot) and gauss_fan2 (16 x 16 CTAs over the (n-t-1) x (n-t) trailing
 * submatrix), then copies A and b back and solves the triangular system on
 * the host, as Rodinia does.
 *
 * Reference: the same elimination on the CPU in the same order, each update
 * written as a separately rounded product and difference like the kernel's
 * PTX (mul.f32, sub.f32), and the same back substitution. The two normally
 * agree bit for bit, but PTX leaves unmodified mul/sub free to be fused into
 * an fma, which changes each update by up to 1 ulp. With the diagonally
 * dominant A such per-step differences stay around sqrt(n) u relative to
 * the O(1) entries (u = 2^-24), so the checks allow relative 1e-4 plus
 * absolute 1e-5 for the reduced matrix (upper triangle), right-hand side
 * and solution x, and absolute 1e-5/n for the multipliers (a[i][t] / a[t][t]
 * with a[t][t] ~ n); any wrong update or skipped row/column is far outside
 * that. */
#include <stdlib.h>

#include "wl.h"

#define FAN1_THREADS 256
#define FAN2_DIM 16

/* Forward elimination in place (a row-major n x n, multipliers into m). */
static void cpu_eliminate(float *a, float *b, float *m, int n)
{
    for (int t = 0; t < n - 1; t++) {
        for (int i = t + 1; i < n; i++)
            m[(size_t)i * n + t] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
        for (int i = t + 1; i < n; i++) {
            float mul = m[(size_t)i * n + t];
            for (int j = t; j < n; j++) {
                float p = mul * a[(size_t)t * n + j];
                a[(size_t)i * n + j] = a[(size_t)i * n + j] - p;
            }
            float p = mul * b[t];
            b[i] = b[i] - p;
        }
    }
}

/* Back substitution on the upper triangle of a. */
static void back_substitute(const float *a, const float *b, float *x, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++)
            s -= a[(size_t)i * n + j] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

/* Copy the upper triangle (with diagonal) of a; zeros below. */
static void upper(const float *a, float *u, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            u[(size_t)i * n + j] = j >= i ? a[(size_t)i * n + j] : 0.0f;
}

/* Copy the strictly lower triangle of m; zeros elsewhere. */
static void lower(const float *m, float *l, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            l[(size_t)i * n + j] = j < i ? m[(size_t)i * n + j] : 0.0f;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 50, 256, 560, 1120);
    size_t nn = (size_t)n * n;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, nn * sizeof(float));
    float *b = wl_host_alloc(w, (size_t)n * sizeof(float));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = i == j ? (float)n + wl_rng_float(&r, 0.0f, 1.0f) : wl_rng_float(&r, -1.0f, 1.0f);
    for (int i = 0; i < n; i++)
        b[i] = wl_rng_float(&r, -1.0f, 1.0f);

    uint64_t da = wl_alloc_copy(w, a, nn * sizeof(float));
    uint64_t db = wl_alloc_copy(w, b, (size_t)n * sizeof(float));
    uint64_t dm = wl_alloc(w, nn * sizeof(float));
    gs_function *fan1 = wl_kernel(w, "gauss_fan1");
    gs_function *fan2 = wl_kernel(w, "gauss_fan2");
    for (int t = 0; t < n - 1 && wl_ok(w); t++) {
        unsigned rows = (unsigned)(n - t - 1), cols = (unsigned)(n - t);
        void *p1[] = {&da, &dm, &n, &t};
        wl_launch(w, fan1, (rows + FAN1_THREADS - 1) / FAN1_THREADS, 1, 1, FAN1_THREADS, 1, 1, 0, p1);
        void *p2[] = {&da, &db, &dm, &n, &t};
        wl_launch(w, fan2, (cols + FAN2_DIM - 1) / FAN2_DIM, (rows + FAN2_DIM - 1) / FAN2_DIM, 1, FAN2_DIM, FAN2_DIM,
                  1, 0, p2);
    }
    float *ga = wl_host_alloc(w, nn * sizeof(float));
    float *gb = wl_host_alloc(w, (size_t)n * sizeof(float));
    float *gm = wl_host_alloc(w, nn * sizeof(float));
    wl_dtoh(w, ga, da, nn * sizeof(float));
    wl_dtoh(w, gb, db, (size_t)n * sizeof(float));
    wl_dtoh(w, gm, dm, nn * sizeof(float));

    if (wl_ok(w)) {
        float *rm = wl_host_alloc(w, nn * sizeof(float));
        float *x = wl_host_alloc(w, (size_t)n * sizeof(float));
        float *rx = wl_host_alloc(w, (size_t)n * sizeof(float));
        float *got = wl_host_alloc(w, nn * sizeof(float));
        float *want = wl_host_alloc(w, nn * sizeof(float));
        back_substitute(ga, gb, x, n); /* the answer, from the device's reduced system */
        cpu_eliminate(a, b, rm, n);
        back_substitute(a, b, rx, n);
        lower(gm, got, n);
        lower(rm, want, n);
        wl_check_f32(w, "multiplier", got, want, nn, 1e-4, 1e-5 / n);
        upper(ga, got, n);
        upper(a, want, n);
        wl_check_f32(w, "reduced A", got, want, nn, 1e-4, 1e-5);
        wl_check_f32(w, "reduced b", gb, b, (size_t)n, 1e-4, 1e-5);
        wl_check_f32(w, "x", x, rx, (size_t)n, 1e-4, 1e-5);
        free(rm);
        free(x);
        free(rx);
        free(got);
        free(want);
    }
    free(a);
    free(b);
    free(ga);
    free(gb);
    free(gm);
    return wl_finish(w);
}

WL_REGISTER(gaussian) = {
    .name = "gaussian",
    .summary = "Gaussian elimination of a dense system: Fan1 (multipliers) + Fan2 (update) per pivot",
    .mirrors = "Rodinia gaussian",
    .stresses = "many short dependent launches, shrinking grids, memory-bound updates",
    .sizes = {"50x50", "256x256", "560x560", "1120x1120"},
    .run = run,
};
