/* sim/app/summary.h: the short human summary `gpusim run` prints on stdout
 * after a run (docs/energy.md "Summary"): per kernel (grouped by name, the
 * first few and "N more") and in total: simulated cycles, warp and thread
 * instructions, IPC, L1D and L2 hit rates, DRAM bandwidth utilisation and
 * row-buffer hit rate, average global-load latency, energy; then the top
 * three issue-stall reasons, energy by structure and the host time and
 * simulation rate. Functional mode prints what exists: instructions, host
 * time and rate. Everything is read from the statistics registry and the
 * configuration after the run; the JSON (--stats) keeps everything.
 */
#ifndef GPUSIM_SIM_APP_SUMMARY_H
#define GPUSIM_SIM_APP_SUMMARY_H

#include <stdio.h>

#include "gpusim.h"

#define SUMMARY_MAX_GROUPS 5 /* kernel-name rows before "N more" */

/* Print the summary of everything ctx ran so far (about 8 + kernel rows lines). */
void summary_print(FILE *out, const gs_ctx *ctx);

#endif /* GPUSIM_SIM_APP_SUMMARY_H */
