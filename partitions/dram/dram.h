/* partitions/dram/dram.h: one DRAM controller and its GDDR5 channel (spec
 * baseline-gpu.md §1.4, §2.8 point 4, §2.9, §3.3, §4.2).
 *
 * What is modelled, in DRAM command cycles (924 MHz for gtx480):
 *  - the L2->DRAM delay line as the entry to the controller: the caller
 *    pushes a request with the cycle at which it may enter the scheduler
 *    queue (admission cycle + l2_to_dram.latency converted to DRAM cycles);
 *    the line is a FIFO and its head enters the queue once ready and the
 *    queue has room;
 *  - a unified scheduler queue of dram.queue entries, or (dram.separate_rw)
 *    a read queue and a write queue with a write-drain mode switched by high
 *    and low watermarks (dram-intercore-locality.md §2.2);
 *  - a scheduler policy behind a function table (dram_sched.h): FR-FCFS per
 *    bank (frfcfs) or strict arrival order (fcfs);
 *  - per bank: the open row, the last-scheduled row, one request in service
 *    and its remaining commands (PRE if another row is open, ACT, then one
 *    column command per 64 B);
 *  - every timing constraint of §3.3 from a declarative constraint table
 *    (dram.c) compiled at init into per-bank, per-bank-group and per-channel
 *    earliest-issue cycles; one command per DRAM cycle, banks tried in
 *    rotating priority;
 *  - the data bus (occupancy statistics; the table guarantees no overlap,
 *    which a debug check verifies), read data tCL after each read command,
 *    the return queue of dram.return_queue entries, and write completion
 *    tWL after the last write command;
 *  - dram.model = perfect: a request leaves the queue the cycle it enters it
 *    (reads go straight to the return queue);
 *  - with an MSHR policy and dram.icl_exact_hw (docs/dram.md "Exact-hardware
 *    path"): the DRAM-side merge information buffer, one entry per waiting
 *    read (4-bit count, 15-bit age evaluated in closed form), and the dummy
 *    update messages on the L2->DRAM link (dram_push_dummy), applied or
 *    dropped as late when they arrive.
 *
 * What is not modelled: refresh, power-down, tFAW (GDDR5 table of §3.3 has
 * none), data values (the partition's backing store is updated in L2 order,
 * §2.9), the partition's admission credits and the round-robin between its
 * two sub-partitions (§2.8 point 4: that is the partition's job; this unit
 * only refuses when its own structures are full), address decoding (the
 * caller fills bank/row/col with partitions/addrmap/addrmap.h, whose map string is
 * the key dram.addr_map validated in dram_cfg.c).
 *
 * Expected operation mix: one dram_tick per DRAM cycle with work (idle
 * cycles are skipped by the returned next-work cycle), at most one push and
 * one pop per cycle. Nothing here allocates after dram_init.
 *
 * Threading: a struct dram belongs to one memory-partition host thread.
 */
#ifndef GPUSIM_PARTITIONS_DRAM_DRAM_H
#define GPUSIM_PARTITIONS_DRAM_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/base/stats.h"

/* ------------------------------------------------------------ configuration */

enum dram_sched_kind {
    DRAM_SCHED_FRFCFS = 0,
    DRAM_SCHED_FCFS = 1,
    DRAM_SCHED_MSHR_M = 2,
    DRAM_SCHED_MSHR_S = 3,
    DRAM_SCHED_MSHR_SA = 4
};
enum dram_model_kind { DRAM_MODEL_NORMAL = 0, DRAM_MODEL_PERFECT = 1 };
/* dram.icl_age_mode (dram-intercore-locality.md OQ-1): what a dummy's age
 * payload means at the controller. */
enum dram_icl_age { DRAM_ICL_AGE_DELTA = 0, DRAM_ICL_AGE_TOTAL = 1 };

