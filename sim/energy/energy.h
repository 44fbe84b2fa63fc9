/* sim/energy/energy.h: the event-based energy model (docs/energy.md).
 *
 * What it models: energy = sum over events of (event count x energy per
 * event) + sum over structures of (static power x simulated time), for the
 * structures of the GPU: register file, L1D, shared memory, L2, interconnect,
 * DRAM and a per-instruction core term. Energies per event (pJ) and static
 * powers (mW) are the configuration keys of section `energy.*`
 * (sim/energy/energy_cfg.c, each with its source in its doc line); the
 * counts are statistics the timing model already keeps
 * (docs/energy-events.md), read from the registry after the run or per
 * finished kernel. Nothing runs during the simulation: no hot-path cost.
 *
 * What it does not model: activity-dependent static power (clock gating,
 * power gating, DVFS), data-dependent dynamic energy, temperature, and any
 * structure without an event counter (texture cache, constant cache,
 * instruction cache, warp schedulers, operand collectors). Energy is defined
 * for timing mode only (functional mode has no caches, DRAM or cycles).
 *
 * Static energy: static power (per instance) x instances x simulated time,
 * time = gpu.cycles x the core clock period. Instances: one per SM for rf,
 * l1d, smem and core; one per L2 slice for l2; one per endpoint and network
 * for icnt (2 x (SMs + L2 slices)). DRAM has no static key: its background
 * power (per channel) is charged for every DRAM cycle each channel counted
 * (dram.cycles x the DRAM clock period) and reported as its static part.
 *
 * Units of the results: nanojoules (pJ x 1e-3; mW x ps x 1e-6).
 *
 * Unit events (the hook for register-file policies and other units): a unit
 * that counts an event of its own (racetrack shifts, write-buffer accesses)
 * registers the counter as a statistic as usual and then calls
 * energy_event_register with the same pointer and the full name of a
 * declared double key holding pJ per event. Registrations with the same
 * (structure, event) add up (one per SM instance); per-kernel energies work
 * because the counter is a statistic.
 */
#ifndef GPUSIM_SIM_ENERGY_ENERGY_H
#define GPUSIM_SIM_ENERGY_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cfg;
struct cfg_section;
struct json_writer;
struct stats;

/* The structures, in report order. */
enum energy_structure {
    ENERGY_RF,   /* register file (per SM) */
    ENERGY_L1D,  /* L1 data cache (per SM) */
    ENERGY_SMEM, /* shared memory (per SM) */
    ENERGY_L2,   /* L2 slices */
    ENERGY_ICNT, /* request and reply networks */
    ENERGY_DRAM, /* GDDR5 channels */
    ENERGY_CORE, /* per-instruction core term (fetch, decode, issue, execute) */
    ENERGY_N_STRUCTURES
};

/* "rf", "l1d", "smem", "l2", "icnt", "dram", "core". */
const char *energy_structure_name(enum energy_structure s);
/* The structure named name, or -1. */
int energy_structure_of(const char *name);

/* Section "energy" (declared in sim/energy/energy_cfg.c): per-event energies
 * in pJ, static powers in mW (per instance, see above). */
