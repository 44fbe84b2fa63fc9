/* tests/support/memop_store.h: storage for memops pushed into an LD/ST unit
 * by a test rig.
 *
 * The LD/ST unit keeps a pushed instruction by reference until its done
 * callback (NOTE(memop-ref) in sim/sm/lsu/ldst.h), but tests build a memop
 * on the stack, push it, change it and push it again. A rig copies every
 * push into a ring of MEMOP_STORE_N entries, far more than can be in
 * flight at once (one latch and sm.ldst_slots slots), and pushes the copy.
 */
#ifndef GPUSIM_TESTS_SUPPORT_MEMOP_STORE_H
#define GPUSIM_TESTS_SUPPORT_MEMOP_STORE_H

#include <stdlib.h>

#include "sim/base/common.h"
#include "sim/sm/lsu/ldst.h"

#define MEMOP_STORE_N 4096u

struct memop_store {
    struct memop *e; /* [MEMOP_STORE_N] */
    uint32_t next;   /* next entry to use */
};

static inline void memop_store_init(struct memop_store *s)
{
    s->e = xcalloc(MEMOP_STORE_N, sizeof *s->e);
    s->next = 0;
}

static inline void memop_store_fini(struct memop_store *s)
{
    free(s->e);
    s->e = NULL;
}

/* ldst_push of a copy of op kept in the store; false when the latch is full. */
static inline bool memop_store_push(struct memop_store *s, struct ldst *u, const struct memop *op, uint64_t cycle)
{
    struct memop *m = &s->e[s->next % MEMOP_STORE_N];
    *m = *op;
    if (!ldst_push(u, m, cycle))
        return false;
    s->next++;
    return true;
}

#endif /* GPUSIM_TESTS_SUPPORT_MEMOP_STORE_H */
