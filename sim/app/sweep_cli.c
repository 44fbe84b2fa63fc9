/* sim/app/sweep_cli.c: the `gpusim sweep` command line.
 *
 *   gpusim sweep FILE -o OUT [-j N]            run the jobs without a result
 *   gpusim sweep FILE [-o OUT] --dry-run [-v]  list the jobs (and their state)
 *   gpusim sweep FILE -o OUT --collect         state of every job; exit 0 when all done
 *   gpusim sweep FILE -o OUT --slurm [...]     write (and --submit) an sbatch array
 *   gpusim sweep FILE -o OUT --only-chunk I --chunk K   one array task's jobs
 *   gpusim sweep --keys                        the sweep-file keys
 *
 * The sweep file is loaded and validated in full before anything else; an
 * error there exits 2 with every problem listed and nothing run or written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/app/sweep_internal.h"
#include "sim/base/common.h"
#include "sim/base/version.h"

#define MAX_SBATCH_OPTS 32

struct sweep_cli {
    const char *file;          /* the sweep file */
    const char *out;           /* -o OUT */
    unsigned parallel;         /* -j N (0 = default) */
    bool dry_run, verbose, collect, keys;
    int progress;              /* -1 default (a terminal), 0 off, 1 on */
    bool slurm, submit;
    const char *partition, *time, *mem;
    const char *extra[MAX_SBATCH_OPTS + 1]; /* --sbatch-opt, NULL-terminated */
    unsigned n_extra;
    unsigned chunk;            /* --chunk K (0 = not given) */
    bool only_chunk;
    unsigned only;             /* --only-chunk I */
};

static void sweep_usage(FILE *out)
{
    fputs("usage: gpusim sweep FILE -o OUT [options]\n"
          "\n"
          "Runs every job of the sweep FILE (workloads x sizes x seeds x variants) that has no\n"
          "result in OUT yet, N at a time, each as 'gpusim run ... --stats'. Results go to\n"
          "OUT/jobs/<id>.json, failures to OUT/jobs/<id>.failed.json, the job list to\n"
          "OUT/sweep.json (docs/experiments.md).\n"
          "\n"
          "options:\n"
          "  -o OUT                 output directory (created)\n"
          "  -j N                   jobs at a time (default: cores / threads per job)\n"
          "  --dry-run              list the jobs (with their state when -o is given); run nothing\n"
          "  -v, --verbose          with --dry-run: also each job's command\n"
          "  --collect              report the state of every job; exit 0 when all are done\n"
          "  --progress, --no-progress  progress line on stderr (default: when it is a terminal)\n"
          "  --keys                 list the sweep-file keys\n"
          "\n"
          "Slurm:\n"
          "  --slurm                write OUT/slurm/<name>.sbatch, one array task per chunk of jobs\n"
          "  --chunk K              jobs per array task (default 8)\n"
          "  --partition P, --time T, --mem M   passed to #SBATCH\n"
          "  --sbatch-opt OPT       any further #SBATCH option, e.g. --sbatch-opt=--account=abc\n"
          "  --submit               submit the script with sbatch\n"
          "  --only-chunk I         run only chunk I (with --chunk K): what an array task runs\n"
          "\n"
          "exit codes: 0 every selected job done, 1 a job failed or the sweep was interrupted,\n"
          "2 usage or sweep-file error (nothing ran)\n",
          out);
}

static int cli_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpusim: sweep: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'gpusim sweep --help'.\n");
    return 2;
}

static bool parse_count(const char *s, unsigned max, unsigned *out)
{
    char *end;
    errno = 0;
    if (!s || s[0] < '0' || s[0] > '9')
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

/* Returns -1 to go on, else an exit code. */
static int parse(int argc, char **argv, struct sweep_cli *c)
{
    memset(c, 0, sizeof *c);
    c->progress = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char opt[64];
        /* --opt=value is the same as --opt value. */
        const char *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof opt) {
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - a), a);
            a = opt;
            val = eq + 1;
        }
