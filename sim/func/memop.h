/* sim/func/memop.h: one warp memory instruction as the LD/ST unit sees it.
 *
 * Contract between the functional executor and the timing model's LD/ST
 * unit (docs/timing.md, "Execution on the SM side"). At issue the executor
 * evaluates guards, addresses and store data for every active lane and
 * fills a struct memop instead of touching memory; the LD/ST unit times the
 * access (shared-memory banks, coalescer, L1D/constant cache, interconnect)
 * and, when the data is back, hands each lane's bytes to the completion
 * callback, which writes the destination registers and releases the
 * scoreboard. Shared, local and param accesses are private to the SM: the
 * SM's executor performs them at issue and the LD/ST unit only times them
 * (its smem_rw / param_rd hooks, which move the data at the timed cycle
 * instead, are for test rigs: NOTE(hooks-at-issue) in sim/sm/lsu/ldst.c);
 * only global loads and atomics write their registers at completion
 * (NOTE(reg-slots) relies on it).
 *
 * Memory-model marks travel in `order` (MO_ORD_* of sim/ptx/memorder.h):
 * the executor derives them from the instruction's .sem/.scope/.volatile,
 * the LD/ST unit acts on them (docs/memmodel.md). What is not here: the
 * register writeback itself (the executor's job).
 *
 * NOTE(param-uniform): a kernel-parameter load whose address holds no
 * register (ld.param [name+imm], seven of them at the start of every bfs
 * warp) reads one address in every lane; the executor then writes only
 * addr[0] and sets `uniform`, and the LD/ST unit reads addr[0] for every
 * lane (the distinct-line count is 1) instead of 32 writes and a scan.
 * Everything else has uniform = 0 and an address per active lane.
 */
#ifndef GPUSIM_SIM_FUNC_MEMOP_H
#define GPUSIM_SIM_FUNC_MEMOP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sim/base/common.h"

#define MEMOP_LANES 32      /* lanes per warp */
#define MEMOP_LANE_BYTES 16 /* largest access per lane (v4.b32 / v2.b64) */
#define MEMOP_MAX_DST 8     /* scoreboard ids released at completion (v4 x 64-bit) */

enum memop_kind {
    MEMOP_LOAD,   /* ld, ldu: per-lane bytes come back */
    MEMOP_STORE,  /* st: per-lane bytes go out; completes when acknowledged */
    MEMOP_ATOMIC, /* atom: operands go out, old values come back */
    MEMOP_RED,    /* red: operands go out; completes when acknowledged */
    MEMOP_FENCE,  /* membar/fence: completes when earlier accesses of the warp are done */
};

enum memop_space {
    MEMOP_GLOBAL, /* device memory (global, and generic addresses that resolve there) */
    MEMOP_CONST,  /* constant bank (device memory, through the constant cache) */
    MEMOP_SHARED, /* offset in the CTA's shared window */
    MEMOP_LOCAL,  /* offset in the thread's local window (through the L1D as local lines) */
    MEMOP_PARAM,  /* kernel parameter buffer (read-only, constant-cache timing) */
};

/* PTX cache operators (ld: .ca .cg .cs .lu .cv, plus ld.volatile; st: .wb
 * .cg .cs .wt). Only the L1 bypass decision depends on them (sim/sm/lsu/coalesce.c,
 * NOTE(cache-ops)). */
enum memop_cache_op {
    MEMOP_CO_CA,       /* default (.ca for loads, .wb for stores) */
    MEMOP_CO_CG,       /* cache at L2 only: bypass L1 */
    MEMOP_CO_CS,       /* streaming, evict first: treated as default */
    MEMOP_CO_LU,       /* last use: treated as default */
    MEMOP_CO_CV,       /* volatile, fetch again: bypass L1 */
    MEMOP_CO_VOLATILE, /* ld/st.volatile: bypass L1 */
    MEMOP_CO_WT,       /* store write-through: treated as default (the L1 write policy decides) */
    MEMOP_N_CACHE_OPS
};

struct memop {
    uint32_t warp;       /* warp slot in the SM */
    uint32_t pc;         /* instruction index in its function (dumps, statistics) */
    uint64_t seq;        /* issue sequence number of this instruction in the SM */
    uint8_t kind;        /* enum memop_kind */
    uint8_t space;       /* enum memop_space */
    uint8_t size;        /* bytes accessed per lane (element size x vector width) */
    uint8_t cache_op;    /* enum memop_cache_op (sim/sm/lsu/coalesce.h): .ca/.cg/.cs/.lu/.cv/volatile */
    uint8_t aop;         /* atomics: enum ptx_aop (sim/ptx/ir.h) */
    uint8_t atype;       /* atomics: enum ptx_type of the operation */
    uint8_t n_dst;       /* entries used in dst */
    uint8_t order;       /* MO_ORD_* of sim/ptx/memorder.h for global accesses and fences, else 0 */
    uint8_t uniform;     /* 1: every active lane's address is addr[0], the only one written
                            (NOTE(param-uniform)); 0: addr[lane] per active lane */
    uint32_t active;     /* lanes that access memory (active and guard true) */
    uint16_t dst[MEMOP_MAX_DST]; /* scoreboard ids (sim/sm/sched/scoreboard.h) to release at completion */
    uint32_t cta;        /* linear CTA id of the warp (requester identity; the SM fills it at issue) */
    uint64_t addr[MEMOP_LANES];  /* per lane: device address (global/const) or window offset */
    uint8_t data[MEMOP_LANES][MEMOP_LANE_BYTES]; /* per lane: store data, or atomic operand b then c */
};

/* Per-lane bytes returned for a load or atomic (old values), in lane order. */
struct memop_result {
    uint8_t data[MEMOP_LANES][MEMOP_LANE_BYTES];
};

/* Completion callback: the LD/ST unit calls it once per memop, in the cycle
 * the last lane's data is available (loads, atomics) or the last
 * acknowledgement arrived (stores, reductions, fences); res is NULL for
 * those without data. */
typedef void (*memop_done_fn)(void *ctx, const struct memop *op, const struct memop_result *res, cycle_t cycle);

#endif /* GPUSIM_SIM_FUNC_MEMOP_H */
