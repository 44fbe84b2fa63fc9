/* sim/sm/lsu/ldst.c: the LD/ST unit of one SM (see ldst.h and docs/ldst.md).
 *
 * Structure: latch (1 memop) -> stage (one memop at a time: shared/param
 * timed, const/global/local issuing one access per cycle) -> in-flight slots
 * (completions from the L1D and the constant cache). Each tick runs back to
 * front (STYLE.md item 2): caches, completions, fences, stage finish, latch
 * into stage, stage issue; so a memop never moves two steps in one cycle
 * except latch -> stage -> first access, which is the one "LD/ST stage" cycle.
 *
 * NOTE(slots): sm.ldst_slots (default 64) instructions in flight. The spec gives no
 * limit of its own; the L1D's 32 MSHR entries x 8 merges and its 8-entry
 * miss queue bound the real concurrency, and 48 warps can each have one or
 * two memops outstanding. A full slot table stalls the stage (counted in
 * slot_stall), it never drops.
 *
 * NOTE(param-hit): ld.param is timed as constant-cache hits, one cycle per
 * distinct l1c line plus the l1c hit latency, without touching the l1c: the
 * parameter buffer is tiny, read by every warp and resident after the first
 * warp, and its bytes are not in device memory in gpusim (DESIGN.md 4).
 *
 * NOTE(shared-timing): a shared access occupies the stage for `degree`
 * cycles (spec 3.3: 1 cycle x conflict degree); its data is read or written
 * and its completion fires at entry + degree, so a degree-1 load pushed at t
 * completes at t + 2. Shared accesses are performed in stage order, which is
 * program order per warp.
 *
 * NOTE(fence): a fence takes one stage cycle. At cta scope it is then
 * done: the SM issued it only after the warp's earlier global accesses had
 * entered the latch, and from the latch on accesses reach the L1 in order
 * (docs/memmodel.md). At gpu/sys scope it waits in a slot until its warp
 * has no other instruction in flight and no unacknowledged store (spec 2.3
 * [proposal]: loads returned, stores and atomics acknowledged) and, for
 * cumulativity, until no older write of any warp of the SM is still
 * unacknowledged (a barrier before the fence made those writes
 * ordered-before it); then it invalidates the L1D's clean lines (its
 * acquire half) and completes. It does not block other warps. The SM does
 * not issue the warp's next instruction while the fence is in flight.
 *
 * NOTE(l1d-access-latency): with l1d.access_latency = A > 0 a global or
 * local access the stage presents at t enters an in-order queue of A
 * entries and reaches the L1D's tag check at t + A at the earliest, one per
 * cycle (GPGPU-Sim 4.x's l1_latency_queue with one bank, -gpgpu_l1_latency;
 * 3.x has none). The stage moves on as soon as its access is queued and
 * stalls only when the queue is full (aq_full); a reservation fail holds the
 * queue's head (aq_stall) and the entries behind it close up, as 4.x's shift
 * register does. Stores count as unacknowledged from the moment they are
 * queued (4.x: inc_store_req at the insert). An access that bypasses the
 * L1D (atomics, .cg/.cv/volatile loads) skips the delay but not the order:
 * with the queue empty it goes to the L1D at once, as in 4.x; otherwise it
 * waits behind the queued accesses (4.x sends it to the interconnect past
 * them; here the LD/ST path carries the data, so a warp's accesses stay in
 * program order). A = 0 is the 3.x timing, bit for bit. 4.x's default
 * l1_latency 1 already puts a hit's completion one cycle after the stage,
 * which l1d.hit_latency 1 gives here, so 4.x's L maps to A = L - 1
 * (gtx480-gpgpusim42: 34 for -gpgpu_l1_latency 35; its misses then reach
 * the tag check one cycle before 4.x's do).
 *
 * NOTE(release): a gpu-scope release store, reduction or atomic waits in
 * the latch until the same condition holds (own warp drained, no older
 * write of the SM unacknowledged), then proceeds as a plain access. Waiting
 * in the latch holds back the other warps' memory instructions behind it;
 * releases are rare (nvcc emits them only for cuda::atomic_ref and friends),
 * and the wait is counted in rel_stall.
 *
 * NOTE(acquire): a gpu-scope acquire load or atomic reads the L2 (it
 * bypasses the L1D) and, when its data is back, invalidates the L1D's clean
 * lines before it completes; the SM holds the warp until then, so no later
 * access of the warp can hit a line older than the acquire. With a coherent
 * L1D (coh.protocol = gtsc) nothing is invalidated: the acquire's reply
 * raised the warp's warp_ts, so a later load of an older copy misses its
 * lease (sim/sm/lsu/l1d_gtsc.c).
 */
#include "sim/sm/lsu/ldst.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/mem/ring.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/memorder.h"

enum { ST_L1D, ST_L1C, ST_TIMED };

void ldst_params_defaults(struct ldst_params *p)
{
    memset(p, 0, sizeof *p);
    l1d_cfg_defaults(&p->l1d);
    l1c_cfg_defaults(&p->l1c);
    coalesce_cfg_defaults(&p->coal);
    smem_banks_cfg_defaults(&p->smem);
    p->n_warps = 48; /* spec 1.2: 48 warp slots */
    p->n_slots = 64; /* sm.ldst_slots default */
}

