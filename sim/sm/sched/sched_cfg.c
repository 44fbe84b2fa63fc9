/* sim/sm/sched/sched_cfg.c: the sched.* configuration keys and sm.n_sched (owned
 * by sim/sm/sched/sched.c), with gtx480 defaults from spec baseline-gpu.md 4.2.
 *
 * NOTE(n_sched-key): the spec names the scheduler count `sm.n_sched`. The
 * value lives in struct wsched_cfg with the other scheduler keys, and row 0
 * of the one key table below is registered as a part of section sm
 * (wsched_sm_cfg_section); rows 1.. form section sched. The old name
 * sched.n_sched is refused with a hint (sim/cfg/registry.c).
 * NOTE(outstanding-unlimited): `sched.max_outstanding_mem_per_warp` is
 * "infinity" in the spec; 0 stands for unlimited (a limit of 0 would forbid
 * every memory instruction, so the value is free).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/sched/sched.h"

static const char *const wsched_policy_choices[] = {"lrr", "gto", "two_level", "ccws", "iwl", "iwl_intracl",
                                                    "vws", "rmws", NULL};
static const char *const wsched_throttle_choices[] = {"block_all", "block_loads", NULL};
static const char *const wsched_formula_choices[] = {"basic", "rrdegr", NULL};
static const char *const wsched_order_choices[] = {"fixed", "rotate", NULL};

const struct cfg_key wsched_cfg_keys[] = {
    /* row 0: sm.n_sched (section sm, see NOTE(n_sched-key)) */
    {"n_sched", CFG_UINT, offsetof(struct wsched_cfg, n_sched), 1, WSCHED_MAX_SCHED, "2", NULL,
     "warp schedulers per SM; warp w belongs to scheduler w mod n_sched ([GPGPU-Sim] 2)"},
    /* rows 1..: section sched */
    {"policy", CFG_ENUM, offsetof(struct wsched_cfg, policy), 0, 0, "gto", wsched_policy_choices,
     "warp scheduling policy: lrr (loose round-robin), gto (greedy-then-oldest, [GPGPU-Sim]), "
     "two_level (active/pending pools, 004), ccws (Rogers 2012), iwl, iwl_intracl, vws (000 ch. 4; docs/vws.md), rmws (000 ch. 3: lowest racetrack shift score first, "
     "GTO ties; docs/racetrack.md)"},
    {"two_level.n_active", CFG_UINT, offsetof(struct wsched_cfg, n_active), 1, WSCHED_MAX_WARPS, "8", NULL,
     "two_level: active-pool warps per SM, split evenly over the schedulers (004: 8 per SM)"},
    {"issue_order", CFG_ENUM, offsetof(struct wsched_cfg, issue_order), 0, 0, "fixed", wsched_order_choices,
     "which scheduler of an SM picks first each cycle (shared pipes, memory-instruction places): fixed = "
     "scheduler 0 ([GPGPU-Sim] 3.2.2), rotate = scheduler (cycle mod n_sched) ([GPGPU-Sim] 4.x); docs/sched.md"},
    {"max_outstanding_mem_per_warp", CFG_UINT, offsetof(struct wsched_cfg, max_outstanding_mem_per_warp), 0,
     1048576, "0", NULL,
     "memory instructions in flight per warp before issue stalls (0 = unlimited; 1 for SC, 001)"},
    {"throttle_mode", CFG_ENUM, offsetof(struct wsched_cfg, throttle_mode), 0, 0, "block_all", wsched_throttle_choices,
     "iwl/iwl_intracl/vws: warps outside the eligible set issue nothing (block_all) or no L1D load (block_loads)"},
    {"vws.alpha", CFG_DOUBLE, offsetof(struct wsched_cfg, vws_alpha), 0, 1, "0.1", NULL,
     "IWL sampling fraction of Eq. 4.2 (000 ch. 4: 0.1; 1 = sampling never ends before the last wave)"},
    {"vws.beta", CFG_DOUBLE, offsetof(struct wsched_cfg, vws_beta), 0.001, 1024, "4", NULL,
     "IWL aggressiveness beta of Eq. 4.6 (000 ch. 4: 4)"},
    {"vws.amt_entries", CFG_UINT, offsetof(struct wsched_cfg, vws_amt_entries), 64, 1048576, "8192", NULL,
     "IWL address-miss-table bits, a multiple of 64 (000 ch. 4: 8192 x 1 bit = 1 KB)"},
    {"vws.counter_bits", CFG_UINT, offsetof(struct wsched_cfg, vws_counter_bits), 1, 32, "10", NULL,
     "IWL per-warp miss and access counter width (bits; 000 ch. 4: 10, saturating)"},
    {"vws.progress_guard", CFG_UINT, offsetof(struct wsched_cfg, vws_progress_guard), 0, 1000000, "8", NULL,
     "iwl family: when the SM has issued this many times a finished warp's mean instruction count since the "
     "last warp exit, every warp is eligible until the next exit (a throttled lock holder must run; 0 = off; "
     "not in 000, docs/vws.md)"},
    {"vws.spin_guard", CFG_UINT, offsetof(struct wsched_cfg, vws_spin_guard), 0, 1000000000, "1024", NULL,
     "iwl family: when the SM has issued this many instructions without an L1D access or a warp exit, every "
     "warp is eligible for as many more (the warps of E spin on flags or locks of throttled warps; 0 = off; "
     "not in 000, docs/vws.md)"},
    {"vws.static_nact", CFG_UINT, offsetof(struct wsched_cfg, vws_static_nact), 0, WSCHED_MAX_WARPS, "0", NULL,
     "iwl family: fix N_act at this many warps from kernel start instead of Eq. 4.6/4.3 (static warp limiting, "
     "Rogers 2012's SWL: an oracle bound for the estimator; 0 = off, the chapter's IWL; docs/vws.md)"},
    {"vws.l1_cap", CFG_UINT, offsetof(struct wsched_cfg, vws_l1_cap), 1, WSCHED_MAX_WARPS, "16", NULL,
     "vws: InterCL level-1 capacity per SM (warps; 000 ch. 4: 16)"},
    {"vws.formula", CFG_ENUM, offsetof(struct wsched_cfg, vws_formula), 0, 0, "rrdegr", wsched_formula_choices,
     "IWL N_act formula: rrdegr = ceil(beta x L1D lines / (WS x RRDegr)) (Eq. 4.6), basic = ceil(lines / WS) (Eq. 4.3)"},
    {"ccws.vta_entries", CFG_UINT, offsetof(struct wsched_cfg, ccws_vta_entries), 1, 4096, "16", NULL,
     "ccws: victim tags per warp (entries; Rogers 2012: 16)"},
    {"ccws.vta_assoc", CFG_UINT, offsetof(struct wsched_cfg, ccws_vta_assoc), 0, 4096, "8", NULL,
     "ccws: ways per victim-tag set, FIFO (0 = fully associative; Rogers 2012: 8)"},
    {"ccws.base_score", CFG_UINT, offsetof(struct wsched_cfg, ccws_base), 1, 1000000, "100", NULL,
     "ccws: BASE, the floor of every lost-locality score; cutoff = live warps x BASE (points; Rogers 2012: 100)"},
    {"ccws.k_throttle", CFG_DOUBLE, offsetof(struct wsched_cfg, ccws_k_throttle), 0, 1e6, "8", NULL,
     "ccws: K_THROTTLE of LLDS = VTA hits / instructions x K x cutoff (reimplementations: 8)"},
    {"ccws.decay", CFG_UINT, offsetof(struct wsched_cfg, ccws_decay), 0, 1000000, "1", NULL,
     "ccws: score decay (points per pipeline cycle, down to BASE)"},
};

