/* sync/atomics.h: named helpers for every cross-thread access (STYLE.md 12).
 *
 * Shared words are _Atomic and are only touched through these helpers, each
 * with an explicit memory order, so a reader can grep for every place where
 * threads communicate. Also the CPU pause hint used in spin loops.
 */
#ifndef GPUSIM_SYNC_ATOMICS_H
#define GPUSIM_SYNC_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

typedef _Atomic uint32_t atomic_u32;
typedef _Atomic uint64_t atomic_u64;

static inline uint32_t at_load_acq_u32(const atomic_u32 *p) { return atomic_load_explicit(p, memory_order_acquire); }
static inline uint32_t at_load_rlx_u32(const atomic_u32 *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static inline void at_store_rel_u32(atomic_u32 *p, uint32_t v) { atomic_store_explicit(p, v, memory_order_release); }
static inline void at_store_rlx_u32(atomic_u32 *p, uint32_t v) { atomic_store_explicit(p, v, memory_order_relaxed); }
static inline uint32_t at_fetch_sub_acqrel_u32(atomic_u32 *p, uint32_t v) { return atomic_fetch_sub_explicit(p, v, memory_order_acq_rel); }
static inline uint32_t at_fetch_add_acqrel_u32(atomic_u32 *p, uint32_t v) { return atomic_fetch_add_explicit(p, v, memory_order_acq_rel); }
static inline uint64_t at_load_acq_u64(const atomic_u64 *p) { return atomic_load_explicit(p, memory_order_acquire); }
static inline uint64_t at_load_rlx_u64(const atomic_u64 *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static inline void at_store_rel_u64(atomic_u64 *p, uint64_t v) { atomic_store_explicit(p, v, memory_order_release); }
static inline void at_store_rlx_u64(atomic_u64 *p, uint64_t v) { atomic_store_explicit(p, v, memory_order_relaxed); }
static inline uint64_t at_fetch_add_rlx_u64(atomic_u64 *p, uint64_t v) { return atomic_fetch_add_explicit(p, v, memory_order_relaxed); }

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

#endif /* GPUSIM_SYNC_ATOMICS_H */
