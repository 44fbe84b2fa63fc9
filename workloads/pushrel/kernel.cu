// workloads/pushrel: maximum flow / minimum cut of a 4-connected grid graph
// with source and sink edges at every node (the graph-cut formulation of
// image segmentation) by push-relabel, all in ONE launch of persistent
// blocks separated by a software grid barrier (the CudaCuts benchmark of
// the GPU coherence papers, seed 001 ch. 3, written as a synchronous,
// hence deterministic, algorithm).
//
// State per node u (n = w*h nodes, edge slot 4u + d, d = N, S, W, E, and
// the reverse slot of d is d ^ 1): residual capacities cf[4u + d], the
// residual capacity to the sink rt[u], the excess x[u] and the height.
// The host has already sent min(source cap, sink cap) straight through
// every node, so x = what is left of the source edge, rt = of the sink
// edge. Heights >= n mean "cannot reach the sink"; such nodes are inactive.
//
// One round = two phases, each ended by the grid barrier:
//   push:    every active node u (x > 0, height < n) pushes to the sink if
//            height(u) = 1, then to each neighbour v with height(v) =
//            height(u) - 1 and cf > 0. Its own slot cf[4u + d] is a plain
//            update; the reverse slot cf[4v + (d^1)] and v's incoming excess
//            xin[v] are atomicAdds (v belongs to any block). No two nodes
//            touch the same slot non-atomically in one phase: v could only
//            push back to u if height(u) = height(v) - 1.
//   relabel: x[u] += xin[u]; an active node with no admissible edge gets
//            height 1 + the lowest height over its residual edges (0 for
//            the sink), capped at n; heights are read from one buffer and
//            written to the other; the active nodes are counted.
// Every `relabel_every` rounds (and at the start) a global relabel sets
// every height to the exact residual distance to the sink (n when there is
// none) by a level-synchronous backwards BFS, one barrier per level.
// The run ends when no node is active: the flow into the sink is then the
// maximum flow. Because every phase reads only values fixed by the last
// barrier (and sums integers with atomics), the result - flow, residuals,
// heights, round count - is the same for every schedule.
//
// Inter-block communication: the neighbours' heights, the atomics on
// cf/xin of other blocks' nodes and the plain loads of the own xin/cf that
// other blocks updated (all read after the barrier's fence), the counters
// and the barrier itself (atomics, volatile loads). Blocks wait at the
// barrier, so all must be resident (the host sizes the grid).

#define BLOCK 128

// Software grid barrier on one monotonic arrival counter: the k-th barrier
// is passed when the counter reaches k * gridDim.x (no reset needed).
__device__ static void grid_barrier(unsigned *arrive, unsigned *epoch)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned target = (++*epoch) * gridDim.x;
        __threadfence(); // this block's writes before its arrival
        atomicAdd(arrive, 1u);
        while (*(volatile unsigned *)arrive < target)
            ;
        __threadfence(); // acquire: the other blocks' writes
    }
    __syncthreads();
}

// Grid-wide sum of each block's `v` (one barrier). Counter slot q % 3 is
// summed; block 0 clears slot (q + 1) % 3 for the next sum (last read
// before the previous barrier).
__device__ static unsigned grid_sum(unsigned v, unsigned *cnt, unsigned *q, unsigned *arrive, unsigned *epoch)
{
    __shared__ unsigned s_v;
    if (threadIdx.x == 0)
        s_v = 0;
    __syncthreads();
    if (v)
        atomicAdd(&s_v, v);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (s_v)
            atomicAdd(&cnt[*q % 3], s_v);
        if (blockIdx.x == 0)
            atomicExch(&cnt[(*q + 1) % 3], 0u);
    }
    grid_barrier(arrive, epoch);
    __shared__ unsigned s_total;
    if (threadIdx.x == 0)
        s_total = *(volatile unsigned *)&cnt[*q % 3];
    __syncthreads();
    unsigned t = s_total;
    ++*q;
    __syncthreads(); // s_v / s_total reused by the next call
    return t;
}

