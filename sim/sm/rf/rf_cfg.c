/* sim/sm/rf/rf_cfg.c: configuration sections rf.* (the register-file unit,
 * sim/sm/rf/rf.c) and oc.* (operand collectors, sim/sm/rf/opcoll.c), gtx480
 * defaults from spec baseline-gpu.md 1.2, 3.2 and 4.2.
 *
 * NOTE(three-sections): the spec names the collector counts `oc.units_sp`
 * etc., so the collector keys form their own section `oc` (spec names kept)
 * next to `rf` and `pipes` (sim/sm/exec/pipes_cfg.c).
 * NOTE(rf-policy-list): rf.policy's choices come from RF_POLICY_LIST in
 * sim/sm/rf/rf.h, so a new policy is one line there plus its file.
 * NOTE(rf-geometry): rf.n_banks x rf.entries_per_bank warp registers of 32
 * lanes must hold sm.n_regs 32-bit registers exactly (16 x 64 x 32 = 32768).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/rf/rm_prof.h"

void rf_cfg_defaults(struct rf_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->n_banks = 16;
    c->entries_per_bank = 64;
    c->max_bank_accesses_per_cycle = 16;
    c->reads_per_unit = 1;
    c->clock_mult = 1;
    c->busy_holds_slot = false;
    c->policy = RF_POLICY_SRAM;
    c->rm_ports = 4;
    c->rm_domains = 0;
    c->rm_layout = RF_RM_REMAP;
    c->rm_read_ticks = 1;
    c->rm_write_ticks = 2;
    c->rm_shift_ticks = 1;
    c->rm_preshift = false;
    c->rm_wb_entries = 2;
    c->rm_wb_policy = RF_RM_WB_PIGGYBACK;
    c->rm_wb_forward = true;
    c->rm_wb_void = true;
    c->rm_profile_out = NULL; /* "none": the key table's default is applied by the config loader */
    c->rm_profile_in = NULL;
    c->rm_group_cmp = 0;
    c->rm_arrange = 0;
}

void oc_cfg_defaults(struct oc_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->units[PIPE_SP] = 6;
    c->units[PIPE_SFU] = 8;
    c->units[PIPE_MEM] = 2;
    c->in_ports[PIPE_SP] = 2;
    c->in_ports[PIPE_SFU] = 1;
    c->in_ports[PIPE_MEM] = 1;
    c->out_ports[PIPE_SP] = 2;
    c->out_ports[PIPE_SFU] = 1;
    c->out_ports[PIPE_MEM] = 1;
    c->alloc_delay = 1;
    c->unit_map = PIPES_MAP_GPGPUSIM3;
}


int opcoll_cfg_validate(const struct rf_cfg *rf, const struct oc_cfg *oc, opcoll_cfg_report_fn report, void *ctx)
{
    int n = 0;
    CFG_RULE(rf->n_banks >= 1 && rf->n_banks <= RF_MAX_BANKS, "rf.n_banks", "%llu out of range 1..%d",
         (unsigned long long)rf->n_banks, RF_MAX_BANKS);
    CFG_RULE(rf->max_bank_accesses_per_cycle >= 1, "rf.max_bank_accesses_per_cycle", "must be >= 1");
    CFG_RULE(rf->clock_mult >= 1 && rf->clock_mult <= RF_MAX_CLOCK_MULT, "rf.clock_mult", "%llu out of range 1..%d",
         (unsigned long long)rf->clock_mult, RF_MAX_CLOCK_MULT);
    CFG_RULE(rf->policy >= 0 && rf->policy < RF_POLICY_COUNT, "rf.policy", "unknown policy %d", rf->policy);
    if (rf->policy == RF_POLICY_RM) {
        uint64_t dom = rf->rm_domains ? rf->rm_domains : rf->entries_per_bank;
        CFG_RULE(rf->rm_ports >= 1 && dom % rf->rm_ports == 0, "rf.rm_ports",
                 "%llu ports must divide the %llu domains per track (rf.rm_domains, 0 = rf.entries_per_bank)",
                 (unsigned long long)rf->rm_ports, (unsigned long long)dom);
        CFG_RULE(dom >= rf->entries_per_bank, "rf.rm_domains",
                 "%llu domains per track cannot hold rf.entries_per_bank = %llu warp registers",
                 (unsigned long long)dom, (unsigned long long)rf->entries_per_bank);
        CFG_RULE(rf->rm_ports >= 1 && dom / rf->rm_ports <= 1024, "rf.rm_ports",
                 "segment of %llu domains per port exceeds 1024", (unsigned long long)(dom / (rf->rm_ports ? rf->rm_ports : 1)));
    }
    static const char *const ukeys[PIPE_N_KINDS] = {"oc.units_sp", "oc.units_sfu", "oc.units_mem"};
    static const char *const ikeys[PIPE_N_KINDS] = {"oc.in_ports_sp", "oc.in_ports_sfu", "oc.in_ports_mem"};
    static const char *const okeys[PIPE_N_KINDS] = {"oc.out_ports_sp", "oc.out_ports_sfu", "oc.out_ports_mem"};
    uint64_t total = 0;
    for (int k = 0; k < PIPE_N_KINDS; k++) {
        CFG_RULE(oc->units[k] >= 1, ukeys[k], "must be >= 1 (every pipe kind needs a collector unit)");
        CFG_RULE(oc->in_ports[k] >= 1, ikeys[k], "must be >= 1");
        CFG_RULE(oc->out_ports[k] >= 1 && oc->out_ports[k] <= OC_MAX_UNITS, okeys[k], "out of range 1..%d",
             OC_MAX_UNITS);
        CFG_RULE(oc->in_ports[k] * oc->alloc_delay <= OC_LATCH_MAX, ikeys[k],
                 "x oc.alloc_delay = %llu latch entries exceeds %d", (unsigned long long)(oc->in_ports[k] * oc->alloc_delay),
                 OC_LATCH_MAX);
        total += oc->units[k];
    }
    CFG_RULE(total <= OC_MAX_UNITS, "oc.units_sp", "oc.units_sp + oc.units_sfu + oc.units_mem = %llu exceeds %d",
         (unsigned long long)total, OC_MAX_UNITS);
    return n;
}


