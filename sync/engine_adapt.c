/* sync/engine_adapt.c: when the parallel engine re-partitions.
 *
 * Everything here runs in the serial step (one thread, all others waiting
 * at the barrier or parked), once per quantum, and is cheap when nothing
 * is decided: a compare of the host clock with the end of the window, plus
 * a few hundred additions on sampled quanta.
 *
 * NOTE(adaptive): a model of the quantum, fitted and checked inside each
 * measurement window (sync.adapt_window: 4 ms of host wall time, at least
 * one quantum). A quantum on k threads costs
 *     T(k) = M(k) + B(k)
 * where M(k) is the heaviest thread's partition work under the balanced
 * mapping for k threads, and B(k) everything else on the critical path:
 * the barrier, the serial step, message drains, and the time a thread was
 * not on a CPU (descheduled by the OS) while the others waited for it.
 *  - M(k) is measured for every candidate k (1, 2, 4, ... and the run's
 *    maximum) in the same window: on sampled quanta (sync.sample_period,
 *    one in 8) each thread times every partition it runs, and the serial
 *    step adds up, per candidate, the busiest thread's share under that
 *    candidate's mapping. Because every candidate is judged on the same
 *    quanta, a change of phase in the simulated program (more CTAs, fewer
 *    CTAs, a kernel boundary) moves all of them together; comparing rates
 *    of different windows instead, the first design, mistook such changes
 *    for effects of the thread count (on the 16-core machine it ran sgemm
 *    on 5 threads on average instead of 16, 30% slower).
 *  - B(k) is learned only by running on k threads: wall time per quantum
 *    minus M(k) of the mapping in use, smoothed over windows. A count not
 *    run recently gets a prior: the serial step's time for 1 thread, else
 *    the learned B of the nearest count that has one, else the current
 *    count's B plus a barrier estimate (80 ns per thread + 300 ns; what
 *    keeps the current threads off their CPUs would also hit more
 *    threads). Learned values expire after a hold time, so that a machine
 *    that got busier or quieter is noticed.
 *  - At the end of each window the engine moves to the count with the
 *    smallest T(k): towards fewer threads when that is not slower (within
 *    2%), towards more only when it is faster by sync.adapt_gain (10%).
 *    A move that its first windows do not confirm (the count's learned B
 *    makes it worse) is undone, and that count's hold time doubles, from 4
 *    windows up to sync.adapt_hold_max (256 windows, about 1 s), so a
 *    machine where parallel runs never pay spends at most a window now and
 *    then finding out again. On a busy machine B(k > 1) contains the
 *    waits for descheduled threads (a quantum on two threads that need each
 *    other can take a whole OS time slice), so the engine runs on one thread
 *    there; bench/speed --busy measures it.
 *  - The same samples re-balance the mapping of the count in use: when the
 *    balanced mapping (greedy, heaviest partition first, to the least loaded
 *    thread, by smoothed per-partition weights) would have cut M by 10% on
 *    the window's own quanta, it is applied. Moving a partition costs a
 *    cache refill on its new core, so small gains are not worth it. With
 *    running ahead, M is each thread's window sum and the threshold 4 %
 *    held over several windows (NOTE(adapt-ahead)).
 * Besides, the CPU-time clocks of the running threads tell whether they
 * were runnable but off a CPU for over 20% of the window (descheduled);
 * barrier waiters then sleep at once instead of spinning (eng_spin_policy),
 * and the count of such windows is reported.
 *
 * Profile: the same samples give, per sampled quantum, the total partition
 * work, the busiest partition's work and the busiest thread's work when the
 * partitions are balanced over 1, 2, 4, ... 32 threads: the inputs of the
 * speed-up projection in bench/speed (model in bench/README.md).
 *
 * Debug (sync.debug_repartition_seed): at pseudo-random quanta (one in
 * four), a random thread count and a random owner for every partition,
 * from a fixed seed; the determinism tests use it to show that statistics
 * do not depend on any of this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/base/common.h"
#include "sync/engine.h"
#include "sync/engine_internal.h"
#include "sync/futex.h"

#define ADAPT_MAX_CAND 16     /* candidate thread counts: 1, 2, 4, ... and the maximum */
#define ADAPT_HOLD_MIN 4      /* windows a learned B(k) stays valid at first */
#define ADAPT_DESCHED 0.2     /* CPU deficit (fraction of runnable time) that means descheduled */
#define ADAPT_REBALANCE 0.9   /* re-balance when the balanced mapping's M is below this fraction */
#define ADAPT_REBALANCE_AHEAD 0.96 /* the same with running ahead (NOTE(adapt-ahead)) */
#define ADAPT_REBALANCE_RUN 4 /* with running ahead, in this many windows in a row (NOTE(adapt-ahead)) */
#define ADAPT_DOWN 0.98       /* move to fewer threads when T is below this fraction of the current */
#define ADAPT_CONFIRM 2       /* windows after a move in which leaving again counts as a failed move */
#define ADAPT_BAR_K_NS 80.0   /* barrier prior: ns per thread */
#define ADAPT_BAR_0_NS 300.0  /* barrier prior: ns per round */

