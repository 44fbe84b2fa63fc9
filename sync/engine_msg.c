/* sync/engine_msg.c: the parallel engine's messages: eng_send (straight
 * into the partition's heap inside a partition; across partitions into the
 * SPSC ring of the thread pair, or the producer's overflow list of the
 * quantum's parity when the ring is full), the per-partition message pool
 * and heap ordered by (arrival, source unit, source sequence), the drain of
 * a thread's inbound rings and overflow lists at the start of a quantum, and
 * the allocation and release of channels and message storage. The inbox's
 * consumer side (heap_pop) is inline in engine_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sync/engine.h"
#include "sync/engine_internal.h"
#include "sync/spsc.h"

SPSC_RING_DEFINE(msgring, struct eng_msg)

/* ---------------------------------------------------------------- heap */

/* Allocation happens only when the pool or heap must grow (amortised, not
 * per cycle). */
static uint32_t pool_get(struct eng_part_rt *p)
{
    if (p->n_free == 0) {
        struct eng_msg *chunk = malloc(POOL_CHUNK * sizeof *chunk);
        if (!chunk)
            sim_panic("out of memory growing the message pool of partition %d", p->id);
        p->chunks = xrealloc(p->chunks, (p->n_chunks + 1) * sizeof *p->chunks);
        p->chunks[p->n_chunks] = chunk;
        if (p->cap_free < (p->n_chunks + 1) * POOL_CHUNK) {
            p->cap_free = (p->n_chunks + 1) * POOL_CHUNK;
            p->free_slots = xrealloc(p->free_slots, p->cap_free * sizeof *p->free_slots);
        }
        for (uint32_t i = 0; i < POOL_CHUNK; i++)
            p->free_slots[p->n_free++] = (uint32_t)(p->n_chunks * POOL_CHUNK + (POOL_CHUNK - 1 - i));
        p->n_chunks++;
    }
    return p->free_slots[--p->n_free];
}

/* Insert the key of the message in pool slot `slot` into the heap. */
static void heap_insert(struct eng_part_rt *p, uint32_t slot, ps_t arrival, uint32_t src, uint64_t seq)
{
    if (p->heap_n == p->heap_cap) {
        p->heap_cap = p->heap_cap ? 2 * p->heap_cap : 256;
        p->heap = xrealloc(p->heap, p->heap_cap * sizeof *p->heap);
    }
    struct heap_ent ent = {arrival, seq, src, slot};
    size_t i = p->heap_n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ent_less(&ent, &p->heap[parent]))
            break;
        p->heap[i] = p->heap[parent];
        i = parent;
    }
    p->heap[i] = ent;
}

/* A message from a channel (ring or overflow list) into its partition. */
static void heap_push(struct eng_part_rt *p, const struct eng_msg *m)
{
    uint32_t slot = pool_get(p);
    memcpy(pool_msg(p, slot), m, ENG_MSG_HEADER_BYTES + m->len);
    heap_insert(p, slot, m->arrival, m->src, m->seq);
}

/* ---------------------------------------------------------------- send */

static ps_t link_min(const struct engine *e, uint32_t src, uint32_t dst)
{
    if (e->link_min) /* NOTE(link-table) in engine.c */
        return e->link_min[(size_t)src * e->n_units + dst];
    const struct eng_unit_rec *u = &e->units[src];
    unsigned lo = 0, hi = u->n_links;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (u->links[mid].dst < dst)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < u->n_links && u->links[lo].dst == dst) ? u->links[lo].min_lat : 0;
}

void eng_send(struct eng_ctx *ctx, uint32_t src, uint32_t dst, ps_t now, ps_t latency, uint32_t type,
              const void *payload, uint32_t len)
{
    eng_send2(ctx, src, dst, now, latency, type, payload, len, NULL, 0);
}

/* Payload bytes of a message: p0 then p1. */
static inline void put_payload(struct eng_msg *m, const void *p0, uint32_t len0, const void *p1, uint32_t len1)
{
    if (len0)
        memcpy(m->payload, p0, len0);
    if (len1)
        memcpy(m->payload + len0, p1, len1);
}

