/* sim/app/report_cli.c: the `gpusim report` command.
 *
 *   gpusim report OUT [--stat NAME]... [--csv FILE] [--md FILE]
 *                     [--svg-dir DIR] [--x KEY]
 *   gpusim report --list-stats
 *
 * Everything is read and computed before anything is written, so a bad
 * statistic name, sweep.json or --x key (exit 2) writes nothing; every
 * output file is written to a temporary name and renamed into place, so a
 * reader never sees half a file.
 * Without --csv, --md or --svg-dir the Markdown goes to standard output.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/report.h"
#include "sim/base/common.h"
#include "sim/base/diag.h"

enum { RP_EXIT_OK = 0, RP_EXIT_USAGE = 2 };

#define RP_MAX_STATS 64

/* Friendly statistics reported when no --stat is given; energy only when
 * some job has it. */
static const char *const default_stats[] = {"ipc", "cycles", "l1d_miss_rate", "l2_miss_rate", "dram_traffic", "energy"};

struct rp_opts {
    const char *out_dir;                 /* OUT */
    const char *stat_names[RP_MAX_STATS];/* --stat, in order */
    unsigned n_stat_names;
    bool defaults;                       /* no --stat: default_stats */
    const char *csv, *md, *svg_dir, *x_key;
    bool list_stats;                     /* --list-stats */
    char *split;                         /* owned copy of the --stat arguments, split at commas */
};

static void report_usage(FILE *f)
{
    fputs("usage: gpusim report OUT [--stat NAME]... [--csv FILE] [--md FILE] [--svg-dir DIR] [--x KEY]\n"
          "       gpusim report --list-stats\n"
          "\n"
          "Tables and figures from the jobs of a sweep (OUT/sweep.json, OUT/jobs/*.json): each statistic\n"
          "per workload x variant, averaged over seeds, normalised to the baseline variant, with\n"
          "geometric- and harmonic-mean rows (and per class when jobs carry one).\n"
          "\n"
          "  --stat NAME     a statistic of --list-stats or a dotted path into the job JSON\n"
          "                  (timing.ipc, stats.total.l1d.loads); repeatable or comma-separated\n"
          "                  (default: ipc, cycles, l1d_miss_rate, l2_miss_rate, dram_traffic, energy)\n"
          "  --csv FILE      write every cell and mean as CSV ('-' = stdout)\n"
          "  --md FILE       write the Markdown report ('-' = stdout; the default without outputs)\n"
          "  --svg-dir DIR   write a bar chart per statistic, DIR/<stat>.svg\n"
          "  --x KEY         also a line chart per statistic over the configuration key KEY that the\n"
          "                  variants sweep, DIR/<stat>-by-<KEY>.svg (needs --svg-dir)\n"
          "  --list-stats    list the statistic names\n"
          "\n"
          "exit codes: 0 ok, 2 usage or input error (bad OUT, unknown statistic, unwritable output)\n",
          f);
}

static int rp_usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "gpusim report: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nTry 'gpusim report --help'.\n");
    return RP_EXIT_USAGE;
}