__device__ static int neighbour(int u, int d, int w, int n)
{
    switch (d) {
    case 0: return u >= w ? u - w : -1;          // N
    case 1: return u + w < n ? u + w : -1;       // S
    case 2: return u % w ? u - 1 : -1;           // W
    default: return (u + 1) % w ? u + 1 : -1;    // E
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
    pushrel(int w, int n, int *cf, int *x, int *rt, int *xin, int *hA, int *hB, unsigned long long *sink,
            unsigned *arrive, unsigned *cnt, int relabel_every, int *result)
{
    int lo = (int)((long long)blockIdx.x * n / gridDim.x);
    int hi = (int)((long long)(blockIdx.x + 1) * n / gridDim.x);
    unsigned epoch = 0, q = 0;
    int *hc = hA, *hn = hB; // current and next heights
    long long to_sink = 0;
    int round = 0, relabels = 0;
    for (;; round++) {
        if (round % relabel_every == 0) { // global relabel: backwards BFS from the sink
            relabels++;
            for (int u = lo + threadIdx.x; u < hi; u += BLOCK)
                hc[u] = rt[u] > 0 ? 1 : n;
            grid_barrier(arrive, &epoch);
            for (int level = 1;; level++) {
                unsigned c = 0;
                for (int u = lo + threadIdx.x; u < hi; u += BLOCK) {
                    if (hc[u] != n)
                        continue;
                    for (int d = 0; d < 4; d++) {
                        int v = neighbour(u, d, w, n);
                        // hc[v] is either final (<= level) or n or level + 1
                        // being written now: only a final `level` matches
                        if (v >= 0 && cf[4 * u + d] > 0 && hc[v] == level) {
                            hc[u] = level + 1;
                            c++;
                            break;
                        }
                    }
                }
                if (grid_sum(c, cnt, &q, arrive, &epoch) == 0)
                    break;
            }
            unsigned act = 0;
            for (int u = lo + threadIdx.x; u < hi; u += BLOCK)
                act += x[u] > 0 && hc[u] < n;
            if (grid_sum(act, cnt, &q, arrive, &epoch) == 0)
                break;
        }

        // Push phase.
        for (int u = lo + threadIdx.x; u < hi; u += BLOCK) {
            int e = x[u], hu = hc[u];
            if (e <= 0 || hu >= n)
                continue;
            if (hu == 1 && rt[u] > 0) {
                int a = min(e, rt[u]);
                rt[u] -= a;
                e -= a;
                to_sink += a;
            }
            for (int d = 0; d < 4 && e > 0; d++) {
                int v = neighbour(u, d, w, n);
                if (v < 0 || hc[v] != hu - 1) // height first: cf is then ours alone
                    continue;
                int c = cf[4 * u + d];
                if (c <= 0)
                    continue;
                int a = min(e, c);
                cf[4 * u + d] = c - a;
                atomicAdd(&cf[4 * v + (d ^ 1)], a);
                atomicAdd(&xin[v], a);
                e -= a;
            }
            x[u] = e;
        }
        grid_barrier(arrive, &epoch);

        // Relabel phase.
        unsigned act = 0;
        for (int u = lo + threadIdx.x; u < hi; u += BLOCK) {
            int e = x[u] + xin[u], hu = hc[u], nh = hu;
            xin[u] = 0;
            x[u] = e;
            if (e > 0 && hu < n) {
                bool admissible = hu == 1 && rt[u] > 0;
                int low = rt[u] > 0 ? 0 : n;
                for (int d = 0; d < 4; d++) {
                    int v = neighbour(u, d, w, n);
                    if (v < 0 || cf[4 * u + d] <= 0)
                        continue;
                    int hv = hc[v];
                    admissible |= hv == hu - 1;
                    low = min(low, hv);
                }
                if (!admissible)
                    nh = min(low + 1, n);
            }
            hn[u] = nh;
            act += e > 0 && nh < n;
        }
        int *t = hc;
        hc = hn;
        hn = t;
        if (grid_sum(act, cnt, &q, arrive, &epoch) == 0) {
            round++;
            break;
        }
    }
    if (to_sink)
        atomicAdd(sink, (unsigned long long)to_sink);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        result[0] = round;
        result[1] = relabels;
        result[2] = hc == hA ? 0 : 1; // which buffer holds the final heights
    }
}
