/* sim/mem/mshr.h: generic miss-status holding register (MSHR) table.
 *
 * What is modelled: n_entries entries, each keyed by a line address while
 * its miss is outstanding ("open"), each holding up to max_merge requests in
 * arrival order (the first miss plus the merged ones). A cache allocates an
 * entry on a new miss, merges later misses to the same line while the entry
 * is open and has room, closes the entry when the fill arrives (it then no
 * longer matches, so a new miss to the same line gets a new entry), serves
 * the held requests, and releases the entry.
 *
 * What is not modelled: timing, the requests' contents. Request slots are
 * opaque fixed-size byte slots (slot_bytes each) owned by the table, so any
 * cache can keep its own request type there with no allocation per miss.
 *
 * Operation mix: one lookup per miss (linear scan of n_entries addresses:
 * NOTE(mshr_scan): tables here have 2 to 64 entries, where a scan of one
 * contiguous uint64_t array is as fast as a hash), rare alloc/close/release.
 * Entry indices are in [0, n_entries), so callers keep per-entry side state
 * in their own arrays. Free entries are reused lowest-index-last (LIFO),
 * deterministically.
 */
#ifndef GPUSIM_SIM_MEM_MSHR_H
#define GPUSIM_SIM_MEM_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#define MSHR_NO_ADDR UINT64_MAX /* key of an entry that is free or closed */

enum mshr_estate { MSHR_FREE, MSHR_OPEN, MSHR_CLOSED };

struct mshr {
    uint32_t n_entries;  /* entries */
    uint32_t max_merge;  /* request slots per entry (the merge limit, including the first miss) */
    uint32_t slot_bytes; /* bytes per request slot */
    uint32_t n_free;     /* entries on the free list */
    uint64_t *key;       /* [n_entries] line address while OPEN, else MSHR_NO_ADDR */
    uint64_t *line;      /* [n_entries] line address while OPEN or CLOSED */
    uint8_t *state;      /* [n_entries] enum mshr_estate */
    uint32_t *count;     /* [n_entries] request slots used */
    uint32_t *free_list; /* [n_entries] free entry indices, stack */
    uint8_t *slots;      /* [n_entries * max_merge * slot_bytes] request slots */
};

void mshr_init(struct mshr *m, uint32_t n_entries, uint32_t max_merge, uint32_t slot_bytes);
void mshr_fini(struct mshr *m);

/* Open entry for line_addr, or -1. */
static inline int32_t mshr_lookup(const struct mshr *m, uint64_t line_addr)
{
    for (uint32_t i = 0; i < m->n_entries; i++)
        if (m->key[i] == line_addr)
            return (int32_t)i;
    return -1;
}
static inline bool mshr_full(const struct mshr *m) { return m->n_free == 0; }
static inline uint32_t mshr_in_use(const struct mshr *m) { return m->n_entries - m->n_free; }
static inline uint32_t mshr_count(const struct mshr *m, uint32_t e) { return m->count[e]; }
static inline bool mshr_can_merge(const struct mshr *m, uint32_t e) { return m->count[e] < m->max_merge; }
static inline uint64_t mshr_line(const struct mshr *m, uint32_t e) { return m->line[e]; }
static inline void *mshr_slot(struct mshr *m, uint32_t e, uint32_t k)
{
    return m->slots + ((uint64_t)e * m->max_merge + k) * m->slot_bytes;
}

/* Open a new entry for line_addr (which must not have an open entry); -1 when full. */
int32_t mshr_alloc(struct mshr *m, uint64_t line_addr);
/* Next free request slot of entry e (count grows by one), or NULL at the merge limit. */
void *mshr_add(struct mshr *m, uint32_t e);
/* The fill arrived: the entry stops matching lookups but keeps its requests. */
void mshr_close(struct mshr *m, uint32_t e);
/* Free entry e (OPEN or CLOSED). */
void mshr_release(struct mshr *m, uint32_t e);

#endif /* GPUSIM_SIM_MEM_MSHR_H */
