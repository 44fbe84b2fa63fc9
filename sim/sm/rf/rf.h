/* sim/sm/rf/rf.h: the register-file unit of one SM: bank mapping, per-bank
 * busy state, its own clock, and the technology policy behind a table of
 * hooks (spec baseline-gpu.md 1.2 "Register file", 2.4, 3.2, 4.2;
 * rf-racetrack-mao.md, rf-racetrack-liang.md, rf-ltrf.md; docs/rf.md).
 *
 * What is modelled:
 *  - `rf.n_banks` banks. The policy maps (warp slot, physical register) to
 *    a bank (bank_of; default and SRAM: (reg + warp) mod n_banks,
 *    [GPGPU-Sim]). A bank starts one access at a time; the policy says how
 *    many RF ticks the access keeps it busy (access; SRAM: 1). At most
 *    `rf.max_bank_accesses_per_cycle` accesses start per RF tick.
 *  - An RF clock of `rf.clock_mult` ticks per SM pipeline cycle (Mao: RF at
 *    2x the SM clock). RF tick T belongs to pipeline cycle T / clock_mult;
 *    pipeline cycle t covers ticks t*M .. t*M + M-1. The operand collector's
 *    arbiter runs once per RF tick; a value read at tick T with access time
 *    k is available at pipeline cycle ceil((T + k) / M).
 *  - Writes (writeback) first pass the policy's on_writeback hook (a write
 *    buffer may absorb or refuse them), then take all their banks at one
 *    tick of the cycle (all or nothing).
 *  - Policy hooks for what a technology needs beyond latency: a tick of its
 *    own that returns the next pipeline cycle it needs (pre-shifting while
 *    the SM is idle; exact idle skipping), a look at each bank's next queued
 *    read (rf_queue_front), an issue gate (can_issue: hold a warp back, e.g.
 *    an LTRF interval prefetch), an issue notification, and a kernel-start
 *    hook with the resident warps, CTAs and register budget.
 *  - Statistics: reads and writes per bank, busy ticks per bank, writes a
 *    policy absorbed, plus whatever the policy registers.
 *
 * What is not modelled here: the read request queues and their arbitration
 * (the operand collector, sim/sm/rf/opcoll.c, owns them and asks this unit),
 * data values (the functional model computes at issue, DESIGN.md 4),
 * predicate registers (their own file, no banks).
 *
 * Operation mix per pipeline cycle: <= n_banks x clock_mult accesses, each
 * O(1); NULL hooks cost one pointer test. No allocation after rf_init.
 */
#ifndef GPUSIM_SIM_SM_RF_RF_H
#define GPUSIM_SIM_SM_RF_RF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/base/stats.h"

struct pipe_op;

#define RF_MAX_BANKS 64      /* largest rf.n_banks */
#define RF_MAX_CLOCK_MULT 8  /* largest rf.clock_mult */

/* X(enum suffix, config name, policy table): one line per register-file
 * policy (one file each, sim/sm/rf_<name>.c). */
#define RF_POLICY_LIST(X) X(SRAM, "sram", rf_policy_sram) X(RM, "rm", rf_policy_rm)

enum rf_policy_kind {
#define RF_X_(e, n, t) RF_POLICY_##e,
    RF_POLICY_LIST(RF_X_)
#undef RF_X_
    RF_POLICY_COUNT
};

/* rf.rm_layout: where a warp register sits on its racetrack (rf_rm.c). */
enum rf_rm_layout {
    RF_RM_ORIGINAL = 0,       /* warp-major rows from row 0 (Mao "original", Liang DIRECT) */
    RF_RM_REMAP = 1,          /* Mao Eq. 3.1-3.3, centred; general interleave when it does not fit */
    RF_RM_WARP_REG_REMAP = 2, /* Mao 3.8: each scheduler owns n_banks / n_sched banks, remap inside */
    RF_RM_LIANG = 3,          /* Liang: profile-guided grouping + arrangement (rf.rm_profile_in) */
    RF_RM_IDEAL = 4,          /* no shift cost (Liang's "ideal RM") */
};
/* rf.rm_wb_policy: when the write buffer writes its entries to the banks. */
enum rf_rm_wb_policy {
    RF_RM_WB_PIGGYBACK = 0, /* Mao: when the track passes the row (aligned), or the bank idles */
    RF_RM_WB_PRIORITY = 1,  /* Liang: the oldest entry first, whenever its bank is free */
};

