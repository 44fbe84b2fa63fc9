/* workloads/mummer/host.c: driver for mummer (MUMmer-style matching of
 * short reads against a reference through its suffix array).
 *
 * Input from --seed: a random reference of n_ref bases (A, C, G, T uniform,
 * stored as bytes 0..3) and n_query reads of QLEN bases. A read is a copy of
 * a random window of the reference with each base replaced by another with
 * probability 1/12 (sequencing errors, so the exact matches are broken into
 * pieces of varied length); one read in 8 is random (it matches only by
 * chance, about log4(n_ref) bases). The host builds the suffix array by
 * prefix doubling (radix-sorted rank pairs, O(n log n)); reads are stored
 * row-major, one after the other, as mummergpu stores its queries.
 *
 * One launch of mummer_match, 256 threads per CTA, one thread per read: for
 * every OFF_STEP-th read offset o in [0, QLEN - MIN_LEN] the longest prefix
 * of the read suffix that occurs in the reference; per read the best
 * length, its offset (first on ties) and a reference position where it
 * occurs. NOTE: MUMmer matches from every offset; sampling every 8th keeps
 * the timing run of small near a minute with a grid that fills every warp
 * slot once (15360 reads = 60 CTAs = 4 per SM, the most at the kernel's 31
 * registers).
 *
 * Check (exact, integers): the CPU reference repeats the kernel's suffix
 * array search, so lengths, offsets and positions must agree exactly.
 * Independently of the suffix array, every reported match is verified
 * against the reference text (the bases really agree over the reported
 * length, and the match cannot be extended within the read and reference),
 * and for the first BRUTE_QUERIES reads the best length and offset are
 * recomputed by brute force over every reference position. */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define QLEN 32        /* bases per read */
#define MIN_LEN 16     /* shortest read suffix searched (offsets 0..QLEN-MIN_LEN) */
#define OFF_STEP 8     /* searched offsets: 0, 8, 16 */
#define MM_BLOCK 256
#define BRUTE_QUERIES 24

/* Suffix array of s[0..n) by prefix doubling: sort the suffixes by their
 * first 2^j bases for j = 0, 1, ... using the ranks of the previous round
 * as (first half, second half) keys, two stable counting-sort passes per
 * round, until all ranks differ. rank, tmp: n ints; cnt: n + 2 ints. */
static void build_sa(const unsigned char *s, int n, int *sa, int *rank, int *tmp, int *cnt)
{
    for (int i = 0; i < n; i++)
        rank[i] = s[i]; /* 0..3 <= n */
    for (int k = 1;; k <<= 1) {
        /* keys in [0, n + 1]: rank + 1, and 0 for "past the end" */
        memset(cnt, 0, (size_t)(n + 2) * sizeof(int));
        for (int i = 0; i < n; i++)
            cnt[i + k < n ? rank[i + k] + 1 : 0]++;
        for (int v = 1; v < n + 2; v++)
            cnt[v] += cnt[v - 1];
        for (int i = n - 1; i >= 0; i--)
            tmp[--cnt[i + k < n ? rank[i + k] + 1 : 0]] = i;
        memset(cnt, 0, (size_t)(n + 2) * sizeof(int));
        for (int i = 0; i < n; i++)
            cnt[rank[i] + 1]++;
        for (int v = 1; v < n + 2; v++)
            cnt[v] += cnt[v - 1];
        for (int j = n - 1; j >= 0; j--)
            sa[--cnt[rank[tmp[j]] + 1]] = tmp[j];
        /* new ranks: equal (first, second) pairs share a rank */
        tmp[sa[0]] = 0;
        for (int j = 1; j < n; j++) {
            int a = sa[j - 1], b = sa[j];
            int a2 = a + k < n ? rank[a + k] : -1, b2 = b + k < n ? rank[b + k] : -1;
            tmp[b] = tmp[a] + (rank[a] != rank[b] || a2 != b2);
        }
        memcpy(rank, tmp, (size_t)n * sizeof(int));
        if (rank[sa[n - 1]] == n - 1)
            break;
    }
}

