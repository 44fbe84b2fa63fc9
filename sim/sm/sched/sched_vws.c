/* sim/sm/sched/sched_vws.c: VWS, the versatile warp scheduler: IWL + IntraCL
 * + InterCL (warp-sched-vws.md 3.8, 3.9; 000 ch. 4.4).
 *
 * E comes from IWL with IntraCL's CTA-major order (sched_iwl.c). InterCL
 * adds a two-level scheduler over E, SM-wide: a level-1 list of at most
 * L1_CAP_eff = min(sched.vws.l1_cap, |E|) warps; only level-1 warps are
 * offered, in GTO order per scheduler. Each cycle, before issue:
 *  1. demote every level-1 warp that left E, is stalled on a long-latency
 *     result (it issued a global/local load whose value has not returned,
 *     and its next instruction waits in the scoreboard: spec 3.10), or waits
 *     at a barrier (NOTE(vws-l1-barrier): otherwise a level 1 full of
 *     barrier waiters would never admit the siblings that release them:
 *     measured as a watchdog stop on reduction, small, alpha 0.05);
 *  2. promote, while level 1 has room, the best warp of E \ level 1 that is
 *     not stalled (long-latency as above, or waiting at a barrier), by
 *     class, then oldest within the class:
 *       P1: its CTA already has a warp in level 1, or a warp of its CTA was
 *           demoted in this update;
 *       P2: its CTA's linear id is (smallest id in level 1) - 1 (precursor);
 *       P3: its CTA's linear id is (largest id in level 1) + 1 (successor);
 *       P4: any other warp of E (NOTE(vws-q8): not in the document; the
 *           oldest warp, i.e. the oldest CTA's, is taken).
 * So level 1 holds warps of a run of consecutive CTAs, and with serial CTA
 * dispatch (cta.policy = serial) consecutive CTAs share the SM.
 * NOTE(vws-q7): level-1 capacity is min(L1_CAP, |E|) and promotion draws
 * from E only. NOTE(vws-l1-per-sm): L1_CAP counts warps of the SM (the
 * document's single scheduler); with several schedulers each offers its
 * own level-1 warps.
 * With sched.throttle_mode = block_loads the warps outside E are offered
 * after level 1 with their loads gated.
 */
#include "sim/sm/sched/sched_iwl.h"

static bool long_stalled(struct wsched *s, const struct iwl_sm *p, uint32_t w)
{
    return p->waiting_long[w] && wsched_probe(s, w) == WSCHED_SCOREBOARD;
}

void vws_level1_update(struct wsched *s, struct iwl_sm *p)
{
    p->n_demoted = 0;
    /* 1. demote */
    for (uint32_t i = 0; i < p->n_ord; i++) {
        uint32_t w = p->ord[i];
        if (!p->in_l1[w] || (p->in_e[w] && !long_stalled(s, p, w) && wsched_probe(s, w) != WSCHED_BARRIER))
            continue;
        p->in_l1[w] = false;
        p->n_l1--;
        p->demotions++;
        p->demoted[p->n_demoted++] = s->cta_id[w];
    }
    /* 2. promote */
    uint32_t cap = (uint32_t)s->cfg.vws_l1_cap;
    if (cap > p->n_e)
        cap = p->n_e;
    while (p->n_l1 < cap) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = 0; i < p->n_ord; i++) {
            uint32_t w = p->ord[i];
            if (p->in_l1[w]) {
                lo = MIN(lo, s->cta_id[w]);
                hi = MAX(hi, s->cta_id[w]);
            }
        }
        uint32_t best = WSCHED_NONE, best_cls = 4;
        /* ord is CTA-major (CTA age, warp id) = oldest first: the first
         * candidate of a class is its oldest. */
        for (uint32_t i = 0; i < p->n_ord && best_cls > 0; i++) {
            uint32_t w = p->ord[i];
            if (p->in_l1[w] || !p->in_e[w] || long_stalled(s, p, w) || wsched_probe(s, w) == WSCHED_BARRIER)
                continue;
            uint32_t c = s->cta_id[w], cls = 3;
            bool p1 = false;
            for (uint32_t j = 0; j < p->n_ord && !p1; j++)
                p1 = p->in_l1[p->ord[j]] && s->cta_id[p->ord[j]] == c;
            for (uint32_t j = 0; j < p->n_demoted && !p1; j++)
                p1 = p->demoted[j] == c;
            if (p1)
                cls = 0;
            else if (lo != UINT32_MAX && lo > 0 && c == lo - 1)
                cls = 1;
            else if (lo != UINT32_MAX && c == hi + 1)
                cls = 2;
            if (cls < best_cls) {
                best_cls = cls;
                best = w;
            }
        }
        if (best == WSCHED_NONE)
            break;
        p->in_l1[best] = true;
        p->n_l1++;
        p->promotions++;
        p->promo_class[best_cls]++;
    }
}

const struct wsched_policy wsched_policy_vws = {
    .name = "vws",
    IWL_POLICY_ENTRIES,
};
