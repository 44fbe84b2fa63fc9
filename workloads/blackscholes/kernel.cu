// workloads/blackscholes: Black-Scholes prices of European call and put
// options, mirroring the CUDA SDK "BlackScholes" sample. For stock price S,
// strike X and time to expiry T (years) at riskless rate R and volatility V:
//   d1 = (ln(S/X) + (R + V^2/2) T) / (V sqrt(T)),  d2 = d1 - V sqrt(T)
//   call = S N(d1) - X e^(-RT) N(d2)
//   put  = X e^(-RT) (1 - N(d2)) - S (1 - N(d1))
// where N, the cumulative normal distribution, uses the Abramowitz-Stegun
// polynomial approximation (26.2.17, |error| < 7.5e-8). Compute-bound
// (logf, expf x3, sqrtf, divisions) with streaming loads/stores; one option
// per thread per step of a grid-stride loop.

// N(d) for d >= 0 is 1 - phi(d) * poly(k), k = 1 / (1 + p |d|); symmetric.
__device__ static float cnd(float d)
{
    const float p = 0.2316419f;
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f; // 1 / sqrt(2 pi)
    float k = 1.0f / (1.0f + p * fabsf(d));
    float tail = rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - tail : tail;
}

// Launch: any 1-D grid of 1-D blocks; n options (prices in currency units,
// T in years, R and V per year).
extern "C" __global__ void blackscholes(const float *__restrict__ S, const float *__restrict__ X,
                                        const float *__restrict__ T, float *__restrict__ call,
                                        float *__restrict__ put, float R, float V, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float s = S[i], x = X[i], t = T[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrt_t);
        float d2 = d1 - V * sqrt_t;
        float n1 = cnd(d1), n2 = cnd(d2);
        float disc = x * expf(-R * t); // discounted strike
        call[i] = s * n1 - disc * n2;
        put[i] = disc * (1.0f - n2) - s * (1.0f - n1);
    }
}
