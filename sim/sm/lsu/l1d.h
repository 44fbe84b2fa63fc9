/* sim/sm/lsu/l1d.h: the L1 data cache of one SM, cycle-driven in the core clock
 * domain (spec baseline-gpu.md 1.2 "L1D", 2.6, 3.3, 4.2; docs/l1.md).
 *
 * What is modelled:
 *  - a set-associative cache of l1d.line (128 B) lines holding real bytes,
 *    true LRU, GPGPU-Sim's Fermi set-index hash (32 or 64 sets) or a linear
 *    index, line states INVALID / RESERVED / VALID / MODIFIED (tagarray.h);
 *  - one access (one coalescer transaction) per cycle; read hits complete
 *    after l1d.hit_latency cycles;
 *  - read misses: MSHR entries with a merge limit, allocate-on-miss (a
 *    RESERVED victim line) or allocate-on-fill, reservation fails by cause
 *    (MSHR full, merge limit, miss queue lacks room, set fully RESERVED,
 *    stale MSHR entry, completion queue full, port busy) that change nothing;
 *  - one FIFO miss queue toward L2 carrying read misses, bypassing reads,
 *    writes, atomics and local write-backs in L1 access order;
 *  - the write policies global_we_local_wb and global_wt_alloc_local_wb,
 *    L1 bypass for .cg/.cv/volatile loads and all atomics, the stale-MSHR
 *    rule for stores and atomics to a line with an outstanding miss;
 *  - a reply FIFO (l1d.resp_fifo packets) from the interconnect, one reply
 *    processed per cycle (fill, store ack, atomic or bypass reply);
 *  - invalidate-all at kernel launch, write-back of dirty local lines at
 *    kernel end.
 *  - the line control as a (state x event) protocol table (sim/mem/coh.h,
 *    sim/mem/coh_noncoh_l1.c, docs/coherence.md): each access path checks
 *    its resources, derives the line's state (I, R, V, M), then runs the
 *    table's actions and applies its next state;
 *  - l1d.perfect: a side store of unlimited size keeps the lines the tag
 *    array replaces or store-evicts, so only first touches miss
 *    (NOTE(l1d-perfect) in l1d.c, docs/knobs.md).
 * What is not modelled: coherence (the L1 is non-coherent: another SM's
 * store is not seen until the line leaves the L1, so stale data is possible,
 * as in hardware; docs/l1.md), tag/data bank conflicts, sectored lines, the
 * texture cache, the interconnect packetisation (the caller counts flits),
 * and writing register values (completions carry the line; the LD/ST unit
 * extracts each lane's bytes with its own per-lane addresses).
 *
 * Calling convention, per core cycle t (the SM wrapper maps engine time to t):
 *   1. l1d_tick(l, t);
 *   2. then any of l1d_access (at most one per cycle), l1d_pop_req,
 *      l1d_push_reply, l1d_pop_done at t.
 * An input given at t is first used by l1d_tick(t + 1); an output produced at
 * t can be popped at t or later. l1d_tick returns the next cycle with work
 * assuming no further calls; after any call of step 2 the wrapper must tick
 * again at t + 1 at the latest.
 *
 * Timing (hand-checkable; H = l1d.hit_latency, gtx480 H = 1):
 *   access at t, read hit (or local store hit) -> completion poppable at t + H;
 *   access at t that queues a request -> request poppable at t + 1 (one pop per cycle);
 *   reply pushed at r -> processed by l1d_tick(r + 1) when it heads the
 *     FIFO -> its completions (all merged loads of a fill) poppable at r + 1.
 *
 * Request ids: a cached read miss carries L1D_ID_FILL | MSHR entry; every
 * other request carries the caller's token (< L1D_ID_FILL), so its reply
 * comes back to the caller as a completion with that token.
 *
 * Hot path: no allocation, no locks, no strings; all queues preallocated.
 */
#ifndef GPUSIM_SIM_SM_LSU_L1D_H
#define GPUSIM_SIM_SM_LSU_L1D_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"
#include "sim/mem/lastacc.h"
#include "sim/mem/coh.h"
#include "sim/mem/memreq.h"
#include "sim/mem/mshr.h"
#include "sim/mem/reqq.h"
#include "sim/mem/ring.h"
#include "sim/mem/tagarray.h"
#include "sim/sm/lsu/coalesce.h"
#include "sim/base/stats.h"

