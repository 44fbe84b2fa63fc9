/* sim/sm/lsu/ldst.h: the LD/ST (memory) unit of one SM, cycle-driven in the core
 * clock domain (spec baseline-gpu.md 1.2 "LD/ST unit", 2.3 membar rule, 2.6,
 * 2.7, 2.8 / 2.10 store acknowledgements, 3.3; docs/ldst.md).
 *
 * What is modelled:
 *  - an input latch of one warp memory instruction (struct memop, the
 *    contract of sim/func/memop.h) filled from the MEM pipe by the SM wrapper;
 *  - one in-order LD/ST stage that handles one instruction at a time:
 *      shared: `degree` cycles (smem_banks_cycles, spec 2.6 / 3.3), then the
 *        data is read or written through the SM's smem_rw callback;
 *      param: one cycle per distinct constant-cache line, always a hit
 *        (NOTE(param-hit) in ldst.c), data through the param_rd callback;
 *      const: one constant-cache (l1ro) access per distinct l1c line per
 *        cycle, serialised, retried on reservation fail;
 *      global / local: coalescer_run, then one transaction per cycle into
 *        the L1D, retried while the L1D reports a reservation fail (the
 *        stage, i.e. the LD/ST pipe, stalls meanwhile); .cg/.cv/volatile
 *        loads and all atomics bypass the L1D (the coalescer marks them);
 *        atomics whose operands do not fit one request are split in lane
 *        order (memreq.h); local offsets become device addresses through
 *        the local_addr callback and use the L1D's local write-back policy;
 *  - up to sm.ldst_slots instructions in flight after the stage, each
 *    completing (memop_done_fn) in the cycle its last transaction completes;
 *    load data is gathered per lane from the completed lines, atomics'
 *    old values per lane in lane order;
 *  - per-warp counts of instructions in flight and of unacknowledged store /
 *    reduction transactions (spec 2.8, 2.10), and fences (membar) that
 *    complete when their warp has nothing else outstanding (spec 2.3);
 *  - the request side toward the interconnect (ldst_peek_req / ldst_pop_req:
 *    the L1D miss queue and the constant-cache miss queue, round-robin) and
 *    the reply side (ldst_push_reply routes each reply to its cache; the
 *    L1D's reply FIFO is the spec's 2-packet LD/ST response FIFO).
 * What is not modelled: the texture path, shared-memory atomics (panic: the
 *    functional executor must not hand them over yet; docs/ldst.md), the
 *    address-generation latency (part of the MEM pipe), the packet
 *    injection itself (the SM wrapper owns icnt_tx / icnt_rx), the register
 *    writeback port (the callback's owner), and any memory-consistency rule
 *    beyond "a fence waits for the warp's earlier accesses".
 *
 * Calling convention, per core cycle t (as l1d.h):
 *   1. ldst_tick(u, t): stages run back to front: caches tick, completions
 *      are drained (callbacks fire at t), fences are checked, the stage
 *      issues, the latch feeds an empty stage;
 *   2. then ldst_push, ldst_pop_req, ldst_push_reply at t.
 * A memop pushed at t enters the stage at t + 1 and issues its first access
 * there. ldst_tick returns the next cycle with work assuming no further
 * calls; after any call of step 2 the wrapper must tick at t + 1 at the
 * latest.
 *
 * Hot path: no allocation, no string work, no locks; slots, queues and the
 * caches are allocated at init.
 */
#ifndef GPUSIM_SIM_SM_LSU_LDST_H
#define GPUSIM_SIM_SM_LSU_LDST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/mem/memreq.h"
#include "sim/sm/lsu/coalesce.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/lsu/l1ro.h"
#include "sim/func/memop.h"
#include "sim/sm/lsu/smem_banks.h"
#include "sim/base/stats.h"

#define LDST_MAX_SUB 32       /* accesses per instruction: at most one per active lane */
#define LDST_MAX_WARPS 64     /* largest warp-slot count (gtx480: 48) */
#define LDST_ID_CONST 0x40000000u /* request-id bit of constant-cache requests (below L1D_ID_FILL) */