/* Section "rf" (declared in sim/sm/rf/rf_cfg.c). */
struct rf_cfg {
    uint64_t n_banks;          /* rf.n_banks (banks) per SM: 16 */
    uint64_t entries_per_bank; /* rf.entries_per_bank (warp registers of 128 B) per bank: 64 */
    uint64_t max_bank_accesses_per_cycle; /* rf.max_bank_accesses_per_cycle (accesses per RF tick): 16 */
    uint64_t reads_per_unit;   /* rf.reads_per_unit (reads per RF tick) one collector unit may receive; 0 = unlimited */
    uint64_t clock_mult;       /* rf.clock_mult (RF ticks per SM pipeline cycle): 1 */
    bool busy_holds_slot;      /* rf.busy_holds_slot: a busy bank uses one access slot every tick (Liang OQ-8) */
    int policy;                /* rf.policy: enum rf_policy_kind (sram) */
    /* racetrack policy (rf.policy = rm; rf_rm.c, docs/racetrack.md) */
    uint64_t rm_ports;         /* rf.rm_ports: access ports per track (ports) */
    uint64_t rm_domains;       /* rf.rm_domains: data domains per track (0 = entries_per_bank) */
    int rm_layout;             /* rf.rm_layout: enum rf_rm_layout */
    uint64_t rm_read_ticks;    /* rf.rm_read_ticks: RF ticks per aligned read */
    uint64_t rm_write_ticks;   /* rf.rm_write_ticks: RF ticks per aligned write */
    uint64_t rm_shift_ticks;   /* rf.rm_shift_ticks: RF ticks per one-domain shift step */
    bool rm_preshift;          /* rf.rm_preshift: idle banks shift toward their next request (Liang) */
    uint64_t rm_wb_entries;    /* rf.rm_wb_entries: write-buffer entries per bank (0 = no write buffer) */
    int rm_wb_policy;          /* rf.rm_wb_policy: enum rf_rm_wb_policy */
    bool rm_wb_forward;        /* rf.rm_wb_forward: reads of a buffered register are served by the buffer */
    bool rm_wb_void;           /* rf.rm_wb_void: a newer write replaces the buffered one (WAW voiding) */
    char *rm_profile_out;      /* rf.rm_profile_out: write per-bank move counts here ("none" = off) */
    char *rm_profile_in;       /* rf.rm_profile_in: move counts for rf.rm_layout = liang ("none") */
    int rm_group_cmp;          /* rf.rm_group: enum rm_group_cmp (total, per_node) */
    int rm_arrange;            /* rf.rm_arrange: enum rm_arrange (exact_dp, enum, local) */
};

/* What a policy learns at kernel start (serial step, before any CTA). */
struct rf_kernel_info {
    uint32_t n_warps;         /* warp slots that can be resident: ctas_per_sm x warps_per_cta */
    uint32_t warps_per_cta;   /* warps per CTA */
    uint32_t ctas_per_sm;     /* resident CTAs (occupancy) */
    uint32_t regs_per_thread; /* 32-bit physical registers per thread (occupancy count) */
    uint32_t regs_budget;     /* 32-bit registers per thread-lane of the SM (sm.n_regs) */
    const void *kernel;       /* the SM's kernel tables (struct sm_kernel), for per-kernel policy tables; may be NULL */
    uint32_t regs_alloc;      /* physical register numbers in use: every operand is < this (>= regs_per_thread) */
    uint32_t n_sched;         /* warp schedulers of the SM (warp w belongs to w mod n_sched) */
    uint32_t sm_id;           /* the SM */
    const char *kernel_name;  /* the kernel's name (profiles), may be NULL */
};

/* What a policy does with a writeback (on_writeback). */
enum rf_wb_action {
    RF_WB_BANKS = 0,  /* write the destination banks now (all or nothing; refused if a bank is busy) */
    RF_WB_TAKEN = 1,  /* the policy took the values (e.g. a write buffer): no bank access now */
    RF_WB_REFUSE = 2, /* not this cycle: the result waits in its pipe slot and retries */
};

