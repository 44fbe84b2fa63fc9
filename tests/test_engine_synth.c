/* tests/test_engine_synth.c: the engine proven on the synthetic model.
 *
 *  - exact mode: per-unit statistics for --threads 1, 2, 3, 4 and 8 (and an
 *    explicit SM/memory split) equal the sequential reference
 *    (tests/support/synth_ref.c) exactly;
 *  - relaxed mode (Q = 4L and 16L): identical for every thread count;
 *  - tiny rings (16 slots) force the overflow path, with the same results;
 *  - the engine refuses Q > L without relaxed mode, naming the key;
 *  - an idle stretch is jumped over (quanta_skipped > 0);
 *  - re-partitioning at quantum boundaries changes nothing: with the debug
 *    re-partitioner (sync.debug_repartition_seed: random thread counts and
 *    owners at random quanta) for several seeds, thread counts, exact and
 *    relaxed mode and tiny rings, and with the adaptive controller forced
 *    to decide often (100 us windows), the statistics equal the reference;
 *    also when the run is cut into many eng_run calls (parked threads at
 *    the start of a run, messages left in the channels between runs);
 *  - a relaxed-mode message records how late it is delivered (`late`,
 *    NOTE(relaxed-late)): hand-computed times on a two-unit model, on one
 *    and two threads; 0 in exact mode.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/synth/synth.h"
#include "support/synth_ref.h"
#include "sync/engine.h"
#include "tap.h"

struct setup {
    struct synth_cfg sc;
    struct engine_cfg ec;
    struct clock_cfg clk;
    uint64_t min_lat;
    uint64_t overflow; /* messages sent through overflow lists by the last run */
    uint64_t steals;   /* partition runs taken from other threads in the last run (NOTE(steal)) */
    uint64_t chunk;    /* quanta per eng_run call (0 = one call for the whole run) */
    unsigned calls;    /* eng_run calls of the last run */
};

/* Progress hook of a chunked run: stop after `chunk` quanta. */
struct chunker {
    atomic_u32 stop;
    uint64_t left;     /* quanta left in this chunk */
};

static void chunk_progress(void *arg, ps_t now)
{
    struct chunker *c = arg;
    (void)now;
    if (c->left && --c->left == 0)
        at_store_rel_u32(&c->stop, 1);
}

static void default_setup(struct setup *s)
{
    struct cfg c;
    cfg_init(&c);
    s->sc = c.values->synth;
    s->ec = c.values->engine;
    s->clk = c.values->clock;
    s->min_lat = c.values->icnt.min_latency;
    s->overflow = 0;
    s->chunk = 0;
    s->calls = 0;
    cfg_fini(&c);
}

/* Run on the engine; returns 0 and fills out, or -1. */
static int run_engine(struct setup *s, unsigned threads, unsigned smt, unsigned memt,
                      struct synth_unit_stats *out, struct eng_result *res)
{
    struct diag d;
    diag_init(&d);
    struct synth_model *m = synth_create(&s->sc, &s->ec, &s->clk, s->min_lat, &d);
    if (!m) {
        diag_print(&d, stdout);
        diag_fini(&d);
        return -1;
    }
    struct chunker ch;
    atomic_init(&ch.stop, 0);
    ch.left = s->chunk;
    struct eng_run_opts o = {threads, smt, memt, ENG_PIN_NONE, NULL, NULL, NULL};
    if (s->chunk) {
        o.stop_flag = &ch.stop;
        o.progress = chunk_progress;
        o.progress_arg = &ch;
    }
    char err[256];
    int rc;
    s->calls = 0;
    do { /* an interrupted run continues where it stopped */
        at_store_rlx_u32(&ch.stop, 0);
        ch.left = s->chunk;
        rc = eng_run(synth_engine(m), &o, res, err, sizeof err);
        s->calls++;
    } while (rc == 0 && res->finish == ENG_FINISH_INTERRUPTED);
    if (rc != 0)
        tap_diag("eng_run: %s", err);
    s->overflow = s->steals = 0;
    for (unsigned t = 0; rc == 0 && t < res->threads; t++) {
        s->overflow += res->per_thread[t].msgs_overflow;
        s->steals += res->per_thread[t].steals;
    }
    synth_collect(m, out);
    synth_destroy(m);
    diag_fini(&d);
    return rc;
}

