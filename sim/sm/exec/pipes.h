/* sim/sm/exec/pipes.h: the execution pipes of one SM (SP, SFU, MEM hand-off) and
 * the writeback stage, cycle-driven in the SM pipeline clock (spec
 * baseline-gpu.md 1.2 "Function units", 2.5, 3.2; docs/pipes.md).
 *
 * What is modelled:
 *  - Instruction classes (pipes_class_of): ADD / MAX (also MIN) / MUL / MAD /
 *    DIV for int, fp32 and fp64, SFU transcendentals, other ALU (logic,
 *    shifts, moves, compares, selects, conversions, branches, barriers) and
 *    MEM. Each class has a latency and an initiation interval (II) from the
 *    spec 3.2 table (a static table: the spec lists no keys for it) and a set
 *    of pipes it may run on: SFU only (int MUL/MAD, every DIV,
 *    transcendentals), SP or SFU with SP preferred (fp32/fp64 MUL), SP
 *    (everything else ALU; fp64 ADD/MAX/MAD run on SP with the fp64
 *    timings: there is no separate DP unit in the 3.x config), MEM. That
 *    is oc.unit_map = gpgpusim3; gpgpusim4 moves some (pipes_class_pipes).
 *  - `pipes.n_sp` SP pipes and `pipes.n_sfu` SFU pipes. A pipe accepts a new
 *    instruction at cycle d when d >= its last accept + that instruction's II
 *    and it holds fewer than PIPES_MAX_INFLIGHT instructions; the result is
 *    ready for writeback at d + latency.
 *  - With `pipes.wb_reserve` an SP/SFU dispatch first reserves one of the
 *    `pipes.wb_width` writeback slots of its ready cycle, or waits
 *    (GPGPU-Sim's result buses, NOTE(wb-reserve) in pipes.c).
 *  - Writeback: at most `pipes.wb_width` SP/SFU results per cycle, oldest
 *    ready first ((ready cycle, dispatch order)). A result writes its
 *    destination registers through the register-file unit of the operand
 *    collector (oc->rf, rf_write: its policy may absorb the write into a
 *    write buffer; writes have priority over reads, spec 2.4); when a bank is
 *    taken, the result waits in its pipe slot (it "holds its pipeline result
 *    register") and younger results may pass it. Then up to
 *    `pipes.ldst_wb_width` LD/ST results (pushed by the LD/ST unit through
 *    pipes_ldst_wb_push, FIFO) write the same way. Each writeback calls the
 *    SM's callback, which releases the scoreboard.
 *  - MEM instructions are not executed here: a MEM collector unit with all
 *    operands moves into one of `pipes.n_mem` MEM latches, which the LD/ST
 *    unit drains with pipes_mem_pop.
 *
 * What is not modelled: a separate OC->EX latch (a collector dispatches
 * straight into the pipe, so issue -> writeback of an fp32 add is
 * 1 (issue) + 1 (read) + 4 (latency) = 6 cycles, see docs/pipes.md), stalls
 * inside a pipe when writeback is blocked (results wait in their slot; the
 * pipe refuses new work only when all PIPES_MAX_INFLIGHT slots are taken),
 * per-lane SIMD width, predication, data values (the functional model
 * computes at issue, DESIGN.md 4).
 *
 * Calling convention, per pipeline cycle t (STYLE.md 2, back to front):
 *   pipes_tick(p, oc, t)   writeback -> dispatch (OC -> EX) -> operand reads
 *   then the schedulers issue: opcoll_can_accept / opcoll_issue at cycle t.
 * pipes_tick returns the next cycle it has work (CYCLE_NEVER when idle); any
 * issue or LD/ST push makes t + 1 a work cycle.
 *
 * Operation mix per cycle: a scan of <= (n_sp + n_sfu) * PIPES_MAX_INFLIGHT
 * slots for writeback, O(collector units) for dispatch. No allocation.
 */
#ifndef GPUSIM_SIM_SM_EXEC_PIPES_H
#define GPUSIM_SIM_SM_EXEC_PIPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/base/stats.h"

struct ptx_func;
struct ptx_insn;
struct opcoll;
struct cfg_section;

#define PIPE_MAX_SRC 16      /* 32-bit register reads per instruction (collector slots) */
#define PIPE_MAX_DST 8       /* 32-bit registers written per instruction */
#define PIPES_MAX_UNITS 8    /* largest pipes.n_sp + pipes.n_sfu */
#define PIPES_MAX_MEM 4      /* largest pipes.n_mem */
#define PIPES_MEM_DQ 32      /* MEM dispatch-delay registers: dispatch_delay x oc.out_ports_mem used */
#define PIPES_MAX_INFLIGHT 32 /* instructions one pipe holds, in flight or waiting for writeback */
#define PIPES_LDST_WB_QUEUE 8 /* LD/ST results waiting for writeback (entries) */
#define PIPES_RESV_RING 512  /* result-bus reservation ring (cycles): > the longest latency + dispatch_delay */