/* One choice per RF_POLICY_LIST line (rf.h), in enum order. */
static const char *const rf_policy_choices[] = {
#define RF_X_(e, n, t) n,
    RF_POLICY_LIST(RF_X_)
#undef RF_X_
    NULL};

static const char *const rf_rm_layout_choices[] = {"original", "remap", "warp_reg_remap", "liang", "ideal", NULL};
static const char *const rf_rm_wb_choices[] = {"piggyback", "priority", NULL};
static const char *const rf_rm_group_choices[] = {"total", "per_node", NULL};
static const char *const rf_rm_arrange_choices[] = {"exact_dp", "enum", "local", NULL};

const struct cfg_key rf_cfg_keys[] = {
    {"n_banks", CFG_UINT, offsetof(struct rf_cfg, n_banks), 1, RF_MAX_BANKS, "16", NULL,
     "register banks per SM; the policy maps registers to banks (sram: register r of warp w in bank "
     "(r + w) mod n_banks, [GPGPU-Sim])"},
    {"entries_per_bank", CFG_UINT, offsetof(struct rf_cfg, entries_per_bank), 1, 65536, "64", NULL,
     "warp registers (32 x 32 bit = 128 B) per bank; n_banks x entries x 32 = sm.n_regs"},
    {"max_bank_accesses_per_cycle", CFG_UINT, offsetof(struct rf_cfg, max_bank_accesses_per_cycle), 1, 1024, "16",
     NULL, "banks that may start an access (read or write) per RF tick (= pipeline cycle at rf.clock_mult 1; "
           "002: 4; >= n_banks = unlimited)"},
    {"reads_per_unit", CFG_UINT, offsetof(struct rf_cfg, reads_per_unit), 0, 64, "1", NULL,
     "operand reads one collector unit may receive per RF tick (GPGPU-Sim allocator: 1; 0 = unlimited)"},
    {"clock_mult", CFG_UINT, offsetof(struct rf_cfg, clock_mult), 1, RF_MAX_CLOCK_MULT, "1", NULL,
     "register-file clock in ticks per SM pipeline cycle: bank accesses, the access limit and the collector's "
     "arbitration run per tick (Mao's racetrack RF: 2)"},
    {"busy_holds_slot", CFG_BOOL, offsetof(struct rf_cfg, busy_holds_slot), 0, 0, "false", NULL,
     "a bank busy with a multi-tick access (a racetrack shift) uses one of the rf.max_bank_accesses_per_cycle "
     "slots every tick, not only when it starts (Liang Fig. 10, OQ-8); false = only starts count"},
    {"policy", CFG_ENUM, offsetof(struct rf_cfg, policy), 0, 0, "sram", rf_policy_choices,
     "register-file technology behind struct rf_policy_ops (docs/rf.md): sram = 1 tick per access, bank "
     "(r + w) mod n_banks; rm = racetrack memory (docs/racetrack.md, keys rf.rm_*)"},
    {"rm_ports", CFG_UINT, offsetof(struct rf_cfg, rm_ports), 1, 1024, "4", NULL,
     "rm: access ports per track; a port serves rm_domains / rm_ports rows (Mao 4P: 4; Liang: 8)"},
    {"rm_domains", CFG_UINT, offsetof(struct rf_cfg, rm_domains), 0, 65536, "0", NULL,
     "rm: data domains (rows) per track; 0 = rf.entries_per_bank (Mao 64; Liang OQ-1: 128 for 256 KB)"},
    {"rm_layout", CFG_ENUM, offsetof(struct rf_cfg, rm_layout), 0, 0, "remap", rf_rm_layout_choices,
     "rm: row of each warp register: original (warp-major from row 0), remap (Mao Eq. 3.3, centred), "
     "warp_reg_remap (a bank subset per scheduler), liang (profile-guided, rf.rm_profile_in), ideal (no shift)"},
    {"rm_read_ticks", CFG_UINT, offsetof(struct rf_cfg, rm_read_ticks), 1, 64, "1", NULL,
     "rm: RF ticks of an aligned read (Mao: 1 at 1400 MHz)"},
    {"rm_write_ticks", CFG_UINT, offsetof(struct rf_cfg, rm_write_ticks), 1, 64, "2", NULL,
     "rm: RF ticks of an aligned write (Mao: 2 at 1400 MHz; Liang: 1 at 700 MHz)"},
    {"rm_shift_ticks", CFG_UINT, offsetof(struct rf_cfg, rm_shift_ticks), 1, 64, "1", NULL,
     "rm: RF ticks per one-domain shift step of a bank (both papers: 1)"},
    {"rm_preshift", CFG_BOOL, offsetof(struct rf_cfg, rm_preshift), 0, 0, "false", NULL,
     "rm: banks without an access shift toward their next queued request (Liang's preshifting)"},
    {"rm_wb_entries", CFG_UINT, offsetof(struct rf_cfg, rm_wb_entries), 0, 64, "2", NULL,
     "rm: write-buffer entries (warp registers) per bank; 0 = no write buffer (Mao and Liang: 2)"},
    {"rm_wb_policy", CFG_ENUM, offsetof(struct rf_cfg, rm_wb_policy), 0, 0, "piggyback", rf_rm_wb_choices,
     "rm: piggyback (Mao: write an entry when its row passes the ports or the bank idles; full: write "
     "through) or priority (Liang: oldest entry first whenever the bank is free; full: stall the writeback)"},
    {"rm_wb_forward", CFG_BOOL, offsetof(struct rf_cfg, rm_wb_forward), 0, 0, "true", NULL,
     "rm: a read of a buffered register is served by the write buffer (Mao: yes; Liang: no)"},
    {"rm_wb_void", CFG_BOOL, offsetof(struct rf_cfg, rm_wb_void), 0, 0, "true", NULL,
     "rm: a newer write of a buffered register replaces it, the older value never reaches the bank (Mao: yes)"},
    {"rm_profile_out", CFG_STRING, offsetof(struct rf_cfg, rm_profile_out), 1, 0, "none", NULL,
     "rm: write each bank's move counts (Liang's profile) to <value>.sm<id> at exit; none = off"},
    {"rm_profile_in", CFG_STRING, offsetof(struct rf_cfg, rm_profile_in), 1, 0, "none", NULL,
     "rm: move counts (the prefix given to rm_profile_out) that rm_layout = liang maps from; none"},
    {"rm_group", CFG_ENUM, offsetof(struct rf_cfg, rm_group_cmp), 0, 0, "total", rf_rm_group_choices,
     "rm liang: Algorithm 1's single-vs-pair test: total (paper) or per_node (Liang OQ-3)"},
    {"rm_arrange", CFG_ENUM, offsetof(struct rf_cfg, rm_arrange), 0, 0, "exact_dp", rf_rm_arrange_choices,
     "rm liang: group arrangement: exact_dp (optimal, subset DP), enum (the paper's enumeration, <= 10 "
     "groups), local (DP on 20 groups + hill climbing)"},
};

