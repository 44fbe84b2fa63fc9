/* sim/ptx/passes/regalloc.c: physical register allocation (pass "regalloc").
 *
 * Does: map PTX virtual registers to 32-bit physical registers as ptxas
 * would have to: a 64-bit register takes an even-aligned pair, 8/16/32-bit
 * registers take one, predicates go to a separate predicate file and are
 * not counted. Two virtual registers interfere when one is written while
 * the other is live after the instruction (from the liveness pass), or
 * both are written by the same instruction. Colouring is greedy in order
 * of first appearance (which is optimal for straight-line code and close
 * to it with loops), on an exact interference bit-matrix when the function
 * has at most RA_MATRIX_MAX virtual registers of a class; above that, on
 * live intervals (linear scan, over-approximating interference) so memory
 * stays linear. Results: reg.phys per vreg, fn->regs_alloc, preds_alloc,
 * and regs_per_thread (= regs_alloc until a ptxas sidecar overrides it).
 * Does not: spill, rematerialise or coalesce copies (ptxas does, so its
 * count can be lower or higher than ours), reserve ABI registers for
 * calls, or enforce a target; docs/ptx.md compares both counts.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"

/* NOTE(regalloc): the matrix costs n x n_regs / 8 bytes (rows are the
 * class's vregs, columns all vregs, so a row is OR-ed with a live set by
 * words): 8192 vregs, all of one class, = 8 MB. nvcc kernels in the test set have < 500 vregs
 * per class (lib_paths: 3,384 in one function). */
#define RA_MATRIX_MAX 8192u

struct ra {
    struct ptx_func *fn;
    bool pred;          /* allocating the predicate class */
    uint32_t *cls_of;   /* vreg -> index within the class, UINT32_MAX if other class */
    uint32_t *vreg_of;  /* class index -> vreg */
    uint64_t *mask;     /* vregs of the class (live.words words) */
    uint32_t n;         /* vregs in the class */
    uint64_t *adj;      /* n rows (class index) x n_regs columns (vreg) of bits; NULL in interval mode */
    uint32_t words;     /* per matrix row (= live.words) */
    uint32_t *first;    /* class index -> first instruction it appears in (UINT32_MAX never) */
    uint32_t *last;     /* class index -> last instruction where it is live or referenced */
    int32_t defs[PTX_MAX_OPNDS * 4 + 1]; /* defs of the current instruction */
    uint32_t n_defs;
};

/* The edge between class members k and j (class indices). */
static void edge(struct ra *ra, uint32_t k, uint32_t j)
{
    if (k == j)
        return;
    ptx_bit_set(ra->adj + (size_t)k * ra->words, ra->vreg_of[j]);
    ptx_bit_set(ra->adj + (size_t)j * ra->words, ra->vreg_of[k]);
}

struct ref_ctx {
    struct ra *ra;
    uint32_t pc;
};

static void ref_visit(int32_t v, int is_def, void *p)
{
    struct ref_ctx *c = p;
    struct ra *ra = c->ra;
    uint32_t k = ra->cls_of[v];
    if (k == UINT32_MAX)
        return;
    if (ra->first[k] == UINT32_MAX)
        ra->first[k] = c->pc;
    if (ra->last[k] == UINT32_MAX || c->pc > ra->last[k])
        ra->last[k] = c->pc;
    if (is_def && ra->n_defs < ARRAY_LEN(ra->defs))
        ra->defs[ra->n_defs++] = (int32_t)k;
}

/* first[]/last[] over the live sets: the first (last) instruction where a
 * class member is live in or out. Each register is looked at once per
 * direction (`seen`), the rest is whole words. */
