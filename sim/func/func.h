/* sim/func/func.h: the functional executor (sim.mode = functional).
 *
 * What is modelled: the architectural effect of a kernel launch. Warps of
 * 32 lanes interpret the pre-decoded PTX of sim/ptx/ir.h; each warp has
 * one 64-bit value per lane for each storage slot (registers never needed
 * together share one: NOTE(reg-slots) in sim/ptx/passes/slots.c), a SIMT
 * reconvergence stack of {pc, reconvergence pc, active mask} driven by the
 * IR's immediate post-dominator PCs, predicated execution, call frames for
 * .func, and the
 * PTX memory spaces (global/const in the context's device memory, shared per
 * CTA, local per thread, param per launch/call). Loads, stores and atomics
 * act on the backing store at once, in program order per warp.
 *
 * What is not modelled: time. There are no caches, no latencies and no
 * memory-ordering effects: every access is immediately visible to every
 * other warp (which is a legal, sequentially consistent execution of a PTX
 * program). Transcendental .approx results come from the host libm and are
 * not bit-identical to a GPU's SFU.
 *
 * Scheduling: up to `max_resident_ctas` CTAs are resident at once (the
 * occupancy limit x SMs). Their warps are run round-robin, FUNC_SLICE warp
 * instructions per turn, so a warp spinning on a flag written by another
 * warp or CTA makes progress. A finished CTA's slot takes the next CTA in
 * linear order. The interleaving is deterministic.
 *
 * Generic address layout (64-bit, chosen by us; cvta converts):
 *   [0, 0x1_0000_0000)                          unmapped (NULL pages)
 *   [DEVMEM_BASE, FUNC_GEN_SHARED_BASE)         global and const (identity)
 *   [FUNC_GEN_SHARED_BASE, +FUNC_GEN_WINDOW)    shared window of the CTA
 *                                               of the accessing thread
 *   [FUNC_GEN_LOCAL_BASE,  +FUNC_GEN_WINDOW)    local window of the thread
 *   [FUNC_GEN_PARAM_BASE,  +FUNC_GEN_WINDOW)    kernel parameter buffer
 *                                               (read-only)
 */
#ifndef GPUSIM_SIM_FUNC_FUNC_H
#define GPUSIM_SIM_FUNC_FUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/base/stats.h"
#include "sync/atomics.h"

struct ptx_module;
struct ptx_func;
struct devmem;

#define FUNC_GEN_SHARED_BASE 0x700000000000ull
#define FUNC_GEN_LOCAL_BASE 0x710000000000ull
#define FUNC_GEN_PARAM_BASE 0x720000000000ull
#define FUNC_GEN_WINDOW 0x100000000ull /* 4 GiB per window */

#define FUNC_WARP 32            /* lanes per warp */
#define FUNC_SLICE 64           /* warp instructions per scheduling turn */
#define FUNC_MAX_CALL_DEPTH 32  /* .func frames per warp beyond the kernel */
#define FUNC_MAX_BARRIERS 16    /* named barriers per CTA (bar.sync 0..15) */

/* Counters of the functional executor, one set per context (singleton
 * group "func" in the stats registry). All counts are since context
 * creation; the registry's per-kernel records give per-launch values. */
struct func_stats {
    uint64_t kernels;        /* kernel launches completed */
    uint64_t ctas;           /* CTAs completed */
    uint64_t warp_insts;     /* warp instructions issued (guard false included) */
    uint64_t thread_insts;   /* thread instructions executed (active and guard true) */
    uint64_t int_insts;      /* thread instructions: integer / bit / predicate ALU */
    uint64_t fp32_insts;     /* thread instructions: fp32 (and f16) ALU */
    uint64_t fp64_insts;     /* thread instructions: fp64 ALU */
    uint64_t sfu_insts;      /* thread instructions: rcp/sqrt/rsqrt/sin/cos/lg2/ex2/tanh, float div */
    uint64_t ld_global, st_global; /* thread accesses to global (ld/st, generic resolved) */
    uint64_t ld_shared, st_shared; /* thread accesses to shared */
    uint64_t ld_local, st_local;   /* thread accesses to local */
    uint64_t ld_param, st_param;   /* thread accesses to param (kernel and call) */
    uint64_t ld_const;             /* thread accesses to const */
    uint64_t atomics;        /* thread atom/red operations */
    uint64_t branches;       /* warp branch instructions (bra) */
    uint64_t divergent_branches; /* warp branches that split the active mask */
    uint64_t barriers;       /* warp arrivals at bar/barrier */
    uint64_t calls;          /* warp call instructions */
    struct stat_avg active_lanes; /* active lanes per warp instruction (lanes) */
};

