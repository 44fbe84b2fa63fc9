/* sync/engine_threads.c: the parallel engine's host threads: how many of
 * each kind and which partitions each owns (plan_threads,
 * assign_partitions, NOTE(mixed-threads)), the automatic thread count
 * (eng_auto_threads, NOTE(auto-threads)), the thread contexts of the first
 * run, the quantum barrier's spin/sleep policy (NOTE(oversubscribed-spin),
 * NOTE(spin-check)), re-partitioning at a quantum boundary and the parking
 * of threads that own nothing (NOTE(parking)), and thread creation,
 * pinning and arena set-up. What a thread does once started (partition
 * init, the quantum loop) is eng_thread_run in engine.c; when to
 * re-partition is engine_adapt.c.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/base/common.h"
#include "sync/arena.h"
#include "sync/engine.h"
#include "sync/engine_internal.h"
#include "sync/futex.h"
#include "sync/qbarrier.h"
#include "sync/topo.h"

/* -------------------------------------------------------------- threads */

/* Entry of an engine thread: pin it, create its arena (first run; its
 * partitions' state is allocated from it), then run (engine.c). */
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
    /* Our CPU-time clock, for the serial step's descheduling measure and
     * for waiters' spin checks; published with release (clock_ready). */
    ctx->has_cpu_clock = pthread_getcpuclockid(pthread_self(), &ctx->cpu_clock) == 0;
    at_store_rel_u32(&ctx->clock_ready, 1);

    eng_thread_run(ctx);
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
    if (n == 0 && e->initialized)
        n = e->n_threads; /* auto: decided once, on the first run */
    if (n == 0 && e->n_parts > 1) {
        n = eng_auto_threads();
        if (e->topo_ready && n > topo_physical_cores(&e->topo))
            n = topo_physical_cores(&e->topo);
    }
    if (n == 0)
        n = 1;
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

static void assign_partitions(const struct engine *e, unsigned n_sm_thr, unsigned n_mem_thr, int *owner)
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
/* The static split for n threads without an explicit split (the plan of
 * plan_threads for --threads n, capped by the partitions). */
void eng_assign_static(const struct engine *e, unsigned n, int *owner)
{
    unsigned n_sm = 0, n_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (e->parts[p].kind == ENG_PART_SM)
            n_sm++;
        else
            n_mem++;
    }
    if (n > e->n_parts)
        n = e->n_parts;
    if (n <= 1)
        assign_partitions(e, 1, 0, owner);
    else if (!n_sm)
        assign_partitions(e, 0, n, owner);
    else
        assign_partitions(e, n, 0, owner);
}

/* Thread plan and partition mapping of one run (engine_internal.h). */
int eng_threads_map(struct engine *e, const struct eng_run_opts *o, char *err, size_t err_len)
{
    unsigned s_thr = 0, m_thr = 0;
    if (plan_threads(e, o, &s_thr, &m_thr, err, err_len) != 0)
        return -1;
    unsigned n_thr = s_thr + m_thr;
    int *owner = xcalloc(e->n_parts, sizeof *owner);
    assign_partitions(e, s_thr, m_thr, owner);

    if (e->initialized) {
        /* The contexts, arenas and channels of the first run stay; the
         * mapping carries over (the adaptive engine may have changed it),
         * except that an explicit split must be the one in place. */
        bool same = n_thr == e->n_threads;
        bool split = o->sm_threads || o->mem_threads;
        for (unsigned p = 0; same && split && p < e->n_parts; p++)
            same = owner[p] == e->parts[p].owner;
        free(owner);
        if (!same) {
            snprintf(err, err_len, "the thread count and split cannot change between runs of one engine "
                     "(first run: %u threads)", e->n_threads);
            return -1;
        }
        return 0;
    }
    SIM_ASSERT(n_thr < (1u << ENG_CLAIM_SHIFT), "engine: %u threads", n_thr);
    e->n_threads = n_thr;
    e->n_active = n_thr;
    e->explicit_split = o->sm_threads || o->mem_threads;
    e->threads = aligned_alloc(CACHE_LINE, u64_round_up(n_thr * sizeof *e->threads, CACHE_LINE));
    if (!e->threads)
        sim_panic("out of memory");
    memset(e->threads, 0, n_thr * sizeof *e->threads);
    e->rt = xcalloc(e->n_parts, sizeof *e->rt);
    e->owner_tmp = xcalloc(e->n_parts, sizeof *e->owner_tmp);
    e->claims = aligned_alloc(CACHE_LINE, u64_round_up(e->n_parts * sizeof *e->claims, CACHE_LINE));
    if (!e->claims)
        sim_panic("out of memory");
    for (unsigned p = 0; p < e->n_parts; p++)
        atomic_init(&e->claims[p].q, 0);
    for (unsigned p = 0; p < e->n_parts; p++)
        e->parts[p].owner = owner[p];
    for (unsigned t = 0; t < n_thr; t++) {
        struct eng_ctx *c = &e->threads[t];
        c->eng = e;
        c->index = (int)t;
        c->pin_cpu = -1;
        c->parts = xcalloc(e->n_parts, sizeof *c->parts); /* room for every partition */
        c->forced = xcalloc(e->n_parts, sizeof *c->forced);
        c->ahead = xcalloc(e->n_parts, sizeof *c->ahead);
    }
    for (unsigned p = 0; p < e->n_parts; p++) {
        struct eng_ctx *c = &e->threads[owner[p]];
        c->parts[c->n_parts++] = (int)p;
    }
    eng_chans_create(e);
    free(owner);
    return 0;
}

