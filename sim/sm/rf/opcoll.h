/* sim/sm/rf/opcoll.h: operand collector units and the bank arbiter of one SM,
 * cycle-driven in the SM pipeline clock (spec baseline-gpu.md 1.2
 * "Register file" / "Operand collectors", 2.4, 3.2, 4.2; docs/pipes.md).
 * The register banks themselves (mapping, busy state, technology policy,
 * RF clock) are the register-file unit `struct rf` (sim/sm/rf/rf.h,
 * docs/rf.md), a member of the collector: `oc->rf`.
 *
 * What is modelled:
 *  - Collector units in three sets, one per pipe kind (oc.units_sp / _sfu /
 *    _mem = 6 / 8 / 2). An issued instruction takes a free unit of its set
 *    (an "SP or SFU" instruction takes an SP unit when one is free and the SP
 *    set's issue width is not used up, else an SFU unit); at most
 *    oc.in_ports_<set> instructions enter a set per cycle (issue -> OC width
 *    2/1/1). opcoll_can_accept is the scheduler's "pipe busy" test.
 *  - Each source register is one read request (a register read twice is two
 *    requests), queued FIFO at the bank the register file maps it to
 *    (rf_bank_of; SRAM: (r + w) mod n_banks). Each RF tick (rf.clock_mult
 *    per cycle; 1 by default), after the writebacks have taken their banks
 *    (writes first), the arbiter visits the banks in rotating order starting
 *    at bank (tick mod n_banks) and grants the front request of each bank
 *    the register file reports free, as long as the per-tick access limit
 *    allows and its collector unit has received fewer than
 *    rf.reads_per_unit reads this tick ([GPGPU-Sim]: one, the allocator
 *    matches banks to distinct collector units; 0 = unlimited). A read
 *    granted at tick T with access time k is available at cycle
 *    ceil((T + k) / clock_mult); a unit whose reads are all available is
 *    ready to dispatch.
 *  - Statistics: conflict cycles per bank; collector occupancy per set
 *    (reads and writes per bank are the register file's).
 *
 * What is not modelled: the GPGPU-Sim wavefront allocator itself (the
 * rotating greedy match above gives the same one-per-bank /
 * one-per-unit constraints), operand forwarding/bypass, predicate
 * registers (a separate file without bank conflicts), a generic (GEN)
 * collector set (0 units in GTX480). Racetrack shifts, write buffers and
 * register caches are register-file policies (struct rf_policy_ops).
 *
 * Operation mix per cycle: <= n_banks grants per RF tick; issue and
 * dispatch are O(units). Hot path: no allocation, all queues preallocated.
 */
#ifndef GPUSIM_SIM_SM_RF_OPCOLL_H
#define GPUSIM_SIM_SM_RF_OPCOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/rf/rf.h"
#include "sim/base/stats.h"

struct cfg_section;

#define OC_MAX_UNITS 64     /* largest oc.units_sp + oc.units_sfu + oc.units_mem */
#define OC_UNIT_NONE UINT32_MAX

/* ---------------------------------------------------------------- config */

/* Section "rf": struct rf_cfg in sim/sm/rf/rf.h. */