/* Pipe kinds, also the operand-collector sets (one set per kind). */
enum pipe_kind { PIPE_SP = 0, PIPE_SFU = 1, PIPE_MEM = 2, PIPE_N_KINDS = 3 };
enum { PIPE_M_SP = 1u << PIPE_SP, PIPE_M_SFU = 1u << PIPE_SFU, PIPE_M_MEM = 1u << PIPE_MEM };

/* X(enum suffix, name, latency, II, pipe mask (first set bit preferred)).
 * Latency / II in pipeline cycles, spec 3.2 ([GPGPU-Sim] GTX480). */
#define PIPE_CLASS_LIST(X)                                                    \
    X(INT_ADD, "int_add", 4, 1, PIPE_M_SP)                                    \
    X(INT_MAX, "int_max", 13, 2, PIPE_M_SP)                                   \
    X(INT_MUL, "int_mul", 4, 2, PIPE_M_SFU)                                   \
    X(INT_MAD, "int_mad", 5, 1, PIPE_M_SFU)                                   \
    X(INT_DIV, "int_div", 145, 8, PIPE_M_SFU)                                 \
    X(F32_ADD, "fp32_add", 4, 1, PIPE_M_SP)                                   \
    X(F32_MAX, "fp32_max", 13, 2, PIPE_M_SP)                                  \
    X(F32_MUL, "fp32_mul", 4, 1, PIPE_M_SP | PIPE_M_SFU)                      \
    X(F32_MAD, "fp32_mad", 5, 1, PIPE_M_SP)                                   \
    X(F32_DIV, "fp32_div", 39, 4, PIPE_M_SFU)                                 \
    X(F64_ADD, "fp64_add", 8, 8, PIPE_M_SP)                                   \
    X(F64_MAX, "fp64_max", 19, 16, PIPE_M_SP)                                 \
    X(F64_MUL, "fp64_mul", 8, 8, PIPE_M_SP | PIPE_M_SFU)                      \
    X(F64_MAD, "fp64_mad", 8, 8, PIPE_M_SP)                                   \
    X(F64_DIV, "fp64_div", 330, 130, PIPE_M_SFU)                              \
    X(SFU, "sfu", 8, 8, PIPE_M_SFU)                                           \
    X(ALU, "alu", 1, 1, PIPE_M_SP)                                            \
    X(MEM, "mem", 0, 1, PIPE_M_MEM)

enum pipe_class {
#define PIPE_X_(e, n, l, i, m) PIPE_C_##e,
    PIPE_CLASS_LIST(PIPE_X_)
#undef PIPE_X_
    PIPE_C_COUNT
};

struct pipe_class_info {
    const char *name; /* statistic / debug name */
    uint16_t lat;     /* latency (pipeline cycles): dispatch -> ready for writeback; 0 for MEM */
    uint16_t ii;      /* initiation interval (pipeline cycles) the pipe is blocked after dispatch */
    uint8_t pipes;    /* PIPE_M_* allowed; the lowest kind is preferred (SP before SFU) */
};

/* One warp instruction as the collectors and pipes see it (pre-decoded once
 * per static instruction by pipes_op_from_insn; the SM fills warp and tag). */
struct pipe_op {
    uint64_t tag;     /* the SM's token, returned untouched at writeback / MEM pop */
    uint32_t warp;    /* warp slot in the SM */
    uint8_t cls;      /* enum pipe_class */
    uint8_t kind;     /* enum pipe_kind chosen at issue (set by opcoll_issue) */
    uint8_t n_src;    /* register reads (collector slots), duplicates kept */
    uint8_t n_dst;    /* registers written at writeback */
    uint16_t src[PIPE_MAX_SRC]; /* physical 32-bit registers read, operand order */
    uint16_t dst[PIPE_MAX_DST]; /* physical 32-bit registers written */
};

/* *d = tmpl with its warp and tag replaced: the SM passes the kernel's
 * pre-decoded op and gives these apart (NOTE(issue-as) in opcoll.c). */
static inline void pipe_op_as(struct pipe_op *d, const struct pipe_op *tmpl, uint32_t warp, uint64_t tag)
{
    *d = *tmpl;
    d->warp = warp;
    d->tag = tag;
}

