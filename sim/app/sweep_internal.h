/* sim/app/sweep_internal.h: what the files of `gpusim sweep` share (private;
 * tests may include it). The public entry point is sim/app/sweep.h.
 *
 * The module is split by job:
 *   sweep_file.c   the sweep file: declared keys, parsing, validation of
 *                  every variant's configuration, the job grid and job ids;
 *   sweep_out.c    the OUT/ layout: directories, sweep.json, failure
 *                  records, which jobs are done, stale work files;
 *   sweep_run.c    running jobs locally, N at a time, as child processes;
 *   sweep_slurm.c  the sbatch job-array script and its submission;
 *   sweep_cli.c    the `gpusim sweep` command line, --dry-run, --collect.
 */
#ifndef GPUSIM_SIM_APP_SWEEP_INTERNAL_H
#define GPUSIM_SIM_APP_SWEEP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/app/sweep.h"
#include "sim/base/diag.h"

#define SWEEP_ID_MAX 96       /* longest job id with NUL: "<workload>-<size>-s<seed>-<16 hex>" */
#define SWEEP_FORMAT "gpusim-sweep-1"
#define SWEEP_FAIL_FORMAT "gpusim-job-failure-1"

/* A list of owned strings. */
struct sweep_strv {
    char **v;      /* entries (owned) */
    unsigned n;    /* entries used */
    unsigned cap;  /* entries allocated */
};

/* One variant: a name and the overrides it adds to the sweep's own. */
struct sweep_variant {
    char *name;               /* as written after "variant." */
    struct sweep_strv ov;     /* "key=value" overrides, in file order */
    int line;                 /* line of its first declaration */
    char hash[17];            /* FNV-1a 64 of the resolved configuration, hex */
};

/* One job of the grid. */
struct sweep_job {
    char id[SWEEP_ID_MAX];    /* stable id, also the file name under OUT/jobs/ */
    unsigned wl;              /* index into the catalog's workloads */
    unsigned size;            /* index into the catalog's sizes */
    uint64_t seed;            /* input seed */
    unsigned variant;         /* index into struct sweep.var */
    unsigned distinct;        /* index of this id among the distinct ids (chunking) */
    bool first;               /* the first job with this id (the one that runs) */
};

/* A loaded, validated sweep and its job grid. */
struct sweep {
    const struct sweep_catalog *cat;
    char *path;               /* sweep file as given */
    char *abs_path;           /* its absolute path (Slurm scripts) */
    char *name;               /* file name without directory and ".sweep" */
    char *preset;             /* preset name or .cfg path as written */
    char *preset_arg;         /* what jobs get with -c: a name or an absolute path */
    struct sweep_strv ov;     /* overrides applied to every variant, before its own */
    struct sweep_variant *var;/* variants, in file order */
    unsigned n_var;           /* entries in var */
    unsigned baseline;        /* index of the baseline variant */
    unsigned *wl;             /* selected workloads (catalog indices), in listing order */
    unsigned n_wl;            /* entries in wl */
    unsigned sizes[8];        /* selected size indices */
    unsigned n_sizes;         /* entries in sizes */
    uint64_t *seeds;          /* selected seeds */
    unsigned n_seeds;         /* entries in seeds */
    unsigned threads;         /* host threads per job (--threads) */
    unsigned timeout_s;       /* per-job wall-clock limit in seconds, 0 = none */
    struct sweep_job *jobs;   /* the grid: workload, size, seed, variant order */
    unsigned n_jobs;          /* entries in jobs */
    unsigned n_distinct;      /* distinct ids among the jobs */
    char digest[17];          /* FNV-1a 64 of the distinct ids in order (chunk check) */
};

/* ---- strings (sweep_file.c) */
void sweep_strv_push(struct sweep_strv *l, const char *s);
void sweep_strv_free(struct sweep_strv *l);
/* FNV-1a 64-bit, continued from h (start with SWEEP_FNV_INIT). */
#define SWEEP_FNV_INIT 0xcbf29ce484222325ull
uint64_t sweep_fnv1a(uint64_t h, const void *data, size_t n);

/* ---- the sweep file (sweep_file.c) */
/* Parse and validate `path` and build the grid. Every problem is added to d
 * as "file:line: key 'k': what is wrong"; returns the number of errors
 * (0 = s is ready; otherwise s holds what was read and must still be freed). */
