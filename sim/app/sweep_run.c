/* sim/app/sweep_run.c: running a sweep's jobs on this machine.
 *
 * Each job is a child process: fork, then exec of the same gpusim binary
 * with `run <workload> ... --stats OUT/tmp/<host>.<pid>/<id>.json`, its
 * stdout and stderr going to a log beside it. The parent keeps up to N
 * children running and waits for events with sigtimedwait on a blocked
 * SIGCHLD/SIGINT/SIGTERM/SIGHUP set (no signal handlers, no global state),
 * waking twice a second for timeouts and the progress line.
 *
 * When a child ends:
 *   exit 0 with its statistics written -> rename(2) into OUT/jobs/<id>.json
 *     (and any old <id>.failed.json removed): done;
 *   anything else -> OUT/jobs/<id>.failed.json with the reason (exit, signal,
 *     timeout, interrupted), exit status or signal, and the tail of its log;
 *     the sweep carries on with the other jobs.
 * A job over the sweep's timeout gets SIGTERM (it stops at the next quantum
 * and writes partial statistics), and SIGKILL 10 s later.
 *
 * SIGINT/SIGTERM/SIGHUP to the sweep: no new job starts, the running ones
 * get SIGTERM and are recorded as interrupted, and the sweep exits 1; a
 * second signal kills them at once. A kill -9 of the sweep kills its
 * children too (PR_SET_PDEATHSIG), and their work files are in the dead
 * process's work directory, removed by the next run on this host.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/common.h"

#define KILL_GRACE_S 10.0   /* SIGTERM -> SIGKILL for a job over its timeout or on a stop */
#define TAIL_BYTES 4096     /* at most this much of a failed job's log is kept */
#define TAIL_LINES 20       /* and at most this many lines */

/* One running job. */
struct slot {
    pid_t pid;          /* 0 = free */
    unsigned job;       /* index into sweep.jobs */
    double t0;          /* start (monotonic seconds) */
    double t_term;      /* when SIGTERM was sent, 0 = not yet */
    bool timed_out;     /* SIGTERM was for the timeout */
    char **argv;        /* its command (owned) */
    char *stats;        /* its --stats path in the work directory (owned) */
    char *log;          /* its stdout+stderr (owned) */
};

