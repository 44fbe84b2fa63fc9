/* sim/app/main.c: the gpusim command.
 *
 *   gpusim run <workload> [options]     run one workload of workloads/ and verify it
 *   gpusim list                         workloads and presets
 *   gpusim synth [run options]          synthetic engine-validation model
 *   gpusim config --list                every configuration key
 *   gpusim config --show [P] [-o k=v]   resolved configuration of preset/file P
 *   gpusim presets                      preset names
 *   gpusim sweep FILE -o OUT [options]  run a sweep of jobs (sim/app/sweep.h)
 *   gpusim report OUT [options]         tables and figures of a sweep (sim/app/report.h)
 *   gpusim version | help
 *
 * Exit codes: 0 ok; 1 simulation failure or interrupted run; 2 usage,
 * configuration or input error.
 *
 * Signals: SIGINT and SIGTERM are blocked in every thread and taken by a
 * watcher thread with sigwait, which sets an atomic stop flag that the engine
 * reads at the next quantum boundary. The run then writes the statistics
 * gathered so far with "complete": false. No global state is needed.
 * `gpusim run` does the same in both modes: timing mode stops at the next
 * quantum boundary, functional mode after the current round of warp turns.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/base/json.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/base/stats.h"
#include "sim/gpu/eng_json.h"
#include "partitions/dram/dram_icl_cost.h"
#include "sim/app/report.h"
#include "sim/app/summary.h"
#include "sim/app/sweep.h"
#include "sim/synth/synth.h"
#include "sim/base/version.h"
#include "sync/engine.h"
#include "wl.h"

enum { EXIT_OK = 0, EXIT_SIMFAIL = 1, EXIT_USAGE = 2 };

#define MAX_OVERRIDES 256

struct cli {
    const char *command;
    const char *config;                  /* --config: preset or path (NULL = gtx480) */
    const char *overrides[MAX_OVERRIDES]; /* -o key=value */
    unsigned n_overrides;
    const char *stats_path;              /* --stats */
    struct eng_run_opts run;             /* threads and pinning */
    bool quiet;                          /* --quiet */
    bool list, show;                     /* config --list / --show */
    const char *show_target;
    const char *positional;              /* run: the workload name */
    int size;                            /* run --size: enum wl_size */
    uint64_t seed;                       /* run --seed */
    const char *ptx_path;                /* run --ptx: replacement kernel PTX */
    bool markdown;                       /* list --markdown */
    char profile_ov[2][4200];            /* run --profile-out/--profile-in as ptx.profile_* overrides */
};

/* ------------------------------------------------------------- signals */

struct sigwatch {
    pthread_t tid;
    sigset_t set;       /* SIGINT, SIGTERM, SIGUSR2 (SIGUSR2 = shut the watcher down) */
    atomic_u32 stop;    /* set to 1 on SIGINT/SIGTERM; read by the engine */
    atomic_u32 signo;   /* the signal received */
};

static void *sigwatch_main(void *arg)
{
    struct sigwatch *w = arg;
    for (;;) {
        int sig = 0;
        if (sigwait(&w->set, &sig) != 0)
            continue;
        if (sig == SIGUSR2)
            return NULL;
        at_store_rel_u32(&w->signo, (uint32_t)sig);
        at_store_rel_u32(&w->stop, 1); /* pairs with the engine's acquire load */
    }
}

static void sigwatch_start(struct sigwatch *w)
{
    sigemptyset(&w->set);
    sigaddset(&w->set, SIGINT);
    sigaddset(&w->set, SIGTERM);
    sigaddset(&w->set, SIGUSR2);
    atomic_init(&w->stop, 0);
    atomic_init(&w->signo, 0);
    pthread_sigmask(SIG_BLOCK, &w->set, NULL); /* inherited by every thread created later */
    if (pthread_create(&w->tid, NULL, sigwatch_main, w) != 0) {
        fprintf(stderr, "gpusim: cannot start the signal watcher\n");
        exit(EXIT_SIMFAIL);
    }
}

static void sigwatch_stop(struct sigwatch *w)
{
    pthread_kill(w->tid, SIGUSR2);
    pthread_join(w->tid, NULL);
}

/* ---------------------------------------------------------------- usage */

