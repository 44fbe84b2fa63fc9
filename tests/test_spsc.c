/* tests/test_spsc.c: the lock-free SPSC ring (sync/spsc.h).
 *
 * Single-threaded semantics first: empty and full at exactly the capacity
 * (1, 2, 8), a few million random operations against a naive reference
 * queue, wraparound of the free-running uint32_t counters (the counters are
 * started just below UINT32_MAX by writing the descriptor's fields, which
 * are visible for that purpose), reserve/commit and peek/release, and the
 * typed wrappers of SPSC_RING_DEFINE.
 *
 * Then a two-thread validate test per capacity (2, 16, 1024): a pinned
 * producer sends sequence numbers 0..N-1 with a payload derived from the
 * sequence number and a checksum; a pinned consumer checks strict order, no
 * loss, no duplication and intact payloads. Both spin (then yield) when the
 * ring is full or empty. The checker itself is validated against injected
 * faults (dropped, duplicated, corrupted messages): spsc_checker_fault.
 *
 * GPUSIM_TEST_SLOW=1 in the environment runs the stress 10x longer.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "sync/spsc.h"
#include "sync/topo.h"
#include "tap.h"

#if defined(__SANITIZE_THREAD__) || defined(GPUSIM_TSAN)
#define UNDER_TSAN 1 /* TSan makes every atomic ~20x slower: scale work down */
#else
#define UNDER_TSAN 0
#endif

/* ------------------------------------------------------ message types */

struct msg16 {
    uint64_t seq;   /* sequence number */
    uint64_t check; /* seq-derived payload */
};

struct msg256 {
    uint64_t seq;      /* sequence number */
    uint64_t word[30]; /* payload, word[i] = mix(seq + i) */
    uint64_t check;    /* xor of seq and every payload word */
};

SPSC_RING_DEFINE(m16, struct msg16)
SPSC_RING_DEFINE(m256, struct msg256)

/* splitmix64 finaliser: a cheap bijective scramble of the sequence number. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void msg256_fill(struct msg256 *m, uint64_t seq)
{
    m->seq = seq;
    m->check = seq;
    for (unsigned i = 0; i < ARRAY_LEN(m->word); i++) {
        m->word[i] = mix(seq + i);
        m->check ^= m->word[i];
    }
}

/* Payload and checksum agree with the sequence number. */
static bool msg256_intact(const struct msg256 *m)
{
    uint64_t x = m->seq;
    for (unsigned i = 0; i < ARRAY_LEN(m->word); i++) {
        if (m->word[i] != mix(m->seq + i))
            return false;
        x ^= m->word[i];
    }
    return x == m->check;
}

/* ------------------------------------------------- single-threaded */

static void test_empty_full(void)
{
    static const uint32_t caps[] = {1, 2, 8};
    for (size_t c = 0; c < ARRAY_LEN(caps); c++) {
        uint32_t cap = caps[c];
        struct spsc_ring r;
        struct msg16 slots[8], v, out;
        spsc_init(&r, cap);
        bool ok = !m16_pop(&r, slots, &out) && spsc_peek(&r) == -1;
        TAP_OK(ok, "cap %u: a new ring is empty", cap);
        bool pushed = true;
        for (uint32_t i = 0; i < cap; i++) {
            v = (struct msg16){i, mix(i)};
            pushed = pushed && m16_push(&r, slots, &v);
        }
        TAP_OK(pushed, "cap %u: exactly %u pushes succeed", cap, cap);
        v = (struct msg16){99, 0};
        TAP_OK(!m16_push(&r, slots, &v) && spsc_reserve(&r) == -1, "cap %u: push %u fails (full)", cap,
               cap + 1);
        TAP_OK(m16_pop(&r, slots, &out) && out.seq == 0, "cap %u: pop gives the oldest", cap);
        v = (struct msg16){cap, mix(cap)};
        TAP_OK(m16_push(&r, slots, &v), "cap %u: one pop frees exactly one slot", cap);
        TAP_OK(!m16_push(&r, slots, &v), "cap %u: ... and then it is full again", cap);
        bool order = true;
        for (uint32_t i = 1; i <= cap; i++)
            order = order && m16_pop(&r, slots, &out) && out.seq == i && out.check == mix(i);
        TAP_OK(order, "cap %u: the rest comes out in order", cap);
        TAP_OK(!m16_pop(&r, slots, &out), "cap %u: empty again", cap);
    }
}