/* NOTE(spin-check): a waiter that has spun for sync.spin_check (20 us by
 * default) looks at the first thread that has not arrived and reads its
 * CPU-time clock (a system call, about 0.3 us); one check later, if that
 * thread got less than half of the elapsed wall time on a CPU, it is not
 * running (descheduled by the OS: other processes own the cores) and the
 * waiter stops spinning and sleeps at once, handing its core to whoever
 * can use it. On a quiet machine barrier waits end long before the first
 * check (the bench/engine barrier round trip is well under 1 us). */
static bool spin_check(void *arg, struct qbar_state *s, uint32_t want, uint32_t iter)
{
    struct engine *e = arg;
    struct eng_ctx *me = (struct eng_ctx *)(void *)((char *)s - offsetof(struct eng_ctx, bar));
    uint64_t now = sync_mono_ns();
    if (iter <= e->bar.check_every) { /* first check of this wait */
        me->chk_wall_ns = now;
        me->chk_thr = -1;
        return true;
    }
    if (now - me->chk_wall_ns < e->spin_check_ns)
        return true;
    unsigned n = MIN(at_load_rlx_u32(&e->active_hint), e->n_threads);
    int j = -1;
    for (unsigned t = 0; t < n; t++) {
        struct eng_ctx *o = &e->threads[t];
        if (o != me && at_load_rlx_u32(&o->arrived) != want) {
            j = (int)t;
            break;
        }
    }
    struct timespec ts;
    struct eng_ctx *o = j >= 0 ? &e->threads[j] : NULL;
    if (!o || !at_load_acq_u32(&o->clock_ready) || !o->has_cpu_clock || clock_gettime(o->cpu_clock, &ts) != 0) {
        me->chk_thr = -1; /* everyone arrived (the serial step runs) or no clock: keep spinning */
        me->chk_wall_ns = now;
        return true;
    }
    uint64_t cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    bool idle = me->chk_thr == j && (cpu - me->chk_cpu_ns) * 2 < now - me->chk_wall_ns;
    me->chk_thr = j;
    me->chk_cpu_ns = cpu;
    me->chk_wall_ns = now;
    return !idle;
}

/* NOTE(oversubscribed-spin): with more threads than hardware threads, a
 * spinning waiter steals the core of the thread everyone waits for.
 * bench/engine on a 2-core VM: 3-4 threads cost ~1 ms per quantum with a
 * 20000-iteration spin but 25-55 us when waiters sleep at once. The same
 * holds when the engine measured that its threads lose their CPUs to other
 * processes (engine_adapt.c): waiters then sleep at once. */
void eng_spin_policy(struct engine *e, bool descheduled)
{
    uint64_t spin = e->cfg.spin_limit;
    if (descheduled || (e->pus && e->n_active > e->pus))
        spin = 0;
    qbar_set_spin(&e->bar, (uint32_t)MIN(spin, UINT32_MAX));
}

void eng_threads_barrier_init(struct engine *e)
{
    unsigned n_thr = e->n_threads;
    e->pus = e->topo_ready ? topo_pus(&e->topo) : 0;
    qbar_init(&e->bar, e->n_active, 0);
    eng_spin_policy(e, false);
    e->spin_check_ns = e->cfg.spin_check_ps / 1000u;
    if (e->spin_check_ns && n_thr > 1)
        qbar_set_spin_check(&e->bar, spin_check, e, 64);
    at_store_rlx_u32(&e->active_hint, e->n_active);
    for (unsigned t = 0; t < n_thr; t++) {
        struct eng_ctx *c = &e->threads[t];
        memset(&c->rep, 0, sizeof c->rep);
        c->bar = (struct qbar_state)QBAR_STATE_INITIALIZER;
        c->post_join_lo = c->post_join_hi = 0;
        c->post_exit = false;
        c->chk_thr = -1;
        atomic_init(&c->arrived, 0);
        atomic_init(&c->clock_ready, 0);
        atomic_init(&c->state, t < e->n_active ? ENG_THR_ACTIVE : ENG_THR_PARKED);
    }
}

