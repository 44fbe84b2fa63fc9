/* sim/func/exec_sm.c: timing mode's per-SM executor (func_sm_*, declared in
 * func.h): CTA slots driven by the dispatcher, one warp instruction per
 * issue, the memop of a memory instruction (space, size, kind, ordering and
 * cache operator), completion of deferred loads and atomics into registers,
 * warp events and warp dumps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/func/exec_internal.h"
#include "sim/func/fpu.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/memorder.h"
#include "sim/func/memop.h"

/* ------------------------------------------------- timing-mode interface */
/* The per-SM executor of timing mode is a struct exec whose CTA slots are
 * the SM's; CTAs come from the dispatcher (func_sm_cta_start) instead of
 * the linear order of func_run, and instructions are issued one at a time
 * by the SM's schedulers. */
struct func_sm *func_sm_create(const struct func_launch *l, uint32_t n_slots, uint32_t sm_id, const uint64_t *cycle)
{
    struct exec *x = line_calloc(1, sizeof *x); /* NOTE(line-alloc) in sim/base/common.h */
    if (!x)
        sim_panic("out of memory for an SM's executor");
    x->lcopy = *l;
    x->lcopy.err = x->errbuf;
    x->lcopy.err_len = sizeof x->errbuf;
    exec_setup(x, &x->lcopy);
    x->n_slots = n_slots ? n_slots : 1;
    x->cycle = cycle;
    x->sm_id = sm_id;
    if (exec_alloc(x) != 0) {
        exec_free(x);
        free(x);
        return NULL;
    }
    x->ev = line_calloc((size_t)x->n_slots * x->n_warps, sizeof *x->ev);
    x->ev_mark = line_calloc((size_t)x->n_slots * x->n_warps, 1);
    if (!x->ev || !x->ev_mark)
        sim_panic("out of memory for an SM's executor");
    return (struct func_sm *)x;
}

void func_sm_destroy(struct func_sm *s)
{
    struct exec *x = (struct exec *)s;
    if (!x)
        return;
    exec_free(x);
    free(x->ev);
    free(x->ev_mark);
    free(x);
}

uint32_t func_sm_warps_per_cta(const struct func_sm *s) { return ((const struct exec *)s)->n_warps; }
int func_sm_error(const struct func_sm *s) { return ((const struct exec *)s)->err; }
const char *func_sm_error_text(const struct func_sm *s) { return ((const struct exec *)s)->errbuf; }

void func_sm_cta_start(struct func_sm *s, uint32_t slot, uint64_t lin)
{
    struct exec *x = (struct exec *)s;
    SIM_ASSERT(slot < x->n_slots && !x->ctas[slot].live, "func_sm: CTA slot %u busy", slot);
    exec_cta_start(x, &x->ctas[slot], lin);
}

bool func_sm_cta_finished(const struct func_sm *s, uint32_t slot)
{
    const struct exec *x = (const struct exec *)s;
    return x->ctas[slot].live && x->ctas[slot].n_done == x->n_warps;
}

void func_sm_cta_release(struct func_sm *s, uint32_t slot)
{
    struct exec *x = (struct exec *)s;
    x->ctas[slot].live = false;
    x->st->ctas++;
}

uint32_t func_sm_warp_valid(const struct func_sm *s, uint32_t slot, uint32_t wid)
{
    const struct exec *x = (const struct exec *)s;
    return x->ctas[slot].warps[wid].valid;
}

int func_sm_warp_state(const struct func_sm *s, uint32_t slot, uint32_t wid)
{
    const struct exec *x = (const struct exec *)s;
    switch (x->ctas[slot].warps[wid].state) {
    case W_RUN: return FUNC_W_RUN;
    case W_BAR: return FUNC_W_BAR;
    default: return FUNC_W_DONE;
    }
}

