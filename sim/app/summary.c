/* sim/app/summary.c: the human summary of a run; see summary.h.
 *
 * Kernels are grouped by name in order of first launch (a workload that
 * launches the same kernel a hundred times gets one row, "name xN"); the
 * first SUMMARY_MAX_GROUPS groups get a row each, the rest one "(N more)"
 * row, then the whole run. Rates of a group are ratios of its summed
 * counts (not means of per-launch rates). Definitions are those of the
 * "timing" object of the statistics file (docs/timing.md "Statistics").
 */
#include "sim/app/summary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/api/runtime_internal.h"
#include "sim/base/common.h"
#include "sim/base/stats.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/energy/energy.h"
#include "sim/gpu/gpu.h"

/* Summed counts of one row (a kernel-name group, the others, the run). */
struct srow {
    const char *name;   /* kernel name (the registry's), NULL for "total" / "more" rows */
    unsigned launches;  /* kernels in the row */
    unsigned names;     /* distinct names in the row */
    uint64_t cycles, warp_insts, thread_insts;
    uint64_t l1_hits, l1_loads, l2_hits, l2_acc;
    uint64_t bus_busy, dram_cycles, row_hits, row_acc;
    double lat_sum, lat_count; /* global-load latency samples (core cycles) */
    double energy_nj;          /* energy model total */
};

/* A value of kernel k (k = ENERGY_WHOLE_RUN: the whole run); 0 when absent. */
static uint64_t val(const struct stats *s, size_t k, const char *name)
{
    uint64_t v = 0;
    if (k == ENERGY_WHOLE_RUN)
        stats_get_u64(s, name, &v);
    else
        stats_kernel_get_u64(s, k, name, &v);
    return v;
}

static void row_add(struct srow *r, const struct stats *s, const struct cfg *c, size_t k, bool timing)
{
    r->launches += k == ENERGY_WHOLE_RUN ? (unsigned)stats_n_kernels(s) : 1;
    r->warp_insts += val(s, k, "func.warp_insts");
    r->thread_insts += val(s, k, "func.thread_insts");
    if (!timing)
        return;
    r->cycles += val(s, k, "gpu.cycles");
    r->l1_hits += val(s, k, "l1d.load_hits");
    r->l1_loads += val(s, k, "l1d.loads");
    uint64_t h = val(s, k, "l2.hits");
    r->l2_hits += h;
    r->l2_acc += h + val(s, k, "l2.misses");
    r->bus_busy += val(s, k, "dram.bus_busy_cycles");
    r->dram_cycles += val(s, k, "dram.cycles");
    uint64_t rh = val(s, k, "dram.row_hits");
    r->row_hits += rh;
    r->row_acc += rh + val(s, k, "dram.row_misses") + val(s, k, "dram.row_conflicts");
    /* an average reads back as its sum; its count is sum / mean */
    double mean = 0;
    uint64_t sum = val(s, k, "ldst.load_lat_global");
    if (k == ENERGY_WHOLE_RUN)
        stats_get_mean(s, "ldst.load_lat_global", &mean);
    else
        stats_kernel_get_mean(s, k, "ldst.load_lat_global", &mean);
    r->lat_sum += (double)sum;
    r->lat_count += mean > 0 ? (double)sum / mean : 0;
    struct energy_report e;
    energy_compute(s, c, k, &e);
    r->energy_nj += e.valid ? e.total_nj : 0;
}

/* ------------------------------------------------------------ formatting */

/* A count in at most 7 characters: exact below 100000, else 3 digits and K/M/G/T. */
static const char *fmt_count(char *buf, size_t n, double v)
{
    static const char sfx[] = " KMGTP";
    if (v < 99999.5) {
        snprintf(buf, n, "%.0f", v);
        return buf;
    }
    int i = 0;
    while (v >= 999.5 && i < 5) {
        v /= 1000.0;
        i++;
    }
    snprintf(buf, n, "%.3g%c", v, sfx[i]);
    return buf;
}

static const char *fmt_pct(char *buf, size_t n, uint64_t num, uint64_t den)
{
    if (den == 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * (double)num / (double)den);
    return buf;
}

static const char *fmt_energy(char *buf, size_t n, double nj)
{
    static const char *const unit[] = {"nJ", "uJ", "mJ", "J"};
    int i = 0;
    while (nj >= 999.5 && i < 3) {
        nj /= 1000.0;
        i++;
    }
    snprintf(buf, n, "%.3g %s", nj, unit[i]);
    return buf;
}

static const char *fmt_time_ns(char *buf, size_t n, double ns)
{
    static const char *const unit[] = {"ns", "us", "ms", "s"};
    int i = 0;
    while (ns >= 999.5 && i < 3) {
        ns /= 1000.0;
        i++;
    }
    snprintf(buf, n, "%.3g %s", ns, unit[i]);
    return buf;
}

