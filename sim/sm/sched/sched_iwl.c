/* sim/sm/sched/sched_iwl.c: IWL, intra-warp locality aware throttling
 * (warp-sched-vws.md 3.6; 000 ch. 4.2), and the SM-wide machinery it
 * shares with iwl_intracl and vws (sched_iwl.h).
 *
 * Policy `iwl`: E = the first N_act live warps in CTA-interleaved order
 * (warp index within its CTA, then CTA age). NOTE(vws-q2): the document
 * does not say which warps IWL alone activates; the interleaved order
 * reproduces its Fig. 22(a), where the active warps come from different
 * CTAs, so IntraCL's CTA-major order makes a measurable difference.
 * Issue order inside E: GTO.
 *
 * NOTE(vws-progress): a progress guard that 000 does not have. With
 * block_all, a warp outside E issues nothing; when it holds a lock the
 * warps of E wait for (spinlock's hash buckets), they spin without end
 * (spinlock small under iwl: 139 of 1024 CTAs done after 14 M cycles, 93 M
 * warp instructions, where lrr finishes in 6.5 M cycles). So when the SM
 * has issued sched.vws.progress_guard (8) times the mean instruction count
 * of the kernel's finished warps since the last warp exit, while some warp
 * is outside E, E takes every warp until the next exit (counted in
 * sm.vws.progress_guard). The test counts issued instructions, not cycles,
 * so idle skipping cannot move it; a kernel whose warps finish at their
 * usual rate never meets it. 0 turns it off (the chapter's IWL).
 *
 * NOTE(vws-spin): a second guard, also not in 000, for waits the first one
 * serves too slowly: kernels whose warps live as long as the kernel
 * (persistent producer/consumer CTAs: prodcons under iwl ran 68x longer than
 * under lrr, the mean lifetime that scales the progress guard being the
 * whole kernel). Warps that wait for a throttled warp spin on volatile
 * loads or atomics, which do not use the L1D's data; a warp that works
 * loads or stores through the L1D. So when the SM has issued
 * sched.vws.spin_guard (1024) instructions without an L1D access (hit,
 * miss, merge or store transaction) and without a warp exit, while some
 * warp is outside E, E takes every warp for the next 1024 instructions
 * (sm.vws.spin_guard counts the openings), then the throttle resumes.
 * Instructions, not cycles, again; 0 turns it off.
 *
 * NOTE(vws-update-once): the schedulers of an SM share E; it is recomputed
 * by the first scheduler evaluated in a cycle (s->now differs from the
 * cycle of the last update). Every input is state of the SM at that cycle
 * (residency, N_act, barrier waits through the pure check, long-latency
 * flags), so the update is idempotent: ticking more cycles
 * (sim.tick_every_cycle) gives the same E.
 */
#include "sim/sm/sched/sched_iwl.h"

#include <stdlib.h>
#include <string.h>

#include "sim/sm/lsu/l1d.h"

void iwl_hist_add_n(struct stat_hist *h, uint64_t v, uint64_t cycles)
{
    if (!cycles)
        return;
    uint64_t i = v / h->bin_width;
    if (i < h->n_bins)
        h->bins[i] += cycles;
    else
        h->overflow += cycles;
    h->count += cycles;
    h->sum += v * cycles;
    if (v > h->max)
        h->max = v;
}

void iwl_sm_init(struct wsched *s)
{
    struct iwl_sm *p = xcalloc(1, sizeof *p);
    struct iwl_est_cfg ec = {s->cfg.vws_alpha, s->cfg.vws_beta, (uint32_t)s->cfg.vws_amt_entries,
                             (uint32_t)s->cfg.vws_counter_bits, s->cfg.vws_formula == WSCHED_IWL_BASIC,
                             (uint32_t)s->cfg.vws_static_nact};
    iwl_est_init(&p->est, &ec, s->max_warps);
    p->cta_major = s->cfg.policy != WSCHED_IWL;
    p->two_level = s->cfg.policy == WSCHED_VWS;
    p->wpc = 1;
    p->ord = xcalloc(s->max_warps, sizeof *p->ord);
    p->in_e = xcalloc(s->max_warps, sizeof *p->in_e);
    p->guard = xcalloc(s->max_warps, sizeof *p->guard);
    p->waiting_long = xcalloc(s->max_warps, sizeof *p->waiting_long);
    p->in_l1 = xcalloc(s->max_warps, sizeof *p->in_l1);
    p->issued = xcalloc(s->max_warps, sizeof *p->issued);
    p->open_after = UINT64_MAX;
    p->upd_cycle = CYCLE_NEVER;
    p->hist_cycle = CYCLE_NEVER;
    stat_hist_init(&p->active, s->max_warps + 1, 1);
    s->spstate = p;
}

