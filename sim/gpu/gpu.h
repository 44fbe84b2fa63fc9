/* sim/gpu/gpu.h: the timing-mode GPU on the parallel engine (sim.mode = timing;
 * spec baseline-gpu.md; docs/timing.md).
 *
 * What it models: the machine of DESIGN.md section 1 built from its units:
 * gpu.n_sm SMs (sim/sm/sm.c, one engine partition each, core clock) and
 * mem.n_partitions memory partitions (partitions/mempart/mempart_unit.c, one
 * engine partition each: DRAM, L2 and interconnect clocks), connected by the
 * request and reply networks (sim/icnt/icnt.c) whose minimum link latency is the
 * engine's lookahead. The CTA dispatcher (sim/dispatch/dispatch.c) runs in the
 * engine's serial step between quanta, with kernel launch, CTA placement,
 * CTA completion and kernel completion (all CTAs done and memory drained).
 *
 * Device memory: the context's struct devmem is the backing store of the
 * memory partitions (NOTE(devmem_store) in partitions/mempart/mempart_unit.c). The
 * top of the mapped window holds the code segment (instruction fetch
 * addresses) and below it one local-memory region per SM; allocations must
 * stay below them. Host copies between kernels go through the L2
 * (gpu_host_read / gpu_host_write), so dirty and cached lines stay exact;
 * the L2 keeps its contents across kernels, L1s are invalidated at launch.
 *
 * One struct gpu belongs to one context; nothing is global, so several
 * contexts (each with its own engine and threads) can live in a process.
 */
#ifndef GPUSIM_SIM_GPU_GPU_H
#define GPUSIM_SIM_GPU_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/func/func.h"
#include "sync/engine.h"

struct sim_cfg;
struct devmem;
struct stats;
struct gpu;

/* Host-side options of a run (not part of the configuration: results do not
 * depend on them). */
struct gpu_host_opts {
    unsigned threads, sm_threads, mem_threads; /* as struct eng_run_opts (0 = automatic) */
    enum eng_pin pin;
    bool progress;                             /* progress line on stderr */
    const atomic_u32 *stop_flag;               /* SIGINT flag, or NULL */
};

/* NULL with a message on configuration limits of the timing model. */
struct gpu *gpu_create(const struct sim_cfg *cfg, struct devmem *mem, struct stats *stats, char *err,
                       size_t err_len);
void gpu_destroy(struct gpu *g);
void gpu_set_host(struct gpu *g, const struct gpu_host_opts *o);

/* Before the first launch and before its statistics snapshot: run the
 * engine once so that every partition is initialised on its thread (and its
 * statistics registered). The thread options must be final by then.
 * 0 or GS_ERR_* with a message. */
int gpu_prepare(struct gpu *g, char *err, size_t err_len);

/* One kernel, run to completion: l as for func_run (l->st receives the
 * executor counters), ctas_per_sm the occupancy limit, regs and smem as the
 * dispatcher charges them. Returns 0 or GS_ERR_* with a message in l->err
 * (fault, deadlock, watchdog, interrupted, out of device memory). */
int gpu_launch(struct gpu *g, const struct func_launch *l, uint32_t ctas_per_sm, uint32_t regs_per_thread,
               uint64_t smem_per_cta);

/* Between kernels: host copies through the L2 (false: out of range). */
bool gpu_host_write(struct gpu *g, uint64_t dev, const void *buf, uint64_t n);
bool gpu_host_read(struct gpu *g, uint64_t dev, void *buf, uint64_t n);

#define GPU_MAX_THREADS 256 /* host threads reported per thread */

/* Summary of the run so far, for the JSON "timing" object and the CLI. */
struct gpu_summary {
    uint64_t cycles;        /* core cycles of all kernels (launch to drained) */
    uint64_t warp_insts;    /* warp instructions issued */
    uint64_t kernels;       /* kernels completed */
    double host_seconds;    /* wall time inside gpu_launch */
    unsigned threads;       /* host threads of the last run */
    ps_t end_ps;            /* simulated time */
    struct eng_thread_report per_thread[GPU_MAX_THREADS]; /* per host thread, summed over runs (sync/engine.h) */
    struct eng_adapt_report adapt;  /* what the adaptive engine did (sync/engine.h) */
    struct eng_profile profile;     /* sampled partition work (sync/engine.h) */
};
void gpu_summary(const struct gpu *g, struct gpu_summary *out);
ps_t gpu_lookahead(const struct gpu *g);
ps_t gpu_quantum(const struct gpu *g);

#endif /* GPUSIM_SIM_GPU_GPU_H */
