/* workloads/histo/host.c: driver for histo (Parboil histo).
 *
 * Input: n bin indices in [0, nbins) from --seed with a skewed distribution
 * like Parboil's image data: a quarter of the values fall into 8 "hot" bins
 * (which saturate), the rest follow a bell shape over all bins (the mean of
 * four uniform draws), so the tails hold bins with small or zero counts.
 * Launches: histo_private over a fixed number of 256-thread blocks (each
 * block's grid-stride slice feeds its shared-memory histogram), then
 * histo_saturate over the bins.
 *
 * Check: exact, on both the 32-bit merged counts and the saturated 8-bit
 * histogram (integer atomics commute). */
#include <stdlib.h>

#include "wl.h"

#define THREADS 256
#define MAX_BLOCKS 64 /* blocks of histo_private (fewer when n is small) */
#define HOT_BINS 8

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 20000, 6 << 20, 60 << 20, 240 << 20);
    int nbins = (int)wl_pick(w, 1000, 4096, 4096, 8192);

    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    unsigned hot[HOT_BINS];
    for (int h = 0; h < HOT_BINS; h++)
        hot[h] = wl_rng_below(&r, (uint32_t)nbins);
    unsigned *in = wl_host_alloc(w, (size_t)n * sizeof(unsigned));
    unsigned *ref_counts = wl_host_alloc(w, (size_t)nbins * sizeof(unsigned));
    unsigned *counts = wl_host_alloc(w, (size_t)nbins * sizeof(unsigned));
    uint8_t *ref_histo = wl_host_alloc(w, (size_t)nbins);
    uint8_t *histo = wl_host_alloc(w, (size_t)nbins);
    for (int i = 0; i < n && in; i++) {
        unsigned v;
        if (wl_rng_below(&r, 4) == 0) {
            v = hot[wl_rng_below(&r, HOT_BINS)];
        } else {
            uint64_t s = 0;
            for (int d = 0; d < 4; d++)
                s += wl_rng_below(&r, (uint32_t)nbins);
            v = (unsigned)(s / 4);
        }
        in[i] = v;
        ref_counts[v]++;
    }
    for (int b = 0; b < nbins && ref_counts; b++)
        ref_histo[b] = (uint8_t)(ref_counts[b] < 255 ? ref_counts[b] : 255);

    uint64_t d_in = wl_alloc_copy(w, in, (size_t)n * sizeof(unsigned));
    uint64_t d_counts = wl_alloc(w, (size_t)nbins * sizeof(unsigned)); /* zero-filled */
    uint64_t d_histo = wl_alloc(w, (size_t)nbins);
    gs_function *kp = wl_kernel(w, "histo_private");
    gs_function *ks = wl_kernel(w, "histo_saturate");
    unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    void *pp[] = {&d_in, &n, &d_counts, &nbins};
    wl_launch(w, kp, blocks, 1, 1, THREADS, 1, 1, (unsigned)nbins * sizeof(unsigned), pp);
    void *ps[] = {&d_counts, &d_histo, &nbins};
    wl_launch(w, ks, (unsigned)(nbins + THREADS - 1) / THREADS, 1, 1, THREADS, 1, 1, 0, ps);
    wl_dtoh(w, counts, d_counts, (size_t)nbins * sizeof(unsigned));
    wl_dtoh(w, histo, d_histo, (size_t)nbins);
    if (wl_ok(w)) {
        wl_check_u32(w, "counts", counts, ref_counts, (size_t)nbins);
        wl_check_u8(w, "histo", histo, ref_histo, (size_t)nbins);
    }
    free(in);
    free(ref_counts);
    free(counts);
    free(ref_histo);
    free(histo);
    return wl_finish(w);
}

WL_REGISTER(histo) = {
    .name = "histo",
    .summary = "saturating (8-bit) histogram of a skewed input, privatized per block",
    .mirrors = "Parboil histo",
    .stresses = "shared-memory atomics with hot-bin contention, global atomics, irregular access",
    .flags = WL_SHARING,
    .sizes = {"20K values, 1000 bins", "6M values, 4096 bins", "60M values, 4096 bins",
              "240M values, 8192 bins"},
    .run = run,
};