struct cfg_key;
struct cfg_section;
struct l1d_pstore;

/* ------------------------------------------------------------- config */

enum l1d_write_policy {
    L1D_WP_GLOBAL_WE_LOCAL_WB,       /* global: write-evict, no write-allocate; local: write-back */
    L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB, /* global: write-through with write-allocate; local: write-back */
};

enum l1d_alloc {
    L1D_ALLOC_ON_MISS, /* reserve the victim line at the miss (GPGPU-Sim 3.x) */
    L1D_ALLOC_ON_FILL, /* choose the victim when the fill arrives (001) */
};

enum l1d_set_index {
    L1D_SET_FERMI,  /* GPGPU-Sim Fermi hash (32 or 64 sets) */
    L1D_SET_LINEAR, /* (addr / line) mod sets */
};

struct l1d_cfg {
    uint64_t size;        /* l1d.size (bytes) */
    uint64_t assoc;       /* l1d.assoc (ways) */
    uint64_t line;        /* l1d.line (bytes; must be MEM_LINE_BYTES = 128) */
    uint64_t mshr;        /* l1d.mshr (entries) */
    uint64_t mshr_merge;  /* l1d.mshr_merge (requests per entry, the first miss included) */
    uint64_t miss_queue;  /* l1d.miss_queue (entries) */
    uint64_t hit_latency; /* l1d.hit_latency (core cycles from access to hit completion) */
    uint64_t access_latency; /* l1d.access_latency (core cycles from the LD/ST stage to the tag check; 0 = none) */
    uint64_t resp_fifo;   /* l1d.resp_fifo (reply packets buffered from the interconnect) */
    int write_policy;     /* l1d.write_policy: enum l1d_write_policy */
    int alloc;            /* l1d.alloc: enum l1d_alloc */
    int set_index;        /* l1d.set_index: enum l1d_set_index */
    bool enable;          /* l1d.enable: false = every global/local access goes to L2 (no tag check, no MSHR) */
    int repl;                   /* l1d.repl: enum ta_repl_kind (replacement policy) */
    uint64_t victim_tags;       /* l1d.victim_tags (entries; 0 = off) */
    uint64_t victim_tags_assoc; /* l1d.victim_tags_assoc (ways per victim-tag set; 0 = fully associative) */
    bool perfect;               /* l1d.perfect: contention-free L1D (NOTE(l1d-perfect) in l1d.c, docs/knobs.md) */
    bool locality_stats;        /* l1d.locality_stats: classify loads by last accessor (docs/vws.md) */
    struct coh_cfg coh;         /* the coh.* section, copied in by the GPU model (no l1d key) */
    uint64_t period_ps;         /* the L1D's clock period (ps; the SM pipeline), for TC's physical leases (no key) */
};

extern const struct cfg_section l1d_cfg_section;
/* The key table (usable before the section is registered). */
extern const struct cfg_key *const l1d_cfg_keys;
extern const unsigned l1d_cfg_n_keys;

/* Fill *c with the built-in defaults (gtx480 values of spec 1.2 / 4.2). */
void l1d_cfg_defaults(struct l1d_cfg *c);
/* Cross-field rules (also the section check): NULL when valid, else what is
 * wrong with *key set to the full key name at fault. */
const char *l1d_cfg_invalid(const struct l1d_cfg *c, const char **key);

/* Fermi set-index hash of spec 1.2 for a 128 B-line cache with n_sets 32 or 64:
 * set = ((A >> 7) & 31) ^ h, h = A13 | A14<<1 | A15<<2 | A17<<3 | A19<<4;
 * with 64 sets, A12 becomes set bit 5. */
uint32_t l1d_fermi_set(uint64_t addr, uint32_t n_sets);

/* ------------------------------------------------------------- access */

#define L1D_ID_FILL 0x80000000u /* request id bit: cached read miss, low bits = MSHR entry */

