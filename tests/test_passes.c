/* tests/test_passes.c: kernel-time passes and profiles (issue 10,
 * docs/passes.md).
 *
 * Checks: pass selection by ptx.passes (unknown and repeated names are
 * configuration errors naming file:line and the key); a worked example
 * pass run through kpass_run_list; regstats on a hand-written kernel
 * against hand-computed counts (16 and 4 banks); renumber_hot keeps every
 * workload verifying (functional mode, through the CLI), is a permutation,
 * puts the hottest registers in distinct banks and flattens the bank
 * histogram; results are cached per launch geometry; the profile of a
 * small kernel has the expected per-CTA, per-warp and per-page figures; a
 * profile is deterministic, round-trips through save/load, reaches the
 * passes, and malformed files are refused with file:line (API error code,
 * CLI exit 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpusim.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/ptx/passes/kpass_rt.h"
#include "sim/ptx/passes/kprofile.h"
#include "sim/ptx/ptx.h"
#include "sim/api/runtime_internal.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/base/stats.h"
#include "tap.h"

/* ------------------------------------------------------------ kernels */

/* Register accesses by hand (sources, then destinations):
 *   ld.param.u64 %rd1, [p]        W rd1 (2 halves)
 *   cvta.to.global.u64 %rd2, %rd1 R rd1 (2)       W rd2 (2)
 *   mov.u32 %r1, %tid.x                           W r1
 *   add.s32 %r2, %r1, %r1         R r1, r1        W r2
 *   mul.lo.s32 %r3, %r2, %r1      R r2, r1        W r3
 *   st.global.u32 [%rd2], %r3     R rd2 (2), r3
 * reads: rd1 1+1, rd2 1+1, r1 3, r2 1, r3 1 = 9; writes: 2 + 2 + 1 + 1 + 1 = 7. */
static const char *const k_regs =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  add.s32 %r2, %r1, %r1;\n"
    "  mul.lo.s32 %r3, %r2, %r1;\n"
    "  st.global.u32 [%rd2], %r3;\n"
    "  ret;\n}\n";

/* Each thread stores in[0] to out[ctaid * ntid + tid]; thread 0 of each
 * CTA also does atom.add on in[1]. */
static const char *const k_prof =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry prof(.param .u64 out, .param .u64 in)\n{\n"
    "  .reg .b32 %r<6>;\n  .reg .b64 %rd<7>;\n  .reg .pred %p<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u64 %rd2, [in];\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd5, %r4, 4;\n"
    "  add.s64 %rd6, %rd3, %rd5;\n"
    "  ld.global.u32 %r5, [%rd4];\n"
    "  st.global.u32 [%rd6], %r5;\n"
    "  setp.ne.u32 %p1, %r3, 0;\n"
    "  @%p1 bra DONE;\n"
    "  atom.global.add.u32 %r5, [%rd4+4], 1;\n"
    "DONE:\n"
    "  ret;\n}\n";

static int vreg(const struct ptx_func *fn, const char *name)
{
    for (uint32_t v = 0; v < fn->n_regs; v++)
        if (!strcmp(fn->regs[v].name, name))
            return (int)v;
    return -1;
}

static struct ptx_module *parse(const char *text, const char *name)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    if (ptx_parse(text, strlen(text), name, &m, &d) != PTX_OK)
        diag_print(&d, stderr);
    diag_fini(&d);
    return m;
}

/* A pass context for kernel fn of m with a default (gtx480) config. */
static void ctx_for(struct kpass_ctx *c, struct kpass_result *res, const struct ptx_module *m,
                    const struct ptx_func *fn, const struct sim_cfg *cv, char *err, size_t err_len)
{
    memset(c, 0, sizeof *c);
    c->mod = m;
    c->fn = fn;
    c->cfg = cv;
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    c->block[0] = 128;
    c->block[1] = c->block[2] = 1;
    c->threads_per_cta = 128;
    c->warps_per_cta = 4;
    c->ctas_per_sm = 8;
    c->warps_per_sm = 32;
    c->n_sm = (uint32_t)cv->gpu.n_sm;
    c->regs_per_thread = fn->regs_per_thread;
    c->regs_alloc = fn->regs_alloc;
    c->sm_n_regs = cv->sm.n_regs;
    c->rf_n_banks = (uint32_t)cv->rf.n_banks;
    c->rf_entries_per_bank = (uint32_t)cv->rf.entries_per_bank;
    c->res = res;
    c->err = err;
    c->err_len = err_len;
}

