/* workloads/barneshut/host.c: driver for barneshut (2-D Barnes-Hut: device
 * quadtree summarisation by levels with a grid barrier, then the force
 * traversal over the other blocks' summaries, in one launch).
 *
 * Input from --seed: n bodies in the unit square, drawn around 5 cluster
 * centres (each coordinate = centre + spread * (sum of three uniforms -
 * 1.5), redrawn until inside [0, 1)), masses uniform in [0.5, 1.5). The
 * quadtree is built here, breadth first: a cell with more than LEAF_CAP
 * bodies is split into its non-empty quadrants, down to depth MAX_DEPTH;
 * the bodies are stored in tree order. Launch: 256-thread blocks, as many
 * as are resident (capped so that every thread has a body). theta = 0.5,
 * softening eps = 0.005.
 * Check: the accelerations against the same algorithm on the CPU (same
 * tree, same summation and traversal order, the same single-rounded float
 * operations as the kernel's intrinsics). On a host that does not contract
 * a*b+c into fma (x86-64 without -march flags) the results are identical;
 * the tolerance (relative 1e-3, absolute 1e-3 of the largest magnitude)
 * covers compilers that do contract: one rounding less can flip an opening
 * decision near the theta threshold, which moves that body's result by the
 * Barnes-Hut approximation error of one cell. The node masses are checked
 * exactly against the CPU summarisation (sums of masses in the same order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define BLOCK 256
#define LEAF_CAP 8
#define MAX_DEPTH 24 /* kernel.cu's stack holds 3 * depth + 1 entries */

struct tree {
    int n_nodes, n_levels;
    int32_t *child, *bfirst, *bcount, *level_start;
    float *width;
};

/* Breadth-first build; reorders the bodies (x, y, m) into tree order. */
static void build_tree(struct wl *w, struct tree *t, float *x, float *y, float *m, int n)
{
    size_t cap = (size_t)n * (MAX_DEPTH + 1) + 1; /* every node is on some body's root path */
    t->child = wl_host_alloc(w, cap * 4 * sizeof(int32_t));
    t->bfirst = wl_host_alloc(w, cap * sizeof(int32_t));
    t->bcount = wl_host_alloc(w, cap * sizeof(int32_t));
    t->width = wl_host_alloc(w, cap * sizeof(float));
    t->level_start = wl_host_alloc(w, (MAX_DEPTH + 2) * sizeof(int32_t));
    int32_t *lo = wl_host_alloc(w, cap * sizeof(int32_t)), *hi = wl_host_alloc(w, cap * sizeof(int32_t));
    int32_t *depth = wl_host_alloc(w, cap * sizeof(int32_t));
    float *x0 = wl_host_alloc(w, cap * sizeof(float)), *y0 = wl_host_alloc(w, cap * sizeof(float));
    float *tx = wl_host_alloc(w, (size_t)n * sizeof(float)), *ty = wl_host_alloc(w, (size_t)n * sizeof(float)),
          *tm = wl_host_alloc(w, (size_t)n * sizeof(float));
    uint8_t *quad = wl_host_alloc(w, (size_t)n);
    if (!wl_ok(w))
        goto out;
    int nn = 1;
    lo[0] = 0, hi[0] = n, depth[0] = 0, x0[0] = 0.0f, y0[0] = 0.0f, t->width[0] = 1.0f;
    for (int i = 0; i < nn; i++) {
        for (int q = 0; q < 4; q++)
            t->child[4 * i + q] = -1;
        int cnt = hi[i] - lo[i];
        if (cnt <= LEAF_CAP || depth[i] == MAX_DEPTH) {
            t->bfirst[i] = lo[i];
            t->bcount[i] = cnt;
            continue;
        }
        t->bfirst[i] = lo[i];
        t->bcount[i] = 0;
        float half = t->width[i] * 0.5f, xm = x0[i] + half, ym = y0[i] + half;
        int qn[4] = {0, 0, 0, 0};
        for (int b = lo[i]; b < hi[i]; b++) {
            quad[b] = (uint8_t)((x[b] >= xm) + 2 * (y[b] >= ym));
            qn[quad[b]]++;
        }
        int at[4], pos = lo[i];
        for (int q = 0; q < 4; q++) {
            at[q] = pos;
            pos += qn[q];
        }
        for (int b = lo[i]; b < hi[i]; b++) { /* stable partition by quadrant */
            int d = at[quad[b]]++;
            tx[d] = x[b], ty[d] = y[b], tm[d] = m[b];
        }
        memcpy(x + lo[i], tx + lo[i], (size_t)cnt * sizeof(float));
        memcpy(y + lo[i], ty + lo[i], (size_t)cnt * sizeof(float));
        memcpy(m + lo[i], tm + lo[i], (size_t)cnt * sizeof(float));
        pos = lo[i];
        for (int q = 0; q < 4; q++) {
            if (qn[q]) {
                int c = nn++;
                t->child[4 * i + q] = c;
                lo[c] = pos, hi[c] = pos + qn[q], depth[c] = depth[i] + 1, t->width[c] = half;
                x0[c] = (q & 1) ? xm : x0[i];
                y0[c] = (q & 2) ? ym : y0[i];
            }
            pos += qn[q];
        }
    }
    t->n_nodes = nn;
    t->n_levels = depth[nn - 1] + 1;
    for (int l = 0, i = 0; l <= t->n_levels; l++) {
        while (i < nn && depth[i] < l)
            i++;
        t->level_start[l] = i;
    }
out:
    free(lo);
    free(hi);
    free(depth);
    free(x0);
    free(y0);
    free(tx);
    free(ty);
    free(tm);
    free(quad);
}

