/* gpusim.h: the public runtime API of gpusim.
 *
 * Modelled on the CUDA driver API so host code ports line by line:
 * a context (one simulated GPU with its configuration), modules loaded from
 * PTX text, functions looked up by name, device memory, copies, kernel
 * launches and synchronisation. Every call returns 0 on success or a
 * negative GS_ERR_* code; gs_last_error() holds the message. Kernel
 * launches are synchronous, and a kernel's execution fault is the return
 * code of its gs_launch_kernel (see there). Contexts are
 * independent: several can live in one process, used from different host
 * threads (one thread per context at a time).
 *
 * Link with: cc app.c $(pkg-config --cflags --libs gpusim), adding --static
 * to the pkg-config flags to link hwloc and jemalloc from their archives.
 */
#ifndef GPUSIM_H
#define GPUSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, description): the single list of error codes. */
#define GS_ERR_MAP(X)                                                                        \
    X(GS_OK, 0, "success")                                                                   \
    X(GS_ERR_INVALID_VALUE, -1, "invalid argument")                                         \
    X(GS_ERR_CONFIG, -2, "configuration error")                                             \
    X(GS_ERR_NOT_FOUND, -3, "not found")                                                    \
    X(GS_ERR_IO, -4, "file could not be read or written")                                   \
    X(GS_ERR_PTX, -5, "malformed or unsupported PTX")                                       \
    X(GS_ERR_OUT_OF_MEMORY, -6, "out of device or host memory")                             \
    X(GS_ERR_LAUNCH, -7, "invalid launch configuration")                                    \
    X(GS_ERR_EXEC, -8, "kernel execution fault")                                            \
    X(GS_ERR_INTERRUPTED, -9, "interrupted")                                                \
    X(GS_ERR_WATCHDOG, -10, "no forward progress (watchdog)")                               \
    X(GS_ERR_UNSUPPORTED, -11, "unsupported feature")                                       \
    X(GS_ERR_STATE, -12, "call not valid in the current state")

enum gs_err {
#define GS_ERR_ENUM_(name, value, desc) name = value,
    GS_ERR_MAP(GS_ERR_ENUM_)
#undef GS_ERR_ENUM_
};

/* "GS_ERR_PTX" etc.; "GS_ERR_UNKNOWN" for a value not in the list. */
const char *gs_error_name(int err);
/* One-line description of an error code. */
const char *gs_error_string(int err);
/* "0.1.0 (git <rev>)" */
const char *gs_version(void);

typedef struct gs_ctx gs_ctx;
typedef struct gs_module gs_module;
typedef struct gs_function gs_function;

/* config: preset name ("gtx480"), .cfg path, or NULL for the default preset;
 * overrides: NULL-terminated "key=value" strings, or NULL. NULL on error:
 * gs_last_error(NULL) then says why. */
gs_ctx *gs_ctx_create(const char *config, const char *const *overrides);
void gs_ctx_destroy(gs_ctx *ctx);

/* Host-side options of timing mode (sim.mode = timing); results never
 * depend on them. threads: the most host threads the engine uses (0 =
 * auto: the CPUs idle at the first launch, at most the physical cores and
 * the model's partitions; with sync.adaptive the engine runs fewer when
 * that is faster, docs/engine.md); sm_threads and mem_threads: an explicit
 * split (both or neither non-zero; no adaptation); pin: 0 none,
 * 1 one thread per physical core, 2 compact, 3 auto (1 when the threads
 * take every CPU the process may use, else 0); CPUs outside the process's
 * binding (taskset) are never used; progress: non-zero prints a
 * progress line on stderr (kernel, CTAs done, cycles, rate, elapsed) while
 * kernels run; stop_flag: optional, read at quantum boundaries (functional
 * mode: once per round of warp turns), non-zero stops the kernel with
 * GS_ERR_INTERRUPTED and the statistics are then written with "complete":
 * false. Must be called before the first launch (GS_ERR_STATE after); the
 * thread and progress options are ignored in functional mode. */
