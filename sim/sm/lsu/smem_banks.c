/* sim/sm/lsu/smem_banks.c: shared-memory bank-conflict degree. See smem_banks.h.
 *
 * NOTE(wide-phases): the spec (2.6) says "the whole warp is checked at once"
 * and is silent on 8 and 16 B accesses. 32 banks x 4 B serve 128 B per cycle,
 * so a warp of 8 B accesses (256 B) cannot be served in one cycle even without
 * conflicts. We follow Fermi as the CUDA C guide (compute capability 2.x,
 * "64-bit accesses" / "128-bit accesses") describes it: the request is split
 * into half-warps (8 B) or quarter-warps (16 B), and a conflict happens only
 * between lanes of the same phase that access different words of one bank.
 * Unit-stride doubles therefore take 2 cycles (2 phases x degree 1), the
 * minimum. GPGPU-Sim 3.x instead looks only at each lane's first address
 * (first 4 B word) in one pass; that rule is available as wide = first_word.
 * Both give 2 cycles for unit-stride doubles and 4 for unit-stride float4;
 * they differ when all 32 lanes read the same double (phases: 2 half-warps x
 * 1 = 2 cycles; first_word: one broadcast word = 1 cycle).
 *
 * NOTE(smem-atomic): atomics get no broadcast: lanes updating the same word
 * are serialised, so the degree counts every lane's word access per bank.
 * [proposal] Fermi implements shared atomics as lock/load/store loops, which
 * this does not model.
 */
#include "sim/sm/lsu/smem_banks.h"

#include <stddef.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"

/* ------------------------------------------------------------------ config */


static const char *const smem_wide_choices[] = {"phases", "first_word", NULL};

static const struct cfg_key smem_banks_keys[] = {
    {"n_banks", CFG_UINT, offsetof(struct smem_banks_cfg, n_banks), 1, SMEM_MAX_BANKS, "32", NULL,
     "shared-memory banks per SM (spec 1.2: 32 banks x 4 B)"},
    {"width", CFG_SIZE, offsetof(struct smem_banks_cfg, width), 4, 8, "4", NULL,
     "bank word width (bytes); bank = (address / width) mod n_banks"},
    {"warp_parts", CFG_UINT, offsetof(struct smem_banks_cfg, warp_parts), 1, 32, "1", NULL,
     "lane groups whose conflicts are counted separately (GPGPU-Sim gpgpu_shmem_warp_parts 1 = whole warp)"},
    {"wide", CFG_ENUM, offsetof(struct smem_banks_cfg, wide), 0, 0, "phases", smem_wide_choices,
     "8/16 B accesses: phases = Fermi half-/quarter-warp phases; first_word = GPGPU-Sim 3.x (first word only)"},
    {"latency", CFG_UINT, offsetof(struct smem_banks_cfg, latency), 1, 256, "1", NULL,
     "cycles from the end of a shared access's bank cycles to its completion, pipelined (1 = GPGPU-Sim 3.x)"},
};

static void smem_banks_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct smem_banks_cfg *c = sec;
    (void)all;
    if (!is_pow2_u64(c->width))
        cfg_check_fail(ck, "smem.width", "width %llu is not a power of two", (unsigned long long)c->width);
    if (!is_pow2_u64(c->warp_parts) || c->warp_parts > SMEM_WARP_SIZE)
        cfg_check_fail(ck, "smem.warp_parts", "warp_parts %llu must be a power of two dividing 32",
                       (unsigned long long)c->warp_parts);
}

const struct cfg_section smem_banks_cfg_section = {
    "smem", "shared-memory banks (conflict model; part of smem.*)", offsetof(struct sim_cfg, smem_banks),
    smem_banks_keys, ARRAY_LEN(smem_banks_keys), smem_banks_cfg_check};

const struct cfg_key *const smem_banks_cfg_keys = smem_banks_keys;
const unsigned smem_banks_cfg_n_keys = ARRAY_LEN(smem_banks_keys);

