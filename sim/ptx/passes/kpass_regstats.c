/* sim/ptx/passes/kpass_regstats.c: pass "regstats" (kpass.h, docs/passes.md).
 *
 * Static register-file access counts of the kernel's own instructions
 * (callees not included), after any renumbering an earlier pass made: per
 * physical register its reads and writes (one per operand and 32-bit
 * register, as the operand collector reads them), and per register bank
 * the sum over its registers with bank = (reg + warp) mod rf.n_banks for
 * warp 0. Published as statistics of group "pass.regstats" (docs/passes.md
 * lists them). Does not weigh instructions by how often they run (a
 * profile gives dynamic counts: kprofile.h).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/passes/kpass.h"

struct conflict_walk {
    uint32_t n_banks;
    uint16_t src[64];
    uint32_t ns;
};

static void conflict_emit(void *arg, uint16_t phys, int is_def)
{
    struct conflict_walk *w = arg;
    if (!is_def && w->ns < ARRAY_LEN(w->src))
        w->src[w->ns++] = phys;
}

/* Does the instruction read two different registers of one bank? */
static bool insn_conflicts(const struct conflict_walk *w)
{
    for (uint32_t i = 0; i < w->ns; i++)
        for (uint32_t j = i + 1; j < w->ns; j++)
            if (w->src[i] != w->src[j] && w->src[i] % w->n_banks == w->src[j] % w->n_banks)
                return true;
    return false;
}

int kpass_regstats_run(struct kpass_ctx *c)
{
    const struct ptx_func *fn = c->fn;
    uint32_t nb = c->rf_n_banks ? c->rf_n_banks : 1;
    uint32_t n = kpass_fn_phys_count(fn);
    if (c->res->regmap.fn && c->res->regmap.fn[fn->index].n_phys > n)
        n = c->res->regmap.fn[fn->index].n_phys;
    uint64_t *rd = xcalloc(n + 1, sizeof *rd), *wr = xcalloc(n + 1, sizeof *wr);
    uint64_t *brd = xcalloc(nb, sizeof *brd), *bwr = xcalloc(nb, sizeof *bwr);
    kpass_count_regs(c->res, fn, rd, wr, n);
    uint64_t trd = 0, twr = 0;
    for (uint32_t r = 0; r < n; r++) {
        trd += rd[r];
        twr += wr[r];
        brd[r % nb] += rd[r];
        bwr[r % nb] += wr[r];
    }
    uint64_t bmax = 0, bmin = UINT64_MAX;
    for (uint32_t b = 0; b < nb; b++) {
        bmax = MAX(bmax, brd[b] + bwr[b]);
        bmin = MIN(bmin, brd[b] + bwr[b]);
    }
    uint64_t conflicts = 0;
    for (uint32_t pc = 0; pc < fn->n_insns; pc++) {
        struct conflict_walk w = {.n_banks = nb};
        kpass_for_each_phys(fn, &fn->insns[pc], &c->res->regmap, conflict_emit, &w);
        conflicts += insn_conflicts(&w);
    }
    kpass_stat(c, "regs", -1, n, "physical registers the kernel's instructions use (numbers 0 .. regs-1)");
    kpass_stat(c, "reads", -1, trd, "static register reads (operands x 32-bit registers)");
    kpass_stat(c, "writes", -1, twr, "static register writes");
    kpass_stat(c, "bank_max", -1, bmax, "largest static access count (reads + writes) of one bank, warp 0");
    kpass_stat(c, "bank_min", -1, nb ? bmin : 0, "smallest static access count of one bank, warp 0");
    kpass_stat(c, "bank_conflicts", -1, conflicts,
               "static instructions reading two different registers of one bank (warp 0)");
    for (uint32_t b = 0; b < nb; b++) {
        kpass_stat(c, "bank_reads", (int32_t)b, brd[b], "static reads per bank (bank = reg mod rf.n_banks)");
        kpass_stat(c, "bank_writes", (int32_t)b, bwr[b], "static writes per bank (bank = reg mod rf.n_banks)");
    }
    for (uint32_t r = 0; r < n; r++) {
        kpass_stat(c, "reg_reads", (int32_t)r, rd[r], "static reads per physical register");
        kpass_stat(c, "reg_writes", (int32_t)r, wr[r], "static writes per physical register");
    }
    free(rd);
    free(wr);
    free(brd);
    free(bwr);
    return 0;
}