/* --------------------------------------------------- the worked example */

/* docs/passes.md, "Writing a pass": count a kernel's static memory
 * instructions and publish the occupancy it was given. */
static int count_mem_run(struct kpass_ctx *c)
{
    uint64_t n = 0;
    for (uint32_t pc = 0; pc < c->fn->n_insns; pc++)
        n += ptx_op_unit((enum ptx_op)c->fn->insns[pc].op) == PTX_UNIT_MEM;
    kpass_stat(c, "mem_insts", -1, n, "static memory instructions of the kernel");
    kpass_stat(c, "warps_per_sm", -1, c->warps_per_sm, "resident warps per SM at this launch");
    return 0;
}
static const struct kpass count_mem = {"count_mem", "static memory instructions", count_mem_run};

static void test_example_pass(const struct sim_cfg *cv)
{
    struct ptx_module *m = parse(k_regs, "k_regs.ptx");
    TAP_OK(m != NULL, "hand-written kernel parses");
    if (!m)
        return;
    struct kpass_result res;
    kpass_result_init(&res);
    struct kpass_ctx c;
    char err[256] = "";
    ctx_for(&c, &res, m, ptx_module_find(m, "k"), cv, err, sizeof err);
    const struct kpass *list[] = {&count_mem};
    TAP_EQ_I64(kpass_run_list(&c, list, 1), 0, "example pass runs");
    TAP_EQ_U64(kpass_stat_value(&res, "count_mem", "mem_insts", -1), 2, "example pass: ld.param + st.global");
    TAP_EQ_U64(kpass_stat_value(&res, "count_mem", "warps_per_sm", -1), 32, "example pass sees the occupancy");
    TAP_OK(res.regmap.fn == NULL, "a pass that renumbers nothing leaves no map");
    kpass_result_free(&res);
    ptx_module_free(m);
}

/* ------------------------------------------------------------- config */

static void test_selection(void)
{
    const char *ov1[] = {"ptx.passes=regstats,nope", NULL};
    TAP_OK(gs_ctx_create(NULL, ov1) == NULL, "unknown pass refused");
    TAP_OK(strstr(gs_last_error(NULL), "ptx.passes") && strstr(gs_last_error(NULL), "unknown pass 'nope'") &&
               strstr(gs_last_error(NULL), "renumber_hot"),
           "message names the key, the pass and the known ones: %s", gs_last_error(NULL));
    const char *ov2[] = {"ptx.passes=regstats, regstats", NULL};
    TAP_OK(gs_ctx_create(NULL, ov2) == NULL && strstr(gs_last_error(NULL), "listed twice"), "repeated pass refused");
    const char *ov3[] = {"ptx.passes=regstats,,renumber_hot", NULL};
    TAP_OK(gs_ctx_create(NULL, ov3) == NULL && strstr(gs_last_error(NULL), "empty pass name"), "empty item refused");
    char path[] = "/tmp/gpusim_passes_cfgXXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        fprintf(f, "include = gtx480\n# a comment\nptx.passes = renumber_hot, bogus\n");
        fclose(f);
    }
    TAP_OK(gs_ctx_create(path, NULL) == NULL, "unknown pass in a file refused");
    char where[600];
    snprintf(where, sizeof where, "%s:3: key 'ptx.passes'", path);
    TAP_OK(strstr(gs_last_error(NULL), where) != NULL, "message has file:line:key: %s", gs_last_error(NULL));
    unlink(path);
    const char *ov4[] = {"ptx.passes= renumber_hot , regstats ", NULL};
    gs_ctx *c = gs_ctx_create(NULL, ov4);
    TAP_OK(c != NULL, "a valid list with blanks is accepted");
    gs_ctx_destroy(c);
    const char *ov5[] = {"ptx.profile_page=3000", NULL};
    TAP_OK(gs_ctx_create(NULL, ov5) == NULL && strstr(gs_last_error(NULL), "ptx.profile_page"),
           "profile page must be a power of two");
    const char *ov6[] = {"sim.mode=timing", "ptx.profile_out=/tmp/x.prof", NULL};
    TAP_OK(gs_ctx_create(NULL, ov6) == NULL && strstr(gs_last_error(NULL), "ptx.profile_out"),
           "recording a profile in timing mode is refused");
}

/* ----------------------------------------------------------- regstats */

