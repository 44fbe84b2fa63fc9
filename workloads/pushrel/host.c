/* workloads/pushrel/host.c: driver for pushrel (max-flow / min-cut of a grid
 * graph by synchronous push-relabel in one launch with a grid barrier).
 *
 * Input from --seed: a w x h 4-connected grid; every edge direction has a
 * capacity uniform in [1, 15]; source and sink capacities are
 * max(0, uniform[-30, 30) + 25 inside one of two disc-shaped "objects")
 * (the source disc around (h/3, w/3), the sink disc around (2h/3, 2w/3)),
 * so many nodes have no terminal edge and the cut has to follow the
 * grid. Launch: 128-thread blocks, each owning a contiguous range of >= 64
 * nodes, at most the resident CTA count (blocks wait at the barrier).
 * Checks (exact, integers):
 *   - the flow value against a CPU max flow by a different algorithm
 *     (Dinic's blocking flows on the same graph);
 *   - validity of the device's final preflow: residuals within capacity
 *     and antisymmetric (cf(u,v) + cf(v,u) = cap(u,v) + cap(v,u)), excess
 *     >= 0, conservation at every node, sink flow = the sink edges' use;
 *   - the device state against a CPU replay of the same synchronous
 *     rounds (residuals, excesses, heights, round and global-relabel
 *     counts): the algorithm is schedule-independent by construction. */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define BLOCK 128

struct graph {
    int w, h, n;
    int32_t *cap;    /* 4n: N, S, W, E */
    int32_t *cs, *ct; /* source and sink capacities */
};

static int neighbour(int u, int d, int w, int n)
{
    switch (d) {
    case 0: return u >= w ? u - w : -1;
    case 1: return u + w < n ? u + w : -1;
    case 2: return u % w ? u - 1 : -1;
    default: return (u + 1) % w ? u + 1 : -1;
    }
}

/* ------------------------------------------------ Dinic (independent) */
struct dinic {
    int nv, ne;
    int *head, *next, *to, *level, *it, *queue;
    int64_t *capr;
};

static void dn_edge(struct dinic *g, int a, int b, int64_t c)
{
    g->to[g->ne] = b, g->capr[g->ne] = c, g->next[g->ne] = g->head[a], g->head[a] = g->ne++;
    g->to[g->ne] = a, g->capr[g->ne] = 0, g->next[g->ne] = g->head[b], g->head[b] = g->ne++;
}

static bool dn_bfs(struct dinic *g, int s, int t)
{
    for (int v = 0; v < g->nv; v++)
        g->level[v] = -1;
    int qh = 0, qt = 0;
    g->queue[qt++] = s;
    g->level[s] = 0;
    while (qh < qt) {
        int v = g->queue[qh++];
        for (int e = g->head[v]; e >= 0; e = g->next[e])
            if (g->capr[e] > 0 && g->level[g->to[e]] < 0) {
                g->level[g->to[e]] = g->level[v] + 1;
                g->queue[qt++] = g->to[e];
            }
    }
    return g->level[t] >= 0;
}

/* Blocking-flow DFS, iterative (the level graph can be long). */
static int64_t dn_augment(struct dinic *g, int s, int t)
{
    int *path = g->queue; /* edge stack; the BFS queue is free now */
    int64_t total = 0;
    int depth = 0, v = s;
    for (;;) {
        if (v == t) {
            int64_t f = INT64_MAX;
            for (int i = 0; i < depth; i++)
                if (g->capr[path[i]] < f)
                    f = g->capr[path[i]];
            for (int i = 0; i < depth; i++) {
                g->capr[path[i]] -= f;
                g->capr[path[i] ^ 1] += f;
            }
            total += f;
            depth = 0;
            v = s;
            continue;
        }
        int e = g->it[v];
        while (e >= 0 && !(g->capr[e] > 0 && g->level[g->to[e]] == g->level[v] + 1))
            e = g->next[e];
        g->it[v] = e;
        if (e >= 0) {
            path[depth++] = e;
            v = g->to[e];
        } else { /* dead end: retreat */
            if (v == s)
                return total;
            g->level[v] = -1;
            int pe = path[--depth];
            v = g->to[pe ^ 1];
            g->it[v] = g->next[g->it[v]];
        }
    }
}

