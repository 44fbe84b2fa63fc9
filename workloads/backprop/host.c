/* workloads/backprop/host.c: driver for backprop (Rodinia backprop: one
 * training step of an n_in -> 16 -> 1 perceptron).
 *
 * Input from --seed: inputs x in [0, 1), input->hidden weights uniform in
 * +-2/sqrt(n_in) (so the hidden pre-activations stay around +-1 and the
 * sigmoid does not saturate), the previous step's weight changes (momentum
 * term) in +-1e-3, hidden biases, hidden->output weights and output bias in
 * +-0.5, and a training target in [0.1, 0.9).
 *
 * The step, as in Rodinia:
 *   1. device bp_layer_forward: per-CTA partial sums of w[i][j] * x[i]
 *      (n_in / 16 CTAs of 16x16 threads);
 *   2. host: hidden h[j] = sigmoid(b[j] + sum over CTAs of the partials),
 *      output o = sigmoid(b_o + sum_j h[j] * w_o[j]), output error
 *      delta_o = o (1 - o) (t - o), hidden errors
 *      delta_h[j] = h[j] (1 - h[j]) w_o[j] delta_o;
 *   3. device bp_adjust_weights: every input->hidden weight moves by
 *      dw = eta delta_h[j] x[i] + momentum dw_prev[i][j] (same grid).
 *
 * Check: the partial sums, the hidden outputs, the adjusted weights and the
 * stored weight changes against a CPU reference that performs the same
 * float operations in the same order (the same 16-row tree per CTA, the same
 * fmaf). The results are then bit-identical; the tolerance rel 1e-6 only
 * leaves room for a host compiler that contracts a*b+c into an FMA. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define BP_HIDDEN 16
#define BP_TILE 16
#define BP_ETA 0.3f      /* learning rate (Rodinia's value) */
#define BP_MOMENTUM 0.3f /* momentum (Rodinia's value) */
#define BP_TOL 1e-6

static float sigmoid(float s) { return 1.0f / (1.0f + expf(-s)); }

/* CPU model of bp_layer_forward: per tile of 16 inputs, the products and the
 * same halving tree over the rows. */
static void forward_cpu(const float *x, const float *w, float *partial, int n_tiles)
{
    float prod[BP_TILE][BP_HIDDEN];
    for (int t = 0; t < n_tiles; t++) {
        for (int r = 0; r < BP_TILE; r++)
            for (int j = 0; j < BP_HIDDEN; j++)
                prod[r][j] = w[(t * BP_TILE + r) * BP_HIDDEN + j] * x[t * BP_TILE + r];
        for (int s = BP_TILE / 2; s > 0; s >>= 1)
            for (int r = 0; r < s; r++)
                for (int j = 0; j < BP_HIDDEN; j++)
                    prod[r][j] += prod[r + s][j];
        for (int j = 0; j < BP_HIDDEN; j++)
            partial[t * BP_HIDDEN + j] = prod[0][j];
    }
}

/* Host part of the step (used for both the device run and the reference):
 * hidden outputs from the partial sums, then the hidden error terms. */
static void hidden_layer(const float *partial, int n_tiles, const float *b_h, const float *w_o, float b_o,
                         float target, float *h, float *delta_h)
{
    for (int j = 0; j < BP_HIDDEN; j++) {
        float s = b_h[j];
        for (int t = 0; t < n_tiles; t++)
            s += partial[t * BP_HIDDEN + j];
        h[j] = sigmoid(s);
    }
    float so = b_o;
    for (int j = 0; j < BP_HIDDEN; j++)
        so += h[j] * w_o[j];
    float o = sigmoid(so);
    float delta_o = o * (1.0f - o) * (target - o);
    for (int j = 0; j < BP_HIDDEN; j++)
        delta_h[j] = h[j] * (1.0f - h[j]) * w_o[j] * delta_o;
}

/* CPU model of bp_adjust_weights. */
static void adjust_cpu(const float *delta_h, const float *x, float *w, float *dw_prev, int n_in)
{
    for (int i = 0; i < n_in; i++)
        for (int j = 0; j < BP_HIDDEN; j++) {
            int k = i * BP_HIDDEN + j;
            float dw = fmaf(BP_ETA * delta_h[j], x[i], BP_MOMENTUM * dw_prev[k]);
            w[k] += dw;
            dw_prev[k] = dw;
        }
}

