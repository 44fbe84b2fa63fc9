/* sim/icnt/icnt.h: the interconnect (request and reply networks), split into a
 * sender half and a receiver half per endpoint, cycle-driven in the
 * interconnect clock domain (spec baseline-gpu.md 1.3, 1.5, 2.7, 3.4, 4.2;
 * docs/icnt.md).
 *
 * What is modelled:
 *  - packetisation: flits = ceil((header + payload) / flit) (8 B header,
 *    32 B flits: 1-flit read requests and acks, 2/3/5-flit segments);
 *  - struct icnt_tx (sender half, one per endpoint and network, owned by the
 *    source's partition): an injection buffer of icnt.inj_buf flits
 *    holding whole packets in injection order, one credit counter per
 *    destination (one credit = one slot of that destination's per-source
 *    FIFO), and a one-flit-wide injection channel: at most one flit per
 *    cycle, packets strictly one after another (head-of-line blocking);
 *  - the link: a fixed latency per (source, destination) pair taken from
 *    struct icnt_topo (xbar: icnt.min_latency; mesh2d: icnt.min_latency +
 *    hops x icnt.hop_latency). Flit i of a packet leaves, and so
 *    arrives, at least i cycles after the head. Credits return over the
 *    same latency. The link itself is the caller's (engine messages in the
 *    simulator, a delay queue in the unit test);
 *  - struct icnt_rx (receiver half, one per endpoint and network, owned by
 *    the destination's partition): one FIFO of icnt.rx_fifo_flits flits
 *    per source, an output that takes at most one flit per cycle, picks the
 *    source round-robin (iSLIP-style pointer, through struct icnt_policy)
 *    and stays with that source until the packet's tail has passed, starts
 *    a packet only when the endpoint can take it, hands the packet to the
 *    endpoint at its tail flit and returns one credit per flit taken.
 * What is not modelled: virtual channels, router pipelines and link
 * contention inside the network (mesh2d is end to end, contention only at
 * the receiver), flit-level corruption, the endpoint buffers themselves
 * (the SM ejection buffer and the L2 ROP line belong to their units).
 *
 * Payload: a packet carries an opaque payload of payload_bytes (fixed per
 * half at init, e.g. sizeof(struct mem_req)) that the halves copy in and
 * out; nothing is interpreted. NOTE(icnt-tail-payload): the payload travels
 * with the TAIL flit. The sender holds it in its injection slot until the
 * tail leaves, and the receiver needs it only when the tail is handed to
 * the endpoint, so the head and body flits are 24-byte descriptors and one
 * engine message per packet (the tail's) carries the 224-byte struct.
 *
 * NOTE(icnt-burst): with topo->burst set, a sender half whose head packet
 * has credits for all its flits when its head leaves sends the packet as
 * ONE link message (send_flit once, f->burst = n_flits, with the payload):
 * its flits would leave at t, t + 1, ... anyway, since the injection
 * channel is held until the tail and credits only grow meanwhile. The
 * sender keeps the packet (and its buffer space) until the tail's cycle t +
 * n - 1, as if it sent flit by flit, and asks to be ticked then. The
 * receiver half holds all the flits from the head's arrival a; its output
 * cannot take flit k before a + k, when it would have arrived, since it
 * takes the head at or after a and at most one flit per cycle. Delivery,
 * credits and every statistic of the halves are those of flit-by-flit
 * sending (tests/test_icnt.c compares both under random traffic); only the
 * number of engine messages changes (one instead of five for a line
 * reply). Off in relaxed mode (a late message would make all the burst's
 * flits late, not just one) and with icnt.jitter (per-flit arrival rules).
 *
 * NOTE(credit-run): with topo->burst set (and no xbar_iq switch), a
 * receiver half whose endpoint supplies send_credits returns the credits of
 * a packet with one link message when it takes the packet's head while all
 * of the packet's flits are in its FIFO: the output then takes flit k at
 * exactly t + k (it stays with the packet, takes one flit per cycle and
 * every flit is there), so the credit of flit k leaves at t + k and
 * arrives at a + k. The message carries n credits, one arriving at each
 * cycle a, a + 1, ..., a + n - 1 (icnt_tx_credits); the sender half counts
 * them lazily, as they arrive, and wakes itself at the next one when it
 * waits for credits. The run covers the tail only when the endpoint
 * promises that a packet it accepted at the head is taken at the tail
 * (ops.accept_holds: the SM's ejection buffer; not the L2 input, whose
 * ROP line moves into the queue on its own); otherwise the tail's credit
 * goes alone when the tail leaves. Credits reach the sender at the cycles
 * flit-by-flit credits would: tests/test_icnt.c compares every delivery,
 * flit and statistic with and without bursts and runs. Only the number of
 * engine messages changes (one instead of five for a line reply to an SM).
 *
 * Calling convention, per interconnect cycle t (the wrapper maps engine
 * time to t):
 *   1. deliver inputs that arrive at t: icnt_rx_flit_arrive (flits),
 *      icnt_tx_credit (credits), and the endpoint's icnt_tx_push calls;
 *   2. icnt_tx_tick(tx, t), icnt_rx_tick(rx, t).
 * Inputs given at t are used by the tick at t. A flit sent by the tick at
 * t is passed to send_flit with arrival t + lat; a credit returned by the
 * rx tick at t arrives at t + lat. So a lone 1-flit packet pushed at t is
 * handed to the destination at t + lat, and a credit is reusable exactly
 * 2 x lat cycles after the flit that used it left: 2 x lat flits of FIFO
 * per source sustain 1 flit per cycle (spec 3.4 asks 2 x lat + 2; the 2
 * spare flits are slack). A tick returns the next cycle at which the half
 * has work assuming no further input (CYCLE_NEVER when idle or blocked on
 * credits); any input at t means the half must be ticked at t.
 *
 * Hot path: no allocation, no locks, no strings; all rings preallocated at
 * init.
 */
