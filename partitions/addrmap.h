/* partitions/addrmap.h: device address -> (channel, sub-partition,
 * partition-local address, bank, row, column, L2 set) and back; spec
 * baseline-gpu.md §2.9 "Address mapping" (default = [GPGPU-Sim] GTX480,
 * `dramid@8;00000000.00000000.RRRRRRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS`).
 *
 * For a device address A and n_ch channels:
 *   channel   = (A >> 8) mod n_ch           (256 B chunks rotate over channels)
 *   R (local) = (((A >> 8) div n_ch) << 8) | (A & 0xFF)
 *   R bits:   0-5 burst offset (lowest column bits), 6-7 column, 8 bank bit 0,
 *             9-12 column, 13-15 bank bits 1-3, 16-27 row; above 27 unused
 *   bank      = R[8] | R[15:13] << 1        (16 banks)
 *   row       = R[27:16]                    (4096 rows)
 *   column    = R[7:0] | R[12:9] << 8       (byte offset in the 4 KB row)
 *   sub-partition = channel * 2 + R[8]      (global sub-partition index)
 *   L2 set    = (R' >> 7) & (n_sets - 1), R' = (R & 0xFF) | ((R >> 9) << 8)
 *               i.e. R with the sub-partition bit removed; for 64 sets the
 *               index is R bit 7 and R bits 9-13.
 * Inverse: A = ((((R >> 8) * n_ch) + channel) << 8) | (R & 0xFF).
 *
 * Not modelled: other address-map strings (TEMP page colouring replaces
 * some bits: a later variant of this unit), other bank/row geometries (the
 * field layout is the GTX480 one: 16 banks, 4096 rows of 4 KB, 2
 * sub-partitions per channel; addrmap_init panics on anything else).
 * Device addresses must stay below n_ch x 256 MB; addrmap_decode returns
 * false beyond that and the caller reports the simulator error.
 *
 * Pure functions on an immutable struct: safe from any thread.
 */
#ifndef GPUSIM_PARTITIONS_ADDRMAP_H
#define GPUSIM_PARTITIONS_ADDRMAP_H

#include <stdbool.h>
#include <stdint.h>

struct addrmap {
    uint32_t n_ch;          /* channels (memory partitions) */
    uint32_t n_sub_per_ch;  /* sub-partitions per channel (2) */
    uint32_t l2_sets;       /* L2 sets per slice (power of two, e.g. 64) */
    uint64_t local_bytes;   /* partition-local capacity: 2^28 = 256 MB */
};

struct addrmap_loc {
    uint32_t channel;       /* memory partition / DRAM channel */
    uint32_t sub;           /* global sub-partition: channel * n_sub_per_ch + R[8] */
    uint64_t local;         /* partition-local address R (bytes) */
    uint32_t bank;          /* 0..15 */
    uint32_t row;           /* 0..4095 */
    uint32_t col;           /* byte offset in the row, 0..4095 */
    uint32_t l2_set;        /* set index in the sub-partition's L2 slice */
};

/* n_ch >= 1, n_sub_per_ch must be 2, banks 16, rows 4096, l2_sets a power
 * of two <= 2^19 (panics otherwise: the caller's config check must refuse). */
void addrmap_init(struct addrmap *m, uint32_t n_ch, uint32_t n_sub_per_ch, uint32_t banks,
                  uint32_t rows, uint32_t l2_sets);

/* Device capacity covered by the map: n_ch * 256 MB (bytes). */
uint64_t addrmap_capacity(const struct addrmap *m);

/* Decode A; false (and *out untouched) when A >= addrmap_capacity. */
bool addrmap_decode(const struct addrmap *m, uint64_t addr, struct addrmap_loc *out);

/* Rebuild the device address from (channel, partition-local address). */
uint64_t addrmap_encode(const struct addrmap *m, uint32_t channel, uint64_t local);

/* Fields of a partition-local address alone (bank, row, col, L2 set). */
uint32_t addrmap_local_bank(uint64_t local);
uint32_t addrmap_local_row(uint64_t local);
uint32_t addrmap_local_col(uint64_t local);
uint32_t addrmap_local_l2_set(const struct addrmap *m, uint64_t local);

#endif /* GPUSIM_PARTITIONS_ADDRMAP_H */