/* The kernel's search for one read: see kernel.cu. */
static void match_cpu(const unsigned char *ref, const int *sa, int n_ref, const unsigned char *qs, int *len_out,
                      int *off_out, int *pos_out)
{
    int b_len = 0, b_off = 0, b_pos = 0;
    for (int o = 0; o + MIN_LEN <= QLEN; o += OFF_STEP) {
        const unsigned char *p = qs + o;
        int m = QLEN - o;
        int lo = -1, hi = n_ref, l_lo = 0, l_hi = 0;
        while (hi - lo > 1) {
            int mid = (lo + hi) >> 1, s = sa[mid];
            int l = l_lo < l_hi ? l_lo : l_hi, rest = n_ref - s;
            while (l < m && l < rest && p[l] == ref[s + l])
                l++;
            if (l == m || (l < rest && p[l] < ref[s + l])) {
                hi = mid;
                l_hi = l;
            } else {
                lo = mid;
                l_lo = l;
            }
        }
        int len, pos;
        if (l_hi >= l_lo) {
            len = l_hi;
            pos = hi < n_ref ? sa[hi] : 0;
        } else {
            len = l_lo;
            pos = sa[lo];
        }
        if (len > b_len) {
            b_len = len;
            b_off = o;
            b_pos = pos;
        }
    }
    *len_out = b_len;
    *off_out = b_off;
    *pos_out = b_pos;
}