/* One transaction presented by the LD/ST unit. */
struct l1d_acc {
    struct coal_txn txn;          /* the coalescer's transaction (line, lanes, byte mask, segment, op, bypass) */
    uint32_t token;               /* caller's tag (< L1D_ID_FILL), returned in the completion */
    uint8_t is_local;             /* 1 = local memory (write-back policy), 0 = global */
    uint8_t pad_;
    uint16_t warp;                /* requesting warp slot (requester identity; MEM_WARP_NONE = none) */
    uint32_t cta;                 /* its linear CTA id (MEM_CTA_NONE = unknown) */
    struct mem_atom atom;         /* COAL_ATOMIC only: operation and lane offsets */
    uint8_t data[MEM_LINE_BYTES]; /* store: bytes at line offsets under txn.bytes; atomic: packed operands */
};

enum l1d_result {
    L1D_HIT,    /* served from the L1 (read hit, local store hit); completion at t + hit_latency */
    L1D_MISS,   /* new MSHR entry, read queued to L2 */
    L1D_MERGED, /* merged into an outstanding MSHR entry */
    L1D_SENT,   /* passed to L2 (bypass load, global/local store to L2, atomic); completion on its reply */
    L1D_FAIL,   /* reservation fail: nothing changed, retry later */
};

enum l1d_rf_cause {
    L1D_RF_MSHR_FULL,    /* no free MSHR entry */
    L1D_RF_MERGE_LIMIT,  /* the line's MSHR entry holds l1d.mshr_merge requests */
    L1D_RF_MISS_QUEUE,   /* miss queue lacks the slots the access needs */
    L1D_RF_SET_RESERVED, /* on_miss: every way of the set is RESERVED */
    L1D_RF_STALE,        /* load to a line whose MSHR entry was marked stale by a store */
    L1D_RF_DONE_FULL,    /* hit completion queue full (caller is not popping) */
    L1D_RF_PORT,         /* a second access in the same cycle */
    L1D_RF_COUNT
};

enum l1d_done_kind { L1D_DONE_LOAD, L1D_DONE_STORE, L1D_DONE_ATOMIC };
enum l1d_done_src { L1D_SRC_HIT, L1D_SRC_FILL, L1D_SRC_L2 };

/* A completed access handed back to the LD/ST unit. */
struct l1d_done {
    uint64_t line_addr;           /* line of the access */
    uint32_t token;               /* the access's token */
    uint32_t latency;             /* core cycles from access to completion */
    uint8_t kind;                 /* enum l1d_done_kind */
    uint8_t src;                  /* enum l1d_done_src: L1 hit, L1 fill, or a reply passed through */
    uint8_t n_lanes;              /* atomic: old values carried */
    uint8_t pad_;
    uint8_t data[MEM_LINE_BYTES]; /* load: the line's bytes at line offsets; atomic: old values (memreq.h) */
};

/* Locality class of a load (l1d.locality_stats): who last loaded the line
 * in this SM since kernel launch (warp-sched-vws.md 6.2). */
enum l1d_loc { L1D_LOC_INTRA_WARP, L1D_LOC_INTRA_CTA, L1D_LOC_INTER_CTA, L1D_LOC_COLD };

/* Per-warp access outcomes for the SM's warp scheduler (docs/l1.md "Per-warp
 * events"): one event per accepted transaction, plus one per line that
 * leaves the cache, naming the warp that inserted it. */
enum l1d_event {
    L1D_EV_HIT,   /* load served from the L1 */
    L1D_EV_MISS,  /* load that opened an MSHR entry (allocating miss) */
    L1D_EV_MERGE, /* load merged into an open MSHR entry */
    L1D_EV_STORE, /* store transaction (hit or miss; local hits included) */
    L1D_EV_OTHER, /* bypassing load or atomic sent to L2 */
    L1D_EV_EVICT, /* a VALID/MODIFIED line left (replacement, invalidation, flush); warp = its inserter */
    L1D_EV_COUNT
};

/* The hook: warp is the accessing warp (the inserting warp for EVICT,
 * MEM_WARP_NONE when unknown); line_addr the line. Runs inside l1d_access /
 * l1d_tick / the invalidations; it must not call back into the cache. */
