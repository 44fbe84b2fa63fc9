/* sim/gpu/eng_json.h: the parallel engine's host-side reports as JSON.
 *
 * Writes, inside the "host" object of a statistics file (docs/stats.md),
 * each host thread's report ("per_thread"), what the adaptive engine did
 * ("adaptive") and the sampled partition work behind the speed-up
 * projection of bench/speed ("profile"). Wall-clock
 * facts: they differ run to run and never enter the deterministic part of
 * the file. Used by the timing-mode runtime and by `gpusim synth`.
 */
#ifndef GPUSIM_SIM_GPU_ENG_JSON_H
#define GPUSIM_SIM_GPU_ENG_JSON_H

#include "sim/base/json.h"
#include "sync/engine.h"

void eng_json_threads(struct json_writer *w, const struct eng_thread_report *tr, unsigned n);
void eng_json_write(struct json_writer *w, const struct eng_adapt_report *a, const struct eng_profile *p);

#endif /* GPUSIM_SIM_GPU_ENG_JSON_H */
