/* partitions/mempart/mempart.c: memory partition = 2 L2 slices + 1 DRAM channel +
 * admission, credits and the return path. See mempart.h for what is
 * modelled and docs/mempart.md for the decisions.
 *
 * Stage order inside mempart_tick_dram, back to front (STYLE.md item 2), so
 * a request moves at most one stage per DRAM cycle:
 *   1. dram_tick: retire, schedule, issue, delay line -> scheduler queue;
 *   2. write completions counted by the DRAM give their credits back;
 *   3. return path: the return-queue head enters its DRAM->L2 queue (one per
 *      cycle), giving its credit back;
 *   4. admission: one request from the L2->DRAM queues, round-robin.
 * Credits freed in 2 and 3 can be used by 4 in the same cycle, and a read
 * that enters the return queue in 1 can leave it in 3 (l2.h/dram.h: outputs
 * of a tick are available in the same cycle).
 */
#include "partitions/mempart/mempart.h"

#include <stdlib.h>
#include <string.h>

#include "sim/mem/ring.h"

/* ----------------------------------------------------------- helpers */

/* addr is window-relative and virtual (NOTE(dev_addr)); the page table
 * gives the physical address whose bits pick sub-partition, set, bank and
 * row (docs/addrmap.md). */
static void decode(const struct mempart *mp, uint64_t addr, struct addrmap_loc *loc)
{
    uint64_t pa = mp->pt ? pagetable_translate(mp->pt, addr) : addr;
    if (!addrmap_decode(mp->map, pa, loc))
        sim_panic("mempart %u: device address 0x%llx beyond the address map (%llu bytes)", mp->channel,
                  (unsigned long long)addr, (unsigned long long)addrmap_capacity(mp->map));
    SIM_ASSERT(loc->channel == mp->channel, "mempart %u: address 0x%llx belongs to channel %u", mp->channel,
               (unsigned long long)addr, loc->channel);
}

/* DRAM cycle in progress at L2 cycle t (floor). */
static uint64_t dram_cycle_at_l2(const struct mempart *mp, uint64_t t)
{
    return t * mp->l2_period_ps / mp->dram_period_ps;
}

/* Age sum, in DRAM cycles at DRAM cycle d, of the requests of slice s's
 * MSHR entry e: count x d - (sum of creation times in DRAM cycles), the
 * oracle's formula (dram_mshr.c NOTE(mshr-age)). */
static uint64_t entry_age_sum(struct mempart *mp, unsigned s, uint32_t e, uint64_t d)
{
    struct mshr *m = &mp->l2[s].mshr;
    uint32_t n = mshr_count(m, e);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < n; k++)
        sum += ((const struct l2_pend *)mshr_slot(m, e, k))->u.req.t_create;
    uint64_t created = dram_tc_to_cycles(&mp->dram, sum), now = (uint64_t)n * d;
    return now > created ? now - created : 0;
}

/* NOTE(icl-merge): exact-hardware path, L2 side of a merge: the slice's MIB
 * entry takes the new count and, in delta mode, the merging request's age
 * at this moment (DRAM cycles of the L2 cycle in progress); in total mode
 * the entry's whole age sum. */
static void mib_on_merge(struct mempart *mp, unsigned s, uint64_t line_addr, uint32_t count,
                         const struct mem_req *rq)
{
    struct l2 *l = &mp->l2[s];
    int32_t e = mshr_lookup(&l->mshr, line_addr);
    SIM_ASSERT(e >= 0, "mempart %u: merge into line 0x%llx without an MSHR entry", mp->channel,
               (unsigned long long)line_addr);
    uint64_t d = dram_cycle_at_l2(mp, l->last_tick);
    uint64_t age;
    if (mp->mib_total) {
        age = entry_age_sum(mp, s, (uint32_t)e, d);
    } else {
        uint64_t tc = dram_tc_to_cycles(&mp->dram, rq->t_create);
        age = d > tc ? d - tc : 0;
    }
    l2_mib_merge(&mp->mib[s], (uint32_t)e, count, age, mp->mib_total);
}

/* NOTE(dram-update): a request that merges into an L2 miss whose read
 * already left for the DRAM controller becomes an update message to the
 * controller (dram_update, dram-intercore-locality.md); wired only when the
 * DRAM policy has an on_update entry, so the default path is untouched.
 * In the exact-hardware path (mp->mib_on) the same hook also feeds the
 * slice's L2-side MIB, and dram_update only keeps the live count for the
 * staleness statistics: the scheduler learns of the merge by a dummy. */
