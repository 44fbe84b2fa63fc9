/* partitions/mempart/mempart_unit.c: a memory partition on the parallel engine; see
 * mempart_unit.h for what is modelled and docs/mempart_unit.md for the
 * choices.
 *
 * Per partition, three engine units share one struct mpu_part:
 *   DRAM unit  (rank 0) -> step_dram: mempart_tick_dram(now / Pdram)
 *   L2 unit    (rank 1) -> step_l2:   mempart_tick_l2(now / Pl2)
 *   icnt unit  (rank 2) -> step_icnt: replies L2 -> reply senders, then the
 *                          two reply senders' and two request receivers' ticks
 * After every step, propagate() looks at what the other two domains now need
 * and makes sure the engine will run them then.
 */
#include "partitions/mempart/mempart_unit.h"

#include <string.h>

#include "sim/mem/devmem.h"

static inline ps_t min_ps(ps_t a, ps_t b) { return a < b ? a : b; }
/* First edge of period P at or after t. */
static inline ps_t edge_ge(ps_t t, ps_t P) { return t == PS_NEVER ? PS_NEVER : (t + P - 1) / P * P; }
static inline ps_t cyc_ps(uint64_t c, ps_t P) { return c == CYCLE_NEVER ? PS_NEVER : c * P; }

/* ------------------------------------------------------------ backing store */

/* NOTE(devmem_store): in timing mode the bytes of every partition are the
 * context's device memory (sim/mem/devmem.h), so that host copies, module
 * variables and the functional bounds checks see one store. Ownership is
 * unchanged: a line is read or written only by the thread of the partition
 * its address maps to (or by the serial step), and the block table is not
 * modified while quanta run (allocation happens between kernels), so
 * concurrent partitions touch disjoint bytes. Bytes of a line that lie in
 * no live allocation (the tail of a block, a freed block, the code and
 * local-memory regions of the timing model) read as zero and writes to
 * them are dropped. Blocks start on 256 B boundaries, so a line never
 * straddles the start of a block. */
static uint8_t *dev_line(const struct mpu_part *p, uint64_t local, uint32_t *valid)
{
    uint64_t dev = mpu_dev_of(p->sh->map, p->sh->pt, p->channel, local);
    long i = devmem_find(p->sh->dev, dev, 1);
    if (i < 0) {
        *valid = 0;
        return NULL;
    }
    const struct devmem_block *b = &p->sh->dev->blocks[i];
    uint64_t left = b->addr + b->size - dev;
    *valid = left < MEM_LINE_BYTES ? (uint32_t)left : MEM_LINE_BYTES;
    return b->data + (dev - b->addr);
}

static void store_read(void *ctx, uint64_t line_addr, uint64_t local, uint8_t out[MEM_LINE_BYTES])
{
    struct mpu_part *p = ctx;
    if (p->sh->dev) {
        uint32_t valid;
        const uint8_t *src = dev_line(p, local, &valid);
        if (valid)
            memmove(out, src, valid);
        memset(out + valid, 0, MEM_LINE_BYTES - valid);
        return;
    }
    (void)line_addr;
    SIM_ASSERT(local + MEM_LINE_BYTES <= p->sh->store_bytes, "mempart_unit %u: store read at local 0x%llx",
               p->channel, (unsigned long long)local);
    memcpy(out, p->bytes + local, MEM_LINE_BYTES);
}

static void store_write(void *ctx, uint64_t line_addr, uint64_t local, const uint8_t data[MEM_LINE_BYTES],
                        const uint64_t mask[2])
{
    struct mpu_part *p = ctx;
    (void)line_addr;
    SIM_ASSERT(local + MEM_LINE_BYTES <= p->sh->store_bytes, "mempart_unit %u: store write at local 0x%llx",
               p->channel, (unsigned long long)local);
    if (p->sh->dev) {
        uint32_t valid;
        uint8_t *dst = dev_line(p, local, &valid);
        mem_mask_copy(dst, data, mask, valid);
        return;
    }
    mem_mask_copy(p->bytes + local, data, mask, MEM_LINE_BYTES);
}

/* ------------------------------------------------------------ addresses */