static int64_t dinic_maxflow(struct wl *w, const struct graph *gr)
{
    struct dinic g = {0};
    int s = gr->n, t = gr->n + 1, max_e = 2 * (6 * gr->n);
    g.nv = gr->n + 2;
    g.head = wl_host_alloc(w, (size_t)g.nv * sizeof(int));
    g.level = wl_host_alloc(w, (size_t)g.nv * sizeof(int));
    g.it = wl_host_alloc(w, (size_t)g.nv * sizeof(int));
    g.queue = wl_host_alloc(w, (size_t)(g.nv + 1) * sizeof(int));
    g.next = wl_host_alloc(w, (size_t)max_e * sizeof(int));
    g.to = wl_host_alloc(w, (size_t)max_e * sizeof(int));
    g.capr = wl_host_alloc(w, (size_t)max_e * sizeof(int64_t));
    int64_t flow = -1;
    if (wl_ok(w)) {
        for (int v = 0; v < g.nv; v++)
            g.head[v] = -1;
        for (int u = 0; u < gr->n; u++) {
            if (gr->cs[u])
                dn_edge(&g, s, u, gr->cs[u]);
            if (gr->ct[u])
                dn_edge(&g, u, t, gr->ct[u]);
            for (int d = 0; d < 4; d++) {
                int v = neighbour(u, d, gr->w, gr->n);
                if (v >= 0)
                    dn_edge(&g, u, v, gr->cap[4 * u + d]);
            }
        }
        flow = 0;
        while (dn_bfs(&g, s, t)) {
            memcpy(g.it, g.head, (size_t)g.nv * sizeof(int));
            flow += dn_augment(&g, s, t);
        }
    }
    free(g.head);
    free(g.level);
    free(g.it);
    free(g.queue);
    free(g.next);
    free(g.to);
    free(g.capr);
    return flow;
}

/* ------------------------------------- replay of kernel.cu's rounds */
struct prstate {
    int32_t *cf, *x, *rt, *hgt;
    int64_t sink;
    int rounds, relabels;
};

static void replay(const struct graph *g, struct prstate *s, int32_t *xin, int32_t *hn, int every)
{
    int n = g->n, w = g->w;
    int32_t *hc = s->hgt;
    for (int round = 0;; round++) {
        if (round % every == 0) {
            s->relabels++;
            for (int u = 0; u < n; u++)
                hc[u] = s->rt[u] > 0 ? 1 : n;
            for (int level = 1;; level++) {
                unsigned c = 0;
                for (int u = 0; u < n; u++) {
                    if (hc[u] != n)
                        continue;
                    for (int d = 0; d < 4; d++) {
                        int v = neighbour(u, d, w, n);
                        if (v >= 0 && s->cf[4 * u + d] > 0 && hc[v] == level) {
                            hc[u] = level + 1; /* level + 1 never matches `level`: in place is exact */
                            c++;
                            break;
                        }
                    }
                }
                if (c == 0)
                    break;
            }
            unsigned act = 0;
            for (int u = 0; u < n; u++)
                act += s->x[u] > 0 && hc[u] < n;
            if (act == 0) {
                s->rounds = round;
                return;
            }
        }
        for (int u = 0; u < n; u++) {
            int32_t e = s->x[u], hu = hc[u];
            if (e <= 0 || hu >= n)
                continue;
            if (hu == 1 && s->rt[u] > 0) {
                int32_t a = e < s->rt[u] ? e : s->rt[u];
                s->rt[u] -= a;
                e -= a;
                s->sink += a;
            }
            for (int d = 0; d < 4 && e > 0; d++) {
                int v = neighbour(u, d, w, n);
                if (v < 0 || hc[v] != hu - 1 || s->cf[4 * u + d] <= 0)
                    continue;
                int32_t a = e < s->cf[4 * u + d] ? e : s->cf[4 * u + d];
                s->cf[4 * u + d] -= a;
                s->cf[4 * v + (d ^ 1)] += a;
                xin[v] += a;
                e -= a;
            }
            s->x[u] = e;
        }
        unsigned act = 0;
        for (int u = 0; u < n; u++) {
            int32_t e = s->x[u] + xin[u], hu = hc[u], nh = hu;
            xin[u] = 0;
            s->x[u] = e;
            if (e > 0 && hu < n) {
                bool adm = hu == 1 && s->rt[u] > 0;
                int32_t low = s->rt[u] > 0 ? 0 : n;
                for (int d = 0; d < 4; d++) {
                    int v = neighbour(u, d, w, n);
                    if (v < 0 || s->cf[4 * u + d] <= 0)
                        continue;
                    adm |= hc[v] == hu - 1;
                    if (hc[v] < low)
                        low = hc[v];
                }
                if (!adm)
                    nh = low + 1 < n ? low + 1 : n;
            }
            hn[u] = nh;
            act += e > 0 && nh < n;
        }
        memcpy(hc, hn, (size_t)n * sizeof(int32_t));
        if (act == 0) {
            s->rounds = round + 1;
            return;
        }
    }
}