static void on_l2_merge(void *ctx, int slice, uint64_t line_addr, uint32_t count, const struct mem_req *rq)
{
    struct mempart *mp = ctx;
    if (mp->mib_on)
        mib_on_merge(mp, (unsigned)slice - mp->channel * MEMPART_SUBS, line_addr, count, rq);
    struct addrmap_loc loc;
    decode(mp, line_addr, &loc);
    uint64_t local_line = loc.local & ~(uint64_t)(MEM_LINE_BYTES - 1);
    cycle_t now = mp->dram.last_cycle == CYCLE_NEVER ? 0 : mp->dram.last_cycle;
    if (dram_update(&mp->dram, local_line, (uint16_t)(count > UINT16_MAX ? UINT16_MAX : count), rq->t_create, now))
        mp->st.dram_updates++;
}

static void wire_merge_hooks(struct mempart *mp)
{
    bool on = dram_sched_wants_update(&mp->dram);
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        l2_set_merge_hook(&mp->l2[s], on ? on_l2_merge : NULL, mp);
}

void mempart_set_dram_sched(struct mempart *mp, const struct dram_sched_ops *ops)
{
    dram_set_sched(&mp->dram, ops);
    wire_merge_hooks(mp);
}

/* L2 set of a line (spec 2.9: linear on the partition-local address without
 * the channel and sub-partition bits). */
static uint32_t set_of(void *ctx, uint64_t line_addr)
{
    const struct mempart *mp = ctx;
    struct addrmap_loc loc;
    decode(mp, line_addr, &loc);
    return loc.l2_set;
}

unsigned mempart_sub_of(const struct mempart *mp, uint64_t addr)
{
    struct addrmap_loc loc;
    decode(mp, addr, &loc);
    return loc.sub - mp->channel * MEMPART_SUBS;
}

/* First L2 cycle whose edge comes after DRAM cycle d (ties: DRAM first, so
 * an L2 edge at the same time as d is "after"). */
static uint64_t l2_cycle_after_dram(const struct mempart *mp, uint64_t d)
{
    ps_t t = d * mp->dram_period_ps;
    return (t + mp->l2_period_ps - 1) / mp->l2_period_ps;
}
/* First DRAM cycle strictly after L2 cycle t (its edge runs before L2 at equal times). */
static uint64_t dram_cycle_after_l2(const struct mempart *mp, uint64_t t)
{
    return t * mp->l2_period_ps / mp->dram_period_ps + 1;
}

static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ----------------------------------------------------------- credits */

static bool has_credit(const struct mempart *mp, unsigned s)
{
    return mp->private_used[s] < 1 || mp->shared_used < mp->shared_limit;
}

/* GPGPU-Sim arbitration_metadata::borrow_credit: private first, then shared. */
static void credit_take(struct mempart *mp, unsigned s)
{
    if (mp->private_used[s] < 1) {
        mp->private_used[s] = 1;
    } else {
        SIM_ASSERT(mp->shared_used < mp->shared_limit, "mempart %u: borrowing a depleted shared credit",
                   mp->channel);
        mp->shared_used++;
    }
}

/* GPGPU-Sim arbitration_metadata::return_credit: private first, then shared. */
static void credit_give(struct mempart *mp, unsigned s)
{
    if (mp->private_used[s] > 0) {
        mp->private_used[s] = 0;
    } else {
        SIM_ASSERT(mp->shared_used > 0, "mempart %u: sub %u returns a credit it does not hold", mp->channel, s);
        mp->shared_used--;
    }
}

uint32_t mempart_credits_used(const struct mempart *mp)
{
    uint32_t n = mp->shared_used;
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        n += mp->private_used[s];
    return n;
}

/* ----------------------------------------------------------- slots */

static uint32_t slot_alloc(struct mempart *mp)
{
    uint32_t i = mp->free_head;
    SIM_ASSERT(i != MEMPART_NONE, "mempart %u: slot pool exhausted with credits left", mp->channel);
    mp->free_head = mp->slot[i].next_free;
    mp->slots_used++;
    return i;
}

static void slot_free(struct mempart *mp, uint32_t i)
{
    mp->slot[i].next_free = mp->free_head;
    mp->free_head = i;
    mp->slots_used--;
}

/* DRAM command hook: a write's last WR command fixes its completion order
 * (it completes tWL later, the same delay for every write). NOTE(write_done):
 * struct dram reports no per-request write completion, only the count
 * dram.st.writes; the order comes from here and the count from the DRAM, and
 * tick_dram checks that they agree. */