void smem_banks_cfg_defaults(struct smem_banks_cfg *cfg)
{
    cfg->n_banks = 32;   /* spec 1.2, GPGPU-Sim gpgpu_shmem_num_banks 32 */
    cfg->width = 4;      /* spec 1.2 / 2.6: 4 B words */
    cfg->warp_parts = 1; /* spec 2.6, GPGPU-Sim gpgpu_shmem_warp_parts 1 */
    cfg->wide = SMEM_WIDE_PHASES; /* NOTE(wide-phases) */
    cfg->latency = 1;
}

/* ------------------------------------------------------------------- model */

void smem_banks_init(struct smem_banks *b, const struct smem_banks_cfg *cfg)
{
    SIM_ASSERT(cfg->n_banks >= 1 && cfg->n_banks <= SMEM_MAX_BANKS, "smem.n_banks %llu",
               (unsigned long long)cfg->n_banks);
    SIM_ASSERT(is_pow2_u64(cfg->width) && cfg->width >= 4 && cfg->width <= 8, "smem.width %llu",
               (unsigned long long)cfg->width);
    SIM_ASSERT(is_pow2_u64(cfg->warp_parts) && cfg->warp_parts <= SMEM_WARP_SIZE, "smem.warp_parts %llu",
               (unsigned long long)cfg->warp_parts);
    SIM_ASSERT(cfg->wide == SMEM_WIDE_PHASES || cfg->wide == SMEM_WIDE_FIRST_WORD, "smem.wide %d", cfg->wide);
    b->n_banks = (uint32_t)cfg->n_banks;
    b->width = (uint32_t)cfg->width;
    b->width_shift = (uint32_t)__builtin_ctzll(cfg->width);
    b->lanes_per_part = SMEM_WARP_SIZE / (uint32_t)cfg->warp_parts;
    b->wide = cfg->wide;
}

unsigned smem_banks_lanes_per_phase(const struct smem_banks *b, unsigned size)
{
    if (b->wide == SMEM_WIDE_FIRST_WORD || size <= b->width)
        return b->lanes_per_part;
    unsigned lp = b->n_banks * b->width / size; /* lanes whose words fill the banks once */
    if (lp == 0)
        lp = 1;
    return MIN(lp, b->lanes_per_part);
}

static inline uint32_t phase_mask(unsigned first, unsigned lanes)
{
    return lanes >= 32 ? ~0u : (((1u << lanes) - 1) << first);
}

unsigned smem_banks_min_cycles(const struct smem_banks *b, uint32_t active, unsigned size)
{
    unsigned lp = smem_banks_lanes_per_phase(b, size), n = 0;
    for (unsigned first = 0; first < SMEM_WARP_SIZE; first += lp)
        n += (active & phase_mask(first, MIN(lp, SMEM_WARP_SIZE - first))) != 0;
    return n;
}