typedef void (*l1d_event_fn)(void *ctx, uint32_t warp, enum l1d_event ev, uint64_t line_addr);

/* NOTE(coh-traffic): with a coherence protocol the L1D counts its messages
 * and their payload bytes (memreq.c's kind registry) by kind: the NoC
 * traffic split of 001 Figure 3.15 (requests: line reads, G-TSC renewals,
 * writes, atomics, write-backs; replies: data, data-less renewals, acks,
 * atomic results). Off (not registered) without coherence. */
enum l1d_msg {
    L1D_MSG_REQ_READ, L1D_MSG_REQ_RENEW, L1D_MSG_REQ_WRITE, L1D_MSG_REQ_ATOMIC, L1D_MSG_REQ_WB,
    L1D_MSG_REP_DATA, L1D_MSG_REP_RENEW, L1D_MSG_REP_ACK, L1D_MSG_REP_ATOMIC, L1D_MSG_COUNT
};

/* TC state of the L1D (coh.protocol = tc; NOTE(l1d-tc) in l1d_tc.c).
 * Times are physical, in ps of simulated time. */
struct l1d_tc {
    uint64_t period_ps;      /* the L1D's cycle (ps) */
    uint64_t *exp;           /* [n_lines] the copy's lease expiry (ps) */
    uint64_t gwct[64];       /* per warp slot: the latest "global write completion time" acked to it (ps) */
    struct {
        uint64_t expired;       /* loads that found their copy expired (coherence misses) */
        uint64_t open_refusals; /* stores/atomics refused while their line had a read outstanding (per attempt) */
        uint64_t fence_waits;   /* L1D cycles gpu fences/releases waited for the GWCT after their acks */
    } st;
};

/* ------------------------------------------------------------- state */

struct l1d_stats {
    uint64_t loads;            /* load transactions accepted (bypass included) */
    uint64_t stores;           /* store transactions accepted */
    uint64_t atomics;          /* atomic transactions accepted */
    uint64_t load_hits;        /* loads served from a VALID/MODIFIED line */
    uint64_t load_misses;      /* loads that opened an MSHR entry */
    uint64_t mshr_merges;      /* loads merged into an open MSHR entry (MSHR hits) */
    uint64_t bypass_loads;     /* .cg/.cv/volatile loads sent to L2 */
    uint64_t store_hits;       /* stores that found the line VALID/MODIFIED */
    uint64_t store_misses;     /* stores that did not */
    uint64_t store_allocs;     /* global write-through write misses that allocated a line */
    uint64_t evictions;        /* VALID lines evicted by a global store or atomic */
    uint64_t rf[L1D_RF_COUNT]; /* reservation fails by cause, per attempt */
    uint64_t writebacks;       /* dirty (local) lines written back to L2 */
    uint64_t fills;            /* line fills processed */
    uint64_t stale_marks;      /* MSHR entries marked stale by a store or atomic */
    uint64_t stale_fills;      /* fills not installed because their entry was stale */
    uint64_t inval_clean;      /* clean-line invalidations (gpu-scope acquires and fences) */
    uint64_t inval_lines;      /* VALID lines dropped by them */
    uint64_t replies;          /* replies processed (fills, acks, atomics, bypass reads) */
    uint64_t req_sent;         /* requests popped toward L2 */
    uint64_t stall_resp;       /* cycles the reply-FIFO head waited (completion room, write-back room) */
    struct stat_avg miss_lat;  /* core cycles from access to completion, loads served by a fill */
    struct stat_avg mq_wait;   /* core cycles a request waited in the miss queue (queued -> into the network) */
    uint64_t perfect_hits;     /* l1d.perfect: loads served from the side store (included in load_hits) */
    uint64_t loc[4][2];        /* l1d.locality_stats: loads by last accessor (enum l1d_loc) x (hit, miss) */
    uint64_t miss_cold;        /* coherence on: read misses of a line not requested since launch */
    uint64_t miss_evicted;     /* coherence on: read misses of an absent line requested before (capacity,
                                  conflict, or dropped by an atomic or a stale ack) */
    uint64_t msgs[L1D_MSG_COUNT];      /* coherence on: messages by kind (NOTE(coh-traffic)) */
    uint64_t msg_bytes[L1D_MSG_COUNT]; /* coherence on: their payload bytes */
};

