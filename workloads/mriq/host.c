/* workloads/mriq/host.c: driver for mriq (Parboil mri-q).
 *
 * Input from --seed: K k-space samples (kx, ky, kz uniform in [-16, 16)
 * cycles per field of view, a random non-Cartesian trajectory) with phase
 * data phiR, phiI uniform in [-1, 1); the voxels are the points of an
 * nx x ny x nz grid spanning [-0.5, 0.5) of the field of view.
 * Launches, as in the original: mriq_phimag over the samples; the host
 * copies phiMag back and packs (kx, ky, kz, phiMag) records; then, per chunk
 * of KCHUNK samples, the chunk is copied into the kernel's __constant__
 * buffer c_kvals (its address from wl_global) and mriq_computeq adds that
 * chunk's terms to Qr/Qi (256 threads per block, one voxel per thread).
 *
 * Check: phiMag exactly (same fused multiply-add on both sides). Q: the
 * host repeats the kernel's float operations in the same order, except that
 * the device's sin.approx/cos.approx may differ from the host's sinf/cosf
 * by a few ulp (more on real SFUs). A difference of d in one term's sine or
 * cosine moves the sum by phiMag[k] * d, so with |d| <= 2^-20 (8 ulp of 1)
 * the worst case over all terms is 2^-20 * sum_k phiMag[k]; the roundings
 * of the accumulations that follow such a difference are of the same
 * order. Tolerance: abs 2^-19 * sum_k phiMag[k] (that bound with a factor 2
 * margin), rel 0. A wrong term is off by O(phiMag), far above it. */
#include <math.h>
#include <stdlib.h>

#include "wl.h"

#define KCHUNK 1024 /* samples per launch, as in kernel.cu */
#define THREADS 256
#define PI2 6.2831853071795864769f

struct kvalue {
    float kx, ky, kz, phimag;
};