/* Section "pipes" (declared in pipes_cfg.c). */
struct pipes_cfg {
    uint64_t n_sp;          /* pipes.n_sp (pipes): SP pipes ([GPGPU-Sim] 2) */
    uint64_t n_sfu;         /* pipes.n_sfu (pipes): SFU pipes ([GPGPU-Sim] 1) */
    uint64_t n_mem;         /* pipes.n_mem (latches): MEM (LD/ST) input latches ([GPGPU-Sim] 1) */
    uint64_t wb_width;      /* pipes.wb_width (results/cycle): SP/SFU writeback width (spec 3.2: 2) */
    uint64_t ldst_wb_width; /* pipes.ldst_wb_width (results/cycle): LD/ST writebacks ([GPGPU-Sim] 1) */
    uint64_t dispatch_delay;/* pipes.dispatch_delay (cycles): collector -> unit latches ([GPGPU-Sim] OC_EX
                               register and the unit's dispatch register: 2); added to every SP/SFU
                               result and to the MEM hand-off (unless mem_dispatch_delay is set), pipelined (no throughput cost) */
    int64_t mem_dispatch_delay; /* pipes.mem_dispatch_delay (cycles): collector -> LD/ST latch for MEM
                               instructions; -1 = dispatch_delay (NOTE(mem-dispatch-delay) in pipes.c) */
    bool wb_reserve;        /* pipes.wb_reserve: an SP/SFU dispatch reserves one of the wb_width result-bus
                               slots of its writeback cycle, and waits when there is none ([GPGPU-Sim]
                               test_res_bus; NOTE(wb-reserve) in pipes.c) */
};

/* Called at writeback of op (all its destination registers written at
 * cycle now); the SM releases the scoreboard entries of op->dst. */
typedef void (*pipes_wb_fn)(void *ctx, const struct pipe_op *op, cycle_t now);

struct pipe_slot {
    struct pipe_op op; /* the instruction */
    cycle_t done;      /* cycle its result is ready for writeback */
    uint64_t seq;      /* dispatch order (tie-break) */
    bool valid;        /* slot holds an instruction */
};

struct pipe_unit {
    uint8_t kind;          /* PIPE_SP or PIPE_SFU */
    cycle_t next_accept;   /* first cycle a new instruction may enter (last dispatch + II) */
    uint32_t n_inflight;   /* valid slots (instructions) */
    uint32_t valid_mask;   /* bit s: slot[s].valid (NOTE(slot-mask) in pipes.c) */
    struct pipe_slot slot[PIPES_MAX_INFLIGHT];
    uint64_t dispatched;   /* statistics: instructions accepted */
};

struct pipes_stats {
    uint64_t wb;            /* SP/SFU instructions written back */
    uint64_t wb_ldst;       /* LD/ST instructions written back */
    uint64_t wb_width_stall; /* ready results left for a later cycle by the width limit (result-cycles) */
    uint64_t wb_bank_stall;  /* ready results that found a destination bank taken (result-cycles) */
    uint64_t mem_dispatched; /* MEM instructions handed to the LD/ST latches */
    uint64_t full_stall;     /* dispatch attempts refused because every pipe slot was taken */
    uint64_t resv_stall;     /* dispatch attempts refused for want of a result-bus slot (pipes.wb_reserve) */
    uint64_t by_class[PIPE_C_COUNT]; /* instructions dispatched per class */
};

struct pipes {
    struct pipes_cfg cfg;           /* copy of the configuration */
    uint32_t n_units;               /* n_sp + n_sfu; SP pipes first */
    struct pipe_unit units[PIPES_MAX_UNITS];
    cycle_t wb_min;                 /* no SP/SFU result is ready before this cycle (NOTE(wb-min)) */
    cycle_t wb_scan;                /* cycle of the last writeback scan */
    struct pipe_op mem_latch[PIPES_MAX_MEM]; /* MEM instructions waiting for the LD/ST unit */
    bool mem_valid[PIPES_MAX_MEM];  /* latch holds an instruction */
    struct pipe_op mem_dq[PIPES_MEM_DQ]; /* MEM instructions between the collector and the latches (FIFO) */
    cycle_t mem_dq_ready[PIPES_MEM_DQ];  /* cycle each reaches the latches: dispatch + mem_dd */
    uint32_t mem_dq_head, mem_dq_n;      /* FIFO head index and fill (entries) */
    uint64_t mem_dd;                     /* the MEM dispatch delay in force (cycles) */
    struct pipe_op ldst_q[PIPES_LDST_WB_QUEUE]; /* LD/ST results waiting for writeback (ring) */
    uint32_t ldst_head, ldst_n;     /* ring head index, entries */
    pipes_wb_fn wb_fn;              /* scoreboard release callback */
    void *wb_ctx;                   /* its context (the SM) */
    uint64_t seq;                   /* dispatches so far (slot seq source) */
    /* pipes.wb_reserve: result-bus slots reserved for cycle c, in entry
     * c % PIPES_RESV_RING, valid while resv_cyc of that entry is c */
    cycle_t resv_cyc[PIPES_RESV_RING];
    uint8_t resv_n[PIPES_RESV_RING];
    struct pipes_stats st;
};