/* Register every field with the registry (group "func", singleton). */
void func_stats_register(struct func_stats *st, struct stats *reg);

/* Watches a functional run (sim/ptx/passes/kprofile.c records profiles with it).
 * Functional mode only (func_run); the timing model's per-SM executors
 * never call it. NULL in func_launch.observer costs one predictable branch
 * per warp instruction and per global access. Callbacks run on the thread
 * of func_run, in the run's deterministic order; they must not touch the
 * executor. cta is the linear CTA id (x fastest), warp the warp index in
 * the CTA. */
enum func_obs_kind { FUNC_OBS_LOAD, FUNC_OBS_STORE, FUNC_OBS_ATOMIC };
struct func_observer {
    void *ctx; /* passed to every callback */
    /* One thread's global access (generic addresses that resolve to global
     * included), before it is performed; kind: enum func_obs_kind. */
    void (*on_access)(void *ctx, uint64_t cta, uint32_t warp, uint32_t lane, uint64_t addr, uint32_t bytes,
                      int kind);
    /* A warp instruction issued: instruction pc of function fn, the warp's
     * active lanes and the lanes whose guard is true. May be NULL. */
    void (*on_insn)(void *ctx, uint64_t cta, uint32_t warp, const struct ptx_func *fn, uint32_t pc,
                    uint32_t active, uint32_t exec);
};

struct kpass_regmap;

/* One kernel launch. */
struct func_launch {
    const struct ptx_module *mod;
    const struct ptx_func *fn;     /* the .entry */
    const uint64_t *modvar_addr;   /* device address of each module variable
                                      (global/const), mod->n_vars entries */
    struct devmem *mem;            /* the context's device memory */
    uint32_t grid[3];              /* CTAs per dimension */
    uint32_t block[3];             /* threads per dimension */
    uint32_t dyn_shared_bytes;     /* dynamic shared memory per CTA (bytes) */
    const uint8_t *params;         /* kernel parameter buffer, fn->param_bytes */
    uint32_t max_resident_ctas;    /* CTAs run concurrently (>= 1) */
    uint32_t n_sm;                 /* for %nsmid / %smid */
    uint64_t watchdog_per_warp;    /* warp instructions per resident warp without
                                      progress before GS_ERR_WATCHDOG (0 off) */
    struct func_stats *st;         /* counters to update */
    const struct func_observer *observer; /* functional mode: watches the run, NULL = none */
    const struct kpass_regmap *regmap; /* timing view of physical registers after kernel-time
                                          passes (sim/ptx/passes/kpass.h), NULL = as allocated;
                                          the functional executor ignores it */
    const atomic_u32 *stop_flag;   /* functional mode: read (acquire) once per round of warp
                                      turns; non-zero stops the launch with
                                      GS_ERR_INTERRUPTED; NULL = never */
    char *err;                     /* message on failure */
    size_t err_len;                /* bytes at err */
};

/* Run the launch to completion. 0 on success; GS_ERR_EXEC (fault: bad
 * address, trap, deadlock, unsupported instruction at run time),
 * GS_ERR_WATCHDOG (no progress, below) or GS_ERR_OUT_OF_MEMORY with a
 * message naming kernel, CTA, thread, PC.
 *
 * Watchdog: progress is a store or atomic that changes memory, a barrier
 * release, a warp or CTA finishing. When the launch executes more than
 * watchdog_per_warp x (resident warps) warp instructions without progress,
 * it stops with GS_ERR_WATCHDOG and a list of resident warps (CTA, warp,
 * PC, source line, active mask, SIMT stack depth). A spin-wait on a flag
 * that nobody will set is caught this way; a barrier that cannot complete
 * is caught at once as a deadlock. A loop that legitimately computes in
 * registers for longer than the limit is a false positive: raise
 * sim.func_watchdog.
 *
 * Interruption: when l->stop_flag is raised (SIGINT/SIGTERM in the CLI),
 * the launch stops at the end of the current round of warp turns with
 * GS_ERR_INTERRUPTED; device memory holds whatever the finished warp
 * instructions wrote. */
int func_run(const struct func_launch *l);

