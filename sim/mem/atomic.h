/* sim/mem/atomic.h: the read-modify-write semantics a memory-side unit
 * (the L2's atomics unit) applies, as an interface.
 *
 * An atomic request (struct mem_atom in memreq.h) carries an operation code
 * and an element-type code that belong to the ISA. The memory partitions
 * must not know the ISA (PTX IR) or the functional executor, so whoever
 * assembles the machine hands the L2 a table of these functions; the
 * implementation for PTX atomics is func_atomic_ops (sim/func/atomic_ops.c),
 * the same arithmetic the functional executor uses, so timing mode and
 * functional mode compute identical values.
 *
 * What is not here: ordering (lanes are applied in lane order by the L2)
 * and timing (the L2's data port).
 */
#ifndef GPUSIM_SIM_MEM_ATOMIC_H
#define GPUSIM_SIM_MEM_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mem_atomic_ops {
    /* Bytes of one element of type code `type` (0 = unknown type). */
    unsigned (*elem_bytes)(uint8_t type);
    /* Whether operation `aop` takes two operands per lane (compare-and-swap). */
    bool (*two_operands)(uint8_t aop);
    /* The new value of one element: old (op) b, c for compare-and-swap; ftz
     * flushes f32 subnormals. Sets *bad for an unsupported (aop, type). */
    uint64_t (*apply)(uint8_t aop, uint8_t type, uint64_t old, uint64_t b, uint64_t c, bool ftz, bool *bad);
    /* Human name of (aop, type) for messages, e.g. "add.f32". */
    void (*name)(uint8_t aop, uint8_t type, char *buf, size_t n);
};

#endif /* GPUSIM_SIM_MEM_ATOMIC_H */