struct l1d_rx {
    struct mem_reply rep; /* reply from L2 */
    uint64_t ready;       /* first cycle l1d_tick may process it */
};

struct l1d_dq {
    struct l1d_done d; /* completion */
    uint64_t ready;    /* first cycle it may be popped */
};

/* MSHR request slot: one merged load. */
struct l1d_pend {
    uint32_t token;  /* caller's token */
    uint32_t ts;     /* G-TSC: the warp's warp_ts at the access (its load's logical time) */
    uint64_t t_acc;  /* cycle of the access */
    uint16_t warp;   /* G-TSC: the loading warp */
    uint16_t pad_[3];
};

#define L1D_GTSC_WARPS 64 /* warp slots with a warp_ts register (LDST_MAX_WARPS) */

/* G-TSC state of the L1D (coh.protocol = gtsc; NOTE(l1d-gtsc) in
 * l1d_gtsc.c). Timestamps are logical, 32-bit, copies of L2's. */
struct l1d_gtsc {
    uint32_t *wts;      /* [n_lines] write timestamp of the copy's version */
    uint32_t *rts;      /* [n_lines] end of the copy's lease */
    uint16_t *pend;     /* [n_lines] own stores awaiting BusWrAck (locked while > 0) */
    uint8_t *stale;     /* [n_lines] an ack flagged the copy as possibly stale (dropped at unlock) */
    uint8_t *blocked;   /* [mshr entries] 1 = loads wait for a locked line's acks, no read outstanding */
    uint32_t *egen;     /* [mshr entries] generation its waiters' warp_ts belong to (NOTE(l1d-gtsc-reset)) */
    uint32_t gen;       /* timestamp generation: the newest L2 reset this L1 has heard of */
    uint32_t warp_ts[L1D_GTSC_WARPS]; /* per warp slot: logical time of its last memory operation */
    struct {
        uint64_t lease_misses;  /* loads that found the tag but an expired lease (coherence misses) */
        uint64_t blocked_loads; /* loads that waited for a locked line (update visibility) */
        uint64_t renewals_sent; /* BusRd sent for a present copy (wts != 0) */
        uint64_t rnw_recv;      /* BusRnw received (lease renewed without data) */
        uint64_t renew_lost;    /* BusRnw for a copy evicted meanwhile (re-requested, OQ-6) */
        uint64_t fills_noway;   /* fills not installed: every way of the set locked */
        uint64_t store_locks;   /* stores that locked a present copy */
        uint64_t stale_drops;   /* copies dropped at unlock on an invalidate flag (OQ-5) */
        uint64_t open_refusals; /* stores/atomics refused while the line had an open MSHR entry (per attempt) */
        uint64_t waiter_renewals;/* renewals for waiting loads a reply's lease did not cover */
        uint64_t warp_ts_max;   /* largest warp_ts reached (logical time) */
        uint64_t resets;        /* timestamp resets taken (a reply of a newer generation) */
        uint64_t old_replies;   /* replies of an older generation (reads re-sent, acks without lease) */
    } st;
};

struct l1d {
    /* configuration, fixed at init */
    int sm_id;              /* SM id: request src and statistics instance */
    uint32_t n_sets;        /* sets */
    uint32_t line;          /* bytes per line */
    uint32_t hit_lat;       /* core cycles */
    int write_policy;       /* enum l1d_write_policy */
    int alloc;              /* enum l1d_alloc */
    int set_index;          /* enum l1d_set_index */
    bool enabled;           /* l1d.enable (NOTE(l1d-off)) */
    bool cache_stats;       /* l1d.repl or l1d.victim_tags not default: register the tag array's statistics */
    struct l1d_pstore *ps;  /* l1d.perfect: lines beyond the tag array (l1d_perfect.h); NULL = off */

