/* sim/sm/sm.h: one streaming multiprocessor of the timing model, as an
 * engine unit in the core clock domain (spec baseline-gpu.md 1.2, 2.1-2.8,
 * 3.2, 3.3; docs/sm.md).
 *
 * What is modelled: the SM pipeline assembled from its units, per core
 * cycle t, back to front:
 * (cycles are pipeline cycles: core cycles / sm.pipe_clock_div, NOTE(pipe-clock))
 *   1. replies: the reply network's receiver half (icnt_rx) delivers into a
 *      sm.eject_buf-packet ejection buffer; its head goes to the instruction
 *      cache (request ids with SM_ID_INST) or to the LD/ST unit;
 *   2. LD/ST unit (sim/sm/lsu/ldst.c): caches, completions; a completed global
 *      load or atomic writes its destination registers through the
 *      executor (func_sm_mem_complete); every memory instruction with
 *      destinations then queues for the LD/ST writeback port of the pipes;
 *   3. pipes and operand collectors (sim/sm/exec/pipes.c, opcoll.c): writeback
 *      (which releases the scoreboard), dispatch, register-bank reads; the
 *      MEM latch feeds the LD/ST unit's input latch;
 *   4. fetch/decode and the I-buffer on the instruction cache (fetch.c);
 *   5. warps that changed state outside their own issue (exit, barrier
 *      release) are picked up from the executor;
 *   6. the warp schedulers (sched.c, policy by config) issue at most one
 *      instruction each: the instruction executes at issue through the
 *      functional executor (func_sm_issue) and reserves its destinations in
 *      the scoreboard; global accesses become memops for the LD/ST unit;
 *   7. one request per cycle (instruction cache and LD/ST unit alternating)
 *      enters the request network's sender half (icnt_tx), which sends
 *      flits as engine messages;
 *   8. CTAs whose warps have all exited and drained (no register write,
 *      memory instruction or store acknowledgement outstanding) are
 *      released and reported to the dispatcher (serial step).
 * Issue rules beyond the scoreboard: a warp at a barrier waits; a warp
 * with a fence in flight waits (MEM_ORDER); call and ret wait until the
 * warp's loads and register writes are done (NOTE(call-drain) in sm.c);
 * sched.max_outstanding_mem_per_warp bounds memory instructions in flight.
 *
 * What is not modelled: texture units, the DP pipe as a separate unit (fp64
 * runs on SP/SFU with its own latencies, spec 3.2), a pipeline clock other
 * than the core clock is supported (sm.pipe_clock_div), shared-memory atomics as
 * bank operations (they execute at issue, timed as a shared load).
 *
 * Threading: a struct sm belongs to its engine partition's thread; the
 * serial step (CTA start, kernel start) may touch it between quanta.
 * Hot path: no allocation, locks or strings; tables are pre-decoded per
 * kernel (struct sm_kernel).
 */
#ifndef GPUSIM_SIM_SM_SM_H
#define GPUSIM_SIM_SM_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/icnt/route.h"
#include "sim/base/common.h"
#include "sim/func/func.h"
#include "sim/icnt/icnt.h"
#include "sim/mem/memreq.h"
#include "sim/sm/front/fetch.h"
#include "sim/sm/lsu/l1ro.h"
#include "sim/sm/lsu/ldst.h"
#include "sim/func/memop.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/sched/sched.h"
#include "sim/sm/sched/scoreboard.h"
#include "sim/base/stats.h"
#include "sync/engine.h"

struct sim_cfg;

#define SM_ID_INST 0x20000000u   /* request-id bit of instruction-cache requests */
#define SM_MAX_CTA 32u           /* largest sm.max_cta */
#define SM_WB_OVF 64u            /* LD/ST results waiting for the pipes' writeback queue: initial ring (entries, a power of two) */

