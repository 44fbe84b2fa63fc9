/* sim/dispatch/dispatch.h: the CTA dispatcher: kernel queue, CTA placement on SMs,
 * per-SM resource accounting, CTA and kernel completion (spec
 * baseline-gpu.md 1.1, 1.5, 2.1, 2.10, OQ-B9; docs/dispatch.md).
 *
 * What is modelled:
 *  - A kernel queue with the semantics of one CUDA stream: kernels start in
 *    launch order, and a kernel starts only after the previous one has
 *    completed (all its CTAs done and the memory system drained).
 *  - The occupancy limit of the running kernel (sm_ctas_per_sm in
 *    sim/sm/sm_cfg.h, the [GPGPU-Sim] rule of spec 2.1) and per-SM accounting of
 *    CTA slots, thread slots (whole warps), warp slots, registers (R' x T')
 *    and shared memory, charged when a CTA starts and released when the SM
 *    reports it finished.
 *  - Which CTA goes to which SM, decided by a policy (struct dispatch_policy,
 *    one file per policy, chosen by cta.policy). Baseline `rr`
 *    (sim/dispatch/dispatch_rr.c): round-robin over SMs, one CTA per SM per turn,
 *    lowest-numbered CTA not yet issued first. `serial`
 *    (sim/dispatch/dispatch_serial.c): contiguous per-SM CTA ranges (InterCL).
 *  - Kernel completion: all CTAs reported done, then the memory_drained
 *    query answers true (spec 2.10).
 *
 * What is not modelled: the CTA launch latency and the per-cycle dispatch
 * bandwidth (every CTA chosen in one serial step is handed to start_cta at
 * that step's cycle; the SM may stagger them), concurrent kernels (one
 * stream), and what a CTA does (the SM owns warps and decides when a CTA is
 * finished: warps exited and stores acknowledged, spec 2.10).
 *
 * Where it runs: in the serial step at the quantum barrier (spec 1.5,
 * OQ-B9), never inside a quantum. SMs report finished CTAs with
 * dispatch_cta_done during that serial step, so the dispatcher's resource
 * counters are the SMs' state as of the last barrier, and a slot freed
 * inside a quantum is refilled at the next barrier (delay < Q).
 *
 * Time: cycle numbers of one domain chosen by the caller (the core clock),
 * passed in; the dispatcher has no clock of its own. It is not ticked:
 * dispatch_step is called once per serial step and returns whether it
 * changed anything; it is cheap (O(1)) when nothing was reported since the
 * last step and no kernel is waiting for the memory system to drain.
 *
 * Operation mix: a few launches per run; one dispatch_step per quantum
 * barrier; one dispatch_cta_done and one start_cta per CTA. No allocation
 * after dispatch_init (the queue and per-SM tables are preallocated).
 */
#ifndef GPUSIM_SIM_DISPATCH_DISPATCH_H
#define GPUSIM_SIM_DISPATCH_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/sm/sm_cfg.h"
#include "sim/base/stats.h"

#define DISPATCH_NONE UINT32_MAX  /* no SM / no CTA */
#define DISPATCH_MAX_QUEUED 16u   /* kernels waiting or running (entries); launch refuses beyond */

/* ------------------------------------------------------------- config */

enum dispatch_policy_kind { DISPATCH_POLICY_RR = 0, DISPATCH_POLICY_SERIAL = 1 };

/* Section "cta" (declared in sim/dispatch/dispatch.c; struct sim_cfg member `dispatch`). */
struct dispatch_cfg {
    int policy; /* cta.policy: enum dispatch_policy_kind */
};

extern const struct cfg_key dispatch_cfg_keys[]; /* the section's key table (tests) */
extern const size_t dispatch_cfg_n_keys;
/* The "cta" section (registered in sim/cfg/registry.c). */
extern const struct cfg_section dispatch_cfg_section;

/* Built-in gtx480 defaults (the same values as the key table). */
void dispatch_cfg_defaults(struct dispatch_cfg *c);

/* ------------------------------------------------------------- launches */

struct dispatch_dim3 {
    uint32_t x, y, z; /* extent or index per dimension */
};

/* What the runtime passes for one kernel launch. */
struct dispatch_launch {
    const char *name;              /* kernel name (borrowed; must outlive the kernel's completion) */
    uint64_t tag;                  /* caller's handle, returned in the callbacks */
    struct dispatch_dim3 grid;     /* CTAs per dimension (each >= 1) */
    struct dispatch_dim3 block;    /* threads per CTA per dimension (each >= 1) */
    uint32_t regs_per_thread;      /* registers per thread (0 = none; the kernel's allocated count) */
    uint64_t smem_per_cta;         /* shared memory per CTA (bytes), static + dynamic */
};

