/* bench/engine.c: cost of the parallel engine's synchronisation (not a test).
 *
 * Three measurements, each a table on stdout (Markdown) and an array in the
 * JSON file given with --json:
 *
 *  (a) barrier   ns per quantum-barrier round trip (sync/qbarrier.c) for 1
 *                to 2x online CPUs threads, pinned one per core first, with
 *                the engine's default spin limit (20000) and with 0 (sleep
 *                in futex at once). No work between barriers: this is the
 *                floor on the cost of one quantum.
 *  (b) spsc      messages per second through one SPSC ring (sync/spsc.h)
 *                between two pinned threads, 16- and 256-byte messages,
 *                ring capacities 64 and 1024 (the engine default).
 *  (c) engine    ns per quantum of the full engine (sync/engine.c) on a
 *                trivial model: one partition per thread, one unit per
 *                partition, ticking every cycle of a 1 GHz domain and doing
 *                nothing ("idle"), or also sending one message per quantum to
 *                the next partition ("ring"). A quantum is 8 cycles. This is
 *                the per-quantum overhead a real model pays on top of its
 *                own work.
 *
 * Runs are time-boxed (each run lasts a fixed wall time and the rate is
 * computed from the rounds or messages completed), so oversubscribed rows
 * with a long spin limit stay short even though each round is slow. Each
 * configuration is run --repeat times (3 by default) and the best run is
 * reported: on a shared host the best run is the one least disturbed by
 * other processes, the mean mostly measures the neighbours.
 *
 * Options: --quick (one 0.03 s run per configuration, about 1 s in all, for
 * CI), --json FILE, --max-threads N (default 2x online CPUs), --repeat N,
 * --help.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "sim/base/diag.h"
#include "sim/base/json.h"
#include "sync/engine.h"
#include "sync/qbarrier.h"
#include "sync/spsc.h"
#include "sync/topo.h"
#include "support/machine.h"

#define MAX_ROWS 256

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ results */


struct barrier_row {
    unsigned threads;     /* participating threads */
    uint32_t spin;        /* spin limit (pause iterations) */
    uint64_t rounds;      /* barrier rounds completed */
    double ns_per_round;  /* wall ns per round */
    double sleeps_per_round; /* futex waits per round, all threads */
};

struct spsc_row {
    unsigned msg_bytes;   /* message size (bytes) */
    uint32_t capacity;    /* ring capacity (entries) */
    uint64_t messages;    /* messages transferred */
    double msgs_per_s;    /* messages per wall second */
    double mbytes_per_s;  /* payload MB (1e6 bytes) per wall second */
    int cpu_producer;     /* CPU pinned to, -1 if not */
    int cpu_consumer;
};

struct engine_row {
    unsigned threads;     /* engine threads (= partitions) */
    const char *variant;  /* "idle" or "ring" */
    uint32_t spin;        /* barrier spin limit */
    ps_t quantum_ps;      /* quantum (ps) */
    uint64_t quanta;      /* quanta timed */
    double ns_per_quantum;/* wall ns per quantum */
    uint64_t msgs;        /* cross-partition messages sent in the run */
    uint64_t sleeps;      /* barrier futex sleeps in the run, all threads */
};

struct bench {
    bool quick;            /* --quick */
    const char *json_path; /* --json, NULL for none */
    unsigned max_threads;  /* largest thread count measured */
    unsigned repeat;       /* runs per configuration; the best is reported */
    double box_s;          /* wall seconds per run */
    struct topo topo;      /* host topology, for pinning */
    struct machine m;
    struct barrier_row bar[MAX_ROWS];
    unsigned n_bar;
    struct spsc_row spsc[MAX_ROWS];
    unsigned n_spsc;
    struct engine_row eng[MAX_ROWS];
    unsigned n_eng;
};


/* ---------------------------------------------------- (a) barrier */

/* Shared by the threads of one barrier configuration. */
struct bar_run {
    struct qbar bar;       /* barrier under test */
    const struct topo *topo;
    double box_s;          /* wall seconds to run */
    /* hook-written, read by all after the barrier (ordered by it) */
    CACHE_ALIGNED uint64_t rounds; /* rounds completed since t0 */
    double t0;             /* wall time at the end of the first round */
    double t_end;          /* wall time when stop was decided */
    bool stop;             /* set by the hook once box_s has passed */
};

