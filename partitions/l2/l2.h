/* partitions/l2/l2.h: one L2 slice (memory sub-partition), cycle-driven in the
 * L2 clock domain (spec baseline-gpu.md 1.4, 2.8, 3.3, 4.2; docs/l2.md).
 *
 * What is modelled, per sub-partition:
 *  - the ROP input delay line (fixed delay, texture requests skip it) and the
 *    four FIFOs of l2.queue entries: interconnect->L2 (input), L2->DRAM,
 *    DRAM->L2 (fill) and L2->interconnect (reply);
 *  - a write-back, write-allocate, allocate-on-miss cache holding real bytes:
 *    tag array with a replacement policy (LRU by default, l2.repl) and
 *    INVALID/RESERVED/VALID/MODIFIED lines, optional victim tags, MSHRs
 *    with a merge limit, a miss queue, reservation fails by cause, dirty
 *    victim write-backs;
 *  - a data port and a separate fill port of l2.data_port bytes per cycle;
 *  - writes merged under a byte mask, atomics applied in lane order with
 *    fpu_atomic (the functional executor's semantics), acknowledgements;
 *  - requests queued in an MSHR entry applied at fill in arrival order;
 *  - the line control as a (state x event) protocol table (sim/mem/coh.h,
 *    sim/mem/coh_noncoh_l2.c, docs/coherence.md): the lookup checks its
 *    resources, then steps the line (I, R, V, M) through the table's
 *    actions; a fill steps R on Fill or FillDirty.
 * What is not modelled: the DRAM controller, the backing store (the caller
 * answers line reads with backing-store bytes and applies write-backs),
 * address mapping (the caller supplies the set-index function), coherence
 * and race-detection hooks, tag/bank conflicts beyond the two ports.
 *
 * Calling convention, per L2 cycle t (the wrapper maps engine time to t):
 *   1. l2_tick(l, t);
 *   2. then any of l2_push, l2_pop_reply, l2_pop_dram_req, l2_dram_fill at t.
 * Inputs given at t are first used by l2_tick(t + 1); outputs produced by
 * l2_tick(t) may be popped at t. l2_tick returns the next cycle at which it
 * has work assuming no further calls; after any call of step 2 the wrapper
 * must tick again at the next cycle (t + 1) at the latest.
 *
 * Timing (hand-checkable; R = ROP delay in L2 cycles, P = l2.data_port,
 * n = ceil(size / P), F = line / P; gtx480: R = 120, n = F = 4):
 *   push at t -> tag lookup at a = t + max(R, 1) when the input queue is empty;
 *   hit  -> data port busy a+1 .. a+n, reply poppable at a + 1 + n;
 *   miss -> DRAM line read poppable at a + 1 (via the miss queue);
 *   fill given at f0 -> fill port busy f .. f+F-1 with f = f0 + 1 (if free),
 *           replies of the MSHR entry poppable at f + F, f + F + 1, ... (one per cycle);
 *   a miss that evicts a dirty line also keeps the data port busy for F cycles.
 *
 * Hot path: no allocation, no locks, no strings; every queue is preallocated.
 */
#ifndef GPUSIM_PARTITIONS_L2_L2_H
#define GPUSIM_PARTITIONS_L2_L2_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/mem/atomic.h"
#include "sim/mem/coh.h"
#include "sim/mem/memreq.h"
#include "sim/mem/lastacc.h"
#include "sim/mem/mshr.h"
#include "sim/mem/ring.h"
#include "sim/mem/tagarray.h"
#include "sim/base/stats.h"

struct cfg_section;

/* ------------------------------------------------------------- config */

enum l2_write_miss {
    L2_WRITE_MISS_FETCH,     /* allocate, fetch the line, merge the write at fill [proposal] */
    L2_WRITE_MISS_BYTE_MASK, /* allocate without fetching; per-byte valid mask */
    L2_WRITE_MISS_FETCH_WRITE, /* GPGPU-Sim 3.x wr_miss_wa: forward the write to DRAM and fetch the line */
};