struct energy_cfg {
    double rf_read_pj;         /* energy.rf.read_pj: pJ per warp-register read (sm.oc.reads) */
    double rf_write_pj;        /* energy.rf.write_pj: pJ per warp-register write (sm.oc.writes) */
    double rf_shift_pj;        /* energy.rf.shift_pj: pJ per racetrack shift step (policy event) */
    double rf_static_mw;       /* energy.rf.static_mw: mW per SM */
    double rf_wb_read_pj;      /* energy.rf.wb_read_pj: pJ per racetrack write-buffer read (policy event) */
    double rf_wb_write_pj;     /* energy.rf.wb_write_pj: pJ per racetrack write-buffer store (policy event) */
    double l1d_read_pj;        /* energy.l1d.read_pj: pJ per load transaction looked up in the L1D */
    double l1d_write_pj;       /* energy.l1d.write_pj: pJ per store transaction */
    double l1d_fill_pj;        /* energy.l1d.fill_pj: pJ per line fill */
    double l1d_static_mw;      /* energy.l1d.static_mw: mW per SM */
    double smem_access_pj;     /* energy.smem.access_pj: pJ per shared-memory bank cycle (all banks) */
    double smem_static_mw;     /* energy.smem.static_mw: mW per SM */
    double l2_read_pj;         /* energy.l2.read_pj: pJ per line read (reads, dirty-line write-backs) */
    double l2_write_pj;        /* energy.l2.write_pj: pJ per line write (writes, L1 write-backs, fills) */
    double l2_atomic_pj;       /* energy.l2.atomic_pj: pJ per atomic access */
    double l2_static_mw;       /* energy.l2.static_mw: mW per L2 slice */
    double icnt_flit_pj;       /* energy.icnt.flit_pj: pJ per flit sent (both networks) */
    double icnt_static_mw;     /* energy.icnt.static_mw: mW per endpoint and network */
    double dram_activate_pj;   /* energy.dram.activate_pj: pJ per ACT (with its PRE, Micron method) */
    double dram_precharge_pj;  /* energy.dram.precharge_pj: pJ per PRE beyond the ACT pair */
    double dram_read_pj;       /* energy.dram.read_pj: pJ per RD burst command */
    double dram_write_pj;      /* energy.dram.write_pj: pJ per WR burst command */
    double dram_refresh_pj;    /* energy.dram.refresh_pj: pJ per REF command */
    double dram_background_mw; /* energy.dram.background_mw: mW per channel, per DRAM cycle counted */
    double core_inst_pj;       /* energy.core.inst_pj: pJ per warp instruction */
    double core_lane_pj;       /* energy.core.lane_pj: pJ per thread instruction (active lane) */
    double core_static_mw;     /* energy.core.static_mw: mW per SM */
};

extern const struct cfg_section energy_cfg_section;

/* The hook: structure (one of energy_structure_name's names) gets event
 * `event`, counted by *count (a statistic already registered with reg), at
 * the value of the double key `key` (full name, e.g. "energy.rf.shift_pj") in
 * pJ per event. Call from a unit's statistics registration, any number of
 * instances. A bad structure, an unregistered counter or an event name that
 * a built-in event of the structure already uses is a simulator bug (panic);
 * an undeclared or non-numeric key is reported when the energy is computed
 * (panic naming the event). */
void energy_event_register(struct stats *reg, const char *structure, const char *event, const uint64_t *count,
                           const char *key);

#define ENERGY_MAX_EVENTS 64       /* built-in plus unit events */
#define ENERGY_WHOLE_RUN ((size_t)-1) /* energy_compute's kernel argument: the whole run */

/* One event's contribution. */
struct energy_event_val {
    enum energy_structure structure; /* where it is charged */
    const char *event;               /* "read", "activate", ... */
    const char *key;                 /* its energy key (full name) */
    double pj;                       /* pJ per event (the key's value) */
    uint64_t count;                  /* events (0 when the statistic does not exist) */
    double nj;                       /* count x pj x 1e-3 */
};

struct energy_report {
    bool valid;                                 /* timing statistics found (gpu.cycles) */
    double time_ns;                             /* simulated time: gpu.cycles x core period */
    double dynamic_nj[ENERGY_N_STRUCTURES];     /* sum of the structure's events */
    double static_nj[ENERGY_N_STRUCTURES];      /* static power x time (DRAM: background) */
    double total_nj;                            /* all of the above */
    size_t n_events;                            /* entries of ev */
    struct energy_event_val ev[ENERGY_MAX_EVENTS];
};

/* Compute the energies of the whole run (kernel = ENERGY_WHOLE_RUN) or of
 * finished kernel k (its statistics record: counts and cycles of that kernel
 * only). c gives the keys, clocks and instance counts. */
void energy_compute(const struct stats *s, const struct cfg *c, size_t kernel, struct energy_report *out);

static inline double energy_structure_total(const struct energy_report *r, enum energy_structure st)
{
    return r->dynamic_nj[st] + r->static_nj[st];
}

/* The "energy" member of the statistics file (docs/energy.md): whole run
 * with per-event counts, then one record per finished kernel. Writes
 * nothing when the statistics are not those of a timing run. */
void energy_write_json(const struct stats *s, const struct cfg *c, struct json_writer *w);

#endif /* GPUSIM_SIM_ENERGY_ENERGY_H */