/* Returns -1 to go on, else an exit code. */
static int parse_opts(int argc, char **argv, struct rp_opts *o)
{
    memset(o, 0, sizeof *o);
    size_t total = 1;
    for (int i = 0; i < argc; i++)
        total += strlen(argv[i]) + 1;
    o->split = xmalloc(total);
    char *sp = o->split;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char **dest = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            report_usage(stdout);
            return RP_EXIT_OK;
        } else if (!strcmp(a, "--list-stats")) {
            o->list_stats = true;
            continue;
        } else if (!strcmp(a, "--stat")) {
            if (!val || !strpbrk(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"))
                return rp_usage_error("option '%s' needs a statistic name", a);
            i++;
            strcpy(sp, val);
            char *save = NULL;
            for (char *tok = strtok_r(sp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (o->n_stat_names == RP_MAX_STATS)
                    return rp_usage_error("more than %s statistics", "64");
                o->stat_names[o->n_stat_names++] = tok;
            }
            sp += strlen(val) + 1;
            continue;
        } else if (!strcmp(a, "--csv")) {
            dest = &o->csv;
        } else if (!strcmp(a, "--md")) {
            dest = &o->md;
        } else if (!strcmp(a, "--svg-dir")) {
            dest = &o->svg_dir;
        } else if (!strcmp(a, "--x")) {
            dest = &o->x_key;
        } else if (a[0] == '-' && a[1]) {
            return rp_usage_error("unknown option '%s'", a);
        } else if (!o->out_dir) {
            o->out_dir = a;
            continue;
        } else {
            return rp_usage_error("only one OUT directory, got another: '%s'", a);
        }
        if (!val || !val[0])
            return rp_usage_error("option '%s' needs a value", a);
        *dest = val;
        i++;
    }
    if (o->list_stats)
        return -1;
    if (!o->out_dir)
        return rp_usage_error("report needs the OUT directory of a sweep%s", "");
    if (o->x_key && !o->svg_dir)
        return rp_usage_error("--x %s draws line charts: give --svg-dir DIR too", o->x_key);
    if (o->n_stat_names == 0) {
        o->defaults = true;
        for (size_t i = 0; i < ARRAY_LEN(default_stats); i++)
            o->stat_names[o->n_stat_names++] = default_stats[i];
    }
    return -1;
}

static void list_stats(void)
{
    size_t n;
    const struct rp_derived *d = rp_stat_list(&n);
    printf("statistics for 'gpusim report OUT --stat NAME' (or any dotted path into a job's JSON,\n"
           "e.g. timing.ipc or stats.total.l1d.loads):\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-18s %s%s%s%s\n", d[i].name, d[i].doc, d[i].unit[0] ? " [" : "", d[i].unit,
               d[i].unit[0] ? "]" : "");
}

/* --------------------------------------------------------------- outputs */

struct out_file {
    FILE *f;
    char *path;  /* final name, NULL for stdout */
    char *tmp;   /* temporary name */
};

static bool out_open(struct out_file *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return true;
    }
    size_t n = strlen(path) + 32;
    o->tmp = xmalloc(n);
    snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        fprintf(stderr, "gpusim report: cannot write %s: %s\n", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return false;
    }
    o->path = xstrdup(path);
    return true;
}

static bool out_close(struct out_file *o)
{
    bool ok = true;
    if (!o->path) {
        ok = fflush(o->f) == 0;
    } else {
        ok = fflush(o->f) == 0 && !ferror(o->f);
        ok &= fclose(o->f) == 0;
        if (ok && rename(o->tmp, o->path) != 0)
            ok = false;
        if (!ok) {
            fprintf(stderr, "gpusim report: cannot write %s: %s\n", o->path, strerror(errno));
            remove(o->tmp);
        }
    }
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return ok;
}

static bool mkdir_p(const char *dir)
{
    char *p = xstrdup(dir);
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                ok = false;
            *s = c;
            if (!c)
                break;
        }
    }
    struct stat sb;
    ok = ok && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (!ok)
        fprintf(stderr, "gpusim report: cannot create the directory %s: %s\n", dir, strerror(errno));
    free(p);
    return ok;
}

/* A name fit for a file: [A-Za-z0-9._-] kept, anything else '_'. */
static void file_safe(char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
              *s == '_' || *s == '-'))
            *s = '_';
}

/* The path of directory `to` relative to directory `from` (both exist). */
static char *rel_dir(const char *from, const char *to)
{
    char rf[PATH_MAX], rt[PATH_MAX];
    if (!realpath(from, rf) || !realpath(to, rt))
        return xstrdup(to);
    size_t common = 0, i = 0;
    for (; rf[i] && rf[i] == rt[i]; i++)
        if (rf[i] == '/')
            common = i;
    if (!rf[i] && (rt[i] == '/' || !rt[i]))
        common = i;
    else if (!rt[i] && rf[i] == '/')
        common = i;
    size_t ups = 0;
    for (const char *p = rf + common; *p; p++)
        ups += *p == '/';
    const char *rest = rt + common + (rt[common] == '/');
    char *r = xmalloc(ups * 3 + strlen(rest) + 2);
    r[0] = 0;
    for (size_t k = 0; k < ups; k++)
        strcat(r, "../");
    strcat(r, rest);
    size_t n = strlen(r);
    if (n == 0)
        strcpy(r, ".");
    else if (r[n - 1] == '/')
        r[n - 1] = 0;
    return r;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    char *d = xmalloc((size_t)(slash - path) + 1);
    memcpy(d, path, (size_t)(slash - path));
    d[slash - path] = 0;
    return d;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *r = xmalloc(n);
    if (!strcmp(a, "."))
        snprintf(r, n, "%s", b);
    else
        snprintf(r, n, "%s/%s", a, b);
    return r;
}