struct rf;

/* A register-file policy: a table of hooks, one file per policy. Every hook
 * except name may be NULL, meaning the documented default. `ps` is the
 * policy's private state returned by create. Cycles named `now` are SM
 * pipeline cycles; `tick` arguments are RF ticks. */
struct rf_policy_ops {
    const char *name;
    /* Allocate private state (may keep rf to read rf->cfg, the banks and
     * rf_queue_front). arg is opcoll_init's / rf_init's pol_arg. NULL hook or
     * NULL result: no state. */
    void *(*create)(struct rf *rf, void *arg);
    void (*destroy)(void *ps);
    /* Bank of register reg of warp slot warp, < rf->n_banks. Must be a pure
     * function between kernel starts. Default: rf_bank_skewed. */
    uint32_t (*bank_of)(void *ps, uint32_t warp, uint32_t reg);
    /* An access starts at RF tick `tick` on bank; returns the RF ticks (>= 1)
     * the bank stays busy; a read's value is available when they end.
     * Default (NULL): read_ticks / write_ticks below. */
    uint32_t (*access)(void *ps, uint32_t bank, uint32_t warp, uint32_t reg, bool is_write, cycle_t tick);
    uint32_t read_ticks;  /* RF ticks per read when access is NULL (0 = 1) */
    uint32_t write_ticks; /* RF ticks per write when access is NULL (0 = 1) */
    /* Called at every SM pipeline step (pipes_tick -> opcoll_read_tick),
     * after the read arbitration of every tick of cycle now; returns the
     * next pipeline cycle > now at which it must be called again, or
     * CYCLE_NEVER. The SM may skip any cycle not asked for; in a skipped
     * cycle no read was queued and no bank was accessed, so a policy can
     * also catch up on the elapsed cycles at its next call (a preshift of
     * min(elapsed ticks, distance) steps). Default: never. */
    cycle_t (*tick)(void *ps, cycle_t now);
    /* A result of warp writes regs[0..n) at cycle now. May be called again
     * for the same result in later cycles when the write is refused.
     * Default: RF_WB_BANKS. */
    enum rf_wb_action (*on_writeback)(void *ps, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now);
    /* May warp issue instruction (func, pc), pre-decoded as op (op->warp is
     * not filled), at cycle now? Called from the SM's issue check for every
     * candidate warp, possibly several times per cycle: keep it pure, or make
     * its side effects idempotent per (warp, cycle). Default: true. */
    bool (*can_issue)(void *ps, uint32_t warp, uint32_t func, uint32_t pc, const struct pipe_op *op, cycle_t now);
    /* op (warp filled) entered a collector unit at cycle now. Default: none. */
    void (*on_issue)(void *ps, const struct pipe_op *op, cycle_t now);
    /* A kernel starts on the SM (serial step): reset per-kernel state. */
    void (*kernel_start)(void *ps, const struct rf_kernel_info *ki);
    /* Register the policy's own statistics under group/instance. */
    void (*stats_register)(void *ps, struct stats *reg, const char *group, int instance);
    /* Optional: a source register read of warp about to be queued at its
     * bank (collector unit allocation, cycle now) is served elsewhere (a
     * write buffer holding the value): true = no bank request, the operand
     * is available the next cycle. Default: false. */
    bool (*read_forward)(void *ps, uint32_t warp, uint32_t reg, cycle_t now);
    /* Optional: a scheduling score of warp's instruction op (lower issues
     * first; Mao's RMWS: the worst shift distance of its RF operands). Pure.
     * Default: 0 for every instruction. */
    uint32_t (*score)(void *ps, uint32_t warp, const struct pipe_op *op);
    /* Optional: warp slot `warp` exited at cycle now; its registers are dead
     * (a write buffer may drop their values). Default: none. */
    void (*warp_exit)(void *ps, uint32_t warp, cycle_t now);
};

#define RF_X_(e, n, t) extern const struct rf_policy_ops t;
RF_POLICY_LIST(RF_X_)
#undef RF_X_

/* The policy table of a kind (config value rf.policy). */
const struct rf_policy_ops *rf_policy_of(int kind);