/* Section "dram" (keys in partitions/dram/dram_cfg.c). Timing values are DRAM
 * command cycles. Field types follow the cfg machinery (uint64_t for
 * CFG_UINT, bool for CFG_BOOL, int for CFG_ENUM). */
/* dram.bank_group_index: which bank-number bits name a bank's group. */
enum dram_bg_index {
    DRAM_BG_HIGH, /* group = bank div (banks / bank_groups): GPGPU-Sim 3.x, policy 0 */
    DRAM_BG_LOW,  /* group = bank mod bank_groups: GPGPU-Sim 4.x -dram_bnkgrp_indexing_policy 1 */
};

struct dram_cfg {
    uint64_t queue;          /* dram.queue: unified scheduler queue (entries) */
    uint64_t return_queue;   /* dram.return_queue: completed reads waiting for L2 (entries) */
    bool separate_rw;        /* dram.separate_rw: separate read/write queues with watermarks */
    uint64_t rdq;            /* dram.rdq: read queue when separate_rw (entries) */
    uint64_t wrq;            /* dram.wrq: write queue when separate_rw (entries) */
    uint64_t wm_hi;          /* dram.wm_hi: enter write drain at this write occupancy (entries) */
    uint64_t wm_lo;          /* dram.wm_lo: leave write drain at or below this (entries) */
    uint64_t banks;          /* dram.banks: banks per channel */
    uint64_t bank_groups;    /* dram.bank_groups: groups; group = bank div (banks/groups) */
    int bank_group_index;    /* dram.bank_group_index: enum dram_bg_index (which bank bits name the group) */
    uint64_t rows;           /* dram.rows: rows per bank */
    uint64_t tRCD;           /* dram.tRCD: ACT -> RD, same bank (cycles) */
    uint64_t tRAS;           /* dram.tRAS: ACT -> PRE, same bank (cycles) */
    uint64_t tRP;            /* dram.tRP: PRE -> ACT, same bank (cycles) */
    uint64_t tRC;            /* dram.tRC: ACT -> ACT, same bank (cycles) */
    uint64_t tCCDS;          /* dram.tCCDS: column -> column, any bank (cycles) */
    uint64_t tCCDL;          /* dram.tCCDL: column -> column, same bank group (cycles) */
    uint64_t tRRD;           /* dram.tRRD: ACT -> ACT, any bank (cycles) */
    uint64_t tCL;            /* dram.tCL: RD -> read data on the bus (cycles) */
    uint64_t tWL;            /* dram.tWL: WR -> write data on the bus (cycles) */
    uint64_t tCDLR;          /* dram.tCDLR: last write data -> RD (cycles) */
    uint64_t tWR;            /* dram.tWR: last write data -> PRE (cycles) */
    uint64_t tRTPL;          /* dram.tRTPL: RD -> PRE, same bank group (cycles) */
    uint64_t bus_bytes;      /* dram.bus_bytes: bytes per data beat (channel width) */
    uint64_t burst;          /* dram.burst: beats per column command (BL) */
    uint64_t data_cmd_ratio; /* dram.data_cmd_ratio: data beats per command cycle (4 = QDR) */
    int sched;               /* dram.sched: enum dram_sched_kind */
    int model;               /* dram.model: enum dram_model_kind */
    bool icl_exact_hw;       /* dram.icl_exact_hw: MSHR policies read the DRAM-side MIB fed by dummies
                                (exact hardware) instead of the live MSHR (oracle) */
    bool icl_dummy_after_original; /* dram.icl_dummy_after_original: a dummy waits for its original miss */
    int icl_age_mode;        /* dram.icl_age_mode: enum dram_icl_age */
    char *addr_map;          /* dram.addr_map: address-map string (partitions/addrmap/addrmap.h; owned by
                                struct cfg; NULL = ADDRMAP_GTX480); not used by dram.c itself */
};

extern const struct cfg_key dram_cfg_keys[];
extern const size_t dram_cfg_n_keys;
/* The "dram" section (registered in sim/cfg/registry.c). */
extern const struct cfg_section dram_cfg_section;