/* A naive bounded FIFO: the reference model. */
struct ref_queue {
    uint64_t buf[64]; /* values, circular */
    unsigned head;    /* index of the oldest */
    unsigned count;   /* values held */
    unsigned cap;     /* capacity (entries) */
};

static bool ref_push(struct ref_queue *q, uint64_t v)
{
    if (q->count == q->cap)
        return false;
    q->buf[(q->head + q->count++) % 64] = v;
    return true;
}

static bool ref_pop(struct ref_queue *q, uint64_t *v)
{
    if (q->count == 0)
        return false;
    *v = q->buf[q->head];
    q->head = (q->head + 1) % 64;
    q->count--;
    return true;
}

/* ops random push/pop operations (biased by `bias` in 0..255 towards push)
 * on ring r of capacity cap, compared with the reference after each one.
 * Returns the number of the first diverging operation, or -1. */
static long run_vs_reference(struct spsc_ring *r, uint32_t cap, long ops, uint64_t seed, unsigned bias)
{
    struct msg16 slots[64], v, out;
    struct ref_queue q = {.cap = cap};
    uint64_t next = 0, rnd = seed;
    for (long i = 0; i < ops; i++) {
        rnd = mix(rnd);
        if ((rnd & 255) < bias) {
            v = (struct msg16){next, mix(next)};
            bool a = m16_push(r, slots, &v), b = ref_push(&q, next);
            if (a != b)
                return i;
            next += a;
        } else {
            uint64_t want = 0;
            bool a = m16_pop(r, slots, &out), b = ref_pop(&q, &want);
            if (a != b || (a && (out.seq != want || out.check != mix(want))))
                return i;
        }
    }
    return -1;
}

static void test_reference(void)
{
    const long ops = UNDER_TSAN ? 500000 : 4000000;
    static const uint32_t caps[] = {1, 4, 64};
    static const unsigned bias[] = {64, 128, 192}; /* mostly empty, balanced, mostly full */
    for (size_t c = 0; c < ARRAY_LEN(caps); c++) {
        for (size_t b = 0; b < ARRAY_LEN(bias); b++) {
            struct spsc_ring r;
            spsc_init(&r, caps[c]);
            long bad = run_vs_reference(&r, caps[c], ops, 1 + c * 3 + b, bias[b]);
            TAP_EQ_I64(bad, -1, "cap %u, push bias %u/256: %ld random ops match the reference FIFO", caps[c],
                       bias[b], ops);
        }
    }
}

/* Place every counter just below the wrap point (white-box: head, tail and
 * the two caches must agree, as they do on a ring that has been used). */
static void ring_set_counters(struct spsc_ring *r, uint32_t v)
{
    atomic_store_explicit(&r->head, v, memory_order_relaxed);
    atomic_store_explicit(&r->tail, v, memory_order_relaxed);
    r->head_cache = v;
    r->tail_cache = v;
}