static void usage(FILE *out)
{
    fputs("usage: gpusim <command> [options]\n"
          "\n"
          "commands:\n"
          "  run <workload>         run one workload (see 'gpusim list') and verify its result\n"
          "  list [--markdown]      list the workloads and the configuration presets\n"
          "                         (--markdown: the workload table of workloads/README.md)\n"
          "  synth                  run the synthetic engine-validation model\n"
          "  config --list          list every configuration key (type, default, range, doc)\n"
          "  config --show [P]      print the resolved configuration of preset or file P\n"
          "  presets                list the configuration presets\n"
          "  sweep FILE -o OUT      run a sweep of jobs (gpusim sweep --help; docs/experiments.md)\n"
          "  report OUT             tables and figures of a sweep (gpusim report --help; docs/report.md)\n"
          "  version                print version and git revision\n"
          "  help                   this text\n"
          "\n"
          "run options:\n"
          "  -c, --config P         preset name (e.g. gtx480) or .cfg file (default gtx480)\n"
          "  -o key=value           override one configuration key (repeatable)\n"
          "  --threads N|auto       most host threads (default auto: the idle CPUs now, at most a cgroup\n"
          "                         CPU quota, the physical cores and the partitions; sync.adaptive runs\n"
          "                         fewer when faster)\n"
          "  --sm-threads N         host threads for SM partitions (with --mem-threads)\n"
          "  --mem-threads N        host threads for memory partitions (with --sm-threads)\n"
          "  --pin auto|none|cores|compact  thread pinning (cores: one per physical core first, within\n"
          "                         the process's CPU binding; default auto: cores when the run's\n"
          "                         threads take every CPU it may use, else none)\n"
          "  --stats FILE           write statistics as JSON (atomically)\n"
          "  -q, --quiet            no progress line on stderr\n"
          "\n"
          "workload options (run):\n"
          "  --size tiny|small|medium|large  input size class (default small)\n"
          "  --seed N               input seed (default 1)\n"
          "  --ptx FILE             run this PTX instead of the workload's own kernel.ptx (with the\n"
          "                         register counts of FILE.regs when it exists)\n"
          "  --profile-out FILE     record a profile of every launch (functional mode; = -o ptx.profile_out=FILE)\n"
          "  --profile-in FILE      load a profile for the kernel-time passes (= -o ptx.profile_in=FILE)\n"
          "\n"
          "exit codes: 0 ok, 1 simulation failure or interrupted, 2 usage or configuration error\n",
          out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpusim: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'gpusim help'.\n");
    return EXIT_USAGE;
}

static bool parse_uint(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v > 100000 || s[0] == '-')
        return false;
    *out = (unsigned)v;
    return true;
}