/* Per-instruction flags of the pre-decoded kernel (struct sm_kernel). */
enum {
    SMI_MEM = 1u << 0,   /* MEM pipe class */
    SMI_DRAIN = 1u << 1, /* call / ret: wait for the warp's loads and writes (NOTE(call-drain)) */
    SMI_LOAD = 1u << 2,  /* ld/ldu/atom: a load-type access (long latency when global/local) */
    SMI_ORD = 1u << 3,   /* bar, fence, release: issues only when the warp's earlier global
                            accesses have entered the LD/ST unit (NOTE(mem-order) in sm.c) */
    SMI_ACQ = 1u << 4,   /* acquire at gpu scope: the warp waits until it completes */
    SMI_GMEM = 1u << 5,  /* ld/st/atom/red whose space is global or generic (counted by
                            sched.max_outstanding_mem_per_warp) */
    SMI_L1LD = 1u << 6,  /* ld/ldu of global, generic or local memory: a load through the
                            L1D, the class a scheduler's load gate holds (wsched.no_load) */
};

/* One kernel, pre-decoded for every function of its module; built by the
 * serial step at kernel start, read-only while quanta run. */
struct sm_kernel {
    const struct func_launch *fl;   /* the launch (module, entry, params, device memory) */
    uint32_t n_funcs;               /* functions of the module */
    uint32_t entry;                 /* function index of the kernel */
    struct sb_regs **sbr;           /* [func][pc] scoreboard ids */
    struct pipe_op **pop;           /* [func][pc] collector/pipe template (warp, tag filled at issue) */
    uint8_t **flags;                /* [func][pc] SMI_* */
    struct fetch_code code;         /* code segment of the module */
    uint64_t local_base;            /* device address of SM 0's local-memory region (bytes) */
    uint64_t local_region;          /* bytes of local memory per SM region */
    uint64_t local_per_thread;      /* bytes of one thread's local window (multiple of 16) */
    uint32_t ctas_per_sm;           /* occupancy (CTAs) */
    uint32_t warps_per_cta;         /* warps */
    bool new_code;                  /* the module differs from the previous launch's (NOTE(l1i-launch)) */
};

/* Model-wide description shared by every SM (read-only while quanta run). */
struct sm_shared {
    const struct sim_cfg *cfg;        /* whole configuration */
    struct ldst_params lp;            /* LD/ST unit parameters from the config */
    const struct icnt_topo *topo;     /* network endpoints */
    const struct icnt_net_cfg *net;   /* flit sizes */
    struct mem_route route;           /* device address -> sub-partition endpoint (sim/icnt/route.h) */
    const uint32_t *ep_unit;          /* [n_ep] engine unit hosting each endpoint */
    ps_t core_ps;                     /* core (= icnt) clock period (ps) */
    struct divq core_div;             /* divq by core_ps (NOTE(divq), sim/base/common.h) */
    uint32_t pipe_div;                /* sm.pipe_clock_div: core edges per pipeline cycle */
    struct stats *stats;              /* registry or NULL */
    uint32_t max_warps;               /* warp slots per SM (sm.max_warps) */
    uint32_t max_cta;                 /* CTA slots per SM (sm.max_cta) */
};

struct sm_stats {
    uint64_t insts;          /* warp instructions issued */
    uint64_t mem_insts;      /* warp memory instructions handed to the LD/ST unit */
    uint64_t active_cycles;  /* core cycles with at least one resident CTA */
    uint64_t ctas;           /* CTAs completed */
    uint64_t warps;          /* warps launched */
    uint64_t eject_full;     /* cycles a reply waited in the ejection buffer for its cache */
    uint64_t req_stall;      /* cycles a request waited for room in the injection buffer */
    uint64_t reply_parts;    /* l2.sector_replies: sector packets received (NOTE(sector-replies)) */
    uint64_t parts_max;      /* l2.sector_replies: most replies partly received at once */
};

/* A read reply partly received as sector packets (NOTE(sector-replies)). */
struct sm_part {
    uint8_t got;           /* sectors received */
    struct mem_reply r;    /* the reply being assembled (header of the first packet) */
};

