/* partitions/dram/dram_mshr_m.c: MSHR-M (dram-intercore-locality.md §2.3,
 * seed 003): request score = merge count, row score = the largest request
 * score of the row. Selection in dram_mshr.c. */
#include "partitions/dram/dram_sched.h"

static bool mshr_m_pick(struct dram *d, cycle_t cycle) { return dram_mshr_pick(d, cycle, false, false); }

const struct dram_sched_ops dram_sched_mshr_m = {
    .name = "mshr_m", .pick = mshr_m_pick, .on_update = dram_mshr_on_update};
