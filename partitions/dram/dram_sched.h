/* partitions/dram/dram_sched.h: DRAM request-scheduler policies (DESIGN.md §6: a
 * policy family is a small function table chosen by config, one file per
 * policy).
 *
 * A policy decides which waiting request is handed to a bank that has no
 * request in service. It is called once per DRAM cycle with work, before
 * command issue, and hands at most one request per call (spec §2.9,
 * [GPGPU-Sim] one hand-off per DRAM cycle). It only reads the controller's
 * queues and calls dram_sched_hand() to move the chosen slot to its bank;
 * command sequencing and timing stay in dram.c.
 *
 * Policies:
 *  - frfcfs (dram_frfcfs.c): per bank, oldest request to the bank's
 *    last-scheduled row, else oldest request to the bank; banks tried
 *    round-robin.
 *  - fcfs (dram_fcfs.c): the oldest waiting request overall, and only it:
 *    when its bank is busy nothing is handed (strict arrival order).
 *  - mshr_m, mshr_s, mshr_sa (dram_mshr_m.c, dram_mshr_s.c, dram_mshr_sa.c,
 *    shared dram_mshr.c): seed 003's inter-core-locality-aware selection by
 *    L2 MSHR merge count (M, S) or summed request age (S+A).
 */
#ifndef GPUSIM_PARTITIONS_DRAM_DRAM_SCHED_H
#define GPUSIM_PARTITIONS_DRAM_DRAM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "partitions/dram/dram.h"

struct dram_sched_ops {
    const char *name;
    /* Hand at most one waiting request to a free bank. Returns true when a
     * request was handed. */
    bool (*pick)(struct dram *d, cycle_t cycle);
    /* The optional entries below are NULL for frfcfs and fcfs. */
    /* Set up / free d->sched_state (dram_init / dram_fini / dram_set_sched). */
    void (*init)(struct dram *d);
    void (*fini)(struct dram *d);
    /* Every DRAM cycle the controller is ticked, before the scheduling
     * stage. Returns the next cycle the policy needs a tick for even with
     * nothing queued (a periodic table update), or CYCLE_NEVER. */
    cycle_t (*tick)(struct dram *d, cycle_t cycle);
    /* Request in slot s entered the scheduler queue (d->slot[s].req). */
    void (*on_enqueue)(struct dram *d, uint32_t s, cycle_t cycle);
    /* Update message for waiting slot s (dram_update): its req.merges was
     * raised from old_merges (exact-hardware path: only req.merges_live;
     * the scheduler's view changes through dummies, dram.c NOTE(mib-lazy)). s is DRAM_NONE when the read is still in the
     * delay line (its update is kept in the delay entry). */
    void (*on_update)(struct dram *d, uint32_t s, uint16_t old_merges, cycle_t cycle);
};

extern const struct dram_sched_ops dram_sched_frfcfs;
extern const struct dram_sched_ops dram_sched_fcfs;
extern const struct dram_sched_ops dram_sched_mshr_m;
extern const struct dram_sched_ops dram_sched_mshr_s;
extern const struct dram_sched_ops dram_sched_mshr_sa;

/* Shared by mshr_m / mshr_s / mshr_sa (dram_mshr.c): hand the best request
 * by score; sum = row score is the sum (MSHR-S, S+A) rather than the max
 * (MSHR-M); age = request score is the summed age (S+A) rather than the
 * merge count. */
bool dram_mshr_pick(struct dram *d, cycle_t cycle, bool sum, bool age);
void dram_mshr_on_update(struct dram *d, uint32_t s, uint16_t old_merges, cycle_t cycle);

/* Whether slot s may be scheduled now: in separate_rw mode only the
 * direction of the current mode (read or write drain) is eligible. */
static inline bool dram_sched_eligible(const struct dram *d, uint32_t s)
{
    return !d->cfg.separate_rw || d->slot[s].req.is_write == d->write_mode;
}

/* Move waiting slot s to its (free) bank as the request in service. */
void dram_sched_hand(struct dram *d, uint32_t s, cycle_t cycle);

#endif /* GPUSIM_PARTITIONS_DRAM_DRAM_SCHED_H */
