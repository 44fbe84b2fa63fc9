/* bench/speed.c: speed and scaling of timing mode (sim.mode = timing); not a test.
 *
 * For every (config, workload, mode, threads) cell it runs the workload once,
 * in-process through wl_run() but inside a forked child, and measures:
 *   - wall seconds inside kernels (gs_host_kernel_seconds) and for the whole
 *     run (inputs, copies, CPU reference and check included);
 *   - simulated warp instructions per host second and simulated core cycles
 *     (gpu.cycles) per host second, both over the kernel seconds;
 *   - speed-up over the same workload/config/mode at 1 thread and parallel
 *     efficiency (speed-up / engine threads), from kernel seconds;
 *   - peak resident set of the child (ru_maxrss from wait4, KiB) and its
 *     user + system CPU seconds (all threads; CPU s / run s shows whether
 *     the engine threads worked or waited);
 *   - IPC (func.thread_insts / gpu.cycles) and, for relaxed modes, its
 *     relative difference to exact mode (same config, workload, threads).
 * Modes: exact (sync.quantum = L, the lookahead), nosteal (exact with
 * sync.steal = false) and relaxedK
 * (sync.relaxed = true, sync.quantum = K x L), where L is
 * icnt.min_latency x the interconnect clock period of the config. Threads
 * are pinned one per physical core first, as `gpusim run` does by default.
 * Simulated results must not depend on the thread count; a (config,
 * workload, mode) whose cycles or instructions differ between thread counts
 * is flagged under its table (a simulator bug, not a failed run).
 *
 * Each child is a fresh process, so runs cannot disturb each other through
 * the allocator or caches of the parent, and its ru_maxrss is the peak of
 * that run alone. A run whose verification fails is reported as failed and
 * the benchmark exits 1 at the end.
 *
 * Besides the workloads, two made-up cases: compute1 and compute4 run
 * bench/kernels/compute.ptx (register-only loop) with 1 and 4 CTAs of 256
 * threads, so one or four SMs hold all the work (the case where a barrier
 * per quantum buys nothing). Thread counts may include "auto" (the
 * engine's default: idle CPUs, adaptive). --busy N starts N CPU-bound
 * background processes before every measured run and kills them after it,
 * as on a shared server. Each row also shows what the adaptive engine did
 * (mean active threads, re-partitions) and the run's time against the
 * 1-thread run; a "Projection" section models the speed-up on many cores
 * from the 1-thread runs' sampled partition work (bench/README.md).
 *
 * Prints Markdown on stdout; --json FILE writes the same numbers and the
 * machine (rewritten atomically after every cell, so an interrupted full run
 * keeps what it measured). Progress lines go to stderr.
 * Options: --workloads LIST, --size S, --configs LIST, --max-threads N,
 * --threads LIST, --modes LIST, --busy N, --compute-iters N, --barrier-ns A,B,
 * --msg-ns N, --quick, --json FILE, --help (bench/README.md, "speed").
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpusim.h"
#include "sim/api/runtime_internal.h"
#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/base/json.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/gpu/gpu.h"
#include "support/machine.h"
#include "wl.h"

#define MAX_CONFIGS 16
#define MAX_WLS 64
#define MAX_MODES 8
#define MAX_THREADS 64 /* thread counts in the sweep (not the largest count) */
#define MAX_BUSY 1024  /* --busy processes */

/* The project's targets (issue text): 1 M warp instructions per host second
 * on one thread for sgemm and bfs on gtx480, >= 1.8x at 2 threads in
 * exact mode, and with the default thread count no run more than 5% slower
 * than on one thread (quiet or busy machine). */
#define TARGET_WARP_IPS 1e6
#define TARGET_SPEEDUP_2T 1.8
#define TARGET_DEFAULT_SLOWDOWN 1.05
#define THREADS_AUTO 0u /* in the thread list: the engine's default (--threads auto) */

/* Outcome of a cell beyond enum wl_status. */
enum {
    RUN_NOT_RUN = -1,   /* not measured (yet) */
    RUN_CRASHED = 100,  /* the child died of a signal */
    RUN_NO_RESULT = 101 /* the child exited without writing its result */
};

struct mode {
    char name[16];      /* "exact", "relaxed4", ... */
    unsigned quantum_l; /* quantum in units of L; 0 = exact (quantum = L, sync.relaxed = false) */
    bool nosteal;       /* exact with sync.steal = false (NOTE(steal) in sync/engine.c) */
};

struct config {
    const char *name; /* preset or .cfg path */
    uint64_t l_ps;    /* lookahead L (ps) = icnt.min_latency x icnt period */
};

/* A workload of the suite, or the compute kernel on `grid` CTAs. */
struct bwl {
    char name[32];            /* workload name, or compute<grid> */
    const struct wl_entry *e; /* NULL for the compute kernel */
    unsigned grid;            /* compute kernel: CTAs of 256 threads */
};

/* What the child sends back through the pipe (fixed size, < PIPE_BUF). */
struct run_result {
    int status;            /* enum wl_status */
    unsigned threads_used; /* engine threads of the run (stats "host.threads"); 0 = unknown */
    uint64_t warp_insts;   /* func.warp_insts */
    uint64_t thread_insts; /* func.thread_insts */
    uint64_t cycles;       /* gpu.cycles (core cycles) */
    double kernel_s;       /* host wall seconds inside kernels */
    double run_s;          /* host wall seconds of the whole wl_run */
    struct eng_adapt_report adapt; /* what the adaptive engine did */
    struct eng_profile prof;       /* sampled partition work (projection) */
};

struct cell {
    struct run_result r;  /* r.status is RUN_NOT_RUN until measured */
    int signal;           /* RUN_CRASHED: the signal; RUN_NO_RESULT: the exit code */
    long maxrss_kib;      /* peak RSS of the child (KiB, ru_maxrss) */
    double cpu_s;         /* user + system CPU seconds of the child (all its threads) */
};

struct bench {
    bool quick;
    const char *json_path;
    enum wl_size size;
    struct machine m;
    struct config cfgs[MAX_CONFIGS];
    unsigned n_cfgs;
    struct bwl wls[MAX_WLS];
    unsigned n_wls;
    struct mode modes[MAX_MODES];
    unsigned n_modes;
    unsigned threads[MAX_THREADS]; /* requested host threads, ascending */
    unsigned n_threads;
    unsigned max_threads;          /* --max-threads */
    unsigned busy;                 /* --busy: CPU-bound background processes per run */
    int pin;                       /* --pin: gs_host_opts.pin of every run (default 3, auto, as gpusim run) */
    unsigned repeat;               /* --repeat: runs per cell, the median (kernel s) is kept */
    int compute_iters;             /* --compute-iters: loop trips of compute1/compute4 */
    double bar_arrive_ns, bar_release_ns; /* --barrier-ns: projection's barrier cost model */
    double msg_ns;                 /* --msg-ns: projection's cost of a message between threads */
    struct cell *cells;            /* [cfg][wl][mode][threads] */
    double total_s;                /* wall seconds of the whole benchmark so far */
    double load_start, load_end;   /* 1-minute load average (/proc/loadavg) before and after; -1 unknown */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 1-minute load average, -1 when unknown. Other processes on the host
 * take CPU from the engine threads; the report shows it. */
static double load_average(void)
{
    double l = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1.0;
        fclose(f);
    }
    return l;
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6; }

