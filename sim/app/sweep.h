/* sim/app/sweep.h: `gpusim sweep`, experiments as grids of jobs.
 *
 * A sweep file (docs/experiments.md, "Sweeps") names a base preset, named
 * variants (each a list of `-o key=value` overrides), workloads (names or
 * tags), sizes, seeds, host threads per job, a baseline variant and an
 * optional per-job timeout. Its cross product is the job list. Each job is
 * one `gpusim run` of one workload, size and seed under one variant's
 * configuration, identified by a stable id that hashes the workload, size,
 * seed and the *resolved* configuration (not the variant's name), so the
 * same job in two sweeps is the same file.
 *
 * The sweep runs jobs N at a time as child processes of the same binary and
 * keeps the results in an output directory whose layout the report tool
 * reads (docs/experiments.md, "Output layout"):
 *   OUT/sweep.json            the sweep: variants, baseline, job list
 *   OUT/jobs/<id>.json        a finished job: exactly `gpusim run --stats`
 *   OUT/jobs/<id>.failed.json a failed job: exit status or signal, stderr tail
 *   OUT/tmp/<host>.<pid>/     work files of one running sweep process
 *   OUT/slurm/                the sbatch script and its logs (--slurm)
 * A file appears under OUT/jobs/ only by rename(2) of a complete file, so a
 * kill -9 of the sweep or of a job never leaves a partial result there, and
 * a rerun runs exactly the jobs without a <id>.json.
 *
 * Not done: no dependency between jobs, no cross-machine locking (two
 * sweep processes must not run the same chunk of one OUT/ at once), no
 * re-validation of results written by an older simulator build (start a
 * new OUT/ after changing the simulator; sweep.json records the revision).
 */
#ifndef GPUSIM_SIM_APP_SWEEP_H
#define GPUSIM_SIM_APP_SWEEP_H

#define SWEEP_MAX_TAGS 4

/* One workload the sweep may name: what `gpusim list` shows. */
struct sweep_workload {
    const char *name;                    /* as given to `gpusim run` */
    const char *tags[SWEEP_MAX_TAGS + 1]; /* e.g. "register-heavy"; NULL-terminated */
};

/* What the sweep can run; filled by the CLI from the workload registry, and
 * by tests with their own lists. */
struct sweep_catalog {
    const struct sweep_workload *wl; /* workloads, in `gpusim list` order */
    unsigned n_wl;                   /* entries in wl */
    const char *const *sizes;        /* size class names, index = --size value */
    unsigned n_sizes;                /* entries in sizes */
    const char *exe;                 /* the gpusim binary jobs run (absolute path) */
};

/* `gpusim sweep ARGS...`: argv[0] is "sweep". Returns the exit code: 0 every
 * selected job finished, 1 a job failed or the sweep was interrupted, 2 a
 * usage or sweep-file error (nothing ran). */
int sweep_main(int argc, char **argv, const struct sweep_catalog *cat);

#endif /* GPUSIM_SIM_APP_SWEEP_H */
