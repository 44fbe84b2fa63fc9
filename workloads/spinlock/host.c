/* workloads/spinlock/host.c: driver for spinlock (lock-protected bucketed
 * hash table with per-bucket records and per-key linked-list nodes).
 *
 * Input from --seed: n_keys distinct 32-bit keys; each item draws key
 * number floor(n_keys * u^2) for u uniform in [0, 1) (skewed: the first
 * keys are hot, so their buckets' locks are contended, also by lanes of one
 * warp) and a value uniform in [0, 65536). Launch: one thread per item,
 * 256-thread blocks, partial last block. Nothing waits for another block
 * (a lock holder is always running), so the grid is not limited.
 * Check (exact, integers): every bucket's count, sum, sum of squares, min
 * and max; every list, canonicalised by sorting each bucket's nodes by key,
 * against the reference (bucket, key, count, sum) entries; the node pool
 * counter (one node per distinct key) and all locks free. */
#include <stdlib.h>

#include "wl.h"

#define NIL 0xffffffffu

/* As in kernel.cu. */
static uint32_t hash_key(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

/* One list node as (bucket, key, count, sum). */
struct entry {
    uint32_t bucket, key, count;
    uint64_t sum;
};

static int entry_cmp(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Check a sorted entry list field by field. */
static void check_entries(struct wl *w, const struct entry *got, const struct entry *want, size_t n)
{
    uint32_t *g32 = wl_host_alloc(w, n * sizeof(uint32_t) * 2), *w32 = g32 + n;
    uint64_t *g64 = wl_host_alloc(w, n * sizeof(uint64_t) * 2), *w64 = g64 + n;
    for (size_t i = 0; i < n; i++) {
        g32[i] = got[i].bucket;
        w32[i] = want[i].bucket;
    }
    wl_check_u32(w, "node.bucket", g32, w32, n);
    for (size_t i = 0; i < n; i++) {
        g32[i] = got[i].key;
        w32[i] = want[i].key;
    }
    wl_check_u32(w, "node.key", g32, w32, n);
    for (size_t i = 0; i < n; i++) {
        g32[i] = got[i].count;
        w32[i] = want[i].count;
        g64[i] = got[i].sum;
        w64[i] = want[i].sum;
    }
    wl_check_u32(w, "node.count", g32, w32, n);
    wl_check_u64(w, "node.sum", g64, w64, n);
    free(g32);
    free(g64);
}

static int run(struct wl *w)
{
    int n_items = (int)wl_pick(w, 1000, 262144, 6291456, 33554432);
    int n_keys = (int)wl_pick(w, 300, 32768, 262144, 2097152);
    int n_buckets = (int)wl_pick(w, 61, 8192, 65536, 524288);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    size_t ni = (size_t)n_items, nk = (size_t)n_keys, nb = (size_t)n_buckets;
    uint32_t *keyset = wl_host_alloc(w, nk * sizeof(uint32_t));
    uint32_t *keys = wl_host_alloc(w, ni * sizeof(uint32_t)), *vals = wl_host_alloc(w, ni * sizeof(uint32_t));
    /* reference: bucket records, and per key-set index its node */
    uint32_t *cnt = wl_host_alloc(w, nb * sizeof(uint32_t)), *mn = wl_host_alloc(w, nb * sizeof(uint32_t));
    uint32_t *mx = wl_host_alloc(w, nb * sizeof(uint32_t));
    uint64_t *sum = wl_host_alloc(w, nb * sizeof(uint64_t)), *sumsq = wl_host_alloc(w, nb * sizeof(uint64_t));
    struct entry *kref = wl_host_alloc(w, nk * sizeof(struct entry));
    struct entry *want = wl_host_alloc(w, nk * sizeof(struct entry));
    struct entry *got = wl_host_alloc(w, nk * sizeof(struct entry));
    /* device copies of the table */
    uint32_t *g_cnt = wl_host_alloc(w, nb * sizeof(uint32_t)), *g_mn = wl_host_alloc(w, nb * sizeof(uint32_t));
    uint32_t *g_mx = wl_host_alloc(w, nb * sizeof(uint32_t)), *g_head = wl_host_alloc(w, nb * sizeof(uint32_t));
    uint32_t *g_lock = wl_host_alloc(w, nb * sizeof(uint32_t));
    uint64_t *g_sum = wl_host_alloc(w, nb * sizeof(uint64_t)), *g_sumsq = wl_host_alloc(w, nb * sizeof(uint64_t));
    uint32_t *g_nkey = wl_host_alloc(w, nk * sizeof(uint32_t)), *g_ncount = wl_host_alloc(w, nk * sizeof(uint32_t));
    uint32_t *g_nnext = wl_host_alloc(w, nk * sizeof(uint32_t));
    uint64_t *g_nsum = wl_host_alloc(w, nk * sizeof(uint64_t));

    /* distinct keys: an odd multiplier is a bijection of the 32-bit ints */
    uint32_t offset = wl_rng_u32(&r);
    for (size_t j = 0; j < nk; j++)
        keyset[j] = (uint32_t)j * 0x9E3779B1u + offset;
    for (size_t b = 0; b < nb; b++)
        mn[b] = 0xffffffffu;
    size_t n_distinct = 0;
    for (size_t i = 0; i < ni; i++) {
        double u = wl_rng_double(&r, 0.0, 1.0);
        size_t j = (size_t)(u * u * (double)nk);
        keys[i] = keyset[j];
        vals[i] = wl_rng_below(&r, 65536);
        uint32_t b = hash_key(keys[i]) % (uint32_t)n_buckets, v = vals[i];
        cnt[b]++;
        sum[b] += v;
        sumsq[b] += (uint64_t)v * v;
        if (v < mn[b])
            mn[b] = v;
        if (v > mx[b])
            mx[b] = v;
        if (kref[j].count++ == 0) {
            kref[j].bucket = b;
            kref[j].key = keys[i];
            n_distinct++;
        }
        kref[j].sum += v;
    }
    size_t m = 0;
    for (size_t j = 0; j < nk; j++)
        if (kref[j].count)
            want[m++] = kref[j];
    qsort(want, m, sizeof *want, entry_cmp);

    uint64_t dkeys = wl_alloc_copy(w, keys, ni * sizeof(uint32_t));
    uint64_t dvals = wl_alloc_copy(w, vals, ni * sizeof(uint32_t));
    uint64_t dlock = wl_alloc(w, nb * sizeof(uint32_t)), dcnt = wl_alloc(w, nb * sizeof(uint32_t));
    uint64_t dsum = wl_alloc(w, nb * sizeof(uint64_t)), dsumsq = wl_alloc(w, nb * sizeof(uint64_t));
    uint64_t dmn = wl_alloc(w, nb * sizeof(uint32_t)), dmx = wl_alloc(w, nb * sizeof(uint32_t));
    uint64_t dhead = wl_alloc(w, nb * sizeof(uint32_t)), dpool = wl_alloc(w, sizeof(uint32_t));
    uint64_t dnkey = wl_alloc(w, nk * sizeof(uint32_t)), dncount = wl_alloc(w, nk * sizeof(uint32_t));
    uint64_t dnsum = wl_alloc(w, nk * sizeof(uint64_t)), dnnext = wl_alloc(w, nk * sizeof(uint32_t));
    wl_memset(w, dmn, 0xff, nb * sizeof(uint32_t));   /* min starts at UINT32_MAX */
    wl_memset(w, dhead, 0xff, nb * sizeof(uint32_t)); /* empty lists (NIL) */
    gs_function *k = wl_kernel(w, "hash_insert");
    unsigned block = 256, grid = (unsigned)((n_items + (int)block - 1) / (int)block);
    void *params[] = {&dkeys, &dvals, &n_items, &n_buckets, &dlock, &dcnt, &dsum, &dsumsq,
                      &dmn,   &dmx,   &dhead,   &dpool,     &dnkey, &dncount, &dnsum, &dnnext};
    wl_launch(w, k, grid, 1, 1, block, 1, 1, 0, params);
    uint32_t pool = 0;
    wl_dtoh(w, g_lock, dlock, nb * sizeof(uint32_t));
    wl_dtoh(w, g_cnt, dcnt, nb * sizeof(uint32_t));
    wl_dtoh(w, g_sum, dsum, nb * sizeof(uint64_t));
    wl_dtoh(w, g_sumsq, dsumsq, nb * sizeof(uint64_t));
    wl_dtoh(w, g_mn, dmn, nb * sizeof(uint32_t));
    wl_dtoh(w, g_mx, dmx, nb * sizeof(uint32_t));
    wl_dtoh(w, g_head, dhead, nb * sizeof(uint32_t));
    wl_dtoh(w, &pool, dpool, sizeof pool);
    wl_dtoh(w, g_nkey, dnkey, nk * sizeof(uint32_t));
    wl_dtoh(w, g_ncount, dncount, nk * sizeof(uint32_t));
    wl_dtoh(w, g_nsum, dnsum, nk * sizeof(uint64_t));
    wl_dtoh(w, g_nnext, dnnext, nk * sizeof(uint32_t));
    if (!wl_ok(w))
        goto out;
    wl_note(w, "%zu distinct keys in %d buckets", n_distinct, n_buckets);
    wl_check_u32(w, "count", g_cnt, cnt, nb);
    wl_check_u64(w, "sum", g_sum, sum, nb);
    wl_check_u64(w, "sumsq", g_sumsq, sumsq, nb);
    wl_check_u32(w, "min", g_mn, mn, nb);
    wl_check_u32(w, "max", g_mx, mx, nb);
    size_t locked = 0;
    for (size_t b = 0; b < nb; b++)
        locked += g_lock[b] != 0;
    wl_check(w, locked == 0, "%zu locks still held", locked);
    if (!wl_check(w, pool == n_distinct, "node pool: %u nodes allocated, expected %zu", pool, n_distinct))
        goto out;
    /* Walk every list (at most `pool` nodes in all, guarding against cycles
     * and bad links), then compare canonically ordered. */
    size_t g = 0;
    for (size_t b = 0; b < nb; b++)
        for (uint32_t nd = g_head[b]; nd != NIL; nd = g_nnext[nd]) {
            if (!wl_check(w, nd < pool && g < pool, "bucket %zu: bad list link %u or too many nodes", b, nd))
                goto out;
            got[g++] = (struct entry){(uint32_t)b, g_nkey[nd], g_ncount[nd], g_nsum[nd]};
        }
    if (!wl_check(w, g == m, "lists hold %zu nodes, expected %zu", g, m))
        goto out;
    qsort(got, g, sizeof *got, entry_cmp);
    check_entries(w, got, want, m);
out:
    free(keyset);
    free(keys);
    free(vals);
    free(cnt);
    free(mn);
    free(mx);
    free(sum);
    free(sumsq);
    free(kref);
    free(want);
    free(got);
    free(g_cnt);
    free(g_mn);
    free(g_mx);
    free(g_head);
    free(g_lock);
    free(g_sum);
    free(g_sumsq);
    free(g_nkey);
    free(g_ncount);
    free(g_nnext);
    free(g_nsum);
    return wl_finish(w);
}

WL_REGISTER(spinlock) = {
    .name = "spinlock",
    .summary = "hash-table insertion under per-bucket spin locks (multi-field records and per-key list nodes)",
    .mirrors = "lock-based concurrent GPU data structures (bucketed hash table with spin locks)",
    .stresses = "atomicCAS/atomicExch lock contention (hot keys, intra-warp), fences, pointer chasing",
    .flags = WL_SHARING | WL_CACHE_SENS,
    .sizes = {"1000 items, 300 keys, 61 buckets", "256K items, 32K keys, 8K buckets",
              "6M items, 256K keys, 64K buckets", "32M items, 2M keys, 512K buckets"},
    .run = run,
};
