/* workloads/common/wl.c: the workload harness (see wl.h). */
#include "wl.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WL_SHOW_MISMATCHES 10 /* mismatches printed per check */

static const char *const size_names[WL_N_SIZES] = {"tiny", "small", "medium", "large"};

const char *wl_size_name(enum wl_size s) { return (unsigned)s < WL_N_SIZES ? size_names[s] : "?"; }

int wl_size_parse(const char *s)
{
    for (int i = 0; i < WL_N_SIZES; i++)
        if (!strcmp(s, size_names[i]))
            return i;
    return -1;
}

uint64_t wl_pick(const struct wl *w, uint64_t tiny, uint64_t small, uint64_t medium, uint64_t large)
{
    switch (w->size) {
    case WL_TINY: return tiny;
    case WL_SMALL: return small;
    case WL_MEDIUM: return medium;
    default: return large;
    }
}

/* ------------------------------------------------------------------ rng */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void wl_rng_init(struct wl_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t wl_rng_u64(struct wl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

uint32_t wl_rng_u32(struct wl_rng *r) { return (uint32_t)(wl_rng_u64(r) >> 32); }

uint32_t wl_rng_below(struct wl_rng *r, uint32_t n)
{
    /* Lemire's multiply-shift; the tiny bias (< n / 2^32) does not matter
     * for input generation and keeps the sequence simple to reproduce. */
    return (uint32_t)(((uint64_t)wl_rng_u32(r) * n) >> 32);
}

float wl_rng_float(struct wl_rng *r, float lo, float hi)
{
    float u = (float)(wl_rng_u64(r) >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0,1) */
    return lo + (hi - lo) * u;
}

double wl_rng_double(struct wl_rng *r, double lo, double hi)
{
    double u = (double)(wl_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0); /* 53 bits */
    return lo + (hi - lo) * u;
}

/* --------------------------------------------------------------- errors */
bool wl_ok(const struct wl *w) { return w->status == WL_PASS; }

static void vfail(struct wl *w, int status, const char *fmt, va_list ap)
{
    if (w->status == WL_PASS || (w->status == WL_MISMATCH && status != WL_MISMATCH))
        w->status = status;
    fprintf(stderr, "%s: ", w->desc->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void wl_fail(struct wl *w, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(w, status, fmt, ap);
    va_end(ap);
}

void wl_note(const struct wl *w, const char *fmt, ...)
{
    if (w->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("  ");
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

/* Map a gs_* error to a run status and record it with its message. */
static void gs_failed(struct wl *w, int rc, const char *what)
{
    int status;
    switch (rc) {
    case GS_ERR_EXEC:
    case GS_ERR_WATCHDOG:
    case GS_ERR_INTERRUPTED:
    case GS_ERR_OUT_OF_MEMORY:
        status = WL_SIM_ERROR;
        break;
    default:
        status = WL_INPUT_ERROR;
        break;
    }
    if (!w->gs_err)
        w->gs_err = rc;
    wl_fail(w, status, "%s failed (%s): %s", what, gs_error_name(rc), gs_last_error(w->ctx));
}

void *wl_host_alloc(struct wl *w, size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        wl_fail(w, WL_SIM_ERROR, "out of host memory (%zu bytes)", bytes);
        /* The driver cannot continue without its buffer; there is no clean
         * way back through arbitrary driver code, so stop here. */
        exit(1);
    }
    return p;
}

/* ---------------------------------------------------------------- device */
static bool load_module(struct wl *w)
{
    int rc;
    if (!w->mod && (rc = gs_module_load_data_ex(w->ctx, w->ptx, w->regs, w->ptx_name, &w->mod)) != 0) {
        gs_failed(w, rc, "loading the kernel PTX");
        return false;
    }
    return true;
}

gs_function *wl_kernel(struct wl *w, const char *name)
{
    if (!wl_ok(w))
        return NULL;
    if (!load_module(w))
        return NULL;
    gs_function *f = NULL;
    int rc;
    if ((rc = gs_module_get_function(w->mod, name, &f)) != 0) {
        gs_failed(w, rc, "looking up the kernel");
        return NULL;
    }
    return f;
}


uint64_t wl_global(struct wl *w, const char *name, size_t *bytes)
{
    if (!wl_ok(w) || !load_module(w))
        return 0;
    uint64_t d = 0;
    int rc = gs_module_get_global(w->mod, name, &d, bytes);
    if (rc) {
        gs_failed(w, rc, "looking up a module variable");
        return 0;
    }
    return d;
}

uint64_t wl_alloc(struct wl *w, size_t bytes)
{
    if (!wl_ok(w))
        return 0;
    uint64_t d = 0;
    int rc = gs_mem_alloc(w->ctx, &d, bytes ? bytes : 1);
    if (rc) {
        gs_failed(w, rc, "gs_mem_alloc");
        return 0;
    }
    wl_memset(w, d, 0, bytes);
    return d;
}

uint64_t wl_alloc_copy(struct wl *w, const void *src, size_t bytes)
{
    uint64_t d = wl_alloc(w, bytes);
    wl_htod(w, d, src, bytes);
    return d;
}

void wl_free(struct wl *w, uint64_t dptr)
{
    if (!dptr)
        return;
    int rc = gs_mem_free(w->ctx, dptr);
    if (rc && wl_ok(w))
        gs_failed(w, rc, "gs_mem_free");
}

void wl_htod(struct wl *w, uint64_t dst, const void *src, size_t bytes)
{
    int rc;
    if (wl_ok(w) && (rc = gs_memcpy_htod(w->ctx, dst, src, bytes)) != 0)
        gs_failed(w, rc, "gs_memcpy_htod");
}

void wl_dtoh(struct wl *w, void *dst, uint64_t src, size_t bytes)
{
    int rc;
    if (wl_ok(w) && (rc = gs_memcpy_dtoh(w->ctx, dst, src, bytes)) != 0)
        gs_failed(w, rc, "gs_memcpy_dtoh");
}

void wl_memset(struct wl *w, uint64_t dst, unsigned char v, size_t bytes)
{
    int rc;
    if (wl_ok(w) && (rc = gs_memset_d8(w->ctx, dst, v, bytes)) != 0)
        gs_failed(w, rc, "gs_memset_d8");
}

void wl_launch(struct wl *w, gs_function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
               unsigned bz, unsigned shared_bytes, void **params)
{
    if (!wl_ok(w) || !f)
        return;
    w->launches++;
    int rc = gs_launch_kernel(f, gx, gy, gz, bx, by, bz, shared_bytes, params);
    if (rc) {
        gs_failed(w, rc, "kernel launch");
        return;
    }
    if ((rc = gs_ctx_synchronize(w->ctx)) != 0)
        gs_failed(w, rc, "kernel execution");
}

int64_t wl_device_attr(struct wl *w, int attr)
{
    int64_t v = 0;
    int rc;
    if (wl_ok(w) && (rc = gs_device_attribute(w->ctx, attr, &v)) != 0)
        gs_failed(w, rc, "gs_device_attribute");
    return v;
}

unsigned wl_max_resident_ctas(struct wl *w, gs_function *f, unsigned block_threads, unsigned shared_bytes)
{
    if (!wl_ok(w) || !f)
        return 0;
    unsigned per_sm = 0;
    int rc = gs_occupancy_ctas_per_sm(f, block_threads, shared_bytes, &per_sm);
    if (rc) {
        gs_failed(w, rc, "gs_occupancy_ctas_per_sm");
        return 0;
    }
    if (per_sm == 0) {
        wl_fail(w, WL_INPUT_ERROR, "one CTA of %u threads does not fit an SM", block_threads);
        return 0;
    }
    return per_sm * (unsigned)wl_device_attr(w, GS_ATTR_SM_COUNT);
}

/* -------------------------------------------------------------- checking */
static size_t mismatch(struct wl *w, const char *what, size_t shown, size_t i, const char *got, const char *want)
{
    if (shown < WL_SHOW_MISMATCHES)
        fprintf(stderr, "%s: mismatch in %s[%zu]: got %s, expected %s\n", w->desc->name, what, i, got, want);
    return shown + 1;
}

static size_t check_done(struct wl *w, const char *what, size_t bad, size_t n)
{
    if (bad) {
        w->mismatches += (unsigned)(bad > UINT32_MAX ? UINT32_MAX : bad);
        wl_fail(w, WL_MISMATCH, "%s: %zu of %zu elements differ from the CPU reference%s", what, bad, n,
                bad > WL_SHOW_MISMATCHES ? " (first 10 shown)" : "");
    }
    return bad;
}

#define CHECK_INT(fn, T, FMT, CAST)                                                                  \
    size_t fn(struct wl *w, const char *what, const T *got, const T *want, size_t n)             \
    {                                                                                            \
        size_t bad = 0;                                                                          \
        for (size_t i = 0; i < n; i++) {                                                         \
            if (got[i] != want[i]) {                                                             \
                char g[32], e[32];                                                               \
                snprintf(g, sizeof g, FMT, (CAST)got[i]);                                        \
                snprintf(e, sizeof e, FMT, (CAST)want[i]);                                       \
                bad = mismatch(w, what, bad, i, g, e);                                           \
            }                                                                                    \
        }                                                                                        \
        return check_done(w, what, bad, n);                                                      \
    }

CHECK_INT(wl_check_u32, uint32_t, "%" PRIu32, uint32_t)
CHECK_INT(wl_check_i32, int32_t, "%" PRId32, int32_t)
CHECK_INT(wl_check_u64, uint64_t, "%" PRIu64, uint64_t)
CHECK_INT(wl_check_u8, uint8_t, "%u", unsigned)

static bool close_enough(double g, double e, double rel, double abs_tol)
{
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g))
        return g == e;
    return fabs(g - e) <= abs_tol + rel * fabs(e);
}

size_t wl_check_f32(struct wl *w, const char *what, const float *got, const float *want, size_t n, double rel_tol,
                    double abs_tol)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!close_enough(got[i], want[i], rel_tol, abs_tol)) {
            char g[40], e[40];
            snprintf(g, sizeof g, "%.9g", (double)got[i]);
            snprintf(e, sizeof e, "%.9g", (double)want[i]);
            bad = mismatch(w, what, bad, i, g, e);
        }
    }
    return check_done(w, what, bad, n);
}

