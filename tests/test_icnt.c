/* tests/test_icnt.c: the interconnect halves (sim/icnt/icnt.c), the topology
 * policies (sim/icnt/topology.c) and the icnt_net.* configuration
 * (sim/icnt/icnt_cfg.c).
 *
 * Every number is in simulated interconnect cycles and is derived by hand
 * from the gtx480 defaults (L = icnt.min_latency = 8, flit 32 B, header
 * 8 B, inj_buf 9 flits, rx FIFO F = 2L + 2 = 18 flits) and the rules in
 * sim/icnt/icnt.h: a flit sent by the tx tick at s arrives at s + L and may be
 * taken by the rx tick at s + L; its credit arrives back at s + 2L and is
 * usable by the tx tick at that cycle.
 *
 * Harness: N endpoints (gtx480: 15 SMs + 12 sub-partitions = 27), each with
 * a tx and an rx, joined by a delay queue of events (flits and credits)
 * that models the fixed-latency link. Per cycle t: deliver events arriving
 * at t, let the traffic generator push, tick every tx then every rx, then
 * drain the endpoints (an endpoint holds up to `cap` packets and drains one
 * per cycle from `drain_from`). After every cycle the harness checks
 * credit conservation per (source, destination): credits held by the
 * sender + flits in flight + credits in flight + flits in the receiver's
 * FIFO = F.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/icnt/icnt.h"
#include "sim/base/stats.h"
#include "tap.h"

#define N_SM 15u
#define N_MEM 6u
#define N_SUB 2u
#define N_EP (N_SM + N_MEM * N_SUB) /* 27 */
#define L 8u

/* ------------------------------------------------------------- harness */

struct ev {
    uint64_t arrive; /* cycle the event reaches its receiver */
    int credit;      /* 1 = credit (to tx `to` from `from`), 0 = flit */
    uint32_t n_cr;   /* credits of a credit event: one per cycle from `arrive` (NOTE(credit-run)) */
    uint32_t to, from;
    struct icnt_flit f;
    uint64_t pay; /* tail payload: packet id */
};

struct dlv {
    uint64_t cycle; /* delivery cycle */
    uint32_t src, dst;
    uint64_t id;     /* payload */
    uint32_t n_flits;
    uint64_t t_inject;
};

struct net;
struct epctx {
    struct net *n;
    uint32_t ep;
};

struct endpoint {
    uint32_t cap;        /* packets it can hold */
    uint32_t held;       /* packets held */
    uint64_t drain_from; /* first cycle it drains (one packet per cycle) */
};

/* Traffic generator: called each cycle before the ticks. */
typedef void (*gen_fn)(struct net *n, uint64_t t);

struct net {
    struct icnt_net_cfg cfg;
    struct icnt_topo topo;
    uint32_t n_ep, fifo;
    struct icnt_tx tx[N_EP];
    struct icnt_rx rx[N_EP];
    struct epctx ctx[N_EP];
    struct endpoint ep[N_EP];
    struct ev *ev;
    size_t nev, capev;
    struct dlv *log;
    size_t nlog, caplog;
    int64_t fl_flight[N_EP][N_EP]; /* flits in flight src -> dst */
    int64_t cr_flight[N_EP][N_EP]; /* credits in flight to tx src from rx dst */
    uint32_t cur_src[N_EP];        /* per rx: source of the packet being taken, UINT32_MAX none */
    uint32_t cur_idx[N_EP];        /* per rx: next flit index expected */
    uint64_t interleave_errs;      /* flit streams that mixed packets or skipped flits */
    uint64_t conservation_errs;    /* cycles x pairs violating credit conservation */
    uint64_t flits_taken;          /* flits handed to endpoints */
    uint64_t *take_cycle;          /* optional: cycle each flit was taken, by order (single-pair tests) */
    size_t ntake, captake;
    int skip;                      /* 1: tick a half only when it asked or got input */
    uint64_t tx_next[N_EP], rx_next[N_EP];
    gen_fn gen;
    void *gen_state;
    uint64_t drop_credit_at;       /* injected fault: lose the first credit arriving at or after this cycle (0 = off) */
    uint64_t next_id;
    uint64_t flit_msgs;            /* link messages carrying flits (one per flit, or per burst) */
    uint64_t credit_msgs;          /* link messages carrying credits (one per flit, or per run) */
};

static void ev_push(struct net *n, const struct ev *e)
{
    if (n->nev == n->capev) {
        n->capev = n->capev ? 2 * n->capev : 256;
        n->ev = realloc(n->ev, n->capev * sizeof *n->ev);
    }
    n->ev[n->nev++] = *e;
}

static void cb_send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct net *n = ctx;
    struct ev e = {.arrive = arrive, .credit = 0, .to = f->dst, .from = f->src, .f = *f};
    if (icnt_flit_has_tail(f)) /* the message with the tail (a burst's, NOTE(icnt-burst)) */
        memcpy(&e.pay, payload, sizeof e.pay);
    n->fl_flight[f->src][f->dst] += icnt_flit_burst(f);
    n->flit_msgs++;
    ev_push(n, &e);
}

static bool cb_can_accept(void *ctx, uint32_t src, uint32_t n_flits, uint64_t cycle)
{
    (void)src, (void)n_flits, (void)cycle;
    struct epctx *c = ctx;
    return c->n->ep[c->ep].held < c->n->ep[c->ep].cap;
}

static bool cb_deliver(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, uint64_t cycle)
{
    struct epctx *c = ctx;
    struct net *n = c->n;
    struct endpoint *e = &n->ep[c->ep];
    if (e->held >= e->cap)
        return false;
    e->held++;
    if (n->nlog == n->caplog) {
        n->caplog = n->caplog ? 2 * n->caplog : 256;
        n->log = realloc(n->log, n->caplog * sizeof *n->log);
    }
    struct dlv d = {.cycle = cycle, .src = src, .dst = c->ep, .n_flits = tail->n_flits, .t_inject = tail->t_inject};
    memcpy(&d.id, payload, sizeof d.id);
    n->log[n->nlog++] = d;
    return true;
}

static void cb_send_credits(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive, uint32_t n)
{
    struct epctx *c = ctx;
    struct ev e = {.arrive = arrive, .credit = 1, .n_cr = n, .to = to_src, .from = from_dst};
    c->n->cr_flight[to_src][from_dst] += n;
    c->n->credit_msgs++;
    ev_push(c->n, &e);
}

static void cb_send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    cb_send_credits(ctx, to_src, from_dst, arrive, 1);
}

