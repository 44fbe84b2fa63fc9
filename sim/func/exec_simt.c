/* sim/func/exec_simt.c: the functional executor's SIMT stack and call
 * frames: popping empty entries and finishing frames and warps (settle),
 * lanes leaving by exit/ret, .func calls (frame, arena and argument set-up)
 * and returns (return values to the caller), and the timing-mode settling
 * of a warp's top entry to its next real instruction. Branch divergence
 * itself is in exec_warp_step (exec.c) with stk_push (exec_internal.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/func/exec_internal.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"

/* -------------------------------------------------------------- control */
/* Copy .func return values of lanes `mask` to the caller's call-site
 * params, then drop the frame. */
static void frame_return(struct warp *w, uint32_t mask)
{
    struct frame *f = &w->fr[w->depth], *cf = &w->fr[w->depth - 1];
    const struct ptx_func *fn = f->fn, *cfn = cf->fn;
    const struct ptx_insn *ci = &cfn->xinsns[f->call_pc];
    uint64_t *CR = w->arena + cf->reg_off;
    for (uint32_t j = 0; j < ci->call_n_ret && j < fn->n_rets; j++) {
        const struct ptx_param *pp = &fn->params[fn->n_params - fn->n_rets + j];
        const struct ptx_operand *o = &cfn->xcall_args[ci->call_first + j];
        for (uint32_t m = mask; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            const uint8_t *src = w->bytes + f->param_off + (size_t)lane * fn->param_bytes + pp->offset;
            if (o->kind == PTX_OPND_REG)
                CR[(size_t)o->reg * FUNC_WARP + (unsigned)lane] = load_bytes(src, MIN(pp->size, 8u));
            else if (cfn->args_bytes >= o->imm + pp->size)
                memcpy(w->bytes + cf->args_off + (size_t)lane * cfn->args_bytes + o->imm, src, pp->size);
        }
    }
    w->arena_used = f->reg_off;
    w->bytes_used = f->param_off;
    w->depth--;
}

/* Pop empty entries; finish frames and the warp when nothing is left. */
void exec_settle(struct exec *x, struct warp *w)
{
    for (;;) {
        struct frame *f = &w->fr[w->depth];
        while (w->sp > f->stack_base && w->stk[w->sp - 1].mask == 0)
            w->sp--;
        if (w->sp > f->stack_base)
            return;
        if (w->depth == 0) {
            w->state = W_DONE;
            w->cta->n_done++;
            note_ev(x, w);
            x->progress = true;
            x->change_mark = x->total_insts;
            exec_cta_barrier_check(x, w->cta);
            return;
        }
        uint32_t call_pc = f->call_pc;
        /* The caller's top entry holds the lanes that made the call. */
        uint32_t mask = w->sp > 0 ? w->stk[w->sp - 1].mask : 0;
        frame_return(w, mask);
        if (w->sp > 0)
            w->stk[w->sp - 1].pc = call_pc + 1;
    }
}

/* Lanes `lanes` leave the current frame (ret) or the kernel (exit). */
void exec_lanes_leave(struct exec *x, struct warp *w, uint32_t lanes, bool is_exit)
{
    uint32_t from = is_exit ? 0 : w->fr[w->depth].stack_base;
    for (uint32_t i = from; i < w->sp; i++)
        w->stk[i].mask &= ~lanes;
    if (is_exit)
        w->exited |= lanes;
    exec_settle(x, w);
}

