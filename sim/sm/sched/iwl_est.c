/* sim/sm/sched/iwl_est.c: the IWL working-set estimator (see iwl_est.h). */
#include "sim/sm/sched/iwl_est.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void iwl_est_init(struct iwl_est *e, const struct iwl_est_cfg *cfg, uint32_t max_warps)
{
    memset(e, 0, sizeof *e);
    SIM_ASSERT(cfg->amt_entries >= 64 && cfg->amt_entries % 64 == 0, "iwl_est: amt_entries %u", cfg->amt_entries);
    SIM_ASSERT(cfg->counter_bits >= 1 && cfg->counter_bits <= 32, "iwl_est: counter_bits %u", cfg->counter_bits);
    e->cfg = *cfg;
    e->max_warps = max_warps;
    e->sat = cfg->counter_bits == 32 ? UINT32_MAX : (1u << cfg->counter_bits) - 1u;
    e->miss_cnt = xcalloc(max_warps, sizeof *e->miss_cnt);
    e->acc_cnt = xcalloc(max_warps, sizeof *e->acc_cnt);
    e->amt = xcalloc(cfg->amt_entries / 64, sizeof *e->amt);
    e->n_max = max_warps;
    e->n_act = max_warps;
    e->l1d_lines = 1;
    e->line_shift = 7;
}

void iwl_est_fini(struct iwl_est *e)
{
    free(e->miss_cnt);
    free(e->acc_cnt);
    free(e->amt);
    memset(e, 0, sizeof *e);
}

static void amt_clear(struct iwl_est *e)
{
    memset(e->amt, 0, e->cfg.amt_entries / 64 * sizeof *e->amt);
}

void iwl_est_kernel_start(struct iwl_est *e, uint64_t grid_ctas, uint32_t warps_per_cta, uint32_t n_sm,
                          uint32_t max_resident, uint32_t l1d_lines, uint32_t line_bytes)
{
    SIM_ASSERT(n_sm >= 1 && max_resident >= 1 && max_resident <= e->max_warps && l1d_lines >= 1,
               "iwl_est: kernel start n_sm %u resident %u lines %u", n_sm, max_resident, l1d_lines);
    /* Eq. 4.2 with the grid's CTA count (NOTE(vws-q1) in docs/vws.md) */
    double np = ceil(e->cfg.alpha * (double)grid_ctas * (double)warps_per_cta / (double)n_sm);
    e->n_pred = np < 1.0 ? 1 : (uint64_t)np;
    e->n_max = max_resident;
    e->n_act = max_resident;
    if (e->cfg.static_nact) /* NOTE(vws-swl): no sampling stage, no update */
        e->n_act = e->cfg.static_nact < max_resident ? e->cfg.static_nact : max_resident;
    e->l1d_lines = l1d_lines;
    e->line_shift = (uint32_t)__builtin_ctz(line_bytes);
    e->stage = IWL_SAMPLING;
    e->finished = 0;
    e->have_est = false;
    e->ws = e->rr = 0.0;
    amt_clear(e);
    memset(e->miss_cnt, 0, e->max_warps * sizeof *e->miss_cnt);
    memset(e->acc_cnt, 0, e->max_warps * sizeof *e->acc_cnt);
}

void iwl_est_access(struct iwl_est *e, uint32_t w, uint64_t line_addr, bool miss)
{
    SIM_ASSERT(w < e->max_warps, "iwl_est: warp %u", w);
    if (e->acc_cnt[w] < e->sat)
        e->acc_cnt[w]++;
    if (!miss)
        return;
    uint64_t i = (line_addr >> e->line_shift) % e->cfg.amt_entries; /* NOTE(vws-amt-hash) */
    uint64_t bit = 1ull << (i % 64);
    if (e->amt[i / 64] & bit) {
        e->st.amt_hits++;
        return;
    }
    e->amt[i / 64] |= bit;
    if (e->miss_cnt[w] < e->sat)
        e->miss_cnt[w]++;
}

uint32_t iwl_est_nact(const struct iwl_est *e, double ws, double rr)
{
    double d = e->cfg.basic ? ws : ws * rr;
    double n = e->cfg.basic ? ceil((double)e->l1d_lines / d) : ceil(e->cfg.beta * (double)e->l1d_lines / d);
    if (!(n >= 1.0))
        return 1;
    if (n >= (double)e->n_max)
        return e->n_max;
    return (uint32_t)n;
}

bool iwl_est_warp_done(struct iwl_est *e, uint32_t w, uint64_t now)
{
    SIM_ASSERT(w < e->max_warps, "iwl_est: warp %u", w);
    /* NOTE(vws-q5): a warp whose misses were all marked already counts 1 */
    double ws_new = e->miss_cnt[w] > 1 ? (double)e->miss_cnt[w] : 1.0;
    double rr_new = (double)e->acc_cnt[w] / ws_new; /* Eq. 4.5 */
    if (!e->have_est) {
        e->ws = ws_new;
        e->rr = rr_new;
        e->have_est = true;
    } else { /* Eq. 4.1, 4.4: weight 1/2 */
        e->ws = e->ws / 2.0 + ws_new / 2.0;
        e->rr = e->rr / 2.0 + rr_new / 2.0;
    }
    e->miss_cnt[w] = 0;
    e->acc_cnt[w] = 0;
    e->finished++;
    e->st.updates++;
    e->st.ws_last = e->ws;
    e->st.rr_last = e->rr;
    if (e->finished % e->n_pred == 0) { /* periodic clear */
        amt_clear(e);
        e->st.amt_clears++;
    }
    if (e->stage == IWL_SAMPLING && e->finished >= e->n_pred) {
        e->stage = IWL_POST;
        e->st.stage_cycle = now;
    }
    if (e->stage != IWL_POST)
        return false;
    uint32_t old = e->n_act;
    if (!e->cfg.static_nact)
        e->n_act = iwl_est_nact(e, e->ws, e->rr);
    e->st.nact_sum += e->n_act;
    if (e->n_act > e->st.nact_max)
        e->st.nact_max = e->n_act;
    if (e->n_act != old)
        e->st.nact_changes++;
    return e->n_act != old;
}
