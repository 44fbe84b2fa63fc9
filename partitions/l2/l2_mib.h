/* partitions/l2/l2_mib.h: the L2-side Merge Information Buffer of seed 003's
 * inter-core-locality-aware DRAM scheduling (dram-intercore-locality.md
 * §1.3, §2.3 "L2 side"; docs/dram.md "Exact-hardware path").
 *
 * What is modelled: one entry per L2 MSHR entry (same index), holding
 *  - valid: the entry changed (a request merged) since its information last
 *    left for the DRAM controller;
 *  - merge_len: the MSHR entry's request count, 4 bits, saturating at 15
 *    (NOTE(oq3-merge-len) in l2_mib.c);
 *  - age: the 15-bit saturating age payload in DRAM cycles: in delta mode
 *    the sum of the ages, at merge time, of the requests merged since the
 *    last send; in total mode the entry's whole age sum, recomputed at each
 *    merge (the sender recomputes it again when it sends);
 *  - departed: the entry's original miss has left the L2 (sim-side flag of
 *    the MIB-first rule with dummy_after_original).
 * The unit only holds state and picks; the memory partition (mempart.c)
 * feeds it on merges, departures and fills, and turns a picked entry into a
 * dummy message on the L2->DRAM link.
 *
 * What is not modelled: the block address (shared with the MSHR entry; the
 * partition passes the line with the message), the multiplexer's wiring.
 * Nothing allocates after init. Belongs to the partition's host thread.
 */
#ifndef GPUSIM_PARTITIONS_L2_L2_MIB_H
#define GPUSIM_PARTITIONS_L2_L2_MIB_H

#include <stdbool.h>
#include <stdint.h>

#define L2_MIB_MERGE_MAX 15u    /* 4-bit merge_len, saturating */
#define L2_MIB_AGE_MAX 32767u   /* 15-bit age, saturating (2^15 - 1) */

struct l2_mib {
    uint32_t n;             /* entries (= L2 MSHR entries) */
    bool after_original;    /* dram.icl_dummy_after_original: send only once the original left */
    uint8_t *valid;         /* [n] update pending */
    uint8_t *merge_len;     /* [n] 1..15 */
    uint8_t *departed;      /* [n] the original miss left the L2 */
    uint16_t *age;          /* [n] age payload (DRAM cycles, <= L2_MIB_AGE_MAX) */
    uint32_t n_ready;       /* entries that may be sent now (valid and, if after_original, departed) */
};

void l2_mib_init(struct l2_mib *m, uint32_t n_entries, bool after_original);
void l2_mib_fini(struct l2_mib *m);

static inline uint16_t l2_mib_sat15(uint64_t v) { return (uint16_t)(v > L2_MIB_AGE_MAX ? L2_MIB_AGE_MAX : v); }
static inline uint8_t l2_mib_enc_merge(uint32_t count)
{
    return (uint8_t)(count > L2_MIB_MERGE_MAX ? L2_MIB_MERGE_MAX : count < 1 ? 1 : count);
}

/* A request merged into MSHR entry e, which now holds `count` requests.
 * delta mode (total = false): age += age_in (the merging request's age,
 * saturating); total mode: age = age_in (the entry's whole sum). */
void l2_mib_merge(struct l2_mib *m, uint32_t e, uint32_t count, uint64_t age_in, bool total);
/* The original miss of entry e left the L2 carrying the entry's merge
 * information: the pending update is cleared (copied into the original). */
void l2_mib_depart(struct l2_mib *m, uint32_t e);
/* Entry e's MSHR entry completes (its fill arrived): everything cleared. */
void l2_mib_free(struct l2_mib *m, uint32_t e);
/* The entry to send next: the ready entry with the largest score (merge_len,
 * or age when by_age), ties to the lowest index; -1 when none is ready. */
int32_t l2_mib_pick(const struct l2_mib *m, bool by_age);
/* Entry e's update leaves: clears valid and the age payload. */
void l2_mib_sent(struct l2_mib *m, uint32_t e);

#endif /* GPUSIM_PARTITIONS_L2_L2_MIB_H */
