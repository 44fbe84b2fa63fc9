/* sim/app/report_fig.c: the SVG figures of `gpusim report`.
 *
 * Two charts, both of values normalised to the baseline variant:
 *  - a grouped bar chart: one group per workload plus a geomean group, one
 *    bar per variant, a legend, y gridlines, a dashed line at 1.0;
 *  - a line chart over a swept configuration key: x = the key's values
 *    (evenly spaced, in numeric order when every value is a number with an
 *    optional K/M/G suffix), one thin line per workload and a thick black
 *    geomean line.
 * Layout is computed from estimated text widths (svg_text_width), so long
 * workload names turn the x labels by 45 degrees instead of overlapping.
 * Each bar and point carries a <title> with its numbers (a tooltip in a
 * browser). Colours: the Tableau 10 palette, cycled; line charts with more
 * than ten workloads add dash patterns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/report.h"
#include "sim/app/svg.h"
#include "sim/base/common.h"

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
static const char *const dashes[] = {NULL, "6,3", "2,2", "8,3,2,3"};

#define FONT_TITLE 14.0  /* px */
#define FONT_LABEL 12.0  /* px: axis labels */
#define FONT_TICK 11.0   /* px: tick and legend labels */
#define PLOT_H 260.0     /* px: height of the plotting area */

/* ---------------------------------------------------------------- scales */

/* 1, 2, 2.5 or 5 times a power of ten, at least x. */
static double nice_step(double x)
{
    if (!(x > 0))
        return 1;
    double e = pow(10, floor(log10(x)));
    double f = x / e;
    double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
    return n * e;
}

struct axis {
    double lo, hi, step; /* data range and tick spacing */
    double y0, h;        /* px: top of the plot and its height */
};

static void axis_fit(struct axis *a, double lo, double hi, double y0, double h)
{
    if (hi - lo < 1e-9) {
        lo -= 0.1;
        hi += 0.1;
    }
    a->step = nice_step((hi - lo) / 5);
    a->lo = floor(lo / a->step + 1e-9) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    a->y0 = y0;
    a->h = h;
}

static double axis_y(const struct axis *a, double v) { return a->y0 + a->h * (1 - (v - a->lo) / (a->hi - a->lo)); }

static void tick_label(char *buf, size_t n, double v, double step)
{
    int dec = 0;
    while (dec < 6 && fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6)
        dec++;
    if (fabs(v) < step * 1e-6)
        v = 0;
    snprintf(buf, n, "%.*f", dec, v);
}

/* Gridlines, y ticks, axes, the line at 1.0 and the y label. */
static void draw_y_axis(struct svg *s, const struct axis *a, double x0, double w, const char *label)
{
    static const struct svg_stroke grid = {"#dddddd", 1, NULL};
    static const struct svg_stroke axis_line = {"#000000", 1, NULL};
    static const struct svg_stroke one = {"#333333", 1.2, "6,3"};
    const struct svg_font tf = {FONT_TICK, SVG_END, "#333333", 0, 0};
    int n = (int)llround((a->hi - a->lo) / a->step);
    for (int i = 0; i <= n; i++) {
        double v = a->lo + a->step * i, y = axis_y(a, v);
        svg_line(s, x0, y, x0 + w, y, &grid);
        char b[32];
        tick_label(b, sizeof b, v, a->step);
        svg_text(s, x0 - 6, y + 4, &tf, b);
    }
    if (a->lo <= 1 && a->hi >= 1)
        svg_line(s, x0, axis_y(a, 1), x0 + w, axis_y(a, 1), &one);
    svg_line(s, x0, a->y0, x0, a->y0 + a->h, &axis_line);
    svg_line(s, x0, a->y0 + a->h, x0 + w, a->y0 + a->h, &axis_line);
    const struct svg_font lf = {FONT_LABEL, SVG_MIDDLE, NULL, 0, -90};
    svg_text(s, 18, a->y0 + a->h / 2, &lf, label);
}

/* Legend entries in rows that fit width, from (x0, y); returns the height used. */
static double draw_legend(struct svg *s, double x0, double y, double width, char *const *names, size_t n,
                          bool dry_run)
{
    const struct svg_font f = {FONT_TICK, SVG_START, NULL, 0, 0};
    double x = x0, rows = 1;
    for (size_t i = 0; i < n; i++) {
        double w = 14 + 4 + svg_text_width(names[i], FONT_TICK) + 16;
        if (x > x0 && x + w > x0 + width) {
            x = x0;
            rows++;
        }
        if (!dry_run) {
            double yy = y + (rows - 1) * 18;
            svg_rect(s, x, yy - 10, 14, 12, palette[i % ARRAY_LEN(palette)], NULL);
            svg_text(s, x + 18, yy, &f, names[i]);
        }
        x += w;
    }
    return rows * 18;
}