static uint64_t inst(gs_ctx *c, const char *name, int i)
{
    uint64_t v = UINT64_MAX;
    stats_get_instance_u64(c->stats, name, i, &v);
    return v;
}

static void regstats_check(unsigned n_banks)
{
    char b1[64], b2[64];
    snprintf(b1, sizeof b1, "rf.n_banks=%u", n_banks);
    snprintf(b2, sizeof b2, "rf.entries_per_bank=%u", 32768 / 32 / n_banks);
    const char *ov[] = {"ptx.passes=regstats", b1, b2, NULL};
    gs_ctx *c = gs_ctx_create(NULL, ov);
    TAP_OK(c != NULL, "%u banks: context (%s)", n_banks, c ? "" : gs_last_error(NULL));
    if (!c)
        return;
    gs_module *m;
    gs_function *f;
    uint64_t d;
    TAP_EQ_I64(gs_module_load_data(c, k_regs, &m), 0, "load the hand-written kernel");
    TAP_EQ_I64(gs_module_get_function(m, "k", &f), 0, "find it");
    TAP_EQ_I64(gs_mem_alloc(c, &d, 1024), 0, "alloc");
    void *args[] = {&d};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args), 0, "launch");
    const struct ptx_func *fn = f->fn;
    uint64_t er[64] = {0}, ew[64] = {0};
    struct {
        const char *name;
        unsigned reads, writes;
    } hand[] = {{"%rd1", 1, 1}, {"%rd2", 1, 1}, {"%r1", 3, 1}, {"%r2", 1, 1}, {"%r3", 1, 1}};
    uint32_t n = 0;
    for (size_t i = 0; i < ARRAY_LEN(hand); i++) {
        const struct ptx_reg *r = &fn->regs[vreg(fn, hand[i].name)];
        for (uint32_t h = 0; h < r->n_phys; h++) {
            er[r->phys + h] += hand[i].reads;
            ew[r->phys + h] += hand[i].writes;
            n = MAX(n, (uint32_t)r->phys + h + 1);
        }
    }
    uint64_t v = 0;
    gs_stats_get_u64(c, "pass.regstats.reads", &v);
    TAP_EQ_U64(v, 9, "%u banks: 9 static reads", n_banks);
    gs_stats_get_u64(c, "pass.regstats.writes", &v);
    TAP_EQ_U64(v, 7, "%u banks: 7 static writes", n_banks);
    gs_stats_get_u64(c, "pass.regstats.regs", &v);
    TAP_EQ_U64(v, n, "%u banks: physical registers used", n_banks);
    bool ok = true;
    for (uint32_t r = 0; r < n; r++)
        ok &= inst(c, "pass.regstats.reg_reads", (int)r) == er[r] && inst(c, "pass.regstats.reg_writes", (int)r) == ew[r];
    TAP_OK(ok, "%u banks: per-register reads and writes match the hand count", n_banks);
    ok = true;
    uint64_t bmax = 0;
    for (unsigned b = 0; b < n_banks; b++) {
        uint64_t br = 0, bw = 0;
        for (uint32_t r = b; r < n; r += n_banks) {
            br += er[r];
            bw += ew[r];
        }
        bmax = MAX(bmax, br + bw);
        ok &= inst(c, "pass.regstats.bank_reads", (int)b) == br && inst(c, "pass.regstats.bank_writes", (int)b) == bw;
    }
    TAP_OK(ok, "%u banks: per-bank histogram (bank = reg mod %u) matches", n_banks, n_banks);
    gs_stats_get_u64(c, "pass.regstats.bank_max", &v);
    TAP_EQ_U64(v, bmax, "%u banks: bank_max", n_banks);
    /* Same geometry again: cached, and the per-launch statistics add up. */
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args), 0, "second launch");
    gs_stats_get_u64(c, "pass.runs", &v);
    TAP_EQ_U64(v, 1, "%u banks: passes ran once for two launches", n_banks);
    gs_stats_get_u64(c, "pass.cache_hits", &v);
    TAP_EQ_U64(v, 1, "%u banks: second launch reused the result", n_banks);
    gs_stats_get_u64(c, "pass.regstats.reads", &v);
    TAP_EQ_U64(v, 18, "%u banks: totals are per launch sums", n_banks);
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 64, 1, 1, 0, args), 0, "third launch, other block");
    gs_stats_get_u64(c, "pass.runs", &v);
    TAP_EQ_U64(v, 2, "%u banks: another geometry runs the passes again", n_banks);
    gs_ctx_destroy(c);
}