struct runner {
    const struct sweep *s;
    const struct sweep_run_opts *o;
    char *tmpdir;            /* OUT/tmp/<host>.<pid> */
    struct slot *slots;      /* o->parallel entries */
    unsigned *queued;          /* job indices to run, in order */
    unsigned n_queued, next;   /* entries; next to start */
    unsigned n_running;      /* slots in use */
    unsigned n_done;         /* finished with a result this run */
    unsigned n_failed;       /* failed this run (interrupted included) */
    unsigned n_interrupted;  /* of which interrupted */
    unsigned n_skipped;      /* already done before this run */
    double t_start;          /* run start (monotonic seconds) */
    double job_seconds;      /* sum of finished jobs' wall times */
    unsigned n_timed;        /* jobs in job_seconds */
    bool stopping;           /* a stop signal arrived: start nothing new */
    int stop_signo;          /* that signal */
    bool tty;                /* the progress line rewrites itself */
    bool line_shown;         /* a \r progress line is on screen */
    double last_line;        /* when it was last drawn */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *fmt_path(const char *dir, const char *id, const char *suffix)
{
    size_t n = strlen(dir) + strlen(id) + strlen(suffix) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s%s", dir, id, suffix);
    return p;
}

static void fmt_duration(double s, char *buf, size_t len)
{
    if (s < 0) {
        snprintf(buf, len, "?");
        return;
    }
    unsigned long t = (unsigned long)(s + 0.5);
    if (t < 100)
        snprintf(buf, len, "%lus", t);
    else if (t < 6000)
        snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
    else
        snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
}

/* --------------------------------------------------------------- progress */

static void clear_line(struct runner *r)
{
    if (r->line_shown) {
        fputs("\r\033[K", stderr);
        r->line_shown = false;
    }
}

/* Draw the progress line: on a terminal at most twice a second (or when
 * forced by an event), elsewhere one line per finished job. */
static void progress(struct runner *r, bool event)
{
    if (!r->o->progress)
        return;
    double t = now_s();
    if (r->tty ? (!event && t - r->last_line < 0.5) : !event)
        return;
    r->last_line = t;
    unsigned finished = r->n_done + r->n_failed;
    double eta = -1;
    if (r->n_timed) {
        double mean = r->job_seconds / r->n_timed;
        double left = (double)(r->n_queued - r->next) + 0.5 * r->n_running;
        eta = mean * left / (r->o->parallel ? r->o->parallel : 1);
    } else if (r->n_queued == finished) {
        eta = 0;
    }
    char e[32], el[32];
    fmt_duration(eta, e, sizeof e);
    fmt_duration(t - r->t_start, el, sizeof el);
    fprintf(stderr, "%ssweep %s: %u/%u done, %u running, %u failed, %s elapsed, ~%s left%s", r->tty ? "\r" : "",
            r->s->name, r->n_done, r->n_queued, r->n_running, r->n_failed, el, e, r->tty ? "\033[K" : "\n");
    fflush(stderr);
    r->line_shown = r->tty;
}

/* ------------------------------------------------------------------ jobs */

static void spawn(struct runner *r, unsigned job)
{
    const struct sweep_job *j = &r->s->jobs[job];
    struct slot *sl = NULL;
    for (unsigned i = 0; i < r->o->parallel && !sl; i++)
        if (!r->slots[i].pid)
            sl = &r->slots[i];
    SIM_ASSERT(sl, "sweep: no free slot with %u running", r->n_running);
    memset(sl, 0, sizeof *sl);
    sl->job = job;
    sl->stats = fmt_path(r->tmpdir, j->id, ".json");
    sl->log = fmt_path(r->tmpdir, j->id, ".log");
    sl->argv = sweep_job_argv(r->s, j, sl->stats);
    sl->t0 = now_s();
    unlink(sl->stats);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* Child: die with the sweep, quiet stdin, log out and err, default signals. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        int fd = open(sl->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execv(sl->argv[0], sl->argv);
        fprintf(stderr, "gpusim: sweep: cannot run %s: %s\n", sl->argv[0], strerror(errno));
        _exit(127);
    }
    if (pid < 0) {
        struct sweep_failure f = {"spawn", -1, 0, 0.0, NULL};
        char msg[256];
        snprintf(msg, sizeof msg, "fork failed: %s", strerror(errno));
        f.stderr_tail = msg;
        sweep_out_write_failure(r->s, j, r->o->out, r->tmpdir, &f, sl->argv);
        clear_line(r);
        fprintf(stderr, "gpusim: sweep: job %s: %s\n", j->id, msg);
        r->n_failed++;
        sweep_argv_free(sl->argv);
        free(sl->stats);
        free(sl->log);
        memset(sl, 0, sizeof *sl);
        return;
    }
    sl->pid = pid;
    r->n_running++;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char *line = NULL;
    size_t cap = 0;
    bool found = false;
    while (!found && getline(&line, &cap, f) >= 0)
        found = strstr(line, needle) != NULL;
    free(line);
    fclose(f);
    return found;
}

/* The last TAIL_LINES lines of the last TAIL_BYTES of a file (owned). */
static char *read_tail(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = xmalloc(TAIL_BYTES + 1);
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        long from = size > TAIL_BYTES ? size - TAIL_BYTES : 0;
        if (fseek(f, from, SEEK_SET) == 0)
            n = fread(buf, 1, TAIL_BYTES, f);
    }
    fclose(f);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    unsigned lines = 0;
    size_t start = 0;
    for (size_t i = n; i > 0; i--)
        if (buf[i - 1] == '\n' && ++lines == TAIL_LINES) {
            start = i;
            break;
        }
    memmove(buf, buf + start, n - start + 1);
    return buf;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static void finish(struct runner *r, struct slot *sl, int status)
{
    const struct sweep_job *j = &r->s->jobs[sl->job];
    double secs = now_s() - sl->t0;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && file_exists(sl->stats);
    char *dst = sweep_out_job_path(r->o->out, j->id, false);
    if (ok && rename(sl->stats, dst) != 0) {
        clear_line(r);
        fprintf(stderr, "gpusim: sweep: cannot rename %s to %s: %s\n", sl->stats, dst, strerror(errno));
        ok = false;
    }
    if (ok) {
        char *failed = sweep_out_job_path(r->o->out, j->id, true);
        unlink(failed);
        free(failed);
        size_t n = strlen(r->o->out) + 8;
        char *jobs = xmalloc(n);
        snprintf(jobs, n, "%s/jobs", r->o->out);
        sync_dir(jobs);
        free(jobs);
        r->n_done++;
        r->job_seconds += secs;
        r->n_timed++;
    } else {
        struct sweep_failure f = {"exit", -1, 0, secs, NULL};
        if (WIFEXITED(status))
            f.exit_status = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            f.signo = WTERMSIG(status);
        bool partial = file_exists(sl->stats) && file_contains(sl->stats, "\"complete\": false");
        if (sl->timed_out)
            f.reason = "timeout";
        else if (r->stopping || partial)
            f.reason = "interrupted";
        else if (f.signo)
            f.reason = "signal";
        f.stderr_tail = read_tail(sl->log);
        sweep_out_write_failure(r->s, j, r->o->out, r->tmpdir, &f, sl->argv);
        clear_line(r);
        char how[64];
        if (f.signo)
            snprintf(how, sizeof how, "killed by signal %d (%s)", f.signo, strsignal(f.signo));
        else
            snprintf(how, sizeof how, "exit %d", f.exit_status);
        fprintf(stderr, "gpusim: sweep: job %s (%s %s seed %" PRIu64 ", %s) %s: %s; see %s/jobs/%s.failed.json\n",
                j->id, r->s->cat->wl[j->wl].name, r->s->cat->sizes[j->size], j->seed, r->s->var[j->variant].name,
                !strcmp(f.reason, "interrupted") ? "interrupted" : !strcmp(f.reason, "timeout") ? "timed out" : "failed",
                how, r->o->out, j->id);
        free(f.stderr_tail);
        r->n_failed++;
        if (!strcmp(f.reason, "interrupted"))
            r->n_interrupted++;
    }
    free(dst);
    unlink(sl->stats);
    unlink(sl->log);
    sweep_argv_free(sl->argv);
    free(sl->stats);
    free(sl->log);
    memset(sl, 0, sizeof *sl);
    r->n_running--;
    progress(r, true);
}

static void reap(struct runner *r)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        for (unsigned i = 0; i < r->o->parallel; i++)
            if (r->slots[i].pid == pid) {
                finish(r, &r->slots[i], status);
                break;
            }
}