void eng_threads_spawn_join(struct engine *e)
{
    unsigned n_thr = e->n_threads;
    for (unsigned t = 0; t < n_thr; t++) {
        int rc = pthread_create(&e->threads[t].tid, NULL, thread_main, &e->threads[t]);
        if (rc != 0)
            sim_panic("engine: pthread_create failed: %s", strerror(rc));
    }
    for (unsigned t = 0; t < n_thr; t++)
        pthread_join(e->threads[t].tid, NULL);
}

/* ------------------------------------------------------- re-partitioning */

/* NOTE(parking): the threads that run are always 0 .. n_active-1 (pinned
 * one per physical core first, so fewer threads still get separate cores).
 * A thread beyond n_active owns no partition and sleeps in futex wait on
 * park_gen: it costs nothing while parked, and waking it costs one futex
 * wake (tens of us on a VM) at the rare moments the engine spreads out.
 * Joining threads become active only after the release of the round that
 * admitted them (eng_after_release), so they can never arrive at the
 * barrier before its count is reset for the next round. */
void eng_repartition(struct engine *e, unsigned n_active, const int *owner)
{
    SIM_ASSERT(n_active >= 1 && n_active <= e->n_threads, "engine: re-partition to %u of %u threads", n_active,
               e->n_threads);
    /* Messages sent in the quantum just run sit in the channels of the old
     * mapping: deliver them to the heaps, where any owner will find them. */
    eng_chans_flush(e);
    for (unsigned t = 0; t < e->n_threads; t++)
        e->threads[t].n_parts = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        SIM_ASSERT(owner[p] >= 0 && (unsigned)owner[p] < n_active, "engine: partition %u mapped to thread %d of %u",
                   p, owner[p], n_active);
        e->parts[p].owner = owner[p];
        struct eng_ctx *c = &e->threads[owner[p]];
        c->parts[c->n_parts++] = (int)p;
    }
    unsigned old = e->n_active;
    for (unsigned t = n_active; t < old; t++)
        at_store_rlx_u32(&e->threads[t].state, ENG_THR_PARKED); /* read after the release (acquire) */
    for (unsigned t = old; t < n_active; t++)
        qbar_state_join(&e->bar, &e->threads[t].bar);
    e->n_active = n_active;
    at_store_rlx_u32(&e->active_hint, n_active);
    qbar_set_participants(&e->bar, n_active);
    e->adapt_rep.repartitions++;
}

void eng_after_release(struct eng_ctx *sctx)
{
    struct engine *e = sctx->eng;
    bool wake = false;
    for (unsigned t = sctx->post_join_lo; t < sctx->post_join_hi; t++) {
        atomic_store_explicit(&e->threads[t].state, ENG_THR_ACTIVE, memory_order_seq_cst);
        wake = true;
    }
    if (sctx->post_exit) {
        for (unsigned t = 0; t < e->n_threads; t++) {
            if (&e->threads[t] == sctx)
                continue;
            uint32_t want = ENG_THR_PARKED;
            if (atomic_compare_exchange_strong_explicit(&e->threads[t].state, &want, ENG_THR_EXIT,
                                                        memory_order_seq_cst, memory_order_seq_cst))
                wake = true;
        }
    }
    sctx->post_join_lo = sctx->post_join_hi = 0;
    sctx->post_exit = false;
    if (wake) {
        /* seq_cst: the state stores above come before this increment in the
         * total order, and a parker loads park_gen before its state (eng_park),
         * so it either sees the new state or sleeps on a stale park_gen and
         * is woken (or does not sleep at all). */
        atomic_fetch_add_explicit(&e->park_gen, 1, memory_order_seq_cst);
        sync_futex_wake_all(&e->park_gen);
    }
}

