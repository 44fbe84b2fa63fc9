/* sim/api/runtime.c: the public gs_* API (include/gpusim.h) on top of the
 * functional executor.
 *
 * What is modelled: the host side of a CUDA driver-API program: contexts
 * with a configuration, device memory allocation and copies, PTX module
 * loading, kernel parameter marshalling, launch validation and statistics.
 *
 * Execution: a kernel runs to completion inside gs_launch_kernel (the
 * launch is synchronous). A fault is returned by the launch itself and is
 * also remembered, so that the next gs_ctx_synchronize returns it too (as
 * CUDA reports asynchronous faults at synchronisation); synchronize then
 * clears it. sim.mode = functional runs the kernel in the functional
 * executor (sim/func); sim.mode = timing runs it on the cycle-level model
 * (sim/gpu/gpu.c), whose host copies go through the L2 (docs/timing.md).
 *
 * Errors: every failing call stores its message in the context (read with
 * gs_last_error(ctx)) and in a _Thread_local buffer of the calling host
 * thread (gs_last_error(NULL)). The thread-local buffer is per host thread,
 * not state shared between contexts or threads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpusim.h"
#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/gpu/eng_json.h"
#include "sim/gpu/gpu.h"
#include "sim/base/json.h"
#include "sim/ptx/passes/kpass_rt.h"
#include "sim/ptx/ptx.h"
#include "sim/api/runtime_internal.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/energy/energy.h"
#include "sim/base/version.h"

/* Last message of the calling host thread (gs_last_error(NULL)). */
static _Thread_local char tls_err[RT_ERR_LEN];

static int fail(gs_ctx *ctx, int code, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int fail(gs_ctx *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tls_err, sizeof tls_err, fmt, ap);
    va_end(ap);
    if (ctx)
        snprintf(ctx->err, sizeof ctx->err, "%s", tls_err);
    return code;
}

static void set_msg(gs_ctx *ctx, const char *msg)
{
    snprintf(tls_err, sizeof tls_err, "%s", msg);
    if (ctx)
        snprintf(ctx->err, sizeof ctx->err, "%s", msg);
}

const char *gs_last_error(const gs_ctx *ctx)
{
    return ctx ? ctx->err : tls_err;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------- contexts */
gs_ctx *gs_ctx_create(const char *config, const char *const *overrides)
{
    gs_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        fail(NULL, GS_ERR_OUT_OF_MEMORY, "gs_ctx_create: out of host memory");
        return NULL;
    }
    struct diag d;
    diag_init(&d);
    cfg_init(&ctx->cfg);
    if (config)
        cfg_load(&ctx->cfg, config, &d);
    for (size_t i = 0; overrides && overrides[i] && diag_count(&d) == 0; i++)
        cfg_set(&ctx->cfg, overrides[i], "override", &d);
    if (diag_count(&d) == 0)
        cfg_finish(&ctx->cfg, &d);
    if (diag_count(&d) > 0) {
        char *msg = diag_join(&d);
        fail(NULL, GS_ERR_CONFIG, "gs_ctx_create: configuration error: %s", msg ? msg : "?");
        free(msg);
        diag_fini(&d);
        cfg_fini(&ctx->cfg);
        free(ctx);
        return NULL;
    }
    diag_fini(&d);
    devmem_init(&ctx->mem, FUNC_GEN_SHARED_BASE);
    ctx->stats = stats_create();
    func_stats_register(&ctx->fst, ctx->stats);
    {
        char kerr[RT_ERR_LEN];
        int kcode = GS_ERR_CONFIG;
        ctx->kpass = kpass_state_create(ctx->cfg.values, ctx->stats, &kcode, kerr, sizeof kerr);
        if (!ctx->kpass) {
            fail(NULL, kcode, "gs_ctx_create: configuration error: %s", kerr);
            stats_destroy(ctx->stats);
            devmem_fini(&ctx->mem);
            cfg_fini(&ctx->cfg);
            free(ctx);
            return NULL;
        }
    }
    if (ctx->cfg.values->sim.mode == SIM_MODE_TIMING) {
        char err[RT_ERR_LEN];
        ctx->gpu = gpu_create(ctx->cfg.values, &ctx->mem, ctx->stats, err, sizeof err);
        if (!ctx->gpu) {
            fail(NULL, GS_ERR_CONFIG, "gs_ctx_create: %s", err);
            stats_destroy(ctx->stats);
            kpass_state_destroy(ctx->kpass);
            devmem_fini(&ctx->mem);
            cfg_fini(&ctx->cfg);
            free(ctx);
            return NULL;
        }
        struct gpu_host_opts ho = {0, 0, 0, ENG_PIN_NONE, false, NULL};
        gpu_set_host(ctx->gpu, &ho);
    }
    return ctx;
}

