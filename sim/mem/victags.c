/* sim/mem/victags.c: victim tags (FIFO sets of evicted line addresses). See victags.h. */
#include "sim/mem/victags.h"

#include <stdlib.h>

#include "sim/base/common.h"

void vt_init(struct victags *v, uint32_t entries, uint32_t ways, uint32_t line_bytes)
{
    SIM_ASSERT(entries >= 1, "victim tags: no entries");
    SIM_ASSERT(ways == 0 || entries % ways == 0, "victim tags: %u entries is not a multiple of %u ways", entries,
               ways);
    SIM_ASSERT(is_pow2_u64(line_bytes), "victim tags: line size %u is not a power of two", line_bytes);
    if (ways == 0)
        ways = entries;
    v->n_sets = entries / ways;
    v->ways = ways;
    v->line_shift = (uint32_t)__builtin_ctz(line_bytes);
    v->tag = xmalloc((size_t)entries * sizeof *v->tag);
    v->next = xcalloc(v->n_sets, sizeof *v->next);
    v->inserts = v->probes = v->hits = 0;
    vt_clear(v);
}

void vt_fini(struct victags *v)
{
    free(v->tag);
    free(v->next);
    v->tag = NULL;
    v->next = NULL;
}

/* Set of a line (victags.h): a multiplicative hash of the line number. */
static inline uint32_t vt_set_of(const struct victags *v, uint64_t line_addr)
{
    if (v->n_sets == 1)
        return 0;
    return (uint32_t)((((line_addr >> v->line_shift) * 0x9e3779b97f4a7c15ull) >> 32) % v->n_sets);
}

static inline uint64_t *vt_set(const struct victags *v, uint64_t line_addr)
{
    return v->tag + (size_t)vt_set_of(v, line_addr) * v->ways;
}

void vt_insert(struct victags *v, uint64_t line_addr)
{
    SIM_DEBUG_ASSERT(line_addr != VT_EMPTY, "victim tags: insert of the empty tag");
    uint32_t s = vt_set_of(v, line_addr);
    uint32_t w = v->next[s];
    v->tag[(size_t)s * v->ways + w] = line_addr;
    v->next[s] = w + 1 == v->ways ? 0 : w + 1;
    v->inserts++;
}

bool vt_probe(struct victags *v, uint64_t line_addr)
{
    v->probes++;
    uint64_t *tg = vt_set(v, line_addr);
    bool hit = false;
    for (uint32_t w = 0; w < v->ways; w++)
        if (tg[w] == line_addr) { /* every copy: a line evicted twice without a miss between */
            tg[w] = VT_EMPTY;
            hit = true;
        }
    v->hits += hit;
    return hit;
}

void vt_clear(struct victags *v)
{
    for (uint32_t i = 0; i < vt_entries(v); i++)
        v->tag[i] = VT_EMPTY;
    for (uint32_t s = 0; s < v->n_sets; s++)
        v->next[s] = 0;
}
