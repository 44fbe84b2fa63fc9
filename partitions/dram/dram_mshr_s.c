/* partitions/dram/dram_mshr_s.c: MSHR-S (dram-intercore-locality.md §2.3,
 * seed 003): request score = merge count, row score = the sum of the row's
 * request scores (with every count 1: the row with most pending requests,
 * Rixner et al.'s "most pending"). Selection in dram_mshr.c. */
#include "partitions/dram/dram_sched.h"

static bool mshr_s_pick(struct dram *d, cycle_t cycle) { return dram_mshr_pick(d, cycle, true, false); }

const struct dram_sched_ops dram_sched_mshr_s = {
    .name = "mshr_s", .pick = mshr_s_pick, .on_update = dram_mshr_on_update};