struct l2_cfg {
    uint64_t size_per_sub; /* l2.size_per_sub (bytes) of one slice */
    uint64_t assoc;        /* l2.assoc (ways) */
    uint64_t line;         /* l2.line (bytes per line; must be MEM_LINE_BYTES) */
    uint64_t mshr;         /* l2.mshr (entries) */
    uint64_t mshr_merge;   /* l2.mshr_merge (requests per MSHR entry, including the first miss) */
    uint64_t miss_queue;   /* l2.miss_queue (entries) */
    uint64_t rop_latency;  /* l2.rop_latency (pipeline cycles; converted with l2_rop_cycles) */
    uint64_t queue;        /* l2.queue (entries) of each of the four sub-partition FIFOs */
    uint64_t data_port;    /* l2.data_port (bytes per L2 cycle) of the data port and of the fill port */
    int write_miss;        /* l2.write_miss: enum l2_write_miss */
    int repl;              /* l2.repl: enum ta_repl_kind (replacement policy) */
    uint64_t victim_tags;  /* l2.victim_tags (entries per slice; 0 = off) */
    uint64_t victim_tags_assoc; /* l2.victim_tags_assoc (ways per victim-tag set; 0 = fully associative) */
    bool locality_stats;   /* l2.locality_stats: split hits by last accessor SM (docs/vws.md) */
    bool sector_fetch;     /* l2.sector_fetch: a line read costs one DRAM column access per 32 B sector it needs */
    bool sector_replies;   /* l2.sector_replies: read replies leave one packet per 32 B sector (NOTE(sector-replies)) */
};

extern const struct cfg_section l2_cfg_section;

/* Fill *c with the built-in defaults (the gtx480 values of spec 4.2). */
void l2_cfg_defaults(struct l2_cfg *c);
/* ROP delay in L2 cycles: rop_latency pipeline cycles of pipe_period_ps,
 * rounded to the nearest L2 cycle (gtx480: 120 x 1429 / 1429 = 120). */
uint64_t l2_rop_cycles(const struct l2_cfg *c, ps_t pipe_period_ps, ps_t l2_period_ps);
/* Cross-field rules (also the section's check): NULL when valid, else what
 * is wrong, with *key set to the full key name at fault. */
const char *l2_cfg_invalid(const struct l2_cfg *c, const char **key);

/* ------------------------------------------------------------- requests */

/* A request to the DRAM side: a 128 B line read, or a dirty-line write-back
 * carrying the line's bytes and which of them are valid (all 128 unless
 * l2.write_miss = byte_mask left some never written or fetched).
 * Requester identity (docs/l2.md): a read carries the identity of the
 * request that missed (the MSHR entry's first) and the entry's merge count
 * at the moment it leaves the L2 (l2_pop_dram_req); a write-back carries the
 * identity of the request whose miss evicted the line. */
struct l2_dram_req {
    uint64_t line_addr;           /* device address of the line */
    uint64_t mask[2];             /* write-back: bytes to write (bit i = byte i) */
    uint8_t is_write;             /* 1 = write-back, 0 = line read */
    uint8_t space;                /* enum mem_space of the request that caused it */
    uint16_t sm;                  /* requesting SM (mem_req.src) of the request that caused it */
    uint16_t warp;                /* its warp slot (MEM_WARP_NONE = none) */
    uint16_t merges;              /* read: requests in the L2 MSHR entry when it left the L2 (>= 1); 0 for writes */
    uint32_t cta;                 /* its linear CTA id */
    uint8_t sectors;              /* read: 32 B sectors its MSHR entry's requests touch as it leaves (bit k =
                                     bytes 32k..32k+31; l2.sector_fetch, NOTE(sector-fetch) in l2.c); else 0xF */
    uint8_t pad_[3];
    uint64_t t_create;            /* its creation cycle at the SM (mem_req.t_create) */
    uint64_t t_create_sum;        /* read: sum of t_create over the MSHR entry's requests as it left
                                     (SM pipeline cycles; MSHR-S+A ages, docs/dram.md) */
    uint8_t data[MEM_LINE_BYTES]; /* write-back: the line's bytes */
};

/* ------------------------------------------------------------- state */

enum l2_rf_cause {
    L2_RF_SET_RESERVED, /* no victim: every way of the set is RESERVED */
    L2_RF_MISS_QUEUE,   /* fewer than 2 free miss-queue slots */
    L2_RF_MSHR_FULL,    /* no free MSHR entry */
    L2_RF_MERGE_LIMIT,  /* the line's MSHR entry already holds l2.mshr_merge requests */
    L2_RF_COUNT
};

