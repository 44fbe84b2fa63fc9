/* tests/test_arena.c: per-thread allocation arenas (sync/arena.c).
 *
 * Checks alignment and zeroing over a range of sizes (including memory that
 * was dirtied and recycled), that arena_reset/arena_fini free everything
 * (with jemalloc: the arena's own statistics show as many frees as
 * allocations), that arena indices are recycled after fini so engines can be
 * created and destroyed without bound, and that two threads get two arenas
 * whose blocks belong to the right one.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sync/arena.h"
#include "tap.h"

#if ARENA_USES_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Sizes from 1 byte to 4 MiB, odd ones included. */
static const size_t sizes[] = {1, 7, 63, 64, 65, 100, 1000, 4095, 4096, 4097, 65536, 100000, 1u << 22};

static void test_align_zero(void)
{
    struct arena a;
    TAP_EQ_I64(arena_init(&a), 0, "arena_init");
#if ARENA_USES_JEMALLOC
    TAP_OK(a.index != 0, "a jemalloc arena of our own (index %u)", a.index);
#else
    tap_diag("posix_memalign path (GPUSIM_NO_JEMALLOC or sanitizer build)");
#endif
    /* Two passes: the second reuses memory the first dirtied with 0xa5. */
    for (int pass = 0; pass < 2; pass++) {
        bool aligned = true, zero = true;
        for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
            unsigned char *p = arena_alloc(&a, sizes[i]);
            if (!p)
                tap_bail("arena_alloc(%zu) returned NULL", sizes[i]);
            aligned = aligned && ((uintptr_t)p % CACHE_LINE) == 0;
            zero = zero && all_zero(p, sizes[i]);
            memset(p, 0xa5, sizes[i]);
        }
        TAP_OK(aligned, "pass %d: every block is %d-byte aligned", pass, CACHE_LINE);
        TAP_OK(zero, "pass %d: every block is zeroed", pass);
        TAP_EQ_U64(a.n_blocks, ARRAY_LEN(sizes), "pass %d: blocks tracked", pass);
        arena_reset(&a);
        TAP_EQ_U64(a.n_blocks, 0, "pass %d: reset leaves no live block", pass);
        TAP_EQ_U64(a.bytes_live, 0, "pass %d: reset leaves no live byte", pass);
    }
    unsigned char *z = arena_alloc(&a, 0);
    TAP_OK(z != NULL && ((uintptr_t)z % CACHE_LINE) == 0, "a zero-byte request gives an aligned block");
    arena_fini(&a);
    TAP_OK(a.n_blocks == 0 && a.blocks == NULL, "fini clears the descriptor");
}

#if ARENA_USES_JEMALLOC
/* Arena statistic "stats.arenas.<i>.<what>" after refreshing the epoch. */
static uint64_t arena_stat(unsigned index, const char *what)
{
    uint64_t epoch = 1, v = 0;
    size_t sz = sizeof epoch;
    mallctl("epoch", &epoch, &sz, &epoch, sz);
    char name[96];
    snprintf(name, sizeof name, "stats.arenas.%u.%s", index, what);
    sz = sizeof v;
    if (mallctl(name, &v, &sz, NULL, 0) != 0)
        return UINT64_MAX;
    return v;
}
#endif

static void test_many_freed(void)
{
    enum { N = 50000 };
    struct arena a;
    arena_init(&a);
    size_t bytes = 0;
    bool ok = true;
    for (size_t i = 0; i < N; i++) {
        size_t sz = 8 + (i * 37) % 3000;
        unsigned char *p = arena_alloc(&a, sz);
        ok = ok && p && p[0] == 0 && p[sz - 1] == 0;
        if (p)
            p[0] = p[sz - 1] = 1;
        bytes += sz;
    }
    TAP_OK(ok, "%d allocations of 8..3007 bytes succeed, zeroed", N);
    TAP_EQ_U64(a.n_blocks, N, "all blocks tracked");
    TAP_EQ_U64(a.bytes_live, bytes, "live bytes tracked");
#if ARENA_USES_JEMALLOC
    uint64_t nm = arena_stat(a.index, "small.nmalloc") + arena_stat(a.index, "large.nmalloc");
    TAP_OK(nm >= N, "jemalloc counted %llu allocations in arena %u", (unsigned long long)nm, a.index);
    arena_reset(&a);
    uint64_t sm = arena_stat(a.index, "small.nmalloc"), sd = arena_stat(a.index, "small.ndalloc");
    uint64_t lm = arena_stat(a.index, "large.nmalloc"), ld = arena_stat(a.index, "large.ndalloc");
    /* The block list itself (one live allocation) is the only difference. */
    TAP_OK(sm + lm - sd - ld <= 1, "after reset the arena holds at most the block list "
           "(small %llu/%llu, large %llu/%llu malloc/dalloc)", (unsigned long long)sm,
           (unsigned long long)sd, (unsigned long long)lm, (unsigned long long)ld);
#else
    arena_reset(&a);
    tap_skip(2, "jemalloc statistics (posix_memalign path)");
#endif
    arena_fini(&a);
}