bool eng_park(struct eng_ctx *ctx)
{
    struct engine *e = ctx->eng;
    uint64_t t0 = sync_mono_ns();
    uint32_t st;
    for (;;) {
        uint32_t gen = atomic_load_explicit(&e->park_gen, memory_order_seq_cst);
        st = atomic_load_explicit(&ctx->state, memory_order_seq_cst);
        if (st != ENG_THR_PARKED)
            break;
        sync_futex_wait(&e->park_gen, gen, NULL);
    }
    ctx->rep.parked_s += (double)(sync_mono_ns() - t0) * 1e-9;
    return st == ENG_THR_ACTIVE;
}

/* ------------------------------------------------------ automatic count */

/* NOTE(auto-threads): the default thread count is the number of CPUs that
 * are idle now, so that a run started next to other jobs (a sweep on a
 * shared server) does not put two threads on one busy core; the adaptive
 * engine (engine_adapt.c) corrects a bad guess at run time, so the guess
 * only needs to be roughly right, and it must be cheap: every run that
 * leaves --threads at its default pays it before its first quantum.
 *
 * Source: the kernel's count of runnable tasks, the fourth field of
 * /proc/loadavg ("runnable/total"), read ENG_AUTO_READS times
 * ENG_AUTO_GAP_US apart (about 1 ms in all). The least of the reads counts
 * the tasks that stayed runnable throughout: a CPU-bound job always is, a
 * shell or a kernel worker that happens to run at one read is not. The
 * calling thread is one of them (it is running while it reads), so the
 * other jobs are that count - 1, and the idle CPUs are the online CPUs
 * minus those. When the field cannot be read, the 1-minute load average
 * stands in for it.
 *
 * Until session 35 the count came from /proc/stat's idle time sampled over
 * 40 ms: every default run slept 40 ms before it started, which made
 * `gpusim run vectoradd --size tiny` 5x slower by default than with
 * --threads 1 (0.05 s against 0.01 s) and a 0.5 s run on a busy machine
 * 1.38x slower (bench/speed --busy 2, compute1 small), against issue 13's
 * "no default run more than 5 % slower than one thread". Neither way
 * sees a job that starts at the same moment (it sleeps, or is between its
 * own reads); the adaptive engine's descheduled-thread check is what
 * catches that. */
enum { ENG_AUTO_READS = 5, ENG_AUTO_GAP_US = 200 };

int eng_parse_loadavg(const char *text, double *load1, long *runnable)
{
    double l1, l5, l15;
    long run, total;
    int n = sscanf(text, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &run, &total);
    if (n < 3 || !(l1 >= 0))
        return -1;
    *load1 = l1;
    *runnable = (n >= 5 && run >= 1 && total >= run) ? run : -1;
    return 0;
}

unsigned eng_auto_count(unsigned online, unsigned allowed, long runnable, double load1, double quota)
{
    if (allowed > online)
        allowed = online;
    if (quota > 0 && quota < (double)allowed) /* NOTE(auto-quota): rounded down */
        allowed = (unsigned)quota;
    if (allowed <= 1)
        return 1;
    double idle = runnable >= 1 ? (double)online - (double)(runnable - 1) : (double)online - load1;
    long n = lround(idle);
    if (n > (long)allowed)
        n = (long)allowed;
    return n < 1 ? 1u : (unsigned)n;
}

/* NOTE(auto-quota): a cgroup CPU bandwidth limit (docker --cpus,
 * Kubernetes CPU limits, systemd CPUQuota) lets the process's threads
 * together use quota / period CPUs, whatever the affinity mask says; more
 * threads than that are throttled in turn, and a thread throttled while
 * the others wait at a barrier stalls them all. So the automatic count is
 * at most the limit (rounded down, at least 1): the least over the
 * process's cgroup and its ancestors up to the mount's root, in the
 * unified hierarchy (cpu.max: "max PERIOD" or "QUOTA PERIOD") and in a v1
 * hierarchy with the cpu controller (cpu.cfs_quota_us, -1 for none, and
 * cpu.cfs_period_us). Mount points come from /proc/self/mountinfo, the
 * process's paths from /proc/self/cgroup. Anything unreadable means no
 * limit. An explicit --threads N is never capped. */
double eng_parse_cpu_max(const char *text)
{
    char q[32];
    double period;
    if (sscanf(text, "%31s %lf", q, &period) != 2 || !(period > 0))
        return 0;
    char *end;
    double quota = strtod(q, &end);
    if (end == q || *end || !(quota > 0) || !isfinite(quota) || !isfinite(period))
        return 0; /* "max" (or not a number): no limit */
    return quota / period;
}

