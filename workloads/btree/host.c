/* workloads/btree/host.c: driver for btree (B+ tree point and range queries).
 *
 * Inputs: n records with distinct keys (sorted key i = key i-1 + 1..16) and
 * random non-negative values. The host bulk-loads a B+ tree of order 256:
 * leaves hold 128..256 consecutive records and inner nodes 128..256
 * children (the fill of a tree grown by insertions; only a root may hold
 * fewer), levels stored root first in flat arrays (see kernel.cu). Queries:
 * point keys, half of them present; ranges [lo, lo + span] with span up to
 * 64 average key gaps, some starting below the smallest or ending above the
 * largest key. One CTA of 256 threads per query, as in Rodinia.
 *
 * Check (exact, integers): the CPU answers the same queries by binary
 * search over the sorted keys, independently of the tree. */
#include <stdlib.h>

#include "wl.h"

#define ORDER 256

struct tree {
    int *keys, *ptrs, *nkeys; /* ORDER slots per node; nkeys per node */
    int n_nodes, height;
};

/* Split `count` items into groups of ORDER/2..ORDER (random sizes; a single
 * group when count <= ORDER). Writes the group sizes to size[] and returns
 * the group count. */
static int partition(struct wl_rng *r, int count, int *size)
{
    int groups = 0;
    while (count > ORDER) {
        int s = ORDER / 2 + (int)wl_rng_below(r, ORDER / 2 + 1);
        if (count - s < ORDER / 2)
            s = count - ORDER / 2;
        size[groups++] = s;
        count -= s;
    }
    size[groups++] = count;
    return groups;
}

/* Bulk-load the tree over the sorted keys. */
static void build_tree(struct wl *w, struct wl_rng *r, const int *key, int n, struct tree *t)
{
    enum { MAX_LEVELS = 16 };
    int *size[MAX_LEVELS];     /* per level: children (records at level 0) per node */
    int *minkey[MAX_LEVELS];   /* per level: smallest key under each node */
    int count[MAX_LEVELS];     /* nodes per level */
    int levels = 0, items = n;
    do {
        size[levels] = wl_host_alloc(w, (size_t)items * sizeof(int));
        count[levels] = partition(r, items, size[levels]);
        minkey[levels] = wl_host_alloc(w, (size_t)count[levels] * sizeof(int));
        int first = 0;
        for (int v = 0; v < count[levels]; v++) {
            minkey[levels][v] = levels == 0 ? key[first] : minkey[levels - 1][first];
            first += size[levels][v];
        }
        items = count[levels++];
    } while (items > 1);

    /* Flatten root first: level l (0 = leaves) starts at offset[l]. */
    int offset[MAX_LEVELS];
    t->n_nodes = 0;
    for (int l = levels - 1; l >= 0; l--) {
        offset[l] = t->n_nodes;
        t->n_nodes += count[l];
    }
    t->height = levels;
    t->keys = wl_host_alloc(w, (size_t)t->n_nodes * ORDER * sizeof(int));
    t->ptrs = wl_host_alloc(w, (size_t)t->n_nodes * ORDER * sizeof(int));
    t->nkeys = wl_host_alloc(w, (size_t)t->n_nodes * sizeof(int));
    for (int l = 0; l < levels; l++) {
        int first = 0;
        for (int v = 0; v < count[l]; v++) {
            int node = offset[l] + v, nk = size[l][v];
            t->nkeys[node] = nk;
            for (int c = 0; c < ORDER; c++) {
                int *k = &t->keys[(size_t)node * ORDER + c], *p = &t->ptrs[(size_t)node * ORDER + c];
                if (c >= nk) {
                    *k = 0x7fffffff;
                    *p = -1;
                } else if (l == 0) {
                    *k = key[first + c];
                    *p = first + c;
                } else {
                    *k = minkey[l - 1][first + c];
                    *p = offset[l - 1] + first + c;
                }
            }
            first += nk;
        }
    }
    for (int l = 0; l < levels; l++) {
        free(size[l]);
        free(minkey[l]);
    }
}

