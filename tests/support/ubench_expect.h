/* tests/support/ubench_expect.h: expected timing values of the
 * microbenchmarks in tests/ptx/ubench.cu, computed from a resolved config.
 *
 * What is modelled: the *unloaded* latency of one load through the memory
 * hierarchy as the built units define it (docs/l1.md, docs/icnt.md,
 * docs/l2.md, docs/mempart.md, docs/dram.md), event by event, with the
 * clock-domain crossings of spec baseline-gpu.md 3.1 (ties at equal times
 * are broken DRAM, L2, icnt, core: a hand-off to a domain ranked *before*
 * the sender is seen at that domain's first edge strictly after the hand-off
 * time, to a domain ranked *after* at its first edge at or after it); the
 * shared-memory conflict degree (spec 2.6); the peak DRAM bandwidth (spec
 * 3.3). What is not modelled: the SM pipeline around the load (issue,
 * operand collection, address generation, writeback, the loop's other
 * instructions): a timing run adds a per-hop overhead that the tests bound
 * with UBENCH_SM_SLACK (docs/ubench.md). Nothing here allocates except
 * ubench_chain_select's caller-provided output.
 */
#ifndef GPUSIM_TESTS_SUPPORT_UBENCH_EXPECT_H
#define GPUSIM_TESTS_SUPPORT_UBENCH_EXPECT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/cfg/sim_cfg.h"

/* Per-hop SM pipeline overhead allowed on top of the memory latency when a
 * timing run is compared with these values (core cycles). NOTE(sm-slack):
 * the SM core is not built, so this is a bound, not a number: issue (1) +
 * operand collection (>= 1) + MEM pipe and coalescer (>= 1) + writeback (1)
 * + scoreboard release and re-issue (1), with margin. Tighten it once the
 * SM exists. */
#define UBENCH_SM_SLACK 40u
/* Relative tolerance added for DRAM hops (refresh is not modelled, but the
 * instruction-fetch misses of the first iterations share the DRAM). */
#define UBENCH_DRAM_TOL 0.05

/* Where an isolated read is served. */
enum ubench_level {
    UBENCH_L2_HIT = 0,
    UBENCH_DRAM_ROW_HIT = 1,    /* the bank has the line's row open: RD only */
    UBENCH_DRAM_ROW_CLOSED = 2, /* the bank has no open row (cold): ACT, RD */
    UBENCH_DRAM_ROW_MISS = 3,   /* another row is open: PRE, ACT, RD */
};

/* Every event of one isolated read that misses (or bypasses) the L1, in the
 * cycles of the domain named in each field. Unused DRAM fields are 0. */
struct ubench_timeline {
    uint64_t l1_access;     /* core cycle of the L1 access (0) */
    uint64_t req_pop;       /* core: request leaves the L1 miss queue (access + 1) */
    uint64_t req_head;      /* icnt: request head flit leaves the SM sender */
    uint64_t req_deliver;   /* icnt: request tail delivered to the sub-partition */
    uint64_t l2_push;       /* L2: push cycle (inputs first used by the next tick) */
    uint64_t l2_lookup;     /* L2: tag lookup = push + ROP delay */
    uint64_t dram_admit;    /* DRAM: admitted from the L2->DRAM queue */
    uint64_t dram_ready;    /* DRAM: leaves the l2_to_dram delay line */
    uint64_t dram_pre;      /* DRAM: PRE (row miss only) */
    uint64_t dram_act;      /* DRAM: ACT (row closed / miss) */
    uint64_t dram_rd_first; /* DRAM: first RD */
    uint64_t dram_rd_last;  /* DRAM: last RD (line / 64 B column commands) */
    uint64_t dram_data;     /* DRAM: last data on the bus = rd_last + tCL */
    uint64_t l2_fill;       /* L2: first fill-port cycle */
    uint64_t l2_reply;      /* L2: reply poppable */
    uint64_t reply_head;    /* icnt: reply head flit leaves the partition sender */
    uint64_t reply_tail;    /* icnt: reply tail arrives at the SM receiver */
    uint64_t l1_reply;      /* core: reply pushed into the L1 */
    uint64_t done;          /* core: load completes (l1_reply + 1) = latency */
    uint32_t req_flits;     /* flits of the request packet */
    uint32_t reply_flits;   /* flits of the reply packet */
};

/* Clock periods (ps) of a resolved config; pipeline period = core period
 * (sm.pipe_clock_div does not exist yet: NOTE(pipe-div) in the .c). */
struct clock_periods ubench_periods(const struct sim_cfg *c);

/* L1 hit: core cycles from the L1 access to the completion. */
uint64_t ubench_l1_hit_cycles(const struct sim_cfg *c);

/* Partition side of an isolated read of req_bytes (the L2 request size: 128
 * for an L1 miss, the 32/64/128 B segment for an L1-bypassing read) pushed
 * into the sub-partition at L2 cycle t->l2_push. Fills the L2, DRAM and
 * reply fields of *t; returns t->reply_tail (icnt cycle). */
uint64_t ubench_partition_read(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv,
                               struct ubench_timeline *t);

/* Whole isolated read from an SM whose L1 access is at core cycle 0: every
 * field of *t; returns the load latency t->done in core cycles. */
uint64_t ubench_read_timeline(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv,
                              struct ubench_timeline *t);

/* Shortcuts (core cycles). */
uint64_t ubench_l2_hit_cycles(const struct sim_cfg *c, uint32_t req_bytes);
uint64_t ubench_dram_cycles(const struct sim_cfg *c, uint32_t req_bytes, enum ubench_level lv);

/* Shared-memory pipe cycles of one warp access where lane l reads the 4-byte
 * word at l * stride_words (spec 2.6: per warp part, the largest number of
 * distinct words in one bank; parts add). Closed form gcd-based, and the
 * naive per-bank count used as its reference. */
unsigned ubench_smem_cycles(const struct sim_cfg *c, unsigned stride_words);
unsigned ubench_smem_cycles_naive(const struct sim_cfg *c, unsigned stride_words);

/* Peak DRAM bandwidth of all channels in bytes per core cycle:
 * n_partitions x bus_bytes x data_cmd_ratio x core_ps / dram_ps. */
double ubench_dram_peak_bytes_per_core_cycle(const struct sim_cfg *c);

/* Chain selection for the DRAM chases. Scans the 128 B lines of the buffer
 * [dev_base, dev_base + bytes) (device addresses; the map sees
 * dev - DEVMEM_BASE) and writes up to max line offsets (bytes from dev_base).
 * The reference line is the first line at column 0 of its row (so a whole
 * row is inside the buffer when the buffer is large enough):
 *   same_row = 1: lines in the channel, bank and row of that line, in
 *                 address order (row hits after the first);
 *   same_row = 0: one line per row in the channel and bank of that line,
 *                 rows in increasing order (every hop a row miss).
 * Returns the number written. */
size_t ubench_chain_select(const struct sim_cfg *c, uint64_t dev_base, uint64_t bytes, int same_row,
                           uint64_t *off, size_t max);

#endif /* GPUSIM_TESTS_SUPPORT_UBENCH_EXPECT_H */
