/* tests/test_qbarrier.c: validate the quantum barrier (sync/qbarrier.c).
 *
 * Validate tests in the manner of ck's barrier regressions: an invariant is
 * checked by every thread after every round, so a barrier that lets one
 * thread through early is caught in the round where it happens.
 *
 *  round_invariant  N threads (1, 2, 3, 4, 8, 2x online CPUs) each write
 *                   their round number to a per-thread counter before the
 *                   barrier; after it every thread checks that all counters
 *                   equal the round. Counters are double-buffered by round
 *                   parity so that a fast thread writing round r+1 never
 *                   races a slow thread still checking round r; they are
 *                   deliberately plain (non-atomic) memory, because ordering
 *                   plain simulator state is exactly the barrier's job, and
 *                   ThreadSanitizer then checks that it does it.
 *  serial_hook      the hook runs exactly once per round, in the thread that
 *                   gets `true`, sees every thread's pre-barrier write, and
 *                   every thread sees the hook's write after the barrier.
 *  arrival_order    for N = 3 and 4, every permutation of the threads is
 *                   forced as the arrival order and the last arriver must be
 *                   the one that ran the hook and got `true`.
 *  oversubscribed   16 threads on this host's cores, spin limits 0 and 1000,
 *                   2000 rounds; with spin 0 the futex path must be used.
 *  pinned           threads pinned with topo_pin_self(ENG_PIN_CORES) (one
 *                   and two per PU) must stay on their CPU across rounds.
 *  participants     the hook changes how many threads take part in the
 *                   next round (1..N, at random), admits returning threads
 *                   with qbar_state_join and lets them go after its release,
 *                   as the adaptive engine does; every round exactly the
 *                   participants arrived, with plain marks TSan checks.
 *
 * Everything runs in a few seconds on a 2-core host; under TSan most round
 * counts are divided by 4. GPUSIM_TEST_SLOW=1 multiplies them by 10.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sync/qbarrier.h"
#include "sync/topo.h"
#include "tap.h"

#if defined(__SANITIZE_THREAD__) || defined(GPUSIM_TSAN)
#define ROUND_DIVISOR 4 /* TSan: every atomic and futex is much slower */
#else
#define ROUND_DIVISOR 1
#endif

/* Spin limit for tests that do not vary it: long enough that threads <= CPUs
 * meet while spinning, short when oversubscribed, where a spinning waiter
 * only holds the CPU the last arriver needs (2000 spins cost ~400 us per
 * round under TSan with 3 threads on 2 CPUs; the oversubscribed test covers
 * longer spins explicitly). */
static uint32_t test_spin(unsigned n_threads)
{
    return (long)n_threads <= sysconf(_SC_NPROCESSORS_ONLN) ? 2000 : 100;
}

static uint64_t scaled(uint64_t rounds)
{
    const char *slow = getenv("GPUSIM_TEST_SLOW");
    if (slow && slow[0] == '1')
        rounds *= 10;
    rounds /= ROUND_DIVISOR;
    return rounds ? rounds : 1;
}

/* Rounds for n threads: cheap spin rounds when every thread has a CPU,
 * fewer when oversubscribed (each round then costs futex sleeps and wakes,
 * ~30 us with 4 threads and ~200 us with 8 on 2 cores). */
static uint64_t rounds_for(unsigned n)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if ((long)n <= cpus)
        return scaled(200000);
    return scaled((long)n <= 2 * cpus ? 10000 : 3000);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

