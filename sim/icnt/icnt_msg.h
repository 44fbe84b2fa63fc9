/* sim/icnt/icnt_msg.h: the engine messages that carry interconnect traffic
 * between host partitions (spec baseline-gpu.md 1.5, 2.7, 3.4; docs/icnt.md,
 * docs/mempart_unit.md).
 *
 * What it models: nothing by itself. It fixes the wire format shared by the
 * two ends of both networks, so that the SM side (request sender, reply
 * receiver) and the memory-partition side (partitions/mempart/mempart_unit.c:
 * request receiver, reply sender) agree:
 *  - ICNT_MSG_FLIT: one flit, or a burst of a packet's flits (f->burst,
 *    NOTE(icnt-burst) in sim/icnt/icnt.h). Payload = struct icnt_flit (24 B),
 *    followed, on the message that carries the TAIL flit only, by the
 *    packet's payload (a struct mem_req on the
 *    request network, a struct mem_reply on the reply network), as
 *    NOTE(icnt-tail-payload) in sim/icnt/icnt.h says. Arrival = the icnt cycle the
 *    sender half computed (send cycle + link latency) x icnt period.
 *  - ICNT_MSG_CREDIT: credits back to a sender half: one, or a run of n
 *    arriving one per cycle from the message's arrival (NOTE(credit-run) in
 *    sim/icnt/icnt.h). Payload = struct icnt_msg_credit. Arrival = the
 *    cycle the receiver half computed x icnt period.
 * The destination engine unit is the one hosting the endpoint f->dst (flit)
 * or cr->to_src (credit); which network a message belongs to follows from
 * the endpoint kind: flits to an SM endpoint and credits to a sub-partition
 * or central-node endpoint are reply-network traffic, the others
 * request-network traffic. A central node (icnt_topo_add_node) is a
 * server like a sub-partition: it receives requests and sends replies,
 * except the xbar_iq switch (topo->sw_ep, sim/icnt/iq_unit.c), which takes
 * flits and credits of both networks and tells them apart by the other
 * end's kind (a flit from an SM or a credit from a sub-partition is
 * request-network traffic). Every flit names the endpoint its link goes
 * to in f->hop (the destination, or the switch).
 *
 * Payload: any registered kind (mem_kind_table, docs/messages.md) travels
 * as a struct mem_req / struct mem_reply; the kind (op) decides the packet's
 * flit count (icnt_kind_req_flits / icnt_kind_reply_flits), not the bytes
 * copied, so the engine message of a tail flit is always 24 + 200 bytes on
 * the request network and 24 + 152 on the reply network.
 *
 * Not modelled here: anything about timing (the halves in sim/icnt/icnt.c decide
 * when a flit or credit leaves and arrives).
 */
#ifndef GPUSIM_SIM_ICNT_ICNT_MSG_H
#define GPUSIM_SIM_ICNT_ICNT_MSG_H

#include <stdint.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/icnt/icnt.h"
#include "sim/mem/memreq.h"
#include "sync/engine.h"

/* Engine message types (struct eng_msg.type). Values are distinct from the
 * synthetic model's (1) and leave room for other model messages. */
enum icnt_msg_type {
    ICNT_MSG_FLIT = 0x1C01u,   /* struct icnt_flit [+ tail payload] */
    ICNT_MSG_CREDIT = 0x1C02u, /* struct icnt_msg_credit */
};

struct icnt_msg_credit {
    uint32_t to_src;   /* endpoint of the sender half that gets the credit back */
    uint32_t from_dst; /* endpoint whose receiver FIFO freed flit slots */
    uint32_t n;        /* credits: one at the arrival cycle and one at each of the next n - 1 cycles */
};

/* The largest flit message: a tail flit with a request (24 + 200 bytes). */
#define ICNT_MSG_FLIT_MAX_BYTES (sizeof(struct icnt_flit) + sizeof(struct mem_req))

_Static_assert(sizeof(struct icnt_flit) + sizeof(struct mem_req) <= ENG_MSG_PAYLOAD,
               "a request tail flit (flit + struct mem_req) must fit one engine message");
_Static_assert(sizeof(struct icnt_flit) + sizeof(struct mem_reply) <= ENG_MSG_PAYLOAD,
               "a reply tail flit (flit + struct mem_reply) must fit one engine message");

/* Build a flit message in buf (ENG_MSG_PAYLOAD bytes); payload is non-NULL
 * for the tail only. Returns the message length (bytes). */
static inline uint32_t icnt_msg_pack_flit(uint8_t *buf, const struct icnt_flit *f, const void *payload,
                                          uint32_t payload_bytes)
{
    memcpy(buf, f, sizeof *f);
    if (!payload)
        return (uint32_t)sizeof *f;
    SIM_ASSERT(sizeof *f + payload_bytes <= ENG_MSG_PAYLOAD, "icnt_msg: payload of %u bytes too large",
               payload_bytes);
    memcpy(buf + sizeof *f, payload, payload_bytes);
    return (uint32_t)(sizeof *f + payload_bytes);
}

/* Send flit f (with the tail payload when payload is non-NULL) as one
 * engine message: the bytes of icnt_msg_pack_flit, without packing them
 * into a buffer first. */
static inline void icnt_msg_send_flit(struct eng_ctx *ctx, uint32_t src_unit, uint32_t dst_unit, ps_t now,
                                      ps_t latency, const struct icnt_flit *f, const void *payload,
                                      uint32_t payload_bytes)
{
    SIM_ASSERT(sizeof *f + payload_bytes <= ENG_MSG_PAYLOAD, "icnt_msg: payload of %u bytes too large",
               payload_bytes);
    eng_send2(ctx, src_unit, dst_unit, now, latency, ICNT_MSG_FLIT, f, (uint32_t)sizeof *f, payload,
              payload ? payload_bytes : 0);
}

/* Read a flit message: copies the flit into *f and returns a pointer to the
 * tail payload inside m (NULL for head/body flits). Checks the length.
 * f->late gets the engine's relaxed-mode lateness in whole interconnect
 * cycles of icnt_ps (0 in exact mode; saturates at 65535). */
static inline const void *icnt_msg_unpack_flit(const struct eng_msg *m, struct icnt_flit *f,
                                               uint32_t payload_bytes, uint64_t icnt_ps)
{
    SIM_ASSERT(m->type == ICNT_MSG_FLIT && m->len >= sizeof *f, "icnt_msg: bad flit message (type %u len %u)",
               m->type, m->len);
    memcpy(f, m->payload, sizeof *f);
    if (m->late) {
        uint64_t l = m->late / icnt_ps;
        f->late = (uint16_t)(l > UINT16_MAX ? UINT16_MAX : l);
    }
    if (!icnt_flit_has_tail(f)) { /* a burst carries the tail's payload (NOTE(icnt-burst)) */
        SIM_ASSERT(m->len == sizeof *f, "icnt_msg: non-tail flit with %u bytes", m->len);
        return NULL;
    }
    SIM_ASSERT(m->len == sizeof *f + payload_bytes, "icnt_msg: tail flit of %u bytes, want %u", m->len,
               (unsigned)(sizeof *f + payload_bytes));
    return m->payload + sizeof *f;
}

static inline void icnt_msg_unpack_credit(const struct eng_msg *m, struct icnt_msg_credit *c)
{
    SIM_ASSERT(m->type == ICNT_MSG_CREDIT && m->len == sizeof *c, "icnt_msg: bad credit message (type %u len %u)",
               m->type, m->len);
    memcpy(c, m->payload, sizeof *c);
}

#endif /* GPUSIM_SIM_ICNT_ICNT_MSG_H */