int gs_ctx_set_host(gs_ctx *ctx, const gs_host_opts *o)
{
    if (!ctx || !o)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_ctx_set_host: NULL argument");
    if (ctx->launched)
        return fail(ctx, GS_ERR_STATE, "gs_ctx_set_host: host threads are fixed by the first launch");
    ctx->stop_flag = (const atomic_u32 *)(uintptr_t)o->stop_flag;
    if (!ctx->gpu)
        return 0;
    if ((o->sm_threads == 0) != (o->mem_threads == 0))
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_ctx_set_host: give both sm_threads and mem_threads, or neither");
    if (o->pin < ENG_PIN_NONE || o->pin > ENG_PIN_AUTO)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_ctx_set_host: pin must be 0, 1, 2 or 3");
    struct gpu_host_opts ho = {o->threads,       o->sm_threads,   o->mem_threads, (enum eng_pin)o->pin,
                               o->progress != 0, (const atomic_u32 *)(uintptr_t)o->stop_flag};
    gpu_set_host(ctx->gpu, &ho);
    return 0;
}

static void module_free(gs_module *m)
{
    if (!m)
        return;
    if (m->var_addr && m->ptx)
        for (uint32_t i = 0; i < m->ptx->n_vars; i++)
            if (m->var_addr[i])
                devmem_free(&m->ctx->mem, m->var_addr[i]);
    ptx_module_free(m->ptx);
    free(m->var_addr);
    free(m->funcs);
    free(m);
}

void gs_ctx_destroy(gs_ctx *ctx)
{
    if (!ctx)
        return;
    for (gs_module *m = ctx->mods, *n; m; m = n) {
        n = m->next;
        module_free(m);
    }
    for (unsigned i = 0; i < ctx->n_info; i++) {
        free(ctx->info_key[i]);
        free(ctx->info_val[i]);
    }
    gpu_destroy(ctx->gpu); /* before device memory: its partitions use it */
    devmem_fini(&ctx->mem);
    stats_destroy(ctx->stats);
    kpass_state_destroy(ctx->kpass); /* after the registry: it holds the passes' counters */
    cfg_fini(&ctx->cfg);
    free(ctx);
}