bool mpu_dev_locate(const struct addrmap *map, const struct pagetable *pt, uint64_t store_bytes, uint64_t dev,
                    struct addrmap_loc *loc)
{
    if (dev < DEVMEM_BASE)
        return false;
    struct addrmap_loc l;
    uint64_t va = dev - DEVMEM_BASE, pa = pt ? pagetable_translate(pt, va) : va;
    if (!addrmap_decode(map, pa, &l) || l.local >= store_bytes)
        return false;
    *loc = l;
    return true;
}

uint64_t mpu_dev_of(const struct addrmap *map, const struct pagetable *pt, unsigned channel, uint64_t local)
{
    uint64_t pa = addrmap_encode(map, channel, local);
    return (pt ? pagetable_untranslate(pt, pa) : pa) + DEVMEM_BASE;
}

/* ------------------------------------------------------------ needs */

/* NOTE(reply_peek): a reply is popped only when its whole packet fits the
 * injection buffer ([GPGPU-Sim] checks the head's response size before
 * popping). The head is read from the slice's public ring; with
 * l2.sector_replies, l2_head_sect says whether the next pop gives a sector
 * packet. */
__attribute__((noinline, cold)) static uint32_t sector_head_flits(const struct mpu_part *p, const struct l2 *l)
{
    /* a sector packet carries 32 bytes (NOTE(sector-replies) in l2.c) */
    return l2_head_sect(l) >> 4 ? icnt_flits(p->sh->net_cfg, 32)
                                : icnt_reply_flits(p->sh->net_cfg, &l->rq[l->rq_r.head]);
}

static bool reply_head_flits(const struct mpu_part *p, unsigned s, uint32_t *flits)
{
    const struct l2 *l = &p->mp.l2[s];
    if (l->rq_r.n == 0)
        return false;
    *flits = __builtin_expect(l->sector_replies, 0) ? sector_head_flits(p, l)
                                                    : icnt_reply_flits(p->sh->net_cfg, &l->rq[l->rq_r.head]);
    return true;
}

/* Earliest time (on an edge of domain d) at which d has work, seen at T. */
static ps_t need_of(const struct mpu_part *p, int d, ps_t T)
{
    const ps_t *P = p->sh->period_ps;
    switch (d) {
    case MPU_DOM_DRAM:
        return cyc_ps(mempart_next_dram(&p->mp), P[MPU_DOM_DRAM]);
    case MPU_DOM_L2:
        return cyc_ps(mempart_next_l2(&p->mp), P[MPU_DOM_L2]);
    default: {
        ps_t n = p->halves_next;
        for (unsigned s = 0; s < MEMPART_SUBS; s++) {
            uint32_t nf;
            if (!reply_head_flits(p, s, &nf))
                continue;
            if (!icnt_tx_can_push(&p->tx[s], nf)) {
                /* A blocked reply waits for the sender half, which wakes
                 * itself; one step now starts its wait count
                 * (reply_blocked, in cycles) when it becomes ready, since
                 * the sender may not ask for steps meanwhile (a burst on
                 * the link, NOTE(icnt-burst), or a credit stall). */
                if (p->blocked_since[s] == CYCLE_NEVER)
                    n = min_ps(n, edge_ge(T, P[MPU_DOM_ICNT]));
                continue;
            }
            /* one pop per L2 cycle: the next allowed L2 cycle is last_pop */
            ps_t t = p->mp.l2[s].last_pop * P[MPU_DOM_L2];
            n = min_ps(n, edge_ge(t > T ? t : T, P[MPU_DOM_ICNT]));
        }
        return n;
    }
    }
}

static void step(struct mpu_part *p, struct eng_ctx *ctx, int d, ps_t T);

/* NOTE(same_time_wake): units of one partition cannot wake each other at
 * the current time through the engine (a message needs latency > 0). Work
 * due later is forwarded with a local wake message; work due now for a
 * domain that ranks later (DRAM fill -> L2 at a coinciding edge, L2 reply ->
 * icnt at the same time, which is every L2 edge with gtx480's equal L2 and
 * icnt clocks) is run at once: nothing of this partition runs between the
 * two in the engine's (rank, id) order, so the result is the one a single
 * time-ordered loop gives. A step runs at most once per edge (done[]), so
 * the engine's own tick of that unit at the same time is a no-op. sched[]
 * is an upper bound of the engine's next tick of each unit; it only avoids
 * redundant wake messages, an extra tick being harmless (mempart and the
 * icnt halves give identical results with every-cycle ticking). */