unsigned smem_banks_cycles(const struct smem_banks *b, uint32_t active, const uint64_t *addr, unsigned size,
                           bool atomic)
{
    SIM_ASSERT(size == 1 || size == 2 || size == 4 || size == 8 || size == 16, "smem: access size %u", size);
    const unsigned lp = smem_banks_lanes_per_phase(b, size);
    const unsigned words_per_lane =
        (b->wide == SMEM_WIDE_FIRST_WORD || size <= b->width) ? 1u : size >> b->width_shift;
    unsigned total = 0;

    for (unsigned first = 0; first < SMEM_WARP_SIZE; first += lp) {
        uint32_t pm = active & phase_mask(first, MIN(lp, SMEM_WARP_SIZE - first));
        if (!pm)
            continue;
        /* The phase's lowest and highest address and their OR (for the
         * alignment test) in one pass, a whole phase without the lane
         * search; the words are the addresses shifted, which keeps the
         * order (session 36: 17 host instructions a lane before, about 6). */
        uint64_t lo = UINT64_MAX, hi = 0, orv = 0;
        if (pm == ~0u) {
            for (unsigned lane = 0; lane < SMEM_WARP_SIZE; lane++) {
                uint64_t a = addr[lane];
                orv |= a;
                lo = a < lo ? a : lo;
                hi = a > hi ? a : hi;
            }
        } else {
            for (uint32_t m = pm; m; m &= m - 1) {
                uint64_t a = addr[__builtin_ctz(m)];
                orv |= a;
                lo = a < lo ? a : lo;
                hi = a > hi ? a : hi;
            }
        }
        if (UNLIKELY(orv & (size - 1)))
            for (uint32_t m = pm; m; m &= m - 1) {
                unsigned lane = (unsigned)__builtin_ctz(m);
                if (addr[lane] & (size - 1))
                    sim_panic("smem: lane %u address 0x%llx is not aligned to its size %u", lane,
                              (unsigned long long)addr[lane], size);
            }
        lo >>= b->width_shift;
        hi >>= b->width_shift;
        /* NOTE(smem-span): two different words in one bank are at least
         * n_banks words apart, so when every word of the phase lies within
         * n_banks consecutive words, distinct words sit in distinct banks
         * and equal ones broadcast: degree 1 without listing and sorting
         * the words (unit stride, broadcast, and most tiled patterns).
         * Atomics count duplicates (NOTE(smem-atomic)) and take the full
         * count below. */
        if (!atomic && hi + words_per_lane - 1 - lo < b->n_banks) {
            total += 1;
            continue;
        }
        /* Words of this phase: at most 32 for sizes <= width (one word per
         * lane), else lp x size / width <= n_banks <= 64. */
        uint64_t w[SMEM_WARP_SIZE * 4];
        unsigned nw = 0;
        for (uint32_t m = pm; m; m &= m - 1) {
            uint64_t w0 = addr[__builtin_ctz(m)] >> b->width_shift;
            for (unsigned k = 0; k < words_per_lane; k++)
                w[nw++] = w0 + k;
        }
        /* Distinct words: insertion sort (typical patterns arrive sorted, so
         * this is linear) and skip duplicates while counting; atomics count
         * duplicates too (NOTE(smem-atomic)). */
        for (unsigned i = 1; i < nw; i++) {
            uint64_t x = w[i];
            unsigned j = i;
            while (j > 0 && w[j - 1] > x) {
                w[j] = w[j - 1];
                j--;
            }
            w[j] = x;
        }
        uint8_t cnt[SMEM_MAX_BANKS];
        memset(cnt, 0, b->n_banks);
        unsigned deg = 0;
        for (unsigned i = 0; i < nw; i++) {
            if (!atomic && i > 0 && w[i] == w[i - 1])
                continue; /* broadcast: same word as the previous one */
            unsigned bank = (unsigned)(w[i] % b->n_banks);
            if (++cnt[bank] > deg)
                deg = cnt[bank];
        }
        total += deg;
    }
    return total;
}

/* -------------------------------------------------------------- statistics */

void smem_stats_init(struct smem_stats *s)
{
    s->accesses = s->cycles = s->conflict_insts = 0;
    stat_hist_init(&s->degree, SMEM_MAX_DEGREE + 1, 1);
}

void smem_stats_fini(struct smem_stats *s) { stat_hist_fini(&s->degree); }

void smem_stats_add(struct smem_stats *s, unsigned cycles, unsigned phases)
{
    if (cycles == 0)
        return;
    s->accesses++;
    s->cycles += cycles;
    s->conflict_insts += cycles > phases;
    stat_hist_add(&s->degree, cycles);
}

void smem_stats_register(struct smem_stats *s, struct stats *reg, const char *group, int instance)
{
    stats_counter(reg, group, instance, "accesses", &s->accesses, "shared-memory warp instructions");
    stats_counter(reg, group, instance, "cycles", &s->cycles,
                  "shared-memory pipe cycles (sum of conflict degrees)");
    stats_counter(reg, group, instance, "conflict_insts", &s->conflict_insts,
                  "shared-memory instructions slower than their conflict-free minimum");
    stats_hist(reg, group, instance, "degree", &s->degree,
               "conflict degree: cycles per shared-memory warp instruction");
}
