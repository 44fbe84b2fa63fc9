// workloads/backprop: one training step of a two-layer perceptron (n_in
// inputs -> 16 hidden units -> 1 output), mirroring Rodinia's backprop
// (written for gpusim). The two data-parallel parts of the step run on the
// device; the 16-unit hidden and output layers run on the host, as in the
// original.
//   bp_layer_forward:  input -> hidden pre-activations. A 16x16 CTA covers 16
//       inputs (threadIdx.y) x 16 hidden units (threadIdx.x): it stages its
//       16 inputs in shared memory, forms the 256 products w[i][j] * x[i] in
//       a shared tile and sums each column with a tree reduction over the 16
//       rows. Output: one partial sum per (CTA, hidden unit); the host adds
//       the CTAs' partials.
//   bp_adjust_weights: gradient step with momentum on every input -> hidden
//       weight, dw = eta * delta_h[j] * x[i] + momentum * dw_prev[i][j].
// Weights are row-major w[i * 16 + j] (input i, hidden unit j).

#define BP_HIDDEN 16 // hidden units = CTA width
#define BP_TILE 16   // inputs per CTA = CTA height

extern "C" __global__ void bp_layer_forward(const float *__restrict__ x, const float *__restrict__ w,
                                            float *__restrict__ partial)
{
    __shared__ float x_s[BP_TILE];
    __shared__ float prod[BP_TILE][BP_HIDDEN];
    int j = threadIdx.x, r = threadIdx.y;
    int i = blockIdx.x * BP_TILE + r;

    if (j == 0)
        x_s[r] = x[i];
    __syncthreads();
    prod[r][j] = w[i * BP_HIDDEN + j] * x_s[r];
    __syncthreads();
    // Column sums: halve the number of live rows each step.
    for (int s = BP_TILE / 2; s > 0; s >>= 1) {
        if (r < s)
            prod[r][j] += prod[r + s][j];
        __syncthreads();
    }
    if (r == 0)
        partial[blockIdx.x * BP_HIDDEN + j] = prod[0][j];
}

extern "C" __global__ void bp_adjust_weights(const float *__restrict__ delta_h, const float *__restrict__ x,
                                             float *__restrict__ w, float *__restrict__ dw_prev, float eta,
                                             float momentum)
{
    int j = threadIdx.x;
    int i = blockIdx.x * BP_TILE + threadIdx.y;
    int k = i * BP_HIDDEN + j;
    float dw = fmaf(eta * delta_h[j], x[i], momentum * dw_prev[k]);
    w[k] += dw;
    dw_prev[k] = dw;
}
