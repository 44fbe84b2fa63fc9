/* sim/app/report.h: `gpusim report OUT`, tables and figures from a sweep.
 *
 * Reads the layout that `gpusim sweep` writes (OUT/sweep.json, the job list;
 * OUT/jobs/<id>.json, each exactly the `gpusim run --stats` document;
 * OUT/jobs/<id>.failed.json for a failed job) and turns one or more
 * statistics into
 *  - a table per statistic: one row per workload (and size), one column per
 *    variant, each cell the mean over seeds, normalised to the baseline
 *    variant of the same row, with geometric- and harmonic-mean rows over the
 *    workloads and the same means per workload class;
 *  - CSV (one line per statistic x row x variant), Markdown, and SVG figures
 *    (a grouped bar chart per statistic, a line chart over a swept key).
 *
 * A statistic is a friendly name from a fixed list (rp_stat_list: ipc,
 * cycles, l1d_miss_rate, dram_traffic, energy, ...) or a dotted path into the
 * job document (timing.ipc, stats.total.l1d.loads). Not modelled: confidence
 * intervals, weighting workloads, anything that needs the raw per-kernel
 * records beyond what a path can name.
 *
 * Modules: report_load.c (sweep and job files), report_stat.c (statistics),
 * report_calc.c (tables and means), report_text.c (CSV and Markdown),
 * report_fig.c (SVG), report_cli.c (the command). Described for users in
 * docs/report.md.
 */
#ifndef GPUSIM_SIM_APP_REPORT_H
#define GPUSIM_SIM_APP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"

struct jr_value;
struct diag;

/* The command: argv[0] is the first argument after "report". Returns the
 * exit code: 0 ok; 2 usage or input error (no sweep.json, a bad one, an
 * unknown statistic or --x key, an output that cannot be written). */
int report_main(int argc, char **argv);

/* ------------------------------------------------------------ the sweep */

enum rp_job_state {
    RP_JOB_OK,         /* jobs/<id>.json read, complete */
    RP_JOB_FAILED,     /* jobs/<id>.failed.json present */
    RP_JOB_ABSENT,     /* neither file: not run (yet) */
    RP_JOB_INCOMPLETE, /* jobs/<id>.json says "complete": false */
    RP_JOB_UNREADABLE, /* jobs/<id>.json is not valid JSON */
};

struct rp_job {
    char *id;              /* stable job id (file name stem) */
    char *workload;        /* workload name */
    char *size;            /* size class ("" when the sweep gave none) */
    uint64_t seed;         /* input seed */
    unsigned var;          /* index into rp_sweep.vars */
    unsigned row;          /* index into rp_sweep.rows */
    enum rp_job_state state;
    char *why;             /* UNREADABLE: the parse error; FAILED: the reason recorded; else NULL */
    double *values;        /* [stat]: the statistics asked for (NaN = none); OK jobs only */
    char *x;               /* effective configuration value of the swept key, or NULL */
};

struct rp_variant {
    char *name;            /* variant name */
    char **overrides;      /* every "key=value" the variant's jobs run with, n_overrides of them */
    unsigned n_overrides;
    char **own;            /* the variant's own overrides (sweep.json "variant_overrides"), shown in
                            * the report; NULL = the same as overrides */
    unsigned n_own;
};

/* One table row: a workload at one size. */
struct rp_row {
    char *workload;
    char *size;            /* "" when the sweep gave none */
    char *label;           /* "workload", or "workload (size)" when the sweep has several sizes */
    int cls;               /* index into rp_sweep.classes, -1 = no class */
};

struct rp_sweep {
    char *dir;             /* OUT */
    unsigned base_var;     /* index of the baseline variant */
    struct rp_variant *vars;
    unsigned n_vars;
    struct rp_job *jobs;
    unsigned n_jobs;
    struct rp_row *rows;   /* in order of first appearance in the job list */
    unsigned n_rows;
    char **classes;        /* distinct class names, in order of first appearance */
    unsigned n_classes;
    unsigned n_ok;         /* jobs in state RP_JOB_OK */
    char **revisions;      /* distinct git_revision values of the OK jobs */
    unsigned n_revisions;
    char *x_key;           /* the key whose values rp_sweep_read_jobs kept in rp_job.x, or NULL */
    char **warnings;       /* non-fatal remarks (printed on stderr and in the Markdown) */
    unsigned n_warnings;
};

/* Loads OUT/sweep.json. Problems (missing, not JSON, a member missing or of
 * the wrong type, an unknown variant or baseline, a duplicate or unsafe job
 * id) go to d with file:line and make it return false. */