/* Make sure the engine runs domain x when it next has work, seen from a
 * step of domain `from` at T. */
static void ensure(struct mpu_part *p, struct eng_ctx *ctx, int from, int x, ps_t T)
{
    ps_t n = need_of(p, x, T);
    if (n == PS_NEVER)
        return;
    if (p->done[x] != PS_NEVER && n <= p->done[x])
        n = p->done[x] + p->sh->period_ps[x]; /* poll the next edge (icnt reply limited to 1 per L2 cycle) */
    if (n > T) {
        if (n < p->sched[x]) {
            eng_send(ctx, p->unit[from], p->unit[x], T, n - T, MPU_MSG_WAKE, NULL, 0);
            p->sched[x] = n;
            p->st.wake_msgs++;
        }
        return;
    }
    SIM_ASSERT(n == T && x > from, "mempart_unit %u: domain %d needs edge %llu ps, missed at %llu ps (from domain %d)",
               p->channel, x, (unsigned long long)n, (unsigned long long)T, from);
    p->st.direct_steps++;
    step(p, ctx, x, T);
    /* The engine does not know what the direct step left for x's later
     * edges unless it ticks x at T anyway: schedule them from here. */
    if (p->sched[x] != T)
        ensure(p, ctx, from, x, T);
}

static void propagate(struct mpu_part *p, struct eng_ctx *ctx, int from, ps_t T)
{
    for (int x = 0; x < MPU_N_DOM; x++)
        if (x != from)
            ensure(p, ctx, from, x, T);
}

static void step_icnt(struct mpu_part *p, ps_t T)
{
    const struct mpu_shared *sh = p->sh;
    uint64_t c = divq(&sh->period_div[MPU_DOM_ICNT], T);
    uint64_t t = divq(&sh->period_div[MPU_DOM_L2], T);
    /* Downstream first (spec 2: reverse pipeline order): replies leave the
     * L2 into the reply senders, the senders send, then requests come in. */
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        uint32_t nf;
        bool ready = reply_head_flits(p, s, &nf);
        if (ready && !icnt_tx_can_push(&p->tx[s], nf)) {
            /* Counted in cycles, not steps: the icnt domain is not stepped
             * every cycle while a burst is on the link (NOTE(icnt-burst) in
             * sim/icnt/icnt.h) or the sender waits for credits. */
            if (p->blocked_since[s] == CYCLE_NEVER)
                p->blocked_since[s] = c;
            continue;
        }
        if (p->blocked_since[s] != CYCLE_NEVER) {
            p->st.reply_blocked += c - p->blocked_since[s];
            p->blocked_since[s] = CYCLE_NEVER;
        }
        if (!ready)
            continue;
        struct mem_reply r;
        if (!mempart_pop_reply(&p->mp, s, &r, t))
            continue; /* one reply per L2 cycle */
        SIM_ASSERT(r.src < sh->topo->n_sm, "mempart_unit %u: reply to endpoint %u, not an SM", p->channel, r.src);
        r.addr += DEVMEM_BASE; /* NOTE(dev_addr) */
        bool ok = icnt_tx_push(&p->tx[s], r.src, nf, &r, c);
        SIM_ASSERT(ok, "mempart_unit %u: reply push refused after can_push", p->channel);
        p->st.replies_injected++;
    }
    uint64_t next = CYCLE_NEVER;
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        uint64_t a = icnt_tx_tick(&p->tx[s], c);
        next = a < next ? a : next;
    }
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        uint64_t a = icnt_rx_tick(&p->rx[s], c);
        next = a < next ? a : next;
    }
    p->halves_next = cyc_ps(next, sh->period_ps[MPU_DOM_ICNT]);
}

