/* sim/app/report_text.c: CSV and Markdown output of `gpusim report`.
 *
 * CSV is "long" (one line per statistic x row x variant, then the mean
 * lines), which spreadsheets, pandas and gnuplot read directly; numbers are
 * printed with %.17g so nothing is lost, and an undefined value is an empty
 * field. Markdown is for people: one table per statistic with the normalised
 * value and, in brackets, the raw mean, then the mean rows, with every
 * missing cell and every excluded row said in words.
 */
#include <math.h>
#include <string.h>

#include "sim/app/report.h"

#define MD_MAX_MISSING_ROWS 50 /* missing-job lines listed before "and N more" */

/* ------------------------------------------------------------------- CSV */

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.17g", v);
}

static void csv_line(FILE *f, const char *stat, const char *kind, const char *wl, const char *size, const char *cls,
                     const char *var, unsigned n, unsigned of, double value, double norm)
{
    csv_field(f, stat);
    fputc(',', f);
    csv_field(f, kind);
    fputc(',', f);
    csv_field(f, wl);
    fputc(',', f);
    csv_field(f, size);
    fputc(',', f);
    csv_field(f, cls);
    fputc(',', f);
    csv_field(f, var);
    fprintf(f, ",%u,%u,", n, of);
    csv_num(f, value);
    fputc(',', f);
    csv_num(f, norm);
    fputc('\n', f);
}

void rp_write_csv(FILE *f, const struct rp_sweep *s, const struct rp_table *tables, size_t n_tables)
{
    fputs("statistic,kind,workload,size,class,variant,n,of,value,normalised\n", f);
    for (size_t t = 0; t < n_tables; t++) {
        const struct rp_table *tb = &tables[t];
        const char *stat = tb->stat->name;
        for (unsigned r = 0; r < tb->n_rows; r++) {
            const struct rp_row *row = &s->rows[r];
            const char *cls = row->cls >= 0 ? s->classes[row->cls] : "";
            for (unsigned v = 0; v < tb->n_vars; v++) {
                const struct rp_cell *c = rp_cell_at(tb, r, v);
                csv_line(f, stat, "workload", row->workload, row->size, cls, s->vars[v].name, c->n_seeds, c->n_jobs,
                         c->value, c->norm);
            }
        }
        for (int k = 0; k < 2; k++)
            for (unsigned v = 0; v < tb->n_vars; v++) {
                const struct rp_mean *m = &tb->all[v];
                csv_line(f, stat, k ? "hmean" : "geomean", "", "", "", s->vars[v].name, m->n, m->n_rows, NAN,
                         k ? m->harm : m->geo);
            }
        for (unsigned c = 0; c < tb->n_classes; c++)
            for (int k = 0; k < 2; k++)
                for (unsigned v = 0; v < tb->n_vars; v++) {
                    const struct rp_mean *m = &tb->by_class[(size_t)c * tb->n_vars + v];
                    csv_line(f, stat, k ? "hmean" : "geomean", "", "", s->classes[c], s->vars[v].name, m->n,
                             m->n_rows, NAN, k ? m->harm : m->geo);
                }
    }
}

/* -------------------------------------------------------------- Markdown */

/* Text from the data, escaped for a Markdown table cell. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_|<>[]#", *s))
            fputc('\\', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
}

/* A raw value: integers up to 1e9 in full, otherwise four significant digits. */
static void md_raw(FILE *f, double v)
{
    if (isnan(v))
        fputs("n/a", f);
    else if (fabs(v) >= 100 && fabs(v) < 1e9)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.4g", v);
}

static void md_cell(FILE *f, const struct rp_cell *c)
{
    if (c->n_ok == 0) {
        fputs("missing", f);
        return;
    }
    if (c->n_seeds == 0) {
        fputs("n/a", f);
        return;
    }
    if (isnan(c->norm))
        fputs("n/a", f);
    else
        fprintf(f, "%.3f", c->norm);
    fputs(" (", f);
    md_raw(f, c->value);
    fputc(')', f);
    if (c->n_seeds < c->n_jobs)
        fputc('*', f);
}