    /* cache state */
    struct coh_table coh;   /* the line protocol (noncoh_l1_we or _wt, docs/coherence.md) */
    struct tagarray tags;   /* tags, LRU, line states (a way's state byte is its protocol state) */
    uint8_t *data;          /* [n_lines * line] bytes */
    struct mshr mshr;       /* outstanding read misses; slots are struct l1d_pend */
    int32_t *mshr_line;     /* [mshr entries] RESERVED line (on_miss) or -1 */
    uint8_t *mshr_stale;    /* [mshr entries] 1 = a store/atomic hit the outstanding line */
    uint64_t *mshr_t;       /* [mshr entries] cycle of the miss */
    uint16_t *mshr_warp;    /* [mshr entries] warp of the miss (its fill's inserting warp) */
    uint32_t *mshr_cta;     /* [mshr entries] CTA of the miss */

    /* queues */
    struct reqq mq;         /* miss queue toward L2 */
    struct l1d_rx *rx;      /* reply FIFO from the interconnect */
    struct idx_ring rx_r;
    struct l1d_dq *hq;      /* hit completions (ready = access + hit latency) */
    struct idx_ring hq_r;
    struct l1d_dq *fq;      /* completions of processed replies */
    struct idx_ring fq_r;

    /* requester identity of the access in progress (stamped on the requests it queues) */
    uint16_t cur_warp;      /* warp slot, MEM_WARP_NONE outside an access */
    uint8_t cur_space;      /* enum mem_space */
    uint32_t cur_cta;       /* linear CTA id */

    /* per-warp event hook (l1d_set_event_hook), NULL = off */
    l1d_event_fn ev_fn;
    void *ev_ctx;
    struct ta_opts ta_o;    /* the tag array's options (re-init with metadata when the hook is set) */
    struct lastacc *loc;    /* l1d.locality_stats: line -> (CTA, warp) of the last load, NULL = off */
    struct l1d_gtsc *g;     /* coh.protocol = gtsc: leases and warp timestamps; NULL = non-coherent */
    struct l1d_tc *tc;      /* coh.protocol = tc: physical leases and GWCTs; NULL = not TC */
    struct lastacc *seen;   /* coherence on: lines requested since launch (miss classes); NULL = off */

    /* timing */
    uint64_t last_acc;      /* cycle + 1 of the last access (0 = none) */
    uint32_t flush_pos;     /* next line index to scan for dirty data; n_lines = not flushing */
    uint64_t gen;           /* changes with every change of the state an access reads (NOTE(fail-memo) in ldst.c) */

    struct l1d_stats st;
};

/* NOTE(fail-memo): a failed access of the non-coherent L1D (no G-TSC, no
 * TC, no perfect store) changed nothing but its reservation-fail counter,
 * and the same access fails again with the same cause while gen is
 * unchanged, except for a port conflict, which depends on the cycle. */
static inline bool l1d_fail_repeats(const struct l1d *l, enum l1d_rf_cause c)
{
    return c != L1D_RF_PORT && !l->g && !l->tc && !l->ps && !l->seen;
}
/* Count n more failed attempts with cause c (the repeats of a memoised failure). */
static inline void l1d_count_fails(struct l1d *l, enum l1d_rf_cause c, uint64_t n) { l->st.rf[c] += n; }

/* ------------------------------------------------------------- API */

void l1d_init(struct l1d *l, const struct l1d_cfg *cfg, int sm_id);
void l1d_fini(struct l1d *l);
/* Attach the per-warp event hook (setup only: the cache must be empty). It
 * rebuilds the tag array with 2 bytes of per-line metadata (the inserting
 * warp, docs/cache.md) and an eviction hook; without it the tag array stays
 * the plain fast path and no event is produced. fn NULL = off. */
void l1d_set_event_hook(struct l1d *l, l1d_event_fn fn, void *ctx);

/* Present one transaction at core cycle `cycle`. On L1D_FAIL, *cause (if
 * non-NULL) says why and nothing changed. */
enum l1d_result l1d_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause);

/* Head of the miss queue if it may leave at `cycle` (so the caller can check
 * injection room for its flits), else NULL. */
static inline const struct mem_req *l1d_peek_req(const struct l1d *l, cycle_t cycle)
{
    return reqq_peek(&l->mq, cycle);
}
/* Pop it (at most one per cycle); false when none is ready. */
bool l1d_pop_req(struct l1d *l, struct mem_req *out, cycle_t cycle);

