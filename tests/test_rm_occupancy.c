/* tests/test_rm_occupancy.c: seed 002 (Liang and Wang, "Performance-centric
 * optimization for racetrack memory based register file on GPUs", JCST
 * 31(1), 2016) Table 1 reproduced by the occupancy calculator.
 *
 * Table 1 ("Kernel Description") lists per kernel the CTA size ("Block
 * Size"), registers per thread, TLP (CTAs resident per SM), occupancy (%)
 * and register-file utilisation (%) on the Fermi-like GPU of its Table 2:
 * 1536 threads, 8 CTAs, 48 KB shared memory and a 128 KB SRAM register file
 * (32768 registers) per SM. Its RM design doubles the register file to
 * 256 KB (65536 registers, sec. 4.3.3 and 5.4) but Table 1 has no RM column:
 * the only per-kernel RM figure is in sec. 3 ("the TLP of application
 * mri-gridding is increased from 3 to 6 by doubling register file
 * capacity"). Table 1 has no shared-memory column either; every row is fed
 * with 0 bytes, and every SRAM row is reproduced from registers and threads
 * alone.
 *
 * Checked, for the calculator sm_ctas_per_sm (sim/sm/sm_cfg.c: threads
 * padded to whole warps, registers per thread rounded up to 4 as GPGPU-Sim
 * does, spec baseline-gpu.md 2.1):
 *   - every row's TLP and occupancy with 32768 registers: exactly the paper's;
 *   - mri-gridding with 65536 registers: 6, as the paper's text says; the
 *     other rows' 65536-register TLPs (not printed in the paper) are pinned
 *     to the calculator's values so that a change shows up here;
 *   - the same numbers through the public API (gs_occupancy_ctas_per_sm) on
 *     the 002 preset fermi15-rf-lrr and on it with a 256 KB register file;
 *   - our workloads/mrig kernel has mri-gridding's TLP (3 and 6);
 *   - the known differences, each asserted with its reason:
 *       (a) the utilisation column counts the registers a kernel declares,
 *           not the ones allocated at granularity 4: b+tree (30 -> 32),
 *           histo_final (41 -> 44) and histo_main (22 -> 24) reserve more
 *           than the column says (TLP unchanged at 32768 registers);
 *       (b) that granularity decides histo_final's TLP at 65536 registers:
 *           2 CTAs with 44 registers, 3 with 41;
 *       (c) the paper's average occupancies: 46.6 % is the mean of Table 1's
 *           rounded column (the exact mean is 46.67 %); 80.0 % for the RM
 *           design (sec. 5.1, Fig. 12) is not the maximum-TLP occupancy of
 *           these kernels at 65536 registers (86.8 % with granularity 4,
 *           93.4 % without), presumably because Fig. 12 uses the TLP chosen
 *           by the paper's TLP optimisation (sec. 4.2), which is not listed
 *           per kernel (spec rf-racetrack-liang.md OQ-10).
 */
#include "sim/sm/sm_cfg.h"

#include <stdio.h>
#include <string.h>

#include "gpusim.h"
#include "tap.h"

#define N_ROWS 5
#define SRAM_REGS 32768u /* 128 KB: 002 Table 2 */
#define RM_REGS 65536u   /* 256 KB: 002 sec. 4.3.3, 5.4 */
#define SM_THREADS 1536u

/* One row of 002 Table 1, plus the 65536-register TLP. */
struct t1_row {
    const char *app;     /* "Application" (also the kernel name in the test module) */
    uint32_t threads;    /* "Block Size" (threads per CTA) */
    uint32_t regs;       /* "Number of Registers per Thread" */
    uint32_t tlp;        /* "TLP" (CTAs per SM), 128 KB SRAM register file */
    uint32_t occ_pct;    /* "Occupancy (%)", as printed (rounded) */
    uint32_t util_bp;    /* "Register Utilization (%)" x 100, as printed (93.75 -> 9375) */
    uint32_t rm_tlp;     /* CTAs per SM with 65536 registers, from the calculator */
    int rm_tlp_paper;    /* the paper's 256 KB TLP where it states one, else -1 */
};

static const struct t1_row table1[N_ROWS] = {
    {"hotspot", 256, 60, 2, 33, 9375, 4, -1},
    {"btree", 256, 30, 4, 67, 9375, 6, -1}, /* b+tree */
    {"histo_final", 512, 41, 1, 33, 6406, 2, -1},
    {"histo_main", 768, 22, 1, 50, 5156, 2, -1},
    {"mri_gridding", 256, 40, 3, 50, 9375, 6, 6}, /* mri-gridding; sec. 3: "from 3 to 6" */
};

