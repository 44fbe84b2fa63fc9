/* sync/engine.c: the deterministic parallel engine; see engine.h.
 *
 * Structure:
 *  - Topology (domains, partitions, units, links) is built on one thread and
 *    is read-only while running.
 *  - Each host thread (struct eng_ctx) owns a contiguous block of SM-kind or
 *    memory-kind partitions. A partition's runtime (struct eng_part_rt: wake
 *    times, per-unit send sequence numbers, inbound message heap) is
 *    allocated by its owner thread from its own arena.
 *  - Cross-partition messages go through one channel per ordered pair of
 *    threads (an SPSC ring plus a producer-owned overflow list per quantum
 *    parity); a consumer drains its inbound channels at the start of each
 *    quantum into the destination partitions' heaps. Messages between units
 *    of one partition go straight into the partition's heap.
 *  - Heap order is the key (arrival, source unit, source sequence), which is
 *    unique, so delivery order never depends on which thread got there first.
 *
 * What it deliberately does not do: balance load dynamically (the mapping of
 * partitions to threads is fixed per engine), or move partitions between
 * threads. Both would break first-touch placement for little gain.
 */
#include "sync/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/diag.h"
#include "sync/arena.h"
#include "sync/atomics.h"
#include "sync/qbarrier.h"
#include "sync/spsc.h"
#include "sync/topo.h"

SPSC_RING_DEFINE(msgring, struct eng_msg)

#define POOL_CHUNK_SHIFT 8
#define POOL_CHUNK (1u << POOL_CHUNK_SHIFT) /* messages per pool chunk */

/* ------------------------------------------------------------ topology */

struct eng_domain {
    char name[16]; /* for dumps */
    ps_t period;   /* ps */
};

struct eng_part_desc {
    char name[32];
    enum eng_part_kind kind;
    eng_part_init_fn init;
    eng_part_fini_fn fini;
    uint32_t *units;  /* unit ids in tick order: (domain rank, unit id) */
    unsigned n_units;
    unsigned cap_units;
    int owner;        /* owning thread index, -1 before the first run */
};

struct eng_unit_rec {
    int partition;                  /* owning partition */
    int domain;                     /* clock domain */
    uint32_t local;                 /* index inside the partition's tick order */
    const struct eng_unit_ops *ops; /* behaviour */
    void *self;                     /* bound state (set by the partition init) */
    struct eng_link *links;         /* outgoing links, sorted by dst */
    unsigned n_links;
    unsigned cap_links;
};

struct eng_link {
    uint32_t dst;    /* destination unit */
    ps_t min_lat;    /* ps */
};

/* ------------------------------------------------------------- runtime */

/* Heap entry; the message body lives in the partition's chunked pool so
 * pointers handed to recv stay valid while recv sends more messages. */
struct heap_ent {
    ps_t arrival;  /* ps */
    uint64_t seq;  /* source sequence number */
    uint32_t src;  /* source unit */
    uint32_t slot; /* pool slot */
};

struct eng_part_rt {
    int id;              /* partition index */
    unsigned n_units;    /* units */
    const uint32_t *units; /* unit ids in tick order (points into the descriptor) */
    ps_t *next;          /* per local unit: next tick time (ps, on an edge), PS_NEVER = idle */
    ps_t *period;        /* per local unit: its domain period (ps) */
    uint64_t *seq;       /* per local unit: next send sequence number */
    struct heap_ent *heap; /* inbound messages, min-heap on (arrival, src, seq) */
    size_t heap_n, heap_cap; /* entries */
    struct eng_msg **chunks; /* pool chunks of POOL_CHUNK messages */
    size_t n_chunks;     /* chunks allocated */
    uint32_t *free_slots; /* free pool slots (stack) */
    size_t n_free, cap_free; /* entries */
};

/* Producer-owned overflow buffer for one channel and one quantum parity. */
struct overflow {
    struct eng_msg *msgs; /* messages that did not fit in the ring */
    size_t n, cap;        /* entries */
};

/* Thread i -> thread j. The ring's descriptor keeps producer and consumer
 * indices on separate lines; ovf[p] is written by the producer during
 * quanta of parity p and read and emptied by the consumer at the start of
 * the following quantum (the barrier orders the two). */
struct eng_chan {
    struct spsc_ring ring;
    struct eng_msg *slots; /* ring storage, capacity entries */
    CACHE_ALIGNED struct overflow ovf[2];
};