/* Fill *c with the built-in (gtx480) defaults, the same values as the key
 * table's defaults. */
void dram_cfg_defaults(struct dram_cfg *c);
/* Cross-field rules. Every violation is passed to report (may be NULL) with
 * the full key name and a message naming value and rule; returns the number
 * of violations. Used by the section check and by dram_init. */
typedef void (*dram_cfg_report_fn)(void *ctx, const char *key, const char *msg);
int dram_cfg_validate(const struct dram_cfg *c, dram_cfg_report_fn report, void *ctx);

/* ---------------------------------------------------------------- requests */

/* One request: a whole line read or a write-back (§2.8 point 3). The caller
 * decodes the partition-local address (addrmap_decode). */
struct dram_req {
    uint64_t tag;     /* opaque to the DRAM; returned unchanged */
    uint64_t addr;    /* partition-local address (bytes), for tracing only */
    uint32_t bank;    /* bank, < dram.banks */
    uint32_t row;     /* row, < dram.rows */
    uint32_t col;     /* column (byte offset in the row), for tracing only */
    uint32_t bytes;   /* request size (bytes); 128 = two 64 B column commands */
    bool is_write;    /* write-back (true) or line read (false) */
    /* requester identity (docs/dram.md "Requester identity"; 0 when the
     * caller does not fill it) */
    uint8_t space;    /* enum mem_space of the request that caused it */
    uint16_t sm;      /* requesting SM */
    uint16_t warp;    /* its warp slot */
    uint16_t merges;  /* read: requests in the L2 MSHR entry the read serves (>= 1); dram_update raises it */
    uint64_t t_create; /* SM pipeline cycle the causing request was created (mem_req.t_create) */
    uint64_t t_create_sum; /* read: sum of t_create over the requests it serves (SM pipeline cycles;
                              0 = unknown); dram_update adds each later merge's */
    /* exact-hardware path (dram.icl_exact_hw, docs/dram.md): the merge
     * information the read carries as it leaves the L2 */
    uint16_t merges_live; /* read: the live MSHR count (dram_update; statistics of the exact path; 0 = merges) */
    uint16_t mib_age;  /* read: age sum of its MSHR entry's requests at mib_cycle (DRAM cycles, 15 bits) */
    uint64_t mib_cycle; /* read: DRAM cycle mib_age was taken (the read's departure from the L2) */
};

/* A dummy update message (exact-hardware path): the L2-side MIB entry of
 * line `addr` on the L2->DRAM link. */
struct dram_dummy {
    uint64_t addr;        /* partition-local line address (matches dram_req.addr) */
    uint32_t merges;      /* merge_len (1..15, 4-bit saturated) */
    uint16_t age;         /* age payload (DRAM cycles, 15 bits): delta or total (dram.icl_age_mode) */
    uint64_t sent_cycle;  /* DRAM cycle it left the L2 (total mode: the payload's time) */
    cycle_t ready_cycle;  /* DRAM cycle it reaches the controller */
};

enum dram_cmd { DRAM_CMD_ACT = 0, DRAM_CMD_PRE = 1, DRAM_CMD_RD = 2, DRAM_CMD_WR = 3, DRAM_N_CMD = 4 };

/* One issued command, for the optional trace hook (tests, debugging). */
struct dram_cmd_rec {
    cycle_t cycle;      /* DRAM cycle of issue */
    enum dram_cmd cmd;
    uint32_t bank;
    uint32_t row;
    uint64_t tag;       /* tag of the request the command serves */
};
typedef void (*dram_trace_fn)(void *ctx, const struct dram_cmd_rec *rec);

/* ------------------------------------------------------------------- state */

#define DRAM_NONE UINT32_MAX /* "no entry" in slot links and bank fields */
#define DRAM_MIB_MERGE_MAX 15u  /* DRAM-side MIB merge_len: 4 bits, saturating (spec OQ-3) */
#define DRAM_MIB_AGE_MAX 32767u /* DRAM-side MIB age: 15 bits, saturating (2^15 - 1) */

