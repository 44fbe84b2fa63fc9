/* sim/sm/sm.c: the SM engine unit (model description in sm.h). */
#include "sim/sm/sm.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/icnt/icnt_msg.h"
#include "sim/mem/ring.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/passes/kpass.h"
#include "sim/ptx/memorder.h"
#include "sim/cfg/sim_cfg.h"

/* Reply routing reads these request-id bits; they must stay distinct. */
_Static_assert((SM_ID_INST & (L1D_ID_FILL | LDST_ID_CONST)) == 0 && (LDST_ID_CONST & L1D_ID_FILL) == 0,
               "request-id bits overlap");

/* pipe_op.tag: bit 63 = the instruction owns memop pool entry (bits 48-55);
 * bits 32-47 function, bits 0-31 instruction index. */
#define TAG_POOL (1ull << 63)
static inline uint64_t tag_make(uint32_t func, uint32_t pc) { return (uint64_t)func << 32 | pc; }
static inline uint32_t tag_func(uint64_t t) { return (uint32_t)(t >> 32) & 0xFFFFu; }
static inline uint32_t tag_pc(uint64_t t) { return (uint32_t)t; }
static inline uint32_t tag_pool(uint64_t t) { return (uint32_t)(t >> 48) & 0xFFu; }

static inline uint32_t wpc(const struct sm *s) { return s->k->warps_per_cta; }

/* ---------------------------------------------------------- kernel tables */

/* Kernel-time passes (ptx.passes, docs/passes.md) may renumber physical
 * registers: the collectors' bank choice and the scoreboard then use the
 * new numbers. The renumbering is a permutation, so dependencies and
 * register counts do not change. */
static void apply_regmap(struct sm_kernel *k, const struct kpass_regmap *rm, uint32_t f, uint32_t pc)
{
    if (!rm || f >= rm->n_funcs || !rm->fn[f].ops || pc >= rm->fn[f].n_insns)
        return;
    const struct kpass_fn_map *fm = &rm->fn[f];
    struct pipe_op *po = &k->pop[f][pc];
    const uint16_t *o = fm->ops + fm->first[pc];
    SIM_ASSERT(fm->n_src[pc] == po->n_src && fm->n_dst[pc] == po->n_dst, "sm: regmap/pipe_op mismatch at %u:%u", f,
               pc);
    for (uint32_t i = 0; i < po->n_src; i++)
        po->src[i] = o[i];
    for (uint32_t j = 0; j < po->n_dst; j++)
        po->dst[j] = o[po->n_src + j];
    struct sb_regs *sr = &k->sbr[f][pc];
    for (uint32_t i = 0; i < (uint32_t)sr->n_src + sr->n_dst; i++)
        if (sr->reg[i] < SB_MAX_GPR)
            sr->reg[i] = kpass_regmap_phys(rm, f, sr->reg[i]);
}

bool sm_kernel_build(struct sm_kernel *k, const struct func_launch *fl, char *err, size_t err_len)
{
    const struct ptx_module *m = fl->mod;
    k->fl = fl;
    k->n_funcs = m->n_funcs;
    k->entry = fl->fn->index;
    k->sbr = xcalloc(m->n_funcs, sizeof *k->sbr);
    k->pop = xcalloc(m->n_funcs, sizeof *k->pop);
    k->flags = xcalloc(m->n_funcs, sizeof *k->flags);
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        const struct ptx_func *fn = &m->funcs[f];
        uint32_t n = fn->has_body ? fn->n_insns : 0;
        k->sbr[f] = xcalloc(n + 1, sizeof **k->sbr);
        k->pop[f] = xcalloc(n + 1, sizeof **k->pop);
        k->flags[f] = xcalloc(n + 1, 1);
        for (uint32_t pc = 0; pc < n; pc++) {
            const struct ptx_insn *in = &fn->insns[pc];
            if (!scoreboard_regs_from_insn(fn, in, &k->sbr[f][pc]) ||
                !pipes_op_from_insn(fn, in, 0, 0, &k->pop[f][pc])) {
                snprintf(err, err_len,
                         "%s: instruction %u (line %u) of '%s' uses more registers than the timing model's "
                         "scoreboard (%d) or operand collector (%d sources, %d destinations) holds",
                         m->filename ? m->filename : "module", pc, in->line, fn->name, SB_MAX_REGS, PIPE_MAX_SRC,
                         PIPE_MAX_DST);
                return false;
            }
            apply_regmap(k, fl->regmap, f, pc);
            enum ptx_op op = (enum ptx_op)in->op;
            uint8_t fl8 = 0;
            if (k->pop[f][pc].cls == PIPE_C_MEM)
                fl8 |= SMI_MEM;
            if (op == PTX_OP_CALL || op == PTX_OP_RET)
                fl8 |= SMI_DRAIN;
            if (op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ATOM)
                fl8 |= SMI_LOAD;
            uint32_t mo = ptx_insn_mem_order(in);
            bool acc = op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM || op == PTX_OP_RED;
            bool glob = acc && (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC);
            if (mo & (MO_ORD_CTA | MO_ORD_FENCE) || (glob && (mo & MO_ORD_REL_GPU)))
                fl8 |= SMI_ORD;
            if (glob && (mo & MO_ORD_ACQ_GPU))
                fl8 |= SMI_ACQ;
            if (glob)
                fl8 |= SMI_GMEM;
            if ((op == PTX_OP_LD || op == PTX_OP_LDU) &&
                (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_GENERIC || in->space == PTX_SPACE_LOCAL))
                fl8 |= SMI_L1LD;
            k->flags[f][pc] = fl8;
        }
    }
    return true;
}

void sm_kernel_free(struct sm_kernel *k)
{
    for (uint32_t f = 0; f < k->n_funcs; f++) {
        if (k->sbr)
            free(k->sbr[f]);
        if (k->pop)
            free(k->pop[f]);
        if (k->flags)
            free(k->flags[f]);
    }
    free(k->sbr);
    free(k->pop);
    free(k->flags);
    free((void *)k->code.base);
    free((void *)k->code.n_insns);
    memset(k, 0, sizeof *k);
}

/* ----------------------------------------------------------- interconnect */

static void send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct sm *s = ctx;
    icnt_msg_send_flit(s->ctx, s->unit, s->sh->ep_unit[f->hop], s->now, arrive * s->sh->core_ps - s->now, f,
                       payload, sizeof(struct mem_req));
}

static bool rx_can_accept(void *ctx, uint32_t src, uint32_t n, uint64_t c)
{
    const struct sm *s = ctx;
    (void)src, (void)n, (void)c;
    return s->ej_n < s->n_eject;
}

static bool rx_deliver(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, uint64_t c)
{
    struct sm *s = ctx;
    (void)src, (void)tail, (void)c;
    if (s->ej_n == s->n_eject)
        return false;
    memcpy(&s->eject[ring_wrap(s->ej_head + s->ej_n, s->n_eject)], payload, sizeof(struct mem_reply));
    s->ej_n++;
    return true;
}