static int run(struct wl *w)
{
    int nx = (int)wl_pick(w, 10, 32, 32, 64);
    int ny = (int)wl_pick(w, 10, 32, 64, 64);
    int nz = (int)wl_pick(w, 10, 12, 32, 64);
    int numK = (int)wl_pick(w, 1500, 1280, 2560, 6144);
    int numX = nx * ny * nz;

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *kx = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *ky = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *kz = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *phiR = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *phiI = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *phimag = wl_host_alloc(w, (size_t)numK * sizeof(float));
    float *ref_phimag = wl_host_alloc(w, (size_t)numK * sizeof(float));
    struct kvalue *kv = wl_host_alloc(w, (size_t)numK * sizeof(struct kvalue));
    float *x = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *y = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *z = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *Qr = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *Qi = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *ref_Qr = wl_host_alloc(w, (size_t)numX * sizeof(float));
    float *ref_Qi = wl_host_alloc(w, (size_t)numX * sizeof(float));
    if (!wl_ok(w))
        goto out;
    for (int k = 0; k < numK; k++) {
        kx[k] = wl_rng_float(&r, -16.0f, 16.0f);
        ky[k] = wl_rng_float(&r, -16.0f, 16.0f);
        kz[k] = wl_rng_float(&r, -16.0f, 16.0f);
        phiR[k] = wl_rng_float(&r, -1.0f, 1.0f);
        phiI[k] = wl_rng_float(&r, -1.0f, 1.0f);
    }
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int v = (k * ny + j) * nx + i;
                x[v] = (float)(i - nx / 2) / (float)nx;
                y[v] = (float)(j - ny / 2) / (float)ny;
                z[v] = (float)(k - nz / 2) / (float)nz;
            }

    /* Device: phiMag, then Q chunk by chunk. */
    uint64_t d_phiR = wl_alloc_copy(w, phiR, (size_t)numK * sizeof(float));
    uint64_t d_phiI = wl_alloc_copy(w, phiI, (size_t)numK * sizeof(float));
    uint64_t d_phimag = wl_alloc(w, (size_t)numK * sizeof(float));
    uint64_t d_x = wl_alloc_copy(w, x, (size_t)numX * sizeof(float));
    uint64_t d_y = wl_alloc_copy(w, y, (size_t)numX * sizeof(float));
    uint64_t d_z = wl_alloc_copy(w, z, (size_t)numX * sizeof(float));
    uint64_t d_Qr = wl_alloc(w, (size_t)numX * sizeof(float)); /* zero-filled */
    uint64_t d_Qi = wl_alloc(w, (size_t)numX * sizeof(float));
    gs_function *kphi = wl_kernel(w, "mriq_phimag");
    gs_function *kq = wl_kernel(w, "mriq_computeq");

    /* The __constant__ sample buffer; every chunk (at most KCHUNK records)
     * is copied into it. */
    size_t c_bytes = 0;
    uint64_t c_kvals = wl_global(w, "c_kvals", &c_bytes);
    if (wl_ok(w) && c_bytes < (size_t)KCHUNK * sizeof(struct kvalue))
        wl_fail(w, WL_INPUT_ERROR, "c_kvals holds %zu bytes, a chunk needs %zu", c_bytes,
                (size_t)KCHUNK * sizeof(struct kvalue));

    void *pp[] = {&d_phiR, &d_phiI, &d_phimag, &numK};
    wl_launch(w, kphi, (unsigned)(numK + THREADS - 1) / THREADS, 1, 1, THREADS, 1, 1, 0, pp);
    wl_dtoh(w, phimag, d_phimag, (size_t)numK * sizeof(float));
    for (int k = 0; k < numK; k++)
        kv[k] = (struct kvalue){kx[k], ky[k], kz[k], phimag[k]};

    unsigned blocks = (unsigned)(numX + THREADS - 1) / THREADS;
    for (int k0 = 0; k0 < numK && wl_ok(w); k0 += KCHUNK) {
        int chunk = numK - k0 < KCHUNK ? numK - k0 : KCHUNK;
        wl_htod(w, c_kvals, kv + k0, (size_t)chunk * sizeof(struct kvalue));
        void *pq[] = {&chunk, &d_x, &d_y, &d_z, &d_Qr, &d_Qi, &numX};
        wl_launch(w, kq, blocks, 1, 1, THREADS, 1, 1, 0, pq);
    }
    wl_dtoh(w, Qr, d_Qr, (size_t)numX * sizeof(float));
    wl_dtoh(w, Qi, d_Qi, (size_t)numX * sizeof(float));
    if (!wl_ok(w))
        goto out;

    /* Reference, in the kernel's operation order. */
    double sum_phimag = 0.0;
    for (int k = 0; k < numK; k++) {
        ref_phimag[k] = fmaf(phiR[k], phiR[k], phiI[k] * phiI[k]);
        sum_phimag += ref_phimag[k];
    }
    for (int v = 0; v < numX; v++) {
        float qr = 0.0f, qi = 0.0f;
        for (int k = 0; k < numK; k++) {
            float arg = PI2 * fmaf(kz[k], z[v], fmaf(ky[k], y[v], kx[k] * x[v]));
            qr = fmaf(ref_phimag[k], cosf(arg), qr);
            qi = fmaf(ref_phimag[k], sinf(arg), qi);
        }
        ref_Qr[v] = qr;
        ref_Qi[v] = qi;
    }
    double tol = ldexp(sum_phimag, -19);
    wl_check_f32(w, "phiMag", phimag, ref_phimag, (size_t)numK, 0.0, 0.0);
    wl_check_f32(w, "Qr", Qr, ref_Qr, (size_t)numX, 0.0, tol);
    wl_check_f32(w, "Qi", Qi, ref_Qi, (size_t)numX, 0.0, tol);
out:
    free(kx);
    free(ky);
    free(kz);
    free(phiR);
    free(phiI);
    free(phimag);
    free(ref_phimag);
    free(kv);
    free(x);
    free(y);
    free(z);
    free(Qr);
    free(Qi);
    free(ref_Qr);
    free(ref_Qi);
    return wl_finish(w);
}

WL_REGISTER(mriq) = {
    .name = "mriq",
    .summary = "MRI reconstruction Q matrix: per voxel, sum over k-space samples of phiMag * (cos, sin)(2 pi k.x)",
    .mirrors = "Parboil mri-q",
    .stresses = "compute-bound, SFU (sin/cos), constant-memory broadcast, multiple launches",
    .sizes = {"1000 voxels, 1500 samples", "12K voxels, 1280 samples", "64K voxels, 2560 samples",
              "256K voxels, 6144 samples"},
    .run = run,
};