static void step(struct mpu_part *p, struct eng_ctx *ctx, int d, ps_t T)
{
    if (p->done[d] == T)
        return;
    SIM_DEBUG_ASSERT(p->done[d] == PS_NEVER || p->done[d] < T, "mempart_unit %u: domain %d steps back in time",
                     p->channel, d);
    p->done[d] = T;
    p->ctx = ctx;
    p->now = T;
    switch (d) {
    case MPU_DOM_DRAM:
        mempart_tick_dram(&p->mp, divq(&p->sh->period_div[MPU_DOM_DRAM], T));
        break;
    case MPU_DOM_L2:
        mempart_tick_l2(&p->mp, divq(&p->sh->period_div[MPU_DOM_L2], T));
        break;
    default:
        step_icnt(p, T);
        break;
    }
    propagate(p, ctx, d, T);
}

/* ------------------------------------------------------------ engine units */

static ps_t tick_dom(struct mpu_part *p, struct eng_ctx *ctx, int d, ps_t now)
{
    step(p, ctx, d, now);
    /* NOTE(aligned-need): need_of answers on an edge of d (or PS_NEVER), and
     * the engine ticks d on its edges, so the next edge is now + P: no
     * rounding division here, and the engine takes its no-rounding path. */
    const ps_t P = p->sh->period_ps[d];
    ps_t n = need_of(p, d, now);
    SIM_DEBUG_ASSERT(now % P == 0 && (n == PS_NEVER || n % P == 0),
                     "mempart_unit %u: domain %d off its edges (now %llu ps, need %llu ps)", p->channel, d,
                     (unsigned long long)now, (unsigned long long)n);
    if (n <= now)
        n = now + P;
    p->sched[d] = n;
    return n;
}

static ps_t tick_dram(void *self, struct eng_ctx *ctx, ps_t now) { return tick_dom(self, ctx, MPU_DOM_DRAM, now); }
static ps_t tick_l2(void *self, struct eng_ctx *ctx, ps_t now) { return tick_dom(self, ctx, MPU_DOM_L2, now); }
static ps_t tick_icnt(void *self, struct eng_ctx *ctx, ps_t now) { return tick_dom(self, ctx, MPU_DOM_ICNT, now); }

static ps_t recv_wake(struct mpu_part *p, int d, const struct eng_msg *m, ps_t now)
{
    SIM_ASSERT(m->type == MPU_MSG_WAKE, "mempart_unit %u: domain %d unit got message type %u", p->channel, d,
               m->type);
    p->sched[d] = min_ps(p->sched[d], now);
    return now;
}

static ps_t recv_dram(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    (void)ctx;
    return recv_wake(self, MPU_DOM_DRAM, m, now);
}

static ps_t recv_l2(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    (void)ctx;
    return recv_wake(self, MPU_DOM_L2, m, now);
}

/* Local sub-partition of endpoint ep, which must belong to this partition. */
static unsigned sub_of_ep(const struct mpu_part *p, uint32_t ep)
{
    uint32_t first = icnt_ep_of_sub(p->sh->topo, p->channel * MEMPART_SUBS);
    SIM_ASSERT(ep >= first && ep < first + MEMPART_SUBS, "mempart_unit %u: message for endpoint %u", p->channel,
               ep);
    return ep - first;
}

static ps_t recv_icnt(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    struct mpu_part *p = self;
    (void)ctx;
    uint64_t c = divq(&p->sh->period_div[MPU_DOM_ICNT], now);
    SIM_DEBUG_ASSERT(now % p->sh->period_ps[MPU_DOM_ICNT] == 0, "mempart_unit %u: message off an icnt edge",
                     p->channel);
    switch (m->type) {
    case ICNT_MSG_FLIT: {
        struct icnt_flit f;
        const void *pay = icnt_msg_unpack_flit(m, &f, sizeof(struct mem_req), p->sh->period_ps[MPU_DOM_ICNT]);
        icnt_rx_flit_arrive(&p->rx[sub_of_ep(p, f.dst)], &f, pay, c);
        break;
    }
    case ICNT_MSG_CREDIT: {
        struct icnt_msg_credit cr;
        icnt_msg_unpack_credit(m, &cr);
        icnt_tx_credits(&p->tx[sub_of_ep(p, cr.to_src)], cr.from_dst, cr.n, c);
        break;
    }
    case MPU_MSG_WAKE:
        break;
    default:
        sim_panic("mempart_unit %u: icnt unit got message type %u", p->channel, m->type);
    }
    p->sched[MPU_DOM_ICNT] = min_ps(p->sched[MPU_DOM_ICNT], now);
    return now;
}