/* n credits, one arriving at each cycle from `arrive` (NOTE(credit-run)). */
static void rx_send_credits(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive, uint32_t n)
{
    struct sm *s = ctx;
    struct icnt_msg_credit cr = {to_src, from_dst, n};
    eng_send(s->ctx, s->unit, s->sh->ep_unit[to_src], s->now, arrive * s->sh->core_ps - s->now, ICNT_MSG_CREDIT,
             &cr, sizeof cr);
}

static void rx_send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    rx_send_credits(ctx, to_src, from_dst, arrive, 1);
}

static uint32_t dst_ep(const struct sm *s, uint64_t addr)
{
    uint32_t ep = s->sh->route.ep_of(s->sh->route.ctx, addr);
    SIM_ASSERT(ep != MEM_ROUTE_NONE, "sm[%u]: request to unmapped device address 0x%" PRIx64, s->id, addr);
    return ep;
}

/* NOTE(pw-memo): the issue check has a per-warp part (barrier, exit,
 * fence, I-buffer head, call drain, memory order, SC limit, scoreboard) and
 * an SM part (register-file gate, memop pool, collector units), which
 * changes almost every cycle. The per-warp part reads only state that
 * changes at this warp's issue, launch or exit, or at an event the SM
 * reports through warp_touch (writeback, I-buffer fill, memory completion,
 * LD/ST latch entry, barrier release). It is memoised in w_pw until then:
 * PW_BLOCK | reason, or PW_PASS | PW_MEM? | pipe class. GPUSIM_PARANOID
 * builds recompute it on every probe and panic on a mismatch. */
enum { PW_BLOCK = 0x80, PW_PASS = 0x40, PW_MEM = 0x20, PW_CLS = 0x1f };
_Static_assert(PW_BLOCK == WSCHED_PW_BLOCK && (int)WSCHED_READY < (int)PW_PASS,
               "the pw memo is the scheduler's blocked memo (NOTE(blocked-memo) in sched.c)");
_Static_assert(PIPE_C_COUNT <= PW_CLS + 1, "pipe class does not fit the pw memo");
_Static_assert(PW_PASS == 0x40 && PW_MEM < PW_PASS && PW_CLS < PW_MEM,
               "an unblocked memo byte is keyed by its low 6 bits (NOTE(pass-key) in sched.c)");
_Static_assert(WSCHED_SCOREBOARD < 8 && WSCHED_N_WHY >= 8, "a blocked reason indexes pw_blk by its low 3 bits");

/* The blocked masks the scheduler reads (port.pw_blk, NOTE(blocked-masks)
 * in sched.c) follow every write of a memo byte. Branch-free: a byte that
 * is not blocked indexes pw_blk[0], a word nobody reads (0 is no blocked
 * reason). With more than 64 warp slots the port has no masks, and the
 * words (bit w mod 64) are kept but meaningless. */
static inline unsigned pw_blk_index(uint8_t v) { return (v & PW_BLOCK) ? v & 7u : 0u; }

static inline void pw_set(struct sm *s, uint32_t w, uint8_t v)
{
    uint64_t bit = 1ull << (w & 63);
    s->pw_blk[pw_blk_index(s->w_pw[w])] &= ~bit;
    s->pw_blk[pw_blk_index(v)] |= bit;
    s->w_pw[w] = v;
}

static inline void warp_touch(struct sm *s, uint32_t w)
{
    pw_set(s, w, 0);
    wsched_touch(&s->sched, w);
}

/* ------------------------------------------------------------ LD/ST hooks */

/* Shared, param: the executor performed the access at issue (sm.h); the
 * LD/ST unit only times it, so the data hooks are NULL
 * (NOTE(hooks-at-issue) in ldst.c): no call per lane. */

/* NOTE(local-layout): each SM has a local-memory region near the top of
 * device memory (below the code segment). Thread slots of the SM are
 * interleaved in 16-byte chunks: byte `off` of thread slot t (warp slot x 32
 * + lane) is at region + (off / 16) x (max threads x 16) + t x 16 + off % 16,
 * so the same word of the 32 lanes of a warp spans 4 lines, and a lane's
 * access of up to 16 bytes stays contiguous. The values of local memory are
 * the executor's (performed at issue, private per thread); the caches carry
 * its timing. */
static uint64_t local_addr(void *ctx, uint32_t warp, uint32_t lane, uint64_t off)
{
    const struct sm *s = ctx;
    const struct sm_kernel *k = s->k;
    uint64_t threads = (uint64_t)s->sh->max_warps * MEMOP_LANES;
    uint64_t t = (uint64_t)warp * MEMOP_LANES + lane;
    return k->local_base + (uint64_t)s->id * k->local_region + (off / 16) * threads * 16 + t * 16 + off % 16;
}

/* A completed LD/ST op (op with its warp and tag replaced: the SM passes
 * the kernel's template, NOTE(issue-as) in opcoll.c) to the writeback. */
static void wb_push_as(struct sm *s, const struct pipe_op *op, uint32_t warp, uint64_t tag)
{
    if (s->wbq_n == 0 && pipes_ldst_wb_push_as(&s->pipes, op, warp, tag))
        return;
    /* NOTE(wbq-grow): completions are not back-pressured by the writeback
     * stage; a register-file policy that refuses writebacks for a while (a
     * full racetrack write buffer) can leave more than SM_WB_OVF of them
     * waiting. The ring then doubles (rare; the contents keep their order). */
    if (s->wbq_n == s->wbq_cap) {
        struct pipe_op *q = xcalloc((size_t)s->wbq_cap * 2, sizeof *q);
        for (uint32_t i = 0; i < s->wbq_n; i++)
            q[i] = s->wbq[(s->wbq_head + i) & (s->wbq_cap - 1)];
        free(s->wbq);
        s->wbq = q;
        s->wbq_head = 0;
        s->wbq_cap *= 2;
    }
    pipe_op_as(&s->wbq[(s->wbq_head + s->wbq_n) & (s->wbq_cap - 1)], op, warp, tag); /* capacity: a power of two */
    s->wbq_n++;
}

/* NOTE(memop-ref): a memory instruction is written once, at issue, into an
 * entry of s->mo and stays there until the LD/ST unit's done callback for
 * it has returned: the unit reads it in place (ldst.h). The modelled pool
 * (sm.memop_pool entries between issue and the LD/ST latch) is only the
 * count n_mo_free, given back when the instruction enters the latch, as
 * when the pool held the instruction and the latch and the slot held
 * copies of it: two copies of 300-830 bytes per memory instruction into
 * lines not touched for hundreds of cycles (11 % of bfs's write misses in
 * a 2 MB cache, cachegrind, session 37). mo has an entry for everything
 * that can be alive at once (the pool's, the latch's, one per LD/ST slot)
 * and hands out the last freed first, whose lines are likely cached. No
 * statistic depends on which entry an instruction gets. */
static inline void mo_release(struct sm *s, uint32_t i, bool pool)
{
    SIM_DEBUG_ASSERT(i < s->n_store && s->n_store_free < s->n_store, "sm[%u]: memop entry %u released twice",
                     s->id, i);
    if (pool)
        s->n_mo_free++;
    s->mo_free[s->n_store_free++] = i;
}

