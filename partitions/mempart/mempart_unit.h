/* partitions/mempart/mempart_unit.h: one memory partition on the parallel engine
 * (its engine wrapper), with the interconnect halves of the partition end
 * (spec baseline-gpu.md 1.5, 2.7, 3.1, 3.4; docs/mempart_unit.md).
 *
 * What is modelled (by the units it drives; this file adds no timing):
 *  - three engine units per memory partition, all in one engine partition:
 *    a DRAM-domain unit driving mempart_tick_dram, an L2-domain unit driving
 *    mempart_tick_l2, and one interconnect-domain unit hosting, for each of
 *    the two sub-partition endpoints, the receiver half of the request
 *    network (struct icnt_rx: flits arrive as engine messages from SM
 *    partitions; delivered packets go to mempart_push, with
 *    mempart_can_accept as the endpoint back-pressure) and the sender half of
 *    the reply network (struct icnt_tx: replies popped with
 *    mempart_pop_reply are packetised with icnt_reply_flits and sent as
 *    flits to the SM endpoint; credits come back as messages). Engine time
 *    maps to cycles as cycle = now / period (every tick is on an edge);
 *  - the clock-domain crossings of docs/mempart.md: edges of the three
 *    domains run in time order, DRAM before L2 before icnt at equal times
 *    (spec 3.1). Work one domain creates for another is forwarded as a local
 *    wake message (1 ps link) when it is due later, or by running the other
 *    domain's step at once when it is due now and that domain ranks later
 *    (NOTE(same_time_wake));
 *  - the backing store: a byte array of store_bytes partition-local bytes
 *    per partition, allocated by the partition init on its owning thread
 *    (eng_alloc), behind struct mempart_store;
 *  - the host path for the serial step: device address <-> (channel,
 *    partition-local address) with addrmap after subtracting DEVMEM_BASE,
 *    and byte copies in and out through mempart_host_read/write (dirty L2
 *    lines respected).
 * What is not modelled: the SM end of the networks (its sender and receiver
 * halves belong to the SM partitions and use the same message types,
 * sim/icnt/icnt_msg.h), kernel-boundary actions, refresh.
 *
 * Addresses: requests and replies on the interconnect carry device addresses
 * (>= DEVMEM_BASE, as the SM computes them); the partition end subtracts
 * DEVMEM_BASE before mempart_push and adds it back to the reply
 * (NOTE(dev_addr)), because struct mempart decodes with addrmap directly.
 *
 * Threading: a struct mpu_part belongs to its engine partition's thread;
 * struct mpu_shared is read-only during quanta (the serial step and the
 * code between runs may use the host functions).
 * Hot path: no allocation, no locks, no strings.
 */
#ifndef GPUSIM_PARTITIONS_MEMPART_MEMPART_UNIT_H
#define GPUSIM_PARTITIONS_MEMPART_MEMPART_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "partitions/addrmap/addrmap.h"
#include "partitions/mempart/mempart.h"
#include "sim/base/common.h"
#include "sim/icnt/icnt.h"
#include "sim/icnt/icnt_msg.h"
#include "sim/base/stats.h"
#include "sync/engine.h"

/* Domains of the three units, in the engine's tie order (spec 3.1). */
enum mpu_dom { MPU_DOM_DRAM, MPU_DOM_L2, MPU_DOM_ICNT, MPU_N_DOM };

/* Local message between the units of one partition: "run at arrival". */
#define MPU_MSG_WAKE 0x1C10u

/* Model-wide description, built on one thread before eng_run and read-only
 * while quanta run (parts[] is filled by the partition inits, which the
 * engine serialises). Everything pointed to must outlive the engine. */
struct mpu_shared {
    const struct mempart_cfg *mp_cfg;  /* section l2_to_dram */
    const struct l2_cfg *l2_cfg;       /* section l2 */
    const struct coh_cfg *coh_cfg;     /* section coh (NULL = no coherence) */
    const struct dram_cfg *dram_cfg;   /* section dram */
    const struct icnt_net_cfg *net_cfg;/* section icnt (network keys) */
    uint64_t seed;                     /* sim.seed (icnt.jitter's random streams) */
    bool relaxed_due;                  /* relaxed mode with sync.relaxed_comp = due (NOTE(relaxed-due)) */
    const struct mem_atomic_ops *atom; /* atomic semantics for the L2 slices (sim/mem/atomic.h) */
    const struct addrmap *map;         /* address map: map->n_ch partitions */
    const struct pagetable *pt;        /* device page table (NULL: identity; docs/addrmap.md) */
    const struct icnt_topo *topo;      /* endpoints and latencies (both networks) */
    ps_t pipe_period_ps;               /* SM pipeline period (ps): core x sm.pipe_clock_div */
    ps_t period_ps[MPU_N_DOM];         /* DRAM, L2, icnt clock periods (ps) */
    struct divq period_div[MPU_N_DOM]; /* divq by period_ps (NOTE(divq), sim/base/common.h) */
    uint64_t store_bytes;              /* backing store per partition (bytes of local address space) */
    const uint32_t *ep_unit;           /* [topo->n_ep] engine unit hosting each endpoint */
    uint32_t (*units)[MPU_N_DOM];      /* [map->n_ch] engine unit ids of each partition (mpu_units_add) */
    struct mpu_part **parts;           /* [map->n_ch] partition state, set by mpu_part_create */
    struct stats *stats;               /* registry for statistics, or NULL */
    const struct devmem *dev;          /* non-NULL: the partitions' bytes are this device memory's
                                          (timing mode, NOTE(devmem_store) in mempart_unit.c);
                                          NULL: a private store of store_bytes per partition */
};