static double rate(uint64_t n, double s) { return s > 0 ? (double)n / s : 0.0; }
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static struct cell *cell_at(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti)
{
    return &b->cells[((ci * b->n_wls + wi) * b->n_modes + mi) * b->n_threads + ti];
}

static bool cell_ok(const struct cell *c) { return c->r.status == WL_PASS; }

/* Threads the engine really used (it caps the request at the partition
 * count); the request when the stats did not say. */
static unsigned cell_threads(const struct bench *b, const struct cell *c, unsigned ti)
{
    return c->r.threads_used ? c->r.threads_used : b->threads[ti];
}

/* "2", "auto", "8 (6 used)", "auto (2 used)". */
static const char *thread_label(const struct bench *b, const struct cell *c, unsigned ti, char *buf, size_t len)
{
    unsigned req = b->threads[ti], used = cell_threads(b, c, ti);
    char r[12];
    if (req == THREADS_AUTO)
        snprintf(r, sizeof r, "auto");
    else
        snprintf(r, sizeof r, "%u", req);
    if (used != req)
        snprintf(buf, len, "%s (%u used)", r, used);
    else
        snprintf(buf, len, "%s", r);
    return buf;
}

/* Mean threads that ran each quantum (the adaptive engine's choice). */
static double active_mean(const struct cell *c)
{
    return c->r.adapt.quanta ? (double)c->r.adapt.thread_quanta / (double)c->r.adapt.quanta : 0.0;
}

static const char *status_text(const struct cell *c, char *buf, size_t len)
{
    switch (c->r.status) {
    case WL_PASS: return "ok";
    case WL_MISMATCH: return "FAILED: mismatch";
    case WL_SIM_ERROR: return "FAILED: simulation error";
    case WL_INPUT_ERROR: return "FAILED: input error";
    case RUN_CRASHED: snprintf(buf, len, "FAILED: crashed (signal %d)", c->signal); return buf;
    case RUN_NO_RESULT: snprintf(buf, len, "FAILED: no result (exit %d)", c->signal); return buf;
    case RUN_NOT_RUN: return "not run";
    default: return "FAILED";
    }
}

/* ------------------------------------------------------------ config */

/* Lookahead L (ps) of a preset or file: icnt.min_latency interconnect
 * cycles, as the engine derives it from the SM<->partition links
 * (sim/gpu/gpu.c). Returns 0 and prints the errors when the config is bad. */
static uint64_t config_lookahead_ps(const char *name)
{
    struct cfg c;
    struct diag d;
    cfg_init(&c);
    diag_init(&d);
    uint64_t l_ps = 0;
    if (cfg_load(&c, name, &d) == 0 && cfg_finish(&c, &d) == 0) {
        struct clock_periods per;
        clock_periods_compute(&c.values->clock, &per);
        l_ps = c.values->icnt.min_latency * per.icnt;
    } else {
        diag_print(&d, stderr);
    }
    diag_fini(&d);
    cfg_fini(&c);
    return l_ps;
}

/* ------------------------------------------------------------ one run */

/* Engine facts of a timing-mode context: threads started, what the adaptive
 * engine did, the sampled partition work (sim/gpu/gpu.h). */
static void engine_facts(gs_ctx *ctx, struct run_result *r)
{
    if (!ctx->gpu)
        return;
    struct gpu_summary g;
    gpu_summary(ctx->gpu, &g);
    r->threads_used = g.threads;
    r->adapt = g.adapt;
    r->prof = g.profile;
}

/* The compute kernel on b->grid CTAs of 256 threads in timing mode,
 * checked against the host's integer hash. */
static int run_compute(const struct bwl *w, const char *config, const char *const *overrides, const gs_host_opts *h,
                       int iters, gs_ctx **out)
{
    gs_ctx *c = gs_ctx_create(config, overrides);
    *out = c;
    if (!c) {
        fprintf(stderr, "speed: %s\n", gs_last_error(NULL));
        return WL_INPUT_ERROR;
    }
    gs_module *m;
    gs_function *f;
    const char *src = getenv("GPUSIM_SOURCE_DIR"); /* the tree, when the binary moved */
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s/bench/kernels/compute.ptx", src && *src ? src : GPUSIM_SOURCE_DIR);
    if (gs_ctx_set_host(c, h) || gs_module_load(c, ptx, &m) ||
        gs_module_get_function(m, "compute", &f)) {
        fprintf(stderr, "speed: %s\n", gs_last_error(c));
        return WL_INPUT_ERROR;
    }
    const unsigned block = 256, n = w->grid * block;
    uint64_t dout, diout;
    if (gs_mem_alloc(c, &dout, n * 4) || gs_mem_alloc(c, &diout, n * 4))
        return WL_SIM_ERROR;
    void *args[] = {&dout, &diout, &iters};
    if (gs_launch_kernel(f, w->grid, 1, 1, block, 1, 1, 0, args)) {
        fprintf(stderr, "speed: %s\n", gs_last_error(c));
        return WL_SIM_ERROR;
    }
    unsigned *hv = malloc(n * sizeof *hv);
    if (!hv || gs_memcpy_dtoh(c, hv, diout, n * 4)) {
        free(hv);
        return WL_SIM_ERROR;
    }
    int st = WL_PASS;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = i * 2654435761u;
        for (int k = 0; k < iters; k++)
            v = (v ^ (v >> 13)) * 0x5bd1e995u + (unsigned)k;
        if (v != hv[i])
            st = WL_MISMATCH;
    }
    free(hv);
    return st;
}

/* In the child: run the workload and collect its statistics. */
static struct run_result run_in_child(const struct bench *b, const struct bwl *w, const char *config,
                                      const char *const *overrides, unsigned threads)
{
    struct run_result r = {0};
    /* --pin (default auto, the default of `gpusim run`, so the numbers are
     * what a user of the CLI sees: pinned one per physical core only when
     * the run's threads take every CPU; until session 35 every run was
     * pinned so, and a 1-thread run on a busy machine sat on CPU 0);
     * threads 0 = the default (auto). */
    gs_host_opts host = {.threads = threads, .pin = b->pin};
    struct wl_run_opts o = {
        .config = config,
        .overrides = overrides,
        .size = b->size,
        .seed = 1,
        .quiet = true,
        .host = host,
    };
    gs_ctx *ctx = NULL;
    double t0 = now_s();
    r.status = w->e ? wl_run(w->e, &o, &ctx) : run_compute(w, config, overrides, &host, b->compute_iters, &ctx);
    r.run_s = now_s() - t0;
    if (ctx) {
        gs_stats_get_u64(ctx, "func.warp_insts", &r.warp_insts);
        gs_stats_get_u64(ctx, "func.thread_insts", &r.thread_insts);
        gs_stats_get_u64(ctx, "gpu.cycles", &r.cycles);
        r.kernel_s = gs_host_kernel_seconds(ctx);
        engine_facts(ctx, &r);
        gs_ctx_destroy(ctx);
    }
    return r;
}