static void cb_on_flit(void *ctx, const struct icnt_flit *f, uint64_t cycle)
{
    struct epctx *c = ctx;
    struct net *n = c->n;
    uint32_t d = c->ep;
    /* The output's flit stream must be whole packets in index order. */
    if (f->idx == 0) {
        if (n->cur_src[d] != UINT32_MAX)
            n->interleave_errs++;
        n->cur_src[d] = f->src;
        n->cur_idx[d] = 0;
    } else if (n->cur_src[d] != f->src || n->cur_idx[d] != f->idx) {
        n->interleave_errs++;
    }
    n->cur_idx[d] = f->idx + 1u;
    if (icnt_flit_is_tail(f))
        n->cur_src[d] = UINT32_MAX;
    n->flits_taken++;
    if (n->ntake == n->captake) {
        n->captake = n->captake ? 2 * n->captake : 256;
        n->take_cycle = realloc(n->take_cycle, n->captake * sizeof *n->take_cycle);
    }
    n->take_cycle[n->ntake++] = cycle;
}

/* fifo_extra: flits added to every FIFO (relaxed mode, NOTE(relaxed-fifo)). */
/* burst: packets as one link message when they can (NOTE(icnt-burst)). */
static void net_init_opts(struct net *n, const struct icnt_net_cfg *cfg, uint32_t ep_cap, uint32_t fifo_extra,
                          bool burst)
{
    memset(n, 0, sizeof *n);
    n->cfg = *cfg;
    icnt_topo_init(&n->topo, &n->cfg, L, N_SM, N_MEM, N_SUB);
    n->topo.fifo_extra = fifo_extra;
    n->topo.burst = burst;
    n->n_ep = n->topo.n_ep;
    n->fifo = icnt_rx_fifo_depth(&n->cfg, L) + fifo_extra;
    for (uint32_t i = 0; i < n->n_ep; i++) {
        n->ctx[i] = (struct epctx){n, i};
        struct icnt_tx_args ta = {.ep = i, .topo = &n->topo, .cfg = &n->cfg, .payload_bytes = 8,
                                  .send_flit = cb_send_flit, .ctx = n};
        icnt_tx_init(&n->tx[i], &ta);
        /* credit runs (NOTE(credit-run), with bursts): an endpoint only
         * drains between a packet's head and tail, so accepting holds;
         * odd endpoints do not say so, and their runs stop before the tail */
        struct icnt_rx_args ra = {.ep = i, .topo = &n->topo, .cfg = &n->cfg, .payload_bytes = 8,
                                  .ops = {cb_can_accept, cb_deliver, cb_send_credit, cb_on_flit, cb_send_credits,
                                          i % 2 == 0},
                                  .ctx = &n->ctx[i]};
        icnt_rx_init(&n->rx[i], &ra);
        n->ep[i] = (struct endpoint){.cap = ep_cap, .held = 0, .drain_from = 0};
        n->cur_src[i] = UINT32_MAX;
        n->tx_next[i] = n->rx_next[i] = CYCLE_NEVER;
    }
}

static void net_init_extra(struct net *n, const struct icnt_net_cfg *cfg, uint32_t ep_cap, uint32_t fifo_extra)
{
    net_init_opts(n, cfg, ep_cap, fifo_extra, false);
}

static void net_init(struct net *n, const struct icnt_net_cfg *cfg, uint32_t ep_cap)
{
    net_init_extra(n, cfg, ep_cap, 0);
}

static void net_fini(struct net *n)
{
    for (uint32_t i = 0; i < n->n_ep; i++) {
        icnt_tx_fini(&n->tx[i]);
        icnt_rx_fini(&n->rx[i]);
    }
    icnt_topo_fini(&n->topo);
    free(n->ev);
    free(n->log);
    free(n->take_cycle);
}

/* Push a packet carrying a fresh id; returns the id or UINT64_MAX when refused. */
static uint64_t net_push(struct net *n, uint32_t src, uint32_t dst, uint32_t n_flits, uint64_t t)
{
    uint64_t id = n->next_id;
    if (!icnt_tx_push(&n->tx[src], dst, n_flits, &id, t))
        return UINT64_MAX;
    n->next_id++;
    if (n->skip)
        n->tx_next[src] = t;
    return id;
}

static void net_step(struct net *n, uint64_t t)
{
    /* 1. link: events arriving now, in send order */
    size_t w = 0;
    for (size_t i = 0; i < n->nev; i++) {
        struct ev *e = &n->ev[i];
        if (e->arrive > t) {
            n->ev[w++] = *e;
            continue;
        }
        if (e->arrive < t)
            tap_bail("event for cycle %llu seen at %llu", (unsigned long long)e->arrive, (unsigned long long)t);
        if (e->credit && n->drop_credit_at && t >= n->drop_credit_at) {
            n->drop_credit_at = 0; /* the fault: this credit vanishes on the link */
            n->cr_flight[e->to][e->from] -= e->n_cr;
            continue;
        }
        if (e->credit) {
            n->cr_flight[e->to][e->from] -= e->n_cr;
            icnt_tx_credits(&n->tx[e->to], e->from, e->n_cr, t);
            n->tx_next[e->to] = t;
        } else {
            n->fl_flight[e->from][e->to] -= icnt_flit_burst(&e->f);
            icnt_rx_flit_arrive(&n->rx[e->to], &e->f, icnt_flit_has_tail(&e->f) ? &e->pay : NULL, t);
            n->rx_next[e->to] = t;
        }
    }
    n->nev = w;
    /* 2. endpoints inject */
    if (n->gen)
        n->gen(n, t);
    /* 3. ticks */
    for (uint32_t i = 0; i < n->n_ep; i++)
        if (!n->skip || n->tx_next[i] <= t)
            n->tx_next[i] = icnt_tx_tick(&n->tx[i], t);
    for (uint32_t i = 0; i < n->n_ep; i++)
        if (!n->skip || n->rx_next[i] <= t)
            n->rx_next[i] = icnt_rx_tick(&n->rx[i], t);
    /* 4. endpoints drain one packet per cycle (an endpoint that drained can
     * accept again: in skip mode its rx asked for t + 1 while blocked) */
    for (uint32_t i = 0; i < n->n_ep; i++)
        if (t >= n->ep[i].drain_from && n->ep[i].held)
            n->ep[i].held--;
    /* 5. invariants: credit conservation per pair */
    for (uint32_t s = 0; s < n->n_ep; s++) {
        icnt_tx_check(&n->tx[s]);
        icnt_rx_check(&n->rx[s]);
        for (uint32_t d = 0; d < n->n_ep; d++) {
            int64_t sum = (int64_t)icnt_tx_credits_owed(&n->tx[s], d) + n->fl_flight[s][d] + n->cr_flight[s][d] +
                          (int64_t)icnt_rx_fifo_unpaid(&n->rx[d], s);
            if (sum != (int64_t)n->fifo)
                n->conservation_errs++;
        }
    }
}

