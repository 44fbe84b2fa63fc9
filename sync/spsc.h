/* sync/spsc.h: lock-free single-producer/single-consumer ring.
 *
 * One ring per ordered pair of host threads carries engine messages. The
 * descriptor (indices, capacity) is separate from the caller-owned slot
 * array, as in ck_ring. Capacity is a power of two; head and tail are
 * free-running uint32_t counters (they wrap; differences are taken modulo
 * 2^32) masked into the slot array. The producer's index and the consumer's
 * index sit on separate 64-byte lines, each with a cached copy of the other
 * side's index so that the common case touches only its own line.
 *
 * Memory ordering (each pair is named at both ends):
 *  [P1] producer: write slot, then store tail with release
 *       pairs with [C1] consumer: load tail with acquire, then read slot.
 *  [C2] consumer: read slot, then store head with release
 *       pairs with [P2] producer: load head with acquire before reusing a slot.
 *
 * Not modelled here: what happens when the ring is full. spsc_push returns
 * false and the caller keeps the message (the engine's producer-owned
 * overflow list, sync/engine.c). SPSC_RING_DEFINE generates typed wrappers,
 * including reserve/commit for in-place construction.
 */
#ifndef GPUSIM_SYNC_SPSC_H
#define GPUSIM_SYNC_SPSC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sim/base/common.h"
#include "sync/atomics.h"

struct spsc_ring {
    /* consumer-written line */
    CACHE_ALIGNED atomic_u32 head; /* next slot to read (free-running) */
    uint32_t tail_cache;           /* consumer's last view of tail */
    /* producer-written line */
    CACHE_ALIGNED atomic_u32 tail; /* next slot to write (free-running) */
    uint32_t head_cache;           /* producer's last view of head */
    /* read-only after init */
    CACHE_ALIGNED uint32_t mask;   /* capacity - 1 (capacity in slots, a power of two) */
    uint32_t capacity;             /* slots */
};

static inline void spsc_init(struct spsc_ring *r, uint32_t capacity)
{
    SIM_ASSERT(is_pow2_u64(capacity), "spsc capacity %u is not a power of two", capacity);
    atomic_init(&r->head, 0);
    atomic_init(&r->tail, 0);
    r->tail_cache = 0;
    r->head_cache = 0;
    r->mask = capacity - 1;
    r->capacity = capacity;
}

/* Producer: index of a free slot to fill, or -1 when full. */
static inline int64_t spsc_reserve(struct spsc_ring *r)
{
    uint32_t tail = at_load_rlx_u32(&r->tail); /* own index */
    if (tail - r->head_cache >= r->capacity) {
        r->head_cache = at_load_acq_u32(&r->head); /* [P2] pairs with [C2] */
        if (tail - r->head_cache >= r->capacity)
            return -1;
    }
    return (int64_t)(tail & r->mask);
}

/* Producer: publish the slot returned by the last spsc_reserve. */
static inline void spsc_commit(struct spsc_ring *r)
{
    uint32_t tail = at_load_rlx_u32(&r->tail);
    at_store_rel_u32(&r->tail, tail + 1); /* [P1] pairs with [C1] */
}

/* Consumer: index of the oldest filled slot, or -1 when empty. */
static inline int64_t spsc_peek(struct spsc_ring *r)
{
    uint32_t head = at_load_rlx_u32(&r->head); /* own index */
    if (head == r->tail_cache) {
        r->tail_cache = at_load_acq_u32(&r->tail); /* [C1] pairs with [P1] */
        if (head == r->tail_cache)
            return -1;
    }
    return (int64_t)(head & r->mask);
}

/* Consumer: release the slot returned by the last spsc_peek. */
static inline void spsc_release(struct spsc_ring *r)
{
    uint32_t head = at_load_rlx_u32(&r->head);
    at_store_rel_u32(&r->head, head + 1); /* [C2] pairs with [P2] */
}

/* Typed wrappers: SPSC_RING_DEFINE(name, T) gives
 *   bool name_push(struct spsc_ring *r, T *slots, const T *v)
 *   bool name_pop(struct spsc_ring *r, T *slots, T *out)
 *   T   *name_reserve(struct spsc_ring *r, T *slots)   (NULL when full) + spsc_commit
 *   T   *name_peek(struct spsc_ring *r, T *slots)      (NULL when empty) + spsc_release */
#if defined(__GNUC__)
#define SPSC_MAYBE_UNUSED __attribute__((unused))
#else
#define SPSC_MAYBE_UNUSED
#endif

#define SPSC_RING_DEFINE(name, T)                                                                 \
    static inline SPSC_MAYBE_UNUSED T *name##_reserve(struct spsc_ring *r, T *slots)                                \
    {                                                                                             \
        int64_t i = spsc_reserve(r);                                                              \
        return i < 0 ? NULL : &slots[i];                                                          \
    }                                                                                             \
    static inline SPSC_MAYBE_UNUSED T *name##_peek(struct spsc_ring *r, T *slots)                                   \
    {                                                                                             \
        int64_t i = spsc_peek(r);                                                                 \
        return i < 0 ? NULL : &slots[i];                                                          \
    }                                                                                             \
    static inline SPSC_MAYBE_UNUSED bool name##_push(struct spsc_ring *r, T *slots, const T *v)                     \
    {                                                                                             \
        T *s = name##_reserve(r, slots);                                                          \
        if (!s)                                                                                   \
            return false;                                                                         \
        memcpy(s, v, sizeof *s);                                                                  \
        spsc_commit(r);                                                                           \
        return true;                                                                              \
    }                                                                                             \
    static inline SPSC_MAYBE_UNUSED bool name##_pop(struct spsc_ring *r, T *slots, T *out)                          \
    {                                                                                             \
        T *s = name##_peek(r, slots);                                                             \
        if (!s)                                                                                   \
            return false;                                                                         \
        memcpy(out, s, sizeof *out);                                                              \
        spsc_release(r);                                                                          \
        return true;                                                                              \
    }

#endif /* GPUSIM_SYNC_SPSC_H */
