// workloads/sssp: single-source shortest paths over a directed graph with
// positive integer edge weights (CSR), frontier-based Bellman-Ford in the
// style of the GPU SSSP of Harish and Narayanan that GPGPU-Sim's benchmark
// set and LonestarGPU evaluate (written for gpusim). One thread per node, two
// kernels per round:
//   sssp_relax:  every node in the frontier (mask set) leaves the frontier
//                and offers dist[v] + w to each out-neighbour u whose
//                settled distance dist[u] is larger, by atomicMin on the
//                tentative array upd[u];
//   sssp_settle: every node whose tentative distance dropped below dist[v]
//                takes it, joins the next frontier and raises the "changed"
//                flag (upd[v] and dist[v] are then equal again: upd only
//                ever decreases, so it needs no reset).
// dist is only written by sssp_settle, so within sssp_relax every branch
// depends on values fixed before the launch: the work done (and so the
// instruction count) and the final distances do not depend on the order in
// which threads run, and atomicMin makes the minimum over all offers exact
// whatever the interleaving. Round k settles every node whose cheapest path
// with at most k edges improves on its previous value, so the loop ends
// after (hop count of the longest shortest path) + 1 rounds at most.
// Inter-core locality: the input graph has hub nodes with very high
// in-degree, so relaxing threads on many SMs read dist[] and update upd[] of
// the same hubs around the same time.

extern "C" __global__ void sssp_relax(const int *__restrict__ row_start, const int *__restrict__ col,
                                      const unsigned *__restrict__ weight, unsigned char *mask, const unsigned *dist,
                                      unsigned *upd, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !mask[v])
        return;
    mask[v] = 0;
    unsigned dv = dist[v];
#pragma unroll 1
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
        int u = col[e];
        unsigned nd = dv + weight[e];
        if (nd < dist[u])
            atomicMin(&upd[u], nd);
    }
}

extern "C" __global__ void sssp_settle(unsigned char *mask, unsigned *dist, unsigned *upd, int *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    unsigned t = upd[v];
    if (t < dist[v]) {
        dist[v] = t;
        mask[v] = 1;
        *changed = 1;
    }
}