const size_t wsched_cfg_n_keys = ARRAY_LEN(wsched_cfg_keys);

void wsched_cfg_defaults(struct wsched_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->n_sched = 2;
    c->policy = WSCHED_GTO;
    c->n_active = 8;
    c->issue_order = WSCHED_ORDER_FIXED;
    c->max_outstanding_mem_per_warp = 0;
    c->throttle_mode = WSCHED_BLOCK_ALL;
    c->vws_alpha = 0.1;
    c->vws_beta = 4.0;
    c->vws_amt_entries = 8192;
    c->vws_counter_bits = 10;
    c->vws_l1_cap = 16;
    c->vws_progress_guard = 8;
    c->vws_static_nact = 0;
    c->vws_spin_guard = 1024;
    c->vws_formula = WSCHED_IWL_RRDEGR;
    c->ccws_vta_entries = 16;
    c->ccws_vta_assoc = 8;
    c->ccws_base = 100;
    c->ccws_k_throttle = 8.0;
    c->ccws_decay = 1;
}

int wsched_cfg_validate(const struct wsched_cfg *c, wsched_cfg_report_fn report, void *ctx)
{
    int n = 0;
    char msg[256];
#define RULE(ok, key, ...)                                                                         \
    do {                                                                                           \
        if (!(ok)) {                                                                               \
            n++;                                                                                   \
            if (report) {                                                                          \
                snprintf(msg, sizeof msg, __VA_ARGS__);                                            \
                report(ctx, key, msg);                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)
    RULE(c->n_sched >= 1 && c->n_sched <= WSCHED_MAX_SCHED, "sm.n_sched", "%llu out of range 1..%d",
         (unsigned long long)c->n_sched, WSCHED_MAX_SCHED);
    RULE(c->policy >= WSCHED_LRR && c->policy <= WSCHED_RMWS, "sched.policy", "unknown policy %d", c->policy);
    RULE(c->vws_amt_entries >= 64 && c->vws_amt_entries % 64 == 0, "sched.vws.amt_entries",
         "%llu is not a positive multiple of 64 (rule: the table is kept in 64-bit words)",
         (unsigned long long)c->vws_amt_entries);
    RULE(c->vws_beta > 0.0, "sched.vws.beta", "%g must be > 0", c->vws_beta);
    RULE(c->vws_alpha >= 0.0 && c->vws_alpha <= 1.0, "sched.vws.alpha", "%g out of range 0..1", c->vws_alpha);
    RULE(c->vws_counter_bits >= 1 && c->vws_counter_bits <= 32, "sched.vws.counter_bits", "%llu out of range 1..32",
         (unsigned long long)c->vws_counter_bits);
    RULE(c->vws_l1_cap >= 1, "sched.vws.l1_cap", "must be >= 1");
    RULE(c->ccws_vta_entries >= 1 && (c->ccws_vta_assoc == 0 || c->ccws_vta_entries % c->ccws_vta_assoc == 0),
         "sched.ccws.vta_entries", "%llu is not a positive multiple of sched.ccws.vta_assoc %llu",
         (unsigned long long)c->ccws_vta_entries, (unsigned long long)c->ccws_vta_assoc);
    RULE(c->ccws_base >= 1, "sched.ccws.base_score", "must be >= 1");
    if (c->policy == WSCHED_TWO_LEVEL && c->n_sched >= 1)
        RULE(c->n_active >= c->n_sched && c->n_active % c->n_sched == 0, "sched.two_level.n_active",
             "%llu is not a positive multiple of sm.n_sched %llu "
             "(rule: the active pool is split evenly over the schedulers)",
             (unsigned long long)c->n_active, (unsigned long long)c->n_sched);
#undef RULE
    return n;
}

static void wsched_check_report(void *ctx, const char *key, const char *msg)
{
    cfg_check_fail(ctx, key, "%s", msg);
}

void wsched_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct wsched_cfg *c = sec;
    wsched_cfg_validate(c, wsched_check_report, ck);
    if (c->n_sched > all->sm.max_warps)
        cfg_check_fail(ck, "sm.n_sched", "%llu exceeds sm.max_warps %llu (rule: every scheduler owns a warp slot)",
                       (unsigned long long)c->n_sched, (unsigned long long)all->sm.max_warps);
}

/* Both parts use struct wsched_cfg (member `sched`): sm.n_sched is row 0, and
 * the sched part's check covers it (it runs after every key is loaded). */
const struct cfg_section wsched_sm_cfg_section = {"sm", "warp schedulers per SM (part of sm.*)",
                                                  offsetof(struct sim_cfg, sched), wsched_cfg_keys, 1, NULL};

const struct cfg_section wsched_cfg_section = {"sched", "warp schedulers (issue stage)",
                                               offsetof(struct sim_cfg, sched), wsched_cfg_keys + 1,
                                               ARRAY_LEN(wsched_cfg_keys) - 1, wsched_cfg_check};
