/* sync/engine_internal.h: what the files of the parallel engine share
 * (private to sync/engine*.c; the public interface is engine.h).
 *
 * Holds the topology records (domains, partition descriptors, units,
 * links), the runtime state (a partition's wake times and inbound message
 * heap over a chunked pool, the channel between two threads, the per-thread
 * context, struct engine), the consumer side of a partition's inbox as
 * static inline functions (part_run in engine.c pops one message per
 * delivery, so these stay inlined there), and the declarations of the
 * functions that cross files. The files:
 *   engine.c          public API: build, finalize, run, destroy; the
 *                     quantum loop, partition runs and the serial step
 *   engine_msg.c      eng_send, the message pool and heap, inbound ring
 *                     drain, channel allocation
 *   engine_threads.c  thread plan and partition assignment, thread start
 *                     (pinning, arena), barrier spin/sleep policy, parking,
 *                     re-partitioning, the automatic thread count
 *   engine_adapt.c    the adaptive controller (measurement windows, trials
 *                     of other thread counts, balancing by measured work),
 *                     the debug re-partitioner and the work profile
 *   sim/cfg/sync_cfg.c the sync.* configuration keys
 */
#ifndef GPUSIM_SYNC_ENGINE_INTERNAL_H
#define GPUSIM_SYNC_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sync/arena.h"
#include "sync/atomics.h"
#include "sync/engine.h"
#include "sync/qbarrier.h"
#include "sync/spsc.h"
#include "sync/topo.h"

#define POOL_CHUNK_SHIFT 8
#define POOL_CHUNK (1u << POOL_CHUNK_SHIFT) /* messages per pool chunk */
#define ENG_LINK_TABLE_MAX 1024u /* units up to which the link latencies are a dense table (NOTE(link-table)) */

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
    bool ahead_capable; /* an SM partition whose inbound links all come from memory partitions (NOTE(ahead)) */
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
    /* Written by the thread running the partition, read by the serial step. */
    uint64_t work_ns;    /* sampled quanta: wall ns spent running this partition */
    uint64_t sample_ns;  /* wall ns of the last sampled quantum */
    /* NOTE(ahead): written by the thread running the partition. */
    bool ahead_ok;       /* the model's eng_ahead_fn answer after the last run */
    uint64_t ahead_ns;   /* wall ns of a run ahead into a sampled quantum, added to that quantum's sample */
};

/* NOTE(steal): who claimed the partition to run it, and in which quantum:
 * ENG_CLAIM(q_index, thread); one per cache line, since owner and thieves
 * exchange it. 0 = never claimed. */
#define ENG_CLAIM_SHIFT 16
#define ENG_CLAIM(q, thr) ((((uint64_t)(q) + 1) << ENG_CLAIM_SHIFT) | (uint64_t)(thr))
struct eng_claim {
    CACHE_ALIGNED atomic_u64 q;
};

/* Producer-owned overflow buffer for one channel and one quantum parity. */
struct overflow {
    struct eng_msg *msgs; /* messages that did not fit in the ring */
    size_t n, cap;        /* entries */
};

/* Thread i -> thread j. The ring's descriptor keeps producer and consumer
 * indices on separate lines; ovf[p][k] is written by the producer during
 * quanta of parity p, by partitions of kind k (enum eng_part_kind), and
 * read and emptied by the consumer at the start of the following quantum
 * (the barrier orders the two); ovf[p][ENG_PART_MEM] also by a consumer
 * about to run ahead, once the producer's memory partitions have run
 * (NOTE(ahead) in engine.c). */
struct eng_chan {
    struct spsc_ring ring;
    struct eng_msg *slots; /* ring storage, capacity entries */
    CACHE_ALIGNED struct overflow ovf[2][2];
};

/* Run state of an engine thread (struct eng_ctx.state). */
enum eng_thr_state {
    ENG_THR_ACTIVE, /* runs quanta, takes part in the barrier */
    ENG_THR_PARKED, /* owns no partition; sleeps on engine.park_gen */
    ENG_THR_EXIT,   /* the run is over: leave */
};

