/* workloads/spmv/host.c: driver for spmv (y = A x, A in CSR).
 *
 * Inputs: a square n x n matrix with irregular rows: 3% empty, 85% with 1 to
 * 2*AVG-1 nonzeros, 12% heavy rows with 4*AVG to 16*AVG-1 nonzeros; column
 * indices uniform, sorted and unique within a row; values and x uniform in
 * [-1, 1). spmv_scalar runs with 256-thread CTAs (one thread per row),
 * spmv_vector with 256-thread CTAs (8 rows per CTA, one warp per row).
 *
 * Checks:
 *   - scalar: exact. The reference walks each row in the same order with
 *     fmaf, which is what the kernel's contracted `sum += val * x` does, so
 *     every rounding step is the same;
 *   - vector: against a double-precision reference, per row within the
 *     summation error bound gamma_m * sum_j |val_j x_col_j| with
 *     m = ceil(len/32) + 6 (each lane adds at most ceil(len/32) terms, then a
 *     5-level shuffle tree, plus one of margin; gamma_m = m u / (1 - m u),
 *     u = 2^-24), plus a 1e-30 floor. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define AVG 16
#define THREADS 256

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Build the CSR matrix; returns the nonzero count. *col and *val are
 * allocated here. */
static int build_csr(struct wl *w, struct wl_rng *r, int n, int *row_ptr, int **col_out, float **val_out)
{
    int cap = n * 2 * AVG, nnz = 0;
    int *col = wl_host_alloc(w, (size_t)cap * sizeof(int));
    row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        uint32_t kind = wl_rng_below(r, 100);
        int len = kind < 3 ? 0 : kind < 88 ? 1 + (int)wl_rng_below(r, 2 * AVG - 1)
                                           : 4 * AVG + (int)wl_rng_below(r, 12 * AVG);
        if (len > n)
            len = n;
        if (nnz + len > cap) {
            cap = 2 * cap + len;
            col = realloc(col, (size_t)cap * sizeof(int));
            if (!col) {
                wl_fail(w, WL_SIM_ERROR, "out of host memory");
                exit(1);
            }
        }
        int *c = col + nnz;
        for (int j = 0; j < len; j++)
            c[j] = (int)wl_rng_below(r, (uint32_t)n);
        qsort(c, (size_t)len, sizeof(int), cmp_int);
        int u = 0; /* drop duplicates */
        for (int j = 0; j < len; j++)
            if (u == 0 || c[j] != c[u - 1])
                c[u++] = c[j];
        nnz += u;
        row_ptr[i + 1] = nnz;
    }
    float *val = wl_host_alloc(w, (size_t)(nnz ? nnz : 1) * sizeof(float));
    for (int j = 0; j < nnz; j++)
        val[j] = wl_rng_float(r, -1.0f, 1.0f);
    *col_out = col;
    *val_out = val;
    return nnz;
}

/* Vector-kernel result against a double reference with the per-row bound
 * described above; print the first 10 violations. */
static void check_vector(struct wl *w, const int *row_ptr, const int *col, const float *val, const float *x,
                         const float *got, int n)
{
    const double u = ldexp(1.0, -24);
    size_t bad = 0;
    for (int i = 0; i < n; i++) {
        double sum = 0.0, mag = 0.0;
        for (int j = row_ptr[i]; j < row_ptr[i + 1]; j++) {
            double p = (double)val[j] * x[col[j]];
            sum += p;
            mag += fabs(p);
        }
        int m = (row_ptr[i + 1] - row_ptr[i] + 31) / 32 + 6;
        double tol = m * u / (1.0 - m * u) * mag + 1e-30;
        if (!(fabs(got[i] - sum) <= tol) && bad++ < 10)
            fprintf(stderr, "spmv: mismatch in y_vector[%d]: got %.9g, expected %.9g (tolerance %.3g)\n", i,
                    (double)got[i], sum, tol);
    }
    wl_check(w, bad == 0, "y_vector: %zu of %d rows outside the summation error bound", bad, n);
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 100000, 1000000, 4000000);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    int *row_ptr = wl_host_alloc(w, ((size_t)n + 1) * sizeof(int));
    int *col;
    float *val;
    int nnz = build_csr(w, &r, n, row_ptr, &col, &val);
    float *x = wl_host_alloc(w, (size_t)n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = wl_rng_float(&r, -1.0f, 1.0f);
    float *ref = wl_host_alloc(w, (size_t)n * sizeof(float));
    float *y = wl_host_alloc(w, (size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int j = row_ptr[i]; j < row_ptr[i + 1]; j++)
            sum = fmaf(val[j], x[col[j]], sum);
        ref[i] = sum;
    }
    wl_note(w, "%d rows, %d nonzeros", n, nnz);

    uint64_t drp = wl_alloc_copy(w, row_ptr, ((size_t)n + 1) * sizeof(int));
    uint64_t dcol = wl_alloc_copy(w, col, (size_t)(nnz ? nnz : 1) * sizeof(int));
    uint64_t dval = wl_alloc_copy(w, val, (size_t)(nnz ? nnz : 1) * sizeof(float));
    uint64_t dx = wl_alloc_copy(w, x, (size_t)n * sizeof(float));
    uint64_t dy = wl_alloc(w, (size_t)n * sizeof(float));
    void *params[] = {&drp, &dcol, &dval, &dx, &dy, &n};

    gs_function *fs = wl_kernel(w, "spmv_scalar");
    wl_launch(w, fs, (unsigned)((n + THREADS - 1) / THREADS), 1, 1, THREADS, 1, 1, 0, params);
    wl_dtoh(w, y, dy, (size_t)n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "y_scalar", y, ref, (size_t)n, 0.0, 0.0);

    gs_function *fv = wl_kernel(w, "spmv_vector");
    wl_memset(w, dy, 0xff, (size_t)n * sizeof(float)); /* NaN: unwritten rows fail */
    wl_launch(w, fv, (unsigned)((n + THREADS / 32 - 1) / (THREADS / 32)), 1, 1, THREADS, 1, 1, 0, params);
    wl_dtoh(w, y, dy, (size_t)n * sizeof(float));
    if (wl_ok(w))
        check_vector(w, row_ptr, col, val, x, y, n);

    free(row_ptr);
    free(col);
    free(val);
    free(x);
    free(ref);
    free(y);
    return wl_finish(w);
}

WL_REGISTER(spmv) = {
    .name = "spmv",
    .summary = "CSR sparse matrix-vector product, scalar (thread/row) and vector (warp/row) kernels",
    .mirrors = "Parboil spmv",
    .stresses = "irregular, memory-bound gathers, divergence on varied row lengths",
    .flags = WL_REG_HEAVY | WL_CACHE_SENS,
    .sizes = {"1000 rows, ~33 nonzeros per row on average", "100K rows", "1M rows", "4M rows"},
    .run = run,
};
