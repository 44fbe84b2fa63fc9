/* sim/icnt/icnt.c: sender half (struct icnt_tx) and receiver half (struct
 * icnt_rx) of the interconnect. What is modelled, the calling convention
 * and the timing rules are in icnt.h; topology policies in icnt_xbar.c.
 *
 * Expected operation mix: every cycle with traffic, each half moves at most
 * one flit (a compare, a ring step and one callback); pushes and credits are
 * O(1). The receiver scans its sources only at packet boundaries.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/icnt/icnt.h"

/* ------------------------------------------------------------- kinds */

uint32_t icnt_kind_req_flits(const struct icnt_net_cfg *c, const struct mem_req *req)
{
    const struct mem_kind *k = mem_kind_of(req->op);
    SIM_ASSERT(k && k->name, "icnt: request of unregistered kind %u", req->op);
    return icnt_flits(c, k->req_payload ? k->req_payload(req) : 0u);
}

uint32_t icnt_kind_reply_flits(const struct icnt_net_cfg *c, const struct mem_reply *rep)
{
    const struct mem_kind *k = mem_kind_of(rep->op);
    SIM_ASSERT(k && k->name, "icnt: reply of unregistered kind %u", rep->op);
    return icnt_flits(c, k->rep_payload ? k->rep_payload(rep) : 0u);
}

/* ------------------------------------------------------------- sender half */

void icnt_tx_init(struct icnt_tx *tx, const struct icnt_tx_args *a)
{
    const struct icnt_topo *t = a->topo;
    SIM_ASSERT(a->ep < t->n_ep, "icnt_tx: endpoint %u of %u", a->ep, t->n_ep);
    SIM_ASSERT(a->send_flit, "icnt_tx %u: no send_flit", a->ep);
    *tx = (struct icnt_tx){0};
    tx->ep = a->ep;
    tx->n_ep = t->n_ep;
    tx->payload_bytes = a->payload_bytes;
    tx->buf_flits = (uint32_t)a->cfg->inj_buf;
    tx->fifo_flits = icnt_rx_fifo_depth(a->cfg, t->min_latency) + t->fifo_extra;
    tx->cap = tx->buf_flits; /* every packet holds at least one flit */
    tx->pkt = xcalloc(tx->cap, sizeof *tx->pkt);
    tx->pay = xcalloc((size_t)tx->cap * (a->payload_bytes ? a->payload_bytes : 1), 1);
    tx->credits = xcalloc(t->n_ep, sizeof *tx->credits);
    tx->run_n = xcalloc(t->n_ep, sizeof *tx->run_n);
    tx->run_at = xcalloc(t->n_ep, sizeof *tx->run_at);
    for (uint32_t d = 0; d < t->n_ep; d++)
        tx->credits[d] = tx->fifo_flits;
    tx->via = UINT32_MAX;
    if (t->sw_ep != UINT32_MAX && a->ep != t->sw_ep) { /* xbar_iq: everything goes through the switch */
        tx->via = t->sw_ep;
        tx->via_cap = icnt_iq_in_cap(a->cfg, t->min_latency);
        tx->credits[tx->via] = tx->via_cap;
    }
    tx->stall_since = CYCLE_NEVER;
    tx->jitter = (uint32_t)a->cfg->jitter;
    if (tx->jitter) {
        /* NOTE(icnt-jitter): a seeded stream per endpoint (splitmix64 of sim.seed and ep) */
        uint64_t z = a->seed + 0x9e3779b97f4a7c15ull * (a->ep + 1);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        tx->rng = (z ^ (z >> 31)) | 1u;
        tx->last_arr = xcalloc(t->n_ep, sizeof *tx->last_arr);
    }
    tx->burst = t->burst && tx->jitter == 0 && tx->via == UINT32_MAX;
    tx->burst_end = CYCLE_NEVER;
    tx->topo = t;
    tx->send_flit = a->send_flit;
    tx->ctx = a->ctx;
}

void icnt_tx_fini(struct icnt_tx *tx)
{
    free(tx->pkt);
    free(tx->pay);
    free(tx->credits);
    free(tx->run_n);
    free(tx->run_at);
    free(tx->last_arr);
    *tx = (struct icnt_tx){0};
}

bool icnt_tx_can_push(const struct icnt_tx *tx, uint32_t n_flits)
{
    return tx->used_flits + n_flits <= tx->buf_flits;
}