static void dram_cmd_hook(void *ctx, const struct dram_cmd_rec *rec)
{
    struct mempart *mp = ctx;
    if (rec->cmd == DRAM_CMD_WR) {
        SIM_ASSERT(rec->tag < mp->n_slots, "mempart %u: WR for unknown tag %llu", mp->channel,
                   (unsigned long long)rec->tag);
        struct mempart_slot *x = &mp->slot[rec->tag];
        SIM_ASSERT(x->is_write, "mempart %u: WR command for a read (tag %llu)", mp->channel,
                   (unsigned long long)rec->tag);
        if (++x->wr_cols == x->wr_need) {
            SIM_ASSERT(mp->wdone_n < mp->n_slots && mp->wpending > 0, "mempart %u: write ring", mp->channel);
            uint32_t k = ring_wrap(mp->wdone_head + mp->wdone_n, mp->n_slots);
            mp->wdone[k] = (uint32_t)rec->tag;
            mp->wdone_n++;
            mp->wpending--;
        }
    }
    if (mp->user_trace)
        mp->user_trace(mp->user_trace_ctx, rec);
}

/* ----------------------------------------------------------- init */

void mempart_init(struct mempart *mp, const struct mempart_cfg *cfg, const struct l2_cfg *l2cfg,
                  const struct dram_cfg *dcfg, const struct mempart_init_args *a)
{
    SIM_ASSERT(a->map && a->channel < a->map->n_ch, "mempart: channel %u outside the address map", a->channel);
    SIM_ASSERT(a->map->n_sub_per_ch == MEMPART_SUBS, "mempart: %u sub-partitions per channel, need %u",
               a->map->n_sub_per_ch, MEMPART_SUBS);
    SIM_ASSERT(a->store.read_line && a->store.write_line, "mempart %u: no backing store", a->channel);
    SIM_ASSERT(a->pipe_period_ps && a->l2_period_ps && a->dram_period_ps, "mempart %u: zero clock period",
               a->channel);
    memset(mp, 0, sizeof *mp);
    mp->channel = a->channel;
    mp->map = a->map;
    mp->pt = a->pt;
    mp->store = a->store;
    mp->l2_period_ps = a->l2_period_ps;
    mp->dram_period_ps = a->dram_period_ps;
    mp->l2_to_dram_cycles = mempart_l2_to_dram_cycles(cfg, a->pipe_period_ps, a->dram_period_ps);

    uint64_t sets = l2cfg->size_per_sub / (l2cfg->assoc * l2cfg->line);
    SIM_ASSERT(sets == a->map->l2_sets, "mempart %u: L2 has %llu sets but the address map %u", a->channel,
               (unsigned long long)sets, a->map->l2_sets);
    struct l2_init_args la = {0, l2_rop_cycles(l2cfg, a->pipe_period_ps, a->l2_period_ps), set_of, mp, a->atom, a->coh,
                              a->l2_period_ps, a->coh ? a->coh->tc_lease * a->pipe_period_ps : 0};
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        la.instance = (int)(a->channel * MEMPART_SUBS + s);
        l2_init(&mp->l2[s], l2cfg, &la);
    }
    dram_init(&mp->dram, dcfg, a->channel);
    dram_set_time_base(&mp->dram, a->pipe_period_ps, a->dram_period_ps);
    mp->mib_on = dram_mib_on(&mp->dram);
    if (mp->mib_on) {
        mp->mib_total = dcfg->icl_age_mode == DRAM_ICL_AGE_TOTAL;
        mp->mib_by_age = dcfg->sched == DRAM_SCHED_MSHR_SA;
        for (unsigned s = 0; s < MEMPART_SUBS; s++)
            l2_mib_init(&mp->mib[s], (uint32_t)l2cfg->mshr, dcfg->icl_dummy_after_original);
    }
    wire_merge_hooks(mp);
    uint64_t col_bytes = dcfg->bus_bytes * dcfg->burst;
    SIM_ASSERT(col_bytes && MEM_LINE_BYTES % col_bytes == 0, "mempart %u: %llu-byte column commands",
               a->channel, (unsigned long long)col_bytes);
    mp->cols_per_line = (uint32_t)(MEM_LINE_BYTES / col_bytes);
    mp->sector_fetch = l2cfg->sector_fetch;
    dram_set_trace(&mp->dram, dram_cmd_hook, mp);

    /* NOTE(credits): the spec's count, dram.queue + dram.return_queue - 1
     * shared (131 for gtx480) plus 1 private per sub-partition. GPGPU-Sim
     * 3.x subtracts one private credit per sub-partition (130); we follow the
     * spec. With separate_rw the "queue" term is rdq + wrq. */
    uint64_t q = dcfg->separate_rw ? dcfg->rdq + dcfg->wrq : dcfg->queue;
    mp->shared_limit = (uint32_t)(q + dcfg->return_queue - 1);
    mp->n_slots = mp->shared_limit + MEMPART_SUBS;
    mp->slot = xcalloc(mp->n_slots, sizeof *mp->slot);
    for (uint32_t i = 0; i < mp->n_slots; i++)
        mp->slot[i].next_free = i + 1 < mp->n_slots ? i + 1 : MEMPART_NONE;
    mp->free_head = 0;
    mp->wdone = xcalloc(mp->n_slots, sizeof *mp->wdone);
    mp->last_admit = MEMPART_SUBS - 1; /* sub 0 has priority first */
    mp->next_l2 = CYCLE_NEVER;
    mp->next_dram = CYCLE_NEVER;
    mp->last_dram = CYCLE_NEVER;
}