static const unsigned proj_list[ENG_PROJ_MAX] = {1, 2, 4, 8, 12, 16, 24, 32};

struct eng_adapt {
    /* candidates */
    unsigned n_cand;               /* entries below */
    unsigned cand[ADAPT_MAX_CAND]; /* active thread counts, ascending; the last is n_threads */
    int *map;                      /* [n_cand][n_parts] balanced mapping per candidate */
    double msum[ADAPT_MAX_CAND];   /* window: sum over samples of M(k) under map (ns) */
    double msum_act;               /* window: the same under the mapping in use (ns) */
    double *tsum;                  /* [n_cand + 1][n_threads] window: each thread's sampled work under each
                                    * candidate's mapping, then the one in use (ns; NOTE(adapt-ahead)) */
    double b[ADAPT_MAX_CAND];      /* learned B(k) (ns per quantum), valid when b_ok */
    bool b_ok[ADAPT_MAX_CAND];
    uint64_t b_until[ADAPT_MAX_CAND]; /* window number from which b expires */
    unsigned hold[ADAPT_MAX_CAND]; /* windows b stays valid (doubles after a failed move) */
    int cur;                       /* candidate in use */
    unsigned at_cur;               /* windows since the last move */
    unsigned reb_run;              /* windows in a row in which re-balancing would have paid (NOTE(adapt-ahead)) */
    bool desched;                  /* the last window saw descheduled threads */
    /* the window in progress (sums over the quanta of the runs in it) */
    uint64_t acc_ns;               /* wall ns of closed segments (earlier runs) */
    uint64_t seg_start_ns;         /* open segment: its start (ns) */
    bool seg_open;                 /* false at a run's first quantum (thread start-up not measured) */
    uint64_t win_quanta;           /* quanta measured */
    uint64_t win_samples;          /* of which sampled */
    uint64_t win_serial_ns;        /* serial-step ns in the window (prior of B(1)) */
    bool cpu_ok;                   /* cpu0/sleep0 valid for this window */
    uint64_t *cpu0, *sleep0;       /* [n_threads] CPU ns and barrier sleep ns at the window start */
    bool *clk0;                    /* [n_threads] the thread's clock was read */
    /* work weights */
    double *weight;                /* [n_parts] smoothed sampled ns per window */
    uint64_t *work0;               /* [n_parts] work_ns at the window start */
    bool have_weights;
    /* scratch and profile */
    int *proj_owner;               /* [n_proj][n_parts] balanced mapping per projected count */
    double *load;                  /* [n_threads + n_parts + 32] per-thread loads */
    uint32_t *order;               /* [n_parts] partitions by weight */
    uint64_t rng;                  /* debug re-partitioner state (xorshift64*) */
};

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* ------------------------------------------------------------ balancing */