static void signal_all(struct runner *r, int sig)
{
    double t = now_s();
    for (unsigned i = 0; i < r->o->parallel; i++)
        if (r->slots[i].pid) {
            kill(r->slots[i].pid, sig);
            if (!r->slots[i].t_term)
                r->slots[i].t_term = t;
        }
}

static void check_timeouts(struct runner *r)
{
    double t = now_s();
    for (unsigned i = 0; i < r->o->parallel; i++) {
        struct slot *sl = &r->slots[i];
        if (!sl->pid)
            continue;
        if (!sl->t_term && r->s->timeout_s && t - sl->t0 > r->s->timeout_s) {
            kill(sl->pid, SIGTERM);
            sl->t_term = t;
            sl->timed_out = true;
        } else if (sl->t_term && t - sl->t_term > KILL_GRACE_S) {
            kill(sl->pid, SIGKILL);
        }
    }
}

/* ----------------------------------------------------------------- driver */

static bool make_workdir(struct runner *r)
{
    char host[256];
    sweep_hostname(host, sizeof host);
    size_t n = strlen(r->o->out) + strlen(host) + 48;
    r->tmpdir = xmalloc(n);
    snprintf(r->tmpdir, n, "%s/tmp/%s.%ld", r->o->out, host, (long)getpid());
    if (mkdir(r->tmpdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpusim: sweep: cannot create %s: %s\n", r->tmpdir, strerror(errno));
        return false;
    }
    return true;
}

int sweep_run(const struct sweep *s, const struct sweep_run_opts *o)
{
    struct runner r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.o = o;
    r.tty = isatty(STDERR_FILENO);
    r.t_start = now_s();
    if (!sweep_out_prepare(o->out))
        return 2;
    sweep_out_clean_stale(o->out);
    if (!make_workdir(&r)) {
        free(r.tmpdir);
        return 2;
    }
    r.queued = xcalloc(s->n_jobs, sizeof *r.queued);
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct sweep_job *j = &s->jobs[i];
        if (!j->first)
            continue;
        if (o->only_chunk && (j->distinct / o->chunk_size != o->chunk))
            continue;
        if (sweep_out_job_state(o->out, j->id) == SWEEP_DONE)
            r.n_skipped++;
        else
            r.queued[r.n_queued++] = i;
    }
    r.slots = xcalloc(o->parallel, sizeof *r.slots);

    sigset_t mask, old;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, &old);

    if (o->only_chunk)
        printf("sweep %s: chunk %u: %u jobs to run, %u already done (%u at a time)\n", s->name, o->chunk, r.n_queued,
               r.n_skipped, o->parallel);
    else
        printf("sweep %s: %u jobs to run, %u already done (%u at a time)\n", s->name, r.n_queued, r.n_skipped,
               o->parallel);
    fflush(stdout);
    for (;;) {
        while (!r.stopping && r.n_running < o->parallel && r.next < r.n_queued)
            spawn(&r, r.queued[r.next++]);
        if (r.n_running == 0 && (r.stopping || r.next == r.n_queued))
            break;
        progress(&r, false);
        struct timespec ts = {0, 500 * 1000 * 1000};
        siginfo_t info;
        int sig = sigtimedwait(&mask, &info, &ts);
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
            clear_line(&r);
            if (!r.stopping) {
                r.stopping = true;
                r.stop_signo = sig;
                fprintf(stderr, "gpusim: sweep: signal %d: stopping %u running jobs (another signal kills them)\n",
                        sig, r.n_running);
                signal_all(&r, SIGTERM);
            } else {
                signal_all(&r, SIGKILL);
            }
        }
        reap(&r);
        check_timeouts(&r);
    }
    /* Consume signals that came after the last job, then restore the mask. */
    struct timespec zero = {0, 0};
    while (sigtimedwait(&mask, NULL, &zero) > 0)
        ;
    sigprocmask(SIG_SETMASK, &old, NULL);
    clear_line(&r);
    /* Every job's files went as it ended, except temporaries of a job
     * killed while writing its statistics ("<id>.json.tmp.<pid>"). */
    sweep_out_remove_dir(r.tmpdir);

    unsigned left = r.n_queued - r.n_done - r.n_failed;
    printf("sweep %s: %u done now, %u already done, %u failed%s%s", s->name, r.n_done, r.n_skipped, r.n_failed,
           r.n_interrupted ? " (interrupted: rerun to finish them)" : r.n_failed ? " (rerun retries them)" : "",
           left ? "" : "\n");
    if (left)
        printf(", %u not started (interrupted)\n", left);
    if (r.stopping)
        fprintf(stderr, "gpusim: sweep: stopped by signal %d; run the same command again to finish\n", r.stop_signo);
    free(r.queued);
    free(r.slots);
    free(r.tmpdir);
    return r.n_failed || r.stopping || left ? 1 : 0;
}
