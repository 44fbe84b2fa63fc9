/* workloads/sssp/host.c: driver for sssp (single-source shortest paths,
 * frontier Bellman-Ford with atomicMin, two kernels per round).
 *
 * Input: a random directed graph in CSR form from --seed with integer edge
 * weights uniform in [1, 64]. Every node gets 1-8 out-edges (average 4.5, as
 * bfs). A target is one of the n/256 "hub" nodes (drawn once, at random
 * positions) with probability 1/4 and a uniformly random node otherwise, so
 * hubs have an in-degree of about 290 against about 3.4 for the rest: a
 * skewed, power-law-like in-degree as in road/social graphs. Relaxing threads
 * on many SMs then read and update the same hub lines in the same round
 * (inter-core locality: misses of several SMs on one L2 line merge in the L2
 * MSHR), besides the random gathers of bfs.
 *
 * Host loop (as bfs): clear the "changed" flag, run sssp_relax and
 * sssp_settle over all nodes (256 threads per CTA), read the flag back, stop
 * after a round that changed nothing.
 *
 * Check: every distance exactly against a CPU Dijkstra (binary heap), and
 * the number of rounds: the device's synchronous rounds end one round after
 * the largest hop count h(v) of a shortest path (minimum over v's shortest
 * paths); the Dijkstra orders paths by (distance, hops), which gives h. */
#include <stdlib.h>

#include "wl.h"

#define SSSP_BLOCK 256
#define SSSP_MAX_DEGREE 8
#define SSSP_MAX_WEIGHT 64
#define SSSP_HUB_EVERY 256 /* one hub per this many nodes */
#define SSSP_INF 0xffffffffu

/* Binary min-heap of (key, node) with lazy deletion for the Dijkstra. */
struct heap_item {
    uint64_t key; /* distance << 32 | hops */
    int v;
};

static void heap_push(struct heap_item *h, size_t *len, uint64_t key, int v)
{
    size_t i = (*len)++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (h[p].key <= key)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i].key = key;
    h[i].v = v;
}

static struct heap_item heap_pop(struct heap_item *h, size_t *len)
{
    struct heap_item top = h[0], last = h[--(*len)];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && h[c + 1].key < h[c].key)
            c++;
        if (last.key <= h[c].key)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*len > 0)
        h[i] = last;
    return top;
}

/* CPU reference: Dijkstra from src on the lexicographic (distance, hops)
 * key. dist[v] = SSSP_INF when unreachable; returns the largest hop count of
 * a reachable node. Distances stay far below 2^32 (at most n * 64). */
