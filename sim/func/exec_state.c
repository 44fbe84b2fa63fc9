/* sim/func/exec_state.c: the functional executor's per-launch state, shared
 * by functional mode (exec_run.c) and timing mode (exec_sm.c): set-up from a
 * launch, per-instruction statistic classes, local-memory sizing over the
 * call graph (func_local_per_thread), allocation and release of CTA slots
 * and warps, the start of a CTA and its warps, and the fault report.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/func/exec_internal.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"

_Static_assert(offsetof(struct warp, fr) == 48, "NOTE(warp-layout): the hot fields and fr[0]'s first two share a line");

/* --------------------------------------------------------------- errors */
void exec_fault(struct exec *x, const struct warp *w, int lane, uint32_t pc, const char *fmt, ...)
{
    if (x->err)
        return;
    x->err = GS_ERR_EXEC;
    const struct func_launch *l = x->l;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!w) {
        snprintf(l->err, l->err_len, "kernel '%s': %s", x->kfn->name, msg);
        return;
    }
    const struct cta *c = w->cta;
    uint32_t lin = w->wid * FUNC_WARP + (uint32_t)(lane < 0 ? 0 : lane);
    uint32_t tx = lin % l->block[0], ty = lin / l->block[0] % l->block[1],
             tz = lin / (l->block[0] * l->block[1]);
    const struct ptx_func *fn = w->fr[w->depth].fn;
    uint32_t line = pc < fn->n_insns ? fn->insns[pc].line : 0;
    char fnpart[160] = "", srcpart[128] = "";
    if (fn != x->kfn)
        snprintf(fnpart, sizeof fnpart, " in .func '%s'", fn->name);
    if (pc < fn->n_insns && fn->insns[pc].src_file) /* CUDA position from .loc (nvcc -lineinfo) */
        snprintf(srcpart, sizeof srcpart, ", %s:%u", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                 fn->insns[pc].src_line);
    snprintf(l->err, l->err_len,
             "kernel '%s': CTA (%u,%u,%u) thread (%u,%u,%u) (warp %u lane %d) pc %u (line %u%s)%s: %s",
             x->kfn->name, c->id[0], c->id[1], c->id[2], tx, ty, tz, w->wid, lane, pc, line, srcpart,
             fnpart, msg);
}

/* ---------------------------------------------------------------- state */
static uint8_t classify(const struct ptx_insn *in)
{
    enum ptx_op op = (enum ptx_op)in->op;
    switch (ptx_op_unit(op)) {
    case PTX_UNIT_MEM: return C_MEM;
    case PTX_UNIT_CTRL:
    case PTX_UNIT_SYNC: return C_CTRL;
    case PTX_UNIT_SFU:
        if (!ptx_type_is_float((enum ptx_type)in->type))
            return C_INT;
        return C_SFU;
    default: break;
    }
    enum ptx_type t = (enum ptx_type)in->type;
    if (op == PTX_OP_CVT && ptx_type_is_float((enum ptx_type)in->type2) && !ptx_type_is_float(t))
        t = (enum ptx_type)in->type2;
    if (t == PTX_T_F64)
        return C_FP64;
    if (ptx_type_is_float(t))
        return C_FP32;
    return C_INT;
}

static void warp_start(struct exec *x, struct cta *c, struct warp *w, uint32_t wid)
{
    w->cta = c;
    w->wid = wid;
    uint32_t first = wid * FUNC_WARP;
    uint32_t n = x->n_threads - first < FUNC_WARP ? x->n_threads - first : FUNC_WARP;
    w->valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
    w->exited = 0;
    w->state = W_RUN;
    w->bar_dst = -1;
    w->carry = 0;
    w->n_insts = 0;
    w->depth = 0;
    w->sp = 0;
    w->arena_used = (size_t)x->kfn->n_slots * FUNC_WARP;
    w->bytes_used = (size_t)x->kfn->args_bytes * FUNC_WARP;
    if (!x->zero_regs)
        memset(w->arena, 0, w->arena_used * sizeof(uint64_t));
    else {
#ifdef GPUSIM_PARANOID
        memset(w->arena, 0xa5, w->arena_used * sizeof(uint64_t));
#endif
        for (uint32_t i = 0; i < x->n_zero_regs; i++)
            memset(w->arena + (size_t)x->zero_regs[i] * FUNC_WARP, 0, FUNC_WARP * sizeof(uint64_t));
    }
    memset(w->bytes, 0, w->bytes_used);
    struct frame *f = &w->fr[0];
    f->fn = x->kfn;
    f->reg_off = 0;
    f->param_off = 0;
    f->args_off = 0;
    f->local_base = u64_round_up(x->mod->local_module_bytes, 16);
    f->stack_base = 0;
    f->call_pc = 0;
    w->stk[w->sp++] = (struct simt_ent){0, UINT32_MAX, w->valid};
}

