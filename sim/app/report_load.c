/* sim/app/report_load.c: reading a sweep's OUT directory for `gpusim report`.
 *
 * sweep.json is checked as a whole and every problem is reported with
 * file:line (the sweep tool writes it, but a user may edit or hand-write
 * one): an unsupported format, a missing or mistyped member, a job naming an
 * unknown variant, a duplicate job id, an id that is not a plain file name.
 * Members this reader does not know are ignored, so the sweep tool can add
 * some without breaking older reports.
 *
 * Job files are read one at a time (a statistics file is some 200 KB;
 * sweeps have hundreds of jobs), the requested statistics are evaluated, and
 * the document is dropped. A job file that cannot be parsed only makes that
 * job missing, with a warning: one damaged file must not hide a whole sweep.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/report.h"
#include "sim/base/common.h"
#include "sim/base/diag.h"
#include "sim/base/jsonr.h"

#define RP_SWEEP_FORMAT "gpusim-sweep-1"

void rp_warn(struct rp_sweep *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->warnings = xrealloc(s->warnings, (s->n_warnings + 1) * sizeof *s->warnings);
    s->warnings[s->n_warnings++] = xstrdup(buf);
}

const char *rp_job_state_name(enum rp_job_state st)
{
    switch (st) {
    case RP_JOB_OK: return "ok";
    case RP_JOB_FAILED: return "failed";
    case RP_JOB_ABSENT: return "not run";
    case RP_JOB_INCOMPLETE: return "incomplete";
    case RP_JOB_UNREADABLE: return "unreadable";
    }
    return "?";
}

/* Index of name in a string list, appending it when absent. */
static unsigned intern(char ***list, unsigned *n, const char *name)
{
    for (unsigned i = 0; i < *n; i++)
        if (!strcmp((*list)[i], name))
            return i;
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[*n] = xstrdup(name);
    return (*n)++;
}

/* A string member; reports a missing or mistyped one unless optional. */
static const char *member_str(const struct jr_value *obj, const char *key, bool optional, const char *file,
                              const char *where, struct diag *d)
{
    const struct jr_value *v = jr_get(obj, key);
    if (!v) {
        if (!optional)
            diag_add(d, file, (int)obj->line, 0, "%s: missing member \"%s\"", where, key);
        return NULL;
    }
    if (v->type != JR_STRING) {
        diag_add(d, file, (int)v->line, 0, "%s: \"%s\" must be a string, not %s", where, key, jr_type_name(v->type));
        return NULL;
    }
    return v->u.str.s;
}

/* A job id becomes a file name under OUT/jobs/. */
static bool safe_id(const char *id)
{
    if (!id[0] || !strcmp(id, ".") || !strcmp(id, "..") || strlen(id) > 200)
        return false;
    for (const char *p = id; *p; p++)
        if (*p == '/' || *p == '\\' || (unsigned char)*p < 0x20)
            return false;
    return true;
}

