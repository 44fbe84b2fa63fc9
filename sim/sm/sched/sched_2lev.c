/* sim/sm/sched/sched_2lev.c: two-level warp scheduling (spec baseline-gpu.md 2.3
 * `two_level`, the 004 baseline; warp-sched-vws.md 3.4).
 *
 * State per scheduler: an active pool of P = sched.two_level.n_active /
 * sched.n_sched positions (each holds a warp or is empty) and, per warp, an
 * "in pool" and a "waiting for a long-latency result" flag. Resident warps
 * not in the pool form the pending pool.
 *
 * Each cycle, before issue (order hook):
 *  1. Demote: a pool warp whose check() says BARRIER or MEM_ORDER leaves the
 *     pool (its position becomes empty).
 *  2. Refill: every empty position, in position order, takes the oldest
 *     ((CTA seq, warp id)) pending warp that is ready: not waiting for a
 *     long-latency result and not at a barrier or a memory-ordering wait.
 *  3. Order: the pool positions round-robin, starting after the position of
 *     the last issue.
 * On issue of a long-latency operation (WSCHED_ISSUE_LONG: a global or local
 * load, [proposal] spec 2.3) the warp leaves the pool and waits until the SM
 * reports WSCHED_EV_LONG_DONE (its last outstanding long write released).
 * New warps enter the pending pool as ready.
 *
 * NOTE(2lev-per-sm): sched.two_level.n_active counts warps per SM, as 004
 * states ("8 active per SM"); each scheduler gets n_active / n_sched (gtx480:
 * 8 / 2 = 4). GPGPU-Sim's two_level_active:N is per scheduler; set n_active =
 * N x n_sched to reproduce it.
 * NOTE(2lev-barrier): demoting barrier and membar waiters is not in the
 * spec's rule but is required: otherwise a full pool of warps waiting at a
 * barrier for pending warps of their own CTA would never be refilled
 * (deadlock). GPGPU-Sim's two-level scheduler demotes such "waiting" warps too.
 */
#include "sim/sm/sched/sched.h"

#include <stdlib.h>

struct lev2 {
    uint32_t cap;        /* pool positions (warps) */
    uint32_t *pool;      /* [cap] warp at each position, WSCHED_NONE = empty */
    uint32_t rr;         /* position of the last issue (round-robin pointer) */
    uint32_t *pos_of;    /* [max_warps] pool position of a warp, WSCHED_NONE = pending */
    bool *waiting_long;  /* [max_warps] issued a long op whose result is outstanding */
};

static void lev2_init(struct wsched *s, struct wsched_unit *u)
{
    struct lev2 *p = xcalloc(1, sizeof *p);
    p->cap = s->n_active_per_sched;
    p->pool = xcalloc(p->cap, sizeof *p->pool);
    for (uint32_t i = 0; i < p->cap; i++)
        p->pool[i] = WSCHED_NONE;
    p->rr = p->cap - 1; /* first order starts at position 0 */
    p->pos_of = xcalloc(s->max_warps, sizeof *p->pos_of);
    for (uint32_t w = 0; w < s->max_warps; w++)
        p->pos_of[w] = WSCHED_NONE;
    p->waiting_long = xcalloc(s->max_warps, sizeof *p->waiting_long);
    u->pstate = p;
}

static void lev2_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    struct lev2 *p = u->pstate;
    if (!p)
        return;
    free(p->pool);
    free(p->pos_of);
    free(p->waiting_long);
    free(p);
    u->pstate = NULL;
}

static void leave_pool(struct wsched_unit *u, struct lev2 *p, uint32_t w)
{
    uint32_t pos = p->pos_of[w];
    if (pos == WSCHED_NONE)
        return;
    p->pool[pos] = WSCHED_NONE;
    p->pos_of[w] = WSCHED_NONE;
    u->st.demotions++;
}

static bool waits_event(enum wsched_why r) { return r == WSCHED_BARRIER || r == WSCHED_MEM_ORDER; }

static uint32_t lev2_order(struct wsched *s, struct wsched_unit *u)
{
    struct lev2 *p = u->pstate;
    /* 1. demote barrier / memory-ordering waiters */
    for (uint32_t i = 0; i < p->cap; i++) {
        uint32_t w = p->pool[i];
        if (w != WSCHED_NONE && waits_event(wsched_probe(s, w)))
            leave_pool(u, p, w);
    }
    /* 2. refill empty positions oldest-first from ready pending warps. The
     * age list is scanned once: a candidate rejected for one position would
     * be rejected for the next as well. */
    uint32_t a = 0;
    for (uint32_t i = 0; i < p->cap; i++) {
        if (p->pool[i] != WSCHED_NONE)
            continue;
        while (a < u->n_age) {
            uint32_t w = u->age[a++];
            if (p->pos_of[w] != WSCHED_NONE || p->waiting_long[w] || waits_event(wsched_probe(s, w)))
                continue;
            p->pool[i] = w;
            p->pos_of[w] = i;
            u->st.promotions++;
            break;
        }
        if (a >= u->n_age)
            break;
    }
    /* 3. round-robin over the pool */
    uint32_t n = 0;
    for (uint32_t i = 1; i <= p->cap; i++) {
        uint32_t pos = (p->rr + i) % p->cap;
        if (p->pool[pos] != WSCHED_NONE)
            u->order[n++] = p->pool[pos];
    }
    return n;
}

static void lev2_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)s;
    struct lev2 *p = u->pstate;
    SIM_ASSERT(p->pos_of[w] != WSCHED_NONE, "two_level %u: issued warp %u not in the active pool", u->id, w);
    p->rr = p->pos_of[w];
    if (flags & WSCHED_ISSUE_LONG) {
        p->waiting_long[w] = true;
        leave_pool(u, p, w);
    }
}

static void lev2_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    struct lev2 *p = u->pstate;
    p->pos_of[w] = WSCHED_NONE;
    p->waiting_long[w] = false;
}

static void lev2_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    struct lev2 *p = u->pstate;
    uint32_t pos = p->pos_of[w];
    if (pos != WSCHED_NONE) { /* an exit frees the position; not a demotion */
        p->pool[pos] = WSCHED_NONE;
        p->pos_of[w] = WSCHED_NONE;
    }
    p->waiting_long[w] = false;
}

static void lev2_on_event(struct wsched *s, struct wsched_unit *u, uint32_t w, enum wsched_event ev)
{
    (void)s;
    struct lev2 *p = u->pstate;
    if (ev == WSCHED_EV_LONG_DONE)
        p->waiting_long[w] = false;
}

const struct wsched_policy wsched_policy_2lev = {
    .name = "two_level",
    .init = lev2_init,
    .fini = lev2_fini,
    .order = lev2_order,
    .on_issue = lev2_on_issue,
    .on_launch = lev2_on_launch,
    .on_exit = lev2_on_exit,
    .on_event = lev2_on_event,
    .stable_order = false,
};
