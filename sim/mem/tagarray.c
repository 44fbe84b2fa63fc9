/* sim/mem/tagarray.c: set-associative tag array with a pluggable
 * replacement policy, per-line metadata, an eviction hook and victim tags.
 * See tagarray.h; the policies are in repl_*.c.
 */
#include "sim/mem/tagarray.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/base/stats.h"

/* ------------------------------------------------------------- policy registry */

const char *const ta_repl_names[TA_REPL_COUNT + 1] = {"lru", "fifo", "srrip", NULL};

const struct ta_repl_ops *ta_repl_of(int kind)
{
    static const struct ta_repl_ops *const ops[TA_REPL_COUNT] = {&ta_repl_lru, &ta_repl_fifo, &ta_repl_srrip};
    SIM_ASSERT(kind >= 0 && kind < TA_REPL_COUNT, "tagarray: replacement policy %d", kind);
    return ops[kind];
}

/* ------------------------------------------------------------- init */

void ta_init_opts(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
                  void *set_ctx, const struct ta_opts *o)
{
    static const struct ta_opts none = {0};
    if (!o)
        o = &none;
    SIM_ASSERT(n_sets >= 1 && assoc >= 1, "tagarray: %u sets x %u ways", n_sets, assoc);
    SIM_ASSERT(is_pow2_u64(line_bytes), "tagarray: line size %u is not a power of two", line_bytes);
    memset(t, 0, sizeof *t);
    t->n_sets = n_sets;
    t->assoc = assoc;
    t->line_bytes = line_bytes;
    t->line_shift = (uint32_t)__builtin_ctz(line_bytes);
    t->set_fn = set_fn;
    t->set_ctx = set_ctx;
    size_t n = (size_t)n_sets * assoc;
    t->tag = xmalloc(n * sizeof *t->tag);
    t->rp = xcalloc(n, sizeof *t->rp);
    t->state = xcalloc(n, sizeof *t->state);
    t->repl = o->repl ? o->repl : &ta_repl_lru;
    SIM_ASSERT(t->repl->on_hit && t->repl->on_insert && t->repl->victim,
               "tagarray: replacement policy '%s' lacks on_hit, on_insert or victim",
               t->repl->name ? t->repl->name : "?");
    t->lru_inline = t->repl == &ta_repl_lru;
    t->plain = t->lru_inline && !o->meta_bytes && !o->evict_fn && !o->vt_entries;
    t->meta_bytes = o->meta_bytes;
    if (o->meta_bytes)
        t->meta = xcalloc(n, o->meta_bytes);
    t->evict_fn = o->evict_fn;
    t->evict_ctx = o->evict_ctx;
    if (o->vt_entries) {
        vt_init(&t->vt, o->vt_entries, o->vt_assoc, line_bytes);
        t->has_vt = true;
    }
    for (size_t i = 0; i < n; i++)
        t->tag[i] = TA_NO_TAG;
    if (t->repl->init)
        t->repl->init(t);
}

void ta_init(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
             void *set_ctx)
{
    ta_init_opts(t, n_sets, assoc, line_bytes, set_fn, set_ctx, NULL);
}

void ta_fini(struct tagarray *t)
{
    if (t->repl && t->repl->fini)
        t->repl->fini(t);
    if (t->has_vt)
        vt_fini(&t->vt);
    free(t->tag);
    free(t->rp);
    free(t->state);
    free(t->meta);
    memset(t, 0, sizeof *t);
}

void ta_set_evict_hook(struct tagarray *t, ta_evict_fn fn, void *ctx)
{
    t->evict_fn = fn;
    t->evict_ctx = ctx;
    t->plain = t->lru_inline && !t->meta_bytes && !t->evict_fn && !t->has_vt;
}

/* ------------------------------------------------------------- lookups */

int32_t ta_probe(const struct tagarray *t, uint64_t line_addr)
{
    uint32_t set = ta_set_of(t, line_addr);
    SIM_DEBUG_ASSERT(set < t->n_sets, "tagarray: set function returned %u of %u", set, t->n_sets);
    uint32_t base = set * t->assoc;
    const uint64_t *tg = t->tag + base;
    for (uint32_t w = 0; w < t->assoc; w++)
        if (tg[w] == line_addr)
            return (int32_t)(base + w);
    return -1;
}

/* ------------------------------------------------------------- updates */

/* A VALID/MODIFIED line leaves: count it, tell the hook, remember replaced
 * lines in the victim tags. Runs before the line's tag, state and metadata change. */