static int same_stats(const struct synth_unit_stats *a, const struct synth_unit_stats *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
            tap_diag("unit %u differs: served %llu/%llu checksum %016llx/%016llx last %llu/%llu", i,
                     (unsigned long long)a[i].served, (unsigned long long)b[i].served,
                     (unsigned long long)a[i].checksum, (unsigned long long)b[i].checksum,
                     (unsigned long long)a[i].last_ps, (unsigned long long)b[i].last_ps);
            return 0;
        }
    }
    return 1;
}

static uint64_t total_served(const struct synth_unit_stats *a, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++)
        t += a[i].served;
    return t;
}

static void exact_vs_reference(const char *label, struct setup *s)
{
    struct synth_shape sh;
    synth_shape_compute(&s->sc, &s->clk, s->min_lat, &sh);
    unsigned n = sh.n_units;
    struct synth_unit_stats *ref = calloc(n, sizeof *ref), *got = calloc(n, sizeof *got);
    synth_ref_run(&s->sc, &s->clk, s->min_lat, ref);
    uint64_t want_served = (uint64_t)n * s->sc.jobs * s->sc.hops;
    TAP_EQ_U64(total_served(ref, n), want_served, "%s: reference serves every job hop", label);

    const unsigned thr[] = {1, 2, 3, 4, 8};
    for (size_t i = 0; i < ARRAY_LEN(thr); i++) {
        struct eng_result res;
        int rc = run_engine(s, thr[i], 0, 0, got, &res);
        TAP_OK(rc == 0 && res.finish == ENG_FINISH_IDLE && same_stats(got, ref, n),
               "%s: exact mode, --threads %u (used %u) equals the sequential reference", label, thr[i],
               res.threads);
    }
    if (s->sc.sm_partitions >= 2 && s->sc.mem_partitions >= 1) {
        struct eng_result res;
        int rc = run_engine(s, 0, 2, 1, got, &res);
        TAP_OK(rc == 0 && res.threads == 3 && same_stats(got, ref, n),
               "%s: exact mode, --sm-threads 2 --mem-threads 1 equals the reference", label);
    }
    free(ref);
    free(got);
}

static void relaxed_across_threads(const char *label, struct setup *s, unsigned mult)
{
    struct synth_shape sh;
    synth_shape_compute(&s->sc, &s->clk, s->min_lat, &sh);
    unsigned n = sh.n_units;
    struct setup r = *s;
    r.ec.relaxed = true;
    r.ec.quantum_ps = sh.lookahead * mult;
    struct synth_unit_stats *one = calloc(n, sizeof *one), *got = calloc(n, sizeof *got);
    struct eng_result res;
    int rc = run_engine(&r, 1, 0, 0, one, &res);
    TAP_OK(rc == 0 && total_served(one, n) == (uint64_t)n * s->sc.jobs * s->sc.hops,
           "%s: relaxed Q=%uL completes on one thread", label, mult);
    const unsigned thr[] = {2, 3, 4, 8};
    for (size_t i = 0; i < ARRAY_LEN(thr); i++) {
        rc = run_engine(&r, thr[i], 0, 0, got, &res);
        TAP_OK(rc == 0 && same_stats(got, one, n), "%s: relaxed Q=%uL, --threads %u equals --threads 1", label,
               mult, thr[i]);
    }
    free(one);
    free(got);
}

/* Re-partitioning never changes results: the debug re-partitioner with
 * seed `seed` on `thr` threads equals the sequential reference, and did
 * re-partition. */