void exec_do_call(struct exec *x, struct warp *w, const struct ptx_insn *in, uint32_t pc,
                    uint32_t mask)
{
    if (w->depth >= FUNC_MAX_CALL_DEPTH) {
        exec_fault(x, w, __builtin_ctz(mask), pc,
              "call depth exceeds %d frames (deep recursion is not supported)", FUNC_MAX_CALL_DEPTH);
        return;
    }
    const struct ptx_module *mod = x->mod;
    if (in->target >= mod->n_funcs || !mod->funcs[in->target].has_body) {
        exec_fault(x, w, __builtin_ctz(mask), pc, "call to a function without a body");
        return;
    }
    const struct ptx_func *fn = &mod->funcs[in->target];
    struct frame *cf = &w->fr[w->depth];
    const struct ptx_func *cfn = cf->fn;
    size_t nslots = (size_t)fn->n_slots * FUNC_WARP;
    size_t nbytes = ((size_t)fn->param_bytes + fn->args_bytes) * FUNC_WARP;
    if (w->arena_used + nslots > w->arena_cap) {
        size_t nc = (w->arena_used + nslots) * 2;
        uint64_t *na = line_grow(w->arena, w->arena_cap * sizeof *na, nc * sizeof *na); /* NOTE(line-alloc) */
        if (!na)
            goto oom;
        w->arena = na;
        w->arena_cap = nc;
    }
    if (w->bytes_used + nbytes > w->bytes_cap) {
        size_t nc = (w->bytes_used + nbytes) * 2 + 64;
        uint8_t *nb = line_grow(w->bytes, w->bytes_cap, nc);
        if (!nb)
            goto oom;
        w->bytes = nb;
        w->bytes_cap = nc;
    }
    uint64_t lb = cf->local_base + u64_round_up(cfn->local_bytes, 16);
    if (lb + fn->local_bytes > x->local_per_thread) {
        exec_fault(x, w, __builtin_ctz(mask), pc, "local memory of nested calls exceeds %" PRIu64 " bytes per thread",
              x->local_per_thread);
        return;
    }
    struct frame *f = &w->fr[w->depth + 1];
    f->fn = fn;
    f->reg_off = w->arena_used;
    f->param_off = w->bytes_used;
    f->args_off = w->bytes_used + (size_t)fn->param_bytes * FUNC_WARP;
    f->local_base = lb;
    f->call_pc = pc;
    memset(w->arena + f->reg_off, 0, nslots * sizeof(uint64_t));
    memset(w->bytes + f->param_off, 0, nbytes);
    w->arena_used += nslots;
    w->bytes_used += nbytes;
    /* Input arguments: call_args[call_first + n_ret + i] -> params[i]. */
    const uint64_t *CR = w->arena + cf->reg_off;
    uint32_t n_in = fn->n_params - fn->n_rets;
    for (uint32_t i = 0; i < in->call_n_arg && i < n_in; i++) {
        const struct ptx_param *pp = &fn->params[i];
        const struct ptx_operand *o = &cfn->xcall_args[in->call_first + in->call_n_ret + i];
        for (uint32_t m = mask; m; m &= m - 1) {
            int lane = __builtin_ctz(m);
            uint8_t *dst = w->bytes + f->param_off + (size_t)lane * fn->param_bytes + pp->offset;
            if (o->kind == PTX_OPND_REG || o->kind == PTX_OPND_IMM)
                store_bytes(dst, MIN(pp->size, 8u), o->kind == PTX_OPND_REG
                                                        ? CR[(size_t)o->reg * FUNC_WARP + (unsigned)lane]
                                                        : o->imm);
            else if (cfn->args_bytes >= o->imm + pp->size)
                memcpy(dst, w->bytes + cf->args_off + (size_t)lane * cfn->args_bytes + o->imm, pp->size);
        }
    }
    w->depth++;
    f->stack_base = w->sp;
    stk_push(x, w, 0, UINT32_MAX, mask);
    x->st->calls++;
    return;
oom:
    x->err = GS_ERR_OUT_OF_MEMORY;
    snprintf(x->l->err, x->l->err_len, "out of host memory for a call frame");
}

/* Timing mode: run the SIMT bookkeeping steps (reconvergence pops, the
 * implicit ret/exit at the end of a function) until the top of the stack
 * names a real instruction or the warp is no longer runnable. */
void exec_settle_top(struct exec *x, struct warp *w)
{
    while (!x->err && w->state == W_RUN) {
        const struct simt_ent *t = &w->stk[w->sp - 1];
        if (t->pc != t->rpc && t->pc < w->fr[w->depth].fn->n_insns)
            return;
        exec_warp_step(x, w);
    }
}