void ldst_init(struct ldst *u, const struct ldst_params *p, const struct ldst_hooks *h, int sm_id)
{
    memset(u, 0, sizeof *u);
    SIM_ASSERT(p->n_warps >= 1 && p->n_warps <= LDST_MAX_WARPS, "ldst[%d]: %u warps", sm_id, p->n_warps);
    SIM_ASSERT(h->done != NULL, "ldst[%d]: no completion callback", sm_id);
    u->sm_id = sm_id;
    u->n_warps = p->n_warps;
    u->h = *h;
    coalescer_init(&u->coal, &p->coal);
    smem_banks_init(&u->smem, &p->smem);
    l1d_init(&u->l1d, &p->l1d, sm_id);
    l1ro_init(&u->l1c, &p->l1c, "l1c", sm_id);
    if (h->on_l1)
        l1d_set_event_hook(&u->l1d, h->on_l1, h->ctx);
    u->l1c_line = (uint32_t)p->l1c.line;
    u->l1c_hit = (uint32_t)p->l1c.hit_latency;
    u->st_slot = -1;
    SIM_ASSERT(p->n_slots >= 1 && p->n_slots <= LDST_ID_CONST / LDST_MAX_SUB, "ldst[%d]: %u slots", sm_id, p->n_slots);
    u->n_slots = p->n_slots;
    u->slots = xcalloc(u->n_slots, sizeof *u->slots);
    u->free_stack = xcalloc(u->n_slots, sizeof *u->free_stack);
    u->slot_la = xcalloc(u->n_slots, sizeof *u->slot_la);
    for (uint32_t i = 0; i < u->n_slots; i++)
        u->free_stack[i] = u->n_slots - 1 - i; /* pop gives slot 0 first */
    u->n_free = u->n_slots;
    u->smem_extra = (uint32_t)(p->smem.latency - 1);
    u->sd_slot = xcalloc(u->n_slots, sizeof *u->sd_slot);
    u->sd_due = xcalloc(u->n_slots, sizeof *u->sd_due);
    u->aq_lat = (uint32_t)p->l1d.access_latency;
    if (u->aq_lat) {
        u->aq = xcalloc(u->aq_lat, sizeof *u->aq);
        u->aq_due = xcalloc(u->aq_lat, sizeof *u->aq_due);
    }
}

void ldst_fini(struct ldst *u)
{
    l1d_fini(&u->l1d);
    l1ro_fini(&u->l1c);
    free(u->slots);
    free(u->free_stack);
    free(u->slot_la);
    free(u->sd_slot);
    free(u->sd_due);
    free(u->aq);
    free(u->aq_due);
    u->aq = NULL;
    u->aq_due = NULL;
    u->slots = NULL;
    u->free_stack = NULL;
    u->slot_la = NULL;
}

/* ------------------------------------------------------------- input */

bool ldst_can_accept(const struct ldst *u) { return !u->latch_valid; }

bool ldst_push(struct ldst *u, const struct memop *op, cycle_t cycle)
{
    if (u->latch_valid)
        return false;
    SIM_ASSERT(op->warp < u->n_warps, "ldst[%d]: warp %u of %u", u->sm_id, op->warp, u->n_warps);
    SIM_ASSERT(op->kind <= MEMOP_FENCE && op->space <= MEMOP_PARAM, "ldst[%d]: bad memop kind %u space %u",
               u->sm_id, op->kind, op->space);
    u->latch = op;
    u->latch_valid = true;
    u->latch_ready = cycle + 1;
    u->w_inflight[op->warp]++;
    if (op->kind != MEMOP_FENCE)
        u->w_mem[op->warp]++;
    if (op->kind == MEMOP_FENCE)
        u->st.fences++;
    else
        u->st.insts[op->space]++;
    return true;
}

/* ------------------------------------------------------------- requests and replies */

bool ldst_pop_req(struct ldst *u, struct mem_req *out, cycle_t cycle)
{
    const struct mem_req *d = l1d_peek_req(&u->l1d, cycle);
    const struct mem_req *c = l1ro_peek_req(&u->l1c, cycle);
    if (ldst_req_takes_c(u, d, c)) {
        if (!l1ro_pop_req(&u->l1c, out, cycle))
            return false;
        SIM_ASSERT(out->id < LDST_ID_CONST, "ldst[%d]: l1c id 0x%x", u->sm_id, out->id);
        out->id |= LDST_ID_CONST;
        u->rr_req = 0;
        return true;
    }
    if (d && l1d_pop_req(&u->l1d, out, cycle)) {
        u->rr_req = 1;
        return true;
    }
    return false;
}

static bool reply_is_const(const struct mem_reply *rep)
{
    return !(rep->id & L1D_ID_FILL) && (rep->id & LDST_ID_CONST);
}

bool ldst_can_accept_reply(const struct ldst *u, const struct mem_reply *rep)
{
    if (reply_is_const(rep))
        return u->l1c.rx_r.n < u->l1c.rx_r.cap;
    return l1d_can_accept_reply(&u->l1d);
}

bool ldst_push_reply(struct ldst *u, const struct mem_reply *rep, cycle_t cycle)
{
    if (reply_is_const(rep)) {
        struct mem_reply r = *rep;
        r.id &= ~LDST_ID_CONST;
        return l1ro_push_reply(&u->l1c, &r, cycle);
    }
    return l1d_push_reply(&u->l1d, rep, cycle);
}

/* ------------------------------------------------------------- completion */

static bool kind_is_store(uint8_t kind) { return kind == MEMOP_STORE || kind == MEMOP_RED; }

static bool kind_writes(uint8_t kind) { return kind == MEMOP_STORE || kind == MEMOP_RED || kind == MEMOP_ATOMIC; }