static void repartition_vs_reference(const char *label, struct setup *s, uint64_t seed)
{
    struct synth_shape sh;
    synth_shape_compute(&s->sc, &s->clk, s->min_lat, &sh);
    unsigned n = sh.n_units;
    struct synth_unit_stats *ref = calloc(n, sizeof *ref), *got = calloc(n, sizeof *got);
    if (s->ec.relaxed) { /* relaxed mode: its own model; the reference is one thread */
        struct setup one = *s;
        one.ec.debug_seed = 0;
        struct eng_result r1;
        run_engine(&one, 1, 0, 0, ref, &r1);
    } else {
        synth_ref_run(&s->sc, &s->clk, s->min_lat, ref);
    }
    const unsigned thr[] = {2, 3, 4, 8};
    for (size_t i = 0; i < ARRAY_LEN(thr); i++) {
        struct setup r = *s;
        r.ec.debug_seed = seed;
        struct eng_result res;
        int rc = run_engine(&r, thr[i], 0, 0, got, &res);
        TAP_OK(rc == 0 && res.finish == ENG_FINISH_IDLE && same_stats(got, ref, n) && res.adapt.repartitions > 0,
               "%s: seed %llu, --threads %u: %llu re-partitions (%.2f threads on average) in %u run(s), equals "
               "the reference", label, (unsigned long long)seed, thr[i], (unsigned long long)res.adapt.repartitions,
               res.adapt.quanta ? (double)res.adapt.thread_quanta / (double)res.adapt.quanta : 0.0, r.calls);
    }
    free(ref);
    free(got);
}

/* ---- relaxed-mode lateness on a hand-computed two-unit model ---- */

#define LT_PERIOD 1000u /* ps: a 1 GHz domain */
#define LT_LAT 8000u    /* ps: the link's (and the message's) latency, L */
#define LT_N 4

static const ps_t lt_send_at[LT_N] = {0, 20000, 30000, 40000}; /* A's send times (ps) */

struct lt_model {
    ps_t got_at[LT_N];   /* B: delivery time of message k */
    uint32_t late[LT_N]; /* B: its m->late */
    ps_t due[LT_N];      /* B: send time + latency, from the payload */
    unsigned n;          /* messages B received */
};

struct lt_unit {
    uint32_t id;
    struct lt_model *m;
    unsigned sent;
};

static ps_t lt_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct lt_unit *u = self;
    if (u->id != 0)
        return PS_NEVER; /* B only receives */
    if (u->sent < LT_N && now == lt_send_at[u->sent]) {
        ps_t due = now + LT_LAT;
        eng_send(ctx, 0, 1, now, LT_LAT, 7, &due, sizeof due);
        u->sent++;
    }
    return u->sent < LT_N ? lt_send_at[u->sent] : PS_NEVER;
}

static ps_t lt_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    struct lt_unit *u = self;
    (void)ctx;
    struct lt_model *mo = u->m;
    if (mo->n < LT_N) {
        mo->got_at[mo->n] = now;
        mo->late[mo->n] = m->late;
        memcpy(&mo->due[mo->n], m->payload, sizeof(ps_t));
    }
    mo->n++;
    return PS_NEVER;
}

static const struct eng_unit_ops lt_ops = {"lt", lt_tick, lt_recv};

static void lt_init(void *model, struct eng_ctx *ctx, int partition)
{
    struct lt_unit *u = eng_alloc(ctx, sizeof *u);
    memset(u, 0, sizeof *u);
    u->id = (uint32_t)partition;
    u->m = model;
    eng_unit_bind(ctx, u->id, u);
}