/* --busy: n CPU-bound processes (a spinning loop each), started before a
 * measured run and killed after it; their pids go to pids. */
static void busy_start(unsigned n, pid_t *pids)
{
    fflush(NULL);
    for (unsigned i = 0; i < n; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            volatile uint64_t x = 0;
            for (;;)
                x++;
        }
        if (pids[i] < 0)
            perror("speed: fork (--busy)");
    }
    if (n) /* let them settle, so the run's automatic thread count sees them */
        nanosleep(&(struct timespec){0, 200000000L}, NULL);
}

static void busy_stop(unsigned n, const pid_t *pids)
{
    for (unsigned i = 0; i < n; i++)
        if (pids[i] > 0)
            kill(pids[i], SIGKILL);
    for (unsigned i = 0; i < n; i++)
        if (pids[i] > 0)
            while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
                ;
}

/* Measure one cell in a forked child; fills c. */
static void measure_once(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti, struct cell *c)
{
    const struct mode *md = &b->modes[mi];
    char quantum[64];
    snprintf(quantum, sizeof quantum, "sync.quantum=%llups",
             (unsigned long long)(md->quantum_l * b->cfgs[ci].l_ps));
    const char *ov_exact[] = {"sim.mode=timing", NULL};
    const char *ov_relaxed[] = {"sim.mode=timing", "sync.relaxed=true", quantum, NULL};
    const char *ov_nosteal[] = {"sim.mode=timing", "sync.steal=false", NULL};
    const char *const *ov = md->quantum_l ? ov_relaxed : md->nosteal ? ov_nosteal : ov_exact;

    memset(c, 0, sizeof *c);
    c->r.status = RUN_NO_RESULT;
    pid_t hogs[MAX_BUSY];
    busy_start(b->busy, hogs);
    int fd[2];
    if (pipe(fd) != 0) {
        perror("speed: pipe");
        c->signal = -1;
        busy_stop(b->busy, hogs);
        return;
    }
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        perror("speed: fork");
        close(fd[0]);
        close(fd[1]);
        c->signal = -1;
        busy_stop(b->busy, hogs);
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        struct run_result r = run_in_child(b, &b->wls[wi], b->cfgs[ci].name, ov, b->threads[ti]);
        ssize_t n = write(fd[1], &r, sizeof r);
        _exit(n == (ssize_t)sizeof r ? 0 : 3);
    }
    close(fd[1]);
    struct run_result r;
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = read(fd[0], (char *)&r + got, sizeof r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
        ;
    busy_stop(b->busy, hogs);
    c->maxrss_kib = ru.ru_maxrss; /* Linux: KiB */
    c->cpu_s = tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
    if (WIFSIGNALED(st)) {
        c->r.status = RUN_CRASHED;
        c->signal = WTERMSIG(st);
    } else if (got != sizeof r || WEXITSTATUS(st) != 0) {
        c->r.status = RUN_NO_RESULT;
        c->signal = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    } else {
        c->r = r;
    }
}

static int cmp_kernel_s(const void *x, const void *y)
{
    const struct cell *a = x, *b = y;
    bool oa = a->r.status == WL_PASS, ob = b->r.status == WL_PASS;
    if (oa != ob)
        return oa ? -1 : 1; /* failures last */
    return (a->r.kernel_s > b->r.kernel_s) - (a->r.kernel_s < b->r.kernel_s);
}

/* The run of n to report: the one with the median kernel seconds, or a
 * failure when any run failed (so that it shows). Sorts runs. */
static void pick_median(struct cell *runs, unsigned n, struct cell *c)
{
    qsort(runs, n, sizeof *runs, cmp_kernel_s);
    unsigned fail = 0;
    while (fail < n && runs[fail].r.status == WL_PASS)
        fail++;
    *c = fail < n ? runs[fail] : runs[n / 2];
}

/* ------------------------------------------------------------ derived */

/* Speed-up of a cell over 1 thread (kernel seconds); 0 when unknown. */
static int find_threads(const struct bench *b, unsigned t);

static double speedup(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti)
{
    int t1 = find_threads(b, 1);
    if (t1 < 0)
        return 0.0;
    const struct cell *c = cell_at(b, ci, wi, mi, ti), *base = cell_at(b, ci, wi, mi, (unsigned)t1);
    if (!cell_ok(c) || !cell_ok(base) || c->r.kernel_s <= 0)
        return 0.0;
    return base->r.kernel_s / c->r.kernel_s;
}

/* Index of the exact mode in the sweep, or -1. */
static int exact_mode(const struct bench *b)
{
    for (unsigned m = 0; m < b->n_modes; m++)
        if (!b->modes[m].quantum_l)
            return (int)m;
    return -1;
}

/* Relative IPC difference of a relaxed cell against exact mode at the same
 * thread count (exact results do not depend on threads; that is checked
 * separately). false when there is no passing exact run to compare with. */
static bool ipc_error(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti, double *out)
{
    int em = exact_mode(b);
    const struct cell *c = cell_at(b, ci, wi, mi, ti);
    if (em < 0 || !b->modes[mi].quantum_l || !cell_ok(c))
        return false;
    const struct cell *x = cell_at(b, ci, wi, (unsigned)em, ti);
    if (!cell_ok(x) || !x->r.cycles || !c->r.cycles)
        return false;
    double ipc_x = ratio(x->r.thread_insts, x->r.cycles), ipc_r = ratio(c->r.thread_insts, c->r.cycles);
    if (ipc_x <= 0)
        return false;
    *out = (ipc_r - ipc_x) / ipc_x;
    return true;
}

/* Simulated results must not depend on host threads (docs/timing.md,
 * "Determinism"): true when every passing cell of (ci, wi, mi) has the
 * cycles and instructions of the first passing one. */
static bool thread_invariant(const struct bench *b, unsigned ci, unsigned wi, unsigned mi)
{
    const struct cell *ref = NULL;
    for (unsigned t = 0; t < b->n_threads; t++) {
        const struct cell *c = cell_at(b, ci, wi, mi, t);
        if (!cell_ok(c))
            continue;
        if (!ref)
            ref = c;
        else if (c->r.cycles != ref->r.cycles || c->r.warp_insts != ref->r.warp_insts)
            return false;
    }
    return true;
}

static int find_config(const struct bench *b, const char *name)
{
    for (unsigned i = 0; i < b->n_cfgs; i++)
        if (!strcmp(b->cfgs[i].name, name))
            return (int)i;
    return -1;
}

static int find_wl(const struct bench *b, const char *name)
{
    for (unsigned i = 0; i < b->n_wls; i++)
        if (!strcmp(b->wls[i].name, name))
            return (int)i;
    return -1;
}

