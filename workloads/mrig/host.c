/* workloads/mrig/host.c: driver for mrig (Parboil mri-gridding).
 *
 * Input from --seed: N k-space samples in an n x n x n grid (coordinates in
 * grid units, [0, n) per axis; the k-space centre at n/2) with variable
 * density, as non-Cartesian trajectories sample the centre more densely:
 * three quarters are uniform over the grid, one quarter lies at a uniform
 * direction and radius R sqrt(u) from the centre (density falling as 1/r,
 * R just under n/2). Values re, im uniform in [-1, 1), density-compensation
 * weights d uniform in [0.25, 1). Window: Kaiser-Bessel, width W = 4 cells,
 * oversampling factor 2, beta = pi sqrt(W^2 / 4 (2 - 0.5)^2 - 0.8) (the
 * Beatty et al. choice Parboil uses), evaluated as a degree-14 polynomial in
 * u = 1 - r^2 / 4 whose float coefficients go to the kernel's __constant__
 * c_kb (address from wl_global).
 * The host bins the samples by grid cell (a stable counting sort; the run
 * starts are cell_start) and launches mrig_gather once, one thread per grid
 * point.
 *
 * Checks:
 * 1. Exact (tolerance 0) against a host gather that repeats the kernel's
 *    float operations in the same order (cells z, y, then the x row; samples
 *    in sorted order; explicit fused multiply-adds, no contraction). Every
 *    operation is a correctly rounded IEEE add, multiply or fused
 *    multiply-add (no approximate SFU operation), so a conforming device
 *    gives the same bits.
 * 2. Bounded, against an independent double-precision scatter over the
 *    unsorted samples (each sample adds to the 4 x 4 x 4 points around it;
 *    the window series summed to convergence; no binning), which checks the
 *    binning and the cell walk that check 1 shares with the kernel. The
 *    cutoff test uses the kernel's float r^2, so both include the same
 *    samples. Error of the float result at a point with n_p samples in its
 *    window: the float coefficients (2^-24 relative each, all positive),
 *    Horner's 14 roundings, the rounding of u (at most 14 x 2^-24 after the
 *    degree-14 polynomial), the series truncation (below 2^-24 relative for
 *    beta ~ 9) and the weight product add up to under 32 x 2^-24 of each
 *    weight; the n_p accumulating roundings add at most n_p x 2^-24 x
 *    sum |term|. With |re|, |im| < 1 both sums are bounded by D(p) = sum w.
 *    Tolerance: (n_p + 32) x 2^-23 x D(p) per point and component (that
 *    bound with a factor 2 margin). A sample left out or counted twice
 *    moves a point by its weight, at least d * I0(0) = d >= 0.25. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define CUTOFF 2 /* as in kernel.cu */
#define KB_TERMS 15
#define BLOCK_X 16
#define BLOCK_Y 8
#define BLOCK_Z 2
#define OVERSAMPLE 2.0

/* Kaiser-Bessel series coefficients a_k = (beta^2 / 4)^k / (k!)^2 in double
 * (n of them). */
static void kb_coeffs(double *a, int n)
{
    double w = 2.0 * CUTOFF;
    double x = w / OVERSAMPLE * (OVERSAMPLE - 0.5);
    double beta = M_PI * sqrt(x * x - 0.8);
    double q = beta * beta / 4.0;
    a[0] = 1.0;
    for (int k = 1; k < n; k++)
        a[k] = a[k - 1] * q / ((double)k * (double)k);
}

/* A coordinate uniform in [0, n) (redrawn when float rounding gives n). */
static float coord_uniform(struct wl_rng *r, int n)
{
    float c;
    do
        c = wl_rng_float(r, 0.0f, (float)n);
    while (c >= (float)n);
    return c;
}

/* The kernel's float window weight for squared distance r2 < C^2 and
 * density weight d, in its operation order. */
static float kb_weight_f(const float *kb, float r2, float d)
{
    const float inv_cutoff2 = 1.0f / (float)(CUTOFF * CUTOFF);
    float u = fmaf(-r2, inv_cutoff2, 1.0f);
    float p = kb[KB_TERMS - 1];
    for (int k = KB_TERMS - 2; k >= 0; k--)
        p = fmaf(p, u, kb[k]);
    return p * d;
}

