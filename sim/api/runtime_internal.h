/* sim/api/runtime_internal.h: the objects behind the public handles of
 * include/gpusim.h (private to the library; tests may include it).
 *
 * A context owns everything it creates: configuration, device memory,
 * statistics, modules (and through them functions). Nothing is shared
 * between contexts, so several may live in one process and be used from
 * different host threads (one thread per context at a time).
 */
#ifndef GPUSIM_SIM_API_RUNTIME_INTERNAL_H
#define GPUSIM_SIM_API_RUNTIME_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpusim.h"
#include "sim/cfg/config.h"
#include "sim/mem/devmem.h"
#include "sim/func/func.h"
#include "sim/base/stats.h"

struct ptx_module;
struct ptx_func;

/* Occupancy limits come from the sm.* and smem.* keys (sim/sm/sm_cfg.h). */
#define RT_MAX_INFO 32  /* gs_stats_set_info entries per context */

#define RT_ERR_LEN 1024 /* bytes of a last-error message */

struct gs_function {
    struct gs_module *mod;      /* owning module */
    const struct ptx_func *fn;  /* its .entry in the parsed module */
};

struct gs_module {
    struct gs_ctx *ctx;          /* owning context */
    struct ptx_module *ptx;      /* parsed module (owned) */
    uint64_t *var_addr;          /* device address per module variable (0: not in device memory) */
    struct gs_function *funcs;   /* one per ptx function (entries usable) */
    struct gs_module *next;      /* next module of the context */
};

struct gs_ctx {
    struct cfg cfg;              /* resolved configuration */
    struct devmem mem;           /* device memory */
    struct stats *stats;         /* statistics registry */
    struct func_stats fst;       /* functional-executor counters */
    struct gs_module *mods;      /* loaded modules (list) */
    struct gpu *gpu;             /* sim.mode = timing: the timing model (owned), else NULL */
    struct kpass_state *kpass;   /* kernel-time passes and profiles (sim/ptx/passes/kpass_rt.h, owned) */
    bool launched;               /* a kernel was launched (host options are fixed) */
    int pending_err;             /* first launch error since the last synchronize (0 none) */
    const atomic_u32 *stop_flag; /* gs_host_opts stop flag (both modes), NULL = none */
    bool interrupted;            /* a launch stopped on the stop flag: statistics are partial */
    double launch_seconds;       /* host wall time spent running kernels (s) */
    char *info_key[RT_MAX_INFO]; /* gs_stats_set_info keys (owned), in insertion order */
    char *info_val[RT_MAX_INFO]; /* and their values (owned) */
    unsigned n_info;             /* entries used */
    char err[RT_ERR_LEN];        /* last error message of this context */
};

#endif /* GPUSIM_SIM_API_RUNTIME_INTERNAL_H */
