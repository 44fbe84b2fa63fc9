/* sim/sm/exec/pipes.c: SP/SFU execution pipes, MEM hand-off latches, writeback.
 * See pipes.h for what is modelled; docs/pipes.md for the choices.
 *
 * NOTE(dispatch-delay): GPGPU-Sim has two pipeline registers between the
 * collector and a unit's first stage (the OC_EX latch and the unit's
 * dispatch register). Here a ready collector dispatches (and is freed) into
 * a pipe that can accept (II elapsed, a free slot), at most
 * oc.out_ports_<set> per set per cycle, and the result is ready
 * pipes.dispatch_delay cycles later than the class latency says; MEM
 * instructions reach the LD/ST latches dispatch_delay cycles after leaving
 * their collector, through dispatch_delay x oc.out_ports_mem registers (a
 * FIFO: no throughput cost, and no deeper queue than GPGPU-Sim's registers;
 * an unbounded 32-entry FIFO let 35 memory instructions wait ahead of a
 * stalled LD/ST unit and made atax 2.2x slower). Timeline of
 * one fp32 add issued at cycle 0 with the gtx480 values (oc.alloc_delay 1,
 * dispatch_delay 2): read granted at 2, dispatch at 3, ready at
 * 3 + 4 + 2 = 9, written back (scoreboard released) at 9; a dependent
 * instruction issues at 10. With both delays 0: read at 1, dispatch 2,
 * written back at 6 (docs/pipes.md, docs/correlation.md).
 * NOTE(elastic-pipe): a result whose writeback is blocked (width or bank)
 * stays in its pipe slot; the pipe keeps accepting until all
 * PIPES_MAX_INFLIGHT slots are used. Real hardware would stall the pipe;
 * with wb_width 2 and at most 3 result-producing pipes the difference only
 * shows under sustained bank conflicts on writes.
 * NOTE(wb-reserve): with pipes.wb_reserve (GPGPU-Sim 3.x and 4.x:
 * shader_core_ctx::execute reserves one of the EX_WB result buses for the
 * cycle the result will leave a non-stallable unit, test_res_bus, and the
 * unit does not take the instruction this cycle when both are reserved), an
 * SP/SFU dispatch takes one of pipes.wb_width slots of its ready cycle
 * (dispatch + latency + dispatch_delay) or waits; the oldest ready collector
 * of the set waits and the set dispatches nothing more this cycle (GPGPU-Sim's
 * units all offer the oldest ready instruction of the OC_EX register set,
 * and the others have the same latency). Without it (false: the model
 * before session 15) results queue at writeback (NOTE(elastic-pipe)) and
 * dispatch never waits for the bus: under sustained SP and SFU traffic whose latencies differ (4, 5, 8,
 * 39) that lets more instructions through than GPGPU-Sim does
 * (blackscholes, docs/correlation.md, session 15). Writeback itself is
 * unchanged, so a result held by a bank conflict still queues.
 * NOTE(wb-order): SP/SFU results are written back oldest ready first
 * ((ready cycle, dispatch order)); a result blocked by a busy bank does not
 * block younger ones; LD/ST results write after them (GPGPU-Sim writes the
 * EX_WB register before the LD/ST unit's writeback) in FIFO order.
 * NOTE(classes): FMA counts as MAD; REM as DIV; MUL24/MAD24/DP4A/DP2A/SAD as
 * int MUL/MAD/MAD/MAD/ADD; ADDC/SUB/SUBC as ADD; MIN as MAX; TANH as a
 * transcendental; f16/bf16 arithmetic as fp32. Control flow and barriers
 * are "other ALU" 1/1 on SP (spec 3.2: branches 1/1).
 */
#include "sim/sm/exec/pipes.h"

#include <stdio.h>
#include <string.h>

#include "sim/ptx/ir.h"
#include "sim/sm/rf/opcoll.h"

static const struct pipe_class_info class_info[PIPE_C_COUNT] = {
#define PIPE_X_(e, n, l, i, m) {n, l, i, m},
    PIPE_CLASS_LIST(PIPE_X_)
#undef PIPE_X_
};