static int run(struct wl *w)
{
    int n_in = (int)wl_pick(w, 512, 1 << 16, 1 << 19, 1 << 22); /* multiple of 16 */
    int n_tiles = n_in / BP_TILE;
    size_t n_w = (size_t)n_in * BP_HIDDEN;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    float *x = wl_host_alloc(w, (size_t)n_in * sizeof(float));
    float *wt = wl_host_alloc(w, n_w * sizeof(float));
    float *dw_prev = wl_host_alloc(w, n_w * sizeof(float));
    float b_h[BP_HIDDEN], w_o[BP_HIDDEN];
    float wr = 2.0f / sqrtf((float)n_in);
    for (int i = 0; i < n_in; i++)
        x[i] = wl_rng_float(&r, 0.0f, 1.0f);
    for (size_t k = 0; k < n_w; k++) {
        wt[k] = wl_rng_float(&r, -wr, wr);
        dw_prev[k] = wl_rng_float(&r, -1e-3f, 1e-3f);
    }
    for (int j = 0; j < BP_HIDDEN; j++) {
        b_h[j] = wl_rng_float(&r, -0.5f, 0.5f);
        w_o[j] = wl_rng_float(&r, -0.5f, 0.5f);
    }
    float b_o = wl_rng_float(&r, -0.5f, 0.5f);
    float target = wl_rng_float(&r, 0.1f, 0.9f);

    uint64_t d_x = wl_alloc_copy(w, x, (size_t)n_in * sizeof(float));
    uint64_t d_w = wl_alloc_copy(w, wt, n_w * sizeof(float));
    uint64_t d_dw = wl_alloc_copy(w, dw_prev, n_w * sizeof(float));
    uint64_t d_partial = wl_alloc(w, (size_t)n_tiles * BP_HIDDEN * sizeof(float));
    uint64_t d_delta = wl_alloc(w, BP_HIDDEN * sizeof(float));
    gs_function *k_fwd = wl_kernel(w, "bp_layer_forward");
    gs_function *k_adj = wl_kernel(w, "bp_adjust_weights");

    /* 1. forward over the input layer */
    void *p_fwd[] = {&d_x, &d_w, &d_partial};
    wl_launch(w, k_fwd, (unsigned)n_tiles, 1, 1, BP_HIDDEN, BP_TILE, 1, 0, p_fwd);
    float *partial = wl_host_alloc(w, (size_t)n_tiles * BP_HIDDEN * sizeof(float));
    wl_dtoh(w, partial, d_partial, (size_t)n_tiles * BP_HIDDEN * sizeof(float));
    /* 2. hidden and output layers on the host */
    float h[BP_HIDDEN], delta_h[BP_HIDDEN];
    hidden_layer(partial, n_tiles, b_h, w_o, b_o, target, h, delta_h);
    /* 3. weight adjustment */
    wl_htod(w, d_delta, delta_h, sizeof delta_h);
    float eta = BP_ETA, momentum = BP_MOMENTUM;
    void *p_adj[] = {&d_delta, &d_x, &d_w, &d_dw, &eta, &momentum};
    wl_launch(w, k_adj, (unsigned)n_tiles, 1, 1, BP_HIDDEN, BP_TILE, 1, 0, p_adj);
    float *w_got = wl_host_alloc(w, n_w * sizeof(float));
    float *dw_got = wl_host_alloc(w, n_w * sizeof(float));
    wl_dtoh(w, w_got, d_w, n_w * sizeof(float));
    wl_dtoh(w, dw_got, d_dw, n_w * sizeof(float));

    if (wl_ok(w)) {
        float *partial_ref = wl_host_alloc(w, (size_t)n_tiles * BP_HIDDEN * sizeof(float));
        float h_ref[BP_HIDDEN], delta_ref[BP_HIDDEN];
        forward_cpu(x, wt, partial_ref, n_tiles);
        hidden_layer(partial_ref, n_tiles, b_h, w_o, b_o, target, h_ref, delta_ref);
        adjust_cpu(delta_ref, x, wt, dw_prev, n_in); /* wt, dw_prev become the reference */
        wl_note(w, "%d inputs, %d CTAs; h[0] = %.6f, delta_h[0] = %.3g", n_in, n_tiles, (double)h_ref[0],
                (double)delta_ref[0]);
        wl_check_f32(w, "partial", partial, partial_ref, (size_t)n_tiles * BP_HIDDEN, BP_TOL, 0.0);
        wl_check_f32(w, "hidden", h, h_ref, BP_HIDDEN, BP_TOL, 0.0);
        wl_check_f32(w, "w", w_got, wt, n_w, BP_TOL, 0.0);
        wl_check_f32(w, "dw_prev", dw_got, dw_prev, n_w, BP_TOL, 0.0);
        free(partial_ref);
    }
    wl_free(w, d_x);
    wl_free(w, d_w);
    wl_free(w, d_dw);
    wl_free(w, d_partial);
    wl_free(w, d_delta);
    free(x);
    free(wt);
    free(dw_prev);
    free(partial);
    free(w_got);
    free(dw_got);
    return wl_finish(w);
}

WL_REGISTER(backprop) = {
    .name = "backprop",
    .summary = "one training step of an n->16->1 perceptron: forward sums and weight update",
    .mirrors = "Rodinia backprop",
    .stresses = "shared-memory tree reductions, barriers, streaming weight updates",
    .flags = WL_MEM_SENS,
    .sizes = {"512 inputs", "64K inputs", "512K inputs", "4M inputs"},
    .run = run,
};