#ifndef GPUSIM_SIM_ICNT_ICNT_H
#define GPUSIM_SIM_ICNT_ICNT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/mem/memreq.h"
#include "sim/base/stats.h"

struct sim_cfg;

/* ------------------------------------------------------------- config */

enum icnt_topology {
    ICNT_TOPO_XBAR,   /* single-stage crossbar: every pair at icnt.min_latency */
    ICNT_TOPO_MESH2D, /* end-to-end 2D mesh: min_latency + hops x hop_latency */
    ICNT_TOPO_XBAR_IQ, /* input-queued crossbar: every packet through a central switch with one
                        * FIFO per input (head-of-line blocking, GPGPU-Sim 3.x's router; icnt_iq.c) */
    ICNT_TOPO_COUNT
};

/* The network keys of section icnt.* (second part of the section, declared in
 * icnt_cfg.c, struct sim_cfg member `icnt_net`; icnt.min_latency, the first
 * part, is in sim/gpu/gpu_cfg.c). */
struct icnt_net_cfg {
    int topology;           /* icnt.topology: enum icnt_topology */
    uint64_t flit;          /* icnt.flit (bytes per flit) */
    uint64_t header;        /* icnt.header (bytes of packet header) */
    uint64_t inj_buf;       /* icnt.inj_buf (flits) of each injection buffer */
    uint64_t rx_fifo_flits; /* icnt.rx_fifo_flits (flits) per source FIFO; 0 = 2 x min_latency + 2 */
    uint64_t mesh_cols;     /* icnt.mesh_cols (routers per row) */
    uint64_t mesh_rows;     /* icnt.mesh_rows (rows of routers) */
    uint64_t hop_latency;   /* icnt.hop_latency (icnt cycles per mesh hop) */
    uint64_t jitter;        /* icnt.jitter (icnt cycles): largest random extra latency per packet; 0 = off */
    uint64_t iq_buf_flits;  /* icnt.iq_buf_flits (flits): xbar_iq input buffer per source at the switch */
    uint64_t iq_alloc_delay; /* icnt.iq_alloc_delay (switch rounds; icnt cycles at speedup 1): xbar_iq grant
                              * to head crossing */
    uint64_t iq_speedup;    /* icnt.iq_speedup (switch rounds per icnt cycle): BookSim internal speedup */
};

extern const struct cfg_section icnt_net_cfg_section; /* part 2 of section "icnt" */
extern const struct cfg_key icnt_net_cfg_keys[]; /* the section's key table (tests) */
extern const unsigned icnt_net_cfg_n_keys;

/* Fill *c with the built-in defaults (gtx480, spec 4.2). */
void icnt_net_cfg_defaults(struct icnt_net_cfg *c);
/* Cross-field rules: NULL when valid, else what is wrong with *key set to
 * the full key name at fault. n_sm / n_mem (memory partitions) size the
 * mesh check. */
