/* sim/icnt/icnt_cfg.c: the network keys of the icnt.* section (spec baseline-gpu.md
 * 2.7, 3.4, 4.2; defaults are the gtx480 values), their cross-field rules and
 * packetisation. This table is the second part of section icnt (struct member
 * icnt_net); icnt.min_latency, the first part, is in sim/gpu/gpu_cfg.c. The old
 * names icnt_net.* are refused with a hint (sim/cfg/registry.c). See icnt.h
 * and docs/icnt.md. */
#include <stddef.h>
#include <stdio.h>

#include "sim/cfg/config.h"
#include "sim/icnt/icnt.h"
#include "sim/cfg/sim_cfg.h"

static const char *const icnt_topology_names[] = {"xbar", "mesh2d", "xbar_iq", NULL};

const struct cfg_key icnt_net_cfg_keys[] = {
    {"topology", CFG_ENUM, offsetof(struct icnt_net_cfg, topology), 0, 0, "xbar", icnt_topology_names,
     "xbar: single-stage crossbar (GPGPU-Sim fly, n = 1), contention at the receivers; mesh2d: end-to-end "
     "2D mesh, latency icnt.min_latency + hops x icnt.hop_latency; xbar_iq: input-queued crossbar through "
     "a central switch with head-of-line blocking (GPGPU-Sim 3.x's router; halves the lookahead)"},
    {"flit", CFG_SIZE, offsetof(struct icnt_net_cfg, flit), 8, 256, "32", NULL,
     "flit size (bytes); one flit per interconnect cycle per endpoint (GPGPU-Sim 3.x: 32 B)"},
    {"header", CFG_SIZE, offsetof(struct icnt_net_cfg, header), 0, 64, "8", NULL,
     "packet header (bytes); flits = ceil((header + payload) / flit) (GPGPU-Sim: 8 B)"},
    {"inj_buf", CFG_UINT, offsetof(struct icnt_net_cfg, inj_buf), 1, 4096, "9", NULL,
     "injection buffer per endpoint and network (flits); GPGPU-Sim interface default 9"},
    {"rx_fifo_flits", CFG_UINT, offsetof(struct icnt_net_cfg, rx_fifo_flits), 0, 65536, "0", NULL,
     "receiver FIFO per source (flits) = credits per (source, destination); "
     "0 = 2 x icnt.min_latency + 2 (18 for min_latency 8); must hold the largest packet"},
    {"mesh_cols", CFG_UINT, offsetof(struct icnt_net_cfg, mesh_cols), 1, 64, "6", NULL,
     "mesh2d: routers per row (OQ-B3 proposal 6 x 4)"},
    {"mesh_rows", CFG_UINT, offsetof(struct icnt_net_cfg, mesh_rows), 1, 64, "4", NULL,
     "mesh2d: rows of routers"},
    {"hop_latency", CFG_UINT, offsetof(struct icnt_net_cfg, hop_latency), 0, 1000, "1", NULL,
     "mesh2d: interconnect cycles added per router hop, on top of icnt.min_latency"},
    {"jitter", CFG_UINT, offsetof(struct icnt_net_cfg, jitter), 0, 4096, "0", NULL,
     "largest random extra latency per packet (icnt cycles, seeded by sim.seed; per-pair order kept); "
     "a timing perturbation for litmus tests, 0 = off (docs/memmodel.md)"},
    {"iq_buf_flits", CFG_UINT, offsetof(struct icnt_net_cfg, iq_buf_flits), 1, 4096, "8", NULL,
     "xbar_iq: input buffer per source at the switch (flits; GPGPU-Sim 3.x vc_buf_size 8); the switch "
     "holds this plus icnt.min_latency for the credit loop (docs/icnt.md)"},
    {"iq_alloc_delay", CFG_UINT, offsetof(struct icnt_net_cfg, iq_alloc_delay), 0, 64, "1", NULL,
     "xbar_iq: switch rounds (icnt cycles at icnt.iq_speedup 1) from an output's grant (VC allocation) to "
     "its packet's head crossing, the output "
     "held meanwhile (BookSim, not speculative: switch allocation sw_alloc_delay 1 after VC allocation)"},
    {"iq_speedup", CFG_UINT, offsetof(struct icnt_net_cfg, iq_speedup), 1, 4, "1", NULL,
     "xbar_iq: switch rounds per interconnect cycle (BookSim internal_speedup: GPGPU-Sim 3.x 1, 4.x 2); "
     "each round moves at most one flit per input and per output, the output links one flit per cycle "
     "(NOTE(iq-speedup))"},
};

const unsigned icnt_net_cfg_n_keys = ARRAY_LEN(icnt_net_cfg_keys);

uint32_t icnt_flits(const struct icnt_net_cfg *c, uint32_t payload_bytes)
{
    return (uint32_t)((c->header + payload_bytes + c->flit - 1) / c->flit);
}

uint32_t icnt_req_flits(const struct icnt_net_cfg *c, const struct mem_req *req)
{
    /* Reads carry no payload (spec 2.7); writes, write-backs and atomics
     * carry their segment, whose size the sender put in req->size. Other
     * registered kinds (sim/mem/memreq.c) size themselves. */
    if (req->op >= MEM_OP_COUNT)
        return icnt_kind_req_flits(c, req);
    uint32_t payload = req->op == MEM_OP_READ ? 0u : req->size;
    return icnt_flits(c, payload);
}