struct l2_stats {
    uint64_t acc[MEM_OP_COUNT];    /* requests processed, by enum mem_op (once each, retries excluded) */
    uint64_t hits;                 /* requests served at lookup */
    uint64_t loc_hits[3];          /* l2.locality_stats: hits by last accessor: same SM, other SM, none */
    uint64_t misses;               /* requests that allocated a line (MSHR miss or byte_mask allocation) */
    uint64_t merges;               /* requests queued in an open MSHR entry (MSHR hits) */
    uint64_t rf[L2_RF_COUNT];      /* reservation fails by cause, counted per attempt */
    uint64_t writebacks;           /* dirty victims written back */
    uint64_t write_forwards;       /* fetch_write: writes sent on to DRAM (missing or reserved line) */
    uint64_t dram_reads;           /* line reads sent */
    uint64_t fills;                /* lines filled from DRAM */
    uint64_t stall_input_full;     /* cycles a ROP-ready request waited for the input queue */
    uint64_t stall_reply_full;     /* cycles the input head waited for reply-queue room */
    uint64_t stall_data_port;      /* cycles the input head waited for the data port */
    uint64_t stall_dram_full;      /* cycles the miss-queue head waited for L2->DRAM room */
    uint64_t stall_drain_full;     /* cycles a fill reply waited for reply-queue room */
    struct stat_avg mshr_occ;      /* MSHR entries in use, one sample per L2 cycle (entries) */
    uint64_t mshr_cycles[3];       /* L2 cycles with no MSHR entry in use / every entry holding one
                                      request / some entry holding more (seed 003's merge classes) */
    struct stat_avg hit_lat;       /* L2 cycles from push to reply poppable, hits */
    struct stat_avg miss_lat;      /* L2 cycles from push to reply poppable, served at fill */
};

/* G-TSC state of a slice (coh.protocol = gtsc; spec coherence-gtsc.md 1.2,
 * 2.3-2.6, NOTE(l2-gtsc) in l2.c). Timestamps are logical, 32-bit. */
struct l2_gtsc {
    uint32_t lease;       /* coh.gtsc_lease (logical time) */
    int rd_extend;        /* coh.gtsc_rd_extend: enum coh_rd_extend */
    uint32_t mem_ts;      /* largest rts of any line this slice evicted (initially 1) */
    uint32_t *wts;        /* [n_lines] write timestamp of the line's current version */
    uint32_t *rts;        /* [n_lines] end of the latest lease handed out for it */
    uint32_t gen;         /* timestamp generation: resets taken (NOTE(gtsc-reset)) */
    uint32_t max_ts;      /* 2^coh.gtsc_ts_bits - 1: no timestamp may exceed it */
    uint32_t reset_at;    /* a timestamp >= this asks for a reset (max_ts - 2^(bits-2)) */
    bool reset_req;       /* a timestamp reached reset_at: reset at the end of the quantum */
    struct {
        uint64_t rd_fills;     /* reads answered with data (BusFill) */
        uint64_t rd_renewals;  /* reads answered without data (BusRnw: the L1 holds this version) */
        uint64_t stamps;       /* writes and atomics timestamped (st_ts = max(warp_ts, rts + 1)) */
        uint64_t inval_acks;   /* write acks telling the writer to drop its L1 copy (OQ-5) */
        uint64_t mem_ts_raises;/* evictions that raised mem_ts */
        uint64_t resets;       /* timestamp resets taken (NOTE(gtsc-reset)) */
        uint64_t old_reqs;     /* requests stamped before the last reset (answered with warp_ts 1, no BusRnw) */
    } st;
    uint64_t mem_ts_stat;  /* largest mem_ts reached, for the statistics (a uint64_t maximum) */
};

/* TC state of a slice (coh.protocol = tc; spec coherence-gtsc.md 3.3,
 * NOTE(l2-tc) in l2.c). Times are physical, ps of simulated time. */
struct l2_tc {
    uint64_t period_ps;   /* the slice's cycle (ps) */
    uint64_t lease_ps;    /* coh.tc_lease x the SM pipeline period (ps) */
    bool strong;          /* coh.tc_variant = strong */
    uint64_t now_ps;      /* the cycle being ticked, in ps */
    uint64_t *gts;        /* [n_lines] latest lease expiry handed out for the line (ps) */
    struct {
        uint64_t write_stalls; /* TC-Strong: cycles the input head (a write or atomic) waited for leases */
        uint64_t evict_stalls; /* cycles a miss waited for its victim's leases to expire */
        uint64_t leases;       /* reads that handed out a lease */
    } st;
};

/* Entry of the ROP line / input queue ring. */
struct l2_in {
    struct mem_req req; /* the request */
    uint64_t t_push;    /* L2 cycle it was pushed */
    uint64_t rop_ready; /* first cycle it may enter the input queue */
};

/* MSHR request slot: the request until the fill, then its reply. */
struct l2_pend {
    union {
        struct mem_req req;
        struct mem_reply rep;
    } u;
    uint64_t t_push;  /* L2 cycle the request was pushed */
    uint8_t no_reply; /* after the fill: 1 = nothing to send (write-back) */
    uint8_t forwarded;/* fetch_write: the write also went to DRAM (applied at fill without dirtying) */
};

