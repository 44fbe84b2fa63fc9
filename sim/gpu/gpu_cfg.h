/* sim/gpu/gpu_cfg.h: top-level organisation of the simulated GPU.
 *
 * Sections declared here (sim/gpu/gpu_cfg.c):
 *   sim.*    run mode and watchdog
 *   clock.*  the four clock domains (spec baseline-gpu.md section 3.1)
 *   gpu.*    number of SMs
 *   mem.*    memory partitions and sub-partitions
 *   icnt.*   interconnect minimum latency, which is the engine's lookahead
 * Units that own finer-grained keys (L1, L2, DRAM, schedulers...) declare
 * their own sections next to their code.
 */
#ifndef GPUSIM_SIM_GPU_GPU_CFG_H
#define GPUSIM_SIM_GPU_GPU_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"

struct cfg_section;

enum sim_mode { SIM_MODE_FUNCTIONAL, SIM_MODE_TIMING };

struct simmode_cfg {
    int mode;                 /* sim.mode: enum sim_mode */
    uint64_t watchdog_cycles; /* sim.watchdog (core cycles): stop when nothing retires this long */
    uint64_t seed;            /* sim.seed: seed for any randomised model choice */
    uint64_t func_watchdog;   /* sim.func_watchdog (warp instructions per resident warp) */
    bool tick_every_cycle;    /* sim.tick_every_cycle: no idle skipping in the SM (model check) */
};

struct clock_cfg {
    uint64_t core_hz; /* clock.core (Hz) */
    uint64_t icnt_hz; /* clock.icnt (Hz) */
    uint64_t l2_hz;   /* clock.l2 (Hz) */
    uint64_t dram_hz; /* clock.dram (Hz): DRAM command clock */
};

struct gpu_cfg {
    uint64_t n_sm; /* gpu.n_sm (SMs) */
};

struct mem_cfg {
    uint64_t n_partitions;     /* mem.n_partitions (memory partitions = DRAM channels) */
    uint64_t sub_per_partition;/* mem.sub_per_partition (L2 sub-partitions per partition) */
};

struct icnt_cfg {
    uint64_t min_latency; /* icnt.min_latency (interconnect cycles): lookahead of the engine */
};

extern const struct cfg_section simmode_cfg_section;
extern const struct cfg_section clock_cfg_section;
extern const struct cfg_section gpu_cfg_section;
extern const struct cfg_section mem_cfg_section;
extern const struct cfg_section icnt_cfg_section;

/* Clock periods in integer ps, with the spec's rule (baseline-gpu.md 3.1):
 * round(1e12 / f); where one domain's frequency is an integer multiple of
 * another's, the faster period is rounded first and the slower one is set to
 * exactly that multiple so their edges stay aligned. */
struct clock_periods {
    ps_t core, icnt, l2, dram; /* ps */
};
void clock_periods_compute(const struct clock_cfg *c, struct clock_periods *out);

#endif /* GPUSIM_SIM_GPU_GPU_CFG_H */