/* A memory instruction completed in the LD/ST unit at `cycle`. */
static void ldst_done(void *ctx, const struct memop *op, const struct memop_result *res, cycle_t cycle)
{
    struct sm *s = ctx;
    (void)cycle;
    uint32_t w = op->warp;
    SIM_ASSERT(s->w_mem[w] > 0, "sm[%u]: completion for warp %u with nothing in flight", s->id, w);
    s->w_mem[w]--;
    warp_touch(s, w); /* memory-ordering counters (NOTE(pw-memo)) */
    if (op->kind == MEMOP_FENCE) {
        s->w_fence[w] = 0;
        mo_release(s, (uint32_t)(op - s->mo), false);
        return;
    }
    if (op->space == MEMOP_GLOBAL) {
        SIM_ASSERT(s->w_gmem[w] > 0, "sm[%u]: global completion for warp %u with none in flight", s->id, w);
        s->w_gmem[w]--;
        if (op->order & MO_ORD_ACQ_GPU)
            s->w_fence[w] = 0;
    }
    uint32_t func, pc;
    func_sm_warp_pc(s->fx, w / wpc(s), w % wpc(s), &func, &pc);
    if (op->space == MEMOP_GLOBAL && (op->kind == MEMOP_LOAD || op->kind == MEMOP_ATOMIC))
        func_sm_mem_complete(s->fx, func, op, res);
    if (s->k->sbr[func][op->pc].n_dst) {
        wb_push_as(s, &s->k->pop[func][op->pc], w, tag_make(func, op->pc));
    }
    mo_release(s, (uint32_t)(op - s->mo), false);
}

/* The L1D's per-warp events go to the warp scheduler (installed only when
 * the policy has an on_l1 entry: sched.h, docs/sched.md). */
static void sm_on_l1(void *ctx, uint32_t warp, enum l1d_event ev, uint64_t line_addr)
{
    struct sm *s = ctx;
    wsched_set_now(&s->sched, s->cycle);
    wsched_on_l1(&s->sched, warp, (uint32_t)ev, line_addr);
}

/* Pipes writeback: release the instruction's scoreboard entries. */
static void pipes_wb(void *ctx, const struct pipe_op *op, cycle_t now)
{
    struct sm *s = ctx;
    (void)now;
    const struct sb_regs *r = &s->k->sbr[tag_func(op->tag)][tag_pc(op->tag)];
    for (uint32_t i = r->n_src; i < (uint32_t)r->n_src + r->n_dst; i++)
        if (scoreboard_release(&s->sb, op->warp, r->reg[i]))
            wsched_notify(&s->sched, op->warp, WSCHED_EV_LONG_DONE);
    warp_touch(s, op->warp);
}

/* ------------------------------------------------------------- scheduling */

static uint8_t pw_compute(const struct sm *s, uint32_t w)
{
    int st = s->w_st[w];
    if (st == FUNC_W_BAR)
        return PW_BLOCK | WSCHED_BARRIER;
    if (st == FUNC_W_DONE)
        return PW_BLOCK | WSCHED_IBUF_EMPTY; /* exited in this cycle; leaves the scheduler after it */
    if (s->w_fence[w])
        return PW_BLOCK | WSCHED_MEM_ORDER;
    uint32_t pc = fetch_ibuf_head(&s->fetch, w);
    if (pc == FETCH_PC_NONE)
        return PW_BLOCK | WSCHED_IBUF_EMPTY;
    uint32_t func = fetch_warp_func(&s->fetch, w);
    const struct sm_kernel *k = s->k;
    uint8_t fl = k->flags[func][pc];
    /* NOTE(call-drain): a call or ret changes the register frame the
     * executor writes loaded values into; it waits until the warp's memory
     * instructions and register writes are done. */
    if (fl & (SMI_DRAIN | SMI_ORD | SMI_GMEM)) { /* one test on the common path */
        if ((fl & SMI_DRAIN) && (s->w_mem[w] || scoreboard_n_pending(&s->sb, w)))
            return PW_BLOCK | WSCHED_MEM_ORDER;
        /* NOTE(mem-order): a barrier, a fence or a release waits until the
         * warp's earlier global accesses have left the operand collectors for
         * the LD/ST latch: from there on they reach the L1 in order, ahead of
         * anything another warp of the CTA issues after the barrier. */
        if ((fl & SMI_ORD) && s->w_unord[w])
            return PW_BLOCK | WSCHED_MEM_ORDER;
        if ((fl & SMI_GMEM) && s->sc_limit && s->w_gmem[w] >= s->sc_limit) /* SC (001): global accesses only */
            return PW_BLOCK | WSCHED_MEM_ORDER;
    }
    if (scoreboard_check(&s->sb, w, &k->sbr[func][pc], NULL) != SB_CLEAR)
        return PW_BLOCK | WSCHED_SCOREBOARD;
    return (uint8_t)(PW_PASS | ((fl & SMI_MEM) ? PW_MEM : 0) | k->pop[func][pc].cls);
}

/* NOTE(check-fast): port_check runs for every candidate warp of every
 * scheduler evaluation; its common path (memo hit, then the pool and the
 * collector-open test) stays free of calls, and the memo fill and the
 * register-file gate are out of line, so that the common path needs no
 * saved registers. */
static __attribute__((noinline)) uint8_t pw_fill(struct sm *s, uint32_t w)
{
    /* only for an unfilled byte (port_check): no mask holds w */
    SIM_DEBUG_ASSERT(s->w_pw[w] == 0, "sm[%u]: memo fill over 0x%x", s->id, s->w_pw[w]);
    uint8_t v = pw_compute(s, w);
    s->pw_blk[pw_blk_index(v)] |= 1ull << (w & 63);
    return s->w_pw[w] = v;
}

static __attribute__((noinline)) enum wsched_why port_check_gated(struct sm *s, uint32_t w, uint8_t pw)
{
    /* The register-file policy may hold the warp back (LTRF interval
     * prefetch, racetrack write buffer full); SRAM never does (docs/rf.md). */
    uint32_t func = fetch_warp_func(&s->fetch, w), pc = fetch_ibuf_head(&s->fetch, w);
    if (!rf_can_issue(&s->oc.rf, w, func, pc, &s->k->pop[func][pc], s->cycle))
        return WSCHED_PIPE_BUSY;
    if ((pw & PW_MEM) && s->n_mo_free == 0)
        return WSCHED_PIPE_BUSY;
    if (!opcoll_can_accept(&s->oc, (enum pipe_class)(pw & PW_CLS), s->cycle))
        return WSCHED_PIPE_BUSY;
    return WSCHED_READY;
}

static enum wsched_why port_check(void *ctx, uint32_t w)
{
    struct sm *s = ctx;
    uint8_t pw = s->w_pw[w];
    if (UNLIKELY(!pw))
        pw = pw_fill(s, w);
#ifdef GPUSIM_PARANOID
    else if (pw != pw_compute(s, w))
        sim_panic("sm[%u]: warp %u issue-check memo 0x%x, recomputed 0x%x (a missing warp_touch)", s->id, w, pw,
                  pw_compute(s, w));
#endif
    if (pw & PW_BLOCK)
        return (enum wsched_why)(pw & ~PW_BLOCK);
    if (UNLIKELY(s->rf_gate))
        return port_check_gated(s, w, pw);
    if ((pw & PW_MEM) && s->n_mo_free == 0)
        return WSCHED_PIPE_BUSY;
    if (!opcoll_can_accept(&s->oc, (enum pipe_class)(pw & PW_CLS), s->cycle))
        return WSCHED_PIPE_BUSY;
    return WSCHED_READY;
}

