/* partitions/addrmap/addrmap.h: device address -> (channel, sub-partition,
 * partition-local address, bank, row, column, L2 set) and back, described by
 * a GPGPU-Sim-style map string (config key dram.addr_map; spec
 * baseline-gpu.md §2.9 "Address mapping", §4.2; docs/addrmap.md).
 *
 * The string lists address bits from the highest (left) to bit 0 (right),
 * one letter per bit, '.' separators ignored:
 *   D channel (memory partition)   B bank   R row
 *   C column   S burst (lowest column bits, the bytes of one column command)
 *   0 unused (only above the highest used bit)
 * Two forms select the channel:
 *   - "dramid@N;<R layout>": GPGPU-Sim's chunk form. The device address A is
 *     cut into 2^N-byte chunks that rotate over the n_ch channels:
 *       channel = (A >> N) mod n_ch
 *       R       = (((A >> N) div n_ch) << N) | (A mod 2^N)
 *     and the letters describe the partition-local address R (no D letters).
 *     Any channel count works, powers of two or not (6 for the GTX480).
 *   - "<A layout>" with D letters: the D bits of A form the channel number
 *     (n_ch must be 2^#D) and R is A with the D bits squeezed out.
 * Fields are gathered from their bits in increasing bit order: bank = the B
 * bits of R, row = the R bits, column = the S and C bits together (byte
 * offset in the row). Derived:
 *   sub-partition = channel * n_sub + (bank mod n_sub)   ([GPGPU-Sim] 3.x)
 *   L2 set = (R' >> 7) mod l2_sets, R' = R without the sub-partition bits
 *            (the lowest log2(n_sub) B bits)
 * Default (ADDRMAP_GTX480) = [GPGPU-Sim] GTX480:
 *   dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS
 * i.e. R bits 0-5 burst, 6-7 column, 8 bank bit 0, 9-12 column, 13-15 bank
 * bits 1-3, 16-27 row; sub-partition = channel * 2 + R[8]; for 64 sets the
 * L2 set is R bit 7 and R bits 9-13.
 *
 * addrmap_build validates a string against the geometry (letters, bit counts
 * against banks / rows / column-command bytes / channels, unused bits below
 * used ones, fields inside a 128 B line, the sub-partition and L2 set bits)
 * and reports every violation through a callback; the config layer
 * (partitions/dram/dram_cfg.c) runs it at load time, so the panicking init
 * wrappers only guard against model bugs.
 *
 * Not modelled: ranks, XOR / hashed bank or channel selection (later GPGPU-Sim
 * releases), bank groups as a field of their own (dram.c derives the group
 * from the bank number). Addresses at or above addrmap_capacity() are not
 * mapped: addrmap_decode returns false and the caller reports the simulator
 * error.
 *
 * Hot path: addrmap_decode is called once per memory request. It does no
 * string work: build precomputes, for each field, a short list of bit runs
 * (shift, width, destination) that decode gathers with shifts and masks;
 * the chunk form uses a shift and mask when n_ch is a power of two and one
 * division otherwise. Pure functions on an immutable struct: safe from any
 * thread.
 */
#ifndef GPUSIM_PARTITIONS_ADDRMAP_ADDRMAP_H
#define GPUSIM_PARTITIONS_ADDRMAP_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GPGPU-Sim's GTX480 map: the default of dram.addr_map. */
#define ADDRMAP_GTX480 "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"
/* The L2 line (bytes, log2): a line must lie in one channel, bank and row. */
#define ADDRMAP_LINE_BYTES 128u
#define ADDRMAP_LINE_SHIFT 7u
/* Most partition-local address bits a map may use (1 TB per channel). */
#define ADDRMAP_MAX_LOCAL_BITS 40u
/* Most runs of consecutive bits in one field (64 bits alternate at most 32 times). */
#define ADDRMAP_MAX_RUNS 32u

/* One field as runs of consecutive source bits:
 * value = OR over runs of ((x >> src) & (2^width - 1)) << dst.
 * NOTE(gather-fast): a field gathered downwards (every run has dst <= src,
 * true of all decode fields, since the j-th bit of a field never sits below
 * address bit j) with at most ADDRMAP_FAST_RUNS runs also keeps, per run,
 * the in-place source mask and the distance src - dst, so that a run costs
 * one AND and one shift, unrolled by a switch on the run count. Measured
 * on the 2-core build host (GTX480 map, 6 channels, best of 5 runs of 2e7
 * out-of-line calls): generic loop 24 ns per decode, fast path 7.5 ns, the
 * old hard-coded formulas 5.2 ns (the 64-bit division for 6 channels is
 * common to both). */
#define ADDRMAP_FAST_RUNS 4u
struct addrmap_run {
    uint8_t src;   /* lowest source bit of the run */
    uint8_t width; /* bits in the run */
    uint8_t dst;   /* lowest destination bit */
};
struct addrmap_gather {
    uint64_t fmask[ADDRMAP_FAST_RUNS];       /* fast path: run's source bits, in place */
    uint8_t fshift[ADDRMAP_FAST_RUNS];       /* fast path: right shift src - dst (bits) */
    uint32_t n_fast;                         /* runs on the fast path (0 = use the loop) */
    uint32_t n_runs;                         /* runs used */
    struct addrmap_run run[ADDRMAP_MAX_RUNS];
};