static void ylabel(char *buf, size_t n, const struct rp_sweep *sw, const struct rp_table *t)
{
    snprintf(buf, n, "%s, normalised to %s", t->stat->name, sw->vars[sw->base_var].name);
}

/* -------------------------------------------------------------- bar chart */

void rp_write_bar_svg(FILE *f, const struct rp_sweep *sw, const struct rp_table *t)
{
    const unsigned nv = t->n_vars, ng = t->n_rows + 1; /* + the geomean group */
    double bar_w = 60.0 / nv;
    bar_w = bar_w < 6 ? 6 : bar_w > 18 ? 18 : bar_w;
    double gap = bar_w < 12 ? 12 : bar_w;
    if (ng * (nv * bar_w + gap) < 260) /* few groups: wider gaps, not a thin chart */
        gap = 260.0 / ng - nv * bar_w;
    const double group_w = nv * bar_w + gap;
    const double left = 72, right = 16, plot_w = ng * group_w;
    double label_w = 0;
    for (unsigned r = 0; r <= t->n_rows; r++) {
        double w = svg_text_width(r < t->n_rows ? sw->rows[r].label : "geomean", FONT_TICK);
        label_w = w > label_w ? w : label_w;
    }
    bool rotate = label_w > group_w - 2;
    double width = left + plot_w + right;
    if (width < 360)
        width = 360;
    char **names = xcalloc(nv, sizeof *names);
    for (unsigned v = 0; v < nv; v++)
        names[v] = sw->vars[v].name;
    double legend_h = draw_legend(NULL, left, 0, width - left - right, names, nv, true);
    const double top = 30 + legend_h + 10;
    const double xlab_h = rotate ? label_w * 0.71 + 16 : 20;
    const double height = top + PLOT_H + xlab_h + 28;

    /* y range: 0 up to the largest value shown (at least 1) */
    double hi = 1;
    for (unsigned r = 0; r < t->n_rows; r++)
        for (unsigned v = 0; v < nv; v++)
            if (!isnan(rp_cell_at(t, r, v)->norm) && rp_cell_at(t, r, v)->norm > hi)
                hi = rp_cell_at(t, r, v)->norm;
    for (unsigned v = 0; v < nv; v++)
        if (!isnan(t->all[v].geo) && t->all[v].geo > hi)
            hi = t->all[v].geo;
    struct axis a;
    axis_fit(&a, 0, hi * 1.02, top, PLOT_H);

    char title[512], yl[512];
    snprintf(title, sizeof title, "%s per workload, normalised to %s", t->stat->name, sw->vars[sw->base_var].name);
    ylabel(yl, sizeof yl, sw, t);
    struct svg s;
    svg_begin(&s, f, width, height, title);
    const struct svg_font tf = {FONT_TITLE, SVG_MIDDLE, NULL, 1, 0};
    svg_text(&s, width / 2, 20, &tf, title);
    draw_legend(&s, left, 30 + 10, width - left - right, names, nv, false);
    draw_y_axis(&s, &a, left, plot_w, yl);

    const struct svg_font na = {8, SVG_START, "#888888", 0, -90};
    const struct svg_stroke sep = {"#999999", 1, "3,3"};
    for (unsigned g = 0; g < ng; g++) {
        bool mean = g == t->n_rows;
        double gx = left + g * group_w + gap / 2;
        if (mean)
            svg_line(&s, gx - gap / 2, top, gx - gap / 2, top + PLOT_H, &sep);
        const char *label = mean ? "geomean" : sw->rows[g].label;
        for (unsigned v = 0; v < nv; v++) {
            double val = mean ? t->all[v].geo : rp_cell_at(t, g, v)->norm;
            double x = gx + v * bar_w;
            char tip[512];
            if (mean)
                snprintf(tip, sizeof tip, "geomean, %s: %.4g over %u of %u workloads", sw->vars[v].name, val,
                         t->all[v].n, t->all[v].n_rows);
            else
                snprintf(tip, sizeof tip, "%s, %s: %.4g (raw %.6g, %u of %u seeds)", label, sw->vars[v].name, val,
                         rp_cell_at(t, g, v)->value, rp_cell_at(t, g, v)->n_seeds, rp_cell_at(t, g, v)->n_jobs);
            svg_group_begin(&s, tip);
            if (isnan(val)) {
                svg_text(&s, x + bar_w / 2 + 3, top + PLOT_H - 4, &na, "n/a");
            } else {
                double y = axis_y(&a, val);
                svg_rect(&s, x, y, bar_w - 1, top + PLOT_H - y, palette[v % ARRAY_LEN(palette)], NULL);
            }
            svg_group_end(&s);
        }
        double cx = gx + nv * bar_w / 2;
        if (rotate) {
            const struct svg_font lf = {FONT_TICK, SVG_END, NULL, mean, -45};
            svg_text(&s, cx + 4, top + PLOT_H + 12, &lf, label);
        } else {
            const struct svg_font lf = {FONT_TICK, SVG_MIDDLE, NULL, mean, 0};
            svg_text(&s, cx, top + PLOT_H + 16, &lf, label);
        }
    }
    const struct svg_font xf = {FONT_LABEL, SVG_MIDDLE, NULL, 0, 0};
    svg_text(&s, left + plot_w / 2, height - 10, &xf, "workload");
    svg_end(&s);
    free(names);
}

