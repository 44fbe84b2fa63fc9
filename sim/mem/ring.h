/* sim/mem/ring.h: index arithmetic of a fixed-capacity FIFO ring whose
 * entries live in a separate array owned by the unit (request queues,
 * reply FIFOs, delay lines). One owner thread; no atomics (the cross-thread
 * ring is sync/spsc.h). Overflow and underflow are simulator bugs. */
#ifndef GPUSIM_SIM_MEM_RING_H
#define GPUSIM_SIM_MEM_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"

struct idx_ring {
    uint32_t head; /* index of the oldest entry */
    uint32_t n;    /* entries held */
    uint32_t cap;  /* capacity (entries) */
};

static inline void idx_ring_init(struct idx_ring *r, uint32_t cap)
{
    r->head = 0;
    r->n = 0;
    r->cap = cap;
}
/* i mod cap for i < 2 cap: a ring index one step or one count past the
 * end wrapped without a division (a 32-bit divide by a run-time capacity
 * costs tens of cycles on the per-request and per-operand paths). */
static inline uint32_t ring_wrap(uint32_t i, uint32_t cap) { return i >= cap ? i - cap : i; }
/* Array index of the k-th entry from the head (k < cap). */
static inline uint32_t idx_ring_at(const struct idx_ring *r, uint32_t k) { return ring_wrap(r->head + k, r->cap); }
static inline uint32_t idx_ring_tail(const struct idx_ring *r) { return idx_ring_at(r, r->n); }
static inline bool idx_ring_full(const struct idx_ring *r) { return r->n == r->cap; }
static inline uint32_t idx_ring_free(const struct idx_ring *r) { return r->cap - r->n; }
/* Claim the tail slot; returns its array index. */
static inline uint32_t idx_ring_push(struct idx_ring *r)
{
    SIM_ASSERT(r->n < r->cap, "ring overflow (capacity %u)", r->cap);
    uint32_t i = idx_ring_tail(r);
    r->n++;
    return i;
}
static inline void idx_ring_pop(struct idx_ring *r)
{
    SIM_ASSERT(r->n > 0, "ring underflow (capacity %u)", r->cap);
    r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
    r->n--;
}

#endif /* GPUSIM_SIM_MEM_RING_H */