bool icnt_tx_push(struct icnt_tx *tx, uint32_t dst, uint32_t n_flits, const void *payload, cycle_t cycle)
{
    SIM_ASSERT(dst < tx->n_ep, "icnt_tx %u: destination %u of %u", tx->ep, dst, tx->n_ep);
    SIM_ASSERT(n_flits >= 1 && n_flits <= 255 && n_flits <= tx->fifo_flits && n_flits <= tx->buf_flits,
               "icnt_tx %u: packet of %u flits (inj_buf %u, rx fifo %u)", tx->ep, n_flits, tx->buf_flits,
               tx->fifo_flits);
    if (!icnt_tx_can_push(tx, n_flits)) {
        tx->st.inj_refused++;
        return false;
    }
    uint32_t slot = tx->head + tx->n;
    if (slot >= tx->cap)
        slot -= tx->cap;
    tx->pkt[slot] = (struct icnt_tx_pkt){.dst = dst, .seq = tx->next_seq++, .n_flits = (uint8_t)n_flits,
                                         .sent = 0, .t_inject = cycle};
    if (tx->payload_bytes)
        memcpy(tx->pay + (size_t)slot * tx->payload_bytes, payload, tx->payload_bytes);
    tx->n++;
    tx->used_flits += n_flits;
    if (tx->used_flits > tx->st.occ_max)
        tx->st.occ_max = tx->used_flits;
    return true;
}

/* NOTE(credit-run): the credits of dst's run that have arrived by cycle
 * join the count. */
static inline void tx_settle(struct icnt_tx *tx, uint32_t dst, cycle_t cycle)
{
    uint32_t r = tx->run_n[dst];
    if (LIKELY(r == 0) || cycle < tx->run_at[dst])
        return;
    uint64_t k = cycle - tx->run_at[dst] + 1;
    if (k > r)
        k = r;
    tx->credits[dst] += (uint32_t)k;
    tx->run_n[dst] = r - (uint32_t)k;
    tx->run_at[dst] += k;
}

void icnt_tx_credit(struct icnt_tx *tx, uint32_t dst, cycle_t cycle) { icnt_tx_credits(tx, dst, 1, cycle); }

void icnt_tx_credits(struct icnt_tx *tx, uint32_t dst, uint32_t n, cycle_t cycle)
{
    SIM_ASSERT(dst < tx->n_ep && n >= 1, "icnt_tx %u: %u credits from %u of %u", tx->ep, n, dst, tx->n_ep);
    /* The receiver takes one flit per cycle and the link's latency is
     * fixed, so an earlier run has arrived in full by now. */
    tx_settle(tx, dst, cycle);
    SIM_ASSERT(tx->run_n[dst] == 0, "icnt_tx %u: credits from %u at %llu overlap a run", tx->ep, dst,
               (unsigned long long)cycle);
    SIM_ASSERT(tx->credits[dst] + n <= (dst == tx->via ? tx->via_cap : tx->fifo_flits),
               "icnt_tx %u: %u credits from %u beyond the FIFO depth %u", tx->ep, n, dst,
               dst == tx->via ? tx->via_cap : tx->fifo_flits);
    tx->credits[dst]++; /* the first arrives now */
    tx->run_n[dst] = n - 1;
    tx->run_at[dst] = cycle + 1;
}

/* The head packet's tail left: free its slot and its flits of buffer space. */
static void tx_pop_head(struct icnt_tx *tx)
{
    tx->used_flits -= tx->pkt[tx->head].n_flits;
    tx->head = tx->head + 1 == tx->cap ? 0 : tx->head + 1;
    tx->n--;
    tx->st.packets++;
}

