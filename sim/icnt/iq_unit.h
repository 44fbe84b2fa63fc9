/* sim/icnt/iq_unit.h: the engine unit that hosts the xbar_iq switch of both
 * networks (icnt.topology = xbar_iq; switch model in icnt.h / icnt_iq.c,
 * docs/icnt.md "xbar_iq").
 *
 * What it models: nothing beyond the two struct icnt_iq (request network:
 * SMs -> sub-partitions; reply network: sub-partitions -> SMs) and the
 * engine messages that join them to the endpoints. It is the only unit of
 * its own engine partition, ticked in the interconnect clock domain; every
 * SM and memory-partition interconnect unit has a link to and from it
 * (latencies from the topology, NOTE(iq-links) in topology.c). Which network
 * a message belongs to follows from the endpoint kinds: flits from an SM and
 * credits from a sub-partition are request-network traffic.
 *
 * Not modelled here: anything about timing (icnt_iq.c decides it).
 */
#ifndef GPUSIM_SIM_ICNT_IQ_UNIT_H
#define GPUSIM_SIM_ICNT_IQ_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/icnt/icnt.h"
#include "sync/engine.h"

struct stats;

struct iq_unit {
    struct icnt_iq net[2];        /* [0] request network, [1] reply network */
    const uint32_t *ep_unit;      /* [n_ep] engine unit hosting each endpoint */
    const struct icnt_topo *topo;
    uint64_t icnt_ps;             /* interconnect period (ps) */
    uint32_t unit;                /* this engine unit */
    struct eng_ctx *ctx;          /* valid during tick / recv */
    ps_t now;                     /* engine time of the current tick / recv (ps) */
};

extern const struct eng_unit_ops iq_unit_ops;

/* Declare the links between every endpoint's unit and the switch unit. */
void iq_unit_links_add(struct engine *eng, const struct icnt_topo *t, const uint32_t *ep_unit, uint32_t unit,
                       uint64_t icnt_ps);
/* From the switch partition's init: allocate, set up both switches, bind. */
struct iq_unit *iq_unit_create(struct eng_ctx *ctx, uint32_t unit, const struct icnt_topo *t,
                               const struct icnt_net_cfg *cfg, const uint32_t *ep_unit, uint64_t icnt_ps);
void iq_unit_fini(struct iq_unit *u);
bool iq_unit_idle(const struct iq_unit *u);
/* Statistics icnt_iq.request.* and icnt_iq.reply.* (instance -1). */
void iq_unit_stats_register(struct iq_unit *u, struct stats *s);

#endif /* GPUSIM_SIM_ICNT_IQ_UNIT_H */