static int run(struct wl *w)
{
    struct graph g;
    g.w = (int)wl_pick(w, 24, 96, 256, 512);
    g.h = (int)wl_pick(w, 16, 80, 256, 512);
    g.n = g.w * g.h;
    int n = g.n, every = 16; /* rounds between global relabels */
    size_t nb = (size_t)n * sizeof(int32_t);
    g.cap = wl_host_alloc(w, 4 * nb);
    g.cs = wl_host_alloc(w, nb);
    g.ct = wl_host_alloc(w, nb);
    struct prstate ref = {wl_host_alloc(w, 4 * nb), wl_host_alloc(w, nb), wl_host_alloc(w, nb),
                          wl_host_alloc(w, nb), 0, 0, 0};
    int32_t *x0 = wl_host_alloc(w, nb), *rt0 = wl_host_alloc(w, nb);
    int32_t *xin = wl_host_alloc(w, nb), *hn = wl_host_alloc(w, nb);
    int32_t *got_cf = wl_host_alloc(w, 4 * nb), *got_x = wl_host_alloc(w, nb), *got_rt = wl_host_alloc(w, nb),
            *got_h = wl_host_alloc(w, nb);
    if (!wl_ok(w))
        goto out;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    int64_t f0 = 0;
    for (int u = 0; u < n; u++) {
        int row = u / g.w, col = u % g.w;
        for (int d = 0; d < 4; d++)
            g.cap[4 * u + d] = neighbour(u, d, g.w, n) >= 0 ? 1 + (int32_t)wl_rng_below(&r, 15) : 0;
        int32_t a = (int32_t)wl_rng_below(&r, 60) - 30, b = (int32_t)wl_rng_below(&r, 60) - 30;
        int dr = row - g.h / 3, dc = col - g.w / 3;
        if (dr * dr + dc * dc < n / 16)
            a += 25;
        dr = row - 2 * g.h / 3, dc = col - 2 * g.w / 3;
        if (dr * dr + dc * dc < n / 12)
            b += 25;
        g.cs[u] = a > 0 ? a : 0;
        g.ct[u] = b > 0 ? b : 0;
        int32_t m = g.cs[u] < g.ct[u] ? g.cs[u] : g.ct[u]; /* straight through s -> u -> t */
        f0 += m;
        x0[u] = g.cs[u] - m;
        rt0[u] = g.ct[u] - m;
    }
    memcpy(ref.cf, g.cap, 4 * nb);
    memcpy(ref.x, x0, nb);
    memcpy(ref.rt, rt0, nb);
    replay(&g, &ref, xin, hn, every);
    int64_t want_flow = dinic_maxflow(w, &g);

    gs_function *k = wl_kernel(w, "pushrel");
    unsigned grid = wl_max_resident_ctas(w, k, BLOCK, 0);
    unsigned by_size = (unsigned)((n + 63) / 64);
    if (grid > by_size)
        grid = by_size;
    uint64_t dcf = wl_alloc_copy(w, g.cap, 4 * nb);
    uint64_t dx = wl_alloc_copy(w, x0, nb), drt = wl_alloc_copy(w, rt0, nb);
    uint64_t dxin = wl_alloc(w, nb), dha = wl_alloc(w, nb), dhb = wl_alloc(w, nb);
    uint64_t dsink = wl_alloc(w, sizeof(uint64_t)), darrive = wl_alloc(w, sizeof(uint32_t));
    uint64_t dcnt = wl_alloc(w, 3 * sizeof(uint32_t)), dres = wl_alloc(w, 3 * sizeof(int32_t));
    if (wl_ok(w))
        wl_note(w, "%u CTAs for %d nodes; CPU replay: %d rounds, %d global relabels", grid, n, ref.rounds,
                ref.relabels);
    void *params[] = {&g.w, &n, &dcf, &dx, &drt, &dxin, &dha, &dhb, &dsink, &darrive, &dcnt, &every, &dres};
    wl_launch(w, k, grid, 1, 1, BLOCK, 1, 1, 0, params);
    int32_t res[3] = {0, 0, 0};
    uint64_t sink = 0;
    wl_dtoh(w, res, dres, sizeof res);
    wl_dtoh(w, &sink, dsink, sizeof sink);
    wl_dtoh(w, got_cf, dcf, 4 * nb);
    wl_dtoh(w, got_x, dx, nb);
    wl_dtoh(w, got_rt, drt, nb);
    wl_dtoh(w, got_h, res[2] ? dhb : dha, nb);
    if (wl_ok(w)) {
        int64_t flow = f0 + (int64_t)sink;
        wl_check(w, flow == want_flow, "max flow: got %lld, expected %lld (Dinic)", (long long)flow,
                 (long long)want_flow);
        /* Validity of the preflow, from the device state alone. */
        size_t bad = 0;
        int64_t used = 0;
        for (int u = 0; u < n && bad < 10; u++) {
            int64_t bal = x0[u] - got_x[u] - (rt0[u] - got_rt[u]); /* = net flow out into the grid */
            used += rt0[u] - got_rt[u];
            bool ok = got_x[u] >= 0 && got_rt[u] >= 0 && got_rt[u] <= rt0[u];
            for (int d = 0; d < 4; d++) {
                int v = neighbour(u, d, g.w, n);
                if (v < 0)
                    continue;
                int32_t c = got_cf[4 * u + d];
                ok = ok && c >= 0 && c + got_cf[4 * v + (d ^ 1)] == g.cap[4 * u + d] + g.cap[4 * v + (d ^ 1)];
                bal -= g.cap[4 * u + d] - c; /* flow u -> v */
            }
            if (!ok || bal != 0) {
                wl_check(w, false, "preflow invalid at node %d (capacity, antisymmetry or conservation)", u);
                bad++;
            }
        }
        wl_check(w, used == (int64_t)sink, "sink flow %llu differs from the sink edges' use %lld",
                 (unsigned long long)sink, (long long)used);
        wl_check_i32(w, "cf", got_cf, ref.cf, 4 * (size_t)n);
        wl_check_i32(w, "x", got_x, ref.x, (size_t)n);
        wl_check_i32(w, "rt", got_rt, ref.rt, (size_t)n);
        wl_check_i32(w, "height", got_h, ref.hgt, (size_t)n);
        wl_check(w, res[0] == ref.rounds && res[1] == ref.relabels,
                 "rounds / global relabels: got %d / %d, expected %d / %d", res[0], res[1], ref.rounds,
                 ref.relabels);
    }
out:
    free(g.cap);
    free(g.cs);
    free(g.ct);
    free(ref.cf);
    free(ref.x);
    free(ref.rt);
    free(ref.hgt);
    free(x0);
    free(rt0);
    free(xin);
    free(hn);
    free(got_cf);
    free(got_x);
    free(got_rt);
    free(got_h);
    return wl_finish(w);
}

WL_REGISTER(pushrel) = {
    .name = "pushrel",
    .summary = "max flow / min cut of a grid graph by synchronous push-relabel in one launch (grid barrier)",
    .mirrors = "CudaCuts (graph cuts by push-relabel on a grid, CUDA cuts / CC of the GPU coherence papers)",
    .stresses = "grid barriers (2-3 per round, one per BFS level), atomics on other blocks' nodes, neighbour reads",
    .flags = WL_SHARING | WL_REG_HEAVY | WL_CACHE_SENS, /* 48 registers (kernel.ptx.regs) */
    .sizes = {"24x16 grid", "96x80 grid", "256x256 grid", "512x512 grid"},
    .run = run,
};
