/* tests/test_report.c: the arithmetic and input handling of `gpusim report`
 * (sim/app/report_*.c).
 *
 * Most checks run on the fixture tests/fixtures/report/basic (written by
 * make_basic.py there): 4 workloads (A, B of class "cache", C of class
 * "mem", D without a class) x 3 variants (v16, base = the baseline, v48) x
 * 2 seeds, with 2 failed jobs, 1 not run, 1 incomplete and 1 unreadable.
 * The expected numbers below are computed by hand from the fixture's
 * table, e.g. the v16 IPC geomean over A, B, C (D is missing) is
 * (0.5 * 0.8 * 0.5)^(1/3). Input errors use sweep.json files written to a
 * temporary directory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/report.h"
#include "sim/base/common.h"
#include "sim/base/diag.h"
#include "sim/base/jsonr.h"
#include "tap.h"

#define FIXTURE GPUSIM_SOURCE_DIR "/tests/fixtures/report/basic"
#define TOL 1e-12

/* ----------------------------------------------------------------- helpers */

#define FX_MAX 16
struct fx {
    struct rp_sweep s;
    struct rp_stat st[FX_MAX];
    struct rp_table t[FX_MAX];
    unsigned n;
};

static bool fx_load(struct fx *f, const char *dir, const char *const *names, unsigned n, const char *x_key)
{
    memset(f, 0, sizeof *f);
    char err[512];
    for (unsigned i = 0; i < n; i++)
        if (!rp_stat_parse(&f->st[i], names[i], err, sizeof err))
            tap_bail("statistic %s: %s", names[i], err);
    f->n = n;
    struct diag d;
    diag_init(&d);
    bool ok = rp_sweep_load(&f->s, dir, &d);
    if (!ok)
        diag_print(&d, stdout);
    diag_fini(&d);
    if (!ok)
        return false;
    rp_sweep_read_jobs(&f->s, f->st, n, x_key);
    for (unsigned i = 0; i < n; i++)
        rp_table_build(&f->t[i], &f->s, &f->st[i], i);
    return true;
}

static void fx_fini(struct fx *f)
{
    for (unsigned i = 0; i < f->n; i++) {
        rp_table_fini(&f->t[i]);
        rp_stat_fini(&f->st[i]);
    }
    rp_sweep_fini(&f->s);
}

static unsigned row_of(const struct rp_sweep *s, const char *wl)
{
    for (unsigned r = 0; r < s->n_rows; r++)
        if (!strcmp(s->rows[r].workload, wl))
            return r;
    tap_bail("no row %s", wl);
    return 0;
}

static unsigned var_of(const struct rp_sweep *s, const char *name)
{
    for (unsigned v = 0; v < s->n_vars; v++)
        if (!strcmp(s->vars[v].name, name))
            return v;
    tap_bail("no variant %s", name);
    return 0;
}

static int cls_of(const struct rp_sweep *s, const char *name)
{
    for (unsigned c = 0; c < s->n_classes; c++)
        if (!strcmp(s->classes[c], name))
            return (int)c;
    tap_bail("no class %s", name);
    return -1;
}

static const struct rp_cell *cell(const struct fx *f, unsigned t, const char *wl, const char *var)
{
    return rp_cell_at(&f->t[t], row_of(&f->s, wl), var_of(&f->s, var));
}

static const struct rp_mean *cmean(const struct fx *f, unsigned t, const char *cls, const char *var)
{
    return &f->t[t].by_class[(size_t)cls_of(&f->s, cls) * f->t[t].n_vars + var_of(&f->s, var)];
}