/* ------------------------------------------------- timing-mode interface
 *
 * Timing mode (sim/sm/sm.c) executes instructions one warp instruction at a
 * time, at issue, on a per-SM executor whose CTA slots are the SM's. What
 * changes from functional mode (docs/timing.md):
 *  - global loads, stores and atomics (generic addresses that resolve to
 *    global included) are not performed at issue: func_sm_issue fills a
 *    struct memop (sim/func/memop.h) with per-lane addresses, store data and
 *    atomic operands; the LD/ST unit carries them through the caches, and
 *    func_sm_mem_complete writes the loaded values / old values into the
 *    destination registers when the data is back;
 *  - shared, local, param and const accesses are performed at issue (the
 *    first three are private to the SM or thread, const and param are
 *    read-only during a kernel) and described in the memop for their timing
 *    only (FUNC_I_DEFERRED clear);
 *  - %clock reads the SM's core cycle, %smid the SM id;
 *  - warps that change state outside their own issue (exit after the SIMT
 *    stack empties, release from a barrier) are queued for the SM
 *    (func_sm_take_events);
 *  - the functional watchdog is off (the timing model has its own).
 * Warp slot numbering: warp `wid` of CTA slot `slot` is SM warp slot
 * slot * func_sm_warps_per_cta() + wid (memop.warp uses it).
 * Threading: one func_sm belongs to one SM; the launch it copies, the module
 * and device memory are only read (device memory only for bounds checks
 * and const reads: global data is the memory partitions'). */
struct func_sm;
struct memop;
struct memop_result;

enum func_wstate { FUNC_W_RUN, FUNC_W_BAR, FUNC_W_DONE };

/* func_issue.fl. One byte written whole and read whole: the SM tests two
 * of these together, and a wide load of separately stored bools stalls on
 * the store buffer (NOTE(issue-as) in sim/sm/rf/opcoll.c). */
enum {
    FUNC_I_MEM = 1u,      /* an ld/st/atom/red touched memory: *mo describes it */
    FUNC_I_DEFERRED = 2u, /* global lanes: the LD/ST unit must perform them */
    FUNC_I_FENCE = 4u,    /* membar / fence */
};

struct func_issue {
    uint32_t func, pc; /* instruction issued: function index and instruction index */
    uint8_t fl;        /* FUNC_I_* */
};

/* Bytes of one thread's local window for kernel kfn: module locals, the
 * kernel's frame and the deepest chain of .func frames it can call. */
uint64_t func_local_per_thread(const struct ptx_module *mod, const struct ptx_func *kfn);

/* NULL on host memory exhaustion. l->st receives this SM's counters (the
 * caller gives each SM its own); l->err is not used (func_sm_error_text). */
struct func_sm *func_sm_create(const struct func_launch *l, uint32_t n_slots, uint32_t sm_id, const uint64_t *cycle);
void func_sm_destroy(struct func_sm *s);
uint32_t func_sm_warps_per_cta(const struct func_sm *s);
/* First error (GS_ERR_*) and its message naming kernel, CTA, thread, PC. */
int func_sm_error(const struct func_sm *s);
const char *func_sm_error_text(const struct func_sm *s);
void func_sm_cta_start(struct func_sm *s, uint32_t slot, uint64_t linear_cta);
bool func_sm_cta_finished(const struct func_sm *s, uint32_t slot); /* every warp exited */
void func_sm_cta_release(struct func_sm *s, uint32_t slot);       /* slot free again; counts the CTA */
uint32_t func_sm_warp_valid(const struct func_sm *s, uint32_t slot, uint32_t wid); /* lanes holding threads */
int func_sm_warp_state(const struct func_sm *s, uint32_t slot, uint32_t wid);      /* enum func_wstate */
void func_sm_warp_pc(const struct func_sm *s, uint32_t slot, uint32_t wid, uint32_t *func, uint32_t *pc);
/* Execute the warp's next instruction (it must be FUNC_W_RUN), then run the
 * SIMT bookkeeping up to its next real instruction. Returns 0 or the error. */
int func_sm_issue(struct func_sm *s, uint32_t slot, uint32_t wid, struct memop *mo, struct func_issue *out);
/* Data of a deferred load or atomic issued from function func is back. */
void func_sm_mem_complete(struct func_sm *s, uint32_t func, const struct memop *op, const struct memop_result *res);
/* Move up to max queued warp slots (see above) to out; returns the count. */
uint32_t func_sm_take_events(struct func_sm *s, uint32_t *out, uint32_t max);
/* The executor's count of queued warp slots, for a caller that polls every
 * cycle without a call (NOTE(ev-poll) in sim/sm/sm.c); valid until
 * func_sm_destroy. */
const uint32_t *func_sm_events_pending(const struct func_sm *s);
/* One line for a watchdog dump: CTA, warp, state, PC, source line, SIMT stack. */
int func_sm_describe_warp(const struct func_sm *s, uint32_t slot, uint32_t wid, char *buf, size_t n);

#endif /* GPUSIM_SIM_FUNC_FUNC_H */
