/* sim/sm/sched/sched_iwl.h: the SM-wide state shared by the IWL family of
 * warp schedulers: iwl (sched_iwl.c), iwl_intracl (sched_iwl_intracl.c) and
 * vws (sched_vws.c) (warp-sched-vws.md 3.6-3.10; docs/vws.md).
 *
 * What is modelled, per SM (all schedulers of the SM share it):
 *  - the IWL estimator (iwl_est.h), fed by the L1D events of every warp and
 *    updated when a warp exits; it gives N_act;
 *  - the eligible set E: the first N_act live warps in a fixed order,
 *    CTA-interleaved (iwl: warp index within its CTA, then CTA age) or
 *    CTA-major (iwl_intracl, vws: CTA age, then warp index), recomputed once
 *    per scheduler cycle. NOTE(vws-barrier): a warp waiting at a barrier is
 *    a member of E but does not count against N_act (spec 3.10), so E
 *    always holds N_act warps that can make progress and a CTA whose other
 *    warps lie outside E cannot deadlock; every warp that enters E only
 *    because barrier waiters ahead of it were not counted is a barrier-guard
 *    activation (counted on its rising edge);
 *  - throttling (sched.throttle_mode): block_all offers only E's warps;
 *    block_loads offers every warp but gates the L1D loads of those outside E
 *    (wsched.no_load);
 *  - vws only: the InterCL level-1 list (NOTE in sched_vws.c).
 * Issue order inside the offered set: GTO (greedy, then oldest).
 *
 * What is not modelled: hardware cost of the sort (the order is kept sorted
 * at launch and exit), any latency of the decisions (spec 4: none).
 */
#ifndef GPUSIM_SIM_SM_SCHED_SCHED_IWL_H
#define GPUSIM_SIM_SM_SCHED_SCHED_IWL_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/stats.h"
#include "sim/sm/sched/iwl_est.h"
#include "sim/sm/sched/sched.h"

struct iwl_sm {
    struct iwl_est est;        /* working-set estimator, N_act */
    bool cta_major;            /* E order: CTA-major (IntraCL) instead of CTA-interleaved */
    bool two_level;            /* vws: InterCL level 1 over E */
    uint32_t wpc;              /* warps per CTA of the running kernel (warps) */
    uint32_t n_ord;            /* live warps in ord (warps) */
    uint32_t *ord;             /* [max_warps] live warps in E order (kept sorted at launch/exit) */
    bool *in_e;                /* [max_warps] member of E this cycle */
    bool *guard;               /* [max_warps] in E only through the barrier rule (NOTE(vws-barrier)) */
    bool *waiting_long;        /* [max_warps] issued a long-latency op not yet returned */
    bool *in_l1;               /* [max_warps] vws: member of level 1 */
    uint32_t n_l1;             /* vws: level-1 size (warps) */
    uint32_t n_e;              /* |E| this cycle (warps) */
    uint32_t demoted[WSCHED_MAX_WARPS]; /* vws: CTAs (linear ids) demoted in this update */
    uint32_t n_demoted;
    cycle_t upd_cycle;         /* cycle of the last E update (CYCLE_NEVER = none) */
    cycle_t hist_cycle;        /* cycle the current active-warp sample started */
    uint32_t hist_val;         /* active warps since hist_cycle (warps) */
    struct stat_hist active;   /* cycles by active-warp count (|E| minus barrier waiters; vws: level 1) */
    uint64_t barrier_guard;    /* barrier-guard activations (NOTE(vws-barrier)) */
    uint64_t promotions;       /* vws: warps moved into level 1 */
    uint64_t demotions;        /* vws: warps moved out of level 1 */
    uint64_t promo_class[4];   /* vws: promotions by class P1..P4 */
    struct stat_avg ws_milli;  /* WS x 1000 at each update (lines) */
    struct stat_avg rr_milli;  /* RRDegr x 1000 at each update */
    struct stat_avg nact;      /* N_act at each post-sampling update (warps) */
    uint64_t stage_ends;       /* kernels whose sampling stage ended on this SM */
    /* NOTE(vws-progress) */
    uint64_t *issued;          /* [max_warps] instructions the warp issued since its launch */
    uint64_t life_sum, life_n; /* instructions of the kernel's finished warps, and how many finished */
    uint64_t since_exit;       /* instructions the SM issued since the last warp exit */
    uint64_t open_after;       /* since_exit above this opens the guard (UINT64_MAX: never); set at exits */
    bool open;                 /* the guard made every warp eligible until the next exit */
    uint64_t progress_guard;   /* guard openings (statistic) */
    uint64_t since_l1;         /* instructions the SM issued since its last L1D access or warp exit
                                  (NOTE(vws-spin)) */
    uint64_t spin_left;        /* > 0: the spin guard keeps E open for this many more instructions */
    uint64_t spin_guard;       /* spin-guard openings (statistic) */
};

/* Shared entries of the three policies (sched_iwl.c). */
void iwl_sm_init(struct wsched *s);
void iwl_sm_fini(struct wsched *s);
void iwl_kernel_start(struct wsched *s, const struct wsched_kernel_info *ki);
void iwl_stats_register(struct wsched *s, struct stats *reg, int sm_id);
void iwl_unit_init(struct wsched *s, struct wsched_unit *u);
void iwl_unit_fini(struct wsched *s, struct wsched_unit *u);
uint32_t iwl_order(struct wsched *s, struct wsched_unit *u);
void iwl_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags);
void iwl_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w);
void iwl_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w);
void iwl_on_event(struct wsched *s, struct wsched_unit *u, uint32_t w, enum wsched_event ev);
void iwl_on_l1(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t ev, uint64_t line_addr);
/* Add `cycles` samples of value v to a histogram (time-weighted). */
void iwl_hist_add_n(struct stat_hist *h, uint64_t v, uint64_t cycles);
/* The function table of iwl, iwl_intracl and vws: they differ only in
 * name (iwl_sm_init reads the order and InterCL from sched.policy). */
#define IWL_POLICY_ENTRIES                                                                         \
    .init = iwl_unit_init, .fini = iwl_unit_fini, .order = iwl_order, .on_issue = iwl_on_issue,     \
    .on_launch = iwl_on_launch, .on_exit = iwl_on_exit, .on_event = iwl_on_event, .on_l1 = iwl_on_l1, \
    .stable_order = false, .sm_init = iwl_sm_init, .sm_fini = iwl_sm_fini,                         \
    .kernel_start = iwl_kernel_start, .stats_register = iwl_stats_register, .poll_when_held = true

/* vws: the InterCL level-1 update (sched_vws.c). */
void vws_level1_update(struct wsched *s, struct iwl_sm *p);

#endif /* GPUSIM_SIM_SM_SCHED_SCHED_IWL_H */
