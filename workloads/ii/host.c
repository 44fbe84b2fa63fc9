/* workloads/ii/host.c: driver for ii (positional inverted index, after Mars
 * InvertedIndex).
 *
 * Input from --seed: n_docs documents of 4..40 (tiny) or 8..56 tokens,
 * term ids over a vocabulary of 4096 with a Zipf-like skew: a token first
 * picks one of 12 octaves [2^b - 1, 2^(b+1) - 1) uniformly, then a term in
 * it, so term t occurs with probability about 1/(12 (t + 1)). The 15 terms
 * of the first four octaves (a third of all tokens) are stop words.
 * Host loop (Mars builds its offsets with a device prefix sum; here the
 * host does that step between the two launches): ii_count, copy the counts
 * back, exclusive prefix sum into offsets, upload, ii_fill. 256-thread
 * blocks over the documents, last block partial.
 *
 * Check: the per-term counts exactly, and every term's posting list as a
 * set: the device's list is sorted on the host (its order is the order the
 * atomics were performed in, which depends on the schedule) and compared
 * exactly with the reference list, which the CPU builds in (document,
 * position) order. */
#include <stdlib.h>

#include "wl.h"

#define II_BLOCK 256
#define II_VOCAB 4096u
#define II_OCTAVES 12u /* II_VOCAB = 2^II_OCTAVES */
#define II_STOP 15u    /* terms 0..14: the first four octaves */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int run(struct wl *w)
{
    int n_docs = (int)wl_pick(w, 600, 24576, 196608, 786432);
    unsigned min_len = (unsigned)wl_pick(w, 4, 8, 8, 8), max_len = (unsigned)wl_pick(w, 40, 56, 120, 120);
    unsigned stop = II_STOP;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    unsigned *doc_start = wl_host_alloc(w, ((size_t)n_docs + 1) * sizeof(unsigned));
    if (!doc_start)
        return wl_finish(w);
    doc_start[0] = 0;
    for (int k = 0; k < n_docs; k++)
        doc_start[k + 1] = doc_start[k] + min_len + wl_rng_below(&r, max_len - min_len + 1);
    size_t n_tok = doc_start[n_docs];
    unsigned *tokens = wl_host_alloc(w, n_tok * sizeof(unsigned));
    unsigned *counts = wl_host_alloc(w, II_VOCAB * sizeof(unsigned));
    unsigned *offsets = wl_host_alloc(w, (II_VOCAB + 1) * sizeof(unsigned));
    unsigned *got_counts = wl_host_alloc(w, II_VOCAB * sizeof(unsigned));
    if (!tokens || !counts || !offsets || !got_counts)
        return wl_finish(w);
    for (size_t p = 0; p < n_tok; p++) {
        unsigned b = wl_rng_below(&r, II_OCTAVES);
        tokens[p] = (1u << b) - 1 + wl_rng_below(&r, 1u << b);
        if (tokens[p] >= stop)
            counts[tokens[p]]++;
    }
    offsets[0] = 0;
    for (unsigned t = 0; t < II_VOCAB; t++)
        offsets[t + 1] = offsets[t] + counts[t];
    size_t n_post = offsets[II_VOCAB];
    uint64_t *want = wl_host_alloc(w, (n_post ? n_post : 1) * sizeof(uint64_t));
    uint64_t *got = wl_host_alloc(w, (n_post ? n_post : 1) * sizeof(uint64_t));
    unsigned *fill = wl_host_alloc(w, II_VOCAB * sizeof(unsigned));
    if (!want || !got || !fill)
        return wl_finish(w);
    for (int k = 0; k < n_docs; k++)
        for (unsigned p = doc_start[k]; p < doc_start[k + 1]; p++) {
            unsigned t = tokens[p];
            if (t >= stop)
                want[offsets[t] + fill[t]++] = (uint64_t)k << 32 | (p - doc_start[k]);
        }

    uint64_t d_tok = wl_alloc_copy(w, tokens, n_tok * sizeof(unsigned));
    uint64_t d_start = wl_alloc_copy(w, doc_start, ((size_t)n_docs + 1) * sizeof(unsigned));
    uint64_t d_counts = wl_alloc(w, II_VOCAB * sizeof(unsigned));
    uint64_t d_offsets = wl_alloc(w, II_VOCAB * sizeof(unsigned));
    uint64_t d_cursor = wl_alloc(w, II_VOCAB * sizeof(unsigned));
    uint64_t d_post = wl_alloc(w, (n_post ? n_post : 1) * sizeof(uint64_t));
    gs_function *kc = wl_kernel(w, "ii_count");
    gs_function *kf = wl_kernel(w, "ii_fill");
    unsigned grid = (unsigned)(n_docs + II_BLOCK - 1) / II_BLOCK;
    void *pc[] = {&d_tok, &d_start, &n_docs, &stop, &d_counts};
    wl_launch(w, kc, grid, 1, 1, II_BLOCK, 1, 1, 0, pc);
    wl_dtoh(w, got_counts, d_counts, II_VOCAB * sizeof(unsigned));
    if (wl_ok(w))
        wl_check_u32(w, "counts", got_counts, counts, II_VOCAB);
    /* The host's scan step, from the device's counts. */
    unsigned *dev_off = wl_host_alloc(w, II_VOCAB * sizeof(unsigned));
    if (dev_off && wl_ok(w)) {
        unsigned s = 0;
        for (unsigned t = 0; t < II_VOCAB; t++) {
            dev_off[t] = s;
            s += got_counts[t];
        }
        wl_htod(w, d_offsets, dev_off, II_VOCAB * sizeof(unsigned));
        void *pf[] = {&d_tok, &d_start, &n_docs, &stop, &d_offsets, &d_cursor, &d_post};
        wl_launch(w, kf, grid, 1, 1, II_BLOCK, 1, 1, 0, pf);
        wl_dtoh(w, got, d_post, n_post * sizeof(uint64_t));
        if (wl_ok(w)) {
            for (unsigned t = 0; t < II_VOCAB; t++)
                qsort(got + offsets[t], counts[t], sizeof(uint64_t), cmp_u64);
            wl_check_u64(w, "postings (each list sorted)", got, want, n_post);
        }
    }
    wl_note(w, "%zu tokens, %zu postings", n_tok, n_post);
    free(doc_start);
    free(tokens);
    free(counts);
    free(offsets);
    free(got_counts);
    free(want);
    free(got);
    free(fill);
    free(dev_off);
    return wl_finish(w);
}

WL_REGISTER(ii) = {
    .name = "ii",
    .summary = "positional inverted index of token documents: per-term counts, offsets, posting lists",
    .mirrors = "Mars InvertedIndex (MapReduce), as in seed 000 ch. 4 C1",
    .stresses = "uncoalesced per-thread document scans with intra-warp line reuse (cache-sensitive), "
                "global atomics on Zipf-skewed terms, scattered 64-bit stores",
    /* Class (the bench/experiments/baseline rules, small, seed 1): 169 L1D
     * accesses (loads, stores, atomics) per 1000 thread instructions under
     * LRR (2489 per 1000 warp instructions), so cache-sensitive; perfect
     * DRAM changes IPC by < 1 %. fermi15-vws, small: IPC 15.2 (lrr), 19.2
     * (gto), 31.5 (l1d.perfect). */
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"600 docs (4-40 tokens)", "24K docs (8-56 tokens)", "192K docs (8-120 tokens)",
              "768K docs (8-120 tokens)"},
    .run = run,
};