static int cmp_weight(const void *x, const void *y, void *arg)
{
    const double *w = arg;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    if (w[a] != w[b])
        return w[a] > w[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Greedy longest-first split of the partitions over k threads by weight w
 * (each partition counts at least 1 ns, so idle ones spread too); fills
 * owner. Deterministic. */
static void balance(const struct engine *e, unsigned k, const double *w, int *owner)
{
    struct eng_adapt *a = e->ad;
    for (unsigned p = 0; p < e->n_parts; p++)
        a->order[p] = p;
    qsort_r(a->order, e->n_parts, sizeof *a->order, cmp_weight, (void *)w);
    for (unsigned t = 0; t < k; t++)
        a->load[t] = 0;
    for (unsigned i = 0; i < e->n_parts; i++) {
        uint32_t p = a->order[i];
        unsigned best = 0;
        for (unsigned t = 1; t < k; t++)
            if (a->load[t] < a->load[best])
                best = t;
        owner[p] = (int)best;
        a->load[best] += w[p] + 1.0;
    }
}

/* The busiest thread's share of this quantum's sampled work under owner. */
static double span(const struct engine *e, unsigned k, const int *owner)
{
    struct eng_adapt *a = e->ad;
    for (unsigned t = 0; t < k; t++)
        a->load[t] = 0;
    for (unsigned p = 0; p < e->n_parts; p++)
        a->load[owner[p]] += (double)e->rt[p]->sample_ns;
    double m = 0;
    for (unsigned t = 0; t < k; t++)
        m = MAX(m, a->load[t]);
    return m;
}

/* NOTE(adapt-ahead): with running ahead (NOTE(ahead) in engine.c) a thread
 * that finished its quantum early spends the wait on its next quantum, so
 * the quanta's imbalances even out over a window instead of each costing
 * its own wait, and what bounds a window's wall time is the busiest
 * thread's work over the whole window, not the sum of every quantum's
 * busiest thread. M(k) is then the busiest thread's window sum (at least
 * the busiest partition's: a partition's work is all on its owner). The
 * per-quantum maximum, which the barrier makes exact without running
 * ahead, counts every quantum's noise as imbalance: on bfs small at 2
 * threads it put M 8-10 % above the busiest thread's sum, and a mapping
 * that left one thread 8 % more work than the other over the whole of
 * sgemm medium never looked 10 % worse than the balanced one, so it was
 * never changed (docs/engine.md, "Running ahead", session 34). The
 * mapping in use is re-balanced for a smaller gain
 * (ADAPT_REBALANCE_AHEAD: 4 %), but only when the gain held for
 * ADAPT_REBALANCE_RUN windows in a row: a window's sums still carry noise,
 * and re-balancing on every window that showed 4 % ran 4-7x more
 * re-partitions (each moves a partition's state to another core) and made
 * bfs small slower in three runs of three. The one-quantum limit on how
 * far a thread runs ahead, the serial step and the memory partitions that
 * never run ahead are part of B(k), which is learned from the wall time
 * as before. */
static void tsum_add(const struct engine *e, const int *owner, double *acc)
{
    for (unsigned p = 0; p < e->n_parts; p++)
        acc[owner[p]] += (double)e->rt[p]->sample_ns;
}

static double tsum_max(const struct engine *e, const double *acc)
{
    double m = 0;
    for (unsigned t = 0; t < e->n_threads; t++)
        m = MAX(m, acc[t]);
    return m;
}

/* NOTE(steal-order): with stealing, each thread runs its partitions heaviest
 * first (smoothed sampled work), so that what is left for thieves at the
 * end of a quantum is the light partitions, whose state is the cheapest to
 * move to another core. The order changes nothing in the results (NOTE(steal)
 * in engine.c); it is refreshed at every window end, in the serial step. */
static void order_lists(struct engine *e)
{
    const double *w = e->ad->weight;
    for (unsigned t = 0; t < e->n_active; t++) {
        struct eng_ctx *c = &e->threads[t];
        for (unsigned i = 1; i < c->n_parts; i++) {
            int p = c->parts[i];
            unsigned j = i;
            while (j > 0 && (w[c->parts[j - 1]] < w[p] || (w[c->parts[j - 1]] == w[p] && c->parts[j - 1] > p))) {
                c->parts[j] = c->parts[j - 1];
                j--;
            }
            c->parts[j] = p;
        }
    }
}

/* Run the next quanta on candidate i's thread count with its mapping. */
static void apply(struct engine *e, int i)
{
    struct eng_adapt *a = e->ad;
    const int *owner = &a->map[(size_t)i * e->n_parts];
    unsigned k = a->cand[i];
    bool same = k == e->n_active;
    for (unsigned p = 0; same && p < e->n_parts; p++)
        same = owner[p] == e->parts[p].owner;
    if (same)
        return;
    eng_repartition(e, k, owner);
    eng_spin_policy(e, a->desched);
}

/* New balanced mappings for every candidate (and projected count) from the
 * weights; the static split while there are none. */
static void remap(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    for (unsigned i = 0; i < a->n_cand; i++) {
        int *m = &a->map[(size_t)i * e->n_parts];
        if (a->have_weights)
            balance(e, a->cand[i], a->weight, m);
        else
            eng_assign_static(e, a->cand[i], m);
    }
    if (a->have_weights)
        for (unsigned i = 0; i < e->prof.n_proj; i++)
            balance(e, e->prof.proj_threads[i], a->weight, &a->proj_owner[(size_t)i * e->n_parts]);
}

/* -------------------------------------------------------------- windows */

/* Window start: CPU-time and barrier-sleep readings of the active threads. */
static void snapshot(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    a->cpu_ok = a->acc_ns == 0; /* a window spanning runs spans different threads */
    for (unsigned t = 0; t < e->n_threads; t++) {
        struct eng_ctx *c = &e->threads[t];
        struct timespec ts;
        a->clk0[t] = t < e->n_active && at_load_acq_u32(&c->clock_ready) && c->has_cpu_clock &&
                     clock_gettime(c->cpu_clock, &ts) == 0;
        if (a->clk0[t]) {
            a->cpu0[t] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
            a->sleep0[t] = at_load_rlx_u64(&c->bar.sleep_ns);
        }
    }
}

/* Over the open segment (seg_ns of wall time, ending now): did the active
 * threads get the CPU time they could use? Time a thread slept in the
 * barrier, and the time since its last arrival (it may be asleep now), do
 * not count as time it could use. */
static bool descheduled(struct engine *e, uint64_t now, uint64_t seg_ns)
{
    struct eng_adapt *a = e->ad;
    double runnable = 0, deficit = 0;
    for (unsigned t = 0; t < e->n_active; t++) {
        struct eng_ctx *c = &e->threads[t];
        struct timespec ts;
        if (!a->clk0[t] || clock_gettime(c->cpu_clock, &ts) != 0)
            continue;
        uint64_t cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec - a->cpu0[t];
        uint64_t off = at_load_rlx_u64(&c->bar.sleep_ns) - a->sleep0[t];
        off += now > c->t_arrive_ns ? now - c->t_arrive_ns : 0;
        double run = off < seg_ns ? (double)(seg_ns - off) : 0.0;
        runnable += run;
        if (run > (double)cpu)
            deficit += run - (double)cpu;
    }
    return runnable > 0 && deficit > ADAPT_DESCHED * runnable;
}

/* Fold the sampled partition times of the window into the weights. */
static void update_weights(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    bool any = false;
    for (unsigned p = 0; p < e->n_parts; p++)
        any |= e->rt[p]->work_ns != a->work0[p];
    if (!any)
        return;
    for (unsigned p = 0; p < e->n_parts; p++) {
        double d = (double)(e->rt[p]->work_ns - a->work0[p]);
        a->work0[p] = e->rt[p]->work_ns;
        a->weight[p] = a->have_weights ? 0.5 * a->weight[p] + 0.5 * d : d;
    }
    a->have_weights = true;
}

/* B(k) of candidate i: learned, or a prior. The prior for more than one
 * thread is the learned B of the nearest such count, else the current
 * count's B (whatever keeps this count's threads off their CPUs will keep
 * more threads off theirs) plus a barrier estimate; for one thread, the
 * serial step alone. */
static double overhead(const struct eng_adapt *a, int i, double serial_ns)
{
    if (a->b_ok[i])
        return a->b[i];
    if (a->cand[i] == 1)
        return serial_ns;
    int best = -1;
    for (int j = 0; j < (int)a->n_cand; j++)
        if (a->b_ok[j] && a->cand[j] > 1 && (best < 0 || abs(j - i) < abs(best - i)))
            best = j;
    if (best >= 0)
        return a->b[best];
    return MAX(a->b[a->cur], serial_ns) + ADAPT_BAR_K_NS * a->cand[i] + ADAPT_BAR_0_NS;
}

/* Close the window ending now; decide, and open the next one. */
static void window_end(struct engine *e, uint64_t now)
{
    struct eng_adapt *a = e->ad;
    uint64_t seg_ns = now - a->seg_start_ns, dt = a->acc_ns + seg_ns, w = ++e->adapt_rep.windows;
    update_weights(e);
    bool desched = a->cpu_ok && descheduled(e, now, seg_ns);
    if (desched)
        e->adapt_rep.desched_windows++;
    if (desched != a->desched) {
        a->desched = desched;
        eng_spin_policy(e, desched);
    }
    int cur = a->cur;
    if (e->ahead_on) { /* NOTE(adapt-ahead) */
        for (unsigned i = 0; i < a->n_cand; i++)
            a->msum[i] = tsum_max(e, &a->tsum[(size_t)i * e->n_threads]);
        a->msum_act = tsum_max(e, &a->tsum[(size_t)a->n_cand * e->n_threads]);
    }
    if (a->win_samples && a->win_quanta) {
        double s = (double)a->win_samples, q = (double)a->win_quanta;
        double serial = (double)a->win_serial_ns / q, m_act = a->msum_act / s;
        double b_now = (double)dt / q - m_act; /* this window's B at the count in use */
        if (b_now < 0)
            b_now = 0;
        a->b[cur] = a->b_ok[cur] ? 0.5 * a->b[cur] + 0.5 * b_now : b_now;
        a->b_ok[cur] = true;
        a->b_until[cur] = w + a->hold[cur];
        for (unsigned i = 0; i < a->n_cand; i++)
            if (a->b_ok[i] && (int)i != cur && w >= a->b_until[i])
                a->b_ok[i] = false; /* stale: the machine may have changed */
        double t_cur = m_act + a->b[cur];
        double rebalance = e->ahead_on ? ADAPT_REBALANCE_AHEAD : ADAPT_REBALANCE;
        int best = cur;
        double t_best = t_cur;
        bool move = false;
        for (int i = 0; i < (int)a->n_cand; i++) {
            double t = a->msum[i] / s + overhead(a, i, serial);
            /* fewer threads: when not slower; more: when faster by the gain;
             * the same count re-balanced: when T drops by 10% (4 % with
             * running ahead, NOTE(adapt-ahead)) */
            bool better = a->cand[i] < a->cand[cur]   ? t < ADAPT_DOWN * t_cur
                          : a->cand[i] > a->cand[cur] ? t < (1.0 - e->cfg.adapt_gain) * t_cur
                                                      : t < rebalance * t_cur;
            if (better && t < t_best) {
                best = i;
                t_best = t;
                move = true;
            }
        }
        /* NOTE(adapt-ahead): with running ahead, the count in use is
         * re-balanced only when that paid in ADAPT_REBALANCE_RUN windows in
         * a row. */
        bool rebal = move && best == cur;
        if (!rebal)
            a->reb_run = 0;
        else if (e->ahead_on && ++a->reb_run < ADAPT_REBALANCE_RUN)
            move = false;
        else
            a->reb_run = 0;
        if (e->cfg.adapt_trace)
            fprintf(stderr, "gpusim: engine window %llu: %u threads, %.2f ms, %llu quanta (%llu sampled), M %.2f us, "
                    "B %.2f us%s; next: %u threads%s, T %.2f us (now %.2f us)\n",
                    (unsigned long long)w, e->n_active, (double)dt * 1e-6, (unsigned long long)a->win_quanta,
                    (unsigned long long)a->win_samples, m_act * 1e-3, a->b[cur] * 1e-3,
                    desched ? ", descheduled" : "", a->cand[best], move ? " (move)" : "", t_best * 1e-3,
                    t_cur * 1e-3);
        if (move && best != cur) {
            /* Leaving a count soon after moving to it: the move failed, so
             * its learned B is kept twice as long as before; otherwise it
             * starts over from the shortest hold. */
            uint64_t hmax = MAX(e->cfg.adapt_hold_max, (uint64_t)ADAPT_HOLD_MIN);
            a->hold[cur] = a->at_cur < ADAPT_CONFIRM ? (unsigned)MIN((uint64_t)a->hold[cur] * 2u, hmax)
                                                     : (unsigned)ADAPT_HOLD_MIN;
            a->b_until[cur] = w + a->hold[cur];
            e->adapt_rep.moves++;
            a->cur = best;
            a->at_cur = 0;
        } else {
            a->at_cur++;
        }
        if (move)
            apply(e, best); /* the mapping judged on this window's quanta */
    }
    if (a->have_weights && e->cfg.steal)
        order_lists(e);
    remap(e); /* for the next window, from the updated weights */
    a->acc_ns = 0;
    a->win_quanta = a->win_samples = a->win_serial_ns = 0;
    a->msum_act = 0;
    memset(a->msum, 0, sizeof a->msum);
    memset(a->tsum, 0, (a->n_cand + 1u) * e->n_threads * sizeof *a->tsum);
    a->seg_start_ns = now;
    snapshot(e);
}

/* ------------------------------------------------------------- samples */

/* A sampled quantum: the profile, and each candidate's M for the window. */
static void sample(struct engine *e, bool measured)
{
    struct eng_adapt *a = e->ad;
    struct eng_profile *pr = &e->prof;
    uint64_t sum = 0, max = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        uint64_t v = e->rt[p]->sample_ns;
        sum += v;
        max = MAX(max, v);
    }
    pr->samples++;
    pr->work_s += (double)sum * 1e-9;
    pr->max_part_s += (double)max * 1e-9;
    for (unsigned i = 0; i < pr->n_proj; i++)
        pr->proj_makespan_s[i] += span(e, pr->proj_threads[i], &a->proj_owner[(size_t)i * e->n_parts]) * 1e-9;
    if (!measured)
        return;
    a->win_samples++;
    for (unsigned p = 0; p < e->n_parts; p++)
        e->owner_tmp[p] = e->parts[p].owner;
    if (e->ahead_on) { /* NOTE(adapt-ahead): per-thread sums, maxima at the window's end */
        for (unsigned i = 0; i < a->n_cand; i++)
            tsum_add(e, &a->map[(size_t)i * e->n_parts], &a->tsum[(size_t)i * e->n_threads]);
        tsum_add(e, e->owner_tmp, &a->tsum[(size_t)a->n_cand * e->n_threads]);
        return;
    }
    for (unsigned i = 0; i < a->n_cand; i++)
        a->msum[i] += a->cand[i] == 1 ? (double)sum : span(e, a->cand[i], &a->map[(size_t)i * e->n_parts]);
    a->msum_act += span(e, e->n_active, e->owner_tmp);
}

/* ----------------------------------------------------------------- debug */

static void debug_step(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    if ((rng_next(&a->rng) >> 20) % 4 == 0) {
        unsigned k = 1 + (unsigned)(rng_next(&a->rng) % e->n_threads);
        for (unsigned p = 0; p < e->n_parts; p++)
            e->owner_tmp[p] = (int)(rng_next(&a->rng) % k);
        eng_repartition(e, k, e->owner_tmp);
        eng_spin_policy(e, false);
    }
    /* NOTE(steal-debug): which partitions thieves take depends on host
     * timing; so that tests can rely on steals happening, the debug
     * re-partitioner also claims about one partition in four, for the
     * quantum about to run, for another active thread, which runs it
     * before its own (run_stealing in engine.c). The lists are emptied at
     * every serial step (eng_adapt_quantum), so they never outlive it. */
    if (!eng_steal_on(e))
        return;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if ((rng_next(&a->rng) >> 20) % 4 != 0)
            continue;
        unsigned o = (unsigned)e->parts[p].owner;
        unsigned t = (o + 1 + (unsigned)(rng_next(&a->rng) % (e->n_active - 1))) % e->n_active;
        at_store_rlx_u64(&e->claims[p].q, ENG_CLAIM(e->q_index, t)); /* the barrier's release publishes it */
        struct eng_ctx *c = &e->threads[t];
        c->forced[c->n_forced++] = (int)p;
    }
}