struct bar_thread {
    CACHE_ALIGNED struct bar_run *r; /* the shared run */
    unsigned index;                  /* thread index (pinning order) */
    struct qbar_state st;            /* barrier companion */
};

/* Serial hook: count rounds, read the clock every 64 rounds. */
static void bar_hook(void *arg)
{
    struct bar_run *r = arg;
    if (r->rounds++ == 0) {
        r->t0 = now_s(); /* round 0 lines everyone up (threads start at different times) */
        return;
    }
    if ((r->rounds & 63) == 0) {
        double t = now_s();
        if (t - r->t0 >= r->box_s) {
            r->t_end = t;
            r->stop = true;
        }
    }
}

static void *bar_thread_main(void *arg)
{
    struct bar_thread *me = arg;
    struct bar_run *r = me->r;
    topo_pin_self(r->topo, ENG_PIN_CORES, me->index);
    do
        qbar_wait(&r->bar, &me->st, bar_hook, r);
    while (!r->stop);
    return NULL;
}

static struct barrier_row barrier_once(const struct bench *b, unsigned n, uint32_t spin)
{
    struct bar_run *r = aligned_alloc(CACHE_LINE, u64_round_up(sizeof *r, CACHE_LINE));
    struct bar_thread *th = aligned_alloc(CACHE_LINE, u64_round_up(n * sizeof *th, CACHE_LINE));
    pthread_t *tid = calloc(n, sizeof *tid);
    if (!r || !th || !tid)
        sim_panic("bench: out of memory");
    memset(r, 0, sizeof *r);
    qbar_init(&r->bar, n, spin);
    r->topo = &b->topo;
    r->box_s = b->box_s;
    for (unsigned i = 0; i < n; i++) {
        th[i].r = r;
        th[i].index = i;
        th[i].st = (struct qbar_state)QBAR_STATE_INITIALIZER;
        if (pthread_create(&tid[i], NULL, bar_thread_main, &th[i]) != 0)
            sim_panic("bench: pthread_create failed");
    }
    uint64_t sleeps = 0;
    for (unsigned i = 0; i < n; i++) {
        pthread_join(tid[i], NULL);
        sleeps += th[i].st.sleeps;
    }
    struct barrier_row row = {.threads = n, .spin = spin};
    row.rounds = r->rounds - 1; /* round 0 only lined the threads up */
    row.ns_per_round = (r->t_end - r->t0) * 1e9 / (double)row.rounds;
    row.sleeps_per_round = (double)sleeps / (double)r->rounds;
    free(tid);
    free(th);
    free(r);
    return row;
}

static void bench_barrier(struct bench *b)
{
    static const uint32_t spins[] = {20000, 0};
    for (size_t s = 0; s < ARRAY_LEN(spins); s++) {
        for (unsigned n = 1; n <= b->max_threads && b->n_bar < MAX_ROWS; n++) {
            struct barrier_row best = barrier_once(b, n, spins[s]);
            for (unsigned k = 1; k < b->repeat; k++) {
                struct barrier_row r = barrier_once(b, n, spins[s]);
                if (r.ns_per_round < best.ns_per_round)
                    best = r;
            }
            b->bar[b->n_bar++] = best;
        }
    }
}

/* ------------------------------------------------------- (b) spsc */

struct msg16 {
    uint64_t seq;     /* sequence number */
    uint64_t payload; /* filler */
};

struct msg256 {
    uint64_t seq;         /* sequence number */
    uint64_t payload[31]; /* filler */
};

SPSC_RING_DEFINE(b16, struct msg16)
SPSC_RING_DEFINE(b256, struct msg256)

/* The producer sends until box_s has passed (checking the clock every 1024
 * messages), then a message with seq SPSC_END; the consumer counts what it
 * received and checks the order. */
#define SPSC_END UINT64_MAX

struct spsc_run {
    struct spsc_ring ring;   /* descriptor */
    void *slots;             /* [capacity] messages of msg_bytes */
    unsigned msg_bytes;      /* 16 or 256 */
    double box_s;            /* wall seconds to send for */
    const struct topo *topo; /* for pinning */
    CACHE_ALIGNED int cpu_producer; /* producer-written */
    CACHE_ALIGNED int cpu_consumer; /* consumer-written */
    uint64_t received;       /* consumer: messages received before the end marker */
    uint64_t bad;            /* consumer: out-of-order messages (must stay 0) */
};