void iwl_sm_fini(struct wsched *s)
{
    struct iwl_sm *p = s->spstate;
    if (!p)
        return;
    iwl_est_fini(&p->est);
    stat_hist_fini(&p->active);
    free(p->ord);
    free(p->in_e);
    free(p->guard);
    free(p->waiting_long);
    free(p->in_l1);
    free(p->issued);
    free(p);
    s->spstate = NULL;
}

void iwl_kernel_start(struct wsched *s, const struct wsched_kernel_info *ki)
{
    struct iwl_sm *p = s->spstate;
    SIM_ASSERT(p->n_ord == 0, "iwl: kernel start with %u live warps", p->n_ord);
    p->wpc = ki->warps_per_cta ? ki->warps_per_cta : 1;
    uint32_t resident = ki->ctas_per_sm * ki->warps_per_cta;
    if (resident > s->max_warps)
        resident = s->max_warps;
    iwl_est_kernel_start(&p->est, ki->grid_ctas, ki->warps_per_cta, ki->n_sm, resident ? resident : 1,
                         ki->l1d_lines, ki->line_bytes);
    p->upd_cycle = CYCLE_NEVER;
    p->hist_cycle = CYCLE_NEVER;
    p->n_l1 = 0;
    memset(p->in_l1, 0, s->max_warps * sizeof *p->in_l1);
    memset(p->in_e, 0, s->max_warps * sizeof *p->in_e);
    memset(p->guard, 0, s->max_warps * sizeof *p->guard);
    p->life_sum = p->life_n = p->since_exit = 0;
    p->open_after = UINT64_MAX; /* no warp has finished yet */
    p->open = false;
    p->since_l1 = p->spin_left = 0;
}

void iwl_stats_register(struct wsched *s, struct stats *reg, int sm_id)
{
    struct iwl_sm *p = s->spstate;
    const char *g = "sm.vws";
    stats_avg(reg, g, sm_id, "nact", &p->nact, "N_act at each post-sampling update (warps; Eq. 4.6 or 4.3)");
    stats_max(reg, g, sm_id, "nact_max", &p->est.st.nact_max, "largest N_act set after sampling (warps)");
    stats_counter(reg, g, sm_id, "stage_ends", &p->stage_ends, "kernels whose sampling stage ended on this SM");
    stats_max(reg, g, sm_id, "stage_cycle", &p->est.st.stage_cycle,
              "pipeline cycle the last sampling stage ended (0 = never)");
    stats_counter(reg, g, sm_id, "updates", &p->est.st.updates, "estimate updates (finished warps)");
    stats_counter(reg, g, sm_id, "nact_changes", &p->est.st.nact_changes, "updates that changed N_act");
    stats_counter(reg, g, sm_id, "nact_sum", &p->est.st.nact_sum, "sum of N_act over post-sampling updates (warps)");
    stats_counter(reg, g, sm_id, "amt_clears", &p->est.st.amt_clears, "address-miss-table clears");
    stats_counter(reg, g, sm_id, "amt_hits", &p->est.st.amt_hits, "misses to a block already marked in the AMT");
    stats_avg(reg, g, sm_id, "ws_milli", &p->ws_milli, "WS estimate x 1000 at each update (lines)");
    stats_avg(reg, g, sm_id, "rrdegr_milli", &p->rr_milli, "RRDegr estimate x 1000 at each update");
    stats_counter(reg, g, sm_id, "progress_guard", &p->progress_guard,
                  "times every warp was made eligible because no warp had finished for long (NOTE(vws-progress))");
    stats_counter(reg, g, sm_id, "spin_guard", &p->spin_guard,
                  "times every warp was made eligible because the SM issued long without an L1D access (NOTE(vws-spin))");
    stats_counter(reg, g, sm_id, "barrier_guard", &p->barrier_guard,
                  "warps let into E because barrier waiters do not count against N_act (rising edges)");
    stats_hist(reg, g, sm_id, "active_warps", &p->active,
               "pipeline cycles by active-warp count (E minus barrier waiters; vws: level 1)");
    if (p->two_level) {
        stats_counter(reg, g, sm_id, "promotions", &p->promotions, "warps promoted into InterCL level 1");
        stats_counter(reg, g, sm_id, "demotions", &p->demotions, "warps demoted from InterCL level 1");
        static const char *const cn[4] = {"promo_p1", "promo_p2", "promo_p3", "promo_p4"};
        static const char *const cd[4] = {"promotions of class P1 (same CTA as level 1 or a demoted warp)",
                                          "promotions of class P2 (precursor CTA)",
                                          "promotions of class P3 (successor CTA)",
                                          "promotions of class P4 (fallback: oldest warp of E)"};
        for (int i = 0; i < 4; i++)
            stats_counter(reg, g, sm_id, cn[i], &p->promo_class[i], cd[i]);
    }
}

