/* workloads/nw/host.c: driver for nw (Rodinia nw: Needleman-Wunsch global
 * sequence alignment, tiled anti-diagonal wavefront).
 *
 * Input from --seed: two random protein sequences of length n (a multiple
 * of 16) over the 20 standard amino acids; the host fills ref[i][j] with
 * the BLOSUM62 score of the pair (a_i, b_j) and the first row and column of
 * the score matrix with -k * gap (gap penalty 10, Rodinia's default).
 *
 * Host loop: nw_upper_left for tile diagonals 0 .. n/16 - 1 (1, 2, ..., n/16
 * CTAs), then nw_lower_right for diagonals n/16 .. 2 n/16 - 2 (n/16 - 1, ...,
 * 1 CTAs): 2 n/16 - 1 launches of 16-thread CTAs.
 *
 * Check: the whole (n+1) x (n+1) score matrix against the textbook
 * row-by-row CPU recurrence, exactly (integers). */
#include <stdlib.h>

#include "wl.h"

#define NW_TILE 16
#define NW_GAP 10
#define NW_AA 20

/* BLOSUM62 (NCBI), the 20 standard amino acids in the order ARNDCQEGHILKMFPSTWYV. */
static const signed char blosum62[NW_AA][NW_AA] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4},
};

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 80, 2048, 6400, 12800); /* multiple of 16 */
    int width = n + 1, gap = NW_GAP, tiles = n / NW_TILE;
    size_t cells = (size_t)width * width;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);

    unsigned char *a = wl_host_alloc(w, (size_t)n), *b = wl_host_alloc(w, (size_t)n);
    for (int i = 0; i < n; i++) {
        a[i] = (unsigned char)wl_rng_below(&r, NW_AA);
        b[i] = (unsigned char)wl_rng_below(&r, NW_AA);
    }
    int *ref = wl_host_alloc(w, cells * sizeof(int));
    int *score = wl_host_alloc(w, cells * sizeof(int));
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            ref[(size_t)i * width + j] = blosum62[a[i - 1]][b[j - 1]];
    for (int k = 0; k <= n; k++) {
        score[k] = -k * gap;                 /* first row */
        score[(size_t)k * width] = -k * gap; /* first column */
    }

    uint64_t d_score = wl_alloc_copy(w, score, cells * sizeof(int));
    uint64_t d_ref = wl_alloc_copy(w, ref, cells * sizeof(int));
    gs_function *k_ul = wl_kernel(w, "nw_upper_left");
    gs_function *k_lr = wl_kernel(w, "nw_lower_right");
    int diag;
    void *params[] = {&d_score, &d_ref, &width, &diag, &gap};
    for (diag = 0; diag < tiles && wl_ok(w); diag++)
        wl_launch(w, k_ul, (unsigned)(diag + 1), 1, 1, NW_TILE, 1, 1, 0, params);
    for (diag = tiles; diag < 2 * tiles - 1 && wl_ok(w); diag++)
        wl_launch(w, k_lr, (unsigned)(2 * tiles - 1 - diag), 1, 1, NW_TILE, 1, 1, 0, params);
    int *got = wl_host_alloc(w, cells * sizeof(int));
    wl_dtoh(w, got, d_score, cells * sizeof(int));

    if (wl_ok(w)) {
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                size_t k = (size_t)i * width + j;
                score[k] = max3(score[k - width - 1] + ref[k], score[k - width] - gap, score[k - 1] - gap);
            }
        wl_note(w, "%d x %d residues, %d x %d tiles, %d launches; alignment score %d", n, n, tiles, tiles,
                2 * tiles - 1, score[cells - 1]);
        wl_check_i32(w, "score", got, score, cells);
    }
    wl_free(w, d_score);
    wl_free(w, d_ref);
    free(a);
    free(b);
    free(ref);
    free(score);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(nw) = {
    .name = "nw",
    .summary = "Needleman-Wunsch alignment score matrix, 16x16 tiles in anti-diagonal waves",
    .mirrors = "Rodinia nw",
    .stresses = "wavefront parallelism, many small launches, 16-thread (half-warp) CTAs, shared memory and barriers",
    .flags = WL_REG_HEAVY,
    .sizes = {"80 residues", "2048 residues", "6400 residues", "12800 residues"},
    .run = run,
};
