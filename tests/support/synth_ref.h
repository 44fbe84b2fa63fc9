/* tests/support/synth_ref.h: sequential reference of the synthetic model. */
#ifndef GPUSIM_TESTS_SUPPORT_SYNTH_REF_H
#define GPUSIM_TESTS_SUPPORT_SYNTH_REF_H

#include "sim/gpu/gpu_cfg.h"
#include "sim/synth/synth.h"

/* Run the model to completion; fills out[n_units]; returns the time of the
 * last event (ps). */
ps_t synth_ref_run(const struct synth_cfg *c, const struct clock_cfg *clk, uint64_t icnt_min_latency,
                   struct synth_unit_stats *out);

#endif