int sweep_load(struct sweep *s, const char *path, const struct sweep_catalog *cat, struct diag *d);
void sweep_free(struct sweep *s);
/* `gpusim sweep --keys`: every sweep-file key with its kind, default and doc. */
void sweep_print_keys(FILE *out);
/* The command-line arguments of job j after the binary name, NULL-terminated
 * (caller frees with sweep_argv_free); stats is the --stats path. */
char **sweep_job_argv(const struct sweep *s, const struct sweep_job *j, const char *stats);
void sweep_argv_free(char **argv);
/* The full override list of variant v ("key=value", sweep's first). */
void sweep_variant_overrides(const struct sweep *s, unsigned v, struct sweep_strv *out);

/* ---- the OUT/ layout (sweep_out.c) */
enum sweep_job_state { SWEEP_PENDING, SWEEP_DONE, SWEEP_FAILED };
/* Create OUT, OUT/jobs and OUT/tmp; false with a message on stderr. */
bool sweep_out_prepare(const char *out);
/* "OUT/jobs/<id>.json" or "OUT/jobs/<id>.failed.json" (caller frees). */
char *sweep_out_job_path(const char *out, const char *id, bool failed);
enum sweep_job_state sweep_out_job_state(const char *out, const char *id);
/* Write OUT/sweep.json atomically; false with a message on stderr. */
bool sweep_out_write_manifest(const struct sweep *s, const char *out);
/* The value of a top-level string member of OUT/sweep.json as this module
 * writes it ("digest", "git_revision"); false when absent. */
bool sweep_out_manifest_field(const char *out, const char *member, char *buf, size_t len);
/* Remove the work directories OUT/tmp/<this host>.<pid> whose process is
 * gone (left by a kill -9); other hosts' directories are left alone. */
void sweep_out_clean_stale(const char *out);
/* Remove a work directory and the files in it (one level). */
void sweep_out_remove_dir(const char *dir);
/* This host's name (for work directories and failure records). */
void sweep_hostname(char *buf, size_t len);

/* Why a job failed, as recorded in OUT/jobs/<id>.failed.json. */
struct sweep_failure {
    const char *reason;       /* "exit", "signal", "timeout", "interrupted", "spawn" */
    int exit_status;          /* exit code, or -1 when killed by a signal */
    int signo;                /* the signal that killed it, or 0 */
    double seconds;           /* wall time it ran */
    char *stderr_tail;        /* last lines of its stderr (owned, may be NULL) */
};
/* Write the failure record of job j atomically (through tmpdir); false on error. */
bool sweep_out_write_failure(const struct sweep *s, const struct sweep_job *j, const char *out,
                             const char *tmpdir, const struct sweep_failure *f, char *const *argv);
/* Read the failure record's reason into buf ("?" when unreadable). */
void sweep_out_failure_reason(const char *out, const char *id, char *buf, size_t len);

/* ---- running jobs locally (sweep_run.c) */
struct sweep_run_opts {
    const char *out;          /* OUT directory */
    unsigned parallel;        /* jobs at a time (-j) */
    bool progress;            /* progress line on stderr */
    bool only_chunk;          /* run only distinct jobs [chunk*chunk_size, +chunk_size) */
    unsigned chunk, chunk_size;
};
/* Run every selected job without a result; returns the exit code. */
int sweep_run(const struct sweep *s, const struct sweep_run_opts *o);

/* ---- Slurm (sweep_slurm.c) */
struct sweep_slurm_opts {
    const char *out;          /* OUT directory */
    const char *partition;    /* --partition, or NULL */
    const char *time;         /* --time, or NULL */
    const char *mem;          /* --mem, or NULL */
    const char *const *extra; /* further #SBATCH options (--sbatch-opt), NULL-terminated */
    unsigned chunk_size;      /* distinct jobs per array task */
    unsigned parallel;        /* jobs at a time inside one task */
    bool submit;              /* run sbatch on the script */
};
int sweep_slurm(const struct sweep *s, const struct sweep_slurm_opts *o);

#endif /* GPUSIM_SIM_APP_SWEEP_INTERNAL_H */
