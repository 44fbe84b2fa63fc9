/* sim/base/stats.h: statistics registry.
 *
 * Units own their statistic storage (plain uint64_t fields, struct stat_avg,
 * struct stat_hist) and update it on their own thread with no atomics; the
 * registry only records where each statistic lives. It is read in the serial
 * step or after a run, when the quantum barrier has made every thread's
 * writes visible. Registering allocates; updating never does.
 *
 * Names: a statistic belongs to a group (the unit family, dotted, e.g. "sm",
 * "l2", "dram", "synth.unit") and has a name inside it ("insts", "hits"). A
 * group has instances 0..n-1 (one per SM, per slice...) or is a singleton
 * (instance = -1). The full name is "<group>.<name>". The aggregate over
 * instances is: sum for counters and averages (sum/count), bin-wise sum for
 * histograms, max for STAT_MAX.
 *
 * Per kernel: stats_kernel_begin snapshots every value, stats_kernel_end
 * stores the difference (for STAT_MAX, the value at the end) as that kernel's
 * record. The whole-run record is the current value.
 *
 * JSON shape (written by stats_write_json as members of the caller's object):
 *   "total": { "<group>.<name>": <value>, ... }   sorted by full name
 *   "kernels": [ { "index": 0, "name": "k", "stats": { ... } }, ... ]
 * where <value> is
 *   counter/max singleton: 123
 *   counter/max instanced: {"total": 123, "instances": [..]}
 *   average:   {"mean": 1.5, "sum": 3, "count": 2}            (+ "instances": [means])
 *   histogram: {"bin_width": 4, "bins": [..], "overflow": 0, "count": n, "sum": s, "max": m, "mean": x}
 */
#ifndef GPUSIM_SIM_BASE_STATS_H
#define GPUSIM_SIM_BASE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_writer;

struct stat_avg {
    uint64_t sum;   /* sum of samples (in the statistic's unit) */
    uint64_t count; /* samples */
};

static inline void stat_avg_add(struct stat_avg *a, uint64_t v)
{
    a->sum += v;
    a->count++;
}

struct stat_hist {
    uint64_t *bins;     /* n_bins counters; bin i holds [i*bin_width, (i+1)*bin_width) */
    uint32_t n_bins;    /* bins */
    uint64_t bin_width; /* value units per bin (>= 1) */
    uint64_t overflow;  /* samples >= n_bins*bin_width */
    uint64_t count;     /* samples */
    uint64_t sum;       /* sum of samples */
    uint64_t max;       /* largest sample */
};

/* Allocates the bins (zeroed). */
void stat_hist_init(struct stat_hist *h, uint32_t n_bins, uint64_t bin_width);
void stat_hist_fini(struct stat_hist *h);
static inline void stat_hist_add(struct stat_hist *h, uint64_t v)
{
    uint64_t i = h->bin_width == 1 ? v : v / h->bin_width; /* unit bins (banks, counts): no division */
    if (i < h->n_bins)
        h->bins[i]++;
    else
        h->overflow++;
    h->count++;
    h->sum += v;
    if (v > h->max)
        h->max = v;
}

enum stat_kind { STAT_COUNTER, STAT_MAX, STAT_AVG, STAT_HIST };

struct stats; /* opaque registry */

struct stats *stats_create(void);
void stats_destroy(struct stats *s);

/* Register one statistic of one unit instance (instance -1 = singleton).
 * Registering the same (group, instance, name) twice is a simulator bug
 * (panic). All instances of a group+name must be the same kind, and
 * histograms of one group+name the same shape. doc is a one-line
 * description (kept for `gpusim stats --list`-style output). */
void stats_counter(struct stats *s, const char *group, int instance, const char *name,
                   const uint64_t *value, const char *doc);
void stats_max(struct stats *s, const char *group, int instance, const char *name,
               const uint64_t *value, const char *doc);
void stats_avg(struct stats *s, const char *group, int instance, const char *name,
               const struct stat_avg *value, const char *doc);
void stats_hist(struct stats *s, const char *group, int instance, const char *name,
                const struct stat_hist *value, const char *doc);

/* Per-kernel records. */
void stats_kernel_begin(struct stats *s, const char *kernel_name);
void stats_kernel_end(struct stats *s);
size_t stats_n_kernels(const struct stats *s);

/* Read access (tests, summaries): aggregate of "<group>.<name>" now; false
 * when no such statistic. For averages *out is the sum; for histograms the count. */
bool stats_get_u64(const struct stats *s, const char *full_name, uint64_t *out);
/* Mean over all instances of an average or histogram (0 with no samples);
 * false when no such average / histogram. */
bool stats_get_mean(const struct stats *s, const char *full_name, double *mean);
/* Value of one instance. */
bool stats_get_instance_u64(const struct stats *s, const char *full_name, int instance, uint64_t *out);

/* Per-kernel reads (summaries, the energy model): the name of finished
 * kernel k (0 .. stats_n_kernels - 1, NULL past the end), and values of its
 * record with the rules of stats_get_u64 / stats_get_mean /
 * stats_get_instance_u64 (counters, sums and counts are the kernel's
 * differences; a max is the value at the kernel's end). False when k or the
 * name does not exist, or every instance was registered after kernel k ended. */
const char *stats_kernel_name(const struct stats *s, size_t k);
bool stats_kernel_get_u64(const struct stats *s, size_t k, const char *full_name, uint64_t *out);
bool stats_kernel_get_mean(const struct stats *s, size_t k, const char *full_name, double *mean);
bool stats_kernel_get_instance_u64(const struct stats *s, size_t k, const char *full_name, int instance,
                                   uint64_t *out);

/* The statistic registered with value pointer ptr: its full name (owned by
 * the registry) and instance; false when ptr was never registered. A linear
 * scan, for init-time lookups. */
bool stats_find_value(const struct stats *s, const void *ptr, const char **full_name, int *instance);

/* Attachments: an object that a layer above the registry hangs on it under a
 * tag, so that units, which are handed only the registry, can reach it (the
 * energy model's unit events, sim/energy/energy.h). stats_destroy calls
 * destroy(obj) (when non-NULL). Attaching a tag twice is a simulator bug. */
void stats_attach(struct stats *s, const char *tag, void *obj, void (*destroy)(void *obj));
/* The object attached under tag, or NULL. */
void *stats_attachment(const struct stats *s, const char *tag);

/* Write "total" and "kernels" members into the current JSON object. */
void stats_write_json(const struct stats *s, struct json_writer *w);

#endif /* GPUSIM_SIM_BASE_STATS_H */