#define VALUE()                                                                                    \
    do {                                                                                           \
        if (!val) {                                                                                \
            if (i + 1 >= argc)                                                                     \
                return cli_error("option '%s' needs a value", a);                                  \
            val = argv[++i];                                                                       \
        }                                                                                          \
    } while (0)
        if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
            VALUE();
            c->out = val;
        } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
            VALUE();
            if (!parse_count(val, 4096, &c->parallel) || !c->parallel)
                return cli_error("-j needs a number from 1 to 4096, got '%s'", val);
        } else if (!strncmp(a, "-j", 2) && a[2]) {
            if (!parse_count(a + 2, 4096, &c->parallel) || !c->parallel)
                return cli_error("-j needs a number from 1 to 4096, got '%s'", a + 2);
        } else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) {
            c->dry_run = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            c->verbose = true;
        } else if (!strcmp(a, "--collect")) {
            c->collect = true;
        } else if (!strcmp(a, "--keys")) {
            c->keys = true;
        } else if (!strcmp(a, "--progress")) {
            c->progress = 1;
        } else if (!strcmp(a, "--no-progress") || !strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            c->progress = 0;
        } else if (!strcmp(a, "--slurm")) {
            c->slurm = true;
        } else if (!strcmp(a, "--submit")) {
            c->submit = true;
        } else if (!strcmp(a, "--partition")) {
            VALUE();
            c->partition = val;
        } else if (!strcmp(a, "--time")) {
            VALUE();
            c->time = val;
        } else if (!strcmp(a, "--mem")) {
            VALUE();
            c->mem = val;
        } else if (!strcmp(a, "--sbatch-opt")) {
            VALUE();
            if (c->n_extra == MAX_SBATCH_OPTS)
                return cli_error("more than %s --sbatch-opt options", "32");
            c->extra[c->n_extra++] = val;
        } else if (!strcmp(a, "--chunk")) {
            VALUE();
            if (!parse_count(val, 1000000, &c->chunk) || !c->chunk)
                return cli_error("--chunk needs a positive number, got '%s'", val);
        } else if (!strcmp(a, "--only-chunk")) {
            VALUE();
            if (!parse_count(val, 10000000, &c->only))
                return cli_error("--only-chunk needs a chunk index (0, 1, ...), got '%s'", val);
            c->only_chunk = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            sweep_usage(stdout);
            return 0;
        } else if (a[0] != '-' && !c->file && !eq) {
            c->file = a;
        } else {
            return cli_error("unknown option or extra argument '%s'", argv[i]);
        }
#undef VALUE
    }
    if (c->keys)
        return -1;
    if (!c->file)
        return cli_error("no sweep file given%s", "");
    if (!c->out && !c->dry_run)
        return cli_error("-o OUT is needed (the output directory)%s", "");
    int modes = c->dry_run + c->collect + c->slurm + c->only_chunk;
    if (modes > 1)
        return cli_error("--dry-run, --collect, --slurm and --only-chunk exclude each other%s", "");
    if (c->only_chunk && !c->chunk)
        return cli_error("--only-chunk needs --chunk K (the chunk size it was written with)%s", "");
    if (c->chunk && !c->slurm && !c->only_chunk)
        return cli_error("--chunk goes with --slurm or --only-chunk%s", "");
    if (!c->slurm && (c->submit || c->partition || c->time || c->mem || c->n_extra))
        return cli_error("--submit, --partition, --time, --mem and --sbatch-opt go with --slurm%s", "");
    return -1;
}

static const char *state_name(enum sweep_job_state st)
{
    return st == SWEEP_DONE ? "done" : st == SWEEP_FAILED ? "failed" : "pending";
}

static void print_command(const struct sweep *s, const struct sweep_job *j)
{
    char stats[SWEEP_ID_MAX + 32];
    snprintf(stats, sizeof stats, "OUT/jobs/%s.json", j->id);
    char **argv = sweep_job_argv(s, j, stats);
    printf("      ");
    for (char **a = argv; *a; a++)
        printf("%s%s", a == argv ? "" : " ", *a);
    printf("\n");
    sweep_argv_free(argv);
}

static int dry_run(const struct sweep *s, const struct sweep_cli *c)
{
    printf("sweep %s: %u jobs = %u workloads x %u sizes x %u seeds x %u variants (%u distinct), baseline %s, "
           "%u thread%s per job\n",
           s->name, s->n_jobs, s->n_wl, s->n_sizes, s->n_seeds, s->n_var, s->n_distinct, s->var[s->baseline].name,
           s->threads, s->threads == 1 ? "" : "s");
    unsigned counts[3] = {0, 0, 0};
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct sweep_job *j = &s->jobs[i];
        const char *note = "";
        if (!j->first)
            note = "(same job as above)";
        else if (c->out) {
            enum sweep_job_state st = sweep_out_job_state(c->out, j->id);
            counts[st]++;
            note = state_name(st);
        }
        printf("  %-44s %-14s %-6s %6" PRIu64 "  %-*s%s%s\n", j->id, s->cat->wl[j->wl].name, s->cat->sizes[j->size],
               j->seed, note[0] ? 12 : 0, s->var[j->variant].name, note[0] ? "  " : "", note);
        if (c->verbose && j->first)
            print_command(s, j);
    }
    if (c->out)
        printf("%u done, %u failed, %u pending\n", counts[SWEEP_DONE], counts[SWEEP_FAILED], counts[SWEEP_PENDING]);
    return 0;
}