size_t wl_check_f64(struct wl *w, const char *what, const double *got, const double *want, size_t n,
                    double rel_tol, double abs_tol)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (!close_enough(got[i], want[i], rel_tol, abs_tol)) {
            char g[40], e[40];
            snprintf(g, sizeof g, "%.17g", got[i]);
            snprintf(e, sizeof e, "%.17g", want[i]);
            bad = mismatch(w, what, bad, i, g, e);
        }
    }
    return check_done(w, what, bad, n);
}

bool wl_check(struct wl *w, bool cond, const char *fmt, ...)
{
    if (cond)
        return true;
    va_list ap;
    va_start(ap, fmt);
    w->mismatches++;
    vfail(w, WL_MISMATCH, fmt, ap);
    va_end(ap);
    return false;
}

int wl_finish(struct wl *w) { return w->status; }

/* -------------------------------------------------------------- registry */
const struct wl_entry *wl_find(const char *name)
{
    for (unsigned i = 0; i < wl_registry_len; i++)
        if (!strcmp(wl_registry[i].desc->name, name))
            return &wl_registry[i];
    return NULL;
}

int wl_run(const struct wl_entry *e, const struct wl_run_opts *o, gs_ctx **ctx_out)
{
    if (ctx_out)
        *ctx_out = NULL;
    gs_ctx *ctx = gs_ctx_create(o->config, o->overrides);
    if (!ctx) {
        fprintf(stderr, "%s\n", gs_last_error(NULL));
        return WL_INPUT_ERROR;
    }
    if (gs_ctx_set_host(ctx, &o->host) != 0) {
        fprintf(stderr, "%s\n", gs_last_error(ctx));
        gs_ctx_destroy(ctx);
        return WL_INPUT_ERROR;
    }
    char name[256];
    snprintf(name, sizeof name, "workloads/%s/kernel.ptx", e->desc->name);
    struct wl w = {
        .desc = e->desc,
        .ctx = ctx,
        .size = o->size,
        .seed = o->seed,
        .quiet = o->quiet,
        .ptx = o->ptx_override ? o->ptx_override : e->ptx,
        .regs = o->ptx_override ? o->ptx_override_regs : e->regs,
        .ptx_name = o->ptx_override ? (o->ptx_override_name ? o->ptx_override_name : "<--ptx>") : name,
    };
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
    gs_stats_set_info(ctx, "workload", e->desc->name);
    gs_stats_set_info(ctx, "size", wl_size_name(o->size));
    gs_stats_set_info(ctx, "seed", seed);
    int rc = e->desc->run(&w);
    if (rc == WL_PASS && w.status != WL_PASS)
        rc = w.status; /* a driver that forgot wl_finish */
    if (rc == WL_PASS && w.launches == 0) {
        fprintf(stderr, "%s: the driver launched no kernel\n", e->desc->name);
        rc = WL_SIM_ERROR;
    }
    static const char *const verdict[] = {"verified", "mismatch", "simulation error", "input error"};
    gs_stats_set_info(ctx, "verdict", rc >= 0 && rc <= WL_INPUT_ERROR ? verdict[rc] : "error");
    if (ctx_out)
        *ctx_out = ctx;
    else
        gs_ctx_destroy(ctx);
    return rc;
}