/* The scheduler's load gate (wsched.no_load) asks whether warp w's next
 * instruction is a load through the L1D; only asked for READY warps. */
static bool port_is_l1_load(void *ctx, uint32_t w)
{
    const struct sm *s = ctx;
    uint32_t pc = fetch_ibuf_head(&s->fetch, w);
    if (pc == FETCH_PC_NONE)
        return false;
    return (s->k->flags[fetch_warp_func(&s->fetch, w)][pc] & SMI_L1LD) != 0;
}

/* NOTE(sched-skip): the SM part of port_check as one value; UINT64_MAX
 * when a register-file gate makes it cycle-dependent. */
/* The register file's scheduling score of warp w's next instruction
 * (racetrack RMWS; 0 for SRAM). */
static uint32_t port_score(void *ctx, uint32_t w)
{
    const struct sm *s = ctx;
    uint32_t pc = fetch_ibuf_head(&s->fetch, w);
    if (pc == FETCH_PC_NONE)
        return 0;
    return rf_score(&s->oc.rf, w, &s->k->pop[fetch_warp_func(&s->fetch, w)][pc]);
}

static uint64_t port_res_sig(void *ctx)
{
    const struct sm *s = ctx;
    if (s->rf_gate)
        return UINT64_MAX;
    return (uint64_t)s->n_mo_free << 42 | opcoll_res_sig(&s->oc, s->cycle);
}

/* The warp's front end follows its SIMT stack after an issue or an event. */
static void follow_pc(struct sm *s, uint32_t w)
{
    uint32_t func, pc;
    func_sm_warp_pc(s->fx, w / wpc(s), w % wpc(s), &func, &pc);
    if (func != fetch_warp_func(&s->fetch, w))
        fetch_redirect_func(&s->fetch, w, func, pc, s->cycle);
    else
        fetch_redirect(&s->fetch, w, pc, s->cycle);
}

/* Mirror the executor's warp states of CTA slot `slot` (port_check reads
 * the mirror: it runs for every warp every cycle). */
static void refresh_cta(struct sm *s, uint32_t slot)
{
    bool released = false;
    for (uint32_t i = 0; i < wpc(s); i++) {
        uint8_t st = (uint8_t)func_sm_warp_state(s->fx, slot, i);
        released |= s->w_st[slot * wpc(s) + i] == FUNC_W_BAR && st != FUNC_W_BAR;
        s->w_st[slot * wpc(s) + i] = st;
        warp_touch(s, slot * wpc(s) + i);
    }
    if (released && l1d_coherent(&s->ldst.l1d)) /* G-TSC: NOTE(gtsc-sync) in l1d_gtsc.c */
        l1d_gtsc_barrier(&s->ldst.l1d, slot * wpc(s), wpc(s));
}

static uint32_t port_issue(void *ctx, uint32_t w)
{
    struct sm *s = ctx;
    const struct sm_kernel *k = s->k;
    uint32_t slot = w / wpc(s), wid = w % wpc(s);
    uint32_t func = fetch_warp_func(&s->fetch, w);
    uint32_t pc = fetch_consume(&s->fetch, w, s->cycle);
    uint8_t fl = k->flags[func][pc];
    /* NOTE(pw-memo): its own issue changes everything. Only a READY warp
     * issues, so its byte is a pass byte and no blocked mask holds it. */
    SIM_DEBUG_ASSERT(!(s->w_pw[w] & PW_BLOCK), "sm[%u]: issue of blocked warp %u", s->id, w);
    s->w_pw[w] = 0;
    uint32_t pool = UINT32_MAX;
    struct memop *mo = &s->scratch;
    if (fl & SMI_MEM) {
        SIM_ASSERT(s->n_store_free > 0, "sm[%u]: memop storage exhausted", s->id);
        pool = s->mo_free[--s->n_store_free];
        s->n_mo_free--;
        mo = &s->mo[pool];
    }
    struct func_issue fi;
    int rc = func_sm_issue(s->fx, slot, wid, mo, &fi);
    SIM_ASSERT(rc || (fi.func == func && fi.pc == pc), "sm[%u]: warp %u issued %u:%u but its pc was %u:%u", s->id,
               w, func, pc, fi.func, fi.pc);
    if (rc) {
        s->err = rc;
        if (pool != UINT32_MAX)
            mo_release(s, pool, true);
        return 0;
    }
    s->st.insts++;
    s->last_issue = s->cycle;
    const struct sb_regs *r = &k->sbr[func][pc];
    const uint8_t ifl = fi.fl;
    bool lng = (ifl & FUNC_I_DEFERRED) && (fl & SMI_LOAD);
    if ((ifl & (FUNC_I_MEM | FUNC_I_DEFERRED)) == FUNC_I_MEM && (fl & SMI_LOAD) && mo->space == MEMOP_LOCAL)
        lng = true;
    scoreboard_reserve(&s->sb, w, r, lng);
    uint64_t tag = tag_make(func, pc); /* the op itself is k->pop[func][pc] (NOTE(issue-as) in opcoll.c) */
    if (pool != UINT32_MAX) {
        if (ifl & (FUNC_I_MEM | FUNC_I_FENCE)) {
            if (ifl & FUNC_I_FENCE) {
                memset(mo, 0, offsetof(struct memop, addr));
                mo->warp = w;
                mo->pc = pc;
                mo->kind = MEMOP_FENCE;
                s->w_fence[w] = 1;
            }
            mo->seq = s->st.insts;
            mo->cta = s->cta_lin[slot]; /* requester identity (docs/messages.md) */
            tag |= TAG_POOL | (uint64_t)pool << 48;
            s->w_mem[w]++;
            if (ifl & FUNC_I_FENCE)
                mo->order = (uint8_t)ptx_insn_mem_order(&s->k->fl->mod->funcs[func].insns[pc]);
            if (ifl & FUNC_I_DEFERRED) {
                s->w_gmem[w]++;
                s->w_unord[w]++;
                if (fl & SMI_ACQ)
                    s->w_fence[w] = 1; /* later instructions wait for the acquire (NOTE(acquire)) */
            }
        } else { /* guard false on every lane: nothing to access */
            mo_release(s, pool, true);
        }
    }
    opcoll_issue_as(&s->oc, &k->pop[func][pc], w, tag, s->cycle);
    int st = func_sm_warp_state(s->fx, slot, wid);
    if (st != FUNC_W_RUN || s->w_st[w] != FUNC_W_RUN) /* a barrier or an exit may release the CTA's others */
        refresh_cta(s, slot);
    if (st != FUNC_W_DONE)
        follow_pc(s, w);
    return lng ? WSCHED_ISSUE_LONG : 0;
}

/* ------------------------------------------------------------ warp events */

