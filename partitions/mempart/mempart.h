/* partitions/mempart/mempart.h: one memory partition: two L2 slices (sub-partitions),
 * one DRAM controller + GDDR5 channel, and the queues, credits and
 * round-robin between them (spec baseline-gpu.md 1.4, 1.5, 2.8, 2.9, 3.1,
 * 3.3; docs/mempart.md).
 *
 * What is modelled:
 *  - two struct l2 slices (partitions/l2/l2.h: ROP line, the four 8-entry FIFOs,
 *    tags, MSHRs, ports) and one struct dram (partitions/dram/dram.h: L2->DRAM
 *    delay line, FR-FCFS queue, banks, return queue);
 *  - DRAM-cycle admission (spec 2.8 point 4): at most one request per DRAM
 *    cycle from the heads of the two L2->DRAM queues, round-robin starting
 *    after the last admitted sub-partition, a request being admitted only if
 *    (a) the DRAM scheduler queue has room, (b) the source's DRAM->L2 queue
 *    is not full, (c) a credit is free: dram.queue + dram.return_queue - 1
 *    shared credits plus 1 private credit per sub-partition, taken at
 *    admission, given back when a read's data enters the DRAM->L2 queue or
 *    when a write completes in the DRAM;
 *  - the l2_to_dram.latency delay (pipeline cycles converted to DRAM cycles)
 *    as the ready cycle handed to dram_push;
 *  - the return path: at most one read per DRAM cycle from the head of the
 *    DRAM return queue into the DRAM->L2 queue of its sub-partition (the head
 *    blocks while that queue is full), then the L2 fill path;
 *  - data values (spec 2.9): the partition owns the backing store of its
 *    addresses through struct mempart_store. A line read takes its bytes and a
 *    write-back updates the store when the request leaves the L2->DRAM queue
 *    (admission), which is L2 miss-queue order per sub-partition; the two
 *    sub-partitions own disjoint lines, so the values are those of L2 order;
 *  - with an MSHR DRAM policy and dram.icl_exact_hw: one L2-side merge
 *    information buffer per slice (partitions/l2/l2_mib.h) and its output
 *    multiplexer, which sends dummy update messages ahead of the slice's
 *    L2->DRAM queue head, one admission slot each (NOTE(icl-dummy));
 *  - the host path for the serial step: byte reads and writes through the L2
 *    (dirty lines included) while the partition is idle.
 * What is not modelled: the interconnect (the caller pushes requests and pops
 * replies), coherence / RDU hooks, refresh. The clock-domain crossing has no
 * synchroniser delay: a value crossing is visible at the next edge of the
 * other domain.
 *
 * Clocks: the partition is ticked on the L2 clock (mempart_tick_l2) and on
 * the DRAM clock (mempart_tick_dram), each with its own cycle numbers. The
 * caller runs the edges in time order; at equal times DRAM goes first
 * (spec 3.1 tie order DRAM, L2, icnt, core). An L2 cycle t is at time
 * t x l2_period_ps and a DRAM cycle d at d x dram_period_ps.
 *
 * Calling convention, per L2 cycle t: mempart_tick_l2(t) first, then any
 * mempart_push / mempart_pop_reply at t (l2.h convention: an input given at t
 * is first used at t + 1, an output of tick(t) can be popped at t). Each tick
 * function returns its domain's next cycle with work (CYCLE_NEVER = idle);
 * either tick and every push/pop may move the other domain's next cycle
 * earlier, so the wrapper reads both with mempart_next_l2 / mempart_next_dram
 * after any call.
 *
 * Hot path: no allocation, no locks, no strings; everything is preallocated.
 * Threading: a struct mempart belongs to one memory-partition host thread.
 */
#ifndef GPUSIM_PARTITIONS_MEMPART_MEMPART_H
#define GPUSIM_PARTITIONS_MEMPART_MEMPART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "partitions/addrmap/addrmap.h"
#include "partitions/addrmap/pagetable.h"
#include "partitions/dram/dram.h"
#include "partitions/l2/l2.h"
#include "partitions/l2/l2_mib.h"
#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/mem/memreq.h"
#include "sim/base/stats.h"

#define MEMPART_SUBS 2u /* sub-partitions (L2 slices) per partition (spec 1.4; addrmap supports 2) */

/* ------------------------------------------------------------ configuration */

/* Section "l2_to_dram" (partitions/mempart/mempart_cfg.c). */
struct mempart_cfg {
    uint64_t l2_to_dram_latency; /* l2_to_dram.latency (pipeline cycles): L2->DRAM request delay */
};

extern const struct cfg_key mempart_cfg_keys[];
extern const size_t mempart_cfg_n_keys;
/* The "l2_to_dram" section (registered in sim/cfg/registry.c by the integrator). */
extern const struct cfg_section mempart_cfg_section;

/* Fill *c with the built-in (gtx480) defaults: latency 100. */
void mempart_cfg_defaults(struct mempart_cfg *c);
/* l2_to_dram.latency in DRAM cycles: latency x pipe_period_ps / dram_period_ps
 * rounded to the nearest cycle (gtx480: 100 x 1429 / 1082 = 132.07 -> 132). */
