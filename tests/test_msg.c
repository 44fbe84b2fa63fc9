/* tests/test_msg.c: the message-kind registry (sim/mem/memreq.c) and a
 * central network endpoint (icnt_topo_add_node, docs/messages.md).
 *
 * Central node: a gtx480-shaped crossbar (L = icnt.min_latency = 8 icnt
 * cycles, 32 B flits, 8 B header) with 2 SMs and 1 partition of 2
 * sub-partitions (endpoints 0..3) plus one central node (endpoint 4). SM 0
 * sends a MEM_OP_PING request (header only: 1 flit) to the node, which
 * answers with an 8-byte timestamp (8 + 8 B: 1 flit). Per cycle t the
 * harness delivers link events arriving at t, ticks every sender half, then
 * every receiver half (icnt.h calling convention). Hand-computed: pushed at
 * 0, sent by the tx tick at 0, arrives at L = 8 and is delivered by the
 * node's rx tick at 8; the node pushes the reply during that rx tick, so
 * the node's tx sends it at 9, it arrives at 9 + L = 17 and SM 0's rx
 * delivers it at 17: round trip 2L + 1.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/icnt/icnt.h"
#include "sim/sm/lsu/coalesce.h"
#include "tap.h"

#define L 8u
#define NEP 5u

struct ev {
    uint64_t arrive;
    int credit;   /* 1 = credit to tx `to` from rx `from` */
    int reply_net; /* 0 = request network, 1 = reply network */
    uint32_t to, from;
    struct icnt_flit f;
    uint8_t pay[sizeof(struct mem_req)];
};

struct h {
    struct icnt_net_cfg cfg;
    struct icnt_topo topo;
    struct icnt_tx tx[2][NEP]; /* [network][endpoint] */
    struct icnt_rx rx[2][NEP];
    struct ev ev[256];
    uint32_t nev;
    uint64_t now;
    uint32_t node;
    /* what arrived */
    struct mem_req at_node;
    uint64_t node_cycle;
    struct mem_reply at_sm;
    uint64_t sm_cycle;
    uint32_t n_node, n_sm;
};

struct hctx {
    struct h *h;
    int net;
    uint32_t ep;
};
static struct hctx ctxs[2][NEP];

static void ev_add(struct h *h, const struct ev *e)
{
    SIM_ASSERT(h->nev < 256, "events");
    h->ev[h->nev++] = *e;
}

static void send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct hctx *c = ctx;
    struct ev e = {.arrive = arrive, .credit = 0, .reply_net = c->net, .to = f->dst, .from = f->src, .f = *f};
    if (payload)
        memcpy(e.pay, payload, c->net ? sizeof(struct mem_reply) : sizeof(struct mem_req));
    ev_add(c->h, &e);
}

static bool can_accept(void *ctx, uint32_t src, uint32_t n, uint64_t cycle)
{
    (void)ctx, (void)src, (void)n, (void)cycle;
    return true;
}

static bool deliver(void *ctx, uint32_t src, const void *payload, const struct icnt_flit *tail, uint64_t cycle)
{
    struct hctx *c = ctx;
    struct h *h = c->h;
    (void)tail;
    if (c->net == 0) { /* the central node handles a request: answer with a timestamp */
        memcpy(&h->at_node, payload, sizeof h->at_node);
        h->node_cycle = cycle;
        h->n_node++;
        const struct mem_kind *k = mem_kind_of(h->at_node.op);
        SIM_ASSERT(k && k->side == MEM_SIDE_CENTRAL, "request of kind %u at the central node", h->at_node.op);
        struct mem_reply rep;
        memset(&rep, 0, sizeof rep);
        rep.addr = h->at_node.addr, rep.id = h->at_node.id, rep.src = h->at_node.src, rep.op = h->at_node.op;
        struct mem_body_ts ts = {.ts = 1000 + cycle, .lease = 10, .aux = h->at_node.warp};
        memcpy(rep.data, &ts, sizeof ts);
        rep.size = 8;
        uint32_t nf = icnt_kind_reply_flits(&h->cfg, &rep);
        bool ok = icnt_tx_push(&h->tx[1][c->ep], src, nf, &rep, cycle);
        SIM_ASSERT(ok, "node reply push");
    } else {
        memcpy(&h->at_sm, payload, sizeof h->at_sm);
        h->sm_cycle = cycle;
        h->n_sm++;
    }
    return true;
}