static void warp_gone(struct sm *s, uint32_t w)
{
    if (!s->w_live[w])
        return;
    s->w_live[w] = 0;
    if (++s->cta_gone[w / wpc(s)] == wpc(s))
        s->cta_gone_mask |= 1u << (w / wpc(s));
    fetch_warp_exit(&s->fetch, w, s->cycle);
    wsched_set_now(&s->sched, s->cycle);
    wsched_warp_exit(&s->sched, w);
    rf_warp_exit(&s->oc.rf, w, s->cycle);
}

/* NOTE(ev-poll): asked twice per pipeline step and almost always empty;
 * the executor's count is read in place, without the two calls. */
static void take_events_work(struct sm *s);
static inline void take_events(struct sm *s)
{
    if (*s->fx_ev_n)
        take_events_work(s);
}

static void take_events_work(struct sm *s)
{
    uint32_t n;
    while ((n = func_sm_take_events(s->fx, s->ev, s->sh->max_warps)) > 0)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t w = s->ev[i];
            uint8_t old = s->w_st[w];
            s->w_st[w] = (uint8_t)func_sm_warp_state(s->fx, w / wpc(s), w % wpc(s));
            if (old == FUNC_W_BAR && s->w_st[w] != FUNC_W_BAR && l1d_coherent(&s->ldst.l1d))
                l1d_gtsc_barrier(&s->ldst.l1d, w - w % wpc(s), wpc(s)); /* NOTE(gtsc-sync) in l1d_gtsc.c */
            warp_touch(s, w);
            if (s->w_st[w] == FUNC_W_DONE)
                warp_gone(s, w);
            else if (s->w_live[w])
                follow_pc(s, w);
        }
}

/* CTAs whose warps all exited and drained are released (spec 2.10). */
static void cta_check(struct sm *s)
{
    /* NOTE(cta-gone): a CTA with a warp still live cannot be drained, so
     * only the slots whose warps all left are visited (ascending, as the
     * full scan), which spares a scan of every slot on almost every cycle. */
    for (uint32_t mk = s->cta_gone_mask; mk; mk &= mk - 1) {
        uint32_t c = (uint32_t)__builtin_ctz(mk);
        if (!s->cta_live[c] || !func_sm_cta_finished(s->fx, c))
            continue;
        bool drained = true;
        for (uint32_t i = 0; i < wpc(s) && drained; i++) {
            uint32_t w = c * wpc(s) + i;
            drained = !s->w_live[w] && s->w_mem[w] == 0 && scoreboard_n_pending(&s->sb, w) == 0;
        }
        if (!drained)
            continue;
        func_sm_cta_release(s->fx, c);
        s->cta_live[c] = 0;
        s->cta_gone_mask &= ~(1u << c);
        s->n_cta--;
        s->done[s->n_done++] = s->cta_lin[c];
        s->st.ctas++;
    }
}

/* --------------------------------------------------------------- the tick */

/* NOTE(sector-replies): with l2.sector_replies the L2 returns a read that
 * spans k > 1 sectors as k packets (NOTE(sector-replies) in
 * partitions/l2/l2.c), and the SM hands the read to its cache only when
 * the last has arrived, as GPGPU-Sim 4.x's L1 with its SECTOR_ASSOC MSHRs
 * fills a line when its pending sector reads reach zero. A packet takes
 * its ejection-buffer place like any other (4.x's response FIFO holds
 * sector replies too); a packet that does not complete its read frees its
 * place at once, its sector's bytes copied into the partial entry keyed by
 * (id, address). The packet that completes it stays at the buffer's head
 * until the cache takes the assembled reply; copying its sector again is
 * harmless. Entries live in a fixed table (n_part_cap: every read the SM
 * can have outstanding); at most a few are in use, so lookups scan them. */
__attribute__((noinline, cold)) static const struct mem_reply *part_take(struct sm *s, const struct mem_reply *rep,
                                                                          struct sm_part **done)
{
    struct sm_part *e = NULL;
    for (uint32_t i = 0; i < s->n_part; i++)
        if (s->part[i].r.id == rep->id && s->part[i].r.addr == rep->addr) {
            e = &s->part[i];
            break;
        }
    if (!e) {
        SIM_ASSERT(s->n_part < s->n_part_cap, "sm[%u]: more than %u replies partly received", s->id,
                   s->n_part_cap);
        e = &s->part[s->n_part++];
        e->got = 0;
        e->r = *rep;
        e->r.sect = 0; /* the assembled reply is whole */
        if (s->n_part > s->st.parts_max)
            s->st.parts_max = s->n_part;
    }
    uint8_t part = mem_reply_part(rep);
    uint32_t k = (uint32_t)__builtin_ctz(part);
    memcpy(e->r.data + 32u * k, rep->data + 32u * k, 32);
    if (!(e->got & part))
        s->st.reply_parts++;
    e->got |= part;
    if (e->got != mem_reply_parts(rep))
        return NULL;
    *done = e;
    return &e->r;
}

static void replies(struct sm *s, uint64_t c)
{
    while (s->ej_n) {
        const struct mem_reply *rep = &s->eject[s->ej_head];
        struct sm_part *done = NULL;
        if (mem_reply_part(rep)) {
            rep = part_take(s, rep, &done);
            if (!rep) { /* NOTE(sector-replies): more sectors to come */
                s->ej_head = ring_wrap(s->ej_head + 1, s->n_eject);
                s->ej_n--;
                continue;
            }
        }
        bool ok;
        if (!(rep->id & L1D_ID_FILL) && (rep->id & SM_ID_INST)) {
            struct mem_reply r = *rep;
            r.id &= ~SM_ID_INST;
            ok = l1ro_push_reply(&s->l1i, &r, c);
        } else
            ok = ldst_push_reply(&s->ldst, rep, c);
        if (!ok) {
            s->st.eject_full++;
            return;
        }
        if (done) /* the assembled read left: free its entry (order of the table does not matter) */
            *done = s->part[--s->n_part];
        s->ej_head = ring_wrap(s->ej_head + 1, s->n_eject);
        s->ej_n--;
    }
}

/* At pipeline cycle p (core / icnt cycle c): one request into the sender half. */
static void requests(struct sm *s, uint64_t p, uint64_t c)
{
    for (int k = 0; k < 2; k++) {
        bool inst = (s->rr_req + k) % 2 == 0;
        const struct mem_req *q = inst ? l1ro_peek_req(&s->l1i, p) : ldst_peek_req(&s->ldst, p);
        if (!q)
            continue;
        uint32_t nf = icnt_req_flits(s->sh->net, q); /* any registered kind (docs/messages.md) */
        if (!icnt_tx_can_push(&s->tx, nf)) {
            s->st.req_stall++;
            return;
        }
        struct mem_req r;
        bool ok = inst ? l1ro_pop_req(&s->l1i, &r, p) : ldst_pop_req(&s->ldst, &r, p);
        SIM_ASSERT(ok, "sm[%u]: request vanished", s->id);
        if (inst) {
            SIM_ASSERT(!(r.id & (SM_ID_INST | L1D_ID_FILL)), "sm[%u]: l1i id 0x%x", s->id, r.id);
            r.id |= SM_ID_INST;
            if (r.warp != MEM_WARP_NONE && s->k) /* the l1i knows the warp, the SM its CTA */
                r.cta = s->cta_lin[r.warp / wpc(s)];
        }
        r.src = (uint16_t)s->id;
        icnt_tx_push(&s->tx, dst_ep(s, r.addr), nf, &r, c);
        s->rr_req = inst ? 1 : 0;
        return;
    }
}

