/* sync/arena.h: per-thread allocation for engine state.
 *
 * What it models: nothing of the GPU. It is where each engine thread puts
 * the state of the units it owns (SM warps, register files, L2 slices ...),
 * so that
 *  - the memory is first touched by the thread that will use it, and the
 *    kernel places its pages on that thread's NUMA node;
 *  - each thread's units come from its own jemalloc arena (created with
 *    "arenas.create"), so two threads' small objects never share a cache line
 *    or an allocator lock, and the thread cache is bypassed
 *    (MALLOCX_TCACHE_NONE) so a block never migrates through another
 *    thread's cache;
 *  - every block is 64-byte aligned (CACHE_LINE) and zeroed.
 *
 * Blocks are not freed one by one: arena_reset frees them all (the arena
 * stays usable) and arena_fini also destroys the jemalloc arena, so that its
 * index can be recycled (jemalloc allows at most a few thousand arenas per
 * process and tests create many engines).
 *
 * Sanitizer builds: ASan and TSan replace malloc with their own allocator,
 * and memory handed out by jemalloc's mallocx would be invisible to them
 * (no redzones, no race shadow). When GPUSIM_NO_JEMALLOC is defined, and
 * also automatically when the compiler says a sanitizer is on, the arena
 * uses posix_memalign + memset + free instead (same alignment and zeroing;
 * no separate arena, index is 0).
 *
 * Thread safety: one struct arena belongs to one thread; only that thread
 * calls arena_init/arena_alloc/arena_reset (init on the owner so the
 * descriptor's list is first touched there too). arena_fini may run on
 * another thread once the owner has stopped using the arena and the two are
 * ordered (e.g. after pthread_join), as eng_destroy does. Different arenas
 * may be used concurrently.
 */
#ifndef GPUSIM_SYNC_ARENA_H
#define GPUSIM_SYNC_ARENA_H

#include <stddef.h>

#include "sim/base/common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GPUSIM_ARENA_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GPUSIM_ARENA_SANITIZER 1
#endif

/* 1 when arena_alloc uses a jemalloc arena, 0 for the posix_memalign path. */
#if defined(GPUSIM_NO_JEMALLOC) || defined(GPUSIM_ARENA_SANITIZER)
#define ARENA_USES_JEMALLOC 0
#else
#define ARENA_USES_JEMALLOC 1
#endif

struct arena {
    unsigned index;      /* jemalloc arena index; 0 = none (posix_memalign path, or
                            not created: 0 is jemalloc's automatic arena) */
    void **blocks;       /* [cap_blocks] every live block, freed by arena_reset/fini */
    size_t n_blocks;     /* live blocks (entries used in blocks[]) */
    size_t cap_blocks;   /* entries allocated in blocks[] */
    size_t bytes_live;   /* bytes requested by live blocks (before rounding) */
};

#define ARENA_INITIALIZER {0, NULL, 0, 0, 0}

/* Create the thread's arena. Call it on the owning thread. Returns 0, or -1
 * when jemalloc cannot create another arena (a is then unusable). */
int arena_init(struct arena *a);

/* bytes of zeroed memory, aligned to CACHE_LINE, from a's arena; NULL when
 * out of memory. bytes == 0 is treated as 1. */
void *arena_alloc(struct arena *a, size_t bytes);

/* Free every block; the arena stays usable. */
void arena_reset(struct arena *a);

/* Free every block and destroy the jemalloc arena. */
void arena_fini(struct arena *a);

#endif /* GPUSIM_SYNC_ARENA_H */