static void live_span(struct ra *ra, bool backward)
{
    const struct ptx_func *fn = ra->fn;
    const uint32_t w = fn->live.words;
    uint64_t *seen = ptx_xcalloc(w + 1, sizeof *seen);
    for (uint32_t i = 0; i < fn->n_insns; i++) {
        uint32_t pc = backward ? fn->n_insns - 1 - i : i;
        const uint64_t *out = fn->live.live_out + (size_t)pc * w;
        const uint64_t *in = fn->live.live_in + (size_t)pc * w;
        for (uint32_t x = 0; x < w; x++) {
            uint64_t fresh = (out[x] | in[x]) & ra->mask[x] & ~seen[x];
            seen[x] |= fresh;
            for (; fresh; fresh &= fresh - 1) {
                uint32_t k = ra->cls_of[x * 64 + (uint32_t)__builtin_ctzll(fresh)];
                if (!backward && (ra->first[k] == UINT32_MAX || pc < ra->first[k]))
                    ra->first[k] = pc;
                if (backward && (ra->last[k] == UINT32_MAX || pc > ra->last[k]))
                    ra->last[k] = pc;
            }
        }
    }
    free(seen);
}

/* Scan the function: first/last appearance, and matrix edges. A def gets
 * an edge to every class member live after its instruction: its row is
 * OR-ed with the live-out set by words, and the matrix is made symmetric
 * once at the end (one bit pair per edge and instruction was most of the
 * pass's time on big functions). */
static void scan(struct ra *ra)
{
    struct ptx_func *fn = ra->fn;
    uint32_t w = fn->live.words;
    for (uint32_t pc = 0; pc < fn->n_insns; pc++) {
        struct ref_ctx c = {ra, pc};
        ra->n_defs = 0;
        ptx_insn_for_each_reg(&fn->insns[pc], ref_visit, &c);
        if (!ra->adj)
            continue;
        const uint64_t *out = fn->live.live_out + (size_t)pc * w;
        for (uint32_t d = 0; d < ra->n_defs; d++) {
            uint32_t k = (uint32_t)ra->defs[d];
            uint64_t *row = ra->adj + (size_t)k * w;
            for (uint32_t x = 0; x < w; x++)
                row[x] |= out[x] & ra->mask[x];
            ptx_bit_clear(row, ra->vreg_of[k]);
        }
        for (uint32_t a = 0; a < ra->n_defs; a++)
            for (uint32_t b = a + 1; b < ra->n_defs; b++)
                edge(ra, (uint32_t)ra->defs[a], (uint32_t)ra->defs[b]);
    }
    live_span(ra, false);
    live_span(ra, true);
    if (ra->adj) /* symmetric: bit (k, vreg of j) whenever bit (j, vreg of k) */
        for (uint32_t k = 0; k < ra->n; k++) {
            const uint64_t *row = ra->adj + (size_t)k * w;
            for (uint32_t x = 0; x < w; x++)
                for (uint64_t bits = row[x]; bits; bits &= bits - 1) {
                    uint32_t j = ra->cls_of[x * 64 + (uint32_t)__builtin_ctzll(bits)];
                    ptx_bit_set(ra->adj + (size_t)j * w, ra->vreg_of[k]);
                }
        }
}

static uint32_t width_of(const struct ra *ra, uint32_t k)
{
    return ra->pred ? 1 : ra->fn->regs[ra->vreg_of[k]].n_phys;
}

/* Lowest slot s (aligned to the width) with [s, s+width) free in busy. */
static uint32_t lowest_free(const uint8_t *busy, uint32_t width)
{
    for (uint32_t s = 0;; s += width) {
        bool ok = true;
        for (uint32_t j = 0; j < width; j++)
            ok = ok && !busy[s + j];
        if (ok)
            return s;
    }
}

