/* sim/mem/mshr.c: generic MSHR table. See mshr.h. */
#include "sim/mem/mshr.h"

#include <stdlib.h>

#include "sim/base/common.h"

void mshr_init(struct mshr *m, uint32_t n_entries, uint32_t max_merge, uint32_t slot_bytes)
{
    SIM_ASSERT(n_entries >= 1 && max_merge >= 1 && slot_bytes >= 1, "mshr: %u entries x %u merges x %u bytes",
               n_entries, max_merge, slot_bytes);
    m->n_entries = n_entries;
    m->max_merge = max_merge;
    m->slot_bytes = slot_bytes;
    m->key = xmalloc(n_entries * sizeof *m->key);
    m->line = xmalloc(n_entries * sizeof *m->line);
    m->state = xcalloc(n_entries, sizeof *m->state);
    m->count = xcalloc(n_entries, sizeof *m->count);
    m->free_list = xmalloc(n_entries * sizeof *m->free_list);
    m->slots = xcalloc((size_t)n_entries * max_merge, slot_bytes);
    /* Stack with entry 0 on top, so the first allocations use 0, 1, 2 ... */
    for (uint32_t i = 0; i < n_entries; i++) {
        m->key[i] = m->line[i] = MSHR_NO_ADDR;
        m->free_list[i] = n_entries - 1 - i;
    }
    m->n_free = n_entries;
}

void mshr_fini(struct mshr *m)
{
    free(m->key);
    free(m->line);
    free(m->state);
    free(m->count);
    free(m->free_list);
    free(m->slots);
    m->key = m->line = NULL;
    m->state = m->slots = NULL;
    m->count = m->free_list = NULL;
}

int32_t mshr_alloc(struct mshr *m, uint64_t line_addr)
{
    SIM_DEBUG_ASSERT(mshr_lookup(m, line_addr) < 0, "mshr: line 0x%llx already has an open entry",
                     (unsigned long long)line_addr);
    SIM_ASSERT(line_addr != MSHR_NO_ADDR, "mshr: reserved line address");
    if (m->n_free == 0)
        return -1;
    uint32_t e = m->free_list[--m->n_free];
    SIM_DEBUG_ASSERT(m->state[e] == MSHR_FREE, "mshr: entry %u on the free list is in use", e);
    m->state[e] = MSHR_OPEN;
    m->key[e] = m->line[e] = line_addr;
    m->count[e] = 0;
    return (int32_t)e;
}

void *mshr_add(struct mshr *m, uint32_t e)
{
    SIM_DEBUG_ASSERT(m->state[e] != MSHR_FREE, "mshr: add to free entry %u", e);
    if (m->count[e] >= m->max_merge)
        return NULL;
    return mshr_slot(m, e, m->count[e]++);
}

void mshr_close(struct mshr *m, uint32_t e)
{
    SIM_ASSERT(m->state[e] == MSHR_OPEN, "mshr: close of entry %u in state %u", e, m->state[e]);
    m->state[e] = MSHR_CLOSED;
    m->key[e] = MSHR_NO_ADDR;
}

void mshr_release(struct mshr *m, uint32_t e)
{
    SIM_ASSERT(m->state[e] != MSHR_FREE, "mshr: double release of entry %u", e);
    m->state[e] = MSHR_FREE;
    m->key[e] = m->line[e] = MSHR_NO_ADDR;
    m->count[e] = 0;
    m->free_list[m->n_free++] = e;
}