void mempart_fini(struct mempart *mp)
{
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        l2_fini(&mp->l2[s]);
    dram_fini(&mp->dram);
    if (mp->mib_on)
        for (unsigned s = 0; s < MEMPART_SUBS; s++)
            l2_mib_fini(&mp->mib[s]);
    free(mp->slot);
    free(mp->wdone);
    memset(mp, 0, sizeof *mp);
}

/* ----------------------------------------------------------- interconnect side */

bool mempart_can_accept(const struct mempart *mp, unsigned sub)
{
    SIM_ASSERT(sub < MEMPART_SUBS, "mempart %u: sub-partition %u", mp->channel, sub);
    return l2_can_accept(&mp->l2[sub]);
}

bool mempart_push(struct mempart *mp, unsigned sub, const struct mem_req *req, cycle_t cycle)
{
    return mempart_push_late(mp, sub, req, cycle, 0);
}

bool mempart_push_late(struct mempart *mp, unsigned sub, const struct mem_req *req, cycle_t cycle, cycle_t late)
{
    SIM_ASSERT(sub < MEMPART_SUBS, "mempart %u: sub-partition %u", mp->channel, sub);
    SIM_DEBUG_ASSERT(mempart_sub_of(mp, req->addr) == sub, "mempart %u: address 0x%llx pushed to sub %u",
                     mp->channel, (unsigned long long)req->addr, sub);
    if (!l2_push_late(&mp->l2[sub], req, cycle, late))
        return false;
    mp->next_l2 = min_u64(mp->next_l2, cycle + 1);
    return true;
}

bool mempart_pop_reply(struct mempart *mp, unsigned sub, struct mem_reply *out, cycle_t cycle)
{
    SIM_ASSERT(sub < MEMPART_SUBS, "mempart %u: sub-partition %u", mp->channel, sub);
    if (!l2_pop_reply(&mp->l2[sub], out, cycle))
        return false;
    mp->next_l2 = min_u64(mp->next_l2, cycle + 1); /* a reply-queue place freed: the head may move */
    return true;
}

/* ----------------------------------------------------------- L2 clock */

uint64_t mempart_tick_l2(struct mempart *mp, cycle_t cycle)
{
    /* keep a wake-up another domain asked for beyond this cycle */
    uint64_t next = mp->next_l2 > cycle ? mp->next_l2 : CYCLE_NEVER;
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        next = min_u64(next, l2_tick(&mp->l2[s], cycle));
        /* A request now in the L2->DRAM queue is seen by the next DRAM edge. */
        if (mp->l2[s].dq_r.n || (mp->mib_on && mp->mib[s].n_ready))
            mp->next_dram = min_u64(mp->next_dram, dram_cycle_after_l2(mp, cycle));
    }
    mp->next_l2 = next;
    return next;
}

/* ----------------------------------------------------------- DRAM clock */

static void check_invariants(const struct mempart *mp)
{
#ifndef NDEBUG
    uint32_t held = mempart_credits_used(mp);
    SIM_ASSERT(held == mp->slots_used, "mempart %u: %u credits held but %u requests admitted", mp->channel,
               held, mp->slots_used);
    SIM_ASSERT(mp->slots_used == dram_pending(&mp->dram),
               "mempart %u: %u requests admitted but the DRAM holds %u", mp->channel, mp->slots_used,
               dram_pending(&mp->dram));
    SIM_ASSERT(mp->shared_used <= mp->shared_limit, "mempart %u: shared credits %u > %u", mp->channel,
               mp->shared_used, mp->shared_limit);
#else
    (void)mp;
#endif
}

