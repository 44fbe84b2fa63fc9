/* sync/arena.c: see arena.h.
 *
 * Operation mix: a few hundred to a few thousand allocations per thread at
 * partition init, none in the quantum loop, all freed at engine teardown.
 * The block list is therefore a plain growable array.
 */
#include "sync/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ARENA_USES_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#if ARENA_USES_JEMALLOC
/* Flags shared by every call on arena a: its own arena, no thread cache (the
 * tcache belongs to whichever thread calls, and a block freed through it
 * could be handed to another thread's allocation). */
static int arena_flags(const struct arena *a)
{
    return (int)MALLOCX_ARENA(a->index) | MALLOCX_TCACHE_NONE;
}
#endif

int arena_init(struct arena *a)
{
    memset(a, 0, sizeof *a);
#if ARENA_USES_JEMALLOC
    unsigned idx = 0;
    size_t sz = sizeof idx;
    if (mallctl("arenas.create", &idx, &sz, NULL, 0) != 0)
        return -1;
    a->index = idx;
#endif
    return 0;
}

/* Make room for one more entry in a->blocks. Returns 0 or -1. */
static int arena_grow_list(struct arena *a)
{
    if (a->n_blocks < a->cap_blocks)
        return 0;
    size_t cap = a->cap_blocks ? a->cap_blocks * 2 : 64;
    void **nb;
#if ARENA_USES_JEMALLOC
    if (a->blocks)
        nb = rallocx(a->blocks, cap * sizeof *nb, arena_flags(a));
    else
        nb = mallocx(cap * sizeof *nb, arena_flags(a));
#else
    nb = realloc(a->blocks, cap * sizeof *nb);
#endif
    if (!nb)
        return -1;
    a->blocks = nb;
    a->cap_blocks = cap;
    return 0;
}

void *arena_alloc(struct arena *a, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (arena_grow_list(a) != 0)
        return NULL;
    void *p;
#if ARENA_USES_JEMALLOC
    /* MALLOCX_ZERO costs nothing on fresh pages (known zero) and memsets
     * recycled ones in the calling thread: either way the first write to the
     * page comes from the owner. */
    p = mallocx(bytes, arena_flags(a) | MALLOCX_ALIGN(CACHE_LINE) | MALLOCX_ZERO);
    if (!p)
        return NULL;
#else
    if (posix_memalign(&p, CACHE_LINE, bytes) != 0)
        return NULL;
    memset(p, 0, bytes); /* first touch by the calling (owner) thread */
#endif
    a->blocks[a->n_blocks++] = p;
    a->bytes_live += bytes;
    return p;
}

void arena_reset(struct arena *a)
{
    for (size_t i = 0; i < a->n_blocks; i++) {
#if ARENA_USES_JEMALLOC
        dallocx(a->blocks[i], arena_flags(a));
#else
        free(a->blocks[i]);
#endif
    }
    a->n_blocks = 0;
    a->bytes_live = 0;
}

void arena_fini(struct arena *a)
{
    arena_reset(a);
#if ARENA_USES_JEMALLOC
    if (a->blocks)
        dallocx(a->blocks, arena_flags(a));
    /* Destroy the arena (nothing is left in it) so that jemalloc can recycle
     * its index: arenas are otherwise never freed, and the process limit is
     * reached after a few thousand engine create/destroy cycles.
     * Index 0 is jemalloc's automatic arena: arenas.create never returns it,
     * so it marks "no arena" (init failed, or ARENA_INITIALIZER). Destroying
     * only fails if a thread were bound to the arena with "thread.arena",
     * which this module never does. */
    if (a->index != 0) {
        char name[48];
        snprintf(name, sizeof name, "arena.%u.destroy", a->index);
        if (NEVER(mallctl(name, NULL, NULL, NULL, 0) != 0)) {
            /* release builds: the arena leaks, its memory was freed above */
        }
    }
#else
    free(a->blocks);
#endif
    memset(a, 0, sizeof *a);
}
