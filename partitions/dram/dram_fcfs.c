/* partitions/dram/dram_fcfs.c: strict first-come first-served request selection
 * (knob dram.sched = fcfs; the spec's `fifo` alternative of §4.2).
 *
 * Only the oldest eligible waiting request may be handed to its bank, and
 * only when that bank has no request in service; otherwise nothing is handed
 * this cycle (head-of-line blocking, deliberately). Row hits get no
 * priority. Exists mainly to prove the policy table (dram_sched.h) and as a
 * lower bound for FR-FCFS studies.
 */
#include "partitions/dram/dram_sched.h"

static bool fcfs_pick(struct dram *d, cycle_t cycle)
{
    for (uint32_t s = d->arr_head; s != DRAM_NONE; s = d->slot[s].next) {
        if (!dram_sched_eligible(d, s))
            continue;
        if (d->bank[d->slot[s].req.bank].serving != DRAM_NONE)
            return false;
        dram_sched_hand(d, s, cycle);
        return true;
    }
    return false;
}

const struct dram_sched_ops dram_sched_fcfs = {.name = "fcfs", .pick = fcfs_pick}; /* no optional hooks */