/* -------------------------------------------------------- renumber_hot */

static void renumber_check(const char *path, const struct sim_cfg *cv, bool expect_flatter)
{
    struct diag dg;
    diag_init(&dg);
    struct ptx_module *m = NULL;
    int prc = ptx_load_file(path, &m, &dg);
    diag_fini(&dg);
    TAP_OK(prc == PTX_OK, "%s parses", path);
    if (prc != PTX_OK)
        return;
    uint32_t nb = (uint32_t)cv->rf.n_banks;
    bool perm = true, distinct = true, same_total = true, flatter = true, any = false;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        if (!fn->is_entry || !fn->has_body)
            continue;
        char err[256] = "";
        struct kpass_result before, after;
        kpass_result_init(&before);
        kpass_result_init(&after);
        struct kpass_ctx c;
        const struct kpass *rs[] = {kpass_find("regstats")};
        const struct kpass *both[] = {kpass_find("renumber_hot"), kpass_find("regstats")};
        ctx_for(&c, &before, m, fn, cv, err, sizeof err);
        kpass_run_list(&c, rs, 1);
        ctx_for(&c, &after, m, fn, cv, err, sizeof err);
        kpass_run_list(&c, both, 2);
        uint32_t n = kpass_fn_phys_count(fn);
        if (n == 0)
            continue;
        any = true;
        const struct kpass_fn_map *fm = after.regmap.fn ? &after.regmap.fn[f] : NULL;
        uint8_t *seen = calloc(n, 1);
        for (uint32_t r = 0; r < n && fm; r++) {
            uint16_t x = kpass_regmap_phys(&after.regmap, f, (uint16_t)r);
            perm &= x < n && !seen[x];
            if (x < n)
                seen[x] = 1;
        }
        free(seen);
        perm &= fm != NULL;
        /* The hottest min(n, banks) registers (static count, ties by number) sit in distinct banks. */
        uint64_t *rd = calloc(n, sizeof *rd), *wr = calloc(n, sizeof *wr);
        kpass_count_regs(NULL, fn, rd, wr, n);
        uint32_t top = MIN(n, nb);
        uint8_t *used = calloc(nb, 1), *taken = calloc(n, 1);
        for (uint32_t k = 0; k < top; k++) {
            uint32_t best = UINT32_MAX;
            for (uint32_t r = 0; r < n; r++)
                if (!taken[r] && (best == UINT32_MAX || rd[r] + wr[r] > rd[best] + wr[best]))
                    best = r;
            taken[best] = 1;
            if (rd[best] + wr[best] == 0)
                break;
            uint32_t bank = kpass_regmap_phys(&after.regmap, f, (uint16_t)best) % nb;
            distinct &= !used[bank];
            used[bank] = 1;
        }
        free(rd);
        free(wr);
        free(used);
        free(taken);
        same_total &= kpass_stat_value(&before, "regstats", "reads", -1) ==
                          kpass_stat_value(&after, "regstats", "reads", -1) &&
                      kpass_stat_value(&before, "regstats", "writes", -1) ==
                          kpass_stat_value(&after, "regstats", "writes", -1);
        if (kpass_stat_value(&after, "regstats", "bank_max", -1) > kpass_stat_value(&before, "regstats", "bank_max", -1)) {
            flatter = false;
            tap_diag("%s: bank_max %llu before, %llu after (%u registers)", fn->name,
                     (unsigned long long)kpass_stat_value(&before, "regstats", "bank_max", -1),
                     (unsigned long long)kpass_stat_value(&after, "regstats", "bank_max", -1), n);
        }
        /* The per-operand table agrees with the map. */
        if (fm && fm->ops) {
            bool agree = fm->n_insns == fn->n_insns;
            for (uint32_t pc = 0; pc < fn->n_insns && agree; pc++)
                agree &= fm->first[pc + 1] - fm->first[pc] == (uint32_t)fm->n_src[pc] + fm->n_dst[pc];
            perm &= agree;
        }
        kpass_result_free(&before);
        kpass_result_free(&after);
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    TAP_OK(any && perm, "%s: renumber_hot gives a permutation and a consistent per-operand table", base);
    TAP_OK(distinct, "%s: the hottest registers sit in distinct banks", base);
    TAP_OK(same_total, "%s: total static reads and writes unchanged", base);
    if (expect_flatter)
        TAP_OK(flatter, "%s: the busiest bank has no more accesses than before", base);
    ptx_module_free(m);
}