/* Idle before cycle t: nothing on the link, no credit of a run still to
 * arrive (NOTE(credit-run): the sender holds a run's later credits, not the
 * link), every half idle. */
static bool net_idle(const struct net *n, uint64_t t)
{
    if (n->nev)
        return false;
    for (uint32_t i = 0; i < n->n_ep; i++) {
        if (!icnt_tx_idle(&n->tx[i]) || !icnt_rx_idle(&n->rx[i]))
            return false;
        for (uint32_t d = 0; d < n->n_ep; d++)
            if (n->tx[i].run_n[d] && n->tx[i].run_at[d] + n->tx[i].run_n[d] > t)
                return false;
    }
    return true;
}

/* Run cycles [from, to) then until idle (bounded). Returns the next cycle. */
static uint64_t net_run(struct net *n, uint64_t from, uint64_t to, uint64_t limit)
{
    uint64_t t = from;
    for (; t < to; t++)
        net_step(n, t);
    while (!net_idle(n, t) && t < limit)
        net_step(n, t++);
    return t;
}

static struct icnt_net_cfg defaults(void)
{
    struct icnt_net_cfg c;
    icnt_net_cfg_defaults(&c);
    return c;
}

/* ------------------------------------------------------------- config and packets */

static void test_config(void)
{
    struct icnt_net_cfg c = defaults();
    TAP_EQ_U64(c.topology, ICNT_TOPO_XBAR, "default topology xbar");
    TAP_EQ_U64(c.flit, 32, "default flit 32 B");
    TAP_EQ_U64(c.inj_buf, 9, "default injection buffer 9 flits");
    /* 0 = auto: 2 x 8 + 2 = 18 */
    TAP_EQ_U64(icnt_rx_fifo_depth(&c, L), 18, "rx FIFO auto depth 2L+2 = 18");
    /* flits = ceil((8 + payload) / 32) */
    TAP_EQ_U64(icnt_flits(&c, 0), 1, "header only: ceil(8/32) = 1 flit");
    TAP_EQ_U64(icnt_flits(&c, 32), 2, "32 B segment: ceil(40/32) = 2 flits");
    TAP_EQ_U64(icnt_flits(&c, 64), 3, "64 B: ceil(72/32) = 3 flits");
    TAP_EQ_U64(icnt_flits(&c, 128), 5, "128 B line: ceil(136/32) = 5 flits");
    struct mem_req rq = {.op = MEM_OP_READ, .size = 128};
    TAP_EQ_U64(icnt_req_flits(&c, &rq), 1, "read request: 1 flit whatever its size");
    rq.op = MEM_OP_WRITE, rq.size = 32;
    TAP_EQ_U64(icnt_req_flits(&c, &rq), 2, "32 B store: 2 flits");
    rq.op = MEM_OP_WRITEBACK, rq.size = 128;
    TAP_EQ_U64(icnt_req_flits(&c, &rq), 5, "L1 write-back: 5 flits");
    struct mem_reply rp = {.op = MEM_OP_READ, .size = 128};
    TAP_EQ_U64(icnt_reply_flits(&c, &rp), 5, "128 B read reply: 5 flits");
    rp.op = MEM_OP_WRITE, rp.size = 0;
    TAP_EQ_U64(icnt_reply_flits(&c, &rp), 1, "store ack: 1 flit");
    rp.op = MEM_OP_ATOMIC, rp.size = 64;
    TAP_EQ_U64(icnt_reply_flits(&c, &rp), 3, "64 B atomic reply: 3 flits");

    const char *key = NULL;
    TAP_OK(icnt_net_cfg_invalid(&c, L, N_SM, N_MEM, &key) == NULL, "defaults valid");
    c.inj_buf = 4;
    TAP_OK(icnt_net_cfg_invalid(&c, L, N_SM, N_MEM, &key) && strcmp(key, "icnt.inj_buf") == 0,
           "inj_buf 4 < largest packet 5 refused");
    c = defaults();
    c.rx_fifo_flits = 4;
    TAP_OK(icnt_net_cfg_invalid(&c, L, N_SM, N_MEM, &key) && strcmp(key, "icnt.rx_fifo_flits") == 0,
           "rx_fifo_flits 4 refused");
    c = defaults();
    c.topology = ICNT_TOPO_MESH2D;
    c.mesh_cols = 4; /* 4 x 4 = 16 < 15 + 6 = 21 */
    TAP_OK(icnt_net_cfg_invalid(&c, L, N_SM, N_MEM, &key) && strcmp(key, "icnt.mesh_cols") == 0,
           "mesh 4x4 too small for 21 nodes");

    /* the key table parses its own defaults and refuses a misspelt topology */
    int ok = 1;
    char why[256];
    const struct cfg_key *topo = NULL;
    for (unsigned i = 0; i < icnt_net_cfg_n_keys; i++) {
        struct icnt_net_cfg p;
        const struct cfg_key *k = &icnt_net_cfg_keys[i];
        if (!cfg_parse_value(k, k->def, (char *)&p + k->offset, why, sizeof why))
            ok = 0;
        if (strcmp(k->name, "topology") == 0)
            topo = k;
    }
    TAP_OK(ok, "every icnt_net default parses");
    int v = -1;
    TAP_OK(topo && cfg_parse_value(topo, "mesh2d", &v, why, sizeof why) && v == ICNT_TOPO_MESH2D,
           "topology accepts mesh2d");
    TAP_OK(topo && !cfg_parse_value(topo, "mesh", &v, why, sizeof why), "topology refuses 'mesh'");
}

/* ------------------------------------------------------------- single packets */

static void test_one_flit(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    uint32_t dst = icnt_ep_of_sub(&n->topo, 0); /* 15 */
    TAP_EQ_U64(dst, 15, "sub-partition 0 is endpoint 15");
    net_push(n, 0, dst, 1, 0);
    uint64_t credits_at[20];
    for (uint64_t t = 0; t < 20; t++) {
        net_step(n, t);
        credits_at[t] = n->tx[0].credits[dst];
    }
    TAP_EQ_U64(n->nlog, 1, "one packet delivered");
    /* sent by tx tick 0, arrives 0 + L = 8, taken by rx tick 8 */
    TAP_EQ_U64(n->log[0].cycle, 8, "1-flit request delivered at min_latency = 8");
    TAP_EQ_U64(credits_at[0], 17, "one credit used: 18 - 1 = 17");
    TAP_EQ_U64(credits_at[15], 17, "credit still away at cycle 15");
    /* credit sent at 8 arrives at 8 + 8 = 16 */
    TAP_EQ_U64(credits_at[16], 18, "credit back at 2L = 16");
    TAP_EQ_U64(n->rx[dst].st.latency_max, 8, "latency statistic 8");
    net_fini(n);
    free(n);
}

