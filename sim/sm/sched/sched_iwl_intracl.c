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
    .init = iwl_unit_init,
    .fini = iwl_unit_fini,
    .order = iwl_order,
    .on_issue = iwl_on_issue,
    .on_launch = iwl_on_launch,
    .on_exit = iwl_on_exit,
    .on_event = iwl_on_event,
    .on_l1 = iwl_on_l1,
    .stable_order = false,
    .sm_init = iwl_sm_init,
    .sm_fini = iwl_sm_fini,
    .kernel_start = iwl_kernel_start,
    .stats_register = iwl_stats_register,
    .poll_when_held = true,
};