const struct pipe_class_info *pipes_class_info(enum pipe_class c)
{
    SIM_ASSERT((unsigned)c < PIPE_C_COUNT, "pipes: bad class %d", (int)c);
    return &class_info[c];
}

/* NOTE(unit-map): GPGPU-Sim 3.x (ptx_instruction::set_opcode_and_latency)
 * makes an fp32/fp64 MUL an ALU_SFU_OP (SP preferred, else the SFU) and an
 * integer MUL or MAD an SFU_OP: the PIPE_CLASS_LIST column. 4.x makes them
 * SP_OP / INTP_OP / DP_OP; with SM2_GTX480's -gpgpu_num_int_units 0 and
 * -gpgpu_num_dp_units 0 an INTP_OP runs on the SP pipes and every DP_OP
 * (fp64 ADD, MAX, MUL, MAD) on the SFU. Latencies and IIs do not change
 * (4.x's transcendentals take -ptx_opcode_latency_sfu 8 / 8 by default,
 * 3.x's the fp64 MUL timing, 8 / 8 in GTX480's configuration). */
const char *const pipes_unit_map_names[] = {"gpgpusim3", "gpgpusim4", NULL};

uint8_t pipes_class_pipes(enum pipe_class c, enum pipes_unit_map map)
{
    uint8_t m = pipes_class_info(c)->pipes;
    if (map != PIPES_MAP_GPGPUSIM4)
        return m;
    switch (c) {
    case PIPE_C_F32_MUL:
    case PIPE_C_INT_MUL:
    case PIPE_C_INT_MAD: return PIPE_M_SP;
    case PIPE_C_F64_ADD:
    case PIPE_C_F64_MAX:
    case PIPE_C_F64_MUL:
    case PIPE_C_F64_MAD: return PIPE_M_SFU;
    default: return m;
    }
}

/* Arithmetic families of the 3.2 table. */
enum fam { F_ADD, F_MAX, F_MUL, F_MAD, F_DIV };

static enum pipe_class by_type(enum fam f, enum ptx_type t)
{
    static const enum pipe_class tab[3][5] = {
        {PIPE_C_INT_ADD, PIPE_C_INT_MAX, PIPE_C_INT_MUL, PIPE_C_INT_MAD, PIPE_C_INT_DIV},
        {PIPE_C_F32_ADD, PIPE_C_F32_MAX, PIPE_C_F32_MUL, PIPE_C_F32_MAD, PIPE_C_F32_DIV},
        {PIPE_C_F64_ADD, PIPE_C_F64_MAX, PIPE_C_F64_MUL, PIPE_C_F64_MAD, PIPE_C_F64_DIV},
    };
    int row = t == PTX_T_F64 ? 2 : ptx_type_is_float(t) ? 1 : 0;
    return tab[row][f];
}

enum pipe_class pipes_class_of(const struct ptx_insn *in)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type t = (enum ptx_type)in->type;
    switch (ptx_op_unit(op)) {
    case PTX_UNIT_MEM: return PIPE_C_MEM;
    case PTX_UNIT_CTRL:
    case PTX_UNIT_SYNC: return PIPE_C_ALU;
    default: break;
    }
    switch (op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_ADDC:
    case PTX_OP_SUBC: return by_type(F_ADD, t);
    case PTX_OP_SAD: return PIPE_C_INT_ADD;
    case PTX_OP_MIN:
    case PTX_OP_MAX: return by_type(F_MAX, t);
    case PTX_OP_MUL: return by_type(F_MUL, t);
    case PTX_OP_MUL24: return PIPE_C_INT_MUL;
    case PTX_OP_MAD:
    case PTX_OP_MADC:
    case PTX_OP_FMA: return by_type(F_MAD, t);
    case PTX_OP_MAD24:
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: return PIPE_C_INT_MAD;
    case PTX_OP_DIV:
    case PTX_OP_REM: return by_type(F_DIV, t);
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
    case PTX_OP_RSQRT:
    case PTX_OP_SIN:
    case PTX_OP_COS:
    case PTX_OP_LG2:
    case PTX_OP_EX2:
    case PTX_OP_TANH: return PIPE_C_SFU;
    default: return PIPE_C_ALU;
    }
}

