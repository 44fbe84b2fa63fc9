/* sim/mem/victags.h: victim tags, a tag-only record of recently evicted
 * cache lines.
 *
 * What is modelled: n_sets sets of `ways` entries, each holding the address
 * of a line the owning cache evicted. Each set is a FIFO: an eviction
 * overwrites the set's oldest entry. One set of `entries` ways is a fully
 * associative FIFO; with several sets, a line's set is
 * ((line_addr / line_bytes) x 0x9e3779b97f4a7c15 >> 32) mod n_sets, a
 * multiplicative hash, so the lines of one L2 slice spread over all sets.
 * A probe that finds the address removes every copy of it (the line is
 * coming back into the cache; a line evicted twice without a miss in
 * between has two); a freed slot stays empty until the FIFO pointer
 * reaches it again.
 *
 * Use: a miss that finds its line here "would have hit" with more capacity
 * or a better replacement choice (a victim-cache or lost-locality signal, as
 * in CCWS's per-warp victim tag arrays, which are one struct victags each).
 *
 * What is not modelled: data (tags only), timing, any effect on the cache.
 *
 * Operation mix: one insert per eviction (O(1)) and one probe per miss
 * (O(ways)); no allocation after vt_init.
 */
#ifndef GPUSIM_SIM_MEM_VICTAGS_H
#define GPUSIM_SIM_MEM_VICTAGS_H

#include <stdbool.h>
#include <stdint.h>

#define VT_EMPTY UINT64_MAX /* tag of an empty entry; never a line address */

struct victags {
    uint32_t n_sets;     /* sets (1 = fully associative) */
    uint32_t ways;       /* entries per set */
    uint32_t line_shift; /* log2 of the cache's line size (bytes) */
    uint32_t pad_;
    uint64_t *tag;       /* [n_sets * ways] evicted line addresses, VT_EMPTY when free */
    uint32_t *next;      /* [n_sets] way the next insert overwrites (FIFO pointer) */
    uint64_t inserts;    /* evicted lines recorded */
    uint64_t probes;     /* probes made */
    uint64_t hits;       /* probes that found their line (and removed it) */
};

/* entries > 0; ways = 0 means fully associative (one set of `entries`);
 * otherwise entries must be a multiple of ways. Allocates (setup only). */
void vt_init(struct victags *v, uint32_t entries, uint32_t ways, uint32_t line_bytes);
void vt_fini(struct victags *v);
/* Record the eviction of line_addr. */
void vt_insert(struct victags *v, uint64_t line_addr);
/* Was line_addr recorded? A hit removes its entries. Counted in probes/hits. */
bool vt_probe(struct victags *v, uint64_t line_addr);
/* Forget every entry (statistics kept). */
void vt_clear(struct victags *v);
static inline uint32_t vt_entries(const struct victags *v) { return v->n_sets * v->ways; }

#endif /* GPUSIM_SIM_MEM_VICTAGS_H */