static const struct eng_unit_ops mpu_ops[MPU_N_DOM] = {
    {"mp_dram", tick_dram, recv_dram},
    {"mp_l2", tick_l2, recv_l2},
    {"mp_icnt", tick_icnt, recv_icnt},
};

/* ------------------------------------------------------------ icnt callbacks */

static void send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct mpu_ep *e = ctx;
    struct mpu_part *p = e->p;
    ps_t at = arrive * p->sh->period_ps[MPU_DOM_ICNT];
    SIM_ASSERT(p->ctx && at > p->now, "mempart_unit %u: flit sent outside an icnt step", p->channel);
    icnt_msg_send_flit(p->ctx, p->unit[MPU_DOM_ICNT], p->sh->ep_unit[f->hop], p->now, at - p->now, f, payload,
                       sizeof(struct mem_reply));
}

static bool ep_can_accept(void *ctx, uint32_t src, uint32_t n_flits, cycle_t cycle)
{
    struct mpu_ep *e = ctx;
    (void)src;
    (void)n_flits;
    (void)cycle;
    return mempart_can_accept(&e->p->mp, e->sub);
}

static bool ep_deliver(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, cycle_t cycle)
{
    struct mpu_ep *e = ctx;
    struct mpu_part *p = e->p;
    (void)src;
    (void)cycle;
    struct mem_req r;
    memcpy(&r, payload, sizeof r);
#ifndef NDEBUG
    /* a decode per request (a page-table walk and a division): debug builds
     * only (STYLE.md 4); the routing is the same decode (sm.c dst_ep) */
    struct addrmap_loc loc;
    SIM_ASSERT(mpu_dev_locate(p->sh->map, p->sh->pt, p->sh->store_bytes, r.addr, &loc) &&
                   loc.sub == p->channel * MEMPART_SUBS + e->sub,
               "mempart_unit %u: request for 0x%llx reached sub-partition endpoint %u", p->channel,
               (unsigned long long)r.addr, e->ep);
#endif
    r.addr -= DEVMEM_BASE; /* NOTE(dev_addr) */
    /* NOTE(relaxed-due): in relaxed mode a request whose tail flit reached
     * this endpoint late (sync/engine_msg.c, NOTE(relaxed-late)) starts the
     * L2's input (ROP) delay at its due cycle rather than now, so the
     * quantum's wait is absorbed by a latency the request pays anyway
     * (l2.rop_latency, 120 pipeline cycles on gtx480) instead of added to
     * it. The lateness is the tail's, in whole icnt cycles, turned into L2
     * cycles (rounded down); replies to the SMs have no such latency to
     * absorb theirs. Off in exact mode (late is always 0 there). */
    uint64_t late = 0;
    if (tail->late && p->sh->relaxed_due)
        late = (uint64_t)tail->late * p->sh->period_ps[MPU_DOM_ICNT] / p->sh->period_ps[MPU_DOM_L2];
    if (!mempart_push_late(&p->mp, e->sub, &r, divq(&p->sh->period_div[MPU_DOM_L2], p->now), late))
        return false;
    p->st.req_delivered++;
    return true;
}

/* n credits, one arriving at each cycle from `arrive` (NOTE(credit-run)). */
static void send_credits(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive, uint32_t n)
{
    struct mpu_ep *e = ctx;
    struct mpu_part *p = e->p;
    struct icnt_msg_credit cr = {to_src, from_dst, n};
    ps_t at = arrive * p->sh->period_ps[MPU_DOM_ICNT];
    SIM_ASSERT(p->ctx && at > p->now, "mempart_unit %u: credit sent outside an icnt step", p->channel);
    eng_send(p->ctx, p->unit[MPU_DOM_ICNT], p->sh->ep_unit[to_src], p->now, at - p->now, ICNT_MSG_CREDIT, &cr,
             sizeof cr);
}

static void send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    send_credits(ctx, to_src, from_dst, arrive, 1);
}

/* ------------------------------------------------------------ building */

