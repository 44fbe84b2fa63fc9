/* workloads/blackscholes/host.c: driver for blackscholes (option pricing).
 *
 * Inputs from --seed, in the CUDA SDK sample's ranges: stock price S in
 * [5, 30), strike X in [1, 100), expiry T in [0.25, 10) years; R = 0.02,
 * V = 0.30. The grid is min(ceil(n / 128), 480) blocks of 128 threads (a
 * fixed cap as in early versions of the sample), so at the larger sizes
 * each thread prices several options in its grid-stride loop.
 * Check against the same formulas evaluated in float on the host. They
 * differ from the device only by rounding: the device's expf/logf are
 * within 2 ulp (not correctly rounded like the host's), and nvcc fuses
 * some multiply-adds (sqrtf and the divisions are correctly rounded on both
 * sides). Prices are differences of terms up to X < 100 (ulp 7.6e-6); over
 * 4M random options this float evaluation stays within 1.7e-5 of a double
 * evaluation, so two such float evaluations differ by at most about 3.4e-5.
 * Tolerance: abs 1e-4 (13 ulps of 100, a hundredth of a cent) plus rel 1e-5.
 */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BLOCK 128
#define MAX_GRID 480

/* Cumulative normal distribution, Abramowitz-Stegun 26.2.17 (as the kernel). */
static float cnd(float d)
{
    const float p = 0.2316419f;
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + p * fabsf(d));
    float tail = rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - tail : tail;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 1 << 20, 1 << 23, 1 << 25);
    float R = 0.02f, V = 0.30f;
    size_t bytes = (size_t)n * sizeof(float);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *S = wl_host_alloc(w, bytes), *X = wl_host_alloc(w, bytes), *T = wl_host_alloc(w, bytes);
    float *call = wl_host_alloc(w, bytes), *put = wl_host_alloc(w, bytes);
    float *got = wl_host_alloc(w, bytes);
    for (int i = 0; i < n; i++) {
        S[i] = wl_rng_float(&r, 5.0f, 30.0f);
        X[i] = wl_rng_float(&r, 1.0f, 100.0f);
        T[i] = wl_rng_float(&r, 0.25f, 10.0f);
    }
    for (int i = 0; i < n; i++) {
        float sqrt_t = sqrtf(T[i]);
        float d1 = (logf(S[i] / X[i]) + (R + 0.5f * V * V) * T[i]) / (V * sqrt_t);
        float d2 = d1 - V * sqrt_t;
        float n1 = cnd(d1), n2 = cnd(d2);
        float disc = X[i] * expf(-R * T[i]);
        call[i] = S[i] * n1 - disc * n2;
        put[i] = disc * (1.0f - n2) - S[i] * (1.0f - n1);
    }

    uint64_t dS = wl_alloc_copy(w, S, bytes), dX = wl_alloc_copy(w, X, bytes), dT = wl_alloc_copy(w, T, bytes);
    uint64_t dcall = wl_alloc(w, bytes), dput = wl_alloc(w, bytes);
    gs_function *k = wl_kernel(w, "blackscholes");
    unsigned grid = (unsigned)(n + BLOCK - 1) / BLOCK;
    if (grid > MAX_GRID)
        grid = MAX_GRID;
    void *params[] = {&dS, &dX, &dT, &dcall, &dput, &R, &V, &n};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);

    wl_dtoh(w, got, dcall, bytes);
    if (wl_ok(w))
        wl_check_f32(w, "call", got, call, (size_t)n, 1e-5, 1e-4);
    wl_dtoh(w, got, dput, bytes);
    if (wl_ok(w))
        wl_check_f32(w, "put", got, put, (size_t)n, 1e-5, 1e-4);
    free(S);
    free(X);
    free(T);
    free(call);
    free(put);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(blackscholes) = {
    .name = "blackscholes",
    .summary = "Black-Scholes European call and put prices (polynomial cumulative normal)",
    .mirrors = "CUDA SDK BlackScholes",
    .stresses = "compute-bound transcendental math (ex2/lg2/sqrt/div) with streaming coalesced I/O",
    .sizes = {"1000 options", "1M options", "8M options", "32M options"},
    .run = run,
};