struct collect {
    const struct ptx_func *fn;
    struct pipe_op *op;
    bool overflow;
};

static void collect_reg(int32_t vreg, int is_def, void *ctx)
{
    struct collect *c = ctx;
    if (vreg < 0 || (uint32_t)vreg >= c->fn->n_regs)
        return;
    const struct ptx_reg *r = &c->fn->regs[vreg];
    if (r->is_pred || r->phys < 0)
        return;
    for (uint32_t i = 0; i < r->n_phys; i++) {
        uint16_t phys = (uint16_t)(r->phys + (int32_t)i);
        if (is_def) {
            if (c->op->n_dst >= PIPE_MAX_DST) {
                c->overflow = true;
                return;
            }
            c->op->dst[c->op->n_dst++] = phys;
        } else {
            if (c->op->n_src >= PIPE_MAX_SRC) {
                c->overflow = true;
                return;
            }
            c->op->src[c->op->n_src++] = phys;
        }
    }
}

bool pipes_op_from_insn(const struct ptx_func *fn, const struct ptx_insn *in, uint32_t warp, uint64_t tag,
                        struct pipe_op *out)
{
    memset(out, 0, sizeof *out);
    out->tag = tag;
    out->warp = warp;
    out->cls = (uint8_t)pipes_class_of(in);
    struct collect c = {fn, out, false};
    ptx_insn_for_each_reg(in, collect_reg, &c);
    return !c.overflow;
}

void pipes_op_remap(struct pipe_op *op, const uint16_t *map, uint32_t n_map)
{
    for (uint32_t i = 0; i < op->n_src; i++)
        if (op->src[i] < n_map)
            op->src[i] = map[op->src[i]];
    for (uint32_t i = 0; i < op->n_dst; i++)
        if (op->dst[i] < n_map)
            op->dst[i] = map[op->dst[i]];
}

bool pipes_op_set_regs(struct pipe_op *op, const uint16_t *regs, uint32_t n_src, uint32_t n_dst)
{
    if (n_src != op->n_src || n_dst != op->n_dst)
        return false;
    for (uint32_t i = 0; i < n_src; i++)
        op->src[i] = regs[i];
    for (uint32_t i = 0; i < n_dst; i++)
        op->dst[i] = regs[n_src + i];
    return true;
}

/* ---------------------------------------------------------------- unit */

void pipes_init(struct pipes *p, const struct pipes_cfg *cfg, pipes_wb_fn wb_fn, void *wb_ctx)
{
    if (pipes_cfg_validate(cfg, NULL, NULL))
        sim_panic("pipes_init: invalid pipes configuration");
    memset(p, 0, sizeof *p);
    p->wb_min = CYCLE_NEVER;
    p->cfg = *cfg;
    /* NOTE(mem-dispatch-delay): the MEM path's registers between the
     * collectors and the LD/ST latch, apart from the SP/SFU dispatch delay.
     * pipes.dispatch_delay stands for GPGPU-Sim's OC_EX register and the
     * unit's dispatch register; a memory instruction is performed in the
     * LD/ST unit's dispatch register, which here is the LD/ST latch and
     * stage, so counting both puts one register too many on the MEM path,
     * and with sm.memop_pool holding a place over the whole path the extra
     * cycles also cap how many memory instructions per cycle get through
     * (docs/pipes.md, docs/correlation.md session 23). -1 keeps the one
     * value for both (gtx480). */
    p->mem_dd = cfg->mem_dispatch_delay < 0 ? cfg->dispatch_delay : (uint64_t)cfg->mem_dispatch_delay;
    p->n_units = (uint32_t)(cfg->n_sp + cfg->n_sfu);
    for (uint32_t c = 0; c < PIPE_C_COUNT; c++)
        SIM_ASSERT(class_info[c].lat + cfg->dispatch_delay < PIPES_RESV_RING,
                   "pipes_init: latency of %s does not fit the reservation ring", class_info[c].name);
    for (uint32_t e = 0; e < PIPES_RESV_RING; e++)
        p->resv_cyc[e] = CYCLE_NEVER;
    for (uint32_t i = 0; i < p->n_units; i++)
        p->units[i].kind = i < cfg->n_sp ? PIPE_SP : PIPE_SFU;
    p->wb_fn = wb_fn;
    p->wb_ctx = wb_ctx;
}