const char *icnt_net_cfg_invalid(const struct icnt_net_cfg *c, uint64_t min_latency, uint64_t n_sm,
                                 uint64_t n_mem, const char **key);
/* The section's check (reads gpu.n_sm, mem.n_partitions, icnt.min_latency). */
void icnt_net_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck);
/* Effective per-source FIFO depth (flits): rx_fifo_flits, or 2 x min_latency + 2 when 0. */
uint32_t icnt_rx_fifo_depth(const struct icnt_net_cfg *c, uint64_t min_latency);
/* Flits relaxed mode adds to every receive FIFO (NOTE(relaxed-fifo) in
 * sim/gpu/gpu.c): 2 x ceil((Q - L) / icnt_ps) with L = min_latency icnt
 * cycles of icnt_ps; 0 when quantum_ps <= L (or 0, the lookahead). */
uint32_t icnt_relaxed_fifo_extra(uint64_t min_latency, uint64_t icnt_ps, uint64_t quantum_ps);

/* ------------------------------------------------------------- packets */

/* Largest packet: header + one 128 B line. */
#define ICNT_MAX_PAYLOAD MEM_LINE_BYTES

/* Flits of a packet with payload_bytes of payload: ceil((header + payload) / flit). */
uint32_t icnt_flits(const struct icnt_net_cfg *c, uint32_t payload_bytes);
/* Request packet size (spec 2.7): reads carry no payload; writes, write-backs
 * and atomics carry their segment (req->size bytes). */
uint32_t icnt_req_flits(const struct icnt_net_cfg *c, const struct mem_req *req);
/* Reply packet size: reads and atomics carry req size bytes (rep->size);
 * write acks carry nothing. */
uint32_t icnt_reply_flits(const struct icnt_net_cfg *c, const struct mem_reply *rep);
/* Packet sizes of any registered kind (mem_kind_table, docs/messages.md):
 * ceil((header + the kind's payload bytes) / flit). For the four baseline
 * operations they equal icnt_req_flits / icnt_reply_flits. */
uint32_t icnt_kind_req_flits(const struct icnt_net_cfg *c, const struct mem_req *req);
uint32_t icnt_kind_reply_flits(const struct icnt_net_cfg *c, const struct mem_reply *rep);

/* One flit on the link. Endpoint ids are network-wide (SMs 0..n_sm-1, then
 * sub-partitions, then central nodes; see struct icnt_topo). */
struct icnt_flit {
    uint16_t src;      /* sending endpoint */
    uint16_t dst;      /* receiving endpoint */
    uint8_t idx;       /* flit index in its packet, 0 = head */
    uint8_t n_flits;   /* flits in its packet; idx == n_flits - 1 is the tail */
    uint16_t late;     /* icnt cycles this flit reached the receiver after its due
                        * cycle: 0 in exact mode; relaxed mode (NOTE(relaxed-late)
                        * in sync/engine_msg.c) sets it from the engine message */
    uint32_t seq;      /* packet sequence number of the source (per sender half) */
    uint8_t burst;     /* flits this link message carries, idx .. idx + burst - 1, flit k
                        * arriving k cycles after the first (NOTE(icnt-burst)); 0 or 1 = this flit */
    uint16_t hop;      /* endpoint this link message goes to: dst, or the xbar_iq switch
                        * (the engine unit hosting it receives the message) */
    uint64_t t_inject; /* icnt cycle the packet was pushed (latency statistics) */
};

_Static_assert(sizeof(struct icnt_flit) == 24, "struct icnt_flit is a 24-byte descriptor (NOTE(icnt-tail-payload))");

static inline bool icnt_flit_is_tail(const struct icnt_flit *f) { return f->idx + 1u == f->n_flits; }
/* Flits carried by the link message of f (NOTE(icnt-burst)). */
static inline uint32_t icnt_flit_burst(const struct icnt_flit *f) { return f->burst ? f->burst : 1u; }
/* True when the message of f carries its packet's tail (and so the payload). */
static inline bool icnt_flit_has_tail(const struct icnt_flit *f)
{
    return f->idx + icnt_flit_burst(f) == f->n_flits;
}

/* ------------------------------------------------------------- topology */

struct icnt_topo;
struct icnt_rx;

/* A topology policy (sim/icnt/topology.c): how latencies are derived and how a
 * receiver's output picks among its per-source FIFOs. */
