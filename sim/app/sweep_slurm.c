/* sim/app/sweep_slurm.c: a sweep as a Slurm job array.
 *
 * `gpusim sweep FILE -o OUT --slurm` writes OUT/slurm/<name>.sbatch: one
 * array task per chunk of K distinct jobs (in sweep order), each running
 *   gpusim sweep FILE -o OUT --only-chunk $SLURM_ARRAY_TASK_ID --chunk K
 * so the jobs, their ids and the OUT/ layout are those of a local run, and
 * a task skips what is already done. Only chunks with unfinished jobs are
 * in the array, so resubmitting after a partial run (time limit, failures)
 * runs just the rest. With --submit the script goes to `sbatch --parsable`
 * and the array's job id is printed and appended to OUT/slurm/submitted.
 *
 * Not done: no waiting for the array (use `sbatch --wait`, squeue, or
 * `gpusim sweep --collect` until it exits 0), no per-task memory estimate,
 * no heterogeneous chunks. OUT/ must be on a file system every node sees,
 * at the same path, like the gpusim binary and the sweep file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/common.h"

/* Write s single-quoted for sh. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

static bool sbatch_value_ok(const char *opt, const char *v)
{
    if (v && strpbrk(v, "\n\r")) {
        fprintf(stderr, "gpusim: sweep: %s value must be one line\n", opt);
        return false;
    }
    if (v && strcmp(opt, "--sbatch-opt") && strpbrk(v, " \t")) {
        fprintf(stderr, "gpusim: sweep: %s value '%s' must be one word\n", opt, v);
        return false;
    }
    return true;
}

/* Array indices "0-3,5,7-9" of the chunks that still have work. */
static unsigned array_spec(const bool *pending, unsigned n, char *buf, size_t len)
{
    size_t pos = 0;
    unsigned count = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n; i++) {
        if (!pending[i])
            continue;
        unsigned j = i;
        while (j + 1 < n && pending[j + 1])
            j++;
        count += j - i + 1;
        if (pos < len) {
            if (j == i)
                pos += (size_t)snprintf(buf + pos, len - pos, "%s%u", pos ? "," : "", i);
            else
                pos += (size_t)snprintf(buf + pos, len - pos, "%s%u-%u", pos ? "," : "", i, j);
        }
        i = j;
    }
    return count;
}

/* Run sbatch --parsable on the script; its stdout (the job id) into id. */
static bool submit(const char *script, char *id, size_t len)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execlp("sbatch", "sbatch", "--parsable", script, (char *)NULL);
        fprintf(stderr, "gpusim: sweep: cannot run sbatch: %s (is Slurm installed and on PATH?)\n", strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return false;
    }
    size_t n = 0;
    ssize_t k;
    while (n + 1 < len && (k = read(fds[0], id + n, len - n - 1)) > 0)
        n += (size_t)k;
    id[n] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    while (n > 0 && (id[n - 1] == '\n' || id[n - 1] == ' '))
        id[--n] = '\0';
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && n > 0;
}

