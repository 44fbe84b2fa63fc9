/* sim/icnt/icnt_iq.c: the central switch of icnt.topology = xbar_iq, an
 * input-queued crossbar as in GPGPU-Sim 3.x's GTX480 network (BookSim fly,
 * k = n_SM + n_sub-partitions, n = 1: one router, one virtual channel of 8
 * flits per input, iSLIP with one iteration, no internal speedup; spec
 * baseline-gpu.md 1.3 and the table in section 5). docs/icnt.md "xbar_iq".
 *
 * What it models: one FIFO per input; each interconnect cycle every free
 * output grants, round-robin from its iSLIP pointer, one input whose head
 * flit starts a packet for it, and keeps that input until the packet's tail
 * has passed (with one VC the output VC is held by the packet). With one
 * VC every input requests exactly one output (its head's), so the
 * request-grant-accept of iSLIP reduces to the output's grant, and the
 * grant pointer moves one past the input served when its tail leaves. An
 * input moves at most one flit per cycle, an output at most one; a flit
 * also needs a credit for the destination's FIFO. The effect that matters:
 * a packet waits behind its input's head, whatever its own destination
 * (head-of-line blocking), which caps a uniformly loaded input-queued
 * switch at about 59 % of its links' bandwidth; xbar (FIFOs per source at
 * each receiver) has no such cap.
 *
 * What it does not model: more than one VC, input or output speedup,
 * fractional internal speedups, BookSim's router pipeline beyond the
 * allocation delay (the links carry icnt.min_latency in all, NOTE(iq-links)
 * in topology.c), and BookSim's ejection buffers (the destination's
 * receiver FIFO, icnt.rx_fifo_flits, plays that part).
 *
 * NOTE(iq-speedup): icnt.iq_speedup S is BookSim's internal speedup (the
 * router's internal step runs S times per cycle; GPGPU-Sim 4.x's
 * config_fermi_islip.icnt has 2.0, 3.x's 1.0). Each interconnect cycle has
 * S switch rounds, numbered cycle x S + k; grants, the allocation delay
 * (icnt.iq_alloc_delay, in rounds) and the one-flit-per-round limit of
 * inputs and outputs count rounds. A flit that crosses goes into its
 * output's queue at the switch, which sends one flit per cycle onto the
 * link (BookSim's output buffer, unbounded there: here the destination's
 * credits, taken at the crossing, bound it); out_free is the cycle the
 * link is next free, so the queue needs no storage and its flits keep
 * their order. Likewise the input's credit link returns one credit per
 * cycle (BookSim queues a credit per internal step and sends one per
 * cycle). So with S = 2 a lone packet crosses in its arrival cycle (grant
 * in round 0, head in round 1), an input drains its FIFO at up to 2 flits
 * per cycle, and an output freed by a tail starts the next packet one
 * cycle later instead of two: head-of-line blocking mostly disappears,
 * which is what 4.x's network has. With S = 1 every flit leaves in the
 * cycle it crosses, as before the key existed.
 *
 * NOTE(iq-buffer): the sender's credits count the input FIFO, and a credit
 * returns over the two links (icnt.min_latency cycles) after its flit left
 * the switch, so the FIFO holds icnt.iq_buf_flits (GPGPU-Sim 3.x
 * vc_buf_size 8) plus that credit loop: a lone source streams one flit per
 * cycle, and a blocked input holds at most iq_buf_flits + min_latency flits.
 *
 * NOTE(iq-alloc): BookSim's router (not speculative, vc_alloc_delay 1,
 * sw_alloc_delay 1, routing precomputed) allocates the output VC to a head
 * in one cycle and the switch in the next. The grant here is the VC
 * allocation and the head crosses icnt.iq_alloc_delay = 1 round later
 * (rounds are cycles at icnt.iq_speedup 1, as in the numbers below); the
 * output is held meanwhile. So an output freed by a tail at t moves
 * the next head at t + 2, and an input that sent a tail at t sends its
 * next head at t + 2 at the earliest (BookSim: the tail's switch
 * allocation at t frees the VC, the next head is VC-allocated at t + 1
 * and switch-allocated at t + 2). With 1-flit packets an input or an
 * output moves at most one packet every other cycle. As in BookSim, the
 * grant needs only a free output (VC allocation does not look at the
 * downstream buffer); each flit's move needs a credit for it (switch
 * allocation does), so a packet granted while its destination is full
 * moves as soon as the first credit is back.
 *
 * Hot path: no allocation; each round visits the active outputs (a mask)
 * and, for a free output with requests, scans its request bitmask from the
 * grant pointer.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/icnt/icnt.h"

uint32_t icnt_iq_in_cap(const struct icnt_net_cfg *c, uint64_t min_latency)
{
    return (uint32_t)(c->iq_buf_flits + min_latency);
}

void icnt_iq_init(struct icnt_iq *q, const struct icnt_iq_args *a)
{
    const struct icnt_topo *t = a->topo;
    SIM_ASSERT(t->sw_ep != UINT32_MAX && a->send_flit && a->send_credit, "icnt_iq: no switch node or callbacks");
    *q = (struct icnt_iq){0};
    q->ep = t->sw_ep;
    q->n = t->n_ep;
    q->cap = icnt_iq_in_cap(a->cfg, t->min_latency);
    q->out_cap = icnt_rx_fifo_depth(a->cfg, t->min_latency) + t->fifo_extra;
    q->payload_bytes = a->payload_bytes;
    q->fl = xcalloc((size_t)q->n * q->cap, sizeof *q->fl);
    q->farr = xcalloc((size_t)q->n * q->cap, sizeof *q->farr);
    q->pay = xcalloc((size_t)q->n * q->cap * (a->payload_bytes ? a->payload_bytes : 1), 1);
    q->fhead = xcalloc(q->n, sizeof *q->fhead);
    q->fcount = xcalloc(q->n, sizeof *q->fcount);
    q->out_lock = xcalloc(q->n, sizeof *q->out_lock);
    q->gptr = xcalloc(q->n, sizeof *q->gptr);
    q->credits = xcalloc(q->n, sizeof *q->credits);
    q->in_last = xcalloc(q->n, sizeof *q->in_last);
    q->out_ready = xcalloc(q->n, sizeof *q->out_ready);
    q->req_words = (q->n + 63) / 64;
    q->req = xcalloc((size_t)q->n * q->req_words, sizeof *q->req);
    q->req_cnt = xcalloc(q->n, sizeof *q->req_cnt);
    q->act = xcalloc(q->req_words, sizeof *q->act);
    q->alloc_delay = (uint32_t)a->cfg->iq_alloc_delay;
    q->speedup = a->cfg->iq_speedup ? (uint32_t)a->cfg->iq_speedup : 1;
    q->out_free = xcalloc(q->n, sizeof *q->out_free);
    q->cr_free = xcalloc(q->n, sizeof *q->cr_free);
    for (uint32_t o = 0; o < q->n; o++) {
        q->out_lock[o] = UINT32_MAX;
        q->credits[o] = q->out_cap;
        q->in_last[o] = CYCLE_NEVER;
    }
    q->topo = t;
    q->send_flit = a->send_flit;
    q->send_credit = a->send_credit;
    q->ctx = a->ctx;
}

void icnt_iq_fini(struct icnt_iq *q)
{
    free(q->fl);
    free(q->farr);
    free(q->pay);
    free(q->fhead);
    free(q->fcount);
    free(q->out_lock);
    free(q->gptr);
    free(q->credits);
    free(q->in_last);
    free(q->out_ready);
    free(q->out_free);
    free(q->cr_free);
    free(q->req);
    free(q->req_cnt);
    free(q->act);
    *q = (struct icnt_iq){0};
}

static void req_set(struct icnt_iq *q, uint32_t o, uint32_t i)
{
    q->req[(size_t)o * q->req_words + (i >> 6)] |= 1ull << (i & 63);
    q->req_cnt[o]++;
    q->act[o >> 6] |= 1ull << (o & 63);
}

static void req_clear(struct icnt_iq *q, uint32_t o, uint32_t i)
{
    q->req[(size_t)o * q->req_words + (i >> 6)] &= ~(1ull << (i & 63));
    q->req_cnt[o]--;
}

void icnt_iq_flit_arrive(struct icnt_iq *q, const struct icnt_flit *f, const void *payload, cycle_t cycle)
{
    uint32_t s = f->src;
    SIM_ASSERT(s < q->n && s != q->ep && f->hop == q->ep && f->dst < q->n && f->dst != q->ep &&
                   icnt_flit_burst(f) == 1,
               "icnt_iq %u: flit %u->%u (hop %u, burst %u)", q->ep, f->src, f->dst, f->hop, f->burst);
    SIM_ASSERT(q->fcount[s] < q->cap, "icnt_iq %u: input %u overflows (%u flits): credits violated", q->ep, s,
               q->cap);
    uint32_t slot = q->fhead[s] + q->fcount[s];
    if (slot >= q->cap)
        slot -= q->cap;
    size_t idx = (size_t)s * q->cap + slot;
    q->fl[idx] = *f;
    q->farr[idx] = cycle;
    if (icnt_flit_is_tail(f) && q->payload_bytes) {
        SIM_ASSERT(payload, "icnt_iq %u: tail flit from %u without payload", q->ep, s);
        memcpy(q->pay + idx * q->payload_bytes, payload, q->payload_bytes);
    }
    if (q->fcount[s] == 0 && f->idx == 0)
        req_set(q, f->dst, s); /* a packet head at the front: it requests its output */
    q->fcount[s]++;
    q->n_held++;
    if (q->fcount[s] > q->st.occ_max)
        q->st.occ_max = q->fcount[s];
}

