/* sim/sm/sm_cfg.h: per-SM resource limits (spec baseline-gpu.md 2.1 and 4.2).
 *
 * Sections declared here (sim/sm/sm_cfg.c):
 *   sm.*    warp size; CTA, thread, warp and register budgets of one SM
 *           (sm.n_sched is a part declared by sim/sm/sched/sched_cfg.c)
 *   smem.size  shared memory per SM (the bank keys smem.n_banks ... are a
 *           part declared by sim/sm/lsu/smem_banks.c)
 * These limits decide occupancy (CTAs resident per SM) in both modes.
 */
#ifndef GPUSIM_SIM_SM_SM_CFG_H
#define GPUSIM_SIM_SM_SM_CFG_H

#include <stdint.h>

struct cfg_section;

struct sm_cfg {
    uint64_t warp_size;   /* sm.warp_size (threads): 32, the only size modelled */
    uint64_t max_cta;     /* sm.max_cta (CTAs): CTA slots per SM */
    uint64_t max_threads; /* sm.max_threads (threads) per SM */
    uint64_t max_warps;   /* sm.max_warps (warps) per SM */
    uint64_t n_regs;      /* sm.n_regs (32-bit registers) per SM */
    uint64_t max_block_threads; /* sm.max_block_threads (threads): largest CTA a launch may use */
    uint64_t pipe_clock_div; /* sm.pipe_clock_div: core edges per pipeline cycle (1 = pipeline at core clock) */
    uint64_t eject_buf;   /* sm.eject_buf (reply packets) the SM's ejection buffer holds */
    uint64_t memop_pool;  /* sm.memop_pool (entries): memory instructions between issue and the LD/ST latch */
    uint64_t ldst_slots;  /* sm.ldst_slots (entries): memory instructions in flight after the LD/ST stage */
};

struct smem_cfg {
    uint64_t size; /* smem.size (bytes) of shared memory per SM */
};

extern const struct cfg_section sm_cfg_section;
extern const struct cfg_section smem_cfg_section;

/* CTAs of one kernel that fit on one SM at once: the minimum of the CTA-slot,
 * thread (whole warps), warp, register (registers per thread rounded up to 4)
 * and shared-memory limits. 0 when a single CTA does not fit. */
uint32_t sm_ctas_per_sm(const struct sm_cfg *sm, const struct smem_cfg *smem, uint32_t threads_per_cta,
                        uint32_t regs_per_thread, uint64_t smem_per_cta);

#endif /* GPUSIM_SIM_SM_SM_CFG_H */