void iwl_unit_init(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    u->pstate = NULL;
}

void iwl_unit_fini(struct wsched *s, struct wsched_unit *u)
{
    (void)s;
    (void)u;
}

/* E order: true when a comes before b. */
static bool e_before(const struct wsched *s, const struct iwl_sm *p, uint32_t a, uint32_t b)
{
    if (p->cta_major)
        return wsched_older(s, a, b);
    uint32_t ia = a % p->wpc, ib = b % p->wpc;
    if (ia != ib)
        return ia < ib;
    return wsched_older(s, a, b);
}

/* Recompute E (and level 1 for vws) once per cycle (NOTE(vws-update-once)). */
static void e_update(struct wsched *s, struct iwl_sm *p)
{
    if (p->upd_cycle == s->now)
        return;
    p->upd_cycle = s->now;
    uint32_t n_act = p->open || p->spin_left ? p->n_ord : p->est.n_act, count = 0, rank = 0;
    bool loads_only = s->cfg.throttle_mode == WSCHED_BLOCK_LOADS;
    p->n_e = 0;
    for (uint32_t i = 0; i < p->n_ord; i++) {
        uint32_t w = p->ord[i];
        bool in = false, guard = false;
        if (count < n_act) {
            in = true;
            guard = rank >= n_act; /* the plain rule would have stopped before w */
            if (wsched_probe(s, w) == WSCHED_BARRIER)
                in = true; /* NOTE(vws-barrier): a member that does not count */
            else
                count++;
        }
        rank++;
        if (guard && !p->guard[w])
            p->barrier_guard++;
        p->guard[w] = guard;
        p->in_e[w] = in;
        p->n_e += in;
        s->no_load[w] = loads_only && !in;
    }
    if (p->two_level)
        vws_level1_update(s, p);
    uint32_t active = p->two_level ? p->n_l1 : count;
    if (p->hist_cycle != CYCLE_NEVER && s->now > p->hist_cycle)
        iwl_hist_add_n(&p->active, p->hist_val, s->now - p->hist_cycle);
    p->hist_cycle = s->now;
    p->hist_val = active;
}

/* GTO over the warps of u that pass `member`; then, with block_loads, the
 * others (their loads gated through no_load). */
uint32_t iwl_order(struct wsched *s, struct wsched_unit *u)
{
    struct iwl_sm *p = s->spstate;
    e_update(s, p);
    const bool *mem = p->two_level ? p->in_l1 : p->in_e;
    uint32_t n = 0;
    uint32_t g = u->last;
    if (g != WSCHED_NONE && s->resident[g] && mem[g])
        u->order[n++] = g;
    else
        g = WSCHED_NONE;
    for (uint32_t i = 0; i < u->n_age; i++)
        if (u->age[i] != g && mem[u->age[i]])
            u->order[n++] = u->age[i];
    if (s->cfg.throttle_mode == WSCHED_BLOCK_LOADS)
        for (uint32_t i = 0; i < u->n_age; i++) {
            uint32_t w = u->age[i];
            if (!mem[w] && w != g)
                u->order[n++] = w;
        }
    return n;
}