/* Stage 2: match the DRAM's completed-write count with the completion order. */
static void stage_write_done(struct mempart *mp)
{
    while (mp->writes_seen < mp->dram.st.writes) {
        SIM_ASSERT(mp->wdone_n > 0, "mempart %u: DRAM completed a write the partition did not order",
                   mp->channel);
        uint32_t i = mp->wdone[mp->wdone_head];
        mp->wdone_head = ring_wrap(mp->wdone_head + 1, mp->n_slots);
        mp->wdone_n--;
        mp->writes_seen++;
        credit_give(mp, mp->slot[i].sub);
        slot_free(mp, i);
    }
}

/* Stage 3: the return-queue head goes to its sub-partition's DRAM->L2 queue. */
static void stage_return(struct mempart *mp, uint64_t d)
{
    const struct dram *dr = &mp->dram;
    if (dr->retq_count == 0)
        return;
    /* NOTE(retq_peek): dram.h has no peek; the head's tag is read from the
     * public ring so that a blocked head stays in the return queue, as in
     * GPGPU-Sim, instead of occupying an extra latch. */
    uint32_t i = (uint32_t)dr->retq[dr->retq_head].tag;
    SIM_ASSERT(i < mp->n_slots && !mp->slot[i].is_write, "mempart %u: return of bad tag %u", mp->channel, i);
    struct mempart_slot *x = &mp->slot[i];
    struct l2 *l = &mp->l2[x->sub];
    if (!l2_can_fill(l)) {
        mp->st.stall_return++;
        return;
    }
    struct dram_req r;
    bool ok = dram_pop_read(&mp->dram, &r, d);
    SIM_ASSERT(ok && r.tag == i, "mempart %u: return queue changed under the peek", mp->channel);
    if (mp->mib_on) { /* the line's MSHR entry is answered: its MIB entry is cleared (spec 2.1 step 4) */
        int32_t e = mshr_lookup(&l->mshr, x->line_addr);
        if (e >= 0)
            l2_mib_free(&mp->mib[x->sub], (uint32_t)e);
    }
    uint64_t t = l2_cycle_after_dram(mp, d);
    SIM_ASSERT(t > 0, "mempart %u: fill at time 0", mp->channel);
    ok = l2_dram_fill(l, x->line_addr, x->data, t - 1); /* given at t - 1: first used by l2_tick(t) */
    SIM_ASSERT(ok, "mempart %u: DRAM->L2 queue refused after can_fill", mp->channel);
    mp->next_l2 = min_u64(mp->next_l2, t);
    mp->st.returned++;
    credit_give(mp, x->sub);
    slot_free(mp, i);
}

/* Can the head of sub-partition s's L2->DRAM queue be admitted now? Counts
 * the reason when it cannot. */
static bool admissible(struct mempart *mp, unsigned s, bool count)
{
    struct l2 *l = &mp->l2[s];
    if (l->dq_r.n == 0)
        return false;
    bool is_write = l->dq[l->dq_r.head].r.is_write;
    if (!dram_can_accept(&mp->dram, is_write)) {
        mp->st.stall_dram_full += count;
        return false;
    }
    if (!l2_can_fill(l)) {
        mp->st.stall_fill_full += count;
        return false;
    }
    if (!has_credit(mp, s)) {
        mp->st.stall_credit += count;
        return false;
    }
    return true;
}

/* NOTE(icl-dummy): exact-hardware path, the L2 side's output multiplexer
 * (spec 2.3 "L2 side" step 2): a slice with a MIB entry ready to send
 * (l2_mib.h: valid, and its original miss departed unless
 * dram.icl_dummy_after_original is off) sends a dummy instead of its
 * miss-queue head: the MIB-first rule. The dummy takes the partition's one
 * L2->DRAM admission of this DRAM cycle, as a request would (bandwidth),
 * needs no credit or queue room (it never enters a queue) and reaches the
 * controller after the same l2_to_dram.latency. Its payload: the MIB
 * entry's merge_len and age (delta mode), or the entry's age sum
 * recomputed now (total mode). */