bool rp_sweep_load(struct rp_sweep *s, const char *dir, struct diag *d);
void rp_sweep_fini(struct rp_sweep *s);
/* Adds a non-fatal remark to s->warnings. */
void rp_warn(struct rp_sweep *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
const char *rp_job_state_name(enum rp_job_state st);

/* ----------------------------------------------------------- statistics */

/* A statistic computed from one job document. */
struct rp_derived {
    const char *name;      /* friendly name, e.g. "l1d_miss_rate" */
    const char *doc;       /* what it is, with its definition */
    const char *unit;      /* "", "cycles", "bytes", "nJ", ... */
    int better;            /* +1 higher is better, -1 lower is better, 0 neither */
    /* The value, or NaN when undefined (a zero denominator) or when a member
     * it needs is absent (then *absent is set). */
    double (*eval)(const struct jr_value *job, bool *absent);
};

/* The fixed list of friendly statistics, and its length. */
const struct rp_derived *rp_stat_list(size_t *n);

struct rp_stat {
    char *name;                    /* as the user wrote it */
    const struct rp_derived *der;  /* friendly statistic, or NULL for a path */
    unsigned n_value;              /* OK jobs that gave a number (or NaN from a zero denominator) */
    unsigned n_absent;             /* OK jobs where it is absent */
    char *why_absent;              /* a path: why the first OK job gave no number */
};

/* A friendly name, or a dotted path (any name with a '.'). Returns false
 * with a message ("did you mean") for anything else. */
bool rp_stat_parse(struct rp_stat *st, const char *name, char *err, size_t err_len);
void rp_stat_fini(struct rp_stat *st);
/* Value of st for one job document: NaN if undefined, or if absent (then
 * *absent is set and, for a path, why names the reason). */
double rp_stat_eval(const struct rp_stat *st, const struct jr_value *job, bool *absent, char *why, size_t why_len);
/* Follows a dotted path: at an object, a segment is the longest member name
 * that is a prefix of the rest of the path and ends at a '.' or the end
 * (statistic names contain dots: "stats.total.l1d.loads"), trying shorter
 * ones if the rest does not resolve; at an array, a segment of digits is an
 * index. NULL if it does not resolve. */
const struct jr_value *rp_path(const struct jr_value *root, const char *path);
/* Number of a resolved value: a number; or an object's numeric "total"
 * (instanced counters) or "mean" (averages, histograms). */
bool rp_value_num(const struct jr_value *v, double *out);
/* One-line description: the friendly statistic's doc, or the path. */
const char *rp_stat_doc(const struct rp_stat *st);

/* Reads every job file of the sweep once: its state, the value of each of
 * the n_stats statistics (counted in stats[i].n_value / n_absent), its
 * git_revision, and the effective value of x_key (may be NULL). The job
 * documents are not kept. */
void rp_sweep_read_jobs(struct rp_sweep *s, struct rp_stat *stats, size_t n_stats, const char *x_key);

/* ---------------------------------------------------------------- tables */

struct rp_cell {
    double value;          /* mean over the seeds with a value; NaN if none */
    double norm;           /* value / baseline value of the row; NaN if undefined */
    unsigned n_seeds;      /* jobs (one per seed) that gave a defined value */
    unsigned n_ok;         /* jobs that finished */
    unsigned n_jobs;       /* jobs of the sweep in this cell */
};

struct rp_mean {
    double geo;            /* geometric mean of the normalised values; NaN if none */
    double harm;           /* harmonic mean of the same values */
    unsigned n;            /* rows that entered the means */
    unsigned n_rows;       /* rows that could have (all rows, or the rows of the class) */
};

struct rp_table {
    const struct rp_stat *stat;
    unsigned stat_index;       /* index of stat in the list given to rp_sweep_read_jobs */
    unsigned n_rows, n_vars, n_classes;
    struct rp_cell *cells;     /* [row * n_vars + var] */
    struct rp_mean *all;       /* [var]: over every row */
    struct rp_mean *by_class;  /* [cls * n_vars + var] */
    unsigned n_missing;        /* cells without a normalised value */
    unsigned n_partial;        /* cells with fewer seeds than jobs */
};

void rp_table_build(struct rp_table *t, const struct rp_sweep *s, const struct rp_stat *st, unsigned stat_index);
void rp_table_fini(struct rp_table *t);
static inline const struct rp_cell *rp_cell_at(const struct rp_table *t, unsigned row, unsigned var)
{
    return &t->cells[(size_t)row * t->n_vars + var];
}

/* Geometric and harmonic means of n values; values that are NaN are
 * skipped. A zero makes both 0 (their limit); a negative value makes both
 * NaN. NaN when no value remains. */
double rp_geomean(const double *v, size_t n);
double rp_hmean(const double *v, size_t n);

/* --------------------------------------------------------------- outputs */

void rp_write_csv(FILE *f, const struct rp_sweep *s, const struct rp_table *tables, size_t n_tables);
/* bar_figs, line_figs: per table, the SVG file to link from the Markdown
 * (relative to it), or NULL; either array may be NULL. */
void rp_write_markdown(FILE *f, const struct rp_sweep *s, const struct rp_table *tables, size_t n_tables,
                       char *const *bar_figs, char *const *line_figs);

/* x position of each variant for a line chart over key: taken from the
 * variant's override "key=value", else from the effective configuration of
 * one of its OK jobs (read by rp_sweep_read_jobs with the same key). xs[v] is NULL where neither has the key (the variant
 * is left out). Returns false with a message when no variant has the key or
 * two variants share a value. Caller frees each xs[v]. */
bool rp_sweep_x(const struct rp_sweep *s, const char *key, char **xs, char *err, size_t err_len);

void rp_write_bar_svg(FILE *f, const struct rp_sweep *s, const struct rp_table *t);
/* xs as returned by rp_sweep_x. */
void rp_write_line_svg(FILE *f, const struct rp_sweep *s, const struct rp_table *t, const char *key,
                       char *const *xs);

#endif /* GPUSIM_SIM_APP_REPORT_H */