static void test_recycle(void)
{
    /* Far more create/destroy cycles than jemalloc's arena limit (4096 with
     * the default MALLOCX_ARENA encoding): only works if fini destroys. */
    enum { CYCLES = 6000 };
    bool ok = true;
    unsigned max_index = 0;
    for (int i = 0; i < CYCLES && ok; i++) {
        struct arena a;
        ok = arena_init(&a) == 0;
        void *p = ok ? arena_alloc(&a, 256) : NULL;
        ok = ok && p != NULL;
        max_index = MAX(max_index, a.index);
        arena_fini(&a);
    }
    TAP_OK(ok, "%d arena init/alloc/fini cycles succeed (largest index %u)", CYCLES, max_index);
}

/* Two owner threads, each with its own arena. */
struct owner {
    struct arena a;     /* the thread's arena (owned by the thread) */
    int tag;            /* byte pattern it writes */
    unsigned index;     /* its jemalloc arena index, kept after fini */
    bool ok_alloc;      /* all allocations succeeded, aligned and zero */
    bool ok_pattern;    /* its pattern survived the other thread's work */
    bool ok_lookup;     /* jemalloc attributes each block to this arena */
    pthread_barrier_t *both; /* both threads allocated (before the pattern check) */
};

static void *owner_thread(void *arg)
{
    struct owner *o = arg;
    enum { NB = 1000 };
    unsigned char *blk[NB];
    o->ok_alloc = arena_init(&o->a) == 0;
    o->index = o->a.index;
    o->ok_lookup = true;
    for (int i = 0; i < NB && o->ok_alloc; i++) {
        blk[i] = arena_alloc(&o->a, 200);
        o->ok_alloc = blk[i] && ((uintptr_t)blk[i] % CACHE_LINE) == 0 && all_zero(blk[i], 200);
        if (o->ok_alloc)
            memset(blk[i], o->tag, 200);
#if ARENA_USES_JEMALLOC
        unsigned ind = 0;
        size_t sz = sizeof ind;
        void *ptr = blk[i];
        if (o->ok_alloc && (mallctl("arenas.lookup", &ind, &sz, &ptr, sizeof ptr) != 0 || ind != o->a.index))
            o->ok_lookup = false;
#endif
    }
    pthread_barrier_wait(o->both);
    o->ok_pattern = o->ok_alloc;
    for (int i = 0; i < NB && o->ok_pattern; i++)
        for (int k = 0; k < 200; k++)
            o->ok_pattern = o->ok_pattern && blk[i][k] == (unsigned char)o->tag;
    arena_fini(&o->a);
    return NULL;
}

static void test_two_threads(void)
{
    pthread_barrier_t both;
    pthread_barrier_init(&both, NULL, 2);
    struct owner o[2] = {{.tag = 0x11, .both = &both}, {.tag = 0x22, .both = &both}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, owner_thread, &o[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&both);
#if ARENA_USES_JEMALLOC
    /* Both arenas existed at once (the barrier), so their indices differ. */
    TAP_OK(o[0].index != o[1].index && o[0].index && o[1].index, "two threads, two arenas (%u, %u)",
           o[0].index, o[1].index);
#endif
    for (int i = 0; i < 2; i++) {
        TAP_OK(o[i].ok_alloc, "thread %d: allocations aligned and zeroed", i);
        TAP_OK(o[i].ok_pattern, "thread %d: its blocks kept its pattern", i);
#if ARENA_USES_JEMALLOC
        TAP_OK(o[i].ok_lookup, "thread %d: arenas.lookup puts every block in its own arena", i);
#else
        tap_skip(1, "arenas.lookup (posix_memalign path)");
#endif
    }
}

static const struct tap_test tests[] = {
    {"align_zero", test_align_zero},
    {"many_freed", test_many_freed},
    {"recycle", test_recycle},
    {"two_threads", test_two_threads},
};

int main(void) { return tap_run(tests, ARRAY_LEN(tests)); }
