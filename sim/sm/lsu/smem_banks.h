/* sim/sm/lsu/smem_banks.h: shared-memory bank-conflict model of the LD/ST unit.
 *
 * What it models (spec baseline-gpu.md 1.2, 2.6 "Shared memory", 3.3): shared
 * memory is `smem_banks.n_banks` (32) banks of `smem_banks.width` (4 B) words,
 * bank = (address / width) mod n_banks. The whole warp is checked at once
 * (GPGPU-Sim `gpgpu_shmem_warp_parts 1`, unlimited broadcast). The access
 * takes `degree` cycles in the shared-memory pipe, where degree is the largest
 * number of *distinct* words requested in any one bank; lanes reading the same
 * word share one access (broadcast).
 *
 * Choices the spec leaves open (NOTE(...) in smem_banks.c, docs/coalesce.md):
 *  - Accesses wider than a bank word (8 and 16 B): with `wide = phases`
 *    (default, Fermi as the CUDA guide for compute capability 2.x describes)
 *    the warp is processed in phases of n_banks * width / size lanes: 64-bit
 *    accesses as two half-warps, 128-bit ones as four quarter-warps; within a
 *    phase each lane touches size / width consecutive words; the phases' degrees
 *    add up. With `wide = first_word` (GPGPU-Sim 3.x) each lane counts only the
 *    word of its first byte, in one pass.
 *  - Accesses narrower than a word (1, 2 B) touch the word that holds them.
 *  - Atomics: no broadcast. Every lane's word access counts, so lanes updating
 *    the same word serialise ([proposal]; GPGPU-Sim 3.x has no separate rule).
 *  - `warp_parts` > 1 splits the warp into that many lane groups whose degrees
 *    add up (GPGPU-Sim gpgpu_shmem_warp_parts); wide-access phases are never
 *    larger than a part.
 *
 * What it does not model: data (the functional model executes shared memory
 * at issue, DESIGN.md 4), the pipeline latency (the caller adds the LD/ST
 * stage latency), Fermi's lock-based shared atomics (ldslk/stsul loops), the
 * "+1 cycle" that the CUDA guide mentions for most 128-bit accesses, and any
 * cross-instruction bank interference. It is a pure function with no state,
 * so the init/tick/fini unit rule (STYLE.md item 1) does not apply:
 * smem_banks_init only derives constants from the config.
 *
 * Operation mix: every shared-memory warp instruction. Cost is O(words of one
 * phase), at most 32 words per phase; no allocation.
 */
#ifndef GPUSIM_SIM_SM_LSU_SMEM_BANKS_H
#define GPUSIM_SIM_SM_LSU_SMEM_BANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/stats.h"

struct cfg_key;
struct cfg_section;

#define SMEM_WARP_SIZE 32  /* lanes per warp */
#define SMEM_MAX_BANKS 64  /* largest smem_banks.n_banks */
#define SMEM_MAX_DEGREE 32 /* histogram range: degrees above this go to the overflow bin */

enum smem_wide_mode {
    SMEM_WIDE_PHASES,     /* Fermi: half-warp phases for 8 B, quarter-warp for 16 B */
    SMEM_WIDE_FIRST_WORD, /* GPGPU-Sim 3.x: only the first word of each lane counts */
};

/* Configuration (section "smem_banks", declared in smem_banks.c). */
struct smem_banks_cfg {
    uint64_t n_banks;    /* smem_banks.n_banks (banks): 32 on Fermi */
    uint64_t width;      /* smem_banks.width (bytes): bank word width, 4 on Fermi */
    uint64_t warp_parts; /* smem_banks.warp_parts (lane groups checked separately): 1 */
    int wide;            /* smem_banks.wide: enum smem_wide_mode */
    uint64_t latency;    /* smem.latency (cycles): a shared access completes latency - 1 cycles after its
                            bank cycles (1 = GPGPU-Sim 3.x; 4.2's -gpgpu_smem_latency 26 is 25 here) */
};

extern const struct cfg_section smem_banks_cfg_section;
/* The section's key table (see NOTE(cfg-offset) in smem_banks.c). */
extern const struct cfg_key *const smem_banks_cfg_keys;
extern const unsigned smem_banks_cfg_n_keys;

/* Fill *cfg with the built-in defaults (= the gtx480 values). */
void smem_banks_cfg_defaults(struct smem_banks_cfg *cfg);

/* Constants derived from the config (read-only afterwards). */
struct smem_banks {
    uint32_t n_banks;        /* banks */
    uint32_t width;          /* bytes per bank word */
    uint32_t width_shift;    /* log2(width) */
    uint32_t lanes_per_part; /* lanes per warp part (32 / warp_parts) */
    int wide;                /* enum smem_wide_mode */
};

void smem_banks_init(struct smem_banks *b, const struct smem_banks_cfg *cfg);

/* Lanes processed together in one phase for accesses of `size` bytes. */
unsigned smem_banks_lanes_per_phase(const struct smem_banks *b, unsigned size);

/* Cycles the shared-memory pipe needs for one warp instruction: the sum over
 * phases of the largest number of distinct words (all word accesses for
 * atomics) in any bank. active: lane mask; addr[lane]: shared-memory byte
 * address (only active lanes are read), naturally aligned to size; size: 1, 2,
 * 4, 8 or 16. Returns 0 when no lane is active. */
unsigned smem_banks_cycles(const struct smem_banks *b, uint32_t active, const uint64_t *addr, unsigned size,
                           bool atomic);

/* Statistics of one SM's shared memory. */
struct smem_stats {
    uint64_t accesses;       /* shared-memory warp instructions with >= 1 active lane */
    uint64_t cycles;         /* pipe cycles, summed (= sum of degrees) */
    uint64_t conflict_insts; /* instructions needing more cycles than phases (a real conflict) */
    struct stat_hist degree; /* histogram: cycles per instruction, bins 0..SMEM_MAX_DEGREE */
};

void smem_stats_init(struct smem_stats *s);
void smem_stats_fini(struct smem_stats *s);
/* Account one instruction: cycles from smem_banks_cycles, phases = number of
 * non-empty phases (the conflict-free minimum). */
void smem_stats_add(struct smem_stats *s, unsigned cycles, unsigned phases);
void smem_stats_register(struct smem_stats *s, struct stats *reg, const char *group, int instance);

/* Number of phases with at least one active lane (the conflict-free cycle
 * count) for this mask and size. */
unsigned smem_banks_min_cycles(const struct smem_banks *b, uint32_t active, unsigned size);

#endif /* GPUSIM_SIM_SM_LSU_SMEM_BANKS_H */
