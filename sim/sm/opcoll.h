/* sim/sm/opcoll.h: operand collector units, register banks and the bank
 * arbiter of one SM, cycle-driven in the SM pipeline clock (spec
 * baseline-gpu.md 1.2 "Register file" / "Operand collectors", 2.4, 3.2,
 * 4.2; docs/pipes.md).
 *
 * What is modelled:
 *  - `rf.n_banks` register banks (16) of `rf.entries_per_bank` warp
 *    registers (64 x 128 B). Register r of warp w lives in bank
 *    (r + w) mod n_banks ([GPGPU-Sim]). A bank serves one access per cycle;
 *    an access keeps it busy for the cycles the register-file policy returns
 *    (struct rf_policy; SRAM: 1). At most `rf.max_bank_accesses_per_cycle`
 *    banks start an access per cycle (002: 4; default 16 = unlimited).
 *  - Collector units in three sets, one per pipe kind (oc.units_sp / _sfu /
 *    _mem = 6 / 8 / 2). An issued instruction takes a free unit of its set
 *    (an "SP or SFU" instruction takes an SP unit when one is free and the SP
 *    set's issue width is not used up, else an SFU unit); at most
 *    oc.in_ports_<set> instructions enter a set per cycle (issue -> OC width
 *    2/1/1). opcoll_can_accept is the scheduler's "pipe busy" test.
 *  - Each source register is one read request (a register read twice is two
 *    requests), queued FIFO at its bank. Each cycle, after the writebacks
 *    have taken their banks (writes first), the arbiter visits the banks in
 *    rotating order starting at bank (now mod n_banks) and grants the front
 *    request of each bank that is free, as long as its collector unit has
 *    received fewer than rf.reads_per_unit reads this cycle ([GPGPU-Sim]:
 *    one, the allocator matches banks to distinct collector units; 0 =
 *    unlimited). A read granted at t with access time k is available at
 *    t + k; a unit whose reads are all available is ready to dispatch.
 *  - Statistics: reads, writes and conflict cycles per bank; collector
 *    occupancy per set.
 *
 * What is not modelled: the GPGPU-Sim wavefront allocator itself (the
 * rotating greedy match above gives the same one-per-bank /
 * one-per-unit constraints), operand forwarding/bypass, predicate
 * registers (a separate file without bank conflicts), a generic (GEN)
 * collector set (0 units in GTX480). Racetrack shifts, write buffers and
 * register caches are later policies behind struct rf_policy.
 *
 * Operation mix per cycle: <= n_banks grants; issue and dispatch are O(units).
 * Hot path: no allocation, all queues preallocated at init.
 */
#ifndef GPUSIM_SIM_SM_OPCOLL_H
#define GPUSIM_SIM_SM_OPCOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/common.h"
#include "sim/config.h"
#include "sim/sm/pipes.h"
#include "sim/stats.h"

struct cfg_section;

#define RF_MAX_BANKS 64     /* largest rf.n_banks */
#define OC_MAX_UNITS 64     /* largest oc.units_sp + oc.units_sfu + oc.units_mem */
#define OC_UNIT_NONE UINT32_MAX

/* ---------------------------------------------------------------- config */

enum rf_policy_kind { RF_POLICY_SRAM = 0 };

/* Section "rf" (declared in pipes_cfg.c). */
struct rf_cfg {
    uint64_t n_banks;          /* rf.n_banks (banks) per SM: 16 */
    uint64_t entries_per_bank; /* rf.entries_per_bank (warp registers of 128 B) per bank: 64 */
    uint64_t max_bank_accesses_per_cycle; /* rf.max_bank_accesses_per_cycle (accesses/cycle): 16 */
    uint64_t reads_per_unit;   /* rf.reads_per_unit (reads/cycle) one collector unit may receive; 0 = unlimited */
    int policy;                /* rf.policy: enum rf_policy_kind (sram) */
};

/* Section "oc" (declared in pipes_cfg.c). */
struct oc_cfg {
    uint64_t units[PIPE_N_KINDS];    /* oc.units_sp / _sfu / _mem (collector units): 6 / 8 / 2 */
    uint64_t in_ports[PIPE_N_KINDS]; /* oc.in_ports_sp / _sfu / _mem (instructions/cycle) issue -> OC: 2 / 1 / 1 */
    uint64_t out_ports[PIPE_N_KINDS]; /* oc.out_ports_sp / _sfu / _mem (instructions/cycle) OC -> EX: 2 / 1 / 1 */
};

extern const struct cfg_key rf_cfg_keys[];
extern const size_t rf_cfg_n_keys;
extern const struct cfg_key oc_cfg_keys[];
extern const size_t oc_cfg_n_keys;
extern const struct cfg_section rf_cfg_section;
extern const struct cfg_section oc_cfg_section;
void rf_cfg_defaults(struct rf_cfg *c);
void oc_cfg_defaults(struct oc_cfg *c);
/* Number of violated rules, each reported (may be NULL) with key and message. */
typedef void (*opcoll_cfg_report_fn)(void *ctx, const char *key, const char *msg);
int opcoll_cfg_validate(const struct rf_cfg *rf, const struct oc_cfg *oc, opcoll_cfg_report_fn report, void *ctx);

/* ---------------------------------------------------------------- policy */

/* Register-file technology hook (rf-racetrack-mao.md, rf-ltrf.md): how many
 * cycles one access keeps its bank busy; the value is available (read) or
 * the bank free again (write) after that many cycles. May keep per-bank
 * state in pstate (e.g. a racetrack's shift position). Must return >= 1. */