static void test_wraparound(void)
{
    struct spsc_ring r;
    struct msg16 slots[8], v, out;
    const uint32_t start = UINT32_MAX - 3;
    spsc_init(&r, 8);
    ring_set_counters(&r, start);

    TAP_EQ_I64(spsc_peek(&r), -1, "wrap: empty at tail = head = UINT32_MAX-3");
    TAP_EQ_I64(spsc_reserve(&r), (int64_t)(start & 7), "wrap: first slot is counter & mask (%u)",
               start & 7);
    bool ok = true;
    for (uint32_t i = 0; i < 8; i++) {
        v = (struct msg16){i, mix(i)};
        ok = ok && m16_push(&r, slots, &v);
    }
    TAP_OK(ok, "wrap: 8 pushes across UINT32_MAX succeed");
    TAP_EQ_U64(at_load_rlx_u32(&r.tail), start + 8u, "wrap: tail wrapped to %u", start + 8u);
    TAP_OK(!m16_push(&r, slots, &v), "wrap: full with tail < head numerically");
    ok = true;
    for (uint32_t i = 0; i < 3; i++)
        ok = ok && m16_pop(&r, slots, &out) && out.seq == i;
    for (uint32_t i = 8; i < 11; i++) {
        v = (struct msg16){i, mix(i)};
        ok = ok && m16_push(&r, slots, &v);
    }
    TAP_OK(ok, "wrap: pop 3, push 3 across the wrap");
    ok = true;
    for (uint32_t i = 3; i < 11; i++)
        ok = ok && m16_pop(&r, slots, &out) && out.seq == i && out.check == mix(i);
    TAP_OK(ok && !m16_pop(&r, slots, &out), "wrap: all 8 come out in order, then empty");
    TAP_EQ_U64(at_load_rlx_u32(&r.head), start + 11u, "wrap: head wrapped too");

    /* Random traffic through the wrap point against the reference. */
    static const uint32_t caps[] = {1, 2, 16, 64};
    for (size_t c = 0; c < ARRAY_LEN(caps); c++) {
        spsc_init(&r, caps[c]);
        ring_set_counters(&r, UINT32_MAX - 100);
        long bad = run_vs_reference(&r, caps[c], 2000, 77 + c, 128);
        TAP_OK(bad == -1 && at_load_rlx_u32(&r.head) < 1000u,
               "wrap: cap %u, 2000 random ops through UINT32_MAX match the reference (diverged at %ld)",
               caps[c], bad);
    }
}

static void test_reserve_commit(void)
{
    struct spsc_ring r;
    struct msg256 slots[4];
    spsc_init(&r, 4);

    struct msg256 *w = m256_reserve(&r, slots);
    struct msg256 *w2 = m256_reserve(&r, slots);
    TAP_OK(w != NULL && w == w2, "reserve twice without commit gives the same slot");
    msg256_fill(w, 42); /* in-place construction */
    TAP_OK(m256_peek(&r, slots) == NULL, "a reserved slot is invisible before commit");
    spsc_commit(&r);
    struct msg256 *p = m256_peek(&r, slots);
    TAP_OK(p == w && m256_peek(&r, slots) == p, "after commit, peek sees it (twice, same slot)");
    TAP_OK(p && p->seq == 42 && msg256_intact(p), "the in-place message reads back intact");
    spsc_release(&r);
    TAP_OK(m256_peek(&r, slots) == NULL, "after release the ring is empty");

    /* Fill by reserve/commit, drain by pop; then fill by push, drain by peek. */
    bool ok = true;
    for (uint64_t i = 0; i < 4; i++) {
        struct msg256 *s = m256_reserve(&r, slots);
        ok = ok && s;
        if (s) {
            msg256_fill(s, i);
            spsc_commit(&r);
        }
    }
    ok = ok && m256_reserve(&r, slots) == NULL;
    struct msg256 out;
    for (uint64_t i = 0; i < 4; i++) {
        struct msg256 want;
        msg256_fill(&want, i);
        ok = ok && m256_pop(&r, slots, &out) && memcmp(&out, &want, sizeof out) == 0;
    }
    TAP_OK(ok, "reserve/commit fills to capacity; pop drains in order");
    ok = true;
    for (uint64_t i = 10; i < 14; i++) {
        struct msg256 m;
        msg256_fill(&m, i);
        ok = ok && m256_push(&r, slots, &m);
    }
    for (uint64_t i = 10; i < 14; i++) {
        struct msg256 *s = m256_peek(&r, slots);
        ok = ok && s && s->seq == i;
        spsc_release(&r);
    }
    TAP_OK(ok && m256_peek(&r, slots) == NULL, "push fills; peek/release drains in order");
}

