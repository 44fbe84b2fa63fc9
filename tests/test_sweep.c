/* tests/test_sweep.c: the sweep file and job ids (sim/app/sweep_file.c).
 *
 * Covers: job-id stability (the same job in two differently written sweep
 * files has the same id; variant names, order and the way a value is
 * written do not matter; a changed override, seed, size or workload gives a
 * new id), two variants with one configuration (refused: ids are unique in
 * a sweep), tags and ranges, the job command line, and
 * every kind of bad sweep file with its exact "file:line: key" message.
 * Runs nothing: the CLI tests (tests/cli/sweep*.sh) run jobs.
 *
 * Sweep files are written under a mkdtemp() directory removed at the end;
 * the catalog is a fixed list of three real workload names (ids do not
 * depend on the catalog beyond the names).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/diag.h"
#include "tap.h"

static char tmp_root[256]; /* mkdtemp() directory of this run */

static const struct sweep_workload test_wl[] = {
    {"vectoradd", {NULL}},
    {"bfs", {NULL}},
    {"sgemm", {"register-heavy", NULL}},
    {"spmv", {"register-heavy", NULL}},
    {"prodcons", {"sharing", NULL}},
};
static const char *const test_sizes[] = {"tiny", "small", "medium", "large"};
static const struct sweep_catalog test_cat = {test_wl, 5, test_sizes, 4, "/usr/bin/gpusim"};

/* Write `text` to <tmp_root>/<name>; returns the path (static per call site
 * is not needed: the caller passes a buffer). */
static const char *write_file(char *path, size_t len, const char *name, const char *text)
{
    snprintf(path, len, "%s/%s", tmp_root, name);
    FILE *f = fopen(path, "w");
    if (!f)
        tap_bail("cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    fclose(f);
    return path;
}

/* Load text as a sweep file; the diag collects the errors. */
static int load(struct sweep *s, struct diag *d, const char *name, const char *text)
{
    char path[512];
    write_file(path, sizeof path, name, text);
    diag_init(d);
    return sweep_load(s, path, &test_cat, d);
}

static const struct sweep_job *find_job(const struct sweep *s, const char *wl, const char *size, uint64_t seed,
                                        const char *variant)
{
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct sweep_job *j = &s->jobs[i];
        if (!strcmp(test_wl[j->wl].name, wl) && !strcmp(test_sizes[j->size], size) && j->seed == seed &&
            !strcmp(s->var[j->variant].name, variant))
            return j;
    }
    return NULL;
}

/* ------------------------------------------------------------- job ids */

