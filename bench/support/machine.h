/* bench/support/machine.h: description of the host a benchmark ran on
 * (CPU model, cores, kernel), printed with every report. */
#ifndef GPUSIM_BENCH_MACHINE_H
#define GPUSIM_BENCH_MACHINE_H

struct json_writer;

struct machine {
    char cpu_model[128]; /* "model name" of /proc/cpuinfo */
    char kernel[320];    /* uname: sysname release version machine */
    unsigned cores;      /* physical cores (hwloc) */
    unsigned pus;        /* processing units (hwloc) */
    unsigned online;     /* sysconf(_SC_NPROCESSORS_ONLN) */
};

void machine_probe(struct machine *m);
/* "- CPU: ...\n- physical cores ...\n- kernel: ...\n" (Markdown list). */
void machine_print_markdown(const struct machine *m);
/* A "machine" object. */
void machine_write_json(const struct machine *m, struct json_writer *w);

#endif /* GPUSIM_BENCH_MACHINE_H */