static int run(struct wl *w)
{
    int n_ref = (int)wl_pick(w, 4096, 1 << 16, 1 << 20, 1 << 22);
    int n_query = (int)wl_pick(w, 256, 15360, 120 * 1024, 480 * 1024);
    int qlen = QLEN, min_len = MIN_LEN, off_step = OFF_STEP;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    unsigned char *ref = wl_host_alloc(w, (size_t)n_ref);
    for (int i = 0; i < n_ref; i++)
        ref[i] = (unsigned char)wl_rng_below(&r, 4);
    unsigned char *qs = wl_host_alloc(w, (size_t)n_query * QLEN);
    for (int q = 0; q < n_query; q++) {
        unsigned char *p = qs + (size_t)q * QLEN;
        if (wl_rng_below(&r, 8) == 0) {
            for (int i = 0; i < QLEN; i++)
                p[i] = (unsigned char)wl_rng_below(&r, 4);
            continue;
        }
        int at = (int)wl_rng_below(&r, (uint32_t)(n_ref - QLEN + 1));
        for (int i = 0; i < QLEN; i++) {
            p[i] = ref[at + i];
            if (wl_rng_below(&r, 12) == 0)
                p[i] = (unsigned char)((p[i] + 1 + wl_rng_below(&r, 3)) & 3);
        }
    }
    int *sa = wl_host_alloc(w, (size_t)n_ref * sizeof(int));
    int *rank = wl_host_alloc(w, (size_t)n_ref * sizeof(int));
    int *tmp = wl_host_alloc(w, (size_t)n_ref * sizeof(int));
    int *cnt = wl_host_alloc(w, (size_t)(n_ref + 2) * sizeof(int));
    build_sa(ref, n_ref, sa, rank, tmp, cnt);
    free(rank);
    free(tmp);
    free(cnt);

    uint64_t d_ref = wl_alloc_copy(w, ref, (size_t)n_ref);
    uint64_t d_sa = wl_alloc_copy(w, sa, (size_t)n_ref * sizeof(int));
    uint64_t d_qs = wl_alloc_copy(w, qs, (size_t)n_query * QLEN);
    uint64_t d_len = wl_alloc(w, (size_t)n_query * sizeof(int));
    uint64_t d_off = wl_alloc(w, (size_t)n_query * sizeof(int));
    uint64_t d_pos = wl_alloc(w, (size_t)n_query * sizeof(int));
    gs_function *f = wl_kernel(w, "mummer_match");
    unsigned grid = (unsigned)((n_query + MM_BLOCK - 1) / MM_BLOCK);
    void *params[] = {&d_ref, &d_sa, &n_ref, &d_qs, &n_query, &qlen, &min_len, &off_step, &d_len, &d_off, &d_pos};
    wl_launch(w, f, grid, 1, 1, MM_BLOCK, 1, 1, 0, params);
    size_t qb = (size_t)n_query * sizeof(int);
    int *len = wl_host_alloc(w, qb), *off = wl_host_alloc(w, qb), *pos = wl_host_alloc(w, qb);
    wl_dtoh(w, len, d_len, qb);
    wl_dtoh(w, off, d_off, qb);
    wl_dtoh(w, pos, d_pos, qb);

    if (wl_ok(w)) {
        int *l_want = wl_host_alloc(w, qb), *o_want = wl_host_alloc(w, qb), *p_want = wl_host_alloc(w, qb);
        long long sum_len = 0;
        for (int q = 0; q < n_query; q++) {
            match_cpu(ref, sa, n_ref, qs + (size_t)q * QLEN, &l_want[q], &o_want[q], &p_want[q]);
            sum_len += l_want[q];
        }
        /* Independent of the suffix array: each reference answer is a real,
         * maximal occurrence (checked on the CPU answers, which must equal
         * the device's below). */
        int bad = 0;
        for (int q = 0; q < n_query && bad < 10; q++) {
            const unsigned char *p = qs + (size_t)q * QLEN + o_want[q];
            int L = l_want[q], at = p_want[q];
            bool ok = L >= 1 && L <= QLEN - o_want[q] && at >= 0 && at + L <= n_ref &&
                      memcmp(p, ref + at, (size_t)L) == 0 &&
                      !(o_want[q] + L < QLEN && at + L < n_ref && p[L] == ref[at + L]);
            if (!wl_check(w, ok, "reference answer of read %d (len %d, offset %d, pos %d) is not a maximal occurrence",
                          q, L, o_want[q], at))
                bad++;
        }
        /* Brute force over every reference position for the first reads. */
        for (int q = 0; q < n_query && q < BRUTE_QUERIES; q++) {
            const unsigned char *rd = qs + (size_t)q * QLEN;
            int b_len = 0, b_off = 0;
            for (int o = 0; o + MIN_LEN <= QLEN; o += OFF_STEP)
                for (int s = 0; s < n_ref; s++) {
                    int l = 0;
                    while (o + l < QLEN && s + l < n_ref && rd[o + l] == ref[s + l])
                        l++;
                    if (l > b_len) {
                        b_len = l;
                        b_off = o;
                    }
                }
            wl_check(w, b_len == l_want[q] && b_off == o_want[q],
                     "read %d: brute force finds length %d at offset %d, the suffix-array search %d at %d", q, b_len,
                     b_off, l_want[q], o_want[q]);
        }
        wl_note(w, "%d reads of %d bases against %d reference bases: mean best match %.2f bases", n_query, QLEN, n_ref,
                (double)sum_len / n_query);
        wl_check_i32(w, "best_len", len, l_want, (size_t)n_query);
        wl_check_i32(w, "best_off", off, o_want, (size_t)n_query);
        wl_check_i32(w, "best_pos", pos, p_want, (size_t)n_query);
        free(l_want);
        free(o_want);
        free(p_want);
    }
    wl_free(w, d_ref);
    wl_free(w, d_sa);
    wl_free(w, d_qs);
    wl_free(w, d_len);
    wl_free(w, d_off);
    wl_free(w, d_pos);
    free(ref);
    free(qs);
    free(sa);
    free(len);
    free(off);
    free(pos);
    return wl_finish(w);
}

WL_REGISTER(mummer) = {
    .name = "mummer",
    .summary = "longest exact matches of short reads (32 bases, from offsets 0, 8, 16) in a DNA reference by suffix-array binary search",
    .mirrors = "Rodinia mummergpu (MUMmerGPU), as in seed 000 ch. 4 C1 (MUM); suffix array instead of a suffix tree",
    .stresses = "irregular pointer chasing (sa[mid] -> reference), shared search-tree top, uncoalesced per-thread read walks, divergence",
    .flags = WL_CACHE_SENS,
    .sizes = {"4K bases, 256 reads", "64K bases, 15360 reads", "1M bases, 120K reads", "4M bases, 480K reads"},
    .run = run,
};