const size_t rf_cfg_n_keys = ARRAY_LEN(rf_cfg_keys);

static void opcoll_check_report(void *ctx, const char *key, const char *msg) { cfg_check_fail(ctx, key, "%s", msg); }

static void rf_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct rf_cfg *rf = sec;
    opcoll_cfg_validate(rf, &all->oc, opcoll_check_report, ck);
    if (rf->n_banks * rf->entries_per_bank * 32 != all->sm.n_regs)
        cfg_check_fail(ck, "rf.entries_per_bank",
                       "rf.n_banks %llu x rf.entries_per_bank %llu x 32 lanes = %llu registers, but sm.n_regs is "
                       "%llu (rule: the banks hold the whole register file)",
                       (unsigned long long)rf->n_banks, (unsigned long long)rf->entries_per_bank,
                       (unsigned long long)(rf->n_banks * rf->entries_per_bank * 32),
                       (unsigned long long)all->sm.n_regs);
    if (rf->policy == RF_POLICY_RM && rf->rm_layout == RF_RM_LIANG) {
        const char *in = rm_prof_path(rf->rm_profile_in);
        if (!in) {
            cfg_check_fail(ck, "rf.rm_layout", "liang needs rf.rm_profile_in (a profiling run's rf.rm_profile_out)");
        } else {
            char path[4096];
            snprintf(path, sizeof path, "%s.sm0", in);
            FILE *f = fopen(path, "r");
            if (!f)
                cfg_check_fail(ck, "rf.rm_profile_in", "%s not found (run the profiling run with rf.rm_profile_out = %s)",
                               path, in);
            else
                fclose(f);
        }
    }
    if (rf->policy == RF_POLICY_RM && rf->rm_layout == RF_RM_WARP_REG_REMAP && all->sched.n_sched > 1 &&
        rf->n_banks % all->sched.n_sched)
        cfg_check_fail(ck, "rf.rm_layout", "warp_reg_remap needs sched.n_sched (%llu) to divide rf.n_banks (%llu)",
                       (unsigned long long)all->sched.n_sched, (unsigned long long)rf->n_banks);
}

