/* sim/ptx/passes/liveness.c: per-instruction register liveness (pass "liveness").
 *
 * Does: classic backward dataflow over the CFG on bitsets of virtual
 * registers (predicates included): per block gen/kill, iterate
 * live_out(B) = U live_in(S), live_in(B) = gen(B) U (live_out(B) \ kill(B))
 * over the blocks in reverse order until nothing changes, then one
 * backward walk per block fills fn->live.live_in/live_out per instruction.
 * A guarded instruction's destinations are not killed (the old value
 * survives when the guard is false), which keeps the allocator correct
 * for predicated code.
 * Does not: treat calls specially (arguments travel through .param
 * memory, not registers), or track sub-register lanes.
 * Cost: O(iterations x blocks x words); a 10k-instruction kernel with a
 * few thousand registers takes milliseconds and a few MB.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/internal.h"

void ptx_liveness_free(struct ptx_liveness *lv)
{
    free(lv->live_in);
    free(lv->live_out);
    memset(lv, 0, sizeof *lv);
}

struct gk_ctx {
    uint64_t *gen, *kill;
    bool guarded;
    int pass; /* 0: uses, 1: defs */
};

/* Uses are recorded before defs of the same instruction, walking the
 * block forwards: gen = read before any (unguarded) write in the block. */
static void gk_visit(int32_t v, int is_def, void *p)
{
    struct gk_ctx *c = p;
    if (c->pass == 0 && !is_def) {
        if (!ptx_bit_test(c->kill, (uint32_t)v))
            ptx_bit_set(c->gen, (uint32_t)v);
    } else if (c->pass == 1 && is_def && !c->guarded) {
        ptx_bit_set(c->kill, (uint32_t)v);
    }
}

/* Backward transfer of one instruction on the set `live` (in place). */
struct xfer_ctx {
    uint64_t *live;
    bool guarded;
    int pass; /* 0: kill defs, 1: add uses */
};

static void xfer_visit(int32_t v, int is_def, void *p)
{
    struct xfer_ctx *c = p;
    if (c->pass == 0 && is_def && !c->guarded)
        ptx_bit_clear(c->live, (uint32_t)v);
    else if (c->pass == 1 && !is_def)
        ptx_bit_set(c->live, (uint32_t)v);
}

static void transfer(const struct ptx_insn *in, uint64_t *live)
{
    struct xfer_ctx c = {live, in->guard >= 0, 0};
    ptx_insn_for_each_reg(in, xfer_visit, &c);
    c.pass = 1;
    ptx_insn_for_each_reg(in, xfer_visit, &c);
}

void ptx_liveness_compute(struct ptx_func *fn)
{
    struct ptx_liveness *lv = &fn->live;
    const struct ptx_cfg *cfg = &fn->cfg;
    ptx_liveness_free(lv);
    uint32_t w = (fn->n_regs + 63) / 64;
    if (!w)
        w = 1;
    lv->words = w;
    uint32_t n = fn->n_insns, nb = cfg->n_blocks;
    lv->live_in = ptx_xcalloc((size_t)n * w, sizeof(uint64_t));
    lv->live_out = ptx_xcalloc((size_t)n * w, sizeof(uint64_t));
    if (!n)
        return;
    uint64_t *gen = ptx_xcalloc((size_t)nb * w, sizeof(uint64_t));
    uint64_t *kill = ptx_xcalloc((size_t)nb * w, sizeof(uint64_t));
    uint64_t *bin = ptx_xcalloc((size_t)nb * w, sizeof(uint64_t));
    uint64_t *bout = ptx_xcalloc((size_t)nb * w, sizeof(uint64_t));
    for (uint32_t b = 0; b < nb; b++) {
        const struct ptx_block *bl = &cfg->blocks[b];
        for (uint32_t i = bl->first; i <= bl->last; i++) {
            struct gk_ctx c = {gen + (size_t)b * w, kill + (size_t)b * w, fn->insns[i].guard >= 0, 0};
            ptx_insn_for_each_reg(&fn->insns[i], gk_visit, &c);
            c.pass = 1;
            ptx_insn_for_each_reg(&fn->insns[i], gk_visit, &c);
        }
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = nb; b-- > 0;) {
            const struct ptx_block *bl = &cfg->blocks[b];
            uint64_t *out = bout + (size_t)b * w, *in = bin + (size_t)b * w;
            const uint64_t *g = gen + (size_t)b * w, *k = kill + (size_t)b * w;
            for (uint32_t x = 0; x < w; x++) {
                uint64_t o = 0;
                for (uint32_t s = 0; s < bl->n_succ; s++)
                    o |= bin[(size_t)bl->succ[s] * w + x];
                out[x] = o;
                uint64_t ni = g[x] | (o & ~k[x]);
                if (ni != in[x]) {
                    in[x] = ni;
                    changed = true;
                }
            }
        }
    }
    uint64_t *cur = ptx_xcalloc(w, sizeof(uint64_t));
    for (uint32_t b = 0; b < nb; b++) {
        const struct ptx_block *bl = &cfg->blocks[b];
        memcpy(cur, bout + (size_t)b * w, w * sizeof(uint64_t));
        for (uint32_t i = bl->last + 1; i-- > bl->first;) {
            memcpy(lv->live_out + (size_t)i * w, cur, w * sizeof(uint64_t));
            transfer(&fn->insns[i], cur);
            memcpy(lv->live_in + (size_t)i * w, cur, w * sizeof(uint64_t));
        }
    }
    free(cur);
    free(gen);
    free(kill);
    free(bin);
    free(bout);
}