static void test_id_stability(void)
{
    struct sweep a, b;
    struct diag da, db;
    int ea = load(&a, &da, "a.sweep",
                  "preset = gtx480\n"
                  "overrides = sim.mode=timing\n"
                  "variant.gto = none\n"
                  "variant.lrr = sched.policy=lrr\n"
                  "variant.l1_32k = l1d.size=32K\n"
                  "workloads = vectoradd bfs\n"
                  "sizes = tiny\n");
    /* The same jobs written differently: other names and order, the mode in
     * the variant, the preset's own policy spelt out, a size in bytes. */
    int eb = load(&b, &db, "b.sweep",
                  "# another sweep\n"
                  "preset = gtx480\n"
                  "workloads = bfs\n"
                  "variant.big_l1 = l1d.size=32768 sim.mode=timing\n"
                  "variant.base = sim.mode=timing sched.policy=gto\n"
                  "variant.round_robin = sim.mode=timing\n"
                  "variant.round_robin = sched.policy=lrr\n"
                  "variant.l1_8way = sim.mode=timing l1d.size=32K l1d.assoc=8\n"
                  "sizes = tiny small\n"
                  "seeds = 1 2\n");
    TAP_EQ_U64(ea, 0, "sweep a loads");
    TAP_EQ_U64(eb, 0, "sweep b loads");
    if (ea || eb) {
        diag_print(&da, stdout);
        diag_print(&db, stdout);
    }
    TAP_EQ_U64(a.n_jobs, 6, "a: 2 workloads x 1 size x 1 seed x 3 variants");
    TAP_EQ_U64(b.n_jobs, 16, "b: 1 workload x 2 sizes x 2 seeds x 4 variants");
    const struct sweep_job *a_gto = find_job(&a, "bfs", "tiny", 1, "gto"), *b_base = find_job(&b, "bfs", "tiny", 1, "base");
    const struct sweep_job *a_lrr = find_job(&a, "bfs", "tiny", 1, "lrr"), *b_rr = find_job(&b, "bfs", "tiny", 1, "round_robin");
    const struct sweep_job *a_l1 = find_job(&a, "bfs", "tiny", 1, "l1_32k"), *b_l1 = find_job(&b, "bfs", "tiny", 1, "big_l1");
    const struct sweep_job *b_48 = find_job(&b, "bfs", "tiny", 1, "l1_8way");
    const struct sweep_job *b_seed2 = find_job(&b, "bfs", "tiny", 2, "base"), *b_small = find_job(&b, "bfs", "small", 1, "base");
    const struct sweep_job *a_vec = find_job(&a, "vectoradd", "tiny", 1, "gto");
    TAP_OK(a_gto && b_base && a_lrr && b_rr && a_l1 && b_l1 && b_48 && b_seed2 && b_small && a_vec, "jobs found");
    if (!(a_gto && b_base && a_lrr && b_rr && a_l1 && b_l1 && b_48 && b_seed2 && b_small && a_vec))
        return;
    TAP_STREQ(a_gto->id, b_base->id, "same job under another variant name (the preset's policy spelt out): same id");
    TAP_STREQ(a_lrr->id, b_rr->id, "overrides split over two lines: same id");
    TAP_STREQ(a_l1->id, b_l1->id, "32K and 32768 are the same value: same id");
    TAP_OK(strcmp(b_48->id, b_l1->id) != 0, "changing an override's value changes the id");
    TAP_OK(strcmp(a_gto->id, a_lrr->id) != 0, "a different variant configuration has a different id");
    TAP_OK(strcmp(b_seed2->id, b_base->id) != 0, "another seed, another id");
    TAP_OK(strcmp(b_small->id, b_base->id) != 0, "another size, another id");
    TAP_OK(strcmp(a_vec->id, a_gto->id) != 0, "another workload, another id");
    TAP_OK(!strncmp(a_gto->id, "bfs-tiny-s1-", 12) && strlen(a_gto->id) == 12 + 16,
           "id reads <workload>-<size>-s<seed>-<16 hex> (%s)", a_gto->id);
    TAP_STREQ(a.var[0].hash, b.var[1].hash, "variant config hashes agree too");

    /* Loading the same file again gives the same ids and digest. */
    struct sweep a2;
    struct diag d2;
    char path[512];
    snprintf(path, sizeof path, "%s/a.sweep", tmp_root);
    diag_init(&d2);
    TAP_EQ_U64(sweep_load(&a2, path, &test_cat, &d2), 0, "a reloads");
    bool same = a2.n_jobs == a.n_jobs;
    for (unsigned i = 0; same && i < a.n_jobs; i++)
        same = !strcmp(a.jobs[i].id, a2.jobs[i].id);
    TAP_OK(same, "reloading gives the same ids");
    TAP_STREQ(a.digest, a2.digest, "and the same digest");
    sweep_free(&a2);
    diag_fini(&d2);
    sweep_free(&a);
    sweep_free(&b);
    diag_fini(&da);
    diag_fini(&db);
}

static void test_repeated_ids(void)
{
    struct sweep s;
    struct diag d;
    int e = load(&s, &d, "dup.sweep",
                 "preset = gtx480\n"
                 "variant.stock = none\n"
                 "variant.lrr = sched.policy=lrr\n"
                 "variant.gto = sched.policy=gto\n" /* the preset's value: same configuration as stock */
                 "workloads = bfs vectoradd bfs\n"
                 "sizes = tiny\n");
    char *all = diag_join(&d);
    TAP_EQ_U64(e, 1, "two variants with one configuration: refused");
    char want[512];
    snprintf(want, sizeof want,
             "%s/dup.sweep:4: key 'variant.gto': the same configuration as variant 'stock' (line 2), so the same jobs",
             tmp_root);
    TAP_CONTAINS(all, want, "message names both variants");
    free(all);
    sweep_free(&s);
    diag_fini(&d);

    e = load(&s, &d, "nodup.sweep",
             "preset = gtx480\n"
             "variant.stock = none\n"
             "variant.lrr = sched.policy=lrr\n"
             "baseline = lrr\n"
             "workloads = bfs vectoradd bfs\n" /* a repeated name counts once */
             "sizes = tiny\n");
    TAP_EQ_U64(e, 0, "loads");
    TAP_EQ_U64(s.n_wl, 2, "repeated workload counted once");
    TAP_EQ_U64(s.n_jobs, 4, "4 jobs");
    TAP_EQ_U64(s.n_distinct, 4, "4 distinct ids");
    TAP_EQ_U64(s.baseline, 1, "baseline is the variant named lrr");
    bool firsts = true;
    for (unsigned i = 0; i < s.n_jobs; i++)
        firsts &= s.jobs[i].first && s.jobs[i].distinct == i;
    TAP_OK(firsts, "every job runs, chunk index = position");
    sweep_free(&s);
    diag_fini(&d);
}

