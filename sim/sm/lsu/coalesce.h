/* sim/sm/lsu/coalesce.h: the LD/ST unit's global/local memory coalescer.
 *
 * What it models (spec baseline-gpu.md 2.6 "Global / local", 2.7
 * "Packetisation"): one warp memory instruction (active lanes, per-lane byte
 * address, access size 1/2/4/8/16 B, load/store/atomic, PTX cache operator)
 * becomes one transaction per distinct `coalesce.line` (128 B) line touched by
 * the active lanes, for every access size. Each transaction carries
 *   - its lane mask (for atomics: the lanes of that line, which L2 applies in
 *     lane order, spec 2.8),
 *   - the byte mask of the line (union over its lanes),
 *   - the 32 B sector mask,
 *   - the segment: the smallest aligned 32/64/128 B piece of the line that
 *     holds every touched byte (the payload of stores, atomics and L1-bypassing
 *     reads, spec 2.6 deviation note and 2.7),
 *   - the request and reply packet sizes in flits: ceil((8 B header +
 *     payload) / 32 B flit),
 *   - whether it bypasses the L1D (spec 2.6 "Bypass").
 * Transactions come out in ascending line address (the spec gives no order;
 * GPGPU-Sim 3.x emits each half-warp's transactions in ascending address).
 *
 * What it does not model: time. It is a pure function evaluated once per warp
 * memory instruction at the LD/ST stage; the L1D then takes one transaction
 * per cycle (spec 2.6). It has no state, so the unit rule init/tick/fini
 * (STYLE.md item 1) does not apply: coalescer_init only derives shifts and
 * packet sizes from the config, and there is nothing to tick or free. It
 * does not handle shared, constant or texture space (sim/sm/lsu/smem_banks.h and
 * the caches do), data values (the functional model moves bytes; a
 * transaction only says which), nor the compute-1.3 per-half-warp segment
 * splitting of GPGPU-Sim 3.x, which the spec replaces by one transaction per
 * line (NOTE(one-txn-per-line) in coalesce.c). Local memory is coalesced like
 * global when the caller passes the per-lane local addresses already mapped to
 * device addresses; an access whose bytes are not contiguous there must be
 * passed as several 4 B instructions.
 *
 * Straddling accesses: as in GPGPU-Sim, a lane's access belongs to the line of
 * its first byte and must not cross into another line. gpusim's functional
 * mode faults on misaligned accesses before timing sees them, so a lane
 * address that is not a multiple of its size is a simulator bug (panic); with
 * natural alignment and size <= 16 B an access never crosses a sector.
 *
 * Operation mix: every global/local load, store and atomic warp instruction,
 * i.e. a few per 10 instructions; the common case is 1-4 lines per warp. No
 * allocation, locking or string work per call.
 */
#ifndef GPUSIM_SIM_SM_LSU_COALESCE_H
#define GPUSIM_SIM_SM_LSU_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/func/memop.h"

#include "sim/base/stats.h"

struct cfg_key;
struct cfg_section;

#define COAL_WARP_SIZE 32 /* lanes per warp; lane masks are uint32_t */
#define COAL_MAX_TXN 32   /* at most one transaction per active lane */
#define COAL_MAX_LINE 128 /* bytes: largest supported coalesce.line (byte mask is 2 x 64 bits) */

/* Configuration (section "coalesce", declared in coalesce.c). */
/* coalesce.atomic_split: how the lanes of an atomic that touch one line
 * become transactions. */
enum {
    COAL_ATOM_SPLIT_LINE = 0, /* one transaction per line; same-word lanes cost nothing extra */
    COAL_ATOM_SPLIT_OVERLAP,  /* a lane whose bytes a transaction of its line already has starts
                               * the next one (GPGPU-Sim 3.x / 4.x): same-word lanes serialise */
    COAL_ATOM_SPLIT_SECTOR,   /* overlap, and a transaction holds one coalesce.sector only
                               * (GPGPU-Sim 4.x, Fermi: atomics use 32-byte segments) */
};

/* coalesce.volatile_l1: how ld.volatile uses the L1D (NOTE(volatile-l1)
 * in coalesce.c). Its value always comes from the L2. */
enum {
    COAL_VOLATILE_BYPASS = 0, /* segment-sized L2 read, never installed (spec 2.6, Fermi LD.CV) */
    COAL_VOLATILE_MSHR,       /* a would-be miss is an ordinary L1D miss (MSHR, fill), as in
                               * GPGPU-Sim; a would-be hit or merge reads the L2 as bypass does */
};

struct coalesce_cfg {
    uint64_t line;   /* coalesce.line (bytes): transaction granularity = L1D line; 32, 64 or 128 */
    uint64_t sector; /* coalesce.sector (bytes): sector mask and smallest segment granularity */
    int atomic_split; /* coalesce.atomic_split: COAL_ATOM_SPLIT_* (NOTE(atomic-grouping) in coalesce.c) */
    int volatile_l1;  /* coalesce.volatile_l1: COAL_VOLATILE_* (NOTE(volatile-l1) in coalesce.c) */
    /* Not keys of this section: the packet geometry is declared once, as
     * icnt_net.flit and icnt_net.header, and the SM copies them here. */
    uint64_t flit;   /* bytes: interconnect flit size used to count packet flits */
    uint64_t header; /* bytes: packet header added to every payload */
};

