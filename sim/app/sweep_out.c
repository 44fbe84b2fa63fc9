/* sim/app/sweep_out.c: the sweep's output directory (layout in sim/app/sweep.h
 * and docs/experiments.md, "Output layout").
 *
 * Every file a reader may look at is written whole and then renamed into
 * place (json_write_atomic into a work directory, then rename(2) into
 * OUT/jobs/), so OUT/jobs/ only ever holds complete files. A job's state is
 * read from the directory alone: <id>.json = done, <id>.failed.json (and no
 * <id>.json) = failed, neither = pending. Nothing else is kept: there is no
 * index to get out of step with the files.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/common.h"
#include "sim/base/json.h"
#include "sim/base/version.h"

static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

static bool make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return true;
        fprintf(stderr, "gpusim: sweep: %s exists and is not a directory\n", path);
        return false;
    }
    fprintf(stderr, "gpusim: sweep: cannot create directory %s: %s\n", path, strerror(errno));
    return false;
}

bool sweep_out_prepare(const char *out)
{
    char *jobs = path_join(out, "jobs"), *tmp = path_join(out, "tmp");
    bool ok = make_dir(out) && make_dir(jobs) && make_dir(tmp);
    free(jobs);
    free(tmp);
    return ok;
}

char *sweep_out_job_path(const char *out, const char *id, bool failed)
{
    size_t n = strlen(out) + strlen(id) + 32;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/jobs/%s%s", out, id, failed ? ".failed.json" : ".json");
    return p;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

enum sweep_job_state sweep_out_job_state(const char *out, const char *id)
{
    char *p = sweep_out_job_path(out, id, false);
    enum sweep_job_state st = SWEEP_PENDING;
    if (is_file(p))
        st = SWEEP_DONE;
    free(p);
    if (st == SWEEP_PENDING) {
        p = sweep_out_job_path(out, id, true);
        if (is_file(p))
            st = SWEEP_FAILED;
        free(p);
    }
    return st;
}

void sweep_hostname(char *buf, size_t len)
{
    if (gethostname(buf, len) != 0 || !buf[0])
        snprintf(buf, len, "localhost");
    buf[len - 1] = '\0';
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            *p = '_';
}

/* ------------------------------------------------------------ sweep.json */

static void write_strv(struct json_writer *w, const char *key, const struct sweep_strv *l)
{
    jw_arr_begin(w, key);
    for (unsigned i = 0; i < l->n; i++)
        jw_str(w, NULL, l->v[i]);
    jw_arr_end(w);
}

static void manifest_doc(struct json_writer *w, void *arg)
{
    const struct sweep *s = arg;
    const struct sweep_catalog *cat = s->cat;
    jw_obj_begin(w, NULL);
    jw_str(w, "format", SWEEP_FORMAT);
    jw_str(w, "name", s->name);
    jw_str(w, "sweep_file", s->abs_path);
    jw_str(w, "digest", s->digest);
    jw_str(w, "version", sim_version());
    jw_str(w, "git_revision", sim_git_revision());
    jw_str(w, "preset", s->preset_arg);
    write_strv(w, "overrides", &s->ov);
    jw_str(w, "baseline", s->var[s->baseline].name);
    jw_u64(w, "threads", s->threads);
    jw_u64(w, "timeout_seconds", s->timeout_s);
    jw_arr_begin(w, "workloads");
    for (unsigned i = 0; i < s->n_wl; i++)
        jw_str(w, NULL, cat->wl[s->wl[i]].name);
    jw_arr_end(w);
    jw_arr_begin(w, "sizes");
    for (unsigned i = 0; i < s->n_sizes; i++)
        jw_str(w, NULL, cat->sizes[s->sizes[i]]);
    jw_arr_end(w);
    jw_arr_begin(w, "seeds");
    for (unsigned i = 0; i < s->n_seeds; i++)
        jw_u64(w, NULL, s->seeds[i]);
    jw_arr_end(w);
    jw_arr_begin(w, "variants");
    for (unsigned v = 0; v < s->n_var; v++) {
        struct sweep_strv all = {0};
        sweep_variant_overrides(s, v, &all);
        jw_obj_begin(w, NULL);
        jw_str(w, "name", s->var[v].name);
        write_strv(w, "overrides", &all);
        write_strv(w, "variant_overrides", &s->var[v].ov);
        jw_str(w, "config_hash", s->var[v].hash);
        jw_obj_end(w);
        sweep_strv_free(&all);
    }
    jw_arr_end(w);
    jw_arr_begin(w, "jobs");
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct sweep_job *j = &s->jobs[i];
        const struct sweep_workload *wl = &cat->wl[j->wl];
        char file[SWEEP_ID_MAX + 16];
        snprintf(file, sizeof file, "jobs/%s.json", j->id);
        jw_obj_begin(w, NULL);
        jw_str(w, "id", j->id);
        jw_str(w, "workload", wl->name);
        jw_str(w, "size", cat->sizes[j->size]);
        jw_u64(w, "seed", j->seed);
        jw_str(w, "variant", s->var[j->variant].name);
        jw_arr_begin(w, "tags");
        for (unsigned t = 0; t < SWEEP_MAX_TAGS && wl->tags[t]; t++)
            jw_str(w, NULL, wl->tags[t]);
        jw_arr_end(w);
        /* The class `gpusim report` groups means by: the workload's
         * cache/memory sensitivity from bench/experiments/baseline. */
        bool cs = false, ms = false;
        for (unsigned t = 0; t < SWEEP_MAX_TAGS && wl->tags[t]; t++) {
            cs |= !strcmp(wl->tags[t], "cache-sensitive");
            ms |= !strcmp(wl->tags[t], "memory-sensitive");
        }
        jw_str(w, "class", cs && ms ? "cache+memory-sensitive" : cs ? "cache-sensitive" : ms ? "memory-sensitive"
                                                                                      : "insensitive");
        struct sweep_strv all = {0};
        sweep_variant_overrides(s, j->variant, &all);
        write_strv(w, "overrides", &all);
        sweep_strv_free(&all);
        jw_str(w, "file", file);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

bool sweep_out_write_manifest(const struct sweep *s, const char *out)
{
    char *path = path_join(out, "sweep.json");
    char err[512];
    int rc = json_write_atomic(path, manifest_doc, (void *)s, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "gpusim: sweep: %s\n", err);
    free(path);
    return rc == 0;
}

/* Find `"member": "` in a file this module wrote and copy the string value. */
static bool file_string_member(const char *path, const char *member, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\": \"", member);
    char *line = NULL;
    size_t cap = 0;
    bool found = false;
    while (!found && getline(&line, &cap, f) >= 0) {
        char *p = strstr(line, pat);
        if (!p)
            continue;
        p += strlen(pat);
        char *q = strchr(p, '"');
        if (!q)
            continue;
        snprintf(buf, len, "%.*s", (int)(q - p), p);
        found = true;
    }
    free(line);
    fclose(f);
    return found;
}