static void test_tags_ranges_defaults(void)
{
    struct sweep s;
    struct diag d;
    int e = load(&s, &d, "tags.sweep",
                 "preset = gtx480\n"
                 "variant.base = none\n"
                 "workloads = [register-heavy] vectoradd\n"
                 "seeds = 3..5 1 4\n"
                 "threads = 2\n"
                 "timeout = 15m\n");
    TAP_EQ_U64(e, 0, "loads");
    TAP_EQ_U64(s.n_wl, 3, "[register-heavy] selects sgemm and spmv, plus vectoradd");
    TAP_OK(s.n_wl == 3 && !strcmp(test_wl[s.wl[0]].name, "sgemm") && !strcmp(test_wl[s.wl[2]].name, "vectoradd"),
           "in listing order");
    TAP_EQ_U64(s.n_seeds, 4, "seeds 3..5 1 4 = 3 4 5 1");
    TAP_EQ_U64(s.n_sizes, 1, "default size: one");
    TAP_STREQ(test_sizes[s.sizes[0]], "small", "default size is small");
    TAP_EQ_U64(s.threads, 2, "threads");
    TAP_EQ_U64(s.timeout_s, 900, "timeout 15m = 900 s");
    TAP_EQ_U64(s.baseline, 0, "default baseline: the first variant");
    sweep_free(&s);
    diag_fini(&d);

    e = load(&s, &d, "all.sweep", "preset = gtx480\nvariant.a = none\nworkloads = all\n");
    TAP_EQ_U64(e, 0, "workloads = all loads");
    TAP_EQ_U64(s.n_wl, 5, "all = every workload");
    sweep_free(&s);
    diag_fini(&d);
}

static void test_job_argv(void)
{
    struct sweep s;
    struct diag d;
    int e = load(&s, &d, "argv.sweep",
                 "preset = gtx480\noverrides = sim.mode=timing\nvariant.lrr = sched.policy=lrr\n"
                 "workloads = bfs\nsizes = tiny\nseeds = 7\nthreads = 3\n");
    TAP_EQ_U64(e, 0, "loads");
    char **argv = sweep_job_argv(&s, &s.jobs[0], "/tmp/x.json");
    char line[1024] = "";
    for (char **a = argv; *a; a++)
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", a == argv ? "" : " ", *a);
    TAP_STREQ(line,
              "/usr/bin/gpusim run bfs --size tiny --seed 7 -c gtx480 -o sim.mode=timing -o sched.policy=lrr "
              "--threads 3 --pin none -q --stats /tmp/x.json",
              "job command: sweep overrides first, then the variant's; unpinned");
    sweep_argv_free(argv);
    sweep_free(&s);
    diag_fini(&d);

    /* A preset given as a file is passed to jobs as an absolute path. */
    char cfgpath[512];
    write_file(cfgpath, sizeof cfgpath, "mine.cfg", "include = gtx480\nsched.policy = lrr\n");
    e = load(&s, &d, "file.sweep", "preset = mine.cfg\nvariant.a = none\nworkloads = bfs\n");
    TAP_EQ_U64(e, 0, "a .cfg preset next to the sweep file loads");
    if (!e)
        TAP_STREQ(s.preset_arg, cfgpath, "and jobs get its absolute path");
    sweep_free(&s);
    diag_fini(&d);
}

/* ------------------------------------------------------------ bad files */

/* Load text; expect errors, one of which contains want. */
static void expect_error(const char *name, const char *text, const char *want, const char *what)
{
    struct sweep s;
    struct diag d;
    int e = load(&s, &d, name, text);
    char *all = diag_join(&d);
    TAP_OK(e > 0, "%s: refused", what);
    char full[1024];
    snprintf(full, sizeof full, "%s/%s%s", tmp_root, name, want);
    TAP_CONTAINS(all, full, "%s: message", what);
    TAP_EQ_U64(s.n_jobs, 0, "%s: no job list", what);
    free(all);
    sweep_free(&s);
    diag_fini(&d);
}

#define GOOD_HEAD "preset = gtx480\nvariant.base = none\n"

