/* workloads/workqueue/host.c: driver for workqueue (persistent blocks
 * pulling tasks of uneven cost from an atomic queue).
 *
 * Input from --seed: per task a start in [1, 2^24) and a length that is
 * log-uniform in [8, 1024) (cost spread ~128x, plus the per-number spread
 * of Collatz stopping times). Launch: 256-thread blocks, one per resident
 * CTA slot (wl_max_resident_ctas, capped per size class so tiny still has
 * several blocks competing for tasks). Check (exact, integers): every
 * task's sum and maximum of stopping times, the grand total and maximum
 * reduced by the last block, and the queue counters (n_tasks plus one
 * failed claim per block; one done count per block). */
#include <stdlib.h>

#include "wl.h"

#define BLOCK 256 /* as in kernel.cu */

static uint32_t collatz_steps(uint64_t n)
{
    uint32_t steps = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        steps++;
    }
    return steps;
}

static int run(struct wl *w)
{
    int n_tasks = (int)wl_pick(w, 40, 640, 6400, 32000);
    unsigned max_grid = (unsigned)wl_pick(w, 4, 1024, 1024, 1024);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    size_t tb = (size_t)n_tasks * sizeof(uint32_t);
    uint32_t *start = wl_host_alloc(w, tb), *len = wl_host_alloc(w, tb);
    uint32_t *want_sum = wl_host_alloc(w, tb), *want_max = wl_host_alloc(w, tb);
    uint32_t *got_sum = wl_host_alloc(w, tb), *got_max = wl_host_alloc(w, tb);
    uint64_t grand_sum = 0, grand_max = 0, numbers = 0;
    for (int t = 0; t < n_tasks; t++) {
        start[t] = 1 + wl_rng_below(&r, (1u << 24) - 1);
        /* log-uniform length: 8 << (0..6), then uniform within the octave */
        uint32_t base = 8u << wl_rng_below(&r, 7);
        len[t] = base + wl_rng_below(&r, base);
        numbers += len[t];
        for (uint32_t i = 0; i < len[t]; i++) {
            uint32_t st = collatz_steps((uint64_t)start[t] + i);
            want_sum[t] += st;
            if (st > want_max[t])
                want_max[t] = st;
        }
        grand_sum += want_sum[t];
        if (want_max[t] > grand_max)
            grand_max = want_max[t];
    }

    gs_function *k = wl_kernel(w, "collatz_queue");
    unsigned grid = wl_max_resident_ctas(w, k, BLOCK, 0);
    if (grid > max_grid)
        grid = max_grid;
    uint64_t dstart = wl_alloc_copy(w, start, tb), dlen = wl_alloc_copy(w, len, tb);
    uint64_t dnext = wl_alloc(w, sizeof(uint32_t)), ddone = wl_alloc(w, sizeof(uint32_t));
    uint64_t dsum = wl_alloc(w, tb), dmax = wl_alloc(w, tb);
    uint64_t dgrand = wl_alloc(w, 2 * sizeof(uint64_t));
    if (wl_ok(w))
        wl_note(w, "%u persistent CTAs, %d tasks, %llu numbers", grid, n_tasks, (unsigned long long)numbers);
    void *params[] = {&dstart, &dlen, &n_tasks, &dnext, &ddone, &dsum, &dmax, &dgrand};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    uint32_t next = 0, done = 0;
    uint64_t grand[2] = {0, 0};
    wl_dtoh(w, got_sum, dsum, tb);
    wl_dtoh(w, got_max, dmax, tb);
    wl_dtoh(w, grand, dgrand, sizeof grand);
    wl_dtoh(w, &next, dnext, sizeof next);
    wl_dtoh(w, &done, ddone, sizeof done);
    if (wl_ok(w)) {
        wl_check_u32(w, "task_sum", got_sum, want_sum, (size_t)n_tasks);
        wl_check_u32(w, "task_max", got_max, want_max, (size_t)n_tasks);
        wl_check(w, grand[0] == grand_sum && grand[1] == grand_max,
                 "grand total/max: got %llu/%llu, expected %llu/%llu", (unsigned long long)grand[0],
                 (unsigned long long)grand[1], (unsigned long long)grand_sum, (unsigned long long)grand_max);
        wl_check(w, next == (uint32_t)n_tasks + grid && done == grid,
                 "queue counters: next %u (want %u), done %u (want %u)", next, (uint32_t)n_tasks + grid, done,
                 grid);
    }
    free(start);
    free(len);
    free(want_sum);
    free(want_max);
    free(got_sum);
    free(got_max);
    return wl_finish(w);
}

WL_REGISTER(workqueue) = {
    .name = "workqueue",
    .summary = "persistent blocks pulling uneven Collatz range tasks from an atomic work queue",
    .mirrors = "persistent-threads dynamic work queue (load balancing of irregular work)",
    .stresses = "atomic queue counter, load imbalance, divergent data-dependent loops, last-block reduction",
    .flags = WL_SHARING,
    .sizes = {"40 tasks, 4 CTAs", "640 tasks", "6400 tasks", "32000 tasks"},
    .run = run,
};