/* A request slot. Slots live in one pool; a waiting slot is on the arrival
 * list and on its bank's list (both doubly linked, in arrival order). */
struct dram_slot {
    struct dram_req req;
    cycle_t enter_cycle;   /* cycle it entered the scheduler queue */
    cycle_t done_cycle;    /* in flight: cycle its last data arrives / write completes */
    uint32_t prev, next;   /* arrival-order list (slot indices) */
    uint32_t bprev, bnext; /* per-bank list (slot indices) */
    uint32_t cols_left;    /* in service: column commands still to issue */
    bool ret_reserved;     /* in service read: holds a return-queue reservation */
    /* DRAM-side MIB entry of a waiting read (exact-hardware path only) */
    uint8_t mib_m;         /* merge_len the scheduler sees (1..15) */
    uint16_t mib_age;      /* age sum at cycle mib_c0 (DRAM cycles, saturating at 2^15 - 1) */
    cycle_t mib_c0;        /* cycle mib_age was last materialised */
};

struct dram_bank {
    uint32_t open_row;    /* open row, DRAM_NONE when precharged */
    uint32_t sched_row;   /* row of the last request handed to the bank (FR-FCFS "current" row) */
    uint32_t serving;     /* slot in service, DRAM_NONE when free */
    uint32_t head, tail;  /* waiting slots for this bank, oldest first */
    uint32_t group;       /* bank group (bank div banks-per-group, or bank mod groups: dram.bank_group_index) */
    uint32_t serving_row; /* row of the slot in service (NOTE(bank-cmd-local) in dram.c); valid while serving */
    bool serving_write;   /* the slot in service is a write; valid while serving */
    uint8_t cmd;          /* next command (enum dram_cmd), DRAM_N_CMD when free (NOTE(bank-cmd-local)) */
    bool wants_place;     /* in service read without a return-queue reservation yet */
};

/* Delay-line entry (the L2->DRAM latency FIFO). */
struct dram_delay_ent {
    struct dram_req req;
    cycle_t ready_cycle; /* may enter the scheduler queue at this cycle */
};

struct dram_stats {
    uint64_t reads;           /* read requests completed (entered the return queue) */
    uint64_t writes;          /* write requests completed */
    uint64_t activates;       /* ACT commands */
    uint64_t precharges;      /* PRE commands */
    uint64_t rd_cmds;         /* RD column commands (64 B each) */
    uint64_t wr_cmds;         /* WR column commands */
    uint64_t row_hits;        /* requests whose row was open when they were handed to the bank */
    uint64_t row_misses;      /* ... bank precharged (ACT only) */
    uint64_t row_conflicts;   /* ... another row open (PRE + ACT) */
    uint64_t bus_busy_cycles; /* data-bus busy (cycles): burst / data_cmd_ratio per column cmd */
    uint64_t cycles;          /* DRAM cycles elapsed since init (ticked or skipped) */
    uint64_t turnarounds;     /* column commands whose direction differs from the previous one */
    uint64_t refused;         /* dram_push calls refused (full) */
    uint64_t write_drains;    /* separate_rw: entries into write-drain mode */
    uint64_t reorders;        /* MSHR policies: hand-offs where FR-FCFS would have handed another request */
    uint64_t row_switch_score;/* MSHR policies: row opened by score while an older request wanted another row */
    struct stat_avg read_latency; /* read: scheduler-queue entry -> return queue (cycles) */
    struct stat_hist read_latency_hist; /* same, histogram, 16-cycle bins */
    struct stat_hist hand_merges; /* MSHR policies: live L2 MSHR count of each read handed to a bank */
    struct stat_avg read_latency_single; /* MSHR policies: read_latency of reads serving one request */
    struct stat_avg read_latency_merged; /* ... of reads serving more (live count > 1 at completion) */
    uint64_t icl_dummies;     /* exact hw: dummies that reached the controller and updated a read */
    uint64_t icl_late_dummies;/* exact hw: dummies dropped, no matching read waiting */
    uint64_t icl_stale_picks; /* exact hw: reads handed with no merge information (MIB count 1) while
                                 their MSHR entry held more than one request */
    uint64_t icl_lag_picks;   /* exact hw: reads handed with a MIB count below the live MSHR count */
    uint64_t icl_sat_picks;   /* exact hw: reads handed with a saturated (2^15 - 1) MIB age */
    struct stat_avg queue_occ;    /* scheduler-queue occupancy (entries), per cycle */
    struct stat_avg blp;          /* banks with a request in service, per cycle with any */
};