struct eng_ctx {
    CACHE_ALIGNED struct engine *eng;
    int index;                /* thread index */
    struct arena arena;       /* this thread's allocator */
    bool arena_ready;
    int *parts;               /* owned partitions */
    unsigned n_parts;
    ps_t t_end;               /* end of the quantum being run (ps) */
    unsigned parity;          /* quantum parity for overflow buffers */
    ps_t sent_min;            /* min arrival of cross-partition messages sent this quantum */
    ps_t local_next;          /* published before the barrier: next event of this thread */
    struct qbar_state bar;    /* barrier companion */
    struct eng_thread_report rep;
    pthread_t tid;
    int pin_cpu;
};

struct engine {
    struct engine_cfg cfg;
    void *model;
    eng_serial_fn serial;

    struct eng_domain *domains;
    unsigned n_domains, cap_domains;
    struct eng_part_desc *parts;
    unsigned n_parts, cap_parts;
    struct eng_unit_rec *units;
    unsigned n_units, cap_units;

    ps_t lookahead;    /* ps, PS_NEVER when no cross-partition link */
    ps_t quantum;      /* ps */
    bool finalized;
    bool initialized;  /* partition inits have run */

    /* Run state (written by the serial step, read by all after the barrier). */
    struct eng_part_rt **rt; /* per partition runtime, allocated by its owner */
    struct eng_ctx *threads; /* [n_threads] */
    unsigned n_threads;
    struct eng_chan *chans;  /* [n_threads * n_threads], index src * n + dst */
    struct qbar bar;
    ps_t q_start;            /* start of the next quantum to run */
    uint64_t q_index;        /* quanta executed so far */
    ps_t serial_wake_min;    /* min wake time requested by the serial hook */
    bool stop;
    enum eng_finish finish;
    const atomic_u32 *stop_flag;
    void (*progress)(void *arg, ps_t now);
    void *progress_arg;
    struct topo topo;
    bool topo_ready;
    enum eng_pin pin;
    uint64_t quanta, skipped;
    struct eng_thread_report *reports;
};

/* --------------------------------------------------------------- utils */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* First edge of period p at or after t. */
static inline ps_t edge_at_or_after(ps_t t, ps_t p)
{
    if (t >= PS_NEVER - p)
        return PS_NEVER;
    return (t + p - 1) / p * p;
}

/* --------------------------------------------------------------- build */

struct engine *eng_create(const struct engine_cfg *cfg, void *model)
{
    struct engine *e = xcalloc(1, sizeof *e);
    e->cfg = *cfg;
    e->model = model;
    e->lookahead = PS_NEVER;
    return e;
}

int eng_domain_add(struct engine *e, const char *name, ps_t period_ps)
{
    SIM_ASSERT(!e->finalized, "engine: domain added after finalize");
    SIM_ASSERT(period_ps > 0, "engine: domain %s has period 0", name);
    if (e->n_domains == e->cap_domains) {
        e->cap_domains = e->cap_domains ? 2 * e->cap_domains : 4;
        e->domains = xrealloc(e->domains, e->cap_domains * sizeof *e->domains);
    }
    struct eng_domain *d = &e->domains[e->n_domains];
    snprintf(d->name, sizeof d->name, "%s", name);
    d->period = period_ps;
    return (int)e->n_domains++;
}

int eng_partition_add(struct engine *e, const char *name, enum eng_part_kind kind, eng_part_init_fn init,
                      eng_part_fini_fn fini)
{
    SIM_ASSERT(!e->finalized, "engine: partition added after finalize");
    if (e->n_parts == e->cap_parts) {
        e->cap_parts = e->cap_parts ? 2 * e->cap_parts : 16;
        e->parts = xrealloc(e->parts, e->cap_parts * sizeof *e->parts);
    }
    struct eng_part_desc *p = &e->parts[e->n_parts];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->kind = kind;
    p->init = init;
    p->fini = fini;
    p->owner = -1;
    return (int)e->n_parts++;
}

uint32_t eng_unit_add(struct engine *e, int partition, int domain, const struct eng_unit_ops *ops)
{
    SIM_ASSERT(!e->finalized, "engine: unit added after finalize");
    SIM_ASSERT(partition >= 0 && (unsigned)partition < e->n_parts, "engine: bad partition %d", partition);
    SIM_ASSERT(domain >= 0 && (unsigned)domain < e->n_domains, "engine: bad domain %d", domain);
    SIM_ASSERT(ops && ops->tick && ops->recv, "engine: unit ops incomplete");
    if (e->n_units == e->cap_units) {
        e->cap_units = e->cap_units ? 2 * e->cap_units : 64;
        e->units = xrealloc(e->units, e->cap_units * sizeof *e->units);
    }
    struct eng_unit_rec *u = &e->units[e->n_units];
    memset(u, 0, sizeof *u);
    u->partition = partition;
    u->domain = domain;
    u->ops = ops;
    struct eng_part_desc *p = &e->parts[partition];
    if (p->n_units == p->cap_units) {
        p->cap_units = p->cap_units ? 2 * p->cap_units : 4;
        p->units = xrealloc(p->units, p->cap_units * sizeof *p->units);
    }
    p->units[p->n_units++] = e->n_units;
    return e->n_units++;
}

