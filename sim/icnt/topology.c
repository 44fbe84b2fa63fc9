/* sim/icnt/topology.c: topology policies of the interconnect (spec
 * baseline-gpu.md 1.3, 2.7, OQ-B3): per-pair link latencies and the
 * receiver's output arbitration, behind struct icnt_policy.
 *
 * Central nodes (icnt_topo_add_node) are endpoints like the others: the
 * xbar gives them min_latency to everyone; mesh2d places them on the first
 * free routers after the SMs.
 *
 *  - xbar: GPGPU-Sim's single-stage butterfly (fly, k = n_SM +
 *    n_sub-partitions, n = 1) with iSLIP allocation. Split into halves
 *    (icnt.c), every pair has the same link latency icnt.min_latency, and
 *    all contention is at the receiver's output: one output port per
 *    endpoint, so iSLIP reduces to a round-robin grant pointer that moves
 *    one past the granted source when its packet's tail has passed.
 *  - mesh2d: end to end, latency = icnt.min_latency + hops x
 *    icnt_net.hop_latency, hops = Manhattan distance between the two
 *    endpoints' routers (dimension-order routing is minimal). Contention
 *    only at the receiver (same round-robin output). No router buffers,
 *    no link contention: a hop-by-hop mesh is future work (spec 2.7).
 *
 * NOTE(mesh-placement): OQ-B3 gives neither dimensions nor placement; we
 * use the proposed 6 x 4 routers. A router hosts one SM or one memory
 * partition (both sub-partitions of a partition share its router, since a
 * partition is owned by one host thread). Memory partitions sit on the
 * top and bottom rows, alternating, at the centres of equal column
 * segments: even partitions 2i on row 0 at column (2i'+1) x cols /
 * (2 x n_top) with i' = i, odd partitions 2i+1 on the last row at column
 * i x cols / n_bot (n_top = ceil(n_mem/2), n_bot = floor(n_mem/2)); with
 * one row all partitions share row 0 at the centres of n_mem segments.
 * SMs then fill the free routers in row-major order. gtx480 (6 x 4, 15
 * SMs, 6 partitions): partitions 0, 2, 4 at (1,0), (3,0), (5,0);
 * partitions 1, 3, 5 at (0,3), (2,3), (4,3); SM 0, 1, 2 at (0,0) (2,0)
 * (4,0), SM 3..14 fill rows 1 and 2; (1,3) (3,3) (5,3) are spare.
 * Spreading the memory nodes
 * over two opposite edges keeps every SM within rows+cols/2 hops of a
 * partition and avoids one congested edge.
 */
#include <stdlib.h>

#include "sim/icnt/icnt.h"

static uint32_t rr_pick(const struct icnt_rx *rx)
{
    /* Round-robin from the grant pointer; the first non-empty FIFO wins.
     * Its head is a head flit: a source's packets arrive contiguously.
     * NOTE(rx-ne-mask): the receiver keeps a bit per non-empty FIFO, so
     * the pick is a find-first-set from the pointer (wrapping) instead of
     * a test of every source's count (27 on gtx480, 117 host instructions
     * a pick before session 36); the source picked is the same. */
    if (rx->n_flits_held == 0)
        return UINT32_MAX;
    uint32_t w = rx->rr_next >> 6;
    uint64_t m = rx->ne[w] & (~0ull << (rx->rr_next & 63));
    for (uint32_t k = 0; k <= rx->ne_words; k++) { /* the pointer's word last again, whole */
        if (m)
            return w * 64 + (uint32_t)__builtin_ctzll(m);
        w = w + 1 == rx->ne_words ? 0 : w + 1;
        m = rx->ne[w];
    }
    return UINT32_MAX;
}

static void xbar_build(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency)
{
    (void)c;
    for (size_t i = 0; i < (size_t)t->n_ep * t->n_ep; i++)
        t->lat[i] = (uint32_t)min_latency;
}

/* Router of memory partition m (see NOTE(mesh-placement)). */
static uint32_t mesh_mem_router(uint32_t m, uint32_t n_mem, uint32_t cols, uint32_t rows)
{
    if (rows < 2)
        return (2u * m + 1u) * cols / (2u * n_mem);
    uint32_t n_top = (n_mem + 1u) / 2u, n_bot = n_mem / 2u;
    if ((m & 1u) == 0)
        return (2u * (m / 2u) + 1u) * cols / (2u * n_top);
    return (rows - 1u) * cols + (m / 2u) * cols / n_bot;
}

static void mesh_build(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency)
{
    uint32_t cols = (uint32_t)c->mesh_cols, rows = (uint32_t)c->mesh_rows;
    uint32_t n_routers = cols * rows;
    SIM_ASSERT(n_routers >= t->n_sm + t->n_mem + t->n_node,
               "icnt mesh2d: %ux%u routers for %u SMs + %u partitions + %u central nodes", cols, rows, t->n_sm,
               t->n_mem, t->n_node);
    t->cols = cols;
    t->rows = rows;
    uint8_t *used = xcalloc(n_routers, 1);
    uint32_t *mem_router = xcalloc(t->n_mem ? t->n_mem : 1, sizeof *mem_router);
    for (uint32_t m = 0; m < t->n_mem; m++) {
        uint32_t r = mesh_mem_router(m, t->n_mem, cols, rows);
        SIM_ASSERT(r < n_routers && !used[r], "icnt mesh2d: partition %u placed on router %u twice", m, r);
        used[r] = 1;
        mem_router[m] = r;
    }
    uint32_t next = 0;
    for (uint32_t s = 0; s < t->n_sm; s++) {
        while (used[next])
            next++;
        used[next] = 1;
        t->router[s] = next;
    }
    uint32_t n_sub = t->n_mem * t->sub_per_partition;
    for (uint32_t e = t->n_sm; e < t->n_sm + n_sub; e++)
        t->router[e] = mem_router[(e - t->n_sm) / t->sub_per_partition];
    for (uint32_t k = 0; k < t->n_node; k++) { /* central nodes: the next free routers after the SMs */
        while (used[next])
            next++;
        used[next] = 1;
        t->router[t->n_sm + n_sub + k] = next;
    }
    free(used);
    free(mem_router);
    for (uint32_t a = 0; a < t->n_ep; a++)
        for (uint32_t b = 0; b < t->n_ep; b++)
            t->lat[(size_t)a * t->n_ep + b] =
                (uint32_t)(min_latency + (uint64_t)icnt_topo_hops(t, a, b) * c->hop_latency);
}