/* Generic over the two message types: T, and the wrapper prefix P. */
#define SPSC_BENCH_LOOPS(T, P)                                                                    \
    static void P##_produce(struct spsc_run *r)                                                   \
    {                                                                                             \
        T m;                                                                                      \
        memset(&m, 0, sizeof m);                                                                  \
        double t0 = now_s();                                                                      \
        for (uint64_t i = 0;; i++) {                                                              \
            m.seq = i;                                                                            \
            if ((i & 1023) == 0 && now_s() - t0 >= r->box_s)                                      \
                m.seq = SPSC_END;                                                                 \
            while (!P##_push(&r->ring, r->slots, &m))                                             \
                cpu_relax();                                                                      \
            if (m.seq == SPSC_END)                                                                \
                return;                                                                           \
        }                                                                                         \
    }                                                                                             \
    static void P##_consume(struct spsc_run *r)                                                   \
    {                                                                                             \
        T m;                                                                                      \
        for (uint64_t i = 0;; i++) {                                                              \
            while (!P##_pop(&r->ring, r->slots, &m))                                              \
                cpu_relax();                                                                      \
            if (m.seq == SPSC_END) {                                                              \
                r->received = i;                                                                  \
                return;                                                                           \
            }                                                                                     \
            r->bad += m.seq != i;                                                                 \
        }                                                                                         \
    }

SPSC_BENCH_LOOPS(struct msg16, b16)
SPSC_BENCH_LOOPS(struct msg256, b256)

static void *spsc_producer(void *arg)
{
    struct spsc_run *r = arg;
    r->cpu_producer = topo_pin_self(r->topo, ENG_PIN_CORES, 0);
    if (r->msg_bytes == 16)
        b16_produce(r);
    else
        b256_produce(r);
    return NULL;
}

static void *spsc_consumer(void *arg)
{
    struct spsc_run *r = arg;
    r->cpu_consumer = topo_pin_self(r->topo, ENG_PIN_CORES, 1);
    if (r->msg_bytes == 16)
        b16_consume(r);
    else
        b256_consume(r);
    return NULL;
}

static struct spsc_row spsc_once(const struct bench *b, unsigned msg_bytes, uint32_t capacity)
{
    struct spsc_run *r = aligned_alloc(CACHE_LINE, u64_round_up(sizeof *r, CACHE_LINE));
    if (!r)
        sim_panic("bench: out of memory");
    memset(r, 0, sizeof *r);
    spsc_init(&r->ring, capacity);
    r->slots = aligned_alloc(CACHE_LINE, (size_t)capacity * msg_bytes);
    if (!r->slots)
        sim_panic("bench: out of memory");
    r->msg_bytes = msg_bytes;
    r->box_s = b->box_s;
    r->topo = &b->topo;
    pthread_t tp, tc;
    double t0 = now_s();
    if (pthread_create(&tc, NULL, spsc_consumer, r) != 0 || pthread_create(&tp, NULL, spsc_producer, r) != 0)
        sim_panic("bench: pthread_create failed");
    pthread_join(tp, NULL);
    pthread_join(tc, NULL);
    double dt = now_s() - t0;
    if (r->bad)
        sim_panic("bench: SPSC ring delivered %llu messages out of order", (unsigned long long)r->bad);
    struct spsc_row row = {.msg_bytes = msg_bytes, .capacity = capacity, .messages = r->received};
    row.msgs_per_s = (double)r->received / dt;
    row.mbytes_per_s = (double)r->received * msg_bytes / dt * 1e-6;
    row.cpu_producer = r->cpu_producer;
    row.cpu_consumer = r->cpu_consumer;
    free(r->slots);
    free(r);
    return row;
}

static void bench_spsc(struct bench *b)
{
    static const unsigned sizes[] = {16, 256};
    static const uint32_t caps[] = {64, 1024};
    for (size_t si = 0; si < ARRAY_LEN(sizes); si++) {
        for (size_t ci = 0; ci < ARRAY_LEN(caps); ci++) {
            struct spsc_row best = spsc_once(b, sizes[si], caps[ci]);
            for (unsigned k = 1; k < b->repeat; k++) {
                struct spsc_row r = spsc_once(b, sizes[si], caps[ci]);
                if (r.msgs_per_s > best.msgs_per_s)
                    best = r;
            }
            b->spsc[b->n_spsc++] = best;
        }
    }
}

/* ----------------------------------------------------- (c) engine */

#define ENG_PERIOD_PS 1000 /* 1 GHz domain */
#define ENG_Q_CYCLES 8     /* quantum, in cycles of that domain */

/* The trivial model: K partitions of one unit each. Read-only during the
 * run except the fields written by the serial hook. */
struct triv_model {
    unsigned k;            /* partitions (= units) */
    bool send;             /* "ring" variant: send one message per quantum */
    ps_t quantum;          /* ps */
    double box_s;          /* wall seconds to run */
    /* serial-hook-written */
    uint64_t quanta;       /* quanta seen by the hook */
    double t_first;        /* wall time at the end of the first quantum */
    double t_last;         /* wall time when the hook stopped the run */
};

/* One unit's state, allocated by its owner thread with eng_alloc. */
struct triv_unit {
    uint32_t id;           /* this unit */
    uint32_t next;         /* unit of the next partition (receiver) */
    const struct triv_model *m;
    uint64_t ticks;        /* ticks run */
    uint64_t received;     /* messages received */
};

static ps_t triv_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct triv_unit *u = self;
    u->ticks++;
    if (u->m->send && now % u->m->quantum == 0) {
        uint64_t payload[2] = {u->ticks, u->id};
        eng_send(ctx, u->id, u->next, now, u->m->quantum, 1, payload, sizeof payload);
    }
    return now + ENG_PERIOD_PS;
}

static ps_t triv_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    struct triv_unit *u = self;
    (void)ctx;
    (void)m;
    (void)now;
    u->received++;
    return PS_NEVER;
}