/* Returns -1 on success, else an exit code. */
static int parse_args(int argc, char **argv, struct cli *c)
{
    memset(c, 0, sizeof *c);
    c->run.pin = ENG_PIN_AUTO;
    c->size = WL_SMALL;
    c->seed = 1;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    c->command = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
#define NEED_VAL()                                                                              \
    do {                                                                                        \
        if (!val)                                                                               \
            return usage_error("option '%s' needs a value", a);                                 \
        i++;                                                                                    \
    } while (0)
        if (!strcmp(a, "-c") || !strcmp(a, "--config")) {
            NEED_VAL();
            c->config = val;
        } else if (!strcmp(a, "-o")) {
            NEED_VAL();
            if (c->n_overrides == MAX_OVERRIDES)
                return usage_error("more than %s -o overrides", "256");
            c->overrides[c->n_overrides++] = val;
        } else if (!strncmp(a, "-o", 2) && a[2]) {
            if (c->n_overrides == MAX_OVERRIDES)
                return usage_error("more than %s -o overrides", "256");
            c->overrides[c->n_overrides++] = a + 2;
        } else if (!strcmp(a, "--threads")) {
            NEED_VAL();
            if (!strcmp(val, "auto"))
                c->run.threads = 0; /* the engine counts the idle CPUs (eng_auto_threads) */
            else if (!parse_uint(val, &c->run.threads) || c->run.threads == 0)
                return usage_error("--threads needs a positive number or 'auto', got '%s'", val);
        } else if (!strcmp(a, "--sm-threads")) {
            NEED_VAL();
            if (!parse_uint(val, &c->run.sm_threads) || c->run.sm_threads == 0)
                return usage_error("--sm-threads needs a positive number, got '%s'", val);
        } else if (!strcmp(a, "--mem-threads")) {
            NEED_VAL();
            if (!parse_uint(val, &c->run.mem_threads) || c->run.mem_threads == 0)
                return usage_error("--mem-threads needs a positive number, got '%s'", val);
        } else if (!strcmp(a, "--pin")) {
            NEED_VAL();
            if (!strcmp(val, "none"))
                c->run.pin = ENG_PIN_NONE;
            else if (!strcmp(val, "cores"))
                c->run.pin = ENG_PIN_CORES;
            else if (!strcmp(val, "compact"))
                c->run.pin = ENG_PIN_COMPACT;
            else if (!strcmp(val, "auto"))
                c->run.pin = ENG_PIN_AUTO;
            else
                return usage_error("--pin takes auto, none, cores or compact, got '%s'", val);
        } else if (!strcmp(a, "--stats")) {
            NEED_VAL();
            c->stats_path = val;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            c->quiet = true;
        } else if (!strcmp(a, "--list")) {
            c->list = true;
        } else if (!strcmp(a, "--show")) {
            c->show = true;
            if (val && val[0] != '-') {
                c->show_target = val;
                i++;
            }
        } else if (!strcmp(a, "--size")) {
            NEED_VAL();
            if ((c->size = wl_size_parse(val)) < 0)
                return usage_error("--size takes tiny, small, medium or large, got '%s'", val);
        } else if (!strcmp(a, "--seed")) {
            NEED_VAL();
            char *end;
            errno = 0;
            unsigned long long sv = strtoull(val, &end, 0);
            if (errno || end == val || *end || val[0] == '-')
                return usage_error("--seed needs a non-negative integer, got '%s'", val);
            c->seed = sv;
        } else if (!strcmp(a, "--markdown")) {
            c->markdown = true;
        } else if (!strcmp(a, "--ptx")) {
            NEED_VAL();
            c->ptx_path = val;
        } else if (!strcmp(a, "--profile-out") || !strcmp(a, "--profile-in")) {
            NEED_VAL();
            bool out = !strcmp(a, "--profile-out");
            if (c->n_overrides == MAX_OVERRIDES)
                return usage_error("more than %s -o overrides", "256");
            if (!val[0] || strlen(val) > 4096)
                return usage_error("%s needs a file name of 1 to 4096 bytes", a);
            snprintf(c->profile_ov[out ? 0 : 1], sizeof c->profile_ov[0], "ptx.profile_%s=%s", out ? "out" : "in", val);
            c->overrides[c->n_overrides++] = c->profile_ov[out ? 0 : 1];
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(EXIT_OK);
        } else if (a[0] != '-' && !c->positional && !strcmp(c->command, "run")) {
            c->positional = a;
        } else {
            return usage_error("unknown option '%s'", a);
        }
#undef NEED_VAL
    }
    return -1;
}

/* A --stats path that cannot be written is refused before the simulation
 * starts: create and remove the temporary file json_write_atomic will
 * write ("<path>.tmp.<pid>"), and refuse a directory. */
static bool stats_path_ok(const char *path)
{
    struct stat st;
    if (!path[0] || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "gpusim: --stats '%s': not a file name\n", path);
        return false;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return false;
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        fprintf(stderr, "gpusim: --stats '%s' cannot be written: %s\n", path, strerror(errno));
    else {
        close(fd);
        unlink(tmp);
    }
    free(tmp);
    return fd >= 0;
}

/* Load preset/file plus overrides; on errors print them all and return false. */
static bool load_config(const char *target, const struct cli *c, struct cfg *cfg)
{
    struct diag d;
    diag_init(&d);
    cfg_init(cfg);
    cfg_load(cfg, target ? target : "gtx480", &d);
    for (unsigned i = 0; i < c->n_overrides; i++)
        cfg_set(cfg, c->overrides[i], "-o", &d);
    cfg_finish(cfg, &d);
    bool ok = diag_count(&d) == 0;
    if (!ok) {
        diag_print(&d, stderr);
        fprintf(stderr, "gpusim: %zu configuration error%s\n", diag_count(&d), diag_count(&d) == 1 ? "" : "s");
    }
    diag_fini(&d);
    return ok;
}

/* ---------------------------------------------------------------- synth */

struct progress {
    bool enabled;        /* stderr is a terminal and not --quiet */
    struct timespec t0;  /* run start */
    double last;         /* wall seconds of the last line */
};

static double elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void progress_line(void *arg, ps_t now)
{
    struct progress *p = arg;
    double e = elapsed(&p->t0);
    if (e - p->last < 0.5)
        return;
    p->last = e;
    fprintf(stderr, "\r  simulated %.3f us, %.1f s elapsed ", (double)now * 1e-6, e);
    fflush(stderr);
}