void func_sm_warp_pc(const struct func_sm *s, uint32_t slot, uint32_t wid, uint32_t *func, uint32_t *pc)
{
    const struct exec *x = (const struct exec *)s;
    const struct warp *w = &x->ctas[slot].warps[wid];
    *func = w->fr[w->depth].fn->index;
    *pc = w->sp ? w->stk[w->sp - 1].pc : 0;
}

uint32_t func_sm_take_events(struct func_sm *s, uint32_t *out, uint32_t max)
{
    struct exec *x = (struct exec *)s;
    if (!x->n_ev) /* the common case: called twice per SM cycle */
        return 0;
    uint32_t n = x->n_ev < max ? x->n_ev : max;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = x->ev[i];
        x->ev_mark[x->ev[i]] = 0;
    }
    memmove(x->ev, x->ev + n, (x->n_ev - n) * sizeof *x->ev);
    x->n_ev -= n;
    return n;
}

const uint32_t *func_sm_events_pending(const struct func_sm *s) { return &((const struct exec *)s)->n_ev; }

static uint8_t memop_space_of(unsigned sp)
{
    switch (sp) {
    case PTX_SPACE_SHARED: return MEMOP_SHARED;
    case PTX_SPACE_LOCAL: return MEMOP_LOCAL;
    case PTX_SPACE_CONST: return MEMOP_CONST;
    case PTX_SPACE_PARAM:
    case PTX_SPACE_ARGS: return MEMOP_PARAM;
    default: return MEMOP_GLOBAL;
    }
}

static uint8_t cache_op_of(const struct ptx_insn *in, uint32_t order)
{
    if (in->flags & PTX_F_VOLATILE)
        return MEMOP_CO_VOLATILE;
    if (order & MO_ORD_BYPASS_L1) /* .relaxed/.acquire at gpu scope read the L2 (docs/memmodel.md) */
        return MEMOP_CO_CV;
    switch (in->cache) {
    case PTX_CACHE_CG: return MEMOP_CO_CG;
    case PTX_CACHE_CS: return MEMOP_CO_CS;
    case PTX_CACHE_LU: return MEMOP_CO_LU;
    case PTX_CACHE_CV: return MEMOP_CO_CV;
    case PTX_CACHE_WT: return MEMOP_CO_WT;
    default: return MEMOP_CO_CA;
    }
}

int func_sm_issue(struct func_sm *s, uint32_t slot, uint32_t wid, struct memop *mo, struct func_issue *out)
{
    struct exec *x = (struct exec *)s;
    struct warp *w = &x->ctas[slot].warps[wid];
    SIM_ASSERT(w->state == W_RUN, "func_sm: issue of a warp that cannot run");
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t pc = w->stk[w->sp - 1].pc;
    const struct ptx_insn *in = &fn->xinsns[pc];
    enum ptx_op op = (enum ptx_op)in->op;
    bool is_mem = op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM || op == PTX_OP_RED;
    out->func = fn->index;
    out->pc = pc;
    out->fl = op == PTX_OP_MEMBAR ? FUNC_I_FENCE : 0;
    if (is_mem) {
        x->mo = mo;
        x->mo_glob = x->mo_other = 0;
        x->mo_other_space = PTX_SPACE_GLOBAL;
        x->mo_uniform = false;
    }
    exec_warp_step(x, w);
    x->mo = NULL;
    if (is_mem && !x->err && (x->mo_glob | x->mo_other)) {
        bool glob = x->mo_glob != 0;
        unsigned es = ptx_type_bytes((enum ptx_type)in->type), nv = in->vec ? in->vec : 1;
        mo->warp = slot * x->n_warps + wid;
        mo->pc = pc;
        mo->space = glob ? MEMOP_GLOBAL : memop_space_of(x->mo_other_space);
        mo->active = glob ? x->mo_glob : x->mo_other;
        uint32_t order = glob ? ptx_insn_mem_order(in) : 0;
        mo->order = (uint8_t)order;
        mo->cache_op = cache_op_of(in, order);
        mo->aop = in->aop;
        mo->atype = in->type;
        mo->n_dst = 0;
        mo->uniform = !glob && x->mo_uniform;
        if (op == PTX_OP_ATOM || op == PTX_OP_RED) {
            mo->size = (uint8_t)es;
            mo->kind = glob ? (op == PTX_OP_ATOM ? MEMOP_ATOMIC : MEMOP_RED) : MEMOP_LOAD;
        } else {
            mo->size = (uint8_t)(es * nv);
            mo->kind = op == PTX_OP_ST ? MEMOP_STORE : MEMOP_LOAD;
        }
        out->fl |= (uint8_t)(FUNC_I_MEM | (glob ? FUNC_I_DEFERRED : 0));
    }
    exec_settle_top(x, w);
    return x->err;
}