struct icnt_policy {
    const char *name;
    /* Fill t->lat (and t->router for placed topologies). */
    void (*build)(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency);
    /* Output arbitration at a packet boundary: the source whose head packet
     * goes next, or UINT32_MAX when every FIFO is empty. Must not modify rx. */
    uint32_t (*pick)(const struct icnt_rx *rx);
};

extern const struct icnt_policy icnt_policy_xbar;
extern const struct icnt_policy icnt_policy_mesh2d;
extern const struct icnt_policy icnt_policy_xbar_iq;

/* Endpoints and per-pair latencies of one network (request and reply
 * networks share one). Read-only after init; shared by all halves. */
struct icnt_topo {
    uint32_t n_sm;                  /* SM endpoints: ids 0 .. n_sm-1 */
    uint32_t n_mem;                 /* memory partitions */
    uint32_t sub_per_partition;     /* sub-partitions per partition */
    uint32_t n_ep;                  /* endpoints: n_sm + n_mem x sub_per_partition + n_node */
    uint32_t n_node;                /* central endpoints added by icnt_topo_add_node (ids after the sub-partitions) */
    uint32_t cols, rows;            /* mesh2d: routers per row, rows (0 for xbar) */
    uint64_t min_latency;           /* icnt.min_latency (icnt cycles) */
    uint32_t fifo_extra;            /* flits added to every receive FIFO (and sender credit count):
                                     * 0, or relaxed mode's longer credit loop (NOTE(relaxed-fifo) in gpu.c) */
    bool burst;                     /* send a packet whose flits all have credits as one link
                                     * message (NOTE(icnt-burst)); the simulator sets it in exact
                                     * mode without icnt.jitter, the unit tests choose */
    const struct icnt_policy *pol;  /* topology policy */
    uint32_t *lat;                  /* [n_ep * n_ep] link latency src->dst (icnt cycles) */
    uint32_t *router;               /* [n_ep] mesh2d router index (y * cols + x); NULL for xbar */
    uint32_t sw_ep;                 /* xbar_iq: the switch's endpoint id (a central node added at
                                     * init); UINT32_MAX for the other topologies */
};

void icnt_topo_init(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency, uint32_t n_sm,
                    uint32_t n_mem, uint32_t sub_per_partition);
void icnt_topo_fini(struct icnt_topo *t);
/* Add a central endpoint (a race-detection unit, a directory, a DRAM
 * update port: anything that is neither an SM nor a sub-partition) and
 * return its id: n_sm + n_mem x sub_per_partition + k for the k-th node.
 * Latencies are rebuilt by the topology policy (xbar: min_latency to and
 * from everyone; mesh2d: the node gets the first free router after the
 * SMs). Setup only: call it before any sender or receiver half is built on
 * the topology (they size their per-destination state from n_ep). */
uint32_t icnt_topo_add_node(struct icnt_topo *t, const struct icnt_net_cfg *c);
/* Endpoint id of sub-partition s (0-based over all partitions). */
static inline uint32_t icnt_ep_of_sub(const struct icnt_topo *t, uint32_t s) { return t->n_sm + s; }
/* Endpoint id of central node k (0-based, in icnt_topo_add_node order). */
static inline uint32_t icnt_ep_of_node(const struct icnt_topo *t, uint32_t k)
{
    return t->n_sm + t->n_mem * t->sub_per_partition + k;
}
static inline bool icnt_ep_is_sm(const struct icnt_topo *t, uint32_t ep) { return ep < t->n_sm; }
static inline bool icnt_ep_is_node(const struct icnt_topo *t, uint32_t ep)
{
    return ep >= t->n_sm + t->n_mem * t->sub_per_partition && ep < t->n_ep;
}
/* Link latency from src to dst (icnt cycles), >= min_latency. */
static inline uint32_t icnt_topo_lat(const struct icnt_topo *t, uint32_t src, uint32_t dst)
{
    return t->lat[(size_t)src * t->n_ep + dst];
}
/* mesh2d: Manhattan hops between two endpoints' routers (0 for xbar). */
uint32_t icnt_topo_hops(const struct icnt_topo *t, uint32_t a, uint32_t b);

/* ------------------------------------------------------------- sender half */

/* Puts a flit on the link; payload is non-NULL only for the tail flit and
 * valid during the call only. arrive = send cycle + link latency. */
