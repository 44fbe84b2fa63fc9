/* partitions/dram/dram_frfcfs.c: FR-FCFS request selection, per bank (spec
 * baseline-gpu.md §2.9, after Rixner et al.; [GPGPU-Sim] frfcfs_scheduler).
 *
 * For each bank that has no request in service, in round-robin order
 * starting after the bank served last: take the oldest waiting request to
 * the bank's last-scheduled row; failing that, the oldest request to the
 * bank, whose row then becomes the bank's current row. At most one request
 * is handed per DRAM cycle. Each bank's waiting list is kept in arrival
 * order, so "oldest" is the first match of a front-to-back scan; the scan is
 * bounded by the queue size (16 by default).
 *
 * In separate_rw mode only requests of the current direction are eligible
 * (read mode / write-drain mode, dram-intercore-locality.md §2.2 step 3).
 */
#include "partitions/dram/dram_sched.h"
#include "sim/mem/ring.h"

static bool frfcfs_pick(struct dram *d, cycle_t cycle)
{
    uint32_t nb = (uint32_t)d->cfg.banks;
    uint64_t cand[DRAM_BANK_WORDS]; /* idle banks with waiting requests (NOTE(bank-masks) in dram.h) */
    for (uint32_t w = 0; w < d->mask_words; w++)
        cand[w] = d->queued[w] & ~d->busy[w];
    for (uint32_t b = dram_mask_rot(cand, d->mask_words, d->sched_rr, UINT32_MAX); b != UINT32_MAX;
         b = dram_mask_rot(cand, d->mask_words, d->sched_rr, b)) {
        struct dram_bank *bk = &d->bank[b];
        SIM_DEBUG_ASSERT(bk->serving == DRAM_NONE && bk->head != DRAM_NONE, "dram %u: bank masks stale at %u",
                         d->channel_id, b);
        uint32_t oldest = DRAM_NONE, hit = DRAM_NONE;
        for (uint32_t s = bk->head; s != DRAM_NONE; s = d->slot[s].bnext) {
            if (!dram_sched_eligible(d, s))
                continue;
            if (oldest == DRAM_NONE)
                oldest = s;
            if (d->slot[s].req.row == bk->sched_row) {
                hit = s;
                break;
            }
        }
        uint32_t pick = hit != DRAM_NONE ? hit : oldest;
        if (pick == DRAM_NONE)
            continue;
        dram_sched_hand(d, pick, cycle);
        d->sched_rr = ring_wrap(b + 1, nb);
        return true;
    }
    return false;
}

const struct dram_sched_ops dram_sched_frfcfs = {.name = "frfcfs", .pick = frfcfs_pick}; /* no optional hooks */
