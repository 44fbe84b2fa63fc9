/* sim/mem/tagarray.h: generic set-associative tag array, the substrate of
 * every cache (L2 slices, L1D, constant and instruction caches): tags, line
 * states, a pluggable replacement policy, per-line metadata, an eviction
 * hook and optional victim tags. docs/cache.md explains how to plug in.
 *
 * What is modelled: which line addresses are present, their state (INVALID,
 * RESERVED = allocated for an outstanding fill, VALID, MODIFIED), and victim
 * choice by a replacement policy (struct ta_repl_ops, one file per policy:
 * repl_lru.c, repl_fifo.c, repl_srrip.c). Every built-in policy takes the
 * lowest-numbered INVALID way first and never a RESERVED way; a set whose
 * ways are all RESERVED has no victim (the caller's reservation fail). The
 * default, LRU, is the true LRU the caches always had.
 *
 * Extension points, all fixed at init:
 *  - replacement: ta_opts.repl, a function table; the policy keeps one
 *    64-bit word per line in rp[] (LRU: last-use stamp; FIFO: insertion
 *    stamp; SRRIP: re-reference prediction value) and, if it needs more
 *    (per-set bits, a duelling counter), its own allocation in rp_priv;
 *  - per-line metadata: ta_opts.meta_bytes bytes per line whose layout the
 *    owning mechanism chooses (sharer bits, owner SM, inserting warp, a
 *    dead-block flag), ta_meta(t, line); zeroed when a line is installed,
 *    kept across hits, state changes and invalidation (until the next
 *    install). A policy may read it (a sharing-aware victim choice);
 *  - eviction hook: ta_opts.evict_fn(ctx, ev) runs when a VALID or MODIFIED
 *    line is replaced by an install, invalidated, or flushed, before its
 *    tag, state and metadata change (the caller's data array still holds
 *    its bytes). RESERVED lines have no data yet and give no callback;
 *  - victim tags: ta_opts.vt_entries > 0 records the address of every line
 *    replaced by an install (not invalidations: an invalidated line would
 *    have missed anyway) in a struct victags; the cache calls
 *    ta_victim_probe(t, addr) once per miss that allocates, and a hit means
 *    the miss "would have hit".
 *
 * What is not modelled: data (the caller keeps a data array indexed by the
 * line index this module returns, set * assoc + way), timing.
 *
 * Tags are whole line addresses, so any set-index function works (the caller
 * supplies one: GPGPU-Sim's Fermi L1 hash, or the L2's partition-local
 * linear index); INVALID lines hold the tag TA_NO_TAG, so a probe compares
 * tags only. Operation mix: one probe per access, one touch per hit, one
 * victim search plus install per miss; all O(assoc) with no allocation.
 * NOTE(lru-inline): the LRU policy's hit and insert updates (one store of a
 * stamp) are inlined behind a flag instead of called through the table; it
 * keeps the default as fast as the fixed-LRU array was (docs/cache.md has
 * the measurement).
 */
#ifndef GPUSIM_SIM_MEM_TAGARRAY_H
#define GPUSIM_SIM_MEM_TAGARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/mem/victags.h"

struct stats;
struct tagarray;

enum ta_state { TA_INVALID, TA_RESERVED, TA_VALID, TA_MODIFIED };

#define TA_NO_TAG UINT64_MAX /* tag of an INVALID line; never a line address */

/* Set of a line address, in [0, n_sets). */
typedef uint32_t (*ta_set_fn)(void *ctx, uint64_t line_addr);

/* ------------------------------------------------------------- replacement */

/* A replacement policy. The tag array calls on_hit from ta_touch, on_insert
 * from ta_install (after the new tag and state are written; rp[line] still
 * holds the replaced line's word; prev is the replaced line's state), and
 * on_invalidate from ta_invalidate. victim must not change any state
 * (callers ask again after a reservation fail, every cycle): work that a
 * policy does "when it evicts" (SRRIP ageing, a dead-block reprieve) belongs
 * in on_insert with prev >= TA_VALID. victim returns a line index
 * (set * assoc + way) that is not RESERVED, or -1. */