/* -------------------------------------------------------------- modules */
static int module_finish(gs_ctx *ctx, struct ptx_module *pm, gs_module **out)
{
    gs_module *m = calloc(1, sizeof *m);
    if (!m) {
        ptx_module_free(pm);
        return fail(ctx, GS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    m->ctx = ctx;
    m->ptx = pm;
    m->var_addr = calloc(pm->n_vars + 1, sizeof *m->var_addr);
    m->funcs = calloc(pm->n_funcs + 1, sizeof *m->funcs);
    if (!m->var_addr || !m->funcs) {
        module_free(m);
        return fail(ctx, GS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    for (uint32_t i = 0; i < pm->n_funcs; i++) {
        m->funcs[i].mod = m;
        m->funcs[i].fn = &pm->funcs[i];
    }
    /* Module-scope .global and .const variables live in device memory. */
    for (uint32_t i = 0; i < pm->n_vars; i++) {
        const struct ptx_var *v = &pm->vars[i];
        if ((v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) || v->size == 0)
            continue;
        int rc = devmem_alloc(&ctx->mem, v->size, &m->var_addr[i]);
        if (rc) {
            module_free(m);
            return fail(ctx, rc, "module load: no device memory for variable '%s' (%llu bytes)",
                        v->name, (unsigned long long)v->size);
        }
        if (v->init)
            memcpy(devmem_ptr(&ctx->mem, m->var_addr[i], v->size), v->init, v->size);
    }
    m->next = ctx->mods;
    ctx->mods = m;
    *out = m;
    return 0;
}

int gs_module_load(gs_ctx *ctx, const char *ptx_path, gs_module **out)
{
    if (!ctx || !ptx_path || !out)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_module_load: NULL argument");
    struct diag d;
    diag_init(&d);
    struct ptx_module *pm = NULL;
    int rc = ptx_load_file(ptx_path, &pm, &d);
    if (rc != PTX_OK) {
        char *msg = diag_join(&d);
        int code = rc == PTX_ERR_IO ? GS_ERR_IO : GS_ERR_PTX;
        fail(ctx, code, "gs_module_load: %s", msg && *msg ? msg : ptx_path);
        free(msg);
        diag_fini(&d);
        return code;
    }
    diag_fini(&d);
    return module_finish(ctx, pm, out);
}

int gs_module_load_data(gs_ctx *ctx, const char *ptx_text, gs_module **out)
{
    return gs_module_load_data_ex(ctx, ptx_text, NULL, NULL, out);
}

int gs_module_load_data_ex(gs_ctx *ctx, const char *ptx_text, const char *regs_text, const char *name,
                           gs_module **out)
{
    if (!ctx || !ptx_text || !out)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_module_load_data: NULL argument");
    const char *fname = name ? name : "<data>";
    struct diag d;
    diag_init(&d);
    struct ptx_module *pm = NULL;
    int rc = ptx_parse(ptx_text, strlen(ptx_text), fname, &pm, &d);
    if (rc == PTX_OK && regs_text) {
        char sidecar[512];
        snprintf(sidecar, sizeof sidecar, "%s.regs", fname);
        rc = ptx_apply_sidecar(pm, regs_text, strlen(regs_text), sidecar, &d);
        if (rc != PTX_OK) {
            ptx_module_free(pm);
            pm = NULL;
        }
    }
    if (rc != PTX_OK) {
        char *msg = diag_join(&d);
        fail(ctx, GS_ERR_PTX, "gs_module_load_data: %s", msg && *msg ? msg : "parse error");
        free(msg);
        diag_fini(&d);
        return GS_ERR_PTX;
    }
    diag_fini(&d);
    return module_finish(ctx, pm, out);
}

int gs_module_get_function(gs_module *m, const char *name, gs_function **out)
{
    if (!m || !name || !out)
        return fail(m ? m->ctx : NULL, GS_ERR_INVALID_VALUE, "gs_module_get_function: NULL argument");
    const struct ptx_func *fn = ptx_module_find(m->ptx, name);
    if (!fn || !fn->is_entry || !fn->has_body)
        return fail(m->ctx, GS_ERR_NOT_FOUND, "gs_module_get_function: no kernel (.entry) named '%s' in %s",
                    name, m->ptx->filename ? m->ptx->filename : "module");
    *out = &m->funcs[fn->index];
    return 0;
}

int gs_module_get_global(gs_module *m, const char *name, uint64_t *dptr, size_t *bytes)
{
    if (!m || !name || !dptr)
        return fail(m ? m->ctx : NULL, GS_ERR_INVALID_VALUE, "gs_module_get_global: NULL argument");
    int i = ptx_module_find_var(m->ptx, name);
    if (i < 0 || !m->var_addr[i])
        return fail(m->ctx, GS_ERR_NOT_FOUND,
                    "gs_module_get_global: no .global or .const variable named '%s' in %s", name,
                    m->ptx->filename ? m->ptx->filename : "module");
    *dptr = m->var_addr[i];
    if (bytes)
        *bytes = (size_t)m->ptx->vars[i].size;
    return 0;
}

/* --------------------------------------------------------------- memory */
int gs_mem_alloc(gs_ctx *ctx, uint64_t *dptr, size_t bytes)
{
    if (!ctx || !dptr)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_mem_alloc: NULL argument");
    if (bytes == 0)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_mem_alloc: size 0");
    int rc = devmem_alloc(&ctx->mem, bytes, dptr);
    if (rc)
        return fail(ctx, rc, "gs_mem_alloc: cannot allocate %zu bytes of device memory", bytes);
    return 0;
}

int gs_mem_free(gs_ctx *ctx, uint64_t dptr)
{
    if (!ctx)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_mem_free: NULL context");
    if (dptr == 0)
        return 0;
    if (devmem_free(&ctx->mem, dptr))
        return fail(ctx, GS_ERR_INVALID_VALUE,
                    "gs_mem_free: 0x%llx is not the start of a live allocation",
                    (unsigned long long)dptr);
    return 0;
}

static uint8_t *range(gs_ctx *ctx, const char *who, uint64_t d, size_t n, int *rc)
{
    uint8_t *p = devmem_ptr(&ctx->mem, d, n ? n : 1);
    if (!p)
        *rc = fail(ctx, GS_ERR_INVALID_VALUE,
                   "%s: device range [0x%llx, +%zu) is not inside one live allocation", who,
                   (unsigned long long)d, n);
    return p;
}

int gs_memcpy_htod(gs_ctx *ctx, uint64_t dst, const void *src, size_t n)
{
    if (!ctx || (!src && n))
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_memcpy_htod: NULL argument");
    if (n == 0)
        return 0;
    int rc = 0;
    uint8_t *p = range(ctx, "gs_memcpy_htod", dst, n, &rc);
    if (p) {
        memcpy(p, src, n);
        if (ctx->gpu && !gpu_host_write(ctx->gpu, dst, p, n))
            rc = fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_memcpy_htod: [0x%llx, +%zu) is beyond the timing model's "
                      "mapped device memory", (unsigned long long)dst, n);
    }
    return rc;
}

int gs_memcpy_dtoh(gs_ctx *ctx, void *dst, uint64_t src, size_t n)
{
    if (!ctx || (!dst && n))
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_memcpy_dtoh: NULL argument");
    if (n == 0)
        return 0;
    int rc = 0;
    uint8_t *p = range(ctx, "gs_memcpy_dtoh", src, n, &rc);
    /* Timing mode: through the L2, whose dirty lines are newer than memory. */
    if (p && !(ctx->gpu && gpu_host_read(ctx->gpu, src, dst, n)))
        memcpy(dst, p, n);
    return rc;
}

/* NOTE(dtod_chunks): a device-to-device copy moves DTOD_CHUNK bytes at a
 * time through a host buffer: each chunk is read whole (in timing mode
 * through the L2, dirty lines included) before it is written (store and any
 * L2 copy). Chunks go from the low end when dst is below src and from the
 * high end otherwise, so a chunk never overwrites source bytes that are
 * still to be read: overlapping ranges behave as memmove. */
#define DTOD_CHUNK 65536

int gs_memcpy_dtod(gs_ctx *ctx, uint64_t dst, uint64_t src, size_t n)
{
    if (!ctx)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_memcpy_dtod: NULL context");
    if (n == 0)
        return 0;
    int rc = 0;
    uint8_t *ps = range(ctx, "gs_memcpy_dtod (source)", src, n, &rc);
    uint8_t *pd = ps ? range(ctx, "gs_memcpy_dtod (destination)", dst, n, &rc) : NULL;
    if (!pd || dst == src)
        return rc;
    if (!ctx->gpu) {
        memmove(pd, ps, n); /* functional mode: device memory is the only copy */
        return 0;
    }
    uint8_t *buf = malloc(n < DTOD_CHUNK ? n : DTOD_CHUNK);
    if (!buf)
        return fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_memcpy_dtod: out of host memory");
    bool up = dst > src; /* copy the high end first */
    for (size_t done = 0; done < n && !rc;) {
        size_t k = n - done < DTOD_CHUNK ? n - done : DTOD_CHUNK;
        size_t off = up ? n - done - k : done;
        if (!gpu_host_read(ctx->gpu, src + off, buf, k))
            memcpy(buf, ps + off, k);
        memcpy(pd + off, buf, k);
        if (!gpu_host_write(ctx->gpu, dst + off, buf, k))
            rc = fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_memcpy_dtod: [0x%llx, +%zu) is beyond the timing model's "
                      "mapped device memory", (unsigned long long)dst, n);
        done += k;
    }
    free(buf);
    return rc;
}

int gs_memset_d8(gs_ctx *ctx, uint64_t dst, unsigned char v, size_t n)
{
    if (!ctx)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_memset_d8: NULL context");
    if (n == 0)
        return 0;
    int rc = 0;
    uint8_t *p = range(ctx, "gs_memset_d8", dst, n, &rc);
    if (p) {
        memset(p, v, n);
        if (ctx->gpu && !gpu_host_write(ctx->gpu, dst, p, n))
            rc = fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_memset_d8: [0x%llx, +%zu) is beyond the timing model's "
                      "mapped device memory", (unsigned long long)dst, n);
    }
    return rc;
}

/* --------------------------------------------------------------- launch */
/* Shared memory one CTA of fn needs (bytes): static (module and function
 * .shared) plus the dynamic amount requested at launch. */
static uint64_t cta_shared_bytes(const struct ptx_func *fn, unsigned dyn_bytes)
{
    uint64_t smem_static = fn->uses_dyn_shared || dyn_bytes ? fn->dyn_shared_offset : fn->shared_static_bytes;
    if (smem_static < fn->shared_static_bytes)
        smem_static = fn->shared_static_bytes;
    return smem_static + dyn_bytes;
}

int gs_occupancy_ctas_per_sm(gs_function *f, unsigned block_threads, unsigned dyn_shared_bytes, unsigned *out)
{
    if (!f || !out)
        return fail(f ? f->mod->ctx : NULL, GS_ERR_INVALID_VALUE, "gs_occupancy_ctas_per_sm: NULL argument");
    const struct sim_cfg *cv = f->mod->ctx->cfg.values;
    *out = block_threads == 0 || block_threads > cv->sm.max_block_threads
               ? 0
               : sm_ctas_per_sm(&cv->sm, &cv->smem, block_threads, f->fn->regs_per_thread,
                                cta_shared_bytes(f->fn, dyn_shared_bytes));
    return 0;
}

int gs_function_attribute(gs_function *f, int attr, int64_t *out)
{
    if (!f || !out)
        return fail(f ? f->mod->ctx : NULL, GS_ERR_INVALID_VALUE, "gs_function_attribute: NULL argument");
    switch (attr) {
    case GS_FATTR_NUM_REGS: *out = f->fn->regs_per_thread; return 0;
    case GS_FATTR_SHARED_BYTES: *out = (int64_t)cta_shared_bytes(f->fn, 0); return 0;
    case GS_FATTR_NUM_PARAMS: *out = f->fn->n_params - f->fn->n_rets; return 0;
    default: break;
    }
    return fail(f->mod->ctx, GS_ERR_INVALID_VALUE, "gs_function_attribute: unknown attribute %d", attr);
}

int gs_device_attribute(gs_ctx *ctx, int attr, int64_t *out)
{
    if (!ctx || !out)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_device_attribute: NULL argument");
    const struct sim_cfg *cv = ctx->cfg.values;
    switch (attr) {
    case GS_ATTR_SM_COUNT: *out = (int64_t)cv->gpu.n_sm; return 0;
    case GS_ATTR_WARP_SIZE: *out = 32; return 0;
    case GS_ATTR_MAX_THREADS_PER_BLOCK: *out = (int64_t)cv->sm.max_block_threads; return 0;
    case GS_ATTR_MAX_THREADS_PER_SM: *out = (int64_t)cv->sm.max_threads; return 0;
    case GS_ATTR_MAX_CTAS_PER_SM: *out = (int64_t)cv->sm.max_cta; return 0;
    case GS_ATTR_REGS_PER_SM: *out = (int64_t)cv->sm.n_regs; return 0;
    case GS_ATTR_SHARED_PER_SM: *out = (int64_t)cv->smem.size; return 0;
    case GS_ATTR_TIMING_MODE: *out = cv->sim.mode == SIM_MODE_TIMING; return 0;
    default: break;
    }
    return fail(ctx, GS_ERR_INVALID_VALUE, "gs_device_attribute: unknown attribute %d", attr);
}
int gs_launch_kernel(gs_function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                     unsigned bz, unsigned shared_bytes, void **params)
{
    if (!f)
        return fail(NULL, GS_ERR_INVALID_VALUE, "gs_launch_kernel: NULL function");
    gs_ctx *ctx = f->mod->ctx;
    const struct ptx_func *fn = f->fn;
    const char *name = fn->name;
    if (!gx || !gy || !gz || !bx || !by || !bz)
        return fail(ctx, GS_ERR_LAUNCH, "launch of '%s': zero dimension in grid (%u,%u,%u) or block (%u,%u,%u)",
                    name, gx, gy, gz, bx, by, bz);
    const struct sim_cfg *cv = ctx->cfg.values;
    uint64_t threads = (uint64_t)bx * by * bz;
    if (threads > cv->sm.max_block_threads || bz > 64)
        return fail(ctx, GS_ERR_LAUNCH,
                    "launch of '%s': block (%u,%u,%u) has %llu threads; at most %llu per CTA "
                    "(sm.max_block_threads) and z <= 64",
                    name, bx, by, bz, (unsigned long long)threads, (unsigned long long)cv->sm.max_block_threads);
    if (gy > 65535 || gz > 65535)
        return fail(ctx, GS_ERR_LAUNCH, "launch of '%s': grid (%u,%u,%u): y and z must be <= 65535", name,
                    gx, gy, gz);
    if (fn->maxntid[0] && threads > (uint64_t)fn->maxntid[0] * (fn->maxntid[1] ? fn->maxntid[1] : 1) *
                                        (fn->maxntid[2] ? fn->maxntid[2] : 1))
        return fail(ctx, GS_ERR_LAUNCH, "launch of '%s': %llu threads per CTA exceed its .maxntid", name,
                    (unsigned long long)threads);
    if (fn->reqntid[0] && (bx != fn->reqntid[0] || by != (fn->reqntid[1] ? fn->reqntid[1] : 1) ||
                           bz != (fn->reqntid[2] ? fn->reqntid[2] : 1)))
        return fail(ctx, GS_ERR_LAUNCH, "launch of '%s': block (%u,%u,%u) differs from its .reqntid", name,
                    bx, by, bz);
    uint64_t smem = cta_shared_bytes(fn, shared_bytes);
    if (smem > cv->smem.size)
        return fail(ctx, GS_ERR_LAUNCH,
                    "launch of '%s': %llu bytes of shared memory per CTA exceed smem.size = %llu", name,
                    (unsigned long long)smem, (unsigned long long)cv->smem.size);
    uint32_t per_sm = sm_ctas_per_sm(&cv->sm, &cv->smem, (uint32_t)threads, fn->regs_per_thread, smem);
    if (per_sm == 0)
        return fail(ctx, GS_ERR_LAUNCH,
                    "launch of '%s': one CTA of %llu threads x %u registers does not fit an SM "
                    "(sm.n_regs = %llu, sm.max_threads = %llu, sm.max_warps = %llu)",
                    name, (unsigned long long)threads, fn->regs_per_thread, (unsigned long long)cv->sm.n_regs,
                    (unsigned long long)cv->sm.max_threads, (unsigned long long)cv->sm.max_warps);
    /* Parameters: params[i] points at argument i; sizes/offsets from .param.
     * A void** carries no count, so too few arguments cannot be detected
     * (as in CUDA); a NULL entry or NULL array with parameters is refused. */
    uint32_t n_in = fn->n_params - fn->n_rets;
    uint8_t *pbuf = calloc(1, fn->param_bytes + 8);
    if (!pbuf)
        return fail(ctx, GS_ERR_OUT_OF_MEMORY, "launch of '%s': out of host memory", name);
    if (n_in && !params) {
        free(pbuf);
        return fail(ctx, GS_ERR_INVALID_VALUE, "launch of '%s': it takes %u parameters but params is NULL",
                    name, n_in);
    }
    for (uint32_t i = 0; i < n_in; i++) {
        if (!params[i]) {
            free(pbuf);
            return fail(ctx, GS_ERR_INVALID_VALUE, "launch of '%s': params[%u] (%s) is NULL", name, i,
                        fn->params[i].name);
        }
        memcpy(pbuf + fn->params[i].offset, params[i], fn->params[i].size);
    }
    char err[RT_ERR_LEN] = "";
    struct func_launch l = {
        .mod = f->mod->ptx,
        .fn = fn,
        .modvar_addr = f->mod->var_addr,
        .mem = &ctx->mem,
        .grid = {gx, gy, gz},
        .block = {bx, by, bz},
        .dyn_shared_bytes = shared_bytes,
        .params = pbuf,
        .max_resident_ctas = per_sm * (uint32_t)ctx->cfg.values->gpu.n_sm,
        .n_sm = (uint32_t)ctx->cfg.values->gpu.n_sm,
        .watchdog_per_warp = cv->sim.func_watchdog,
        .st = &ctx->fst,
        .stop_flag = ctx->stop_flag,
        .err = err,
        .err_len = sizeof err,
    };
    ctx->launched = true;
    if (ctx->gpu) {
        l.watchdog_per_warp = 0; /* timing mode has its own watchdog (sim.watchdog) */
        int prc = gpu_prepare(ctx->gpu, err, sizeof err);
        if (prc) {
            free(pbuf);
            return fail(ctx, prc, "launch of '%s': %s", name, err);
        }
    }
    /* Kernel-time passes (ptx.passes) and profile recording (docs/passes.md). */
    int krc = kpass_state_prepare(ctx->kpass, &l, per_sm, smem, err, sizeof err);
    if (krc) {
        free(pbuf);
        return fail(ctx, krc, "launch of '%s': %s", name, err);
    }
    stats_kernel_begin(ctx->stats, name);
    kpass_state_publish(ctx->kpass);
    double t0 = now_seconds();
    int rc = ctx->gpu ? gpu_launch(ctx->gpu, &l, per_sm, fn->regs_per_thread, smem) : func_run(&l);
    ctx->launch_seconds += now_seconds() - t0;
    stats_kernel_end(ctx->stats);
    free(pbuf);
    if (!rc) {
        rc = kpass_state_finish(ctx->kpass, rc, err, sizeof err);
        if (rc)
            snprintf(err + strlen(err), sizeof err - strlen(err), " (launch of '%s')", name);
    } else
        kpass_state_finish(ctx->kpass, rc, NULL, 0);
    if (rc == GS_ERR_INTERRUPTED)
        ctx->interrupted = true;
    if (rc) {
        set_msg(ctx, err);
        if (!ctx->pending_err)
            ctx->pending_err = rc;
    }
    return rc;
}

int gs_ctx_synchronize(gs_ctx *ctx)
{
    if (!ctx)
        return fail(NULL, GS_ERR_INVALID_VALUE, "gs_ctx_synchronize: NULL context");
    int rc = ctx->pending_err;
    ctx->pending_err = 0;
    return rc;
}

/* ---------------------------------------------------------------- stats */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static uint64_t st_u64(const gs_ctx *ctx, const char *name)
{
    uint64_t v = 0;
    stats_get_u64(ctx->stats, name, &v);
    return v;
}

/* Derived figures of a timing run (deterministic: part of what --threads
 * must not change). Definitions in docs/timing.md, "Statistics". */
static void timing_summary(const gs_ctx *ctx, struct json_writer *w)
{
    uint64_t cycles = st_u64(ctx, "gpu.cycles"), wi = st_u64(ctx, "func.warp_insts"),
             ti = st_u64(ctx, "func.thread_insts");
    jw_obj_begin(w, "timing");
    jw_u64(w, "cycles", cycles);
    jw_u64(w, "kernels", st_u64(ctx, "gpu.kernels"));
    jw_u64(w, "warp_insts", wi);
    jw_u64(w, "thread_insts", ti);
    jw_double(w, "ipc", ratio(ti, cycles));
    jw_double(w, "warp_ipc", ratio(wi, cycles));
    uint64_t sc = st_u64(ctx, "sm.sched.cycles");
    static const char *const why[] = {"stall_no_warp", "stall_ibuf_empty", "stall_barrier", "stall_mem_order",
                                      "stall_scoreboard", "stall_pipe_busy", "stall_policy"};
    jw_obj_begin(w, "issue_slots");
    jw_u64(w, "total", sc);
    jw_double(w, "issued", ratio(st_u64(ctx, "sm.sched.issued"), sc));
    for (size_t i = 0; i < sizeof why / sizeof *why; i++) {
        char n[64];
        snprintf(n, sizeof n, "sm.sched.%s", why[i]);
        jw_double(w, why[i], ratio(st_u64(ctx, n), sc));
    }
    jw_obj_end(w);
    jw_double(w, "l1d_load_hit_rate", ratio(st_u64(ctx, "l1d.load_hits"), st_u64(ctx, "l1d.loads")));
    uint64_t l2h = st_u64(ctx, "l2.hits"), l2m = st_u64(ctx, "l2.misses");
    jw_double(w, "l2_hit_rate", ratio(l2h, l2h + l2m));
    uint64_t rh = st_u64(ctx, "dram.row_hits");
    jw_double(w, "dram_row_hit_rate",
              ratio(rh, rh + st_u64(ctx, "dram.row_misses") + st_u64(ctx, "dram.row_conflicts")));
    jw_double(w, "dram_bandwidth_utilisation", ratio(st_u64(ctx, "dram.bus_busy_cycles"), st_u64(ctx, "dram.cycles")));
    jw_u64(w, "dram_reads", st_u64(ctx, "dram.reads"));
    jw_u64(w, "dram_writes", st_u64(ctx, "dram.writes"));
    double m = 0;
    stats_get_mean(ctx->stats, "ldst.load_lat_global", &m);
    jw_double(w, "avg_global_load_latency", m);
    m = 0;
    stats_get_mean(ctx->stats, "icnt.req.rx_latency", &m);
    jw_double(w, "avg_icnt_req_latency", m);
    jw_obj_end(w);
}

static void stats_doc(struct json_writer *w, void *arg)
{
    gs_ctx *ctx = arg;
    jw_obj_begin(w, NULL);
    jw_str(w, "format", "gpusim-stats-1");
    jw_bool(w, "complete", !ctx->interrupted);
    jw_str(w, "git_revision", sim_git_revision());
    jw_obj_begin(w, "run");
    for (unsigned i = 0; i < ctx->n_info; i++)
        jw_str(w, ctx->info_key[i], ctx->info_val[i]);
    jw_obj_end(w);
    cfg_write_json(&ctx->cfg, w, "config");
    jw_obj_begin(w, "stats");
    stats_write_json(ctx->stats, w);
    jw_obj_end(w);
    if (ctx->gpu) {
        timing_summary(ctx, w);
        energy_write_json(ctx->stats, &ctx->cfg, w); /* "energy" (docs/energy.md) */
    }
    /* "host" last: wall-clock facts that differ run to run. */
    jw_obj_begin(w, "host");
    jw_str(w, "version", sim_version());
    jw_str(w, "mode", ctx->gpu ? "timing" : "functional");
    static const struct gpu_summary zero;
    struct gpu_summary gsum = zero;
    if (ctx->gpu)
        gpu_summary(ctx->gpu, &gsum);
    jw_u64(w, "threads", ctx->gpu ? gsum.threads : 1);
    jw_double(w, "kernel_seconds", ctx->launch_seconds);
    if (ctx->gpu) {
        jw_double(w, "cycles_per_second", ctx->launch_seconds > 0 ? (double)gsum.cycles / ctx->launch_seconds : 0.0);
        eng_json_threads(w, gsum.per_thread, gsum.threads < GPU_MAX_THREADS ? gsum.threads : GPU_MAX_THREADS);
        eng_json_write(w, &gsum.adapt, &gsum.profile); /* "adaptive", "profile" (docs/engine.md) */
    }
    jw_double(w, "thread_insts_per_second",
              ctx->launch_seconds > 0 ? (double)ctx->fst.thread_insts / ctx->launch_seconds : 0.0);
    jw_double(w, "warp_insts_per_second",
              ctx->launch_seconds > 0 ? (double)ctx->fst.warp_insts / ctx->launch_seconds : 0.0);
    jw_obj_end(w);
    jw_obj_end(w);
    jw_finish(w);
}

int gs_stats_set_info(gs_ctx *ctx, const char *key, const char *value)
{
    if (!ctx || !key || !value || !*key)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_stats_set_info: NULL or empty argument");
    for (unsigned i = 0; i < ctx->n_info; i++) {
        if (!strcmp(ctx->info_key[i], key)) {
            char *v = strdup(value);
            if (!v)
                return fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_stats_set_info: out of host memory");
            free(ctx->info_val[i]);
            ctx->info_val[i] = v;
            return 0;
        }
    }
    if (ctx->n_info == RT_MAX_INFO)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_stats_set_info: more than %d entries", RT_MAX_INFO);
    char *k = strdup(key), *v = strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return fail(ctx, GS_ERR_OUT_OF_MEMORY, "gs_stats_set_info: out of host memory");
    }
    ctx->info_key[ctx->n_info] = k;
    ctx->info_val[ctx->n_info++] = v;
    return 0;
}