static int collect(const struct sweep *s, const struct sweep_cli *c)
{
    if (!sweep_out_prepare(c->out) || !sweep_out_write_manifest(s, c->out))
        return 2;
    sweep_out_clean_stale(c->out);
    unsigned counts[3] = {0, 0, 0};
    for (unsigned i = 0; i < s->n_jobs; i++)
        if (s->jobs[i].first)
            counts[sweep_out_job_state(c->out, s->jobs[i].id)]++;
    printf("sweep %s: %u jobs (%u distinct): %u done, %u failed, %u pending\n", s->name, s->n_jobs, s->n_distinct,
           counts[SWEEP_DONE], counts[SWEEP_FAILED], counts[SWEEP_PENDING]);
    for (unsigned i = 0; i < s->n_jobs; i++) {
        const struct sweep_job *j = &s->jobs[i];
        enum sweep_job_state st = j->first ? sweep_out_job_state(c->out, j->id) : SWEEP_DONE;
        if (st == SWEEP_DONE)
            continue;
        char why[64] = "";
        if (st == SWEEP_FAILED)
            sweep_out_failure_reason(c->out, j->id, why, sizeof why);
        printf("  %-8s %s (%s %s seed %" PRIu64 ", %s)%s%s\n", state_name(st), j->id, s->cat->wl[j->wl].name,
               s->cat->sizes[j->size], j->seed, s->var[j->variant].name, why[0] ? ": " : "", why);
    }
    return counts[SWEEP_DONE] == s->n_distinct ? 0 : 1;
}

/* The job list in OUT must be this file's before a chunk runs: chunk
 * indices count distinct jobs in order. */
static bool same_sweep(const struct sweep *s, const char *out)
{
    char digest[64];
    if (!sweep_out_manifest_field(out, "digest", digest, sizeof digest)) {
        fprintf(stderr, "gpusim: sweep: %s/sweep.json is missing; write it with --slurm first\n", out);
        return false;
    }
    if (strcmp(digest, s->digest)) {
        fprintf(stderr,
                "gpusim: sweep: %s changed since %s/sweep.json was written (job list %s, now %s); "
                "write the script again with --slurm\n",
                s->path, out, digest, s->digest);
        return false;
    }
    return true;
}

static void warn_revision(const char *out)
{
    char rev[128];
    if (sweep_out_manifest_field(out, "git_revision", rev, sizeof rev) && strcmp(rev, sim_git_revision()))
        fprintf(stderr,
                "gpusim: sweep: warning: %s was started by gpusim revision %s, this is %s; finished jobs are "
                "kept (use a new OUT to rerun them with this build)\n",
                out, rev, sim_git_revision());
}

int sweep_main(int argc, char **argv, const struct sweep_catalog *cat)
{
    struct sweep_cli c;
    int rc = parse(argc, argv, &c);
    if (rc >= 0)
        return rc;
    if (c.keys) {
        sweep_print_keys(stdout);
        return 0;
    }
    struct sweep s;
    struct diag d;
    diag_init(&d);
    if (sweep_load(&s, c.file, cat, &d) != 0) {
        diag_print(&d, stderr);
        fprintf(stderr, "gpusim: sweep: %zu error%s in %s; nothing was run\n", diag_count(&d),
                diag_count(&d) == 1 ? "" : "s", c.file);
        diag_fini(&d);
        sweep_free(&s);
        return 2;
    }
    diag_fini(&d);
    unsigned parallel = c.parallel;
    if (!parallel) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        parallel = c.slurm || c.only_chunk ? 1 : (unsigned)(cpus > 0 ? cpus : 1) / s.threads;
        if (!parallel)
            parallel = 1;
    }
    if (c.dry_run) {
        rc = dry_run(&s, &c);
    } else if (c.collect) {
        rc = collect(&s, &c);
    } else if (c.slurm) {
        struct sweep_slurm_opts so = {c.out, c.partition, c.time, c.mem, c.extra, c.chunk ? c.chunk : 8, parallel,
                                      c.submit};
        rc = !sweep_out_prepare(c.out) || !sweep_out_write_manifest(&s, c.out) ? 2 : sweep_slurm(&s, &so);
    } else {
        struct sweep_run_opts ro = {c.out, parallel, c.progress < 0 ? isatty(STDERR_FILENO) : c.progress == 1,
                                    c.only_chunk, c.only, c.chunk ? c.chunk : 1};
        if (c.only_chunk) {
            rc = same_sweep(&s, c.out) ? sweep_run(&s, &ro) : 2;
        } else if (!sweep_out_prepare(c.out)) {
            rc = 2;
        } else {
            warn_revision(c.out);
            rc = sweep_out_write_manifest(&s, c.out) ? sweep_run(&s, &ro) : 2;
        }
    }
    sweep_free(&s);
    return rc;
}