static void test_bad_files(void)
{
    expect_error("k.sweep", GOOD_HEAD "workload = bfs\n", ":3: unknown key 'workload' (did you mean 'workloads'?)",
                 "unknown key");
    expect_error("w.sweep", GOOD_HEAD "workloads = bfz\n",
                 ":3: key 'workloads': unknown workload 'bfz' (did you mean 'bfs'?)", "unknown workload");
    expect_error("t.sweep", GOOD_HEAD "workloads = [memory-bound]\n",
                 ":3: key 'workloads': tag [memory-bound] matches no workload (tags: [register-heavy] [sharing])",
                 "tag matching nothing");
    expect_error("p.sweep", "preset = gtx48\nvariant.base = none\nworkloads = bfs\n",
                 ":1: key 'preset': unknown preset 'gtx48' (did you mean 'gtx480'?)", "unknown preset");
    expect_error("pf.sweep", "preset = nothere.cfg\nvariant.base = none\nworkloads = bfs\n",
                 ":1: key 'preset': cannot open", "missing preset file");
    expect_error("vk.sweep", "preset = gtx480\nvariant.bad = sched.polcy=gto\nworkloads = bfs\n",
                 ":2: key 'variant.bad': unknown key 'sched.polcy' (did you mean",
                 "variant overriding an unknown key");
    expect_error("vv.sweep", "preset = gtx480\nvariant.bad = sched.policy=fastest\nworkloads = bfs\n",
                 ":2: key 'variant.bad': key 'sched.policy': value 'fastest'", "variant with a bad value");
    expect_error("vr.sweep", "preset = gtx480\nvariant.bad = l1d.size=1G\nworkloads = bfs\n",
                 ":2: key 'variant.bad': key 'l1d.size': value '1G' is out of range", "variant value out of range");
    expect_error("vx.sweep", "preset = gtx480\n\nvariant.l1_48k = l1d.size=48K\nworkloads = bfs\n",
                 ":3: key 'variant.l1_48k': " GPUSIM_SOURCE_DIR "/configs/gtx480.cfg:",
                 "a variant breaking a cross-field rule is named");
    expect_error("ov.sweep", "preset = gtx480\noverrides = sim.mode=fast\nvariant.a = none\nworkloads = bfs\n",
                 ":2: key 'overrides': key 'sim.mode': value 'fast'", "bad common override");
    expect_error("vt.sweep", "preset = gtx480\nvariant.bad = sched.policy\nworkloads = bfs\n",
                 ":2: key 'variant.bad': 'sched.policy' is not an override", "override without =");
    expect_error("vn.sweep", "preset = gtx480\nvariant.a/b = none\nworkloads = bfs\n",
                 ":2: key 'variant.a/b': variant name 'a/b' must be", "bad variant name");
    expect_error("b.sweep", GOOD_HEAD "baseline = bse\nworkloads = bfs\n",
                 ":3: key 'baseline': 'bse' is not a variant of this sweep (did you mean 'base'?)", "unknown baseline");
    expect_error("e.sweep", "preset = gtx480\nworkloads = bfs\n", ": key 'variant.NAME': required key not set",
                 "no variant");
    expect_error("e2.sweep", "preset = gtx480\nworkloads = bfs\n",
                 ":2: key 'workloads': the grid is empty (1 workloads x 1 sizes x 1 seeds x 0 variants)",
                 "empty grid");
    expect_error("s.sweep", GOOD_HEAD "workloads = bfs\nsizes = huge\n",
                 ":4: key 'sizes': unknown size 'huge' (sizes: tiny, small, medium, large)", "unknown size");
    expect_error("sd.sweep", GOOD_HEAD "workloads = bfs\nseeds = 5..2\n",
                 ":4: key 'seeds': '5..2' is not a range a..b of seeds with a <= b", "bad seed range");
    expect_error("th.sweep", GOOD_HEAD "workloads = bfs\nthreads = 0\n", ":4: key 'threads': value '0' is out of range",
                 "threads out of range");
    expect_error("to.sweep", GOOD_HEAD "workloads = bfs\ntimeout = 5 min\n", ":4: key 'timeout': value '5 min'",
                 "bad timeout");
    expect_error("tw.sweep", GOOD_HEAD "preset = fermi16\nworkloads = bfs\n",
                 ":3: key 'preset': set twice, first at line 1", "scalar key set twice");
    expect_error("m.sweep", GOOD_HEAD "workloads bfs\n", ":3: malformed line 'workloads bfs'", "malformed line");
    expect_error("ev.sweep", GOOD_HEAD "workloads =\n", ":3: key 'workloads': empty value", "empty value");

    /* All errors of a file are reported, not just the first. */
    struct sweep s;
    struct diag d;
    int e = load(&s, &d, "many.sweep",
                 "preset = gtx480\nvariant.a = sched.polcy=gto\nworkloads = bfz\nsizes = huge\nfoo = 1\n");
    TAP_EQ_U64(e, 5, "four independent errors and the empty grid that follows: five messages");
    sweep_free(&s);
    diag_fini(&d);
}

static void cleanup(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", tmp_root);
}

int main(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/gpusim_test_sweep.XXXXXX");
    if (!mkdtemp(tmp_root))
        tap_bail("mkdtemp: %s", strerror(errno));
    static const struct tap_test tests[] = {
        {"job-id stability", test_id_stability},
        {"repeated ids", test_repeated_ids},
        {"tags, ranges, defaults", test_tags_ranges_defaults},
        {"job command line", test_job_argv},
        {"bad sweep files", test_bad_files},
    };
    int rc = tap_run(tests, ARRAY_LEN(tests));
    cleanup();
    return rc;
}