struct sm {
    uint32_t id;                  /* SM id = request-network endpoint */
    uint32_t unit;                /* engine unit */
    const struct sm_shared *sh;
    const struct sm_kernel *k;    /* running kernel, NULL between kernels */
    struct func_sm *fx;           /* executor of the running kernel on this SM */
    const uint32_t *fx_ev_n;      /* its queued-event count (func_sm_events_pending; NOTE(ev-poll)) */
    struct func_stats fst;        /* this SM's executor counters (added to the context's per kernel) */
    cycle_t cycle;               /* current pipeline cycle (executor's %clock) */
    uint64_t last_cycle;          /* last ticked pipeline cycle (CYCLE_NEVER = none) */
    uint64_t last_issue;          /* pipeline cycle of the last issue (watchdog) */
    uint64_t pipe_next;           /* pipeline cycle the last pipeline step asked for (CYCLE_NEVER = none) */
    bool was_active;              /* a CTA was resident at the end of the last tick */
    bool tick_every;              /* sim.tick_every_cycle, kept here: read on every tick (NOTE(tick-locals)) */
    struct eng_ctx *ctx;          /* engine context during tick / recv */
    ps_t now;                     /* time of the current tick / recv (ps) */

    struct l1ro l1i;              /* instruction cache */
    struct fetch_unit fetch;      /* fetch, decode, I-buffers */
    struct wsched sched;          /* warp schedulers */
    struct scoreboard sb;         /* pending register writes */
    struct opcoll oc;             /* operand collectors, register banks */
    struct pipes pipes;           /* SP/SFU/MEM pipes, writeback */
    struct ldst ldst;             /* LD/ST unit, L1D, constant cache */
    struct icnt_tx tx;            /* request network, sender half */
    struct icnt_rx rx;            /* reply network, receiver half */
    struct wsched_port port;      /* the scheduler's view of this SM */

    struct mem_reply *eject;      /* [n_eject] ejection buffer (ring) */
    uint32_t n_eject;             /* sm.eject_buf (packets) */
    uint32_t ej_head, ej_n;
    struct sm_part *part;         /* [n_part_cap] replies partly received (l2.sector_replies; else NULL) */
    uint32_t n_part, n_part_cap;  /* entries in use (unordered), capacity */
    /* NOTE(memop-ref) in sm.c: a memory instruction stays in one entry of
     * mo from issue until the LD/ST unit completes it; the modelled pool
     * (sm.memop_pool) is the count n_mo_free, whose entry is given back
     * when the instruction enters the LD/ST latch, as before. */
    struct memop *mo;             /* [n_store] memory instructions from issue to completion (free: mo_free) */
    uint32_t *mo_free;            /* [n_store] free entries of mo, last freed on top */
    uint32_t n_store;             /* entries of mo: sm.memop_pool + 1 (latch) + sm.ldst_slots */
    uint32_t n_store_free;        /* entries in mo_free */
    uint32_t n_mo;                /* sm.memop_pool (entries) */
    uint32_t n_mo_free;           /* free entries of the modelled pool */
    struct memop scratch;         /* memop target of instructions without memory access */
    struct pipe_op *wbq;          /* LD/ST results waiting for the pipes' writeback queue (ring of wbq_cap) */
    uint32_t wbq_head, wbq_n, wbq_cap; /* entries; the ring grows when full (NOTE(wbq-grow) in sm.c) */
    uint8_t rr_req;               /* request arbiter: 0 = instruction cache first */