/* Acquire half of a gpu-scope acquire or fence (NOTE(acquire)). */
static void acquire_invalidate(struct ldst *u, cycle_t cycle)
{
    if (l1d_coherent(&u->l1d)) /* G-TSC: leases order the warp's later loads (NOTE(l1d-gtsc)) */
        return;
    l1d_invalidate_clean(&u->l1d, cycle);
    u->st.acq_inval++;
}

/* Release condition (NOTE(fence), NOTE(release)): warp w has no instruction
 * in flight but `self` (its count in w_inflight), no unacknowledged store,
 * and no write older than seq of any warp is unacknowledged. */
static bool release_ok(const struct ldst *u, uint32_t w, uint32_t self, uint64_t seq)
{
    if (u->w_inflight[w] != self || u->w_stores[w] != 0)
        return false;
    if (u->n_free == u->n_slots)
        return true;
    for (uint32_t i = 0; i < u->n_slots; i++) {
        const struct ldst_slot *s = &u->slots[i];
        if (s->used && kind_writes(s->kind) && s->op->seq < seq)
            return false;
    }
    return true;
}

/* TC-Weak (NOTE(l1d-tc)): a gpu-scope fence or release completes only once
 * the SM's GWCT has passed; otherwise *wake is lowered to the cycle it does. */
static bool tc_time_ok(struct ldst *u, cycle_t cycle, uint64_t *wake)
{
    if (!u->l1d.tc)
        return true;
    uint64_t c = l1d_tc_fence_cycle(&u->l1d, cycle);
    if (c <= cycle)
        return true;
    *wake = MIN(*wake, c);
    return false;
}

static void finish_slot(struct ldst *u, uint32_t si, cycle_t cycle)
{
    struct ldst_slot *s = &u->slots[si];
    const struct memop *op = s->op;
    bool data = op->kind == MEMOP_LOAD || op->kind == MEMOP_ATOMIC;
    if (op->kind == MEMOP_FENCE && (op->order & MO_ORD_REL_GPU) && u->l1d.g)
        l1d_gtsc_fence(&u->l1d, op->warp); /* NOTE(gtsc-sync) */
    if (op->order & MO_ORD_ACQ_GPU)
        acquire_invalidate(u, cycle);
    if (data)
        stat_avg_add(&u->st.load_lat[op->space], cycle - s->t_start);
    SIM_ASSERT(u->w_inflight[op->warp] > 0, "ldst[%d]: warp %u in-flight underflow", u->sm_id, op->warp);
    u->w_inflight[op->warp]--;
    if (op->kind == MEMOP_FENCE)
        u->n_fences--;
    else
        u->w_mem[op->warp]--;
    s->used = false;
    u->free_stack[u->n_free++] = si;
    /* The callback may push the next memop (it sees a consistent unit). */
    u->h.done(u->h.ctx, op, data ? &s->res : NULL, cycle);
}

static void sub_done(struct ldst *u, uint32_t token, cycle_t cycle)
{
    uint32_t si = token / LDST_MAX_SUB;
    struct ldst_slot *s = &u->slots[si];
    SIM_ASSERT(si < u->n_slots && s->used && s->n_done < s->n_sub, "ldst[%d]: stray completion token %u",
               u->sm_id, token);
    if (kind_is_store(s->kind)) {
        SIM_ASSERT(u->w_stores[s->op->warp] > 0, "ldst[%d]: warp %u store-ack underflow", u->sm_id, s->op->warp);
        u->w_stores[s->op->warp]--;
        u->st.store_acks++;
    }
    if (++s->n_done == s->n_sub)
        finish_slot(u, si, cycle);
}

static void on_l1d_done(struct ldst *u, const struct l1d_done *d, cycle_t cycle)
{
    uint32_t si = d->token / LDST_MAX_SUB, k = d->token % LDST_MAX_SUB;
    SIM_ASSERT(si < u->n_slots, "ldst[%d]: token %u", u->sm_id, d->token);
    struct ldst_slot *s = &u->slots[si];
    uint32_t lanes = s->sub_lanes[k];
    unsigned size = s->size;
    if (s->kind == MEMOP_LOAD) {
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            memcpy(s->res.data[lane], d->data + (s->la[lane] - s->sub_line[k]), size);
        }
    } else if (s->kind == MEMOP_ATOMIC) { /* old value of the j-th lane at data[j * es] (memreq.h) */
        uint32_t j = 0;
        for (uint32_t m = lanes; m; m &= m - 1, j++)
            memcpy(s->res.data[__builtin_ctz(m)], d->data + j * size, size);
    }
    sub_done(u, d->token, cycle);
}

static void on_l1c_done(struct ldst *u, const struct l1ro_done *d, cycle_t cycle)
{
    uint32_t si = d->token / LDST_MAX_SUB, k = d->token % LDST_MAX_SUB;
    SIM_ASSERT(si < u->n_slots, "ldst[%d]: const token %u", u->sm_id, d->token);
    struct ldst_slot *s = &u->slots[si];
    for (uint32_t m = s->sub_lanes[k]; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        memcpy(s->res.data[lane], d->data + (s->la[lane] - d->line_addr), s->size);
    }
    sub_done(u, d->token, cycle);
}

/* NOTE(hooks-at-issue): a NULL smem_rw / param_rd hook means the owner
 * moved the data of that space at issue (the SM does): no per-lane work,
 * and the result bytes of such loads are left unspecified. */
