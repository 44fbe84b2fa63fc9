/* sim/sm/sched/sched_iwl_intracl.c: IWL + IntraCL, intra-CTA locality aware
 * warp selection (warp-sched-vws.md 3.7; 000 ch. 4.3).
 *
 * The same estimator, throttling and barrier rule as `iwl` (sched_iwl.c,
 * sched_iwl.h); only the order that E is drawn from differs: CTA-major
 * (CTA age, then warp index within the CTA), so the N_act eligible warps
 * are contiguous warp slots of as few CTAs as possible, oldest CTA first.
 * The entries are shared; iwl_sm_init picks the order from sched.policy.
 */
#include "sim/sm/sched/sched_iwl.h"

const struct wsched_policy wsched_policy_iwl_intracl = {
    .name = "iwl_intracl",
    IWL_POLICY_ENTRIES,
};