/* NOTE(pipe-clock): the unit ticks on core edges (= interconnect edges);
 * the pipeline (caches, LD/ST, pipes, fetch, schedulers) steps on every
 * sm.pipe_clock_div-th core edge, in pipeline cycles p = core cycle / div.
 * The interconnect halves step on every core edge. Requests leave the LD/ST
 * unit and replies enter it on pipeline edges. */
static ps_t sm_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct sm *s = self;
    s->ctx = ctx;
    s->now = now;
    /* NOTE(tick-locals): a 64-bit division costs tens of cycles and the
     * configuration's flag sits far from the SM's hot fields; the pipeline
     * division is skipped for the usual div = 1 and the flag is a field of
     * the SM. */
    uint64_t c = divq(&s->sh->core_div, now), div = s->sh->pipe_div;
    if (s->err)
        return PS_NEVER;
    uint64_t next_c = CYCLE_NEVER, next_p = CYCLE_NEVER; /* next core edge, next pipeline cycle */
#define NEXTC(x) do { uint64_t n_ = (x); if (n_ < next_c) next_c = n_; } while (0)
#define NEXTP(x) do { uint64_t n_ = (x); if (n_ < next_p) next_p = n_; } while (0)
    NEXTC(icnt_rx_tick(&s->rx, c));
    /* NOTE(pipe-early): the last pipeline step asked for pipeline cycle
     * pipe_next, assuming no input from outside; the inputs that can come
     * are replies (the eject queue, filled by the receiver above) and CTA
     * and kernel starts (which lower pipe_next). A tick before pipe_next
     * without a reply waiting (the receiver taking flits at the core
     * clock, or a message) steps the pipeline as between pipeline edges:
     * not at all. Stepping it would change nothing (the same statistics
     * as sim.tick_every_cycle, which still steps it every cycle); in bfs
     * small 5 % of the SM's ticks were such. */
    const bool edge = div == 1 || c % div == 0;
    const uint64_t p = div == 1 ? c : c / div;
    if (edge && (p >= s->pipe_next || s->ej_n || s->tick_every)) {
        s->cycle = p;
        ldst_catch_up(&s->ldst, p); /* before replies reach the L1D (NOTE(fail-memo) in ldst.c) */
        replies(s, p);
        if (s->k) {
            if (s->was_active) /* the cycles since the last tick had a resident CTA */
                s->st.active_cycles += p - s->last_cycle;
            NEXTP(ldst_tick(&s->ldst, p));
            while (s->wbq_n && pipes_ldst_wb_push(&s->pipes, &s->wbq[s->wbq_head])) {
                s->wbq_head = (s->wbq_head + 1) & (s->wbq_cap - 1);
                s->wbq_n--;
            }
            NEXTP(pipes_tick(&s->pipes, &s->oc, p));
            struct pipe_op mop;
            while (ldst_can_accept(&s->ldst) && pipes_mem_pop(&s->pipes, &mop)) {
                if (mop.tag & TAG_POOL) {
                    uint32_t i = tag_pool(mop.tag);
                    bool ok = ldst_push(&s->ldst, &s->mo[i], p);
                    SIM_ASSERT(ok, "sm[%u]: LD/ST latch refused", s->id);
                    if (s->mo[i].space == MEMOP_GLOBAL && s->mo[i].kind != MEMOP_FENCE) {
                        SIM_ASSERT(s->w_unord[s->mo[i].warp] > 0, "sm[%u]: unordered count", s->id);
                        s->w_unord[s->mo[i].warp]--;
                        warp_touch(s, s->mo[i].warp);
                    }
                    s->n_mo_free++; /* the pool's entry; the instruction stays in mo[i] (NOTE(memop-ref)) */
                    s->st.mem_insts++;
                } else if (s->k->sbr[tag_func(mop.tag)][tag_pc(mop.tag)].n_dst)
                    wb_push_as(s, &mop, mop.warp, mop.tag);
                NEXTP(p + 1);
            }
            NEXTP(fetch_tick(&s->fetch, p));
            for (uint32_t i = 0; i < s->fetch.n_words; i++) { /* I-buffers filled (NOTE(sched-skip)) */
                uint64_t m = s->fetch.decoded[i];
                if (!m)
                    continue;
                s->fetch.decoded[i] = 0; /* fetch_clear_decoded, word by word */
                for (; m; m &= m - 1)
                    warp_touch(s, i * 64 + (uint32_t)__builtin_ctzll(m));
            }
            take_events(s);
            /* Ticked even with no CTA resident, so that the schedulers see
             * the cycle after the last exit (their stall accounting). */
            NEXTP(wsched_tick(&s->sched, p, &s->port));
            if (s->err)
                return PS_NEVER;
            take_events(s);
            cta_check(s);
            if (s->wbq_n)
                NEXTP(p + 1);
        }
        requests(s, p, c);
        if (s->ej_n || ldst_peek_req(&s->ldst, p + 1) || l1ro_peek_req(&s->l1i, p + 1))
            NEXTP(p + 1);
        if (ldst_stage_retry(&s->ldst)) /* the L1D changed after the LD/ST tick (NOTE(fail-memo) in ldst.c) */
            NEXTP(p + 1);
        s->last_cycle = p;
        s->was_active = s->n_cta > 0;
        s->pipe_next = next_p;
    } else {
        /* between pipeline edges (woken by a message), or before the cycle
         * the pipeline asked for (NOTE(pipe-early)): keep what the last
         * pipeline step asked for */
        NEXTP(s->pipe_next);
        if (s->ej_n)
            NEXTP(p + 1);
    }
    NEXTC(icnt_tx_tick(&s->tx, c));
    if (s->tick_every && s->k)
        NEXTC(c + 1);
#undef NEXTC
#undef NEXTP
    uint64_t n = next_p == CYCLE_NEVER ? next_c : MIN(next_c, next_p * div);
    return n == CYCLE_NEVER ? PS_NEVER : n * s->sh->core_ps;
}

static ps_t sm_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    struct sm *s = self;
    s->ctx = ctx;
    s->now = now;
    uint64_t c = divq(&s->sh->core_div, now);
    if (m->type == ICNT_MSG_FLIT) {
        struct icnt_flit f;
        const void *p = icnt_msg_unpack_flit(m, &f, sizeof(struct mem_reply), s->sh->core_ps);
        icnt_rx_flit_arrive(&s->rx, &f, p, c);
    } else {
        struct icnt_msg_credit cr;
        icnt_msg_unpack_credit(m, &cr);
        icnt_tx_credits(&s->tx, cr.from_dst, cr.n, c);
    }
    return now;
}

const struct eng_unit_ops sm_unit_ops = {"sm", sm_tick, sm_recv};

