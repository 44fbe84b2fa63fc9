/* sim/ptx/passes/kpass_rt.h: kernel-time passes and profiles at launch (the part
 * of issue 10 the runtime calls; docs/passes.md).
 *
 * One struct kpass_state per context. At each launch the runtime calls
 * kpass_state_prepare (runs the configured passes, or reuses their result
 * for the same module, kernel, launch geometry and profile record; starts
 * profile recording), then, inside the kernel's statistics window,
 * kpass_state_publish (adds the passes' statistics), then after the run
 * kpass_state_finish (ends the recording, rewrites ptx.profile_out).
 *
 * Statistics: pass.runs (pipeline runs), pass.cache_hits (launches that
 * reused a result) and the passes' own "pass.<name>.*" counters, registered
 * the first time they are published. Only with a non-empty ptx.passes.
 */
#ifndef GPUSIM_SIM_PTX_PASSES_KPASS_RT_H
#define GPUSIM_SIM_PTX_PASSES_KPASS_RT_H

#include <stddef.h>
#include <stdint.h>

struct sim_cfg;
struct stats;
struct ptx_module;
struct ptx_func;
struct func_launch;
struct kprof;
struct kpass_result;

struct kpass_state;

/* NULL with a message in err when ptx.profile_in cannot be loaded
 * ("ptx.profile_in: file:line: ..."); *code then holds the GS_ERR_*. */
struct kpass_state *kpass_state_create(const struct sim_cfg *cfg, struct stats *st, int *code, char *err,
                                       size_t err_len);
void kpass_state_destroy(struct kpass_state *s);

/* Before the run: fill fl->regmap (NULL when no pass renumbered) and
 * fl->observer (when recording). ctas_per_sm and smem_per_cta are the
 * launch's occupancy figures. Returns 0 or a GS_ERR_* with err. */
int kpass_state_prepare(struct kpass_state *s, struct func_launch *fl, uint32_t ctas_per_sm, uint64_t smem_per_cta,
                        char *err, size_t err_len);
/* Inside the statistics window of the launch prepared last. */
void kpass_state_publish(struct kpass_state *s);
/* After the run (rc: its result). Returns 0 or GS_ERR_IO with err when the
 * profile file cannot be written. */
int kpass_state_finish(struct kpass_state *s, int rc, char *err, size_t err_len);

/* The result used by the launch prepared last (NULL without passes). */
const struct kpass_result *kpass_state_last_result(const struct kpass_state *s);

/* Profiles: start recording later launches (functional mode only: returns
 * GS_ERR_UNSUPPORTED in timing mode), save what was recorded, load one for
 * later launches (replaces any loaded before). */
int kpass_state_profile_record(struct kpass_state *s, char *err, size_t err_len);
int kpass_state_profile_save(struct kpass_state *s, const char *path, char *err, size_t err_len);
int kpass_state_profile_load(struct kpass_state *s, const char *path, char *err, size_t err_len);
const struct kprof *kpass_state_profile_recorded(const struct kpass_state *s);
const struct kprof *kpass_state_profile_loaded(const struct kpass_state *s);

#endif /* GPUSIM_SIM_PTX_PASSES_KPASS_RT_H */
