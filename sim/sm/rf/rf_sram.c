/* sim/sm/rf/rf_sram.c: the SRAM register-file policy (spec baseline-gpu.md
 * 1.2, 3.2: one cycle per bank access; docs/rf.md).
 *
 * Models: register r of warp w in bank (r + w) mod n_banks ([GPGPU-Sim]
 * bank_use_warp_offset), every read or write keeps its bank busy for one RF
 * tick. Nothing else: no state, no tick of its own (CYCLE_NEVER), writebacks
 * go straight to the banks, no warp is ever held back from issue. Those
 * hooks are NULL, which the unit (rf.h) defines as exactly these defaults;
 * bank_of and access stay NULL so that the mapping (rf_bank_skewed) and the
 * fixed 1-tick access time are inlined in the hot path of every operand
 * (NOTE(sram-inline): an indirect call per access cost measurable speed).
 */
#include "sim/sm/rf/rf.h"

const struct rf_policy_ops rf_policy_sram = {
    .name = "sram",
    .create = NULL,         /* no state */
    .destroy = NULL,
    .bank_of = NULL,        /* rf_bank_skewed: (reg + warp) mod n_banks */
    .access = NULL,         /* fixed times, no state: */
    .read_ticks = 1,        /* spec 3.2: one cycle per access */
    .write_ticks = 1,
    .tick = NULL,           /* nothing to do while idle: CYCLE_NEVER */
    .on_writeback = NULL,   /* RF_WB_BANKS: write the banks */
    .can_issue = NULL,      /* every warp may issue */
    .on_issue = NULL,
    .kernel_start = NULL,   /* nothing per kernel */
    .stats_register = NULL, /* the unit's reads / writes / busy ticks say it all */
};
