/* sim/sm/sched/sched_lrr.c: loose round-robin warp scheduling (spec baseline-gpu.md
 * 2.3 `lrr`; warp-sched-vws.md 3.2).
 *
 * Order: the scheduler's warp slots in ascending slot order, starting at the
 * slot after the last issued warp and wrapping around; non-resident slots are
 * skipped. The framework issues the first eligible one, so the issue rotates
 * over the warps that are ready ("loose": not-ready warps are passed over).
 * No state beyond the framework's `last` (a slot position, still meaningful
 * after that warp exits).
 */
#include "sim/sm/sched/sched.h"

static void lrr_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    u->pstate = NULL;
}

static void lrr_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    (void)u;
}

static uint32_t lrr_order(struct wsched *s, struct wsched_unit *u)
{
    /* Slot position of warp w is w / n_sched (slots are k, k + n, k + 2n ...). */
    uint32_t start = u->last == WSCHED_NONE ? 0 : u->last / s->n_sched + 1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < u->n_slots; i++) {
        uint32_t pos = start + i;
        if (pos >= u->n_slots)
            pos -= u->n_slots;
        uint32_t w = u->slots[pos];
        if (s->resident[w])
            u->order[n++] = w;
    }
    return n;
}

static void lrr_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)s;
    (void)u;
    (void)w;
    (void)flags;
}

static void lrr_on_warp(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    (void)u;
    (void)w;
}

const struct wsched_policy wsched_policy_lrr = {
    .name = "lrr",
    .init = lrr_init,
    .fini = lrr_fini,
    .order = lrr_order,
    .on_issue = lrr_on_issue,
    .on_launch = lrr_on_warp,
    .on_exit = lrr_on_warp,
    .on_event = NULL,
    .stable_order = true,
};