void func_sm_mem_complete(struct func_sm *s, uint32_t func, const struct memop *op, const struct memop_result *res)
{
    struct exec *x = (struct exec *)s;
    uint32_t slot = op->warp / x->n_warps, wid = op->warp % x->n_warps;
    struct warp *w = &x->ctas[slot].warps[wid];
    /* The SM holds calls and returns until the warp's loads are back, so the
     * frame that issued the load is still the current one (an exited warp
     * keeps its registers until its CTA is released). */
    const struct frame *f = &w->fr[w->depth];
    SIM_ASSERT(f->fn->index == func, "func_sm: load completes in another frame");
    const struct ptx_insn *in = &f->fn->xinsns[op->pc];
    /* NOTE(reg-slots) in sim/ptx/passes/slots.c: only these write their
     * registers after issue, and their destinations have slots of their own */
    SIM_ASSERT(ptx_insn_completes_late(in), "func_sm: deferred completion of a %s%s (NOTE(reg-slots))",
               ptx_op_name((enum ptx_op)in->op), ptx_space_name((enum ptx_space)in->space));
    uint64_t *R = w->arena + f->reg_off;
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned es = ptx_type_bytes(t);
    if (op->kind == MEMOP_ATOMIC) {
        if (in->n_dst == 0)
            return;
        for (uint32_t m = op->active; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            setv(R, &in->opnd[0], lane, fpu_extend(load_bytes(res->data[lane], es), t));
        }
        return;
    }
    if (op->kind != MEMOP_LOAD)
        return;
    for (uint32_t m = op->active; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        ld_write(R, in, lane, res->data[lane]);
    }
}

int func_sm_describe_warp(const struct func_sm *s, uint32_t slot, uint32_t wid, char *buf, size_t n)
{
    const struct exec *x = (const struct exec *)s;
    const struct cta *c = &x->ctas[slot];
    const struct warp *w = &c->warps[wid];
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t pc = w->sp ? w->stk[w->sp - 1].pc : 0;
    char src[128] = "";
    if (pc < fn->n_insns && fn->insns[pc].src_file)
        snprintf(src, sizeof src, " (%s:%u)", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                 fn->insns[pc].src_line);
    int k = snprintf(buf, n, "CTA (%u,%u,%u) warp %u: %s, pc %u line %u%s%s%s, SIMT stack [", c->id[0], c->id[1],
                     c->id[2], w->wid, w->state == W_RUN ? "running" : w->state == W_BAR ? "at barrier" : "exited",
                     pc, pc < fn->n_insns ? fn->insns[pc].line : 0, src, fn != x->kfn ? " in " : "",
                     fn != x->kfn ? fn->name : "");
    for (uint32_t i = 0; i < w->sp && k > 0 && (size_t)k < n; i++)
        k += snprintf(buf + k, n - (size_t)k, "%s{pc %u, rpc %d, mask 0x%08x}", i ? " " : "", w->stk[i].pc,
                      w->stk[i].rpc == UINT32_MAX ? -1 : (int)w->stk[i].rpc, w->stk[i].mask);
    if (k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, "]");
    return k;
}