static inline bool moves_data(const struct ldst *u, const struct memop *op)
{
    if (op->space == MEMOP_SHARED)
        return u->h.smem_rw != NULL;
    if (op->space == MEMOP_PARAM)
        return u->h.param_rd != NULL;
    return true;
}

/* Shared / param data at the end of their timed stage. */
static void timed_finish(struct ldst *u, uint32_t si, cycle_t cycle)
{
    struct ldst_slot *s = &u->slots[si];
    const struct memop *op = s->op;
    bool timed = op->space == MEMOP_SHARED || op->space == MEMOP_PARAM;
    for (uint32_t m = timed && moves_data(u, op) ? op->active : 0; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        if (op->space == MEMOP_SHARED) {
            bool wr = op->kind == MEMOP_STORE;
            /* a write only reads buf (the caller's storage is writable: NOTE(memop-ref)) */
            u->h.smem_rw(u->h.ctx, op->warp, op->addr[lane], op->size, wr,
                         wr ? (uint8_t *)(uintptr_t)op->data[lane] : s->res.data[lane]);
        } else if (op->space == MEMOP_PARAM) {
            u->h.param_rd(u->h.ctx, op->warp, op->addr[op->uniform ? 0 : lane], op->size, s->res.data[lane]);
        }
    }
    if (op->space == MEMOP_SHARED && u->smem_extra) {
        /* NOTE(smem-latency): the data moved now (stage order = program order
         * per warp); completion waits smem.latency - 1 cycles in a FIFO that
         * holds the slot but not the stage (pipelined). */
        uint32_t t = ring_wrap(u->sd_head + u->sd_n, u->n_slots);
        u->sd_slot[t] = si;
        u->sd_due[t] = cycle + u->smem_extra;
        u->sd_n++;
        return;
    }
    finish_slot(u, si, cycle);
}

/* ------------------------------------------------------------- stage */

/* Split the coalescer's transactions into accesses: one per transaction, or
 * for atomics and reductions in chunks of mem_atom_max_lanes lanes (lane order). */
static void build_global_subs(struct ldst *u, struct ldst_slot *s)
{
    struct coal_txn txn[COAL_MAX_TXN];
    struct coal_req cr = {
        .addr = s->la,
        .active = s->op->active,
        .size = s->op->size,
        .op = s->op->kind == MEMOP_LOAD ? COAL_LOAD : s->op->kind == MEMOP_STORE ? COAL_STORE : COAL_ATOMIC,
        .cache_op = u->l1d.enabled ? s->op->cache_op : MEMOP_CO_CG, /* NOTE(l1d-off) in l1d.c */
    };
    unsigned n = coalescer_run(&u->coal, &cr, txn);
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (cr.op != COAL_ATOMIC) {
            u->st_txn[k] = txn[i];
            s->sub_line[k] = txn[i].line_addr;
            s->sub_lanes[k++] = txn[i].lanes;
            continue;
        }
        uint32_t maxl = mem_atom_max_lanes(s->op->size, s->op->aop == PTX_AOP_CAS);
        uint32_t rest = txn[i].lanes;
        while (rest) {
            uint32_t chunk = 0;
            for (uint32_t j = 0; j < maxl && rest; j++) {
                chunk |= rest & -rest;
                rest &= rest - 1;
            }
            SIM_ASSERT(k < LDST_MAX_SUB, "ldst[%d]: too many atomic requests", u->sm_id);
            u->st_txn[k] = txn[i];
            u->st_txn[k].lanes = chunk;
            s->sub_line[k] = txn[i].line_addr;
            s->sub_lanes[k++] = chunk;
        }
    }
    s->n_sub = (uint8_t)k;
}

static void build_const_subs(struct ldst *u, struct ldst_slot *s)
{
    uint64_t mask = ~(uint64_t)(u->l1c_line - 1);
    /* NOTE(const-uniform): the common case, every lane in the first lane's
     * line (a uniform or warp-local constant read), is one pass without
     * the search below; it gives the same single access. */
    uint32_t act = s->op->active;
    if (act && s->op->uniform) { /* NOTE(param-uniform) in memop.h: addr[0] is every lane's */
        s->sub_line[0] = s->la[0] & mask;
        s->sub_lanes[0] = act;
        s->n_sub = 1;
        return;
    }
    if (act) {
        uint64_t first = s->la[__builtin_ctz(act)] & mask, diff = 0;
        for (uint32_t m = act; m; m &= m - 1)
            diff |= (s->la[__builtin_ctz(m)] & mask) ^ first;
        if (!diff) {
            s->sub_line[0] = first;
            s->sub_lanes[0] = act;
            s->n_sub = 1;
            return;
        }
    }
    unsigned k = 0;
    for (uint32_t m = s->op->active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t line = s->la[lane] & mask;
        unsigned j = 0;
        while (j < k && s->sub_line[j] != line)
            j++;
        if (j == k) {
            s->sub_line[k] = line;
            s->sub_lanes[k++] = 0;
        }
        s->sub_lanes[j] |= 1u << lane;
    }
    s->n_sub = (uint8_t)k;
}