uint64_t icnt_tx_tick_work(struct icnt_tx *tx, cycle_t cycle)
{
#ifndef NDEBUG
    icnt_tx_check(tx);
#endif
    if (tx->n == 0)
        return CYCLE_NEVER;
    struct icnt_tx_pkt *p = &tx->pkt[tx->head];
    if (tx->burst_end != CYCLE_NEVER) { /* NOTE(icnt-burst): the head packet is on the link */
        if (cycle < tx->burst_end)
            return tx->burst_end;
        SIM_ASSERT(cycle == tx->burst_end, "icnt_tx %u: burst tail due at %llu, ticked at %llu", tx->ep,
                   (unsigned long long)tx->burst_end, (unsigned long long)cycle);
        tx->burst_end = CYCLE_NEVER;
        tx_pop_head(tx); /* its tail leaves now */
        return tx->n ? cycle + 1 : CYCLE_NEVER;
    }
    /* The link's far end: the destination, or the xbar_iq switch, whose
     * input buffer the credits then count. */
    uint32_t hop = tx->via == UINT32_MAX ? p->dst : tx->via;
    tx_settle(tx, hop, cycle);
    if (tx->credits[hop] == 0) {
        /* Head-of-line: the next packet waits even if its destination has
         * credits (one injection channel, packets in order; spec 2.7). The
         * stall is accounted when the flit finally leaves, so skipped
         * ticks are counted too. */
        if (tx->stall_since == CYCLE_NEVER)
            tx->stall_since = cycle;
        /* woken by icnt_tx_credits, or at the next credit of a run */
        return tx->run_n[hop] ? tx->run_at[hop] : CYCLE_NEVER;
    }
    if (tx->stall_since != CYCLE_NEVER) {
        tx->st.credit_stall_cycles += cycle - tx->stall_since;
        tx->stall_since = CYCLE_NEVER;
    }
    struct icnt_flit f = {.src = (uint16_t)tx->ep, .dst = (uint16_t)p->dst, .idx = p->sent, .n_flits = p->n_flits,
                          .seq = p->seq, .burst = 1, .hop = (uint16_t)hop, .t_inject = p->t_inject};
    if (tx->burst && p->sent == 0 && p->n_flits > 1 && tx->credits[p->dst] >= p->n_flits) {
        /* NOTE(icnt-burst): flit k leaves at cycle + k; one message for all */
        tx->credits[p->dst] -= p->n_flits;
        f.burst = p->n_flits;
        p->sent = p->n_flits;
        tx->st.flits += p->n_flits;
        tx->burst_end = cycle + p->n_flits - 1;
        tx->send_flit(tx->ctx, &f, tx->pay + (size_t)tx->head * tx->payload_bytes,
                      cycle + icnt_topo_lat(tx->topo, tx->ep, p->dst));
        return tx->burst_end;
    }
    tx->credits[hop]--;
    p->sent++;
    tx->st.flits++;
    bool tail = p->sent == p->n_flits;
    /* The payload rides on the tail (NOTE(icnt-tail-payload) in icnt.h);
     * with payload_bytes 0 the tail still gets a non-NULL (empty) pointer. */
    const void *payload = tail ? tx->pay + (size_t)tx->head * tx->payload_bytes : NULL;
    uint64_t arrive = cycle + icnt_topo_lat(tx->topo, tx->ep, hop);
    if (tx->jitter) {
        /* NOTE(icnt-jitter): icnt.jitter adds a random 0..jitter cycles to every
         * flit of a packet (drawn at its head flit), and never lets a flit
         * arrive before the previous one to the same destination: packets
         * between one pair stay in order, packets to different destinations
         * may overtake each other. Only ever later than the minimum latency,
         * so the engine's lookahead holds. For litmus tests (docs/memmodel.md). */
        if (p->sent == 1) {
            tx->rng ^= tx->rng << 13, tx->rng ^= tx->rng >> 7, tx->rng ^= tx->rng << 17;
            tx->pkt_extra = (uint32_t)(tx->rng % ((uint64_t)tx->jitter + 1));
        }
        arrive += tx->pkt_extra;
        if (arrive <= tx->last_arr[hop])
            arrive = tx->last_arr[hop] + 1;
        tx->last_arr[hop] = arrive;
    }
    tx->send_flit(tx->ctx, &f, payload, arrive);
    if (tail)
        tx_pop_head(tx); /* the slot is freed when the tail leaves */
    return tx->n ? cycle + 1 : CYCLE_NEVER;
}

bool icnt_tx_idle(const struct icnt_tx *tx) { return tx->n == 0; }