uint64_t mempart_l2_to_dram_cycles(const struct mempart_cfg *c, ps_t pipe_period_ps, ps_t dram_period_ps);

/* ------------------------------------------------------------ backing store */

/* The partition's bytes. Both calls get the line's device address (as in the
 * requests) and its partition-local address R (spec 2.9); an implementation
 * indexes whichever it stores by. Called only from the owning thread (during
 * a quantum) or from the serial step. */
struct mempart_store {
    /* Copy the 128 bytes of the line into out. */
    void (*read_line)(void *ctx, uint64_t line_addr, uint64_t local, uint8_t out[MEM_LINE_BYTES]);
    /* Write the bytes of data under mask (bit i = byte i) into the line. */
    void (*write_line)(void *ctx, uint64_t line_addr, uint64_t local, const uint8_t data[MEM_LINE_BYTES],
                       const uint64_t mask[2]);
    void *ctx;
};

/* ------------------------------------------------------------------- state */

#define MEMPART_NONE UINT32_MAX

/* One admitted DRAM request; it holds one credit from admission until its
 * data enters the DRAM->L2 queue (read) or it completes (write). */
struct mempart_slot {
    uint64_t line_addr;           /* device address of the line */
    uint32_t next_free;           /* free-list link (slot index) */
    uint8_t sub;                  /* local sub-partition (0 or 1) */
    uint8_t is_write;             /* write-back (1) or line read (0) */
    uint8_t wr_cols;              /* write: WR commands issued so far (commands) */
    uint8_t wr_need;              /* write: WR commands it needs, one per column chunk its mask touches */
    uint8_t data[MEM_LINE_BYTES]; /* read: the line's bytes taken at admission */
};

struct mempart_stats {
    uint64_t admitted[MEMPART_SUBS];   /* requests admitted to the DRAM, per sub-partition */
    uint64_t admitted_writes;          /* of which write-backs */
    uint64_t returned;                 /* reads handed to the DRAM->L2 queue */
    uint64_t stall_credit;             /* DRAM cycles a waiting head was refused for lack of credit */
    uint64_t stall_dram_full;          /* ... because the DRAM scheduler queue was full */
    uint64_t stall_fill_full;          /* ... because its DRAM->L2 queue was full */
    uint64_t stall_return;             /* DRAM cycles the return-queue head waited for DRAM->L2 room */
    uint64_t rr_contended;             /* DRAM cycles both sub-partitions had an admissible head */
    struct stat_avg credits_used;      /* credits held, per DRAM cycle (credits) */
    uint64_t dram_updates;             /* L2 merges passed to the DRAM as update messages (NOTE(dram-update));
                                          not registered: 0 unless the DRAM policy has on_update */
    uint64_t icl_dummies;              /* exact hw: dummy messages sent on the L2->DRAM link (one link slot each) */
    uint64_t icl_dummy_blocked;        /* exact hw: DRAM cycles a dummy took the link while a request was admissible */
};

struct mempart {
    /* configuration, fixed at init */
    unsigned channel;                  /* partition = DRAM channel id */
    const struct addrmap *map;         /* shared immutable address map */
    const struct pagetable *pt;        /* device page table (NULL: identity), shared, read-only in quanta */
    struct mempart_store store;        /* backing store */
    uint64_t l2_to_dram_cycles;        /* request delay (DRAM cycles) */
    ps_t l2_period_ps;                 /* L2 clock period (ps) */
    ps_t dram_period_ps;               /* DRAM clock period (ps) */
    uint32_t cols_per_line;            /* DRAM column commands per 128 B line (commands) */
    bool sector_fetch;                 /* l2.sector_fetch: reads cost a column access per 32 B sector (NOTE(sector-fetch)) */

    /* units */
    struct l2 l2[MEMPART_SUBS];        /* the two slices; instance = channel * 2 + sub */
    struct dram dram;                  /* the channel; instance = channel */
    /* exact-hardware path of the MSHR policies (dram_mib_on; docs/dram.md) */
    bool mib_on;                       /* the L2-side MIBs exist and dummies are sent */
    bool mib_total;                    /* dram.icl_age_mode = total */
    bool mib_by_age;                   /* mshr_sa: the MIB multiplexer picks by age, else by merge_len */
    struct l2_mib mib[MEMPART_SUBS];   /* L2-side MIB per slice, indexed like its MSHR */

    /* credits (spec 2.8 point 4, GPGPU-Sim arbitration_metadata) */
    uint32_t shared_limit;             /* shared credits: dram.queue + dram.return_queue - 1 */
    uint32_t shared_used;              /* shared credits held (credits) */
    uint8_t private_used[MEMPART_SUBS];/* private credit held (0 or 1) per sub-partition */
    uint32_t last_admit;               /* sub-partition admitted last (round-robin origin) */

    /* admitted requests: one slot per credit */
    struct mempart_slot *slot;         /* [n_slots] */
    uint32_t n_slots;                  /* shared_limit + MEMPART_SUBS (entries) */
    uint32_t free_head;                /* free-slot list */
    uint32_t slots_used;               /* slots held (entries) */