static int find_threads(const struct bench *b, unsigned t)
{
    for (unsigned i = 0; i < b->n_threads; i++)
        if (b->threads[i] == t)
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------ output */

static void print_targets(const struct bench *b)
{
    int em = exact_mode(b), g = find_config(b, "gtx480"), t1 = find_threads(b, 1), t2 = find_threads(b, 2);
    printf("## Targets\n\n");
    if (b->size != WL_MEDIUM)
        printf("Measured at size %s; the targets are stated for medium.\n\n", wl_size_name(b->size));
    static const char *const rate_wls[] = {"sgemm", "bfs"};
    for (unsigned k = 0; k < 2; k++) {
        int w = find_wl(b, rate_wls[k]);
        printf("- %s, gtx480, exact, 1 thread: ", rate_wls[k]);
        const struct cell *c = (em >= 0 && g >= 0 && w >= 0 && t1 >= 0)
                                   ? cell_at(b, (unsigned)g, (unsigned)w, (unsigned)em, (unsigned)t1)
                                   : NULL;
        if (!c || !cell_ok(c)) {
            printf("not measured in this run (target %.2f M warp-insts/s)\n", TARGET_WARP_IPS * 1e-6);
            continue;
        }
        double r = rate(c->r.warp_insts, c->r.kernel_s);
        printf("%.3f M warp-insts/s (target %.2f M/s): %s, %.0f%% of the target\n", r * 1e-6,
               TARGET_WARP_IPS * 1e-6, r >= TARGET_WARP_IPS ? "met" : "NOT met", 100.0 * r / TARGET_WARP_IPS);
    }
    int ta = find_threads(b, THREADS_AUTO);
    if (t1 >= 0 && ta >= 0) {
        unsigned worst_c = 0, worst_w = 0, worst_m = 0, n = 0, over = 0;
        double worst = 0;
        for (unsigned ci = 0; ci < b->n_cfgs; ci++)
            for (unsigned wi = 0; wi < b->n_wls; wi++)
                for (unsigned mi = 0; mi < b->n_modes; mi++) {
                    double s = speedup(b, ci, wi, mi, (unsigned)ta);
                    if (s <= 0)
                        continue;
                    n++;
                    over += 1.0 / s > TARGET_DEFAULT_SLOWDOWN;
                    if (1.0 / s > worst) {
                        worst = 1.0 / s;
                        worst_c = ci, worst_w = wi, worst_m = mi;
                    }
                }
        if (n)
            printf("- default threads (auto) against 1 thread%s: %u of %u runs more than %.0f%% slower; the worst, "
                   "%s %s %s, takes %.3fx the 1-thread time (target at most %.2fx): %s\n",
                   b->busy ? ", busy machine" : "", over, n, 100.0 * (TARGET_DEFAULT_SLOWDOWN - 1.0),
                   b->wls[worst_w].name, b->cfgs[worst_c].name, b->modes[worst_m].name, worst,
                   TARGET_DEFAULT_SLOWDOWN, over ? "NOT met" : "met");
    } else {
        printf("- default threads against 1 thread: not measured in this run (use --threads 1,...,auto)\n");
    }
    if (em < 0 || t1 < 0 || t2 < 0) {
        printf("- exact mode at 2 threads: not measured in this run (target %.1fx)\n", TARGET_SPEEDUP_2T);
        return;
    }
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++) {
            double s = speedup(b, ci, wi, (unsigned)em, (unsigned)t2);
            printf("- %s, %s, exact, 2 threads: ", b->wls[wi].name, b->cfgs[ci].name);
            if (s <= 0)
                printf("no speed-up (a run failed) (target %.1fx)\n", TARGET_SPEEDUP_2T);
            else
                printf("%.3fx (target %.1fx): %s\n", s, TARGET_SPEEDUP_2T, s >= TARGET_SPEEDUP_2T ? "met" : "NOT met");
        }
}

/* ---------------------------------------------------------- projection */

/* Barrier cost per quantum at k threads (s): arrivals are serialised on one
 * cache line, then one release; nothing at 1 thread. */
static double barrier_s(const struct bench *b, unsigned k)
{
    return k <= 1 ? 0.0 : (b->bar_arrive_ns * k + b->bar_release_ns) * 1e-9;
}

/* Projected kernel seconds at proj_threads[i] threads from a 1-thread run's
 * profile (bench/README.md, "Projection"): per quantum, the non-partition
 * time stays, the partition work becomes the busiest thread's share, and
 * the quantum pays the barrier and the messages that now cross threads.
 * NOTE(projection-refit): the message term is not divided among the
 * threads: fitted to the 16-core measurements of session 8 (8 runs at 4
 * and 16 threads), the time beyond the busiest thread's work grows with
 * the messages crossing threads, about 93 ns each, plus about 1.3 us per
 * quantum, and hardly with the thread count (the first model, 80 ns x k +
 * 300 ns and 150 ns per message shared by k threads, was 20-35 % too
 * optimistic at 16 threads). */
static double project(const struct bench *b, const struct cell *c, unsigned i)
{
    const struct eng_profile *p = &c->r.prof;
    if (!p->samples || !p->quanta || i >= p->n_proj)
        return 0.0;
    double q = (double)p->quanta, t1 = c->r.kernel_s;
    double work = p->work_s / p->samples, span = p->proj_makespan_s[i] / p->samples;
    double other = t1 / q - work;
    if (other < 0)
        other = 0;
    unsigned k = p->proj_threads[i];
    double msgs = (double)p->msgs / q * (1.0 - 1.0 / k); /* per quantum, crossing threads */
    return q * (span + other + barrier_s(b, k) + msgs * b->msg_ns * 1e-9);
}