/* The operand collector's read queue at a bank, seen by a policy: the
 * front (back = false) or newest (back = true) request's (warp, reg) and
 * the pipeline cycle it entered the queue; false when the queue is empty. */
typedef bool (*rf_queue_front_fn)(void *ctx, uint32_t bank, bool back, uint32_t *warp, uint32_t *reg,
                                  cycle_t *since);

struct rf_bank {
    cycle_t busy_until; /* first RF tick the bank can start a new access */
    cycle_t start;      /* RF tick its current (or last) access started */
};

struct rf_stats {
    uint64_t reads;            /* register-bank reads (32-bit warp registers) */
    uint64_t writes;           /* register-bank writes (32-bit warp registers) */
    uint64_t wb_taken;         /* writeback registers absorbed by the policy (no bank access) */
    uint64_t wb_refused;       /* writeback attempts the policy refused (result-cycles) */
    struct stat_hist reads_by_bank;  /* bin b = reads served by bank b */
    struct stat_hist writes_by_bank; /* bin b = writes served by bank b */
    struct stat_hist busy_by_bank;   /* bin b = RF ticks bank b was busy; count = all busy ticks */
};

struct rf {
    struct rf_cfg cfg;               /* copy of the configuration */
    const struct rf_policy_ops *ops; /* the technology policy */
    void *ps;                        /* its private state (create), or NULL */
    /* hot copies of the policy table (one load less per access) */
    uint32_t (*bank_fn)(void *ps, uint32_t warp, uint32_t reg); /* ops->bank_of */
    uint32_t (*access_fn)(void *ps, uint32_t bank, uint32_t warp, uint32_t reg, bool is_write,
                          cycle_t tick); /* ops->access */
    uint32_t rk, wk;                 /* fixed RF ticks per read / write when access_fn is NULL (>= 1) */
    uint32_t n_banks;                /* banks */
    bool banks_pow2;                 /* n_banks is a power of two: a bank index is a mask, not a division */
    uint32_t mult;                   /* RF ticks per pipeline cycle (rf.clock_mult) */
    uint32_t max_acc;                /* accesses that may start per RF tick */
    bool hold;                       /* rf.busy_holds_slot */
    cycle_t held_tick;               /* RF tick held_n was counted for (NOTE(held-cache)) */
    uint32_t held_n;                 /* banks holding a slot at held_tick */
    cycle_t acc_cycle;               /* pipeline cycle acc[] counts for */
    uint32_t acc[RF_MAX_CLOCK_MULT]; /* accesses started at tick acc_cycle * mult + i */
    rf_queue_front_fn qfront;        /* the collector's read queues (may be NULL) */
    bool (*fwd_fn)(void *ps, uint32_t warp, uint32_t reg, cycle_t now); /* ops->read_forward */
    void *qctx;                      /* its context */
    struct rf_bank bank[RF_MAX_BANKS];
    struct rf_stats st;
};

/* ---------------------------------------------------------------- API */

/* The configuration must pass opcoll_cfg_validate (rf.* rules).
 * ops NULL = the configured policy (cfg->policy); pol_arg goes to create. */
void rf_init(struct rf *rf, const struct rf_cfg *cfg, const struct rf_policy_ops *ops, void *pol_arg);
void rf_fini(struct rf *rf);
/* The collector's read queues, for policies that look ahead. */
void rf_set_queue_front(struct rf *rf, rf_queue_front_fn fn, void *ctx);
/* Front request of bank's read queue; false when empty or unknown. */
static inline bool rf_queue_front(const struct rf *rf, uint32_t bank, uint32_t *warp, uint32_t *reg)
{
    cycle_t since;
    return rf->qfront && rf->qfront(rf->qctx, bank, false, warp, reg, &since);
}
/* Front (back = false) or newest (back = true) request of bank's read queue
 * with the pipeline cycle it was queued; false when empty or unknown. */
static inline bool rf_queue_peek(const struct rf *rf, uint32_t bank, bool back, uint32_t *warp, uint32_t *reg,
                                 cycle_t *since)
{
    return rf->qfront && rf->qfront(rf->qctx, bank, back, warp, reg, since);
}
/* A policy-initiated bank write (a write-buffer drain) of `ticks` RF ticks
 * on a free bank at RF tick `tick` of the current pipeline cycle, within
 * the access limit (rf_port_free(rf, tick) just returned true): counted as
 * a register write like a writeback's. */