/* Every workload verifies with the passes on (functional mode, CLI). */
static void test_workloads_verify(void)
{
    const char *bin = getenv("GPUSIM_BIN");
    if (!bin) {
        tap_skip(1, "GPUSIM_BIN not set");
        return;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' list", bin);
    FILE *p = popen(cmd, "r");
    char line[512];
    int n = 0, failed = 0;
    char failures[1024] = "";
    while (p && fgets(line, sizeof line, p)) {
        if (!strncmp(line, "presets", 7))
            break;
        char name[128];
        if (strncmp(line, "  ", 2) || sscanf(line, " %127s", name) != 1)
            continue;
        snprintf(cmd, sizeof cmd, "'%s' run %s --size tiny -q -o ptx.passes=renumber_hot,regstats >/dev/null 2>&1",
                 bin, name);
        n++;
        if (system(cmd) != 0) {
            failed++;
            size_t l = strlen(failures);
            snprintf(failures + l, sizeof failures - l, " %s", name);
        }
    }
    if (p)
        pclose(p);
    TAP_OK(n >= 30 && failed == 0, "%d workloads verify with renumber_hot,regstats (failed:%s)", n, failures);
}

/* ------------------------------------------------------------ profile */

static gs_ctx *profile_run(const char *const *ov, uint64_t *out_addr, uint64_t *in_addr)
{
    gs_ctx *c = gs_ctx_create(NULL, ov);
    if (!c)
        return NULL;
    gs_module *m;
    gs_function *f;
    if (gs_profile_record(c) || gs_module_load_data(c, k_prof, &m) || gs_module_get_function(m, "prof", &f) ||
        gs_mem_alloc(c, out_addr, 4 * 64 * 4) || gs_mem_alloc(c, in_addr, 256)) {
        gs_ctx_destroy(c);
        return NULL;
    }
    uint32_t init[2] = {7, 0};
    gs_memcpy_htod(c, *in_addr, init, sizeof init);
    void *args[] = {out_addr, in_addr};
    if (gs_launch_kernel(f, 4, 1, 1, 64, 1, 1, 0, args)) {
        gs_ctx_destroy(c);
        return NULL;
    }
    return c;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = calloc(1, (size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static void test_profile(const struct sim_cfg *cv)
{
    const char *ov[] = {"ptx.profile_page=256", NULL};
    uint64_t out, in;
    gs_ctx *c = profile_run(ov, &out, &in);
    TAP_OK(c != NULL, "profile run (%s)", c ? "" : gs_last_error(NULL));
    if (!c)
        return;
    const struct kprof *p = kpass_state_profile_recorded(c->kpass);
    TAP_OK(p && p->n_k == 1 && !strcmp(p->k[0].name, "prof"), "one kernel record");
    const struct kprof_kernel *k = &p->k[0];
    TAP_EQ_U64(k->n_ctas, 4, "4 CTAs");
    TAP_EQ_U64(k->warps_per_cta, 2, "2 warps per CTA");
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        const struct kprof_cta *x = &k->ctas[i];
        /* 64 loads of in[0], 64 stores to out (256 B = 2 lines), one atomic on in[1] (in[]'s line);
         * pages of 256 B: out + 256 i and in. */
        ok &= x->loads == 64 && x->stores == 64 && x->atomics == 1 && x->lines == 3 && x->pages == 2;
        if (!ok) {
            tap_diag("cta %d: loads %llu stores %llu atomics %llu lines %llu pages %llu", i,
                     (unsigned long long)x->loads, (unsigned long long)x->stores, (unsigned long long)x->atomics,
                     (unsigned long long)x->lines, (unsigned long long)x->pages);
            break;
        }
        const struct kprof_warp *w0 = &k->warps[i * 2], *w1 = &k->warps[i * 2 + 1];
        ok &= w0->loads == 32 && w0->stores == 32 && w0->atomics == 1 && w0->lines == 2;
        ok &= w1->loads == 32 && w1->stores == 32 && w1->atomics == 0 && w1->lines == 2;
        ok &= x->insts == w0->insts + w1->insts && w0->insts == w1->insts + 1;
    }
    TAP_OK(ok, "per-CTA and per-warp accesses, lines, pages and instructions");
    ok = k->n_pages == 5;
    for (uint64_t j = 0; ok && j < 4; j++)
        ok &= k->pages[j].page == (out >> 8) + j && k->pages[j].accesses == 64 && k->pages[j].n_ctas == 1 &&
              k->pages[j].first_cta == j && k->pages[j].last_cta == j;
    ok = ok && k->pages[4].page == in >> 8 && k->pages[4].accesses == 4 * 65 && k->pages[4].n_ctas == 4 &&
         k->pages[4].first_cta == 0 && k->pages[4].last_cta == 3;
    TAP_OK(ok, "pages: one private page per CTA, the input page shared by CTAs 0..3");
    uint64_t br = 0, rr = 0;
    for (uint32_t b = 0; b < k->n_banks; b++)
        br += k->bank_reads[b] + k->bank_writes[b];
    for (uint32_t r = 0; r < k->n_regs; r++)
        rr += k->reg_reads[r] + k->reg_writes[r];
    TAP_OK(br > 0 && br == rr, "bank and register counts agree (%llu)", (unsigned long long)br);
    /* Bank service order: every access of a bank after its first adds one distance. */
    bool ord = true;
    uint64_t far = 0;
    for (uint32_t bk = 0; bk < k->n_banks; bk++) {
        uint64_t acc = k->bank_reads[bk] + k->bank_writes[bk], h = 0;
        for (uint32_t j = 0; j < KPROF_DIST_BINS; j++)
            h += k->bank_dist[(uint64_t)bk * KPROF_DIST_BINS + j];
        ord &= h == (acc ? acc - 1 : 0);
        for (uint32_t j = 1; j < KPROF_DIST_BINS; j++)
            far += k->bank_dist[(uint64_t)bk * KPROF_DIST_BINS + j];
    }
    TAP_OK(ord, "bank service order: each bank's distance histogram counts its accesses after the first");
    /* this kernel uses fewer registers than banks: each bank holds one register per warp, and warps
     * share an entry row, so every distance is 0 */
    TAP_EQ_U64(far, 0, "bank service order: all distances 0 for a kernel with fewer registers than banks");

    /* Save, load, save again: identical bytes and contents. */
    char p1[] = "/tmp/gpusim_prof1XXXXXX", p2[] = "/tmp/gpusim_prof2XXXXXX";
    close(mkstemp(p1));
    close(mkstemp(p2));
    TAP_EQ_I64(gs_profile_save(c, p1), 0, "save");
    gs_ctx *c2 = gs_ctx_create(NULL, NULL);
    TAP_EQ_I64(gs_profile_load(c2, p1), 0, "load (%s)", gs_last_error(c2));
    const struct kprof *q = kpass_state_profile_loaded(c2->kpass);
    ok = q && q->n_k == 1 && q->page_bytes == 256 && q->line_bytes == 128 && q->k[0].n_pages == k->n_pages &&
         !memcmp(q->k[0].ctas, k->ctas, 4 * sizeof *k->ctas) && !memcmp(q->k[0].warps, k->warps, 8 * sizeof *k->warps) &&
         !memcmp(q->k[0].pages, k->pages, k->n_pages * sizeof *k->pages) &&
         !memcmp(q->k[0].bank_reads, k->bank_reads, k->n_banks * sizeof *k->bank_reads) &&
         !memcmp(q->k[0].bank_dist, k->bank_dist, (size_t)k->n_banks * KPROF_DIST_BINS * sizeof *k->bank_dist) &&
         !memcmp(q->k[0].reg_writes, k->reg_writes, k->n_regs * sizeof *k->reg_writes);
    TAP_OK(ok, "loaded profile equals the recorded one");
    char err[512];
    TAP_EQ_I64(kprof_save(q, p2, err, sizeof err), 0, "save the loaded profile");
    char *t1 = slurp(p1), *t2 = slurp(p2);
    TAP_OK(t1 && t2 && !strcmp(t1, t2), "round trip is byte-identical");
    /* Deterministic: a second recording gives the same file. */
    uint64_t o2, i2;
    gs_ctx *c3 = profile_run(ov, &o2, &i2);
    TAP_OK(c3 && gs_profile_save(c3, p2) == 0, "second recording");
    free(t2);
    t2 = slurp(p2);
    TAP_OK(t1 && t2 && !strcmp(t1, t2), "the same run gives the same profile");
    free(t1);
    free(t2);
    gs_ctx_destroy(c3);

    /* The loaded record reaches the passes: renumber_hot then orders by dynamic counts. */
    const struct kprof_kernel *rec = kprof_find(q, "prof", 0);
    TAP_OK(rec == &q->k[0] && kprof_find(q, "prof", 5) == rec && kprof_find(q, "other", 0) == NULL,
           "records are found by kernel name and occurrence");
    struct ptx_module *m = parse(k_prof, "k_prof.ptx");
    if (m && rec) {
        struct kpass_result res;
        kpass_result_init(&res);
        struct kpass_ctx kc;
        char e2[256] = "";
        ctx_for(&kc, &res, m, ptx_module_find(m, "prof"), cv, e2, sizeof e2);
        kc.profile = rec;
        const struct kpass *l[] = {kpass_find("renumber_hot")};
        TAP_EQ_I64(kpass_run_list(&kc, l, 1), 0, "renumber_hot with a profile");
        uint32_t hot = 0;
        for (uint32_t r = 1; r < rec->n_regs; r++)
            if (rec->reg_reads[r] + rec->reg_writes[r] > rec->reg_reads[hot] + rec->reg_writes[hot])
                hot = r;
        TAP_EQ_U64(kpass_regmap_phys(&res.regmap, kc.fn->index, (uint16_t)hot), 0,
                   "the dynamically hottest register (%u) becomes register 0", hot);
        kpass_result_free(&res);
    }
    ptx_module_free(m);

    /* A timing-mode context loads the profile through ptx.profile_in and runs the passes with it. */
    char o_in[600];
    snprintf(o_in, sizeof o_in, "ptx.profile_in=%s", p1);
    const char *ovt[] = {"sim.mode=timing", "ptx.passes=renumber_hot,regstats", o_in, NULL};
    gs_ctx *ct = gs_ctx_create(NULL, ovt);
    TAP_OK(ct && kpass_state_profile_loaded(ct->kpass) != NULL, "ptx.profile_in loads at context creation");
    gs_ctx_destroy(ct);
    gs_ctx_destroy(c2);
    gs_ctx_destroy(c);
    unlink(p1);
    unlink(p2);
}

static void bad_profile(const char *text, const char *want, const char *what)
{
    struct kprof *p = NULL;
    char err[512] = "";
    int rc = kprof_parse(text, strlen(text), "bad.prof", &p, err, sizeof err);
    TAP_OK(rc == -1 && p == NULL && strstr(err, want) != NULL, "%s refused: %s", what, err);
}

static void test_bad_profiles(void)
{
    const char *hdr = "gpusim-profile 1\npage_bytes 4096\nline_bytes 128\nn_banks 16\n";
    char buf[1024];
    bad_profile("", "bad.prof:1: empty file", "empty file");
    bad_profile("hello 1\n", "bad.prof:1: not a gpusim profile", "wrong magic");
    bad_profile("gpusim-profile 2\n", "bad.prof:1:", "unknown version");
    bad_profile("gpusim-profile 1\npage_bytes 3000\n", "bad.prof:2: page_bytes 3000 is not a power of two", "page size");
    bad_profile("gpusim-profile 1\npage_bytes 4096\nkernel 0 k 1 1 1 32 1 1 1 4\n", "bad.prof:3: kernel record before",
                "kernel before header");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\ncta 0 1 2 3 4 5\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: 'cta' record has 6 fields, expected 7", "short cta record");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\ncta 1 1 2 3 4 5 6\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: cta id 1 is out of range", "cta out of range");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\ncta 0 1 x 3 4 5 6\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: stores 'x' is not a non-negative integer", "non-numeric field");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 2 4\nend\n", hdr);
    bad_profile(buf, "bad.prof:5: warps_per_cta 2 does not match", "inconsistent warps");
    snprintf(buf, sizeof buf, "%skernel 0 k 2 1 1 32 1 1 1 4\npage 9 1 1 0 0\npage 3 1 1 1 1\nend\n", hdr);
    bad_profile(buf, "bad.prof:7: page 3 is not above the previous page 9", "unsorted pages");
    snprintf(buf, sizeof buf, "%skernel 0 k 2 1 1 32 1 1 1 4\npage 9 1 3 0 1\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: page 9: n_ctas 3", "inconsistent page sharers");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\nbank 16 1 1\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: bank 16 is out of range", "bank out of range");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\nbankorder 16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: bankorder 16 is out of range", "bankorder bank out of range");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\nbankorder 1 0 0\nend\n", hdr);
    bad_profile(buf, "bad.prof:6: 'bankorder' record has 3 fields, expected 18", "short bankorder record");
    snprintf(buf, sizeof buf, "%skernel 0 k 1 1 1 32 1 1 1 4\ncta 0 1 2 3 4 5 6\n", hdr);
    bad_profile(buf, "end of file inside the kernel record of line 5", "missing end");
    snprintf(buf, sizeof buf, "%scta 0 1 2 3 4 5 6\n", hdr);
    bad_profile(buf, "bad.prof:5: 'cta' record outside a kernel record", "record outside a kernel");
    snprintf(buf, sizeof buf, "%sfrobnicate 1\n", hdr);
    bad_profile(buf, "bad.prof:5: unknown record 'frobnicate'", "unknown record");
    snprintf(buf, sizeof buf, "%s# comment only\n\nkernel 0 k 1 1 1 32 1 1 1 4\nend\n", hdr);
    struct kprof *p = NULL;
    char err[256];
    TAP_EQ_I64(kprof_parse(buf, strlen(buf), "ok.prof", &p, err, sizeof err), 0, "comments and blank lines are fine");
    kprof_free(p);

    /* API and CLI. */
    char path[] = "/tmp/gpusim_badprofXXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        fprintf(f, "%skernel 0 k 1 1 1 32 1 1 1 4\nwarp 0 1 0 0 0 0 0\nend\n", hdr);
        fclose(f);
    }
    gs_ctx *c = gs_ctx_create(NULL, NULL);
    char want[600];
    snprintf(want, sizeof want, "%s:6: warp 1 of cta 0 is out of range", path);
    TAP_EQ_I64(gs_profile_load(c, path), GS_ERR_INVALID_VALUE, "gs_profile_load refuses a malformed file");
    TAP_OK(strstr(gs_last_error(c), want) != NULL, "with file:line: %s", gs_last_error(c));
    TAP_EQ_I64(gs_profile_load(c, "/nonexistent/x.prof"), GS_ERR_INVALID_VALUE, "missing file refused");
    TAP_EQ_I64(gs_profile_save(c, "/tmp/never.prof"), GS_ERR_STATE, "save without recording is a state error");
    gs_ctx_destroy(c);
    char ovs[700];
    snprintf(ovs, sizeof ovs, "ptx.profile_in=%s", path);
    const char *ov[] = {ovs, NULL};
    TAP_OK(gs_ctx_create(NULL, ov) == NULL && strstr(gs_last_error(NULL), "ptx.profile_in") &&
               strstr(gs_last_error(NULL), want),
           "ptx.profile_in with a bad file fails context creation");
    const char *bin = getenv("GPUSIM_BIN");
    if (bin) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "'%s' run vectoradd --size tiny -q --profile-in '%s' 2>/dev/null", bin, path);
        int st = system(cmd);
        TAP_OK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "CLI --profile-in with a bad file exits 2");
        char pout[] = "/tmp/gpusim_cliprofXXXXXX";
        close(mkstemp(pout));
        snprintf(cmd, sizeof cmd, "'%s' run vectoradd --size tiny -q --profile-out '%s' && '%s' run vectoradd --size tiny -q "
                 "--profile-in '%s' -o sim.mode=timing -o ptx.passes=renumber_hot,regstats --threads 1",
                 bin, pout, bin, pout);
        st = system(cmd);
        TAP_OK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "CLI --profile-out, then a timing run with --profile-in");
        unlink(pout);
    } else
        tap_skip(2, "GPUSIM_BIN not set");
    unlink(path);
}

int main(void)
{
    tap_no_plan();
    gs_ctx *base = gs_ctx_create(NULL, NULL);
    if (!base) {
        tap_bail("default context: %s", gs_last_error(NULL));
        return 1;
    }
    const struct sim_cfg *cv = base->cfg.values;
    test_selection();
    test_example_pass(cv);
    regstats_check(16);
    regstats_check(4);
    static const char *const kernels[] = {"vecadd", "reduce", "histogram", "divergent", "devfunc",
                                          "sync_misc", "asm_misc", "globals", "mathfn"};
    for (size_t i = 0; i < ARRAY_LEN(kernels); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/ptx/%s.ptx", GPUSIM_SOURCE_DIR, kernels[i]);
        renumber_check(path, cv, true);
    }
    char sg[1024];
    snprintf(sg, sizeof sg, "%s/workloads/sgemm/kernel.ptx", GPUSIM_SOURCE_DIR);
    renumber_check(sg, cv, true);
    test_workloads_verify();
    test_profile(cv);
    test_bad_profiles();
    gs_ctx_destroy(base);
    return tap_exit();
}