void pipes_fini(struct pipes *p) { memset(p, 0, sizeof *p); }

struct wb_cand {
    cycle_t done;
    uint64_t seq;
    uint16_t unit, slot;
};

/* NOTE(wb-min): p->wb_min is a lower bound on the ready cycle of every
 * SP/SFU result in flight (lowered at dispatch, recomputed by each scan), so
 * writeback skips the slot scan in cycles where nothing can be ready; the
 * same bound is the pipes' next event for results. */
_Static_assert(PIPES_MAX_INFLIGHT <= 32, "pipe_unit.valid_mask has one bit per slot");

static void writeback(struct pipes *p, struct opcoll *oc, cycle_t now)
{
    struct wb_cand c[PIPES_MAX_UNITS * PIPES_MAX_INFLIGHT];
    uint32_t n = 0;
    cycle_t later = CYCLE_NEVER; /* earliest ready cycle after now */
    if (p->wb_min > now)
        goto ldst;
    p->wb_scan = now;
    for (uint32_t u = 0; u < p->n_units; u++) {
        const struct pipe_unit *pu = &p->units[u];
        if (!pu->n_inflight)
            continue;
        /* NOTE(slot-mask): the valid slots in ascending order, as a scan of
         * all PIPES_MAX_INFLIGHT slots would visit them. */
        for (uint32_t vm = pu->valid_mask; vm; vm &= vm - 1) {
            uint32_t s = (uint32_t)__builtin_ctz(vm);
            const struct pipe_slot *sl = &pu->slot[s];
            if (sl->done > now) {
                if (sl->done < later)
                    later = sl->done;
                continue;
            }
            struct wb_cand x = {sl->done, sl->seq, (uint16_t)u, (uint16_t)s};
            uint32_t i = n++;
            while (i > 0 && (c[i - 1].done > x.done || (c[i - 1].done == x.done && c[i - 1].seq > x.seq))) {
                c[i] = c[i - 1];
                i--;
            }
            c[i] = x;
        }
    }
    uint32_t done = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (done == p->cfg.wb_width) {
            p->st.wb_width_stall += n - i;
            later = now + 1; /* results left waiting */
            break;
        }
        struct pipe_unit *pu = &p->units[c[i].unit];
        struct pipe_slot *sl = &pu->slot[c[i].slot];
        if (!opcoll_write(oc, sl->op.warp, sl->op.dst, sl->op.n_dst, now)) {
            p->st.wb_bank_stall++;
            later = now + 1;
            continue;
        }
        sl->valid = false;
        pu->valid_mask &= ~(1u << c[i].slot);
        pu->n_inflight--;
        done++;
        p->st.wb++;
        if (p->wb_fn)
            p->wb_fn(p->wb_ctx, &sl->op, now);
    }
    p->wb_min = later;
ldst:
    for (uint32_t k = 0; k < p->cfg.ldst_wb_width && p->ldst_n; k++) {
        const struct pipe_op *op = &p->ldst_q[p->ldst_head];
        if (!opcoll_write(oc, op->warp, op->dst, op->n_dst, now)) {
            p->st.wb_bank_stall++;
            break; /* FIFO: younger LD/ST results wait behind it */
        }
        p->st.wb_ldst++;
        if (p->wb_fn)
            p->wb_fn(p->wb_ctx, op, now);
        p->ldst_head = (p->ldst_head + 1) % PIPES_LDST_WB_QUEUE;
        p->ldst_n--;
    }
}

