/* sim/mem/coh.h: coherence protocols as (state x event) tables (STYLE.md
 * item 7, in the manner of gem5 Ruby's MI_example-cache.sm; docs/coherence.md).
 *
 * What is modelled: the per-line control of a cache. A protocol is pure
 * data, one file per protocol (sim/mem/coh_<name>.c): its states and events,
 * each with a description string; its actions, each a name and a
 * description; and a const list of transition rows {state, event,
 * actions[], next}. A cache binds the protocol to its own action functions
 * (an array indexed by action id, so a protocol file depends on no cache)
 * and builds a dense [state][event] lookup once at init (coh_table_init);
 * the hot path (coh_step) is then one index load, the actions in order with
 * the cache's context pointer, and the next state returned to the caller.
 * A (state, event) pair that no row names is a simulator bug: coh_step
 * panics naming the cache instance, the line address, the state and the
 * event. coh_print_md writes a protocol as Markdown (docs/coherence.md is
 * generated from it: `./build-h10/test_coh --print`).
 *
 * What is not modelled here: timing, resources and data. A cache checks its
 * resources (MSHR, queue room, a victim) before the step, so a reservation
 * fail changes nothing; the step only runs once the access is accepted.
 * Where the state of a line lives (the tag array's state byte, an open MSHR
 * entry, per-line metadata for timestamps) is the cache's business: it
 * derives the current state before the step and applies the returned next
 * state after it.
 *
 * Operation mix: one step per accepted access, fill or per-line
 * invalidation; no allocation, no strings, no search on the hot path.
 */
#ifndef GPUSIM_SIM_MEM_COH_H
#define GPUSIM_SIM_MEM_COH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"

#define COH_MAX_STATES 8   /* states per protocol */
#define COH_MAX_EVENTS 24  /* events per protocol */
#define COH_MAX_ACTIONS 32 /* action ids per protocol, id 0 (COH_END) included */
#define COH_ROW_ACTIONS 6  /* actions per row */
#define COH_NO_ROW 0xffu   /* dense-table cell of an undefined pair */
#define COH_END 0          /* action id 0: ends a row's action list (unused slots are 0) */

/* A state, an event or an action: its short name and what it means. */
struct coh_name {
    const char *name; /* short name as printed, e.g. "I", "Load", "send_read" */
    const char *doc;  /* one-line description */
};

/* One transition: in `state`, on `event`, run act[] in order (up to the
 * first COH_END), then the line is in `next`. */
struct coh_row {
    uint8_t state;                /* current state (protocol's state enum) */
    uint8_t event;                /* event (protocol's event enum) */
    uint8_t act[COH_ROW_ACTIONS]; /* action ids (protocol's action enum), COH_END-terminated */
    uint8_t next;                 /* next state */
};

struct coh_proto {
    const char *name;                /* e.g. "noncoh_l1_we" */
    const char *doc;                 /* paragraph printed above the tables */
    uint32_t n_states;               /* entries of states[] (<= COH_MAX_STATES) */
    uint32_t n_events;               /* entries of events[] (<= COH_MAX_EVENTS) */
    uint32_t n_actions;              /* entries of actions[], id 0 = COH_END included (<= COH_MAX_ACTIONS) */
    uint32_t n_rows;                 /* entries of rows[] (< COH_NO_ROW) */
    const struct coh_name *states;   /* [n_states] */
    const struct coh_name *events;   /* [n_events] */
    const struct coh_name *actions;  /* [n_actions]; actions[0] describes COH_END */
    const struct coh_row *rows;      /* [n_rows] transition rows, in documentation order */
};

/* An action implementation: ctx is the cache's step context. */
typedef void (*coh_action_fn)(void *ctx);

/* A protocol bound to one cache instance. */
struct coh_table {
    const struct coh_proto *p;                  /* the protocol */
    const coh_action_fn *fn;                    /* [p->n_actions] the cache's implementations (fn[0] unused) */
    const char *unit;                           /* cache kind for panics, e.g. "l1d" */
    int inst;                                   /* its instance (SM id, slice id) */
    uint8_t cell[COH_MAX_STATES][COH_MAX_EVENTS]; /* row index of each pair, COH_NO_ROW = undefined */
};

