/* workloads/srad/host.c: driver for srad (Rodinia srad v2: speckle-reducing
 * anisotropic diffusion).
 *
 * Input from --seed: a synthetic ultrasound-like image, rows x cols (both
 * multiples of 16): a smooth background with a few bright and dark discs
 * ("tissue") multiplied by speckle noise uniform in [0.6, 1.4), so every
 * pixel is positive. The region of interest for the speckle statistics is
 * the top-left 128 x 128 pixels (Rodinia's r1..r2, c1..c2 = 0..127),
 * clipped to the image; lambda = 0.5 (Rodinia's value).
 *
 * Host loop, per iteration: srad_roi_sums (at most 16 CTAs of 256 threads),
 * copy the partial sums back, q0^2 = var / mean^2 over the ROI (sums of the
 * partials in double), then srad_coef and srad_update over 16x16 CTAs.
 *
 * Check: the final image J and the last iteration's diffusion coefficients
 * c against a CPU reference that performs the kernels' float operations in
 * the same order (the reduction's grid-stride and tree order, the explicit
 * fmaf, IEEE division), so the results should be bit-identical. The
 * tolerance rel 1e-5 + abs 1e-6 is a safety margin only (e.g. for a host
 * compiler contracting the reference's plain multiply-adds); it is far below
 * the change one iteration makes to the image (~1e-2). */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define SR_TILE 16
#define SR_RED_BLOCK 256
#define SR_RED_MAX_CTAS 16
#define SR_ROI 128
#define SR_LAMBDA 0.5f

struct roi {
    int r0, c0, rows, cols;
};

/* CPU model of srad_roi_sums: the same per-thread grid-stride sums and the
 * same halving tree per CTA. */
static void roi_sums_cpu(const float *J, int cols, struct roi q, int n_ctas, float *partial)
{
    int n = q.rows * q.cols;
    float s1[SR_RED_BLOCK], s2[SR_RED_BLOCK];
    for (int b = 0; b < n_ctas; b++) {
        for (int t = 0; t < SR_RED_BLOCK; t++) {
            float a = 0.0f, sq = 0.0f;
            for (int i = b * SR_RED_BLOCK + t; i < n; i += n_ctas * SR_RED_BLOCK) {
                float v = J[(q.r0 + i / q.cols) * cols + q.c0 + i % q.cols];
                a += v;
                sq = fmaf(v, v, sq);
            }
            s1[t] = a;
            s2[t] = sq;
        }
        for (int s = SR_RED_BLOCK / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++) {
                s1[t] += s1[t + s];
                s2[t] += s2[t + s];
            }
        partial[2 * b] = s1[0];
        partial[2 * b + 1] = s2[0];
    }
}

/* q0^2 = var / mean^2 of the ROI from the per-CTA partial sums. */
static float q0sqr_from(const float *partial, int n_ctas, int n)
{
    double s = 0.0, s2 = 0.0;
    for (int b = 0; b < n_ctas; b++) {
        s += partial[2 * b];
        s2 += partial[2 * b + 1];
    }
    double mean = s / n, var = s2 / n - mean * mean;
    return (float)(var / (mean * mean));
}

/* CPU model of srad_coef and srad_update over the whole image. */
static void srad_step_cpu(float *J, float *dN, float *dS, float *dW, float *dE, float *c, int rows, int cols,
                          float q0sqr)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            int k = y * cols + x;
            float jc = J[k];
            float n = J[(y > 0 ? y - 1 : y) * cols + x] - jc, s = J[(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
            float w = J[y * cols + (x > 0 ? x - 1 : x)] - jc, e = J[y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
            float g2 = fmaf(n, n, fmaf(s, s, fmaf(w, w, e * e))) / (jc * jc);
            float l = (n + s + w + e) / jc;
            float num = fmaf(0.5f, g2, -0.0625f * (l * l));
            float den = fmaf(0.25f, l, 1.0f);
            float qsqr = num / (den * den);
            float cc = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
            c[k] = cc < 0.0f ? 0.0f : (cc > 1.0f ? 1.0f : cc);
            dN[k] = n;
            dS[k] = s;
            dW[k] = w;
            dE[k] = e;
        }
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            int k = y * cols + x;
            float cn = c[k], cs = c[(y < rows - 1 ? y + 1 : y) * cols + x];
            float ce = c[y * cols + (x < cols - 1 ? x + 1 : x)];
            float div = fmaf(cn, dN[k], fmaf(cs, dS[k], fmaf(cn, dW[k], ce * dE[k])));
            J[k] = fmaf(0.25f * SR_LAMBDA, div, J[k]);
        }
}