struct dram;

/* Scheduler policy (dram_sched.h). */
struct dram_sched_ops;

#define DRAM_BANK_WORDS 4 /* 64-bit words of a bank mask: dram.banks <= 256 */

/* The first bank >= from whose bit is set in m[0..nw), or UINT32_MAX; nw
 * is the number of words in use (struct dram's mask_words, NOTE(mask-words)),
 * so the usual 16 banks look at one word, not DRAM_BANK_WORDS. Visiting the
 * set bits from r upwards and then from 0 up to r is the rotating order
 * (r + i) mod banks with the clear bits skipped. */
static inline uint32_t dram_mask_next(const uint64_t *m, uint32_t nw, uint32_t from)
{
    uint32_t w = from >> 6;
    if (w >= nw)
        return UINT32_MAX;
    uint64_t x = m[w] & (~0ull << (from & 63));
    for (;;) {
        if (x)
            return w * 64 + (uint32_t)__builtin_ctzll(x);
        if (++w >= nw)
            return UINT32_MAX;
        x = m[w];
    }
}
/* The bank after b in the rotating walk from bank r over the set bits of
 * m[0..nw) (b = UINT32_MAX: the first one), or UINT32_MAX when the walk is
 * done. */
static inline uint32_t dram_mask_rot(const uint64_t *m, uint32_t nw, uint32_t r, uint32_t b)
{
    uint32_t n;
    if (b == UINT32_MAX) { /* the lowest set bit >= r, else the lowest one (then < r) */
        n = dram_mask_next(m, nw, r);
        return n == UINT32_MAX && r ? dram_mask_next(m, nw, 0) : n;
    }
    n = dram_mask_next(m, nw, b + 1);
    if (b >= r) { /* upper part: go on, then wrap to the bits below r */
        if (n != UINT32_MAX || r == 0)
            return n;
        n = dram_mask_next(m, nw, 0);
    }
    return n < r ? n : UINT32_MAX;
}
static inline void dram_mask_put(uint64_t *m, uint32_t b, bool on)
{
    if (on)
        m[b >> 6] |= 1ull << (b & 63);
    else
        m[b >> 6] &= ~(1ull << (b & 63));
}

struct dram {
    struct dram_cfg cfg;         /* copy of the configuration */
    unsigned channel_id;         /* instance number (messages, stats) */
    const struct dram_sched_ops *sched; /* scheduler policy */
    void *sched_state;           /* the policy's own state (its init/fini), or NULL */

    /* derived timing (cycles) */
    uint32_t burst_cycles;       /* command cycles one column command keeps the bus: burst / ratio */
    uint32_t col_bytes;          /* bytes per column command: bus_bytes * burst */
    uint32_t banks_per_group;    /* banks / bank_groups */

    /* compiled constraint table: lat[scope][prev][next] + 1, 0 = no constraint */
    uint32_t lat[3][DRAM_N_CMD][DRAM_N_CMD];
    /* earliest-issue cycles, per scope instance and command */
    cycle_t *bank_next;          /* [banks][DRAM_N_CMD] */
    cycle_t *group_next;         /* [bank_groups][DRAM_N_CMD] */
    cycle_t chan_next[DRAM_N_CMD];