/* A pipe of kind k that accepts at cycle now (lowest index), or -1. */
static int accepting_pipe(struct pipes *p, uint32_t k, cycle_t now, bool *full)
{
    for (uint32_t u = 0; u < p->n_units; u++) {
        const struct pipe_unit *pu = &p->units[u];
        if (pu->kind != k || pu->next_accept > now)
            continue;
        if (pu->n_inflight == PIPES_MAX_INFLIGHT) {
            *full = true;
            continue;
        }
        return (int)u;
    }
    return -1;
}

/* No room toward the LD/ST unit: the dispatch registers (mem_dd > 0) or,
 * without them, the MEM latches are all taken. */
static bool mem_full(const struct pipes *p, const struct opcoll *oc)
{
    if (p->mem_dd) {
        uint64_t cap = p->mem_dd * oc->cfg.out_ports[PIPE_MEM];
        return p->mem_dq_n >= (cap < PIPES_MEM_DQ ? cap : PIPES_MEM_DQ);
    }
    for (uint32_t m = 0; m < p->cfg.n_mem; m++)
        if (!p->mem_valid[m])
            return false;
    return true;
}

static void dispatch(struct pipes *p, struct opcoll *oc, cycle_t now)
{
    uint32_t ready[OC_MAX_UNITS];
    for (uint32_t k = 0; k < PIPE_N_KINDS; k++) {
        /* No room toward the LD/ST unit: the first ready MEM unit would stop
         * the loop below, so the ready scan (with its same-warp order test)
         * is skipped; common while the LD/ST unit is stalled. */
        if (k == PIPE_MEM && mem_full(p, oc))
            continue;
        uint32_t n = opcoll_ready(oc, (enum pipe_kind)k, now, ready, (uint32_t)oc->cfg.out_ports[k]);
        for (uint32_t i = 0; i < n; i++) {
            const struct pipe_op *op = opcoll_op(oc, ready[i]);
            if (k == PIPE_MEM) {
                if (p->mem_dd) {
                    /* the registers between the collectors and the MEM latch
                     * hold mem_dd x oc.out_ports_mem instructions (mem_dd:
                     * pipes.mem_dispatch_delay, or dispatch_delay at -1)
                     * (GPGPU-Sim: OC_EX_MEM and the LD/ST dispatch register,
                     * one each); full, they stall the MEM collectors, so the
                     * LD/ST unit's back-pressure reaches the issue stage */
                    if (mem_full(p, oc))
                        break;
                    uint32_t t = (p->mem_dq_head + p->mem_dq_n) % PIPES_MEM_DQ;
                    p->mem_dq[t] = *op;
                    p->mem_dq_ready[t] = now + p->mem_dd;
                    p->mem_dq_n++;
                } else {
                    uint32_t m = 0;
                    while (m < p->cfg.n_mem && p->mem_valid[m])
                        m++;
                    if (m == p->cfg.n_mem)
                        break;
                    p->mem_latch[m] = *op;
                    p->mem_valid[m] = true;
                }
                p->st.mem_dispatched++;
                p->st.by_class[op->cls]++;
                opcoll_release(oc, ready[i], now);
                continue;
            }
            bool full = false;
            int u = accepting_pipe(p, k, now, &full);
            if (u < 0) {
                if (full)
                    p->st.full_stall++;
                break;
            }
            struct pipe_unit *pu = &p->units[u];
            uint32_t s = (uint32_t)__builtin_ctz(~pu->valid_mask); /* lowest free slot; one is free (not full) */
            const struct pipe_class_info *ci = pipes_class_info((enum pipe_class)op->cls);
            cycle_t done = now + ci->lat + p->cfg.dispatch_delay;
            if (p->cfg.wb_reserve) { /* NOTE(wb-reserve) */
                uint32_t e = (uint32_t)(done % PIPES_RESV_RING);
                if (p->resv_cyc[e] != done) {
                    p->resv_cyc[e] = done;
                    p->resv_n[e] = 0;
                }
                if (p->resv_n[e] >= p->cfg.wb_width) {
                    p->st.resv_stall++;
                    break;
                }
                p->resv_n[e]++;
            }
            pu->slot[s] = (struct pipe_slot){*op, done, p->seq++, true};
            if (done < p->wb_min)
                p->wb_min = done;
            pu->valid_mask |= 1u << s;
            pu->n_inflight++;
            pu->next_accept = now + ci->ii;
            pu->dispatched++;
            p->st.by_class[op->cls]++;
            opcoll_release(oc, ready[i], now);
        }
    }
}