void eng_send2(struct eng_ctx *ctx, uint32_t src, uint32_t dst, ps_t now, ps_t latency, uint32_t type,
               const void *p0, uint32_t len0, const void *p1, uint32_t len1)
{
    uint32_t len = len0 + len1;
    struct engine *e = ctx->eng;
    const struct eng_unit_rec *su = &e->units[src];
    SIM_DEBUG_ASSERT(ctx->steal ? at_load_rlx_u64(&e->claims[su->partition].q) == ENG_CLAIM(e->q_index, ctx->index)
                                : e->parts[su->partition].owner == ctx->index,
                     "engine: unit %u sends from thread %d, which does not run it this quantum", src, ctx->index);
    ps_t min = link_min(e, src, dst);
    if (UNLIKELY(min == 0))
        sim_panic("engine: unit %u (%s) sends to unit %u with no declared link", src, su->ops->kind, dst);
    if (UNLIKELY(latency < min))
        sim_panic("engine: unit %u sends to %u with latency %llu ps < link minimum %llu ps", src, dst,
                  (unsigned long long)latency, (unsigned long long)min);
    SIM_ASSERT(len <= ENG_MSG_PAYLOAD, "engine: message payload %u > %d bytes", len, ENG_MSG_PAYLOAD);

    struct eng_part_rt *sp = e->rt[su->partition];
    int dpart = e->units[dst].partition;
    ps_t arrival = now + latency;
    bool cross = dpart != su->partition;

    /* Cross-partition: never inside the current quantum. In exact mode
     * latency >= L >= Q guarantees it; in relaxed mode clamp to t_end.
     * NOTE(relaxed-late): the clamp is recorded in the message (`late`, ps)
     * so that the receiver can tell the due time from the delivery time;
     * it is a function of the send time, the latency and Q only, so it is
     * the same whatever the thread count. */
    uint32_t late = 0;
    if (cross && arrival < ctx->t_end) {
        SIM_ASSERT(e->cfg.relaxed, "engine: exact-mode message %u->%u arrives at %llu inside the quantum "
                   "ending %llu", src, dst, (unsigned long long)arrival, (unsigned long long)ctx->t_end);
        SIM_ASSERT(ctx->t_end - arrival <= UINT32_MAX, "engine: relaxed message late by more than 2^32 ps");
        late = (uint32_t)(ctx->t_end - arrival);
        arrival = ctx->t_end;
    }
    SIM_DEBUG_ASSERT(type <= UINT16_MAX, "engine: message type 0x%x does not fit 16 bits", type); /* model constants */
    int dthr = e->parts[dpart].owner;
    /* NOTE(same-thread-send): a message to a partition this thread owns
     * (its own, or another one it runs) is written once, straight into a
     * pool slot of the destination and keyed into its heap, instead of
     * going through the thread's own ring and the next quantum's drain (two
     * more copies of up to 256 bytes; on one thread every message took that
     * path). Delivery is unchanged: the heap orders by the message key
     * (arrival, source, sequence) whatever the insertion order, and a
     * cross-partition message arrives at or after t_end, so a partition run
     * later in this quantum does not see it before the next one, as with
     * the drain. Only the owner touches a partition's pool and heap during a
     * quantum (with stealing, the thread that claimed it), and owners change
     * only in the serial step. */
    /* NOTE(steal): in a stealing quantum the shortcut is taken only for a
     * destination this thread has claimed (and so has run, or runs now:
     * no other thread touches it before the barrier). */
    bool direct = !cross || (ctx->steal ? at_load_rlx_u64(&e->claims[dpart].q) == ENG_CLAIM(e->q_index, ctx->index)
                                        : dthr == ctx->index);
    if (direct) {
        struct eng_part_rt *dp = e->rt[dpart];
        uint32_t slot = pool_get(dp);
        struct eng_msg *m = pool_msg(dp, slot);
        uint64_t seq = sp->seq[su->local]++;
        m->arrival = arrival;
        m->src = src;
        m->dst = dst;
        m->seq = seq;
        m->type = (uint16_t)type;
        m->len = (uint16_t)len;
        m->late = late;
        put_payload(m, p0, len0, p1, len1);
        heap_insert(dp, slot, arrival, src, seq);
        if (cross) {
            ctx->rep.msgs_sent++;
            if (arrival < ctx->sent_min)
                ctx->sent_min = arrival;
        }
        return;
    }

    struct eng_chan *ch = &e->chans[(size_t)ctx->index * e->n_threads + (size_t)dthr];
    struct eng_msg *m = msgring_reserve(&ch->ring, ch->slots);
    bool in_ring = m != NULL;
    if (!in_ring) {
        struct overflow *o = &ch->ovf[ctx->parity][e->parts[su->partition].kind];
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 256;
            o->msgs = xrealloc(o->msgs, o->cap * sizeof *o->msgs);
        }
        m = &o->msgs[o->n++];
        ctx->rep.msgs_overflow++;
    }
    m->arrival = arrival;
    m->src = src;
    m->dst = dst;
    m->seq = sp->seq[su->local]++;
    m->type = (uint16_t)type;
    m->len = (uint16_t)len;
    m->late = late;
    put_payload(m, p0, len0, p1, len1);
    if (in_ring)
        spsc_commit(&ch->ring);
    ctx->rep.msgs_sent++;
    if (dthr != ctx->index) /* own channel: a stealing quantum (NOTE(steal)) */
        ctx->rep.msgs_xthread++; /* NOTE(msgs-xthread) in engine.c */
    if (arrival < ctx->sent_min)
        ctx->sent_min = arrival;
}