static void row_label(char *buf, size_t n, const struct srow *r, const char *fallback)
{
    if (!r->name) {
        snprintf(buf, n, "%s", fallback);
        return;
    }
    char nm[24];
    if (strlen(r->name) > 15) /* keep the columns aligned: long names are cut with '~' */
        snprintf(nm, sizeof nm, "%.14s~", r->name);
    else
        snprintf(nm, sizeof nm, "%s", r->name);
    if (r->launches > 1)
        snprintf(buf, n, "%s x%u", nm, r->launches);
    else
        snprintf(buf, n, "%s", nm);
}

static void print_row(FILE *out, const struct srow *r, const char *fallback, bool timing)
{
    char lb[48], a[16], b[16], c[16], d[16], e[16], f[16], g[16], h[24];
    row_label(lb, sizeof lb, r, fallback);
    if (!timing) {
        fprintf(out, "%-22s %8s %9s\n", lb, fmt_count(a, sizeof a, (double)r->warp_insts),
                fmt_count(b, sizeof b, (double)r->thread_insts));
        return;
    }
    char ipc[16], lat[16];
    snprintf(ipc, sizeof ipc, "%.2f", r->cycles ? (double)r->thread_insts / (double)r->cycles : 0.0);
    if (r->lat_count > 0)
        snprintf(lat, sizeof lat, "%.1f", r->lat_sum / r->lat_count);
    else
        snprintf(lat, sizeof lat, "-");
    fprintf(out, "%-22s %7s %8s %8s %6s %6s %6s %6s %6s %6s %9s\n", lb, fmt_count(a, sizeof a, (double)r->cycles),
            fmt_count(b, sizeof b, (double)r->warp_insts), fmt_count(c, sizeof c, (double)r->thread_insts), ipc,
            fmt_pct(d, sizeof d, r->l1_hits, r->l1_loads), fmt_pct(e, sizeof e, r->l2_hits, r->l2_acc),
            fmt_pct(f, sizeof f, r->bus_busy, r->dram_cycles), fmt_pct(g, sizeof g, r->row_hits, r->row_acc), lat,
            fmt_energy(h, sizeof h, r->energy_nj));
}

/* ------------------------------------------------------------ sections */

static void print_kernels(FILE *out, const struct stats *s, const struct cfg *c, bool timing)
{
    size_t nk = stats_n_kernels(s);
    struct srow *grp = nk ? xcalloc(nk, sizeof *grp) : NULL;
    size_t ng = 0;
    for (size_t k = 0; k < nk; k++) {
        const char *name = stats_kernel_name(s, k);
        size_t g = 0;
        while (g < ng && strcmp(grp[g].name, name) != 0)
            g++;
        if (g == ng) {
            grp[ng].name = name;
            grp[ng].names = 1;
            ng++;
        }
        row_add(&grp[g], s, c, k, timing);
    }
    if (timing)
        fprintf(out, "%-22s %7s %8s %8s %6s %6s %6s %6s %6s %6s %9s\n", "kernel", "cycles", "warp-in", "thr-in",
                "IPC", "L1Dhit", "L2hit", "DRAMbw", "rowhit", "ldlat", "energy");
    else
        fprintf(out, "%-22s %8s %9s\n", "kernel", "warp-in", "thr-in");
    for (size_t g = 0; g < ng && g < SUMMARY_MAX_GROUPS; g++)
        print_row(out, &grp[g], "", timing);
    if (ng > SUMMARY_MAX_GROUPS) {
        struct srow more = {0};
        for (size_t g = SUMMARY_MAX_GROUPS; g < ng; g++) {
            more.launches += grp[g].launches;
            more.names++;
            more.cycles += grp[g].cycles;
            more.warp_insts += grp[g].warp_insts;
            more.thread_insts += grp[g].thread_insts;
            more.l1_hits += grp[g].l1_hits;
            more.l1_loads += grp[g].l1_loads;
            more.l2_hits += grp[g].l2_hits;
            more.l2_acc += grp[g].l2_acc;
            more.bus_busy += grp[g].bus_busy;
            more.dram_cycles += grp[g].dram_cycles;
            more.row_hits += grp[g].row_hits;
            more.row_acc += grp[g].row_acc;
            more.lat_sum += grp[g].lat_sum;
            more.lat_count += grp[g].lat_count;
            more.energy_nj += grp[g].energy_nj;
        }
        char lb[48];
        snprintf(lb, sizeof lb, "(%u more, %u runs)", more.names, more.launches);
        print_row(out, &more, lb, timing);
    }
    struct srow tot = {0};
    row_add(&tot, s, c, ENERGY_WHOLE_RUN, timing);
    char lb[32];
    snprintf(lb, sizeof lb, "total (%u launch%s)", tot.launches, tot.launches == 1 ? "" : "es");
    print_row(out, &tot, lb, timing);
    free(grp);
}