typedef void (*icnt_send_flit_fn)(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive);

struct icnt_tx_args {
    uint32_t ep;                  /* this endpoint's id */
    const struct icnt_topo *topo; /* network (latencies, endpoint count) */
    const struct icnt_net_cfg *cfg;
    uint32_t payload_bytes;       /* bytes copied per packet (0 allowed) */
    icnt_send_flit_fn send_flit;
    void *ctx;                    /* argument of send_flit */
    uint64_t seed;                /* sim.seed: icnt.jitter's random stream (mixed with ep) */
};

struct icnt_tx_pkt {
    uint32_t dst;      /* destination endpoint */
    uint32_t seq;      /* packet sequence number */
    uint8_t n_flits;   /* flits */
    uint8_t sent;      /* flits already on the link */
    uint64_t t_inject; /* icnt cycle pushed */
};

struct icnt_tx_stats {
    uint64_t packets;             /* packets whose tail left */
    uint64_t flits;               /* flits sent */
    uint64_t credit_stall_cycles; /* cycles the head flit waited for a credit */
    uint64_t inj_refused;         /* pushes refused because the buffer was full */
    uint64_t occ_max;             /* largest buffer occupancy (flits) */
};

struct icnt_tx {
    uint32_t ep;                  /* endpoint id */
    uint32_t n_ep;                /* endpoints (size of credits) */
    uint32_t payload_bytes;       /* bytes per payload slot */
    uint32_t buf_flits;           /* injection buffer capacity (flits) */
    uint32_t used_flits;          /* flits held (packets not yet fully sent, all their flits) */
    uint32_t fifo_flits;          /* receiver FIFO depth = initial credits per destination */
    struct icnt_tx_pkt *pkt;      /* [cap] packet ring */
    uint8_t *pay;                 /* [cap * payload_bytes] payload of each ring slot */
    uint32_t head, n, cap;        /* ring: oldest slot, packets held, capacity (packets = buf_flits) */
    uint32_t *credits;            /* [n_ep] credits held per destination (flits) */
    uint32_t via;                 /* xbar_iq: the switch endpoint every packet goes through (credits
                                   * and latency are those of its input buffer); UINT32_MAX = direct */
    uint32_t via_cap;             /* credits of the switch's input buffer for this source (flits) */
    uint32_t next_seq;            /* sequence number of the next packet */
    uint64_t stall_since;         /* cycle the head started waiting for a credit (CYCLE_NEVER = not) */
    uint32_t jitter;              /* icnt.jitter (cycles); 0 = off */
    uint32_t pkt_extra;           /* extra latency of the packet being sent (cycles) */
    uint64_t rng;                 /* xorshift64 state of the jitter stream */
    uint64_t *last_arr;           /* [n_ep] arrival cycle of the last flit sent to each destination (jitter only) */
    bool burst;                   /* topo->burst and no jitter (NOTE(icnt-burst)) */
    uint64_t burst_end;           /* cycle the tail of the head packet, sent as one burst, leaves
                                   * (CYCLE_NEVER = no burst under way) */
    uint32_t *run_n;              /* [n_ep] credits of a run still to arrive (NOTE(credit-run)) */
    uint64_t *run_at;             /* [n_ep] arrival cycle of the next of them */
    const struct icnt_topo *topo;
    icnt_send_flit_fn send_flit;
    void *ctx;
    struct icnt_tx_stats st;
};

void icnt_tx_init(struct icnt_tx *tx, const struct icnt_tx_args *a);
void icnt_tx_fini(struct icnt_tx *tx);
/* True when a packet of n_flits fits in the injection buffer now. */
bool icnt_tx_can_push(const struct icnt_tx *tx, uint32_t n_flits);
/* Append a packet; false (nothing changed, inj_refused counted) when full. */
bool icnt_tx_push(struct icnt_tx *tx, uint32_t dst, uint32_t n_flits, const void *payload, cycle_t cycle);
/* A credit from dst arrives at cycle. */
void icnt_tx_credit(struct icnt_tx *tx, uint32_t dst, cycle_t cycle);
/* A run of n >= 1 credits from dst: one arrives at each of cycle, cycle + 1,
 * ..., cycle + n - 1 (NOTE(credit-run)). */
void icnt_tx_credits(struct icnt_tx *tx, uint32_t dst, uint32_t n, cycle_t cycle);
/* Credits for dst the sender holds or will hold from runs already
 * received (tests: credit conservation). */
