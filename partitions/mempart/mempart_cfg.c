/* partitions/mempart/mempart_cfg.c: key table of the l2_to_dram.* section (spec
 * baseline-gpu.md 2.8 point 4, 3.1, 3.3, 4.2; defaults are the gtx480
 * values) and the delay conversion. The partition's other parameters are the
 * l2.* and dram.* sections (queues, credits = dram.queue + dram.return_queue
 * - 1 + 1 per sub-partition) and mem.* (partitions, sub-partitions). See
 * mempart.h and docs/mempart.md. */
#include <stddef.h>

#include "partitions/mempart/mempart.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

const struct cfg_key mempart_cfg_keys[] = {
    {"latency", CFG_UINT, offsetof(struct mempart_cfg, l2_to_dram_latency), 0, 100000, "100", NULL,
     "L2->DRAM request delay in pipeline cycles, between admission and the DRAM scheduler queue "
     "(GPGPU-Sim dram_latency: 100 cycles of the 700 MHz warp clock; 003 uses 20)"},
};
const size_t mempart_cfg_n_keys = ARRAY_LEN(mempart_cfg_keys);

const struct cfg_section mempart_cfg_section = {"l2_to_dram", "L2->DRAM request path of a memory partition",
                                                offsetof(struct sim_cfg, l2_to_dram), mempart_cfg_keys,
                                                ARRAY_LEN(mempart_cfg_keys), NULL};

void mempart_cfg_defaults(struct mempart_cfg *c)
{
    for (size_t i = 0; i < ARRAY_LEN(mempart_cfg_keys); i++) {
        char why[256];
        bool ok = cfg_parse_value(&mempart_cfg_keys[i], mempart_cfg_keys[i].def,
                                  (char *)c + mempart_cfg_keys[i].offset, why, sizeof why);
        SIM_ASSERT(ok, "l2_to_dram.%s default '%s': %s", mempart_cfg_keys[i].name, mempart_cfg_keys[i].def, why);
    }
}

uint64_t mempart_l2_to_dram_cycles(const struct mempart_cfg *c, ps_t pipe_period_ps, ps_t dram_period_ps)
{
    SIM_ASSERT(dram_period_ps > 0, "l2_to_dram: zero DRAM clock period");
    /* spec 3.1: the delay keeps its length in time; rounded to the nearest DRAM cycle */
    return (c->l2_to_dram_latency * pipe_period_ps + dram_period_ps / 2) / dram_period_ps;
}
