/* partitions/dram/dram_mshr.c: the shared selection of the inter-core-
 * locality-aware schedulers (dram-intercore-locality.md §2.3, seed 003;
 * policies in dram_mshr_m.c, dram_mshr_s.c and dram_mshr_sa.c).
 *
 * What is modelled: per bank with no request in service, in round-robin
 * order from the bank after the one served last (as frfcfs):
 *   1. among the eligible waiting requests to the bank's last-scheduled
 *      row, the one with the largest request score s(r);
 *   2. otherwise the row with the largest row score S(b, row) (max or sum
 *      of s(r) over its eligible requests) becomes the bank's row, and its
 *      request with the largest s(r) is handed.
 * Ties go to the oldest request (the bank list is in arrival order and
 * only a strictly larger score replaces the current choice; spec §2.3 step
 * 6.3). With every merge count 1, MSHR-M is exactly frfcfs (every row
 * scores 1, so the oldest request's row wins) and MSHR-S opens the row with
 * the most pending requests. At most one request is handed per DRAM cycle.
 *
 * s(r) is the read's merge count (req.merges: the requests its L2 MSHR entry
 * holds, raised by dram_update when later misses merge) for MSHR-M and
 * MSHR-S, and the sum of those requests' ages for MSHR-S+A (NOTE(mshr-age)).
 * Writes and reads without merge information count as one request
 * (NOTE(mshr-write)).
 *
 * Two sources of the scores (dram.icl_exact_hw):
 *  - exact hardware (default): the read's DRAM-side MIB entry (mib_m,
 *    mib_age; dram.c NOTE(mib-lazy)), set from the information the read
 *    carried out of the L2 and from dummy messages that crossed the
 *    L2->DRAM link (mempart.c NOTE(icl-dummy)): 4-bit counts, 15-bit
 *    saturating ages, stale until a dummy arrives;
 *  - oracle: req.merges / req.t_create_sum, which dram_update raises the
 *    moment an L2 merge happens (no link, no saturation; the spec's
 *    icl.exact_hw = 0, kept to bound what staleness costs).
 */
#include "partitions/dram/dram_sched.h"
#include "sim/mem/ring.h"

/* NOTE(mshr-write): a write (unified queue) or a read pushed without a
 * merge count scores 1. In separate_rw mode writes are scheduled only in
 * write-drain mode, where every score is 1: FR-FCFS, as the spec asks. */
static uint64_t score_merges(const struct dram *d, uint32_t s, cycle_t cycle)
{
    (void)cycle;
    const struct dram_req *r = &d->slot[s].req;
    if (d->mib_on)
        return r->is_write ? 1u : d->slot[s].mib_m;
    return r->is_write || r->merges == 0 ? 1u : r->merges;
}

/* NOTE(mshr-age): MSHR-S+A's request score is the sum of the ages of the
 * requests the read serves, in DRAM cycles: merges x now - (sum of their
 * creation times), with creation times converted from SM pipeline cycles
 * (dram_tc_to_cycles of req.t_create_sum; the floor is taken of the sum).
 * It is computed at pick time from the current cycle, so it needs no
 * per-cycle update and is exact whether or not idle cycles are ticked.
 * This is the spec's oracle mode (icl.exact_hw = 0: no 15-bit saturation,
 * no transit delay). A read without merge information counts as one
 * request of its own age (req.t_create); a write scores the cycles it has
 * waited in the controller (writes carry no useful creation time). */
static uint64_t score_age(const struct dram *d, uint32_t s, cycle_t cycle)
{
    const struct dram_slot *sl = &d->slot[s];
    const struct dram_req *r = &sl->req;
    if (r->is_write)
        return cycle - sl->enter_cycle;
    if (d->mib_on)
        return dram_mib_age(d, s, cycle);
    uint64_t m = r->merges ? r->merges : 1;
    uint64_t created = dram_tc_to_cycles(d, r->merges && r->t_create_sum ? r->t_create_sum : r->t_create * m);
    uint64_t now = m * cycle;
    return now > created ? now - created : 0;
}

typedef uint64_t (*score_fn)(const struct dram *d, uint32_t s, cycle_t cycle);

