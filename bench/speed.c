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
 * Modes: exact (sync.quantum = L, the lookahead) and relaxedK
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
 * Prints Markdown on stdout; --json FILE writes the same numbers and the
 * machine (rewritten atomically after every cell, so an interrupted full run
 * keeps what it measured). Progress lines go to stderr.
 * Options: --workloads LIST, --size S, --configs LIST, --max-threads N,
 * --modes LIST, --quick, --json FILE, --help (bench/README.md, "speed").
 */
#include <errno.h>
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
#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/base/json.h"
#include "sim/cfg/sim_cfg.h"
#include "support/machine.h"
#include "wl.h"

#define MAX_CONFIGS 16
#define MAX_WLS 64
#define MAX_MODES 8
#define MAX_THREADS 64 /* thread counts in the sweep (not the largest count) */

/* The project's targets (issue text): 1 M warp instructions per host second
 * on one thread for sgemm and bfs on gtx480, and >= 1.8x at 2 threads in
 * exact mode. */
#define TARGET_WARP_IPS 1e6
#define TARGET_SPEEDUP_2T 1.8

/* Outcome of a cell beyond enum wl_status. */
enum {
    RUN_NOT_RUN = -1,   /* not measured (yet) */
    RUN_CRASHED = 100,  /* the child died of a signal */
    RUN_NO_RESULT = 101 /* the child exited without writing its result */
};

struct mode {
    char name[16];      /* "exact", "relaxed4", ... */
    unsigned quantum_l; /* quantum in units of L; 0 = exact (quantum = L, sync.relaxed = false) */
};

struct config {
    const char *name; /* preset or .cfg path */
    uint64_t l_ps;    /* lookahead L (ps) = icnt.min_latency x icnt period */
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
    const struct wl_entry *wls[MAX_WLS];
    unsigned n_wls;
    struct mode modes[MAX_MODES];
    unsigned n_modes;
    unsigned threads[MAX_THREADS]; /* requested host threads, ascending */
    unsigned n_threads;
    unsigned max_threads;          /* --max-threads */
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

/* Engine threads of the run, from the "host" object of the statistics JSON
 * (docs/stats.md: "host" is the last member and holds "threads"); the public
 * API has no getter for it. 0 when it cannot be read. */
static unsigned stats_host_threads(gs_ctx *ctx)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/gpusim-speed-%ld.json", dir && *dir ? dir : "/tmp", (long)getpid());
    unsigned threads = 0;
    if (gs_stats_write(ctx, path) != 0)
        return 0;
    FILE *f = fopen(path, "r");
    if (f) {
        char line[256];
        bool in_host = false;
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "  \"host\": {", 11))
                in_host = true;
            const char *p = in_host ? strstr(line, "\"threads\": ") : NULL;
            if (p) {
                threads = (unsigned)strtoul(p + 11, NULL, 10);
                break;
            }
        }
        fclose(f);
    }
    unlink(path);
    return threads;
}

/* In the child: run the workload and collect its statistics. */
static struct run_result run_in_child(const struct wl_entry *e, const char *config, const char *const *overrides,
                                      enum wl_size size, unsigned threads)
{
    struct run_result r = {0};
    struct wl_run_opts o = {
        .config = config,
        .overrides = overrides,
        .size = size,
        .seed = 1,
        .quiet = true,
        /* pin 1 = one thread per physical core first, the default of
         * `gpusim run`, so the numbers are what a user of the CLI sees. */
        .host = {.threads = threads, .pin = 1},
    };
    gs_ctx *ctx = NULL;
    double t0 = now_s();
    r.status = wl_run(e, &o, &ctx);
    r.run_s = now_s() - t0;
    if (ctx) {
        gs_stats_get_u64(ctx, "func.warp_insts", &r.warp_insts);
        gs_stats_get_u64(ctx, "func.thread_insts", &r.thread_insts);
        gs_stats_get_u64(ctx, "gpu.cycles", &r.cycles);
        r.kernel_s = gs_host_kernel_seconds(ctx);
        r.threads_used = stats_host_threads(ctx);
        gs_ctx_destroy(ctx);
    }
    return r;
}