void mpu_units_add(struct engine *eng, int partition, const int dom[MPU_N_DOM], uint32_t units[MPU_N_DOM])
{
    for (int d = 0; d < MPU_N_DOM; d++)
        units[d] = eng_unit_add(eng, partition, dom[d], &mpu_ops[d]);
    for (int a = 0; a < MPU_N_DOM; a++)
        for (int b = 0; b < MPU_N_DOM; b++)
            if (a != b)
                eng_link_add(eng, units[a], units[b], 1);
}

void mpu_links_add(struct engine *eng, const struct mpu_shared *sh)
{
    const struct icnt_topo *t = sh->topo;
    ps_t Pi = sh->period_ps[MPU_DOM_ICNT];
    for (uint32_t s = 0; s < t->n_mem * t->sub_per_partition; s++) {
        uint32_t e = icnt_ep_of_sub(t, s);
        uint32_t mu = sh->units[s / MEMPART_SUBS][MPU_DOM_ICNT];
        for (uint32_t sm = 0; sm < t->n_sm; sm++) {
            eng_link_add(eng, sh->ep_unit[sm], mu, (ps_t)icnt_topo_lat(t, sm, e) * Pi);
            eng_link_add(eng, mu, sh->ep_unit[sm], (ps_t)icnt_topo_lat(t, e, sm) * Pi);
        }
    }
}

struct mpu_part *mpu_part_create(struct mpu_shared *sh, struct eng_ctx *ctx, unsigned channel)
{
    SIM_ASSERT(channel < sh->map->n_ch && sh->topo->sub_per_partition == MEMPART_SUBS,
               "mempart_unit: channel %u of %u", channel, sh->map->n_ch);
    SIM_ASSERT(sh->store_bytes % 256 == 0 && sh->store_bytes > 0 && sh->store_bytes <= sh->map->local_bytes,
               "mempart_unit: store of %llu bytes", (unsigned long long)sh->store_bytes);
    struct mpu_part *p = eng_alloc(ctx, sizeof *p);
    p->sh = sh;
    p->channel = channel;
    memcpy(p->unit, sh->units[channel], sizeof p->unit);
    if (!sh->dev)
        p->bytes = eng_alloc(ctx, sh->store_bytes); /* first touch on the owning thread, zeroed */
    struct mempart_init_args a = {channel,
                                  sh->map,
                                  sh->pt,
                                  sh->pipe_period_ps,
                                  sh->period_ps[MPU_DOM_L2],
                                  sh->period_ps[MPU_DOM_DRAM],
                                  {store_read, store_write, p},
                                  sh->atom,
                                  sh->coh_cfg};
    mempart_init(&p->mp, sh->mp_cfg, sh->l2_cfg, sh->dram_cfg, &a);
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        struct mpu_ep *e = &p->ep[s];
        e->p = p;
        e->sub = s;
        e->ep = icnt_ep_of_sub(sh->topo, channel * MEMPART_SUBS + s);
        struct icnt_rx_args ra = {e->ep, sh->topo, sh->net_cfg, sizeof(struct mem_req),
                                  /* the L2's ROP line fills its input queue on its own, so a
                                   * packet accepted at the head may wait at the tail: runs
                                   * stop before the tail (NOTE(credit-run)) */
                                  {ep_can_accept, ep_deliver, send_credit, NULL, send_credits, false}, e};
        icnt_rx_init(&p->rx[s], &ra);
        struct icnt_tx_args ta = {e->ep, sh->topo, sh->net_cfg, sizeof(struct mem_reply), send_flit, e, sh->seed};
        icnt_tx_init(&p->tx[s], &ta);
    }
    for (int d = 0; d < MPU_N_DOM; d++) {
        p->done[d] = PS_NEVER;
        p->sched[d] = 0; /* the engine ticks every unit at time 0 */
        eng_unit_bind(ctx, p->unit[d], p);
    }
    p->halves_next = PS_NEVER;
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        p->blocked_since[s] = CYCLE_NEVER;
    if (sh->stats) {
        struct stats *s = sh->stats;
        int i = (int)channel;
        mempart_stats_register(&p->mp, s);
        for (unsigned k = 0; k < MEMPART_SUBS; k++) {
            icnt_rx_stats_register(&p->rx[k], s, "icnt.req");
            icnt_tx_stats_register(&p->tx[k], s, "icnt.reply");
        }
        stats_counter(s, "mempart_unit", i, "req_delivered", &p->st.req_delivered,
                      "requests handed from the request network to the L2 slices");
        stats_counter(s, "mempart_unit", i, "replies_injected", &p->st.replies_injected,
                      "replies moved from the L2 slices into the reply senders");
        stats_counter(s, "mempart_unit", i, "reply_blocked", &p->st.reply_blocked,
                      "icnt cycles a ready reply waited for room in the reply injection buffer");
        stats_counter(s, "mempart_unit", i, "wake_msgs", &p->st.wake_msgs,
                      "local wake messages between the partition's DRAM, L2 and icnt units");
        stats_counter(s, "mempart_unit", i, "direct_steps", &p->st.direct_steps,
                      "steps run at once for a later-ranked domain due at the same time");
    }
    sh->parts[channel] = p;
    return p;
}