struct ta_repl_ops {
    const char *name;                                                          /* config value, e.g. "lru" */
    void (*init)(struct tagarray *t);                                          /* optional: set up rp_priv */
    void (*fini)(struct tagarray *t);                                          /* optional: free rp_priv */
    void (*on_hit)(struct tagarray *t, uint32_t line);                         /* a use of a present line */
    void (*on_insert)(struct tagarray *t, uint32_t line, enum ta_state prev);  /* a new line in `line` */
    void (*on_invalidate)(struct tagarray *t, uint32_t line);                  /* optional */
    int32_t (*victim)(const struct tagarray *t, uint32_t set);                 /* pure */
};

/* The built-in policies (repl_<name>.c), and the config choice list: the
 * enum index of a `*.repl` key is an index into ta_repl_names. */
enum ta_repl_kind { TA_REPL_LRU, TA_REPL_FIFO, TA_REPL_SRRIP, TA_REPL_COUNT };
extern const struct ta_repl_ops ta_repl_lru;   /* true LRU (default) */
extern const struct ta_repl_ops ta_repl_fifo;  /* first in, first out: hits do not reorder */
extern const struct ta_repl_ops ta_repl_srrip; /* static RRIP, 2-bit RRPV, hit promotion (Jaleel 2010) */
extern const char *const ta_repl_names[TA_REPL_COUNT + 1]; /* NULL-terminated, for CFG_ENUM keys */
const struct ta_repl_ops *ta_repl_of(int kind);

/* ------------------------------------------------------------- eviction hook */

enum ta_evict_cause {
    TA_EV_REPLACE,    /* ta_install over the line (capacity / conflict) */
    TA_EV_INVALIDATE, /* ta_invalidate (write-evict, coherence, explicit) */
    TA_EV_FLUSH,      /* ta_invalidate_all (kernel-launch flush) */
    TA_EV_COUNT
};

struct ta_evict {
    uint64_t line_addr; /* address of the line leaving */
    uint32_t line;      /* its line index (the caller's data is still there) */
    uint8_t state;      /* enum ta_state: TA_VALID or TA_MODIFIED */
    uint8_t cause;      /* enum ta_evict_cause */
    uint16_t pad_;
    const void *meta;   /* its metadata (meta_bytes), NULL when meta_bytes = 0 */
};

typedef void (*ta_evict_fn)(void *ctx, const struct ta_evict *ev);

/* ------------------------------------------------------------- array */

/* Options of ta_init_opts; all-zero (or NULL) = LRU, nothing else. */
struct ta_opts {
    const struct ta_repl_ops *repl; /* replacement policy; NULL = ta_repl_lru */
    uint32_t meta_bytes;            /* metadata bytes per line (0 = none) */
    uint32_t vt_entries;            /* victim-tag entries (0 = no victim tags) */
    uint32_t vt_assoc;              /* victim-tag ways per set (0 = fully associative) */
    ta_evict_fn evict_fn;           /* eviction hook, or NULL */
    void *evict_ctx;                /* its first argument */
};

struct tagarray {
    uint32_t n_sets;     /* sets */
    uint32_t assoc;      /* ways per set */
    uint32_t line_bytes; /* bytes per line (power of two) */
    uint32_t line_shift; /* log2(line_bytes) */
    ta_set_fn set_fn;    /* caller's set-index function, or NULL for linear */
    void *set_ctx;       /* argument of set_fn */
    uint64_t *tag;       /* [n_sets*assoc] line address, TA_NO_TAG when INVALID */
    uint8_t *state;      /* [n_sets*assoc] enum ta_state */
    uint64_t *rp;        /* [n_sets*assoc] the replacement policy's per-line word */
    uint64_t stamp;      /* use counter for stamp-based policies: orders uses, several per cycle */
    const struct ta_repl_ops *repl; /* replacement policy */
    void *rp_priv;       /* the policy's own state (init/fini), or NULL */
    bool lru_inline;     /* repl is ta_repl_lru: NOTE(lru-inline) */
    bool plain;          /* LRU, no metadata, no hook, no victim tags: NOTE(install-plain) in tagarray.c */
    bool has_vt;         /* victim tags are on */
    uint32_t meta_bytes; /* metadata bytes per line */
    uint8_t *meta;       /* [n_sets*assoc*meta_bytes] per-line metadata, or NULL */
    ta_evict_fn evict_fn; /* eviction hook, or NULL */
    void *evict_ctx;     /* its first argument */
    struct victags vt;   /* victim tags (when has_vt) */
    uint64_t n_evict[TA_EV_COUNT]; /* VALID/MODIFIED lines that left, by cause */
};

