/* sim/sm/sched/sched_rmws.c: RM-aware warp scheduling (RMWS; seed 000 ch. 3,
 * spec rf-racetrack-mao.md 3.4-3.5, 3.8; docs/racetrack.md).
 *
 * Order: the ready warps by the register file's score of their next
 * instruction (the worst shift distance of its register-file operands from
 * where each bank's track will be when the request reaches the head of the
 * bank's FIFO; port->score, computed by the racetrack policy), lowest
 * first, ties in GTO order (the last issued warp, then oldest first); then
 * the warps that are not ready, in GTO order, so that the framework's stall
 * classification is the one GTO gets. The framework issues the first
 * eligible warp of the order: exactly argmin(score) over the ready warps,
 * GTO breaking ties (spec 3.5; the tie-break is the spec's proposal).
 *
 * With several schedulers each one scores from the bank state left by the
 * lower-numbered ones in the same cycle: their reads enter the bank queues
 * only when a collector unit is allocated (oc.alloc_delay = 1 later), so
 * within the issue stage every scheduler sees the same snapshot, and the
 * "schedule hazard" of 3.8 appears as in the document.
 *
 * Not modelled: the bit-level thermometer form of the score (it gives the
 * same integer, spec 3.4). With an SRAM register file every score is 0 and
 * RMWS is GTO.
 */
#include "sim/sm/sched/sched.h"

#include <stdlib.h>

struct rmws_state {
    uint32_t *key; /* [n_slots] score of the candidate at the same position (scratch) */
};

static void rmws_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    struct rmws_state *rs = xcalloc(1, sizeof *rs);
    rs->key = xcalloc(u->n_slots ? u->n_slots : 1, sizeof *rs->key);
    u->pstate = rs;
}

static void rmws_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    struct rmws_state *rs = u->pstate;
    free(rs->key);
    free(rs);
    u->pstate = NULL;
}

static uint32_t rmws_order(struct wsched *s, struct wsched_unit *u)
{
    struct rmws_state *rs = u->pstate;
    uint32_t n = wsched_gto_fill(s, u);
    const struct wsched_port *port = s->port;
    /* keys: the score of ready warps, UINT32_MAX for the others; a stable
     * insertion sort keeps GTO order among equal keys */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = u->order[i];
        uint32_t key = UINT32_MAX;
        if (wsched_probe(s, w) == WSCHED_READY)
            key = port && port->score ? port->score(port->ctx, w) : 0;
        uint32_t j = i;
        while (j > 0 && rs->key[j - 1] > key) {
            rs->key[j] = rs->key[j - 1];
            u->order[j] = u->order[j - 1];
            j--;
        }
        rs->key[j] = key;
        u->order[j] = w;
    }
    return n;
}

static void rmws_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)s;
    (void)u;
    (void)w;
    (void)flags;
}

static void rmws_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    (void)u;
    (void)w;
}

static void rmws_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)s;
    if (u->last == w) /* a new warp in the same slot is not greedy (as GTO) */
        u->last = WSCHED_NONE;
}

const struct wsched_policy wsched_policy_rmws = {
    .name = "rmws",
    .init = rmws_init,
    .fini = rmws_fini,
    .order = rmws_order,
    .on_issue = rmws_on_issue,
    .on_launch = rmws_on_launch,
    .on_exit = rmws_on_exit,
    .on_event = NULL,
    .stable_order = false, /* the scores change with the bank queues */
};
