/* sim/func/atomic_ops.h: the PTX implementation of the memory side's atomic
 * interface (sim/mem/atomic.h), handed to the L2 by the GPU assembly. */
#ifndef GPUSIM_SIM_FUNC_ATOMIC_OPS_H
#define GPUSIM_SIM_FUNC_ATOMIC_OPS_H

#include "sim/mem/atomic.h"

extern const struct mem_atomic_ops func_atomic_ops;

#endif /* GPUSIM_SIM_FUNC_ATOMIC_OPS_H */
