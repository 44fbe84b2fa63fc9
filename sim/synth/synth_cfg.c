/* sim/synth/synth_cfg.c: the synth.* configuration keys (owned by sim/synth/synth.c). */
#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/synth/synth.h"

static const struct cfg_key synth_keys[] = {
    {"sm_partitions", CFG_UINT, offsetof(struct synth_cfg, sm_partitions), 0, 1024, "8", NULL,
     "SM-kind partitions of the synthetic model"},
    {"mem_partitions", CFG_UINT, offsetof(struct synth_cfg, mem_partitions), 0, 1024, "4", NULL,
     "memory-kind partitions of the synthetic model"},
    {"units_per_partition", CFG_UINT, offsetof(struct synth_cfg, units_per_partition), 1, 64, "2",
     NULL, "units in each synthetic partition"},
    {"jobs", CFG_UINT, offsetof(struct synth_cfg, jobs), 0, 1e6, "4", NULL,
     "jobs each unit holds at time 0"},
    {"hops", CFG_UINT, offsetof(struct synth_cfg, hops), 1, 1e9, "200", NULL,
     "hops before a job retires"},
    {"max_service", CFG_UINT, offsetof(struct synth_cfg, max_service), 1, 1e6, "20", NULL,
     "largest service time, in cycles of the unit's clock domain"},
    {"latency_spread", CFG_TIME, offsetof(struct synth_cfg, latency_spread_ps), 0, 1e12, "20ns",
     NULL, "random extra message latency on top of the minimum, up to this many ps"},
    {"seed", CFG_UINT, offsetof(struct synth_cfg, seed), 0, 1.8e19, "1", NULL,
     "seed of the synthetic model's generators"},
};

static void synth_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct synth_cfg *s = sec;
    (void)all;
    if (s->sm_partitions + s->mem_partitions == 0)
        cfg_check_fail(ck, "synth.sm_partitions",
                       "synth.sm_partitions + synth.mem_partitions must be at least 1");
}

const struct cfg_section synth_cfg_section = {
    "synth", "synthetic engine-validation model", offsetof(struct sim_cfg, synth), synth_keys,
    ARRAY_LEN(synth_keys), synth_check};