static void test_five_flit(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    net_push(n, 3, 20, 5, 0);
    net_run(n, 0, 1, 100);
    TAP_EQ_U64(n->nlog, 1, "5-flit packet delivered");
    TAP_EQ_U64(n->ntake, 5, "5 flits taken");
    /* flits leave at 0..4, arrive and are taken at 8..12 */
    TAP_EQ_U64(n->take_cycle[0], 8, "head taken at 8");
    TAP_EQ_U64(n->take_cycle[4], 12, "tail taken at 12 = head + 4");
    TAP_EQ_U64(n->log[0].cycle, 12, "packet delivered with its tail at 12");
    TAP_EQ_U64(n->interleave_errs, 0, "flits in order");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- two sources */

struct two_src {
    uint32_t left[N_EP]; /* packets still to push per source */
    uint32_t dst, size;
};

static void gen_two(struct net *n, uint64_t t)
{
    struct two_src *g = n->gen_state;
    for (uint32_t s = 0; s < n->n_ep; s++)
        while (g->left[s] && net_push(n, s, g->dst, g->size, t) != UINT64_MAX)
            g->left[s]--;
}

static void test_two_sources(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    struct two_src g = {.dst = 15, .size = 5};
    g.left[0] = 2, g.left[1] = 2;
    n->gen = gen_two, n->gen_state = &g;
    net_run(n, 0, 40, 200);
    TAP_EQ_U64(n->nlog, 4, "four packets delivered");
    /* ids: push order at cycle 0: A0 = 0 (src 0), B0 = 1 (src 1); A1 = 2, B1 = 3 pushed at 5.
     * A0, B0 flits leave 0..4 and arrive 8..12; A1, B1 leave 5..9, arrive 13..17.
     * rr pointer 0: A0 taken 8..12 (tail 12), pointer 1: B0 13..17 (tail 17),
     * pointer 2 wraps to 0: A1 18..22, pointer 1: B1 23..27. */
    const uint64_t want_id[4] = {0, 1, 2, 3}, want_src[4] = {0, 1, 0, 1}, want_cyc[4] = {12, 17, 22, 27};
    int ok = 1;
    for (int i = 0; i < 4 && (size_t)i < n->nlog; i++)
        if (n->log[i].id != want_id[i] || n->log[i].src != want_src[i] || n->log[i].cycle != want_cyc[i]) {
            ok = 0;
            tap_diag("delivery %d: id %llu src %u cycle %llu", i, (unsigned long long)n->log[i].id, n->log[i].src,
                     (unsigned long long)n->log[i].cycle);
        }
    TAP_OK(ok, "round-robin per packet: A0@12 B0@17 A1@22 B1@27");
    TAP_EQ_U64(n->interleave_errs, 0, "no interleaving of two packets' flits");
    TAP_EQ_U64(n->flits_taken, 20, "20 flits taken");
    TAP_EQ_U64(n->conservation_errs, 0, "credits conserved every cycle");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- credits */

struct stream {
    uint32_t src, dst, left;
    const uint32_t *sizes; /* NULL = all 1 flit */
    uint32_t k;            /* next size index */
};

static void gen_stream(struct net *n, uint64_t t)
{
    struct stream *g = n->gen_state;
    while (g->left) {
        uint32_t sz = g->sizes ? g->sizes[g->k] : 1;
        if (net_push(n, g->src, g->dst, sz, t) == UINT64_MAX)
            break;
        g->left--, g->k++;
    }
}

/* Stream 64 one-flit packets 0 -> 15 with a FIFO of `fifo` flits. Returns
 * 1 when flit k was taken at 8 + 16 * (k / W) + k % W for every k, with
 * W = min(fifo, 16) (16 = 2L: credit round trip), and reports the stall. */
static int stream_run_extra(uint32_t fifo, uint32_t extra, uint64_t *stall, uint64_t *last)
{
    struct icnt_net_cfg c = defaults();
    c.rx_fifo_flits = fifo;
    struct net *n = malloc(sizeof *n);
    net_init_extra(n, &c, 1000, extra);
    struct stream g = {.src = 0, .dst = 15, .left = 64};
    n->gen = gen_stream, n->gen_state = &g;
    net_run(n, 0, 1, 1000);
    uint32_t W = fifo + extra < 16 ? fifo + extra : 16;
    int ok = n->ntake == 64 && n->conservation_errs == 0;
    for (uint32_t k = 0; k < n->ntake; k++)
        if (n->take_cycle[k] != 8u + 16u * (k / W) + k % W)
            ok = 0;
    *stall = n->tx[0].st.credit_stall_cycles;
    *last = n->nlog ? n->log[n->nlog - 1].cycle : 0;
    net_fini(n);
    free(n);
    return ok;
}

static int stream_run(uint32_t fifo, uint64_t *stall, uint64_t *last) { return stream_run_extra(fifo, 0, stall, last); }

static void test_credits(void)
{
    uint64_t stall, last;
    /* F = 18: flit k leaves at k, taken at k + 8; last (k = 63) at 71 */
    TAP_OK(stream_run(18, &stall, &last), "F = 2L+2 = 18: flit k taken at 8 + k");
    TAP_EQ_U64(stall, 0, "F = 18 never stalls");
    TAP_EQ_U64(last, 71, "last of 64 delivered at 63 + 8 = 71");
    /* F = 16 = 2L: a credit comes back exactly when needed */
    TAP_OK(stream_run(16, &stall, &last), "F = 2L = 16: still 1 flit per cycle");
    TAP_EQ_U64(stall, 0, "F = 16 never stalls (the +2 of spec 3.4 is slack)");
    /* F = 15: flit k leaves at 16 (k / 15) + k % 15; one stall cycle before
     * k = 15, 30, 45, 60 = 4; k = 63 leaves at 64 + 3 = 67, delivered 75 */
    TAP_OK(stream_run(15, &stall, &last), "F = 15: 15 flits per 16-cycle round trip");
    TAP_EQ_U64(stall, 4, "F = 15 stalls 4 cycles");
    TAP_EQ_U64(last, 75, "F = 15: last delivered at 16 x 4 + 3 + 8 = 75");
    /* F = 10: 6 stall cycles before k = 10, 20, ..., 60 = 36; k = 63 leaves
     * at 16 x 6 + 3 = 99, delivered 107 */
    TAP_OK(stream_run(10, &stall, &last), "F = 10: 10 flits per 16 cycles");
    TAP_EQ_U64(stall, 36, "F = 10 stalls 6 x 6 = 36 cycles");
    TAP_EQ_U64(last, 107, "F = 10: last delivered at 99 + 8 = 107");
    /* relaxed mode's extra flits (topo.fifo_extra) count like FIFO depth:
     * 10 + 5 behaves as F = 15 above, 10 + 6 as F = 16 */
    TAP_OK(stream_run_extra(10, 5, &stall, &last), "F = 10 + 5 extra: 15 flits per 16 cycles");
    TAP_OK(stall == 4 && last == 75, "F = 10 + 5 extra: 4 stall cycles, last at 75 (as F = 15)");
    TAP_OK(stream_run_extra(10, 6, &stall, &last) && stall == 0 && last == 71, "F = 10 + 6 extra: no stall (as F = 16)");
    /* NOTE(relaxed-fifo): 2 x ceil((Q - L) / icnt period) */
    TAP_EQ_U64(icnt_relaxed_fifo_extra(8, 1429, 0), 0, "relaxed extra: Q = 0 (the lookahead) adds nothing");
    TAP_EQ_U64(icnt_relaxed_fifo_extra(8, 1429, 11432), 0, "relaxed extra: Q = L adds nothing");
    TAP_EQ_U64(icnt_relaxed_fifo_extra(8, 1429, 45728), 48, "relaxed extra: Q = 4L on gtx480: 2 x 24 = 48 flits");
    TAP_EQ_U64(icnt_relaxed_fifo_extra(8, 1429, 182912), 240, "relaxed extra: Q = 16L: 2 x 120 = 240 flits");
    TAP_EQ_U64(icnt_relaxed_fifo_extra(8, 1429, 11433), 2, "relaxed extra: 1 ps over L rounds up to a cycle each way");
}


/* A packet that starts at the output before its sender got the credits for
 * its later flits holds the output (wormhole) until they arrive. */
static void test_bubble(void)
{
    struct icnt_net_cfg c = defaults();
    c.rx_fifo_flits = 7;
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    static const uint32_t sizes[2] = {5, 5};
    struct stream g = {.src = 0, .dst = 15, .left = 2, .sizes = sizes};
    n->gen = gen_stream, n->gen_state = &g;
    net_run(n, 0, 1, 200);
    /* 7 credits: P0 flits leave 0..4, P1 flits 0, 1 at 5, 6, then no credit.
     * P0 taken 8..12 (delivered 12), its credits are back at 16..20. P1 head
     * and flit 1 taken at 13, 14; flits 2..4 leave 16..18, arrive 24..26:
     * output held idle 15..23 = 9 bubble cycles, P1 delivered at 26. The
     * sender waited 7..15 = 9 cycles for credits. */
    TAP_OK(n->nlog == 2 && n->log[0].cycle == 12 && n->log[1].cycle == 26, "P0 at 12, P1 at 26");
    TAP_OK(n->ntake == 10 && n->take_cycle[5] == 13 && n->take_cycle[6] == 14 && n->take_cycle[7] == 24,
           "P1 flits taken at 13, 14, then 24");
    TAP_EQ_U64(n->rx[15].st.bubble_cycles, 9, "9 bubble cycles (15..23)");
    TAP_EQ_U64(n->tx[0].st.credit_stall_cycles, 9, "sender stalled 9 cycles (7..15)");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- endpoint full */

static void test_endpoint_full(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 1000);
    n->ep[15].cap = 2;
    n->ep[15].drain_from = 100;
    struct stream g = {.src = 0, .dst = 15, .left = 40};
    n->gen = gen_stream, n->gen_state = &g;
    net_run(n, 0, 1, 1000);
    TAP_EQ_U64(n->nlog, 40, "all 40 packets delivered (no loss)");
    /* k = 0, 1 at 8, 9; then the endpoint is full until it drains at the end
     * of cycle 100: k >= 2 delivered at 99 + k (one per cycle; credits of
     * k arrive at 107 + k, flit k + 18 leaves then and arrives at 115 + k,
     * before its turn at 117 + k). */
    int ok = 1;
    for (size_t k = 0; k < n->nlog; k++) {
        uint64_t want = k < 2 ? 8 + k : 99 + k;
        if (n->log[k].id != k || n->log[k].cycle != want) {
            ok = 0;
            tap_diag("k %zu: id %llu cycle %llu want %llu", k, (unsigned long long)n->log[k].id,
                     (unsigned long long)n->log[k].cycle, (unsigned long long)want);
        }
    }
    TAP_OK(ok, "k < 2 at 8 + k, k >= 2 at 99 + k, in order");
    /* credits: 18 + 2 returned (k = 0, 1 at 16, 17) = flits 0..19 at 0..19;
     * flit 20 waits from 20 until the credit of k = 2 arrives at 101 + 8 = 109 */
    TAP_EQ_U64(n->tx[0].st.credit_stall_cycles, 89, "sender back-pressured 109 - 20 = 89 cycles");
    TAP_OK(n->tx[0].st.inj_refused > 0, "injection buffer refused pushes while blocked");
    /* head of k = 2 arrives at 10; refused at ticks 10..100 = 91 cycles */
    TAP_EQ_U64(n->rx[15].st.eject_full_cycles, 91, "receiver stopped 91 cycles (10..100)");
    TAP_EQ_U64(n->conservation_errs, 0, "credits conserved every cycle");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- mixed sizes, one pair */

static void test_fifo_mixed(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 1000);
    static uint32_t sizes[200];
    uint64_t r = 12345;
    for (int i = 0; i < 200; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        sizes[i] = 1 + (uint32_t)((r >> 33) % 5);
    }
    struct stream g = {.src = 4, .dst = 22, .left = 200, .sizes = sizes};
    n->gen = gen_stream, n->gen_state = &g;
    net_run(n, 0, 1, 10000);
    /* One pair, 18 >= 16 credits: the tx never idles (a freed buffer always
     * takes the next packet, <= 5 <= 9 flits), so flits leave back to back
     * and packet i's tail is taken at (flits of packets 0..i) - 1 + 8. */
    int ok = n->nlog == 200;
    uint64_t cum = 0;
    for (size_t i = 0; ok && i < 200; i++) {
        cum += sizes[i];
        if (n->log[i].id != i || n->log[i].cycle != cum - 1 + 8 || n->log[i].n_flits != sizes[i])
            ok = 0;
    }
    TAP_OK(ok, "200 mixed-size packets delivered in FIFO order, tail of i at sum(flits 0..i) + 7");
    TAP_EQ_U64(n->interleave_errs, 0, "whole packets");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- mesh2d */

static void test_mesh(void)
{
    struct icnt_net_cfg c = defaults();
    c.topology = ICNT_TOPO_MESH2D;
    struct icnt_topo t;
    icnt_topo_init(&t, &c, L, N_SM, N_MEM, N_SUB);
    /* 6 x 4: partitions 0, 2, 4 at routers 1, 3, 5 (row 0); 1, 3, 5 at
     * 18, 20, 22 (row 3, columns 0, 2, 4); SMs fill 0, 2, 4, 6..17. */
    TAP_EQ_U64(t.router[icnt_ep_of_sub(&t, 0)], 1, "partition 0 (subs 0, 1) at (1,0)");
    TAP_EQ_U64(t.router[icnt_ep_of_sub(&t, 1)], 1, "sub 1 shares partition 0's router");
    TAP_EQ_U64(t.router[icnt_ep_of_sub(&t, 2)], 18, "partition 1 at (0,3)");
    TAP_EQ_U64(t.router[icnt_ep_of_sub(&t, 11)], 22, "partition 5 at (4,3)");
    TAP_EQ_U64(t.router[2], 4, "SM 2 at (4,0)");
    TAP_EQ_U64(t.router[14], 17, "SM 14 at (5,2)");
    /* SM 0 (0,0) -> partition 0 (1,0): 1 hop, 8 + 1 = 9 */
    TAP_EQ_U64(icnt_topo_lat(&t, 0, icnt_ep_of_sub(&t, 0)), 9, "SM0 -> P0: 8 + 1 hop = 9");
    /* SM 0 (0,0) -> partition 1 (0,3): 3 hops = 11 */
    TAP_EQ_U64(icnt_topo_lat(&t, 0, icnt_ep_of_sub(&t, 2)), 11, "SM0 -> P1: 8 + 3 = 11");
    /* SM 14 (5,2) -> partition 1 (0,3): 5 + 1 = 6 hops = 14, symmetric back */
    TAP_EQ_U64(icnt_topo_lat(&t, 14, icnt_ep_of_sub(&t, 3)), 14, "SM14 -> P1: 8 + 6 = 14");
    TAP_EQ_U64(icnt_topo_lat(&t, icnt_ep_of_sub(&t, 3), 14), 14, "P1 -> SM14: 14 (symmetric)");
    uint32_t minlat = UINT32_MAX;
    for (uint32_t a = 0; a < t.n_ep; a++)
        for (uint32_t b = 0; b < t.n_ep; b++)
            minlat = MIN(minlat, icnt_topo_lat(&t, a, b));
    TAP_EQ_U64(minlat, L, "no pair faster than min_latency");
    icnt_topo_fini(&t);

    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    net_push(n, 0, icnt_ep_of_sub(&n->topo, 2), 1, 0);
    net_run(n, 0, 1, 100);
    TAP_OK(n->nlog == 1 && n->log[0].cycle == 11, "mesh2d: 1-flit SM0 -> P1 delivered at 11");
    net_fini(n);
    free(n);
}

/* ------------------------------------------------------------- randomized */

struct rnd {
    uint64_t r;
    uint64_t until;  /* inject before this cycle */
    uint32_t rate;   /* per mille chance per endpoint per cycle */
    uint32_t *pending_dst, *pending_sz; /* a refused packet is retried (blocked endpoint) */
    int *has_pending;
    /* naive reference: ids per pair in injection order */
    uint64_t **ref;
    size_t *nref, *capref;
};

static uint64_t rnd_next(uint64_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return *r;
}

static void ref_add(struct rnd *g, uint32_t pair, uint64_t id)
{
    if (g->nref[pair] == g->capref[pair]) {
        g->capref[pair] = g->capref[pair] ? 2 * g->capref[pair] : 16;
        g->ref[pair] = realloc(g->ref[pair], g->capref[pair] * sizeof **g->ref);
    }
    g->ref[pair][g->nref[pair]++] = id;
}

static void gen_rnd(struct net *n, uint64_t t)
{
    struct rnd *g = n->gen_state;
    for (uint32_t s = 0; s < n->n_ep; s++) {
        if (!g->has_pending[s]) {
            if (t >= g->until || rnd_next(&g->r) % 1000 >= g->rate)
                continue;
            uint32_t d = (uint32_t)(rnd_next(&g->r) % n->n_ep);
            static const uint32_t szs[5] = {1, 1, 2, 3, 5};
            g->pending_dst[s] = d;
            g->pending_sz[s] = szs[rnd_next(&g->r) % 5];
            g->has_pending[s] = 1;
        }
        uint64_t id = net_push(n, s, g->pending_dst[s], g->pending_sz[s], t);
        if (id != UINT64_MAX) {
            ref_add(g, s * n->n_ep + g->pending_dst[s], id);
            g->has_pending[s] = 0;
        }
    }
}

/* Compare the delivery log with the reference per pair: mismatches (wrong
 * id at a position, extra or missing deliveries). */
static size_t check_order(const struct net *n, uint64_t *const *ref, const size_t *nref)
{
    size_t npair = (size_t)n->n_ep * n->n_ep, bad = 0;
    size_t *pos = calloc(npair, sizeof *pos);
    for (size_t i = 0; i < n->nlog; i++) {
        size_t p = (size_t)n->log[i].src * n->n_ep + n->log[i].dst;
        if (pos[p] >= nref[p] || ref[p][pos[p]] != n->log[i].id)
            bad++;
        pos[p]++;
    }
    for (size_t p = 0; p < npair; p++)
        if (pos[p] != nref[p])
            bad++;
    free(pos);
    return bad;
}

static uint64_t log_hash(const struct net *n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n->nlog; i++) {
        const struct dlv *d = &n->log[i];
        uint64_t v[4] = {d->cycle, d->src, d->dst, d->id};
        for (int j = 0; j < 4; j++)
            h = (h ^ v[j]) * 1099511628211ull;
    }
    return h;
}

struct rnd_result {
    size_t delivered, injected, order_bad, order_bad_fault;
    uint64_t interleave, conservation, hash, lat_bad, end, stall, bubble, eject_full, flit_msgs, flits, credit_msgs;
    int idle;
};

static void rnd_run_b(int topology, int skip, uint64_t seed, uint64_t drop_credit_at, uint32_t fifo,
                      uint32_t jitter, bool burst, struct rnd_result *res)
{
    struct icnt_net_cfg c = defaults();
    c.topology = topology;
    c.jitter = jitter;
    c.rx_fifo_flits = fifo;
    struct net *n = malloc(sizeof *n);
    net_init_opts(n, &c, 3, 0, burst);
    n->skip = skip;
    n->drop_credit_at = drop_credit_at;
    size_t npair = (size_t)N_EP * N_EP;
    struct rnd g = {.r = seed, .until = 3000, .rate = 250};
    g.pending_dst = calloc(N_EP, sizeof *g.pending_dst);
    g.pending_sz = calloc(N_EP, sizeof *g.pending_sz);
    g.has_pending = calloc(N_EP, sizeof *g.has_pending);
    g.ref = calloc(npair, sizeof *g.ref);
    g.nref = calloc(npair, sizeof *g.nref);
    g.capref = calloc(npair, sizeof *g.capref);
    /* endpoints: 3 packets, some drain only late (back-pressure), the rest at once */
    uint64_t r2 = seed * 7 + 1;
    for (uint32_t i = 0; i < N_EP; i++)
        n->ep[i].drain_from = rnd_next(&r2) % 4 == 0 ? 1500 : 0;
    n->gen = gen_rnd, n->gen_state = &g;
    uint64_t end = net_run(n, 0, 3000, 200000);
    memset(res, 0, sizeof *res);
    res->end = end;
    res->idle = net_idle(n, end);
    res->delivered = n->nlog;
    for (size_t p = 0; p < npair; p++)
        res->injected += g.nref[p];
    res->order_bad = check_order(n, g.ref, g.nref);
    /* every packet: delivered no sooner than push + link latency + n - 1 */
    for (size_t i = 0; i < n->nlog; i++) {
        const struct dlv *d = &n->log[i];
        if (d->cycle < d->t_inject + icnt_topo_lat(&n->topo, d->src, d->dst) + d->n_flits - 1)
            res->lat_bad++;
    }
    /* injected fault: swap two ids of the busiest pair in the reference */
    size_t best = 0;
    for (size_t p = 0; p < npair; p++)
        if (g.nref[p] > g.nref[best])
            best = p;
    if (g.nref[best] >= 2) {
        uint64_t tmp = g.ref[best][0];
        g.ref[best][0] = g.ref[best][1];
        g.ref[best][1] = tmp;
        res->order_bad_fault = check_order(n, g.ref, g.nref);
    }
    res->interleave = n->interleave_errs;
    res->conservation = n->conservation_errs;
    res->hash = log_hash(n);
    /* statistics must not depend on skipped ticks either */
    for (uint32_t i = 0; i < N_EP; i++) {
        uint64_t v[5] = {n->tx[i].st.credit_stall_cycles, n->tx[i].st.inj_refused, n->rx[i].st.bubble_cycles,
                         n->rx[i].st.eject_full_cycles, n->rx[i].st.latency.sum};
        for (int j = 0; j < 5; j++)
            res->hash = (res->hash ^ v[j]) * 1099511628211ull;
        res->stall += n->tx[i].st.credit_stall_cycles;
        res->bubble += n->rx[i].st.bubble_cycles;
        res->eject_full += n->rx[i].st.eject_full_cycles;
        uint64_t w[6] = {n->tx[i].st.packets, n->tx[i].st.flits, n->tx[i].st.occ_max, n->rx[i].st.packets,
                         n->rx[i].st.flits, n->rx[i].st.latency_max};
        for (int j = 0; j < 6; j++)
            res->hash = (res->hash ^ w[j]) * 1099511628211ull;
        res->flits += n->tx[i].st.flits;
    }
    /* the cycle of every flit the outputs took, in order */
    for (size_t i = 0; i < n->ntake; i++)
        res->hash = (res->hash ^ n->take_cycle[i]) * 1099511628211ull;
    res->flit_msgs = n->flit_msgs;
    res->credit_msgs = n->credit_msgs;
    for (size_t p = 0; p < npair; p++)
        free(g.ref[p]);
    free(g.ref), free(g.nref), free(g.capref), free(g.pending_dst), free(g.pending_sz), free(g.has_pending);
    net_fini(n);
    free(n);
}

static void rnd_run_j(int topology, int skip, uint64_t seed, uint64_t drop_credit_at, uint32_t fifo,
                      uint32_t jitter, struct rnd_result *res)
{
    rnd_run_b(topology, skip, seed, drop_credit_at, fifo, jitter, false, res);
}

static void rnd_run(int topology, int skip, uint64_t seed, uint64_t drop_credit_at, uint32_t fifo,
                    struct rnd_result *res)
{
    rnd_run_j(topology, skip, seed, drop_credit_at, fifo, 0, res);
}

/* NOTE(icnt-burst): a packet sent as one link message gives the same
 * deliveries, flit output cycles, credits and statistics as flit by flit,
 * with and without skipped ticks, in fewer messages; jitter turns it off. */
static void test_burst(void)
{
    static const char *names[2] = {"xbar", "mesh2d"};
    static const uint32_t fifos[3] = {0, 6, 7};
    static const uint64_t seeds[2] = {0x9e3779b97f4a7c15ull, 42};
    for (int topo = 0; topo < 2; topo++)
        for (int fi = 0; fi < 3; fi++)
            for (int si = 0; si < 2; si++) {
                struct rnd_result a, b, s;
                rnd_run_b(topo, 0, seeds[si], 0, fifos[fi], 0, false, &a);
                rnd_run_b(topo, 0, seeds[si], 0, fifos[fi], 0, true, &b);
                rnd_run_b(topo, 1, seeds[si], 0, fifos[fi], 0, true, &s);
                TAP_OK(b.idle && b.delivered == a.delivered && b.delivered == b.injected && b.order_bad == 0 &&
                           b.interleave == 0 && b.conservation == 0 && b.lat_bad == 0,
                       "burst %s fifo %u seed %d: all %zu delivered, in order, conserved", names[topo], fifos[fi],
                       si, b.delivered);
                TAP_OK(b.hash == a.hash && s.hash == a.hash && b.end == a.end,
                       "burst %s fifo %u seed %d: deliveries, flit cycles and statistics equal flit by flit "
                       "(also with skipped ticks)", names[topo], fifos[fi], si);
                TAP_OK(a.flit_msgs == a.flits && b.flit_msgs < a.flit_msgs,
                       "burst %s fifo %u seed %d: %llu link messages instead of %llu", names[topo], fifos[fi], si,
                       (unsigned long long)b.flit_msgs, (unsigned long long)a.flit_msgs);
                /* NOTE(credit-run): with bursts, credits go back as runs */
                TAP_OK(a.credit_msgs == a.flits && b.credit_msgs < a.credit_msgs && s.credit_msgs == b.credit_msgs,
                       "burst %s fifo %u seed %d: %llu credit messages instead of %llu", names[topo], fifos[fi], si,
                       (unsigned long long)b.credit_msgs, (unsigned long long)a.credit_msgs);
            }
    struct rnd_result j, k;
    rnd_run_b(0, 0, 7, 0, 0, 40, false, &j);
    rnd_run_b(0, 0, 7, 0, 0, 40, true, &k);
    TAP_OK(k.hash == j.hash && k.flit_msgs == k.flits, "with icnt.jitter a burst-enabled network sends flit by flit");
    /* injected fault: a lost credit is still caught with bursts */
    rnd_run_b(0, 0, 0x9e3779b97f4a7c15ull, 500, 0, 0, true, &k);
    TAP_OK(k.conservation > 0, "burst: a lost credit is caught by the conservation check");
}

/* icnt.jitter (NOTE(icnt-jitter) in icnt.c): random extra latency per packet,
 * per-pair order kept, never faster than the link, deterministic, exact
 * under idle skipping; and it does change the timing. */
static void test_jitter(void)
{
    struct rnd_result a, b, s, z;
    rnd_run_j(0, 0, 0x9e3779b97f4a7c15ull, 0, 0, 40, &a);
    TAP_OK(a.idle && a.delivered == a.injected && a.injected > 10000, "jitter 40: all %zu packets delivered",
           a.delivered);
    TAP_EQ_U64(a.order_bad, 0, "jitter 40: per-pair delivery order equals the FIFO reference");
    TAP_EQ_U64(a.lat_bad, 0, "jitter 40: no packet faster than link latency + n - 1");
    TAP_EQ_U64(a.interleave + a.conservation, 0, "jitter 40: no interleaving, flits and credits conserved");
    rnd_run_j(0, 0, 0x9e3779b97f4a7c15ull, 0, 0, 40, &b);
    TAP_EQ_U64(b.hash, a.hash, "jitter 40: identical rerun, identical log");
    rnd_run_j(0, 1, 0x9e3779b97f4a7c15ull, 0, 0, 40, &s);
    TAP_EQ_U64(s.hash, a.hash, "jitter 40: skipping idle ticks gives the same log");
    rnd_run_j(0, 0, 0x9e3779b97f4a7c15ull, 0, 0, 0, &z);
    TAP_OK(z.hash != a.hash, "jitter changes the delivery log");
}

static void test_random(void)
{
    static const char *names[2] = {"xbar", "mesh2d"};
    for (int topo = 0; topo < 2; topo++) {
        struct rnd_result a, b, s;
        rnd_run(topo, 0, 0x9e3779b97f4a7c15ull, 0, 0, &a);
        TAP_OK(a.idle, "%s: network drains to idle (ended at cycle %llu)", names[topo], (unsigned long long)a.end);
        TAP_OK(a.injected > 10000, "%s: %zu packets injected", names[topo], a.injected);
        TAP_EQ_U64(a.delivered, a.injected, "%s: every injected packet delivered", names[topo]);
        TAP_EQ_U64(a.order_bad, 0, "%s: per-pair delivery order equals the FIFO reference", names[topo]);
        TAP_OK(a.order_bad_fault >= 2, "%s: injected fault (two ids swapped in the reference) is caught (%zu mismatches)",
               names[topo], a.order_bad_fault);
        TAP_EQ_U64(a.interleave, 0, "%s: no output ever interleaves packets", names[topo]);
        TAP_EQ_U64(a.conservation, 0, "%s: flit + credit conservation holds every cycle for every pair", names[topo]);
        TAP_EQ_U64(a.lat_bad, 0, "%s: no packet faster than link latency + n - 1", names[topo]);
        rnd_run(topo, 0, 0x9e3779b97f4a7c15ull, 0, 0, &b);
        TAP_EQ_U64(b.hash, a.hash, "%s: identical rerun gives an identical delivery log", names[topo]);
        rnd_run(topo, 1, 0x9e3779b97f4a7c15ull, 0, 0, &s);
        TAP_EQ_U64(s.hash, a.hash, "%s: skipping idle ticks (tick returns) gives the same log and statistics",
                   names[topo]);
        TAP_OK(a.stall && a.eject_full, "%s: the run exercised credit stalls (%llu) and full endpoints (%llu)",
               names[topo], (unsigned long long)a.stall, (unsigned long long)a.eject_full);
        /* small FIFOs (6 flits): packets straddle credit stalls, wormhole bubbles */
        rnd_run(topo, 0, 7, 0, 6, &b);
        rnd_run(topo, 1, 7, 0, 6, &s);
        TAP_OK(b.idle && b.delivered == b.injected && b.order_bad == 0 && b.interleave == 0 && b.conservation == 0 &&
                   b.lat_bad == 0 && s.hash == b.hash,
               "%s: FIFO 6: all %zu delivered in per-pair order, conserved, same with skipped ticks", names[topo],
               b.delivered);
        TAP_OK(b.stall && b.bubble && b.eject_full, "%s: FIFO 6 exercised credit stalls (%llu), bubbles (%llu), "
               "full endpoints (%llu)", names[topo], (unsigned long long)b.stall, (unsigned long long)b.bubble,
               (unsigned long long)b.eject_full);
        rnd_run(topo, 0, 42, 0, 0, &b);
        TAP_OK(b.hash != a.hash && b.order_bad == 0 && b.delivered == b.injected,
               "%s: another seed differs and is also correct", names[topo]);
        /* injected fault: one credit lost on the link from cycle 500 on */
        rnd_run(topo, 0, 0x9e3779b97f4a7c15ull, 500, 0, &b);
        TAP_OK(b.conservation > 0, "%s: a lost credit is caught by the conservation check (%llu pair-cycles)",
               names[topo], (unsigned long long)b.conservation);
    }
}

static void test_stats(void)
{
    struct icnt_net_cfg c = defaults();
    struct net *n = malloc(sizeof *n);
    net_init(n, &c, 8);
    struct stats *st = stats_create();
    for (uint32_t i = 0; i < n->n_ep; i++) {
        icnt_tx_stats_register(&n->tx[i], st, "icnt.req");
        icnt_rx_stats_register(&n->rx[i], st, "icnt.req");
    }
    net_push(n, 0, 15, 5, 0);
    net_push(n, 1, 15, 1, 0);
    net_run(n, 0, 1, 100);
    uint64_t v = 0;
    TAP_OK(stats_get_u64(st, "icnt.req.tx_flits", &v) && v == 6, "tx_flits total 5 + 1 = 6");
    TAP_OK(stats_get_u64(st, "icnt.req.rx_packets", &v) && v == 2, "rx_packets total 2");
    /* src 0's 5 flits taken 8..12 (rr 0 first), src 1's flit at 13: latencies 12 and 13 */
    TAP_OK(stats_get_u64(st, "icnt.req.rx_latency_max", &v) && v == 13, "rx_latency_max 13");
    TAP_OK(stats_get_u64(st, "icnt.req.rx_latency", &v) && v == 25, "rx_latency sum 12 + 13 = 25");
    stats_destroy(st);
    net_fini(n);
    free(n);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"config and packetisation", test_config},
        {"one 1-flit packet", test_one_flit},
        {"one 5-flit packet", test_five_flit},
        {"two sources, one destination", test_two_sources},
        {"credit streaming", test_credits},
        {"wormhole bubble", test_bubble},
        {"endpoint full back-pressure", test_endpoint_full},
        {"FIFO order, mixed sizes", test_fifo_mixed},
        {"mesh2d placement and latency", test_mesh},
        {"randomized many-to-many vs reference", test_random},
        {"icnt.jitter", test_jitter},
        {"packets as one link message (NOTE(icnt-burst))", test_burst},
        {"statistics", test_stats},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}

