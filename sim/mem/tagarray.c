/* sim/mem/tagarray.c: set-associative tag array with LRU. See tagarray.h. */
#include "sim/mem/tagarray.h"

#include <stdlib.h>

#include "sim/common.h"

void ta_init(struct tagarray *t, uint32_t n_sets, uint32_t assoc, uint32_t line_bytes, ta_set_fn set_fn,
             void *set_ctx)
{
    SIM_ASSERT(n_sets >= 1 && assoc >= 1, "tagarray: %u sets x %u ways", n_sets, assoc);
    SIM_ASSERT(is_pow2_u64(line_bytes), "tagarray: line size %u is not a power of two", line_bytes);
    t->n_sets = n_sets;
    t->assoc = assoc;
    t->line_bytes = line_bytes;
    t->line_shift = (uint32_t)__builtin_ctz(line_bytes);
    t->set_fn = set_fn;
    t->set_ctx = set_ctx;
    size_t n = (size_t)n_sets * assoc;
    t->tag = xmalloc(n * sizeof *t->tag);
    t->lru = xcalloc(n, sizeof *t->lru);
    t->state = xcalloc(n, sizeof *t->state);
    t->stamp = 0;
    ta_invalidate_all(t);
}

void ta_fini(struct tagarray *t)
{
    free(t->tag);
    free(t->lru);
    free(t->state);
    t->tag = t->lru = NULL;
    t->state = NULL;
}

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

int32_t ta_victim(const struct tagarray *t, uint32_t set)
{
    uint32_t base = set * t->assoc;
    int32_t best = -1;
    uint64_t best_lru = UINT64_MAX;
    for (uint32_t w = 0; w < t->assoc; w++) {
        uint32_t i = base + w;
        uint8_t s = t->state[i];
        if (s == TA_INVALID)
            return (int32_t)i;
        if (s != TA_RESERVED && t->lru[i] < best_lru) {
            best_lru = t->lru[i];
            best = (int32_t)i;
        }
    }
    return best;
}

void ta_install(struct tagarray *t, uint32_t line, uint64_t line_addr, enum ta_state st)
{
    SIM_DEBUG_ASSERT(line_addr != TA_NO_TAG && (line_addr & (t->line_bytes - 1)) == 0,
                     "tagarray: install of unaligned line 0x%llx", (unsigned long long)line_addr);
    t->tag[line] = line_addr;
    t->state[line] = (uint8_t)st;
    ta_touch(t, line);
}

void ta_invalidate(struct tagarray *t, uint32_t line)
{
    t->tag[line] = TA_NO_TAG;
    t->state[line] = TA_INVALID;
}

void ta_invalidate_all(struct tagarray *t)
{
    for (uint32_t i = 0; i < ta_n_lines(t); i++)
        ta_invalidate(t, i);
}
