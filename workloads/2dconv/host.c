/* workloads/2dconv/host.c: driver for 2dconv (3x3 convolution, Polybench
 * 2DCONV).
 *
 * Input: an ni x nj fp32 image, uniform in [0, 1) from --seed. One launch of
 * 32x8 CTAs covers the image (the last row and column of CTAs are partial
 * unless the dimensions are multiples of the block). Check: exact, because
 * the kernel and the reference below evaluate the same fp32 product and
 * eight fused multiply-adds in the same order, each correctly rounded; the
 * untouched border must stay 0. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

/* Coefficients, as in kernel.cu. */
static const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
static const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
static const float c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;

static void conv_ref(const float *a, float *b, int ni, int nj)
{
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++) {
            const float *up = a + (size_t)(i - 1) * nj, *mid = up + nj, *dn = mid + nj;
            float s = c11 * up[j - 1];
            s = fmaf(c12, mid[j - 1], s);
            s = fmaf(c13, dn[j - 1], s);
            s = fmaf(c21, up[j], s);
            s = fmaf(c22, mid[j], s);
            s = fmaf(c23, dn[j], s);
            s = fmaf(c31, up[j + 1], s);
            s = fmaf(c32, mid[j + 1], s);
            s = fmaf(c33, dn[j + 1], s);
            b[(size_t)i * nj + j] = s;
        }
}

static int run(struct wl *w)
{
    int ni = (int)wl_pick(w, 37, 2048, 6144, 12288);  /* rows */
    int nj = (int)wl_pick(w, 70, 2048, 6144, 12288);  /* columns */
    size_t n = (size_t)ni * nj, bytes = n * sizeof(float);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, bytes);
    float *b = wl_host_alloc(w, bytes);
    float *ref = wl_host_alloc(w, bytes);
    for (size_t k = 0; k < n; k++)
        a[k] = wl_rng_float(&r, 0.0f, 1.0f);
    conv_ref(a, ref, ni, nj);

    uint64_t da = wl_alloc_copy(w, a, bytes);
    uint64_t db = wl_alloc(w, bytes);
    gs_function *k = wl_kernel(w, "conv2d");
    unsigned bx = 32, by = 8;
    void *params[] = {&da, &db, &ni, &nj};
    wl_launch(w, k, (unsigned)(nj + bx - 1) / bx, (unsigned)(ni + by - 1) / by, 1, bx, by, 1, 0, params);
    wl_dtoh(w, b, db, bytes);
    if (wl_ok(w))
        wl_check_f32(w, "b", b, ref, n, 0.0, 0.0);
    free(a);
    free(b);
    free(ref);
    return wl_finish(w);
}

WL_REGISTER(_2dconv) = {
    .name = "2dconv",
    .summary = "3x3 convolution of a 2-D fp32 image with fixed coefficients",
    .mirrors = "Polybench/GPU 2DCONV",
    .stresses = "memory-bound stencil, 2-D blocks, overlapping reads",
    .sizes = {"37x70 image", "2048x2048 image", "6144x6144 image", "12288x12288 image"},
    .run = run,
};