void icnt_iq_credit(struct icnt_iq *q, uint32_t dst, cycle_t cycle)
{
    (void)cycle;
    SIM_ASSERT(dst < q->n && q->credits[dst] < q->out_cap, "icnt_iq %u: credit from %u beyond the FIFO depth %u",
               q->ep, dst, q->out_cap);
    q->credits[dst]++;
}

/* The input output o grants: round-robin from its pointer, the first input
 * requesting o (its head flit starts a packet for o) that has not moved a
 * flit this round; UINT32_MAX when none. Scans o's request bitmask from
 * the pointer's word, wrapping once. */
static uint32_t iq_grant(const struct icnt_iq *q, uint32_t o, uint64_t round)
{
    const uint64_t *m = q->req + (size_t)o * q->req_words;
    uint32_t start = q->gptr[o];
    for (uint32_t k = 0; k <= q->req_words; k++) {
        uint32_t w = (start >> 6) + k;
        if (w >= q->req_words)
            w -= q->req_words;
        uint64_t bits = m[w];
        if (k == 0)
            bits &= ~0ull << (start & 63); /* inputs from the pointer on */
        else if (k == q->req_words)
            bits &= (start & 63) ? ~(~0ull << (start & 63)) : 0; /* wrapped: those before it */
        while (bits) {
            uint32_t i = (w << 6) + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (q->in_last[i] != round)
                return i;
        }
    }
    return UINT32_MAX;
}

