/* bench/correlate/cuda/gs_cuda.cu -- the subset of gpusim's public API
 * (include/gpusim.h) that the workload harness workloads/common/wl.c uses,
 * implemented on the CUDA runtime, so that each workload's unmodified
 * host.c + wl.c drive the same kernels (same inputs, same launches, same CPU
 * check) on GPGPU-Sim through its libcudart.
 * Kernels are looked up by name in gs_kernel_table[], which each app's
 * main.cu defines after including the workload's kernel.cu. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "gpusim.h"

struct gs_kernel_entry { const char *name; const void *fn; };
extern "C" const struct gs_kernel_entry gs_kernel_table[];
extern "C" const unsigned gs_kernel_table_len;
/* module-scope .const/.global variables of the kernel, {0,0,0}-terminated */
struct gs_global_entry { const char *name; const void *var; size_t bytes; };
extern "C" const struct gs_global_entry gs_global_table[];

/* NOTE(shim-globals): GPGPU-Sim implements cudaMemcpyToSymbol but not
 * cudaGetSymbolAddress, so gs_module_get_global hands out a stand-in
 * address, GLOBAL_BASE + (index << 32), far above GPGPU-Sim's heap, and
 * gs_memcpy_htod/dtoh turn a copy into or out of it into
 * cudaMemcpyToSymbol/FromSymbol at the same offset. Kernels never see the
 * stand-in: the workloads pass symbols to kernels by name, not by pointer. */
static const uint64_t GLOBAL_BASE = 0x7e0000000000ull;
static const struct gs_global_entry *global_at(uint64_t a, size_t n, size_t *off)
{
    if (a < GLOBAL_BASE) return 0;
    uint64_t i = (a - GLOBAL_BASE) >> 32;
    for (uint64_t k = 0; k <= i; k++)
        if (!gs_global_table[k].name) return 0;
    *off = (size_t)((a - GLOBAL_BASE) & 0xffffffffull);
    if (*off + n > gs_global_table[i].bytes) return 0;
    return &gs_global_table[i];
}

struct gs_ctx { int dummy; };
struct gs_module { int dummy; };
struct gs_function { const void *fn; const char *name; };

extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
static char g_err[512];
static gs_ctx g_ctx;
static gs_module g_mod;

static int cu(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 0;
    snprintf(g_err, sizeof g_err, "%s: %s", what, cudaGetErrorString(e));
    return GS_ERR_EXEC;
}

extern "C" {
const char *gs_error_name(int err) { return err ? "GS_ERR_CUDA" : "GS_OK"; }
const char *gs_error_string(int err) { return g_err; }
const char *gs_last_error(const gs_ctx *ctx) { return g_err; }
gs_ctx *gs_ctx_create(const char *config, const char *const *overrides) { return &g_ctx; }
int gs_ctx_set_host(gs_ctx *ctx, const gs_host_opts *opts) { return 0; }
void gs_ctx_destroy(gs_ctx *ctx) {}
int gs_stats_set_info(gs_ctx *ctx, const char *key, const char *value) { return 0; }
int gs_module_load_data_ex(gs_ctx *ctx, const char *ptx, const char *regs, const char *name, gs_module **out)
{ *out = &g_mod; return 0; }
int gs_module_get_function(gs_module *m, const char *name, gs_function **out)
{
    for (unsigned i = 0; i < gs_kernel_table_len; i++)
        if (!strcmp(gs_kernel_table[i].name, name)) {
            gs_function *f = (gs_function *)malloc(sizeof *f);
            f->fn = gs_kernel_table[i].fn; f->name = gs_kernel_table[i].name;
            *out = f; return 0;
        }
    snprintf(g_err, sizeof g_err, "kernel %s not in table", name);
    return GS_ERR_NOT_FOUND;
}
int gs_module_get_global(gs_module *m, const char *name, uint64_t *dptr, size_t *bytes)
{
    for (uint64_t i = 0; gs_global_table[i].name; i++)
        if (!strcmp(gs_global_table[i].name, name)) {
            *dptr = GLOBAL_BASE + (i << 32);
            if (bytes) *bytes = gs_global_table[i].bytes;
            return 0;
        }
    snprintf(g_err, sizeof g_err, "global %s not in table", name);
    return GS_ERR_NOT_FOUND;
}
int gs_mem_alloc(gs_ctx *ctx, uint64_t *dptr, size_t bytes)
{ void *p = 0; int rc = cu(cudaMalloc(&p, bytes), "cudaMalloc"); *dptr = (uint64_t)(uintptr_t)p; return rc; }
int gs_mem_free(gs_ctx *ctx, uint64_t dptr) { return cu(cudaFree((void *)(uintptr_t)dptr), "cudaFree"); }
int gs_memcpy_htod(gs_ctx *ctx, uint64_t dst, const void *src, size_t n)
{
    size_t off;
    if (const struct gs_global_entry *g = global_at(dst, n, &off))
        return cu(cudaMemcpyToSymbol(g->var, src, n, off, cudaMemcpyHostToDevice), "cudaMemcpyToSymbol");
    return cu(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice), "cudaMemcpy HtoD"); }
int gs_memcpy_dtoh(gs_ctx *ctx, void *dst, uint64_t src, size_t n)
{
    size_t off;
    if (const struct gs_global_entry *g = global_at(src, n, &off))
        return cu(cudaMemcpyFromSymbol(dst, g->var, n, off, cudaMemcpyDeviceToHost), "cudaMemcpyFromSymbol");
    return cu(cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost), "cudaMemcpy DtoH"); }
int gs_memset_d8(gs_ctx *ctx, uint64_t dst, unsigned char v, size_t n)
{ return cu(cudaMemset((void *)(uintptr_t)dst, v, n), "cudaMemset"); }
int gs_launch_kernel(gs_function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                     unsigned bz, unsigned shared_bytes, void **params)
{
    /* GPGPU-Sim's cudaLaunchKernel expects the <<<>>> stub sequence: the
     * launch configuration pushed first (its __cudaPushCallConfiguration is
     * cudaConfigureCall). Only valid on GPGPU-Sim, which is all we run. */
    __cudaPushCallConfiguration(dim3(gx, gy, gz), dim3(bx, by, bz), shared_bytes, 0);
    return cu(cudaLaunchKernel(f->fn, dim3(gx, gy, gz), dim3(bx, by, bz), params, shared_bytes, 0),
              "cudaLaunchKernel");
}
int gs_ctx_synchronize(gs_ctx *ctx) { return cu(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
int gs_device_attribute(gs_ctx *ctx, int attr, int64_t *out)
{
    if (attr == GS_ATTR_SM_COUNT) { int v = 0; int rc = cu(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0), "attr"); *out = v; return rc; }
    snprintf(g_err, sizeof g_err, "gs_device_attribute %d unsupported", attr); return GS_ERR_UNSUPPORTED;
}
/* GPGPU-Sim's own occupancy (its get_max_cta; note that it leaves dynamic
 * shared memory out, docs/correlation.md "histo"): the persistent-CTA
 * workloads size their grids with it, so a difference shows as different
 * instruction counts. */
int gs_occupancy_ctas_per_sm(gs_function *f, unsigned block_threads, unsigned dyn_shared_bytes, unsigned *out)
{
    int n = 0;
    int rc = cu(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f->fn, (int)block_threads,
                                                                      dyn_shared_bytes, cudaOccupancyDefault),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
    *out = n > 0 ? (unsigned)n : 0;
    return rc;
}
}