uint32_t icnt_reply_flits(const struct icnt_net_cfg *c, const struct mem_reply *rep)
{
    /* Write acks carry nothing; reads and atomics carry rep->size bytes;
     * other registered kinds size themselves. */
    if (rep->op >= MEM_OP_COUNT)
        return icnt_kind_reply_flits(c, rep);
    uint32_t payload = (rep->op == MEM_OP_WRITE || rep->op == MEM_OP_WRITEBACK) ? 0u : rep->size;
    return icnt_flits(c, payload);
}

uint32_t icnt_rx_fifo_depth(const struct icnt_net_cfg *c, uint64_t min_latency)
{
    return (uint32_t)(c->rx_fifo_flits ? c->rx_fifo_flits : 2u * min_latency + 2u);
}

uint32_t icnt_relaxed_fifo_extra(uint64_t min_latency, uint64_t icnt_ps, uint64_t quantum_ps)
{
    uint64_t l = min_latency * icnt_ps;
    if (quantum_ps <= l || icnt_ps == 0)
        return 0;
    uint64_t extra = 2 * ((quantum_ps - l + icnt_ps - 1) / icnt_ps);
    return (uint32_t)(extra > 65536u ? 65536u : extra);
}

const char *icnt_net_cfg_invalid(const struct icnt_net_cfg *c, uint64_t min_latency, uint64_t n_sm,
                                 uint64_t n_mem, const char **key)
{
    uint32_t max_pkt = icnt_flits(c, ICNT_MAX_PAYLOAD);
    *key = "icnt.flit";
    if (max_pkt > 255)
        return "gives packets of more than 255 flits";
    *key = "icnt.inj_buf";
    if (c->inj_buf < max_pkt)
        return "must hold the largest packet (ceil((header + 128) / flit) flits)";
    *key = "icnt.rx_fifo_flits";
    if (icnt_rx_fifo_depth(c, min_latency) < max_pkt)
        return "must hold the largest packet (ceil((header + 128) / flit) flits)";
    if (c->topology == ICNT_TOPO_XBAR_IQ) {
        *key = "icnt.min_latency";
        if (min_latency < 2)
            return "must be at least 2 with icnt.topology = xbar_iq (two links: source -> switch -> "
                   "destination)";
        *key = "icnt.iq_buf_flits";
        if (c->iq_buf_flits < max_pkt)
            return "must hold the largest packet (ceil((header + 128) / flit) flits)";
        *key = "icnt.jitter";
        if (c->jitter)
            return "must be 0 with icnt.topology = xbar_iq (the jitter perturbs direct links only)";
    }
    if (c->topology == ICNT_TOPO_MESH2D) {
        *key = "icnt.mesh_cols";
        if (c->mesh_cols * c->mesh_rows < n_sm + n_mem)
            return "mesh_cols x mesh_rows routers must hold gpu.n_sm + mem.n_partitions nodes";
        uint64_t edge = c->mesh_rows >= 2 ? (n_mem + 1) / 2 : n_mem;
        if (edge > c->mesh_cols)
            return "memory partitions sit on the top and bottom rows: need mesh_cols >= "
                   "ceil(mem.n_partitions / 2)";
    }
    return NULL;
}

void icnt_net_cfg_check(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck)
{
    const struct icnt_net_cfg *c = sec;
    const char *key;
    const char *why = icnt_net_cfg_invalid(c, all->icnt.min_latency, all->gpu.n_sm, all->mem.n_partitions, &key);
    if (!why && c->topology == ICNT_TOPO_XBAR_IQ && all->engine.relaxed) {
        /* The switch would forward late flits without their lateness, and the
         * receive FIFOs' relaxed allowance (NOTE(relaxed-fifo)) assumes one link. */
        cfg_check_fail(ck, "sync.relaxed", "must be false with icnt.topology = xbar_iq");
        return;
    }
    if (why)
        cfg_check_fail(ck, key, "%s (flit %llu, header %llu, inj_buf %llu, rx_fifo_flits %llu, mesh %llux%llu)",
                       why, (unsigned long long)c->flit, (unsigned long long)c->header,
                       (unsigned long long)c->inj_buf, (unsigned long long)c->rx_fifo_flits,
                       (unsigned long long)c->mesh_cols, (unsigned long long)c->mesh_rows);
}

const struct cfg_section icnt_net_cfg_section = {"icnt", "interconnect networks (request and reply)",
                                                 offsetof(struct sim_cfg, icnt_net), icnt_net_cfg_keys,
                                                 ARRAY_LEN(icnt_net_cfg_keys), icnt_net_cfg_check};

void icnt_net_cfg_defaults(struct icnt_net_cfg *c)
{
    for (size_t i = 0; i < ARRAY_LEN(icnt_net_cfg_keys); i++) {
        char why[256];
        const struct cfg_key *k = &icnt_net_cfg_keys[i];
        bool ok = cfg_parse_value(k, k->def, (char *)c + k->offset, why, sizeof why);
        SIM_ASSERT(ok, "icnt.%s default '%s': %s", k->name, k->def, why);
    }
    const char *key;
    const char *why = icnt_net_cfg_invalid(c, 8, 15, 6, &key);
    SIM_ASSERT(!why, "icnt network defaults: %s %s", key, why);
}