/* Start fn(&ctx[i]) on n threads (ctx elements of `size` bytes) and join. */
static void run_threads(unsigned n, void *(*fn)(void *), void *ctx, size_t size)
{
    pthread_t *th = calloc(n, sizeof *th);
    if (!th)
        tap_bail("out of memory");
    for (unsigned i = 0; i < n; i++)
        if (pthread_create(&th[i], NULL, fn, (char *)ctx + i * size) != 0)
            tap_bail("pthread_create failed for thread %u of %u", i, n);
    for (unsigned i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    free(th);
}

static void *xaligned(size_t bytes)
{
    void *p = aligned_alloc(CACHE_LINE, u64_round_up(bytes, CACHE_LINE));
    if (!p)
        tap_bail("out of memory");
    memset(p, 0, bytes);
    return p;
}

/* ------------------------------------------ round invariant (a, d, e) */

/* One thread's published counter, alone on its cache line. */
struct vslot {
    CACHE_ALIGNED uint64_t round[2]; /* last round written, by round parity (plain memory) */
};

/* One thread's private context. Written by that thread; read by main after join. */
struct vthread {
    CACHE_ALIGNED struct validate *v; /* the shared run */
    unsigned id;                      /* thread index 0..n-1 */
    struct qbar_state st;             /* barrier companion */
    uint64_t errors;                  /* counters seen != round */
    uint64_t first_bad_round;         /* round of the first error (0: none) */
    uint64_t trues;                   /* rounds where qbar_wait returned true */
    int cpu;                          /* CPU pinned to, -1 when not pinned */
    uint64_t cpu_moves;               /* rounds where sched_getcpu() != cpu */
};

/* Shared by all threads of one run; read-only after setup except bar. */
struct validate {
    struct qbar bar;         /* the barrier under test */
    unsigned n;              /* threads */
    uint64_t rounds;         /* rounds to run */
    bool pin;                /* pin with ENG_PIN_CORES */
    const struct topo *topo; /* for pinning */
    struct vslot *slots;     /* [n] published counters */
};

static void *validate_thread(void *arg)
{
    struct vthread *me = arg;
    struct validate *v = me->v;
    me->cpu = v->pin ? topo_pin_self(v->topo, ENG_PIN_CORES, me->id) : -1;
    for (uint64_t r = 1; r <= v->rounds; r++) {
        v->slots[me->id].round[r & 1] = r;
        if (qbar_wait(&v->bar, &me->st, NULL, NULL))
            me->trues++;
        for (unsigned u = 0; u < v->n; u++) {
            if (v->slots[u].round[r & 1] != r && me->errors++ == 0)
                me->first_bad_round = r;
        }
        if (me->cpu >= 0 && sched_getcpu() != me->cpu)
            me->cpu_moves++;
    }
    return NULL;
}

/* Totals of one validate run. */
struct vresult {
    uint64_t errors;    /* invariant violations, all threads */
    uint64_t first_bad; /* earliest round with a violation (0: none) */
    uint64_t trues;     /* sum of true returns (must equal rounds) */
    uint64_t serial;    /* sum of qbar_state.serial (must equal rounds) */
    bool rounds_ok;     /* every thread's qbar_state.rounds == rounds */
    uint64_t sleeps;    /* futex waits entered, all threads */
    bool pinned_ok;     /* pinned threads got cpu_for and never moved */
    double wall_s;      /* wall time of the run */
};

static struct vresult run_validate(unsigned n, uint64_t rounds, uint32_t spin, const struct topo *topo)
{
    struct validate v = {.n = n, .rounds = rounds, .pin = topo != NULL, .topo = topo};
    qbar_init(&v.bar, n, spin);
    v.slots = xaligned(n * sizeof *v.slots);
    struct vthread *th = xaligned(n * sizeof *th);
    for (unsigned i = 0; i < n; i++) {
        th[i].v = &v;
        th[i].id = i;
        th[i].st = (struct qbar_state)QBAR_STATE_INITIALIZER;
    }
    double t0 = now_s();
    run_threads(n, validate_thread, th, sizeof *th);
    struct vresult res = {.rounds_ok = true, .pinned_ok = true, .wall_s = now_s() - t0};
    for (unsigned i = 0; i < n; i++) {
        res.errors += th[i].errors;
        if (th[i].errors && (res.first_bad == 0 || th[i].first_bad_round < res.first_bad))
            res.first_bad = th[i].first_bad_round;
        res.trues += th[i].trues;
        res.serial += th[i].st.serial;
        res.sleeps += th[i].st.sleeps;
        res.rounds_ok = res.rounds_ok && th[i].st.rounds == rounds;
        if (topo)
            res.pinned_ok = res.pinned_ok && th[i].cpu == topo_cpu_for(topo, ENG_PIN_CORES, i) &&
                            th[i].cpu_moves == 0;
    }
    free(th);
    free(v.slots);
    return res;
}

static void report_validate(const char *what, unsigned n, uint64_t rounds, uint32_t spin,
                            const struct vresult *r)
{
    TAP_OK(r->errors == 0, "%s: %u threads, spin %u: all counters equal the round after each of %llu rounds",
           what, n, spin, (unsigned long long)rounds);
    if (r->errors)
        tap_diag("  %llu violations, first in round %llu", (unsigned long long)r->errors,
                 (unsigned long long)r->first_bad);
    TAP_OK(r->trues == rounds && r->serial == rounds && r->rounds_ok,
           "%s: %u threads: exactly one serial thread per round (true %llu, serial %llu of %llu)", what, n,
           (unsigned long long)r->trues, (unsigned long long)r->serial, (unsigned long long)rounds);
    tap_diag("  %.3f s, %.2f us/round, %llu futex sleeps", r->wall_s, r->wall_s * 1e6 / (double)rounds,
             (unsigned long long)r->sleeps);
}

static void test_round_invariant(void)
{
    unsigned counts[] = {1, 2, 3, 4, 8, 2 * online_cpus()};
    for (size_t i = 0; i < ARRAY_LEN(counts); i++) {
        unsigned n = counts[i];
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup = dup || counts[j] == n;
        if (dup)
            continue;
        uint64_t rounds = rounds_for(n);
        struct vresult r = run_validate(n, rounds, test_spin(n), NULL);
        report_validate("invariant", n, rounds, test_spin(n), &r);
    }
}

static void test_oversubscribed(void)
{
    static const uint32_t spins[] = {0, 1000};
    const unsigned n = 16;
    /* 2000 rounds even under TSan: the futex path is what this exercises. */
    const char *slow = getenv("GPUSIM_TEST_SLOW");
    uint64_t rounds = (slow && slow[0] == '1') ? 20000 : 2000;
    tap_diag("%u threads on %u online CPUs", n, online_cpus());
    for (size_t i = 0; i < ARRAY_LEN(spins); i++) {
        struct vresult r = run_validate(n, rounds, spins[i], NULL);
        report_validate("oversubscribed", n, rounds, spins[i], &r);
        if (spins[i] == 0)
            TAP_OK(r.sleeps > 0, "oversubscribed, spin 0: the futex path was taken (%llu sleeps)",
                   (unsigned long long)r.sleeps);
    }
}

static void test_pinned(void)
{
    struct topo topo;
    topo_init(&topo);
    unsigned counts[] = {topo_pus(&topo), 2 * topo_pus(&topo)};
    for (size_t i = 0; i < ARRAY_LEN(counts); i++) {
        uint64_t rounds = rounds_for(counts[i]);
        struct vresult r = run_validate(counts[i], rounds, test_spin(counts[i]), &topo);
        report_validate("pinned", counts[i], rounds, test_spin(counts[i]), &r);
        TAP_OK(r.pinned_ok, "pinned: %u threads got their ENG_PIN_CORES CPU and never left it", counts[i]);
    }
    topo_fini(&topo);
}

/* ---------------------------------------------------- serial hook (b) */

/* One thread's pre-barrier value, alone on its line. */
struct hslot {
    CACHE_ALIGNED uint64_t value; /* round * 1000 + thread id, written before arriving (plain) */
};

struct hook_run;

/* One thread's private context, passed to the hook as its argument. */
struct hthread {
    CACHE_ALIGNED struct hook_run *h; /* the shared run */
    unsigned id;                      /* thread index */
    struct qbar_state st;             /* barrier companion */
    uint64_t trues;                   /* rounds where this thread got true */
    uint64_t token_errors;            /* rounds where the hook's token was not seen */
    uint64_t caller_errors;           /* true returned but the hook ran with another arg, or vice versa */
};

/* Shared run state. The hook-written fields are plain memory written only
 * inside the hook (while everyone else waits) and read only after it. */
struct hook_run {
    struct qbar bar;       /* barrier under test */
    unsigned n;            /* threads */
    uint64_t rounds;       /* rounds to run */
    struct hslot *pre;     /* [n] pre-barrier writes */
    CACHE_ALIGNED uint64_t hook_runs; /* hook invocations (hook-written) */
    uint64_t hook_errors;  /* pre-barrier values the hook did not see (hook-written) */
    uint64_t token;        /* mix of the round, read by all after the barrier (hook-written) */
    unsigned caller;       /* id of the thread whose arg the hook got (hook-written) */
};

static uint64_t token_of(uint64_t round) { return round * 0x9e3779b97f4a7c15ull ^ 0x5555; }

static void hook(void *arg)
{
    struct hthread *me = arg;
    struct hook_run *h = me->h;
    uint64_t r = ++h->hook_runs; /* the round this hook ends */
    for (unsigned u = 0; u < h->n; u++)
        if (h->pre[u].value != r * 1000 + u)
            h->hook_errors++;
    h->token = token_of(r);
    h->caller = me->id;
}

static void *hook_thread(void *arg)
{
    struct hthread *me = arg;
    struct hook_run *h = me->h;
    for (uint64_t r = 1; r <= h->rounds; r++) {
        h->pre[me->id].value = r * 1000 + me->id;
        bool serial = qbar_wait(&h->bar, &me->st, hook, me);
        me->trues += serial;
        if (h->token != token_of(r))
            me->token_errors++;
        if (serial != (h->caller == me->id))
            me->caller_errors++;
    }
    return NULL;
}

static void test_serial_hook(void)
{
    unsigned counts[] = {1, 3, 2 * online_cpus() + 1};
    for (size_t i = 0; i < ARRAY_LEN(counts); i++) {
        unsigned n = counts[i];
        struct hook_run h = {.n = n, .rounds = rounds_for(n)};
        qbar_init(&h.bar, n, test_spin(n));
        h.pre = xaligned(n * sizeof *h.pre);
        struct hthread *th = xaligned(n * sizeof *th);
        for (unsigned t = 0; t < n; t++) {
            th[t].h = &h;
            th[t].id = t;
            th[t].st = (struct qbar_state)QBAR_STATE_INITIALIZER;
        }
        run_threads(n, hook_thread, th, sizeof *th);
        uint64_t trues = 0, tok = 0, caller = 0;
        for (unsigned t = 0; t < n; t++) {
            trues += th[t].trues;
            tok += th[t].token_errors;
            caller += th[t].caller_errors;
        }
        TAP_EQ_U64(h.hook_runs, h.rounds, "hook, %u threads: ran exactly once per round", n);
        TAP_EQ_U64(h.hook_errors, 0, "hook, %u threads: saw every thread's pre-barrier write", n);
        TAP_EQ_U64(tok, 0, "hook, %u threads: every thread saw the hook's write after the barrier", n);
        TAP_EQ_U64(caller, 0, "hook, %u threads: the thread that got true is the one that ran the hook", n);
        TAP_EQ_U64(trues, h.rounds, "hook, %u threads: one true per round", n);
        free(th);
        free(h.pre);
    }
}

/* ------------------------------------------------ arrival orders (c) */

#define MAX_PERM_N 4
#define MAX_PERMS 24 /* 4! */

/* Shared run: round k forces arrival order perm[k]. */
struct order_run {
    struct qbar bar;                       /* barrier under test */
    unsigned n;                            /* threads */
    unsigned n_perms;                      /* rounds = permutations of n */
    unsigned perm[MAX_PERMS][MAX_PERM_N];  /* perm[k][p] = thread arriving p-th in round k */
    int hook_caller[MAX_PERMS];            /* hook-written: whose arg the hook got in round k */
};

struct othread {
    CACHE_ALIGNED struct order_run *o; /* the shared run */
    unsigned id;                       /* thread index */
    struct qbar_state st;              /* barrier companion */
    bool got_true[MAX_PERMS];          /* qbar_wait's answer in round k */
    unsigned round;                    /* round being run (for the hook) */
};

static void order_hook(void *arg)
{
    struct othread *me = arg;
    me->o->hook_caller[me->round] = (int)me->id;
}

static void *order_thread(void *arg)
{
    struct othread *me = arg;
    struct order_run *o = me->o;
    for (unsigned k = 0; k < o->n_perms; k++) {
        unsigned pos = 0;
        while (o->perm[k][pos] != me->id)
            pos++;
        /* The turn counter is the barrier's own arrival count: arriving
         * p-th means waiting until exactly p threads have arrived this
         * round (remaining == n - p). White-box, read through the atomic
         * helper; the barrier resets it to n before releasing a round. */
        unsigned spins = 0;
        while (at_load_acq_u32(&o->bar.remaining) != o->n - pos) {
            if (++spins < 64)
                cpu_relax();
            else
                sched_yield();
        }
        me->round = k;
        me->got_true[k] = qbar_wait(&o->bar, &me->st, order_hook, me);
    }
    return NULL;
}

/* All permutations of 0..n-1 in lexicographic order; returns how many. */
static unsigned all_perms(unsigned n, unsigned out[MAX_PERMS][MAX_PERM_N])
{
    unsigned a[MAX_PERM_N], count = 0;
    for (unsigned i = 0; i < n; i++)
        a[i] = i;
    for (;;) {
        memcpy(out[count++], a, n * sizeof a[0]);
        int i = (int)n - 2;
        while (i >= 0 && a[i] > a[i + 1])
            i--;
        if (i < 0)
            return count;
        int j = (int)n - 1;
        while (a[j] < a[i])
            j--;
        unsigned t = a[i];
        a[i] = a[j];
        a[j] = t;
        for (unsigned l = (unsigned)i + 1, r = n - 1; l < r; l++, r--) {
            t = a[l];
            a[l] = a[r];
            a[r] = t;
        }
    }
}

static void test_arrival_order(void)
{
    static const uint32_t spins[] = {0, 2000};
    for (unsigned n = 3; n <= MAX_PERM_N; n++) {
        for (size_t s = 0; s < ARRAY_LEN(spins); s++) {
            struct order_run *o = xaligned(sizeof *o);
            o->n = n;
            o->n_perms = all_perms(n, o->perm);
            qbar_init(&o->bar, n, spins[s]);
            struct othread *th = xaligned(n * sizeof *th);
            for (unsigned t = 0; t < n; t++) {
                th[t].o = o;
                th[t].id = t;
                th[t].st = (struct qbar_state)QBAR_STATE_INITIALIZER;
            }
            run_threads(n, order_thread, th, sizeof *th);
            unsigned bad = 0;
            for (unsigned k = 0; k < o->n_perms; k++) {
                unsigned last = o->perm[k][n - 1];
                bool ok = o->hook_caller[k] == (int)last;
                for (unsigned t = 0; t < n; t++)
                    ok = ok && th[t].got_true[k] == (t == last);
                if (!ok && bad++ < 3)
                    tap_diag("  order %u%u%u%u: last arriver %u, hook ran in %d", o->perm[k][0],
                             o->perm[k][1], o->perm[k][2], n > 3 ? o->perm[k][3] : 9, last,
                             o->hook_caller[k]);
            }
            TAP_OK(o->n_perms == (n == 3 ? 6u : 24u) && bad == 0,
                   "arrival order, %u threads, spin %u: in all %u orders the last arriver ran the hook "
                   "and alone got true",
                   n, spins[s], o->n_perms);
            free(th);
            free(o);
        }
    }
}

/* ------------------------------------------------------- participants */

enum { RS_PARKED = 0, RS_RUN = 1, RS_EXIT = 2 };

struct rs_run;

/* One thread. go is set by the serial thread of some round; the rest is
 * written by the thread itself (post_* while it runs the hook). */
struct rs_thread {
    CACHE_ALIGNED struct rs_run *r;
    unsigned id;
    struct qbar_state st;        /* barrier companion */
    atomic_u32 go;               /* RS_PARKED, RS_RUN (take part in the next round) or RS_EXIT */
    uint64_t mark;               /* plain: the round it last arrived in (read by the hook) */
    uint64_t rounds_in;          /* rounds taken part in */
    unsigned post_lo, post_hi;   /* threads this thread admitted as serial thread */
    bool post_exit;
};

struct rs_run {
    struct qbar bar;
    unsigned n;                  /* threads */
    unsigned k;                  /* participants of the round in progress (hook only) */
    uint64_t round, rounds;      /* hook only (read by participants after the barrier) */
    uint64_t rng;                /* hook only */
    uint64_t errors;             /* hook only: a participant without this round's mark */
    uint64_t participations;     /* hook only: sum of k over rounds */
    bool done;
    struct rs_thread *th;        /* [n] */
};

static void rs_hook(void *arg)
{
    struct rs_thread *me = arg;
    struct rs_run *r = me->r;
    for (unsigned t = 0; t < r->k; t++)
        if (r->th[t].mark != r->round)
            r->errors++;
    r->participations += r->k;
    if (++r->round == r->rounds) {
        r->done = true;
        me->post_exit = true;
        return;
    }
    r->rng = r->rng * 6364136223846793005ull + 1442695040888963407ull;
    unsigned k = 1 + (unsigned)((r->rng >> 33) % r->n);
    for (unsigned t = k; t < r->k; t++)
        at_store_rlx_u32(&r->th[t].go, RS_PARKED);
    for (unsigned t = r->k; t < k; t++)
        qbar_state_join(&r->bar, &r->th[t].st);
    me->post_lo = r->k;
    me->post_hi = k;
    qbar_set_participants(&r->bar, k);
    r->k = k;
}

static void *rs_thread_main(void *arg)
{
    struct rs_thread *me = arg;
    struct rs_run *r = me->r;
    for (;;) {
        uint32_t g;
        while ((g = at_load_acq_u32(&me->go)) == RS_PARKED)
            sched_yield();
        if (g == RS_EXIT)
            break;
        me->mark = r->round;
        me->rounds_in++;
        if (qbar_wait(&r->bar, &me->st, rs_hook, me)) {
            /* after the release: admitted threads may go now */
            for (unsigned t = me->post_lo; t < me->post_hi; t++)
                at_store_rel_u32(&r->th[t].go, RS_RUN);
            me->post_lo = me->post_hi = 0;
            if (me->post_exit)
                for (unsigned t = 0; t < r->n; t++) {
                    uint32_t want = RS_PARKED;
                    atomic_compare_exchange_strong(&r->th[t].go, &want, RS_EXIT);
                }
        }
        /* Parked by this round's hook: no longer counted, so read nothing
         * shared before going back to the top. */
        if (at_load_acq_u32(&me->go) != RS_RUN)
            continue;
        if (r->done)
            break;
    }
    return NULL;
}

static void test_participants(void)
{
    static const uint32_t spins[] = {0, 2000};
    unsigned ns[] = {2, 3, 2 * online_cpus()};
    for (size_t i = 0; i < ARRAY_LEN(ns); i++) {
        for (size_t s = 0; s < ARRAY_LEN(spins); s++) {
            unsigned n = ns[i];
            struct rs_run *r = xaligned(sizeof *r);
            qbar_init(&r->bar, n, spins[s]);
            r->n = n;
            r->k = n;
            r->rounds = scaled(n <= online_cpus() ? 20000 : 4000);
            r->rng = 12345 + n;
            r->th = xaligned(n * sizeof *r->th);
            for (unsigned t = 0; t < n; t++) {
                r->th[t].r = r;
                r->th[t].id = t;
                r->th[t].st = (struct qbar_state)QBAR_STATE_INITIALIZER;
                atomic_init(&r->th[t].go, RS_RUN);
            }
            run_threads(n, rs_thread_main, r->th, sizeof *r->th);
            uint64_t in = 0;
            for (unsigned t = 0; t < n; t++)
                in += r->th[t].rounds_in;
            TAP_OK(r->errors == 0 && r->round == r->rounds && in == r->participations,
                   "participants, %u threads, spin %u: %llu rounds with 1..%u threads each (%.2f on average), "
                   "every participant arrived in every round it was counted in",
                   n, spins[s], (unsigned long long)r->round, n, (double)r->participations / (double)r->rounds);
            free(r->th);
            free(r);
        }
    }
}

/* ---------------------------------------------------------- registry */

static const struct tap_test tests[] = {
    {"round_invariant", test_round_invariant},
    {"serial_hook", test_serial_hook},
    {"arrival_order", test_arrival_order},
    {"oversubscribed", test_oversubscribed},
    {"pinned", test_pinned},
    {"participants", test_participants},
};

int main(void)
{
    tap_no_plan();
    double t0 = now_s();
    for (size_t i = 0; i < ARRAY_LEN(tests); i++) {
        double t = now_s();
        tap_diag("--- %s", tests[i].name);
        tests[i].fn();
        tap_diag("--- %s took %.2f s", tests[i].name, now_s() - t);
    }
    tap_diag("total %.2f s", now_s() - t0);
    return tap_exit();
}
