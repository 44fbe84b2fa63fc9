/* sim/sm/lsu/l1d_perfect.h: the side store of l1d.perfect (docs/knobs.md).
 *
 * What it models: the lines a contention-free L1D would still hold after the
 * real tag array replaced or store-evicted them: a clean copy of each line
 * (128 B) keyed by line address, unlimited in number, private to one SM's
 * L1D. The L1D serves a load that misses its tag array from here as a hit,
 * applies stores to a copy here (they still go to L2), drops a copy on an
 * atomic, and drops them all on a gpu-scope acquire invalidation or a
 * kernel launch (l1d.c, NOTE(l1d-perfect)).
 *
 * Operation mix: a look-up per load that misses the tag array, an insert
 * per replaced or store-evicted line, one clear per kernel and per
 * acquire. Open addressing with linear probing (power-of-two table at most
 * half full, backward-shift deletion) over a pool of line slots with a free
 * list. It allocates when it grows: l1d.perfect is an experiment knob, and
 * the store does not exist (NULL) when the knob is off.
 */
#ifndef GPUSIM_SIM_SM_LSU_L1D_PERFECT_H
#define GPUSIM_SIM_SM_LSU_L1D_PERFECT_H

#include <stdint.h>

struct l1d_pstore {
    uint64_t *key;      /* [cap] line address + 1; 0 = empty */
    uint32_t *slot;     /* [cap] pool index of the key's line */
    uint32_t cap;       /* table entries (power of two) */
    uint32_t n;         /* lines held */
    uint8_t *pool;      /* [pool_cap * line] line bytes */
    uint32_t pool_cap;  /* pool slots allocated */
    uint32_t pool_used; /* pool slots ever handed out since the last clear */
    uint32_t *free_slot; /* [pool_cap] freed pool slots */
    uint32_t n_free;    /* entries of free_slot */
    uint32_t line;      /* bytes per line */
};

void l1d_ps_init(struct l1d_pstore *p, uint32_t line_bytes);
void l1d_ps_fini(struct l1d_pstore *p);
/* Drop every line (O(table size)). */
void l1d_ps_clear(struct l1d_pstore *p);
/* The bytes of line_addr's copy, or NULL. */
uint8_t *l1d_ps_find(const struct l1d_pstore *p, uint64_t line_addr);
/* Store a copy of line_addr (inserted or replaced) and return its bytes. */
uint8_t *l1d_ps_put(struct l1d_pstore *p, uint64_t line_addr, const uint8_t *data);
/* Drop line_addr's copy if any. */
void l1d_ps_remove(struct l1d_pstore *p, uint64_t line_addr);

#endif /* GPUSIM_SIM_SM_LSU_L1D_PERFECT_H */