void icnt_tx_check(const struct icnt_tx *tx)
{
    SIM_ASSERT(tx->n <= tx->cap && tx->head < tx->cap, "icnt_tx %u: ring head %u n %u cap %u", tx->ep, tx->head,
               tx->n, tx->cap);
    uint32_t flits = 0;
    for (uint32_t i = 0; i < tx->n; i++) {
        uint32_t s = tx->head + i;
        if (s >= tx->cap)
            s -= tx->cap;
        SIM_ASSERT((tx->pkt[s].sent < tx->pkt[s].n_flits || (i == 0 && tx->burst_end != CYCLE_NEVER)) &&
                       (i == 0 || tx->pkt[s].sent == 0),
                   "icnt_tx %u: packet %u has sent %u of %u flits", tx->ep, i, tx->pkt[s].sent, tx->pkt[s].n_flits);
        flits += tx->pkt[s].n_flits;
    }
    SIM_ASSERT(flits == tx->used_flits && flits <= tx->buf_flits, "icnt_tx %u: %u flits held, counter %u, cap %u",
               tx->ep, flits, tx->used_flits, tx->buf_flits);
    for (uint32_t d = 0; d < tx->n_ep; d++)
        SIM_ASSERT(tx->credits[d] + tx->run_n[d] <= (d == tx->via ? tx->via_cap : tx->fifo_flits),
                   "icnt_tx %u: %u credits (+ %u of a run) for %u (depth %u)", tx->ep, tx->credits[d],
                   tx->run_n[d], d, d == tx->via ? tx->via_cap : tx->fifo_flits);
}

void icnt_tx_stats_register(struct icnt_tx *tx, struct stats *s, const char *group)
{
    int i = (int)tx->ep;
    stats_counter(s, group, i, "tx_packets", &tx->st.packets, "packets sent (tail left the sender)");
    stats_counter(s, group, i, "tx_flits", &tx->st.flits, "flits put on the link");
    stats_counter(s, group, i, "tx_credit_stall_cycles", &tx->st.credit_stall_cycles,
                  "interconnect cycles the injection head waited for a credit");
    stats_counter(s, group, i, "tx_inj_refused", &tx->st.inj_refused,
                  "pushes refused because the injection buffer was full");
    stats_max(s, group, i, "tx_occ_max", &tx->st.occ_max, "largest injection-buffer occupancy (flits)");
}

/* ------------------------------------------------------------- receiver half */

void icnt_rx_init(struct icnt_rx *rx, const struct icnt_rx_args *a)
{
    const struct icnt_topo *t = a->topo;
    SIM_ASSERT(a->ep < t->n_ep, "icnt_rx: endpoint %u of %u", a->ep, t->n_ep);
    SIM_ASSERT(a->ops.can_accept && a->ops.deliver && a->ops.send_credit, "icnt_rx %u: missing ops", a->ep);
    *rx = (struct icnt_rx){0};
    rx->ep = a->ep;
    rx->n_src = t->n_ep;
    rx->cap = icnt_rx_fifo_depth(a->cfg, t->min_latency) + t->fifo_extra;
    rx->payload_bytes = a->payload_bytes;
    rx->fl = xcalloc((size_t)rx->n_src * rx->cap, sizeof *rx->fl);
    rx->pay = xcalloc((size_t)rx->n_src * rx->cap * (a->payload_bytes ? a->payload_bytes : 1), 1);
    rx->fhead = xcalloc(rx->n_src, sizeof *rx->fhead);
    rx->fcount = xcalloc(rx->n_src, sizeof *rx->fcount);
    rx->ne_words = (rx->n_src + 63) / 64;
    rx->ne = xcalloc(rx->ne_words, sizeof *rx->ne);
    rx->lock_src = UINT32_MAX;
    rx->bubble_since = CYCLE_NEVER;
    rx->runs = t->burst && t->sw_ep == UINT32_MAX && a->ops.send_credits; /* NOTE(credit-run) */
    rx->topo = t;
    rx->pol = t->pol;
    rx->ops = a->ops;
    rx->ctx = a->ctx;
}

void icnt_rx_fini(struct icnt_rx *rx)
{
    free(rx->fl);
    free(rx->pay);
    free(rx->fhead);
    free(rx->fcount);
    free(rx->ne);
    *rx = (struct icnt_rx){0};
}

