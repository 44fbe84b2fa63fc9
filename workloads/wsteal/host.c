/* workloads/wsteal/host.c: driver for wsteal (work stealing between the
 * persistent blocks of one launch; Mandelbrot escape times as the tasks).
 *
 * Input: the image size, view and iteration limit per size class; --seed
 * moves the view's centre by a few pixels (so seeds give different but
 * equally uneven images). Root tasks: the image cut into n_root equal
 * pixel ranges, all placed in the deques of the first quarter of the
 * blocks (round robin), so most blocks start idle and steal. Launch:
 * 256-thread blocks, as many as can be resident (wl_max_resident_ctas,
 * capped per size class). Check (all exact, integers): every pixel's
 * escape time, the 64-bit total (each leaf added once), the number of leaf
 * tasks run (the split tree's leaf count), `remaining` = 0 and every deque
 * empty (head = tail). The number of steals depends on the schedule and is
 * only reported. */
#include <stdlib.h>

#include "wl.h"

#define BLOCK 256
#define FRAC 28

static uint32_t escape_time(int64_t cx, int64_t cy, int maxit)
{
    int64_t zx = 0, zy = 0;
    int it = 0;
    while (it < maxit) {
        int64_t x2 = (zx * zx) >> FRAC, y2 = (zy * zy) >> FRAC;
        if (x2 + y2 > ((int64_t)4 << FRAC))
            break;
        int64_t xy = (zx * zy) >> (FRAC - 1);
        zx = x2 - y2 + cx;
        zy = xy + cy;
        it++;
    }
    return (uint32_t)it;
}

/* Tasks in the split tree of [lo, hi) (kernel.cu: halve until <= leaf). */
static void count_tree(uint32_t lo, uint32_t hi, uint32_t leaf, uint64_t *nodes, uint64_t *leaves)
{
    ++*nodes;
    if (hi - lo <= leaf) {
        ++*leaves;
        return;
    }
    uint32_t mid = lo + (hi - lo) / 2;
    count_tree(lo, mid, leaf, nodes, leaves);
    count_tree(mid, hi, leaf, nodes, leaves);
}