int gs_stats_get_u64(gs_ctx *ctx, const char *name, uint64_t *out)
{
    if (!ctx || !name || !out)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_stats_get_u64: NULL argument");
    if (!stats_get_u64(ctx->stats, name, out))
        return fail(ctx, GS_ERR_NOT_FOUND, "gs_stats_get_u64: no counter named '%s'", name);
    return 0;
}

double gs_host_kernel_seconds(const gs_ctx *ctx) { return ctx ? ctx->launch_seconds : 0.0; }

/* ------------------------------------------------------------- profiles */
int gs_profile_record(gs_ctx *ctx)
{
    if (!ctx)
        return fail(NULL, GS_ERR_INVALID_VALUE, "gs_profile_record: NULL context");
    char err[RT_ERR_LEN];
    int rc = kpass_state_profile_record(ctx->kpass, err, sizeof err);
    return rc ? fail(ctx, rc, "gs_profile_record: %s", err) : 0;
}

int gs_profile_save(gs_ctx *ctx, const char *path)
{
    if (!ctx || !path)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_profile_save: NULL argument");
    char err[RT_ERR_LEN];
    int rc = kpass_state_profile_save(ctx->kpass, path, err, sizeof err);
    return rc ? fail(ctx, rc, "gs_profile_save: %s", err) : 0;
}

int gs_profile_load(gs_ctx *ctx, const char *path)
{
    if (!ctx || !path)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_profile_load: NULL argument");
    char err[RT_ERR_LEN];
    int rc = kpass_state_profile_load(ctx->kpass, path, err, sizeof err);
    return rc ? fail(ctx, rc, "gs_profile_load: %s", err) : 0;
}

int gs_stats_write(gs_ctx *ctx, const char *json_path)
{
    if (!ctx || !json_path)
        return fail(ctx, GS_ERR_INVALID_VALUE, "gs_stats_write: NULL argument");
    char err[512];
    if (json_write_atomic(json_path, stats_doc, ctx, err, sizeof err) != 0)
        return fail(ctx, GS_ERR_IO, "gs_stats_write: %s", err);
    return 0;
}