void icnt_rx_flit_arrive(struct icnt_rx *rx, const struct icnt_flit *f, const void *payload, cycle_t cycle)
{
    (void)cycle;
    uint32_t s = f->src;
    uint32_t nb = icnt_flit_burst(f); /* NOTE(icnt-burst): flits idx .. idx + nb - 1 */
    SIM_ASSERT(s < rx->n_src && f->dst == rx->ep && f->hop == rx->ep && f->idx + nb <= f->n_flits,
               "icnt_rx %u: flit %u->%u (hop %u)", rx->ep, f->src, f->dst, f->hop);
    SIM_ASSERT(rx->fcount[s] + nb <= rx->cap, "icnt_rx %u: FIFO of source %u overflows (%u flits): credits violated",
               rx->ep, s, rx->cap);
    rx->ne[s >> 6] |= 1ull << (s & 63);
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t slot = rx->fhead[s] + rx->fcount[s];
        if (slot >= rx->cap)
            slot -= rx->cap;
        size_t idx = (size_t)s * rx->cap + slot;
        rx->fl[idx] = *f;
        rx->fl[idx].idx = (uint8_t)(f->idx + k);
        rx->fl[idx].burst = 1;
        if (icnt_flit_is_tail(&rx->fl[idx]) && rx->payload_bytes) {
            SIM_ASSERT(payload, "icnt_rx %u: tail flit from %u without payload", rx->ep, s);
            memcpy(rx->pay + idx * rx->payload_bytes, payload, rx->payload_bytes);
        }
        rx->fcount[s]++;
        rx->n_flits_held++;
    }
}

/* Take the head flit of s's FIFO and return its credit. */
static void rx_pop(struct icnt_rx *rx, uint32_t s, const struct icnt_flit *f, cycle_t cycle)
{
    if (rx->ops.on_flit)
        rx->ops.on_flit(rx->ctx, f, cycle);
    uint32_t held = rx->fcount[s]; /* with f */
    rx->fhead[s] = rx->fhead[s] + 1 == rx->cap ? 0 : rx->fhead[s] + 1;
    if (--rx->fcount[s] == 0)
        rx->ne[s >> 6] &= ~(1ull << (s & 63));
    rx->n_flits_held--;
    rx->st.flits++;
    if (rx->prepaid) { /* NOTE(credit-run): this flit's credit left with its head's */
        SIM_ASSERT(cycle == rx->prepaid_at, "icnt_rx %u: flit of a credit run taken at %llu, due at %llu", rx->ep,
                   (unsigned long long)cycle, (unsigned long long)rx->prepaid_at);
        rx->prepaid--;
        rx->prepaid_at++;
        return;
    }
    uint64_t arrive = cycle + icnt_topo_lat(rx->topo, rx->ep, s); /* back to s */
    if (rx->runs && f->idx == 0 && held >= f->n_flits) {
        /* NOTE(credit-run): the whole packet is here, so flit k leaves at
         * cycle + k (the tail only when the endpoint cannot refuse it) */
        uint32_t n = rx->ops.accept_holds ? f->n_flits : f->n_flits - 1u;
        if (n >= 2) {
            rx->prepaid = n - 1;
            rx->prepaid_at = cycle + 1;
            rx->ops.send_credits(rx->ctx, s, rx->ep, arrive, n);
            return;
        }
    }
    rx->ops.send_credit(rx->ctx, s, rx->ep, arrive);
}

uint64_t icnt_rx_tick_work(struct icnt_rx *rx, cycle_t cycle)
{
#ifndef NDEBUG
    icnt_rx_check(rx);
#endif
    if (rx->n_flits_held == 0) {
        if (rx->lock_src != UINT32_MAX && rx->bubble_since == CYCLE_NEVER)
            rx->bubble_since = cycle; /* mid-packet, next flit still on the link */
        return CYCLE_NEVER;           /* woken by the next arrival */
    }
    uint32_t s = rx->lock_src;
    if (s == UINT32_MAX) {
        /* Packet boundary: arbitrate, then start the packet only if the
         * endpoint can take all of it (spec 2.7). */
        s = rx->pol->pick(rx);
        if (s == UINT32_MAX)
            return CYCLE_NEVER;
        const struct icnt_flit *h = icnt_rx_fifo_head(rx, s);
        SIM_ASSERT(h->idx == 0, "icnt_rx %u: FIFO of %u starts with flit %u of a packet", rx->ep, s, h->idx);
        if (!rx->ops.can_accept(rx->ctx, s, h->n_flits, cycle)) {
            rx->st.eject_full_cycles++;
            return cycle + 1; /* the endpoint may drain at any cycle */
        }
        rx->lock_src = s;
    } else if (rx->fcount[s] == 0) {
        /* Wormhole: the output stays with this packet (other sources wait). */
        if (rx->bubble_since == CYCLE_NEVER)
            rx->bubble_since = cycle;
        return CYCLE_NEVER; /* woken by the arrival of s's next flit */
    }
    /* NOTE(icnt-burst): a burst's flits are held before they arrive, but the
     * output can never take one early: it took the head at or after its
     * arrival and takes at most one flit per cycle, and flit k arrives k
     * cycles after the head (tests/test_icnt.c compares the cycle of every
     * flit taken with flit-by-flit sending). */
    if (rx->bubble_since != CYCLE_NEVER) {
        /* Accounted here so that skipped ticks count too. */
        rx->st.bubble_cycles += cycle - rx->bubble_since;
        rx->bubble_since = CYCLE_NEVER;
    }
    size_t idx = (size_t)s * rx->cap + rx->fhead[s];
    struct icnt_flit f = rx->fl[idx];
    if (icnt_flit_is_tail(&f)) {
        const void *payload = rx->payload_bytes ? rx->pay + idx * rx->payload_bytes : NULL;
        if (!rx->ops.deliver(rx->ctx, s, payload, &f, cycle)) {
            SIM_ASSERT(rx->prepaid == 0, "icnt_rx %u: endpoint refused a tail whose credit left early "
                       "(ops.accept_holds, NOTE(credit-run))", rx->ep);
            rx->st.eject_full_cycles++;
            return cycle + 1;
        }
        uint64_t lat = cycle - f.t_inject;
        stat_avg_add(&rx->st.latency, lat);
        if (lat > rx->st.latency_max)
            rx->st.latency_max = lat;
        rx->st.packets++;
        rx->lock_src = UINT32_MAX;
        /* iSLIP pointer: one past the source just served, after its tail. */
        rx->rr_next = s + 1 == rx->n_src ? 0 : s + 1;
    }
    rx_pop(rx, s, &f, cycle);
    return rx->n_flits_held || rx->lock_src != UINT32_MAX ? cycle + 1 : CYCLE_NEVER;
}

