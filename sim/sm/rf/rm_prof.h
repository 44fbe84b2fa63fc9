/* sim/sm/rf/rm_prof.h: the move counts of a racetrack register file
 * (Liang's profile, rf-racetrack-liang.md 2.2) and the profile-guided
 * layout built from them (rf.rm_layout = liang; docs/racetrack.md).
 *
 * What this is: a recorder, one per SM, that counts for each bank how often
 * the bank serves slot j right after slot i (a "move", in service order,
 * reads and writes alike, self-moves dropped; spec OQ-2: service order).
 * Slots are numbered per bank in the DIRECT (original) order: the bank's
 * (warp, register) pairs in warp-major order. At simulator teardown each SM
 * writes its counts, one record per kernel launch, to
 * `<rf.rm_profile_out>.sm<id>` (text; SM files are summed by the reader in
 * SM order, so the profile is the same for any host thread count). A later
 * run with rf.rm_layout = liang and rf.rm_profile_in = the same prefix sums
 * the SM files of its launch, then groups and arranges every bank's slots
 * (rm_map.c: Liang's Algorithm 1 and the exact arrangement) into the
 * offset table of that kernel.
 *
 * What it is not: a trace (counts only), or a functional profile (the
 * order is the timing model's, with the layout of the profiling run; Liang
 * profiles with the unoptimised DIRECT layout, which the experiment uses).
 */
#ifndef GPUSIM_SIM_SM_RF_RM_PROF_H
#define GPUSIM_SIM_SM_RF_RM_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sm/rf/rf.h"

#define RM_PROF_FORMAT "gpusim-rm-moves"

/* Bank of register r of warp w with B banks split among S schedulers
 * (S = 1: (r + w) mod B; Mao's warp-register remapping otherwise). */
static inline uint32_t rm_bank_fn(uint32_t B, uint32_t S, uint32_t w, uint32_t r)
{
    if (S <= 1)
        return (r + w) % B;
    uint32_t bs = B / S;
    return (w % S) * bs + (r + w / S) % bs;
}

struct rm_prof;

/* A recorder when cfg->rm_profile_out is set, else NULL. */
struct rm_prof *rm_prof_create(const struct rf_cfg *cfg, uint32_t n_banks, uint32_t domains);
/* Writes the SM's file (when anything was recorded) and frees. */
void rm_prof_destroy(struct rm_prof *p);
/* A kernel starts on the SM: a new record (S: schedulers splitting banks). */
void rm_prof_kernel(struct rm_prof *p, const struct rf_kernel_info *ki, uint32_t n_banks, uint32_t S);
/* Bank b serves (warp, reg). */
void rm_prof_move(struct rm_prof *p, uint32_t b, uint32_t warp, uint32_t reg);

/* Predicted shift costs of the last rm_prof_map (Liang eq. 3, summed over
 * banks): the DIRECT layout's and the computed layout's. */
struct rm_prof_cost {
    uint64_t direct, liang;
};

/* Fills off[W * R] (and init_pos[], 0) for launch ki->launch of kernel
 * ki->kernel_name from the profile cfg->rm_profile_in; panics with file and
 * line when the profile is missing, malformed or of another kernel or
 * occupancy. */
struct rm_prof_cost rm_prof_map(const struct rf_cfg *cfg, const struct rf_kernel_info *ki, uint32_t launch,
                                uint32_t S, uint32_t *off, uint32_t W, uint32_t R, uint32_t *init_pos);

/* The path of a profile key ("none" or empty: NULL). */
const char *rm_prof_path(const char *value);

#endif /* GPUSIM_SIM_SM_RF_RM_PROF_H */