void rf_policy_write(struct rf *rf, uint32_t bank, cycle_t tick, uint32_t ticks);
/* Scheduling score of warp's next instruction op (score hook; 0 without). */
static inline uint32_t rf_score(const struct rf *rf, uint32_t warp, const struct pipe_op *op)
{
    return rf->ops->score ? rf->ops->score(rf->ps, warp, op) : 0;
}

/* The GPGPU-Sim mapping: (reg + warp) mod n_banks. */
static inline uint32_t rf_bank_skewed(const struct rf *rf, uint32_t warp, uint32_t reg)
{
    /* a 32-bit division is 15-25 cycles of latency on the issue and
     * operand-read paths; the presets' bank counts are powers of two */
    uint32_t x = reg + warp;
    return rf->banks_pow2 ? x & (rf->n_banks - 1) : x % rf->n_banks;
}
static inline uint32_t rf_bank_of(const struct rf *rf, uint32_t warp, uint32_t reg)
{
    return rf->bank_fn ? rf->bank_fn(rf->ps, warp, reg) : rf_bank_skewed(rf, warp, reg);
}

/* Pipeline cycle <-> RF ticks. */
static inline cycle_t rf_tick_of(const struct rf *rf, cycle_t cycle) { return cycle * rf->mult; }
/* First pipeline cycle that starts at or after RF tick `tick`. */
static inline cycle_t rf_cycle_ceil(const struct rf *rf, cycle_t tick)
{
    return rf->mult == 1 ? tick : (tick + rf->mult - 1) / rf->mult;
}

static inline bool rf_bank_free(const struct rf *rf, uint32_t bank, cycle_t tick)
{
    return rf->bank[bank].busy_until <= tick;
}

/* The per-tick access counters belong to pipeline cycle `cycle`. */
static inline void rf_new_cycle_(struct rf *rf, cycle_t cycle)
{
    if (rf->acc_cycle == cycle)
        return;
    SIM_ASSERT(rf->acc_cycle == CYCLE_NEVER || cycle > rf->acc_cycle, "rf: cycle %llu after %llu",
               (unsigned long long)cycle, (unsigned long long)rf->acc_cycle);
    rf->acc_cycle = cycle;
    if (rf->mult == 1) /* the usual clock; the loop below becomes a memset call */
        rf->acc[0] = 0;
    else
        for (uint32_t i = 0; i < rf->mult; i++)
            rf->acc[i] = 0;
}

/* Index of RF tick `tick` inside its pipeline cycle (starts that cycle). */
static inline uint32_t rf_sub_tick_(struct rf *rf, cycle_t tick)
{
    if (rf->mult == 1) {
        rf_new_cycle_(rf, tick);
        return 0;
    }
    rf_new_cycle_(rf, tick / rf->mult);
    return (uint32_t)(tick % rf->mult);
}

/* Banks still busy at `tick` with an access started before it (they hold
 * a slot every tick under rf.busy_holds_slot). */
static inline uint32_t rf_held_(struct rf *rf, cycle_t tick)
{
    /* NOTE(held-cache): accesses that start at `tick` do not change the
     * count for `tick` (start < tick), so it is computed once per tick */
    if (rf->held_tick == tick)
        return rf->held_n;
    uint32_t n = 0;
    for (uint32_t b = 0; b < rf->n_banks; b++)
        n += rf->bank[b].start < tick && rf->bank[b].busy_until > tick;
    rf->held_tick = tick;
    rf->held_n = n;
    return n;
}
/* May another access start at RF tick `tick` (per-tick access limit)? */
static inline bool rf_port_free(struct rf *rf, cycle_t tick)
{
    uint32_t used = rf->acc[rf_sub_tick_(rf, tick)];
    if (__builtin_expect(rf->hold, 0))
        used += rf_held_(rf, tick);
    return used < rf->max_acc;
}