static void stage_enter(struct ldst *u, cycle_t cycle)
{
    uint32_t si = u->free_stack[--u->n_free];
    struct ldst_slot *s = &u->slots[si];
    s->op = u->latch; /* NOTE(memop-ref): the SM's storage, not a copy */
    u->latch_valid = false;
    s->used = true;
    s->t_start = cycle;
    s->n_sub = 0;
    s->n_done = 0;
    const struct memop *op = s->op;
    s->kind = op->kind;
    s->size = op->size;
    /* result bytes defined (zero where no lane wrote) wherever the
     * completion callback reads them (NOTE(hooks-at-issue)) */
    if ((op->kind == MEMOP_LOAD || op->kind == MEMOP_ATOMIC) && moves_data(u, op))
        memset(&s->res, 0, sizeof s->res);
    /* Device addresses of the lanes for the coalescer and the data moves:
     * the instruction's own for every space but local, whose window
     * offsets are mapped here (NOTE(memop-ref): no copy). */
    s->la = op->addr;
    if (op->space == MEMOP_LOCAL) {
        for (uint32_t m = op->active; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            s->lane_addr[lane] = u->h.local_addr(u->h.ctx, op->warp, lane, op->addr[lane]);
        }
        s->la = s->lane_addr;
    }
    u->slot_la[si] = s->la;
    u->st_slot = (int32_t)si;
    u->st_next = 0;
    u->st_acc_built = false;
    if (op->kind == MEMOP_FENCE) {
        u->n_fences++;
        u->st_slot = -1; /* NOTE(fence): one stage cycle, then it waits in its slot */
        return;
    }
    switch (op->space) {
    case MEMOP_SHARED: {
        SIM_ASSERT(op->kind == MEMOP_LOAD || op->kind == MEMOP_STORE,
                   "ldst[%d]: shared-memory atomics are not modelled (docs/ldst.md)", u->sm_id);
        unsigned d = smem_banks_cycles(&u->smem, op->active, op->addr, op->size, false);
        unsigned dmin = smem_banks_min_cycles(&u->smem, op->active, op->size);
        u->st.smem_cycles += d;
        u->st.smem_conflict_cycles += d - dmin;
        u->st_kind = ST_TIMED;
        u->st_until = cycle + (d ? d : 1);
        return;
    }
    case MEMOP_PARAM:
        build_const_subs(u, s); /* only to count the distinct lines */
        u->st_kind = ST_TIMED;
        u->st_until = cycle + (s->n_sub ? s->n_sub - 1u : 0u) + u->l1c_hit;
        s->n_sub = 0;
        return;
    case MEMOP_CONST:
        SIM_ASSERT(op->kind == MEMOP_LOAD, "ldst[%d]: constant space is read-only", u->sm_id);
        build_const_subs(u, s);
        u->st_kind = ST_L1C;
        break;
    default: /* global, local */
        build_global_subs(u, s);
        u->st_kind = ST_L1D;
        break;
    }
    if (s->n_sub == 0) { /* no active lane: completes one cycle later, touching nothing */
        u->st_kind = ST_TIMED;
        u->st_until = cycle + 1;
    }
}

static void build_acc(struct ldst *u, const struct ldst_slot *s, uint32_t si)
{
    struct l1d_acc *a = &u->st_acc;
    uint32_t k = u->st_next;
    const struct memop *op = s->op;
    memset(a, 0, sizeof *a);
    u->fm_valid = false; /* a new access (NOTE(fail-memo)) */
    a->txn = u->st_txn[k];
    a->token = si * LDST_MAX_SUB + k;
    a->is_local = op->space == MEMOP_LOCAL;
    a->warp = (uint16_t)op->warp;
    a->cta = op->cta;
    uint64_t line = s->sub_line[k];
    if (op->kind == MEMOP_STORE) {
        for (uint32_t m = s->sub_lanes[k]; m; m &= m - 1) { /* lane order: a higher lane's byte wins */
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            memcpy(a->data + (s->la[lane] - line), op->data[lane], op->size);
        }
    } else if (op->kind == MEMOP_ATOMIC || op->kind == MEMOP_RED) {
        bool cas = op->aop == PTX_AOP_CAS;
        uint32_t es = op->size, stride = cas ? 2 * es : es, j = 0;
        a->atom.aop = op->aop;
        a->atom.type = op->atype;
        for (uint32_t m = s->sub_lanes[k]; m; m &= m - 1, j++) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            a->atom.off[j] = (uint8_t)(s->la[lane] - line);
            memcpy(a->data + j * stride, op->data[lane], cas ? 2 * es : es);
        }
        a->atom.n_lanes = (uint8_t)j;
    }
    u->st_acc_built = true;
}

/* One access reaches the L1D's tag check at `cycle` (from the stage or from
 * the head of the access queue). */
static inline __attribute__((always_inline)) enum l1d_result l1d_present(struct ldst *u, struct l1d_acc *a,
                                                                          cycle_t cycle)
{
    enum l1d_result r = l1d_access(&u->l1d, a, cycle, NULL);
    u->st.l1d_res[r]++;
    if (r != L1D_FAIL)
        u->st.txns++;
    return r;
}

/* Queue the stage's access (NOTE(l1d-access-latency)); false when full.
 * Out of line, with aq_head below: the 3.x path (A = 0) stays as it was. */
static __attribute__((noinline)) bool aq_push(struct ldst *u, cycle_t cycle)
{
    const struct l1d_acc *a = &u->st_acc;
    if (a->txn.l1_bypass && u->aq_n == 0) {
        if (l1d_present(u, &u->st_acc, cycle) != L1D_FAIL)
            return true;
        u->st.rf_cycles++;
        return false;
    }
    if (u->aq_n == u->aq_lat) {
        u->st.aq_full++;
        return false;
    }
    uint32_t k = ring_wrap(u->aq_head + u->aq_n, u->aq_lat);
    u->aq[k] = *a;
    u->aq_due[k] = a->txn.l1_bypass ? cycle : cycle + u->aq_lat;
    u->aq_n++;
    return true;
}