static inline uint32_t icnt_tx_credits_owed(const struct icnt_tx *tx, uint32_t dst)
{
    return tx->credits[dst] + tx->run_n[dst];
}
/* Send at most one flit; returns the next cycle with work or CYCLE_NEVER.
 * NOTE(idle-inline): both halves are ticked on nearly every cycle of their
 * endpoint and are usually empty; the empty case is answered here without
 * a call (Release builds; debug builds call through and check the
 * invariants every tick). */
uint64_t icnt_tx_tick_work(struct icnt_tx *tx, cycle_t cycle);
static inline uint64_t icnt_tx_tick(struct icnt_tx *tx, cycle_t cycle)
{
#ifdef NDEBUG
    if (tx->n == 0)
        return CYCLE_NEVER;
#endif
    return icnt_tx_tick_work(tx, cycle);
}
bool icnt_tx_idle(const struct icnt_tx *tx);
/* Invariants (ring, flit count, credit bounds); panics naming the instance. */
void icnt_tx_check(const struct icnt_tx *tx);
/* Statistics "<group>.tx_*", instance = endpoint id. */
void icnt_tx_stats_register(struct icnt_tx *tx, struct stats *s, const char *group);

/* ------------------------------------------------------------- receiver half */

/* The endpoint behind a receiver, plus the credit path back. */
struct icnt_rx_ops {
    /* May a new packet of n_flits from src start now? (SM: ejection buffer
     * has a free packet slot; sub-partition: icnt->L2 queue not full.) */
    bool (*can_accept)(void *ctx, uint32_t src, uint32_t n_flits, cycle_t cycle);
    /* The tail flit passed: take the packet. false = cannot now (the tail
     * stays in its FIFO and is retried next cycle; nothing is lost). */
    bool (*deliver)(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, cycle_t cycle);
    /* Return one credit to src's sender half, arriving at `arrive`. */
    void (*send_credit)(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive);
    /* Optional (may be NULL): observe every flit the output takes. */
    void (*on_flit)(void *ctx, const struct icnt_flit *f, cycle_t cycle);
    /* Optional (NULL = one message per credit): return n credits to src's
     * sender half, one arriving at each of arrive .. arrive + n - 1
     * (NOTE(credit-run)); used only with topo->burst and no switch. */
    void (*send_credits)(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive, uint32_t n);
    /* With send_credits: a packet can_accept took at its head is always
     * taken by deliver at its tail (the run may then cover the tail). */
    bool accept_holds;
};

struct icnt_rx_args {
    uint32_t ep;                  /* this endpoint's id */
    const struct icnt_topo *topo;
    const struct icnt_net_cfg *cfg;
    uint32_t payload_bytes;       /* bytes per payload (as the senders') */
    struct icnt_rx_ops ops;
    void *ctx;                    /* argument of ops */
};

struct icnt_rx_stats {
    uint64_t packets;           /* packets delivered to the endpoint */
    uint64_t flits;             /* flits taken by the output */
    struct stat_avg latency;    /* icnt cycles from push at the sender to delivery, per packet */
    uint64_t latency_max;       /* largest packet latency (icnt cycles) */
    uint64_t eject_full_cycles; /* cycles a packet (head or tail) waited for the endpoint */
    uint64_t bubble_cycles;     /* cycles the output was held by a packet whose next flit had not arrived */
};

