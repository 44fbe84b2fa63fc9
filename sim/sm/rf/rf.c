/* sim/sm/rf/rf.c: the register-file unit (see rf.h; docs/rf.md).
 *
 * NOTE(rf-clock): the RF has its own clock of rf.clock_mult ticks per SM
 * pipeline cycle (Mao's racetrack RF runs at 2x the SM clock). Bank state
 * (busy_until) is in RF ticks; the collector's arbiter runs once per tick;
 * pipeline-side events (issue, dispatch, writeback, the scoreboard) stay in
 * pipeline cycles, and a value read at tick T with access time k is usable
 * at pipeline cycle ceil((T + k) / M). With M = 1 every tick is a cycle and
 * the model is exactly the former one (the statistics of every workload are
 * byte-identical). The access limit rf.max_bank_accesses_per_cycle and the
 * per-unit read limit rf.reads_per_unit apply per RF tick (the bank
 * crossbar runs at the RF clock).
 * NOTE(write-tick): a writeback at pipeline cycle t takes all its banks at
 * one tick: the first tick of t at which all of them are free; refused when
 * that is past the cycle's last tick or that tick's access limit is used
 * up. Reads of the cycle are arbitrated after the writes, so a bank reserved
 * from a later tick of the cycle is not given to a read in the gap.
 */
#include "sim/sm/rf/rf.h"

#include <string.h>

static const struct rf_policy_ops *const policy_table[RF_POLICY_COUNT] = {
#define RF_X_(e, n, t) [RF_POLICY_##e] = &t,
    RF_POLICY_LIST(RF_X_)
#undef RF_X_
};

const struct rf_policy_ops *rf_policy_of(int kind)
{
    SIM_ASSERT(kind >= 0 && kind < RF_POLICY_COUNT, "rf: unknown policy %d", kind);
    return policy_table[kind];
}

void rf_init(struct rf *rf, const struct rf_cfg *cfg, const struct rf_policy_ops *ops, void *pol_arg)
{
    SIM_ASSERT(cfg->n_banks >= 1 && cfg->n_banks <= RF_MAX_BANKS && cfg->clock_mult >= 1 &&
                   cfg->clock_mult <= RF_MAX_CLOCK_MULT && cfg->max_bank_accesses_per_cycle >= 1,
               "rf_init: invalid rf configuration (banks %llu, clock_mult %llu)", (unsigned long long)cfg->n_banks,
               (unsigned long long)cfg->clock_mult);
    memset(rf, 0, sizeof *rf);
    rf->cfg = *cfg;
    rf->ops = ops ? ops : rf_policy_of(cfg->policy);
    rf->bank_fn = rf->ops->bank_of;
    rf->access_fn = rf->ops->access;
    rf->fwd_fn = rf->ops->read_forward;
    rf->rk = rf->ops->read_ticks ? rf->ops->read_ticks : 1;
    rf->wk = rf->ops->write_ticks ? rf->ops->write_ticks : 1;
    rf->n_banks = (uint32_t)cfg->n_banks;
    rf->banks_pow2 = (rf->n_banks & (rf->n_banks - 1)) == 0;
    rf->mult = (uint32_t)cfg->clock_mult;
    rf->max_acc = cfg->max_bank_accesses_per_cycle > UINT32_MAX ? UINT32_MAX
                                                                 : (uint32_t)cfg->max_bank_accesses_per_cycle;
    rf->acc_cycle = CYCLE_NEVER;
    rf->hold = cfg->busy_holds_slot;
    rf->held_tick = CYCLE_NEVER;
    stat_hist_init(&rf->st.reads_by_bank, rf->n_banks, 1);
    stat_hist_init(&rf->st.writes_by_bank, rf->n_banks, 1);
    stat_hist_init(&rf->st.busy_by_bank, rf->n_banks, 1);
    /* last: the policy may look at everything above */
    rf->ps = rf->ops->create ? rf->ops->create(rf, pol_arg) : NULL;
}

void rf_fini(struct rf *rf)
{
    if (rf->ops && rf->ops->destroy && rf->ps)
        rf->ops->destroy(rf->ps);
    stat_hist_fini(&rf->st.reads_by_bank);
    stat_hist_fini(&rf->st.writes_by_bank);
    stat_hist_fini(&rf->st.busy_by_bank);
    memset(rf, 0, sizeof *rf);
}

void rf_set_queue_front(struct rf *rf, rf_queue_front_fn fn, void *ctx)
{
    rf->qfront = fn;
    rf->qctx = ctx;
}