static bool parse_seed(const struct jr_value *v, uint64_t *out)
{
    double x;
    if (jr_num(v, &x)) {
        if (x < 0 || x != floor(x) || x > 9007199254740992.0)
            return false;
        *out = (uint64_t)x;
        return true;
    }
    const char *s = jr_str(v);
    if (!s || !s[0] || s[0] == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = u;
    return true;
}

/* An optional array of "key=value" strings. */
static char **string_list(const struct jr_value *obj, const char *key, const char *file, const char *where,
                          unsigned *n_out, struct diag *d)
{
    const struct jr_value *ov = jr_get(obj, key);
    *n_out = 0;
    if (ov && ov->type != JR_ARRAY) {
        diag_add(d, file, (int)ov->line, 0, "%s: \"%s\" must be an array of \"key=value\" strings", where, key);
        return xcalloc(1, sizeof(char *));
    }
    size_t no = jr_len(ov);
    char **list = xcalloc(no ? no : 1, sizeof *list);
    for (size_t k = 0; k < no; k++) {
        const char *o = jr_str(jr_at(ov, k));
        if (!o || !strchr(o, '=')) {
            diag_add(d, file, (int)jr_at(ov, k)->line, 0, "%s: %s[%zu] must be a \"key=value\" string", where, key, k);
            continue;
        }
        list[(*n_out)++] = xstrdup(o);
    }
    return list;
}

static void load_variants(struct rp_sweep *s, const struct jr_value *arr, const char *file, struct diag *d)
{
    size_t n = jr_len(arr);
    s->vars = xcalloc(n ? n : 1, sizeof *s->vars);
    for (size_t i = 0; i < n; i++) {
        const struct jr_value *v = jr_at(arr, i);
        char where[64];
        snprintf(where, sizeof where, "variants[%zu]", i);
        if (v->type != JR_OBJECT) {
            diag_add(d, file, (int)v->line, 0, "%s must be an object, not %s", where, jr_type_name(v->type));
            continue;
        }
        const char *name = member_str(v, "name", false, file, where, d);
        if (!name)
            continue;
        for (unsigned k = 0; k < s->n_vars; k++)
            if (!strcmp(s->vars[k].name, name))
                diag_add(d, file, (int)v->line, 0, "%s: duplicate variant name \"%s\"", where, name);
        struct rp_variant *var = &s->vars[s->n_vars++];
        var->name = xstrdup(name);
        var->overrides = string_list(v, "overrides", file, where, &var->n_overrides, d);
        if (jr_get(v, "variant_overrides"))
            var->own = string_list(v, "variant_overrides", file, where, &var->n_own, d);
    }
}

static void load_jobs(struct rp_sweep *s, const struct jr_value *arr, const char *file, struct diag *d)
{
    size_t n = jr_len(arr);
    s->jobs = xcalloc(n ? n : 1, sizeof *s->jobs);
    for (size_t i = 0; i < n; i++) {
        const struct jr_value *v = jr_at(arr, i);
        char where[64];
        snprintf(where, sizeof where, "jobs[%zu]", i);
        if (v->type != JR_OBJECT) {
            diag_add(d, file, (int)v->line, 0, "%s must be an object, not %s", where, jr_type_name(v->type));
            continue;
        }
        const char *id = member_str(v, "id", false, file, where, d);
        const char *wl = member_str(v, "workload", false, file, where, d);
        const char *var = member_str(v, "variant", false, file, where, d);
        const char *size = member_str(v, "size", true, file, where, d);
        const char *cls = member_str(v, "class", true, file, where, d);
        const struct jr_value *seedv = jr_get(v, "seed");
        uint64_t seed = 0;
        bool ok = id && wl && var;
        if (!seedv) {
            diag_add(d, file, (int)v->line, 0, "%s: missing member \"seed\"", where);
            ok = false;
        } else if (!parse_seed(seedv, &seed)) {
            diag_add(d, file, (int)seedv->line, 0, "%s: \"seed\" must be a non-negative integer", where);
            ok = false;
        }
        if (id && !safe_id(id)) {
            diag_add(d, file, (int)v->line, 0, "%s: id \"%s\" is not a plain file name", where, id);
            ok = false;
        }
        unsigned vi = s->n_vars;
        for (unsigned k = 0; var && k < s->n_vars; k++)
            if (!strcmp(s->vars[k].name, var))
                vi = k;
        if (var && vi == s->n_vars) {
            diag_add(d, file, (int)v->line, 0, "%s: unknown variant \"%s\"", where, var);
            ok = false;
        }
        for (unsigned k = 0; id && k < s->n_jobs; k++)
            if (!strcmp(s->jobs[k].id, id)) {
                diag_add(d, file, (int)v->line, 0, "%s: duplicate job id \"%s\"", where, id);
                ok = false;
            }
        if (!ok)
            continue;
        struct rp_job *j = &s->jobs[s->n_jobs++];
        j->id = xstrdup(id);
        j->workload = xstrdup(wl);
        j->size = xstrdup(size ? size : "");
        j->seed = seed;
        j->var = vi;
        j->state = RP_JOB_ABSENT;
        /* the row: (workload, size) in order of first appearance */
        unsigned r = 0;
        while (r < s->n_rows && (strcmp(s->rows[r].workload, j->workload) || strcmp(s->rows[r].size, j->size)))
            r++;
        if (r == s->n_rows) {
            s->rows = xrealloc(s->rows, (s->n_rows + 1) * sizeof *s->rows);
            struct rp_row *row = &s->rows[s->n_rows++];
            row->workload = xstrdup(j->workload);
            row->size = xstrdup(j->size);
            row->label = NULL;
            row->cls = cls ? (int)intern(&s->classes, &s->n_classes, cls) : -1;
        } else {
            int c = cls ? (int)intern(&s->classes, &s->n_classes, cls) : -1;
            if (c != s->rows[r].cls)
                rp_warn(s, "job %s: class \"%s\" differs from the class of earlier jobs of %s (\"%s\"), which is kept",
                        j->id, cls ? cls : "(none)", j->workload,
                        s->rows[r].cls >= 0 ? s->classes[s->rows[r].cls] : "(none)");
        }
        j->row = r;
    }
}

bool rp_sweep_load(struct rp_sweep *s, const char *dir, struct diag *d)
{
    memset(s, 0, sizeof *s);
    s->dir = xstrdup(dir);
    size_t before = diag_count(d);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        diag_add(d, dir, 0, 0, "not a directory (expected the OUT directory of a sweep)");
        return false;
    }
    size_t pl = strlen(dir) + 32;
    char *file = xmalloc(pl);
    snprintf(file, pl, "%s/sweep.json", dir);
    char err[1024];
    struct jr_doc *doc = jr_parse_file(file, err, sizeof err);
    if (!doc) {
        diag_add(d, NULL, 0, 0, "%s%s", err,
                 access(file, F_OK) != 0 ? " (is this the OUT directory of 'gpusim sweep'?)" : "");
        free(file);
        return false;
    }
    const struct jr_value *root = jr_root(doc);
    if (root->type != JR_OBJECT) {
        diag_add(d, file, (int)root->line, 0, "the top level must be an object");
        goto out;
    }
    const char *fmt = member_str(root, "format", false, file, "sweep", d);
    if (fmt && strcmp(fmt, RP_SWEEP_FORMAT)) {
        diag_add(d, file, (int)jr_get(root, "format")->line, 0, "format \"%s\" is not supported (this gpusim reads \"%s\")",
                 fmt, RP_SWEEP_FORMAT);
        goto out;
    }
    const struct jr_value *vars = jr_get(root, "variants"), *jobs = jr_get(root, "jobs");
    if (!vars || vars->type != JR_ARRAY || jr_len(vars) == 0)
        diag_add(d, file, (int)(vars ? vars->line : root->line), 0, "\"variants\" must be a non-empty array");
    else
        load_variants(s, vars, file, d);
    if (!jobs || jobs->type != JR_ARRAY)
        diag_add(d, file, (int)(jobs ? jobs->line : root->line), 0, "\"jobs\" must be an array");
    else
        load_jobs(s, jobs, file, d);
    const char *base = member_str(root, "baseline", false, file, "sweep", d);
    if (base) {
        s->base_var = s->n_vars;
        for (unsigned k = 0; k < s->n_vars; k++)
            if (!strcmp(s->vars[k].name, base))
                s->base_var = k;
        if (s->base_var == s->n_vars)
            diag_add(d, file, (int)jr_get(root, "baseline")->line, 0, "baseline \"%s\" is not one of the variants",
                     base);
    }
    if (diag_count(d) == before && s->n_jobs == 0)
        rp_warn(s, "%s lists no jobs", file);
    /* row labels: the size only when the sweep has several */
    bool multi = false;
    for (unsigned r = 1; r < s->n_rows; r++)
        multi |= strcmp(s->rows[r].size, s->rows[0].size) != 0;
    for (unsigned r = 0; r < s->n_rows; r++) {
        size_t n = strlen(s->rows[r].workload) + strlen(s->rows[r].size) + 4;
        s->rows[r].label = xmalloc(n);
        if (multi && s->rows[r].size[0])
            snprintf(s->rows[r].label, n, "%s (%s)", s->rows[r].workload, s->rows[r].size);
        else
            snprintf(s->rows[r].label, n, "%s", s->rows[r].workload);
    }
out:
    jr_free(doc);
    free(file);
    return diag_count(d) == before;
}