/* NULL when the protocol is well formed (sizes within the limits, every
 * state, event and action id in range, names present, no pair defined
 * twice), else what is wrong. */
const char *coh_proto_invalid(const struct coh_proto *p);

/* Build the dense lookup (panics on an invalid protocol or a row action
 * without an implementation in fn[]). fn must outlive the table. */
void coh_table_init(struct coh_table *t, const struct coh_proto *p, const coh_action_fn *fn, const char *unit,
                    int inst);

/* The row of a pair, NULL when undefined (the "would panic" query). */
static inline const struct coh_row *coh_row_of(const struct coh_table *t, unsigned state, unsigned event)
{
    if (state >= COH_MAX_STATES || event >= COH_MAX_EVENTS) /* cells past n_states / n_events are COH_NO_ROW */
        return NULL;
    uint8_t r = t->cell[state][event];
    return r == COH_NO_ROW ? NULL : &t->p->rows[r];
}

/* The undefined-pair panic: names unit[inst], protocol, address, state, event. */
NORETURN void coh_undefined(const struct coh_table *t, uint64_t addr, unsigned state, unsigned event);

/* One transition of the line at addr: run the row's actions with ctx, return
 * the next state (the caller applies it). */
static inline unsigned coh_step(const struct coh_table *t, uint64_t addr, unsigned state, unsigned event, void *ctx)
{
    const struct coh_row *r = coh_row_of(t, state, event);
    if (UNLIKELY(r == NULL))
        coh_undefined(t, addr, state, event);
    for (unsigned k = 0; k < COH_ROW_ACTIONS && r->act[k] != COH_END; k++)
        t->fn[r->act[k]](ctx);
    return r->next;
}

/* Write the protocol as Markdown: a heading, its doc, the states, events and
 * actions with their descriptions, and the transition rows. */
void coh_print_md(const struct coh_proto *p, FILE *out);

/* ------------------------------------------------------------- configuration */

/* Section coh.* (sim/mem/coh_cfg.c, docs/coherence.md): which coherence
 * protocol the L1Ds and L2 slices run. The SM and the memory partitions get
 * a copy (l1d_cfg.coh, l2_init_args.coh); the consistency model on top is
 * sched.max_outstanding_mem_per_warp (1 = SC) and the fences (RC). */
enum coh_protocol {
    COH_PROTO_NONE, /* non-coherent L1 (today's write-evict / write-through tables) */
    COH_PROTO_GTSC, /* G-TSC logical-timestamp coherence (spec coherence-gtsc.md 2) */
    COH_PROTO_TC,   /* Temporal Coherence: physical-time leases (spec coherence-gtsc.md 3.3) */
};

enum coh_tc_variant {
    COH_TC_WEAK,   /* TC-Weak: stores performed at once, fences wait for the GWCT (RC) */
    COH_TC_STRONG, /* TC-Strong: a store waits at L2 until every lease on its line expired (SC) */
};

enum coh_rd_extend {
    COH_RD_TARDIS,    /* L2 read: rts = max(rts, wts + lease, warp_ts + lease) (spec OQ-1 proposal) */
    COH_RD_MIN_COVER, /* L2 read: rts = max(rts, warp_ts) (ablation) */
};

struct coh_cfg {
    int protocol;        /* coh.protocol: enum coh_protocol */
    uint64_t gtsc_lease; /* coh.gtsc_lease: logical lease length (timestamp units) */
    int gtsc_rd_extend;  /* coh.gtsc_rd_extend: enum coh_rd_extend */
    uint64_t gtsc_ts_bits; /* coh.gtsc_ts_bits: timestamp width (bits); overflow reset, NOTE(gtsc-reset) */
    uint64_t tc_lease;   /* coh.tc_lease: TC lease (SM pipeline cycles) */
    int tc_variant;      /* coh.tc_variant: enum coh_tc_variant */
};

struct cfg_section;
extern const struct cfg_section coh_cfg_section;
/* Built-in defaults (no coherence, lease 10, tardis). */
void coh_cfg_defaults(struct coh_cfg *c);

/* ------------------------------------------------------------- built-in protocols */

