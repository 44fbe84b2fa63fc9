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

/* NOTE(gto-order-cache): the order is a function of the greedy warp and
 * the age list only, so it is rebuilt only when one of them changed since
 * the last call (launch and exit reset the cache; resident[] changes only
 * there too) instead of copying the age list on every evaluated cycle. */
struct gto_state {
    uint32_t last; /* u->last the cached order was built for */
    uint32_t n;    /* its length */
    bool valid;    /* u->order holds the order for `last` and the current age list */
};

static void gto_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    u->pstate = xcalloc(1, sizeof(struct gto_state));
}

static void gto_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    free(u->pstate);
    u->pstate = NULL;
}

static uint32_t gto_order(struct wsched *s, struct wsched_unit *u)
{
    struct gto_state *gs = u->pstate;
    if (gs->valid && gs->last == u->last)
        return gs->n;
    uint32_t n = wsched_gto_fill(s, u);
    gs->last = u->last;
    gs->n = n;
    gs->valid = true;
    return n;
}

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
    (void)w;
    ((struct gto_state *)u->pstate)->valid = false;
}

static void gto_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    /* NOTE(gto-exit): a new warp launched into the same slot is not greedy. */
    if (u->last == w)
        u->last = WSCHED_NONE;
    ((struct gto_state *)u->pstate)->valid = false;
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