/* The SM of 002 Table 2 with n_regs registers. */
static void fermi_sm(struct sm_cfg *sm, struct smem_cfg *smem, uint32_t n_regs)
{
    memset(sm, 0, sizeof *sm);
    sm->warp_size = 32;
    sm->max_cta = 8;
    sm->max_threads = SM_THREADS;
    sm->max_warps = SM_THREADS / 32;
    sm->n_regs = n_regs;
    sm->max_block_threads = 1024;
    smem->size = 48 * 1024;
}

/* Occupancy in percent, rounded to the nearest integer as Table 1 prints it. */
static uint32_t occ_pct(uint32_t tlp, uint32_t threads)
{
    return (200u * tlp * threads / SM_THREADS + 1u) / 2u;
}

/* Register utilisation in hundredths of a percent, truncated. */
static uint32_t util_bp(uint32_t tlp, uint32_t regs, uint32_t threads, uint32_t n_regs)
{
    return (uint32_t)((uint64_t)tlp * regs * threads * 10000u / n_regs);
}

/* The limit with registers counted as declared (no granularity). */
static uint32_t ctas_unrounded(uint32_t threads, uint32_t regs, uint32_t n_regs)
{
    uint32_t lim = 8;
    if (SM_THREADS / threads < lim)
        lim = SM_THREADS / threads;
    if (n_regs / (regs * threads) < lim)
        lim = n_regs / (regs * threads);
    return lim;
}

static void test_sram_rows(void)
{
    struct sm_cfg sm;
    struct smem_cfg smem;
    fermi_sm(&sm, &smem, SRAM_REGS);
    for (int i = 0; i < N_ROWS; i++) {
        const struct t1_row *r = &table1[i];
        uint32_t tlp = sm_ctas_per_sm(&sm, &smem, r->threads, r->regs, 0);
        TAP_EQ_U64(tlp, r->tlp, "%s: %u thr x %u regs, 32768 registers -> TLP %u (Table 1)", r->app, r->threads,
                   r->regs, r->tlp);
        TAP_EQ_U64(occ_pct(tlp, r->threads), r->occ_pct, "%s: occupancy %u %% (Table 1)", r->app, r->occ_pct);
    }
    /* Sec. 1: "one thread block of application hotspot requires 15360
     * registers ... only two thread blocks can run simultaneously". */
    TAP_EQ_U64(table1[0].regs * table1[0].threads, 15360, "hotspot: 15360 registers per CTA (sec. 1)");
}

static void test_rm_rows(void)
{
    struct sm_cfg sm;
    struct smem_cfg smem;
    fermi_sm(&sm, &smem, RM_REGS);
    for (int i = 0; i < N_ROWS; i++) {
        const struct t1_row *r = &table1[i];
        uint32_t tlp = sm_ctas_per_sm(&sm, &smem, r->threads, r->regs, 0);
        if (r->rm_tlp_paper >= 0)
            TAP_EQ_U64(tlp, (uint64_t)r->rm_tlp_paper, "%s: 65536 registers -> TLP %d (sec. 3, paper)", r->app,
                       r->rm_tlp_paper);
        else
            TAP_EQ_U64(tlp, r->rm_tlp, "%s: 65536 registers -> TLP %u (calculator; not in the paper)", r->app,
                       r->rm_tlp);
    }
}

/* Known difference (a): the utilisation column counts declared registers. */
static void test_utilisation_column(void)
{
    static const uint32_t allocated_bp[N_ROWS] = {9375, 10000, 6875, 5625, 9375};
    for (int i = 0; i < N_ROWS; i++) {
        const struct t1_row *r = &table1[i];
        uint32_t rounded = (r->regs + 3u) & ~3u;
        TAP_EQ_U64(util_bp(r->tlp, r->regs, r->threads, SRAM_REGS), r->util_bp,
                   "%s: utilisation %u.%02u %% from the declared %u registers (Table 1)", r->app, r->util_bp / 100,
                   r->util_bp % 100, r->regs);
        TAP_EQ_U64(util_bp(r->tlp, rounded, r->threads, SRAM_REGS), allocated_bp[i],
                   "%s: known difference (a): %u allocated registers use %u.%02u %%%s", r->app, rounded,
                   allocated_bp[i] / 100, allocated_bp[i] % 100,
                   rounded == r->regs ? " (no difference)" : ", not the printed value");
    }
}