static void md_mean(FILE *f, const struct rp_mean *m, bool geo)
{
    double v = geo ? m->geo : m->harm;
    if (isnan(v))
        fputs("n/a", f);
    else
        fprintf(f, "%.3f", v);
    if (m->n < m->n_rows)
        fprintf(f, " (%u of %u)", m->n, m->n_rows);
}

static void md_table(FILE *f, const struct rp_sweep *s, const struct rp_table *t)
{
    bool classes = s->n_classes > 0;
    fputs("| workload |", f);
    if (classes)
        fputs(" class |", f);
    for (unsigned v = 0; v < t->n_vars; v++) {
        fputc(' ', f);
        md_text(f, s->vars[v].name);
        fputs(" |", f);
    }
    fputs("\n|---|", f);
    if (classes)
        fputs("---|", f);
    for (unsigned v = 0; v < t->n_vars; v++)
        fputs("--:|", f);
    fputc('\n', f);
    for (unsigned r = 0; r < t->n_rows; r++) {
        fputs("| ", f);
        md_text(f, s->rows[r].label);
        fputs(" |", f);
        if (classes) {
            fputc(' ', f);
            md_text(f, s->rows[r].cls >= 0 ? s->classes[s->rows[r].cls] : "-");
            fputs(" |", f);
        }
        for (unsigned v = 0; v < t->n_vars; v++) {
            fputc(' ', f);
            md_cell(f, rp_cell_at(t, r, v));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    for (int k = 0; k < 2; k++) {
        fprintf(f, "| **%s** |%s", k ? "hmean" : "geomean", classes ? " |" : "");
        for (unsigned v = 0; v < t->n_vars; v++) {
            fputs(" **", f);
            md_mean(f, &t->all[v], k == 0);
            fputs("** |", f);
        }
        fputc('\n', f);
    }
    for (unsigned c = 0; c < t->n_classes; c++)
        for (int k = 0; k < 2; k++) {
            fprintf(f, "| %s | ", k ? "hmean" : "geomean");
            md_text(f, s->classes[c]);
            fputs(" |", f);
            for (unsigned v = 0; v < t->n_vars; v++) {
                fputc(' ', f);
                md_mean(f, &t->by_class[(size_t)c * t->n_vars + v], k == 0);
                fputs(" |", f);
            }
            fputc('\n', f);
        }
}

static void md_summary(FILE *f, const struct rp_sweep *s)
{
    unsigned count[RP_JOB_UNREADABLE + 1] = {0};
    for (unsigned i = 0; i < s->n_jobs; i++)
        count[s->jobs[i].state]++;
    fputs("# Sweep report: ", f);
    md_text(f, s->dir);
    fprintf(f, "\n\n%u jobs: %u finished", s->n_jobs, count[RP_JOB_OK]);
    for (int st = RP_JOB_FAILED; st <= RP_JOB_UNREADABLE; st++)
        if (count[st])
            fprintf(f, ", %u %s", count[st], rp_job_state_name((enum rp_job_state)st));
    fprintf(f, ". %u workload%s, %u variant%s; baseline variant: `", s->n_rows, s->n_rows == 1 ? "" : "s", s->n_vars,
            s->n_vars == 1 ? "" : "s");
    fputs(s->vars[s->base_var].name, f);
    fputs("`.\n", f);
    if (s->n_revisions == 1)
        fprintf(f, "Results from gpusim revision `%s`.\n", s->revisions[0]);
    else if (s->n_revisions > 1) {
        fputs("**The jobs come from several gpusim revisions:**", f);
        for (unsigned i = 0; i < s->n_revisions; i++)
            fprintf(f, "%s `%s`", i ? "," : "", s->revisions[i]);
        fputs(".\n", f);
    }
    fputs("\n## Variants\n\n| variant | overrides |\n|---|---|\n", f);
    for (unsigned v = 0; v < s->n_vars; v++) {
        fputs("| ", f);
        md_text(f, s->vars[v].name);
        if (v == s->base_var)
            fputs(" (baseline)", f);
        fputs(" |", f);
        char *const *ov = s->vars[v].own ? s->vars[v].own : s->vars[v].overrides;
        unsigned n_ov = s->vars[v].own ? s->vars[v].n_own : s->vars[v].n_overrides;
        if (!n_ov)
            fputs(" (none)", f);
        for (unsigned k = 0; k < n_ov; k++) {
            fputs(k ? ", " : " ", f);
            md_text(f, ov[k]);
        }
        fputs(" |\n", f);
    }
    fprintf(f,
            "\n## Reading the tables\n\n"
            "Each cell is the mean of the statistic over the seeds of that workload and variant, normalised to the "
            "baseline variant `%s` on the same workload (cell / baseline cell); the raw mean follows in brackets. "
            "The **geomean** and **hmean** rows are the geometric and harmonic means of the normalised values over "
            "the workloads; `geomean <class>` and `hmean <class>` take the workloads of one class only.\n\n"
            "`missing`: no job of the cell finished (failed, not run, interrupted or unreadable; listed below). "
            "`n/a`: the value is undefined (a zero denominator, or the baseline is missing or 0). Such cells are "
            "left out of that variant's means, and a mean taken over fewer than all workloads says over how many, "
            "e.g. `0.912 (3 of 4)`. `*` marks a cell averaged over fewer seeds than the sweep ran.\n",
            s->vars[s->base_var].name);
}

static void md_missing(FILE *f, const struct rp_sweep *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n_jobs; i++)
        n += s->jobs[i].state != RP_JOB_OK;
    if (!n)
        return;
    fprintf(f, "\n## Missing jobs\n\n%u of %u jobs have no results and are left out of the tables and means.\n\n",
            n, s->n_jobs);
    fputs("| job | workload | size | seed | variant | state |\n|---|---|---|--:|---|---|\n", f);
    unsigned shown = 0;
    for (unsigned i = 0; i < s->n_jobs && shown < MD_MAX_MISSING_ROWS; i++) {
        const struct rp_job *j = &s->jobs[i];
        if (j->state == RP_JOB_OK)
            continue;
        shown++;
        fputs("| ", f);
        md_text(f, j->id);
        fputs(" | ", f);
        md_text(f, j->workload);
        fputs(" | ", f);
        md_text(f, j->size);
        fprintf(f, " | %llu | ", (unsigned long long)j->seed);
        md_text(f, s->vars[j->var].name);
        fprintf(f, " | %s", rp_job_state_name(j->state));
        if (j->why) {
            fputs(": ", f);
            md_text(f, j->why);
        }
        fputs(" |\n", f);
    }
    if (n > shown)
        fprintf(f, "\nand %u more.\n", n - shown);
}

void rp_write_markdown(FILE *f, const struct rp_sweep *s, const struct rp_table *tables, size_t n_tables,
                       char *const *bar_figs, char *const *line_figs)
{
    md_summary(f, s);
    for (size_t t = 0; t < n_tables; t++) {
        const struct rp_table *tb = &tables[t];
        const struct rp_stat *st = tb->stat;
        fprintf(f, "\n## `%s`\n\n", st->name); /* a friendly name or a path: no backticks */
        if (st->der)
            fputs(st->der->doc, f);
        else
            fprintf(f, "The value at `%s` in each job's statistics", st->name);
        if (st->der && st->der->unit[0])
            fprintf(f, ", in %s", st->der->unit);
        if (st->der && st->der->better)
            fprintf(f, "; %s is better", st->der->better > 0 ? "higher" : "lower");
        fputs(".", f);
        if (tb->n_missing)
            fprintf(f, " Cells without a normalised value, left out of the means: %u of %u.", tb->n_missing,
                    tb->n_rows * tb->n_vars);
        if (st->n_value == 0 && s->n_ok)
            fputs(" No finished job has this statistic.", f);
        fputs("\n\n", f);
        md_table(f, s, tb);
        for (int k = 0; k < 2; k++) {
            char *const *figs = k ? line_figs : bar_figs;
            if (figs && figs[t]) {
                fputs("\n![", f);
                md_text(f, st->name);
                fprintf(f, "](%s)\n", figs[t]);
            }
        }
    }
    md_missing(f, s);
    if (s->n_warnings) {
        fputs("\n## Warnings\n\n", f);
        for (unsigned i = 0; i < s->n_warnings; i++) {
            fputs("- ", f);
            md_text(f, s->warnings[i]);
            fputc('\n', f);
        }
    }
}
