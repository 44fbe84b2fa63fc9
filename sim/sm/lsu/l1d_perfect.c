/* sim/sm/lsu/l1d_perfect.c: the side store of l1d.perfect; see l1d_perfect.h. */
#include "sim/sm/lsu/l1d_perfect.h"

#include <stdbool.h>

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

#define PS_MIN_CAP 256u

static uint32_t ps_hash(const struct l1d_pstore *p, uint64_t line_addr)
{
    uint64_t h = (line_addr / p->line) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32) & (p->cap - 1);
}

void l1d_ps_init(struct l1d_pstore *p, uint32_t line_bytes)
{
    memset(p, 0, sizeof *p);
    p->line = line_bytes;
    p->cap = PS_MIN_CAP;
    p->key = xcalloc(p->cap, sizeof *p->key);
    p->slot = xcalloc(p->cap, sizeof *p->slot);
}

void l1d_ps_fini(struct l1d_pstore *p)
{
    free(p->key);
    free(p->slot);
    free(p->pool);
    free(p->free_slot);
    memset(p, 0, sizeof *p);
}

void l1d_ps_clear(struct l1d_pstore *p)
{
    if (p->n)
        memset(p->key, 0, (size_t)p->cap * sizeof *p->key);
    p->n = 0;
    p->pool_used = 0;
    p->n_free = 0;
}

/* Table index of line_addr, or of the empty entry where it would go. */
static uint32_t ps_pos(const struct l1d_pstore *p, uint64_t line_addr)
{
    uint32_t i = ps_hash(p, line_addr);
    while (p->key[i] && p->key[i] != line_addr + 1)
        i = (i + 1) & (p->cap - 1);
    return i;
}

uint8_t *l1d_ps_find(const struct l1d_pstore *p, uint64_t line_addr)
{
    uint32_t i = ps_pos(p, line_addr);
    return p->key[i] ? p->pool + (size_t)p->slot[i] * p->line : NULL;
}

static void ps_grow(struct l1d_pstore *p)
{
    uint64_t *ok = p->key;
    uint32_t *os = p->slot, oc = p->cap;
    p->cap *= 2;
    p->key = xcalloc(p->cap, sizeof *p->key);
    p->slot = xcalloc(p->cap, sizeof *p->slot);
    for (uint32_t i = 0; i < oc; i++) {
        if (!ok[i])
            continue;
        uint32_t j = ps_pos(p, ok[i] - 1);
        p->key[j] = ok[i];
        p->slot[j] = os[i];
    }
    free(ok);
    free(os);
}

static uint32_t ps_alloc_slot(struct l1d_pstore *p)
{
    if (p->n_free)
        return p->free_slot[--p->n_free];
    if (p->pool_used == p->pool_cap) {
        p->pool_cap = p->pool_cap ? 2 * p->pool_cap : PS_MIN_CAP;
        p->pool = xrealloc(p->pool, (size_t)p->pool_cap * p->line);
        p->free_slot = xrealloc(p->free_slot, (size_t)p->pool_cap * sizeof *p->free_slot);
    }
    return p->pool_used++;
}

uint8_t *l1d_ps_put(struct l1d_pstore *p, uint64_t line_addr, const uint8_t *data)
{
    uint32_t i = ps_pos(p, line_addr);
    if (!p->key[i]) {
        if (2 * (p->n + 1) > p->cap) {
            ps_grow(p);
            i = ps_pos(p, line_addr);
        }
        p->key[i] = line_addr + 1;
        p->slot[i] = ps_alloc_slot(p);
        p->n++;
    }
    uint8_t *d = p->pool + (size_t)p->slot[i] * p->line;
    memcpy(d, data, p->line);
    return d;
}

void l1d_ps_remove(struct l1d_pstore *p, uint64_t line_addr)
{
    uint32_t i = ps_pos(p, line_addr);
    if (!p->key[i])
        return;
    p->free_slot[p->n_free++] = p->slot[i];
    p->key[i] = 0;
    p->n--;
    /* backward-shift deletion: move later entries of the probe run into the hole */
    uint32_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & (p->cap - 1);
        if (!p->key[j])
            break;
        uint32_t home = ps_hash(p, p->key[j] - 1);
        /* entry j may move to hole when hole lies cyclically in [home, j) */
        bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
        if (movable) {
            p->key[hole] = p->key[j];
            p->slot[hole] = p->slot[j];
            p->key[j] = 0;
            hole = j;
        }
    }
}