int sweep_slurm(const struct sweep *s, const struct sweep_slurm_opts *o)
{
    if (!sbatch_value_ok("--partition", o->partition) || !sbatch_value_ok("--time", o->time) ||
        !sbatch_value_ok("--mem", o->mem))
        return 2;
    for (const char *const *e = o->extra; e && *e; e++)
        if (!sbatch_value_ok("--sbatch-opt", *e))
            return 2;
    char *out = realpath(o->out, NULL);
    if (!out) {
        fprintf(stderr, "gpusim: sweep: %s: %s\n", o->out, strerror(errno));
        return 2;
    }
    size_t pl = strlen(out) + strlen(s->name) + 64;
    char *dir = xmalloc(pl), *logs = xmalloc(pl), *script = xmalloc(pl), *tmp = xmalloc(pl + 32);
    snprintf(dir, pl, "%s/slurm", out);
    snprintf(logs, pl, "%s/slurm/logs", out);
    snprintf(script, pl, "%s/slurm/%s.sbatch", out, s->name);
    snprintf(tmp, pl + 32, "%s.tmp.%ld", script, (long)getpid());
    int rc = 0;
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(logs, 0777) != 0 && errno != EEXIST)) {
        fprintf(stderr, "gpusim: sweep: cannot create %s: %s\n", logs, strerror(errno));
        rc = 2;
        goto done;
    }

    unsigned k = o->chunk_size;
    unsigned n_chunks = (s->n_distinct + k - 1) / k;
    bool *pending = xcalloc(n_chunks + 1, sizeof *pending);
    unsigned n_pending = 0;
    for (unsigned i = 0; i < s->n_jobs; i++)
        if (s->jobs[i].first && sweep_out_job_state(o->out, s->jobs[i].id) != SWEEP_DONE) {
            pending[s->jobs[i].distinct / k] = true;
            n_pending++;
        }
    char spec[8192];
    unsigned n_tasks = array_spec(pending, n_chunks, spec, sizeof spec);
    free(pending);
    if (!n_tasks) {
        printf("sweep %s: all %u jobs are done; nothing to submit\n", s->name, s->n_distinct);
        goto done;
    }
    if (strlen(spec) + 1 >= sizeof spec) {
        fprintf(stderr, "gpusim: sweep: the array list is too long; use a larger --chunk\n");
        rc = 2;
        goto done;
    }

    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "gpusim: sweep: cannot write %s: %s\n", tmp, strerror(errno));
        rc = 2;
        goto done;
    }
    fprintf(f, "#!/bin/bash\n");
    fprintf(f, "# gpusim sweep %s: %u jobs in %u chunks of %u, %u chunks with work left.\n", s->name, s->n_distinct,
            n_chunks, k, n_tasks);
    fprintf(f, "# Written by 'gpusim sweep --slurm'; running that again (with --submit) skips finished jobs.\n");
    fprintf(f, "#SBATCH --job-name=gpusim-%s\n", s->name);
    fprintf(f, "#SBATCH --array=%s\n", spec);
    fprintf(f, "#SBATCH --ntasks=1\n");
    fprintf(f, "#SBATCH --cpus-per-task=%u\n", s->threads * o->parallel);
    fprintf(f, "#SBATCH --output=%s/%%A_%%a.out\n", logs);
    if (o->partition)
        fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time)
        fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->mem)
        fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    for (const char *const *e = o->extra; e && *e; e++)
        fprintf(f, "#SBATCH %s\n", *e);
    const char *cdir = getenv("GPUSIM_CONFIG_DIR");
    if (cdir && cdir[0]) {
        fputs("export GPUSIM_CONFIG_DIR=", f);
        put_quoted(f, cdir);
        fputc('\n', f);
    }
    fputs("exec ", f);
    put_quoted(f, s->cat->exe);
    fputs(" sweep ", f);
    put_quoted(f, s->abs_path);
    fputs(" -o ", f);
    put_quoted(f, out);
    fprintf(f, " --only-chunk \"$SLURM_ARRAY_TASK_ID\" --chunk %u -j %u --no-progress\n", k, o->parallel);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad || chmod(tmp, 0755) != 0 || rename(tmp, script) != 0) {
        fprintf(stderr, "gpusim: sweep: cannot write %s: %s\n", script, strerror(errno));
        unlink(tmp);
        rc = 2;
        goto done;
    }
    printf("sweep %s: wrote %s (%u array tasks for %u unfinished jobs, chunks of %u)\n", s->name, script, n_tasks,
           n_pending, k);
    if (!o->submit) {
        printf("submit with: sbatch %s   (then: gpusim sweep %s -o %s --collect)\n", script, s->path, o->out);
        goto done;
    }
    char id[128] = "";
    if (!submit(script, id, sizeof id)) {
        fprintf(stderr, "gpusim: sweep: sbatch failed%s%s\n", id[0] ? ": " : "", id);
        rc = 1;
        goto done;
    }
    printf("sweep %s: submitted job array %s\n", s->name, id);
    snprintf(tmp, pl + 32, "%s/submitted", dir);
    FILE *log = fopen(tmp, "a");
    if (log) {
        fprintf(log, "%s %s\n", id, spec);
        fclose(log);
    }
done:
    free(out);
    free(dir);
    free(logs);
    free(script);
    free(tmp);
    return rc;
}
