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
 * Operation mix: one lookup per access (every load and store the cache
 * takes, and every retry of one), rare alloc/close/release.
 * NOTE(mshr-hash): lookups go through an open-addressing index of the open
 * entries (linear probing, at least 2x as many places as entries, backward-shift
 * deletion, so no tombstones). Until session 36 a lookup scanned all
 * n_entries keys; with the L1D's 32 entries that was 155 host instructions
 * per lookup and 1.4 % of a memory-bound run (bfs small), against about 15
 * now. An open entry's line is unique, so the index only finds the entry
 * the scan found: no result depends on the index's layout. Debug builds
 * compare it with the scan.
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
    int16_t *index;      /* [index_mask + 1] open entry per place, -1 empty (NOTE(mshr-hash)) */
    uint32_t index_mask; /* places - 1 (places: a power of two, at least 2 x n_entries) */
    uint32_t index_shift; /* 64 - log2(places): the hash keeps the product's top bits */
};

void mshr_init(struct mshr *m, uint32_t n_entries, uint32_t max_merge, uint32_t slot_bytes);
void mshr_fini(struct mshr *m);

/* Home place of line_addr in the index (Fibonacci hashing: line addresses
 * differ in their middle bits, which the multiply spreads to the top). */
static inline uint32_t mshr_home(const struct mshr *m, uint64_t line_addr)
{
    return (uint32_t)((line_addr * 0x9E3779B97F4A7C15ull) >> m->index_shift);
}

#ifndef NDEBUG
/* Debug builds: panics unless e is what a scan of every key finds. */
void mshr_check_lookup(const struct mshr *m, uint64_t line_addr, int32_t e);
#endif

/* Open entry for line_addr, or -1 (NOTE(mshr-hash)). */
static inline int32_t mshr_lookup(const struct mshr *m, uint64_t line_addr)
{
    for (uint32_t i = mshr_home(m, line_addr);; i = (i + 1) & m->index_mask) {
        int32_t e = m->index[i];
        if (e < 0 || m->key[e] == line_addr) {
#ifndef NDEBUG
            mshr_check_lookup(m, line_addr, e);
#endif
            return e;
        }
    }
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