static void send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    struct hctx *c = ctx;
    struct ev e = {.arrive = arrive, .credit = 1, .reply_net = c->net, .to = to_src, .from = from_dst};
    ev_add(c->h, &e);
}

static void h_init(struct h *h, int topology)
{
    memset(h, 0, sizeof *h);
    icnt_net_cfg_defaults(&h->cfg);
    h->cfg.topology = topology;
    h->cfg.mesh_cols = 3, h->cfg.mesh_rows = 2;
    icnt_topo_init(&h->topo, &h->cfg, L, 2, 1, 2);
    h->node = icnt_topo_add_node(&h->topo, &h->cfg);
    for (int net = 0; net < 2; net++)
        for (uint32_t e = 0; e < NEP; e++) {
            ctxs[net][e] = (struct hctx){h, net, e};
            uint32_t pb = net ? sizeof(struct mem_reply) : sizeof(struct mem_req);
            struct icnt_tx_args ta = {e, &h->topo, &h->cfg, pb, send_flit, &ctxs[net][e], 1};
            icnt_tx_init(&h->tx[net][e], &ta);
            struct icnt_rx_args ra = {e, &h->topo, &h->cfg, pb, {can_accept, deliver, send_credit, NULL, NULL, false},
                                      &ctxs[net][e]};
            icnt_rx_init(&h->rx[net][e], &ra);
        }
}

static void h_fini(struct h *h)
{
    for (int net = 0; net < 2; net++)
        for (uint32_t e = 0; e < NEP; e++) {
            icnt_tx_fini(&h->tx[net][e]);
            icnt_rx_fini(&h->rx[net][e]);
        }
    icnt_topo_fini(&h->topo);
}

static void h_cycle(struct h *h)
{
    uint64_t t = h->now;
    for (uint32_t i = 0; i < h->nev;) {
        struct ev *e = &h->ev[i];
        if (e->arrive != t) {
            i++;
            continue;
        }
        if (e->credit)
            icnt_tx_credit(&h->tx[e->reply_net][e->to], e->from, t);
        else
            icnt_rx_flit_arrive(&h->rx[e->reply_net][e->to], &e->f, icnt_flit_is_tail(&e->f) ? e->pay : NULL, t);
        h->ev[i] = h->ev[--h->nev];
    }
    for (int net = 0; net < 2; net++)
        for (uint32_t e = 0; e < NEP; e++)
            icnt_tx_tick(&h->tx[net][e], t);
    for (int net = 0; net < 2; net++)
        for (uint32_t e = 0; e < NEP; e++)
            icnt_rx_tick(&h->rx[net][e], t);
    h->now++;
}