/* ------------------------------------------------------------------ API */

void eng_adapt_begin_run(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    if (!a) {
        a = e->ad = xcalloc(1, sizeof *a);
        unsigned n = e->n_threads;
        for (unsigned k = 1; k < n && a->n_cand + 1 < ADAPT_MAX_CAND; k *= 2)
            a->cand[a->n_cand++] = k;
        a->cand[a->n_cand++] = n;
        a->cur = (int)a->n_cand - 1; /* the first run starts on every thread */
        for (unsigned i = 0; i < a->n_cand; i++)
            a->hold[i] = ADAPT_HOLD_MIN;
        a->map = xcalloc((size_t)a->n_cand * e->n_parts, sizeof *a->map);
        a->tsum = xcalloc((a->n_cand + 1u) * (size_t)n, sizeof *a->tsum);
        a->cpu0 = xcalloc(n, sizeof *a->cpu0);
        a->sleep0 = xcalloc(n, sizeof *a->sleep0);
        a->clk0 = xcalloc(n, sizeof *a->clk0);
        a->weight = xcalloc(e->n_parts, sizeof *a->weight);
        a->work0 = xcalloc(e->n_parts, sizeof *a->work0);
        a->order = xcalloc(e->n_parts, sizeof *a->order);
        a->load = xcalloc((size_t)n + e->n_parts + 32, sizeof *a->load);
        a->rng = (e->cfg.debug_seed * 0x9E3779B97F4A7C15ull) | 1u;
        struct eng_profile *pr = &e->prof;
        for (unsigned i = 0; i < ENG_PROJ_MAX; i++) {
            unsigned k = MIN(proj_list[i], e->n_parts);
            if (pr->n_proj && pr->proj_threads[pr->n_proj - 1] == k)
                continue;
            pr->proj_threads[pr->n_proj++] = k;
        }
        a->proj_owner = xcalloc((size_t)pr->n_proj * e->n_parts, sizeof *a->proj_owner);
        for (unsigned i = 0; i < pr->n_proj; i++)
            eng_assign_static(e, pr->proj_threads[i], &a->proj_owner[(size_t)i * e->n_parts]);
        remap(e);
    }
    /* The candidate in use is the one matching the active threads (a later
     * run starts where the last one stopped; the debug re-partitioner may
     * have left any count). */
    for (unsigned i = 0; i < a->n_cand; i++)
        if (a->cand[i] <= e->n_active)
            a->cur = (int)i;
    a->seg_open = false;
    eng_spin_policy(e, a->desched);
}