/* ------------------------------------------------------------- lifecycle */

struct sm *sm_create(const struct sm_shared *sh, struct eng_ctx *ctx, uint32_t id, uint32_t unit)
{
    const struct sim_cfg *cv = sh->cfg;
    struct sm *s = eng_alloc(ctx, sizeof *s);
    s->id = id;
    s->unit = unit;
    s->sh = sh;
    s->last_cycle = CYCLE_NEVER;
    s->pipe_next = CYCLE_NEVER;
    s->tick_every = cv->sim.tick_every_cycle;
    l1ro_init(&s->l1i, &cv->l1i, "l1i", (int)id);
    l1ro_no_data(&s->l1i); /* fetch reads only tokens (NOTE(l1ro-no-data) in l1ro.c) */
    fetch_init(&s->fetch, sh->max_warps, &s->l1i, (int)id);
    wsched_init(&s->sched, &cv->sched, sh->max_warps);
    scoreboard_init(&s->sb, sh->max_warps);
    opcoll_init(&s->oc, &cv->rf, &cv->oc, NULL, NULL);
    s->rf_gate = s->oc.rf.ops->can_issue != NULL;
    s->sc_limit = cv->sched.max_outstanding_mem_per_warp;
    pipes_init(&s->pipes, &cv->pipes, pipes_wb, s);
    struct ldst_hooks h = {s, NULL, local_addr, NULL, ldst_done,
                           wsched_wants_l1(&s->sched) ? sm_on_l1 : NULL};
    ldst_init(&s->ldst, &sh->lp, &h, (int)id);
    struct icnt_tx_args ta = {id, sh->topo, sh->net, sizeof(struct mem_req), send_flit, s, sh->cfg->sim.seed};
    icnt_tx_init(&s->tx, &ta);
    struct icnt_rx_args ra = {id, sh->topo, sh->net, sizeof(struct mem_reply),
                              /* the ejection buffer only drains between a packet's head and
                               * tail: accepting at the head holds (NOTE(credit-run)) */
                              {rx_can_accept, rx_deliver, rx_send_credit, NULL, rx_send_credits, true}, s};
    icnt_rx_init(&s->rx, &ra);
    s->port = (struct wsched_port){s, port_check, port_issue, port_res_sig, port_is_l1_load, port_score, NULL, false,
                                   NULL};
    s->n_eject = (uint32_t)sh->cfg->sm.eject_buf;
    s->eject = eng_alloc(ctx, s->n_eject * sizeof *s->eject);
    if (sh->cfg->l2.sector_replies) {
        /* NOTE(sector-replies): every read the SM can have outstanding: an
         * MSHR entry's fill each, and up to a warp's 32 transactions for
         * each memory instruction that reads around the L1D */
        s->n_part_cap = (uint32_t)(sh->cfg->l1d.mshr + sh->cfg->l1i.mshr + sh->cfg->l1c.mshr +
                                   32u * sh->cfg->sm.memop_pool);
        s->part = eng_alloc(ctx, s->n_part_cap * sizeof *s->part);
    }
    s->n_mo = (uint32_t)sh->cfg->sm.memop_pool;
    s->n_mo_free = s->n_mo;
    s->n_store = s->n_mo + 1 + sh->lp.n_slots; /* pool, LD/ST latch, in-flight slots (NOTE(memop-ref)) */
    s->mo = eng_alloc(ctx, s->n_store * sizeof *s->mo);
    s->mo_free = eng_alloc(ctx, s->n_store * sizeof *s->mo_free);
    for (uint32_t i = 0; i < s->n_store; i++)
        s->mo_free[i] = s->n_store - 1 - i;
    s->n_store_free = s->n_store;
    s->wbq_cap = SM_WB_OVF;
    s->wbq = xcalloc(s->wbq_cap, sizeof *s->wbq);
    s->w_mem = eng_alloc(ctx, sh->max_warps * sizeof *s->w_mem);
    s->w_fence = eng_alloc(ctx, sh->max_warps);
    s->w_gmem = eng_alloc(ctx, sh->max_warps * sizeof *s->w_gmem);
    s->w_unord = eng_alloc(ctx, sh->max_warps * sizeof *s->w_unord);
    s->w_live = eng_alloc(ctx, sh->max_warps);
    s->w_st = eng_alloc(ctx, sh->max_warps);
    s->w_pw = eng_alloc(ctx, sh->max_warps);
    s->port.pw_memo = s->w_pw; /* NOTE(blocked-memo) in sched.c */
    s->port.pw_keyed = !s->rf_gate; /* NOTE(pass-key) in sched.c: port_check reads only w_pw[w] then */
    if (sh->max_warps <= 64) /* NOTE(blocked-masks) in sched.c: one word per reason */
        s->port.pw_blk = s->pw_blk;
    s->ev = eng_alloc(ctx, sh->max_warps * sizeof *s->ev);
    eng_unit_bind(ctx, unit, s);
    return s;
}

void sm_fini(struct sm *s)
{
    if (!s)
        return;
    sm_kernel_end(s, 0);
    icnt_rx_fini(&s->rx);
    icnt_tx_fini(&s->tx);
    ldst_fini(&s->ldst);
    pipes_fini(&s->pipes);
    free(s->wbq);
    s->wbq = NULL;
    opcoll_fini(&s->oc);
    scoreboard_fini(&s->sb);
    wsched_fini(&s->sched);
    fetch_fini(&s->fetch);
    l1ro_fini(&s->l1i);
}

void sm_stats_register(struct sm *s, struct stats *reg)
{
    int i = (int)s->id;
    const char *g = "sm";
    stats_counter(reg, g, i, "insts", &s->st.insts, "warp instructions issued");
    stats_counter(reg, g, i, "mem_insts", &s->st.mem_insts, "warp memory instructions handed to the LD/ST unit");
    stats_counter(reg, g, i, "active_cycles", &s->st.active_cycles, "core cycles with at least one resident CTA");
    stats_counter(reg, g, i, "ctas", &s->st.ctas, "CTAs completed");
    stats_counter(reg, g, i, "warps", &s->st.warps, "warps launched");
    stats_counter(reg, g, i, "eject_full", &s->st.eject_full,
                  "cycles a reply waited in the ejection buffer for its cache");
    stats_counter(reg, g, i, "req_stall", &s->st.req_stall,
                  "cycles a request waited for room in the injection buffer");
    if (s->part) { /* l2.sector_replies only: the statistics of the baseline do not change */
        stats_counter(reg, g, i, "reply_parts", &s->st.reply_parts,
                      "sector packets received and reassembled (NOTE(sector-replies))");
        stats_max(reg, g, i, "parts_max", &s->st.parts_max, "most read replies partly received at once");
    }
    stats_counter(reg, g, i, "sb_reserved", &s->sb.n_reserved, "scoreboard register reservations");
    wsched_stats_register(&s->sched, reg, "sm.sched", i * (int)s->sched.n_sched);
    opcoll_stats_register(&s->oc, reg, "sm.oc", i);
    pipes_stats_register(&s->pipes, reg, "sm.pipes", i);
    fetch_stats_register(&s->fetch, reg);
    l1ro_stats_register(&s->l1i, reg);
    ldst_stats_register(&s->ldst, reg);
    icnt_tx_stats_register(&s->tx, reg, "icnt.req");
    icnt_rx_stats_register(&s->rx, reg, "icnt.reply");
}