/* Known difference (b): histo_final at 65536 registers. */
static void test_histo_final_granularity(void)
{
    const struct t1_row *r = &table1[2];
    struct sm_cfg sm;
    struct smem_cfg smem;
    fermi_sm(&sm, &smem, RM_REGS);
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, r->threads, r->regs, 0), 2,
               "histo_final, 65536 registers: 65536 / (44 x 512) -> 2 CTAs (granularity 4, as GPGPU-Sim)");
    TAP_EQ_U64(ctas_unrounded(r->threads, r->regs, RM_REGS), 3,
               "histo_final, 65536 registers: known difference (b): 41 x 512 declared registers would give 3");
    /* For every other row, and for all rows at 32768, the granularity does
     * not change the TLP. */
    int same = 0;
    fermi_sm(&sm, &smem, SRAM_REGS);
    for (int i = 0; i < N_ROWS; i++)
        same += sm_ctas_per_sm(&sm, &smem, table1[i].threads, table1[i].regs, 0) ==
                ctas_unrounded(table1[i].threads, table1[i].regs, SRAM_REGS);
    fermi_sm(&sm, &smem, RM_REGS);
    for (int i = 0; i < N_ROWS; i++)
        same += sm_ctas_per_sm(&sm, &smem, table1[i].threads, table1[i].regs, 0) ==
                ctas_unrounded(table1[i].threads, table1[i].regs, RM_REGS);
    TAP_EQ_U64(same, 2 * N_ROWS - 1, "granularity changes only histo_final at 65536 registers");
}

/* Known difference (c): the average occupancies of sec. 5.1 / Fig. 12. */
static void test_average_occupancy(void)
{
    struct sm_cfg sm;
    struct smem_cfg smem;
    uint32_t sum_printed = 0, sum_exact_x3 = 0, sum_rm = 0, sum_rm_unrounded = 0;
    fermi_sm(&sm, &smem, RM_REGS);
    for (int i = 0; i < N_ROWS; i++) {
        const struct t1_row *r = &table1[i];
        sum_printed += r->occ_pct;
        sum_exact_x3 += 3u * 100u * r->tlp * r->threads / SM_THREADS; /* exact: thirds of a percent */
        sum_rm += occ_pct(sm_ctas_per_sm(&sm, &smem, r->threads, r->regs, 0), r->threads);
        sum_rm_unrounded += occ_pct(ctas_unrounded(r->threads, r->regs, RM_REGS), r->threads);
    }
    TAP_EQ_U64(sum_printed * 2, 466, "SRAM: mean of the printed occupancies = 46.6 %% (paper's 46.6 %%)");
    TAP_EQ_U64(sum_exact_x3, 700, "SRAM: exact mean 700/15 = 46.67 %% (the paper averaged the rounded column)");
    TAP_EQ_U64(sum_rm * 2, 868, "RM: mean maximum-TLP occupancy 86.8 %% with granularity 4");
    TAP_EQ_U64(sum_rm_unrounded * 2, 934, "RM: 93.4 %% with declared registers");
    TAP_OK(sum_rm * 2 != 800 && sum_rm_unrounded * 2 != 800,
           "known difference (c): neither is Fig. 12's 80.0 %% (TLP-optimised, not listed per kernel)");
}

/* ------------------------------------------------- through the public API */

#define PTX_HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

static gs_ctx *api_ctx(const char *const *ov)
{
    gs_ctx *c = gs_ctx_create("fermi15-rf-lrr", ov);
    if (!c)
        tap_diag("gs_ctx_create(fermi15-rf-lrr): %s", gs_last_error(NULL));
    return c;
}

