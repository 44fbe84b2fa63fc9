/* sim/ptx/memorder.h: what the PTX memory model asks of one instruction,
 * reduced to the few actions a GPU with per-SM non-coherent L1 caches and
 * one L2 home per address has to take (docs/memmodel.md).
 *
 * This is the single place that reads the .sem/.scope/.volatile qualifiers
 * for timing purposes: the functional executor uses it to mark the memop it
 * hands to the LD/ST unit, the SM's pre-decode uses it for its issue rules.
 * It is pure (no state), so both sides agree by construction.
 *
 * Scopes: .cta is satisfied inside one SM (the CTA's warps share the L1 and
 * its FIFO miss queue), so it needs ordering only; .gpu, .sys and .cluster
 * (one-CTA clusters here) need the L2, the point of coherence, so they wait
 * for performed accesses and drop stale L1 lines. An access with a
 * semantics qualifier but no scope has scope .sys (PTX ISA: the default
 * scope of a morally strong operation), treated as .gpu.
 *
 * What is not here: the cache actions themselves (sim/sm/lsu/ldst.c and
 * sim/sm/lsu/l1d.c perform them) and the functional (no-timing) mode, where
 * every access acts on the backing store at issue and all of this holds
 * trivially.
 */
#ifndef GPUSIM_SIM_PTX_MEMORDER_H
#define GPUSIM_SIM_PTX_MEMORDER_H

#include <stdint.h>

#include "sim/ptx/ir.h"

enum {
    MO_ORD_BYPASS_L1 = 1u << 0, /* a load that must read the L2 (volatile, .relaxed/.acquire at gpu scope) */
    MO_ORD_ACQ_GPU = 1u << 1,   /* acquire at gpu scope: later accesses must not see L1 lines older than it */
    MO_ORD_REL_GPU = 1u << 2,   /* release at gpu scope: earlier accesses (cumulative) performed before it */
    MO_ORD_CTA = 1u << 3,       /* release/barrier at cta scope: earlier accesses ordered in the SM first */
    MO_ORD_FENCE = 1u << 4,     /* membar/fence (scope in ACQ/REL_GPU or CTA) */
};

static inline int ptx_scope_is_gpu(uint8_t scope) { return scope != PTX_SCOPE_CTA; }

/* MO_ORD_* bits of an instruction (0 for most). Global-space meaning; for
 * shared-space accesses the caller ignores them (shared memory is CTA-local
 * and performed at issue in timing mode). */
static inline uint32_t ptx_insn_mem_order(const struct ptx_insn *in)
{
    enum ptx_op op = (enum ptx_op)in->op;
    uint8_t sem = in->sem, scope = in->scope;
    uint32_t f = 0;
    switch (op) {
    case PTX_OP_BAR: /* bar.sync/arrive/red, barrier: CTA-wide ordering (CUDA's __syncthreads guarantee) */
        return MO_ORD_CTA;
    case PTX_OP_MEMBAR: /* membar.cta/gl/sys, fence.sc/acq_rel.scope: a full fence at its scope */
        return MO_ORD_FENCE | (ptx_scope_is_gpu(scope) ? MO_ORD_ACQ_GPU | MO_ORD_REL_GPU : MO_ORD_CTA);
    case PTX_OP_LD:
    case PTX_OP_LDU:
        if (in->flags & PTX_F_VOLATILE)
            return MO_ORD_BYPASS_L1; /* volatile = relaxed at sys scope (PTX ISA memory model) */
        if (sem == PTX_SEM_RELAXED && ptx_scope_is_gpu(scope))
            f |= MO_ORD_BYPASS_L1;
        if ((sem == PTX_SEM_ACQUIRE || sem == PTX_SEM_ACQ_REL || sem == PTX_SEM_SC) && ptx_scope_is_gpu(scope))
            f |= MO_ORD_BYPASS_L1 | MO_ORD_ACQ_GPU;
        return f;
    case PTX_OP_ST:
    case PTX_OP_ATOM:
    case PTX_OP_RED:
        if (sem == PTX_SEM_RELEASE || sem == PTX_SEM_ACQ_REL || sem == PTX_SEM_SC)
            f |= ptx_scope_is_gpu(scope) ? MO_ORD_REL_GPU : MO_ORD_CTA;
        if (op != PTX_OP_ST && (sem == PTX_SEM_ACQUIRE || sem == PTX_SEM_ACQ_REL || sem == PTX_SEM_SC) &&
            ptx_scope_is_gpu(scope))
            f |= MO_ORD_ACQ_GPU;
        return f;
    default:
        return 0;
    }
}

#endif /* GPUSIM_SIM_PTX_MEMORDER_H */
