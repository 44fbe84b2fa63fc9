/* sim/sm/sched/iwl_est.h: the IWL working-set estimator of one SM
 * (warp-sched-vws.md 3.6; 000 ch. 4, Eq. 4.1-4.6).
 *
 * What is modelled: per warp slot a saturating access counter and a
 * saturating miss counter (sched.vws.counter_bits wide); an address miss
 * table (AMT) of sched.vws.amt_entries one-bit entries indexed by
 * (line address / line bytes) mod entries, which lets only the first miss
 * to a block since the last clear count; the running estimates WS (misses
 * per warp) and RRDegr (accesses per counted miss), each an equal-weight
 * exponential moving average updated when a warp completes; the sampling
 * stage (no throttling) that ends when N_pred warps of the SM have
 * completed; and N_act, the number of warps allowed to run, from Eq. 4.6
 * (rrdegr) or Eq. 4.3 (basic), refreshed at every completion after
 * sampling. The AMT is cleared every N_pred completions.
 *
 * What is not modelled: any latency (the estimator is off the critical
 * path, spec 4); storage other than the bits above. The estimates are
 * doubles: every operation is a halving, an addition or a division of
 * integers, done in the same order on every host, so they are
 * deterministic.
 *
 * Operation mix: one iwl_est_access per L1D transaction (O(1)), one
 * iwl_est_warp_done per finished warp (O(1), plus an O(entries / 64) AMT
 * clear every N_pred completions). No allocation after iwl_est_init.
 */
#ifndef GPUSIM_SIM_SM_SCHED_IWL_EST_H
#define GPUSIM_SIM_SM_SCHED_IWL_EST_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"

enum iwl_stage { IWL_SAMPLING = 0, IWL_POST = 1 };

struct iwl_est_cfg {
    double alpha;          /* sampling fraction of Eq. 4.2 (0..1) */
    double beta;           /* aggressiveness of Eq. 4.6 (> 0) */
    uint32_t amt_entries;  /* AMT bits (entries, multiple of 64) */
    uint32_t counter_bits; /* width of miss_cnt / acc_cnt (bits, 1..32) */
    bool basic;            /* Eq. 4.3 (N_act = ceil(L1D_blocks / WS)) instead of Eq. 4.6 */
    uint32_t static_nact;  /* > 0: N_act fixed at min(this, resident) from kernel start (warps;
                              static warp limiting, NOTE(vws-swl)); the estimate still runs */
};

struct iwl_est_stats {
    uint64_t updates;       /* estimate updates (finished warps) */
    uint64_t amt_clears;    /* AMT clears */
    uint64_t amt_hits;      /* misses whose block was already marked (not counted) */
    uint64_t stage_cycle;   /* pipeline cycle the last sampling stage ended (0 = never) */
    uint64_t nact_changes;  /* N_act updates that changed its value */
    uint64_t nact_sum;      /* sum of N_act over the updates in POST (for the mean, warps) */
    uint64_t nact_max;      /* largest N_act set in POST (warps) */
    double ws_last;         /* WS after the last update (lines) */
    double rr_last;         /* RRDegr after the last update */
};

struct iwl_est {
    struct iwl_est_cfg cfg;
    uint32_t max_warps;     /* warp slots (warps) */
    uint32_t sat;           /* counter saturation value, 2^bits - 1 */
    uint32_t line_shift;    /* log2 line bytes */
    uint32_t *miss_cnt;     /* [max_warps] counted misses of the warp (lines) */
    uint32_t *acc_cnt;      /* [max_warps] L1D transactions of the warp */
    uint64_t *amt;          /* [amt_entries / 64] address miss table bits */
    double ws;              /* WS estimate (lines per warp) */
    double rr;              /* RRDegr estimate (accesses per counted miss) */
    bool have_est;          /* ws/rr hold a value */
    enum iwl_stage stage;   /* SAMPLING or POST */
    uint64_t finished;      /* warps finished since kernel start (warps) */
    uint64_t n_pred;        /* N_pred of Eq. 4.2 (warps) */
    uint32_t n_act;         /* warps allowed to run (warps) */
    uint32_t n_max;         /* resident warps of the kernel (max_resident_warps, warps) */
    uint32_t l1d_lines;     /* L1D_blocks (lines) */
    struct iwl_est_stats st;
};

void iwl_est_init(struct iwl_est *e, const struct iwl_est_cfg *cfg, uint32_t max_warps);
void iwl_est_fini(struct iwl_est *e);
/* Kernel launch: Eq. 4.2 with the grid's CTAs, warps per CTA and SMs;
 * max_resident = CTAs per SM x warps per CTA; clears the AMT, the counters,
 * the estimates and the stage. */
void iwl_est_kernel_start(struct iwl_est *e, uint64_t grid_ctas, uint32_t warps_per_cta, uint32_t n_sm,
                          uint32_t max_resident, uint32_t l1d_lines, uint32_t line_bytes);
/* One L1D transaction of warp w; miss = an allocating read miss. */
void iwl_est_access(struct iwl_est *e, uint32_t w, uint64_t line_addr, bool miss);
/* Warp w completed at pipeline cycle now: Eq. 4.1, 4.4, 4.5, the stage,
 * the periodic AMT clear and N_act (Eq. 4.6 / 4.3). Returns true when N_act
 * changed. */
bool iwl_est_warp_done(struct iwl_est *e, uint32_t w, uint64_t now);
/* N_act from an estimate (Eq. 4.6 or 4.3), clamped to [1, n_max]. */
uint32_t iwl_est_nact(const struct iwl_est *e, double ws, double rr);

#endif /* GPUSIM_SIM_SM_SCHED_IWL_EST_H */