/* ------------------------------------------------------------- line chart */

/* "16", "1.5", "16K", "2M": the number, with K/M/G as powers of 1024. */
static bool x_number(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return false;
    if (*end == 'K' || *end == 'k')
        v *= 1024, end++;
    else if (*end == 'M')
        v *= 1048576, end++;
    else if (*end == 'G')
        v *= 1073741824, end++;
    *out = v;
    return *end == 0;
}

static char *trim_dup(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    char *r = xmalloc(n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

/* The value of key in variant v's overrides (last one wins), or NULL. */
static char *override_value(const struct rp_variant *var, const char *key)
{
    char *r = NULL;
    for (unsigned k = 0; k < var->n_overrides; k++) {
        const char *o = var->overrides[k], *eq = strchr(o, '=');
        char *name = trim_dup(o, (size_t)(eq - o));
        if (!strcmp(name, key)) {
            free(r);
            r = trim_dup(eq + 1, strlen(eq + 1));
        }
        free(name);
    }
    return r;
}

bool rp_sweep_x(const struct rp_sweep *s, const char *key, char **xs, char *err, size_t err_len)
{
    unsigned n = 0;
    bool base_from_config = false;
    for (unsigned v = 0; v < s->n_vars; v++) {
        xs[v] = override_value(&s->vars[v], key);
        base_from_config |= !xs[v] && v == s->base_var;
        if (!xs[v] && v == s->base_var && s->x_key && !strcmp(s->x_key, key))
            for (unsigned i = 0; i < s->n_jobs && !xs[v]; i++)
                if (s->jobs[i].var == v && s->jobs[i].x)
                    xs[v] = xstrdup(s->jobs[i].x);
        n += xs[v] != NULL;
    }
    bool ok = true;
    for (unsigned a = 0; ok && a < s->n_vars; a++)
        for (unsigned b = a + 1; ok && b < s->n_vars; b++) {
            if (!xs[a] || !xs[b] || strcmp(xs[a], xs[b]))
                continue;
            if ((a == s->base_var || b == s->base_var) && base_from_config) {
                /* the baseline's value comes from its configuration and
                 * repeats a variant's: plot the variant, not the baseline */
                free(xs[s->base_var]);
                xs[s->base_var] = NULL;
                n--;
                continue;
            }
            snprintf(err, err_len,
                     "--x %s: variants '%s' and '%s' both have %s = %s; a line chart needs one variant per value "
                     "(the variants differ in other keys)",
                     key, s->vars[a].name, s->vars[b].name, key, xs[a]);
            ok = false;
        }
    if (ok && n < 2) {
        snprintf(err, err_len,
                 "--x %s: a line chart needs at least two variants with distinct values of '%s' (from their "
                 "overrides, or for the baseline from its configuration); found %u",
                 key, key, n);
        ok = false;
    }
    if (!ok)
        for (unsigned v = 0; v < s->n_vars; v++) {
            free(xs[v]);
            xs[v] = NULL;
        }
    return ok;
}

void rp_write_line_svg(FILE *f, const struct rp_sweep *sw, const struct rp_table *t, const char *key,
                       char *const *xs)
{
    /* the points on the x axis: variants with a value, sorted when numeric */
    unsigned *order = xcalloc(t->n_vars, sizeof *order), np = 0;
    double *num = xcalloc(t->n_vars, sizeof *num);
    bool numeric = true;
    for (unsigned v = 0; v < t->n_vars; v++)
        if (xs[v]) {
            order[np++] = v;
            numeric &= x_number(xs[v], &num[v]);
        }
    for (unsigned i = 1; numeric && i < np; i++)
        for (unsigned k = i; k > 0 && num[order[k - 1]] > num[order[k]]; k--) {
            unsigned tmp = order[k];
            order[k] = order[k - 1];
            order[k - 1] = tmp;
        }
    const double left = 72, step_w = 90, plot_w = np > 1 ? (np - 1) * step_w + 60 : 120;
    double legend_w = svg_text_width("geomean", FONT_TICK);
    for (unsigned r = 0; r < t->n_rows; r++) {
        double w = svg_text_width(sw->rows[r].label, FONT_TICK);
        legend_w = w > legend_w ? w : legend_w;
    }
    legend_w += 56; /* the sample line, a gap, and room for the bold "geomean" */
    const double top = 40;
    double legend_h = (t->n_rows + 1) * 16 + 8;
    double height = top + (PLOT_H > legend_h ? PLOT_H : legend_h) + 60;
    double width = left + plot_w + 20 + legend_w;

    double lo = 1, hi = 1;
    for (unsigned i = 0; i < np; i++) {
        unsigned v = order[i];
        for (unsigned r = 0; r <= t->n_rows; r++) {
            double val = r < t->n_rows ? rp_cell_at(t, r, v)->norm : t->all[v].geo;
            if (!isnan(val)) {
                lo = val < lo ? val : lo;
                hi = val > hi ? val : hi;
            }
        }
    }
    struct axis a;
    double pad = (hi - lo) * 0.05;
    axis_fit(&a, lo - pad < 0 && lo >= 0 ? 0 : lo - pad, hi + pad, top, PLOT_H);

    char title[512], yl[512];
    snprintf(title, sizeof title, "%s over %s, normalised to %s", t->stat->name, key, sw->vars[sw->base_var].name);
    ylabel(yl, sizeof yl, sw, t);
    struct svg s;
    svg_begin(&s, f, width, height, title);
    const struct svg_font tf = {FONT_TITLE, SVG_MIDDLE, NULL, 1, 0};
    svg_text(&s, (left + plot_w) / 2, 20, &tf, title);
    draw_y_axis(&s, &a, left, plot_w, yl);

    double *px = xcalloc(np ? np : 1, sizeof *px), *py = xcalloc(np ? np : 1, sizeof *py);
    const struct svg_font xt = {FONT_TICK, SVG_MIDDLE, NULL, 0, 0};
    for (unsigned i = 0; i < np; i++) {
        double x = left + 30 + i * step_w;
        svg_text(&s, x, top + PLOT_H + 16, &xt, xs[order[i]]);
    }
    const struct svg_font lf = {FONT_TICK, SVG_START, NULL, 0, 0};
    const struct svg_font lfb = {FONT_TICK, SVG_START, NULL, 1, 0};
    for (unsigned r = 0; r <= t->n_rows; r++) {
        bool mean = r == t->n_rows;
        struct svg_stroke st = {mean ? "#000000" : palette[r % ARRAY_LEN(palette)], mean ? 3 : 1.5,
                                mean ? NULL : dashes[(r / ARRAY_LEN(palette)) % ARRAY_LEN(dashes)]};
        const char *label = mean ? "geomean" : sw->rows[r].label;
        /* runs of consecutive defined points; a missing point breaks the line */
        size_t run = 0;
        for (unsigned i = 0; i <= np; i++) {
            double val = NAN;
            if (i < np)
                val = mean ? t->all[order[i]].geo : rp_cell_at(t, r, order[i])->norm;
            if (!isnan(val)) {
                px[run] = left + 30 + i * step_w;
                py[run++] = axis_y(&a, val);
                continue;
            }
            if (run >= 2)
                svg_polyline(&s, px, py, run, &st);
            run = 0;
        }
        for (unsigned i = 0; i < np; i++) {
            unsigned v = order[i];
            double val = mean ? t->all[v].geo : rp_cell_at(t, r, v)->norm;
            if (isnan(val))
                continue;
            char tip[512];
            snprintf(tip, sizeof tip, "%s, %s = %s (%s): %.4g", label, key, xs[v], sw->vars[v].name, val);
            svg_group_begin(&s, tip);
            svg_circle(&s, left + 30 + i * step_w, axis_y(&a, val), mean ? 4 : 3, st.color, NULL);
            svg_group_end(&s);
        }
        double ly = top + 8 + r * 16, lx = left + plot_w + 20;
        svg_line(&s, lx, ly - 4, lx + 24, ly - 4, &st);
        svg_text(&s, lx + 30, ly, mean ? &lfb : &lf, label);
    }
    const struct svg_font xf = {FONT_LABEL, SVG_MIDDLE, NULL, 0, 0};
    svg_text(&s, left + plot_w / 2, top + PLOT_H + 40, &xf, key);
    svg_end(&s);
    free(px);
    free(py);
    free(order);
    free(num);
}
