/* sim/synth/synth.h: synthetic traffic model that proves the parallel engine.
 *
 * What it models: `sm_partitions` + `mem_partitions` partitions with
 * `units_per_partition` units each, on four clock domains (DRAM, L2, icnt,
 * core periods taken from the clock.* keys). Each unit starts with `jobs`
 * jobs. A unit serves one job at a time for a pseudo-random service time
 * (1..max_service cycles of its domain), then forwards it to a pseudo-random
 * unit: to another partition with latency L + rand(0..latency_spread) ps, to
 * a unit of its own partition with 1 + rand(0..latency_spread) ps. A job
 * retires after `hops` hops. Every random draw comes from a per-unit
 * generator seeded from (seed, unit id), so the model is a pure function of
 * its config.
 *
 * What it records (struct synth_unit_stats): jobs served, jobs retired, sum
 * of queueing delays, and an order-sensitive checksum of (job, time) pairs in
 * service order. Any difference in event order changes the checksum.
 *
 * Deliberately not modelled: anything GPU-like. The same model is written
 * independently as a sequential event-driven program in
 * tests/support/synth_ref.c; in exact mode the two must agree exactly.
 */
#ifndef GPUSIM_SIM_SYNTH_SYNTH_H
#define GPUSIM_SIM_SYNTH_SYNTH_H

#include <stdint.h>

#include "sim/base/common.h"

struct cfg_section;
struct diag;
struct engine;
struct engine_cfg;
struct clock_cfg;
struct stats;

struct synth_cfg {
    uint64_t sm_partitions;       /* synth.sm_partitions */
    uint64_t mem_partitions;      /* synth.mem_partitions */
    uint64_t units_per_partition; /* synth.units_per_partition */
    uint64_t jobs;                /* synth.jobs: initial jobs per unit */
    uint64_t hops;                /* synth.hops: hops before a job retires */
    uint64_t max_service;         /* synth.max_service (cycles of the unit's domain) */
    uint64_t latency_spread_ps;   /* synth.latency_spread (ps) */
    uint64_t seed;                /* synth.seed */
};

extern const struct cfg_section synth_cfg_section;

/* Per-unit results. */
struct synth_unit_stats {
    uint64_t served;       /* jobs whose service completed here */
    uint64_t retired;      /* jobs that ended here */
    uint64_t sent;         /* messages sent */
    uint64_t queue_ps;     /* sum over served jobs of (service start - arrival), ps */
    uint64_t checksum;     /* order-sensitive hash of (job id, service end time) */
    uint64_t last_ps;      /* time of the last service completion */
};

/* The model's shape, shared with the reference implementation. */
struct synth_shape {
    unsigned n_parts;           /* partitions */
    unsigned n_units;           /* units */
    ps_t period[4];             /* ps per domain, in tie order: dram, l2, icnt, core */
    ps_t lookahead;             /* L (ps) = icnt.min_latency * icnt period */
};

/* Unit u lives in partition u / units_per_partition; its domain is
 * (SM partitions: core for even u, icnt for odd u; memory partitions: L2 for
 * even u, DRAM for odd u). */
int synth_unit_domain(const struct synth_cfg *c, uint32_t unit);
void synth_shape_compute(const struct synth_cfg *c, const struct clock_cfg *clk, uint64_t icnt_min_latency,
                         struct synth_shape *out);

/* Deterministic generator shared by the model and its reference. */
static inline uint64_t synth_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
static inline uint64_t synth_rand(uint64_t *state)
{
    *state += 0x9e3779b97f4a7c15ull;
    return synth_mix(*state);
}
static inline uint64_t synth_hash(uint64_t h, uint64_t a, uint64_t b)
{
    return synth_mix(h ^ synth_mix(a * 0x100000001b3ull + b));
}

/* A synthetic run on the engine. */
struct synth_model;
struct synth_model *synth_create(const struct synth_cfg *c, const struct engine_cfg *ec,
                                 const struct clock_cfg *clk, uint64_t icnt_min_latency,
                                 struct diag *d);
struct engine *synth_engine(struct synth_model *m);
/* Copy per-unit results out (array of n_units). */
void synth_collect(const struct synth_model *m, struct synth_unit_stats *out);
unsigned synth_n_units(const struct synth_model *m);
/* Register per-unit counters under "synth.unit.*" in s. Call before the first
 * eng_run: units register during their partition init. */
void synth_register_stats(struct synth_model *m, struct stats *s);
void synth_destroy(struct synth_model *m);

#endif /* GPUSIM_SIM_SYNTH_SYNTH_H */
