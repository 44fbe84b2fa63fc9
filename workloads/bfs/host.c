/* workloads/bfs/host.c: driver for bfs (Rodinia BFS: level-synchronous
 * breadth-first search, two kernels per level).
 *
 * Input: a random directed graph in CSR form from --seed. Every node gets 1-8
 * out-edges to uniformly random nodes (average degree 4.5, as in Rodinia's
 * generated graphs), so about 1% of the nodes have no in-edge and some others
 * hang only off those; the search from node 0 therefore leaves a few nodes
 * unreachable (cost -1) and runs roughly log_4.5(n) + a few levels.
 *
 * Host loop (as Rodinia's): clear the "changed" flag, run bfs_expand and
 * bfs_update over all nodes (256 threads per CTA, last CTA partial), read the
 * flag back, stop when no node joined the frontier.
 *
 * Check: the level of every node against a queue-based CPU BFS, exactly. */
#include <stdlib.h>

#include "wl.h"

#define BFS_BLOCK 256
#define BFS_MAX_DEGREE 8

/* CPU reference: textbook queue BFS from src; cost -1 when unreachable. */
static void bfs_cpu(const int *row_start, const int *col, int n, int src, int *cost, int *queue)
{
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    int head = 0, tail = 0;
    cost[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row_start[v]; e < row_start[v + 1]; e++) {
            int u = col[e];
            if (cost[u] < 0) {
                cost[u] = cost[v] + 1;
                queue[tail++] = u;
            }
        }
    }
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 1 << 17, 1 << 20, 1 << 23);
    const int src = 0;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    /* CSR graph: degrees first, then the targets. */
    int *row_start = wl_host_alloc(w, (size_t)(n + 1) * sizeof(int));
    for (int v = 0; v < n; v++)
        row_start[v + 1] = row_start[v] + 1 + (int)wl_rng_below(&r, BFS_MAX_DEGREE);
    int n_edges = row_start[n];
    int *col = wl_host_alloc(w, (size_t)n_edges * sizeof(int));
    for (int e = 0; e < n_edges; e++)
        col[e] = (int)wl_rng_below(&r, (uint32_t)n);

    unsigned char *mask = wl_host_alloc(w, (size_t)n);
    int *cost = wl_host_alloc(w, (size_t)n * sizeof(int));
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    cost[src] = 0;
    mask[src] = 1;

    uint64_t d_row = wl_alloc_copy(w, row_start, (size_t)(n + 1) * sizeof(int));
    uint64_t d_col = wl_alloc_copy(w, col, (size_t)n_edges * sizeof(int));
    uint64_t d_frontier = wl_alloc_copy(w, mask, (size_t)n);
    uint64_t d_next = wl_alloc(w, (size_t)n);
    uint64_t d_visited = wl_alloc_copy(w, mask, (size_t)n);
    uint64_t d_cost = wl_alloc_copy(w, cost, (size_t)n * sizeof(int));
    uint64_t d_changed = wl_alloc(w, sizeof(int));
    gs_function *k_expand = wl_kernel(w, "bfs_expand");
    gs_function *k_update = wl_kernel(w, "bfs_update");

    unsigned grid = (unsigned)((n + BFS_BLOCK - 1) / BFS_BLOCK);
    void *p_expand[] = {&d_row, &d_col, &d_frontier, &d_next, &d_visited, &d_cost, &n};
    void *p_update[] = {&d_frontier, &d_next, &d_visited, &d_changed, &n};
    int changed, levels = 0;
    do {
        changed = 0;
        wl_htod(w, d_changed, &changed, sizeof changed);
        wl_launch(w, k_expand, grid, 1, 1, BFS_BLOCK, 1, 1, 0, p_expand);
        wl_launch(w, k_update, grid, 1, 1, BFS_BLOCK, 1, 1, 0, p_update);
        wl_dtoh(w, &changed, d_changed, sizeof changed);
        levels++;
    } while (changed && levels <= n && wl_ok(w));
    wl_dtoh(w, cost, d_cost, (size_t)n * sizeof(int));

    if (wl_ok(w)) {
        int *want = wl_host_alloc(w, (size_t)n * sizeof(int));
        int *queue = wl_host_alloc(w, (size_t)n * sizeof(int));
        bfs_cpu(row_start, col, n, src, want, queue);
        int reached = 0, depth = 0;
        for (int v = 0; v < n; v++) {
            reached += want[v] >= 0;
            depth = want[v] > depth ? want[v] : depth;
        }
        wl_note(w, "%d nodes, %d edges, %d reachable, depth %d, %d device levels", n, n_edges, reached, depth,
                levels);
        wl_check(w, levels == depth + 1, "ran %d levels, the BFS tree has depth %d (expected depth + 1)", levels,
                 depth);
        wl_check_i32(w, "cost", cost, want, (size_t)n);
        free(want);
        free(queue);
    }
    wl_free(w, d_row);
    wl_free(w, d_col);
    wl_free(w, d_frontier);
    wl_free(w, d_next);
    wl_free(w, d_visited);
    wl_free(w, d_cost);
    wl_free(w, d_changed);
    free(row_start);
    free(col);
    free(mask);
    free(cost);
    return wl_finish(w);
}

WL_REGISTER(bfs) = {
    .name = "bfs",
    .summary = "level-synchronous breadth-first search (level per node) on a random CSR graph",
    .mirrors = "Rodinia bfs",
    .stresses = "irregular gathers, memory-bound, branch divergence, one host round trip per level",
    .flags = WL_CACHE_SENS,
    .sizes = {"1000 nodes", "128K nodes", "1M nodes", "8M nodes"},
    .run = run,
};