    struct dram_bank *bank;      /* [banks] */

    /* request pool */
    struct dram_slot *slot;      /* [n_slots] */
    uint32_t n_slots;            /* entries: queue capacity + banks + return_queue + tWL + 2 */
    uint32_t free_head;          /* free-slot list through .next */
    uint32_t arr_head, arr_tail; /* waiting slots, oldest first */
    uint32_t n_wait;             /* waiting slots (entries) */
    uint32_t n_wait_rd, n_wait_wr; /* waiting reads / writes (entries) */
    bool write_mode;             /* separate_rw: in write-drain mode */

    /* delay line (ring) */
    struct dram_delay_ent *delay; /* [delay_cap] */
    uint32_t delay_cap, delay_head, delay_count; /* entries */
    uint32_t delay_rd, delay_wr; /* reads / writes in the delay line (entries) */

    /* dummy messages on the L2->DRAM link (ring; exact-hardware path) */
    bool mib_on;                 /* DRAM-side MIB in use: MSHR policy and dram.icl_exact_hw */
    struct dram_dummy *dummy;    /* [delay_cap] */
    uint32_t dummy_head, dummy_count; /* entries */

    /* in flight after the last column command: slot indices (unordered) */
    uint32_t *inflight;          /* [n_slots] */
    uint32_t n_inflight;         /* entries */
    uint32_t ret_reserved;       /* return-queue places reserved by reads in service or in flight */

    /* return queue (ring of completed reads) */
    struct dram_req *retq;       /* [return_queue] */
    cycle_t *retq_cycle;         /* [return_queue] cycle each entered */
    uint32_t retq_cap, retq_head, retq_count; /* entries */

    uint32_t sched_rr;           /* next bank the scheduler tries first */
    uint32_t issue_rr;           /* next bank the command issuer tries first */
    /* NOTE(bank-masks): bit b of busy: bank b has a request in service
     * (serving != DRAM_NONE); of queued: bank b's waiting list is not empty */
    uint64_t busy[DRAM_BANK_WORDS], queued[DRAM_BANK_WORDS];
    uint32_t mask_words;         /* NOTE(mask-words): words of busy/queued in use, ceil(banks / 64) */
    /* NOTE(scan-memo) in dram.c: bank_gen counts changes of what a busy
     * bank's readiness depends on; scan_soonest is the earliest cycle a busy
     * bank may issue, computed by a scan at scan_gen (UINT64_MAX: none). */
    uint64_t bank_gen, scan_gen;
    cycle_t scan_soonest;
    int last_col_dir;            /* -1 none yet, 0 read, 1 write: direction of the last column cmd */
    cycle_t bus_free;            /* first cycle the data bus is free (debug overlap check) */
    cycle_t last_cycle;          /* last cycle ticked (CYCLE_NEVER before the first) */

    uint64_t tb_pipe_ps, tb_dram_ps; /* SM pipeline and DRAM clock periods (ps) for converting
                                    t_create to DRAM cycles (dram_set_time_base; 1 and 1 by default) */
    dram_trace_fn trace;         /* optional command trace, NULL = off */
    void *trace_ctx;

    struct dram_stats st;
};

/* ------------------------------------------------------------------- API */

/* Set up channel `channel_id` from a validated configuration (panics on a
 * configuration that dram_cfg_validate rejects: the config layer must have
 * refused it first). Allocates every structure. */
void dram_init(struct dram *d, const struct dram_cfg *cfg, unsigned channel_id);
/* Replace the scheduler policy (setup, before the first push): the old
 * policy's fini and the new one's init run. For policies outside the
 * dram.sched choice list (tests, experiments). */
