/* sim/ptx/passes/passes.c: the pass pipeline (see passes.h).
 *
 * Does: hold the built-in pass table (liveness, regalloc, slots) and run pass
 * tables over functions. Does not: implement any analysis itself
 * (liveness.c, regalloc.c) or carry mutable state (tables are const).
 */
#include "sim/ptx/passes/passes.h"

#include "sim/ptx/internal.h"

static int pass_liveness(struct ptx_func *fn, void *ctx)
{
    (void)ctx;
    ptx_liveness_compute(fn);
    return 0;
}

static int pass_regalloc(struct ptx_func *fn, void *ctx)
{
    (void)ctx;
    ptx_regalloc_run(fn);
    return 0;
}

static int pass_slots(struct ptx_func *fn, void *ctx)
{
    (void)ctx;
    ptx_slots_run(fn);
    return 0;
}

const struct ptx_pass ptx_builtin_passes[] = {
    {"liveness", pass_liveness}, /* fn->live: per-instruction live-in/out */
    {"regalloc", pass_regalloc}, /* reg.phys, regs_alloc, preds_alloc, regs_per_thread */
    {"slots", pass_slots},       /* reg.slot, n_slots, xinsns, xcall_args (the executor's view) */
};
const size_t ptx_n_builtin_passes = ARRAY_LEN(ptx_builtin_passes);

void ptx_passes_run(struct ptx_func *fn)
{
    for (size_t i = 0; i < ptx_n_builtin_passes; i++)
        if (ptx_builtin_passes[i].run(fn, NULL) < 0)
            break;
}

int ptx_module_run_passes(struct ptx_module *m, const struct ptx_pass *passes, size_t n, void *ctx,
                          const char **failed)
{
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        struct ptx_func *fn = &m->funcs[f];
        if (!fn->has_body)
            continue;
        for (size_t i = 0; i < n; i++) {
            int rc = passes[i].run(fn, ctx);
            if (rc < 0) {
                if (failed)
                    *failed = passes[i].name;
                return rc;
            }
        }
    }
    return 0;
}