/* The non-coherent L1D (sim/mem/coh_noncoh_l1.c, docs/coherence.md): today's
 * write-evict / write-through-allocate behaviour. The states are numbered as
 * enum ta_state (tagarray.h), so a way's state byte is the protocol state. */
enum coh_l1_state {
    COH_L1_I, /* not present (no way, no open MSHR entry) */
    COH_L1_R, /* fill outstanding: an open MSHR entry (and a RESERVED way with allocate-on-miss) */
    COH_L1_V, /* present, clean */
    COH_L1_M, /* present, dirty: local data written by this SM */
    COH_L1_N_STATES
};

enum coh_l1_event {
    COH_L1_LOAD,        /* cached load (ld.ca); a bypassing load looks nothing up and is no event */
    COH_L1_STORE,       /* global store */
    COH_L1_LOCAL_STORE, /* local-memory store */
    COH_L1_ATOMIC,      /* atomic (always performed at L2) */
    COH_L1_FILL,        /* fill reply for an open MSHR entry */
    COH_L1_STALE_FILL,  /* fill reply for a stale MSHR entry */
    COH_L1_REPLACE,     /* the way is the victim of a new line */
    COH_L1_INV_CLEAN,   /* gpu-scope acquire or fence: drop clean data */
    COH_L1_INV_ALL,     /* kernel launch: drop everything */
    COH_L1_FLUSH,       /* kernel end: write back dirty data */
    COH_L1_N_EVENTS
};

enum coh_l1_action {
    COH_L1A_END = COH_END,
    COH_L1A_TOUCH,         /* a use for the replacement policy */
    COH_L1A_HIT_DONE,      /* queue the hit completion */
    COH_L1A_OPEN_MSHR,     /* open an MSHR entry and queue the read */
    COH_L1A_RESERVE_WAY,   /* on_miss: replace a victim way, install it RESERVED */
    COH_L1A_ADD_REQUEST,   /* add the load to the MSHR entry */
    COH_L1A_SEND_WRITE,    /* queue the write to L2 */
    COH_L1A_SEND_ATOMIC,   /* queue the atomic to L2 */
    COH_L1A_WRITE_DATA,    /* write the store's bytes into the line */
    COH_L1A_EVICT,         /* drop the line (write-evict) */
    COH_L1A_WRITEBACK,     /* queue a write-back of the line */
    COH_L1A_MARK_STALE,    /* mark the open MSHR entry stale */
    COH_L1A_FILL_LINE,     /* install the fill's bytes */
    COH_L1A_COMPLETE,      /* complete the merged loads */
    COH_L1A_RELEASE_MSHR,  /* free the MSHR entry */
    COH_L1A_DROP_RESERVED, /* stale fill: free the RESERVED way */
    COH_L1A_DROP_CLEAN,    /* acquire: drop a clean line */
    COH_L1A_N_ACTIONS
};

extern const struct coh_proto coh_noncoh_l1_we; /* l1d.write_policy global_we_local_wb (and l1d.enable = false) */
extern const struct coh_proto coh_noncoh_l1_wt; /* l1d.write_policy global_wt_alloc_local_wb */

/* The G-TSC L1D (sim/mem/coh_gtsc_l1.c, spec coherence-gtsc.md 1.3, 2.1,
 * 2.2, 2.7-2.9; docs/coherence.md). States are derived by the L1D from the
 * way, its lock count and the line's MSHR entry (NOTE(l1d-gtsc) in
 * sim/sm/lsu/l1d_gtsc.c); the way's state byte is VALID for V and VP,
 * RESERVED for L (a locked line is never a victim), MODIFIED for M. */
enum coh_g1_state {
    COH_G1_I,  /* not present, no MSHR entry */
    COH_G1_IP, /* not present, a read outstanding (an open MSHR entry) */
    COH_G1_VP, /* present (its lease may have expired), a read or renewal outstanding */
    COH_G1_V,  /* present, nothing outstanding */
    COH_G1_L,  /* present and locked: own stores await their acks (update visibility, spec 2.8) */
    COH_G1_M,  /* present, dirty local data (private to a thread: no lease) */
    COH_G1_N_STATES
};