/* ---------------------------------------------------------------- classes */

/* Which pipes a class may use (oc.unit_map; docs/pipes.md, NOTE(unit-map) in
 * pipes.c). GPGPUSIM3 is the PIPE_CLASS_LIST column (GPGPU-Sim 3.x); GPGPUSIM4
 * is GPGPU-Sim 4.x with SM2_GTX480's units (no INT or DP units). */
enum pipes_unit_map { PIPES_MAP_GPGPUSIM3, PIPES_MAP_GPGPUSIM4 };
extern const char *const pipes_unit_map_names[]; /* NULL-terminated, enum order */
uint8_t pipes_class_pipes(enum pipe_class c, enum pipes_unit_map map);

/* The class of a pre-decoded PTX instruction (sim/ptx/ir.h). */
enum pipe_class pipes_class_of(const struct ptx_insn *in);
const struct pipe_class_info *pipes_class_info(enum pipe_class c);
/* Fill out from instruction `in` of function `fn` (after register
 * allocation): class, sources (one per 32-bit physical register, in operand
 * order, duplicates and address registers included, predicates excluded:
 * they live in their own file), destinations. Returns false when the
 * instruction reads more than PIPE_MAX_SRC or writes more than PIPE_MAX_DST
 * registers. */
bool pipes_op_from_insn(const struct ptx_func *fn, const struct ptx_insn *in, uint32_t warp, uint64_t tag,
                        struct pipe_op *out);
/* NOTE(op-regs): the register numbers of a pipe_op are the register
 * allocator's physical numbers (sim/ptx/passes/regalloc.c: ptx_reg.phys, n_phys
 * consecutive 32-bit registers); the register file maps them to banks. A
 * kernel-time renumbering (sim/ptx/passes/kpass.h struct kpass_fn_map) changes only
 * this timing view and is applied once at pre-decode, after
 * pipes_op_from_insn, by one of the two functions below. The scoreboard
 * keeps the allocator's numbers (dependencies do not change).
 * pipes_op_remap: every source and destination r < n_map becomes map[r]
 * (a per-function table). pipes_op_set_regs: per-operand numbers, regs[0 ..
 * n_src) the sources then n_dst destinations, in pipes_op_from_insn order;
 * false (op unchanged) when the counts differ from the op's. */
void pipes_op_remap(struct pipe_op *op, const uint16_t *map, uint32_t n_map);
bool pipes_op_set_regs(struct pipe_op *op, const uint16_t *regs, uint32_t n_src, uint32_t n_dst);

/* ---------------------------------------------------------------- config */

extern const struct cfg_key pipes_cfg_keys[];
extern const size_t pipes_cfg_n_keys;
extern const struct cfg_section pipes_cfg_section;
void pipes_cfg_defaults(struct pipes_cfg *c);
/* Number of violated rules, each reported (may be NULL) with key and message. */
typedef void (*pipes_cfg_report_fn)(void *ctx, const char *key, const char *msg);
int pipes_cfg_validate(const struct pipes_cfg *c, pipes_cfg_report_fn report, void *ctx);

/* ---------------------------------------------------------------- unit */

/* The configuration must pass pipes_cfg_validate (else sim_panic). */
void pipes_init(struct pipes *p, const struct pipes_cfg *cfg, pipes_wb_fn wb_fn, void *wb_ctx);
void pipes_fini(struct pipes *p);

/* One pipeline cycle (strictly increasing; cycles may be skipped up to the
 * returned value): writeback, dispatch from oc's ready collectors, then
 * oc's operand reads (opcoll_read_tick). Returns the next cycle with work. */
cycle_t pipes_tick(struct pipes *p, struct opcoll *oc, cycle_t now);

/* The LD/ST unit's side. pipes_mem_pop takes the oldest latched MEM
 * instruction (false when none). */
bool pipes_mem_pop(struct pipes *p, struct pipe_op *out);
/* A finished LD/ST instruction whose destination registers must be written
 * (loads, atomics). Refused (false, nothing queued) when the queue is full. */
bool pipes_ldst_wb_can_accept(const struct pipes *p);
bool pipes_ldst_wb_push(struct pipes *p, const struct pipe_op *op);
/* The same for op with its warp and tag replaced (NOTE(issue-as) in opcoll.c). */
bool pipes_ldst_wb_push_as(struct pipes *p, const struct pipe_op *op, uint32_t warp, uint64_t tag);

/* Nothing in flight, latched or queued. */
bool pipes_idle(const struct pipes *p);
void pipes_stats_register(struct pipes *p, struct stats *reg, const char *group, int instance);
/* Invariants (slot counts, ring bounds); panics naming the pipe. */
void pipes_check(const struct pipes *p);

#endif /* GPUSIM_SIM_SM_EXEC_PIPES_H */
