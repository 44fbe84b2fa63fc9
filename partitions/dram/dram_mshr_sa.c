/* partitions/dram/dram_mshr_sa.c: MSHR-S+A (dram-intercore-locality.md §2.3,
 * seed 003's final policy): request score = the summed ages of the requests
 * the read serves (NOTE(mshr-age) in dram_mshr.c), row score = their sum.
 * A highly merged line still wins early, and a lone old read eventually
 * outscores it (no starvation). Selection in dram_mshr.c. */
#include "partitions/dram/dram_sched.h"

static bool mshr_sa_pick(struct dram *d, cycle_t cycle) { return dram_mshr_pick(d, cycle, true, true); }

const struct dram_sched_ops dram_sched_mshr_sa = {
    .name = "mshr_sa", .pick = mshr_sa_pick, .on_update = dram_mshr_on_update};
