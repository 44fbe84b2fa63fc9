/* sim/sm/sched/sched_ccws.c: cache-conscious wavefront scheduling, CCWS
 * (Rogers, O'Connor, Aamodt, MICRO 2012; warp-sched-vws.md 3.5, the
 * comparison point of 000 ch. 4). NOTE(vws-q11): 000 describes CCWS only
 * qualitatively; the mechanism and the parameters below follow the CCWS
 * paper and are documented in docs/vws.md.
 *
 * What is modelled, per SM (shared by its schedulers):
 *  - per warp slot a victim tag array (VTA, sched.ccws.vta_entries tags,
 *    sched.ccws.vta_assoc ways per set, FIFO; sim/mem/victags.h). When an
 *    L1D line is evicted its tag goes to the VTA of the warp that inserted
 *    it (the L1D keeps the inserter per line once on_l1 is installed);
 *  - per warp a lost-locality score LLS (points). When warp w misses in the
 *    L1D (an allocating miss or an MSHR merge: the line was not there) and
 *    the tag is in VTA[w], w lost intra-warp locality:
 *        LLS[w] += LLDS,  LLDS = (VTA hits / instructions issued) x K x cutoff
 *    with both counts since the kernel started on this SM, K =
 *    sched.ccws.k_throttle, cutoff = live warps x BASE (sched.ccws.base_score);
 *  - decay: every pipeline cycle each score drops by sched.ccws.decay but
 *    never below BASE. Scores are kept lazily (value and cycle of the last
 *    change), so skipped cycles decay exactly as ticked ones;
 *  - gating, recomputed in every scheduler cycle: the live warps sorted by
 *    score, highest first (ties: older first), with their scores stacked;
 *    a warp whose stacked score exceeds the cutoff may not issue an L1D load
 *    (wsched.no_load; charged as stall_policy), other instructions issue.
 *    NOTE(ccws-top): the warp with the highest score is never gated, so at
 *    least one warp may always load (the paper's figure stacks the largest
 *    score first and it always fits);
 *  - issue order: GTO over every live warp.
 * New warps start at BASE with an empty VTA.
 *
 * What is not modelled: the latency of the score sort (zero, as the paper
 * assumes; spec 4), VTA energy.
 * Operation mix: an O(ways) VTA probe per miss and an O(1) insert per
 * eviction; per scheduler cycle with a score above BASE, an
 * O(warps^2) insertion sort of <= 48 warps.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/mem/victags.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/sched/sched.h"

struct ccws_sm {
    struct victags *vta;   /* [max_warps] victim tags per warp slot */
    double *lls;           /* [max_warps] score at lls_t (points) */
    uint64_t *lls_t;       /* [max_warps] pipeline cycle of lls */
    uint32_t *srt;         /* [max_warps] scratch: live warps by score */
    uint32_t n_live;       /* live warps (warps) */
    uint64_t vta_hits;     /* VTA hits since kernel start on this SM */
    uint64_t insts;        /* instructions issued since kernel start on this SM */
    cycle_t upd_cycle;     /* cycle of the last gate update (CYCLE_NEVER = none) */
    bool any_high;         /* some score may be above BASE */
    cycle_t hist_cycle;    /* start of the current active-warp sample */
    uint32_t hist_val;     /* warps allowed to load since hist_cycle */
    struct stat_hist active; /* cycles by number of warps allowed to load (warps) */
    uint64_t st_vta_hits;  /* VTA hits, whole run */
    uint64_t st_vta_probes; /* VTA probes (L1D misses of live warps), whole run */
    uint64_t st_evict_tags; /* evicted tags recorded in a VTA */
    uint64_t st_gated_updates; /* gate updates that gated at least one warp */
};

static double score_at(const struct wsched *s, const struct ccws_sm *p, uint32_t w, cycle_t now)
{
    double base = (double)s->cfg.ccws_base;
    double dec = (double)(now > p->lls_t[w] ? now - p->lls_t[w] : 0) * (double)s->cfg.ccws_decay;
    double v = p->lls[w] - dec;
    return v > base ? v : base;
}