static const struct eng_unit_ops triv_ops = {"triv", triv_tick, triv_recv};

static void triv_init(void *model, struct eng_ctx *ctx, int partition)
{
    struct triv_model *m = model;
    struct triv_unit *u = eng_alloc(ctx, sizeof *u);
    if (!u)
        sim_panic("bench: out of memory in partition %d", partition);
    u->id = (uint32_t)partition; /* one unit per partition, added in order */
    u->next = (uint32_t)((unsigned)(partition + 1) % m->k);
    u->m = m;
    eng_unit_bind(ctx, u->id, u);
}

static bool triv_serial(void *model, struct engine *eng, ps_t now)
{
    struct triv_model *m = model;
    (void)eng;
    (void)now;
    if (m->quanta++ == 0) {
        m->t_first = now_s();
        return true;
    }
    if ((m->quanta & 63) == 0) {
        double t = now_s();
        if (t - m->t_first >= m->box_s) {
            m->t_last = t;
            return false;
        }
    }
    return true;
}

static struct engine_row engine_once(const struct bench *b, unsigned threads, bool send, uint32_t spin)
{
    struct triv_model m = {.k = threads, .send = send, .quantum = ENG_Q_CYCLES * ENG_PERIOD_PS,
                           .box_s = b->box_s};
    struct engine_cfg cfg = {.quantum_ps = m.quantum, .relaxed = false, .ring_slots = 1024,
                             .spin_limit = spin, .max_time_ps = 0};
    struct engine *e = eng_create(&cfg, &m);
    int dom = eng_domain_add(e, "core", ENG_PERIOD_PS);
    for (unsigned p = 0; p < threads; p++) {
        char name[32];
        snprintf(name, sizeof name, "p%u", p);
        int part = eng_partition_add(e, name, ENG_PART_SM, triv_init, NULL);
        eng_unit_add(e, part, dom, &triv_ops);
    }
    for (unsigned p = 0; p < threads; p++)
        eng_link_add(e, p, (p + 1) % threads, m.quantum);
    eng_set_serial(e, triv_serial);
    struct diag d;
    diag_init(&d);
    if (eng_finalize(e, &d) != 0) {
        diag_print(&d, stderr);
        sim_panic("bench: engine rejected the trivial model");
    }
    diag_fini(&d);