struct eng_ctx {
    CACHE_ALIGNED struct engine *eng;
    int index;                /* thread index */
    atomic_u32 state;         /* enum eng_thr_state: set by the serial step, read by the thread */
    atomic_u32 arrived;       /* barrier sense value the thread last arrived for (spin check) */
    clockid_t cpu_clock;      /* this thread's CPU-time clock (read by the serial step and spinners) */
    bool has_cpu_clock;       /* cpu_clock is valid (both set before clock_ready) */
    atomic_u32 clock_ready;   /* 1 once this run's thread has set cpu_clock (release) */
    uint64_t t_arrive_ns;     /* monotonic ns of the last barrier arrival */
    uint64_t t_ahead_end_ns;  /* monotonic ns its last run ahead ended (0: none since the last release) */
    bool sampling;            /* the quantum being run times each partition */
    bool steal;               /* the quantum being run steals (NOTE(steal)) */
    int *forced;              /* partitions the debug re-partitioner makes this thread take this quantum
                               * (claimed for it in the serial step; NOTE(steal-debug)) */
    unsigned n_forced;
    /* spin check, private to this thread while it waits */
    uint64_t chk_wall_ns;     /* monotonic ns of the last sample */
    uint64_t chk_cpu_ns;      /* CPU ns of the awaited thread at that sample */
    int chk_thr;              /* awaited thread sampled, -1 none */
    /* What the serial step run by this thread leaves for after the release
     * (eng_after_release); written and read by this thread only. */
    unsigned post_join_lo, post_join_hi; /* threads [lo, hi) joined: make them active */
    bool post_exit;           /* the run stops: parked threads must leave */
    struct arena arena;       /* this thread's allocator */
    bool arena_ready;
    int *parts;               /* owned partitions */
    unsigned n_parts;
    ps_t t_end;               /* end of the quantum being run (ps) */
    unsigned parity;          /* quantum parity for overflow buffers */
    ps_t sent_min;            /* min arrival of cross-partition messages sent this quantum */
    ps_t local_next;          /* published before the barrier: next event of this thread */
    atomic_u64 drained_q;     /* q_index + 1 once this quantum's inbound messages are in the heaps of the
                               * partitions this thread owns (release; thieves acquire, NOTE(steal)) */
    /* NOTE(ahead) */
    CACHE_ALIGNED atomic_u64 mem_done; /* q_index + 1 once this thread's memory partitions have run quantum
                               * q_index (release; threads about to run ahead acquire) */
    int *ahead;               /* partitions to run ahead at this quantum's barrier ([n_parts]) */
    unsigned n_ahead;
    bool ahead_q;             /* this quantum's barrier may run ahead (copied from the engine at its start) */
    uint64_t q_cur;           /* q_index of the quantum being run */
    unsigned n_active_q;      /* active threads in it */
    ps_t ahead_sent;          /* min arrival of messages sent by runs ahead, for the next quantum's local_next */
    struct qbar_state bar;    /* barrier companion */
    struct eng_thread_report rep;
    pthread_t tid;
    int pin_cpu;
};

struct engine {
    struct engine_cfg cfg;
    void *model;
    eng_serial_fn serial;
    eng_ahead_fn ahead_fn;   /* NOTE(ahead); NULL: the model has none */

    struct eng_domain *domains;
    unsigned n_domains, cap_domains;
    struct eng_part_desc *parts;
    unsigned n_parts, cap_parts;
    struct eng_unit_rec *units;
    unsigned n_units, cap_units;

    ps_t lookahead;    /* ps, PS_NEVER when no cross-partition link */
    ps_t *link_min;    /* [n_units x n_units] minimum latency (ps) of the link src -> dst, 0 = none;
                          NULL above ENG_LINK_TABLE_MAX units (NOTE(link-table)) */
    ps_t quantum;      /* ps */
    bool finalized;
    bool initialized;  /* partition inits have run */

    /* Run state (written by the serial step, read by all after the barrier). */
    struct eng_part_rt **rt; /* per partition runtime, allocated by its owner */
    struct eng_ctx *threads; /* [n_threads] */
    unsigned n_threads;
    struct eng_chan *chans;  /* [n_threads * n_threads], index src * n + dst */
    struct eng_claim *claims; /* [n_parts]: which quantum each partition was last claimed in (NOTE(steal)) */
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

    /* Adaptive parallelism (engine_threads.c, engine_adapt.c). Written by the
     * serial step; read by the threads after the barrier. */
    unsigned n_active;       /* threads taking part: indices 0 .. n_active-1 */
    atomic_u32 active_hint;  /* n_active for spinning waiters (a hint) */
    atomic_u32 park_gen;     /* futex word of parked threads: bumped at each wake */
    bool adaptive;           /* this run adapts (sync.adaptive, no explicit split, > 1 thread) */
    bool explicit_split;     /* --sm-threads/--mem-threads given at the first run */
    unsigned pus;            /* hardware threads of the host (spin rule) */
    uint64_t t_release_ns;   /* monotonic ns at the end of the last serial step */
    uint64_t t_serial_ns;    /* ns the last serial step took (from the last arrival) */
    uint64_t spin_check_ns;  /* host ns spinning before the spin check looks */
    int *owner_tmp;          /* [n_parts] scratch for new mappings */
    struct eng_adapt *ad;    /* controller state (engine_adapt.c) */
    struct eng_adapt_report adapt_rep;
    struct eng_profile prof;