    uint32_t *w_mem;              /* [max_warps] memory instructions issued and not completed */
    uint32_t *w_gmem;             /* [max_warps] global memory instructions issued and not completed */
    uint64_t sc_limit;            /* sched.max_outstanding_mem_per_warp (0 = none), copied at create */
    bool rf_gate;                 /* the register-file policy has a can_issue hook */
    uint32_t *w_unord;            /* [max_warps] global memory instructions issued, not yet in the LD/ST latch */
    uint8_t *w_fence;             /* [max_warps] a fence or a gpu-scope acquire is in flight */
    uint8_t *w_live;              /* [max_warps] warp known to schedulers and fetch */
    uint8_t *w_st;                /* [max_warps] enum func_wstate, mirrored from the executor */
    uint8_t *w_pw;                /* [max_warps] memoised per-warp part of the issue check, 0 = none
                                     (NOTE(pw-memo) in sm.c) */
    uint64_t pw_blk[WSCHED_N_WHY]; /* bit w of [r]: w_pw[w] == PW_BLOCK | r (max_warps <= 64;
                                      NOTE(blocked-masks) in sched.c) */
    uint32_t *ev;                 /* [max_warps] scratch for func_sm_take_events */
    uint32_t cta_lin[SM_MAX_CTA]; /* linear id of the CTA in each slot */
    uint8_t cta_live[SM_MAX_CTA]; /* slot holds a CTA */
    uint32_t cta_gone[SM_MAX_CTA]; /* warps of the slot's CTA that left the scheduler (warp_gone) */
    uint32_t cta_gone_mask;        /* bit c: every warp of slot c's CTA left (NOTE(cta-gone)) */
    uint32_t n_cta;               /* live CTA slots */
    uint64_t cta_seq;             /* CTAs launched on this SM (scheduler age) */
    /* NOTE(serial-line): what the serial step reads of every SM at every
     * quantum, on lines of their own that the SM writes only when a CTA
     * finishes, on an error, when the ahead answer changes, and before a
     * watchdog check; otherwise each serial step would pull a line the SM
     * writes every cycle from the SM's core (sim/gpu/gpu.c). */
    CACHE_ALIGNED uint32_t n_done;
    int err;                      /* executor error (GS_ERR_*), 0 none; stops the run */
    /* NOTE(ahead-gpu) in sim/gpu/gpu.c: set by the engine's ahead hook on the
     * SM's thread after each quantum run, read by the serial step that ends
     * that quantum (which may run while the SM runs the next one). */
    bool ahead;                   /* the serial step leaves this SM alone: no CTA done, no error, a live CTA */
    uint64_t ahead_last_issue;    /* last_issue when the hook ran before a watchdog check (pipeline cycle) */
    uint32_t done[SM_MAX_CTA];    /* linear ids of CTAs finished since the last serial step */
    CACHE_ALIGNED struct sm_stats st;
};

/* Partition init, on the owning thread: allocate and bind. */
struct sm *sm_create(const struct sm_shared *sh, struct eng_ctx *ctx, uint32_t id, uint32_t unit);
void sm_fini(struct sm *s);
void sm_stats_register(struct sm *s, struct stats *reg);
extern const struct eng_unit_ops sm_unit_ops;

/* Serial step / between runs. Kernel start: install k, create the executor
 * (fl with this SM's counters), invalidate the L1s. false on host memory
 * exhaustion. */
bool sm_kernel_start(struct sm *s, const struct sm_kernel *k, const struct func_launch *fl);
/* Kernel end (every CTA done) at pipeline cycle `end`: drop the executor;
 * its counters stay in fst. */
void sm_kernel_end(struct sm *s, uint64_t end);
/* Put CTA `lin` on this SM at cycle t (the dispatcher has checked room). */
void sm_cta_start(struct sm *s, uint32_t lin, uint64_t t);
/* Nothing in flight in the SM's memory pipeline and interconnect halves. */
bool sm_mem_idle(const struct sm *s);
/* Watchdog dump: one line per resident warp, with what it waits for. */
void sm_dump(const struct sm *s, FILE *out);

/* Pre-decode a kernel's module (serial step). false with a message when an
 * instruction exceeds the scoreboard or collector limits. */
bool sm_kernel_build(struct sm_kernel *k, const struct func_launch *fl, char *err, size_t err_len);
void sm_kernel_free(struct sm_kernel *k);

#endif /* GPUSIM_SIM_SM_SM_H */