/* RF ticks of one access (the policy's access hook or its fixed times). */
static inline uint32_t rf_access_ticks_(struct rf *rf, uint32_t bank, uint32_t warp, uint32_t reg, bool is_write,
                                        cycle_t tick)
{
    if (!rf->access_fn)
        return is_write ? rf->wk : rf->rk;
    uint32_t k = rf->access_fn(rf->ps, bank, warp, reg, is_write, tick);
    SIM_ASSERT(k >= 1, "rf policy %s returned 0 ticks (bank %u, warp %u, reg %u)", rf->ops->name, bank, warp, reg);
    return k;
}

/* k samples of value `bank` in a per-bank histogram (bin width 1, one bin
 * per bank, so no division and no overflow): the same result as k calls of
 * stat_hist_add. NOTE(bank-hist): the division in stat_hist_add was a
 * measurable part of the per-read cost. */
static inline void rf_bank_hist_add_(struct stat_hist *h, uint32_t bank, uint64_t k)
{
    h->bins[bank] += k;
    h->count += k;
    h->sum += (uint64_t)bank * k;
    if (bank > h->max)
        h->max = bank;
}

/* Start a read of (warp, reg) in its bank at RF tick `tick`; the bank must
 * be free and rf_port_free(rf, tick) just returned true. Returns the RF
 * tick the value is ready. */
static inline cycle_t rf_read(struct rf *rf, uint32_t bank, uint32_t warp, uint32_t reg, cycle_t tick)
{
    uint32_t s = rf->mult == 1 ? 0 : (uint32_t)(tick % rf->mult); /* the cycle was started by rf_port_free */
    SIM_DEBUG_ASSERT(bank < rf->n_banks && rf->bank[bank].busy_until <= tick,
                     "rf: read of warp %u reg %u at tick %llu on busy bank %u", warp, reg, (unsigned long long)tick,
                     bank);
    uint32_t k = rf_access_ticks_(rf, bank, warp, reg, false, tick);
    rf->bank[bank].busy_until = tick + k;
    rf->bank[bank].start = tick;
    rf->acc[s]++;
    rf->st.reads++;
    rf_bank_hist_add_(&rf->st.reads_by_bank, bank, 1);
    rf_bank_hist_add_(&rf->st.busy_by_bank, bank, k);
    return tick + k;
}
/* Writeback of regs[0..n) of warp at pipeline cycle now (before the reads
 * of the cycle: writes have priority). All or nothing: false when the
 * policy refuses or a bank or the access limit is taken for the whole cycle. */
bool rf_write(struct rf *rf, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now);
/* The policy's tick (after the reads of cycle now); next cycle or CYCLE_NEVER. */
static inline cycle_t rf_tick(struct rf *rf, cycle_t now)
{
    return rf->ops->tick ? rf->ops->tick(rf->ps, now) : CYCLE_NEVER;
}
/* Issue gate and notification (see struct rf_policy_ops). */
static inline bool rf_can_issue(const struct rf *rf, uint32_t warp, uint32_t func, uint32_t pc,
                                const struct pipe_op *op, cycle_t now)
{
    return !rf->ops->can_issue || rf->ops->can_issue(rf->ps, warp, func, pc, op, now);
}
static inline void rf_on_issue(struct rf *rf, const struct pipe_op *op, cycle_t now)
{
    if (rf->ops->on_issue)
        rf->ops->on_issue(rf->ps, op, now);
}
void rf_kernel_start(struct rf *rf, const struct rf_kernel_info *ki);
/* Warp slot `warp` exited (its registers are dead). */
static inline void rf_warp_exit(struct rf *rf, uint32_t warp, cycle_t now)
{
    if (rf->ops->warp_exit)
        rf->ops->warp_exit(rf->ps, warp, now);
}
/* Registers reads, writes, reads_by_bank, writes_by_bank (names kept from
 * the collector's statistics), rf_busy_ticks, rf_busy_by_bank,
 * rf_wb_taken, rf_wb_refused, then the policy's own. */
void rf_stats_register(struct rf *rf, struct stats *reg, const char *group, int instance);
/* Invariants (per-tick access counts, bank numbers); panics naming the unit. */
void rf_check(const struct rf *rf);

#endif /* GPUSIM_SIM_SM_RF_RF_H */