/* Row score of `row` in bank b over eligible waiting requests. */
static uint64_t row_score(const struct dram *d, const struct dram_bank *bk, uint32_t row, bool sum, score_fn sf,
                          cycle_t cycle)
{
    uint64_t sc = 0;
    for (uint32_t s = bk->head; s != DRAM_NONE; s = d->slot[s].bnext) {
        if (d->slot[s].req.row != row || !dram_sched_eligible(d, s))
            continue;
        uint64_t v = sf(d, s, cycle);
        if (sum)
            sc += v;
        else if (v > sc)
            sc = v;
    }
    return sc;
}

/* The eligible request of bank b to `row` with the largest score (oldest on ties). */
static uint32_t best_in_row(const struct dram *d, const struct dram_bank *bk, uint32_t row, score_fn sf,
                            cycle_t cycle)
{
    uint32_t best = DRAM_NONE;
    uint64_t best_sc = 0;
    for (uint32_t s = bk->head; s != DRAM_NONE; s = d->slot[s].bnext) {
        if (d->slot[s].req.row != row || !dram_sched_eligible(d, s))
            continue;
        uint64_t v = sf(d, s, cycle);
        if (best == DRAM_NONE || v > best_sc) {
            best = s;
            best_sc = v;
        }
    }
    return best;
}

bool dram_mshr_pick(struct dram *d, cycle_t cycle, bool sum, bool age)
{
    score_fn sf = age ? score_age : score_merges;
    uint32_t nb = (uint32_t)d->cfg.banks;
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t b = ring_wrap(d->sched_rr + i, nb);
        struct dram_bank *bk = &d->bank[b];
        if (bk->serving != DRAM_NONE || bk->head == DRAM_NONE)
            continue;
        uint32_t pick = best_in_row(d, bk, bk->sched_row, sf, cycle); /* rule 1: hits to the current row */
        if (pick == DRAM_NONE) {
            /* rule 2: the row with the largest score; scanning in arrival
             * order and replacing only on a strictly larger score keeps the
             * row of the oldest request on ties. Rows are scored once each
             * (a row already seen earlier in the list is skipped). */
            uint64_t best_sc = 0;
            uint32_t best_row = DRAM_NONE;
            for (uint32_t s = bk->head; s != DRAM_NONE; s = d->slot[s].bnext) {
                if (!dram_sched_eligible(d, s))
                    continue;
                uint32_t row = d->slot[s].req.row;
                bool seen = false;
                for (uint32_t t = bk->head; t != s && !seen; t = d->slot[t].bnext)
                    seen = d->slot[t].req.row == row && dram_sched_eligible(d, t);
                if (seen)
                    continue;
                uint64_t sc = row_score(d, bk, row, sum, sf, cycle);
                if (best_row == DRAM_NONE || sc > best_sc) {
                    best_row = row;
                    best_sc = sc;
                }
            }
            if (best_row == DRAM_NONE)
                continue;
            pick = best_in_row(d, bk, best_row, sf, cycle);
        }
        /* statistics: what FR-FCFS would have handed to this bank */
        uint32_t fr = DRAM_NONE, oldest = DRAM_NONE;
        for (uint32_t s = bk->head; s != DRAM_NONE && fr == DRAM_NONE; s = d->slot[s].bnext) {
            if (!dram_sched_eligible(d, s))
                continue;
            if (oldest == DRAM_NONE)
                oldest = s;
            if (d->slot[s].req.row == bk->sched_row)
                fr = s;
        }
        if (fr == DRAM_NONE) {
            fr = oldest;
            if (d->slot[pick].req.row != d->slot[oldest].req.row)
                d->st.row_switch_score++;
        }
        if (fr != pick)
            d->st.reorders++;
        dram_sched_hand(d, pick, cycle);
        d->sched_rr = ring_wrap(b + 1, nb);
        return true;
    }
    return false;
}

void dram_mshr_on_update(struct dram *d, uint32_t s, uint16_t old_merges, cycle_t cycle)
{
    /* The count is already in req.merges (oracle) or req.merges_live
     * (exact path, statistics only: dram_update); scores are read at pick
     * time, so nothing is cached. The entry exists so that the memory
     * partition wires its L2 merge hook (dram_sched_wants_update). */
    (void)d, (void)s, (void)old_merges, (void)cycle;
}