enum coh_g1_event {
    COH_G1_LOAD,         /* cached load the line cannot serve now (absent, lease expired, locked) */
    COH_G1_LOAD_HIT,     /* cached load within the lease (warp_ts <= rts), or a local load of a present line */
    COH_G1_STORE,        /* global store (write-through, no allocation) */
    COH_G1_LOCAL_STORE,  /* local-memory store (write-back) */
    COH_G1_ATOMIC,       /* atomic (at L2) */
    COH_G1_FILL,         /* BusFill for the line's read */
    COH_G1_FILL_NOWAY,   /* BusFill when every way of the set is locked: not installed */
    COH_G1_RENEW,        /* BusRnw (lease extended, no data) */
    COH_G1_WR_ACK,       /* BusWrAck of a store to a locked line, more stores pending */
    COH_G1_WR_ACK_LAST,  /* BusWrAck of its last pending store */
    COH_G1_WR_ACK_DROP,  /* the last BusWrAck when an ack said the copy may be stale (OQ-5) */
    COH_G1_SERVE,        /* the line's lease (or fill) now covers every waiting load */
    COH_G1_SERVE_PART,   /* it covers some waiting loads (or none): the rest need a renewal */
    COH_G1_REPLACE,      /* the way is the victim of a new line */
    COH_G1_INV_ALL,      /* kernel launch */
    COH_G1_FLUSH,        /* kernel end: write back dirty local data */
    COH_G1_RESET,        /* a reply of a newer timestamp generation: L2 reset its timestamps (spec 2.11) */
    COH_G1_OLD_REPLY,    /* BusFill/BusRnw of an older generation than the L1's: not used, re-read */
    COH_G1_N_EVENTS
};

enum coh_g1_action {
    COH_G1A_END = COH_END,
    COH_G1A_TOUCH,        /* a use for the replacement policy */
    COH_G1A_HIT_DONE,     /* queue the hit completion; warp_ts = max(warp_ts, wts) */
    COH_G1A_OPEN_READ,    /* open an MSHR entry for the line */
    COH_G1A_SEND_READ,    /* queue BusRd{wts of the copy or 0, warp_ts} */
    COH_G1A_ADD_WAITER,   /* add the load (with its warp_ts) to the entry */
    COH_G1A_WAIT_UNLOCK,  /* add the load to the line's blocked entry (opened if none) */
    COH_G1A_WRITE_DATA,   /* write the store's bytes into the line */
    COH_G1A_LOCK,         /* one more own store pending on the line */
    COH_G1A_SEND_WRITE,   /* queue BusWr{warp_ts, l1_wts, bytes} */
    COH_G1A_SEND_ATOMIC,  /* queue the atomic with warp_ts */
    COH_G1A_EVICT,        /* drop the line */
    COH_G1A_WRITEBACK,    /* queue a write-back of the dirty local line */
    COH_G1A_FILL_LINE,    /* install the fill in a victim way with its lease */
    COH_G1A_UPDATE_LINE,  /* overwrite the present copy with the fill's bytes and lease */
    COH_G1A_EXTEND_LEASE, /* rts = max(rts, the renewal's rts) */
    COH_G1A_ACK_LEASE,    /* one store acked: keep the newest lease; note a stale flag */
    COH_G1A_UNLOCK,       /* the last store acked: the line is readable again */
    COH_G1A_SERVE,        /* complete every waiting load the lease covers (warp_ts raised) */
    COH_G1A_RELEASE_MSHR, /* free the entry */
    COH_G1A_DROP_LEASE,   /* timestamp reset: wts = rts = 0, the copy stays but no load hits it */
    COH_G1A_N_ACTIONS
};

extern const struct coh_proto coh_gtsc_l1; /* coh.protocol = gtsc */

/* The TC L1D (sim/mem/coh_tc_l1.c, spec coherence-gtsc.md 3.3; NOTE(l1d-tc)
 * in sim/sm/lsu/l1d_tc.c). Numbered like enum ta_state for I, V, M; IP is
 * an open MSHR entry without a way (allocation on fill). */
enum coh_t1_state { COH_T1_I, COH_T1_IP, COH_T1_V, COH_T1_M, COH_T1_N_STATES };