/* Measure one cell in a forked child; fills c. */
static void measure(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti, struct cell *c)
{
    const struct mode *md = &b->modes[mi];
    char quantum[64];
    snprintf(quantum, sizeof quantum, "sync.quantum=%llups",
             (unsigned long long)(md->quantum_l * b->cfgs[ci].l_ps));
    const char *ov_exact[] = {"sim.mode=timing", NULL};
    const char *ov_relaxed[] = {"sim.mode=timing", "sync.relaxed=true", quantum, NULL};
    const char *const *ov = md->quantum_l ? ov_relaxed : ov_exact;

    memset(c, 0, sizeof *c);
    c->r.status = RUN_NO_RESULT;
    int fd[2];
    if (pipe(fd) != 0) {
        perror("speed: pipe");
        c->signal = -1;
        return;
    }
    fflush(NULL); /* nothing buffered may be written twice */
    pid_t pid = fork();
    if (pid < 0) {
        perror("speed: fork");
        close(fd[0]);
        close(fd[1]);
        c->signal = -1;
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        struct run_result r = run_in_child(b->wls[wi], b->cfgs[ci].name, ov, b->size, b->threads[ti]);
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

/* ------------------------------------------------------------ derived */

/* Speed-up of a cell over 1 thread (kernel seconds); 0 when unknown. */
static double speedup(const struct bench *b, unsigned ci, unsigned wi, unsigned mi, unsigned ti)
{
    const struct cell *c = cell_at(b, ci, wi, mi, ti), *base = cell_at(b, ci, wi, mi, 0);
    if (b->threads[0] != 1 || !cell_ok(c) || !cell_ok(base) || c->r.kernel_s <= 0)
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
        if (!strcmp(b->wls[i]->desc->name, name))
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
    if (em < 0 || t1 < 0 || t2 < 0) {
        printf("- exact mode at 2 threads: not measured in this run (target %.1fx)\n", TARGET_SPEEDUP_2T);
        return;
    }
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++) {
            double s = speedup(b, ci, wi, (unsigned)em, (unsigned)t2);
            printf("- %s, %s, exact, 2 threads: ", b->wls[wi]->desc->name, b->cfgs[ci].name);
            if (s <= 0)
                printf("no speed-up (a run failed) (target %.1fx)\n", TARGET_SPEEDUP_2T);
            else
                printf("%.3fx (target %.1fx): %s\n", s, TARGET_SPEEDUP_2T, s >= TARGET_SPEEDUP_2T ? "met" : "NOT met");
        }
}

static void print_markdown(const struct bench *b)
{
    printf("# gpusim timing-mode speed and scaling%s\n\n", b->quick ? " (--quick)" : "");
    machine_print_markdown(&b->m);
    printf("- workload size %s, seed 1; one run per cell; threads pinned one per physical core first\n",
           wl_size_name(b->size));
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
           "instructions per core cycle; **IPC err** is relaxed IPC against exact IPC at the same threads.\n\n");
    for (unsigned ci = 0; ci < b->n_cfgs; ci++) {
        const struct config *cf = &b->cfgs[ci];
        printf("## %s (L = %llu ps)\n\n", cf->name, (unsigned long long)cf->l_ps);
        printf("| workload | mode | threads | kernel s | run s | CPU s | Mwi/s | Kcyc/s | speed-up | eff. | RSS MiB "
               "| cycles | IPC | IPC err | result |\n");
        printf("|:--|:--|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:--|\n");
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                for (unsigned ti = 0; ti < b->n_threads; ti++) {
                    const struct cell *c = cell_at(b, ci, wi, mi, ti);
                    char st[64], thr[32], sp[16] = "-", ef[16] = "-", ie[16] = "";
                    unsigned used = cell_threads(b, c, ti);
                    if (used != b->threads[ti])
                        snprintf(thr, sizeof thr, "%u (%u used)", b->threads[ti], used);
                    else
                        snprintf(thr, sizeof thr, "%u", used);
                    double s = speedup(b, ci, wi, mi, ti), err;
                    if (s > 0) {
                        snprintf(sp, sizeof sp, "%.2fx", s);
                        snprintf(ef, sizeof ef, "%.0f%%", 100.0 * s / used);
                    }
                    if (b->modes[mi].quantum_l)
                        snprintf(ie, sizeof ie, "-");
                    if (ipc_error(b, ci, wi, mi, ti, &err))
                        snprintf(ie, sizeof ie, "%+.2f%%", 100.0 * err);
                    if (!cell_ok(c)) { /* a failed run's rates mean nothing: only its cost */
                        printf("| %s | %s | %s | | | %.2f | | | | | %.1f | | | | %s |\n", b->wls[wi]->desc->name,
                               b->modes[mi].name, thr, c->cpu_s, (double)c->maxrss_kib / 1024.0,
                               status_text(c, st, sizeof st));
                        continue;
                    }
                    printf("| %s | %s | %s | %.2f | %.2f | %.2f | %.3f | %.1f | %s | %s | %.1f | %llu | %.2f | %s "
                           "| %s |\n",
                           b->wls[wi]->desc->name, b->modes[mi].name, thr, c->r.kernel_s, c->r.run_s, c->cpu_s,
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
                           b->wls[wi]->desc->name, b->modes[mi].name);
                }
        printf("\n");
    }
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
    jw_obj_begin(w, "targets");
    jw_double(w, "warp_insts_per_second_1thread", TARGET_WARP_IPS);
    jw_double(w, "speedup_2threads_exact", TARGET_SPEEDUP_2T);
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
                    jw_str(w, "workload", b->wls[wi]->desc->name);
                    jw_str(w, "mode", md->name);
                    jw_bool(w, "relaxed", md->quantum_l != 0);
                    jw_u64(w, "quantum_ps", (md->quantum_l ? md->quantum_l : 1) * b->cfgs[ci].l_ps);
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
                    jw_str(w, "workload", b->wls[wi]->desc->name);
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
          "             [--configs gtx480,fermi16,fermi24] [--max-threads N]\n"
          "             [--modes exact,relaxed4,relaxed16] [--json FILE] [--help]\n"
          "Timing-mode speed and scaling: every workload x config x mode x threads, one run each.\n"
          "  --quick        tiny size, gtx480, threads 1 and 2, sgemm and bfs (CI smoke)\n"
          "  --workloads L  default sgemm,bfs,hotspot,histo\n"
          "  --size S       default medium\n"
          "  --configs L    presets or .cfg files, default gtx480,fermi16,fermi24\n"
          "  --max-threads N  threads 1..4, then powers of two, up to N (default 2x online CPUs)\n"
          "  --modes L      exact, relaxedK (quantum K x lookahead); default exact,relaxed4,relaxed16\n"
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
    if (!strcmp(s, "exact")) {
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
    const char *wls = NULL, *cfgs = NULL, *modes = NULL, *size = NULL;
    long max_threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(a, "--workloads") || !strcmp(a, "--size") || !strcmp(a, "--configs") ||
                     !strcmp(a, "--max-threads") || !strcmp(a, "--modes") || !strcmp(a, "--json");
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
        const struct wl_entry *e = wl_find(items[k]);
        if (!e)
            return usage_error("unknown workload '%s' (see 'gpusim list')", items[k]);
        b->wls[b->n_wls++] = e;
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
            return usage_error("unknown mode '%s' (exact or relaxedK, K >= 1)", items[k]);
    make_thread_list(b);
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
    char *lists[3] = {NULL, NULL, NULL};
    if (!b) {
        perror("speed");
        return 1;
    }
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
    size_t done = 0;
    for (unsigned ci = 0; ci < b->n_cfgs; ci++)
        for (unsigned wi = 0; wi < b->n_wls; wi++)
            for (unsigned mi = 0; mi < b->n_modes; mi++)
                for (unsigned ti = 0; ti < b->n_threads; ti++) {
                    struct cell *c = cell_at(b, ci, wi, mi, ti);
                    fprintf(stderr, "[%zu/%zu] %s %s %s %s threads=%u ...\n", ++done, n_cells, b->cfgs[ci].name,
                            b->wls[wi]->desc->name, wl_size_name(b->size), b->modes[mi].name, b->threads[ti]);
                    measure(b, ci, wi, mi, ti, c);
                    char st[64];
                    fprintf(stderr, "        %.2f s in kernels, %.2f s run, %.2f CPU s, %.3f M warp-insts/s, "
                            "%.1f MiB: %s\n",
                            c->r.kernel_s, c->r.run_s, c->cpu_s, rate(c->r.warp_insts, c->r.kernel_s) * 1e-6,
                            (double)c->maxrss_kib / 1024.0, status_text(c, st, sizeof st));
                    if (!cell_ok(c))
                        rc = 1;
                    b->total_s = now_s() - t_start;
                    b->load_end = load_average();
                    if (write_json_file(b))
                        rc = 1;
                }
    print_markdown(b);
    fflush(stdout);
    if (rc)
        fprintf(stderr, "speed: some runs failed (see the result column)\n");

out:
    for (int i = 0; i < 3; i++)
        free(lists[i]);
    free(b->cells);
    free(b);
    return rc;
}
