/* sim/sm/sched/scoreboard.h: per-warp scoreboard of pending register writes (spec
 * baseline-gpu.md 1.2 "Scoreboard", 2.3 eligibility, 2.5 writeback).
 *
 * What is modelled: for every warp, the set of registers with a write still
 * pending, split into short-latency (ALU/SFU results) and long-latency
 * (global/local/texture loads, atomics) writes. Set when the instruction
 * issues (scoreboard_reserve), cleared at writeback (scoreboard_release).
 * scoreboard_check answers "may this instruction issue": no pending write to
 * any of its sources (RAW) or destinations (WAW). WAR needs no check: operands
 * are read in order before a later write can complete (GPGPU-Sim has none).
 *
 * Registers are physical, as the front end's register allocator numbers them
 * (sim/ptx/ir.h struct ptx_reg: phys .. phys + n_phys - 1 for a 32- or 64-bit
 * register; predicates have their own file and number). Both files are
 * tracked: a scoreboard register id is SB_GPR(phys) or SB_PRED(pred).
 * Instructions are pre-decoded once into struct sb_regs (scoreboard_regs_from_insn),
 * so the per-cycle check is a few bit tests and no IR walk.
 *
 * What is not modelled: register-file banks and ports (operand collector), the
 * writeback arbitration, partial writes (a vector load releases each register
 * separately when the SM writes it). Guarded-off instructions still reserve
 * their destinations (the scoreboard does not see the predicate value, as in
 * GPGPU-Sim).
 *
 * Operation mix: one check per probed warp per cycle (<= 2 x SB_MAX_REGS bit
 * tests), one reserve per issue, one release per written register.
 * Hot path: no allocation; all state preallocated at init.
 */
#ifndef GPUSIM_SIM_SM_SCHED_SCOREBOARD_H
#define GPUSIM_SIM_SM_SCHED_SCOREBOARD_H

#include <stdbool.h>
#include <stdint.h>

struct ptx_func;
struct ptx_insn;

#define SB_MAX_GPR 512  /* physical 32-bit registers per thread tracked (ptxas limits kernels to 255; our allocator may exceed its target, docs/ptx.md) */
#define SB_MAX_PRED 64  /* predicate registers per thread tracked */
#define SB_N_IDS (SB_MAX_GPR + SB_MAX_PRED)
#define SB_WORDS ((SB_N_IDS + 63) / 64) /* 64-bit words per warp bitset */
#define SB_MAX_REGS 24  /* registers per instruction: sources + destinations */

#define SB_GPR(phys) ((uint16_t)(phys))
#define SB_PRED(p) ((uint16_t)(SB_MAX_GPR + (p)))

/* The registers of one pre-decoded instruction: reg[0 .. n_src) are read,
 * reg[n_src .. n_src + n_dst) are written; no duplicates within each part. */
struct sb_regs {
    uint8_t n_src;              /* registers read (guard predicate included) */
    uint8_t n_dst;              /* registers written */
    uint16_t reg[SB_MAX_REGS];  /* scoreboard ids (SB_GPR / SB_PRED) */
};

enum sb_hazard { SB_CLEAR = 0, SB_RAW = 1, SB_WAW = 2 };

struct scoreboard {
    uint32_t n_warps;       /* warp slots (warps) */
    uint64_t (*pend)[SB_WORDS]; /* [n_warps] registers with a pending write (bitset) */
    uint64_t (*lng)[SB_WORDS];  /* [n_warps] subset whose pending write is long-latency */
    uint32_t *n_pend;       /* [n_warps] pending writes (registers) */
    uint32_t *n_long;       /* [n_warps] pending long-latency writes (registers) */
    uint64_t n_reserved;    /* statistics: register reservations made (registers) */
    uint64_t n_released;    /* statistics: register releases (registers) */
};

void scoreboard_init(struct scoreboard *sb, uint32_t n_warps);
void scoreboard_fini(struct scoreboard *sb);

/* RAW if a source has a pending write, else WAW if a destination has, else
 * SB_CLEAR. *on_long (may be NULL) is set when the blocking register's write
 * is long-latency. */
enum sb_hazard scoreboard_check(const struct scoreboard *sb, uint32_t warp, const struct sb_regs *r,
                                bool *on_long);
/* Reserve every destination of r at issue; long_lat marks them long-latency.
 * The instruction must have passed scoreboard_check (panics on WAW). */
void scoreboard_reserve(struct scoreboard *sb, uint32_t warp, const struct sb_regs *r, bool long_lat);
/* Writeback of one register. Returns true when this release ended the warp's
 * last pending long-latency write (the SM then calls
 * wsched_notify(WSCHED_EV_LONG_DONE)). Panics when nothing was pending. */
bool scoreboard_release(struct scoreboard *sb, uint32_t warp, uint16_t reg);
/* Warp slot reuse: forget everything pending for warp (panics if any is). */
void scoreboard_warp_reset(struct scoreboard *sb, uint32_t warp);

bool scoreboard_pending(const struct scoreboard *sb, uint32_t warp, uint16_t reg);
static inline uint32_t scoreboard_n_pending(const struct scoreboard *sb, uint32_t warp) { return sb->n_pend[warp]; }
static inline uint32_t scoreboard_n_long(const struct scoreboard *sb, uint32_t warp) { return sb->n_long[warp]; }

/* Pre-decode: the physical registers instruction `in` of `fn` reads and
 * writes (after register allocation). Vector operands are expanded, 64-bit
 * registers give two ids, the guard predicate is a source, unallocated
 * registers (phys < 0) are skipped. Returns false when the instruction needs
 * more than SB_MAX_REGS ids or a register beyond SB_MAX_GPR / SB_MAX_PRED. */
bool scoreboard_regs_from_insn(const struct ptx_func *fn, const struct ptx_insn *in, struct sb_regs *out);
/* Add one id to r as a source (dst = false) or destination; duplicates are
 * ignored. Sources must all be added before destinations. False when full. */
bool sb_regs_add(struct sb_regs *r, uint16_t id, bool dst);

#endif /* GPUSIM_SIM_SM_SCHED_SCOREBOARD_H */