/* Number of keys < q in the sorted key array (lower bound). */
static int count_below(const int *key, int n, int q)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (key[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 60000, 1000000, 4000000, 16000000);
    int nq = (int)wl_pick(w, 100, 5000, 50000, 200000);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    int *key = wl_host_alloc(w, (size_t)n * sizeof(int));
    int *val = wl_host_alloc(w, (size_t)n * sizeof(int));
    for (int i = 0, k = 0; i < n; i++) {
        k += 1 + (int)wl_rng_below(&r, 16);
        key[i] = k;
        val[i] = (int)(wl_rng_u32(&r) >> 1);
    }
    const int kmax = key[n - 1];
    struct tree t;
    build_tree(w, &r, key, n, &t);
    wl_note(w, "%d records, %d nodes, height %d", n, t.n_nodes, t.height);

    int *q = wl_host_alloc(w, (size_t)nq * sizeof(int));
    int *lo = wl_host_alloc(w, (size_t)nq * sizeof(int));
    int *hi = wl_host_alloc(w, (size_t)nq * sizeof(int));
    for (int i = 0; i < nq; i++) {
        q[i] = i % 2 ? key[wl_rng_below(&r, (uint32_t)n)] : (int)wl_rng_below(&r, (uint32_t)kmax + 20);
        lo[i] = (int)wl_rng_below(&r, (uint32_t)kmax + 200) - 100;
        hi[i] = lo[i] + (int)wl_rng_below(&r, 64 * 9);
    }

    uint64_t dkeys = wl_alloc_copy(w, t.keys, (size_t)t.n_nodes * ORDER * sizeof(int));
    uint64_t dptrs = wl_alloc_copy(w, t.ptrs, (size_t)t.n_nodes * ORDER * sizeof(int));
    uint64_t dnk = wl_alloc_copy(w, t.nkeys, (size_t)t.n_nodes * sizeof(int));
    uint64_t dval = wl_alloc_copy(w, val, (size_t)n * sizeof(int));
    uint64_t dq = wl_alloc_copy(w, q, (size_t)nq * sizeof(int));
    uint64_t dlo = wl_alloc_copy(w, lo, (size_t)nq * sizeof(int));
    uint64_t dhi = wl_alloc_copy(w, hi, (size_t)nq * sizeof(int));
    uint64_t dres = wl_alloc(w, (size_t)nq * sizeof(int));
    uint64_t dstart = wl_alloc(w, (size_t)nq * sizeof(int));
    uint64_t dcount = wl_alloc(w, (size_t)nq * sizeof(int));
    gs_function *fk = wl_kernel(w, "bt_find_k");
    gs_function *fr = wl_kernel(w, "bt_find_range_k");
    void *pk[] = {&dkeys, &dptrs, &dnk, &t.height, &dval, &dq, &dres};
    wl_launch(w, fk, (unsigned)nq, 1, 1, ORDER, 1, 1, 0, pk);
    void *pr[] = {&dkeys, &dptrs, &dnk, &t.height, &dlo, &dhi, &dstart, &dcount};
    wl_launch(w, fr, (unsigned)nq, 1, 1, ORDER, 1, 1, 0, pr);

    int *got = wl_host_alloc(w, (size_t)nq * sizeof(int));
    int *want = wl_host_alloc(w, (size_t)nq * sizeof(int));
    wl_dtoh(w, got, dres, (size_t)nq * sizeof(int));
    if (wl_ok(w)) {
        int found = 0;
        for (int i = 0; i < nq; i++) {
            int p = count_below(key, n, q[i]);
            want[i] = p < n && key[p] == q[i] ? val[p] : -1;
            found += want[i] >= 0;
        }
        wl_check_i32(w, "find_k value", got, want, (size_t)nq);
        wl_note(w, "%d of %d point queries hit", found, nq);
    }
    wl_dtoh(w, got, dstart, (size_t)nq * sizeof(int));
    if (wl_ok(w)) {
        for (int i = 0; i < nq; i++)
            want[i] = count_below(key, n, lo[i]);
        wl_check_i32(w, "range start", got, want, (size_t)nq);
    }
    wl_dtoh(w, got, dcount, (size_t)nq * sizeof(int));
    if (wl_ok(w)) {
        for (int i = 0; i < nq; i++)
            want[i] = count_below(key, n, hi[i] + 1) - count_below(key, n, lo[i]);
        wl_check_i32(w, "range count", got, want, (size_t)nq);
    }
    free(key);
    free(val);
    free(t.keys);
    free(t.ptrs);
    free(t.nkeys);
    free(q);
    free(lo);
    free(hi);
    free(got);
    free(want);
    return wl_finish(w);
}

WL_REGISTER(btree) = {
    .name = "btree",
    .summary = "B+ tree (order 256) point (findK) and range (findRangeK) queries, one CTA per query",
    .mirrors = "Rodinia b+tree",
    .stresses = "irregular pointer chasing, CTA-wide parallel key compare, barriers per level",
    .sizes = {"60K records, 100+100 queries", "1M records, 5000+5000 queries", "4M records, 50K+50K queries",
              "16M records, 200K+200K queries"},
    .run = run,
};