/* A temporary OUT directory holding sweep.json = text (and jobs/). */
static char *tmp_out(const char *text)
{
    char *dir = xstrdup("/tmp/test_report_XXXXXX");
    if (!mkdtemp(dir))
        tap_bail("mkdtemp failed");
    char path[256];
    snprintf(path, sizeof path, "%s/jobs", dir);
    mkdir(path, 0777);
    if (text) {
        snprintf(path, sizeof path, "%s/sweep.json", dir);
        FILE *f = fopen(path, "w");
        fputs(text, f);
        fclose(f);
    }
    return dir;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void rm_tree(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", dir);
}

/* Load errors of a sweep.json text, joined (caller frees). */
static char *load_errors(const char *text)
{
    char *dir = tmp_out(text);
    struct rp_sweep s;
    struct diag d;
    diag_init(&d);
    bool ok = rp_sweep_load(&s, dir, &d);
    char *msg = diag_join(&d);
    if (ok && !msg[0]) {
        free(msg);
        msg = xstrdup("(loaded)");
    }
    diag_fini(&d);
    rp_sweep_fini(&s);
    rm_tree(dir);
    free(dir);
    return msg;
}

/* ------------------------------------------------------------------ tests */

static void test_means(void)
{
    const double a[] = {1, 4};
    TAP_NEAR(rp_geomean(a, 2), 2.0, TOL, "geomean(1, 4) = 2");
    TAP_NEAR(rp_hmean(a, 2), 1.6, TOL, "hmean(1, 4) = 2 / (1 + 1/4) = 1.6");
    const double b[] = {0.5, NAN, 2, 8};
    TAP_NEAR(rp_geomean(b, 4), 2.0, TOL, "geomean skips NaN: (0.5 * 2 * 8)^(1/3) = 2");
    TAP_NEAR(rp_hmean(b, 4), 3.0 / (2 + 0.5 + 0.125), TOL, "hmean skips NaN");
    const double z[] = {3, 0};
    TAP_OK(rp_geomean(z, 2) == 0 && rp_hmean(z, 2) == 0, "a zero makes both means 0");
    const double n[] = {3, -1};
    TAP_OK(isnan(rp_geomean(n, 2)) && isnan(rp_hmean(n, 2)), "a negative value makes both NaN");
    const double e[] = {NAN};
    TAP_OK(isnan(rp_geomean(e, 1)) && isnan(rp_hmean(e, 1)) && isnan(rp_geomean(NULL, 0)),
           "no value: NaN");
    const double one[] = {0.75};
    TAP_NEAR(rp_geomean(one, 1), 0.75, TOL, "one value is its own geomean");
}

static void test_load(void)
{
    static const char *const names[] = {"ipc"};
    struct fx f;
    TAP_OK(fx_load(&f, FIXTURE, names, 1, NULL), "fixture loads");
    const struct rp_sweep *s = &f.s;
    TAP_EQ_U64(s->n_vars, 3, "3 variants");
    TAP_STREQ(s->vars[s->base_var].name, "base", "baseline is 'base' (the second variant)");
    TAP_EQ_U64(s->n_rows, 4, "4 workload rows");
    TAP_STREQ(s->rows[0].label, "A", "one size: the label is the workload");
    TAP_EQ_U64(s->n_classes, 2, "2 classes");
    TAP_OK(s->rows[row_of(s, "D")].cls == -1, "D has no class");
    TAP_EQ_U64(s->n_jobs, 24, "24 jobs");
    unsigned count[RP_JOB_UNREADABLE + 1] = {0};
    for (unsigned i = 0; i < s->n_jobs; i++)
        count[s->jobs[i].state]++;
    TAP_EQ_U64(count[RP_JOB_OK], 19, "19 finished");
    TAP_EQ_U64(s->n_ok, 19, "n_ok counts them");
    TAP_EQ_U64(count[RP_JOB_FAILED], 2, "2 failed");
    TAP_EQ_U64(count[RP_JOB_ABSENT], 1, "1 not run");
    TAP_EQ_U64(count[RP_JOB_INCOMPLETE], 1, "1 incomplete (\"complete\": false)");
    TAP_EQ_U64(count[RP_JOB_UNREADABLE], 1, "1 unreadable");
    TAP_EQ_U64(s->n_revisions, 1, "one git revision");
    TAP_EQ_U64(s->vars[var_of(s, "v48")].n_own, 2, "variant_overrides are read");
    TAP_EQ_U64(s->vars[var_of(s, "v48")].n_overrides, 3, "overrides are read");
    bool warned = false;
    for (unsigned i = 0; i < s->n_warnings; i++)
        warned |= strstr(s->warnings[i], "D-small-s2-base") && strstr(s->warnings[i], "trailing comma");
    TAP_OK(warned, "the unreadable job is named in a warning with the parse error");
    for (unsigned i = 0; i < s->n_jobs; i++)
        if (s->jobs[i].state == RP_JOB_FAILED)
            TAP_STREQ(s->jobs[i].why, "exit status 1", "failure reason of %s", s->jobs[i].id);
    fx_fini(&f);
}

static void test_ipc(void)
{
    static const char *const names[] = {"ipc"};
    struct fx f;
    if (!fx_load(&f, FIXTURE, names, 1, NULL))
        tap_bail("fixture");
    /* cells: mean over seeds, normalised to base */
    TAP_NEAR(cell(&f, 0, "A", "base")->value, 3.0, TOL, "A/base = mean(2, 4) = 3");
    TAP_NEAR(cell(&f, 0, "A", "base")->norm, 1.0, TOL, "the baseline normalises to 1");
    TAP_NEAR(cell(&f, 0, "A", "v16")->norm, 0.5, TOL, "A/v16 = 1.5 / 3");
    TAP_NEAR(cell(&f, 0, "A", "v48")->norm, 2.0, TOL, "A/v48 = 6 / 3");
    TAP_NEAR(cell(&f, 0, "B", "v16")->norm, 0.8, TOL, "B/v16 = 8 / 10");
    TAP_NEAR(cell(&f, 0, "B", "v48")->norm, 1.25, TOL, "B/v48 = 12.5 / 10 (seed 2 incomplete)");
    TAP_EQ_U64(cell(&f, 0, "B", "v48")->n_seeds, 1, "B/v48 from one seed");
    TAP_EQ_U64(cell(&f, 0, "B", "v48")->n_jobs, 2, "of two jobs");
    TAP_NEAR(cell(&f, 0, "C", "v48")->norm, 4.0, TOL, "C/v48 = 4 / 1 (seed 2 failed)");
    TAP_EQ_U64(cell(&f, 0, "D", "v16")->n_ok, 0, "D/v16: no job finished");
    TAP_OK(isnan(cell(&f, 0, "D", "v16")->value) && isnan(cell(&f, 0, "D", "v16")->norm), "D/v16 is missing");
    TAP_NEAR(cell(&f, 0, "D", "base")->value, 2.0, TOL, "D/base from the readable seed");
    TAP_NEAR(cell(&f, 0, "D", "v48")->norm, 1.0, TOL, "D/v48 = mean(1, 3) / 2");
    TAP_EQ_U64(f.t[0].n_missing, 1, "one cell without a normalised value");
    TAP_EQ_U64(f.t[0].n_partial, 3, "three cells from fewer seeds than jobs");

    /* means over all workloads; D is left out of v16 */
    unsigned v16 = var_of(&f.s, "v16"), v48 = var_of(&f.s, "v48"), base = var_of(&f.s, "base");
    const struct rp_mean *m = &f.t[0].all[v16];
    TAP_NEAR(m->geo, cbrt(0.5 * 0.8 * 0.5), TOL, "v16 geomean = (0.5 * 0.8 * 0.5)^(1/3)");
    TAP_NEAR(m->harm, 3.0 / (2 + 1.25 + 2), TOL, "v16 hmean = 3 / (1/0.5 + 1/0.8 + 1/0.5)");
    TAP_EQ_U64(m->n, 3, "v16 mean over 3 workloads");
    TAP_EQ_U64(m->n_rows, 4, "of 4");
    m = &f.t[0].all[v48];
    TAP_NEAR(m->geo, pow(2 * 1.25 * 4 * 1, 0.25), TOL, "v48 geomean = (2 * 1.25 * 4 * 1)^(1/4)");
    TAP_NEAR(m->harm, 4.0 / (0.5 + 0.8 + 0.25 + 1), TOL, "v48 hmean = 4 / (1/2 + 1/1.25 + 1/4 + 1/1)");
    TAP_EQ_U64(m->n, 4, "v48 mean over all 4");
    TAP_NEAR(f.t[0].all[base].geo, 1.0, TOL, "baseline geomean is 1");
    TAP_NEAR(f.t[0].all[base].harm, 1.0, TOL, "baseline hmean is 1");

    /* per class */
    TAP_NEAR(cmean(&f, 0, "cache", "v16")->geo, sqrt(0.5 * 0.8), TOL, "cache/v16 geomean = sqrt(0.5 * 0.8)");
    TAP_NEAR(cmean(&f, 0, "cache", "v16")->harm, 2.0 / (2 + 1.25), TOL, "cache/v16 hmean = 2 / (2 + 1.25)");
    TAP_NEAR(cmean(&f, 0, "cache", "v48")->geo, sqrt(2 * 1.25), TOL, "cache/v48 geomean = sqrt(2 * 1.25)");
    TAP_NEAR(cmean(&f, 0, "cache", "v48")->harm, 2.0 / (0.5 + 0.8), TOL, "cache/v48 hmean");
    TAP_EQ_U64(cmean(&f, 0, "cache", "v48")->n_rows, 2, "class cache has 2 workloads");
    TAP_NEAR(cmean(&f, 0, "mem", "v16")->geo, 0.5, TOL, "mem/v16 = C alone");
    TAP_NEAR(cmean(&f, 0, "mem", "v48")->harm, 4.0, TOL, "mem/v48 = C alone");
    fx_fini(&f);
}

static void test_derived(void)
{
    static const char *const names[] = {"l1d_miss_rate", "dram_traffic", "cycles", "load_latency", "energy",
                                        "stats.total.l1d.loads", "stats.total.ldst.load_lat_global",
                                        "stats.kernels.0.stats.gpu.cycles", "timing.nope", "stats.total",
                                        "energy.dram.dynamic"};
    struct fx f;
    if (!fx_load(&f, FIXTURE, names, ARRAY_LEN(names), NULL))
        tap_bail("fixture");
    unsigned v16 = var_of(&f.s, "v16"), v48 = var_of(&f.s, "v48");
    /* l1d_miss_rate = (loads - hits) / loads; D has no loads: undefined */
    TAP_NEAR(cell(&f, 0, "A", "base")->value, 0.5, TOL, "A/base miss rate (100 - 50) / 100");
    TAP_NEAR(cell(&f, 0, "A", "v16")->norm, 1.5, TOL, "A/v16 miss rate 0.75 / 0.5");
    TAP_NEAR(cell(&f, 0, "C", "v48")->norm, 0.75, TOL, "C/v48 miss rate 0.6 / 0.8");
    TAP_OK(isnan(cell(&f, 0, "D", "base")->value), "D: zero loads give an undefined miss rate");
    TAP_EQ_U64(cell(&f, 0, "D", "base")->n_ok, 1, "... although the job finished");
    TAP_NEAR(f.t[0].all[v16].geo, cbrt(1.5 * 2.0 * 1.0), TOL, "v16 miss-rate geomean over A, B, C");
    TAP_NEAR(f.t[0].all[v16].harm, 3.0 / (1 / 1.5 + 0.5 + 1), TOL, "v16 miss-rate hmean");
    TAP_NEAR(f.t[0].all[v48].geo, cbrt(0.5 * 0.5 * 0.75), TOL, "v48 miss-rate geomean");
    TAP_NEAR(f.t[0].all[v48].harm, 3.0 / (2 + 2 + 1 / 0.75), TOL, "v48 miss-rate hmean");
    TAP_EQ_U64(f.t[0].all[var_of(&f.s, "base")].n, 3, "the baseline's mean leaves D out too");
    /* dram_traffic = (rd_cmds + wr_cmds) x 8 x 8 */
    TAP_NEAR(cell(&f, 1, "A", "base")->value, (128 * 64 + 256 * 64) / 2.0, TOL, "A/base traffic, mean of 2 seeds");
    TAP_NEAR(cell(&f, 1, "B", "v16")->value, 128 * 64, TOL, "B/v16 traffic");
    TAP_NEAR(cell(&f, 2, "A", "v16")->norm, 4000 / 1500.0, TOL, "cycles: A/v16 = 4000 / mean(1000, 2000)");
    TAP_NEAR(cell(&f, 3, "A", "base")->value, 15.0, TOL, "load_latency = mean(100/10, 200/10)");
    /* energy: present in A and B only */
    TAP_NEAR(cell(&f, 4, "A", "v16")->norm, 0.5, TOL, "energy A/v16 = 50 / 100");
    TAP_OK(isnan(cell(&f, 4, "C", "base")->value) && cell(&f, 4, "C", "base")->n_ok == 2, "energy absent in C: n/a");
    TAP_NEAR(f.t[4].all[v16].geo, sqrt(0.5 * 1.0), TOL, "energy v16 geomean over A, B");
    TAP_EQ_U64(f.st[4].n_absent, 8, "energy is absent from 8 finished jobs");
    /* paths */
    TAP_NEAR(cell(&f, 5, "A", "v48")->value, 100, TOL, "stats.total.l1d.loads: an instanced counter's total");
    TAP_NEAR(cell(&f, 6, "A", "base")->value, 15, TOL, "stats.total.ldst.load_lat_global: an average's mean");
    TAP_NEAR(cell(&f, 7, "A", "base")->value, 1500, TOL, "a path through an array index");
    TAP_EQ_U64(f.st[8].n_value, 0, "timing.nope gives no number");
    TAP_CONTAINS(f.st[8].why_absent, "'timing' exists but has nothing named 'nope'", "and says why");
    TAP_EQ_U64(f.st[9].n_value, 0, "stats.total gives no number");
    TAP_CONTAINS(f.st[9].why_absent, "is an object without a numeric \"total\" or \"mean\"", "and says why");
    TAP_CONTAINS(f.st[9].why_absent, "dram.rd_cmds", "listing members");
    TAP_NEAR(cell(&f, 10, "A", "v48")->value, 50, TOL, "energy.dram.dynamic: a path into the energy object");
    fx_fini(&f);
}

static void test_path(void)
{
    const char *text = "{\"a.b\": {\"x\": 1}, \"a\": {\"b\": {\"c\": 3}, \"b.c\": 4}, \"arr\": [10, {\"k.z\": 11}],"
                       " \"n\": null, \"o\": {\"mean\": 2.5, \"count\": 4}, \"s\": \"str\"}";
    char err[256];
    struct jr_doc *d = jr_parse(text, strlen(text), err, sizeof err);
    if (!d)
        tap_bail("parse: %s", err);
    const struct jr_value *r = jr_root(d);
    double v = 0;
    TAP_OK(rp_value_num(rp_path(r, "a.b.c"), &v) && v == 4, "a.b.c: the longest member name first ('b.c' under 'a')");
    TAP_OK(rp_value_num(rp_path(r, "a.b.x"), &v) && v == 1, "a.b.x: 'a.b' then 'x'");
    TAP_OK(rp_path(r, "a.b.q") == NULL, "a.b.q does not resolve");
    TAP_OK(rp_value_num(rp_path(r, "arr.0"), &v) && v == 10, "array index");
    TAP_OK(rp_value_num(rp_path(r, "arr.1.k.z"), &v) && v == 11, "index then a dotted name");
    TAP_OK(rp_path(r, "arr.2") == NULL && rp_path(r, "arr.x") == NULL, "bad indexes");
    TAP_OK(rp_value_num(rp_path(r, "o"), &v) && v == 2.5, "an object's mean");
    TAP_OK(rp_path(r, "n")->type == JR_NULL, "null resolves (a NaN the writer wrote)");
    TAP_OK(!rp_value_num(rp_path(r, "s"), &v), "a string is not a number");
    TAP_OK(rp_path(r, "a.") == NULL && rp_path(r, "") == r, "a trailing dot does not resolve");
    struct rp_stat st;
    TAP_OK(rp_stat_parse(&st, "o", err, sizeof err) == false, "a name without a dot must be a friendly name");
    rp_stat_fini(&st);
    TAP_OK(rp_stat_parse(&st, "n.x", err, sizeof err), "a dotted name is a path");
    bool absent = false;
    TAP_OK(isnan(rp_stat_eval(&st, r, &absent, err, sizeof err)) && absent, "an absent path: NaN, absent");
    rp_stat_fini(&st);
    rp_stat_parse(&st, "arr.1", err, sizeof err);
    rp_stat_eval(&st, r, &absent, err, sizeof err);
    TAP_OK(absent, "arr.1 (an object without total or mean) is absent");
    rp_stat_fini(&st);
    jr_free(d);
}

static void test_stat_names(void)
{
    struct rp_stat st;
    char err[512] = "";
    TAP_OK(!rp_stat_parse(&st, "ipcc", err, sizeof err), "'ipcc' is refused");
    TAP_CONTAINS(err, "unknown statistic 'ipcc'; did you mean 'ipc'?", "with a hint");
    TAP_OK(!rp_stat_parse(&st, "xyzzy_plugh", err, sizeof err), "'xyzzy_plugh' is refused");
    TAP_CONTAINS(err, "dotted path", "message explains the two kinds of name");
    TAP_OK(!rp_stat_parse(&st, "a..b", err, sizeof err) && !rp_stat_parse(&st, ".a", err, sizeof err) &&
               !rp_stat_parse(&st, "a.", err, sizeof err) && !rp_stat_parse(&st, "a.`b", err, sizeof err),
           "malformed paths are refused");
    size_t n;
    const struct rp_derived *list = rp_stat_list(&n);
    bool all = true;
    for (size_t i = 0; i < n; i++) {
        all &= rp_stat_parse(&st, list[i].name, err, sizeof err) && st.der == &list[i];
        rp_stat_fini(&st);
    }
    TAP_OK(all && n >= 10, "every friendly name resolves to itself (%zu)", n);
    static const char *const want[] = {"ipc", "cycles", "l1d_miss_rate", "l2_miss_rate", "dram_traffic", "energy"};
    for (size_t k = 0; k < ARRAY_LEN(want); k++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= !strcmp(list[i].name, want[k]);
        TAP_OK(found, "friendly statistic %s exists", want[k]);
    }
}

static char *mem_text(void (*fn)(FILE *, const struct fx *), const struct fx *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fn(m, f);
    fclose(m);
    return buf;
}

static void csv_of(FILE *m, const struct fx *f) { rp_write_csv(m, &f->s, f->t, f->n); }
static void md_of(FILE *m, const struct fx *f) { rp_write_markdown(m, &f->s, f->t, f->n, NULL, NULL); }

static void test_outputs(void)
{
    static const char *const names[] = {"ipc", "l1d_miss_rate"};
    struct fx f;
    if (!fx_load(&f, FIXTURE, names, 2, NULL))
        tap_bail("fixture");
    char *csv = mem_text(csv_of, &f);
    static const char header[] = "statistic,kind,workload,size,class,variant,n,of,value,normalised\n";
    TAP_OK(!strncmp(csv, header, strlen(header)), "CSV header");
    TAP_CONTAINS(csv, "\nipc,workload,A,small,cache,v16,2,2,1.5,0.5\n", "a CSV cell");
    TAP_CONTAINS(csv, "\nipc,workload,C,small,mem,v48,1,2,4,4\n", "a partial cell says 1 of 2 seeds");
    TAP_CONTAINS(csv, "\nipc,workload,D,small,,v16,0,2,,\n", "a missing cell has empty value fields");
    TAP_CONTAINS(csv, "\nipc,geomean,,,,v16,3,4,,0.5848035476", "the geomean line, over 3 of 4 workloads");
    TAP_CONTAINS(csv, "\nipc,hmean,,,,v48,4,4,,1.568627450980", "the hmean line");
    TAP_CONTAINS(csv, "\nipc,geomean,,,cache,v16,2,2,,0.632455532", "a per-class geomean line");
    TAP_CONTAINS(csv, "\nl1d_miss_rate,workload,D,small,,base,0,2,,\n", "an undefined value");
    unsigned lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    TAP_EQ_U64(lines, 1 + 2 * (12 + 6 + 12), "one line per cell and per mean");
    free(csv);

    char *md = mem_text(md_of, &f);
    TAP_CONTAINS(md, "24 jobs: 19 finished, 2 failed, 1 not run, 1 incomplete, 1 unreadable", "summary line");
    TAP_CONTAINS(md, "| v16 | l1d.size=16K |", "the variant's own overrides");
    TAP_CONTAINS(md, "| base (baseline) | (none) |", "baseline marked");
    TAP_CONTAINS(md, "## `ipc`", "a section per statistic");
    TAP_CONTAINS(md, "| workload | class | v16 | base | v48 |", "table header");
    TAP_CONTAINS(md, "| A | cache | 0.500 (1.5) | 1.000 (3) | 2.000 (6) |", "a row with raw means");
    TAP_CONTAINS(md, "| C | mem | 0.500 (0.5) | 1.000 (1) | 4.000 (4)* |", "a partial cell is starred");
    TAP_CONTAINS(md, "| D | - | missing | 1.000 (2)* | 1.000 (2) |", "a missing cell");
    TAP_CONTAINS(md, "| **geomean** | | **0.585 (3 of 4)** | **1.000** | **1.778** |", "geomean row");
    TAP_CONTAINS(md, "| **hmean** | | **0.571 (3 of 4)** | **1.000** | **1.569** |", "hmean row");
    TAP_CONTAINS(md, "| geomean | cache | 0.632 | 1.000 | 1.581 |", "per-class geomean row");
    TAP_CONTAINS(md, "| D | - | missing | n/a | n/a |", "undefined miss rates are n/a");
    TAP_CONTAINS(md, "left out of that variant's means", "the exclusion is said in words");
    TAP_CONTAINS(md, "## Missing jobs", "missing jobs section");
    TAP_CONTAINS(md, "| C-small-s2-v48 | C | small | 2 | v48 | failed: exit status 1 |", "a failed job with its reason");
    TAP_CONTAINS(md, "| D-small-s2-v16 | D | small | 2 | v16 | not run |", "a job that did not run");
    TAP_CONTAINS(md, "| B-small-s2-v48 | B | small | 2 | v48 | incomplete |", "an incomplete job");
    free(md);
    fx_fini(&f);
}

static void test_x(void)
{
    static const char *const names[] = {"ipc"};
    struct fx f;
    if (!fx_load(&f, FIXTURE, names, 1, "l1d.size"))
        tap_bail("fixture");
    char *xs[3] = {0};
    char err[512] = "";
    TAP_OK(rp_sweep_x(&f.s, "l1d.size", xs, err, sizeof err), "--x l1d.size (%s)", err);
    TAP_STREQ(xs[var_of(&f.s, "v16")], "16K", "v16 from its override");
    TAP_STREQ(xs[var_of(&f.s, "base")], "32K", "the baseline from its configuration");
    TAP_STREQ(xs[var_of(&f.s, "v48")], "48K", "v48 from its override");
    for (int i = 0; i < 3; i++)
        free(xs[i]);
    TAP_OK(!rp_sweep_x(&f.s, "l1d.assoc", xs, err, sizeof err), "--x l1d.assoc: only one variant sets it");
    TAP_CONTAINS(err, "at least two variants", "message");
    TAP_OK(!rp_sweep_x(&f.s, "no.such", xs, err, sizeof err), "--x of an unknown key is refused");
    TAP_CONTAINS(err, "found 0", "message");
    TAP_OK(xs[0] == NULL && xs[1] == NULL && xs[2] == NULL, "nothing is left allocated on failure");
    fx_fini(&f);

    /* two variants with the same value */
    char *dir = tmp_out("{\"format\": \"gpusim-sweep-1\", \"baseline\": \"a\", \"variants\": ["
                        "{\"name\": \"a\", \"overrides\": [\"k=1\"]}, {\"name\": \"b\", \"overrides\": [\"k = 2\"]},"
                        "{\"name\": \"c\", \"overrides\": [\"k=2\", \"j=1\"]}], \"jobs\": []}");
    struct rp_sweep s;
    struct diag d;
    diag_init(&d);
    TAP_OK(rp_sweep_load(&s, dir, &d), "sweep with duplicate x values loads");
    TAP_OK(!rp_sweep_x(&s, "k", xs, err, sizeof err), "two variants with k = 2 are refused");
    TAP_CONTAINS(err, "variants 'b' and 'c' both have k = 2", "message names both (spaces trimmed)");
    diag_fini(&d);
    rp_sweep_fini(&s);
    rm_tree(dir);
    free(dir);
}

static void test_errors(void)
{
    struct rp_sweep s;
    struct diag d;
    diag_init(&d);
    TAP_OK(!rp_sweep_load(&s, "/nonexistent/out", &d), "a missing OUT is refused");
    char *m = diag_join(&d);
    TAP_CONTAINS(m, "/nonexistent/out: not a directory", "message");
    free(m);
    rp_sweep_fini(&s);
    diag_clear(&d);

    char *dir = tmp_out(NULL);
    TAP_OK(!rp_sweep_load(&s, dir, &d), "OUT without sweep.json is refused");
    m = diag_join(&d);
    TAP_CONTAINS(m, "sweep.json: No such file or directory (is this the OUT directory of 'gpusim sweep'?)", "message");
    free(m);
    rp_sweep_fini(&s);
    rm_tree(dir);
    free(dir);
    diag_fini(&d);

    m = load_errors("{\"format\": \"gpusim-sweep-1\",\n \"jobs\": [,]}");
    TAP_CONTAINS(m, "sweep.json: line 2, column 11: expected a value", "bad JSON: file, line and column");
    free(m);
    m = load_errors("{\"format\": \"gpusim-sweep-9\", \"baseline\": \"a\", \"variants\": [], \"jobs\": []}");
    TAP_CONTAINS(m, "format \"gpusim-sweep-9\" is not supported", "unknown format");
    free(m);
    m = load_errors("{\"format\": \"gpusim-sweep-1\",\n"
                    " \"baseline\": \"zz\",\n"
                    " \"variants\": [{\"name\": \"a\"}, {\"name\": \"a\"}, {\"name\": \"b\", \"overrides\": [\"nokey\"]}],\n"
                    " \"jobs\": [\n"
                    "  {\"id\": \"j1\", \"workload\": \"w\", \"seed\": 1, \"variant\": \"a\"},\n"
                    "  {\"id\": \"j1\", \"workload\": \"w\", \"seed\": 2, \"variant\": \"a\"},\n"
                    "  {\"id\": \"../x\", \"workload\": \"w\", \"seed\": 1, \"variant\": \"a\"},\n"
                    "  {\"id\": \"j4\", \"workload\": \"w\", \"seed\": -1, \"variant\": \"a\"},\n"
                    "  {\"id\": \"j5\", \"workload\": \"w\", \"seed\": 1, \"variant\": \"q\"},\n"
                    "  {\"id\": \"j6\", \"workload\": 3, \"seed\": 1, \"variant\": \"a\"},\n"
                    "  {\"id\": \"j7\", \"workload\": \"w\", \"variant\": \"a\"}\n"
                    " ]}\n");
    TAP_CONTAINS(m, "sweep.json:3: variants[1]: duplicate variant name \"a\"", "duplicate variant, with its line");
    TAP_CONTAINS(m, "sweep.json:3: variants[2]: overrides[0] must be a \"key=value\" string", "bad override");
    TAP_CONTAINS(m, "sweep.json:6: jobs[1]: duplicate job id \"j1\"", "duplicate job id");
    TAP_CONTAINS(m, "sweep.json:7: jobs[2]: id \"../x\" is not a plain file name", "unsafe id");
    TAP_CONTAINS(m, "sweep.json:8: jobs[3]: \"seed\" must be a non-negative integer", "negative seed");
    TAP_CONTAINS(m, "sweep.json:9: jobs[4]: unknown variant \"q\"", "unknown variant");
    TAP_CONTAINS(m, "sweep.json:10: jobs[5]: \"workload\" must be a string, not number", "mistyped member");
    TAP_CONTAINS(m, "sweep.json:11: jobs[6]: missing member \"seed\"", "missing member");
    TAP_CONTAINS(m, "sweep.json:2: baseline \"zz\" is not one of the variants", "unknown baseline");
    free(m);
    m = load_errors("{\"format\": \"gpusim-sweep-1\", \"baseline\": \"a\", \"variants\": [{\"name\": \"a\"}],"
                    " \"jobs\": [{\"id\": \"j\", \"workload\": \"w\", \"seed\": \"7\", \"variant\": \"a\"}], "
                    "\"future_member\": {\"x\": 1}}");
    TAP_STREQ(m, "(loaded)", "a seed as a decimal string and unknown members are accepted");
    free(m);
}

/* A job document with a different layout still works through paths, and a
 * class that changes within one workload is warned about. */
static void test_class_conflict_and_sizes(void)
{
    char *dir = tmp_out("{\"format\": \"gpusim-sweep-1\", \"baseline\": \"a\",\n"
                        " \"variants\": [{\"name\": \"a\", \"overrides\": []}, {\"name\": \"b\", \"overrides\": [\"x=1\"]}],\n"
                        " \"jobs\": [\n"
                        "  {\"id\": \"1\", \"workload\": \"w\", \"size\": \"tiny\", \"seed\": 1, \"variant\": \"a\", \"class\": \"k\"},\n"
                        "  {\"id\": \"2\", \"workload\": \"w\", \"size\": \"tiny\", \"seed\": 1, \"variant\": \"b\", \"class\": \"m\"},\n"
                        "  {\"id\": \"3\", \"workload\": \"w\", \"size\": \"small\", \"seed\": 1, \"variant\": \"a\"},\n"
                        "  {\"id\": \"4\", \"workload\": \"w\", \"size\": \"small\", \"seed\": 1, \"variant\": \"b\"}\n"
                        " ]}\n");
    write_file(dir, "jobs/1.json", "{\"complete\": true, \"timing\": {\"ipc\": 2}}");
    write_file(dir, "jobs/2.json", "{\"complete\": true, \"timing\": {\"ipc\": 0}}");
    write_file(dir, "jobs/3.json", "{\"complete\": true, \"timing\": {\"ipc\": 0}}");
    write_file(dir, "jobs/4.json", "{\"complete\": true, \"timing\": {\"ipc\": 5}}");
    static const char *const names[] = {"ipc"};
    struct fx f;
    TAP_OK(fx_load(&f, dir, names, 1, NULL), "loads");
    TAP_EQ_U64(f.s.n_rows, 2, "two sizes of one workload are two rows");
    TAP_STREQ(f.s.rows[0].label, "w (tiny)", "labels name the size when the sweep has several");
    bool warned = false;
    for (unsigned i = 0; i < f.s.n_warnings; i++)
        warned |= strstr(f.s.warnings[i], "class \"m\" differs") != NULL;
    TAP_OK(warned, "a class that changes within a workload is warned about");
    TAP_NEAR(rp_cell_at(&f.t[0], 0, 1)->norm, 0.0, TOL, "a zero value normalises to 0");
    TAP_OK(isnan(rp_cell_at(&f.t[0], 1, 1)->norm), "a zero baseline makes the ratio undefined");
    TAP_OK(f.t[0].all[1].geo == 0 && f.t[0].all[1].harm == 0 && f.t[0].all[1].n == 1,
           "means with a zero ratio are 0, over the 1 defined row");
    fx_fini(&f);
    rm_tree(dir);
    free(dir);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"means", test_means},
        {"load", test_load},
        {"ipc", test_ipc},
        {"derived", test_derived},
        {"path", test_path},
        {"stat_names", test_stat_names},
        {"outputs", test_outputs},
        {"x", test_x},
        {"errors", test_errors},
        {"class_conflict_and_sizes", test_class_conflict_and_sizes},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