void eng_link_add(struct engine *e, uint32_t src, uint32_t dst, ps_t min_latency_ps)
{
    SIM_ASSERT(!e->finalized, "engine: link added after finalize");
    SIM_ASSERT(src < e->n_units && dst < e->n_units, "engine: link %u->%u names no unit", src, dst);
    SIM_ASSERT(min_latency_ps > 0, "engine: link %u->%u has zero latency", src, dst);
    struct eng_unit_rec *u = &e->units[src];
    for (unsigned i = 0; i < u->n_links; i++) {
        if (u->links[i].dst == dst) {
            u->links[i].min_lat = MIN(u->links[i].min_lat, min_latency_ps);
            return;
        }
    }
    if (u->n_links == u->cap_links) {
        u->cap_links = u->cap_links ? 2 * u->cap_links : 4;
        u->links = xrealloc(u->links, u->cap_links * sizeof *u->links);
    }
    /* keep sorted by dst for binary search in eng_send */
    unsigned i = u->n_links;
    while (i > 0 && u->links[i - 1].dst > dst) {
        u->links[i] = u->links[i - 1];
        i--;
    }
    u->links[i].dst = dst;
    u->links[i].min_lat = min_latency_ps;
    u->n_links++;
}

void eng_set_serial(struct engine *e, eng_serial_fn fn) { e->serial = fn; }

static int cmp_tick_order(const void *a, const void *b, void *arg)
{
    const struct engine *e = arg;
    uint32_t ua = *(const uint32_t *)a, ub = *(const uint32_t *)b;
    int da = e->units[ua].domain, db = e->units[ub].domain;
    if (da != db)
        return da < db ? -1 : 1;
    return ua < ub ? -1 : ua > ub;
}

int eng_finalize(struct engine *e, struct diag *d)
{
    size_t before = diag_count(d);
    if (e->n_parts == 0)
        diag_add(d, NULL, 0, 0, "engine: the model has no partitions");
    for (unsigned p = 0; p < e->n_parts; p++) {
        struct eng_part_desc *pd = &e->parts[p];
        qsort_r(pd->units, pd->n_units, sizeof *pd->units, cmp_tick_order, e);
        for (unsigned i = 0; i < pd->n_units; i++)
            e->units[pd->units[i]].local = i;
    }
    ps_t L = PS_NEVER;
    for (unsigned u = 0; u < e->n_units; u++) {
        const struct eng_unit_rec *ur = &e->units[u];
        for (unsigned i = 0; i < ur->n_links; i++)
            if (e->units[ur->links[i].dst].partition != ur->partition)
                L = MIN(L, ur->links[i].min_lat);
    }
    e->lookahead = L;
    if (e->cfg.quantum_ps)
        e->quantum = e->cfg.quantum_ps;
    else
        e->quantum = (L != PS_NEVER) ? L : 1000000; /* no cross-partition traffic: 1 us */
    if (L != PS_NEVER && e->quantum > L && !e->cfg.relaxed)
        diag_add(d, NULL, 0, 0,
                 "key 'sync.quantum': %llu ps is larger than the lookahead L = %llu ps (the minimum "
                 "cross-partition latency); exact mode needs quantum <= L: set sync.relaxed = true "
                 "for relaxed mode, or lower sync.quantum",
                 (unsigned long long)e->quantum, (unsigned long long)L);
    if (!is_pow2_u64(e->cfg.ring_slots) || e->cfg.ring_slots > (1u << 30))
        diag_add(d, NULL, 0, 0, "key 'sync.ring_slots': %llu is not a power of two up to 2^30",
                 (unsigned long long)e->cfg.ring_slots);
    e->finalized = diag_count(d) == before;
    return e->finalized ? 0 : -1;
}

ps_t eng_lookahead(const struct engine *e) { return e->lookahead; }
ps_t eng_quantum(const struct engine *e) { return e->quantum; }
unsigned eng_n_partitions(const struct engine *e) { return e->n_parts; }
unsigned eng_n_units(const struct engine *e) { return e->n_units; }
ps_t eng_now(const struct engine *e) { return e->q_start; }
int eng_ctx_thread(const struct eng_ctx *ctx) { return ctx->index; }