    /* NOTE(ahead). Written by the serial step; read by the threads after the barrier. */
    bool ahead_on;           /* sync.ahead and a model hook: the hook is asked after every partition run */
    bool ahead_next;         /* threads may run ahead at the barrier of the quantum about to run */
    bool ahead_hold;         /* the adaptive engine wants a barrier without runs ahead to change the mapping */
};

/* ------------------------------------------------- cross-file functions */
/* engine.c: the body of engine thread ctx once pinned and with its arena:
 * on the first run the owned partitions are created and initialised (one
 * thread at a time), then quanta run until the serial step stops. */
void eng_thread_run(struct eng_ctx *ctx);

/* engine_msg.c: move the messages sent to ctx's thread in the previous
 * quantum into the destination partitions' heaps (start of a quantum). */
void eng_drain_inbound(struct engine *e, struct eng_ctx *ctx);
/* engine_msg.c: the drain before running ahead (NOTE(ahead) in engine.c). */
void eng_drain_ahead(struct engine *e, struct eng_ctx *ctx);
/* engine_msg.c: the channels between every ordered pair of the
 * e->n_threads threads (allocated once, on the first run), and their
 * release; the message storage of one partition runtime. */
void eng_chans_create(struct engine *e);
void eng_chans_free(struct engine *e);
void eng_part_rt_free(struct eng_part_rt *p);

/* engine_threads.c: choose the thread count and split (err: why not, -1)
 * and map partitions to threads; on the first run allocate the thread
 * contexts, partition runtimes and channels, on later runs require the same
 * mapping. Sets e->n_threads. */
int eng_threads_map(struct engine *e, const struct eng_run_opts *o, char *err, size_t err_len);
/* engine_threads.c: the quantum barrier for e->n_threads threads with the
 * spin/sleep policy, and fresh per-thread reports and barrier states. */
void eng_threads_barrier_init(struct engine *e);
/* engine_threads.c: start the e->n_threads threads and wait for them. */
void eng_threads_spawn_join(struct engine *e);
/* engine_threads.c: the static split of the partitions over n threads
 * (the first run's mapping; also the adaptive engine's fallback). */
void eng_assign_static(const struct engine *e, unsigned n, int *owner);
/* engine_threads.c, serial step only: run the next quanta on threads
 * 0 .. n_active-1 with partition p owned by owner[p] (< n_active): flush
 * the channels into the heaps, rebuild the threads' partition lists, park
 * the threads beyond n_active and mark the ones that join. */
void eng_repartition(struct engine *e, unsigned n_active, const int *owner);
/* engine_threads.c: right after a release, by the thread that ran the
 * serial step: let joined threads run (and, when the run stops, tell
 * parked threads to leave). */
void eng_after_release(struct eng_ctx *sctx);
/* engine_threads.c: a parked thread sleeps here until it is active again
 * (true) or the run is over (false). */
bool eng_park(struct eng_ctx *ctx);
/* engine.c: whether quanta run now steal (sync.steal and NOTE(steal-gate)). */
bool eng_steal_on(const struct engine *e);
/* engine_threads.c: set the barrier's spin limit for n_active threads. */
void eng_spin_policy(struct engine *e, bool descheduled);

/* engine_msg.c, serial step only: move every message in every channel
 * (rings and both overflow lists) into its destination partition's heap. */
void eng_chans_flush(struct engine *e);

/* engine_adapt.c: controller state for a run (created on the first run),
 * the per-quantum step (serial step, after the time advance) and its
 * release. */
void eng_adapt_begin_run(struct engine *e);
void eng_adapt_quantum(struct engine *e, uint64_t now_ns, bool sampled, bool may_change);
void eng_adapt_free(struct engine *e);

/* Whether quantum q times each partition (sync.sample_period): one quantum
 * in period on average, chosen by a hash of q so that the samples do not
 * alias with periodic behaviour of the model. Same answer on every thread. */
static inline bool eng_sampled(const struct engine *e, uint64_t q)
{
    uint64_t per = e->cfg.sample_period;
    if (!per)
        return false;
    q = (q ^ (q >> 31)) * 0x9E3779B97F4A7C15ull;
    return (q >> 32) % per == 0;
}

/* ---------------------------------------------------------------- heap */
/* Heap order and the pool slot of a message (also used by heap_push in
 * engine_msg.c). */
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

/* Return a delivered message's slot to the pool. */
static inline void pool_put(struct eng_part_rt *p, uint32_t slot) { p->free_slots[p->n_free++] = slot; }

/* Remove the first message in key order (heap non-empty). */
static inline struct heap_ent heap_pop(struct eng_part_rt *p)
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

#endif /* GPUSIM_SYNC_ENGINE_INTERNAL_H */