    /* writes in completion order (slot indices), matched against dram.st.writes */
    uint32_t *wdone;                   /* ring [n_slots] */
    uint32_t wdone_head, wdone_n;      /* ring head, entries */
    uint32_t wpending;                 /* admitted writes not yet in wdone (entries) */
    uint64_t writes_seen;              /* dram.st.writes already matched (requests) */

    /* scheduling */
    uint64_t next_l2;                  /* next L2 cycle with work (CYCLE_NEVER = none) */
    uint64_t next_dram;                /* next DRAM cycle with work */
    uint64_t last_dram;                /* last DRAM cycle ticked (CYCLE_NEVER before the first) */

    dram_trace_fn user_trace;          /* caller's DRAM command trace, chained (NULL = off) */
    void *user_trace_ctx;

    struct mempart_stats st;
};

struct mempart_init_args {
    unsigned channel;           /* this partition's channel id, < map->n_ch */
    const struct addrmap *map;  /* address map (must outlive the partition) */
    const struct pagetable *pt; /* device page table (NULL: identity; must outlive the partition) */
    ps_t pipe_period_ps;        /* SM pipeline period = core period x sm.pipe_clock_div (ps) */
    ps_t l2_period_ps;          /* L2 clock period (ps) */
    ps_t dram_period_ps;        /* DRAM clock period (ps) */
    struct mempart_store store; /* backing store of this partition's bytes */
    const struct mem_atomic_ops *atom; /* atomic semantics for the L2 slices (sim/mem/atomic.h) */
    const struct coh_cfg *coh;  /* coherence protocol of the L2 slices (coh.*); NULL = none */
};

/* ------------------------------------------------------------------- API */

/* Builds both slices (ROP delay from l2.rop_latency with the pipeline and L2
 * periods) and the DRAM channel; panics on configurations the config layer
 * must have refused. */
void mempart_init(struct mempart *mp, const struct mempart_cfg *cfg, const struct l2_cfg *l2cfg,
                  const struct dram_cfg *dcfg, const struct mempart_init_args *a);
void mempart_fini(struct mempart *mp);

/* Local sub-partition (0/1) of a device address of this partition. */
unsigned mempart_sub_of(const struct mempart *mp, uint64_t addr);

/* Interconnect side, sub-partition sub (local 0/1), at L2 cycle `cycle`. */
bool mempart_can_accept(const struct mempart *mp, unsigned sub);
/* Accept a request; false (nothing changed) when sub-partition `sub` cannot. */
bool mempart_push(struct mempart *mp, unsigned sub, const struct mem_req *req, cycle_t cycle);
/* mempart_push of a request due `late` L2 cycles before `cycle` (l2_push_late). */
bool mempart_push_late(struct mempart *mp, unsigned sub, const struct mem_req *req, cycle_t cycle, cycle_t late);
/* At most one reply per sub-partition per L2 cycle; false when none. */
bool mempart_pop_reply(struct mempart *mp, unsigned sub, struct mem_reply *out, cycle_t cycle);

/* One L2 cycle of both slices; returns the next L2 cycle with work. */
uint64_t mempart_tick_l2(struct mempart *mp, cycle_t cycle);
/* One DRAM cycle: DRAM channel, write completions, return path, admission;
 * returns the next DRAM cycle with work. */
uint64_t mempart_tick_dram(struct mempart *mp, cycle_t cycle);
uint64_t mempart_next_l2(const struct mempart *mp);
uint64_t mempart_next_dram(const struct mempart *mp);

/* Nothing queued, outstanding or held anywhere in the partition. */
bool mempart_idle(const struct mempart *mp);

/* Serial step (partition idle): read / write n bytes at device address addr,
 * all inside one 128 B line of this partition. Reads see dirty L2 data;
 * writes update the backing store and any L2 copy of the line. No simulated
 * time passes and no statistic changes. */
void mempart_host_read(struct mempart *mp, uint64_t addr, void *buf, uint32_t n);
void mempart_host_write(struct mempart *mp, uint64_t addr, const void *buf, uint32_t n);

/* Statistics: group "mempart" (instance = channel), plus the slices' "l2"
 * (instance = channel * 2 + sub) and the channel's "dram" (instance = channel). */
void mempart_stats_register(struct mempart *mp, struct stats *s);
/* Chain a DRAM command trace (the partition uses the DRAM trace hook itself). */
void mempart_set_dram_trace(struct mempart *mp, dram_trace_fn fn, void *ctx);
/* Credits held right now (tests, invariant checks). */
uint32_t mempart_credits_used(const struct mempart *mp);

/* Replace the DRAM scheduler policy (setup, before traffic): dram_set_sched
 * plus the L2 merge hooks that feed the policy's on_update (NOTE(dram-update)
 * in mempart.c). */
void mempart_set_dram_sched(struct mempart *mp, const struct dram_sched_ops *ops);

#endif /* GPUSIM_PARTITIONS_MEMPART_MEMPART_H */
