/* bench/func.c: speed of the functional executor (not a test).
 *
 *  (a) compute   bench/kernels/compute.ptx: a register-only fp32 FMA and
 *                integer-hash loop, 120 CTAs x 256 threads x --iters
 *                iterations. Thread instructions per host second on one core
 *                (the issue-3 target is 100 M/s) and warp instructions per s.
 *                Best of --repeat runs.
 *  (b) workloads every workload of the suite (or --workloads a,b,...) at
 *                --size (default small): warp and thread instructions, the
 *                host seconds spent inside kernels, and the rates. Each run
 *                is also verified; a failed verification is reported.
 *  (c) PTX front end  a synthetic kernel of --ptx-lines lines (default
 *                10,000; tests/support/ptx_big.h: ~2,000 registers live
 *                nearly everywhere, the worst case for the passes' bit sets):
 *                seconds for ptx_parse (lexing, parsing, CFG and the
 *                built-in passes) and for each built-in pass run again on
 *                the parsed function. Best of --repeat. (Kept here rather
 *                than in test_ptx_parse: tests do not assert timing.)
 *
 * Prints Markdown; --json FILE also writes the numbers and the machine.
 * Options: --quick (fewer iterations, tiny workloads: a CI smoke), --iters N,
 * --repeat N, --size S, --workloads LIST, --ptx-lines N, --json FILE, --help.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpusim.h"
#include "sim/base/json.h"
#include "sim/ptx/passes/passes.h"
#include "sim/ptx/ptx.h"
#include "support/machine.h"
#include "tests/support/ptx_big.h"
#include "wl.h"

#define MAX_WL 128
#define MAX_PASSES 8

struct wl_row {
    const char *name;
    int status;            /* enum wl_status */
    uint64_t warp_insts;   /* func.warp_insts */
    uint64_t thread_insts; /* func.thread_insts */
    uint64_t kernels;      /* func.kernels */
    double kernel_s;       /* host seconds inside kernels */
    double total_s;        /* host seconds for the whole run (inputs, reference, check) */
};

