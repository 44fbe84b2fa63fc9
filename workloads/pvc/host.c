/* workloads/pvc/host.c: driver for pvc (page view count over a web log,
 * after Mars PageViewCount).
 *
 * Input from --seed: n_pages page URLs "/<section>/<name>.html" (section of
 * 3..8 and name of 4..20 lowercase letters; a URL whose FNV-1a hash is 0 or
 * equals an earlier page's is drawn again, so hashes identify pages) and
 * n_rec 64-byte log records "<url> <status> <ip>" (NUL-padded). The page of
 * a record is Zipf-like: one of the log2(n_pages) octaves [2^b - 1,
 * 2^(b+1) - 1) uniformly, then a page in it. Status 200 with probability
 * 13/16, else 304 or 404 (not counted as a view).
 * Launches: pvc_map (4 records per thread), then pvc_reduce (a thread per
 * record) into a table of 2 x n_pages slots; 256-thread blocks, the last
 * block partial.
 *
 * Check: the map's keys exactly; the table as a set: every occupied slot
 * must hold a known page's hash, no hash twice, and the per-page counts
 * gathered from it must equal the reference exactly (pages without views
 * must not appear). Which slot holds which page depends on the order of the
 * atomics and is not checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define PVC_BLOCK 256
#define PVC_REC 64
#define PVC_PER_THREAD 4

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Index of key in the sorted hash list, or -1. */
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
    unsigned octaves = (unsigned)wl_pick(w, 8, 12, 14, 16);
    unsigned n_pages = 1u << octaves;
    int n_rec = (int)wl_pick(w, 3000, 65536, 1 << 20, 1 << 22);
    int per_thread = PVC_PER_THREAD;
    unsigned n_slots = 2 * n_pages, mask = n_slots - 1;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    char(*url)[40] = wl_host_alloc(w, (size_t)n_pages * sizeof *url);
    uint64_t *by_hash = wl_host_alloc(w, (size_t)n_pages * sizeof(uint64_t)); /* hash << 32 | page */
    char *log = wl_host_alloc(w, (size_t)n_rec * PVC_REC);
    uint32_t *want_keys = wl_host_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint32_t *got_keys = wl_host_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint32_t *want = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *got = wl_host_alloc(w, (size_t)n_pages * sizeof(uint32_t));
    uint32_t *tkeys = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint32_t *tcounts = wl_host_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    if (!url || !by_hash || !log || !want_keys || !got_keys || !want || !got || !tkeys || !tcounts)
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
        unsigned s = wl_rng_below(&r, 16);
        unsigned status = s < 13 ? 200 : s < 15 ? 304 : 404;
        snprintf(log + (size_t)i * PVC_REC, PVC_REC, "%s %u 10.%u.%u.%u", url[p], status, wl_rng_below(&r, 256),
                 wl_rng_below(&r, 256), 1 + wl_rng_below(&r, 254));
        want_keys[i] = status == 200 ? (uint32_t)(by_hash[p] >> 32) : 0;
        want[p] += status == 200;
    }
    qsort(by_hash, n_pages, sizeof(uint64_t), cmp_u64);

    uint64_t d_log = wl_alloc_copy(w, log, (size_t)n_rec * PVC_REC);
    uint64_t d_keys = wl_alloc(w, (size_t)n_rec * sizeof(uint32_t));
    uint64_t d_tkeys = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    uint64_t d_tcounts = wl_alloc(w, (size_t)n_slots * sizeof(uint32_t));
    gs_function *km = wl_kernel(w, "pvc_map");
    gs_function *kr = wl_kernel(w, "pvc_reduce");
    int threads = (n_rec + per_thread - 1) / per_thread;
    void *pm[] = {&d_log, &n_rec, &per_thread, &d_keys};
    wl_launch(w, km, (unsigned)(threads + PVC_BLOCK - 1) / PVC_BLOCK, 1, 1, PVC_BLOCK, 1, 1, 0, pm);
    void *pr[] = {&d_keys, &n_rec, &d_tkeys, &d_tcounts, &mask};
    wl_launch(w, kr, (unsigned)(n_rec + PVC_BLOCK - 1) / PVC_BLOCK, 1, 1, PVC_BLOCK, 1, 1, 0, pr);
    wl_dtoh(w, got_keys, d_keys, (size_t)n_rec * sizeof(uint32_t));
    wl_dtoh(w, tkeys, d_tkeys, (size_t)n_slots * sizeof(uint32_t));
    wl_dtoh(w, tcounts, d_tcounts, (size_t)n_slots * sizeof(uint32_t));
    if (wl_ok(w)) {
        wl_check_u32(w, "keys", got_keys, want_keys, (size_t)n_rec);
        unsigned used = 0, bad = 0;
        for (unsigned s = 0; s < n_slots; s++) {
            if (!tkeys[s]) {
                bad += tcounts[s] != 0;
                continue;
            }
            long k = find_key(by_hash, n_pages, tkeys[s]);
            if (k < 0) {
                bad++;
                continue;
            }
            unsigned p = (unsigned)(by_hash[k] & 0xffffffffu);
            bad += got[p] != 0; /* the same page in two slots */
            got[p] = tcounts[s];
            used++;
        }
        wl_check(w, bad == 0, "hash table: %u slots with an unknown or repeated key (or a count without a key)", bad);
        wl_check_u32(w, "views per page", got, want, n_pages);
        wl_note(w, "%u pages viewed, %u table slots used", used, used);
    }
    free(url);
    free(by_hash);
    free(log);
    free(want_keys);
    free(got_keys);
    free(want);
    free(got);
    free(tkeys);
    free(tcounts);
    return wl_finish(w);
}

WL_REGISTER(pvc) = {
    .name = "pvc",
    .summary = "page view count of a text web log: parse and hash URLs, group by key in a hash table",
    .mirrors = "Mars PageViewCount (MapReduce), as in seed 000 ch. 4 C1",
    .stresses = "uncoalesced per-thread record parsing with intra-warp line reuse (cache-sensitive), "
                "byte-level integer work, atomicCAS/atomicAdd hash insertion on Zipf-skewed keys",
    /* Class (the bench/experiments/baseline rules, small, seed 1): 22.2 L1D
     * accesses per 1000 thread instructions under LRR (412 per 1000 warp
     * instructions), so cache-sensitive; perfect DRAM +7 %. fermi15-vws,
     * small: IPC 69.7 (lrr), 124.4 (gto), 258.1 (l1d.perfect). */
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"3000 records, 256 pages", "64K records, 4096 pages", "1M records, 16K pages",
              "4M records, 64K pages"},
    .run = run,
};
