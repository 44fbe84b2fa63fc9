/* sim/func/exec_sync.c: the functional executor's CTA barriers and
 * warp-level collectives: bar.sync/bar.arrive/bar.red arrival and release
 * (exec_cta_barrier_check, which also settles released warps in timing
 * mode), shfl.sync, vote, match and redux.sync.
 */
#include <inttypes.h>

#include "sim/func/exec_internal.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"

/* ------------------------------------------------------------- barriers */
void exec_cta_barrier_check(struct exec *x, struct cta *c)
{
    for (uint32_t b = 0; b < FUNC_MAX_BARRIERS; b++) {
        if (!c->bar_arrived[b])
            continue;
        uint32_t need = c->bar_expect[b] ? c->bar_expect[b] : x->n_warps - c->n_done;
        if (c->bar_arrived[b] < need)
            continue;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            struct warp *w = &c->warps[i];
            if (w->state != W_BAR || w->bar_id != b)
                continue;
            w->state = W_RUN;
            w->bar_release = true;
            if (w->bar_dst >= 0) {
                const struct ptx_insn *in = &w->fr[w->depth].fn->xinsns[w->stk[w->sp - 1].pc - 1];
                uint64_t v = in->aop == PTX_AOP_POPC ? c->bar_popc[b]
                             : in->aop == PTX_AOP_AND ? c->bar_and[b]
                                                      : c->bar_or[b];
                uint64_t *R = w->arena + w->fr[w->depth].reg_off;
                for (uint32_t m = w->bar_mask; m; m &= m - 1)
                    R[(size_t)w->bar_dst * FUNC_WARP + (unsigned)__builtin_ctz(m)] = v;
            }
        }
        if (x->ev) /* timing mode: bring released warps to their next instruction */
            for (uint32_t i = 0; i < x->n_warps; i++)
                if (c->warps[i].state == W_RUN && c->warps[i].bar_release) {
                    c->warps[i].bar_release = false;
                    exec_settle_top(x, &c->warps[i]);
                    note_ev(x, &c->warps[i]);
                }
        c->bar_arrived[b] = 0;
        c->bar_expect[b] = 0;
        c->bar_popc[b] = 0;
        c->bar_and[b] = 1;
        c->bar_or[b] = 0;
        x->progress = true;
        x->change_mark = x->total_insts;
    }
}

void exec_bar(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                     uint32_t pc, uint32_t mask, uint32_t g)
{
    struct cta *c = w->cta;
    const struct ptx_operand *src = &in->opnd[in->n_dst];
    int lane0 = __builtin_ctz(mask);
    uint64_t id = opv(x, w, R, &src[0], lane0);
    if (id >= FUNC_MAX_BARRIERS) {
        exec_fault(x, w, lane0, pc, "barrier id %" PRIu64 " out of range (0..%d)", id, FUNC_MAX_BARRIERS - 1);
        return;
    }
    uint32_t expect = 0;
    if (in->flags & PTX_F_BAR_COUNT) {
        uint64_t cnt = opv(x, w, R, &src[1], lane0);
        expect = (uint32_t)((cnt + FUNC_WARP - 1) / FUNC_WARP);
    }
    x->st->barriers++;
    if (!g) {
        w->stk[w->sp - 1].pc = pc + 1;
        return;
    }
    c->bar_expect[id] = expect;
    c->bar_arrived[id]++;
    w->stk[w->sp - 1].pc = pc + 1;
    w->bar_dst = -1;
    if (in->mode == PTX_MODE_RED) {
        const struct ptx_operand *po = &src[in->n_src - 1];
        uint32_t t = 0;
        for (uint32_t m = g; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            if (opv(x, w, R, po, lane) & 1)
                t |= 1u << lane;
        }
        c->bar_popc[id] += (uint32_t)__builtin_popcount(t);
        if (t != g)
            c->bar_and[id] = 0;
        if (t)
            c->bar_or[id] = 1;
        w->bar_dst = in->opnd[0].kind == PTX_OPND_REG ? in->opnd[0].reg : -1;
        w->bar_mask = g;
    }
    if (in->mode != PTX_MODE_ARRIVE) {
        w->state = W_BAR;
        w->bar_id = (uint32_t)id;
    }
    exec_cta_barrier_check(x, c);
}