/* Parameters: the unit has no keys of its own (docs/ldst.md); it is built
 * from the sections of the caches and pure models it contains. */
struct ldst_params {
    struct l1d_cfg l1d;          /* section l1d */
    struct l1ro_cfg l1c;         /* section l1c (constant cache) */
    struct coalesce_cfg coal;    /* section coalesce (+ icnt flit/header) */
    struct smem_banks_cfg smem;  /* section smem_banks */
    uint32_t n_warps;            /* warp slots of the SM (sm.warps, 48) */
    uint32_t n_slots;            /* sm.ldst_slots: instructions in flight after the stage (NOTE(slots)) */
};

/* gtx480 defaults of every contained section, 48 warps. */
void ldst_params_defaults(struct ldst_params *p);

/* Callbacks into the SM that owns the shared, local and param storage. */
struct ldst_hooks {
    void *ctx; /* passed to every callback */
    /* Read or write `bytes` bytes at `offset` of warp's CTA shared window.
     * smem_rw and param_rd may be NULL: the owner moved the data at issue,
     * and the result that `done` gets for those loads is unspecified
     * (NOTE(hooks-at-issue) in ldst.c). */
    void (*smem_rw)(void *ctx, uint32_t warp, uint64_t offset, unsigned bytes, bool write, uint8_t *buf);
    /* Device address of byte `offset` of (warp, lane)'s local window. A lane's
     * `size` bytes must stay contiguous there. */
    uint64_t (*local_addr)(void *ctx, uint32_t warp, uint32_t lane, uint64_t offset);
    /* Read `bytes` bytes at `offset` of the kernel parameter buffer. */
    void (*param_rd)(void *ctx, uint32_t warp, uint64_t offset, unsigned bytes, uint8_t *buf);
    memop_done_fn done; /* completion of every memop */
    /* Optional (NULL = off): per-warp L1D access outcomes and evictions
     * (enum l1d_event; docs/l1.md "Per-warp events"), for the SM's warp
     * scheduler. Setting it gives the L1D's tag array per-line metadata. */
    l1d_event_fn on_l1;
};

struct ldst_stats {
    uint64_t insts[5];          /* instructions accepted, by enum memop_space */
    uint64_t fences;            /* fences accepted */
    uint64_t txns;              /* global/local accesses presented to the L1D (accepted) */
    uint64_t const_accesses;    /* constant-cache accesses (accepted) */
    uint64_t l1d_res[5];        /* L1D results by enum l1d_result: hit, miss, merged, sent, fail */
    uint64_t rf_cycles;         /* cycles the stage retried an L1D / l1c reservation fail */
    uint64_t aq_full;           /* cycles the stage waited for room in the L1D access queue (l1d.access_latency) */
    uint64_t aq_stall;          /* cycles the access queue's head retried an L1D reservation fail */
    uint64_t smem_cycles;       /* shared-memory stage cycles (sum of degrees) */
    uint64_t smem_conflict_cycles; /* cycles above the conflict-free minimum */
    uint64_t slot_stall;        /* cycles a finished stage waited for a free in-flight slot */
    uint64_t store_acks;        /* store/reduction transactions acknowledged */
    uint64_t pending_stores_max; /* largest per-warp count of unacknowledged stores seen */
    uint64_t rel_stall;         /* cycles a gpu-scope release waited in the latch (NOTE(release)) */
    uint64_t acq_inval;         /* L1D invalidations by gpu-scope acquires and fences (NOTE(acquire)) */
    struct stat_avg load_lat[5]; /* core cycles from stage entry to completion, loads/atomics by space */
};

/* One instruction in flight. NOTE(memop-ref): the instruction itself is
 * not copied into the slot; `op` points at the caller's storage, which the
 * caller keeps unchanged until the done callback has returned for it
 * (sim/sm/sm.c holds every memory instruction in one place from issue to
 * completion). What a completion reads (kind, size, the access's lanes and
 * line, the counters) sits in the slot's first lines. */