struct l2_staged {
    struct mem_reply rep; /* reply leaving the data port */
    uint64_t ready;       /* cycle it enters the reply queue */
};

struct l2_missq {
    struct l2_dram_req r; /* DRAM request */
    uint64_t ready;       /* first cycle it may move on */
};

struct l2_fill {
    uint64_t line_addr;           /* filled line */
    uint64_t ready;               /* first cycle the fill port may take it */
    uint8_t data[MEM_LINE_BYTES]; /* the line's bytes from the backing store */
};

/* Optional hook (l2_set_merge_hook): a request joined the outstanding miss
 * of line_addr, whose MSHR entry now holds `count` requests; rq is the
 * joining request. Lets a DRAM scheduler update a read already queued in
 * the controller (dram_update, dram-intercore-locality.md). */
typedef void (*l2_merge_fn)(void *ctx, int slice, uint64_t line_addr, uint32_t count, const struct mem_req *rq);

struct l2_init_args {
    int instance;       /* slice id (statistics, messages) */
    uint64_t rop_cycles;/* ROP delay in L2 cycles (l2_rop_cycles) */
    ta_set_fn set_fn;   /* set index of a line address; NULL = linear on the line number */
    void *set_ctx;      /* argument of set_fn */
    const struct mem_atomic_ops *atom; /* atomic semantics (sim/mem/atomic.h); NULL = no atomics expected */
    const struct coh_cfg *coh;         /* coherence protocol (coh.*); NULL = none */
    uint64_t period_ps;                /* TC: the slice's clock period (ps) */
    uint64_t tc_lease_ps;              /* TC: the lease (ps) */
};

struct l2 {
    /* configuration, fixed at init */
    int instance;          /* slice id */
    const struct mem_atomic_ops *atom; /* atomic semantics applied at this slice (sim/mem/atomic.h) */
    uint32_t line;         /* bytes per line */
    uint32_t n_lines;      /* lines (sets x ways) */
    uint32_t port_bytes;   /* bytes per cycle of each port */
    uint32_t fill_cycles;  /* cycles of the fill port per line (line / port_bytes) */
    uint32_t line_cycles;  /* data-port cycles to read out a dirty victim */
    uint32_t mshr_merge;   /* requests per MSHR entry */
    uint64_t rop_cycles;   /* ROP delay (L2 cycles) */
    int write_miss;        /* enum l2_write_miss */
    bool cache_stats;      /* l2.repl or l2.victim_tags not default: register the tag array's statistics */
    struct lastacc *loc;   /* l2.locality_stats: line -> last requesting SM, NULL = off */
    struct l2_gtsc *g;     /* coh.protocol = gtsc: timestamps and leases; NULL = no coherence */
    struct l2_tc *tc;      /* coh.protocol = tc: physical leases; NULL = not TC */

    /* cache state */
    struct coh_table coh;  /* the line protocol (noncoh_l2_fetch or _byte_mask, docs/coherence.md) */
    struct tagarray tags;  /* tags, replacement state, line states (= protocol states), victim tags */
    uint8_t *data;         /* [n_lines * line] bytes */
    uint64_t *valid;       /* [n_lines * 2] per-byte valid mask (all ones except byte_mask lines) */
    uint8_t *dirty_res;    /* [n_lines] a RESERVED line already holds written bytes (byte_mask) */
    struct mshr mshr;      /* outstanding misses; slots are struct l2_pend */
    uint32_t *mshr_lineidx;/* [mshr entries] reserved line of the entry */
    uint32_t n_multi;      /* MSHR entries in use that hold more than one request (entries) */
    struct stat_hist merge_at_fill; /* statistics: requests an MSHR entry holds when its fill arrives
                                       (outside st: it owns memory, st is compared bytewise in tests) */
    uint64_t *drain_from;  /* [mshr entries] first cycle its replies may leave */
    uint32_t *drain_pos;   /* [mshr entries] replies already sent */

    /* queues */
    struct l2_in *in;      /* ROP line + input queue, one ring: the first in_q entries are in the queue */
    struct idx_ring in_r;   /* ring of in[] */
    uint32_t in_q;         /* entries (from the head) that are in the input queue */
    uint32_t in_q_cap;     /* input queue capacity (l2.queue) */
    struct l2_missq *mq;   /* miss queue */
    struct idx_ring mq_r;
    struct l2_missq *dq;   /* L2->DRAM queue (ready unused) */
    struct idx_ring dq_r;
    struct l2_fill *fq;    /* DRAM->L2 queue */
    struct idx_ring fq_r;
    struct mem_reply *rq;  /* L2->interconnect reply queue */
    struct idx_ring rq_r;
    struct l2_staged *sq;  /* replies in the data port, each holding a reply-queue slot */
    struct idx_ring sq_r;
    uint32_t *drain;       /* MSHR entries whose fill has arrived, in fill order */
    struct idx_ring drain_r;