void eng_unit_bind(struct eng_ctx *ctx, uint32_t unit, void *self)
{
    struct engine *e = ctx->eng;
    SIM_ASSERT(unit < e->n_units, "engine: bind of unknown unit %u", unit);
    SIM_ASSERT(e->parts[e->units[unit].partition].owner == ctx->index,
               "engine: unit %u bound by thread %d, which does not own it", unit, ctx->index);
    e->units[unit].self = self;
}

void *eng_unit_self(const struct engine *e, uint32_t unit)
{
    SIM_ASSERT(unit < e->n_units, "engine: unknown unit %u", unit);
    return e->units[unit].self;
}

void *eng_alloc(struct eng_ctx *ctx, size_t bytes) { return arena_alloc(&ctx->arena, bytes); }

/* ---------------------------------------------------------------- heap */

static inline bool ent_less(const struct heap_ent *a, const struct heap_ent *b)
{
    if (a->arrival != b->arrival)
        return a->arrival < b->arrival;
    if (a->src != b->src)
        return a->src < b->src;
    return a->seq < b->seq;
}

static inline struct eng_msg *pool_msg(struct eng_part_rt *p, uint32_t slot)
{
    return &p->chunks[slot >> POOL_CHUNK_SHIFT][slot & (POOL_CHUNK - 1)];
}

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

static inline void pool_put(struct eng_part_rt *p, uint32_t slot) { p->free_slots[p->n_free++] = slot; }

static void heap_push(struct eng_part_rt *p, const struct eng_msg *m)
{
    uint32_t slot = pool_get(p);
    struct eng_msg *dst = pool_msg(p, slot);
    memcpy(dst, m, ENG_MSG_HEADER_BYTES + m->len);
    if (p->heap_n == p->heap_cap) {
        p->heap_cap = p->heap_cap ? 2 * p->heap_cap : 256;
        p->heap = xrealloc(p->heap, p->heap_cap * sizeof *p->heap);
    }
    struct heap_ent ent = {m->arrival, m->seq, m->src, slot};
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

static struct heap_ent heap_pop(struct eng_part_rt *p)
{
    struct heap_ent top = p->heap[0];
    struct heap_ent last = p->heap[--p->heap_n];
    size_t i = 0, n = p->heap_n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ent_less(&p->heap[c + 1], &p->heap[c]))
            c++;
        if (!ent_less(&p->heap[c], &last))
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (n)
        p->heap[i] = last;
    return top;
}

/* ---------------------------------------------------------------- send */

static ps_t link_min(const struct eng_unit_rec *u, uint32_t dst)
{
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
    struct engine *e = ctx->eng;
    const struct eng_unit_rec *su = &e->units[src];
    SIM_DEBUG_ASSERT(e->parts[su->partition].owner == ctx->index,
                     "engine: unit %u sends from thread %d, which does not own it", src, ctx->index);
    ps_t min = link_min(su, dst);
    if (UNLIKELY(min == 0))
        sim_panic("engine: unit %u (%s) sends to unit %u with no declared link", src, su->ops->kind, dst);
    if (UNLIKELY(latency < min))
        sim_panic("engine: unit %u sends to %u with latency %llu ps < link minimum %llu ps", src, dst,
                  (unsigned long long)latency, (unsigned long long)min);
    SIM_ASSERT(len <= ENG_MSG_PAYLOAD, "engine: message payload %u > %d bytes", len, ENG_MSG_PAYLOAD);

    struct eng_part_rt *sp = e->rt[su->partition];
    int dpart = e->units[dst].partition;
    ps_t arrival = now + latency;

    if (dpart == su->partition) {
        struct eng_msg m;
        m.arrival = arrival;
        m.src = src;
        m.dst = dst;
        m.seq = sp->seq[su->local]++;
        m.type = type;
        m.len = len;
        if (len)
            memcpy(m.payload, payload, len);
        heap_push(sp, &m);
        return;
    }

    /* Cross-partition: never inside the current quantum. In exact mode
     * latency >= L >= Q guarantees it; in relaxed mode clamp to t_end. */
    if (arrival < ctx->t_end) {
        SIM_ASSERT(e->cfg.relaxed, "engine: exact-mode message %u->%u arrives at %llu inside the quantum "
                   "ending %llu", src, dst, (unsigned long long)arrival, (unsigned long long)ctx->t_end);
        arrival = ctx->t_end;
    }
    int dthr = e->parts[dpart].owner;
    struct eng_chan *ch = &e->chans[(size_t)ctx->index * e->n_threads + (size_t)dthr];
    struct eng_msg *m = msgring_reserve(&ch->ring, ch->slots);
    bool in_ring = m != NULL;
    if (!in_ring) {
        struct overflow *o = &ch->ovf[ctx->parity];
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
    m->type = type;
    m->len = len;
    if (len)
        memcpy(m->payload, payload, len);
    if (in_ring)
        spsc_commit(&ch->ring);
    ctx->rep.msgs_sent++;
    if (arrival < ctx->sent_min)
        ctx->sent_min = arrival;
}

/* ----------------------------------------------------------- partitions */

static void part_rt_create(struct engine *e, struct eng_ctx *ctx, int id)
{
    struct eng_part_desc *pd = &e->parts[id];
    struct eng_part_rt *p = eng_alloc(ctx, sizeof *p);
    p->id = id;
    p->n_units = pd->n_units;
    p->units = pd->units;
    p->next = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->next);
    p->period = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->period);
    p->seq = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->seq);
    for (unsigned i = 0; i < pd->n_units; i++) {
        p->next[i] = 0; /* every unit ticks at time 0 */
        p->period[i] = e->domains[e->units[pd->units[i]].domain].period;
    }
    e->rt[id] = p;
}