static uint32_t colour(struct ra *ra)
{
    struct ptx_func *fn = ra->fn;
    struct ptx_order_item *ord = ptx_xcalloc(ra->n, sizeof *ord); /* by first appearance */
    uint32_t n_live = 0;
    for (uint32_t k = 0; k < ra->n; k++)
        if (ra->first[k] != UINT32_MAX)
            ord[n_live++] = (struct ptx_order_item){ra->first[k], k};
    qsort(ord, n_live, sizeof *ord, ptx_order_cmp);
    uint32_t slots = 2 * ra->n + 4, used = 0;
    uint8_t *busy = ptx_xcalloc(slots, 1);
    int32_t *phys = ptx_xcalloc(ra->n, sizeof *phys);
    for (uint32_t k = 0; k < ra->n; k++)
        phys[k] = -1;
    /* interval mode: active set sorted by nothing, scanned linearly */
    uint32_t *active = ra->adj ? NULL : ptx_xcalloc(ra->n + 1, sizeof *active);
    uint32_t n_active = 0;
    for (uint32_t i = 0; i < n_live; i++) {
        uint32_t k = ord[i].idx, width = width_of(ra, k);
        memset(busy, 0, slots);
        if (ra->adj) {
            const uint64_t *row = ra->adj + (size_t)k * ra->words;
            for (uint32_t x = 0; x < ra->words; x++) {
                uint64_t bits = row[x];
                while (bits) {
                    uint32_t o = ra->cls_of[x * 64 + (uint32_t)__builtin_ctzll(bits)];
                    bits &= bits - 1;
                    if (phys[o] >= 0)
                        for (uint32_t j = 0; j < width_of(ra, o); j++)
                            busy[phys[o] + j] = 1;
                }
            }
        } else {
            uint32_t keep = 0;
            for (uint32_t a = 0; a < n_active; a++) {
                uint32_t o = active[a];
                if (ra->last[o] < ra->first[k])
                    continue; /* expired */
                active[keep++] = o;
                for (uint32_t j = 0; j < width_of(ra, o); j++)
                    busy[phys[o] + j] = 1;
            }
            n_active = keep;
            active[n_active++] = k;
        }
        uint32_t s = lowest_free(busy, width);
        phys[k] = (int32_t)s;
        if (s + width > used)
            used = s + width;
    }
    for (uint32_t k = 0; k < ra->n; k++)
        fn->regs[ra->vreg_of[k]].phys = phys[k];
    free(active);
    free(phys);
    free(busy);
    free(ord);
    return used;
}

static uint32_t alloc_class(struct ptx_func *fn, bool pred)
{
    struct ra ra;
    memset(&ra, 0, sizeof ra);
    ra.fn = fn;
    ra.pred = pred;
    ra.cls_of = ptx_xcalloc(fn->n_regs + 1, sizeof *ra.cls_of);
    ra.vreg_of = ptx_xcalloc(fn->n_regs + 1, sizeof *ra.vreg_of);
    ra.mask = ptx_xcalloc(fn->live.words + 1, sizeof *ra.mask);
    for (uint32_t v = 0; v < fn->n_regs; v++) {
        if (fn->regs[v].is_pred == pred) {
            ra.cls_of[v] = ra.n;
            ra.vreg_of[ra.n++] = v;
            if (v / 64 < fn->live.words)
                ptx_bit_set(ra.mask, v);
        } else {
            ra.cls_of[v] = UINT32_MAX;
        }
    }
    uint32_t used = 0;
    if (ra.n) {
        ra.first = ptx_xcalloc(ra.n, sizeof *ra.first);
        ra.last = ptx_xcalloc(ra.n, sizeof *ra.last);
        for (uint32_t k = 0; k < ra.n; k++)
            ra.first[k] = ra.last[k] = UINT32_MAX;
        if (ra.n <= RA_MATRIX_MAX && fn->live.words) {
            ra.words = fn->live.words;
            ra.adj = ptx_xcalloc((size_t)ra.n * ra.words, sizeof(uint64_t));
        }
        scan(&ra);
        used = colour(&ra);
    }
    free(ra.adj);
    free(ra.first);
    free(ra.last);
    free(ra.cls_of);
    free(ra.vreg_of);
    free(ra.mask);
    return used;
}

void ptx_regalloc_run(struct ptx_func *fn)
{
    fn->regs_alloc = alloc_class(fn, false);
    fn->preds_alloc = alloc_class(fn, true);
    fn->regs_per_thread = fn->regs_ptxas >= 0 ? (uint32_t)fn->regs_ptxas : fn->regs_alloc;
}