/* The kernel's float squared distance from grid point (x, y, z) to s. */
static float dist2_f(const float *s, int x, int y, int z)
{
    float dx = s[0] - (float)x, dy = s[1] - (float)y, dz = s[2] - (float)z;
    return fmaf(dz, dz, fmaf(dy, dy, dx * dx));
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 16, 48, 80, 160);
    int nsamples = (int)wl_pick(w, 3000, 100000, 500000, 3600000);
    size_t ncells = (size_t)n * n * n;
    const float cutoff2 = (float)(CUTOFF * CUTOFF);

    double a[64];
    kb_coeffs(a, 64);
    float kb[KB_TERMS];
    for (int k = 0; k < KB_TERMS; k++)
        kb[k] = (float)a[k];

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *pos = wl_host_alloc(w, (size_t)nsamples * 4 * sizeof(float));    /* generation order */
    float *val = wl_host_alloc(w, (size_t)nsamples * 2 * sizeof(float));
    float *spos = wl_host_alloc(w, (size_t)nsamples * 4 * sizeof(float));   /* cell order */
    float *sval = wl_host_alloc(w, (size_t)nsamples * 2 * sizeof(float));
    int *cell = wl_host_alloc(w, (size_t)nsamples * sizeof(int));
    int *cell_start = wl_host_alloc(w, (ncells + 1) * sizeof(int));
    float *got = wl_host_alloc(w, 3 * ncells * sizeof(float)); /* re, im, den */
    float *ref = wl_host_alloc(w, 3 * ncells * sizeof(float));
    double *dref = wl_host_alloc(w, 3 * ncells * sizeof(double));
    int *count = wl_host_alloc(w, ncells * sizeof(int));
    if (!wl_ok(w))
        goto out;

    /* Samples. */
    const float centre = 0.5f * (float)n;
    const double radius = 0.5 * n - 0.01;
    for (int j = 0; j < nsamples; j++) {
        float *s = pos + 4 * (size_t)j;
        if (wl_rng_below(&r, 4) != 0) {
            s[0] = coord_uniform(&r, n);
            s[1] = coord_uniform(&r, n);
            s[2] = coord_uniform(&r, n);
        } else {
            double v[3], len2;
            do {
                for (int d = 0; d < 3; d++)
                    v[d] = wl_rng_double(&r, -1.0, 1.0);
                len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            } while (len2 > 1.0 || len2 < 1e-6);
            double rad = radius * sqrt(wl_rng_double(&r, 0.0, 1.0)) / sqrt(len2);
            for (int d = 0; d < 3; d++)
                s[d] = (float)(centre + rad * v[d]);
        }
        s[3] = wl_rng_float(&r, 0.25f, 1.0f);
        val[2 * j] = wl_rng_float(&r, -1.0f, 1.0f);
        val[2 * j + 1] = wl_rng_float(&r, -1.0f, 1.0f);
    }

    /* Binning: stable counting sort by cell (x fastest). */
    for (int j = 0; j < nsamples; j++) {
        const float *s = pos + 4 * (size_t)j;
        int cx = (int)s[0], cy = (int)s[1], cz = (int)s[2];
        if (cx < 0 || cx >= n || cy < 0 || cy >= n || cz < 0 || cz >= n) {
            wl_fail(w, WL_INPUT_ERROR, "sample %d at (%g, %g, %g) lies outside the grid", j, s[0], s[1], s[2]);
            goto out;
        }
        cell[j] = (cz * n + cy) * n + cx;
        cell_start[cell[j] + 1]++;
    }
    for (size_t c = 0; c < ncells; c++)
        cell_start[c + 1] += cell_start[c];
    {
        int *fill = (int *)count; /* scratch: next slot per cell */
        for (int j = 0; j < nsamples; j++) {
            size_t t = (size_t)cell_start[cell[j]] + (size_t)fill[cell[j]]++;
            for (int d = 0; d < 4; d++)
                spos[4 * t + (size_t)d] = pos[4 * (size_t)j + (size_t)d];
            sval[2 * t] = val[2 * (size_t)j];
            sval[2 * t + 1] = val[2 * (size_t)j + 1];
        }
        for (size_t c = 0; c < ncells; c++)
            count[c] = 0;
    }

    /* Device. */
    uint64_t d_pos = wl_alloc_copy(w, spos, (size_t)nsamples * 4 * sizeof(float));
    uint64_t d_val = wl_alloc_copy(w, sval, (size_t)nsamples * 2 * sizeof(float));
    uint64_t d_start = wl_alloc_copy(w, cell_start, (ncells + 1) * sizeof(int));
    uint64_t d_re = wl_alloc(w, ncells * sizeof(float));
    uint64_t d_im = wl_alloc(w, ncells * sizeof(float));
    uint64_t d_den = wl_alloc(w, ncells * sizeof(float));
    gs_function *k = wl_kernel(w, "mrig_gather");
    size_t c_bytes = 0;
    uint64_t c_kb = wl_global(w, "c_kb", &c_bytes);
    if (wl_ok(w) && c_bytes != sizeof kb)
        wl_fail(w, WL_INPUT_ERROR, "c_kb holds %zu bytes, the window needs %zu", c_bytes, sizeof kb);
    wl_htod(w, c_kb, kb, sizeof kb);
    void *params[] = {&d_pos, &d_val, &d_start, &n, &n, &n, &d_re, &d_im, &d_den};
    wl_launch(w, k, (unsigned)(n + BLOCK_X - 1) / BLOCK_X, (unsigned)(n + BLOCK_Y - 1) / BLOCK_Y,
              (unsigned)(n + BLOCK_Z - 1) / BLOCK_Z, BLOCK_X, BLOCK_Y, BLOCK_Z, 0, params);
    wl_dtoh(w, got, d_re, ncells * sizeof(float));
    wl_dtoh(w, got + ncells, d_im, ncells * sizeof(float));
    wl_dtoh(w, got + 2 * ncells, d_den, ncells * sizeof(float));
    if (!wl_ok(w))
        goto out;

    /* Reference 1: the kernel's gather, in its operation order. */
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int x0 = x - CUTOFF > 0 ? x - CUTOFF : 0, x1 = x + CUTOFF - 1 < n - 1 ? x + CUTOFF - 1 : n - 1;
                int y0 = y - CUTOFF > 0 ? y - CUTOFF : 0, y1 = y + CUTOFF - 1 < n - 1 ? y + CUTOFF - 1 : n - 1;
                int z0 = z - CUTOFF > 0 ? z - CUTOFF : 0, z1 = z + CUTOFF - 1 < n - 1 ? z + CUTOFF - 1 : n - 1;
                float re = 0.0f, im = 0.0f, den = 0.0f;
                for (int cz = z0; cz <= z1; cz++)
                    for (int cy = y0; cy <= y1; cy++) {
                        int row = (cz * n + cy) * n;
                        for (int j = cell_start[row + x0]; j < cell_start[row + x1 + 1]; j++) {
                            const float *s = spos + 4 * (size_t)j;
                            float r2 = dist2_f(s, x, y, z);
                            if (r2 < cutoff2) {
                                float wgt = kb_weight_f(kb, r2, s[3]);
                                re = fmaf(wgt, sval[2 * (size_t)j], re);
                                im = fmaf(wgt, sval[2 * (size_t)j + 1], im);
                                den = den + wgt;
                            }
                        }
                    }
                size_t g = ((size_t)z * n + y) * n + x;
                ref[g] = re;
                ref[ncells + g] = im;
                ref[2 * ncells + g] = den;
            }
    wl_check_f32(w, "re", got, ref, ncells, 0.0, 0.0);
    wl_check_f32(w, "im", got + ncells, ref + ncells, ncells, 0.0, 0.0);
    wl_check_f32(w, "den", got + 2 * ncells, ref + 2 * ncells, ncells, 0.0, 0.0);

    /* Reference 2: double-precision scatter over the unsorted samples. */
    for (int j = 0; j < nsamples; j++) {
        const float *s = pos + 4 * (size_t)j;
        int cx = (int)s[0], cy = (int)s[1], cz = (int)s[2];
        for (int z = cz - CUTOFF + 1; z <= cz + CUTOFF; z++)
            for (int y = cy - CUTOFF + 1; y <= cy + CUTOFF; y++)
                for (int x = cx - CUTOFF + 1; x <= cx + CUTOFF; x++) {
                    if (x < 0 || x >= n || y < 0 || y >= n || z < 0 || z >= n)
                        continue;
                    float r2 = dist2_f(s, x, y, z);
                    if (!(r2 < cutoff2))
                        continue;
                    double u = 1.0 - (double)r2 / (double)cutoff2, p = 0.0;
                    for (int t = 63; t >= 0; t--)
                        p = p * u + a[t];
                    double wgt = p * (double)s[3];
                    size_t g = ((size_t)z * n + y) * n + x;
                    dref[g] += wgt * (double)val[2 * (size_t)j];
                    dref[ncells + g] += wgt * (double)val[2 * (size_t)j + 1];
                    dref[2 * ncells + g] += wgt;
                    count[g]++;
                }
    }
    {
        static const char *const what[3] = {"re", "im", "den"};
        size_t bad = 0;
        for (size_t g = 0; g < ncells; g++) {
            double tol = ldexp((double)(count[g] + 32) * dref[2 * ncells + g], -23);
            for (int c = 0; c < 3; c++) {
                double e = dref[(size_t)c * ncells + g];
                float v = got[(size_t)c * ncells + g];
                if (fabs((double)v - e) <= tol)
                    continue;
                if (bad++ < 10)
                    fprintf(stderr, "mrig: %s[%zu] = %.9g, double scatter reference %.9g, bound %.3g\n", what[c], g,
                            (double)v, e, tol);
            }
        }
        wl_check(w, bad == 0, "%zu grid values differ from the double-precision scatter reference by more than "
                 "their bound", bad);
    }
out:
    free(pos);
    free(val);
    free(spos);
    free(sval);
    free(cell);
    free(cell_start);
    free(got);
    free(ref);
    free(dref);
    free(count);
    return wl_finish(w);
}

WL_REGISTER(mrig) = {
    .name = "mrig",
    .summary = "MRI gridding: Kaiser-Bessel convolution of non-uniform k-space samples onto a 3-D grid (gather "
               "over cell-sorted samples)",
    .mirrors = "Parboil mri-gridding",
    .stresses = "data-dependent loop trip counts (variable sample density), divergent cutoff test, FMA-heavy "
                "polynomial window, constant memory, L1 reuse of shared sample runs",
    .sizes = {"16x16x16 grid, 3000 samples", "48x48x48 grid, 100K samples", "80x80x80 grid, 500K samples",
              "160x160x160 grid, 3.6M samples"},
    .run = run,
    .flags = WL_CACHE_SENS,
};