struct addrmap {
    uint32_t n_ch;          /* channels (memory partitions) */
    uint32_t n_sub_per_ch;  /* sub-partitions per channel (a power of two) */
    uint32_t l2_sets;       /* L2 sets per slice (power of two, e.g. 64) */
    uint64_t local_bytes;   /* partition-local capacity (bytes): 2^local_bits */
    uint32_t local_bits;    /* bits of R used by the map (28 for the GTX480) */
    uint32_t banks;         /* banks per channel: 2^#B */
    uint32_t rows;          /* rows per bank: 2^#R */
    uint32_t row_bytes;     /* bytes per row: 2^(#C + #S) (4096 for the GTX480) */
    uint32_t burst_bytes;   /* bytes addressed by the S bits: 2^#S (64 for the GTX480) */
    /* channel selection */
    bool chunked;           /* dramid@N form (else D letters) */
    uint32_t chunk_shift;   /* dramid@N: N (bits) */
    bool ch_pow2;           /* chunk form with n_ch a power of two: shift and mask */
    uint32_t ch_shift;      /* log2(n_ch) when ch_pow2 */
    struct addrmap_gather ch_of_a;  /* D form: channel number from A */
    struct addrmap_gather r_of_a;   /* D form: R from A (non-D bits squeezed) */
    struct addrmap_gather a_of_r;   /* D form: A's non-D bits from R */
    struct addrmap_gather a_of_ch;  /* D form: A's D bits from the channel number */
    /* fields of R */
    struct addrmap_gather bank;     /* bank from R */
    struct addrmap_gather row;      /* row from R */
    struct addrmap_gather col;      /* column (byte offset in the row) from R */
    struct addrmap_gather l2_set;   /* L2 set from R (sub-partition bits skipped) */
    uint64_t bank_mask_r;   /* R bits holding B letters */
    uint64_t row_mask_r;    /* R bits holding R letters */
    uint64_t ch_mask_a;     /* D form: A bits holding D letters; chunk form: 0 */
};

struct addrmap_loc {
    uint32_t channel;       /* memory partition / DRAM channel */
    uint32_t sub;           /* global sub-partition: channel * n_sub_per_ch + bank mod n_sub_per_ch */
    uint64_t local;         /* partition-local address R (bytes) */
    uint32_t bank;          /* 0 .. banks-1 */
    uint32_t row;           /* 0 .. rows-1 */
    uint32_t col;           /* byte offset in the row, 0 .. row_bytes-1 */
    uint32_t l2_set;        /* set index in the sub-partition's L2 slice */
};

/* The geometry a map string is checked against. A zero field is not checked
 * (and then taken from the string). */
struct addrmap_geom {
    uint32_t n_ch;          /* channels = mem.n_partitions (required, >= 1) */
    uint32_t n_sub_per_ch;  /* mem.sub_per_partition (required, >= 1) */
    uint32_t banks;         /* dram.banks; 0 = any */
    uint32_t rows;          /* dram.rows; 0 = any */
    uint32_t burst_bytes;   /* bytes per column command, dram.bus_bytes x dram.burst; 0 = any */
    uint32_t l2_sets;       /* L2 sets per slice; 0 = not checked (l2_set then 0) */
};

/* A violated rule: `key` is the other configuration key involved
 * ("dram.banks", "mem.n_partitions", ...) or NULL when only the string is at
 * fault; `msg` says what is wrong. */
typedef void (*addrmap_report_fn)(void *ctx, const char *key, const char *msg);

/* Parse `spec` (NULL or "" = ADDRMAP_GTX480) and check it against *g. Every
 * violation goes to report (may be NULL); returns their number. On 0, *m is
 * ready; otherwise *m is unusable. Not for the hot path. */
int addrmap_build(struct addrmap *m, const char *spec, const struct addrmap_geom *g, addrmap_report_fn report,
                  void *ctx);

/* Build from `spec` and panic (with every message) when it is invalid: the
 * config check must have refused such a string first. */
void addrmap_init_spec(struct addrmap *m, const char *spec, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks,
                       uint32_t rows, uint32_t l2_sets);

/* The GTX480 map (ADDRMAP_GTX480): kept for callers that predate
 * dram.addr_map. Same panics as addrmap_init_spec. */
void addrmap_init(struct addrmap *m, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks, uint32_t rows,
                  uint32_t l2_sets);

/* Device capacity covered by the map: n_ch * local_bytes (bytes). */
uint64_t addrmap_capacity(const struct addrmap *m);

static inline uint64_t addrmap_gather_bits(const struct addrmap_gather *g, uint64_t x)
{
    uint64_t v = 0;
    switch (g->n_fast) {
    case 4: v |= (x & g->fmask[3]) >> g->fshift[3]; /* fall through */
    case 3: v |= (x & g->fmask[2]) >> g->fshift[2]; /* fall through */
    case 2: v |= (x & g->fmask[1]) >> g->fshift[1]; /* fall through */
    case 1: return v | ((x & g->fmask[0]) >> g->fshift[0]);
    default: break;
    }
    for (uint32_t i = 0; i < g->n_runs; i++)
        v |= ((x >> g->run[i].src) & ((1ull << g->run[i].width) - 1)) << g->run[i].dst;
    return v;
}

/* Decode A; false (and *out untouched) when A >= addrmap_capacity. */
bool addrmap_decode(const struct addrmap *m, uint64_t addr, struct addrmap_loc *out);

/* Rebuild the device address from (channel, partition-local address). */
uint64_t addrmap_encode(const struct addrmap *m, uint32_t channel, uint64_t local);

/* Fields of a partition-local address alone (bank, row, col, L2 set). */
uint32_t addrmap_local_bank(const struct addrmap *m, uint64_t local);
uint32_t addrmap_local_row(const struct addrmap *m, uint64_t local);
uint32_t addrmap_local_col(const struct addrmap *m, uint64_t local);
uint32_t addrmap_local_l2_set(const struct addrmap *m, uint64_t local);

#endif /* GPUSIM_PARTITIONS_ADDRMAP_ADDRMAP_H */