struct ldst_slot {
    const struct memop *op;              /* the instruction (caller's storage, NOTE(memop-ref)) */
    const uint64_t *la;                  /* bytes: device address per lane: op->addr, or lane_addr for local */
    uint64_t t_start;                    /* cycle the stage took it */
    uint8_t kind;                        /* op->kind (read at every completion) */
    uint8_t size;                        /* op->size */
    uint8_t n_sub;                       /* accesses of the instruction */
    uint8_t n_done;                      /* accesses completed */
    bool used;                           /* slot holds an instruction */
    uint32_t sub_lanes[LDST_MAX_SUB];    /* lanes served by each access */
    uint64_t sub_line[LDST_MAX_SUB];     /* bytes: line address of each access */
    uint64_t lane_addr[MEMOP_LANES];     /* bytes: local accesses' device address per lane (mapped) */
    struct memop_result res;             /* per-lane data gathered so far */
};

struct ldst {
    int sm_id;                  /* SM id: statistics instance */
    uint32_t n_warps;           /* warp slots */
    struct ldst_hooks h;        /* SM callbacks */
    struct coalescer coal;      /* geometry (pure) */
    struct smem_banks smem;     /* bank model (pure) */
    struct l1d l1d;             /* L1 data cache */
    struct l1ro l1c;            /* constant cache */
    uint32_t l1c_line;          /* bytes per constant-cache line */
    uint32_t l1c_hit;           /* core cycles: constant-cache hit latency */

    /* input latch (1 entry) */
    const struct memop *latch;  /* instruction waiting for the stage (caller's storage, NOTE(memop-ref)) */
    bool latch_valid;           /* latch holds one */
    uint64_t latch_ready;       /* first cycle the stage may take it */

    /* the stage */
    int32_t st_slot;            /* slot being issued, -1 = stage empty */
    uint64_t st_until;          /* shared/param/fence: cycle the stage finishes (completion) */
    uint8_t st_next;            /* next access to issue */
    uint8_t st_kind;            /* 0 = issue to L1D, 1 = issue to l1c, 2 = timed (shared/param/fence) */
    bool st_acc_built;          /* st_acc holds access st_next */
    /* NOTE(fail-memo): the stage's access failed at the L1D at cycle fm_cycle
     * with cause fm_cause while the L1D's gen was fm_gen */
    bool fm_valid;
    uint8_t fm_cause;           /* enum l1d_rf_cause */
    uint64_t fm_gen;
    cycle_t fm_cycle;
    struct coal_txn st_txn[LDST_MAX_SUB]; /* coalescer transactions of the instruction, per access */
    struct l1d_acc st_acc;      /* the L1D access being presented */

    /* L1D access queue (l1d.access_latency > 0; NOTE(l1d-access-latency) in ldst.c) */
    uint32_t aq_lat;            /* l1d.access_latency (core cycles); also the queue's capacity (entries) */
    struct l1d_acc *aq;         /* [aq_lat] accesses between the stage and the tag check, FIFO */
    cycle_t *aq_due;            /* [aq_lat] first cycle each may reach the L1D */
    uint32_t aq_head, aq_n;     /* FIFO head index and fill (entries) */