static void relaxed_late(bool relaxed, ps_t quantum, unsigned threads, const ps_t *want_at, const uint32_t *want_late)
{
    struct lt_model m;
    memset(&m, 0, sizeof m);
    struct engine_cfg cfg = {.quantum_ps = quantum, .relaxed = relaxed, .ring_slots = 64, .spin_limit = 100};
    struct engine *e = eng_create(&cfg, &m);
    int dom = eng_domain_add(e, "core", LT_PERIOD);
    int a = eng_partition_add(e, "a", ENG_PART_SM, lt_init, NULL);
    int b = eng_partition_add(e, "b", ENG_PART_MEM, lt_init, NULL);
    eng_unit_add(e, a, dom, &lt_ops);
    eng_unit_add(e, b, dom, &lt_ops);
    eng_link_add(e, 0, 1, LT_LAT);
    struct diag d;
    diag_init(&d);
    int rc = eng_finalize(e, &d);
    diag_fini(&d);
    TAP_OK(rc == 0, "late: %s Q=%llu ps accepted", relaxed ? "relaxed" : "exact", (unsigned long long)quantum);
    struct eng_run_opts o = {.threads = threads, .pin = ENG_PIN_NONE};
    struct eng_result res;
    char err[256];
    rc = rc == 0 ? eng_run(e, &o, &res, err, sizeof err) : -1;
    TAP_OK(rc == 0 && m.n == LT_N, "late: %s Q=%llu ps, %u thread(s): %u messages delivered",
           relaxed ? "relaxed" : "exact", (unsigned long long)quantum, threads, m.n);
    for (unsigned k = 0; k < LT_N && k < m.n; k++)
        TAP_OK(m.got_at[k] == want_at[k] && m.late[k] == want_late[k] && m.got_at[k] - m.late[k] == m.due[k],
               "late: message sent at %llu ps (due %llu): delivered at %llu (want %llu), late %u (want %u)",
               (unsigned long long)lt_send_at[k], (unsigned long long)m.due[k], (unsigned long long)m.got_at[k],
               (unsigned long long)want_at[k], m.late[k], want_late[k]);
    /* NOTE(msgs-xthread): on 2 threads a and b have one each, so every
     * message crosses threads; on 1 none does. */
    uint64_t sent = 0, xthr = 0;
    for (unsigned t = 0; rc == 0 && t < res.threads; t++) {
        sent += res.per_thread[t].msgs_sent;
        xthr += res.per_thread[t].msgs_xthread;
    }
    TAP_OK(rc == 0 && sent == LT_N && xthr == (threads == 2 ? LT_N : 0) && res.profile.msgs_xthread == xthr,
           "late: %u thread(s): %llu messages sent, %llu crossed threads (want %u, %u)", threads,
           (unsigned long long)sent, (unsigned long long)xthr, LT_N, threads == 2 ? LT_N : 0);
    eng_destroy(e);
}

static void relaxed_late_tests(void)
{
    /* Exact, Q = L = 8000: every message at its due time, never late. */
    static const ps_t ex_at[LT_N] = {8000, 28000, 38000, 48000};
    static const uint32_t ex_late[LT_N] = {0, 0, 0, 0};
    /* Relaxed, Q = 4L = 32000: quanta [0,32000), [32000,64000). Due 8000 and
     * 28000 fall inside the first: delivered at 32000, 24000 and 4000 late;
     * due 38000 is past it: on time; the send at 40000 is due 48000, inside
     * the second quantum: delivered at 64000, 16000 late. */
    static const ps_t rx_at[LT_N] = {32000, 32000, 38000, 64000};
    static const uint32_t rx_late[LT_N] = {24000, 4000, 0, 16000};
    for (unsigned t = 1; t <= 2; t++) {
        relaxed_late(false, LT_LAT, t, ex_at, ex_late);
        relaxed_late(true, 4 * LT_LAT, t, rx_at, rx_late);
    }
}