void exec_cta_start(struct exec *x, struct cta *c, uint64_t lin)
{
    const struct func_launch *l = x->l;
    c->live = true;
    c->id[0] = (uint32_t)(lin % l->grid[0]);
    c->id[1] = (uint32_t)(lin / l->grid[0] % l->grid[1]);
    c->id[2] = (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]));
    c->n_done = 0;
    for (int b = 0; b < FUNC_MAX_BARRIERS; b++) {
        c->bar_arrived[b] = c->bar_expect[b] = c->bar_popc[b] = c->bar_or[b] = 0;
        c->bar_and[b] = 1;
    }
    /* Shared memory starts zeroed (hardware leaves it undefined; zero keeps
     * runs deterministic). Module shared variables with initialisers are
     * not allowed by PTX. */
    memset(c->shared, 0, x->shared_bytes);
    memset(c->local, 0, (size_t)x->n_threads * x->local_per_thread);
    for (uint32_t i = 0; i < x->n_warps; i++)
        warp_start(x, c, &c->warps[i], i);
}

void exec_free(struct exec *x)
{
    free(x->zero_regs);
    x->zero_regs = NULL;
    if (x->ctas) {
        for (uint32_t s = 0; s < x->n_slots; s++) {
            struct cta *c = &x->ctas[s];
            if (c->warps)
                for (uint32_t i = 0; i < x->n_warps; i++) {
                    free(c->warps[i].stk);
                    free(c->warps[i].arena);
                    free(c->warps[i].bytes);
                }
            free(c->warps);
            free(c->shared);
            free(c->local);
        }
        free(x->ctas);
    }
    if (x->cls) {
        for (uint32_t i = 0; i < x->mod->n_funcs; i++)
            free(x->cls[i]);
        free(x->cls);
    }
}

/* Local bytes of the deepest chain of .func frames called from function
 * i (its own frame excluded), following the direct calls; -1 when a call
 * cycle (recursion) is reachable. state[]: 0 unvisited, 1 on the DFS path,
 * 2 done with need[] set. */
static int64_t call_local(const struct ptx_module *mod, uint32_t i, uint8_t *state, int64_t *need)
{
    if (state[i] == 2)
        return need[i];
    if (state[i] == 1)
        return -1;
    state[i] = 1;
    const struct ptx_func *fn = &mod->funcs[i];
    int64_t deepest = 0;
    for (uint32_t p = 0; p < fn->n_insns; p++) {
        const struct ptx_insn *in = &fn->insns[p];
        if (in->op != PTX_OP_CALL || in->target >= mod->n_funcs || !mod->funcs[in->target].has_body)
            continue; /* a call without a body faults when executed */
        int64_t sub = call_local(mod, in->target, state, need);
        if (sub < 0)
            return -1;
        deepest = MAX(deepest, (int64_t)u64_round_up(mod->funcs[in->target].local_bytes, 16) + sub);
    }
    state[i] = 2;
    need[i] = deepest;
    return deepest;
}

uint64_t func_local_per_thread(const struct ptx_module *mod, const struct ptx_func *kfn)
{
    uint64_t max_func_local = 0;
    for (uint32_t i = 0; i < mod->n_funcs; i++)
        if (!mod->funcs[i].is_entry)
            max_func_local = MAX(max_func_local, u64_round_up(mod->funcs[i].local_bytes, 16));
    /* Local frames of nested calls: the deepest call chain of the kernel
     * when the call graph is acyclic, else (recursion) the largest .func
     * frame times the call depth limit, so the depth limit is what stops a
     * recursion. */
    uint8_t *state = xcalloc(mod->n_funcs + 1, 1);
    int64_t *need = xcalloc(mod->n_funcs + 1, sizeof *need);
    int64_t calls = call_local(mod, (uint32_t)(kfn - mod->funcs), state, need);
    free(state);
    free(need);
    return u64_round_up(mod->local_module_bytes, 16) + u64_round_up(kfn->local_bytes, 16) +
           (calls >= 0 ? (uint64_t)calls : max_func_local * FUNC_MAX_CALL_DEPTH);
}

/* NOTE(zero-live-in): a warp's registers start at zero (PTX leaves them
 * undefined; zero keeps runs deterministic), but only the registers whose
 * value can be observed need it: those live at the kernel's entry
 * (liveness pass, sim/ptx/passes/liveness.c: read before an unguarded
 * write on some path, guarded writes kill nothing) and the sources of
 * shfl, which reads every lane's register, including lanes that exited or
 * never wrote it. Each lane follows a path of the CFG and registers are
 * per lane, so any other register is written by its lane before that lane
 * reads it: its stale contents (the previous CTA of the slot) are never
 * seen. nvcc's kernels have none or a few such registers, so a CTA start
 * no longer clears n_regs x 256 bytes per warp (bfs_expand: 116 registers,
 * 237 KB per CTA), which ran in the engine's serial step. Without
 * liveness information every register is zeroed. GPUSIM_PARANOID builds
 * fill the others with a poison pattern first, so that a register read
 * before written shows up as a wrong result in the sanitizer runs. The
 * registers live at entry and shfl's sources are zeroed in their storage
 * slots (NOTE(reg-slots) in sim/ptx/passes/slots.c: the first kind share
 * slots only among themselves, the second have slots of their own). Sets
 * x->zero_regs (slots; NULL: zero all); -1 when out of memory. */