void mpu_part_fini(struct mpu_part *p)
{
    if (!p)
        return;
    for (unsigned s = 0; s < MEMPART_SUBS; s++) {
        icnt_rx_fini(&p->rx[s]);
        icnt_tx_fini(&p->tx[s]);
    }
    mempart_fini(&p->mp);
}

bool mpu_part_idle(const struct mpu_part *p)
{
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        if (!icnt_rx_idle(&p->rx[s]) || !icnt_tx_idle(&p->tx[s]))
            return false;
    return mempart_idle(&p->mp);
}

bool mpu_part_gtsc_reset_wanted(const struct mpu_part *p)
{
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        if (l2_gtsc_reset_wanted(&p->mp.l2[s]))
            return true;
    return false;
}

void mpu_part_gtsc_reset(struct mpu_part *p)
{
    for (unsigned s = 0; s < MEMPART_SUBS; s++)
        l2_gtsc_reset(&p->mp.l2[s]);
}

/* ------------------------------------------------------------ host path */

static bool host_range_ok(const struct mpu_shared *sh, uint64_t dev, uint64_t n)
{
    struct addrmap_loc loc;
    if (n == 0)
        return true;
    if (dev + n < dev || !mpu_dev_locate(sh->map, sh->pt, sh->store_bytes, dev, &loc))
        return false;
    /* Every 256 B chunk maps to a local address increasing with dev; the
     * last byte is the largest local address of its channel's run. */
    for (uint64_t a = dev; a < dev + n; a = (a | 0xFF) + 1) {
        if (!mpu_dev_locate(sh->map, sh->pt, sh->store_bytes, a, &loc))
            return false;
        if ((a | 0xFF) + 1 == 0)
            break;
    }
    return true;
}

static bool host_copy(const struct mpu_shared *sh, uint64_t dev, void *buf, uint64_t n, bool write)
{
    if (!host_range_ok(sh, dev, n))
        return false;
    uint8_t *b = buf;
    while (n) {
        uint32_t off = mem_line_off(dev);
        uint32_t k = (uint32_t)(n < MEM_LINE_BYTES - off ? n : MEM_LINE_BYTES - off);
        struct addrmap_loc loc;
        bool ok = mpu_dev_locate(sh->map, sh->pt, sh->store_bytes, dev, &loc);
        SIM_ASSERT(ok && sh->parts[loc.channel], "mempart_unit: host copy to 0x%llx before partition init",
                   (unsigned long long)dev);
        struct mempart *mp = &sh->parts[loc.channel]->mp;
        if (write)
            mempart_host_write(mp, dev - DEVMEM_BASE, b, k);
        else
            mempart_host_read(mp, dev - DEVMEM_BASE, b, k);
        dev += k;
        b += k;
        n -= k;
    }
    return true;
}

bool mpu_host_write(const struct mpu_shared *sh, uint64_t dev, const void *buf, uint64_t n)
{
    return host_copy(sh, dev, (void *)(uintptr_t)buf, n, true);
}

bool mpu_host_read(const struct mpu_shared *sh, uint64_t dev, void *buf, uint64_t n)
{
    return host_copy(sh, dev, buf, n, false);
}
