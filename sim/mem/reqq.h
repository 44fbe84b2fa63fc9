/* sim/mem/reqq.h: a cache's bounded miss queue toward the next level.
 *
 * Holds requests with the first cycle each may leave; at most one leaves per
 * cycle, in order (a head not yet ready blocks the ones behind it). Shared by
 * the L1D and the read-only caches; capacity is the cache's miss_queue key.
 * Setup allocates, the per-cycle calls do not.
 */
#ifndef GPUSIM_SIM_MEM_REQQ_H
#define GPUSIM_SIM_MEM_REQQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/mem/memreq.h"
#include "sim/mem/ring.h"

struct reqq_entry {
    struct mem_req req; /* request toward the next level */
    uint64_t ready;     /* first cycle it may be popped */
};

struct reqq {
    struct reqq_entry *e; /* [r.cap] */
    struct idx_ring r;    /* FIFO indices into e */
    uint64_t last_pop;    /* cycle + 1 of the last pop (0 = none): one pop per cycle */
};

static inline void reqq_init(struct reqq *q, uint32_t cap)
{
    idx_ring_init(&q->r, cap);
    q->e = xcalloc(cap, sizeof *q->e);
    q->last_pop = 0;
}
static inline void reqq_fini(struct reqq *q)
{
    free(q->e);
    q->e = NULL;
}
static inline uint32_t reqq_free(const struct reqq *q) { return idx_ring_free(&q->r); }
static inline bool reqq_full(const struct reqq *q) { return idx_ring_full(&q->r); }
static inline bool reqq_empty(const struct reqq *q) { return q->r.n == 0; }
/* Append a zeroed request that may leave from `ready` on; fill its fields. */
static inline struct mem_req *reqq_push(struct reqq *q, uint64_t ready)
{
    struct reqq_entry *m = &q->e[idx_ring_push(&q->r)];
    memset(&m->req, 0, sizeof m->req);
    m->ready = ready;
    return &m->req;
}
/* The head if it may leave at `cycle`, else NULL. */
static inline const struct mem_req *reqq_peek(const struct reqq *q, cycle_t cycle)
{
    if (q->r.n == 0 || q->last_pop == cycle + 1)
        return NULL;
    const struct reqq_entry *m = &q->e[q->r.head];
    return m->ready <= cycle ? &m->req : NULL;
}
static inline bool reqq_pop(struct reqq *q, struct mem_req *out, cycle_t cycle)
{
    const struct mem_req *r = reqq_peek(q, cycle);
    if (!r)
        return false;
    *out = *r;
    idx_ring_pop(&q->r);
    q->last_pop = cycle + 1;
    return true;
}
/* Earliest cycle after `cycle` at which the head may leave (CYCLE_NEVER if empty). */
static inline uint64_t reqq_next(const struct reqq *q, cycle_t cycle)
{
    if (q->r.n == 0)
        return CYCLE_NEVER;
    uint64_t t = q->e[q->r.head].ready;
    return t > cycle + 1 ? t : cycle + 1;
}

#endif /* GPUSIM_SIM_MEM_REQQ_H */