static void test_api(void)
{
    char ptx[2048], regs[1024];
    size_t np = (size_t)snprintf(ptx, sizeof ptx, "%s", PTX_HDR);
    size_t nr = 0;
    for (int i = 0; i < N_ROWS; i++) {
        np += (size_t)snprintf(ptx + np, sizeof ptx - np, ".visible .entry %s()\n{\n ret;\n}\n", table1[i].app);
        nr += (size_t)snprintf(regs + nr, sizeof regs - nr, "%s %u\n", table1[i].app, table1[i].regs);
    }
    static const char *const rm_ov[] = {"sm.n_regs=65536", "rf.entries_per_bank=128", NULL};
    static const struct {
        const char *what;
        const char *const *ov;
        int64_t n_regs;
    } setups[2] = {{"fermi15-rf-lrr (128 KB)", NULL, SRAM_REGS}, {"fermi15-rf-lrr, 256 KB RF", rm_ov, RM_REGS}};
    for (int s = 0; s < 2; s++) {
        gs_ctx *c = api_ctx(setups[s].ov);
        gs_module *m = NULL;
        int rc = c ? gs_module_load_data_ex(c, ptx, regs, "table1.ptx", &m) : -1;
        if (!TAP_OK(c && rc == 0, "%s: context and Table 1 module load", setups[s].what)) {
            if (c)
                tap_diag("%s", gs_last_error(c));
            gs_ctx_destroy(c);
            continue;
        }
        /* The preset's budgets are 002 Table 2's. */
        static const struct {
            int attr;
            const char *name;
        } attrs[] = {{GS_ATTR_SM_COUNT, "SMs"},           {GS_ATTR_MAX_THREADS_PER_SM, "threads/SM"},
                     {GS_ATTR_MAX_CTAS_PER_SM, "CTAs/SM"}, {GS_ATTR_SHARED_PER_SM, "shared bytes/SM"},
                     {GS_ATTR_REGS_PER_SM, "registers/SM"}};
        const int64_t want[] = {15, SM_THREADS, 8, 48 * 1024, setups[s].n_regs};
        for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
            int64_t v = -1;
            gs_device_attribute(c, attrs[a].attr, &v);
            TAP_EQ_I64(v, want[a], "%s: %s as 002 Table 2", setups[s].what, attrs[a].name);
        }
        for (int i = 0; i < N_ROWS; i++) {
            const struct t1_row *r = &table1[i];
            gs_function *f = NULL;
            int64_t nregs = -1;
            unsigned ctas = 99;
            rc = gs_module_get_function(m, r->app, &f);
            if (!rc)
                rc = gs_function_attribute(f, GS_FATTR_NUM_REGS, &nregs);
            if (!rc)
                rc = gs_occupancy_ctas_per_sm(f, r->threads, 0, &ctas);
            TAP_EQ_I64(rc, 0, "%s: %s: occupancy query", setups[s].what, r->app);
            TAP_EQ_I64(nregs, r->regs, "%s: %s: %u registers from the sidecar", setups[s].what, r->app, r->regs);
            TAP_EQ_U64(ctas, s == 0 ? r->tlp : r->rm_tlp, "%s: %s -> %u CTAs/SM", setups[s].what, r->app,
                       s == 0 ? r->tlp : r->rm_tlp);
        }
        gs_ctx_destroy(c);
    }
}

/* Our Parboil mri-gridding (workloads/mrig, 256-thread CTAs) is built to
 * the same TLP as Table 1's row (its kernel.cu NOTE(regs)): check its
 * committed ptxas count against both register files. */
static void test_mrig_workload(void)
{
    const char *path = GPUSIM_SOURCE_DIR "/workloads/mrig/kernel.ptx.regs";
    FILE *f = fopen(path, "r");
    char line[256];
    unsigned regs = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "mrig_gather %u", &regs) == 1)
            break;
    if (f)
        fclose(f);
    if (!TAP_OK(regs > 0, "%s names mrig_gather's registers (%u)", path, regs))
        return;
    struct sm_cfg sm;
    struct smem_cfg smem;
    fermi_sm(&sm, &smem, SRAM_REGS);
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 256, regs, 0), table1[4].tlp, "mrig: 256 thr x %u regs, 32768 -> %u CTAs",
               regs, table1[4].tlp);
    fermi_sm(&sm, &smem, RM_REGS);
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 256, regs, 0), table1[4].rm_tlp, "mrig: 256 thr x %u regs, 65536 -> %u CTAs",
               regs, table1[4].rm_tlp);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"sram_rows", test_sram_rows},
        {"rm_rows", test_rm_rows},
        {"utilisation_column", test_utilisation_column},
        {"histo_final_granularity", test_histo_final_granularity},
        {"average_occupancy", test_average_occupancy},
        {"api", test_api},
        {"mrig_workload", test_mrig_workload},
    };
    return tap_run(tests, sizeof tests / sizeof tests[0]);
}