/* The queue's head reaches the tag check at `cycle`. */
static __attribute__((noinline)) void aq_head(struct ldst *u, cycle_t cycle)
{
    if (l1d_present(u, &u->aq[u->aq_head], cycle) == L1D_FAIL) {
        u->st.aq_stall++;
        return;
    }
    u->aq_head = ring_wrap(u->aq_head + 1, u->aq_lat);
    u->aq_n--;
}

/* NOTE(fail-memo): the stage presents the same access every cycle until
 * the L1D takes it. When it failed for a cause that repeats (l1d.h) and
 * the L1D's gen has not moved since, the attempt is not made again: the
 * counters a failed attempt changes (the L1D's reservation fail by cause,
 * l1d_res[FAIL], rf_cycles) are charged as the attempt would have charged
 * them, and the LD/ST unit does not ask to be ticked for it. gen only
 * moves inside SM ticks (an access taken, a request popped, a reply pushed
 * or processed, a completion popped, a flush or invalidation), so in
 * pipeline cycles the SM skipped every attempt would have failed the same
 * way; they are charged at the start of the next tick (ldst_catch_up, which
 * the SM calls before it hands replies to the L1D). Paranoid
 * builds make every memoised attempt for real and panic when its outcome
 * differs. */
/* The stage holds an L1D access whose memoised failure is still valid. */
static bool stage_parked(const struct ldst *u)
{
    return u->st_slot >= 0 && u->st_kind == ST_L1D && u->fm_valid && u->fm_gen == u->l1d.gen;
}

bool ldst_stage_retry(const struct ldst *u) { return u->st_slot >= 0 && u->st_kind == ST_L1D && !stage_parked(u); }

/* Charge the memoised failure for the attempts of cycles [from, to): as
 * counts, or (paranoid builds) by making each attempt for real. */
static void fm_repeat(struct ldst *u, cycle_t from, cycle_t to)
{
#ifdef GPUSIM_PARANOID
    for (cycle_t c = from; c < to; c++) {
        enum l1d_rf_cause why = L1D_RF_PORT;
        if (l1d_access(&u->l1d, &u->st_acc, c, &why) != L1D_FAIL || why != u->fm_cause)
            sim_panic("ldst[%d]: the attempt at %llu would not fail as memoised (cause %u, got %u)", u->sm_id,
                      (unsigned long long)c, u->fm_cause, (unsigned)why);
    }
#else
    l1d_count_fails(&u->l1d, (enum l1d_rf_cause)u->fm_cause, to - from);
#endif
    u->st.l1d_res[L1D_FAIL] += to - from;
}

/* At the start of a tick at `cycle`, before anything reaches the L1D: the
 * attempts of the skipped cycles. */
void ldst_catch_up(struct ldst *u, cycle_t cycle)
{
    if (stage_parked(u) && cycle > u->fm_cycle + 1) {
        fm_repeat(u, u->fm_cycle + 1, cycle);
        u->st.rf_cycles += cycle - u->fm_cycle - 1;
        u->fm_cycle = cycle - 1;
    }
}

/* The stage's access at the L1D (no access queue): true when taken. */
static bool stage_l1d(struct ldst *u, cycle_t cycle)
{
    if (u->fm_valid && u->fm_gen == u->l1d.gen) {
        fm_repeat(u, cycle, cycle + 1); /* the caller counts rf_cycles */
        u->fm_cycle = cycle;
        return false;
    }
    enum l1d_rf_cause why = L1D_RF_PORT;
    enum l1d_result r = l1d_access(&u->l1d, &u->st_acc, cycle, &why);
    u->st.l1d_res[r]++;
    if (r != L1D_FAIL) {
        u->st.txns++;
        u->fm_valid = false;
        return true;
    }
    u->fm_valid = l1d_fail_repeats(&u->l1d, why);
    u->fm_cause = (uint8_t)why;
    u->fm_gen = u->l1d.gen;
    u->fm_cycle = cycle;
    return false;
}

/* Present the stage's next access; returns true when a cache was called. */
static bool stage_issue(struct ldst *u, cycle_t cycle)
{
    uint32_t si = (uint32_t)u->st_slot;
    struct ldst_slot *s = &u->slots[si];
    bool ok;
    if (u->st_kind == ST_L1D) {
        if (!u->st_acc_built)
            build_acc(u, s, si);
        if (u->aq_lat) {
            if (!aq_push(u, cycle))
                return true; /* queue full or a bypassing access failed: retried next cycle */
            ok = true;
        } else {
            ok = stage_l1d(u, cycle);
        }
        if (ok && kind_is_store(s->kind)) {
            uint32_t w = s->op->warp;
            u->w_stores[w]++;
            if (u->w_stores[w] > u->st.pending_stores_max)
                u->st.pending_stores_max = u->w_stores[w];
        }
    } else {
        uint32_t k = u->st_next;
        ok = l1ro_access_id(&u->l1c, s->sub_line[k], si * LDST_MAX_SUB + k, (uint16_t)s->op->warp, s->op->cta, cycle,
                            NULL) != L1RO_FAIL;
        if (ok)
            u->st.const_accesses++;
    }
    if (!ok) {
        u->st.rf_cycles++;
        return true;
    }
    u->st_acc_built = false;
    if (++u->st_next == s->n_sub)
        u->st_slot = -1; /* all accesses presented: the slot waits for its completions */
    return true;
}

/* ------------------------------------------------------------- tick */