struct icnt_rx {
    uint32_t ep;                  /* endpoint id */
    uint32_t n_src;               /* sources (= endpoints of the network) */
    uint32_t cap;                 /* FIFO depth per source (flits) */
    uint32_t payload_bytes;       /* bytes per payload slot */
    struct icnt_flit *fl;         /* [n_src * cap] flits (a burst's are held from its head's arrival,
                                   * NOTE(icnt-burst)) */
    uint8_t *pay;                 /* [n_src * cap * payload_bytes] payload of tail flits, by slot */
    uint32_t *fhead;              /* [n_src] oldest slot of each FIFO */
    uint32_t *fcount;             /* [n_src] flits held by each FIFO */
    uint64_t *ne;                 /* [ne_words] bit s: FIFO s holds a flit (NOTE(rx-ne-mask)) */
    uint32_t ne_words;            /* 64-bit words of ne */
    /* NOTE(rx-idle-fields): not adjacent, so that icnt_rx_tick's idle test
     * is two 4-byte loads, not one 8-byte load that spans the just-made
     * store of n_flits_held by a flit's arrival (the store buffer cannot
     * forward it; NOTE(issue-as) in sim/sm/rf/opcoll.c). */
    uint32_t n_flits_held;        /* sum of fcount */
    uint32_t rr_next;             /* round-robin pointer: first source tried at the next boundary */
    uint32_t lock_src;            /* source whose packet holds the output; UINT32_MAX = none */
    uint64_t bubble_since;        /* cycle the locked packet started waiting for its next flit (CYCLE_NEVER = not) */
    bool runs;                    /* credits may go back as runs (NOTE(credit-run)) */
    uint32_t prepaid;             /* flits of the locked packet still to take whose credit a run sent */
    uint64_t prepaid_at;          /* the cycle the next of them must be taken (checked) */
    const struct icnt_topo *topo;
    const struct icnt_policy *pol;
    struct icnt_rx_ops ops;
    void *ctx;
    struct icnt_rx_stats st;
};

void icnt_rx_init(struct icnt_rx *rx, const struct icnt_rx_args *a);
void icnt_rx_fini(struct icnt_rx *rx);
/* A flit arrives from the link at cycle (payload: tail only, else NULL).
 * Overflow means a sender ignored its credits: panic. */
void icnt_rx_flit_arrive(struct icnt_rx *rx, const struct icnt_flit *f, const void *payload, cycle_t cycle);
/* Take at most one flit; returns the next cycle with work or CYCLE_NEVER.
 * Between packets with no flit held it has nothing to do
 * (NOTE(idle-inline) above). */
uint64_t icnt_rx_tick_work(struct icnt_rx *rx, cycle_t cycle);
static inline uint64_t icnt_rx_tick(struct icnt_rx *rx, cycle_t cycle)
{
#ifdef NDEBUG
    if (rx->n_flits_held == 0 && rx->lock_src == UINT32_MAX)
        return CYCLE_NEVER;
#endif
    return icnt_rx_tick_work(rx, cycle);
}
bool icnt_rx_idle(const struct icnt_rx *rx);
static inline uint32_t icnt_rx_fifo_count(const struct icnt_rx *rx, uint32_t src) { return rx->fcount[src]; }
/* Flits of src's FIFO whose credit has not left yet (a run sends the
 * credits of the packet being taken ahead, NOTE(credit-run)). */
static inline uint32_t icnt_rx_fifo_unpaid(const struct icnt_rx *rx, uint32_t src)
{
    return rx->fcount[src] - (src == rx->lock_src ? rx->prepaid : 0u);
}
/* Head flit of src's FIFO (NULL when empty); for policies. */
static inline const struct icnt_flit *icnt_rx_fifo_head(const struct icnt_rx *rx, uint32_t src)
{
    return rx->fcount[src] ? &rx->fl[(size_t)src * rx->cap + rx->fhead[src]] : NULL;
}
void icnt_rx_check(const struct icnt_rx *rx);
/* Statistics "<group>.rx_*", instance = endpoint id. */
void icnt_rx_stats_register(struct icnt_rx *rx, struct stats *s, const char *group);

/* ------------------------------------------------------------- xbar_iq switch */

/* The central switch of icnt.topology = xbar_iq (sim/icnt/icnt_iq.c, docs/icnt.md
 * "xbar_iq"): GPGPU-Sim 3.x's single-stage router with one virtual channel,
 * one FIFO per input and iSLIP allocation with one iteration and no
 * speedup. Every packet goes source -> switch -> destination: the sender
 * half sends it to the switch (credits = the input buffer), the switch
 * forwards it to the destination's receiver half (credits = that FIFO).
 * Each interconnect cycle every free output grants, round-robin from its
 * pointer, one input whose head flit is a packet head addressed to it and
 * holds that input until the tail has passed (wormhole); an input moves at
 * most one flit per cycle. A packet behind a head that waits for a busy
 * output waits too, whatever its own destination: head-of-line blocking,
 * which the receiver-side FIFOs of xbar do not have. One instance per
 * network; the engine unit around it is the caller's (sim/gpu/xbar_iq_unit.c). */

