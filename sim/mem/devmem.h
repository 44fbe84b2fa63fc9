/* sim/mem/devmem.h: device memory of one context (functional backing store).
 *
 * What is modelled: the device address space that cudaMalloc-style
 * allocations live in. Each allocation is one block with its own zeroed host
 * buffer; an access is valid only when [addr, addr+len) lies inside one live
 * block, so out-of-bounds and use-after-free accesses are detected exactly.
 * Addresses are handed out by a bump pointer with 256-byte alignment and are
 * never reused after a free (the 47-bit window below FUNC_GEN_SHARED_BASE is
 * far larger than any run needs), so a stale pointer never aliases a new
 * allocation.
 *
 * What is not modelled: physical pages, partitions, caches (timing mode
 * owns those), memory limits of a real card (only a host-side cap).
 *
 * Operation mix: allocation and free are rare (host calls); lookup happens
 * once per lane per global access, so it is a binary search over the sorted
 * block array behind a one-entry cache kept by the caller.
 */
#ifndef GPUSIM_SIM_MEM_DEVMEM_H
#define GPUSIM_SIM_MEM_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

/* First device address handed out (4 GiB: small integers and NULL-based
 * pointers never hit an allocation). */
#define DEVMEM_BASE 0x100000000ull
/* Allocation alignment (bytes), as cudaMalloc's 256. */
#define DEVMEM_ALIGN 256u

struct devmem_block {
    uint64_t addr;  /* device address of the first byte */
    uint64_t size;  /* bytes requested */
    uint8_t *data;  /* host backing store, size bytes (at least 1 allocated) */
};

struct devmem {
    struct devmem_block *blocks; /* live blocks sorted by addr */
    size_t n;                    /* live blocks */
    size_t cap;                  /* allocated entries of blocks */
    uint64_t next;               /* next free device address (bump pointer) */
    uint64_t limit;              /* end of the device window (exclusive) */
    uint64_t bytes_live;         /* bytes in live blocks */
};

/* limit: first device address above the allocatable window (bytes; the
 * functional executor's generic shared window starts there). */
void devmem_init(struct devmem *m, uint64_t limit);
void devmem_fini(struct devmem *m);
/* 0, or GS_ERR_OUT_OF_MEMORY / GS_ERR_INVALID_VALUE (size 0). */
int devmem_alloc(struct devmem *m, uint64_t size, uint64_t *addr);
/* 0, or GS_ERR_INVALID_VALUE when addr is not the start of a live block. */
int devmem_free(struct devmem *m, uint64_t addr);
/* Index of the live block holding [addr, addr+len), or -1. */
long devmem_find(const struct devmem *m, uint64_t addr, uint64_t len);
/* Host pointer for [addr, addr+len) inside one block, or NULL. */
uint8_t *devmem_ptr(const struct devmem *m, uint64_t addr, uint64_t len);

#endif /* GPUSIM_SIM_MEM_DEVMEM_H */
