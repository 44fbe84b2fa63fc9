/* sim/ptx/passes/kpass_renumber.c: pass "renumber_hot" (kpass.h, docs/passes.md).
 *
 * A small member of the register remapping family of the racetrack and
 * LTRF specs: renumber each function's physical registers so that the most
 * accessed ones sit in distinct banks (bank = reg mod rf.n_banks for warp
 * 0; the warp term rotates every bank equally, so distinct stays
 * distinct). Hotness is the static access count (reads + writes) of
 * kpass_count_regs, or for the kernel itself the dynamic warp-level counts
 * of a loaded profile when there is one. Registers are placed hottest
 * first, each in the least-loaded bank that still has a free number below
 * the function's register count (ties: the bank with fewer such numbers,
 * then the lowest), taking that bank's
 * lowest free number (greedy longest-first); then pairs of registers
 * (both among the hottest rf.n_banks, or both not) are swapped between the busiest bank and others while
 * that lowers the busiest bank's load. The count does not grow, so
 * occupancy is unchanged.
 *
 * What it changes: only the timing view (struct kpass_regmap). The IR and
 * the functional executor keep the allocator's numbers, so results cannot
 * change (rf-ltrf.md 2.6 makes the same choice). 64-bit pairs may be split
 * over two non-adjacent numbers; the timing model handles each 32-bit half
 * on its own. Statistics: pass.renumber_hot.moved (registers whose number
 * changed, summed over functions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/ptx/passes/kprofile.h"

struct hot {
    uint64_t count; /* accesses */
    uint16_t reg;   /* number before this pass */
};

static int hot_cmp(const void *a, const void *b)
{
    const struct hot *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (int)x->reg - (int)y->reg;
}

/* Fill map (n entries) for access counts cnt[0 .. n). Returns registers moved. */
static uint32_t plan(const uint64_t *cnt, uint32_t n, uint32_t nb, uint16_t *map)
{
    struct hot *h = xcalloc(n, sizeof *h);
    for (uint32_t r = 0; r < n; r++)
        h[r] = (struct hot){cnt[r], (uint16_t)r};
    qsort(h, n, sizeof *h, hot_cmp);
    uint64_t *load = xcalloc(nb, sizeof *load);
    uint32_t *next = xcalloc(nb, sizeof *next); /* next free row of each bank */
    uint32_t moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t b = 0; b < nb; b++) {
            if ((uint64_t)next[b] * nb + b >= n)
                continue; /* bank full below n */
            /* least loaded; then the bank with fewer numbers below n (it
             * takes fewer companions, so it suits the hottest); then lowest */
            if (best == UINT32_MAX || load[b] < load[best] ||
                (load[b] == load[best] && (n - b + nb - 1) / nb < (n - best + nb - 1) / nb))
                best = b;
        }
        uint32_t nr = next[best]++ * nb + best;
        load[best] += h[i].count;
        map[h[i].reg] = (uint16_t)nr;
    }
    /* Then swap two of the hottest nb, or two of the others (so the
     * hottest stay in distinct banks), between the busiest bank and
     * another while that lowers the busiest bank's load. */
    for (uint32_t iter = 0; iter < 4 * n; iter++) {
        uint32_t mb = 0;
        for (uint32_t b = 1; b < nb; b++)
            if (load[b] > load[mb])
                mb = b;
        uint64_t best_gain = 0;
        uint32_t bi = 0, bj = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (map[h[i].reg] % nb != mb)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t cb = map[h[j].reg] % nb;
                if (cb == mb || h[j].count >= h[i].count || (i < nb) != (j < nb))
                    continue;
                uint64_t d = h[i].count - h[j].count;
                uint64_t nm = MAX(load[mb] - d, load[cb] + d);
                if (nm < load[mb] && load[mb] - nm > best_gain) {
                    best_gain = load[mb] - nm;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (!best_gain)
            break;
        uint32_t cb = map[h[bj].reg] % nb;
        uint64_t d = h[bi].count - h[bj].count;
        load[mb] -= d;
        load[cb] += d;
        uint16_t t = map[h[bi].reg];
        map[h[bi].reg] = map[h[bj].reg];
        map[h[bj].reg] = t;
    }
    for (uint32_t r = 0; r < n; r++)
        moved += map[r] != r;
    free(h);
    free(load);
    free(next);
    return moved;
}

int kpass_renumber_hot_run(struct kpass_ctx *c)
{
    uint32_t nb = c->rf_n_banks ? c->rf_n_banks : 1;
    uint64_t moved = 0;
    for (uint32_t f = 0; f < c->mod->n_funcs; f++) {
        const struct ptx_func *fn = &c->mod->funcs[f];
        if (!fn->has_body)
            continue;
        uint32_t n = kpass_fn_phys_count(fn);
        if (c->res->regmap.fn && c->res->regmap.fn[f].n_phys > n)
            n = c->res->regmap.fn[f].n_phys;
        if (n == 0)
            continue;
        uint64_t *rd = xcalloc(n, sizeof *rd), *wr = xcalloc(n, sizeof *wr);
        kpass_count_regs(c->res, fn, rd, wr, n);
        const struct kprof_kernel *p = c->profile;
        bool dyn = p && fn == c->fn && p->n_regs > 0;
        for (uint32_t r = 0; r < n; r++)
            rd[r] = dyn ? 0 : rd[r] + wr[r];
        /* Profile counts are by allocator number: map them through the renumbering so far. */
        if (dyn)
            for (uint32_t r = 0; r < p->n_regs && r < n; r++)
                rd[kpass_regmap_phys(&c->res->regmap, f, (uint16_t)r)] += p->reg_reads[r] + p->reg_writes[r];
        uint16_t *map = xcalloc(n, sizeof *map);
        moved += plan(rd, n, nb, map);
        bool ok = kpass_remap_set(c, f, map, n);
        free(map);
        free(rd);
        free(wr);
        if (!ok) {
            snprintf(c->err, c->err_len, "internal error: renumbering of '%s' is not a permutation", fn->name);
            return -1;
        }
    }
    kpass_stat(c, "moved", -1, moved, "physical registers given a new number (all functions of the module)");
    return 0;
}