static void ccws_sm_init(struct wsched *s)
{
    struct ccws_sm *p = xcalloc(1, sizeof *p);
    p->vta = xcalloc(s->max_warps, sizeof *p->vta);
    for (uint32_t w = 0; w < s->max_warps; w++)
        vt_init(&p->vta[w], (uint32_t)s->cfg.ccws_vta_entries, (uint32_t)s->cfg.ccws_vta_assoc, 128);
    p->lls = xcalloc(s->max_warps, sizeof *p->lls);
    p->lls_t = xcalloc(s->max_warps, sizeof *p->lls_t);
    p->srt = xcalloc(s->max_warps, sizeof *p->srt);
    for (uint32_t w = 0; w < s->max_warps; w++)
        p->lls[w] = (double)s->cfg.ccws_base;
    p->upd_cycle = CYCLE_NEVER;
    p->hist_cycle = CYCLE_NEVER;
    stat_hist_init(&p->active, s->max_warps + 1, 1);
    s->spstate = p;
}

static void ccws_sm_fini(struct wsched *s)
{
    struct ccws_sm *p = s->spstate;
    if (!p)
        return;
    for (uint32_t w = 0; w < s->max_warps; w++)
        vt_fini(&p->vta[w]);
    free(p->vta);
    free(p->lls);
    free(p->lls_t);
    free(p->srt);
    stat_hist_fini(&p->active);
    free(p);
    s->spstate = NULL;
}

static void ccws_kernel_start(struct wsched *s, const struct wsched_kernel_info *ki)
{
    (void)ki;
    struct ccws_sm *p = s->spstate;
    p->vta_hits = 0;
    p->insts = 0;
    p->upd_cycle = CYCLE_NEVER;
    p->hist_cycle = CYCLE_NEVER;
}

static void ccws_stats_register(struct wsched *s, struct stats *reg, int sm_id)
{
    struct ccws_sm *p = s->spstate;
    const char *g = "sm.ccws";
    stats_counter(reg, g, sm_id, "vta_hits", &p->st_vta_hits, "L1D misses found in the warp's victim tags");
    stats_counter(reg, g, sm_id, "vta_probes", &p->st_vta_probes, "victim-tag probes (L1D misses of live warps)");
    stats_counter(reg, g, sm_id, "vta_inserts", &p->st_evict_tags, "evicted lines recorded in a victim-tag array");
    stats_counter(reg, g, sm_id, "gated_updates", &p->st_gated_updates,
                  "scheduler cycles in which at least one warp's loads were gated");
    stats_hist(reg, g, sm_id, "active_warps", &p->active, "pipeline cycles by number of warps allowed to load");
}

static void unit_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    u->pstate = NULL;
}

static void unit_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    (void)u;
}

/* Recompute the load gate at s->now (once per cycle). */
static void gate_update(struct wsched *s, struct ccws_sm *p)
{
    if (p->upd_cycle == s->now)
        return;
    p->upd_cycle = s->now;
    uint32_t allowed = p->n_live;
    if (p->any_high) {
        double base = (double)s->cfg.ccws_base;
        double cutoff = (double)p->n_live * base;
        uint32_t n = 0;
        bool high = false;
        for (uint32_t w = 0; w < s->max_warps; w++) {
            if (!s->resident[w])
                continue;
            double v = score_at(s, p, w, s->now);
            high |= v > base;
            /* insertion by (score desc, age asc) */
            uint32_t i = n++;
            while (i > 0) {
                uint32_t o = p->srt[i - 1];
                double vo = score_at(s, p, o, s->now);
                if (vo > v || (vo == v && wsched_older(s, o, w)))
                    break;
                p->srt[i] = o;
                i--;
            }
            p->srt[i] = w;
        }
        p->any_high = high;
        double sum = 0.0;
        allowed = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t w = p->srt[i];
            sum += score_at(s, p, w, s->now);
            bool gate = i > 0 && sum > cutoff; /* NOTE(ccws-top) */
            s->no_load[w] = gate;
            allowed += !gate;
        }
        if (allowed < n)
            p->st_gated_updates++;
    } else {
        for (uint32_t w = 0; w < s->max_warps; w++)
            s->no_load[w] = false;
    }
    if (p->hist_cycle != CYCLE_NEVER && s->now > p->hist_cycle) {
        struct stat_hist *h = &p->active;
        uint64_t c = s->now - p->hist_cycle, v = p->hist_val;
        if (v < h->n_bins)
            h->bins[v] += c;
        else
            h->overflow += c;
        h->count += c;
        h->sum += v * c;
        if (v > h->max)
            h->max = v;
    }
    p->hist_cycle = s->now;
    p->hist_val = allowed;
}