/* xbar_iq: every packet crosses two links, source -> switch (floor(L / 2)
 * cycles) and switch -> destination (the rest), L = icnt.min_latency, so
 * the zero-load latency is xbar's plus icnt.iq_alloc_delay (the switch
 * grants a head in its arrival cycle). The lookahead halves: the engine's
 * quantum is the shorter link. NOTE(iq-links).
 * Pairs without the switch keep L (no traffic uses them). */
static void xbar_iq_build(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency)
{
    xbar_build(t, c, min_latency);
    if (t->sw_ep == UINT32_MAX)
        return; /* called from init, before the switch node exists */
    uint32_t in = (uint32_t)(min_latency / 2), out = (uint32_t)min_latency - in;
    for (uint32_t e = 0; e < t->n_ep; e++) {
        t->lat[(size_t)e * t->n_ep + t->sw_ep] = in;
        t->lat[(size_t)t->sw_ep * t->n_ep + e] = out;
    }
}

const struct icnt_policy icnt_policy_xbar = {"xbar", xbar_build, rr_pick};
const struct icnt_policy icnt_policy_xbar_iq = {"xbar_iq", xbar_iq_build, rr_pick};
const struct icnt_policy icnt_policy_mesh2d = {"mesh2d", mesh_build, rr_pick};

uint32_t icnt_topo_hops(const struct icnt_topo *t, uint32_t a, uint32_t b)
{
    if (!t->router)
        return 0;
    uint32_t ra = t->router[a], rb = t->router[b];
    uint32_t xa = ra % t->cols, ya = ra / t->cols, xb = rb % t->cols, yb = rb / t->cols;
    return (xa > xb ? xa - xb : xb - xa) + (ya > yb ? ya - yb : yb - ya);
}

void icnt_topo_init(struct icnt_topo *t, const struct icnt_net_cfg *c, uint64_t min_latency, uint32_t n_sm,
                    uint32_t n_mem, uint32_t sub_per_partition)
{
    SIM_ASSERT(min_latency >= 1, "icnt: min_latency must be >= 1");
    SIM_ASSERT(sub_per_partition >= 1, "icnt: sub_per_partition must be >= 1");
    *t = (struct icnt_topo){0};
    t->n_sm = n_sm;
    t->n_mem = n_mem;
    t->sub_per_partition = sub_per_partition;
    t->n_ep = n_sm + n_mem * sub_per_partition;
    SIM_ASSERT(t->n_ep >= 1 && t->n_ep <= UINT16_MAX, "icnt: %u endpoints", t->n_ep);
    t->min_latency = min_latency;
    t->sw_ep = UINT32_MAX;
    t->pol = c->topology == ICNT_TOPO_MESH2D    ? &icnt_policy_mesh2d
             : c->topology == ICNT_TOPO_XBAR_IQ ? &icnt_policy_xbar_iq
                                                : &icnt_policy_xbar;
    t->lat = xcalloc((size_t)t->n_ep * t->n_ep, sizeof *t->lat);
    if (c->topology == ICNT_TOPO_MESH2D)
        t->router = xcalloc(t->n_ep, sizeof *t->router);
    t->pol->build(t, c, min_latency);
    if (c->topology == ICNT_TOPO_XBAR_IQ) {
        SIM_ASSERT(min_latency >= 2, "icnt xbar_iq: min_latency %llu < 2 (two links)",
                   (unsigned long long)min_latency);
        t->sw_ep = t->n_ep; /* the switch: the first central node (its links are built with it) */
        uint32_t ep = icnt_topo_add_node(t, c);
        SIM_ASSERT(ep == t->sw_ep, "icnt xbar_iq: switch node %u, expected %u", ep, t->sw_ep);
    }
}

uint32_t icnt_topo_add_node(struct icnt_topo *t, const struct icnt_net_cfg *c)
{
    SIM_ASSERT(t->lat && t->n_ep < UINT16_MAX, "icnt: add_node on an uninitialised or full topology");
    uint32_t ep = t->n_ep;
    t->n_node++;
    t->n_ep++;
    free(t->lat);
    t->lat = xcalloc((size_t)t->n_ep * t->n_ep, sizeof *t->lat);
    if (t->router) {
        free(t->router);
        t->router = xcalloc(t->n_ep, sizeof *t->router);
    }
    t->pol->build(t, c, t->min_latency);
    return ep;
}

void icnt_topo_fini(struct icnt_topo *t)
{
    free(t->lat);
    free(t->router);
    *t = (struct icnt_topo){0};
}
