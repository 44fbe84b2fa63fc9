// workloads/lib: Monte Carlo pricing of a swaption portfolio under the
// LIBOR market model, with pathwise sensitivities, mirroring ISPASS-2009
// "LIB" (LIBOR Monte Carlo, after M. Giles). Each thread simulates one path:
//
// Path (forward Euler in log space, spot measure): N forward rates L_i,
// each a period delta long; in time step n (n = 0 .. NMAT-1, driven by the
// normal increment z_n of this path) the rates still alive (i > n) move by
//   v_i   = sum_{k=n+1..i} delta lam_k L_k / (1 + delta L_k),  lam_k = lambda[k-n-1]
//   L_i  *= exp(delta lam_i v_i + lam_i (sqrt(delta) z_n - delta lam_i / 2)).
// The rates after every step are kept in per-thread local memory for the
// backward pass (the original's L2 array).
//
// Portfolio at time NMAT: NOPT receiver swaptions (maturity m_o periods,
// strike K_o); with B_m the discount factors and S_m the annuities of the
// remaining rates, option o pays 100 * max(0, 1 - B_m - K_o S_m); the sum
// is discounted by prod_{n<NMAT} 1 / (1 + delta L_n).
//
// Pathwise deltas: dV/dL_i(0) for every initial rate, by the adjoint
// (reverse) pass through the portfolio and then back through the time steps.
//
// The model (initial curve, volatilities, portfolio) is in __constant__
// memory, as in the original; the normals come from the host.
#define N 80       // forward rates
#define NMAT 40    // time steps (the portfolio's start)
#define NOPT 15    // swaptions
#define NSWAP (N - NMAT)

struct lib_model {
    float delta;         // accrual period (years)
    float L0[N];         // initial forward curve
    float lambda[N];     // volatility by time to reset
    float strike[NOPT];  // swap rates
    int maturity[NOPT];  // swap lengths, in periods (1 .. NSWAP)
};

__constant__ lib_model c_model;

// Rates after each step: Lhist[(n + 1) * N + i] after step n, Lhist[i] initial.
__device__ void path_forward(float *L, float *Lhist, const float *z, int npath)
{
    const float delta = c_model.delta, sqrt_delta = sqrtf(delta);
    for (int i = 0; i < N; i++) {
        L[i] = c_model.L0[i];
        Lhist[i] = L[i];
    }
    for (int n = 0; n < NMAT; n++) {
        const float sqez = sqrt_delta * z[(size_t)n * npath];
        float v = 0.0f;
        for (int i = n + 1; i < N; i++) {
            const float lam = c_model.lambda[i - n - 1], con1 = delta * lam;
            v += __fdividef(con1 * L[i], 1.0f + delta * L[i]);
            L[i] *= __expf(con1 * v + lam * (sqez - 0.5f * con1));
        }
        for (int i = 0; i < N; i++)
            Lhist[(n + 1) * N + i] = L[i];
    }
}

// Portfolio value of the final rates L, and its gradient dV/dL in Lb.
__device__ float portfolio(const float *L, float *Lb)
{
    const float delta = c_model.delta;
    float B[NSWAP], S[NSWAP], Bb[NSWAP], Sb[NSWAP];
    float b = 1.0f, s = 0.0f;
    for (int m = 0; m < NSWAP; m++) {
        b = __fdividef(b, 1.0f + delta * L[NMAT + m]);
        s += delta * b;
        B[m] = b;
        S[m] = s;
        Bb[m] = 0.0f;
        Sb[m] = 0.0f;
    }
    float v = 0.0f;
    for (int o = 0; o < NOPT; o++) {
        const int m = c_model.maturity[o] - 1;
        const float swapval = B[m] + c_model.strike[o] * S[m] - 1.0f;
        if (swapval < 0.0f) {
            v -= 100.0f * swapval;
            Sb[m] -= 100.0f * c_model.strike[o];
            Bb[m] -= 100.0f;
        }
    }
    // Reverse pass through the annuity and discount-factor recurrences.
    for (int m = NSWAP - 1; m >= 0; m--) {
        const float onepdl = 1.0f + delta * L[NMAT + m];
        Bb[m] += delta * Sb[m];
        Lb[NMAT + m] = -Bb[m] * B[m] * __fdividef(delta, onepdl);
        if (m > 0) {
            Sb[m - 1] += Sb[m];
            Bb[m - 1] += __fdividef(Bb[m], onepdl);
        }
    }
    // Discount to time 0.
    float disc = 1.0f;
    for (int n = 0; n < NMAT; n++)
        disc = __fdividef(disc, 1.0f + delta * L[n]);
    v *= disc;
    for (int n = 0; n < NMAT; n++)
        Lb[n] = __fdividef(-v * delta, 1.0f + delta * L[n]);
    for (int n = NMAT; n < N; n++)
        Lb[n] *= disc;
    return v;
}

// Back through the time steps: Lb enters as dV/dL(final), leaves as dV/dL(0).
__device__ void path_backward(float *Lb, const float *Lhist)
{
    const float delta = c_model.delta;
    for (int n = NMAT - 1; n >= 0; n--) {
        const float *Lold = Lhist + n * N, *Lnew = Lhist + (n + 1) * N;
        float vb = 0.0f;
        for (int i = N - 1; i > n; i--) {
            const float lam = c_model.lambda[i - n - 1], con1 = delta * lam;
            vb += con1 * Lnew[i] * Lb[i];
            const float onepdl = 1.0f + delta * Lold[i];
            Lb[i] = Lb[i] * __fdividef(Lnew[i], Lold[i]) + __fdividef(vb * con1 * con1, onepdl * onepdl);
        }
    }
}

// One path per thread: z[n * npath + path] are its NMAT normals; writes
// value[path] and delta[i * npath + path] = dV/dL_i(0).
extern "C" __global__ void lib_paths(const float *__restrict__ z, float *__restrict__ value,
                                     float *__restrict__ delta, int npath)
{
    const int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath)
        return;
    float L[N], Lb[N], Lhist[(NMAT + 1) * N];
    path_forward(L, Lhist, z + path, npath);
    value[path] = portfolio(L, Lb);
    path_backward(Lb, Lhist);
    for (int i = 0; i < N; i++)
        delta[(size_t)i * npath + path] = Lb[i];
}