/* Output o's turn in a round: grant an input or move one flit of the
 * packet holding o; true when a flit moved. */
static inline bool iq_output(struct icnt_iq *q, uint32_t o, cycle_t cycle, uint64_t round, uint64_t *next)
{
    uint32_t s = q->out_lock[o];
    if (s == UINT32_MAX) {
        /* NOTE(iq-alloc): the grant (VC allocation) needs a free output,
         * not a credit; moving a flit (switch allocation) needs one. */
        if (!q->req_cnt[o])
            return false;
        s = iq_grant(q, o, round);
        if (s == UINT32_MAX)
            return false;
        req_clear(q, o, s);
        q->out_lock[o] = s;
        q->out_ready[o] = round + q->alloc_delay;
        uint64_t w = cycle - q->farr[(size_t)s * q->cap + q->fhead[s]];
        stat_avg_add(&q->st.wait, w);
        if (w > q->st.wait_max)
            q->st.wait_max = w;
    } else if (q->fcount[s] == 0) {
        return false; /* the packet's next flit is still on the link */
    }
    if (round < q->out_ready[o]) {
        /* NOTE(iq-alloc): the head waits out the allocation pipeline */
        uint64_t c = q->out_ready[o] / q->speedup; /* this cycle: a later round moves it */
        if (c > cycle && c < *next)
            *next = c;
        return false;
    }
    if (q->credits[o] == 0)
        return false; /* woken by the destination's credit */
    size_t idx = (size_t)s * q->cap + q->fhead[s];
    struct icnt_flit f = q->fl[idx];
    q->fhead[s] = q->fhead[s] + 1 == q->cap ? 0 : q->fhead[s] + 1;
    q->fcount[s]--;
    q->n_held--;
    if (q->fcount[s] && icnt_flit_is_tail(&f)) /* the next packet's head reaches the front */
        req_set(q, q->fl[(size_t)s * q->cap + q->fhead[s]].dst, s);
    q->in_last[s] = round;
    q->credits[o]--;
    q->st.flits++;
    /* NOTE(iq-speedup): one credit per cycle back to the source, one
     * flit per cycle onto the output's link (always this cycle at S = 1) */
    uint64_t cr = cycle > q->cr_free[s] ? cycle : q->cr_free[s];
    q->cr_free[s] = cr + 1;
    q->send_credit(q->ctx, s, q->ep, cr + icnt_topo_lat(q->topo, q->ep, s));
    uint64_t dep = cycle > q->out_free[o] ? cycle : q->out_free[o];
    q->out_free[o] = dep + 1;
    bool tail = icnt_flit_is_tail(&f);
    /* The forwarded flit comes from the switch (the destination's FIFO
     * and credits are the switch's); dst, seq and t_inject travel on. */
    f.src = (uint16_t)q->ep;
    f.hop = f.dst;
    f.late = 0;
    const void *payload = NULL;
    if (tail) /* non-NULL on the tail even without payload bytes (as icnt_tx) */
        payload = q->pay + idx * (q->payload_bytes ? q->payload_bytes : 1);
    q->send_flit(q->ctx, &f, payload, dep + icnt_topo_lat(q->topo, q->ep, o));
    if (tail) {
        q->out_lock[o] = UINT32_MAX;
        q->gptr[o] = s + 1 == q->n ? 0 : s + 1;
        q->st.packets++;
    }
    return true;
}