bool sm_kernel_start(struct sm *s, const struct sm_kernel *k, const struct func_launch *fl)
{
    SIM_ASSERT(!s->k && s->n_cta == 0, "sm[%u]: kernel start while busy", s->id);
    struct func_launch l = *fl;
    l.st = &s->fst;
    s->fx = func_sm_create(&l, k->ctas_per_sm, s->id, &s->cycle);
    if (!s->fx)
        return false;
    s->fx_ev_n = func_sm_events_pending(s->fx);
    SIM_ASSERT(func_sm_warps_per_cta(s->fx) == k->warps_per_cta, "sm[%u]: warps per CTA", s->id);
    s->k = k;
    s->pipe_next = 0; /* the first tick steps the pipeline (NOTE(pipe-early)) */
    fetch_set_code(&s->fetch, &k->code);
    /* registers numbered by the allocator in any function of the module
     * (a callee's operands use its own numbers) */
    uint32_t regs_alloc = fl->fn->regs_per_thread;
    for (uint32_t f = 0; f < fl->mod->n_funcs; f++)
        if (fl->mod->funcs[f].regs_alloc > regs_alloc)
            regs_alloc = fl->mod->funcs[f].regs_alloc;
    struct rf_kernel_info rki = {k->ctas_per_sm * k->warps_per_cta,
                                 k->warps_per_cta,
                                 k->ctas_per_sm,
                                 fl->fn->regs_per_thread,
                                 (uint32_t)s->sh->cfg->sm.n_regs,
                                 k,
                                 regs_alloc,
                                 s->sched.n_sched,
                                 s->id,
                                 fl->fn->name};
    opcoll_kernel_start(&s->oc, &rki);
    const struct l1d *l1 = &s->ldst.l1d;
    struct wsched_kernel_info ki = {k->warps_per_cta,
                                    k->ctas_per_sm,
                                    (uint64_t)fl->grid[0] * fl->grid[1] * fl->grid[2],
                                    (uint32_t)s->sh->cfg->gpu.n_sm,
                                    s->id,
                                    l1->n_sets * l1->tags.assoc,
                                    l1->line};
    wsched_set_now(&s->sched, s->cycle);
    wsched_kernel_start(&s->sched, &ki);
    /* Kernel boundary (DESIGN.md 4): the data L1s start empty (their lines
     * carry values, and the host may have written memory since).
     * NOTE(l1i-launch): the instruction cache is only timing (instructions
     * come pre-decoded from the module) and every module's code segment
     * starts at the same address, so it is emptied when the launch runs
     * another module's code, or at every launch with l1i.launch_invalidate
     * = always. GPGPU-Sim (3.2.2 and 4.2) never empties it, nor the constant
     * cache; emptying it at every launch cost gaussian's gauss_fan1 about 280
     * cycles per launch (docs/correlation.md, session 13). */
    if (k->new_code || s->sh->cfg->l1i.launch_invalidate == L1I_INVAL_ALWAYS)
        l1ro_invalidate_all(&s->l1i);
    l1d_invalidate_all(&s->ldst.l1d);
    l1ro_invalidate_all(&s->ldst.l1c);
    return true;
}

void sm_kernel_end(struct sm *s, uint64_t end)
{
    if (!s->k)
        return;
    /* Account the schedulers up to the kernel's end (pipeline cycle `end`):
     * the cycles after the SM's last tick count as "no warp", the same as
     * when every cycle is ticked (sim.tick_every_cycle). */
    if (s->sched.last_cycle != CYCLE_NEVER && s->n_cta == 0)
        wsched_tick(&s->sched, MAX(s->sched.last_cycle + 1, end), &s->port);
    func_sm_destroy(s->fx);
    s->fx = NULL;
    s->fx_ev_n = NULL;
    s->k = NULL;
}

void sm_cta_start(struct sm *s, uint32_t lin, uint64_t t)
{
    const struct sm_kernel *k = s->k;
    uint32_t c = 0;
    while (c < k->ctas_per_sm && s->cta_live[c])
        c++;
    SIM_ASSERT(c < k->ctas_per_sm && c < SM_MAX_CTA, "sm[%u]: no free CTA slot", s->id);
    s->cta_live[c] = 1;
    s->cta_gone[c] = 0;
    s->cta_gone_mask &= ~(1u << c);
    s->cta_lin[c] = lin;
    s->n_cta++;
    func_sm_cta_start(s->fx, c, lin);
    uint64_t seq = s->cta_seq++;
    wsched_set_now(&s->sched, t);
    if (t < s->pipe_next) /* the serial step's wake may land between pipeline edges */
        s->pipe_next = t;
    for (uint32_t i = 0; i < k->warps_per_cta; i++) {
        uint32_t w = c * k->warps_per_cta + i;
        scoreboard_warp_reset(&s->sb, w);
        s->w_mem[w] = 0;
        s->w_gmem[w] = 0;
        s->w_unord[w] = 0;
        s->w_fence[w] = 0;
        s->w_live[w] = 1;
        s->w_st[w] = FUNC_W_RUN;
        pw_set(s, w, 0);
        fetch_warp_launch(&s->fetch, w, k->entry, 0, t);
        wsched_warp_cta(&s->sched, w, lin);
        wsched_warp_launch(&s->sched, w, seq);
        s->st.warps++;
    }
}

bool sm_mem_idle(const struct sm *s)
{
    return s->ej_n == 0 && ldst_idle(&s->ldst) && l1ro_idle(&s->l1i) && icnt_tx_idle(&s->tx) &&
           icnt_rx_idle(&s->rx);
}

void sm_dump(const struct sm *s, FILE *out)
{
    if (!s->k)
        return;
    char line[1024];
    for (uint32_t c = 0; c < s->k->ctas_per_sm; c++) {
        if (!s->cta_live[c])
            continue;
        for (uint32_t i = 0; i < s->k->warps_per_cta; i++) {
            uint32_t w = c * s->k->warps_per_cta + i;
            func_sm_describe_warp(s->fx, c, i, line, sizeof line);
            const char *why = "ready";
            if (func_sm_warp_state(s->fx, c, i) == FUNC_W_DONE)
                why = s->w_mem[w] ? "exited, memory in flight" : "exited";
            else if (func_sm_warp_state(s->fx, c, i) == FUNC_W_BAR)
                why = "barrier";
            else if (s->w_fence[w])
                why = "fence";
            else if (fetch_ibuf_head(&s->fetch, w) == FETCH_PC_NONE)
                why = "instruction fetch";
            else if (scoreboard_n_pending(&s->sb, w))
                why = "scoreboard";
            fprintf(out, "  SM %u warp slot %u: %s; waits for: %s (%u memory instructions in flight, %u pending "
                         "register writes)\n",
                    s->id, w, line, why, s->w_mem[w], scoreboard_n_pending(&s->sb, w));
        }
    }
}