static void print_projection(const struct bench *b)
{
    int t1 = find_threads(b, 1);
    if (t1 < 0)
        return;
    printf("## Projection for many cores\n\n");
    printf("From each 1-thread run's sampled partition work (bench/README.md, \"Projection\"): per quantum, W is\n"
           "the partition work, O the rest (serial step, message drain, clock reads), busiest the most-loaded\n"
           "partition; S(k) is the projected speed-up at k threads with the partitions balanced by measured work,\n"
           "plus %.0f ns x k + %.0f ns per quantum and %.0f ns per message crossing threads (refit to 16-core\n"
           "runs, NOTE(projection-refit)). **bound** is W+O over\n"
           "max(busiest, W/k)+O: imbalance alone, no barrier or message cost.\n\n",
           b->bar_arrive_ns, b->bar_release_ns, b->msg_ns);
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned mi = 0; mi < b->n_modes; mi++) {
            bool head = false;
            for (unsigned wi = 0; wi < b->n_wls; wi++) {
                const struct cell *c = cell_at(b, ci, wi, mi, (unsigned)t1);
                const struct eng_profile *p = &c->r.prof;
                if (!cell_ok(c) || !p->samples || !p->quanta)
                    continue;
                if (!head) {
                    printf("### %s, %s\n\n| workload | quanta | W us | O us | busiest us | msgs/quantum |", b->cfgs[ci].name,
                           b->modes[mi].name);
                    for (unsigned i = 1; i < p->n_proj; i++)
                        printf(" S(%u) |", p->proj_threads[i]);
                    printf(" bound(%u) |\n|:--|---:|---:|---:|---:|---:|", p->proj_threads[p->n_proj - 1]);
                    for (unsigned i = 1; i < p->n_proj; i++)
                        printf("---:|");
                    printf("---:|\n");
                    head = true;
                }
                double q = (double)p->quanta, work = p->work_s / p->samples, busy = p->max_part_s / p->samples;
                double other = MAX(c->r.kernel_s / q - work, 0.0);
                unsigned kmax = p->proj_threads[p->n_proj - 1];
                printf("| %s | %llu | %.2f | %.2f | %.2f | %.1f |", b->wls[wi].name, (unsigned long long)p->quanta,
                       work * 1e6, other * 1e6, busy * 1e6, (double)p->msgs / q);
                for (unsigned i = 1; i < p->n_proj; i++) {
                    double tk = project(b, c, i);
                    printf(" %.2fx |", tk > 0 ? c->r.kernel_s / tk : 0.0);
                }
                printf(" %.2fx |\n", (work + other) / (MAX(busy, work / kmax) + other));
            }
            if (head)
                printf("\n");
        }
    /* Where this machine has more than one thread measured: projection
     * against measurement. */
    bool head = false;
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned mi = 0; mi < b->n_modes; mi++)
            for (unsigned wi = 0; wi < b->n_wls; wi++)
                for (unsigned ti = 0; ti < b->n_threads; ti++) {
                    const struct cell *c1 = cell_at(b, ci, wi, mi, (unsigned)t1), *c = cell_at(b, ci, wi, mi, ti);
                    unsigned k = b->threads[ti];
                    if (k < 2 || !cell_ok(c) || !cell_ok(c1))
                        continue;
                    const struct eng_profile *p = &c1->r.prof;
                    for (unsigned i = 0; i < p->n_proj; i++) {
                        if (p->proj_threads[i] != k)
                            continue;
                        if (!head) {
                            printf("Measured here against projected (**x-msgs/q**: messages that crossed threads per "
                                   "quantum in the k-thread run, against the model's msgs x (1 - 1/k) from the "
                                   "1-thread run; NOTE(msgs-xthread)):\n\n| config | mode | workload | threads | "
                                   "measured | projected | x-msgs/q measured | x-msgs/q model |\n"
                                   "|:--|:--|:--|---:|---:|---:|---:|---:|\n");
                            head = true;
                        }
                        double tk = project(b, c1, i);
                        const struct eng_profile *pk = &c->r.prof;
                        double xq = pk->quanta ? (double)pk->msgs_xthread / (double)pk->quanta : 0.0;
                        double mq = p->quanta ? (double)p->msgs / (double)p->quanta * (1.0 - 1.0 / k) : 0.0;
                        printf("| %s | %s | %s | %u | %.2fx | %.2fx | %.1f | %.1f |\n", b->cfgs[ci].name,
                               b->modes[mi].name, b->wls[wi].name, k, speedup(b, ci, wi, mi, ti),
                               tk > 0 ? c1->r.kernel_s / tk : 0.0, xq, mq);
                    }
                }
    if (head)
        printf("\n");
}

/* --pin values: gs_host_opts.pin (include/gpusim.h: 0 none, 1 cores, 2 compact, 3 auto). */
static const char *const pin_names[] = {"none", "cores", "compact", "auto"};

static const char *pin_name(int pin) { return pin >= 0 && pin <= 3 ? pin_names[pin] : "?"; }

static int pin_parse(const char *s)
{
    for (int p = 0; p <= 3; p++)
        if (!strcmp(s, pin_names[p]))
            return p;
    return -1;
}

static const char *pin_text(int pin)
{
    switch (pin) {
    case 0: return "none (the OS places the threads)";
    case 1: return "one thread per physical core first (--pin cores)";
    case 2: return "compact (--pin compact)";
    default: return "auto, as gpusim run (one per physical core when a run's threads take every CPU, else none)";
    }
}

static void print_markdown(const struct bench *b)
{
    printf("# gpusim timing-mode speed and scaling%s\n\n", b->quick ? " (--quick)" : "");
    machine_print_markdown(&b->m);
    printf("- workload size %s, seed 1; %u run(s) per cell (the median kept); pinning: %s\n", wl_size_name(b->size),
           b->repeat ? b->repeat : 1, pin_text(b->pin));
    if (b->busy)
        printf("- **busy machine**: %u CPU-bound background processes ran during every measured run\n", b->busy);
    else
        printf("- quiet machine: no background processes started by the benchmark\n");
    printf("- total benchmark wall time: %.1f s; 1-minute load average %.2f before, %.2f after (a load above\n"
           "  the benchmark's own threads means other processes shared the CPUs)\n\n",
           b->total_s, b->load_start, b->load_end);
    printf("Columns: **kernel s** is host wall time inside kernels (the rates, speed-up and efficiency use it);\n"
           "**run s** is the whole run (inputs, copies, CPU reference, check); **CPU s** is the user + system\n"
           "CPU time of the run's process, all threads (CPU s / run s near the thread count means the threads\n"
           "were busy, near 1 that they mostly waited). **Mwi/s** is simulated warp\n"
           "instructions per host second (millions), **Kcyc/s** simulated core cycles per host second\n"
           "(thousands). **speed-up** is over the same workload and mode at 1 thread; **eff.** is speed-up /\n"
           "engine threads. **RSS** is the peak resident set of the run's process (MiB). **IPC** is thread\n"
           "instructions per core cycle; **IPC err** is relaxed IPC against exact IPC at the same threads.\n"
           "**threads** is the request (auto: the default); **active** is the mean number of threads that ran\n"
           "each quantum (the adaptive engine's choice) and **rep.** its re-partitions; **vs 1T** is kernel s\n"
           "over the 1-thread run's (above 1: slower).\n\n");
    for (unsigned ci = 0; ci < b->n_cfgs; ci++) {
        const struct config *cf = &b->cfgs[ci];
        printf("## %s (L = %llu ps)\n\n", cf->name, (unsigned long long)cf->l_ps);
        printf("| workload | mode | threads | active | rep. | kernel s | vs 1T | run s | CPU s | Mwi/s | Kcyc/s | speed-up "
               "| eff. | RSS MiB | cycles | IPC | IPC err | result |\n");
        printf("|:--|:--|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:--|\n");
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                for (unsigned ti = 0; ti < b->n_threads; ti++) {
                    const struct cell *c = cell_at(b, ci, wi, mi, ti);
                    char st[64], thr[48], sp[16] = "-", ef[16] = "-", ie[16] = "", v1[16] = "-";
                    unsigned used = cell_threads(b, c, ti);
                    thread_label(b, c, ti, thr, sizeof thr);
                    double s = speedup(b, ci, wi, mi, ti), err;
                    if (s > 0) {
                        snprintf(sp, sizeof sp, "%.2fx", s);
                        snprintf(ef, sizeof ef, "%.0f%%", 100.0 * s / used);
                        snprintf(v1, sizeof v1, "%.3f", 1.0 / s);
                    }
                    if (b->modes[mi].quantum_l)
                        snprintf(ie, sizeof ie, "-");
                    if (ipc_error(b, ci, wi, mi, ti, &err))
                        snprintf(ie, sizeof ie, "%+.2f%%", 100.0 * err);
                    if (!cell_ok(c)) { /* a failed run's rates mean nothing: only its cost */
                        printf("| %s | %s | %s | | | | | | %.2f | | | | | %.1f | | | | %s |\n", b->wls[wi].name,
                               b->modes[mi].name, thr, c->cpu_s, (double)c->maxrss_kib / 1024.0,
                               status_text(c, st, sizeof st));
                        continue;
                    }
                    printf("| %s | %s | %s | %.2f | %llu | %.2f | %s | %.2f | %.2f | %.3f | %.1f | %s | %s | %.1f | %llu "
                           "| %.2f | %s | %s |\n",
                           b->wls[wi].name, b->modes[mi].name, thr, active_mean(c),
                           (unsigned long long)c->r.adapt.repartitions, c->r.kernel_s, v1, c->r.run_s, c->cpu_s,
                           rate(c->r.warp_insts, c->r.kernel_s) * 1e-6, rate(c->r.cycles, c->r.kernel_s) * 1e-3,
                           sp, ef, (double)c->maxrss_kib / 1024.0, (unsigned long long)c->r.cycles,
                           ratio(c->r.thread_insts, c->r.cycles), ie, status_text(c, st, sizeof st));
                }
        bool first = true;
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                if (!thread_invariant(b, ci, wi, mi)) {
                    if (first)
                        printf("\n");
                    first = false;
                    printf("**Determinism:** %s %s: simulated cycles or instructions differ between thread "
                           "counts (they must not).\n",
                           b->wls[wi].name, b->modes[mi].name);
                }
        printf("\n");
    }
    print_projection(b);
    print_targets(b);
}