void iwl_on_issue(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t flags)
{
    (void)u;
    struct iwl_sm *p = s->spstate;
    if (flags & WSCHED_ISSUE_LONG)
        p->waiting_long[w] = true;
    p->issued[w]++;
    p->since_exit++;
    if (p->since_exit > p->open_after && !p->open && p->n_ord > p->n_e) {
        p->open = true; /* NOTE(vws-progress) */
        p->progress_guard++;
        p->upd_cycle = CYCLE_NEVER;
    }
    if (p->spin_left) { /* NOTE(vws-spin): the window closes after its instructions */
        if (--p->spin_left == 0)
            p->upd_cycle = CYCLE_NEVER;
    } else if (++p->since_l1 > s->cfg.vws_spin_guard && s->cfg.vws_spin_guard && !p->open && p->n_ord > p->n_e) {
        p->spin_left = s->cfg.vws_spin_guard;
        p->since_l1 = 0;
        p->spin_guard++;
        p->upd_cycle = CYCLE_NEVER;
    }
}

void iwl_on_launch(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    (void)u;
    struct iwl_sm *p = s->spstate;
    uint32_t i = p->n_ord;
    while (i > 0 && e_before(s, p, w, p->ord[i - 1])) {
        p->ord[i] = p->ord[i - 1];
        i--;
    }
    p->ord[i] = w;
    p->n_ord++;
    p->waiting_long[w] = false;
    p->in_e[w] = false;
    p->guard[w] = false;
    p->in_l1[w] = false;
    p->issued[w] = 0;
    p->est.miss_cnt[w] = 0; /* late accesses of the slot's previous warp */
    p->est.acc_cnt[w] = 0;
}

void iwl_on_exit(struct wsched *s, struct wsched_unit *u, uint32_t w)
{
    struct iwl_sm *p = s->spstate;
    uint32_t i = 0;
    while (i < p->n_ord && p->ord[i] != w)
        i++;
    SIM_ASSERT(i < p->n_ord, "iwl: exiting warp %u not in the E order", w);
    memmove(&p->ord[i], &p->ord[i + 1], (p->n_ord - i - 1) * sizeof *p->ord);
    p->n_ord--;
    if (p->in_l1[w]) { /* an exit frees the position; not a demotion */
        p->in_l1[w] = false;
        p->n_l1--;
    }
    p->in_e[w] = false;
    p->guard[w] = false;
    p->waiting_long[w] = false;
    p->life_sum += p->issued[w]; /* NOTE(vws-progress) */
    p->life_n++;
    p->since_exit = 0;
    p->since_l1 = 0;
    uint64_t f = s->cfg.vws_progress_guard;
    p->open_after = f ? f * p->life_sum / p->life_n : UINT64_MAX;
    p->open = false;
    if (u->last == w) /* NOTE(gto-exit) */
        u->last = WSCHED_NONE;
    bool was_post = p->est.stage == IWL_POST;
    iwl_est_warp_done(&p->est, w, s->now);
    if (p->est.stage == IWL_POST) {
        stat_avg_add(&p->nact, p->est.n_act);
        p->stage_ends += !was_post;
    }
    stat_avg_add(&p->ws_milli, (uint64_t)(p->est.ws * 1000.0 + 0.5));
    stat_avg_add(&p->rr_milli, (uint64_t)(p->est.rr * 1000.0 + 0.5));
    p->upd_cycle = CYCLE_NEVER; /* E changes with the exit */
}

void iwl_on_event(struct wsched *s, struct wsched_unit *u, uint32_t w, enum wsched_event ev)
{
    (void)u;
    struct iwl_sm *p = s->spstate;
    if (ev == WSCHED_EV_LONG_DONE)
        p->waiting_long[w] = false;
}

/* NOTE(vws-q4): every accepted load or store transaction of global or local
 * memory counts as an access (hit, allocating miss, MSHR merge, store);
 * only allocating read misses go to the AMT. Bypassing loads and atomics
 * (L1D_EV_OTHER) do not use the L1D's data and are not counted. */
void iwl_on_l1(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t ev, uint64_t line_addr)
{
    (void)u;
    struct iwl_sm *p = s->spstate;
    if (ev == L1D_EV_HIT || ev == L1D_EV_MERGE || ev == L1D_EV_STORE)
        iwl_est_access(&p->est, w, line_addr, false);
    else if (ev == L1D_EV_MISS)
        iwl_est_access(&p->est, w, line_addr, true);
    else
        return;
    p->since_l1 = 0; /* NOTE(vws-spin) */
}

const struct wsched_policy wsched_policy_iwl = {
    .name = "iwl",
    IWL_POLICY_ENTRIES,
};