static int run(struct wl *w)
{
    int rows = (int)wl_pick(w, 64, 512, 2048, 4096);
    int cols = (int)wl_pick(w, 96, 512, 1024, 4096);
    int iters = (int)wl_pick(w, 3, 6, 6, 5);
    size_t n = (size_t)rows * cols;
    struct roi q = {0, 0, rows < SR_ROI ? rows : SR_ROI, cols < SR_ROI ? cols : SR_ROI};
    int n_roi = q.rows * q.cols;
    int red_ctas = (n_roi + SR_RED_BLOCK - 1) / SR_RED_BLOCK;
    if (red_ctas > SR_RED_MAX_CTAS)
        red_ctas = SR_RED_MAX_CTAS;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    /* Background: gentle gradient plus discs of brighter or darker tissue. */
    float *img = wl_host_alloc(w, n * sizeof(float));
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            img[y * cols + x] = 1.0f + 0.5f * (float)x / (float)cols;
    for (int d = 0; d < 6; d++) {
        float cy = wl_rng_float(&r, 0.0f, (float)rows), cx = wl_rng_float(&r, 0.0f, (float)cols);
        float rad = wl_rng_float(&r, 0.05f, 0.25f) * (float)(rows < cols ? rows : cols);
        float gain = wl_rng_float(&r, 0.4f, 2.0f);
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++)
                if (((float)y - cy) * ((float)y - cy) + ((float)x - cx) * ((float)x - cx) < rad * rad)
                    img[y * cols + x] *= gain;
    }
    for (size_t i = 0; i < n; i++)
        img[i] *= wl_rng_float(&r, 0.6f, 1.4f);

    uint64_t d_J = wl_alloc_copy(w, img, n * sizeof(float));
    uint64_t d_dN = wl_alloc(w, n * sizeof(float)), d_dS = wl_alloc(w, n * sizeof(float));
    uint64_t d_dW = wl_alloc(w, n * sizeof(float)), d_dE = wl_alloc(w, n * sizeof(float));
    uint64_t d_c = wl_alloc(w, n * sizeof(float));
    uint64_t d_partial = wl_alloc(w, 2 * (size_t)red_ctas * sizeof(float));
    gs_function *k_sums = wl_kernel(w, "srad_roi_sums");
    gs_function *k_coef = wl_kernel(w, "srad_coef");
    gs_function *k_update = wl_kernel(w, "srad_update");
    unsigned gx = (unsigned)(cols / SR_TILE), gy = (unsigned)(rows / SR_TILE);
    float lambda = SR_LAMBDA, partial[2 * SR_RED_MAX_CTAS], q0sqr = 0.0f;
    void *p_sums[] = {&d_J, &cols, &q.r0, &q.c0, &q.rows, &q.cols, &d_partial};
    void *p_coef[] = {&d_J, &d_dN, &d_dS, &d_dW, &d_dE, &d_c, &rows, &cols, &q0sqr};
    void *p_update[] = {&d_J, &d_dN, &d_dS, &d_dW, &d_dE, &d_c, &rows, &cols, &lambda};
    for (int it = 0; it < iters && wl_ok(w); it++) {
        wl_launch(w, k_sums, (unsigned)red_ctas, 1, 1, SR_RED_BLOCK, 1, 1, 0, p_sums);
        wl_dtoh(w, partial, d_partial, 2 * (size_t)red_ctas * sizeof(float));
        q0sqr = q0sqr_from(partial, red_ctas, n_roi);
        wl_launch(w, k_coef, gx, gy, 1, SR_TILE, SR_TILE, 1, 0, p_coef);
        wl_launch(w, k_update, gx, gy, 1, SR_TILE, SR_TILE, 1, 0, p_update);
    }
    float *J = wl_host_alloc(w, n * sizeof(float)), *c = wl_host_alloc(w, n * sizeof(float));
    wl_dtoh(w, J, d_J, n * sizeof(float));
    wl_dtoh(w, c, d_c, n * sizeof(float));

    if (wl_ok(w)) {
        float *dN = wl_host_alloc(w, n * sizeof(float)), *dS = wl_host_alloc(w, n * sizeof(float));
        float *dW = wl_host_alloc(w, n * sizeof(float)), *dE = wl_host_alloc(w, n * sizeof(float));
        float *c_want = wl_host_alloc(w, n * sizeof(float));
        float q0 = 0.0f;
        for (int it = 0; it < iters; it++) {
            roi_sums_cpu(img, cols, q, red_ctas, partial);
            q0 = q0sqr_from(partial, red_ctas, n_roi);
            srad_step_cpu(img, dN, dS, dW, dE, c_want, rows, cols, q0); /* img becomes the reference */
        }
        double maxrel = 0.0;
        for (size_t i = 0; i < n; i++)
            maxrel = fmax(maxrel, fabs((double)J[i] - (double)img[i]) / fabs((double)img[i]));
        wl_note(w, "%dx%d image, %d iterations, ROI %dx%d; last q0^2 = %.5f; max rel |device - CPU| = %.3g", rows,
                cols, iters, q.rows, q.cols, (double)q0, maxrel);
        wl_check_f32(w, "J", J, img, n, 1e-5, 1e-6);
        wl_check_f32(w, "c", c, c_want, n, 1e-5, 1e-6);
        free(dN);
        free(dS);
        free(dW);
        free(dE);
        free(c_want);
    }
    wl_free(w, d_J);
    wl_free(w, d_dN);
    wl_free(w, d_dS);
    wl_free(w, d_dW);
    wl_free(w, d_dE);
    wl_free(w, d_c);
    wl_free(w, d_partial);
    free(img);
    free(J);
    free(c);
    return wl_finish(w);
}

WL_REGISTER(srad) = {
    .name = "srad",
    .summary = "speckle-reducing anisotropic diffusion of an image (ROI reduction + 2 stencil kernels)",
    .mirrors = "Rodinia srad (v2)",
    .stresses = "shared-memory stencils with halos, IEEE divisions, many streamed arrays, tree reduction",
    .flags = WL_MEM_SENS,
    .sizes = {"64x96 pixels, 3 iterations", "512x512, 6 iterations", "2048x1024, 6 iterations",
              "4096x4096, 5 iterations"},
    .run = run,
};