/* Scores above BASE decay every cycle, and the gate (and gated_updates,
 * active_warps) with them: tick every cycle until all are back at BASE. */
static bool ccws_time_varying(const struct wsched *s)
{
    const struct ccws_sm *p = s->spstate;
    return p->any_high;
}

static uint32_t ccws_order(struct wsched *s, struct wsched_unit *u)
{
    gate_update(s, s->spstate);
    return wsched_gto_fill(s, u); /* GTO order; the gate acts through no_load */
}

static void ccws_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)u, (void)w, (void)flags;
    struct ccws_sm *p = s->spstate;
    p->insts++;
}

static void ccws_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)u;
    struct ccws_sm *p = s->spstate;
    vt_clear(&p->vta[w]);
    p->lls[w] = (double)s->cfg.ccws_base;
    p->lls_t[w] = s->now;
    p->n_live++;
    p->upd_cycle = CYCLE_NEVER;
}

static void ccws_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    struct ccws_sm *p = s->spstate;
    SIM_ASSERT(p->n_live > 0, "ccws: exit of warp %u with no live warp", w);
    p->n_live--;
    s->no_load[w] = false;
    p->upd_cycle = CYCLE_NEVER;
    if (u->last == w) /* NOTE(gto-exit) */
        u->last = WSCHED_NONE;
}

static void ccws_on_l1(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t ev, uint64_t line_addr)
{
    (void)u;
    struct ccws_sm *p = s->spstate;
    if (!s->resident[w]) /* an eviction of a line whose inserter has exited */
        return;
    if (ev == L1D_EV_EVICT) {
        vt_insert(&p->vta[w], line_addr);
        p->st_evict_tags++;
        return;
    }
    if (ev != L1D_EV_MISS && ev != L1D_EV_MERGE)
        return;
    p->st_vta_probes++;
    if (!vt_probe(&p->vta[w], line_addr))
        return;
    p->vta_hits++;
    p->st_vta_hits++;
    double cutoff = (double)p->n_live * (double)s->cfg.ccws_base;
    double llds = (double)p->vta_hits / (double)(p->insts ? p->insts : 1) * s->cfg.ccws_k_throttle * cutoff;
    p->lls[w] = score_at(s, p, w, s->now) + llds;
    p->lls_t[w] = s->now;
    p->any_high = true;
    p->upd_cycle = CYCLE_NEVER;
}

double wsched_ccws_score(const struct wsched *s, uint32_t w)
{
    SIM_ASSERT(s->pol == &wsched_policy_ccws && w < s->max_warps, "wsched_ccws_score: not ccws or warp %u", w);
    return score_at(s, s->spstate, w, s->now);
}

const struct wsched_policy wsched_policy_ccws = {
    .name = "ccws",
    .init = unit_init,
    .fini = unit_fini,
    .order = ccws_order,
    .on_issue = ccws_on_issue,
    .on_launch = ccws_on_launch,
    .on_exit = ccws_on_exit,
    .on_event = NULL,
    .on_l1 = ccws_on_l1,
    .stable_order = false,
    .sm_init = ccws_sm_init,
    .sm_fini = ccws_sm_fini,
    .kernel_start = ccws_kernel_start,
    .stats_register = ccws_stats_register,
    .poll_when_held = true,
    .time_varying = ccws_time_varying,
};