uint64_t ldst_tick(struct ldst *u, cycle_t cycle)
{
    SIM_ASSERT(u->n_free <= u->n_slots, "ldst[%d]: free stack %u", u->sm_id, u->n_free);
    uint64_t next = CYCLE_NEVER;
    bool busy = false; /* a cache was called after its tick: it needs cycle + 1 */
    ldst_catch_up(u, cycle); /* NOTE(fail-memo): before the L1D's tick can move gen */

    /* 1. caches first: their outputs of this cycle become visible */
    uint64_t n1 = l1d_tick(&u->l1d, cycle);
    uint64_t n2 = l1ro_tick(&u->l1c, cycle);
    next = MIN(n1, n2);

    /* 1b. the access queue's head reaches the tag check (NOTE(l1d-access-latency)) */
    if (u->aq_n && u->aq_due[u->aq_head] <= cycle) {
        aq_head(u, cycle);
        busy = true;
    }

    /* 2. completions (writeback end of the unit) */
    struct l1d_done dd;
    while (l1d_pop_done(&u->l1d, &dd, cycle)) {
        on_l1d_done(u, &dd, cycle);
        busy = true;
    }
    /* NOTE(slot-prefetch): a completion's slot was last touched hundreds of
     * cycles ago at issue and is cold (perf: the read of sub_lanes[k] in
     * on_l1d_done was 8.5 % of this function's samples in bfs); the lines
     * the next completions will read are asked for now, a pipeline step
     * ahead. A hint only. */
    uint32_t tok[2];
    for (unsigned i = 0, n = l1d_peek_done_tokens(&u->l1d, tok); i < n; i++) {
        uint32_t si = tok[i] / LDST_MAX_SUB, k = tok[i] % LDST_MAX_SUB;
        if (si >= u->n_slots)
            continue;
        const struct ldst_slot *s = &u->slots[si];
        __builtin_prefetch(s); /* op, la, kind, size, counters */
        __builtin_prefetch(&s->sub_line[k]);
        __builtin_prefetch(&s->sub_lanes[k]);
        for (unsigned b = 0; b < sizeof s->lane_addr; b += 64) /* no load of the (cold) slot */
            __builtin_prefetch((const char *)u->slot_la[si] + b);
    }
    struct l1ro_done cd;
    while (l1ro_pop_done(&u->l1c, &cd, cycle)) {
        on_l1c_done(u, &cd, cycle);
        busy = true;
    }

    /* 2b. shared accesses whose smem.latency has passed (NOTE(smem-latency)) */
    while (u->sd_n && u->sd_due[u->sd_head] <= cycle) {
        uint32_t si = u->sd_slot[u->sd_head];
        u->sd_head = ring_wrap(u->sd_head + 1, u->n_slots);
        u->sd_n--;
        finish_slot(u, si, cycle);
    }

    /* 3. fences whose release condition holds (NOTE(fence)); under TC-Weak
     * also the SM's GWCT (NOTE(l1d-tc)): tc_wake is the cycle it passes */
    uint64_t tc_wake = CYCLE_NEVER;
    if (u->n_fences) {
        for (uint32_t i = 0; i < u->n_slots && u->n_fences; i++) {
            const struct ldst_slot *s = &u->slots[i];
            if (!s->used || s->kind != MEMOP_FENCE || (int32_t)i == u->st_slot)
                continue;
            if (!(s->op->order & MO_ORD_REL_GPU) || (release_ok(u, s->op->warp, 1, s->op->seq) &&
                                                    tc_time_ok(u, cycle, &tc_wake)))
                finish_slot(u, i, cycle);
        }
    }

    /* 4. a timed stage (shared, param, empty) finishes */
    if (u->st_slot >= 0 && u->st_kind == ST_TIMED && u->st_until <= cycle) {
        uint32_t si = (uint32_t)u->st_slot;
        u->st_slot = -1;
        timed_finish(u, si, cycle);
    }

    /* 5. latch into an empty stage, then the stage's access of this cycle */
    bool rel_wait = false;
    if (u->st_slot < 0 && u->latch_valid && u->latch_ready <= cycle && u->latch->kind != MEMOP_FENCE &&
        (u->latch->order & MO_ORD_REL_GPU) &&
        (!release_ok(u, u->latch->warp, 1, u->latch->seq) || !tc_time_ok(u, cycle, &tc_wake))) {
        u->st.rel_stall++;
        rel_wait = true; /* retried next cycle (NOTE(release)) */
    }
    if (u->st_slot < 0 && u->latch_valid && u->latch_ready <= cycle && !rel_wait) {
        if (u->n_free > 0) {
            bool fence = u->latch->kind == MEMOP_FENCE;
            if (!fence && (u->latch->order & MO_ORD_REL_GPU) && u->l1d.g)
                l1d_gtsc_fence(&u->l1d, u->latch->warp); /* a release store: NOTE(gtsc-sync) */
            stage_enter(u, cycle);
            if (fence)
                busy = true; /* checked at cycle + 1 */
        } else {
            u->st.slot_stall++;
        }
    }
    if (u->st_slot >= 0 && u->st_kind != ST_TIMED)
        busy |= stage_issue(u, cycle);
    bool parked = stage_parked(u); /* NOTE(fail-memo): no retry needed until gen moves */
    if (parked)
        busy = false; /* the L1D was called, but only to fail: nothing of it is due at cycle + 1 */

    if (busy || rel_wait)
        next = cycle + 1;
    next = MIN(next, tc_wake);
    if (u->st_slot >= 0 && !parked)
        next = MIN(next, u->st_kind == ST_TIMED ? u->st_until : cycle + 1);
    if (u->latch_valid && u->st_slot < 0) /* behind an occupied stage it moves when the stage does */
        next = MIN(next, MAX(u->latch_ready, cycle + 1));
    if (u->sd_n)
        next = MIN(next, MAX(u->sd_due[u->sd_head], cycle + 1));
    if (u->aq_n)
        next = MIN(next, MAX(u->aq_due[u->aq_head], cycle + 1));
    if (next <= cycle)
        next = cycle + 1;
    return next;
}