bool sweep_out_manifest_field(const char *out, const char *member, char *buf, size_t len)
{
    char *path = path_join(out, "sweep.json");
    bool ok = file_string_member(path, member, buf, len);
    free(path);
    return ok;
}

/* --------------------------------------------------------- stale work dirs */

void sweep_out_remove_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (dp) {
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *p = path_join(dir, e->d_name);
            unlink(p);
            free(p);
        }
        closedir(dp);
    }
    rmdir(dir);
}

void sweep_out_clean_stale(const char *out)
{
    char host[256];
    sweep_hostname(host, sizeof host);
    char *tmp = path_join(out, "tmp");
    DIR *dp = opendir(tmp);
    if (!dp) {
        free(tmp);
        return;
    }
    size_t hl = strlen(host);
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (strncmp(e->d_name, host, hl) || e->d_name[hl] != '.')
            continue;
        char *end;
        long pid = strtol(e->d_name + hl + 1, &end, 10);
        if (*end || pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH)) {
            char *p = path_join(tmp, e->d_name);
            sweep_out_remove_dir(p);
            free(p);
        }
    }
    closedir(dp);
    free(tmp);
}

/* -------------------------------------------------------- failure records */

struct failure_doc {
    const struct sweep *s;
    const struct sweep_job *j;
    const struct sweep_failure *f;
    char *const *argv;
};

static void failure_doc(struct json_writer *w, void *arg)
{
    const struct failure_doc *d = arg;
    const struct sweep *s = d->s;
    const struct sweep_job *j = d->j;
    const struct sweep_failure *f = d->f;
    char host[256];
    sweep_hostname(host, sizeof host);
    jw_obj_begin(w, NULL);
    jw_str(w, "format", SWEEP_FAIL_FORMAT);
    jw_str(w, "id", j->id);
    jw_str(w, "workload", s->cat->wl[j->wl].name);
    jw_str(w, "size", s->cat->sizes[j->size]);
    jw_u64(w, "seed", j->seed);
    jw_str(w, "variant", s->var[j->variant].name);
    jw_str(w, "reason", f->reason);
    if (f->exit_status >= 0)
        jw_i64(w, "exit_status", f->exit_status);
    else
        jw_null(w, "exit_status");
    if (f->signo > 0) {
        jw_i64(w, "signal", f->signo);
        jw_str(w, "signal_name", strsignal(f->signo));
    } else {
        jw_null(w, "signal");
    }
    jw_double(w, "seconds", f->seconds);
    jw_str(w, "host", host);
    jw_arr_begin(w, "command");
    for (char *const *a = d->argv; a && *a; a++)
        jw_str(w, NULL, *a);
    jw_arr_end(w);
    jw_str(w, "stderr_tail", f->stderr_tail ? f->stderr_tail : "");
    jw_obj_end(w);
}

bool sweep_out_write_failure(const struct sweep *s, const struct sweep_job *j, const char *out,
                             const char *tmpdir, const struct sweep_failure *f, char *const *argv)
{
    struct failure_doc doc = {s, j, f, argv};
    char name[SWEEP_ID_MAX + 16];
    snprintf(name, sizeof name, "%s.failed.json", j->id);
    char *tmp = path_join(tmpdir, name);
    char *dst = sweep_out_job_path(out, j->id, true);
    char err[512];
    bool ok = json_write_atomic(tmp, failure_doc, &doc, err, sizeof err) == 0;
    if (!ok)
        fprintf(stderr, "gpusim: sweep: %s\n", err);
    else if (rename(tmp, dst) != 0) {
        fprintf(stderr, "gpusim: sweep: cannot rename %s to %s: %s\n", tmp, dst, strerror(errno));
        unlink(tmp);
        ok = false;
    }
    free(tmp);
    free(dst);
    return ok;
}

void sweep_out_failure_reason(const char *out, const char *id, char *buf, size_t len)
{
    char *p = sweep_out_job_path(out, id, true);
    if (!file_string_member(p, "reason", buf, len))
        snprintf(buf, len, "?");
    free(p);
}
