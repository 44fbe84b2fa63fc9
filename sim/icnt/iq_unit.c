/* sim/icnt/iq_unit.c: the engine unit around the two xbar_iq switches (iq_unit.h). */
#include "sim/icnt/iq_unit.h"

#include <string.h>

#include "sim/base/stats.h"
#include "sim/icnt/icnt_msg.h"
#include "sim/mem/memreq.h"

/* Payload bytes of network n (0 request, 1 reply): what its tail flits carry. */
static uint32_t net_payload(int n) { return n == 0 ? (uint32_t)sizeof(struct mem_req) : (uint32_t)sizeof(struct mem_reply); }

static void send_flit(void *ctx, const struct icnt_flit *f, const void *payload, uint64_t arrive)
{
    struct iq_unit *u = ctx;
    int n = icnt_ep_is_sm(u->topo, f->dst) ? 1 : 0;
    icnt_msg_send_flit(u->ctx, u->unit, u->ep_unit[f->hop], u->now, arrive * u->icnt_ps - u->now, f, payload,
                       net_payload(n));
}

static void send_credit(void *ctx, uint32_t to_src, uint32_t from_dst, uint64_t arrive)
{
    struct iq_unit *u = ctx;
    struct icnt_msg_credit cr = {to_src, from_dst, 1};
    eng_send(u->ctx, u->unit, u->ep_unit[to_src], u->now, arrive * u->icnt_ps - u->now, ICNT_MSG_CREDIT, &cr,
             sizeof cr);
}

static ps_t iq_tick(void *self, struct eng_ctx *ctx, ps_t now)
{
    struct iq_unit *u = self;
    u->ctx = ctx;
    u->now = now;
    uint64_t c = now / u->icnt_ps;
    uint64_t a = icnt_iq_tick(&u->net[0], c), b = icnt_iq_tick(&u->net[1], c);
    uint64_t next = a < b ? a : b;
    return next == CYCLE_NEVER ? PS_NEVER : next * u->icnt_ps;
}

static ps_t iq_recv(void *self, struct eng_ctx *ctx, const struct eng_msg *m, ps_t now)
{
    struct iq_unit *u = self;
    u->ctx = ctx;
    u->now = now;
    uint64_t c = now / u->icnt_ps;
    if (m->type == ICNT_MSG_FLIT) {
        struct icnt_flit f;
        memcpy(&f, m->payload, sizeof f); /* the network follows from the source */
        int n = icnt_ep_is_sm(u->topo, f.src) ? 0 : 1;
        const void *p = icnt_msg_unpack_flit(m, &f, net_payload(n), u->icnt_ps);
        icnt_iq_flit_arrive(&u->net[n], &f, p, c);
    } else {
        struct icnt_msg_credit cr;
        icnt_msg_unpack_credit(m, &cr);
        SIM_ASSERT(cr.n == 1, "icnt_iq: a run of %u credits (runs are off with a switch, NOTE(credit-run))", cr.n);
        icnt_iq_credit(&u->net[icnt_ep_is_sm(u->topo, cr.from_dst) ? 1 : 0], cr.from_dst, c);
    }
    return now;
}

const struct eng_unit_ops iq_unit_ops = {"icnt_iq", iq_tick, iq_recv};

void iq_unit_links_add(struct engine *eng, const struct icnt_topo *t, const uint32_t *ep_unit, uint32_t unit,
                       uint64_t icnt_ps)
{
    for (uint32_t e = 0; e < t->n_ep; e++) {
        if (e == t->sw_ep)
            continue;
        eng_link_add(eng, ep_unit[e], unit, (ps_t)icnt_topo_lat(t, e, t->sw_ep) * icnt_ps);
        eng_link_add(eng, unit, ep_unit[e], (ps_t)icnt_topo_lat(t, t->sw_ep, e) * icnt_ps);
    }
}

struct iq_unit *iq_unit_create(struct eng_ctx *ctx, uint32_t unit, const struct icnt_topo *t,
                               const struct icnt_net_cfg *cfg, const uint32_t *ep_unit, uint64_t icnt_ps)
{
    struct iq_unit *u = eng_alloc(ctx, sizeof *u);
    u->ep_unit = ep_unit;
    u->topo = t;
    u->icnt_ps = icnt_ps;
    u->unit = unit;
    for (int n = 0; n < 2; n++) {
        struct icnt_iq_args a = {t, cfg, net_payload(n), send_flit, send_credit, u};
        icnt_iq_init(&u->net[n], &a);
    }
    eng_unit_bind(ctx, unit, u);
    return u;
}

void iq_unit_fini(struct iq_unit *u)
{
    if (!u)
        return;
    icnt_iq_fini(&u->net[0]);
    icnt_iq_fini(&u->net[1]);
}

bool iq_unit_idle(const struct iq_unit *u) { return icnt_iq_idle(&u->net[0]) && icnt_iq_idle(&u->net[1]); }

void iq_unit_stats_register(struct iq_unit *u, struct stats *s)
{
    icnt_iq_stats_register(&u->net[0], s, "icnt_iq.request");
    icnt_iq_stats_register(&u->net[1], s, "icnt_iq.reply");
}
