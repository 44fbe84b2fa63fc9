// workloads/graphshare: connected components of an undirected graph (CSR)
// by minimum-label propagation, in place in one label array that all
// blocks read and write during the same launch (the asynchronous
// label-propagation / hook-and-shortcut CC kernels of GPU graph libraries,
// e.g. the Soman/Shiloach-Vishkin style CC of LonestarGPU or Gunrock).
//
// One thread per vertex v and sweep: m = min(label[v], label[label[v]]
// (shortcut), labels of v's neighbours); if m is smaller, lower label[v]
// with atomicMin; then push m to every neighbour whose label is larger
// (atomicMin). Any strict decrease sets the global `changed` flag and the
// host launches another sweep until a sweep changes nothing.
//
// Labels are always ids of vertices of the same component and never below
// its minimum id, so whatever the interleaving the fixpoint is the
// component's minimum vertex id. Labels written by other blocks in the same
// launch are read through a volatile pointer (never a stale cached copy);
// all updates are atomics.

extern "C" __global__ void cc_sweep(const int *__restrict__ row_ptr, const int *__restrict__ col, unsigned *label,
                                    unsigned *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    const volatile unsigned *vlabel = label;
    int e0 = row_ptr[v], e1 = row_ptr[v + 1];
    unsigned mine = vlabel[v];
    unsigned m = min(mine, vlabel[mine]); // shortcut (pointer jumping)
    // Degrees are small (a few edges): the edge loops are not unrolled.
#pragma unroll 1
    for (int e = e0; e < e1; e++) // pull
        m = min(m, vlabel[col[e]]);
    bool lowered = false;
    if (m < mine)
        lowered = atomicMin(&label[v], m) > m;
#pragma unroll 1
    for (int e = e0; e < e1; e++) { // push
        int u = col[e];
        if (vlabel[u] > m)
            lowered |= atomicMin(&label[u], m) > m;
    }
    if (lowered)
        *changed = 1u;
}