enum coh_t1_event {
    COH_T1_LOAD,        /* cached load of an absent line */
    COH_T1_LOAD_HIT,    /* cached load of a present line whose lease has not expired (or local data) */
    COH_T1_EXPIRE,      /* a load finds the copy's lease expired: self-invalidation */
    COH_T1_STORE,       /* global store */
    COH_T1_LOCAL_STORE, /* local-memory store (write-back) */
    COH_T1_ATOMIC,      /* atomic (at L2) */
    COH_T1_FILL,        /* data with its expiry time for the open read */
    COH_T1_REPLACE,     /* the way is the victim of a new line */
    COH_T1_INV_ALL,     /* kernel launch */
    COH_T1_FLUSH,       /* kernel end: write back dirty local data */
    COH_T1_N_EVENTS
};

enum coh_t1_action {
    COH_T1A_END = COH_END,
    COH_T1A_TOUCH,        /* a use for the replacement policy */
    COH_T1A_HIT_DONE,     /* queue the hit completion */
    COH_T1A_OPEN_READ,    /* open an MSHR entry and queue the read */
    COH_T1A_ADD_WAITER,   /* add the load to the entry */
    COH_T1A_WRITE_DATA,   /* write the store's bytes into the line */
    COH_T1A_SEND_WRITE,   /* queue the write */
    COH_T1A_SEND_ATOMIC,  /* queue the atomic */
    COH_T1A_EVICT,        /* drop the line */
    COH_T1A_WRITEBACK,    /* queue a write-back of the dirty local line */
    COH_T1A_FILL_LINE,    /* Replace a victim way, install the line with its expiry */
    COH_T1A_COMPLETE,     /* complete every load of the entry with the fill's bytes */
    COH_T1A_RELEASE_MSHR, /* free the entry */
    COH_T1A_N_ACTIONS
};

extern const struct coh_proto coh_tc_l1; /* coh.protocol = tc */

/* The non-coherent L2 slice (sim/mem/coh_noncoh_l2.c): the point of
 * coherence for its addresses, non-inclusive, write-back. States are
 * numbered as enum ta_state. */
enum coh_l2_state { COH_L2_I, COH_L2_R, COH_L2_V, COH_L2_M, COH_L2_N_STATES };

enum coh_l2_event {
    COH_L2_READ,       /* read request (L1 miss or bypass read) */
    COH_L2_WRITE,      /* write request */
    COH_L2_ATOMIC,     /* atomic request */
    COH_L2_WRITEBACK,  /* L1 write-back of a dirty local line */
    COH_L2_PARTIAL,    /* read or atomic needing bytes a partial (byte_mask) line lacks */
    COH_L2_FILL,       /* DRAM fill, nothing written while reserved */
    COH_L2_FILL_DIRTY, /* DRAM fill of a line with written bytes or queued writes/atomics */
    COH_L2_REPLACE,    /* the way is the victim of a new line */
    COH_L2_N_EVENTS
};

enum coh_l2_action {
    COH_L2A_END = COH_END,
    COH_L2A_HIT,         /* apply the request to the line, reply through the data port */
    COH_L2A_ADD_REQUEST, /* queue the request in the line's MSHR entry */
    COH_L2A_OPEN_MISS,   /* open an MSHR entry, queue the DRAM read */
    COH_L2A_RESERVE,     /* Replace the victim way, install the line RESERVED */
    COH_L2A_REFETCH,     /* partial line: open an MSHR entry on its way, queue the DRAM read */
    COH_L2A_ALLOC_WRITE, /* byte_mask: Replace the victim, install MODIFIED with only the written bytes */
    COH_L2A_FILL_LINE,   /* merge the fill under the written bytes, apply the queued requests */
    COH_L2A_WRITEBACK,   /* queue the dirty line's write-back to DRAM */
    COH_L2A_FORWARD,     /* fetch_write: queue the request's written bytes to DRAM, mark the entry forwarded */
    COH_L2A_N_ACTIONS
};

extern const struct coh_proto coh_noncoh_l2_fetch;     /* l2.write_miss = fetch */
extern const struct coh_proto coh_noncoh_l2_byte_mask; /* l2.write_miss = byte_mask */
extern const struct coh_proto coh_noncoh_l2_fetch_write; /* l2.write_miss = fetch_write */

#endif /* GPUSIM_SIM_MEM_COH_H */
