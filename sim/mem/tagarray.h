/* sim/mem/tagarray.h: generic set-associative tag array with LRU replacement
 * and per-line state, for L2 slices, L1D, constant and instruction caches.
 *
 * What is modelled: which line addresses are present, their state (INVALID,
 * RESERVED = allocated for an outstanding fill, VALID, MODIFIED), true LRU
 * order per set, and victim choice: the lowest-numbered INVALID way first,
 * otherwise the least recently used way that is not RESERVED; a set whose
 * ways are all RESERVED has no victim (the caller's reservation fail).
 *
 * What is not modelled: data (the caller keeps a data array indexed by the
 * line index this module returns, set * assoc + way), timing, and policies
 * other than LRU.
 *
 * Tags are whole line addresses, so any set-index function works (the caller
 * supplies one: GPGPU-Sim's Fermi L1 hash, or the L2's partition-local
 * linear index); INVALID lines hold the tag TA_NO_TAG, so a probe compares
 * tags only. Operation mix: one probe per access, one touch per hit, one
 * victim search plus install per miss; all O(assoc) with no allocation.
 */
#ifndef GPUSIM_SIM_MEM_TAGARRAY_H
#define GPUSIM_SIM_MEM_TAGARRAY_H

#include <stdint.h>

enum ta_state { TA_INVALID, TA_RESERVED, TA_VALID, TA_MODIFIED };

#define TA_NO_TAG UINT64_MAX /* tag of an INVALID line; never a line address */

/* Set of a line address, in [0, n_sets). */
typedef uint32_t (*ta_set_fn)(void *ctx, uint64_t line_addr);

struct tagarray {
    uint32_t n_sets;     /* sets */
    uint32_t assoc;      /* ways per set */
    uint32_t line_bytes; /* bytes per line (power of two) */
    uint32_t line_shift; /* log2(line_bytes) */
    ta_set_fn set_fn;    /* caller's set-index function, or NULL for linear */
    void *set_ctx;       /* argument of set_fn */
    uint64_t *tag;       /* [n_sets*assoc] line address, TA_NO_TAG when INVALID */
    uint64_t *lru;       /* [n_sets*assoc] stamp of the last use (larger = more recent) */
    uint8_t *state;      /* [n_sets*assoc] enum ta_state */
    uint64_t stamp;      /* use counter: orders uses, including several in one cycle */
};

/* set_fn NULL: set = (line_addr / line_bytes) mod n_sets. Allocates (setup only). */
void ta_init(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
             void *set_ctx);
void ta_fini(struct tagarray *t);

static inline uint32_t ta_set_of(const struct tagarray *t, uint64_t line_addr)
{
    if (t->set_fn)
        return t->set_fn(t->set_ctx, line_addr);
    return (uint32_t)((line_addr >> t->line_shift) % t->n_sets);
}

/* Line index (set*assoc + way) holding line_addr in any non-INVALID state, or -1. */
int32_t ta_probe(const struct tagarray *t, uint64_t line_addr);
/* Replacement candidate in `set`: lowest INVALID way, else LRU non-RESERVED way; -1 if none. */
int32_t ta_victim(const struct tagarray *t, uint32_t set);
/* Make the line the most recently used of its set. */
static inline void ta_touch(struct tagarray *t, uint32_t line) { t->lru[line] = ++t->stamp; }
/* Put line_addr into `line` with state st and make it MRU (the caller has
 * read out the old contents, e.g. for a write-back). */
void ta_install(struct tagarray *t, uint32_t line, uint64_t line_addr, enum ta_state st);
static inline void ta_set_state(struct tagarray *t, uint32_t line, enum ta_state st) { t->state[line] = (uint8_t)st; }
static inline enum ta_state ta_state_of(const struct tagarray *t, uint32_t line) { return (enum ta_state)t->state[line]; }
static inline uint64_t ta_tag_of(const struct tagarray *t, uint32_t line) { return t->tag[line]; }
void ta_invalidate(struct tagarray *t, uint32_t line);
/* Invalidate every line (kernel-launch L1 flush). */
void ta_invalidate_all(struct tagarray *t);
static inline uint32_t ta_n_lines(const struct tagarray *t) { return t->n_sets * t->assoc; }

#endif /* GPUSIM_SIM_MEM_TAGARRAY_H */