extern const struct cfg_section coalesce_cfg_section;
/* The section's key table, also reachable before the section is registered
 * (the section lists no keys until struct sim_cfg has its member; see
 * NOTE(cfg-offset) in coalesce.c). */
extern const struct cfg_key *const coalesce_cfg_keys;
extern const unsigned coalesce_cfg_n_keys;

/* Fill *cfg with the built-in defaults (= the gtx480 values). */
void coalesce_cfg_defaults(struct coalesce_cfg *cfg);

enum coal_op {
    COAL_LOAD,   /* ld.global / ld.local */
    COAL_STORE,  /* st.global / st.local */
    COAL_ATOMIC, /* atom / red: always bypasses L1, executed at L2 */
};

/* One warp memory instruction, as the LD/ST stage sees it after address
 * generation. */
struct coal_req {
    const uint64_t *addr; /* [COAL_WARP_SIZE] byte address per lane; only active lanes are read */
    uint32_t active;      /* lane mask: bit i = lane i takes part */
    uint8_t size;         /* bytes per lane: 1, 2, 4, 8 or 16; addr[i] % size == 0 */
    uint8_t op;           /* enum coal_op */
    uint8_t cache_op;     /* enum memop_cache_op */
};

/* One memory transaction (one line). */
struct coal_txn {
    uint64_t line_addr;  /* bytes: line-aligned address of the line */
    uint64_t bytes[2];   /* byte mask of the line: bit b of bytes[b / 64] = byte b touched */
    uint32_t lanes;      /* lane mask of the lanes served by this line */
    uint32_t sectors;    /* sector mask: bit s = sector s of the line touched */
    uint16_t seg_offset; /* bytes: offset of the segment inside the line (multiple of seg_size) */
    uint16_t seg_size;   /* bytes: segment size, sector .. line (32/64/128 by default) */
    uint8_t req_flits;   /* flits: request packet SM -> L2 (read: header only; store/atomic: header + segment) */
    uint8_t reply_flits; /* flits: reply L2 -> SM (cached read: whole line; bypass read/atomic: segment; store: ack) */
    uint8_t op;          /* enum coal_op of the instruction */
    bool l1_bypass;      /* true: skip the L1D (cg/cv/volatile loads, all atomics; hint for stores) */
    bool vol_mshr;       /* ld.volatile under volatile_l1 = mshr: the L1D makes a would-be miss a miss */
};

/* Geometry derived once from the config (read-only afterwards, shareable
 * between SMs and threads). */
struct coalescer {
    uint32_t line_bytes;   /* bytes per line */
    uint32_t line_shift;   /* log2(line_bytes) */
    uint32_t sector_bytes; /* bytes per sector */
    uint32_t sector_shift; /* log2(sector_bytes) */
    uint32_t n_sectors;    /* sectors per line (<= 32) */
    uint32_t flit_bytes;   /* bytes per flit */
    uint32_t header_bytes; /* bytes of packet header */
    uint8_t hdr_flits;     /* flits of a payload-less packet (read request, store ack) */
    uint8_t line_flits;    /* flits of a packet carrying a whole line */
    bool atomic_split;     /* coalesce.atomic_split = overlap or sector */
    uint32_t atomic_group; /* bytes an atomic transaction may span: line, or sector with atomic_split = sector */
    bool volatile_mshr;    /* coalesce.volatile_l1 = mshr (COAL_VOLATILE_MSHR) */
};

/* Validate cfg (panics on values the cfg table's ranges and check should have
 * rejected) and derive the geometry. */
void coalescer_init(struct coalescer *c, const struct coalesce_cfg *cfg);

/* Flits of a packet with `payload` bytes: ceil((header + payload) / flit). */
unsigned coalescer_flits(const struct coalescer *c, unsigned payload);

/* Coalesce one warp instruction into out[0..n-1], ascending line address;
 * returns n (0 when no lane is active). Never allocates. */
unsigned coalescer_run(const struct coalescer *c, const struct coal_req *req,
                       struct coal_txn out[COAL_MAX_TXN]);

/* Statistics of one coalescer instance (one per SM), updated by the owner
 * thread only. Register with coal_stats_register. */
struct coal_stats {
    uint64_t insts;        /* warp memory instructions coalesced (with >= 1 active lane) */
    uint64_t txns;         /* transactions (lines) produced */
    uint64_t sectors;      /* sectors touched, summed over transactions */
    uint64_t bypass_txns;  /* transactions that bypass the L1D */
    uint64_t req_flits;    /* flits of request packets, if every transaction went to L2 */
    uint64_t reply_flits;  /* flits of reply packets, if every transaction went to L2 */
    struct stat_hist txns_per_inst; /* histogram: transactions per instruction, bins 0..32 */
};

void coal_stats_init(struct coal_stats *s);
void coal_stats_fini(struct coal_stats *s);
/* Account one instruction's result. */
void coal_stats_add(struct coal_stats *s, const struct coal_txn *txn, unsigned n);
/* Register every field under group (e.g. "ldst.coalesce"), instance (SM id or -1). */
void coal_stats_register(struct coal_stats *s, struct stats *reg, const char *group, int instance);

#endif /* GPUSIM_SIM_SM_LSU_COALESCE_H */