static void evicted(struct tagarray *t, uint32_t line, enum ta_evict_cause cause)
{
    t->n_evict[cause]++;
    if (t->evict_fn) {
        struct ta_evict ev = {.line_addr = t->tag[line],
                              .line = line,
                              .state = t->state[line],
                              .cause = (uint8_t)cause,
                              .meta = t->meta_bytes ? ta_meta(t, line) : NULL};
        t->evict_fn(t->evict_ctx, &ev);
    }
    if (t->has_vt && cause == TA_EV_REPLACE)
        vt_insert(&t->vt, t->tag[line]);
}

/* ta_install with any policy, metadata, hook or victim tags. */
__attribute__((noinline)) static void install_general(struct tagarray *t, uint32_t line, uint64_t line_addr,
                                                      enum ta_state st)
{
    enum ta_state prev = (enum ta_state)t->state[line];
    if (prev >= TA_VALID)
        evicted(t, line, TA_EV_REPLACE);
    t->tag[line] = line_addr;
    t->state[line] = (uint8_t)st;
    if (t->meta_bytes)
        memset(ta_meta(t, line), 0, t->meta_bytes);
    t->repl->on_insert(t, line, prev);
}

/* NOTE(install-plain): the default configuration (LRU, no metadata, no
 * hook, no victim tags) takes a path with no calls, so it needs no stack
 * frame: with the general path inlined instead, an LRU install cost 46
 * instead of 11 instructions (callgrind; docs/cache.md). ta_invalidate and
 * ta_invalidate_all have the same split. */
void ta_install(struct tagarray *t, uint32_t line, uint64_t line_addr, enum ta_state st)
{
    SIM_DEBUG_ASSERT(line_addr != TA_NO_TAG && (line_addr & (t->line_bytes - 1)) == 0,
                     "tagarray: install of unaligned line 0x%llx", (unsigned long long)line_addr);
    if (UNLIKELY(!t->plain)) {
        install_general(t, line, line_addr, st);
        return;
    }
    t->n_evict[TA_EV_REPLACE] += t->state[line] >= TA_VALID;
    t->tag[line] = line_addr;
    t->state[line] = (uint8_t)st;
    t->rp[line] = ++t->stamp; /* = ta_repl_lru.on_insert */
}

/* Drop line i after a valid line left for `cause` (general path). */
static void invalidate_general(struct tagarray *t, uint32_t line, enum ta_evict_cause cause)
{
    if (t->state[line] >= TA_VALID)
        evicted(t, line, cause);
    t->tag[line] = TA_NO_TAG;
    t->state[line] = TA_INVALID;
    if (t->repl->on_invalidate)
        t->repl->on_invalidate(t, line);
}

void ta_invalidate(struct tagarray *t, uint32_t line)
{
    if (UNLIKELY(!t->plain)) {
        invalidate_general(t, line, TA_EV_INVALIDATE);
        return;
    }
    t->n_evict[TA_EV_INVALIDATE] += t->state[line] >= TA_VALID; /* LRU has no on_invalidate */
    t->tag[line] = TA_NO_TAG;
    t->state[line] = TA_INVALID;
}

void ta_invalidate_all(struct tagarray *t)
{
    uint32_t n = ta_n_lines(t);
    if (!t->plain) {
        for (uint32_t i = 0; i < n; i++)
            invalidate_general(t, i, TA_EV_FLUSH);
        return;
    }
    uint64_t valid = 0;
    for (uint32_t i = 0; i < n; i++) {
        valid += t->state[i] >= TA_VALID;
        t->tag[i] = TA_NO_TAG;
        t->state[i] = TA_INVALID;
    }
    t->n_evict[TA_EV_FLUSH] += valid;
}

/* ------------------------------------------------------------- statistics */

void ta_stats_register(struct tagarray *t, struct stats *s, const char *group, int instance)
{
    stats_counter(s, group, instance, "evict_replace", &t->n_evict[TA_EV_REPLACE],
                  "valid lines evicted to make room for another line");
    stats_counter(s, group, instance, "evict_invalidate", &t->n_evict[TA_EV_INVALIDATE],
                  "valid lines invalidated (write-evict, coherence)");
    stats_counter(s, group, instance, "evict_flush", &t->n_evict[TA_EV_FLUSH],
                  "valid lines dropped by an invalidate-all (kernel launch)");
    if (!t->has_vt)
        return;
    stats_counter(s, group, instance, "vt_probes", &t->vt.probes, "allocating misses that probed the victim tags");
    stats_counter(s, group, instance, "vt_hits", &t->vt.hits,
                  "allocating misses whose line was in the victim tags (would have hit)");
    stats_counter(s, group, instance, "vt_inserts", &t->vt.inserts, "replaced lines recorded in the victim tags");
}