static void write_json(struct json_writer *w, void *arg)
{
    const struct bench *b = arg;
    jw_obj_begin(w, NULL);
    jw_str(w, "bench", "speed");
    jw_bool(w, "quick", b->quick);
    machine_write_json(&b->m, w);
    jw_str(w, "workload_size", wl_size_name(b->size));
    jw_u64(w, "seed", 1);
    jw_double(w, "total_seconds", b->total_s);
    jw_double(w, "load_average_start", b->load_start);
    jw_double(w, "load_average_end", b->load_end);
    jw_u64(w, "busy_processes", b->busy);
    jw_str(w, "pin", pin_name(b->pin));
    jw_u64(w, "runs_per_cell", b->repeat ? b->repeat : 1);
    jw_obj_begin(w, "targets");
    jw_double(w, "warp_insts_per_second_1thread", TARGET_WARP_IPS);
    jw_double(w, "speedup_2threads_exact", TARGET_SPEEDUP_2T);
    jw_double(w, "default_threads_max_slowdown", TARGET_DEFAULT_SLOWDOWN);
    jw_obj_end(w);
    jw_arr_begin(w, "configs");
    for (unsigned ci = 0; ci < b->n_cfgs; ci++) {
        jw_obj_begin(w, NULL);
        jw_str(w, "name", b->cfgs[ci].name);
        jw_u64(w, "lookahead_ps", b->cfgs[ci].l_ps);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_arr_begin(w, "runs");
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                for (unsigned ti = 0; ti < b->n_threads; ti++) {
                    const struct cell *c = cell_at(b, ci, wi, mi, ti);
                    if (c->r.status == RUN_NOT_RUN)
                        continue;
                    const struct mode *md = &b->modes[mi];
                    char st[64];
                    jw_obj_begin(w, NULL);
                    jw_str(w, "config", b->cfgs[ci].name);
                    jw_str(w, "workload", b->wls[wi].name);
                    jw_str(w, "mode", md->name);
                    jw_bool(w, "relaxed", md->quantum_l != 0);
                    jw_u64(w, "quantum_ps", (md->quantum_l ? md->quantum_l : 1) * b->cfgs[ci].l_ps);
                    if (b->threads[ti] == THREADS_AUTO)
                        jw_str(w, "threads_requested", "auto");
                    else
                        jw_u64(w, "threads_requested", b->threads[ti]);
                    jw_u64(w, "threads", cell_threads(b, c, ti));
                    jw_bool(w, "ok", cell_ok(c));
                    jw_str(w, "result", status_text(c, st, sizeof st));
                    jw_u64(w, "warp_insts", c->r.warp_insts);
                    jw_u64(w, "thread_insts", c->r.thread_insts);
                    jw_u64(w, "cycles", c->r.cycles);
                    jw_double(w, "ipc", ratio(c->r.thread_insts, c->r.cycles));
                    jw_double(w, "kernel_seconds", c->r.kernel_s);
                    jw_double(w, "run_seconds", c->r.run_s);
                    jw_double(w, "cpu_seconds", c->cpu_s);
                    jw_double(w, "warp_insts_per_second", rate(c->r.warp_insts, c->r.kernel_s));
                    jw_double(w, "cycles_per_second", rate(c->r.cycles, c->r.kernel_s));
                    double s = speedup(b, ci, wi, mi, ti), err;
                    if (s > 0) {
                        jw_double(w, "speedup", s);
                        jw_double(w, "efficiency", s / cell_threads(b, c, ti));
                    } else {
                        jw_null(w, "speedup");
                        jw_null(w, "efficiency");
                    }
                    jw_u64(w, "peak_rss_kib", (uint64_t)c->maxrss_kib);
                    jw_double(w, "active_threads_mean", active_mean(c));
                    jw_u64(w, "repartitions", c->r.adapt.repartitions);
                    jw_u64(w, "moves", c->r.adapt.moves);
                    jw_u64(w, "descheduled_windows", c->r.adapt.desched_windows);
                    const struct eng_profile *pf = &c->r.prof;
                    jw_obj_begin(w, "profile");
                    jw_u64(w, "quanta", pf->quanta);
                    jw_u64(w, "sampled_quanta", pf->samples);
                    jw_u64(w, "messages", pf->msgs);
                    jw_u64(w, "messages_cross_thread", pf->msgs_xthread);
                    jw_double(w, "serial_seconds", pf->serial_s);
                    jw_double(w, "sampled_work_seconds", pf->work_s);
                    jw_double(w, "sampled_busiest_partition_seconds", pf->max_part_s);
                    jw_arr_begin(w, "projection");
                    for (unsigned i = 0; i < pf->n_proj; i++) {
                        double tk = b->threads[ti] == 1 ? project(b, c, i) : 0.0;
                        jw_obj_begin(w, NULL);
                        jw_u64(w, "threads", pf->proj_threads[i]);
                        jw_double(w, "sampled_busiest_thread_seconds", pf->proj_makespan_s[i]);
                        if (tk > 0)
                            jw_double(w, "projected_speedup", c->r.kernel_s / tk);
                        else
                            jw_null(w, "projected_speedup");
                        jw_obj_end(w);
                    }
                    jw_arr_end(w);
                    jw_obj_end(w);
                    if (ipc_error(b, ci, wi, mi, ti, &err))
                        jw_double(w, "ipc_error", err);
                    else
                        jw_null(w, "ipc_error");
                    jw_obj_end(w);
                }
    jw_arr_end(w);
    jw_arr_begin(w, "thread_variant"); /* (config, workload, mode) whose results changed with threads */
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                if (!thread_invariant(b, ci, wi, mi)) {
                    jw_obj_begin(w, NULL);
                    jw_str(w, "config", b->cfgs[ci].name);
                    jw_str(w, "workload", b->wls[wi].name);
                    jw_str(w, "mode", b->modes[mi].name);
                    jw_obj_end(w);
                }
    jw_arr_end(w);
    jw_obj_end(w);
    jw_finish(w);
}

/* ------------------------------------------------------------ options */

static void usage(FILE *out)
{
    fputs("usage: speed [--quick] [--workloads a,b,...] [--size tiny|small|medium|large]\n"
          "             [--configs gtx480,fermi16,fermi24] [--max-threads N | --threads LIST]\n"
          "             [--modes exact,nosteal,relaxed4,relaxed16] [--busy N] [--repeat N] [--compute-iters N]\n"
          "             [--pin auto|cores|compact|none]\n"
          "             [--barrier-ns A,B] [--msg-ns N] [--json FILE] [--help]\n"
          "Timing-mode speed and scaling: every workload x config x mode x threads, one run each.\n"
          "  --quick        tiny size, gtx480, threads 1 and 2, sgemm and bfs (CI smoke)\n"
          "  --workloads L  default sgemm,bfs,hotspot,histo; computeN = the compute kernel on N CTAs\n"
          "  --size S       default medium\n"
          "  --configs L    presets or .cfg files, default gtx480,fermi16,fermi24\n"
          "  --max-threads N  threads 1..4, then powers of two, up to N (default 2x online CPUs)\n"
          "  --threads L    thread counts instead, e.g. 1,2,auto (auto: the default of gpusim run)\n"
          "  --modes L      exact, relaxedK (quantum K x lookahead), nosteal (exact without sync.steal);\n"
          "                 default exact,relaxed4,relaxed16\n"
          "  --busy N       N CPU-bound background processes during every measured run (default 0)\n"
          "  --repeat N     runs per cell; the one with the median kernel time is reported (default 1)\n"
          "  --pin P        thread pinning of every run, as gpusim run --pin (default auto, gpusim run's)\n"
          "  --compute-iters N  loop trips of computeN (default 4000)\n"
          "  --barrier-ns A,B   projection: barrier cost A ns x threads + B ns per quantum (default 0,1290)\n"
          "  --msg-ns N     projection: cost of one message crossing threads, per quantum (default 93)\n"
          "  --json FILE    also write the results as JSON (atomically, after every run)\n",
          out);
}

/* Split a comma-separated list in place; returns the count, or -1 when
 * there are more than max items or an item is empty. */
static int split_list(char *s, char **out, unsigned max)
{
    unsigned n = 0;
    for (char *p = s;;) {
        char *e = strchr(p, ',');
        if (e)
            *e = '\0';
        if (!*p || n == max)
            return -1;
        out[n++] = p;
        if (!e)
            break;
        p = e + 1;
    }
    return (int)n;
}

static bool parse_mode(const char *s, struct mode *m)
{
    if (strlen(s) >= sizeof m->name)
        return false;
    snprintf(m->name, sizeof m->name, "%s", s);
    m->nosteal = !strcmp(s, "nosteal");
    if (!strcmp(s, "exact") || m->nosteal) {
        m->quantum_l = 0;
        return true;
    }
    if (strncmp(s, "relaxed", 7) || !s[7])
        return false;
    char *end;
    unsigned long k = strtoul(s + 7, &end, 10);
    if (*end || k < 1 || k > 1000000)
        return false;
    m->quantum_l = (unsigned)k;
    return true;
}

/* Thread counts 1, 2, 3, 4, then powers of two, and max itself. */
static void make_thread_list(struct bench *b)
{
    b->n_threads = 0;
    for (unsigned t = 1; t <= b->max_threads && b->n_threads < MAX_THREADS; t++)
        if (t <= 4 || (t & (t - 1)) == 0 || t == b->max_threads)
            b->threads[b->n_threads++] = t;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "speed: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    usage(stderr);
    return 2;
}

/* Parses argv into b; returns -1 to go on, else the exit code. lists holds
 * the strdup'd list arguments (freed by the caller). */
static int parse_args(struct bench *b, int argc, char **argv, char **lists)
{
    const char *wls = NULL, *cfgs = NULL, *modes = NULL, *size = NULL, *thr_list = NULL;
    b->compute_iters = 4000;
    b->bar_arrive_ns = 0;    /* NOTE(projection-refit) */
    b->bar_release_ns = 1290;
    b->msg_ns = 93;
    long max_threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(a, "--workloads") || !strcmp(a, "--size") || !strcmp(a, "--configs") ||
                     !strcmp(a, "--max-threads") || !strcmp(a, "--modes") || !strcmp(a, "--json") ||
                     !strcmp(a, "--threads") || !strcmp(a, "--busy") || !strcmp(a, "--compute-iters") ||
                     !strcmp(a, "--barrier-ns") || !strcmp(a, "--msg-ns") || !strcmp(a, "--repeat");
        if (takes && !v)
            return usage_error("%s needs a value", a);
        if (!strcmp(a, "--quick")) {
            b->quick = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--workloads")) {
            wls = v, i++;
        } else if (!strcmp(a, "--size")) {
            size = v, i++;
        } else if (!strcmp(a, "--configs")) {
            cfgs = v, i++;
        } else if (!strcmp(a, "--modes")) {
            modes = v, i++;
        } else if (!strcmp(a, "--json")) {
            b->json_path = v, i++;
        } else if (!strcmp(a, "--threads")) {
            thr_list = v, i++;
        } else if (!strcmp(a, "--busy")) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 0 || n > MAX_BUSY)
                return usage_error("--busy needs a number from 0 to 1024, got '%s'", v);
            b->busy = (unsigned)n;
            i++;
        } else if (!strcmp(a, "--pin")) {
            int p = pin_parse(v);
            if (p < 0)
                return usage_error("--pin takes auto, cores, compact or none, got '%s'", v);
            b->pin = p;
            i++;
        } else if (!strcmp(a, "--repeat")) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 100)
                return usage_error("--repeat needs a number from 1 to 100, got '%s'", v);
            b->repeat = (unsigned)n;
            i++;
        } else if (!strcmp(a, "--compute-iters")) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 100000000)
                return usage_error("--compute-iters needs a positive number, got '%s'", v);
            b->compute_iters = (int)n;
            i++;
        } else if (!strcmp(a, "--barrier-ns")) {
            if (sscanf(v, "%lf,%lf", &b->bar_arrive_ns, &b->bar_release_ns) != 2 || b->bar_arrive_ns < 0 ||
                b->bar_release_ns < 0)
                return usage_error("--barrier-ns needs A,B (ns per thread, ns per round), got '%s'", v);
            i++;
        } else if (!strcmp(a, "--msg-ns")) {
            char *end;
            b->msg_ns = strtod(v, &end);
            if (*end || b->msg_ns < 0)
                return usage_error("--msg-ns needs a non-negative number, got '%s'", v);
            i++;
        } else if (!strcmp(a, "--max-threads")) {
            char *end;
            max_threads = strtol(v, &end, 10);
            if (*end || max_threads < 1 || max_threads > 4096)
                return usage_error("--max-threads needs a number from 1 to 4096, got '%s'", v);
            i++;
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    /* Defaults; --quick changes them, explicit options override both. */
    if (!wls)
        wls = b->quick ? "sgemm,bfs" : "sgemm,bfs,hotspot,histo";
    if (!cfgs)
        cfgs = b->quick ? "gtx480" : "gtx480,fermi16,fermi24";
    if (!modes)
        modes = "exact,relaxed4,relaxed16";
    b->size = b->quick ? WL_TINY : WL_MEDIUM;
    if (size) {
        int s = wl_size_parse(size);
        if (s < 0)
            return usage_error("unknown size '%s'", size);
        b->size = (enum wl_size)s;
    }
    b->max_threads = max_threads ? (unsigned)max_threads : b->quick ? 2u : 2u * b->m.online;

    char *items[MAX_WLS];
    lists[0] = strdup(wls);
    int n = split_list(lists[0], items, MAX_WLS);
    if (n < 0)
        return usage_error("bad --workloads list '%s'", wls);
    for (int k = 0; k < n; k++) {
        struct bwl *w = &b->wls[b->n_wls++];
        memset(w, 0, sizeof *w);
        snprintf(w->name, sizeof w->name, "%s", items[k]);
        w->e = wl_find(items[k]);
        if (w->e)
            continue;
        char *end;
        long g = !strncmp(items[k], "compute", 7) ? strtol(items[k] + 7, &end, 10) : 0;
        if (g < 1 || g > 100000 || *end)
            return usage_error("unknown workload '%s' (see 'gpusim list'; or computeN)", items[k]);
        w->grid = (unsigned)g;
    }
    lists[1] = strdup(cfgs);
    n = split_list(lists[1], items, MAX_CONFIGS);
    if (n < 0)
        return usage_error("bad --configs list '%s'", cfgs);
    for (int k = 0; k < n; k++) {
        struct config *c = &b->cfgs[b->n_cfgs++];
        c->name = items[k];
        c->l_ps = config_lookahead_ps(items[k]);
        if (!c->l_ps) {
            fprintf(stderr, "speed: configuration '%s' does not load\n", items[k]);
            return 2;
        }
    }
    lists[2] = strdup(modes);
    n = split_list(lists[2], items, MAX_MODES);
    if (n < 0)
        return usage_error("bad --modes list '%s'", modes);
    for (int k = 0; k < n; k++)
        if (!parse_mode(items[k], &b->modes[b->n_modes++]))
            return usage_error("unknown mode '%s' (exact, nosteal or relaxedK, K >= 1)", items[k]);
    if (thr_list) {
        lists[3] = strdup(thr_list);
        n = split_list(lists[3], items, MAX_THREADS);
        if (n < 0)
            return usage_error("bad --threads list '%s'", thr_list);
        b->n_threads = 0;
        for (int k = 0; k < n; k++) {
            char *end;
            long t = !strcmp(items[k], "auto") ? (long)THREADS_AUTO : strtol(items[k], &end, 10);
            if (strcmp(items[k], "auto") && (*end || t < 1 || t > 4096))
                return usage_error("--threads items are numbers from 1 to 4096 or auto, got '%s'", items[k]);
            b->threads[b->n_threads++] = (unsigned)t;
        }
    } else {
        make_thread_list(b);
    }
    return -1;
}