/* ------------------------------------------------------------------ main */

struct report_run {
    struct rp_sweep sweep;
    struct rp_stat stats[RP_MAX_STATS];
    unsigned n_stats;
    struct rp_table tables[RP_MAX_STATS];
    unsigned n_tables;
    char *bar_files[RP_MAX_STATS];  /* file names inside --svg-dir */
    char *line_files[RP_MAX_STATS];
    char **xs;                       /* [variant] x values of --x */
};

static int write_outputs(struct report_run *r, const struct rp_opts *o)
{
    struct rp_sweep *s = &r->sweep;
    struct out_file of;
    if (o->svg_dir) {
        if (!mkdir_p(o->svg_dir))
            return RP_EXIT_USAGE;
        for (unsigned t = 0; t < r->n_tables; t++) {
            for (int k = 0; k < (o->x_key ? 2 : 1); k++) {
                size_t n = strlen(r->tables[t].stat->name) + (o->x_key ? strlen(o->x_key) : 0) + 16;
                char *name = xmalloc(n);
                if (k)
                    snprintf(name, n, "%s-by-%s", r->tables[t].stat->name, o->x_key);
                else
                    snprintf(name, n, "%s", r->tables[t].stat->name);
                file_safe(name);
                strcat(name, ".svg");
                (k ? r->line_files : r->bar_files)[t] = name;
                char *path = join(o->svg_dir, name);
                bool ok = out_open(&of, path);
                free(path);
                if (!ok)
                    return RP_EXIT_USAGE;
                if (k)
                    rp_write_line_svg(of.f, s, &r->tables[t], o->x_key, r->xs);
                else
                    rp_write_bar_svg(of.f, s, &r->tables[t]);
                if (!out_close(&of))
                    return RP_EXIT_USAGE;
            }
        }
    }
    if (o->csv) {
        if (!out_open(&of, o->csv))
            return RP_EXIT_USAGE;
        rp_write_csv(of.f, s, r->tables, r->n_tables);
        if (!out_close(&of))
            return RP_EXIT_USAGE;
    }
    const char *md = o->md ? o->md : (!o->csv && !o->svg_dir) ? "-" : NULL;
    if (md) {
        char *bar[RP_MAX_STATS] = {0}, *line[RP_MAX_STATS] = {0};
        if (o->svg_dir) {
            char *mdir = strcmp(md, "-") ? dir_of(md) : xstrdup(".");
            char *rel = rel_dir(mdir, o->svg_dir);
            for (unsigned t = 0; t < r->n_tables; t++) {
                bar[t] = r->bar_files[t] ? join(rel, r->bar_files[t]) : NULL;
                line[t] = r->line_files[t] ? join(rel, r->line_files[t]) : NULL;
            }
            free(rel);
            free(mdir);
        }
        bool ok = out_open(&of, md);
        if (ok) {
            rp_write_markdown(of.f, s, r->tables, r->n_tables, bar, line);
            ok = out_close(&of);
        }
        for (unsigned t = 0; t < r->n_tables; t++) {
            free(bar[t]);
            free(line[t]);
        }
        if (!ok)
            return RP_EXIT_USAGE;
    }
    return RP_EXIT_OK;
}