/* ------------------------------------------------------------- job files */

/* The effective configuration value of key in a job document, as text. */
static char *config_value(const struct jr_value *job, const char *key)
{
    const struct jr_value *v = jr_get(jr_get(job, "config"), key);
    if (!v)
        return NULL;
    if (v->type == JR_STRING)
        return xstrdup(v->u.str.s);
    if (v->type == JR_NUMBER) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", v->u.num);
        return xstrdup(buf);
    }
    if (v->type == JR_BOOL)
        return xstrdup(v->u.b ? "true" : "false");
    return NULL;
}

/* The "reason" a failure record gives (gpusim-job-failure-1), or NULL. */
static char *failure_reason(const char *path)
{
    char err[256];
    struct jr_doc *doc = jr_parse_file(path, err, sizeof err);
    const char *r = jr_str(jr_get(jr_root(doc), "reason"));
    char *out = r ? xstrdup(r) : NULL;
    jr_free(doc);
    return out;
}

void rp_sweep_read_jobs(struct rp_sweep *s, struct rp_stat *stats, size_t n_stats, const char *x_key)
{
    size_t pl = strlen(s->dir) + 256;
    char *path = xmalloc(pl);
    unsigned n_unreadable = 0;
    free(s->x_key);
    s->x_key = x_key ? xstrdup(x_key) : NULL;
    s->n_ok = 0;
    for (unsigned i = 0; i < s->n_jobs; i++) {
        struct rp_job *j = &s->jobs[i];
        free(j->why);
        j->why = NULL;
        free(j->values);
        j->values = xcalloc(n_stats ? n_stats : 1, sizeof *j->values);
        for (size_t k = 0; k < n_stats; k++)
            j->values[k] = NAN;
        snprintf(path, pl, "%s/jobs/%s.json", s->dir, j->id);
        if (access(path, F_OK) != 0) {
            snprintf(path, pl, "%s/jobs/%s.failed.json", s->dir, j->id);
            j->state = access(path, F_OK) == 0 ? RP_JOB_FAILED : RP_JOB_ABSENT;
            if (j->state == RP_JOB_FAILED)
                j->why = failure_reason(path);
            continue;
        }
        char err[1024];
        struct jr_doc *doc = jr_parse_file(path, err, sizeof err);
        const struct jr_value *root = jr_root(doc);
        if (!doc || root->type != JR_OBJECT) {
            j->state = RP_JOB_UNREADABLE;
            j->why = xstrdup(doc ? "the top level is not an object" : err);
            if (n_unreadable++ < 5)
                rp_warn(s, "job %s is left out: %s", j->id, doc ? "the top level is not an object" : err);
            jr_free(doc);
            continue;
        }
        const struct jr_value *complete = jr_get(root, "complete");
        if (complete && complete->type == JR_BOOL && !complete->u.b) {
            j->state = RP_JOB_INCOMPLETE;
            jr_free(doc);
            continue;
        }
        j->state = RP_JOB_OK;
        s->n_ok++;
        const char *rev = jr_str(jr_get(root, "git_revision"));
        if (rev)
            intern(&s->revisions, &s->n_revisions, rev);
        free(j->x);
        j->x = x_key ? config_value(root, x_key) : NULL;
        for (size_t k = 0; k < n_stats; k++) {
            bool absent = false;
            char why[256] = "";
            j->values[k] = rp_stat_eval(&stats[k], root, &absent, why, sizeof why);
            if (absent) {
                stats[k].n_absent++;
                if (!stats[k].why_absent && why[0])
                    stats[k].why_absent = xstrdup(why);
            } else {
                stats[k].n_value++;
            }
        }
        jr_free(doc);
    }
    if (n_unreadable > 5)
        rp_warn(s, "%u more job files could not be read", n_unreadable - 5);
    free(path);
}