    /* in flight */
    uint32_t n_slots;           /* sm.ldst_slots (entries) */
    struct ldst_slot *slots;    /* [n_slots] */
    uint32_t *free_stack;       /* [n_slots] free slot indices */
    const uint64_t **slot_la;   /* [n_slots] each slot's `la`, dense, for NOTE(slot-prefetch) without reading the slot */
    uint32_t smem_extra;        /* smem.latency - 1 (cycles) a shared access waits after its bank cycles */
    uint32_t *sd_slot;          /* [n_slots] shared accesses in that delay, FIFO (slot indices) */
    cycle_t *sd_due;            /* [n_slots] cycle each completes */
    uint32_t sd_head, sd_n;     /* FIFO head index and fill (entries) */
    uint32_t n_free;            /* entries in free_stack */
    uint32_t n_fences;          /* fences in flight */
    uint32_t w_inflight[LDST_MAX_WARPS]; /* per warp: instructions in latch, stage or slots */
    uint32_t w_mem[LDST_MAX_WARPS];      /* per warp: non-fence instructions in flight */
    uint32_t w_stores[LDST_MAX_WARPS];   /* per warp: unacknowledged store/red transactions */
    uint8_t rr_req;             /* request arbiter: 0 = L1D first, 1 = l1c first */

    struct ldst_stats st;
};

void ldst_init(struct ldst *u, const struct ldst_params *p, const struct ldst_hooks *h, int sm_id);
void ldst_fini(struct ldst *u);

/* The latch is free (the MEM pipe may hand over an instruction). */
bool ldst_can_accept(const struct ldst *u);
/* Charge the memoised failures of the pipeline cycles skipped before
 * `cycle`; call before anything of cycle reaches the L1D (NOTE(fail-memo)). */
void ldst_catch_up(struct ldst *u, cycle_t cycle);
/* The stage holds an L1D access that must be presented again next cycle
 * (not one whose failure is memoised and still valid, NOTE(fail-memo) in
 * ldst.c, which needs no tick until the L1D changes). */
bool ldst_stage_retry(const struct ldst *u);
/* Hand over one instruction at `cycle`; false (nothing changed) when the
 * latch is full. The unit keeps `op` (not a copy) until it has called
 * h.done for it: the caller must not change or reuse that storage before
 * (NOTE(memop-ref) above struct ldst_slot). */
bool ldst_push(struct ldst *u, const struct memop *op, cycle_t cycle);

/* The request arbiter between the L1D's head d and the constant cache's
 * head c (either may be NULL): c when only it has one, or when both have
 * and it is the constant cache's turn. One rule for peek and pop. */
static inline bool ldst_req_takes_c(const struct ldst *u, const struct mem_req *d, const struct mem_req *c)
{
    return c && (!d || u->rr_req);
}
/* Next request toward L2 that may leave at `cycle` (to check injection room), or NULL. */
static inline const struct mem_req *ldst_peek_req(const struct ldst *u, cycle_t cycle)
{
    const struct mem_req *d = l1d_peek_req(&u->l1d, cycle);
    const struct mem_req *c = l1ro_peek_req(&u->l1c, cycle);
    return ldst_req_takes_c(u, d, c) ? c : d;
}
/* Pop it (the request ldst_peek_req showed); false when none. */
bool ldst_pop_req(struct ldst *u, struct mem_req *out, cycle_t cycle);
/* The cache the reply belongs to has room. */
bool ldst_can_accept_reply(const struct ldst *u, const struct mem_reply *rep);
/* Accept a reply at `cycle`; false (nothing changed) when its FIFO is full. */
bool ldst_push_reply(struct ldst *u, const struct mem_reply *rep, cycle_t cycle);

/* Advance one core cycle; returns the next cycle with work, CYCLE_NEVER when idle. */
uint64_t ldst_tick(struct ldst *u, cycle_t cycle);

/* Per-warp queries (issue rules of spec 2.3, CTA completion of 2.10). */
uint32_t ldst_warp_pending(const struct ldst *u, uint32_t warp);        /* instructions in flight, fences included */
uint32_t ldst_warp_pending_stores(const struct ldst *u, uint32_t warp); /* unacknowledged store/red transactions */
/* Nothing latched, in the stage, in flight or queued in the caches. */
bool ldst_idle(const struct ldst *u);

void ldst_stats_register(struct ldst *u, struct stats *s);
void ldst_stats_dump(const struct ldst *u, FILE *out);

#endif /* GPUSIM_SIM_SM_LSU_LDST_H */