typedef struct gs_host_opts {
    unsigned threads, sm_threads, mem_threads;
    int pin;
    int progress;
    const volatile unsigned *stop_flag;
} gs_host_opts;
int gs_ctx_set_host(gs_ctx *ctx, const gs_host_opts *opts);
/* Last message for ctx; with NULL, the calling thread's last message. */
const char *gs_last_error(const gs_ctx *ctx);

int gs_module_load(gs_ctx *ctx, const char *ptx_path, gs_module **out);
int gs_module_load_data(gs_ctx *ctx, const char *ptx_text, gs_module **out);
/* As gs_module_load_data, plus an optional register-count sidecar text
 * ("<function> <registers>" lines from ptxas -v, as in "<file>.ptx.regs"
 * next to a file given to gs_module_load) and a name used in messages
 * (NULL: "<data>"). */
int gs_module_load_data_ex(gs_ctx *ctx, const char *ptx_text, const char *regs_text, const char *name,
                           gs_module **out);
int gs_module_get_function(gs_module *m, const char *name, gs_function **out);
/* Device address and size (bytes) of a module-scope .global or .const
 * variable (a __device__ or __constant__ variable), as cuModuleGetGlobal:
 * fill a __constant__ array with gs_memcpy_htod(ctx, dptr, ...). bytes may
 * be NULL. GS_ERR_NOT_FOUND when the module has no such variable. */
int gs_module_get_global(gs_module *m, const char *name, uint64_t *dptr, size_t *bytes);

/* Device attributes (as cuDeviceGetAttribute), from the context's config. */
enum gs_device_attr {
    GS_ATTR_SM_COUNT = 1,            /* gpu.n_sm */
    GS_ATTR_WARP_SIZE = 2,           /* 32 */
    GS_ATTR_MAX_THREADS_PER_BLOCK = 3, /* sm.max_block_threads */
    GS_ATTR_MAX_THREADS_PER_SM = 4,  /* sm.max_threads */
    GS_ATTR_MAX_CTAS_PER_SM = 5,     /* sm.max_cta */
    GS_ATTR_REGS_PER_SM = 6,         /* sm.n_regs */
    GS_ATTR_SHARED_PER_SM = 7,       /* smem.size (bytes) */
    GS_ATTR_TIMING_MODE = 8          /* 1 when sim.mode = timing */
};
int gs_device_attribute(gs_ctx *ctx, int attr, int64_t *out);

/* Function attributes (as cuFuncGetAttribute). */
enum gs_function_attr {
    GS_FATTR_NUM_REGS = 1,     /* registers per thread (ptxas sidecar, else the allocator's count) */
    GS_FATTR_SHARED_BYTES = 2, /* static shared memory per CTA (bytes) */
    GS_FATTR_NUM_PARAMS = 3    /* kernel parameters */
};
int gs_function_attribute(gs_function *f, int attr, int64_t *out);

/* CTAs of f that can be resident on one SM with this block size and dynamic
 * shared memory (as cuOccupancyMaxActiveBlocksPerMultiprocessor); 0 when one
 * CTA does not fit. A kernel whose CTAs wait for each other (grid barrier)
 * must launch at most this times GS_ATTR_SM_COUNT CTAs. */
int gs_occupancy_ctas_per_sm(gs_function *f, unsigned block_threads, unsigned dyn_shared_bytes, unsigned *out);

int gs_mem_alloc(gs_ctx *ctx, uint64_t *dptr, size_t bytes);
int gs_mem_free(gs_ctx *ctx, uint64_t dptr);
/* Copies between host and device memory (as cuMemcpyHtoD/DtoH): the device
 * range must lie inside one live allocation (GS_ERR_INVALID_VALUE
 * otherwise); n = 0 does nothing. In timing mode the copy goes through the
 * L2 between kernels, so it sees and updates data that kernels left there. */
int gs_memcpy_htod(gs_ctx *ctx, uint64_t dst, const void *src, size_t n);
int gs_memcpy_dtoh(gs_ctx *ctx, void *dst, uint64_t src, size_t n);
/* Device-to-device copy of n bytes (as cuMemcpyDtoD). src and dst must each
 * lie inside one live allocation (they may be the same one); otherwise
 * GS_ERR_INVALID_VALUE and nothing is copied; n = 0 does nothing.
 * Overlapping ranges are allowed and behave as memmove: dst receives the
 * bytes src held before the call.
 * In timing mode the copy goes through the L2 like the host copies (it reads
 * dirty lines and updates cached copies, so the next kernel and
 * gs_memcpy_dtoh see the new bytes); it takes no simulated time. */