/* The ejection side may hand over a reply only when this is true. */
bool l1d_can_accept_reply(const struct l1d *l);
/* Accept a reply at `cycle`; false (nothing changed) when the FIFO is full. */
bool l1d_push_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle);

/* Pop one completion ready at `cycle` (oldest ready first); false when none. */
bool l1d_pop_done(struct l1d *l, struct l1d_done *out, cycle_t cycle);
/* The tokens of the completions at the heads of the hit and reply queues
 * (the next ones l1d_pop_done gives), for the LD/ST unit's prefetch of
 * their slots (NOTE(slot-prefetch) in ldst.c); returns how many (0-2). */
static inline unsigned l1d_peek_done_tokens(const struct l1d *l, uint32_t tok[2])
{
    unsigned n = 0;
    if (l->hq_r.n)
        tok[n++] = l->hq[l->hq_r.head].d.token;
    if (l->fq_r.n)
        tok[n++] = l->fq[l->fq_r.head].d.token;
    return n;
}

/* Advance one core cycle; returns the next cycle with work, CYCLE_NEVER when idle. */
uint64_t l1d_tick(struct l1d *l, cycle_t cycle);

/* Acquire half of a gpu-scope acquire or fence (docs/memmodel.md): drop
 * every VALID line and mark every open MSHR entry stale (its fill answers
 * the loads merged so far but is not installed; later loads miss again).
 * MODIFIED lines hold the SM's private local data and stay. One cycle, no
 * traffic; safe with accesses outstanding. */
void l1d_invalidate_clean(struct l1d *l, cycle_t cycle);

/* Kernel launch (serial step): invalidate every line. The cache must be idle
 * (l1d_idle) and hold no dirty line (call l1d_flush_dirty at kernel end). */
void l1d_invalidate_all(struct l1d *l);
/* Kernel end: queue a write-back of every MODIFIED line, one per cycle as
 * miss-queue room allows (driven by l1d_tick); l1d_idle turns true when done. */
void l1d_flush_dirty(struct l1d *l);
/* Nothing queued, outstanding or being flushed. */
bool l1d_idle(const struct l1d *l);
/* The L1D keeps itself coherent (coh.protocol = gtsc): acquires and fences
 * need not invalidate it. */
static inline bool l1d_coherent(const struct l1d *l) { return l->g != NULL || l->tc != NULL; }
/* TC-Weak (NOTE(l1d-tc)): the first L1D cycle at which a gpu-scope fence or
 * release of the SM may complete: every GWCT acked to any warp of the SM has
 * passed (0 when not TC). Counts a waiting cycle when it is after `cycle`. */
uint64_t l1d_tc_fence_cycle(struct l1d *l, cycle_t cycle);
/* G-TSC: the warp's logical time (tests); 0 when not coherent. */
uint32_t l1d_warp_ts(const struct l1d *l, uint32_t warp);
/* G-TSC, NOTE(gtsc-sync) in l1d_gtsc.c: a gpu-scope fence or release of
 * `warp` whose release condition holds raises its warp_ts to the largest of
 * the SM; a CTA barrier's release raises warps [w0, w0 + n) to their largest. */
void l1d_gtsc_fence(struct l1d *l, uint32_t warp);
void l1d_gtsc_barrier(struct l1d *l, uint32_t w0, uint32_t n);

/* Test / serial-step access: state of the line holding line_addr
 * (TA_INVALID when absent); copies its bytes when present and out != NULL. */
enum ta_state l1d_probe_line(const struct l1d *l, uint64_t line_addr, uint8_t out[MEM_LINE_BYTES]);
/* Set index of a line address under this cache's set-index function. */
uint32_t l1d_set_of(const struct l1d *l, uint64_t line_addr);

/* Statistics under group "l1d", instance sm_id. */
void l1d_stats_register(struct l1d *l, struct stats *s);
/* Human-readable dump of the counters (STYLE.md unit API). */
void l1d_stats_dump(const struct l1d *l, FILE *out);

#endif /* GPUSIM_SIM_SM_LSU_L1D_H */