enum dispatch_err {
    DISPATCH_OK = 0,
    DISPATCH_ERR_QUEUE_FULL = -1, /* DISPATCH_MAX_QUEUED kernels already queued: retry later */
    DISPATCH_ERR_DIMS = -2,       /* a zero dimension, or more than UINT32_MAX-1 CTAs or threads */
    DISPATCH_ERR_NO_FIT = -3,     /* one CTA exceeds an SM (sm_ctas_per_sm = 0) */
};
const char *dispatch_err_name(enum dispatch_err e);

/* A kernel in the queue, and its statistics record once it ran. */
struct dispatch_kernel {
    struct dispatch_launch l;  /* as launched */
    uint64_t seq;              /* launch sequence number (0, 1, ...) */
    uint32_t n_ctas;           /* grid.x * grid.y * grid.z (CTAs) */
    uint32_t threads;          /* T': threads per CTA rounded up to whole warps (threads) */
    uint32_t warps;            /* warps per CTA (warps) */
    uint32_t regs;             /* R' x T': registers per CTA, R' = regs/thread rounded up to 4 (registers) */
    uint64_t smem;             /* shared memory per CTA (bytes) */
    uint32_t ctas_per_sm;      /* occupancy limit (CTAs), >= 1 */
    uint32_t n_issued;         /* CTAs handed to start_cta (CTAs) */
    uint32_t n_done;           /* CTAs reported finished (CTAs) */
    cycle_t t_launch;          /* cycle of dispatch_launch */
    cycle_t t_start;           /* cycle of the step that started it (CYCLE_NEVER before) */
    cycle_t t_ctas_done;       /* first step that saw every CTA done (CYCLE_NEVER before) */
    cycle_t t_end;             /* step at which memory had drained too (CYCLE_NEVER before) */
};

/* ------------------------------------------------------------- the port */

/* The caller's side. start_cta and memory_drained are required; the kernel
 * callbacks may be NULL. All are called from dispatch_step only. */
struct dispatch_port {
    void *ctx;
    /* Put CTA `cta` (linear id x + y*gx + z*gx*gy, coordinates xyz) of the
     * running kernel (dispatch_running) on SM `sm`. Cannot refuse: the
     * dispatcher has already checked and charged the SM's resources. */
    void (*start_cta)(void *ctx, uint32_t sm, uint32_t cta, struct dispatch_dim3 xyz);
    /* Every request of the running kernel has left the memory system
     * (no store awaiting acknowledgement, no write-back owed). */
    bool (*memory_drained)(void *ctx);
    /* k starts (before its first start_cta): invalidate L1s etc. */
    void (*kernel_start)(void *ctx, const struct dispatch_kernel *k);
    /* k has completed (t_end set); the next kernel may start in the same step. */
    void (*kernel_done)(void *ctx, const struct dispatch_kernel *k);
};

/* ------------------------------------------------------------- policies */

struct dispatcher;

/* A placement policy: one file per policy (sim/dispatch/dispatch_rr.c). The framework
 * owns the queue, the resources and completion; the policy only chooses.
 * Hooks for policies of other specs: per-SM state (group pointers of the
 * sharing-aware scheduler, cta-sharing-cache-mgmt.md 2.1), the number of
 * free slots of an SM (BCS waits for two, then sends two consecutive CTAs),
 * and a notification per finished CTA. */
struct dispatch_policy {
    const char *name;
    /* Allocate d->pstate (init time only). */
    void (*init)(struct dispatcher *d);
    void (*fini)(struct dispatcher *d);
    /* The running kernel (dispatch_running) starts: reset per-kernel state. */
    void (*kernel_start)(struct dispatcher *d);
    /* Choose the next placement: an SM with dispatch_sm_room(d, sm) > 0 and
     * a CTA of the running kernel not yet issued. Return false when nothing
     * more should start in this step. Called repeatedly within one step; each
     * true answer is applied (resources charged, start_cta called) before the
     * next call. */
    bool (*pick)(struct dispatcher *d, uint32_t *sm, uint32_t *cta);
    /* CTA cta on SM sm finished (resources already released). May be NULL. */
    void (*cta_done)(struct dispatcher *d, uint32_t sm, uint32_t cta);
};

extern const struct dispatch_policy dispatch_policy_rr;
extern const struct dispatch_policy dispatch_policy_serial;

/* ------------------------------------------------------------- state */

/* Resources in use on one SM (as of the last serial step). */
struct dispatch_sm {
    uint32_t n_cta;      /* resident CTAs (CTAs) */
    uint32_t threads;    /* thread slots in use, whole warps (threads) */
    uint32_t warps;      /* warp slots in use (warps) */
    uint32_t regs;       /* registers in use (32-bit registers) */
    uint64_t smem;       /* shared memory in use (bytes) */
    uint32_t *resident;  /* [max_cta] linear ids of the resident CTAs, unordered */
};

