/* sim/func/exec_run.c: functional mode (func_run): resident CTA slots run
 * round-robin, FUNC_SLICE warp instructions per warp turn; a finished CTA's
 * slot takes the next CTA in linear order; barrier deadlock detection and
 * the watchdog that stops a launch whose warps stopped changing anything,
 * and the stop flag polled once per round.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gpusim.h"
#include "sim/func/exec_internal.h"
#include "sim/func/func.h"
#include "sim/ptx/ir.h"

/* ------------------------------------------------------------ scheduling */
/* One warp's turn: up to `budget` steps, until it waits at a barrier,
 * finishes or faults. */
static void run_warp(struct exec *x, struct warp *w, int budget)
{
    while (budget-- > 0 && w->state == W_RUN && !x->err)
        if (exec_warp_step(x, w) == STEP_YIELD)
            return;
}

/* The functional watchdog fired: every resident warp has had its share of
 * x->watchdog_insts warp instructions and none changed memory, passed a
 * barrier or finished. Report the warps (CTA, warp, PC, line, state). */
static void watchdog_fire(struct exec *x)
{
    const struct func_launch *l = x->l;
    char *p = l->err, *end = l->err + l->err_len;
    p += snprintf(p, (size_t)(end - p),
                  "kernel '%s': watchdog: %" PRIu64 " warp instructions without any warp changing memory, "
                  "passing a barrier or finishing (a spin-wait that never ends? raise sim.func_watchdog if "
                  "the kernel legitimately computes this long in registers). Resident warps:",
                  x->kfn->name, x->total_insts - x->change_mark);
    unsigned shown = 0, total = 0;
    for (uint32_t s = 0; s < x->n_slots; s++) {
        const struct cta *c = &x->ctas[s];
        if (!c->live)
            continue;
        for (uint32_t i = 0; i < x->n_warps; i++) {
            const struct warp *w = &c->warps[i];
            if (w->state == W_DONE)
                continue;
            total++;
            if (shown == 8 || p >= end - 1)
                continue;
            shown++;
            const struct ptx_func *fn = w->fr[w->depth].fn;
            uint32_t pc = w->sp ? w->stk[w->sp - 1].pc : 0;
            char src[128] = "";
            if (pc < fn->n_insns && fn->insns[pc].src_file)
                snprintf(src, sizeof src, " (%s:%u)", x->mod->src_files[fn->insns[pc].src_file - 1].base,
                         fn->insns[pc].src_line);
            p += snprintf(p, (size_t)(end - p), " [CTA (%u,%u,%u) warp %u: pc %u line %u%s%s%s, mask 0x%08x, stack %u]",
                          c->id[0], c->id[1], c->id[2], w->wid, pc, pc < fn->n_insns ? fn->insns[pc].line : 0, src,
                          fn != x->kfn ? " in " : "", fn != x->kfn ? fn->name : "",
                          w->sp ? w->stk[w->sp - 1].mask : 0, w->sp);
            if (p > end)
                p = end;
        }
    }
    if (total > shown && p < end - 1)
        snprintf(p, (size_t)(end - p), " ... %u warps in all", total);
    x->err = GS_ERR_WATCHDOG;
}

int func_run(const struct func_launch *l)
{
    struct exec xs;
    struct exec *x = &xs;
    memset(x, 0, sizeof *x);
    exec_setup(x, l);
    x->obs = l->observer && l->observer->on_access ? l->observer : NULL;
    uint64_t slots = l->max_resident_ctas ? l->max_resident_ctas : 1;
    x->n_slots = (uint32_t)MIN(slots, x->n_ctas);
    if (exec_alloc(x) != 0) {
        exec_free(x);
        snprintf(l->err, l->err_len, "kernel '%s': out of host memory for %u resident CTAs",
                 l->fn->name, x->n_slots);
        return GS_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t s = 0; s < x->n_slots; s++)
        exec_cta_start(x, &x->ctas[s], x->next_cta++);
    uint32_t live = x->n_slots;
    x->watchdog_insts = l->watchdog_per_warp * (uint64_t)x->n_slots * x->n_warps;
    while (live > 0 && !x->err) {
        x->progress = false;
        uint64_t before = x->total_insts;
        for (uint32_t s = 0; s < x->n_slots && !x->err; s++) {
            struct cta *c = &x->ctas[s];
            if (!c->live)
                continue;
            for (uint32_t i = 0; i < x->n_warps && !x->err; i++)
                if (c->warps[i].state == W_RUN)
                    run_warp(x, &c->warps[i], FUNC_SLICE);
            if (c->n_done == x->n_warps) {
                l->st->ctas++;
                x->progress = true;
                x->change_mark = x->total_insts;
                if (x->next_cta < x->n_ctas)
                    exec_cta_start(x, c, x->next_cta++);
                else {
                    c->live = false;
                    live--;
                }
            }
        }
        if (!x->err && x->watchdog_insts && x->total_insts - x->change_mark > x->watchdog_insts)
            watchdog_fire(x);
        /* One acquire load per round (pairs with the CLI's signal watcher). */
        if (!x->err && l->stop_flag && at_load_acq_u32(l->stop_flag)) {
            snprintf(l->err, l->err_len, "kernel '%s': interrupted after %" PRIu64 " warp instructions",
                     x->kfn->name, x->total_insts);
            x->err = GS_ERR_INTERRUPTED;
        }
        if (!x->err && !x->progress && x->total_insts == before) {
            /* Every live warp waits at a barrier that can never complete. */
            for (uint32_t s = 0; s < x->n_slots; s++) {
                struct cta *c = &x->ctas[s];
                if (!c->live)
                    continue;
                for (uint32_t i = 0; i < x->n_warps; i++)
                    if (c->warps[i].state == W_BAR) {
                        struct warp *w = &c->warps[i];
                        exec_fault(x, w, __builtin_ctz(w->stk[w->sp - 1].mask | 1u),
                              w->stk[w->sp - 1].pc - 1,
                              "deadlock: warp waits at barrier %u that the other warps of its CTA never reach",
                              w->bar_id);
                        break;
                    }
                if (x->err)
                    break;
            }
            if (!x->err)
                exec_fault(x, NULL, 0, 0, "deadlock: no warp can make progress");
        }
    }
    if (!x->err)
        l->st->kernels++;
    int err = x->err;
    exec_free(x);
    return err;
}