void rp_sweep_fini(struct rp_sweep *s)
{
    free(s->dir);
    for (unsigned i = 0; i < s->n_vars; i++) {
        free(s->vars[i].name);
        for (unsigned k = 0; k < s->vars[i].n_overrides; k++)
            free(s->vars[i].overrides[k]);
        free(s->vars[i].overrides);
        for (unsigned k = 0; k < s->vars[i].n_own; k++)
            free(s->vars[i].own[k]);
        free(s->vars[i].own);
    }
    free(s->vars);
    for (unsigned i = 0; i < s->n_jobs; i++) {
        struct rp_job *j = &s->jobs[i];
        free(j->id);
        free(j->workload);
        free(j->size);
        free(j->why);
        free(j->values);
        free(j->x);
    }
    free(s->jobs);
    for (unsigned i = 0; i < s->n_rows; i++) {
        free(s->rows[i].workload);
        free(s->rows[i].size);
        free(s->rows[i].label);
    }
    free(s->rows);
    for (unsigned i = 0; i < s->n_classes; i++)
        free(s->classes[i]);
    free(s->classes);
    for (unsigned i = 0; i < s->n_revisions; i++)
        free(s->revisions[i]);
    free(s->revisions);
    for (unsigned i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    free(s->x_key);
    memset(s, 0, sizeof *s);
}