static int run_report(struct report_run *r, const struct rp_opts *o)
{
    struct rp_sweep *s = &r->sweep;
    char err[1024];
    for (unsigned i = 0; i < o->n_stat_names; i++) {
        bool dup = false;
        for (unsigned k = 0; k < r->n_stats && !dup; k++)
            dup = !strcmp(r->stats[k].name, o->stat_names[i]);
        if (dup)
            continue;
        if (!rp_stat_parse(&r->stats[r->n_stats], o->stat_names[i], err, sizeof err)) {
            fprintf(stderr, "gpusim report: %s\n", err);
            return RP_EXIT_USAGE;
        }
        r->n_stats++;
    }
    struct diag d;
    diag_init(&d);
    d.limit = 20;
    bool ok = rp_sweep_load(s, o->out_dir, &d);
    if (!ok) {
        diag_print(&d, stderr);
        if (d.n_dropped)
            fprintf(stderr, "gpusim report: ... and %zu more errors\n", d.n_dropped);
        diag_fini(&d);
        return RP_EXIT_USAGE;
    }
    diag_fini(&d);
    rp_sweep_read_jobs(s, r->stats, r->n_stats, o->x_key);

    /* a path that gives no number in any finished job is a mistake */
    for (unsigned i = 0; i < r->n_stats; i++) {
        struct rp_stat *st = &r->stats[i];
        if (st->der || st->n_value || !s->n_ok)
            continue;
        fprintf(stderr, "gpusim report: statistic '%s' gives no number in any of the %u finished jobs: %s\n",
                st->name, s->n_ok, st->why_absent ? st->why_absent : "not found");
        return RP_EXIT_USAGE;
    }
    if (!s->n_ok && s->n_jobs)
        rp_warn(s, "no job of the sweep has finished: every cell is missing");
    for (unsigned i = 0; i < r->n_stats; i++) {
        const struct rp_stat *st = &r->stats[i];
        if (st->der && !st->n_value && s->n_ok) {
            if (o->defaults) {
                /* a default that does not apply to these jobs is left out
                 * (energy without an energy model: silently) */
                if (strcmp(st->name, "energy"))
                    rp_warn(s, "statistic '%s' is left out: none of the %u finished jobs has it (%s)", st->name,
                            s->n_ok, st->der->doc);
                continue;
            }
            rp_warn(s, "statistic '%s' is in none of the %u finished jobs (%s)", st->name, s->n_ok, st->der->doc);
        } else if (st->n_absent && st->n_value) {
            rp_warn(s, "statistic '%s' is absent from %u of the %u finished jobs%s%s", st->name, st->n_absent,
                    s->n_ok, st->why_absent ? ": " : "", st->why_absent ? st->why_absent : "");
        }
        rp_table_build(&r->tables[r->n_tables++], s, st, i);
    }
    if (o->x_key) {
        r->xs = xcalloc(s->n_vars ? s->n_vars : 1, sizeof *r->xs);
        if (!rp_sweep_x(s, o->x_key, r->xs, err, sizeof err)) {
            fprintf(stderr, "gpusim report: %s\n", err);
            return RP_EXIT_USAGE;
        }
    }
    for (unsigned i = 0; i < s->n_warnings; i++)
        fprintf(stderr, "gpusim report: warning: %s\n", s->warnings[i]);
    return write_outputs(r, o);
}

int report_main(int argc, char **argv)
{
    struct rp_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc < 0 && o.list_stats) {
        list_stats();
        rc = RP_EXIT_OK;
    }
    if (rc >= 0) {
        free(o.split);
        return rc;
    }
    struct report_run *r = xcalloc(1, sizeof *r);
    rc = run_report(r, &o);
    for (unsigned i = 0; i < r->n_tables; i++)
        rp_table_fini(&r->tables[i]);
    for (unsigned i = 0; i < r->n_stats; i++)
        rp_stat_fini(&r->stats[i]);
    for (unsigned i = 0; i < RP_MAX_STATS; i++) {
        free(r->bar_files[i]);
        free(r->line_files[i]);
    }
    if (r->xs)
        for (unsigned v = 0; v < r->sweep.n_vars; v++)
            free(r->xs[v]);
    free(r->xs);
    rp_sweep_fini(&r->sweep);
    free(r);
    free(o.split);
    return rc;
}