/* ------------------------------------------------------------- queries */

uint32_t ldst_warp_pending(const struct ldst *u, uint32_t warp)
{
    SIM_ASSERT(warp < u->n_warps, "ldst[%d]: warp %u", u->sm_id, warp);
    return u->w_inflight[warp];
}

uint32_t ldst_warp_pending_stores(const struct ldst *u, uint32_t warp)
{
    SIM_ASSERT(warp < u->n_warps, "ldst[%d]: warp %u", u->sm_id, warp);
    return u->w_stores[warp];
}

bool ldst_idle(const struct ldst *u)
{
    return !u->latch_valid && u->st_slot < 0 && u->n_free == u->n_slots && u->aq_n == 0 && l1d_idle(&u->l1d) &&
           l1ro_idle(&u->l1c);
}

/* ------------------------------------------------------------- statistics */

static const char *const space_name[5] = {"global", "const", "shared", "local", "param"};

void ldst_stats_register(struct ldst *u, struct stats *s)
{
    static const char *const inst_names[5] = {"insts_global", "insts_const", "insts_shared", "insts_local",
                                              "insts_param"};
    static const char *const lat_names[5] = {"load_lat_global", "load_lat_const", "load_lat_shared",
                                             "load_lat_local", "load_lat_param"};
    static const char *const res_names[5] = {"l1d_hit", "l1d_miss", "l1d_merged", "l1d_sent", "l1d_fail"};
    const char *g = "ldst";
    int i = u->sm_id;
    for (int k = 0; k < 5; k++) {
        stats_counter(s, g, i, inst_names[k], &u->st.insts[k], "warp memory instructions accepted, by space");
        stats_avg(s, g, i, lat_names[k], &u->st.load_lat[k],
                  "core cycles from LD/ST stage entry to completion, loads and atomics, by space");
        stats_counter(s, g, i, res_names[k], &u->st.l1d_res[k], "L1D access results (fail = per retry)");
    }
    stats_counter(s, g, i, "fences", &u->st.fences, "fences (membar) accepted");
    stats_counter(s, g, i, "txns", &u->st.txns, "global/local accesses accepted by the L1D");
    stats_counter(s, g, i, "const_accesses", &u->st.const_accesses, "constant-cache accesses accepted");
    stats_counter(s, g, i, "rf_cycles", &u->st.rf_cycles, "stage cycles lost to L1D/l1c reservation fails");
    if (u->aq_lat) { /* only with the queue: the 3.x statistics stay as they were */
        stats_counter(s, g, i, "aq_full", &u->st.aq_full,
                      "stage cycles lost to a full L1D access queue (l1d.access_latency)");
        stats_counter(s, g, i, "aq_stall", &u->st.aq_stall,
                      "cycles the L1D access queue's head retried a reservation fail");
    }
    stats_counter(s, g, i, "smem_cycles", &u->st.smem_cycles, "shared-memory stage cycles (sum of degrees)");
    stats_counter(s, g, i, "smem_conflict_cycles", &u->st.smem_conflict_cycles,
                  "shared-memory cycles above the conflict-free minimum");
    stats_counter(s, g, i, "slot_stall", &u->st.slot_stall, "cycles the latch waited for a free in-flight slot");
    stats_counter(s, g, i, "store_acks", &u->st.store_acks, "store/reduction transactions acknowledged");
    stats_max(s, g, i, "pending_stores_max", &u->st.pending_stores_max,
              "largest per-warp count of unacknowledged stores");
    stats_counter(s, g, i, "rel_stall", &u->st.rel_stall,
                  "cycles a gpu-scope release waited in the latch for earlier writes (docs/memmodel.md)");
    stats_counter(s, g, i, "acq_inval", &u->st.acq_inval,
                  "L1D clean-line invalidations by gpu-scope acquires and fences (docs/memmodel.md)");
    l1d_stats_register(&u->l1d, s);
    l1ro_stats_register(&u->l1c, s);
}

void ldst_stats_dump(const struct ldst *u, FILE *out)
{
    const struct ldst_stats *s = &u->st;
    fprintf(out, "ldst[%d]:", u->sm_id);
    for (int k = 0; k < 5; k++)
        fprintf(out, " %s %llu (lat %.1f)", space_name[k], (unsigned long long)s->insts[k],
                s->load_lat[k].count ? (double)s->load_lat[k].sum / (double)s->load_lat[k].count : 0.0);
    fprintf(out, " fences %llu txns %llu const %llu rf_cycles %llu smem_conflict %llu store_acks %llu "
                 "pending_stores_max %llu\n",
            (unsigned long long)s->fences, (unsigned long long)s->txns, (unsigned long long)s->const_accesses,
            (unsigned long long)s->rf_cycles, (unsigned long long)s->smem_conflict_cycles,
            (unsigned long long)s->store_acks, (unsigned long long)s->pending_stores_max);
    l1d_stats_dump(&u->l1d, out);
    l1ro_stats_dump(&u->l1c, out);
}