/* ---------------------------------------------------------- warp-level */
void exec_shfl(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint64_t av[FUNC_WARP];
    /* Source values of every lane (inactive lanes' registers are read as
     * they are: PTX leaves that result undefined). */
    for (int lane = 0; lane < FUNC_WARP; lane++)
        av[lane] = opv(x, w, R, &s[0], lane);
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t b = (uint32_t)opv(x, w, R, &s[1], lane) & 31;
        uint32_t c = (uint32_t)opv(x, w, R, &s[2], lane);
        uint32_t segmask = (c >> 8) & 31, cval = c & 31;
        int maxl = (int)(((uint32_t)lane & segmask) | (cval & ~segmask));
        int minl = (int)((uint32_t)lane & segmask);
        int j;
        bool pv;
        switch (in->mode) {
        case PTX_MODE_UP: j = lane - (int)b; pv = j >= maxl; break;
        case PTX_MODE_DOWN: j = lane + (int)b; pv = j <= maxl; break;
        case PTX_MODE_BFLY: j = lane ^ (int)b; pv = j <= maxl; break;
        default: j = minl | (int)(b & ~segmask); pv = j <= maxl; break;
        }
        if (!pv)
            j = lane;
        setv(R, &in->opnd[0], lane, av[j & 31]);
        if (in->n_dst > 1)
            setv(R, &in->opnd[1], lane, pv);
    }
}

void exec_vote(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                      uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint32_t t = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        if (opv(x, w, R, &s[0], lane) & 1)
            t |= 1u << lane;
    }
    uint64_t v;
    switch (in->mode) {
    case PTX_MODE_ALL: v = t == g; break;
    case PTX_MODE_ANY: v = t != 0; break;
    case PTX_MODE_UNI: v = t == 0 || t == g; break;
    default: v = t; break;
    }
    for (uint32_t m = g; m; m &= m - 1)
        setv(R, &in->opnd[0], __builtin_ctz(m), v);
}

void exec_match(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                       uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    uint64_t v[FUNC_WARP];
    uint64_t wm = in->type == PTX_T_B64 ? ~0ull : 0xffffffffull;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        v[lane] = opv(x, w, R, &s[0], lane) & wm;
    }
    bool all = true;
    for (uint32_t m = g; m; m &= m - 1)
        if (v[__builtin_ctz(m)] != v[__builtin_ctz(g)])
            all = false;
    for (uint32_t m = g; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint32_t same = 0;
        for (uint32_t k = g; k; k &= k - 1)
            if (v[__builtin_ctz(k)] == v[lane])
                same |= 1u << __builtin_ctz(k);
        if (in->mode == PTX_MODE_ALL) {
            setv(R, &in->opnd[0], lane, all ? g : 0);
            if (in->n_dst > 1)
                setv(R, &in->opnd[1], lane, all);
        } else
            setv(R, &in->opnd[0], lane, same);
    }
}

void exec_redux(struct exec *x, struct warp *w, uint64_t *R, const struct ptx_insn *in,
                       uint32_t pc, uint32_t g)
{
    const struct ptx_operand *s = &in->opnd[in->n_dst];
    bool first = true, bad = false;
    uint64_t acc = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        uint64_t v = opv(x, w, R, &s[0], __builtin_ctz(m));
        acc = first ? fpu_extend(v, (enum ptx_type)in->type)
                    : fpu_atomic((enum ptx_aop)in->aop, (enum ptx_type)in->type, acc, v, 0, false, &bad);
        first = false;
    }
    if (bad) {
        exec_fault(x, w, __builtin_ctz(g), pc, "unsupported redux operation");
        return;
    }
    for (uint32_t m = g; m; m &= m - 1)
        setv(R, &in->opnd[0], __builtin_ctz(m), acc);
}