static int write_json_file(const struct bench *b)
{
    if (!b->json_path)
        return 0;
    char err[256];
    if (json_write_atomic(b->json_path, write_json, (void *)b, err, sizeof err) != 0) {
        fprintf(stderr, "speed: %s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct bench *b = calloc(1, sizeof *b);
    char *lists[4] = {NULL, NULL, NULL, NULL};
    if (!b) {
        perror("speed");
        return 1;
    }
    b->pin = 3; /* auto, as gpusim run */
    machine_probe(&b->m);
    int rc = parse_args(b, argc, argv, lists);
    if (rc >= 0)
        goto out;
    rc = 0;

    size_t n_cells = (size_t)b->n_cfgs * b->n_wls * b->n_modes * b->n_threads;
    b->cells = calloc(n_cells, sizeof *b->cells);
    if (!b->cells) {
        perror("speed");
        rc = 1;
        goto out;
    }
    for (size_t i = 0; i < n_cells; i++)
        b->cells[i].r.status = RUN_NOT_RUN;

    double t_start = now_s();
    b->load_start = b->load_end = load_average();
    size_t done = 0, n_runs = n_cells * (b->repeat ? b->repeat : 1);
    /* NOTE(interleave): with --repeat N the thread counts of a (config,
     * workload, mode) are measured in N rounds, each round every count once
     * in turn, and each cell reports its median; a machine whose speed
     * drifts (the 2-core VM's varied by 40 % within an hour) then slows or
     * speeds all counts alike, so the speed-ups and the default-threads
     * check, ratios within one run, compare runs made side by side. Until
     * session 35 the N runs of one count came one after another. */
    unsigned reps = b->repeat ? b->repeat : 1;
    struct cell *runs = calloc((size_t)b->n_threads * reps, sizeof *runs);
    if (!runs) {
        perror("speed");
        rc = 1;
        goto out;
    }
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++) {
                for (unsigned k = 0; k < reps; k++)
                    for (unsigned ti = 0; ti < b->n_threads; ti++) {
                        struct cell *c = &runs[(size_t)ti * reps + k];
                        char tl[16];
                        if (b->threads[ti] == THREADS_AUTO)
                            snprintf(tl, sizeof tl, "auto");
                        else
                            snprintf(tl, sizeof tl, "%u", b->threads[ti]);
                        fprintf(stderr, "[%zu/%zu] %s %s %s %s threads=%s%s ...\n", ++done, n_runs,
                                b->cfgs[ci].name, b->wls[wi].name, wl_size_name(b->size), b->modes[mi].name, tl,
                                b->busy ? " (busy)" : "");
                        measure_once(b, ci, wi, mi, ti, c);
                        char st[64];
                        fprintf(stderr, "        %.2f s in kernels, %.2f s run, %.2f CPU s, %.3f M warp-insts/s, "
                                "%.1f MiB, %.2f threads active, %llu re-partitions: %s\n",
                                c->r.kernel_s, c->r.run_s, c->cpu_s, rate(c->r.warp_insts, c->r.kernel_s) * 1e-6,
                                (double)c->maxrss_kib / 1024.0, active_mean(c),
                                (unsigned long long)c->r.adapt.repartitions, status_text(c, st, sizeof st));
                        if (k + 1 == reps) { /* the cell's last run: its median is known */
                            struct cell *cell = cell_at(b, ci, wi, mi, ti);
                            pick_median(&runs[(size_t)ti * reps], reps, cell);
                            if (!cell_ok(cell))
                                rc = 1;
                        }
                        b->total_s = now_s() - t_start;
                        b->load_end = load_average();
                        if (write_json_file(b))
                            rc = 1;
                    }
            }
    free(runs);
    print_markdown(b);
    fflush(stdout);
    if (rc)
        fprintf(stderr, "speed: some runs failed (see the result column)\n");

out:
    for (int i = 0; i < 4; i++)
        free(lists[i]);
    free(b->cells);
    free(b);
    return rc;
}