/* MEM instructions whose dispatch delay has elapsed enter free LD/ST
 * latches, oldest first. */
static void mem_delay_advance(struct pipes *p, cycle_t now)
{
    while (p->mem_dq_n && p->mem_dq_ready[p->mem_dq_head] <= now) {
        uint32_t m = 0;
        while (m < p->cfg.n_mem && p->mem_valid[m])
            m++;
        if (m == p->cfg.n_mem)
            return;
        p->mem_latch[m] = p->mem_dq[p->mem_dq_head];
        p->mem_valid[m] = true;
        p->mem_dq_head = (p->mem_dq_head + 1) % PIPES_MEM_DQ;
        p->mem_dq_n--;
    }
}

cycle_t pipes_tick(struct pipes *p, struct opcoll *oc, cycle_t now)
{
    /* Back to front (STYLE.md 2): writeback frees slots and takes banks
     * before dispatch and reads, so nothing passes two stages in a cycle. */
    writeback(p, oc, now);
    mem_delay_advance(p, now);
    dispatch(p, oc, now);
    /* NOTE(mem-backpressure): MEM collectors that cannot dispatch because
     * the registers toward the LD/ST unit are full, and a matured register
     * head waiting for a free MEM latch, wait for the SM to pop a latch into
     * the LD/ST unit; that pop asks for the next cycle itself (sm.c), and
     * this tick's order (delay registers, then dispatch, then the
     * collectors) moves each stage of the chain in the cycle after the one
     * below it moved. So they do not ask to be ticked every cycle while the
     * LD/ST unit is stalled (its stage asks for cycle + 1 unless its failure
     * is memoised, NOTE(fail-memo) in ldst.c). */
    cycle_t next = opcoll_read_tick(oc, now, mem_full(p, oc) ? 1u << PIPE_MEM : 0);
    if (p->mem_dq_n && p->mem_dq_ready[p->mem_dq_head] > now) { /* a matured head waits for a latch (above) */
        cycle_t t = p->mem_dq_ready[p->mem_dq_head];
        if (t < next)
            next = t;
    }
    /* Ready units that could not dispatch (pipe busy): retry when a pipe of
     * their kind accepts again; being early is harmless, never late. */
    /* Every candidate below is >= now + 1: once next is now + 1 they cannot
     * lower it (the scans are skipped, exactly). */
    uint32_t ready[OC_MAX_UNITS];
    for (uint32_t k = PIPE_SP; k <= PIPE_SFU && next > now + 1; k++)
        if (opcoll_ready(oc, (enum pipe_kind)k, now + 1, ready, 1)) {
            for (uint32_t u = 0; u < p->n_units; u++)
                if (p->units[u].kind == k) {
                    cycle_t t = p->units[u].next_accept > now ? p->units[u].next_accept : now + 1;
                    if (t < next)
                        next = t;
                }
        }
    if (p->wb_min != CYCLE_NEVER) { /* NOTE(wb-min) */
        cycle_t t = p->wb_min > now ? p->wb_min : now + 1;
        if (t < next)
            next = t;
    }
    if (p->ldst_n && now + 1 < next)
        next = now + 1;
    return next;
}

bool pipes_mem_pop(struct pipes *p, struct pipe_op *out)
{
    for (uint32_t m = 0; m < p->cfg.n_mem; m++)
        if (p->mem_valid[m]) {
            *out = p->mem_latch[m];
            p->mem_valid[m] = false;
            return true;
        }
    return false;
}