/* Section "oc" (declared in sim/sm/rf/rf_cfg.c). */
struct oc_cfg {
    uint64_t units[PIPE_N_KINDS];    /* oc.units_sp / _sfu / _mem (collector units): 6 / 8 / 2 */
    uint64_t in_ports[PIPE_N_KINDS]; /* oc.in_ports_sp / _sfu / _mem (instructions/cycle) issue -> OC: 2 / 1 / 1 */
    uint64_t out_ports[PIPE_N_KINDS]; /* oc.out_ports_sp / _sfu / _mem (instructions/cycle) OC -> EX: 2 / 1 / 1 */
    uint64_t alloc_delay;            /* oc.alloc_delay (cycles): issue -> collector allocation latch before the
                                        first read may be granted ([GPGPU-Sim] ID_OC latch: 1) */
    int unit_map;                    /* oc.unit_map: which pipes each class may use (enum pipes_unit_map) */
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

/* ---------------------------------------------------------------- state */

struct oc_read {
    uint16_t unit;    /* collector unit index */
    uint16_t reg;     /* register read */
};

/* One bank's FIFO of read requests (ring of `cap` entries). */
struct oc_bankq {
    struct oc_read *q;   /* [cap] ring */
    uint32_t head, n;    /* ring head index, queued requests */
};

struct oc_unit {
    bool busy;           /* holds an instruction */
    uint8_t set;         /* enum pipe_kind of its set */
    uint32_t n_pending;  /* reads not yet granted */
    cycle_t ready_at;    /* cycle the last granted read is available */
    cycle_t issued_at;   /* cycle the unit was allocated (the issue cycle with oc.alloc_delay 0) */
    cycle_t read_from;   /* first cycle its reads compete: allocation + 1 */
    cycle_t grant_tick;  /* RF tick of the last grant (per-unit read limit) */
    uint32_t grants_now; /* grants received at grant_tick */
    uint64_t seq;        /* issue order (oldest-first dispatch) */
    struct pipe_op op;   /* the instruction */
};

#define OC_LATCH_MAX 32 /* largest oc.in_ports_<set> x oc.alloc_delay */

/* An issued instruction waiting in a set's issue -> collector latch. */
struct oc_latched {
    struct pipe_op op; /* the instruction */
    cycle_t since;     /* issue cycle */
};

struct opcoll {
    struct rf rf;                     /* the register-file unit (banks, policy, RF clock) */
    struct oc_cfg cfg;                /* copy of the configuration */
    uint32_t reads_per_unit;          /* rf.reads_per_unit: grants per unit per RF tick, 0 = unlimited */
    uint32_t n_banks;                 /* banks (= rf.n_banks) */
    uint32_t n_units;                 /* collector units, sets in kind order */
    uint32_t first[PIPE_N_KINDS + 1]; /* first unit index of each set; first[N] = n_units */
    struct oc_bankq banks[RF_MAX_BANKS]; /* read request FIFO per bank */
    uint64_t bank_mask;               /* bit b set: banks[b] holds queued reads (RF_MAX_BANKS <= 64) */
    uint64_t collected;               /* bit u set: unit u is busy with every read granted
                                         (NOTE(collected-mask); OC_MAX_UNITS <= 64) */
    uint64_t set_units[PIPE_N_KINDS]; /* bits of the units of each set */
    uint8_t cls_pipes[PIPE_C_COUNT];  /* PIPE_M_* each class may use, from oc.unit_map (pipes_class_pipes) */
    struct oc_unit *units;            /* [n_units] */
    cycle_t cyc;                      /* cycle of the per-cycle counters below */
    uint32_t in_now[PIPE_N_KINDS];    /* instructions entered per set in cycle cyc */
    uint32_t n_busy[PIPE_N_KINDS];    /* busy units per set */
    uint8_t open;                     /* bit k: set k takes an instruction in cycle cyc (NOTE(open-mask)) */
    uint8_t room;                     /* bit k: set k has a free unit (with oc.alloc_delay: latch entry) */
    uint8_t ports;                    /* bit k: oc.in_ports of set k > 0 */
    struct oc_latched latch[PIPE_N_KINDS][OC_LATCH_MAX]; /* issue -> collector latches (oc.alloc_delay > 0), FIFO */
    uint32_t latch_head[PIPE_N_KINDS], latch_n[PIPE_N_KINDS]; /* FIFO head index and fill per set (entries) */
    uint32_t latch_cap[PIPE_N_KINDS]; /* latch entries per set: oc.in_ports_<set> x oc.alloc_delay */
    uint32_t reads_queued;            /* read requests waiting at all banks */
    uint64_t seq;                     /* issues so far */
    cycle_t occ_mark;                 /* occupancy integrated up to this cycle */
    uint64_t busy_unit_cycles[PIPE_N_KINDS]; /* statistics: sum over cycles of busy units per set */
    uint64_t issued[PIPE_N_KINDS];    /* statistics: instructions entering each set */
    uint64_t conflict_cycles;         /* statistics: bank-ticks that left a read waiting after arbitration */
    struct stat_hist conflicts_by_bank; /* statistics: bin b = conflict ticks of bank b */
};

/* ---------------------------------------------------------------- API */

/* Initialises the collectors and their register-file unit oc->rf.
 * pol NULL = the configured policy (rf.policy); pol_arg goes to the
 * policy's create hook. Config must validate. */
void opcoll_init(struct opcoll *oc, const struct rf_cfg *rf, const struct oc_cfg *cfg,
                 const struct rf_policy_ops *pol, void *pol_arg);
void opcoll_fini(struct opcoll *oc);
/* A kernel starts on the SM: tell the register file (rf_kernel_start). */
void opcoll_kernel_start(struct opcoll *oc, const struct rf_kernel_info *ki);

/* Everything opcoll_can_accept reads at cycle now, packed (busy units and
 * instructions entered this cycle and latched per set; 60 bits): equal values give
 * equal answers for every class. */
uint64_t opcoll_res_sig(const struct opcoll *oc, cycle_t now);
/* Start cycle now's per-cycle counters (called by the functions below). */
void opcoll_new_cycle(struct opcoll *oc, cycle_t now);
/* May an instruction of class cls issue at cycle now (a free unit, or with
 * oc.alloc_delay a free latch entry, of an allowed set whose issue width is
 * not used up)? Inline: the scheduler asks it for every candidate warp
 * (NOTE(open-mask) in opcoll.c). */
static inline bool opcoll_can_accept(struct opcoll *oc, enum pipe_class cls, cycle_t now)
{
    if (__builtin_expect(oc->cyc != now, 0))
        opcoll_new_cycle(oc, now);
    return (oc->cls_pipes[cls] & oc->open) != 0;
}
/* Issue op (class op->cls) at cycle now, after pipes_tick(now). Returns the
 * collector unit, or OC_UNIT_NONE when the op waits in the set's latch
 * (oc.alloc_delay > 0); panics when opcoll_can_accept is false. */
uint32_t opcoll_issue(struct opcoll *oc, const struct pipe_op *op, cycle_t now);
/* The same for op with its warp and tag replaced (NOTE(issue-as)). */
uint32_t opcoll_issue_as(struct opcoll *oc, const struct pipe_op *op, uint32_t warp, uint64_t tag, cycle_t now);

/* Used by pipes_tick. Ready units of a set at cycle now, oldest first
 * (at most max written to out); returns the count. A set without a unit
 * whose reads are all granted has none, answered without a call
 * (NOTE(idle-inline) in sim/icnt/icnt.h; asked for every set every cycle). */
uint32_t opcoll_ready_work(struct opcoll *oc, enum pipe_kind set, cycle_t now, uint32_t *out, uint32_t max);
static inline uint32_t opcoll_ready(struct opcoll *oc, enum pipe_kind set, cycle_t now, uint32_t *out, uint32_t max)
{
    if (!(oc->collected & oc->set_units[set]))
        return 0;
    return opcoll_ready_work(oc, set, now, out, max);
}
static inline const struct pipe_op *opcoll_op(const struct opcoll *oc, uint32_t unit) { return &oc->units[unit].op; }
/* The unit's instruction left for its pipe at cycle now; the unit is free. */
void opcoll_release(struct opcoll *oc, uint32_t unit, cycle_t now);
/* Writeback: rf_write (the policy may absorb or refuse the write; else
 * every bank involved must be free at one tick of the cycle and the
 * access limit allow; all or nothing). Call before opcoll_read_tick(now)
 * (writes have priority). */
bool opcoll_write(struct opcoll *oc, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now);
/* Bank arbitration for reads at every RF tick of cycle now, then the
 * register file's own tick (rf_tick). Returns the next cycle with work
 * (reads queued, a unit becoming ready, or the policy's next cycle), else
 * CYCLE_NEVER. blocked: bit k set when set k's ready units cannot dispatch
 * until the pipes make room, which asks for its own tick; they are then no
 * reason to tick (NOTE(mem-backpressure) in pipes.c). */
cycle_t opcoll_read_tick(struct opcoll *oc, cycle_t now, uint32_t blocked);

static inline uint32_t opcoll_busy(const struct opcoll *oc, enum pipe_kind set) { return oc->n_busy[set]; }
/* Statistics of the collectors and of the register file (rf_stats_register,
 * same group). */
void opcoll_stats_register(struct opcoll *oc, struct stats *reg, const char *group, int instance);
/* Bring the occupancy integral up to cycle now (before reading statistics). */
void opcoll_stats_sync(struct opcoll *oc, cycle_t now);
/* Invariants (ring bounds, pending-read conservation, rf_check); panics naming the unit. */
void opcoll_check(const struct opcoll *oc);

#endif /* GPUSIM_SIM_SM_RF_OPCOLL_H */