void eng_adapt_quantum(struct engine *e, uint64_t now, bool sampled, bool may_change)
{
    struct eng_adapt *a = e->ad;
    e->prof.quanta++;
    bool measured = e->adaptive && !e->cfg.debug_seed && a->seg_open && !e->stop;
    if (sampled)
        sample(e, measured);
    for (unsigned t = 0; t < e->n_threads; t++)
        e->threads[t].n_forced = 0; /* NOTE(steal-debug): set again below for the next quantum only */
    if (e->stop) { /* the run ends: keep its part of the window */
        if (a->seg_open) {
            a->win_quanta++;
            a->acc_ns += now - a->seg_start_ns;
            a->seg_open = false;
        }
        return;
    }
    if (e->cfg.debug_seed) {
        if (may_change)
            debug_step(e);
        else
            e->ahead_hold = true; /* NOTE(ahead): every other barrier runs ahead */
        return;
    }
    if (!e->adaptive)
        return;
    if (!a->seg_open) { /* a run's first quantum (thread start-up) is not measured */
        a->seg_open = true;
        a->seg_start_ns = now;
        snapshot(e);
        return;
    }
    a->win_quanta++;
    a->win_serial_ns += e->t_serial_ns;
    /* A window lasts its length, and longer (up to 8 times) until it holds
     * a sampled quantum: with quanta of several ms (threads that lose their
     * CPUs) a window may otherwise never see a sample. */
    uint64_t len = e->cfg.adapt_window_ps / 1000u, el = a->acc_ns + (now - a->seg_start_ns);
    if (el < len || (!a->win_samples && el < 8 * len))
        return;
    if (!may_change) { /* NOTE(ahead): end the window at the next barrier, which none runs ahead */
        e->ahead_hold = true;
        return;
    }
    window_end(e, now);
}

void eng_adapt_free(struct engine *e)
{
    struct eng_adapt *a = e->ad;
    if (!a)
        return;
    free(a->map);
    free(a->tsum);
    free(a->cpu0);
    free(a->sleep0);
    free(a->clk0);
    free(a->weight);
    free(a->work0);
    free(a->order);
    free(a->load);
    free(a->proj_owner);
    free(a);
    e->ad = NULL;
}
