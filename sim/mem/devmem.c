/* sim/mem/devmem.c: device allocator and backing store (see devmem.h). */
#include "sim/mem/devmem.h"

#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/base/common.h"

void devmem_init(struct devmem *m, uint64_t limit)
{
    memset(m, 0, sizeof *m);
    m->next = DEVMEM_BASE;
    m->limit = limit;
}

void devmem_fini(struct devmem *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->blocks[i].data);
    free(m->blocks);
    memset(m, 0, sizeof *m);
}

int devmem_alloc(struct devmem *m, uint64_t size, uint64_t *addr)
{
    if (size == 0)
        return GS_ERR_INVALID_VALUE;
    uint64_t span = u64_round_up(size, DEVMEM_ALIGN);
    if (span < size || m->next + span < m->next || m->next + span > m->limit)
        return GS_ERR_OUT_OF_MEMORY;
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 16;
        struct devmem_block *nb = realloc(m->blocks, nc * sizeof *nb);
        if (!nb)
            return GS_ERR_OUT_OF_MEMORY;
        m->blocks = nb;
        m->cap = nc;
    }
    uint8_t *data = calloc(1, (size_t)size);
    if (!data)
        return GS_ERR_OUT_OF_MEMORY;
    /* The bump pointer only grows, so appending keeps blocks sorted. */
    m->blocks[m->n++] = (struct devmem_block){.addr = m->next, .size = size, .data = data};
    *addr = m->next;
    m->next += span;
    m->bytes_live += size;
    return 0;
}

long devmem_find(const struct devmem *m, uint64_t addr, uint64_t len)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->blocks[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const struct devmem_block *b = &m->blocks[lo - 1];
    if (addr - b->addr >= b->size || len > b->size - (addr - b->addr))
        return -1;
    return (long)(lo - 1);
}

uint8_t *devmem_ptr(const struct devmem *m, uint64_t addr, uint64_t len)
{
    long i = devmem_find(m, addr, len);
    return i < 0 ? NULL : m->blocks[i].data + (addr - m->blocks[i].addr);
}

int devmem_free(struct devmem *m, uint64_t addr)
{
    long i = devmem_find(m, addr, 1);
    if (i < 0 || m->blocks[i].addr != addr)
        return GS_ERR_INVALID_VALUE;
    m->bytes_live -= m->blocks[i].size;
    free(m->blocks[i].data);
    memmove(&m->blocks[i], &m->blocks[i + 1], (m->n - (size_t)i - 1) * sizeof m->blocks[0]);
    m->n--;
    return 0;
}
