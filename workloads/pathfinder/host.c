/* workloads/pathfinder/host.c: driver for pathfinder (Rodinia pathfinder:
 * row-by-row dynamic programming with a ghost-zone pyramid).
 *
 * Input from --seed: a rows x cols grid of weights uniform in 0..9 (as
 * Rodinia's). The cost row starts as row 0 of the grid.
 *
 * Host loop: pathfinder_rows for rows 1, 1 + 20, 1 + 40, ... (pyramid
 * height 20, Rodinia's default: 20 rows per launch, the last launch takes
 * the remainder), ping-ponging two device cost rows. CTAs of 256 threads
 * own 256 - 2*20 = 216 columns each, so the last CTA is partial.
 *
 * Check: the final cost row against the plain row-by-row CPU recurrence,
 * exactly (integers). */
#include <stdlib.h>

#include "wl.h"

#define PF_BLOCK 256
#define PF_HALO 20 /* pyramid height: rows per launch */

static int run(struct wl *w)
{
    int cols = (int)wl_pick(w, 1000, 100000, 1000000, 2000000);
    int rows = (int)wl_pick(w, 30, 100, 100, 200);
    size_t n = (size_t)rows * cols;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    int *wall = wl_host_alloc(w, n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        wall[i] = (int)wl_rng_below(&r, 10);

    uint64_t d_wall = wl_alloc_copy(w, wall, n * sizeof(int));
    uint64_t d_cost[2] = {wl_alloc_copy(w, wall, (size_t)cols * sizeof(int)), wl_alloc(w, (size_t)cols * sizeof(int))};
    gs_function *k = wl_kernel(w, "pathfinder_rows");
    int halo = PF_HALO, own = PF_BLOCK - 2 * PF_HALO;
    unsigned grid = (unsigned)((cols + own - 1) / own);
    int src = 0;
    for (int row0 = 1; row0 < rows && wl_ok(w); row0 += PF_HALO) {
        int steps = rows - row0 < PF_HALO ? rows - row0 : PF_HALO;
        void *params[] = {&d_wall, &d_cost[src], &d_cost[src ^ 1], &cols, &row0, &steps, &halo};
        wl_launch(w, k, grid, 1, 1, PF_BLOCK, 1, 1, 0, params);
        src ^= 1;
    }
    int *got = wl_host_alloc(w, (size_t)cols * sizeof(int));
    wl_dtoh(w, got, d_cost[src], (size_t)cols * sizeof(int));

    if (wl_ok(w)) {
        int *cost = wl_host_alloc(w, (size_t)cols * sizeof(int));
        int *next = wl_host_alloc(w, (size_t)cols * sizeof(int));
        for (int x = 0; x < cols; x++)
            cost[x] = wall[x];
        for (int y = 1; y < rows; y++) {
            for (int x = 0; x < cols; x++) {
                int m = cost[x];
                if (x > 0 && cost[x - 1] < m)
                    m = cost[x - 1];
                if (x < cols - 1 && cost[x + 1] < m)
                    m = cost[x + 1];
                next[x] = wall[(size_t)y * cols + x] + m;
            }
            int *sw = cost;
            cost = next;
            next = sw;
        }
        int best = cost[0];
        for (int x = 1; x < cols; x++)
            best = cost[x] < best ? cost[x] : best;
        wl_note(w, "%d rows x %d columns, %u CTAs per launch; cheapest path %d", rows, cols, grid, best);
        wl_check_i32(w, "cost", got, cost, (size_t)cols);
        free(cost);
        free(next);
    }
    wl_free(w, d_wall);
    wl_free(w, d_cost[0]);
    wl_free(w, d_cost[1]);
    free(wall);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(pathfinder) = {
    .name = "pathfinder",
    .summary = "minimum-cost top-to-bottom path DP over a weight grid, 20 rows per launch",
    .mirrors = "Rodinia pathfinder",
    .stresses = "shared-memory ghost-zone DP, barriers, shrinking active span (divergence), integer min",
    .flags = 0,
    .sizes = {"30 rows x 1000 columns", "100 x 100000", "100 x 1M", "200 x 2M"},
    .run = run,
};