int gs_memcpy_dtod(gs_ctx *ctx, uint64_t dst, uint64_t src, size_t n);
int gs_memset_d8(gs_ctx *ctx, uint64_t dst, unsigned char v, size_t n);

/* params as in cuLaunchKernel: params[i] points at argument i's value; sizes
 * come from the kernel's .param declarations.
 *
 * Unlike cuLaunchKernel, the launch is synchronous: gs_launch_kernel returns
 * after the kernel has finished (in timing mode, after every CTA is done
 * and memory has drained), so its results can be copied back at once.
 * Execution faults come back from this call as its return code, with the
 * details in gs_last_error(ctx):
 *   GS_ERR_EXEC       an out-of-bounds or misaligned access, a trap or
 *                     another fault (the message names the CTA, thread,
 *                     warp, PTX pc and line, and the CUDA source file and
 *                     line when the PTX carries .loc line information, as
 *                     nvcc -lineinfo emits), or a deadlock (warps wait at a
 *                     barrier the others never reach);
 *   GS_ERR_WATCHDOG   no warp makes progress for too long (a spin-wait that
 *                     never ends; sim.func_watchdog, sim.watchdog): the
 *                     stuck warps are listed in the message (functional
 *                     mode) or on stderr (timing mode);
 *   GS_ERR_INTERRUPTED  the gs_host_opts stop flag was raised.
 * GS_ERR_LAUNCH and GS_ERR_INVALID_VALUE report a launch refused before it
 * ran. In timing mode a kernel that stopped part-way leaves the model
 * inconsistent: later launches on the context return GS_ERR_STATE. The first
 * fault is also kept for the next gs_ctx_synchronize, as CUDA reports it. */
int gs_launch_kernel(gs_function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                     unsigned bz, unsigned shared_bytes, void **params);
/* Returns, and clears, the first fault of a launch since the last call (0
 * if none); launches are synchronous, so there is no work left to wait for. */
int gs_ctx_synchronize(gs_ctx *ctx);
/* Record a string fact about the run (workload name, size, seed, verdict)
 * in the "run" object of the statistics JSON; a repeated key replaces. */
int gs_stats_set_info(gs_ctx *ctx, const char *key, const char *value);
int gs_stats_write(gs_ctx *ctx, const char *json_path);
/* Current total of a counter statistic by its full name, e.g.
 * "func.warp_insts" (names: docs/stats.md, or the "total" object of the
 * JSON). GS_ERR_NOT_FOUND for an unknown name. */
int gs_stats_get_u64(gs_ctx *ctx, const char *name, uint64_t *out);
/* Host wall-clock seconds spent executing kernels in this context so far
 * (simulation speed measurements; differs run to run). */
double gs_host_kernel_seconds(const gs_ctx *ctx);

/* Kernel profiles (docs/passes.md): a functional pre-pass records, per
 * launch, per-CTA and per-warp global accesses and lines, pages touched
 * (ptx.profile_page) and register-bank accesses; a later run (timing mode
 * too) loads the file, and the kernel-time passes (ptx.passes) receive the
 * record of each launch. The keys ptx.profile_out / ptx.profile_in do the
 * same without code.
 * gs_profile_record: record every later launch (sim.mode = functional,
 * else GS_ERR_UNSUPPORTED). gs_profile_save: write what was recorded,
 * atomically (GS_ERR_STATE when nothing is being recorded, GS_ERR_IO).
 * gs_profile_load: read a profile for later launches; a malformed file is
 * GS_ERR_INVALID_VALUE with "file:line: what is wrong" in gs_last_error. */
int gs_profile_record(gs_ctx *ctx);
int gs_profile_save(gs_ctx *ctx, const char *path);
int gs_profile_load(gs_ctx *ctx, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* GPUSIM_H */