struct bench {
    bool quick;
    const char *json_path;
    int iters, repeat;
    enum wl_size size;
    const char *only;        /* --workloads, NULL = all */
    struct machine m;
    /* (a) */
    uint64_t c_thread_insts, c_warp_insts;
    double c_best_s;
    bool c_ok;
    /* (b) */
    struct wl_row rows[MAX_WL];
    unsigned n_rows;
    /* (c) */
    int ptx_lines;
    uint32_t p_insns, p_regs;
    double p_parse_s;                /* ptx_parse, passes included */
    double p_pass_s[MAX_PASSES];     /* each built-in pass alone */
    unsigned p_n_passes;
    bool p_ok;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool listed(const char *list, const char *name)
{
    if (!list)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

/* (a): the compute kernel, best of b->repeat launches. */
static int bench_compute(struct bench *b)
{
    gs_ctx *c = gs_ctx_create("gtx480", NULL);
    if (!c) {
        fprintf(stderr, "func: %s\n", gs_last_error(NULL));
        return 2;
    }
    gs_module *m;
    gs_function *f;
    if (gs_module_load(c, GPUSIM_SOURCE_DIR "/bench/kernels/compute.ptx", &m) ||
        gs_module_get_function(m, "compute", &f)) {
        fprintf(stderr, "func: %s\n", gs_last_error(c));
        gs_ctx_destroy(c);
        return 2;
    }
    const unsigned grid = 120, block = 256, n = grid * block;
    uint64_t dout, diout;
    gs_mem_alloc(c, &dout, n * 4);
    gs_mem_alloc(c, &diout, n * 4);
    void *args[] = {&dout, &diout, &b->iters};
    b->c_best_s = 1e30;
    b->c_ok = true;
    for (int r = 0; r < b->repeat; r++) {
        uint64_t t0 = 0, t1 = 0, w0 = 0, w1 = 0;
        gs_stats_get_u64(c, "func.thread_insts", &t0);
        gs_stats_get_u64(c, "func.warp_insts", &w0);
        double s0 = now_s();
        int rc = gs_launch_kernel(f, grid, 1, 1, block, 1, 1, 0, args);
        double s = now_s() - s0;
        if (rc) {
            fprintf(stderr, "func: %s\n", gs_last_error(c));
            b->c_ok = false;
            break;
        }
        gs_stats_get_u64(c, "func.thread_insts", &t1);
        gs_stats_get_u64(c, "func.warp_insts", &w1);
        b->c_thread_insts = t1 - t0;
        b->c_warp_insts = w1 - w0;
        if (s < b->c_best_s)
            b->c_best_s = s;
    }
    /* Spot-check the hash results against the host (the float chain is
     * checked by the workloads; this only guards against a broken run). */
    unsigned *h = malloc(n * sizeof *h);
    gs_memcpy_dtoh(c, h, diout, n * 4);
    for (unsigned i = 0; i < n && b->c_ok; i += 977) {
        unsigned v = i * 2654435761u;
        for (int k = 0; k < b->iters; k++)
            v = (v ^ (v >> 13)) * 0x5bd1e995u + (unsigned)k;
        if (v != h[i]) {
            fprintf(stderr, "func: compute kernel result wrong at thread %u\n", i);
            b->c_ok = false;
        }
    }
    free(h);
    gs_ctx_destroy(c);
    return b->c_ok ? 0 : 1;
}

/* (b): the workloads. */
static int bench_workloads(struct bench *b)
{
    int bad = 0;
    for (unsigned i = 0; i < wl_registry_len && b->n_rows < MAX_WL; i++) {
        const struct wl_entry *e = &wl_registry[i];
        if (!listed(b->only, e->desc->name))
            continue;
        struct wl_row *r = &b->rows[b->n_rows++];
        r->name = e->desc->name;
        struct wl_run_opts o = {.config = "gtx480", .size = b->size, .seed = 1, .quiet = true};
        gs_ctx *c = NULL;
        double s0 = now_s();
        r->status = wl_run(e, &o, &c);
        r->total_s = now_s() - s0;
        if (c) {
            gs_stats_get_u64(c, "func.warp_insts", &r->warp_insts);
            gs_stats_get_u64(c, "func.thread_insts", &r->thread_insts);
            gs_stats_get_u64(c, "func.kernels", &r->kernels);
            r->kernel_s = gs_host_kernel_seconds(c);
            gs_ctx_destroy(c);
        }
        if (r->status != WL_PASS)
            bad = 1;
        fprintf(stderr, "  %-16s %.2f s\n", r->name, r->total_s);
    }
    return bad;
}

/* (c): the front end on the synthetic kernel, best of b->repeat. */
static int bench_ptx(struct bench *b)
{
    size_t len = 0;
    char *buf = ptx_big_kernel(b->ptx_lines, &len);
    b->p_parse_s = 1e30;
    b->p_n_passes = ptx_n_builtin_passes < MAX_PASSES ? (unsigned)ptx_n_builtin_passes : MAX_PASSES;
    for (unsigned i = 0; i < b->p_n_passes; i++)
        b->p_pass_s[i] = 1e30;
    b->p_ok = true;
    for (int r = 0; r < b->repeat && b->p_ok; r++) {
        struct diag d;
        diag_init(&d);
        struct ptx_module *m = NULL;
        double s0 = now_s();
        int rc = ptx_parse(buf, len, "big.ptx", &m, &d);
        double s = now_s() - s0;
        if (rc != PTX_OK || !m || !m->n_funcs) {
            diag_print(&d, stderr);
            b->p_ok = false;
        } else {
            struct ptx_func *fn = &m->funcs[0];
            b->p_insns = fn->n_insns;
            b->p_regs = fn->n_regs;
            if (s < b->p_parse_s)
                b->p_parse_s = s;
            /* the passes are idempotent: each run again, in pipeline order */
            for (unsigned i = 0; i < b->p_n_passes; i++) {
                s0 = now_s();
                ptx_builtin_passes[i].run(fn, NULL);
                s = now_s() - s0;
                if (s < b->p_pass_s[i])
                    b->p_pass_s[i] = s;
            }
            b->p_ok = ptx_slots_check(fn);
        }
        ptx_module_free(m);
        diag_fini(&d);
    }
    free(buf);
    if (!b->p_ok)
        fprintf(stderr, "func: the synthetic PTX kernel failed to parse or its slots are invalid\n");
    return b->p_ok ? 0 : 1;
}

static double rate(uint64_t n, double s) { return s > 0 ? (double)n / s : 0.0; }

static void print_workloads(const struct bench *b)
{
    printf("\n## (b) Workloads, size %s, seed 1, gtx480\n\n", wl_size_name(b->size));
    printf("Rates use the host time spent inside kernels; \"run s\" also includes input generation, copies,\n"
           "the CPU reference and the check.\n\n");
    printf("| workload | kernels | warp insts | thread insts | lanes/warp-inst | kernel s | run s | M warp-insts/s | "
           "M thread-insts/s | verified |\n");
    printf("|:--|---:|---:|---:|---:|---:|---:|---:|---:|:--|\n");
    uint64_t tw = 0, tt = 0;
    double ts = 0;
    for (unsigned i = 0; i < b->n_rows; i++) {
        const struct wl_row *r = &b->rows[i];
        printf("| %s | %llu | %llu | %llu | %.1f | %.3f | %.2f | %.2f | %.1f | %s |\n", r->name,
               (unsigned long long)r->kernels, (unsigned long long)r->warp_insts,
               (unsigned long long)r->thread_insts,
               r->warp_insts ? (double)r->thread_insts / (double)r->warp_insts : 0.0, r->kernel_s, r->total_s,
               rate(r->warp_insts, r->kernel_s) * 1e-6, rate(r->thread_insts, r->kernel_s) * 1e-6,
               r->status == WL_PASS ? "yes" : "NO");
        tw += r->warp_insts;
        tt += r->thread_insts;
        ts += r->kernel_s;
    }
    printf("| **all** | | %llu | %llu | %.1f | %.3f | | %.2f | %.1f | |\n", (unsigned long long)tw,
           (unsigned long long)tt, tw ? (double)tt / (double)tw : 0.0, ts, rate(tw, ts) * 1e-6,
           rate(tt, ts) * 1e-6);
}

static void print_markdown(const struct bench *b)
{
    printf("# gpusim functional-mode speed%s\n\n", b->quick ? " (--quick)" : "");
    machine_print_markdown(&b->m);
    printf("\n## (a) Compute kernel (one host core)\n\n");
    printf("120 CTAs x 256 threads x %d iterations of 3 FMA + FMUL + integer hash; best of %d.\n\n", b->iters,
           b->repeat);
    printf("| thread insts | warp insts | seconds | M thread-insts/s | M warp-insts/s | result |\n");
    printf("|---:|---:|---:|---:|---:|:--|\n");
    printf("| %llu | %llu | %.3f | %.1f | %.2f | %s |\n", (unsigned long long)b->c_thread_insts,
           (unsigned long long)b->c_warp_insts, b->c_best_s, rate(b->c_thread_insts, b->c_best_s) * 1e-6,
           rate(b->c_warp_insts, b->c_best_s) * 1e-6, b->c_ok ? "ok" : "WRONG");
    if (b->n_rows)
        print_workloads(b);
    if (b->ptx_lines > 0) {
        double passes = 0;
        printf("\n## (c) PTX front end (one host core)\n\n");
        printf("Synthetic kernel, %d lines: %u instructions, %u registers; best of %d.\n\n", b->ptx_lines,
               b->p_insns, b->p_regs, b->repeat);
        printf("| stage | ms |\n|:--|---:|\n");
        for (unsigned i = 0; i < b->p_n_passes; i++) {
            printf("| pass %s | %.2f |\n", ptx_builtin_passes[i].name, b->p_pass_s[i] * 1e3);
            passes += b->p_pass_s[i];
        }
        printf("| lex, parse, CFG (the rest) | %.2f |\n", (b->p_parse_s - passes) * 1e3);
        printf("| **ptx_parse, all** | %.2f |\n", b->p_parse_s * 1e3);
    }
}

static void write_json(struct json_writer *w, void *arg)
{
    const struct bench *b = arg;
    jw_obj_begin(w, NULL);
    jw_str(w, "bench", "func");
    jw_bool(w, "quick", b->quick);
    machine_write_json(&b->m, w);
    jw_obj_begin(w, "compute");
    jw_i64(w, "iters", b->iters);
    jw_u64(w, "thread_insts", b->c_thread_insts);
    jw_u64(w, "warp_insts", b->c_warp_insts);
    jw_double(w, "seconds", b->c_best_s);
    jw_double(w, "thread_insts_per_second", rate(b->c_thread_insts, b->c_best_s));
    jw_double(w, "warp_insts_per_second", rate(b->c_warp_insts, b->c_best_s));
    jw_bool(w, "result_ok", b->c_ok);
    jw_obj_end(w);
    if (b->ptx_lines > 0) {
        jw_obj_begin(w, "ptx_front_end");
        jw_i64(w, "lines", b->ptx_lines);
        jw_u64(w, "insns", b->p_insns);
        jw_u64(w, "regs", b->p_regs);
        jw_double(w, "parse_seconds", b->p_parse_s);
        jw_obj_begin(w, "pass_seconds");
        for (unsigned i = 0; i < b->p_n_passes; i++)
            jw_double(w, ptx_builtin_passes[i].name, b->p_pass_s[i]);
        jw_obj_end(w);
        jw_bool(w, "result_ok", b->p_ok);
        jw_obj_end(w);
    }
    jw_str(w, "workload_size", wl_size_name(b->size));
    jw_arr_begin(w, "workloads");
    for (unsigned i = 0; i < b->n_rows; i++) {
        const struct wl_row *r = &b->rows[i];
        jw_obj_begin(w, NULL);
        jw_str(w, "name", r->name);
        jw_bool(w, "verified", r->status == WL_PASS);
        jw_u64(w, "kernels", r->kernels);
        jw_u64(w, "warp_insts", r->warp_insts);
        jw_u64(w, "thread_insts", r->thread_insts);
        jw_double(w, "kernel_seconds", r->kernel_s);
        jw_double(w, "run_seconds", r->total_s);
        jw_double(w, "warp_insts_per_second", rate(r->warp_insts, r->kernel_s));
        jw_double(w, "thread_insts_per_second", rate(r->thread_insts, r->kernel_s));
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    jw_finish(w);
}

static void usage(void)
{
    puts("usage: func [--quick] [--iters N] [--repeat N] [--size tiny|small|medium|large]\n"
         "            [--workloads a,b,...|none] [--ptx-lines N (0: skip)] [--json FILE]");
}

int main(int argc, char **argv)
{
    struct bench *b = calloc(1, sizeof *b);
    b->iters = 2000;
    b->repeat = 3;
    b->size = WL_SMALL;
    b->ptx_lines = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            b->quick = true;
            b->iters = 200;
            b->repeat = 1;
            b->size = WL_TINY;
        } else if (!strcmp(a, "--iters") && v) {
            b->iters = atoi(v), i++;
        } else if (!strcmp(a, "--repeat") && v) {
            b->repeat = atoi(v), i++;
        } else if (!strcmp(a, "--size") && v) {
            int s = wl_size_parse(v);
            if (s < 0) {
                usage();
                return 2;
            }
            b->size = (enum wl_size)s, i++;
        } else if (!strcmp(a, "--ptx-lines") && v) {
            b->ptx_lines = atoi(v), i++;
        } else if (!strcmp(a, "--workloads") && v) {
            b->only = v, i++;
        } else if (!strcmp(a, "--json") && v) {
            b->json_path = v, i++;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        } else {
            usage();
            return 2;
        }
    }
    if (b->iters < 1 || b->repeat < 1 || b->ptx_lines < 0 || b->ptx_lines > 1000000) {
        usage();
        return 2;
    }
    machine_probe(&b->m);
    int rc = bench_compute(b);
    if (rc == 2)
        return 2;
    if (b->ptx_lines > 0)
        rc |= bench_ptx(b);
    if (!b->only || strcmp(b->only, "none"))
        rc |= bench_workloads(b);
    print_markdown(b);
    if (b->json_path) {
        char err[256];
        if (json_write_atomic(b->json_path, write_json, b, err, sizeof err) != 0) {
            fprintf(stderr, "func: %s\n", err);
            rc = 1;
        }
    }
    free(b);
    return rc;
}