static void part_rt_free(struct eng_part_rt *p)
{
    for (size_t i = 0; i < p->n_chunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    free(p->free_slots);
    free(p->heap);
    /* the struct and its per-unit arrays belong to the thread arena */
}

/* Run partition p over [current, t_end). Per time T: deliver messages due
 * by T in key order, then tick due units in (domain, id) order. */
static void part_run(struct engine *e, struct eng_ctx *ctx, struct eng_part_rt *p, ps_t t_end)
{
    const unsigned n = p->n_units;
    for (;;) {
        ps_t T = p->heap_n ? p->heap[0].arrival : PS_NEVER;
        for (unsigned i = 0; i < n; i++)
            if (p->next[i] < T)
                T = p->next[i];
        if (T >= t_end)
            break;

        while (p->heap_n && p->heap[0].arrival <= T) {
            struct heap_ent he = heap_pop(p);
            struct eng_msg *m = pool_msg(p, he.slot);
            const struct eng_unit_rec *u = &e->units[m->dst];
            ps_t w = u->ops->recv(u->self, ctx, m, T);
            if (w != PS_NEVER) {
                ps_t a = edge_at_or_after(w > T ? w : T, p->period[u->local]);
                if (a < p->next[u->local])
                    p->next[u->local] = a;
            }
            pool_put(p, he.slot);
        }

        for (unsigned i = 0; i < n; i++) {
            if (p->next[i] != T)
                continue;
            const struct eng_unit_rec *u = &e->units[p->units[i]];
            ps_t r = u->ops->tick(u->self, ctx, T);
            p->next[i] = (r == PS_NEVER) ? PS_NEVER : edge_at_or_after(r > T ? r : T + 1, p->period[i]);
        }
    }
}

static ps_t part_next(const struct eng_part_rt *p)
{
    ps_t t = p->heap_n ? p->heap[0].arrival : PS_NEVER;
    for (unsigned i = 0; i < p->n_units; i++)
        if (p->next[i] < t)
            t = p->next[i];
    return t;
}

/* Move every message sent to this thread in the previous quantum (ring plus
 * the producer's overflow list of that quantum's parity) into the heaps. */
static void drain_inbound(struct engine *e, struct eng_ctx *ctx)
{
    unsigned prev = ctx->parity ^ 1u;
    for (unsigned src = 0; src < e->n_threads; src++) {
        struct eng_chan *ch = &e->chans[(size_t)src * e->n_threads + (size_t)ctx->index];
        struct eng_msg *m;
        while ((m = msgring_peek(&ch->ring, ch->slots)) != NULL) {
            heap_push(e->rt[e->units[m->dst].partition], m);
            spsc_release(&ch->ring);
        }
        struct overflow *o = &ch->ovf[prev];
        for (size_t i = 0; i < o->n; i++)
            heap_push(e->rt[e->units[o->msgs[i].dst].partition], &o->msgs[i]);
        o->n = 0;
    }
}

/* -------------------------------------------------------------- serial */

static void serial_step(void *arg)
{
    struct engine *e = arg;
    ps_t now = e->q_start + e->quantum; /* end of the quantum just run */
    ps_t next = PS_NEVER;
    for (unsigned i = 0; i < e->n_threads; i++)
        next = MIN(next, e->threads[i].local_next);
    e->quanta++;
    e->q_index++;

    if (e->progress)
        e->progress(e->progress_arg, now);
    if (e->stop_flag && at_load_acq_u32(e->stop_flag)) {
        e->stop = true;
        e->finish = ENG_FINISH_INTERRUPTED;
        e->q_start = now;
        return;
    }
    e->serial_wake_min = PS_NEVER;
    if (e->serial && !e->serial(e->model, e, now)) {
        e->stop = true;
        e->finish = ENG_FINISH_SERIAL;
        e->q_start = now;
        return;
    }
    next = MIN(next, e->serial_wake_min);
    if (next == PS_NEVER) {
        e->stop = true;
        e->finish = ENG_FINISH_IDLE;
        e->q_start = now;
        return;
    }
    ps_t start = now;
    if (next > now)
        start = next - next % e->quantum; /* quanta stay aligned to multiples of Q */
    if (start < now)
        start = now;
    if (e->cfg.max_time_ps && start >= e->cfg.max_time_ps) {
        e->stop = true;
        e->finish = ENG_FINISH_MAX_TIME;
        e->q_start = now;
        return;
    }
    e->skipped += (start - now) / e->quantum;
    e->q_start = start;
}

void eng_wake_serial(struct engine *e, uint32_t unit, ps_t t)
{
    const struct eng_unit_rec *u = &e->units[unit];
    struct eng_part_rt *p = e->rt[u->partition];
    ps_t a = edge_at_or_after(t, p->period[u->local]);
    if (a < p->next[u->local])
        p->next[u->local] = a;
    if (a < e->serial_wake_min)
        e->serial_wake_min = a;
}

/* -------------------------------------------------------------- threads */

static void *thread_main(void *arg)
{
    struct eng_ctx *ctx = arg;
    struct engine *e = ctx->eng;

    if (e->topo_ready)
        ctx->pin_cpu = topo_pin_self(&e->topo, e->pin, (unsigned)ctx->index);
    if (!ctx->arena_ready) {
        if (arena_init(&ctx->arena) != 0)
            sim_panic("engine: thread %d cannot create its allocation arena", ctx->index);
        ctx->arena_ready = true;
    }

    /* First run: partitions are initialised by their owner, one thread at a
     * time, so that model code may register statistics without locks and in
     * a deterministic order. */
    if (!e->initialized) {
        for (unsigned turn = 0; turn < e->n_threads; turn++) {
            if ((unsigned)ctx->index == turn) {
                for (unsigned i = 0; i < ctx->n_parts; i++)
                    part_rt_create(e, ctx, ctx->parts[i]);
                for (unsigned i = 0; i < ctx->n_parts; i++) {
                    struct eng_part_desc *pd = &e->parts[ctx->parts[i]];
                    if (pd->init)
                        pd->init(e->model, ctx, ctx->parts[i]);
                }
            }
            qbar_wait(&e->bar, &ctx->bar, NULL, NULL);
        }
    }

    double t0 = now_s();
    for (;;) {
        ps_t t_start = e->q_start;
        ctx->t_end = t_start + e->quantum;
        ctx->parity = (unsigned)(e->q_index & 1u);
        ctx->sent_min = PS_NEVER;
        drain_inbound(e, ctx);
        ps_t local = PS_NEVER;
        for (unsigned i = 0; i < ctx->n_parts; i++) {
            struct eng_part_rt *p = e->rt[ctx->parts[i]];
            part_run(e, ctx, p, ctx->t_end);
            local = MIN(local, part_next(p));
        }
        ctx->local_next = MIN(local, ctx->sent_min);
        double t1 = now_s();
        ctx->rep.busy_s += t1 - t0;
        qbar_wait(&e->bar, &ctx->bar, serial_step, e);
        t0 = now_s();
        ctx->rep.wait_s += t0 - t1;
        if (e->stop)
            break;
    }
    ctx->rep.barrier_sleeps = ctx->bar.sleeps;
    return NULL;
}

/* Decide how many threads of each kind, and which partitions each owns. */
static int plan_threads(struct engine *e, const struct eng_run_opts *o, unsigned *n_sm_thr,
                        unsigned *n_mem_thr, char *err, size_t err_len)
{
    unsigned n_sm = 0, n_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (e->parts[p].kind == ENG_PART_SM)
            n_sm++;
        else
            n_mem++;
    }
    if (o->sm_threads || o->mem_threads) {
        if ((n_sm && !o->sm_threads) || (n_mem && !o->mem_threads)) {
            snprintf(err, err_len, "--sm-threads and --mem-threads must be given together (the model has "
                     "%u SM and %u memory partitions)", n_sm, n_mem);
            return -1;
        }
        if (o->sm_threads > n_sm || o->mem_threads > n_mem) {
            snprintf(err, err_len, "--sm-threads %u / --mem-threads %u exceed the model's %u SM and %u memory "
                     "partitions", o->sm_threads, o->mem_threads, n_sm, n_mem);
            return -1;
        }
        if (o->threads && o->threads != o->sm_threads + o->mem_threads) {
            snprintf(err, err_len, "--threads %u differs from --sm-threads + --mem-threads = %u", o->threads,
                     o->sm_threads + o->mem_threads);
            return -1;
        }
        *n_sm_thr = o->sm_threads;
        *n_mem_thr = o->mem_threads;
        return 0;
    }
    unsigned n = o->threads;
    if (n == 0)
        n = e->topo_ready ? topo_physical_cores(&e->topo) : 1;
    if (n > e->n_parts)
        n = e->n_parts;
    if (n <= 1) {
        *n_sm_thr = 1; /* one thread owns every partition */
        *n_mem_thr = 0;
        return 0;
    }
    if (!n_sm || !n_mem) {
        *n_sm_thr = n_sm ? n : 0;
        *n_mem_thr = n_mem ? n : 0;
        return 0;
    }
    /* NOTE(mixed-threads): without an explicit split every thread owns a
     * contiguous slice of the SM partitions and a slice of the memory
     * partitions (assign_partitions). SM partitions carry most of the work
     * of a GPU model, so a split by kind (one memory thread out of two)
     * would leave the SM thread as the bottleneck; partitions never share
     * state, so mixing kinds on a thread changes nothing in the results. */
    if (!o->sm_threads) {
        *n_sm_thr = n;
        *n_mem_thr = 0;
        return 0;
    }
    /* Split in proportion to partition counts, at least one thread each. */
    unsigned m = (unsigned)((2ull * n * n_mem + e->n_parts) / (2ull * e->n_parts));
    if (m < 1)
        m = 1;
    if (m > n - 1)
        m = n - 1;
    if (m > n_mem)
        m = n_mem;
    unsigned s = n - m;
    if (s > n_sm) {
        s = n_sm;
        m = MIN(n - s, n_mem);
    }
    *n_sm_thr = s;
    *n_mem_thr = m;
    return 0;
}