static int zero_set(struct exec *x)
{
    const struct ptx_func *fn = x->kfn;
    const struct ptx_liveness *lv = &fn->live;
    x->zero_regs = NULL;
    x->n_zero_regs = 0;
    if (!lv->live_in || !fn->n_insns || lv->words < (fn->n_regs + 63) / 64)
        return 0;
    uint64_t *set = calloc(lv->words, sizeof *set);
    if (!set)
        return -1;
    memcpy(set, lv->live_in, lv->words * sizeof *set); /* live at instruction 0 */
    for (uint32_t p = 0; p < fn->n_insns; p++) {
        const struct ptx_insn *in = &fn->insns[p];
        if (in->op != PTX_OP_SHFL)
            continue;
        const struct ptx_operand *s = &in->opnd[in->n_dst];
        if (s->kind == PTX_OPND_REG && s->reg >= 0 && (uint32_t)s->reg < fn->n_regs)
            set[(uint32_t)s->reg / 64] |= 1ull << ((uint32_t)s->reg % 64);
    }
    x->zero_regs = malloc((fn->n_regs ? fn->n_regs : 1) * sizeof *x->zero_regs);
    uint8_t *seen = calloc(fn->n_slots + 1, 1);
    if (!x->zero_regs || !seen) {
        free(set);
        free(seen);
        return -1;
    }
    for (uint32_t v = 0; v < fn->n_regs; v++) {
        int32_t k = fn->regs[v].slot;
        if (((set[v / 64] >> (v % 64)) & 1) && k >= 0 && !seen[k]) {
            seen[k] = 1;
            x->zero_regs[x->n_zero_regs++] = (uint32_t)k;
        }
    }
    free(set);
    free(seen);
    return 0;
}

int exec_alloc(struct exec *x)
{
    const struct ptx_module *mod = x->mod;
    x->hw_fma = exec_host_fma();
    if (zero_set(x) != 0)
        return -1;
    /* NOTE(line-alloc) in sim/base/common.h: an SM's executor state is
     * allocated by the serial step, next to other SMs' */
    x->cls = line_calloc(mod->n_funcs, sizeof *x->cls);
    if (!x->cls)
        return -1;
    for (uint32_t i = 0; i < mod->n_funcs; i++) {
        const struct ptx_func *fn = &mod->funcs[i];
        x->cls[i] = line_alloc(fn->n_insns + 1);
        if (!x->cls[i])
            return -1;
        for (uint32_t p = 0; p < fn->n_insns; p++)
            x->cls[i][p] = classify(&fn->insns[p]);
    }
    x->local_per_thread = func_local_per_thread(mod, x->kfn);
    x->ctas = line_calloc(x->n_slots, sizeof *x->ctas);
    if (!x->ctas)
        return -1;
    for (uint32_t s = 0; s < x->n_slots; s++) {
        struct cta *c = &x->ctas[s];
        c->slot = s;
        c->shared = line_alloc(x->shared_bytes ? x->shared_bytes : 1);
        c->local = line_alloc(x->n_threads * x->local_per_thread + 1);
        /* 64-byte aligned (NOTE(warp-layout) in exec_internal.h) */
        c->warps = aligned_alloc(_Alignof(struct warp), x->n_warps * sizeof *c->warps);
        if (c->warps)
            memset(c->warps, 0, x->n_warps * sizeof *c->warps);
        if (!c->shared || !c->local || !c->warps)
            return -1;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            struct warp *w = &c->warps[i];
            w->stk_cap = 16;
            w->stk = line_alloc(w->stk_cap * sizeof *w->stk);
            w->arena_cap = (size_t)x->kfn->n_slots * FUNC_WARP + 1;
            w->arena = line_alloc(w->arena_cap * sizeof *w->arena);
            w->bytes_cap = (size_t)x->kfn->args_bytes * FUNC_WARP + 64;
            w->bytes = line_alloc(w->bytes_cap);
            if (!w->stk || !w->arena || !w->bytes)
                return -1;
        }
    }
    return 0;
}

/* The launch-derived fields of an executor (functional run or one SM). */
void exec_setup(struct exec *x, const struct func_launch *l)
{
    x->l = l;
    x->mod = l->mod;
    x->kfn = l->fn;
    x->st = l->st;
    x->gcache = -1;
    x->n_threads = l->block[0] * l->block[1] * l->block[2];
    x->n_warps = (x->n_threads + FUNC_WARP - 1) / FUNC_WARP;
    x->n_ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    x->shared_bytes = l->fn->dyn_shared_offset > l->fn->shared_static_bytes ? l->fn->dyn_shared_offset
                                                                             : l->fn->shared_static_bytes;
    x->shared_bytes += l->dyn_shared_bytes;
}