struct dispatch_stats {
    uint64_t kernels;       /* kernels completed */
    uint64_t ctas;          /* CTAs started */
    uint64_t ctas_done;     /* CTAs reported finished */
    uint64_t kernel_cycles; /* sum over completed kernels of t_end - t_start (cycles) */
    uint64_t queue_cycles;  /* sum of t_start - t_launch: waiting behind earlier kernels (cycles) */
    uint64_t drain_cycles;  /* sum of t_end - t_ctas_done: waiting for memory to drain (cycles) */
    uint64_t *sm_ctas;      /* [n_sm] CTAs started per SM, whole run (CTAs) */
    uint64_t *sm_ctas_kernel; /* [n_sm] CTAs started per SM by the running or last kernel (CTAs) */
};

struct dispatcher {
    const struct dispatch_policy *pol; /* chosen by cfg.policy */
    void *pstate;                      /* policy state (owned by the policy) */
    struct dispatch_cfg cfg;           /* copy of the configuration */
    struct sm_cfg sm_cfg;              /* copy: per-SM budgets */
    struct smem_cfg smem_cfg;          /* copy: shared memory per SM */
    uint32_t n_sm;                     /* SMs */
    struct dispatch_port port;         /* the caller */
    struct dispatch_sm *sm;            /* [n_sm] */
    uint32_t *resident_pool;           /* [n_sm * max_cta] backing store of sm[].resident */
    struct dispatch_kernel queue[DISPATCH_MAX_QUEUED]; /* ring; queue[head] runs when `running` */
    uint32_t head;                     /* ring index of the oldest kernel */
    uint32_t count;                    /* kernels queued, including the running one (entries) */
    bool running;                      /* queue[head] has started */
    bool dirty;                        /* a launch or a CTA completion since the last step */
    uint64_t next_seq;                 /* sequence number of the next launch */
    struct dispatch_kernel last;       /* record of the last completed kernel (seq UINT64_MAX: none) */
    struct dispatch_stats st;
};

/* ------------------------------------------------------------- API */

/* n_sm >= 1. The SM budgets come from sm/smem (copied). port->start_cta and
 * port->memory_drained must be set (else sim_panic). */
void dispatch_init(struct dispatcher *d, const struct dispatch_cfg *cfg, const struct sm_cfg *sm,
                   const struct smem_cfg *smem, uint32_t n_sm, const struct dispatch_port *port);
void dispatch_fini(struct dispatcher *d);

/* Queue a kernel at cycle `now` (serial step or between runs). Checks it and
 * returns DISPATCH_OK, or an error with nothing queued. The runtime refuses
 * unfit launches before (GS_ERR_LAUNCH), so NO_FIT/DIMS mean a caller bug
 * or a direct user of this API; QUEUE_FULL is backpressure. */
enum dispatch_err dispatch_launch(struct dispatcher *d, const struct dispatch_launch *l, cycle_t now);

/* The serial-step entry: complete the running kernel if it is finished and
 * memory has drained, start the next queued one, and place every CTA the
 * policy chooses. Returns true when something changed (a kernel started or
 * completed, or a CTA started). */
bool dispatch_step(struct dispatcher *d, cycle_t now);

/* SM `sm` reports that CTA `cta` of the running kernel finished (all warps
 * exited, all stores acknowledged; spec 2.10). Releases its resources; the
 * slot is refilled at the next dispatch_step. sim_panic if that CTA is not
 * resident on that SM. */
void dispatch_cta_done(struct dispatcher *d, uint32_t sm, uint32_t cta);

/* The running kernel, or NULL. */
const struct dispatch_kernel *dispatch_running(const struct dispatcher *d);
/* A kernel is running or queued. */
bool dispatch_busy(const struct dispatcher *d);
/* Kernels queued, the running one included. */
uint32_t dispatch_queued(const struct dispatcher *d);
/* More CTAs of the running kernel SM `sm` can take now (0 when none runs). */
uint32_t dispatch_sm_room(const struct dispatcher *d, uint32_t sm);
/* Coordinates of linear CTA id `cta` in `grid`. */
struct dispatch_dim3 dispatch_cta_xyz(struct dispatch_dim3 grid, uint32_t cta);

/* Register statistics: group "dispatch" (singleton) and "dispatch.sm"
 * (instance per SM). Per-kernel values come from the registry's kernel
 * records (stats_kernel_begin/end around each kernel). */
void dispatch_stats_register(struct dispatcher *d, struct stats *s);
/* Human-readable dump (tests, debugging). */
void dispatch_stats_dump(const struct dispatcher *d, FILE *out);

#endif /* GPUSIM_SIM_DISPATCH_DISPATCH_H */
