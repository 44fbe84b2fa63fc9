/* partitions/dram/dram_icl_cost.c: the storage cost of seed 003's
 * inter-core-locality scheduling (thesis §4.5, dram-intercore-locality.md
 * §4.1), computed from the configuration, not simulated. Printed by
 * `gpusim config --show` when dram.sched is an MSHR policy.
 *
 * Field widths are the thesis's: merge count 4 bits, age 15, valid 1, block
 * address 24 (a 32-bit address with 128 B lines needs 25: spec OQ-4; kept
 * at 24 to match the thesis), row score 19; bank and row bits follow
 * dram.banks and dram.rows. An adder of 15 bits is counted as 85 SRAM bits
 * (34 transistors per full-adder bit, 6 per SRAM bit), two adders per
 * read-queue entry (MIB age and row score).
 */
#include "partitions/dram/dram_icl_cost.h"

static uint64_t bits_for(uint64_t n)
{
    uint64_t b = 0;
    while ((1ull << b) < n)
        b++;
    return b;
}

void dram_icl_cost(uint64_t l2_mshr, const struct dram_cfg *d, struct dram_icl_cost *c)
{
    uint64_t rdq = d->separate_rw ? d->rdq : d->queue;
    c->l2_mshr = l2_mshr;
    c->rdq = rdq;
    c->l2_mib_bytes = (l2_mshr * (4 + 15 + 1) + 7) / 8;
    c->dram_mib_bytes = (rdq * (24 + 4 + 15) + 7) / 8;
    c->row_table_bytes = (rdq * (bits_for(d->banks) + bits_for(d->rows) + 19) + 7) / 8;
    c->adders = 2 * rdq;
    c->adder_bytes = (c->adders * 85 + 7) / 8;
    c->ctrl_bytes = c->dram_mib_bytes + c->row_table_bytes + c->adder_bytes;
    c->exact_hw = d->icl_exact_hw;
    c->age_total = d->icl_age_mode == DRAM_ICL_AGE_TOTAL;
}

void dram_icl_cost_print(FILE *f, const struct dram_icl_cost *c)
{
    fprintf(f, "# Storage of the MSHR-informed DRAM scheduler (003 section 4.5; partitions/dram/dram_icl_cost.c)\n");
    fprintf(f, "#   L2-side MIB, per L2 slice: %llu entries x 20 bits = %llu B (thesis 160 B)\n",
            (unsigned long long)c->l2_mshr, (unsigned long long)c->l2_mib_bytes);
    fprintf(f, "#   DRAM-side MIB: %llu entries x 43 bits = %llu B (thesis 344 B)\n", (unsigned long long)c->rdq,
            (unsigned long long)c->dram_mib_bytes);
    fprintf(f, "#   row-score table: %llu entries = %llu B (thesis 280 B)\n", (unsigned long long)c->rdq,
            (unsigned long long)c->row_table_bytes);
    fprintf(f, "#   %llu x 15-bit adders (85 SRAM bits each) = %llu B (thesis 1360 B)\n",
            (unsigned long long)c->adders, (unsigned long long)c->adder_bytes);
    fprintf(f, "#   controller total: %llu B (thesis 1984 B)\n", (unsigned long long)c->ctrl_bytes);
    if (!c->exact_hw)
        fprintf(f, "#   (dram.icl_exact_hw = false: the simulation uses the oracle, not this hardware)\n");
    else if (c->age_total)
        fprintf(f, "#   (dram.icl_age_mode = total: the L2 side also recomputes age sums per send, not costed)\n");
}