static void assign_partitions(struct engine *e, unsigned n_sm_thr, unsigned n_mem_thr, int *owner)
{
    unsigned n_sm = 0, n_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (e->parts[p].kind == ENG_PART_SM)
            n_sm++;
        else
            n_mem++;
    }
    unsigned i_sm = 0, i_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (n_mem_thr == 0 && n_sm_thr == 1) {
            owner[p] = 0;
        } else if (e->parts[p].kind == ENG_PART_SM) {
            owner[p] = (int)((uint64_t)i_sm++ * n_sm_thr / n_sm);
        } else if (n_mem_thr == 0) {
            /* mixed threads: memory slices in reverse thread order, so that
             * the thread with the smaller SM slice gets the larger memory one */
            owner[p] = (int)(n_sm_thr - 1 - (uint64_t)i_mem++ * n_sm_thr / n_mem);
        } else {
            owner[p] = (int)(n_sm_thr + (uint64_t)i_mem++ * n_mem_thr / n_mem);
        }
    }
}

static void chans_free(struct engine *e)
{
    if (!e->chans)
        return;
    size_t n = (size_t)e->n_threads * e->n_threads;
    for (size_t i = 0; i < n; i++) {
        free(e->chans[i].slots);
        free(e->chans[i].ovf[0].msgs);
        free(e->chans[i].ovf[1].msgs);
    }
    free(e->chans);
    e->chans = NULL;
}