/* ------------------------------------------------ two-thread stress */

/* Consumer-side checker: strict order, no loss, no duplicate, intact payload. */
struct checker {
    uint64_t expect;    /* next sequence number due */
    uint64_t errors;    /* messages that failed a check */
    uint64_t first_bad; /* sequence number of the first failure (UINT64_MAX: none) */
};

static void checker_init(struct checker *c)
{
    c->expect = 0;
    c->errors = 0;
    c->first_bad = UINT64_MAX;
}

static void checker_feed(struct checker *c, const struct msg256 *m)
{
    if (m->seq != c->expect || !msg256_intact(m)) {
        if (c->errors++ == 0)
            c->first_bad = c->expect;
    }
    /* Resynchronise on the received sequence so one fault counts once. */
    c->expect = m->seq + 1;
}

static void test_checker_fault(void)
{
    struct checker c;
    struct msg256 m;
    checker_init(&c);
    for (uint64_t i = 0; i < 10; i++) {
        msg256_fill(&m, i);
        checker_feed(&c, &m);
    }
    TAP_EQ_U64(c.errors, 0, "checker accepts a clean stream");

    checker_init(&c);
    for (uint64_t i = 0; i < 10; i++) {
        if (i == 4)
            continue; /* dropped */
        msg256_fill(&m, i);
        checker_feed(&c, &m);
    }
    TAP_OK(c.errors == 1 && c.first_bad == 4, "spsc_checker_fault: a dropped message is caught");

    checker_init(&c);
    for (uint64_t i = 0; i < 10; i++) {
        msg256_fill(&m, i);
        checker_feed(&c, &m);
        if (i == 6)
            checker_feed(&c, &m); /* duplicated */
    }
    TAP_OK(c.errors == 1 && c.first_bad == 7, "spsc_checker_fault: a duplicated message is caught");

    checker_init(&c);
    for (uint64_t i = 0; i < 10; i++) {
        msg256_fill(&m, i);
        if (i == 2)
            m.word[17] ^= 1; /* one flipped bit */
        checker_feed(&c, &m);
    }
    TAP_OK(c.errors == 1 && c.first_bad == 2, "spsc_checker_fault: a corrupted payload is caught");
}

/* Shared by producer and consumer of one stress run. */
struct stress {
    struct spsc_ring ring;    /* descriptor (indices on their own lines) */
    struct msg256 *slots;     /* [capacity] caller-owned slots */
    uint64_t n;               /* messages to send */
    const struct topo *topo;  /* for pinning */
    /* producer-written, read by main after join */
    CACHE_ALIGNED uint64_t full_spins; /* reserve attempts that found the ring full */
    int producer_cpu;                  /* CPU the producer was pinned to (-1: none) */
    /* consumer-written, read by main after join */
    CACHE_ALIGNED struct checker chk;  /* consumer's verdict */
    uint64_t empty_spins;              /* peek attempts that found the ring empty */
    int consumer_cpu;                  /* CPU the consumer was pinned to (-1: none) */
};

/* Back off while the partner catches up: pause first, then yield (the two
 * threads may share a core under ctest -j or a sanitizer). */
static void backoff(unsigned *spins)
{
    if (++*spins < 64)
        cpu_relax();
    else
        sched_yield();
}

static void *producer(void *arg)
{
    struct stress *s = arg;
    s->producer_cpu = topo_pin_self(s->topo, ENG_PIN_CORES, 0);
    for (uint64_t seq = 0; seq < s->n; seq++) {
        unsigned spins = 0;
        if (seq & 1) { /* odd: construct in place */
            struct msg256 *w;
            while ((w = m256_reserve(&s->ring, s->slots)) == NULL) {
                s->full_spins++;
                backoff(&spins);
            }
            msg256_fill(w, seq);
            spsc_commit(&s->ring);
        } else { /* even: copy in */
            struct msg256 m;
            msg256_fill(&m, seq);
            while (!m256_push(&s->ring, s->slots, &m)) {
                s->full_spins++;
                backoff(&spins);
            }
        }
    }
    return NULL;
}