/* kernel.cu's interact(), in the same single-rounded float steps. */
static void interact(float *ax, float *ay, float px, float py, float qx, float qy, float qm, float eps2)
{
    float dx = qx - px, dy = qy - py;
    float dxx = dx * dx, dyy = dy * dy;
    float r2 = dxx + dyy;
    r2 = r2 + eps2;
    float r3 = r2 * sqrtf(r2);
    float f = qm / r3;
    float fx = dx * f, fy = dy * f;
    *ax = *ax + fx;
    *ay = *ay + fy;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 400, 4096, 65536, 262144);
    float theta2 = 0.25f, eps2 = 0.005f * 0.005f;
    size_t fb = (size_t)n * sizeof(float);
    float *x = wl_host_alloc(w, fb), *y = wl_host_alloc(w, fb), *m = wl_host_alloc(w, fb);
    float *want_x = wl_host_alloc(w, fb), *want_y = wl_host_alloc(w, fb);
    float *got_x = wl_host_alloc(w, fb), *got_y = wl_host_alloc(w, fb);
    struct tree t = {0};
    float *nm = NULL, *ncx = NULL, *ncy = NULL, *got_nm = NULL;
    if (!wl_ok(w))
        goto out;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float cxs[5], cys[5], spread[5];
    for (int c = 0; c < 5; c++) {
        cxs[c] = wl_rng_float(&r, 0.15f, 0.85f);
        cys[c] = wl_rng_float(&r, 0.15f, 0.85f);
        spread[c] = wl_rng_float(&r, 0.03f, 0.2f);
    }
    for (int b = 0; b < n; b++) {
        int c = (int)wl_rng_below(&r, 5);
        float px, py;
        do {
            px = cxs[c] + spread[c] * (wl_rng_float(&r, 0, 1) + wl_rng_float(&r, 0, 1) + wl_rng_float(&r, 0, 1) - 1.5f);
            py = cys[c] + spread[c] * (wl_rng_float(&r, 0, 1) + wl_rng_float(&r, 0, 1) + wl_rng_float(&r, 0, 1) - 1.5f);
        } while (!(px >= 0.0f && px < 1.0f && py >= 0.0f && py < 1.0f));
        x[b] = px, y[b] = py, m[b] = wl_rng_float(&r, 0.5f, 1.5f);
    }
    build_tree(w, &t, x, y, m, n);
    if (!wl_ok(w))
        goto out;
    int nn = t.n_nodes;
    nm = wl_host_alloc(w, (size_t)nn * sizeof(float));
    ncx = wl_host_alloc(w, (size_t)nn * sizeof(float));
    ncy = wl_host_alloc(w, (size_t)nn * sizeof(float));
    got_nm = wl_host_alloc(w, (size_t)nn * sizeof(float));
    if (!wl_ok(w))
        goto out;
    /* CPU: summaries (deepest level first) and traversal, as kernel.cu. */
    for (int i = nn - 1; i >= 0; i--) {
        float s = 0.0f, sx = 0.0f, sy = 0.0f;
        if (t.bcount[i] > 0) {
            for (int j = t.bfirst[i]; j < t.bfirst[i] + t.bcount[i]; j++) {
                float px = m[j] * x[j], py = m[j] * y[j];
                s = s + m[j], sx = sx + px, sy = sy + py;
            }
        } else {
            for (int q = 0; q < 4; q++) {
                int c = t.child[4 * i + q];
                if (c < 0)
                    continue;
                float px = nm[c] * ncx[c], py = nm[c] * ncy[c];
                s = s + nm[c], sx = sx + px, sy = sy + py;
            }
        }
        nm[i] = s, ncx[i] = sx / s, ncy[i] = sy / s;
    }
    int stack[3 * MAX_DEPTH + 2];
    float amax = 0.0f;
    for (int b = 0; b < n; b++) {
        float ax = 0.0f, ay = 0.0f;
        int sp = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            int i = stack[--sp];
            if (t.bcount[i] > 0) {
                for (int j = t.bfirst[i]; j < t.bfirst[i] + t.bcount[i]; j++)
                    if (j != b)
                        interact(&ax, &ay, x[b], y[b], x[j], y[j], m[j], eps2);
                continue;
            }
            float dx = ncx[i] - x[b], dy = ncy[i] - y[b];
            float dxx = dx * dx, dyy = dy * dy;
            float d2 = dxx + dyy;
            float ww = t.width[i] * t.width[i], td = theta2 * d2;
            if (ww < td)
                interact(&ax, &ay, x[b], y[b], ncx[i], ncy[i], nm[i], eps2);
            else
                for (int q = 3; q >= 0; q--)
                    if (t.child[4 * i + q] >= 0)
                        stack[sp++] = t.child[4 * i + q];
        }
        want_x[b] = ax, want_y[b] = ay;
        amax = fmaxf(amax, fmaxf(fabsf(ax), fabsf(ay)));
    }

    gs_function *k = wl_kernel(w, "bh_forces");
    unsigned grid = wl_max_resident_ctas(w, k, BLOCK, 0);
    unsigned by_size = (unsigned)((n + BLOCK - 1) / BLOCK);
    if (grid > by_size)
        grid = by_size;
    size_t ib = (size_t)nn * sizeof(int32_t), nb = (size_t)nn * sizeof(float);
    uint64_t dchild = wl_alloc_copy(w, t.child, 4 * ib), dbfirst = wl_alloc_copy(w, t.bfirst, ib),
             dbcount = wl_alloc_copy(w, t.bcount, ib), dwidth = wl_alloc_copy(w, t.width, nb),
             dls = wl_alloc_copy(w, t.level_start, (size_t)(t.n_levels + 1) * sizeof(int32_t));
    uint64_t dx = wl_alloc_copy(w, x, fb), dy = wl_alloc_copy(w, y, fb), dm = wl_alloc_copy(w, m, fb);
    uint64_t dnm = wl_alloc(w, nb), dncx = wl_alloc(w, nb), dncy = wl_alloc(w, nb);
    uint64_t dax = wl_alloc(w, fb), day = wl_alloc(w, fb), darrive = wl_alloc(w, sizeof(uint32_t));
    if (wl_ok(w))
        wl_note(w, "%u CTAs, %d bodies, %d tree nodes on %d levels", grid, n, nn, t.n_levels);
    void *params[] = {&dchild, &dbfirst, &dbcount, &dwidth, &dls, &t.n_levels, &dx, &dy, &dm, &n,
                      &dnm, &dncx, &dncy, &theta2, &eps2, &dax, &day, &darrive};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    wl_dtoh(w, got_x, dax, fb);
    wl_dtoh(w, got_y, day, fb);
    wl_dtoh(w, got_nm, dnm, nb);
    if (wl_ok(w)) {
        wl_check_f32(w, "node mass", got_nm, nm, (size_t)nn, 0.0, 0.0);
        wl_check_f32(w, "ax", got_x, want_x, (size_t)n, 1e-3, 1e-3 * amax);
        wl_check_f32(w, "ay", got_y, want_y, (size_t)n, 1e-3, 1e-3 * amax);
    }
out:
    free(x);
    free(y);
    free(m);
    free(want_x);
    free(want_y);
    free(got_x);
    free(got_y);
    free(t.child);
    free(t.bfirst);
    free(t.bcount);
    free(t.width);
    free(t.level_start);
    free(nm);
    free(ncx);
    free(ncy);
    free(got_nm);
    return wl_finish(w);
}

WL_REGISTER(barneshut) = {
    .name = "barneshut",
    .summary = "2-D Barnes-Hut accelerations: device quadtree summarisation by levels, then tree traversal",
    .mirrors = "Barnes-Hut n-body (BH of the GPU coherence papers; Burtscher-Pingali GPU BH, host-built tree)",
    .stresses = "grid barrier per tree level, read-shared tree summaries written by other blocks, divergent traversal",
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"400 bodies", "4096 bodies", "64K bodies", "256K bodies"},
    .run = run,
};
