/* sim/dispatch/dispatch_rr.c: the baseline round-robin CTA placement policy `rr`
 * (spec baseline-gpu.md 2.1; 001 ch. 1; [GPGPU-Sim] issue_block2core).
 *
 * Rule: SMs are visited in round-robin order starting after the SM that
 * received the last CTA; each visit gives an SM with a free slot one CTA,
 * the lowest-numbered CTA not yet issued. At kernel start this fills the
 * SMs one CTA per SM per turn until every SM is at its limit (CTA i goes to
 * SM i mod n_sm while the first turns last); afterwards each freed slot gets
 * the next CTA in id order.
 *
 * NOTE(rr-tie-order): when several SMs freed slots before one serial step,
 * the spec does not say which of them gets the lowest CTA. We continue the
 * round-robin from the SM after the last one served, as GPGPU-Sim's
 * m_last_cluster_issue does; this depends only on the set of freed slots,
 * not on the order in which SMs reported them.
 * NOTE(rr-reset): the round-robin pointer restarts at SM 0 for each kernel
 * (spec: "at kernel start, fill SMs in round-robin order"), so the first
 * CTA of every kernel goes to SM 0. GPGPU-Sim keeps the pointer across
 * kernels; the difference is a rotation of SM ids.
 *
 * State: one next-CTA pointer (the single-stream form of spec 1.1's per-SM
 * next-CTA pointers) and the last SM served. O(n_sm) per pick.
 */
#include "sim/dispatch/dispatch.h"

#include <stdlib.h>

struct rr_state {
    uint32_t next_cta; /* lowest CTA id not yet issued (CTA id) */
    uint32_t last_sm;  /* SM that received the last CTA (SM id); n_sm - 1 at kernel start */
};

static void rr_init(struct dispatcher *d)
{
    struct rr_state *r = xcalloc(1, sizeof *r);
    r->last_sm = d->n_sm - 1;
    d->pstate = r;
}

static void rr_fini(struct dispatcher *d)
{
    free(d->pstate);
    d->pstate = NULL;
}

static void rr_kernel_start(struct dispatcher *d)
{
    struct rr_state *r = d->pstate;
    r->next_cta = 0;
    r->last_sm = d->n_sm - 1;
}

static bool rr_pick(struct dispatcher *d, uint32_t *sm, uint32_t *cta)
{
    struct rr_state *r = d->pstate;
    const struct dispatch_kernel *k = dispatch_running(d);
    if (!k || r->next_cta >= k->n_ctas)
        return false;
    for (uint32_t i = 1; i <= d->n_sm; i++) {
        uint32_t s = (r->last_sm + i) % d->n_sm;
        if (dispatch_sm_room(d, s) > 0) {
            *sm = s;
            *cta = r->next_cta++;
            r->last_sm = s;
            return true;
        }
    }
    return false;
}

const struct dispatch_policy dispatch_policy_rr = {
    .name = "rr",
    .init = rr_init,
    .fini = rr_fini,
    .kernel_start = rr_kernel_start,
    .pick = rr_pick,
    .cta_done = NULL,
};