static void test_central_node(int topology, const char *name)
{
    struct h *h = xcalloc(1, sizeof *h);
    h_init(h, topology);
    TAP_OK(h->node == 4 && h->topo.n_ep == 5 && h->topo.n_node == 1 && icnt_ep_of_node(&h->topo, 0) == 4,
           "%s: the central node is endpoint 4, after 2 SMs and 2 sub-partitions", name);
    TAP_OK(icnt_ep_is_node(&h->topo, 4) && !icnt_ep_is_node(&h->topo, 3) && icnt_ep_is_sm(&h->topo, 1) &&
               icnt_ep_of_sub(&h->topo, 1) == 3,
           "%s: endpoint classes unchanged for SMs and sub-partitions", name);
    uint32_t lat = icnt_topo_lat(&h->topo, 0, 4);
    if (topology == ICNT_TOPO_XBAR)
        TAP_EQ_U64(lat, L, "xbar: SM 0 -> node at min_latency");
    else
        TAP_EQ_U64(lat, L + icnt_topo_hops(&h->topo, 0, 4) * h->cfg.hop_latency,
                   "mesh2d: SM 0 -> node at min_latency + hops x hop_latency");

    struct mem_req q;
    memset(&q, 0, sizeof q);
    q.op = MEM_OP_PING, q.src = 0, q.warp = 13, q.cta = 2, q.id = 77, q.space = MEM_SPACE_OTHER;
    uint32_t nf = icnt_kind_req_flits(&h->cfg, &q);
    TAP_EQ_U64(nf, 1, "%s: a ping request is one flit", name);
    /* pushed at cycle 0, before the ticks of cycle 0 (icnt.h step 1) */
    bool ok = icnt_tx_push(&h->tx[0][0], h->node, nf, &q, 0);
    TAP_OK(ok, "%s: SM 0 pushes the request to the node", name);
    for (int g = 0; g < 200 && h->n_sm == 0; g++)
        h_cycle(h);
    TAP_OK(h->n_node == 1 && h->at_node.op == MEM_OP_PING && h->at_node.warp == 13 && h->at_node.id == 77,
           "%s: the node got the ping with its header (warp 13, id 77)", name);
    struct mem_body_ts ts;
    memcpy(&ts, h->at_sm.data, sizeof ts);
    TAP_OK(h->n_sm == 1 && h->at_sm.id == 77 && ts.ts == 1000 + h->node_cycle && ts.aux == 13,
           "%s: SM 0 got the reply with the node's timestamp", name);
    uint64_t l_go = icnt_topo_lat(&h->topo, 0, 4), l_back = icnt_topo_lat(&h->topo, 4, 0);
    TAP_EQ_U64(h->node_cycle, l_go, "%s: request delivered at the link latency", name);
    TAP_EQ_U64(h->sm_cycle, l_go + 1 + l_back, "%s: reply back at go + 1 + back (2L + 1 on the xbar)", name);
    h_fini(h);
    free(h);
}

/* The registry gives the baseline operations exactly the spec's sizes. */
static void test_registry(void)
{
    struct icnt_net_cfg c;
    icnt_net_cfg_defaults(&c);
    bool same = true;
    for (uint32_t op = 0; op < MEM_OP_COUNT; op++)
        for (uint32_t size = 0; size <= 128; size += 32) {
            struct mem_req r;
            memset(&r, 0, sizeof r);
            r.op = (uint8_t)op, r.size = (uint8_t)size;
            struct mem_reply p;
            memset(&p, 0, sizeof p);
            p.op = (uint8_t)op, p.size = (uint8_t)size;
            same &= icnt_kind_req_flits(&c, &r) == icnt_req_flits(&c, &r);
            same &= icnt_kind_reply_flits(&c, &p) == icnt_reply_flits(&c, &p);
        }
    TAP_OK(same, "kind registry: read/write/atomic/writeback flit counts equal icnt_req_flits / icnt_reply_flits");
    bool named = true;
    for (uint32_t k = 0; k < MEM_KIND_COUNT; k++)
        named &= mem_kind_of(k) && mem_kind_of(k)->name != NULL;
    TAP_OK(named && mem_kind_of(MEM_KIND_COUNT) == NULL, "every kind has a row; beyond the table: NULL");
    TAP_OK(sizeof(struct mem_req) == 200 && sizeof(struct icnt_flit) + sizeof(struct mem_req) <= 224,
           "mem_req is 200 bytes: a request tail flit fits one engine message");
    TAP_OK(!strcmp(mem_space_name(MEM_SPACE_INST), "inst"), "space names");
}

int main(void)
{
    tap_no_plan();
    test_registry();
    test_central_node(ICNT_TOPO_XBAR, "xbar");
    test_central_node(ICNT_TOPO_MESH2D, "mesh2d");
    return tap_exit();
}
