/* sim/sm/sched/sched_gto.c: greedy-then-oldest warp scheduling (spec
 * baseline-gpu.md 2.3 `gto`, the [GPGPU-Sim] GTX480 baseline;
 * warp-sched-vws.md 3.3).
 *
 * Order: the last issued warp first (greedy), then every resident warp
 * oldest first, where age is the launch order of the warp's CTA and then the
 * warp id (the framework's age list, kept sorted at launch/exit, so no
 * sorting happens per cycle). The framework issues the first eligible one:
 * the greedy warp while it stays eligible, else the oldest eligible warp,
 * which then becomes the greedy warp.
 */
#include "sim/sm/sched/sched.h"

#include <stdlib.h>

/* The order (greedy warp, then the age list without it) is what the
 * framework walks directly when greedy_age is set (NOTE(greedy-walk) in
 * sched.c); order() states it for any caller of the generic interface.
 * The cached copy of the order it used to keep (NOTE(gto-order-cache)) is
 * gone: the walk made it unnecessary. */
static void gto_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    u->pstate = NULL;
}

static void gto_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    (void)u;
}

static uint32_t gto_order(struct wsched *s, struct wsched_unit *u) { return wsched_gto_fill(s, u); }

static void gto_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)s;
    (void)u;
    (void)w;
    (void)flags;
}

static void gto_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    (void)u;
    (void)w;
}

static void gto_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    /* NOTE(gto-exit): a new warp launched into the same slot is not greedy. */
    if (u->last == w)
        u->last = WSCHED_NONE;
}

const struct wsched_policy wsched_policy_gto = {
    .name = "gto",
    .init = gto_init,
    .fini = gto_fini,
    .order = gto_order,
    .on_issue = gto_on_issue,
    .on_launch = gto_on_launch,
    .on_exit = gto_on_exit,
    .on_event = NULL,
    .stable_order = true,
    .greedy_age = true, /* NOTE(greedy-walk) in sched.c */
};