struct mpu_stats {
    uint64_t req_delivered;     /* requests handed to mempart_push */
    uint64_t replies_injected;  /* replies moved from the L2 to the reply sender half */
    uint64_t reply_blocked;     /* icnt cycles a ready reply waited for room in the injection buffer */
    uint64_t wake_msgs;         /* local wake messages sent between the three units */
    uint64_t direct_steps;      /* steps run at once for a later-ranked domain at the same time */
};

struct mpu_part;
struct devmem;

/* One sub-partition endpoint (context of its icnt halves' callbacks). */
struct mpu_ep {
    struct mpu_part *p; /* owning partition */
    unsigned sub;       /* local sub-partition 0/1 */
    uint32_t ep;        /* network endpoint id */
};

struct mpu_part {
    const struct mpu_shared *sh;      /* model description */
    unsigned channel;                 /* memory partition = DRAM channel */
    uint32_t unit[MPU_N_DOM];         /* engine unit ids */
    struct mempart mp;                /* two L2 slices + DRAM channel */
    uint8_t *bytes;                   /* [sh->store_bytes] backing store by local address */
    struct icnt_rx rx[MEMPART_SUBS];  /* request-network receiver halves */
    struct icnt_tx tx[MEMPART_SUBS];  /* reply-network sender halves */
    struct mpu_ep ep[MEMPART_SUBS];   /* callback contexts */
    ps_t done[MPU_N_DOM];             /* ps: last edge each domain stepped (PS_NEVER = none) */
    ps_t sched[MPU_N_DOM];            /* ps: upper bound of the engine's next tick of each unit */
    ps_t halves_next;                 /* ps: next icnt edge the halves asked for (PS_NEVER = none) */
    uint64_t blocked_since[MEMPART_SUBS]; /* icnt cycle the sub-partition's ready reply started waiting
                                           * for room in its injection buffer (CYCLE_NEVER = not waiting) */
    struct eng_ctx *ctx;              /* engine context during a step (send callbacks) */
    ps_t now;                         /* ps: time of the current step */
    struct mpu_stats st;
};

/* ------------------------------------------------------------- building */

/* Add the partition's three units (DRAM, L2, icnt, in that order) to engine
 * partition `partition`, with dom[] the engine domains of the three clocks,
 * and the local links between them (1 ps). */
void mpu_units_add(struct engine *eng, int partition, const int dom[MPU_N_DOM], uint32_t units[MPU_N_DOM]);
/* Declare the interconnect links between every sub-partition endpoint of
 * every partition and every SM endpoint (both directions, latency from the
 * topology x icnt period). sh->units and sh->ep_unit must be filled. */
void mpu_links_add(struct engine *eng, const struct mpu_shared *sh);
/* Partition init (call from the model's eng_part_init_fn on the owning
 * thread): allocates and binds the partition's state and store. */
struct mpu_part *mpu_part_create(struct mpu_shared *sh, struct eng_ctx *ctx, unsigned channel);
/* Frees what the create allocated outside eng_alloc (call from the fini). */
void mpu_part_fini(struct mpu_part *p);

/* Nothing queued or in flight in the partition or its two endpoints. */
bool mpu_part_idle(const struct mpu_part *p);
/* G-TSC timestamp reset (NOTE(gtsc-reset) in partitions/l2/l2.c), serial
 * step only: does a slice of the partition ask for one; apply it to both. */
bool mpu_part_gtsc_reset_wanted(const struct mpu_part *p);
void mpu_part_gtsc_reset(struct mpu_part *p);

/* ------------------------------------------------------------- addresses */

/* Device address -> location; false when dev is below DEVMEM_BASE or beyond
 * the store (local address + 1 > store_bytes). */
bool mpu_dev_locate(const struct addrmap *map, const struct pagetable *pt, uint64_t store_bytes, uint64_t dev,
                    struct addrmap_loc *loc);
/* (channel, partition-local address) -> device address. */
uint64_t mpu_dev_of(const struct addrmap *map, const struct pagetable *pt, unsigned channel, uint64_t local);
/* Network endpoint id of the sub-partition owning a located address. */
static inline uint32_t mpu_ep_of_loc(const struct icnt_topo *t, const struct addrmap_loc *loc)
{
    return icnt_ep_of_sub(t, loc->sub);
}

/* ------------------------------------------------------------- host path */

/* Serial step or between runs only (every partition idle): copy n bytes at
 * device address dev in or out, any length, split per 128 B line and routed
 * to the owning partition. Return false (nothing copied) when any byte is
 * out of range. No simulated time passes. */
bool mpu_host_write(const struct mpu_shared *sh, uint64_t dev, const void *buf, uint64_t n);
bool mpu_host_read(const struct mpu_shared *sh, uint64_t dev, void *buf, uint64_t n);

#endif /* GPUSIM_PARTITIONS_MEMPART_MEMPART_UNIT_H */