bool pipes_ldst_wb_can_accept(const struct pipes *p) { return p->ldst_n < PIPES_LDST_WB_QUEUE; }

bool pipes_ldst_wb_push(struct pipes *p, const struct pipe_op *op)
{
    return pipes_ldst_wb_push_as(p, op, op->warp, op->tag);
}

bool pipes_ldst_wb_push_as(struct pipes *p, const struct pipe_op *op, uint32_t warp, uint64_t tag)
{
    if (!pipes_ldst_wb_can_accept(p))
        return false;
    SIM_ASSERT(op->n_dst <= PIPE_MAX_DST, "pipes_ldst_wb_push: %u destinations", op->n_dst);
    pipe_op_as(&p->ldst_q[(p->ldst_head + p->ldst_n) % PIPES_LDST_WB_QUEUE], op, warp, tag);
    p->ldst_n++;
    return true;
}

bool pipes_idle(const struct pipes *p)
{
    if (p->ldst_n)
        return false;
    for (uint32_t u = 0; u < p->n_units; u++)
        if (p->units[u].n_inflight)
            return false;
    for (uint32_t m = 0; m < p->cfg.n_mem; m++)
        if (p->mem_valid[m])
            return false;
    return true;
}

void pipes_stats_register(struct pipes *p, struct stats *reg, const char *group, int instance)
{
    stats_counter(reg, group, instance, "wb", &p->st.wb, "SP/SFU instructions written back");
    stats_counter(reg, group, instance, "wb_ldst", &p->st.wb_ldst, "LD/ST instructions written back");
    stats_counter(reg, group, instance, "wb_width_stall", &p->st.wb_width_stall,
                  "ready results deferred by the writeback width (result-cycles)");
    stats_counter(reg, group, instance, "wb_bank_stall", &p->st.wb_bank_stall,
                  "ready results deferred by a busy destination bank (result-cycles)");
    stats_counter(reg, group, instance, "mem_dispatched", &p->st.mem_dispatched,
                  "MEM instructions handed to the LD/ST unit");
    stats_counter(reg, group, instance, "full_stall", &p->st.full_stall,
                  "dispatches refused because every slot of the pipe was taken");
    stats_counter(reg, group, instance, "resv_stall", &p->st.resv_stall,
                  "dispatches refused for want of a result-bus slot (pipes.wb_reserve)");
    for (int c = 0; c < PIPE_C_COUNT; c++) {
        char name[48];
        snprintf(name, sizeof name, "dispatched_%s", class_info[c].name);
        stats_counter(reg, group, instance, name, &p->st.by_class[c], "instructions dispatched of this class");
    }
}

void pipes_check(const struct pipes *p)
{
    for (uint32_t u = 0; u < p->n_units; u++) {
        uint32_t v = 0;
        for (uint32_t s = 0; s < PIPES_MAX_INFLIGHT; s++) {
            v += p->units[u].slot[s].valid;
            SIM_ASSERT(p->units[u].slot[s].valid == !!(p->units[u].valid_mask & (1u << s)),
                       "pipes: pipe %u slot %u valid bit wrong", u, s);
            /* a result left waiting by the last scan (width, bank) keeps wb_min at scan + 1 */
            SIM_ASSERT(!p->units[u].slot[s].valid || p->units[u].slot[s].done >= p->wb_min ||
                           p->wb_min == p->wb_scan + 1,
                       "pipes: result ready at %llu before the bound %llu (NOTE(wb-min))",
                       (unsigned long long)p->units[u].slot[s].done, (unsigned long long)p->wb_min);
        }
        SIM_ASSERT(v == p->units[u].n_inflight, "pipes: pipe %u holds %u slots, counter says %u", u, v,
                   p->units[u].n_inflight);
    }
    SIM_ASSERT(p->ldst_n <= PIPES_LDST_WB_QUEUE && p->ldst_head < PIPES_LDST_WB_QUEUE,
               "pipes: LD/ST writeback ring corrupt");
}
