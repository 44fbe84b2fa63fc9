/* workloads/pvr/host.c: driver for pvr (page view rank, after Mars
 * PageViewRank).
 *
 * Input from --seed: n_pages page URLs as in pvc ("/<section>/<name>.html",
 * FNV-1a hashes distinct and non-zero, drawn again otherwise) and n_rec
 * 64-byte records "<url> <views>" (NUL-padded), the partial counts of
 * several log shards: a record's page is Zipf-like (one of the
 * log2(n_pages) octaves uniformly, then a page in it) and its views are
 * uniform in [1, 999]; pages that get no record do not appear.
 * Launches: pvr_map (4 records per thread), pvr_reduce (a thread per
 * record) into a table of 2 x n_pages slots, pvr_rank (a thread per slot);
 * 256-thread blocks, the last block partial.
 *
 * Check: keys and views of the map exactly; the table as a set (every
 * occupied slot a known page, no page twice), and per page the total views
 * and the rank (1 + number of pages with more views) exactly; a page
 * without records must have no slot. Which slot holds which page depends
 * on the order of the atomics and is not checked. */
#include <stdio.h>
#include <stdlib.h>

#include "wl.h"

#define PVR_BLOCK 256
#define PVR_REC 64
#define PVR_PER_THREAD 4

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Index of key in the sorted (hash << 32 | page) list, or -1. */
static long find_key(const uint64_t *sorted, unsigned n, uint32_t key)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if ((uint32_t)(sorted[mid] >> 32) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (uint32_t)(sorted[lo] >> 32) == key ? (long)lo : -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void random_word(struct wl_rng *r, char *out, unsigned lo, unsigned hi)
{
    unsigned len = lo + wl_rng_below(r, hi - lo + 1);
    for (unsigned k = 0; k < len; k++)
        out[k] = (char)('a' + wl_rng_below(r, 26));
    out[len] = '\0';
}

static int run(struct wl *w)
{
    unsigned octaves = (unsigned)wl_pick(w, 7, 10, 12, 14);
    unsigned n_pages = 1u << octaves;
    int n_rec = (int)wl_pick(w, 1000, 32768, 262144, 1 << 20);
    int per_thread = PVR_PER_THREAD;
    int n_slots = (int)(2 * n_pages);
    unsigned mask = (unsigned)n_slots - 1;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    char(*url)[40] = wl_host_alloc(w, (size_t)n_pages * sizeof *url);
    uint64_t *by_hash = wl_host_alloc(w, (size_t)n_pages * sizeof(uint64_t)); /* hash << 32 | page */
    char *recs = wl_host_alloc(w, (size_t)n_rec * PVR_REC);
    uint32_t *want_keys = wl_host_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint32_t *want_views = wl_host_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint32_t *got_rec = wl_host_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint32_t *want_total = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *want_rank = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *got_total = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *got_rank = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *tkeys = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint32_t *tviews = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint32_t *trank = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    if (!url || !by_hash || !recs || !want_keys || !want_views || !got_rec || !want_total || !want_rank ||
        !got_total || !got_rank || !tkeys || !tviews || !trank)
        return wl_finish(w);
    for (unsigned p = 0; p < n_pages; p++) {
        for (;;) {
            char sec[9], name[21];
            random_word(&r, sec, 3, 8);
            random_word(&r, name, 4, 20);
            snprintf(url[p], sizeof url[p], "/%s/%s.html", sec, name);
            uint32_t h = fnv1a(url[p]);
            bool dup = h == 0;
            for (unsigned q = 0; q < p && !dup; q++) /* host-side generation only */
                dup = (uint32_t)(by_hash[q] >> 32) == h;
            if (!dup) {
                by_hash[p] = (uint64_t)h << 32 | p;
                break;
            }
        }
    }
    for (int i = 0; i < n_rec; i++) {
        unsigned b = wl_rng_below(&r, octaves);
        unsigned p = (1u << b) - 1 + wl_rng_below(&r, 1u << b);
        unsigned v = 1 + wl_rng_below(&r, 999);
        snprintf(recs + (size_t)i * PVR_REC, PVR_REC, "%s %u", url[p], v);
        want_keys[i] = (uint32_t)(by_hash[p] >> 32);
        want_views[i] = v;
        want_total[p] += v;
    }
    /* Reference ranks: 1 + pages with a larger total (quadratic, host only). */
    for (unsigned p = 0; p < n_pages; p++) {
        if (!want_total[p])
            continue;
        unsigned above = 0;
        for (unsigned q = 0; q < n_pages; q++)
            above += want_total[q] > want_total[p];
        want_rank[p] = above + 1;
    }
    qsort(by_hash, n_pages, sizeof(uint64_t), cmp_u64);

    uint64_t d_recs = wl_alloc_copy(w, recs, (size_t)n_rec * PVR_REC);
    uint64_t d_keys = wl_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint64_t d_views = wl_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint64_t d_tkeys = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint64_t d_tviews = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint64_t d_trank = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    gs_function *km = wl_kernel(w, "pvr_map");
    gs_function *kr = wl_kernel(w, "pvr_reduce");
    gs_function *kk = wl_kernel(w, "pvr_rank");
    int threads = (n_rec + per_thread - 1) / per_thread;
    void *pm[] = {&d_recs, &n_rec, &per_thread, &d_keys, &d_views};
    wl_launch(w, km, (unsigned)(threads + PVR_BLOCK - 1) / PVR_BLOCK, 1, 1, PVR_BLOCK, 1, 1, 0, pm);
    void *pr[] = {&d_keys, &d_views, &n_rec, &d_tkeys, &d_tviews, &mask};
    wl_launch(w, kr, (unsigned)(n_rec + PVR_BLOCK - 1) / PVR_BLOCK, 1, 1, PVR_BLOCK, 1, 1, 0, pr);
    void *pk[] = {&d_tkeys, &d_tviews, &n_slots, &d_trank};
    wl_launch(w, kk, (unsigned)(n_slots + PVR_BLOCK - 1) / PVR_BLOCK, 1, 1, PVR_BLOCK, 1, 1, 0, pk);
    wl_dtoh(w, tkeys, d_tkeys, (size_t)n_slots * sizeof(uint32_t));
    wl_dtoh(w, tviews, d_tviews, (size_t)n_slots * sizeof(uint32_t));
    wl_dtoh(w, trank, d_trank, (size_t)n_slots * sizeof(uint32_t));
    wl_dtoh(w, got_rec, d_keys, (size_t)n_rec * sizeof(uint32_t));
    if (wl_ok(w))
        wl_check_u32(w, "keys", got_rec, want_keys, (size_t)n_rec);
    wl_dtoh(w, got_rec, d_views, (size_t)n_rec * sizeof(uint32_t));
    if (wl_ok(w)) {
        wl_check_u32(w, "views", got_rec, want_views, (size_t)n_rec);
        unsigned used = 0, bad = 0;
        for (int s = 0; s < n_slots; s++) {
            if (!tkeys[s]) {
                bad += tviews[s] != 0 || trank[s] != 0;
                continue;
            }
            long k = find_key(by_hash, n_pages, tkeys[s]);
            if (k < 0) {
                bad++;
                continue;
            }
            unsigned p = (unsigned)(by_hash[k] & 0xffffffffu);
            bad += got_total[p] != 0; /* the same page in two slots */
            got_total[p] = tviews[s];
            got_rank[p] = trank[s];
            used++;
        }
        wl_check(w, bad == 0, "hash table: %u slots with an unknown or repeated key (or data without a key)", bad);
        wl_check_u32(w, "total views per page", got_total, want_total, n_pages);
        wl_check_u32(w, "rank per page", got_rank, want_rank, n_pages);
        wl_note(w, "%u pages ranked", used);
    }
    free(url);
    free(by_hash);
    free(recs);
    free(want_keys);
    free(want_views);
    free(got_rec);
    free(want_total);
    free(want_rank);
    free(got_total);
    free(got_rank);
    free(tkeys);
    free(tviews);
    free(trank);
    return wl_finish(w);
}

WL_REGISTER(pvr) = {
    .name = "pvr",
    .summary = "page view rank: parse (URL, views) records, sum views per page in a hash table, rank pages",
    .mirrors = "Mars PageViewRank (MapReduce), as in seed 000 ch. 4 (C2 there)",
    .stresses = "uncoalesced per-thread record parsing (cache-sensitive), atomic hash aggregation on "
                "Zipf-skewed keys, then an all-pairs rank loop of broadcast loads",
    /* Class (the bench/experiments/baseline rules, small, seed 1): 12.4 L1D
     * accesses per 1000 thread instructions under LRR (311 per 1000 warp
     * instructions), just above the threshold of 10, so cache-sensitive
     * here although 000 Table 5 puts PVR in C2 (the rank step adds many
     * instructions with few accesses); perfect DRAM +6 %. fermi15-vws,
     * small: IPC 144.4 (lrr), 183.9 (gto), 293.4 (l1d.perfect). */
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"1000 records, 128 pages", "32K records, 1024 pages", "256K records, 4096 pages",
              "1M records, 16K pages"},
    .run = run,
};
