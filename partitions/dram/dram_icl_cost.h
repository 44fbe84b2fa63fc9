/* partitions/dram/dram_icl_cost.h: storage cost of seed 003's MSHR-informed
 * DRAM scheduling, from the configuration (dram_icl_cost.c). */
#ifndef GPUSIM_PARTITIONS_DRAM_DRAM_ICL_COST_H
#define GPUSIM_PARTITIONS_DRAM_DRAM_ICL_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "partitions/dram/dram.h"

struct dram_icl_cost {
    uint64_t l2_mshr;        /* L2 MSHR entries per slice (= L2-side MIB entries) */
    uint64_t rdq;            /* read-queue entries (= DRAM-side MIB and row-table entries) */
    uint64_t l2_mib_bytes;   /* per L2 slice (bytes) */
    uint64_t dram_mib_bytes; /* per controller (bytes) */
    uint64_t row_table_bytes;/* per controller (bytes) */
    uint64_t adders;         /* 15-bit adders per controller */
    uint64_t adder_bytes;    /* their SRAM-equivalent storage (bytes) */
    uint64_t ctrl_bytes;     /* controller total (bytes) */
    bool exact_hw;           /* dram.icl_exact_hw: the simulated scheduler is this hardware (else the oracle) */
    bool age_total;          /* dram.icl_age_mode = total: the L2 side recomputes age sums (not costed) */
};

void dram_icl_cost(uint64_t l2_mshr, const struct dram_cfg *d, struct dram_icl_cost *c);
void dram_icl_cost_print(FILE *f, const struct dram_icl_cost *c);

#endif /* GPUSIM_PARTITIONS_DRAM_DRAM_ICL_COST_H */