    struct eng_run_opts o = {.threads = threads, .pin = ENG_PIN_CORES};
    struct eng_result res;
    char err[256];
    if (eng_run(e, &o, &res, err, sizeof err) != 0)
        sim_panic("bench: eng_run: %s", err);
    if (res.threads != threads || res.finish != ENG_FINISH_SERIAL)
        sim_panic("bench: engine ran %u threads (wanted %u), finish %d", res.threads, threads,
                  (int)res.finish);
    struct engine_row row = {.threads = threads, .variant = send ? "ring" : "idle", .spin = spin,
                             .quantum_ps = m.quantum};
    row.quanta = m.quanta - 1; /* the first quantum includes thread start-up */
    row.ns_per_quantum = (m.t_last - m.t_first) * 1e9 / (double)row.quanta;
    for (unsigned t = 0; t < res.threads; t++) {
        row.msgs += res.per_thread[t].msgs_sent;
        row.sleeps += res.per_thread[t].barrier_sleeps;
    }
    eng_destroy(e);
    return row;
}

static void bench_engine(struct bench *b)
{
    static const uint32_t spins[] = {20000, 0};
    for (int v = 0; v < 2; v++)
        for (size_t s = 0; s < ARRAY_LEN(spins); s++)
            for (unsigned n = 1; n <= b->max_threads && b->n_eng < MAX_ROWS; n++) {
                struct engine_row best = engine_once(b, n, v == 1, spins[s]);
                for (unsigned k = 1; k < b->repeat; k++) {
                    struct engine_row r = engine_once(b, n, v == 1, spins[s]);
                    if (r.ns_per_quantum < best.ns_per_quantum)
                        best = r;
                }
                b->eng[b->n_eng++] = best;
            }
}

/* ------------------------------------------------------------ output */

static void print_markdown(const struct bench *b)
{
    const struct machine *m = &b->m;
    printf("# gpusim engine benchmark%s\n\n", b->quick ? " (--quick)" : "");
    printf("Best of %u run(s) of %.2f s per configuration.\n\n", b->repeat, b->box_s);
    machine_print_markdown(m);
    printf("\n");

    printf("## (a) Quantum barrier round trip\n\n");
    printf("| threads | spin limit | rounds | ns/barrier | futex sleeps/round |\n");
    printf("|--------:|-----------:|-------:|-----------:|-------------------:|\n");
    for (unsigned i = 0; i < b->n_bar; i++) {
        const struct barrier_row *r = &b->bar[i];
        printf("| %u | %u | %llu | %.0f | %.2f |\n", r->threads, r->spin, (unsigned long long)r->rounds,
               r->ns_per_round, r->sleeps_per_round);
    }

    printf("\n## (b) SPSC ring throughput, two pinned threads\n\n");
    printf("| message bytes | capacity | messages | Mmsg/s | MB/s | CPUs (prod/cons) |\n");
    printf("|--------------:|---------:|---------:|-------:|-----:|:----------------:|\n");
    for (unsigned i = 0; i < b->n_spsc; i++) {
        const struct spsc_row *r = &b->spsc[i];
        printf("| %u | %u | %llu | %.1f | %.0f | %d/%d |\n", r->msg_bytes, r->capacity,
               (unsigned long long)r->messages, r->msgs_per_s * 1e-6, r->mbytes_per_s, r->cpu_producer,
               r->cpu_consumer);
    }

    printf("\n## (c) Engine overhead per quantum (%d cycles of a 1 GHz domain, 1 unit per partition, "
           "1 partition per thread)\n\n", ENG_Q_CYCLES);
    printf("Spin limit is the configured sync.spin; with more threads than PUs the engine\n"
           "sleeps at once whatever it says (NOTE(oversubscribed-spin) in sync/engine_threads.c).\n\n");
    printf("| threads | variant | spin limit | quanta | ns/quantum | messages | futex sleeps |\n");
    printf("|--------:|:-------:|-----------:|-------:|-----------:|---------:|-------------:|\n");
    for (unsigned i = 0; i < b->n_eng; i++) {
        const struct engine_row *r = &b->eng[i];
        printf("| %u | %s | %u | %llu | %.0f | %llu | %llu |\n", r->threads, r->variant, r->spin,
               (unsigned long long)r->quanta, r->ns_per_quantum, (unsigned long long)r->msgs,
               (unsigned long long)r->sleeps);
    }
}

