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

static const char *const wsched_policy_choices[] = {"lrr", "gto", "two_level", NULL};

const struct cfg_key wsched_cfg_keys[] = {
    /* row 0: sm.n_sched (section sm, see NOTE(n_sched-key)) */
    {"n_sched", CFG_UINT, offsetof(struct wsched_cfg, n_sched), 1, WSCHED_MAX_SCHED, "2", NULL,
     "warp schedulers per SM; warp w belongs to scheduler w mod n_sched ([GPGPU-Sim] 2)"},
    /* rows 1..: section sched */
    {"policy", CFG_ENUM, offsetof(struct wsched_cfg, policy), 0, 0, "gto", wsched_policy_choices,
     "warp scheduling policy: lrr (loose round-robin), gto (greedy-then-oldest, [GPGPU-Sim]), "
     "two_level (active/pending pools, 004)"},
    {"two_level.n_active", CFG_UINT, offsetof(struct wsched_cfg, n_active), 1, WSCHED_MAX_WARPS, "8", NULL,
     "two_level: active-pool warps per SM, split evenly over the schedulers (004: 8 per SM)"},
    {"max_outstanding_mem_per_warp", CFG_UINT, offsetof(struct wsched_cfg, max_outstanding_mem_per_warp), 0,
     1048576, "0", NULL,
     "memory instructions in flight per warp before issue stalls (0 = unlimited; 1 for SC, 001)"},
};

const size_t wsched_cfg_n_keys = ARRAY_LEN(wsched_cfg_keys);

void wsched_cfg_defaults(struct wsched_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->n_sched = 2;
    c->policy = WSCHED_GTO;
    c->n_active = 8;
    c->max_outstanding_mem_per_warp = 0;
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
    RULE(c->policy >= WSCHED_LRR && c->policy <= WSCHED_TWO_LEVEL, "sched.policy", "unknown policy %d",
         c->policy);
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