/* ------------------------------------------------------------- storage */

void eng_part_rt_free(struct eng_part_rt *p)
{
    for (size_t i = 0; i < p->n_chunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    free(p->free_slots);
    free(p->heap);
    /* the struct and its per-unit arrays belong to the thread arena */
}

static void drain_ring(struct engine *e, struct eng_chan *ch)
{
    struct eng_msg *m;
    while ((m = msgring_peek(&ch->ring, ch->slots)) != NULL) {
        heap_push(e->rt[e->units[m->dst].partition], m);
        spsc_release(&ch->ring);
    }
}

static void drain_ovf(struct engine *e, struct overflow *o)
{
    for (size_t i = 0; i < o->n; i++)
        heap_push(e->rt[e->units[o->msgs[i].dst].partition], &o->msgs[i]);
    o->n = 0;
}

/* Move every message sent to this thread in the previous quantum (ring plus
 * the producer's overflow lists of that quantum's parity) into the heaps. */
void eng_drain_inbound(struct engine *e, struct eng_ctx *ctx)
{
    unsigned prev = ctx->parity ^ 1u;
    for (unsigned src = 0; src < e->n_threads; src++) {
        struct eng_chan *ch = &e->chans[(size_t)src * e->n_threads + (size_t)ctx->index];
        drain_ring(e, ch);
        drain_ovf(e, &ch->ovf[prev][ENG_PART_SM]);
        drain_ovf(e, &ch->ovf[prev][ENG_PART_MEM]);
    }
}

/* NOTE(ahead) in engine.c: before running ahead, once every active
 * thread's memory partitions have run the current quantum (their mem_done,
 * acquired by the caller): everything in the rings, and what memory
 * partitions put in the overflow lists of the current quantum's parity.
 * The producers may still be sending (rings are single-producer
 * single-consumer; their SM partitions' overflow lists are not read). */
void eng_drain_ahead(struct engine *e, struct eng_ctx *ctx)
{
    for (unsigned src = 0; src < e->n_threads; src++) {
        struct eng_chan *ch = &e->chans[(size_t)src * e->n_threads + (size_t)ctx->index];
        drain_ring(e, ch);
        drain_ovf(e, &ch->ovf[ctx->parity][ENG_PART_MEM]);
    }
}

/* Serial step only (every other thread waits at the barrier, which orders
 * their ring and overflow writes before these reads): empty every channel,
 * both overflow parities included, into the destination partitions'
 * heaps. The heap order is the message key, so where a message waited
 * makes no difference to when it is delivered. */
void eng_chans_flush(struct engine *e)
{
    size_t nch = (size_t)e->n_threads * e->n_threads;
    for (size_t c = 0; c < nch; c++) {
        struct eng_chan *ch = &e->chans[c];
        drain_ring(e, ch);
        for (unsigned par = 0; par < 2; par++)
            for (unsigned k = 0; k < 2; k++)
                drain_ovf(e, &ch->ovf[par][k]);
    }
}

void eng_chans_create(struct engine *e)
{
    size_t nch = (size_t)e->n_threads * e->n_threads;
    e->chans = aligned_alloc(CACHE_LINE, u64_round_up(nch * sizeof *e->chans, CACHE_LINE));
    if (!e->chans)
        sim_panic("out of memory");
    memset(e->chans, 0, nch * sizeof *e->chans);
    for (size_t i = 0; i < nch; i++) {
        spsc_init(&e->chans[i].ring, (uint32_t)e->cfg.ring_slots);
        e->chans[i].slots = xcalloc(e->cfg.ring_slots, sizeof(struct eng_msg));
    }
}

void eng_chans_free(struct engine *e)
{
    if (!e->chans)
        return;
    size_t n = (size_t)e->n_threads * e->n_threads;
    for (size_t i = 0; i < n; i++) {
        free(e->chans[i].slots);
        for (unsigned par = 0; par < 2; par++)
            for (unsigned k = 0; k < 2; k++)
                free(e->chans[i].ovf[par][k].msgs);
    }
    free(e->chans);
    e->chans = NULL;
}
