/* sim/mem/lastacc.h: a simulation-only shadow map from a line address to
 * the last accessor of that line (locality classification statistics,
 * warp-sched-vws.md 6.2, 6.3; docs/vws.md "Locality statistics").
 *
 * What is modelled: nothing of the hardware. An open-addressing hash table
 * (linear probing, power-of-two capacity, load factor <= 1/2) of
 * (line address, 64-bit accessor value) pairs; the caller packs whatever
 * identifies the accessor (warp and CTA, or an SM id) into the value.
 *
 * Operation mix: one lastacc_swap per classified access (O(1) expected).
 * The table doubles when half full (amortised allocation, only while the
 * statistics are on, which is off by default); lastacc_clear keeps the
 * capacity, so a kernel that touches as many lines as the previous one
 * does not allocate.
 */
#ifndef GPUSIM_SIM_MEM_LASTACC_H
#define GPUSIM_SIM_MEM_LASTACC_H

#include <stdbool.h>
#include <stdint.h>

#define LASTACC_NONE UINT64_MAX /* value returned for a line never seen */

struct lastacc {
    uint64_t *key;   /* [cap] line address + 1, 0 = empty */
    uint64_t *val;   /* [cap] accessor value */
    uint64_t cap;    /* slots (power of two) */
    uint64_t n;      /* occupied slots */
};

void lastacc_init(struct lastacc *m, uint64_t cap);
void lastacc_fini(struct lastacc *m);
/* Forget every line (keeps the capacity). */
void lastacc_clear(struct lastacc *m);
/* Record v as the last accessor of line; return the previous one, or
 * LASTACC_NONE when the line was not in the map. */
uint64_t lastacc_swap(struct lastacc *m, uint64_t line, uint64_t v);

#endif /* GPUSIM_SIM_MEM_LASTACC_H */