int main(void)
{
    tap_no_plan();
    struct setup s;

    default_setup(&s);
    exact_vs_reference("default", &s);
    relaxed_across_threads("default", &s, 4);
    relaxed_across_threads("default", &s, 16);
    relaxed_late_tests();

    /* Heavier traffic, zero latency spread (many equal arrival times: the
     * tie-break by source and sequence must decide), tiny rings. */
    default_setup(&s);
    s.sc.jobs = 16;
    s.sc.hops = 60;
    s.sc.latency_spread_ps = 0;
    s.sc.max_service = 3;
    s.ec.ring_slots = 16;
    exact_vs_reference("ties+tiny rings", &s);
    TAP_OK(s.overflow > 0, "tiny rings: the overflow path was taken (%llu messages)",
           (unsigned long long)s.overflow);

    /* Uneven shape: memory-only and one-unit partitions. */
    default_setup(&s);
    s.sc.sm_partitions = 5;
    s.sc.mem_partitions = 3;
    s.sc.units_per_partition = 1;
    s.sc.hops = 100;
    exact_vs_reference("5+3x1", &s);

    default_setup(&s);
    s.sc.sm_partitions = 0;
    s.sc.mem_partitions = 6;
    s.sc.units_per_partition = 3;
    s.sc.hops = 80;
    exact_vs_reference("mem-only", &s);

    /* NOTE(steal): stealing within a quantum, on (the default) and off;
     * heavy traffic with ties and tiny rings, so that stolen partitions
     * send through full channels, the thief's own channel included. */
    default_setup(&s);
    s.sc.jobs = 16;
    s.sc.hops = 60;
    s.sc.latency_spread_ps = 0;
    s.ec.ring_slots = 16;
    s.ec.adaptive = false; /* keep every thread running */
    {
        struct synth_shape sh;
        synth_shape_compute(&s.sc, &s.clk, s.min_lat, &sh);
        struct synth_unit_stats *ref = calloc(sh.n_units, sizeof *ref), *got = calloc(sh.n_units, sizeof *got);
        synth_ref_run(&s.sc, &s.clk, s.min_lat, ref);
        /* mode 0: stealing as it happens (timing decides what is taken);
         * 1: the debug re-partitioner also forces steals
         * (NOTE(steal-debug)), so some are sure to happen; 2: off. */
        for (int mode = 0; mode < 3; mode++) {
            s.ec.steal = mode < 2;
            s.ec.debug_seed = mode == 1 ? 7 : 0;
            for (unsigned t = 2; t <= 4; t++) {
                struct eng_result res;
                int rc = run_engine(&s, t, 0, 0, got, &res);
                uint64_t steals = s.steals;
                bool want = mode == 0 ? true : mode == 1 ? steals > 0 : steals == 0;
                TAP_OK(rc == 0 && same_stats(got, ref, sh.n_units) && want,
                       "steal %s, --threads %u: %llu partition runs taken from other threads, equals the "
                       "reference", mode == 0 ? "on" : mode == 1 ? "forced" : "off", t, (unsigned long long)steals);
            }
        }
        free(ref);
        free(got);
    }

    /* A long idle gap: huge latencies, few jobs: time must jump. */
    default_setup(&s);
    s.sc.jobs = 1;
    s.sc.hops = 20;
    s.sc.latency_spread_ps = 50000000; /* 50 us */
    {
        struct synth_shape sh;
        synth_shape_compute(&s.sc, &s.clk, s.min_lat, &sh);
        struct synth_unit_stats *got = calloc(sh.n_units, sizeof *got);
        struct synth_unit_stats *ref = calloc(sh.n_units, sizeof *ref);
        synth_ref_run(&s.sc, &s.clk, s.min_lat, ref);
        struct eng_result res;
        int rc = run_engine(&s, 2, 0, 0, got, &res);
        TAP_OK(rc == 0 && same_stats(got, ref, sh.n_units), "idle gaps: equals the reference");
        TAP_OK(res.quanta_skipped > res.quanta, "idle gaps: most quanta are jumped over (%llu run, %llu skipped)",
               (unsigned long long)res.quanta, (unsigned long long)res.quanta_skipped);
        free(got);
        free(ref);
    }

    /* Re-partitioning at quantum boundaries (docs/engine.md). */
    default_setup(&s);
    s.sc.jobs = 8;
    s.sc.hops = 60;
    for (uint64_t seed = 1; seed <= 3; seed++)
        repartition_vs_reference("repartition", &s, seed);
    s.sc.latency_spread_ps = 0; /* ties */
    s.ec.ring_slots = 16;       /* overflow lists in flight at re-partitions */
    repartition_vs_reference("repartition, ties + tiny rings", &s, 11);
    s.ec.ring_slots = 1024;
    s.chunk = 37; /* many eng_run calls: threads parked at a run's start */
    repartition_vs_reference("repartition, 37-quantum runs", &s, 5);
    s.chunk = 0;
    default_setup(&s);
    s.sc.hops = 60;
    {
        struct synth_shape sh;
        synth_shape_compute(&s.sc, &s.clk, s.min_lat, &sh);
        s.ec.relaxed = true;
        s.ec.quantum_ps = 4 * sh.lookahead;
        repartition_vs_reference("repartition, relaxed 4L", &s, 9);
    }
    /* The real controller, forced to decide every 100 us of host time. */
    default_setup(&s);
    s.sc.jobs = 16;
    s.sc.hops = 200;
    s.ec.adapt_window_ps = 100000000; /* 100 us */
    {
        struct synth_shape sh;
        synth_shape_compute(&s.sc, &s.clk, s.min_lat, &sh);
        struct synth_unit_stats *ref = calloc(sh.n_units, sizeof *ref), *got = calloc(sh.n_units, sizeof *got);
        synth_ref_run(&s.sc, &s.clk, s.min_lat, ref);
        for (unsigned t = 2; t <= 4; t += 2) {
            struct eng_result res;
            int rc = run_engine(&s, t, 0, 0, got, &res);
            TAP_OK(rc == 0 && same_stats(got, ref, sh.n_units),
                   "adaptive, 100 us windows, --threads %u: %llu windows, %llu moves, %llu re-partitions, "
                   "equals the reference", t, (unsigned long long)res.adapt.windows,
                   (unsigned long long)res.adapt.moves, (unsigned long long)res.adapt.repartitions);
        }
        free(ref);
        free(got);
    }

    /* Exact mode refuses Q > L and names the key. */
    default_setup(&s);
    {
        struct synth_shape sh;
        synth_shape_compute(&s.sc, &s.clk, s.min_lat, &sh);
        s.ec.quantum_ps = sh.lookahead + 1;
        struct diag d;
        diag_init(&d);
        struct synth_model *m = synth_create(&s.sc, &s.ec, &s.clk, s.min_lat, &d);
        TAP_OK(m == NULL && diag_count(&d) == 1, "Q > L without relaxed mode is refused");
        char *msg = diag_join(&d);
        TAP_CONTAINS(msg, "sync.quantum", "the error names sync.quantum");
        TAP_CONTAINS(msg, "sync.relaxed", "the error suggests sync.relaxed");
        free(msg);
        diag_fini(&d);
        synth_destroy(m);
        s.ec.relaxed = true;
        diag_init(&d);
        m = synth_create(&s.sc, &s.ec, &s.clk, s.min_lat, &d);
        TAP_OK(m != NULL && diag_count(&d) == 0, "the same Q is accepted in relaxed mode");
        synth_destroy(m);
        diag_fini(&d);
    }

    /* Bad thread options are reported, not fatal. */
    default_setup(&s);
    {
        struct diag d;
        diag_init(&d);
        struct synth_model *m = synth_create(&s.sc, &s.ec, &s.clk, s.min_lat, &d);
        struct eng_run_opts o = {0, 100, 1, ENG_PIN_NONE, NULL, NULL, NULL};
        struct eng_result res;
        char err[256] = "";
        int rc = eng_run(synth_engine(m), &o, &res, err, sizeof err);
        TAP_OK(rc == -1, "--sm-threads larger than the SM partitions is refused");
        TAP_CONTAINS(err, "--sm-threads", "the message names the option");
        synth_destroy(m);
        diag_fini(&d);
    }
    return tap_exit();
}