static void send_dummy(struct mempart *mp, unsigned s, uint64_t d)
{
    struct l2_mib *m = &mp->mib[s];
    int32_t e = l2_mib_pick(m, mp->mib_by_age);
    SIM_ASSERT(e >= 0, "mempart %u: no MIB entry to send", mp->channel);
    struct addrmap_loc loc;
    decode(mp, mp->l2[s].mshr.line[e], &loc);
    struct dram_dummy msg = {loc.local & ~(uint64_t)(MEM_LINE_BYTES - 1), m->merge_len[e], m->age[e], d,
                             d + mp->l2_to_dram_cycles};
    if (mp->mib_total)
        msg.age = l2_mib_sat15(entry_age_sum(mp, s, (uint32_t)e, d));
    bool pushed = dram_push_dummy(&mp->dram, &msg);
    SIM_ASSERT(pushed, "mempart %u: dummy refused after can_accept", mp->channel);
    l2_mib_sent(m, (uint32_t)e);
    mp->st.icl_dummies++;
}

/* Stage 4: admit one request (or, exact-hardware path, send one dummy),
 * round-robin from the sub after the last one admitted. */
static void stage_admit(struct mempart *mp, uint64_t d)
{
    bool ok[MEMPART_SUBS], dum[MEMPART_SUBS] = {false, false};
    unsigned n_ok = 0, n_req = 0;
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        ok[s] = admissible(mp, s, true);
        n_req += ok[s];
        if (mp->mib_on)
            dum[s] = mp->mib[s].n_ready > 0 && dram_can_accept_dummy(&mp->dram);
        n_ok += ok[s] || dum[s];
    }
    if (n_ok == 0)
        return;
    mp->st.rr_contended += n_ok > 1;
    unsigned s = (mp->last_admit + 1) % MEMPART_SUBS;
    if (!ok[s] && !dum[s])
        s = (s + 1) % MEMPART_SUBS;
    if (dum[s]) {
        send_dummy(mp, s, d);
        mp->st.icl_dummy_blocked += n_req > 0;
        mp->last_admit = s;
        mp->next_dram = min_u64(mp->next_dram, d + (mp->l2_to_dram_cycles ? mp->l2_to_dram_cycles : 1));
        return;
    }

    struct l2_dram_req lr;
    bool got = l2_pop_dram_req(&mp->l2[s], &lr, l2_cycle_after_dram(mp, d));
    SIM_ASSERT(got, "mempart %u: L2->DRAM queue of sub %u emptied", mp->channel, s);
    struct addrmap_loc loc;
    decode(mp, lr.line_addr, &loc);
    SIM_ASSERT(loc.sub == mp->channel * MEMPART_SUBS + s, "mempart %u: line 0x%llx from sub %u maps to sub %u",
               mp->channel, (unsigned long long)lr.line_addr, s, loc.sub);
    uint64_t local_line = loc.local & ~(uint64_t)(MEM_LINE_BYTES - 1);
    uint16_t mib_age = 0;
    if (mp->mib_on && !lr.is_write) {
        /* the original carries its entry's merge information (lr.merges) and
         * age sum at departure; a pending MIB update is folded into it */
        int32_t e = mshr_lookup(&mp->l2[s].mshr, lr.line_addr);
        if (e >= 0) {
            l2_mib_depart(&mp->mib[s], (uint32_t)e);
            mib_age = l2_mib_sat15(entry_age_sum(mp, s, (uint32_t)e, d));
        }
    }

    uint32_t i = slot_alloc(mp);
    struct mempart_slot *x = &mp->slot[i];
    x->line_addr = lr.line_addr;
    x->sub = (uint8_t)s;
    x->is_write = lr.is_write;
    x->wr_cols = 0;
    x->wr_need = 0;
    /* Data values (spec 2.9): the store is read or written now, in L2 order. */
    if (lr.is_write)
        mp->store.write_line(mp->store.ctx, lr.line_addr, local_line, lr.data, lr.mask);
    else
        mp->store.read_line(mp->store.ctx, lr.line_addr, local_line, x->data);

    uint32_t bytes = MEM_LINE_BYTES;
    if (!lr.is_write && mp->sector_fetch) {
        /* NOTE(sector-fetch) in l2.c: one full column access per 32 B sector */
        uint32_t cb = MEM_LINE_BYTES / mp->cols_per_line, per = (32 + cb - 1) / cb;
        bytes = (uint32_t)__builtin_popcount(lr.sectors) * per * cb;
    } else if (lr.is_write) {
        /* NOTE(masked-write): a write carries only the column chunks its
         * byte mask touches (GDDR data masks cover the rest), as GPGPU-Sim
         * sends a write of its request's size: a forwarded 4-byte store
         * (l2.write_miss = fetch_write) is one WR command, a dirty line two. */
        uint32_t cb = MEM_LINE_BYTES / mp->cols_per_line, need = 0;
        for (uint32_t k = 0; k < mp->cols_per_line; k++)
            need += mem_mask_any_range(lr.mask, k * cb, cb);
        need = need ? need : 1;
        x->wr_need = (uint8_t)need;
        bytes = need * cb;
    }
    struct dram_req r = {i, local_line, loc.bank, loc.row, loc.col, bytes, lr.is_write != 0,
                         lr.space, lr.sm, lr.warp, lr.merges, lr.t_create, lr.t_create_sum, 0, mib_age, d};
    bool pushed = dram_push(&mp->dram, &r, d + mp->l2_to_dram_cycles);
    SIM_ASSERT(pushed, "mempart %u: DRAM refused after can_accept", mp->channel);
    credit_take(mp, s);
    if (lr.is_write) {
        mp->st.admitted_writes++;
        if (mp->dram.cfg.model == DRAM_MODEL_PERFECT) {
            /* perfect model: writes complete in delay-line order, with no commands */
            uint32_t k = ring_wrap(mp->wdone_head + mp->wdone_n, mp->n_slots);
            mp->wdone[k] = i;
            mp->wdone_n++;
        } else {
            mp->wpending++;
        }
    }
    mp->st.admitted[s]++;
    mp->last_admit = s;
    mp->next_dram = min_u64(mp->next_dram, d + (mp->l2_to_dram_cycles ? mp->l2_to_dram_cycles : 1));
    mp->next_l2 = min_u64(mp->next_l2, l2_cycle_after_dram(mp, d)); /* an L2->DRAM place freed */
}