double eng_parse_cfs(const char *quota_text, const char *period_text)
{
    char *end;
    double quota = strtod(quota_text, &end), period;
    if (end == quota_text || !(quota > 0))
        return 0; /* -1: no limit */
    period = strtod(period_text, &end);
    if (end == period_text || !(period > 0) || !isfinite(quota) || !isfinite(period))
        return 0;
    return quota / period;
}

/* Whether the comma-separated list has the item. */
static bool list_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    for (const char *p = list; p && *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == n && !strncmp(p, item, n))
            return true;
        p = c ? c + 1 : NULL;
    }
    return false;
}

/* The text of a small file (at most len - 1 bytes), or NULL. */
static char *read_small(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = 0;
    return n ? buf : NULL;
}

/* The limit at one cgroup directory: v2 (cpu.max) or v1 (cfs files); 0 = none. */
static double limit_at(const char *dir, bool v2)
{
    char path[4096 + 32], a[64], b[64];
    if (v2) {
        snprintf(path, sizeof path, "%s/cpu.max", dir);
        return read_small(path, a, sizeof a) ? eng_parse_cpu_max(a) : 0;
    }
    snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
    if (!read_small(path, a, sizeof a))
        return 0;
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
    return read_small(path, b, sizeof b) ? eng_parse_cfs(a, b) : 0;
}

/* The least limit from mount + (cgroup path less the mount's root) up to
 * the mount point; 0 = none. */
static double limit_walk(const char *mount, const char *root, const char *cg, bool v2)
{
    size_t rl = strlen(root);
    const char *rel = cg;
    if (strcmp(root, "/") && !strncmp(cg, root, rl) && (cg[rl] == '/' || cg[rl] == 0))
        rel = cg + rl;
    char dir[4096];
    int w = snprintf(dir, sizeof dir, "%s%s", mount, strcmp(rel, "/") ? rel : "");
    if (w < 0 || (size_t)w >= sizeof dir)
        return 0;
    size_t ml = strlen(mount);
    double best = 0;
    for (;;) {
        double l = limit_at(dir, v2);
        if (l > 0 && (best == 0 || l < best))
            best = l;
        char *slash = strrchr(dir, '/');
        if (strlen(dir) <= ml || !slash || (size_t)(slash - dir) < ml)
            break;
        *slash = 0;
    }
    return best;
}

static double cgroup_cpu_limit(void)
{
    /* the process's cgroup paths: "0::/p" (v2), "N:cpu,cpuacct:/p" (v1 cpu) */
    char cg2[4096] = "", cg1[4096] = "", line[8192];
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = 0;
        if (!strcmp(line, "0") && c2 == c1 + 1)
            snprintf(cg2, sizeof cg2, "%s", c2 + 1);
        else if (list_has(c1 + 1, "cpu"))
            snprintf(cg1, sizeof cg1, "%s", c2 + 1);
    }
    fclose(f);
    /* mount points: "id parent maj:min root mountpoint opts ... - fstype source superopts" */
    f = fopen("/proc/self/mountinfo", "r");
    if (!f)
        return 0;
    double best = 0;
    while (fgets(line, sizeof line, f)) {
        char root[4096], mnt[4096], fstype[64], super[1024];
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) != 2 ||
            sscanf(dash + 3, "%63s %*s %1023s", fstype, super) != 2)
            continue;
        double l = 0;
        if (!strcmp(fstype, "cgroup2") && cg2[0])
            l = limit_walk(mnt, root, cg2, true);
        else if (!strcmp(fstype, "cgroup") && cg1[0] && list_has(super, "cpu"))
            l = limit_walk(mnt, root, cg1, false);
        if (l > 0 && (best == 0 || l < best))
            best = l;
    }
    fclose(f);
    return best;
}

unsigned eng_auto_threads(void)
{
    long onl = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned online = onl > 0 ? (unsigned)onl : 1u;
    unsigned allowed = online;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        allowed = (unsigned)CPU_COUNT(&set);
    if (allowed <= 1)
        return 1;
    long runnable = -1;
    double load1 = 0;
    for (int k = 0; k < ENG_AUTO_READS; k++) {
        if (k)
            nanosleep(&(struct timespec){0, ENG_AUTO_GAP_US * 1000L}, NULL);
        char buf[128];
        long r;
        if (!read_small("/proc/loadavg", buf, sizeof buf) || eng_parse_loadavg(buf, &load1, &r) != 0)
            break;
        if (r < 1) /* no runnable field: the load average alone */
            break;
        if (runnable < 0 || r < runnable)
            runnable = r;
    }
    return eng_auto_count(online, allowed, runnable, load1, cgroup_cpu_limit() /* NOTE(auto-quota) */);
}