    l2_merge_fn on_merge;  /* optional merge hook, NULL = off */
    void *merge_ctx;

    /* timing */
    uint64_t port_free;    /* first cycle the data port is free */
    uint64_t fill_free;    /* first cycle the fill port is free */
    uint64_t last_pop;     /* cycle+1 of the last reply pop (one per cycle) */
    bool sector_replies;   /* l2.sector_replies */
    uint8_t rq_left;       /* sectors of the reply-queue head still to pop (0 = none popped yet) */
    uint64_t last_tick;    /* last cycle ticked (MSHR occupancy accounting) */
    bool ticked;           /* last_tick is valid */

    /* NOTE(l2-fail-memo) in l2.c: host-side, not model state */
    uint64_t lk_gen;       /* bumped whenever tags, MSHRs or the miss queue change, or the input head leaves */
    uint64_t lk_fail_gen;  /* lk_gen at the input head's last reservation fail (UINT64_MAX: none) */
    uint8_t lk_fail_cause; /* its cause (enum l2_rf_cause) */

    struct l2_stats st;
};

/* ------------------------------------------------------------- API */

void l2_init(struct l2 *l, const struct l2_cfg *cfg, const struct l2_init_args *a);
void l2_fini(struct l2 *l);
/* Attach the merge hook (setup; fn NULL = off). */
void l2_set_merge_hook(struct l2 *l, l2_merge_fn fn, void *ctx);

/* Interconnect side: the receiver may start a packet only when this is true
 * (input queue not full and the ROP ring has room). */
bool l2_can_accept(const struct l2 *l);
/* Accept a request at L2 cycle `cycle`; false (nothing changed) when it cannot. */
bool l2_push(struct l2 *l, const struct mem_req *req, cycle_t cycle);
/* l2_push of a request that was due `late` L2 cycles before `cycle` (relaxed
 * mode): its ROP delay counts from the due cycle, never ending before cycle + 1. */
bool l2_push_late(struct l2 *l, const struct mem_req *req, cycle_t cycle, cycle_t late);
/* One reply per cycle from the reply queue; false when none is ready. */
bool l2_pop_reply(struct l2 *l, struct mem_reply *out, cycle_t cycle);
/* With l2.sector_replies: mem_reply.sect of the packet the next pop gives
 * (0 = the head leaves whole); the reply queue must not be empty. */
uint8_t l2_head_sect(const struct l2 *l);
/* The reply the next l2_pop_reply gives (with l2.sector_replies, a sector
 * of the head); false when the reply queue is empty. */
bool l2_peek_reply(const struct l2 *l, struct mem_reply *out);

/* DRAM side. Pop the next request of the L2->DRAM queue. The caller must
 * apply a write-back to the backing store, and take a read's bytes from the
 * backing store, at the moment it pops the request (L2 order), and later
 * deliver them with l2_dram_fill. */
bool l2_pop_dram_req(struct l2 *l, struct l2_dram_req *out, cycle_t cycle);
bool l2_can_fill(const struct l2 *l);
/* Deliver a line read's data; false (nothing changed) when the DRAM->L2 queue is full. */
bool l2_dram_fill(struct l2 *l, uint64_t line_addr, const uint8_t data[MEM_LINE_BYTES], cycle_t cycle);

/* Advance one L2 cycle; returns the next cycle with work, CYCLE_NEVER when idle. */
uint64_t l2_tick(struct l2 *l, cycle_t cycle);

/* Statistics under group "l2", instance l->instance. */
void l2_stats_register(struct l2 *l, struct stats *s);

/* Serial-step / test access: state of the line holding line_addr (TA_INVALID
 * when absent); copies its bytes and valid mask when present. */
enum ta_state l2_probe_line(const struct l2 *l, uint64_t line_addr, uint8_t out[MEM_LINE_BYTES],
                            uint64_t valid[2]);
/* True when nothing is queued or outstanding (kernel drain check). */
bool l2_idle(const struct l2 *l);

/* G-TSC timestamp reset (NOTE(gtsc-reset) in l2.c): does this slice ask for
 * one (a timestamp reached reset_at)? Apply one: every line [1, lease],
 * mem_ts = 1, next generation. Serial step only, on every slice at once. */
bool l2_gtsc_reset_wanted(const struct l2 *l);
void l2_gtsc_reset(struct l2 *l);

#endif /* GPUSIM_PARTITIONS_L2_L2_H */
