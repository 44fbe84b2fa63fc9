/* workloads/nqu/host.c: driver for nqu (N-queens solution count).
 *
 * The size class picks the board (n x n) and how many rows the host fills
 * in (the prefix rows; the device completes the remaining rows_left <= 12).
 * The problem has one instance per n; --seed shuffles the order in which
 * the prefixes are handed to threads, which changes how subtrees of
 * different sizes share warps and blocks (divergence, load balance) but not
 * the total.
 * Checks, both exact: every block's count against a recursive host count of
 * its prefixes' completions, and the grand total (block counts summed on the
 * host) against the known number of solutions for n. */
#include <stdlib.h>

#include "wl.h"

#define BLOCK 64

/* Known N-queens solution counts (OEIS A000170), n = 0..16. */
static const uint32_t known_solutions[17] = {1,    1,     0,     0,      2,      10,      4,       40,      92,
                                             352,  724,   2680,  14200,  73712,  365596,  2279184, 14772512};

/* Enumerate the placements of `rows` more queens from state (c, l, r) (see
 * kernel.cu), appending the resulting states to the arrays when they are
 * non-NULL; returns how many there are. */
static uint32_t enum_prefixes(unsigned all, int rows, unsigned c, unsigned l, unsigned r, uint32_t *pc,
                              uint32_t *pl, uint32_t *pr, uint32_t at)
{
    if (rows == 0) {
        if (pc) {
            pc[at] = c;
            pl[at] = l;
            pr[at] = r;
        }
        return 1;
    }
    uint32_t found = 0;
    for (unsigned avail = all & ~(c | l | r); avail; avail &= avail - 1) {
        unsigned bit = avail & (0u - avail);
        found += enum_prefixes(all, rows - 1, c | bit, (l | bit) << 1, (r | bit) >> 1, pc, pl, pr, at + found);
    }
    return found;
}

/* Number of ways to complete the board from state (c, l, r). */
static uint32_t count_completions(unsigned all, unsigned c, unsigned l, unsigned r)
{
    if (c == all)
        return 1;
    uint32_t found = 0;
    for (unsigned avail = all & ~(c | l | r); avail; avail &= avail - 1) {
        unsigned bit = avail & (0u - avail);
        found += count_completions(all, c | bit, (l | bit) << 1, (r | bit) >> 1);
    }
    return found;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 8, 12, 13, 14);
    int prefix_rows = (int)wl_pick(w, 3, 4, 5, 5);
    int rows_left = n - prefix_rows;
    unsigned all = (1u << n) - 1;
    uint32_t nprefix = enum_prefixes(all, prefix_rows, 0, 0, 0, NULL, NULL, NULL, 0);
    unsigned grid = (nprefix + BLOCK - 1) / BLOCK;
    wl_note(w, "%d-queens: %u prefixes of %d rows, %d rows left per thread, %u blocks", n, nprefix, prefix_rows,
            rows_left, grid);
    uint32_t *pc = wl_host_alloc(w, nprefix * sizeof(uint32_t));
    uint32_t *pl = wl_host_alloc(w, nprefix * sizeof(uint32_t));
    uint32_t *pr = wl_host_alloc(w, nprefix * sizeof(uint32_t));
    uint32_t *ref = wl_host_alloc(w, grid * sizeof(uint32_t));
    uint32_t *got = wl_host_alloc(w, grid * sizeof(uint32_t));
    enum_prefixes(all, prefix_rows, 0, 0, 0, pc, pl, pr, 0);
    struct wl_rng rng;
    wl_rng_init(&rng, w->seed, 0);
    for (uint32_t p = nprefix - 1; p > 0; p--) { /* Fisher-Yates shuffle */
        uint32_t q = wl_rng_below(&rng, p + 1), t;
        t = pc[p], pc[p] = pc[q], pc[q] = t;
        t = pl[p], pl[p] = pl[q], pl[q] = t;
        t = pr[p], pr[p] = pr[q], pr[q] = t;
    }
    for (uint32_t p = 0; p < nprefix; p++)
        ref[p / BLOCK] += count_completions(all, pc[p], pl[p], pr[p]);

    uint64_t dc = wl_alloc_copy(w, pc, nprefix * sizeof(uint32_t));
    uint64_t dl = wl_alloc_copy(w, pl, nprefix * sizeof(uint32_t));
    uint64_t dr = wl_alloc_copy(w, pr, nprefix * sizeof(uint32_t));
    uint64_t dcounts = wl_alloc(w, grid * sizeof(uint32_t));
    gs_function *k = wl_kernel(w, "nqueens");
    int np = (int)nprefix;
    void *params[] = {&dc, &dl, &dr, &dcounts, &np, &n, &rows_left};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    wl_dtoh(w, got, dcounts, grid * sizeof(uint32_t));
    if (wl_ok(w)) {
        wl_check_u32(w, "block counts", got, ref, grid);
        uint32_t total = 0;
        for (unsigned b = 0; b < grid; b++)
            total += got[b];
        wl_check(w, total == known_solutions[n], "total %u solutions, expected %u", total, known_solutions[n]);
    }
    free(pc);
    free(pl);
    free(pr);
    free(ref);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(nqu) = {
    .name = "nqu",
    .summary = "N-queens solution count by per-thread bitmask backtracking from host-made prefixes",
    .mirrors = "ISPASS-2009 NQU",
    .stresses = "integer, compute-bound, highly divergent loops; shared-memory stacks",
    .sizes = {"8-queens (3 prefix rows)", "12-queens (4 prefix rows)", "13-queens (5 prefix rows)",
              "14-queens (5 prefix rows)"},
    .run = run,
};