uint64_t mempart_tick_dram(struct mempart *mp, uint64_t d)
{
    if (mp->last_dram != CYCLE_NEVER) {
        SIM_ASSERT(d > mp->last_dram, "mempart %u: DRAM tick %llu after %llu", mp->channel,
                   (unsigned long long)d, (unsigned long long)mp->last_dram);
        uint64_t dt = d - mp->last_dram;
        mp->st.credits_used.sum += (uint64_t)mempart_credits_used(mp) * dt;
        mp->st.credits_used.count += dt;
    }
    mp->last_dram = d;
    check_invariants(mp);

    /* keep a wake-up the L2 side asked for beyond this cycle */
    mp->next_dram = mp->next_dram > d ? mp->next_dram : CYCLE_NEVER;
    uint64_t next = dram_tick(&mp->dram, d);
    stage_write_done(mp);
    stage_return(mp, d);
    stage_admit(mp, d);

    /* NOTE(poll_blocked): a waiting L2->DRAM head or return-queue head polls
     * every DRAM cycle (its blocking condition can clear in another domain),
     * so the stall counters do not depend on idle skipping. */
    bool waiting = mp->dram.retq_count > 0;
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        waiting |= mp->l2[s].dq_r.n > 0 || (mp->mib_on && mp->mib[s].n_ready > 0);
    if (waiting)
        next = min_u64(next, d + 1);
    if (mp->dram.delay_count) /* the delay-line head's ready cycle (dram_tick excludes new pushes) */
        next = min_u64(next, d + 1 > mp->dram.delay[mp->dram.delay_head].ready_cycle
                                 ? d + 1
                                 : mp->dram.delay[mp->dram.delay_head].ready_cycle);
    mp->next_dram = min_u64(mp->next_dram, next);
    return mp->next_dram;
}

uint64_t mempart_next_l2(const struct mempart *mp) { return mp->next_l2; }
uint64_t mempart_next_dram(const struct mempart *mp) { return mp->next_dram; }

bool mempart_idle(const struct mempart *mp)
{
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        if (!l2_idle(&mp->l2[s]))
            return false;
    return mp->slots_used == 0 && dram_pending(&mp->dram) == 0;
}

/* ----------------------------------------------------------- host path */

static void host_check(const struct mempart *mp, uint64_t addr, uint32_t n)
{
    SIM_ASSERT(n >= 1 && mem_line_off(addr) + n <= MEM_LINE_BYTES,
               "mempart %u: host access of %u bytes at 0x%llx crosses a line", mp->channel, n,
               (unsigned long long)addr);
    SIM_ASSERT(mempart_idle(mp), "mempart %u: host access while requests are in flight", mp->channel);
}