static void *consumer(void *arg)
{
    struct stress *s = arg;
    s->consumer_cpu = topo_pin_self(s->topo, ENG_PIN_CORES, 1);
    checker_init(&s->chk);
    for (uint64_t got = 0; got < s->n; got++) {
        unsigned spins = 0;
        if (got & 1) { /* odd: read in place */
            const struct msg256 *p;
            while ((p = m256_peek(&s->ring, s->slots)) == NULL) {
                s->empty_spins++;
                backoff(&spins);
            }
            checker_feed(&s->chk, p);
            spsc_release(&s->ring);
        } else { /* even: copy out */
            struct msg256 m;
            while (!m256_pop(&s->ring, s->slots, &m)) {
                s->empty_spins++;
                backoff(&spins);
            }
            checker_feed(&s->chk, &m);
        }
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_stress(void)
{
    struct topo topo;
    topo_init(&topo);
    const char *slow = getenv("GPUSIM_TEST_SLOW");
    uint64_t scale = (slow && slow[0] == '1') ? 10 : 1;
    static const uint32_t caps[] = {2, 16, 1024};
    /* ~0.3 s each (~1 s in all) in a release build on the 2-core CI host. */
    static const uint64_t n_release[] = {1000000, 2000000, 8000000};
    for (size_t c = 0; c < ARRAY_LEN(caps); c++) {
        struct stress *s = aligned_alloc(CACHE_LINE, sizeof *s);
        if (!s)
            tap_bail("out of memory");
        memset(s, 0, sizeof *s);
        spsc_init(&s->ring, caps[c]);
        s->slots = aligned_alloc(CACHE_LINE, caps[c] * sizeof *s->slots);
        s->n = n_release[c] * scale / (UNDER_TSAN ? 30 : 1);
        s->topo = &topo;
        pthread_t tp, tc;
        double t0 = now_s();
        if (pthread_create(&tc, NULL, consumer, s) != 0)
            tap_bail("pthread_create failed (consumer)");
        if (pthread_create(&tp, NULL, producer, s) != 0)
            tap_bail("pthread_create failed (producer)");
        pthread_join(tp, NULL);
        pthread_join(tc, NULL);
        double dt = now_s() - t0;
        TAP_OK(s->chk.errors == 0 && s->chk.expect == s->n,
               "stress cap %u: %llu messages of %zu B in strict order, none lost, none duplicated", caps[c],
               (unsigned long long)s->n, sizeof(struct msg256));
        if (s->chk.errors)
            tap_diag("  %llu bad messages, first at seq %llu", (unsigned long long)s->chk.errors,
                     (unsigned long long)s->chk.first_bad);
        tap_diag("  cap %u: %.3f s, %.1f Mmsg/s, full spins %llu, empty spins %llu, cpus %d/%d", caps[c], dt,
                 (double)s->n / dt * 1e-6, (unsigned long long)s->full_spins,
                 (unsigned long long)s->empty_spins, s->producer_cpu, s->consumer_cpu);
        TAP_EQ_U64(at_load_rlx_u32(&s->ring.head), at_load_rlx_u32(&s->ring.tail),
                   "stress cap %u: ring drained (head == tail)", caps[c]);
        free(s->slots);
        free(s);
    }
    topo_fini(&topo);
}

/* ---------------------------------------------------------- registry */

static const struct tap_test tests[] = {
    {"empty_full", test_empty_full},
    {"reference", test_reference},
    {"wraparound", test_wraparound},
    {"reserve_commit", test_reserve_commit},
    {"spsc_checker_fault", test_checker_fault},
    {"stress", test_stress},
};

int main(void) { return tap_run(tests, ARRAY_LEN(tests)); }