bool icnt_rx_idle(const struct icnt_rx *rx) { return rx->n_flits_held == 0 && rx->lock_src == UINT32_MAX; }

void icnt_rx_check(const struct icnt_rx *rx)
{
    uint32_t sum = 0;
    for (uint32_t s = 0; s < rx->n_src; s++) {
        SIM_ASSERT(rx->fcount[s] <= rx->cap && rx->fhead[s] < rx->cap, "icnt_rx %u: FIFO %u head %u count %u cap %u",
                   rx->ep, s, rx->fhead[s], rx->fcount[s], rx->cap);
        sum += rx->fcount[s];
        SIM_ASSERT(((rx->ne[s >> 6] >> (s & 63)) & 1) == (rx->fcount[s] != 0),
                   "icnt_rx %u: non-empty mask bit of FIFO %u disagrees with its count %u", rx->ep, s, rx->fcount[s]);
    }
    SIM_ASSERT(sum == rx->n_flits_held, "icnt_rx %u: FIFOs hold %u flits, counter %u", rx->ep, sum,
               rx->n_flits_held);
    SIM_ASSERT(rx->lock_src == UINT32_MAX || rx->lock_src < rx->n_src, "icnt_rx %u: lock %u", rx->ep,
               rx->lock_src);
    SIM_ASSERT(rx->rr_next < rx->n_src, "icnt_rx %u: rr pointer %u", rx->ep, rx->rr_next);
    SIM_ASSERT(rx->prepaid == 0 || (rx->lock_src != UINT32_MAX && rx->prepaid <= rx->fcount[rx->lock_src]),
               "icnt_rx %u: %u flits paid ahead, lock %u (NOTE(credit-run))", rx->ep, rx->prepaid, rx->lock_src);
}

void icnt_rx_stats_register(struct icnt_rx *rx, struct stats *s, const char *group)
{
    int i = (int)rx->ep;
    stats_counter(s, group, i, "rx_packets", &rx->st.packets, "packets delivered to the endpoint");
    stats_counter(s, group, i, "rx_flits", &rx->st.flits, "flits taken by the output");
    stats_avg(s, group, i, "rx_latency", &rx->st.latency,
              "interconnect cycles from push at the sender to delivery, per packet");
    stats_max(s, group, i, "rx_latency_max", &rx->st.latency_max, "largest packet latency (interconnect cycles)");
    stats_counter(s, group, i, "rx_eject_full_cycles", &rx->st.eject_full_cycles,
                  "cycles a packet waited because the endpoint (ejection buffer / L2 input) was full");
    stats_counter(s, group, i, "rx_bubble_cycles", &rx->st.bubble_cycles,
                  "cycles the output was held by a packet whose next flit had not arrived");
}