struct synth_doc {
    const struct cfg *cfg;
    const struct stats *stats;
    const struct eng_result *res;
    const struct engine *eng;
    const char *command;
    bool complete;
    uint64_t served;     /* jobs served (the model's work unit) */
};

static const char *finish_name(enum eng_finish f)
{
    switch (f) {
    case ENG_FINISH_IDLE: return "idle";
    case ENG_FINISH_SERIAL: return "model";
    case ENG_FINISH_MAX_TIME: return "max_time";
    case ENG_FINISH_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

static void write_synth_doc(struct json_writer *w, void *arg)
{
    const struct synth_doc *d = arg;
    const struct eng_result *r = d->res;
    jw_obj_begin(w, NULL);
    jw_str(w, "format", "gpusim-stats-1");
    jw_bool(w, "complete", d->complete);
    jw_str(w, "command", d->command);
    jw_str(w, "version", sim_version());
    jw_str(w, "git_revision", sim_git_revision());
    cfg_write_json(d->cfg, w, "config");
    jw_obj_begin(w, "engine");
    jw_str(w, "mode", d->cfg->values->engine.relaxed ? "relaxed" : "exact");
    jw_u64(w, "lookahead_ps", eng_lookahead(d->eng));
    jw_u64(w, "quantum_ps", eng_quantum(d->eng));
    jw_u64(w, "end_time_ps", r->end_time);
    jw_u64(w, "quanta", r->quanta);
    jw_u64(w, "quanta_skipped", r->quanta_skipped);
    jw_str(w, "finish", finish_name(r->finish));
    jw_obj_end(w);
    jw_obj_begin(w, "stats");
    stats_write_json(d->stats, w);
    jw_obj_end(w);
    /* Everything above is identical for any --threads; "host" is last. */
    jw_obj_begin(w, "host");
    jw_u64(w, "threads", r->threads);
    jw_double(w, "wall_seconds", r->wall_s);
    jw_double(w, "simulated_us_per_second", r->wall_s > 0 ? (double)r->end_time * 1e-6 / r->wall_s : 0.0);
    jw_double(w, "jobs_per_second", r->wall_s > 0 ? (double)d->served / r->wall_s : 0.0);
    eng_json_threads(w, r->per_thread, r->threads);
    eng_json_write(w, &r->adapt, &r->profile); /* "adaptive", "profile" (docs/engine.md) */
    jw_obj_end(w);
    jw_obj_end(w);
}

static int cmd_synth(struct cli *c)
{
    struct cfg cfg;
    if (!load_config(c->config, c, &cfg)) {
        cfg_fini(&cfg);
        return EXIT_USAGE;
    }
    if (c->stats_path && !stats_path_ok(c->stats_path)) {
        cfg_fini(&cfg);
        return EXIT_USAGE;
    }
    const struct sim_cfg *v = cfg.values;
    struct diag d;
    diag_init(&d);
    struct synth_model *m = synth_create(&v->synth, &v->engine, &v->clock, v->icnt.min_latency, &d);
    if (!m) {
        diag_print(&d, stderr);
        diag_fini(&d);
        cfg_fini(&cfg);
        return EXIT_USAGE;
    }
    diag_fini(&d);
    struct stats *st = stats_create();
    synth_register_stats(m, st);

    struct sigwatch sw;
    sigwatch_start(&sw);
    struct progress prog = {isatty(STDERR_FILENO) && !c->quiet, {0, 0}, 0};
    clock_gettime(CLOCK_MONOTONIC, &prog.t0);
    c->run.stop_flag = &sw.stop;
    if (prog.enabled) {
        c->run.progress = progress_line;
        c->run.progress_arg = &prog;
    }

    struct eng_result res;
    char err[256];
    stats_kernel_begin(st, "synth");
    int rc = eng_run(synth_engine(m), &c->run, &res, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "gpusim: %s\n", err);
        sigwatch_stop(&sw);
        stats_destroy(st);
        synth_destroy(m);
        cfg_fini(&cfg);
        return EXIT_USAGE;
    }
    if (prog.enabled)
        fputs("\r\033[K", stderr);
    bool complete = res.finish != ENG_FINISH_INTERRUPTED;
    if (complete)
        stats_kernel_end(st);

    uint64_t served = 0, retired = 0;
    stats_get_u64(st, "synth.unit.served", &served);
    stats_get_u64(st, "synth.unit.retired", &retired);
    uint64_t want = (uint64_t)synth_n_units(m) * v->synth.jobs;
    int status = EXIT_OK;
    if (!complete) {
        fprintf(stderr, "gpusim: interrupted by signal %u at %.3f us simulated; statistics are partial\n",
                (unsigned)at_load_acq_u32(&sw.signo), (double)res.end_time * 1e-6);
        status = EXIT_SIMFAIL;
    } else if (res.finish == ENG_FINISH_IDLE && retired != want) {
        fprintf(stderr, "gpusim: synthetic model lost jobs: %llu of %llu retired\n",
                (unsigned long long)retired, (unsigned long long)want);
        status = EXIT_SIMFAIL;
    }

    printf("synth: %u partitions, %u units, %s mode, L = %llu ps, Q = %llu ps\n", eng_n_partitions(synth_engine(m)),
           synth_n_units(m), v->engine.relaxed ? "relaxed" : "exact",
           (unsigned long long)eng_lookahead(synth_engine(m)), (unsigned long long)eng_quantum(synth_engine(m)));
    printf("  finished: %s at %.3f us simulated; %llu quanta run, %llu skipped\n", finish_name(res.finish),
           (double)res.end_time * 1e-6, (unsigned long long)res.quanta, (unsigned long long)res.quanta_skipped);
    printf("  jobs: %llu served, %llu of %llu retired\n", (unsigned long long)served,
           (unsigned long long)retired, (unsigned long long)want);
    printf("  host: %u threads, %.3f s wall, %.0f jobs/s\n", res.threads, res.wall_s,
           res.wall_s > 0 ? (double)served / res.wall_s : 0.0);

    if (c->stats_path) {
        struct synth_doc doc = {&cfg, st, &res, synth_engine(m), "synth", complete, served};
        if (json_write_atomic(c->stats_path, write_synth_doc, &doc, err, sizeof err) != 0) {
            fprintf(stderr, "gpusim: %s\n", err);
            if (status == EXIT_OK)
                status = EXIT_SIMFAIL;
        }
    }
    sigwatch_stop(&sw);
    stats_destroy(st);
    synth_destroy(m);
    cfg_fini(&cfg);
    return status;
}

/* ------------------------------------------------------------- workloads */

static int cmd_list(const struct cli *c)
{
    if (c->markdown) {
        /* The descriptor columns of the table in workloads/README.md. */
        printf("| workload | computes | mirrors | stresses | flags |\n|---|---|---|---|---|\n");
        for (unsigned i = 0; i < wl_registry_len; i++) {
            const struct wl_desc *d = wl_registry[i].desc;
            const char *fl = (d->flags & WL_REG_HEAVY) && (d->flags & WL_SHARING) ? "R S"
                             : d->flags & WL_REG_HEAVY                           ? "R"
                             : d->flags & WL_SHARING                             ? "S"
                                                                                 : "-";
            printf("| %s | %s | %s | %s | %s |\n", d->name, d->summary, d->mirrors, d->stresses, fl);
        }
        printf("\n| workload | tiny | small | medium | large |\n|---|---|---|---|---|\n");
        for (unsigned i = 0; i < wl_registry_len; i++) {
            const struct wl_desc *d = wl_registry[i].desc;
            printf("| %s", d->name);
            for (int k = 0; k < WL_N_SIZES; k++)
                printf(" | %s", d->sizes[k] ? d->sizes[k] : "");
            printf(" |\n");
        }
        return EXIT_OK;
    }
    printf("workloads (gpusim run <name> [--size tiny|small|medium|large] [--seed N]):\n");
    for (unsigned i = 0; i < wl_registry_len; i++) {
        const struct wl_desc *d = wl_registry[i].desc;
        printf("  %-16s %s%s%s%s%s\n", d->name, d->summary, d->flags & WL_REG_HEAVY ? " [register-heavy]" : "",
               d->flags & WL_SHARING ? " [inter-block sharing]" : "",
               d->flags & WL_CACHE_SENS ? " [cache-sensitive]" : "",
               d->flags & WL_MEM_SENS ? " [memory-sensitive]" : "");
    }
    printf("\npresets (--config <name>):\n");
    char **list = cfg_list_presets();
    for (char **p = list; p && *p; p++)
        printf("  %s\n", *p);
    cfg_free_list(list);
    return EXIT_OK;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = 0;
    return buf;
}

static int cmd_run(struct cli *c)
{
    if (!c->positional)
        return usage_error("run needs a workload name; 'gpusim list' shows them%s", "");
    const struct wl_entry *e = wl_find(c->positional);
    if (!e) {
        const char *best = NULL;
        size_t best_d = 3;
        for (unsigned i = 0; i < wl_registry_len; i++) {
            size_t dd = diag_edit_distance(c->positional, wl_registry[i].desc->name);
            if (dd < best_d) {
                best_d = dd;
                best = wl_registry[i].desc->name;
            }
        }
        fprintf(stderr, "gpusim: unknown workload '%s'", c->positional);
        if (best)
            fprintf(stderr, "; did you mean '%s'?", best);
        fprintf(stderr, "\nTry 'gpusim list'.\n");
        return EXIT_USAGE;
    }
    if (c->stats_path && !stats_path_ok(c->stats_path))
        return EXIT_USAGE;
    char *ptx = NULL, *ptx_regs = NULL;
    if (c->ptx_path && !(ptx = read_text(c->ptx_path))) {
        fprintf(stderr, "gpusim: cannot read %s: %s\n", c->ptx_path, strerror(errno));
        return EXIT_USAGE;
    }
    /* NOTE(ptx-sidecar): FILE.regs beside --ptx FILE gives the ptxas
     * register counts for occupancy, as kernel.ptx.regs does for the
     * workload's own kernel (docs/ptx.md); without it the allocator's
     * counts are used. */
    if (c->ptx_path) {
        size_t n = strlen(c->ptx_path) + 6;
        char *side = xmalloc(n);
        snprintf(side, n, "%s.regs", c->ptx_path);
        if (access(side, F_OK) == 0 && !(ptx_regs = read_text(side))) {
            fprintf(stderr, "gpusim: cannot read %s: %s\n", side, strerror(errno));
            free(side);
            free(ptx);
            return EXIT_USAGE;
        }
        free(side);
    }
    struct sigwatch sw;
    sigwatch_start(&sw);
    const char *ov[MAX_OVERRIDES + 1];
    for (unsigned i = 0; i < c->n_overrides; i++)
        ov[i] = c->overrides[i];
    ov[c->n_overrides] = NULL;
    struct wl_run_opts o = {
        .config = c->config,
        .overrides = ov,
        .size = (enum wl_size)c->size,
        .seed = c->seed,
        .quiet = c->quiet,
        .ptx_override = ptx,
        .ptx_override_regs = ptx_regs,
        .ptx_override_name = c->ptx_path,
        .host = {c->run.threads, c->run.sm_threads, c->run.mem_threads,
                 (int)c->run.pin, /* the same values (sync/engine.h) */
                 isatty(STDERR_FILENO) && !c->quiet, (const volatile unsigned *)(uintptr_t)&sw.stop},
    };
    if (!c->quiet)
        printf("%s (%s, seed %llu): %s\n", e->desc->name, wl_size_name(o.size), (unsigned long long)o.seed,
               e->desc->sizes[o.size] ? e->desc->sizes[o.size] : "");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gs_ctx *ctx = NULL;
    int st = wl_run(e, &o, &ctx);
    double secs = elapsed(&t0);
    free(ptx);
    free(ptx_regs);
    int status = st == WL_PASS ? EXIT_OK : st == WL_INPUT_ERROR ? EXIT_USAGE : EXIT_SIMFAIL;
    uint32_t signo = at_load_acq_u32(&sw.signo);
    if (signo && st != WL_PASS) {
        fprintf(stderr, "gpusim: interrupted by signal %u; statistics are partial (\"complete\": false)\n",
                (unsigned)signo);
        status = EXIT_SIMFAIL;
    }
    if (ctx && c->stats_path && gs_stats_write(ctx, c->stats_path) != 0) {
        fprintf(stderr, "gpusim: %s\n", gs_last_error(ctx));
        if (status == EXIT_OK)
            status = EXIT_SIMFAIL;
    }
    if (ctx && !c->quiet && st != WL_INPUT_ERROR)
        summary_print(stdout, ctx); /* sim/app/summary.h */
    if (st == WL_PASS) {
        if (!c->quiet)
            printf("%s: verified against the CPU reference (%.2f s)\n", e->desc->name, secs);
    } else {
        static const char *const why[] = {"", "result differs from the CPU reference", "simulation failed",
                                          "input or configuration error"};
        fprintf(stderr, "gpusim: %s %s: %s\n", e->desc->name, wl_size_name(o.size),
                st >= 0 && st <= WL_INPUT_ERROR ? why[st] : "failed");
    }
    gs_ctx_destroy(ctx);
    sigwatch_stop(&sw);
    return status;
}

/* ---------------------------------------------------------------- config */

static int cmd_config(struct cli *c)
{
    if (c->list == c->show)
        return usage_error("config needs exactly one of --list or --show%s", "");
    if (c->list) {
        cfg_print_keys(stdout);
        return EXIT_OK;
    }
    struct cfg cfg;
    const char *target = c->show_target ? c->show_target : c->config;
    bool ok = load_config(target, c, &cfg);
    if (ok) {
        cfg_print_resolved(&cfg, stdout);
        const struct sim_cfg *v = cfg.values;
        if (v->dram.sched >= DRAM_SCHED_MSHR_M && v->dram.sched <= DRAM_SCHED_MSHR_SA) {
            struct dram_icl_cost cost;
            dram_icl_cost(v->l2.mshr, &v->dram, &cost);
            dram_icl_cost_print(stdout, &cost);
        }
    }
    cfg_fini(&cfg);
    return ok ? EXIT_OK : EXIT_USAGE;
}

static int cmd_presets(void)
{
    char **list = cfg_list_presets();
    if (!list || !list[0]) {
        fprintf(stderr, "gpusim: no presets found (set GPUSIM_CONFIG_DIR to the configs/ directory)\n");
        cfg_free_list(list);
        return EXIT_USAGE;
    }
    for (char **p = list; *p; p++) {
        char path[4096];
        cfg_find_preset(*p, path, sizeof path);
        printf("%-20s %s\n", *p, path);
    }
    cfg_free_list(list);
    return EXIT_OK;
}

/* ---------------------------------------------------------------- sweep */

/* `gpusim sweep`: its own options (-o is the output directory there); the
 * catalog is the workload registry with the tags `gpusim list` shows. */
static int cmd_sweep(int argc, char **argv)
{
    struct sweep_workload *wl = calloc(wl_registry_len + 1, sizeof *wl);
    const char *sizes[WL_N_SIZES];
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        exe[n] = '\0';
    else if (!realpath(argv[0], exe))
        snprintf(exe, sizeof exe, "%s", argv[0]);
    if (!wl) {
        fprintf(stderr, "gpusim: out of memory\n");
        return EXIT_SIMFAIL;
    }
    for (unsigned i = 0; i < wl_registry_len; i++) {
        const struct wl_desc *d = wl_registry[i].desc;
        unsigned t = 0;
        wl[i].name = d->name;
        if (d->flags & WL_REG_HEAVY)
            wl[i].tags[t++] = "register-heavy";
        if (d->flags & WL_SHARING)
            wl[i].tags[t++] = "sharing";
        if (d->flags & WL_CACHE_SENS)
            wl[i].tags[t++] = "cache-sensitive";
        if (d->flags & WL_MEM_SENS)
            wl[i].tags[t++] = "memory-sensitive";
    }
    for (int k = 0; k < WL_N_SIZES; k++)
        sizes[k] = wl_size_name((enum wl_size)k);
    struct sweep_catalog cat = {wl, wl_registry_len, sizes, WL_N_SIZES, exe};
    int rc = sweep_main(argc - 1, argv + 1, &cat);
    free(wl);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "sweep"))
        return cmd_sweep(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "report"))
        return report_main(argc - 2, argv + 2);
    struct cli c;
    int rc = parse_args(argc, argv, &c);
    if (rc >= 0)
        return rc;
    if (!strcmp(c.command, "run"))
        return cmd_run(&c);
    if (!strcmp(c.command, "list"))
        return cmd_list(&c);
    if (!strcmp(c.command, "synth"))
        return cmd_synth(&c);
    if (!strcmp(c.command, "config"))
        return cmd_config(&c);
    if (!strcmp(c.command, "presets"))
        return cmd_presets();
    if (!strcmp(c.command, "version") || !strcmp(c.command, "--version")) {
        printf("gpusim %s (git %s)\n", sim_version(), sim_git_revision());
        return EXIT_OK;
    }
    if (!strcmp(c.command, "help") || !strcmp(c.command, "--help") || !strcmp(c.command, "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    return usage_error("unknown command '%s'", c.command);
}