bool rf_write(struct rf *rf, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now)
{
    rf_new_cycle_(rf, now);
    if (rf->ops->on_writeback && n) {
        enum rf_wb_action a = rf->ops->on_writeback(rf->ps, warp, regs, n, now);
        if (a == RF_WB_TAKEN) {
            rf->st.wb_taken += n;
            return true;
        }
        if (a == RF_WB_REFUSE) {
            rf->st.wb_refused++;
            return false;
        }
    }
    cycle_t t0 = rf_tick_of(rf, now), start = t0;
    uint32_t need[RF_MAX_BANKS / 32 + 1] = {0}; /* banks touched (bitset) */
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = rf_bank_of(rf, warp, regs[i]);
        SIM_DEBUG_ASSERT(b < rf->n_banks, "rf policy %s: bank %u of %u", rf->ops->name, b, rf->n_banks);
        if (rf->bank[b].busy_until > start) {
            start = rf->bank[b].busy_until;
            if (start >= t0 + rf->mult)
                return false; /* a bank is taken for the whole cycle */
        }
        if (!(need[b / 32] & (1u << (b % 32)))) {
            need[b / 32] |= 1u << (b % 32);
            distinct++;
        }
    }
    uint32_t s = (uint32_t)(start - t0);
    uint32_t used = rf->acc[s] + distinct;
    if (__builtin_expect(rf->hold, 0))
        used += rf_held_(rf, start);
    if (used > rf->max_acc)
        return false;
    /* NOTE(same-bank-writes): two destination registers in one bank (only
     * possible with vector loads or tiny bank counts) are written one after
     * the other: the bank stays busy for the sum of their access times. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = rf_bank_of(rf, warp, regs[i]);
        struct rf_bank *bk = &rf->bank[b];
        cycle_t from = bk->busy_until > start ? bk->busy_until : start;
        uint32_t k = rf_access_ticks_(rf, b, warp, regs[i], true, from);
        bk->busy_until = from + k;
        bk->start = from;
        rf->st.writes++;
        rf_bank_hist_add_(&rf->st.writes_by_bank, b, 1);
        rf_bank_hist_add_(&rf->st.busy_by_bank, b, k);
    }
    rf->acc[s] += distinct;
    return true;
}

void rf_policy_write(struct rf *rf, uint32_t bank, cycle_t tick, uint32_t ticks)
{
    uint32_t s = rf_sub_tick_(rf, tick);
    SIM_ASSERT(bank < rf->n_banks && rf->bank[bank].busy_until <= tick && rf->acc[s] < rf->max_acc && ticks >= 1,
               "rf policy %s: write on bank %u at tick %llu not allowed", rf->ops->name, bank,
               (unsigned long long)tick);
    rf->bank[bank].busy_until = tick + ticks;
    rf->bank[bank].start = tick;
    rf->acc[s]++;
    rf->st.writes++;
    rf_bank_hist_add_(&rf->st.writes_by_bank, bank, 1);
    rf_bank_hist_add_(&rf->st.busy_by_bank, bank, ticks);
}

void rf_kernel_start(struct rf *rf, const struct rf_kernel_info *ki)
{
    if (rf->ops->kernel_start)
        rf->ops->kernel_start(rf->ps, ki);
}

void rf_stats_register(struct rf *rf, struct stats *reg, const char *group, int instance)
{
    stats_counter(reg, group, instance, "reads", &rf->st.reads, "register-bank reads (32-bit warp registers)");
    stats_counter(reg, group, instance, "writes", &rf->st.writes, "register-bank writes (32-bit warp registers)");
    stats_hist(reg, group, instance, "reads_by_bank", &rf->st.reads_by_bank, "reads per bank (bin = bank)");
    stats_hist(reg, group, instance, "writes_by_bank", &rf->st.writes_by_bank, "writes per bank (bin = bank)");
    /* NOTE(busy-ticks): the total is the histogram's sample count (one
     * sample per busy tick), registered as a counter. */
    stats_counter(reg, group, instance, "rf_busy_ticks", &rf->st.busy_by_bank.count,
                  "RF ticks banks spent in accesses, summed over banks (rf.clock_mult ticks per pipeline cycle)");
    stats_hist(reg, group, instance, "rf_busy_by_bank", &rf->st.busy_by_bank,
               "RF ticks each bank spent in accesses (bin = bank)");
    stats_counter(reg, group, instance, "rf_wb_taken", &rf->st.wb_taken,
                  "written registers the register-file policy absorbed without a bank access (write buffer)");
    stats_counter(reg, group, instance, "rf_wb_refused", &rf->st.wb_refused,
                  "writebacks the register-file policy refused (result-cycles)");
    if (rf->ops->stats_register)
        rf->ops->stats_register(rf->ps, reg, group, instance);
}

void rf_check(const struct rf *rf)
{
    SIM_ASSERT(rf->n_banks >= 1 && rf->n_banks <= RF_MAX_BANKS && rf->mult >= 1 && rf->mult <= RF_MAX_CLOCK_MULT,
               "rf: geometry corrupt (%u banks, clock_mult %u)", rf->n_banks, rf->mult);
    for (uint32_t i = 0; i < rf->mult; i++)
        SIM_ASSERT(rf->acc[i] <= rf->max_acc, "rf: %u accesses started at tick %u of cycle %llu (limit %u)",
                   rf->acc[i], i, (unsigned long long)rf->acc_cycle, rf->max_acc);
    SIM_ASSERT(rf->st.reads_by_bank.count == rf->st.reads && rf->st.writes_by_bank.count == rf->st.writes,
               "rf: per-bank counts (%llu reads, %llu writes) disagree with totals (%llu, %llu)",
               (unsigned long long)rf->st.reads_by_bank.count, (unsigned long long)rf->st.writes_by_bank.count,
               (unsigned long long)rf->st.reads, (unsigned long long)rf->st.writes);
}
