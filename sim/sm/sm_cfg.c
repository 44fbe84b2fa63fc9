/* sim/sm/sm_cfg.c: key tables for sm.* and smem.size (the first parts of sections sm
 * and smem; sm.n_sched and the smem bank keys are declared by their units), and
 * the occupancy rule.
 * See sm_cfg.h. */
#include "sim/sm/sm_cfg.h"

#include <stddef.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

static const struct cfg_key sm_keys[] = {
    {"warp_size", CFG_UINT, offsetof(struct sm_cfg, warp_size), 32, 32, "32", NULL,
     "threads per warp (spec 4.2); only 32 is modelled"},
    {"max_cta", CFG_UINT, offsetof(struct sm_cfg, max_cta), 1, 64, "8", NULL,
     "CTA slots per SM"},
    {"max_threads", CFG_UINT, offsetof(struct sm_cfg, max_threads), 32, 4096, "1536", NULL,
     "resident threads per SM"},
    {"max_warps", CFG_UINT, offsetof(struct sm_cfg, max_warps), 1, 128, "48", NULL,
     "resident warps per SM"},
    {"n_regs", CFG_UINT, offsetof(struct sm_cfg, n_regs), 1024, 1048576, "32768", NULL,
     "32-bit registers per SM (register-file budget shared by resident CTAs)"},
    {"max_block_threads", CFG_UINT, offsetof(struct sm_cfg, max_block_threads), 32, 1024, "1024", NULL,
     "largest CTA (threads) a launch may request"},
    {"pipe_clock_div", CFG_UINT, offsetof(struct sm_cfg, pipe_clock_div), 1, 4, "1", NULL,
     "core clock edges per SM pipeline cycle (2 for the 1.4 GHz Fermi hot-clock presets; spec 3.1)"},
    {"eject_buf", CFG_UINT, offsetof(struct sm_cfg, eject_buf), 1, 256, "8", NULL,
     "reply packets the SM ejection buffer holds (spec 1.2: GPGPU-Sim gpgpu_n_cluster_ejection_buffer_size 8)"},
    {"memop_pool", CFG_UINT, offsetof(struct sm_cfg, memop_pool), 1, 4096, "16", NULL,
     "memory instructions between issue and the LD/ST latch (operand collectors, MEM pipe); a full pool "
     "stalls issue as pipe-busy"},
    {"ldst_slots", CFG_UINT, offsetof(struct sm_cfg, ldst_slots), 1, 4096, "64", NULL,
     "memory instructions in flight after the LD/ST stage (waiting for data or acks; NOTE(slots) in "
     "sim/sm/lsu/ldst.c)"},
};

const struct cfg_section sm_cfg_section = {"sm", "streaming multiprocessor resources", offsetof(struct sim_cfg, sm),
                                           sm_keys, ARRAY_LEN(sm_keys), NULL};

static const struct cfg_key smem_keys[] = {
    {"size", CFG_SIZE, offsetof(struct smem_cfg, size), 1024, 1048576, "48KB", NULL,
     "shared memory per SM (bytes), the budget shared by resident CTAs"},
};

const struct cfg_section smem_cfg_section = {"smem", "shared memory (capacity and banks)", offsetof(struct sim_cfg, smem), smem_keys,
                                             ARRAY_LEN(smem_keys), NULL};

uint32_t sm_ctas_per_sm(const struct sm_cfg *sm, const struct smem_cfg *smem, uint32_t threads_per_cta,
                        uint32_t regs_per_thread, uint64_t smem_per_cta)
{
    uint64_t warps = (threads_per_cta + 31u) / 32u;
    uint64_t t = warps * 32u;                       /* whole warps */
    uint64_t r = (regs_per_thread + 3u) & ~3u;      /* allocation granularity 4 */
    uint64_t lim = sm->max_cta;
    if (t) {
        if (sm->max_threads / t < lim)
            lim = sm->max_threads / t;
        if (sm->max_warps / warps < lim)
            lim = sm->max_warps / warps;
        if (r && sm->n_regs / (r * t) < lim)
            lim = sm->n_regs / (r * t);
    }
    if (smem_per_cta && smem->size / smem_per_cta < lim)
        lim = smem->size / smem_per_cta;
    return (uint32_t)lim;
}