void mempart_host_read(struct mempart *mp, uint64_t addr, void *buf, uint32_t n)
{
    host_check(mp, addr, n);
    unsigned s = mempart_sub_of(mp, addr);
    uint64_t line = mem_line_of(addr);
    struct addrmap_loc loc;
    decode(mp, line, &loc);
    uint8_t bytes[MEM_LINE_BYTES], cached[MEM_LINE_BYTES];
    uint64_t valid[2];
    mp->store.read_line(mp->store.ctx, line, loc.local, bytes);
    enum ta_state st = l2_probe_line(&mp->l2[s], line, cached, valid);
    SIM_ASSERT(st != TA_RESERVED, "mempart %u: host read of a reserved line", mp->channel);
    if (st != TA_INVALID)
        mem_mask_copy(bytes, cached, valid, MEM_LINE_BYTES);
    memcpy(buf, bytes + mem_line_off(addr), n);
}

void mempart_host_write(struct mempart *mp, uint64_t addr, const void *buf, uint32_t n)
{
    host_check(mp, addr, n);
    unsigned s = mempart_sub_of(mp, addr);
    uint64_t line = mem_line_of(addr);
    uint32_t off = mem_line_off(addr);
    struct addrmap_loc loc;
    decode(mp, line, &loc);
    uint8_t bytes[MEM_LINE_BYTES] = {0};
    uint64_t mask[2] = {0, 0};
    memcpy(bytes + off, buf, n);
    mem_mask_set_range(mask, off, n);
    mp->store.write_line(mp->store.ctx, line, loc.local, bytes, mask);
    /* NOTE(host_write_l2): l2.h has no host-write entry, so the L2 copy is
     * patched in place (tag probe + data array), write-through: the store and
     * the line agree afterwards, the line keeps its state (a MODIFIED line
     * still writes back every valid byte, now including these). */
    struct l2 *l = &mp->l2[s];
    int32_t li = ta_probe(&l->tags, line);
    if (li >= 0) {
        SIM_ASSERT(ta_state_of(&l->tags, (uint32_t)li) != TA_RESERVED, "mempart %u: host write of a reserved line",
                   mp->channel);
        memcpy(l->data + (size_t)li * l->line + off, buf, n);
        uint64_t *v = l->valid + (size_t)li * 2;
        v[0] |= mask[0];
        v[1] |= mask[1];
    }
}

/* ----------------------------------------------------------- statistics */

void mempart_stats_register(struct mempart *mp, struct stats *s)
{
    const char *g = "mempart";
    int in = (int)mp->channel;
    struct mempart_stats *t = &mp->st;
    stats_counter(s, g, in, "admitted_sub0", &t->admitted[0], "requests admitted to the DRAM from sub-partition 0");
    stats_counter(s, g, in, "admitted_sub1", &t->admitted[1], "requests admitted to the DRAM from sub-partition 1");
    stats_counter(s, g, in, "admitted_writes", &t->admitted_writes, "write-backs admitted to the DRAM");
    stats_counter(s, g, in, "returned", &t->returned, "reads handed from the return queue to a DRAM->L2 queue");
    stats_counter(s, g, in, "stall_credit", &t->stall_credit,
                  "DRAM cycles x heads refused admission for lack of a credit");
    stats_counter(s, g, in, "stall_dram_full", &t->stall_dram_full,
                  "DRAM cycles x heads refused admission because the DRAM queue was full");
    stats_counter(s, g, in, "stall_fill_full", &t->stall_fill_full,
                  "DRAM cycles x heads refused admission because their DRAM->L2 queue was full");
    stats_counter(s, g, in, "stall_return", &t->stall_return,
                  "DRAM cycles the return-queue head waited for DRAM->L2 queue room");
    stats_counter(s, g, in, "rr_contended", &t->rr_contended,
                  "DRAM cycles both sub-partitions had an admissible request");
    stats_avg(s, g, in, "credits_used", &t->credits_used, "admission credits held per DRAM cycle (credits)");
    if (mp->mib_on) {
        stats_counter(s, g, in, "icl_dummies", &t->icl_dummies,
                      "exact hw: dummy merge-update messages sent on the L2->DRAM link (one admission slot each)");
        stats_counter(s, g, in, "icl_dummy_blocked", &t->icl_dummy_blocked,
                      "exact hw: DRAM cycles a dummy took the L2->DRAM link while a request was admissible");
    }
    for (unsigned k = 0; k < MEMPART_SUBS; k++)
        l2_stats_register(&mp->l2[k], s);
    dram_stats_register(&mp->dram, s, (int)mp->channel);
}

void mempart_set_dram_trace(struct mempart *mp, dram_trace_fn fn, void *ctx)
{
    mp->user_trace = fn;
    mp->user_trace_ctx = ctx;
}