static void write_json(struct json_writer *w, void *arg)
{
    const struct bench *b = arg;
    jw_obj_begin(w, NULL);
    jw_str(w, "bench", "engine");
    jw_bool(w, "quick", b->quick);
    jw_double(w, "seconds_per_run", b->box_s);
    jw_u64(w, "runs_per_config", b->repeat);
    machine_write_json(&b->m, w);

    jw_arr_begin(w, "barrier");
    for (unsigned i = 0; i < b->n_bar; i++) {
        const struct barrier_row *r = &b->bar[i];
        jw_obj_begin(w, NULL);
        jw_u64(w, "threads", r->threads);
        jw_u64(w, "spin_limit", r->spin);
        jw_u64(w, "rounds", r->rounds);
        jw_double(w, "ns_per_barrier", r->ns_per_round);
        jw_double(w, "futex_sleeps_per_round", r->sleeps_per_round);
        jw_obj_end(w);
    }
    jw_arr_end(w);

    jw_arr_begin(w, "spsc");
    for (unsigned i = 0; i < b->n_spsc; i++) {
        const struct spsc_row *r = &b->spsc[i];
        jw_obj_begin(w, NULL);
        jw_u64(w, "msg_bytes", r->msg_bytes);
        jw_u64(w, "capacity", r->capacity);
        jw_u64(w, "messages", r->messages);
        jw_double(w, "msgs_per_s", r->msgs_per_s);
        jw_double(w, "mbytes_per_s", r->mbytes_per_s);
        jw_i64(w, "cpu_producer", r->cpu_producer);
        jw_i64(w, "cpu_consumer", r->cpu_consumer);
        jw_obj_end(w);
    }
    jw_arr_end(w);

    jw_arr_begin(w, "engine");
    for (unsigned i = 0; i < b->n_eng; i++) {
        const struct engine_row *r = &b->eng[i];
        jw_obj_begin(w, NULL);
        jw_u64(w, "threads", r->threads);
        jw_str(w, "variant", r->variant);
        jw_u64(w, "spin_limit", r->spin);
        jw_u64(w, "quantum_ps", r->quantum_ps);
        jw_u64(w, "cycles_per_quantum", ENG_Q_CYCLES);
        jw_u64(w, "quanta", r->quanta);
        jw_double(w, "ns_per_quantum", r->ns_per_quantum);
        jw_u64(w, "messages", r->msgs);
        jw_u64(w, "futex_sleeps", r->sleeps);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    jw_finish(w);
}

/* ------------------------------------------------------------- main */

static void usage(FILE *out)
{
    fprintf(out, "usage: engine [--quick] [--json FILE] [--max-threads N] [--repeat N]\n"
                 "  --quick          short smoke run: one 0.03 s run per configuration\n"
                 "                   (default: best of 3 runs of 0.2 s each)\n"
                 "  --json FILE      also write the results as JSON to FILE\n"
                 "  --max-threads N  measure 1..N threads (default: 2x online CPUs)\n"
                 "  --repeat N       runs per configuration, the best is reported\n");
}

int main(int argc, char **argv)
{
    struct bench *b = calloc(1, sizeof *b);
    if (!b)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            b->quick = true;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            b->json_path = argv[++i];
        } else if (strcmp(argv[i], "--max-threads") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 64) {
                fprintf(stderr, "engine: --max-threads wants 1..64, got '%s'\n", argv[i]);
                return 2;
            }
            b->max_threads = (unsigned)v;
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 100) {
                fprintf(stderr, "engine: --repeat wants 1..100, got '%s'\n", argv[i]);
                return 2;
            }
            b->repeat = (unsigned)v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(b);
            return 0;
        } else {
            fprintf(stderr, "engine: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            free(b);
            return 2;
        }
    }
    topo_init(&b->topo);
    machine_probe(&b->m);
    if (!b->max_threads)
        b->max_threads = 2 * b->m.online;
    b->box_s = b->quick ? 0.03 : 0.2;
    if (!b->repeat)
        b->repeat = b->quick ? 1 : 3;

    double t0 = now_s();
    bench_barrier(b);
    bench_spsc(b);
    bench_engine(b);
    print_markdown(b);
    printf("\n(%.1f s in all)\n", now_s() - t0);

    int rc = 0;
    if (b->json_path) {
        char err[256];
        if (json_write_atomic(b->json_path, write_json, b, err, sizeof err) != 0) {
            fprintf(stderr, "engine: %s\n", err);
            rc = 1;
        }
    }
    topo_fini(&b->topo);
    free(b);
    return rc;
}