struct rf_policy {
    const char *name;
    uint32_t (*access_cycles)(void *pstate, uint32_t bank, uint32_t warp, uint32_t reg, bool is_write,
                              cycle_t now);
};
extern const struct rf_policy rf_policy_sram; /* 1 cycle per access (spec 3.2) */

/* ---------------------------------------------------------------- state */

struct oc_read {
    uint16_t unit;    /* collector unit index */
    uint16_t reg;     /* register read */
};

/* One bank's FIFO of read requests (ring of `cap` entries). */
struct rf_bank {
    struct oc_read *q;   /* [cap] ring */
    uint32_t head, n;    /* ring head index, queued requests */
    cycle_t busy_until;  /* first cycle the bank can start a new access */
};

struct oc_unit {
    bool busy;           /* holds an instruction */
    uint8_t set;         /* enum pipe_kind of its set */
    uint32_t n_pending;  /* reads not yet granted */
    cycle_t ready_at;    /* cycle the last granted read is available */
    cycle_t issued_at;   /* issue cycle (reads start the cycle after) */
    cycle_t grant_cycle; /* cycle of the last grant (per-unit read limit) */
    uint32_t grants_now; /* grants received in grant_cycle */
    uint64_t seq;        /* issue order (oldest-first dispatch) */
    struct pipe_op op;   /* the instruction */
};

struct opcoll {
    struct rf_cfg rf;                 /* copy of the configuration */
    struct oc_cfg cfg;                /* copy of the configuration */
    const struct rf_policy *pol;      /* register-file technology */
    void *pol_state;                  /* its state */
    uint32_t n_banks;                 /* banks */
    uint32_t n_units;                 /* collector units, sets in kind order */
    uint32_t first[PIPE_N_KINDS + 1]; /* first unit index of each set; first[N] = n_units */
    struct rf_bank banks[RF_MAX_BANKS];
    struct oc_unit *units;            /* [n_units] */
    cycle_t cyc;                      /* cycle of the per-cycle counters below */
    uint32_t acc_now;                 /* bank accesses started in cycle cyc */
    uint32_t in_now[PIPE_N_KINDS];    /* instructions entered per set in cycle cyc */
    uint32_t n_busy[PIPE_N_KINDS];    /* busy units per set */
    uint32_t reads_queued;            /* read requests waiting at all banks */
    uint64_t seq;                     /* issues so far */
    cycle_t occ_mark;                 /* occupancy integrated up to this cycle */
    uint64_t busy_unit_cycles[PIPE_N_KINDS]; /* statistics: sum over cycles of busy units per set */
    uint64_t issued[PIPE_N_KINDS];    /* statistics: instructions entering each set */
    uint64_t reads, writes;           /* statistics: register reads / writes (accesses) */
    uint64_t conflict_cycles;         /* statistics: bank-cycles that left a read waiting after arbitration */
    struct stat_hist reads_by_bank;   /* statistics: bin b = reads served by bank b */
    struct stat_hist writes_by_bank;  /* statistics: bin b = writes served by bank b */
    struct stat_hist conflicts_by_bank; /* statistics: bin b = conflict cycles of bank b */
};

/* ---------------------------------------------------------------- API */

/* pol NULL = the configured policy (rf.policy). Config must validate. */
void opcoll_init(struct opcoll *oc, const struct rf_cfg *rf, const struct oc_cfg *cfg,
                 const struct rf_policy *pol, void *pol_state);
void opcoll_fini(struct opcoll *oc);

static inline uint32_t opcoll_bank_of(const struct opcoll *oc, uint32_t warp, uint32_t reg)
{
    return (reg + warp) % oc->n_banks;
}

/* May an instruction of class cls issue at cycle now (a free unit of an
 * allowed set whose issue width is not used up)? Pure. */
bool opcoll_can_accept(struct opcoll *oc, enum pipe_class cls, cycle_t now);
/* Issue op (class op->cls) at cycle now, after pipes_tick(now). Returns the
 * collector unit; panics when opcoll_can_accept is false. Sets op->kind. */
uint32_t opcoll_issue(struct opcoll *oc, const struct pipe_op *op, cycle_t now);

/* Used by pipes_tick. Ready units of a set at cycle now, oldest first
 * (at most max written to out); returns the count. */
uint32_t opcoll_ready(struct opcoll *oc, enum pipe_kind set, cycle_t now, uint32_t *out, uint32_t max);
static inline const struct pipe_op *opcoll_op(const struct opcoll *oc, uint32_t unit) { return &oc->units[unit].op; }
/* The unit's instruction left for its pipe at cycle now; the unit is free. */
void opcoll_release(struct opcoll *oc, uint32_t unit, cycle_t now);
/* Writeback: start writes of regs[0..n) of warp at cycle now if every bank
 * involved is free and the per-cycle access limit allows; all or nothing.
 * Call before opcoll_read_tick(now) (writes have priority). */
bool opcoll_write(struct opcoll *oc, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now);
/* Bank arbitration for reads at cycle now. Returns the next cycle with
 * work of its own (reads queued or a unit becoming ready), else CYCLE_NEVER. */
cycle_t opcoll_read_tick(struct opcoll *oc, cycle_t now);

static inline uint32_t opcoll_busy(const struct opcoll *oc, enum pipe_kind set) { return oc->n_busy[set]; }
void opcoll_stats_register(struct opcoll *oc, struct stats *reg, const char *group, int instance);
/* Bring the occupancy integral up to cycle now (before reading statistics). */
void opcoll_stats_sync(struct opcoll *oc, cycle_t now);
/* Invariants (ring bounds, pending-read conservation); panics naming the unit. */
void opcoll_check(const struct opcoll *oc);

#endif /* GPUSIM_SIM_SM_OPCOLL_H */