/* The three largest issue-stall shares of all scheduler slots. */
static void print_stalls(FILE *out, const struct stats *s)
{
    static const char *const why[] = {"no_warp", "ibuf_empty", "barrier", "mem_order",
                                      "scoreboard", "pipe_busy", "policy"};
    enum { N_WHY = sizeof why / sizeof *why };
    uint64_t slots = val(s, ENERGY_WHOLE_RUN, "sm.sched.cycles");
    if (!slots)
        return;
    uint64_t n[N_WHY];
    int order[N_WHY];
    for (int i = 0; i < N_WHY; i++) {
        char name[64];
        snprintf(name, sizeof name, "sm.sched.stall_%s", why[i]);
        n[i] = val(s, ENERGY_WHOLE_RUN, name);
        order[i] = i;
    }
    for (int i = 1; i < N_WHY; i++) /* insertion sort, largest first; ties keep the table order */
        for (int j = i; j > 0 && n[order[j]] > n[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    char a[16];
    fprintf(out, "issue slots: %s issued of %llu; top stalls:",
            fmt_pct(a, sizeof a, val(s, ENERGY_WHOLE_RUN, "sm.sched.issued"), slots), (unsigned long long)slots);
    for (int i = 0; i < 3 && n[order[i]]; i++)
        fprintf(out, "%s %s %s", i ? "," : "", why[order[i]], fmt_pct(a, sizeof a, n[order[i]], slots));
    fputc('\n', out);
}

static void print_energy(FILE *out, const struct stats *s, const struct cfg *c)
{
    struct energy_report r;
    energy_compute(s, c, ENERGY_WHOLE_RUN, &r);
    if (!r.valid)
        return;
    double st = 0;
    for (int i = 0; i < ENERGY_N_STRUCTURES; i++)
        st += r.static_nj[i];
    char a[24], b[24];
    fprintf(out, "energy: %s, %.3g W average over %s (static %.0f%%; docs/energy.md)\n",
            fmt_energy(a, sizeof a, r.total_nj), r.time_ns > 0 ? r.total_nj / r.time_ns : 0.0,
            fmt_time_ns(b, sizeof b, r.time_ns), r.total_nj > 0 ? 100.0 * st / r.total_nj : 0.0);
    /* one unit for the line, the total's */
    static const char *const unit[] = {"nJ", "uJ", "mJ", "J"};
    double scale = 1.0;
    int u = 0;
    while (r.total_nj / scale >= 999.5 && u < 3) {
        scale *= 1000.0;
        u++;
    }
    fprintf(out, "  by structure (%s):", unit[u]);
    for (int i = 0; i < ENERGY_N_STRUCTURES; i++)
        fprintf(out, "%s %s %.3g", i ? "," : "", energy_structure_name((enum energy_structure)i),
                energy_structure_total(&r, (enum energy_structure)i) / scale);
    fputc('\n', out);
}

void summary_print(FILE *out, const gs_ctx *ctx)
{
    if (!ctx)
        return;
    const struct stats *s = ctx->stats;
    const struct cfg *c = &ctx->cfg;
    const struct sim_cfg *v = c->values;
    bool timing = ctx->gpu != NULL;
    char a[16], b[16];
    if (timing)
        fprintf(out, "timing mode, %s: %llu SMs at %.0f MHz, %llu DRAM channels at %.0f MHz\n",
                c->source ? c->source : "built-in defaults", (unsigned long long)v->gpu.n_sm, (double)v->clock.core_hz * 1e-6,
                (unsigned long long)v->mem.n_partitions, (double)v->clock.dram_hz * 1e-6);
    else
        fprintf(out, "functional mode, %s (no caches, DRAM or cycles: -o sim.mode=timing for the cycle-level model)\n",
                c->source ? c->source : "built-in defaults");
    print_kernels(out, s, c, timing);
    if (timing) {
        print_stalls(out, s);
        print_energy(out, s, c);
    }
    double secs = ctx->launch_seconds;
    uint64_t wi = val(s, ENERGY_WHOLE_RUN, "func.warp_insts");
    if (timing) {
        struct gpu_summary g;
        gpu_summary(ctx->gpu, &g);
        fprintf(out, "host: %.3g s in kernels on %u thread%s: %s warp insts/s, %s cycles/s\n", secs, g.threads,
                g.threads == 1 ? "" : "s", fmt_count(a, sizeof a, secs > 0 ? (double)wi / secs : 0),
                fmt_count(b, sizeof b, secs > 0 ? (double)g.cycles / secs : 0));
    } else {
        uint64_t ti = val(s, ENERGY_WHOLE_RUN, "func.thread_insts");
        fprintf(out, "host: %.3g s in kernels: %s warp insts/s, %s thread insts/s\n", secs,
                fmt_count(a, sizeof a, secs > 0 ? (double)wi / secs : 0),
                fmt_count(b, sizeof b, secs > 0 ? (double)ti / secs : 0));
    }
}