void dram_set_sched(struct dram *d, const struct dram_sched_ops *ops);
/* Update message for a request already in the controller: the read of
 * partition-local line `addr` (delay line or waiting) now serves `merges`
 * requests, the newest created at SM pipeline cycle `t_create` (added to
 * req.t_create_sum). Sets req.merges and calls the policy's on_update. Returns false
 * when no such read is waiting (already in service or gone). Cheap to call
 * only when the policy has on_update (dram_sched_wants_update). */
bool dram_update(struct dram *d, uint64_t addr, uint16_t merges, uint64_t t_create, cycle_t cycle);
/* The clock periods that relate req.t_create (SM pipeline cycles) to DRAM
 * cycles: DRAM cycle = t_create x pipe_ps / dram_ps (setup). */
void dram_set_time_base(struct dram *d, uint64_t pipe_ps, uint64_t dram_ps);
/* t_create (SM pipeline cycles) in DRAM cycles (floor). */
static inline uint64_t dram_tc_to_cycles(const struct dram *d, uint64_t t_create)
{
    return (uint64_t)((unsigned __int128)t_create * d->tb_pipe_ps / d->tb_dram_ps);
}
bool dram_sched_wants_update(const struct dram *d);
/* Exact-hardware path (docs/dram.md): true when the controller schedules
 * from its DRAM-side MIB (an MSHR policy in dram.sched and
 * dram.icl_exact_hw); then the partition sends dummies and dram_update
 * only feeds the staleness statistics. */
static inline bool dram_mib_on(const struct dram *d) { return d->mib_on; }
/* True when the dummy ring has room. */
bool dram_can_accept_dummy(const struct dram *d);
/* A dummy enters the L2->DRAM link; it updates its read at m->ready_cycle,
 * after every request pushed before it entered the queue. */
bool dram_push_dummy(struct dram *d, const struct dram_dummy *m);
/* The MIB age sum of waiting read slot s at `cycle` (closed form of the
 * per-cycle age += merge_len, saturating at 2^15 - 1). */
static inline uint64_t dram_mib_age(const struct dram *d, uint32_t s, cycle_t cycle)
{
    const struct dram_slot *x = &d->slot[s];
    uint64_t dt = cycle > x->mib_c0 ? cycle - x->mib_c0 : 0;
    uint64_t v = (uint64_t)x->mib_age + (uint64_t)x->mib_m * dt;
    return v > DRAM_MIB_AGE_MAX ? DRAM_MIB_AGE_MAX : v;
}
void dram_fini(struct dram *d);

/* True when a push of this direction would be accepted now: the delay line
 * has room and the target scheduler queue (unified, or the read/write queue)
 * is not full (§2.8 point 4). */
bool dram_can_accept(const struct dram *d, bool is_write);
/* Admit a request into the delay line; it may enter the scheduler queue at
 * ready_cycle (>= the cycle of the push). Returns false, and changes
 * nothing, when dram_can_accept(d, req->is_write) is false. */
bool dram_push(struct dram *d, const struct dram_req *req, cycle_t ready_cycle);

/* One DRAM cycle. Cycles must increase; skipped cycles are fine. Returns the
 * next cycle at which the unit has work, or CYCLE_NEVER when idle. A full
 * return queue makes no work until dram_pop_read: the caller re-ticks then. */
cycle_t dram_tick(struct dram *d, cycle_t cycle);

/* Pop the oldest completed read from the return queue. Returns false when
 * it is empty. `cycle` is the current DRAM cycle (it must not be before the
 * cycle the read entered the return queue). */
bool dram_pop_read(struct dram *d, struct dram_req *out, cycle_t cycle);

/* Requests anywhere in the unit (delay line, queue, banks, in flight, return queue). */
uint32_t dram_pending(const struct dram *d);

void dram_set_trace(struct dram *d, dram_trace_fn fn, void *ctx);

/* Register statistics as group "dram", instance = channel. */
void dram_stats_register(struct dram *d, struct stats *s, int instance);

const char *dram_cmd_name(enum dram_cmd c);

#endif /* GPUSIM_PARTITIONS_DRAM_DRAM_H */