/* One switch round: every output grants or moves at most one flit, in
 * output order. Only the outputs in q->act (held by a packet or
 * requested) can do either; an output that becomes active during the round
 * (a tail brings its input's next head to the front) takes its turn if it
 * comes later in the order, as a scan of every output would give. */
static bool iq_round(struct icnt_iq *q, cycle_t cycle, uint64_t round, uint64_t *next)
{
    bool moved = false;
    for (uint32_t w = 0; w < q->req_words; w++) {
        uint64_t bits = q->act[w];
        while (bits) {
            uint32_t b = (uint32_t)__builtin_ctzll(bits);
            uint32_t o = (w << 6) + b;
            moved |= iq_output(q, o, cycle, round, next);
            if (q->out_lock[o] == UINT32_MAX && !q->req_cnt[o])
                q->act[w] &= ~(1ull << b);
            bits = b == 63 ? 0 : q->act[w] & (~0ull << (b + 1));
        }
    }
    return moved;
}

uint64_t icnt_iq_tick(struct icnt_iq *q, cycle_t cycle)
{
#ifndef NDEBUG
    icnt_iq_check(q);
#endif
    if (q->n_held == 0)
        return CYCLE_NEVER;
    bool moved = false;
    uint64_t next = CYCLE_NEVER; /* earliest end of an allocation delay */
    for (uint32_t k = 0; k < q->speedup && q->n_held; k++)
        moved |= iq_round(q, cycle, (uint64_t)cycle * q->speedup + k, &next);
    /* Nothing moved: the state changes only when a flit or a credit
     * arrives, which wakes the switch. */
    if (moved && q->n_held && cycle + 1 < next)
        next = cycle + 1;
    return next;
}

bool icnt_iq_idle(const struct icnt_iq *q) { return q->n_held == 0; }

void icnt_iq_check(const struct icnt_iq *q)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        SIM_ASSERT(q->fcount[i] <= q->cap && q->fhead[i] < q->cap && q->credits[i] <= q->out_cap &&
                       (q->out_lock[i] == UINT32_MAX || q->out_lock[i] < q->n),
                   "icnt_iq %u: port %u: head %u count %u credits %u lock %u", q->ep, i, q->fhead[i], q->fcount[i],
                   q->credits[i], q->out_lock[i]);
        sum += q->fcount[i];
    }
    SIM_ASSERT(sum == q->n_held, "icnt_iq %u: inputs hold %u flits, counter %u", q->ep, sum, q->n_held);
    /* Input i requests output o iff its head starts a packet for o that no
     * output holds yet. */
    for (uint32_t o = 0; o < q->n; o++) {
        uint32_t cnt = 0;
        for (uint32_t i = 0; i < q->n; i++) {
            bool bit = (q->req[(size_t)o * q->req_words + (i >> 6)] >> (i & 63)) & 1;
            const struct icnt_flit *h = q->fcount[i] ? &q->fl[(size_t)i * q->cap + q->fhead[i]] : NULL;
            bool want = h && h->idx == 0 && h->dst == o && q->out_lock[o] != i;
            SIM_ASSERT(bit == want, "icnt_iq %u: request bit of input %u for output %u is %d", q->ep, i, o, bit);
            cnt += bit;
        }
        SIM_ASSERT(cnt == q->req_cnt[o], "icnt_iq %u: output %u has %u requests, counter %u", q->ep, o, cnt,
                   q->req_cnt[o]);
        bool act = (q->act[o >> 6] >> (o & 63)) & 1;
        SIM_ASSERT(act == (q->out_lock[o] != UINT32_MAX || cnt > 0), "icnt_iq %u: output %u active bit %d", q->ep,
                   o, act);
    }
}

void icnt_iq_stats_register(struct icnt_iq *q, struct stats *s, const char *group)
{
    stats_counter(s, group, -1, "packets", &q->st.packets, "packets switched (tail left the switch)");
    stats_counter(s, group, -1, "flits", &q->st.flits, "flits switched");
    stats_avg(s, group, -1, "wait", &q->st.wait,
                  "icnt cycles from a packet's head reaching the switch to its grant (queueing and head-of-line)");
    stats_max(s, group, -1, "wait_max", &q->st.wait_max, "largest wait for a grant (icnt cycles)");
    stats_max(s, group, -1, "in_occ_max", &q->st.occ_max, "largest occupancy of one input FIFO (flits)");
}