const struct cfg_section rf_cfg_section = {"rf", "register file banks (operand reads and writebacks)",
                                           offsetof(struct sim_cfg, rf), rf_cfg_keys, ARRAY_LEN(rf_cfg_keys), rf_cfg_check};

const struct cfg_key oc_cfg_keys[] = {
    {"units_sp", CFG_UINT, offsetof(struct oc_cfg, units[PIPE_SP]), 1, OC_MAX_UNITS, "6", NULL,
     "collector units feeding the SP pipes ([GPGPU-Sim], 000 ch. 3)"},
    {"units_sfu", CFG_UINT, offsetof(struct oc_cfg, units[PIPE_SFU]), 1, OC_MAX_UNITS, "8", NULL,
     "collector units feeding the SFU pipe ([GPGPU-Sim], 000 ch. 3)"},
    {"units_mem", CFG_UINT, offsetof(struct oc_cfg, units[PIPE_MEM]), 1, OC_MAX_UNITS, "2", NULL,
     "collector units feeding the LD/ST unit ([GPGPU-Sim], 000 ch. 3)"},
    {"in_ports_sp", CFG_UINT, offsetof(struct oc_cfg, in_ports[PIPE_SP]), 1, 64, "2", NULL,
     "instructions entering SP collectors per cycle (issue -> OC width, spec 3.2)"},
    {"in_ports_sfu", CFG_UINT, offsetof(struct oc_cfg, in_ports[PIPE_SFU]), 1, 64, "1", NULL,
     "instructions entering SFU collectors per cycle (issue -> OC width, spec 3.2)"},
    {"in_ports_mem", CFG_UINT, offsetof(struct oc_cfg, in_ports[PIPE_MEM]), 1, 64, "1", NULL,
     "instructions entering MEM collectors per cycle (issue -> OC width, spec 3.2)"},
    {"out_ports_sp", CFG_UINT, offsetof(struct oc_cfg, out_ports[PIPE_SP]), 1, OC_MAX_UNITS, "2", NULL,
     "SP collectors dispatching per cycle (OC -> EX width, spec 3.2)"},
    {"out_ports_sfu", CFG_UINT, offsetof(struct oc_cfg, out_ports[PIPE_SFU]), 1, OC_MAX_UNITS, "1", NULL,
     "SFU collectors dispatching per cycle (OC -> EX width, spec 3.2)"},
    {"out_ports_mem", CFG_UINT, offsetof(struct oc_cfg, out_ports[PIPE_MEM]), 1, OC_MAX_UNITS, "1", NULL,
     "MEM collectors dispatching per cycle (OC -> EX width, spec 3.2)"},
    {"alloc_delay", CFG_UINT, offsetof(struct oc_cfg, alloc_delay), 0, 8, "1", NULL,
     "cycles an issued instruction waits before its collector's reads compete ([GPGPU-Sim] ID_OC latch: 1)"},
    {"unit_map", CFG_ENUM, offsetof(struct oc_cfg, unit_map), 0, 0, "gpgpusim3", pipes_unit_map_names,
     "pipes each instruction class may use: gpgpusim3 (fp MUL on SP or SFU, int MUL/MAD on SFU) or gpgpusim4 "
     "(fp32 and int MUL/MAD on SP, fp64 on the SFU; docs/pipes.md)"},
};

const size_t oc_cfg_n_keys = ARRAY_LEN(oc_cfg_keys);

const struct cfg_section oc_cfg_section = {"oc", "operand collector units", offsetof(struct sim_cfg, oc), oc_cfg_keys,
                                           ARRAY_LEN(oc_cfg_keys), NULL};
