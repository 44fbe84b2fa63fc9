/* sim/app/report_calc.c: the arithmetic of `gpusim report`.
 *
 * For one statistic:
 *  1. cell (row, variant) = arithmetic mean over the cell's jobs that
 *     finished and gave a defined value (one job per seed);
 *  2. norm = cell / cell of the baseline variant in the same row (undefined
 *     when either is missing or the baseline is 0);
 *  3. per variant, the geometric and harmonic means of norm over the rows
 *     where it is defined, over all rows and over the rows of each class.
 * Rows without a defined norm are left out of that variant's means, and the
 * mean records over how many rows it was taken (n of n_rows), so the report
 * can say so. Means are taken of the normalised values, never of raw values
 * of different workloads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/report.h"
#include "sim/base/common.h"

double rp_geomean(const double *v, size_t n)
{
    double log_sum = 0;
    size_t k = 0;
    bool zero = false;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        if (v[i] < 0)
            return NAN;
        if (v[i] == 0)
            zero = true;
        else
            log_sum += log(v[i]);
        k++;
    }
    if (k == 0)
        return NAN;
    return zero ? 0.0 : exp(log_sum / (double)k);
}

double rp_hmean(const double *v, size_t n)
{
    double inv_sum = 0;
    size_t k = 0;
    bool zero = false;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        if (v[i] < 0)
            return NAN;
        if (v[i] == 0)
            zero = true;
        else
            inv_sum += 1.0 / v[i];
        k++;
    }
    if (k == 0)
        return NAN;
    return zero ? 0.0 : (double)k / inv_sum;
}

/* Means of column var over the rows with cls (-2 = every row). */
static void column_means(const struct rp_table *t, const struct rp_sweep *s, unsigned var, int cls,
                         struct rp_mean *m, double *scratch)
{
    size_t k = 0;
    m->n_rows = 0;
    for (unsigned r = 0; r < t->n_rows; r++) {
        if (cls != -2 && s->rows[r].cls != cls)
            continue;
        m->n_rows++;
        double v = rp_cell_at(t, r, var)->norm;
        if (!isnan(v))
            scratch[k++] = v;
    }
    m->n = (unsigned)k;
    m->geo = rp_geomean(scratch, k);
    m->harm = rp_hmean(scratch, k);
}

void rp_table_build(struct rp_table *t, const struct rp_sweep *s, const struct rp_stat *st, unsigned stat_index)
{
    memset(t, 0, sizeof *t);
    t->stat = st;
    t->stat_index = stat_index;
    t->n_rows = s->n_rows;
    t->n_vars = s->n_vars;
    t->n_classes = s->n_classes;
    size_t nc = (size_t)t->n_rows * t->n_vars;
    t->cells = xcalloc(nc ? nc : 1, sizeof *t->cells);
    double *sum = xcalloc(nc ? nc : 1, sizeof *sum);
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct rp_job *j = &s->jobs[i];
        struct rp_cell *c = &t->cells[(size_t)j->row * t->n_vars + j->var];
        c->n_jobs++;
        c->n_ok += j->state == RP_JOB_OK;
        if (j->state == RP_JOB_OK && j->values && !isnan(j->values[stat_index])) {
            sum[(size_t)j->row * t->n_vars + j->var] += j->values[stat_index];
            c->n_seeds++;
        }
    }
    for (size_t i = 0; i < nc; i++)
        t->cells[i].value = t->cells[i].n_seeds ? sum[i] / t->cells[i].n_seeds : NAN;
    free(sum);
    for (unsigned r = 0; r < t->n_rows; r++) {
        double base = rp_cell_at(t, r, s->base_var)->value;
        for (unsigned v = 0; v < t->n_vars; v++) {
            struct rp_cell *c = &t->cells[(size_t)r * t->n_vars + v];
            c->norm = (!isnan(c->value) && !isnan(base) && base != 0) ? c->value / base : NAN;
            if (isnan(c->norm))
                t->n_missing++;
            if (c->n_seeds && c->n_seeds < c->n_jobs)
                t->n_partial++;
        }
    }
    double *scratch = xcalloc(t->n_rows ? t->n_rows : 1, sizeof *scratch);
    t->all = xcalloc(t->n_vars ? t->n_vars : 1, sizeof *t->all);
    for (unsigned v = 0; v < t->n_vars; v++)
        column_means(t, s, v, -2, &t->all[v], scratch);
    size_t ncl = (size_t)t->n_classes * t->n_vars;
    t->by_class = xcalloc(ncl ? ncl : 1, sizeof *t->by_class);
    for (unsigned c = 0; c < t->n_classes; c++)
        for (unsigned v = 0; v < t->n_vars; v++)
            column_means(t, s, v, (int)c, &t->by_class[(size_t)c * t->n_vars + v], scratch);
    free(scratch);
}

void rp_table_fini(struct rp_table *t)
{
    free(t->cells);
    free(t->all);
    free(t->by_class);
    memset(t, 0, sizeof *t);
}