static int sssp_cpu(const int *row_start, const int *col, const unsigned *weight, int n, int src, unsigned *dist,
                    struct heap_item *heap)
{
    uint64_t *best = malloc((size_t)n * sizeof *best);
    if (!best)
        return -1;
    for (int v = 0; v < n; v++)
        best[v] = UINT64_MAX;
    size_t len = 0;
    best[src] = 0;
    heap_push(heap, &len, 0, src);
    int max_hops = 0;
    while (len > 0) {
        struct heap_item it = heap_pop(heap, &len);
        if (it.key != best[it.v])
            continue; /* stale entry */
        int hops = (int)(it.key & 0xffffffffu);
        max_hops = hops > max_hops ? hops : max_hops;
        for (int e = row_start[it.v]; e < row_start[it.v + 1]; e++) {
            uint64_t k = it.key + ((uint64_t)weight[e] << 32) + 1;
            if (k < best[col[e]]) {
                best[col[e]] = k;
                heap_push(heap, &len, k, col[e]);
            }
        }
    }
    for (int v = 0; v < n; v++)
        dist[v] = best[v] == UINT64_MAX ? SSSP_INF : (unsigned)(best[v] >> 32);
    free(best);
    return max_hops;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 2000, 1 << 17, 1 << 20, 1 << 23);
    const int src = 0;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    int n_hubs = n / SSSP_HUB_EVERY > 0 ? n / SSSP_HUB_EVERY : 1;
    int *hub = wl_host_alloc(w, (size_t)n_hubs * sizeof(int));
    for (int i = 0; i < n_hubs; i++)
        hub[i] = (int)wl_rng_below(&r, (uint32_t)n);

    /* CSR graph: degrees first, then targets and weights. */
    int *row_start = wl_host_alloc(w, (size_t)(n + 1) * sizeof(int));
    for (int v = 0; v < n; v++)
        row_start[v + 1] = row_start[v] + 1 + (int)wl_rng_below(&r, SSSP_MAX_DEGREE);
    int n_edges = row_start[n];
    int *col = wl_host_alloc(w, (size_t)n_edges * sizeof(int));
    unsigned *weight = wl_host_alloc(w, (size_t)n_edges * sizeof(unsigned));
    for (int v = 0; v < n; v++)
        for (int e = row_start[v]; e < row_start[v + 1]; e++) {
            col[e] = wl_rng_below(&r, 4) == 0 ? hub[wl_rng_below(&r, (uint32_t)n_hubs)] : (int)wl_rng_below(&r, (uint32_t)n);
            weight[e] = 1 + wl_rng_below(&r, SSSP_MAX_WEIGHT);
        }

    unsigned char *mask = wl_host_alloc(w, (size_t)n);
    unsigned *dist = wl_host_alloc(w, (size_t)n * sizeof(unsigned));
    for (int v = 0; v < n; v++)
        dist[v] = SSSP_INF;
    dist[src] = 0;
    mask[src] = 1;

    uint64_t d_row = wl_alloc_copy(w, row_start, (size_t)(n + 1) * sizeof(int));
    uint64_t d_col = wl_alloc_copy(w, col, (size_t)n_edges * sizeof(int));
    uint64_t d_weight = wl_alloc_copy(w, weight, (size_t)n_edges * sizeof(unsigned));
    uint64_t d_mask = wl_alloc_copy(w, mask, (size_t)n);
    uint64_t d_dist = wl_alloc_copy(w, dist, (size_t)n * sizeof(unsigned));
    uint64_t d_upd = wl_alloc_copy(w, dist, (size_t)n * sizeof(unsigned));
    uint64_t d_changed = wl_alloc(w, sizeof(int));
    gs_function *k_relax = wl_kernel(w, "sssp_relax");
    gs_function *k_settle = wl_kernel(w, "sssp_settle");

    unsigned grid = (unsigned)((n + SSSP_BLOCK - 1) / SSSP_BLOCK);
    void *p_relax[] = {&d_row, &d_col, &d_weight, &d_mask, &d_dist, &d_upd, &n};
    void *p_settle[] = {&d_mask, &d_dist, &d_upd, &d_changed, &n};
    int changed, rounds = 0;
    do {
        changed = 0;
        wl_htod(w, d_changed, &changed, sizeof changed);
        wl_launch(w, k_relax, grid, 1, 1, SSSP_BLOCK, 1, 1, 0, p_relax);
        wl_launch(w, k_settle, grid, 1, 1, SSSP_BLOCK, 1, 1, 0, p_settle);
        wl_dtoh(w, &changed, d_changed, sizeof changed);
        rounds++;
    } while (changed && rounds <= n && wl_ok(w));
    wl_dtoh(w, dist, d_dist, (size_t)n * sizeof(unsigned));

    if (wl_ok(w)) {
        unsigned *want = wl_host_alloc(w, (size_t)n * sizeof(unsigned));
        struct heap_item *heap = wl_host_alloc(w, ((size_t)n_edges + 1) * sizeof(struct heap_item));
        int max_hops = wl_ok(w) ? sssp_cpu(row_start, col, weight, n, src, want, heap) : -1;
        if (max_hops < 0) {
            wl_fail(w, WL_INPUT_ERROR, "host allocation for the CPU reference failed");
        } else {
            int reached = 0;
            unsigned far = 0;
            for (int v = 0; v < n; v++)
                if (want[v] != SSSP_INF) {
                    reached++;
                    far = want[v] > far ? want[v] : far;
                }
            wl_note(w, "%d nodes (%d hubs), %d edges, %d reachable, max distance %u, max hops %d, %d device rounds",
                    n, n_hubs, n_edges, reached, far, max_hops, rounds);
            wl_check(w, rounds == max_hops + 1, "ran %d rounds, the longest shortest path has %d hops (expected hops + 1)",
                     rounds, max_hops);
            wl_check_u32(w, "dist", dist, want, (size_t)n);
        }
        free(want);
        free(heap);
    }
    wl_free(w, d_row);
    wl_free(w, d_col);
    wl_free(w, d_weight);
    wl_free(w, d_mask);
    wl_free(w, d_dist);
    wl_free(w, d_upd);
    wl_free(w, d_changed);
    free(hub);
    free(row_start);
    free(col);
    free(weight);
    free(mask);
    free(dist);
    return wl_finish(w);
}

WL_REGISTER(sssp) = {
    .name = "sssp",
    .summary = "single-source shortest paths (frontier Bellman-Ford, atomicMin) on a weighted CSR graph with hubs",
    .mirrors = "GPGPU-Sim/LonestarGPU sssp (seed 003 HIL set)",
    .stresses = "irregular gathers and atomics on shared hub nodes (inter-core locality), divergence, host loop",
    .flags = WL_CACHE_SENS,
    .sizes = {"2000 nodes", "128K nodes", "1M nodes", "8M nodes"},
    .run = run,
};
