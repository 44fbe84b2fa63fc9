/* sim/mem/lastacc.c: last-accessor shadow map (see lastacc.h). */
#include "sim/mem/lastacc.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"

static uint64_t slot_of(uint64_t line, uint64_t cap) { return (line >> 7) * 0x9e3779b97f4a7c15ull >> 20 & (cap - 1); }

void lastacc_init(struct lastacc *m, uint64_t cap)
{
    uint64_t c = 64;
    while (c < cap)
        c *= 2;
    m->cap = c;
    m->n = 0;
    m->key = xcalloc(c, sizeof *m->key);
    m->val = xcalloc(c, sizeof *m->val);
}

void lastacc_fini(struct lastacc *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

void lastacc_clear(struct lastacc *m)
{
    memset(m->key, 0, m->cap * sizeof *m->key);
    m->n = 0;
}

static void grow(struct lastacc *m)
{
    struct lastacc o = *m;
    lastacc_init(m, o.cap * 2);
    for (uint64_t i = 0; i < o.cap; i++)
        if (o.key[i]) {
            uint64_t j = slot_of(o.key[i] - 1, m->cap);
            while (m->key[j])
                j = (j + 1) & (m->cap - 1);
            m->key[j] = o.key[i];
            m->val[j] = o.val[i];
            m->n++;
        }
    free(o.key);
    free(o.val);
}

uint64_t lastacc_swap(struct lastacc *m, uint64_t line, uint64_t v)
{
    uint64_t j = slot_of(line, m->cap);
    while (m->key[j]) {
        if (m->key[j] == line + 1) {
            uint64_t old = m->val[j];
            m->val[j] = v;
            return old;
        }
        j = (j + 1) & (m->cap - 1);
    }
    if (2 * (m->n + 1) > m->cap) {
        grow(m);
        return lastacc_swap(m, line, v);
    }
    m->key[j] = line + 1;
    m->val[j] = v;
    m->n++;
    return LASTACC_NONE;
}