struct icnt_iq_args {
    const struct icnt_topo *topo; /* topo->sw_ep is this switch */
    const struct icnt_net_cfg *cfg;
    uint32_t payload_bytes;       /* bytes per packet payload (the network's) */
    icnt_send_flit_fn send_flit;  /* forward to f->dst (f->hop = f->dst, f->src = the switch) */
    /* Return one input-buffer credit to source to_src (from_dst = the switch). */
    void (*send_credit)(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive);
    void *ctx;
};

struct icnt_iq_stats {
    uint64_t packets;          /* packets whose tail left the switch */
    uint64_t flits;            /* flits forwarded */
    struct stat_avg wait;      /* icnt cycles from a packet's head reaching the switch to its grant */
    uint64_t wait_max;         /* largest such wait (icnt cycles) */
    uint64_t occ_max;          /* largest occupancy of one input FIFO (flits) */
};

struct icnt_iq {
    uint32_t ep;                  /* the switch's endpoint id */
    uint32_t n;                   /* endpoints (inputs = outputs) */
    uint32_t cap;                 /* input FIFO depth (flits) = icnt.iq_buf_flits + the credit loop */
    uint32_t out_cap;             /* destination FIFO depth (flits) = initial credits per output */
    uint32_t payload_bytes;
    struct icnt_flit *fl;         /* [n * cap] input FIFOs */
    uint64_t *farr;               /* [n * cap] icnt cycle each flit reached the switch */
    uint8_t *pay;                 /* [n * cap * payload_bytes] tail payloads by slot */
    uint32_t *fhead, *fcount;     /* [n] oldest slot, flits held per input */
    uint32_t n_held;              /* flits held in all inputs */
    uint32_t *out_lock;           /* [n] input whose packet holds output o (UINT32_MAX = free) */
    uint32_t *gptr;               /* [n] iSLIP grant pointer of output o */
    uint32_t *credits;            /* [n] credits for output o's destination FIFO (flits) */
    uint64_t *in_last;            /* [n] round input i last moved a flit (one per round) */
    uint64_t *out_ready;          /* [n] round the packet granted output o may move its head (NOTE(iq-alloc)) */
    uint64_t *out_free;           /* [n] icnt cycle output o's link takes its next flit (NOTE(iq-speedup)) */
    uint64_t *cr_free;            /* [n] icnt cycle input i's credit link takes its next credit */
    uint32_t alloc_delay;         /* icnt.iq_alloc_delay (switch rounds) */
    uint32_t speedup;             /* icnt.iq_speedup (switch rounds per icnt cycle); round = cycle x speedup + k */
    uint64_t *req;                /* [n * req_words] bit i of output o: input i's head starts a packet
                                   * for o and is not granted yet */
    uint32_t *req_cnt;            /* [n] requests per output */
    uint32_t req_words;           /* 64-bit words per output mask */
    uint64_t *act;                /* [req_words] bit o: output o is held by a packet or has requests */
    const struct icnt_topo *topo;
    icnt_send_flit_fn send_flit;
    void (*send_credit)(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive);
    void *ctx;
    struct icnt_iq_stats st;
};

/* Input FIFO depth of the xbar_iq switch (flits): icnt.iq_buf_flits plus the
 * credit loop source -> switch -> source (icnt.min_latency), so that a
 * lone source streams one flit per cycle. Also the senders' credits. */
uint32_t icnt_iq_in_cap(const struct icnt_net_cfg *c, uint64_t min_latency);
void icnt_iq_init(struct icnt_iq *q, const struct icnt_iq_args *a);
void icnt_iq_fini(struct icnt_iq *q);
/* A flit from source f->src arrives at the switch at cycle. */
void icnt_iq_flit_arrive(struct icnt_iq *q, const struct icnt_flit *f, const void *payload, cycle_t cycle);
/* A credit from destination dst (its FIFO for the switch freed a slot). */
void icnt_iq_credit(struct icnt_iq *q, uint32_t dst, cycle_t cycle);
/* icnt.iq_speedup rounds, each switching at most one flit per input and per
 * output; next cycle with work or CYCLE_NEVER. */
uint64_t icnt_iq_tick(struct icnt_iq *q, cycle_t cycle);
bool icnt_iq_idle(const struct icnt_iq *q);
void icnt_iq_check(const struct icnt_iq *q);
/* Statistics "<group>.*", instance -1. */
void icnt_iq_stats_register(struct icnt_iq *q, struct stats *s, const char *group);

#endif /* GPUSIM_SIM_ICNT_ICNT_H */