static int run(struct wl *w)
{
    int width = (int)wl_pick(w, 64, 320, 1024, 2048);
    int height = (int)wl_pick(w, 48, 240, 768, 1536);
    int maxit = (int)wl_pick(w, 64, 256, 512, 1024);
    uint32_t leaf = (uint32_t)wl_pick(w, 128, 512, 1024, 2048);
    uint32_t n_root = (uint32_t)wl_pick(w, 4, 16, 32, 64);
    unsigned max_grid = (unsigned)wl_pick(w, 8, 1024, 1024, 1024);
    uint32_t n_pix = (uint32_t)width * (uint32_t)height;
    /* View: x in [-2.2, 1.0] across the width, square pixels, centred on
     * y = 0, shifted by up to 7 pixels from the seed. */
    int64_t step = (int64_t)(3.2 * (double)(1 << FRAC)) / width;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    int64_t x0 = -(int64_t)(2.2 * (double)(1 << FRAC)) + (int64_t)wl_rng_below(&r, 8) * step;
    int64_t y0 = (int64_t)(height / 2) * step + (int64_t)wl_rng_below(&r, 8) * step;

    uint32_t *want = wl_host_alloc(w, (size_t)n_pix * sizeof(uint32_t));
    uint32_t *got = wl_host_alloc(w, (size_t)n_pix * sizeof(uint32_t));
    uint64_t want_total = 0, nodes = 0, want_leaves = 0;
    if (wl_ok(w))
        for (uint32_t p = 0; p < n_pix; p++) {
            int px = (int)(p % (uint32_t)width), py = (int)(p / (uint32_t)width);
            want[p] = escape_time(x0 + px * step, y0 - py * step, maxit);
            want_total += want[p];
        }
    for (uint32_t i = 0; i < n_root; i++)
        count_tree((uint32_t)((uint64_t)n_pix * i / n_root), (uint32_t)((uint64_t)n_pix * (i + 1) / n_root), leaf,
                   &nodes, &want_leaves);

    gs_function *k = wl_kernel(w, "wsteal_mandel");
    unsigned grid = wl_max_resident_ctas(w, k, BLOCK, 0);
    if (grid > max_grid)
        grid = max_grid;
    if (wl_ok(w) && grid < 2)
        wl_fail(w, WL_INPUT_ERROR, "wsteal needs 2 resident CTAs, the GPU holds %u", grid);
    if (!wl_ok(w))
        grid = 1;
    /* A deque never holds more than the tasks ever pushed to it, bounded
     * by the tree's task count (indices do not wrap). */
    uint32_t cap = (uint32_t)nodes;
    unsigned owners = grid / 4 ? grid / 4 : 1;
    uint64_t *word = wl_host_alloc(w, (size_t)grid * sizeof(uint64_t));
    uint64_t *slots = wl_host_alloc(w, (size_t)grid * cap * sizeof(uint64_t));
    if (wl_ok(w))
        for (uint32_t i = 0; i < n_root; i++) {
            unsigned b = i % owners;
            uint32_t lo = (uint32_t)((uint64_t)n_pix * i / n_root), hi = (uint32_t)((uint64_t)n_pix * (i + 1) / n_root);
            slots[(size_t)b * cap + (uint32_t)word[b]] = ((uint64_t)lo << 32) | hi;
            word[b]++; /* tail */
        }
    uint32_t remaining = n_root;
    uint64_t dword = wl_alloc_copy(w, word, (size_t)grid * sizeof(uint64_t));
    uint64_t dslots = wl_alloc_copy(w, slots, (size_t)grid * cap * sizeof(uint64_t));
    uint64_t drem = wl_alloc_copy(w, &remaining, sizeof remaining);
    uint64_t dout = wl_alloc(w, (size_t)n_pix * sizeof(uint32_t));
    uint64_t dtotal = wl_alloc(w, sizeof(uint64_t));
    uint64_t dleaves = wl_alloc(w, sizeof(uint32_t));
    uint64_t dsteals = wl_alloc(w, (size_t)grid * sizeof(uint32_t));
    if (wl_ok(w))
        wl_note(w, "%u CTAs (%u start with work), %u root tasks, %llu leaf tasks of <= %u pixels", grid, owners,
                n_root, (unsigned long long)want_leaves, leaf);
    void *params[] = {&dword, &dslots, &cap, &drem, &dout, &width, &x0, &y0, &step, &maxit, &leaf, &dtotal,
                      &dleaves, &dsteals};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    uint64_t total = 0;
    uint32_t leaves = 0;
    uint32_t *steals = wl_host_alloc(w, (size_t)grid * sizeof(uint32_t));
    wl_dtoh(w, got, dout, (size_t)n_pix * sizeof(uint32_t));
    wl_dtoh(w, &total, dtotal, sizeof total);
    wl_dtoh(w, &leaves, dleaves, sizeof leaves);
    wl_dtoh(w, &remaining, drem, sizeof remaining);
    wl_dtoh(w, word, dword, (size_t)grid * sizeof(uint64_t));
    wl_dtoh(w, steals, dsteals, (size_t)grid * sizeof(uint32_t));
    if (wl_ok(w)) {
        wl_check_u32(w, "escape", got, want, n_pix);
        wl_check(w, total == want_total, "total: got %llu, expected %llu", (unsigned long long)total,
                 (unsigned long long)want_total);
        wl_check(w, leaves == want_leaves, "leaf tasks run: got %u, expected %llu", leaves,
                 (unsigned long long)want_leaves);
        wl_check(w, remaining == 0, "remaining: got %u, expected 0", remaining);
        unsigned bad = 0;
        uint64_t n_steals = 0;
        for (unsigned b = 0; b < grid; b++) {
            bad += (uint32_t)(word[b] >> 32) != (uint32_t)word[b];
            n_steals += steals[b];
        }
        wl_check(w, bad == 0, "%u deques not empty at the end", bad);
        wl_note(w, "%llu steals", (unsigned long long)n_steals);
    }
    free(want);
    free(got);
    free(word);
    free(slots);
    free(steals);
    return wl_finish(w);
}

WL_REGISTER(wsteal) = {
    .name = "wsteal",
    .summary = "Mandelbrot escape times by persistent blocks with per-block task deques and work stealing",
    .mirrors = "dynamic load balancing by work stealing (DLB of the GPU coherence papers; Chase-Lev-style deques)",
    .stresses = "64-bit CAS on deque words, inter-block task handoff, idle spinning, uneven divergent work",
    .flags = WL_SHARING,
    .sizes = {"64x48 image, 64 iterations, 8 CTAs", "320x240, 256 iterations", "1024x768, 512 iterations",
              "2048x1536, 1024 iterations"},
    .run = run,
};
