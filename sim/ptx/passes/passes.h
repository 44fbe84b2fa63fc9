/* sim/ptx/passes/passes.h: the compile-time pass pipeline over PTX functions.
 *
 * A pass is {name, run}: run(fn, ctx) analyses or rewrites one function
 * with a body and returns 0, or a negative value to stop the pipeline.
 * ptx_parse() runs the built-in pipeline (ptx_builtin_passes: liveness,
 * register allocation, executor slots) on every function. Register-file mechanisms
 * (racetrack remapping, LTRF intervals and renumbering) add their own
 * tables and run them with ptx_module_run_passes() after loading, with
 * their configuration in ctx. Passes must only touch the function they are
 * given (so functions could be processed in parallel) and keep their
 * results in their own structures or in documented ptx_func fields.
 *
 * Passes that need launch-time facts (occupancy, register-file geometry,
 * launch geometry, a profile) are kernel-time passes instead: see
 * sim/ptx/passes/kpass.h and docs/passes.md (selected by ptx.passes, run at a
 * kernel's launch, results cached, visible in statistics).
 */
#ifndef GPUSIM_SIM_PTX_PASSES_PASSES_H
#define GPUSIM_SIM_PTX_PASSES_PASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/ptx/ir.h"

struct ptx_pass {
    const char *name;                            /* for messages and stats */
    int (*run)(struct ptx_func *fn, void *ctx);  /* 0 = ok, < 0 = stop */
};

/* The pipeline ptx_parse() runs; n_builtin_passes entries. */
extern const struct ptx_pass ptx_builtin_passes[];
extern const size_t ptx_n_builtin_passes;

/* Run passes[0..n) in order on every function with a body. Returns 0, or
 * the first negative result (and *failed, if not NULL, names the pass). */
int ptx_module_run_passes(struct ptx_module *m, const struct ptx_pass *passes, size_t n, void *ctx,
                          const char **failed);

/* Pass "slots" (sim/ptx/passes/slots.c, NOTE(reg-slots)): true when fn's
 * executor slots respect its liveness and fn->xinsns / fn->xcall_args are
 * its instructions renamed to them. The pass checks its own result with
 * it (falling back to one slot per register); tests call it too. */
bool ptx_slots_check(const struct ptx_func *fn);

#endif /* GPUSIM_SIM_PTX_PASSES_PASSES_H */