/* set_fn NULL: set = (line_addr / line_bytes) mod n_sets. LRU, no metadata,
 * no hook, no victim tags. Allocates (setup only). */
void ta_init(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
             void *set_ctx);
/* As ta_init, with the options in *o (NULL = defaults). */
void ta_init_opts(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
                  void *set_ctx, const struct ta_opts *o);
void ta_fini(struct tagarray *t);
/* Attach or replace the eviction hook after init (fn NULL = none). */
void ta_set_evict_hook(struct tagarray *t, ta_evict_fn fn, void *ctx);

static inline uint32_t ta_set_of(const struct tagarray *t, uint64_t line_addr)
{
    if (t->set_fn)
        return t->set_fn(t->set_ctx, line_addr);
    return (uint32_t)((line_addr >> t->line_shift) % t->n_sets);
}

/* Line index (set*assoc + way) holding line_addr in any non-INVALID state, or -1. */
int32_t ta_probe(const struct tagarray *t, uint64_t line_addr);
/* The scan LRU uses, shared by stamp-ordered policies (FIFO): the lowest
 * INVALID way of `set`, else the non-RESERVED way with the smallest rp word
 * (the lowest way on a tie), else -1. In repl_lru.c. */
int32_t ta_victim_oldest(const struct tagarray *t, uint32_t set);
/* Replacement candidate in `set` chosen by the policy; -1 if none. Pure. */
static inline int32_t ta_victim(const struct tagarray *t, uint32_t set) { return t->repl->victim(t, set); }
/* A use of a present line (LRU: make it the most recently used of its set). */
static inline void ta_touch(struct tagarray *t, uint32_t line)
{
    if (t->lru_inline)
        t->rp[line] = ++t->stamp; /* = ta_repl_lru.on_hit */
    else
        t->repl->on_hit(t, line);
}
/* Put line_addr into `line` with state st: a VALID/MODIFIED line there is
 * evicted (hook, victim tags, count), the metadata is zeroed and the policy
 * told (LRU: MRU). The caller has read out the old contents first. */
void ta_install(struct tagarray *t, uint32_t line, uint64_t line_addr, enum ta_state st);
static inline void ta_set_state(struct tagarray *t, uint32_t line, enum ta_state st) { t->state[line] = (uint8_t)st; }
static inline enum ta_state ta_state_of(const struct tagarray *t, uint32_t line) { return (enum ta_state)t->state[line]; }
static inline uint64_t ta_tag_of(const struct tagarray *t, uint32_t line) { return t->tag[line]; }
/* Drop the line (hook with TA_EV_INVALIDATE when it held data). */
void ta_invalidate(struct tagarray *t, uint32_t line);
/* Invalidate every line (kernel-launch L1 flush; hook with TA_EV_FLUSH). */
void ta_invalidate_all(struct tagarray *t);
static inline uint32_t ta_n_lines(const struct tagarray *t) { return t->n_sets * t->assoc; }

/* The line's metadata (meta_bytes bytes). Only when meta_bytes > 0. */
static inline void *ta_meta(const struct tagarray *t, uint32_t line) { return t->meta + (size_t)line * t->meta_bytes; }

/* Victim tags: once per miss that allocates a line for line_addr. True when
 * the line was evicted by replacement earlier ("would have hit"); the entry
 * is then removed. False (and nothing counted) when victim tags are off. */
static inline bool ta_victim_probe(struct tagarray *t, uint64_t line_addr)
{
    return t->has_vt && vt_probe(&t->vt, line_addr);
}

/* Register evict_replace / evict_invalidate / evict_flush and, with victim
 * tags, vt_probes / vt_hits / vt_inserts under group/instance. */
void ta_stats_register(struct tagarray *t, struct stats *s, const char *group, int instance);

#endif /* GPUSIM_SIM_MEM_TAGARRAY_H */
