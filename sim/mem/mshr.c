/* sim/mem/mshr.c: generic MSHR table. See mshr.h. */
#include "sim/mem/mshr.h"

#include <stdlib.h>

#include "sim/base/common.h"

#ifndef NDEBUG
/* The reference form of mshr_lookup: a scan of every key. */
void mshr_check_lookup(const struct mshr *m, uint64_t line_addr, int32_t e)
{
    int32_t want = -1;
    for (uint32_t i = 0; i < m->n_entries && want < 0; i++)
        if (m->key[i] == line_addr)
            want = (int32_t)i;
    SIM_ASSERT(e == want, "mshr: the index found entry %d for line 0x%llx, a scan %d (NOTE(mshr-hash))", (int)e,
               (unsigned long long)line_addr, (int)want);
}
#endif

/* NOTE(mshr-hash): enter open entry e (key set) at the first empty place
 * from its home. */
static void index_put(struct mshr *m, uint32_t e)
{
    uint32_t i = mshr_home(m, m->key[e]);
    while (m->index[i] >= 0)
        i = (i + 1) & m->index_mask;
    m->index[i] = (int16_t)e;
}

/* Remove open entry e (key still set); the entries after it in its run
 * move back into the gap when their home allows, so every entry stays
 * reachable from its home without passing an empty place. */
static void index_del(struct mshr *m, uint32_t e)
{
    uint32_t i = mshr_home(m, m->key[e]);
    while (m->index[i] != (int16_t)e) {
        SIM_ASSERT(m->index[i] >= 0, "mshr: open entry %u missing from the index", e);
        i = (i + 1) & m->index_mask;
    }
    for (uint32_t j = (i + 1) & m->index_mask; m->index[j] >= 0; j = (j + 1) & m->index_mask) {
        uint32_t h = mshr_home(m, m->key[m->index[j]]);
        /* the entry at j may fill the gap at i when i lies on the way from
         * its home h to j (cyclically: h <= i < j) */
        if (((j - h) & m->index_mask) >= ((j - i) & m->index_mask)) {
            m->index[i] = m->index[j];
            i = j;
        }
    }
    m->index[i] = -1;
}

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
    SIM_ASSERT(n_entries <= INT16_MAX / 4, "mshr: %u entries (at most %d)", n_entries, INT16_MAX / 4);
    uint32_t places = 8, bits = 3;
    while (places < 2 * n_entries) {
        places *= 2;
        bits++;
    }
    m->index_mask = places - 1;
    m->index_shift = 64 - bits;
    m->index = xmalloc(places * sizeof *m->index);
    for (uint32_t i = 0; i < places; i++)
        m->index[i] = -1;
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
    free(m->index);
    m->index = NULL;
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
    index_put(m, e);
    SIM_DEBUG_ASSERT(mshr_lookup(m, line_addr) == (int32_t)e, "mshr: index lost entry %u", e);
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
    index_del(m, e);
    m->state[e] = MSHR_CLOSED;
    m->key[e] = MSHR_NO_ADDR;
}

void mshr_release(struct mshr *m, uint32_t e)
{
    SIM_ASSERT(m->state[e] != MSHR_FREE, "mshr: double release of entry %u", e);
    if (m->state[e] == MSHR_OPEN)
        index_del(m, e);
    m->state[e] = MSHR_FREE;
    m->key[e] = m->line[e] = MSHR_NO_ADDR;
    m->count[e] = 0;
    m->free_list[m->n_free++] = e;
}
