/* workloads/graphshare/host.c: driver for graphshare (connected components
 * by in-place min-label propagation; blocks read labels that other blocks
 * write in the same launch).
 *
 * Input from --seed: an undirected random graph on n vertices with
 * 0.6 n edges between uniformly random endpoints (average degree 1.2, just
 * above the giant-component threshold: one large component, many small
 * trees and isolated vertices), stored as symmetric CSR (self loops
 * dropped, duplicate edges kept). Labels start as the vertex ids; the host
 * launches sweeps (one thread per vertex, 256-thread blocks, partial last
 * block) until one reports no change. A sweep sees every label at least as
 * low as the previous sweep left it, so the sweeps needed are bounded by
 * the largest component's diameter + 1, which is O(log n) for these random
 * graphs (a dozen or two in practice); the run fails after MAX_SWEEPS, a
 * generous bound that keeps a broken kernel from looping. Check (exact):
 * every vertex's label equals the minimum vertex id of its component,
 * computed with a CPU union-find. */
#include <stdlib.h>

#include "wl.h"

#define MAX_SWEEPS 500

/* Union-find root with path halving. */
static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1500, 131072, 1048576, 8388608);
    size_t n_edges = (size_t)n * 3 / 5;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    uint32_t *src = wl_host_alloc(w, n_edges * sizeof(uint32_t));
    uint32_t *dst = wl_host_alloc(w, n_edges * sizeof(uint32_t));
    int32_t *row_ptr = wl_host_alloc(w, ((size_t)n + 1) * sizeof(int32_t));
    int32_t *col = wl_host_alloc(w, (2 * n_edges + 1) * sizeof(int32_t)); /* +1: never empty */
    uint32_t *parent = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    uint32_t *comp_min = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    uint32_t *want = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    uint32_t *label = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    /* Edges, then CSR by counting (both directions). */
    size_t m = 0;
    for (size_t e = 0; e < n_edges; e++) {
        uint32_t a = wl_rng_below(&r, (uint32_t)n), b = wl_rng_below(&r, (uint32_t)n);
        if (a == b)
            continue;
        src[m] = a;
        dst[m] = b;
        m++;
        row_ptr[a + 1]++;
        row_ptr[b + 1]++;
    }
    for (int v = 0; v < n; v++)
        row_ptr[v + 1] += row_ptr[v];
    {
        uint32_t *fill = comp_min; /* scratch: next free slot per vertex */
        for (int v = 0; v < n; v++)
            fill[v] = (uint32_t)row_ptr[v];
        for (size_t e = 0; e < m; e++) {
            col[fill[src[e]]++] = (int32_t)dst[e];
            col[fill[dst[e]]++] = (int32_t)src[e];
        }
    }
    /* Reference: union-find, then the minimum id of each root's set. */
    for (int v = 0; v < n; v++) {
        parent[v] = (uint32_t)v;
        comp_min[v] = UINT32_MAX;
        label[v] = (uint32_t)v;
    }
    for (size_t e = 0; e < m; e++) {
        uint32_t a = uf_find(parent, src[e]), b = uf_find(parent, dst[e]);
        if (a != b)
            parent[a] = b;
    }
    size_t n_comp = 0;
    for (int v = 0; v < n; v++) { /* ascending v: the first member seen is the minimum */
        uint32_t root = uf_find(parent, (uint32_t)v);
        if (comp_min[root] == UINT32_MAX) {
            comp_min[root] = (uint32_t)v;
            n_comp++;
        }
        want[v] = comp_min[root];
    }

    uint64_t drow = wl_alloc_copy(w, row_ptr, ((size_t)n + 1) * sizeof(int32_t));
    uint64_t dcol = wl_alloc_copy(w, col, (2 * m + 1) * sizeof(int32_t));
    uint64_t dlabel = wl_alloc_copy(w, label, (size_t)n * sizeof(uint32_t));
    uint64_t dchanged = wl_alloc(w, sizeof(uint32_t));
    gs_function *k = wl_kernel(w, "cc_sweep");
    unsigned block = 256, grid = (unsigned)((n + (int)block - 1) / (int)block);
    void *params[] = {&drow, &dcol, &dlabel, &dchanged, &n};
    uint32_t changed = 1;
    int sweeps = 0;
    while (changed && sweeps < MAX_SWEEPS && wl_ok(w)) {
        changed = 0;
        wl_htod(w, dchanged, &changed, sizeof changed);
        wl_launch(w, k, grid, 1, 1, block, 1, 1, 0, params);
        wl_dtoh(w, &changed, dchanged, sizeof changed);
        sweeps++;
    }
    wl_dtoh(w, label, dlabel, (size_t)n * sizeof(uint32_t));
    if (!wl_ok(w))
        goto out;
    wl_note(w, "%zu edges, %zu components, %d sweeps", m, n_comp, sweeps);
    if (wl_check(w, !changed, "labels still changing after %d sweeps", sweeps))
        wl_check_u32(w, "label", label, want, (size_t)n);
out:
    free(src);
    free(dst);
    free(row_ptr);
    free(col);
    free(parent);
    free(comp_min);
    free(want);
    free(label);
    return wl_finish(w);
}

WL_REGISTER(graphshare) = {
    .name = "graphshare",
    .summary = "connected components by in-place min-label propagation (hook + shortcut) over sweeps",
    .mirrors = "GPU connected components (label propagation, LonestarGPU/Gunrock style; host loop as Rodinia bfs)",
    .stresses = "irregular gathers, atomicMin on labels owned by other blocks, volatile inter-block reads",
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"1500 vertices", "128K vertices", "1M vertices", "8M vertices"},
    .run = run,
};