int eng_run(struct engine *e, const struct eng_run_opts *o, struct eng_result *res, char *err, size_t err_len)
{
    SIM_ASSERT(e->finalized, "engine: eng_run before a successful eng_finalize");
    memset(res, 0, sizeof *res);
    if (!e->topo_ready)
        e->topo_ready = topo_init(&e->topo) == 0;
    e->pin = o->pin;
    e->stop_flag = o->stop_flag;
    e->progress = o->progress;
    e->progress_arg = o->progress_arg;

    unsigned s_thr = 0, m_thr = 0;
    if (plan_threads(e, o, &s_thr, &m_thr, err, err_len) != 0)
        return -1;
    unsigned n_thr = s_thr + m_thr;
    int *owner = xcalloc(e->n_parts, sizeof *owner);
    assign_partitions(e, s_thr, m_thr, owner);

    if (e->initialized) {
        bool same = n_thr == e->n_threads;
        for (unsigned p = 0; same && p < e->n_parts; p++)
            same = owner[p] == e->parts[p].owner;
        if (!same) {
            free(owner);
            snprintf(err, err_len, "the thread mapping cannot change between runs of one engine");
            return -1;
        }
    } else {
        e->n_threads = n_thr;
        e->threads = aligned_alloc(CACHE_LINE, u64_round_up(n_thr * sizeof *e->threads, CACHE_LINE));
        if (!e->threads)
            sim_panic("out of memory");
        memset(e->threads, 0, n_thr * sizeof *e->threads);
        e->rt = xcalloc(e->n_parts, sizeof *e->rt);
        for (unsigned p = 0; p < e->n_parts; p++)
            e->parts[p].owner = owner[p];
        for (unsigned t = 0; t < n_thr; t++) {
            struct eng_ctx *c = &e->threads[t];
            c->eng = e;
            c->index = (int)t;
            c->pin_cpu = -1;
            c->parts = xcalloc(e->n_parts, sizeof *c->parts);
        }
        for (unsigned p = 0; p < e->n_parts; p++) {
            struct eng_ctx *c = &e->threads[owner[p]];
            c->parts[c->n_parts++] = (int)p;
        }
        size_t nch = (size_t)n_thr * n_thr;
        e->chans = aligned_alloc(CACHE_LINE, u64_round_up(nch * sizeof *e->chans, CACHE_LINE));
        if (!e->chans)
            sim_panic("out of memory");
        memset(e->chans, 0, nch * sizeof *e->chans);
        for (size_t i = 0; i < nch; i++) {
            spsc_init(&e->chans[i].ring, (uint32_t)e->cfg.ring_slots);
            e->chans[i].slots = xcalloc(e->cfg.ring_slots, sizeof(struct eng_msg));
        }
    }
    free(owner);

    /* NOTE(oversubscribed-spin): with more threads than hardware threads, a
     * spinning waiter steals the core of the thread everyone waits for.
     * bench/engine on a 2-core VM: 3-4 threads cost ~1 ms per quantum with a
     * 20000-iteration spin but 25-55 us when waiters sleep at once. */
    uint64_t spin = e->cfg.spin_limit;
    if (e->topo_ready && n_thr > topo_pus(&e->topo))
        spin = 0;
    qbar_init(&e->bar, n_thr, (uint32_t)MIN(spin, UINT32_MAX));
    for (unsigned t = 0; t < n_thr; t++) {
        struct eng_ctx *c = &e->threads[t];
        memset(&c->rep, 0, sizeof c->rep);
        c->bar = (struct qbar_state)QBAR_STATE_INITIALIZER;
    }
    e->stop = false;
    e->quanta = 0;
    e->skipped = 0;

    double t0 = now_s();
    for (unsigned t = 0; t < n_thr; t++) {
        int rc = pthread_create(&e->threads[t].tid, NULL, thread_main, &e->threads[t]);
        if (rc != 0)
            sim_panic("engine: pthread_create failed: %s", strerror(rc));
    }
    for (unsigned t = 0; t < n_thr; t++)
        pthread_join(e->threads[t].tid, NULL);
    e->initialized = true;

    free(e->reports);
    e->reports = xcalloc(n_thr, sizeof *e->reports);
    for (unsigned t = 0; t < n_thr; t++) {
        e->reports[t] = e->threads[t].rep;
        e->reports[t].n_partitions = e->threads[t].n_parts;
        e->reports[t].cpu = e->threads[t].pin_cpu;
    }
    res->finish = e->finish;
    res->end_time = e->q_start;
    res->quanta = e->quanta;
    res->quanta_skipped = e->skipped;
    res->threads = n_thr;
    res->wall_s = now_s() - t0;
    res->per_thread = e->reports;
    return 0;
}

void eng_destroy(struct engine *e)
{
    if (!e)
        return;
    if (e->initialized) {
        for (unsigned t = 0; t < e->n_threads; t++) {
            struct eng_ctx *c = &e->threads[t];
            for (unsigned i = 0; i < c->n_parts; i++) {
                struct eng_part_desc *pd = &e->parts[c->parts[i]];
                if (pd->fini)
                    pd->fini(e->model, c, c->parts[i]);
            }
        }
        for (unsigned p = 0; p < e->n_parts; p++)
            if (e->rt[p])
                part_rt_free(e->rt[p]);
    }
    for (unsigned t = 0; t < e->n_threads; t++) {
        if (e->threads[t].arena_ready)
            arena_fini(&e->threads[t].arena);
        free(e->threads[t].parts);
    }
    chans_free(e);
    free(e->threads);
    free(e->rt);
    free(e->reports);
    for (unsigned u = 0; u < e->n_units; u++)
        free(e->units[u].links);
    for (unsigned p = 0; p < e->n_parts; p++)
        free(e->parts[p].units);
    free(e->units);
    free(e->parts);
    free(e->domains);
    if (e->topo_ready)
        topo_fini(&e->topo);
    free(e);
}
