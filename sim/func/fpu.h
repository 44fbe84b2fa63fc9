/* sim/func/fpu.h: scalar PTX arithmetic for the functional executor.
 *
 * What is modelled: the value semantics of the PTX ISA's ALU, FPU and
 * conversion instructions on one lane: integer wrap-around, shift clamping,
 * saturation, bit-field operations, IEEE rounding modes (.rn/.rz/.rm/.rp and
 * the integer .rni/.rzi/.rmi/.rpi), .ftz, .sat, NaN and infinities, f16/bf16
 * storage formats. fp32 NaN results are the canonical 0x7fffffff that
 * NVIDIA GPUs produce; fp64 NaNs are the host's.
 *
 * What is not modelled: bit-exact .approx transcendental results (host libm
 * is used: at least as accurate as the SFU).
 *
 * Values are 64-bit register slots; narrower types live in the low bits and
 * every function reads only the bits of its type.
 */
#ifndef GPUSIM_SIM_FUNC_FPU_H
#define GPUSIM_SIM_FUNC_FPU_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/ptx/ir.h"

/* Result of a one-destination ALU/FPU/conversion instruction on one lane
 * with sources s[0..3] (absent sources are 0). Sets *bad when the
 * instruction/type combination is not supported (the caller faults). */
uint64_t fpu_eval(const struct ptx_insn *in, const uint64_t *s, bool *bad);
/* setp/set comparison of a and b with in->cmp and in->type2 (set) or in->type. */
bool fpu_compare(enum ptx_cmp cmp, enum ptx_type t, uint64_t a, uint64_t b, bool ftz);
/* Atomic / reduction operation: new value stored for old value `old`, operand
 * b (and c for cas), on type t (f16x2/bf16x2: per half). ftz flushes
 * subnormal float inputs and results to sign-preserving zero. */
uint64_t fpu_atomic(enum ptx_aop op, enum ptx_type t, uint64_t old, uint64_t b, uint64_t c,
                    bool ftz, bool *bad);
/* Value bits of type t (pred 1, 8/16/32/64). */
static inline unsigned fpu_type_bits(enum ptx_type t)
{
    switch (t) {
    case PTX_T_PRED: return 1;
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16: return 16;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    default: return 32;
    }
}

/* Sign- or zero-extend the low bits of v according to t (inline: the
 * executor's load path calls it for every lane). */
static inline uint64_t fpu_extend(uint64_t v, enum ptx_type t)
{
    unsigned w = fpu_type_bits(t);
    if (w >= 64)
        return v;
    v &= (1ull << w) - 1;
    if (ptx_type_is_signed(t) && (v >> (w - 1)) & 1)
        v |= ~((1ull << w) - 1);
    return v;
}

#endif /* GPUSIM_SIM_FUNC_FPU_H */
