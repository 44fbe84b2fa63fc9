/* sim/func/atomic_ops.c: PTX atomic semantics for the memory side
 * (struct mem_atomic_ops of sim/mem/atomic.h), from the functional
 * executor's arithmetic (fpu_atomic), so the L2 computes exactly what
 * functional mode computes. The codes in struct mem_atom are enum ptx_aop
 * and enum ptx_type. */
#include "sim/func/atomic_ops.h"

#include <stdio.h>

#include "sim/func/fpu.h"
#include "sim/ptx/ir.h"

static unsigned elem_bytes(uint8_t type)
{
    return type < PTX_T_COUNT ? ptx_type_bytes((enum ptx_type)type) : 0;
}

static bool two_operands(uint8_t aop) { return aop == PTX_AOP_CAS; }

static uint64_t apply(uint8_t aop, uint8_t type, uint64_t old, uint64_t b, uint64_t c, bool ftz, bool *bad)
{
    return fpu_atomic((enum ptx_aop)aop, (enum ptx_type)type, old, b, c, ftz, bad);
}

static void name(uint8_t aop, uint8_t type, char *buf, size_t n)
{
    const char *a = ptx_aop_name((enum ptx_aop)aop);
    snprintf(buf, n, "%s%s", a[0] == '.' ? a + 1 : a, ptx_type_name((enum ptx_type)type));
}

const struct mem_atomic_ops func_atomic_ops = {elem_bytes, two_operands, apply, name};
